"""harness_lib.approval and harness_ui.widget without a browser: plain sync tests that drive the
approvers with asyncio.run, and one that runs notebook 05's approval cell in a real ipykernel 6 kernel (installed for the
test; skipped if it cannot be)."""

import asyncio
import builtins
import html
import io
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from harness_kit import lang
from harness_lib import approval
from harness_ui import widget
from harness_lib.approval import (
    REJECTED_MESSAGE,
    ApprovalInterrupted,
    describe,
    scripted_approver,
    terminal_approver,
)
from harness_ui.widget import widget_approver

ACTION = ("write_file", {"path": "scratch/a.txt", "content": "hi"})
SHOWN = 'write_file({"path":"scratch/a.txt","content":"hi"})'


def test_describe_is_compact_json_and_keeps_non_ascii():
    assert describe(*ACTION) == SHOWN
    assert describe("write_file", {"content": "héllo ✓"}) == 'write_file({"content":"héllo ✓"})'
    assert describe("get_time", {}) == "get_time({})"


INVISIBLE = [
    "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",  # bidi embeddings and overrides
    "\u2066", "\u2067", "\u2068", "\u2069",              # bidi isolates
    "\u200e", "\u200f", "\u061c",                        # bidi marks
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff",    # zero-width characters
    "\x00", "\x07", "\x1b", "\r", "\x7f", "\x85", "\x9b",  # C0, DEL and C1 controls
    "\u2028", "\u2029", "\u00ad",                        # line/paragraph separators, soft hyphen
    "\u3164", "\u2800", "\u115f", "\u1160", "\uffa0",      # blank letters: Hangul fillers, Braille blank
    "\u00a0", "\u2007", "\u2009", "\u202f", "\u3000", "\u1680",  # spaces other than the plain one
    "\u0301", "\u0308", "\u20dd",                        # combining marks (e + U+0301 looks like é)
]


@pytest.mark.parametrize("char", INVISIBLE, ids=lambda c: f"U+{ord(c):04X}")
def test_describe_escapes_invisible_and_reordering_characters(char):
    shown = describe("write_file", {"path": f"scratch/a{char}b.txt"})
    assert char not in shown
    escaped = "\\r" if char == "\r" else f"\\u{ord(char):04x}"  # (JSON writes a carriage return as \r)
    assert f"a{escaped}b.txt" in shown
    assert json.loads(shown[len("write_file("):-1]) == {"path": f"scratch/a{char}b.txt"}  # still exact JSON


def test_describe_cannot_be_made_to_read_backwards():
    # U+202E RIGHT-TO-LEFT OVERRIDE: rendered, "scratch/evil\u202etxt.exe" would read "scratch/evilexe.txt"
    shown = describe("write_file", {"path": "scratch/evil\u202etxt.exe"})
    assert shown == 'write_file({"path":"scratch/evil\\u202etxt.exe"})'


def test_describe_escapes_characters_beyond_the_bmp_as_valid_json():
    tag_a = "\U000e0041"  # an invisible "tag" character, used to hide text from people but not from models
    shown = describe("write_file", {"content": f"hi{tag_a}"})
    assert shown == 'write_file({"content":"hi\\udb40\\udc41"})'
    assert json.loads(shown[len("write_file("):-1]) == {"content": f"hi{tag_a}"}


def test_describe_keeps_readable_text_readable():
    text = "héllo ✓ 中文 Ωμέγα עברית العربية 😀 tab\tnewline\n"
    shown = describe("write_file", {"content": text})
    assert shown == 'write_file({"content":"héllo ✓ 中文 Ωμέγα עברית العربية 😀 tab\\tnewline\\n"})'


def test_describe_never_shows_two_different_inputs_the_same():
    # each pair renders alike on screen (raw); escaped, they differ
    look_alikes = [("a b", "a\u00a0b"), ("a b", "a\u3164b"), ("ab", "a\u2800b"), ("é", "e\u0301"), ("ab", "a\u200bb"),
                   ("a  b", "a \u2009b")]
    for one, other in look_alikes:
        assert describe("write_file", {"path": one}) != describe("write_file", {"path": other})
        shown = describe("write_file", {"path": other})
        assert json.loads(shown[len("write_file("):-1]) == {"path": other}, "still exact JSON"
    assert describe("write_file", {"path": "a  b"}) == 'write_file({"path":"a  b"})', "plain spaces stay spaces"


def test_rejected_message_says_not_approved_and_blames_nobody():
    assert REJECTED_MESSAGE.startswith("Not approved")
    for claim in ("declined", "rejected", "you ", "You "):  # it is also what a timeout or an end of input sends
        assert claim not in REJECTED_MESSAGE
    from harness_kit.offline.planner import read_tool_result
    assert read_tool_result("write_file", REJECTED_MESSAGE, True) == "declined", "the model still reads it as a no"


# --- scripted ------------------------------------------------------------------------------------


def test_scripted_approver_answers_in_order_and_records_questions():
    approve = scripted_approver([True, False, True])

    async def ask_three():
        return [
            await approve("write_file", {"path": "scratch/1"}),
            await approve("delete_file", {"path": "scratch/2"}),
            await approve("http_post", {"url": "x"}),
        ]

    assert asyncio.run(ask_three()) == [True, False, True]
    assert approve.asked == [
        ("write_file", {"path": "scratch/1"}),
        ("delete_file", {"path": "scratch/2"}),
        ("http_post", {"url": "x"}),
    ]


def test_scripted_approver_running_out_of_decisions_is_a_clear_error():
    approve = scripted_approver([True])
    assert asyncio.run(approve(*ACTION)) is True
    with pytest.raises(RuntimeError, match=r"ran out of decisions.*question 2.*only 1 decision"):
        asyncio.run(approve("delete_file", {"path": "scratch/a.txt"}))


def test_scripted_approver_does_not_consume_the_callers_list():
    decisions = [False]
    asyncio.run(scripted_approver(decisions)(*ACTION))
    assert decisions == [False]


# --- terminal ------------------------------------------------------------------------------------


PROMPT = f"[approve] about to run high-impact action {SHOWN} — allow it? [y/N] "


class Terminal(io.StringIO):
    def isatty(self):
        return True


def answering(monkeypatch, line):
    """Make input() answer `line` as a person at a terminal would; returns the list of prompts it was given."""
    monkeypatch.setattr("sys.stdin", Terminal())  # the typed answer and its Enter are echoed by the terminal
    prompts = []
    monkeypatch.setattr(builtins, "input", lambda prompt="": (prompts.append(prompt), line)[1])
    return prompts


@pytest.mark.parametrize("line", ["y", "Y", "yes", "YES", "Yes", "  y  ", " yes\t"])
def test_terminal_approver_approves_only_an_explicit_yes(monkeypatch, capsys, line):
    prompts = answering(monkeypatch, line)
    assert asyncio.run(terminal_approver(*ACTION)) is True
    assert prompts == [PROMPT]
    assert capsys.readouterr().out == f"[approve] {SHOWN} → approved\n"


@pytest.mark.parametrize("line", ["", "   ", "n", "N", "no", " NO ", "nope", "reject", "q", "maybe", "yess", "ye",
                                  "y y", "yes please", "ok", "1", "true", "\x1b[A", "sí"])
def test_terminal_approver_rejects_every_other_answer(monkeypatch, capsys, line):
    prompts = answering(monkeypatch, line)
    assert asyncio.run(terminal_approver(*ACTION)) is False
    assert prompts == [PROMPT]
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith(f"[approve] {SHOWN} → rejected"), out


@pytest.mark.parametrize("hidden", ["\u3164", "\u2800", "\u00a0", "\u2009", "\u0301", "\u202e", "\u200b", "\x85"],
                         ids=lambda c: f"U+{ord(c):04X}")
def test_terminal_prompt_and_widget_label_show_the_same_escapes(monkeypatch, capsys, shown, hidden):
    """One escaping rule for what a person reads before deciding: the [y/N] question and the buttons' label."""
    tool_input = {"path": f"scratch/a{hidden}  b.txt"}
    escaped = f"scratch/a\\u{ord(hidden):04x}  b.txt"
    prompts = answering(monkeypatch, "n")
    asyncio.run(terminal_approver("write_file", tool_input))
    assert hidden not in prompts[0] and escaped in prompts[0], prompts[0]
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    labels = []
    monkeypatch.setattr("IPython.display.display", lambda box: labels.append(text(box.children[0])))
    asyncio.run(widget_approver()("write_file", tool_input))
    assert hidden not in labels[0] and escaped in labels[0], labels[0]


def test_terminal_approver_prompt_says_the_default_is_no(monkeypatch):
    prompts = answering(monkeypatch, "")
    asyncio.run(terminal_approver(*ACTION))
    assert prompts[0].endswith("[y/N] ") and "Enter to allow" not in prompts[0]


def test_terminal_approver_reads_real_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    assert asyncio.run(terminal_approver(*ACTION)) is True
    for line in ("n\n", "\n", "whatever\n"):
        monkeypatch.setattr("sys.stdin", io.StringIO(line))
        assert asyncio.run(terminal_approver(*ACTION)) is False
    out = capsys.readouterr().out
    assert out.startswith(PROMPT)  # the real input() printed the prompt
    # piped stdin is not echoed: each decision starts on its own line all the same
    assert out.splitlines()[1::2] == [f"[approve] {SHOWN} → approved"] + [f"[approve] {SHOWN} → rejected"] * 2 + [
        f"[approve] {SHOWN} → rejected ('whatever' is not y or yes)"]


def on_kernel(monkeypatch, version):
    """widget_approver() as it behaves in a kernel of that ipykernel version (None: outside a kernel)."""
    monkeypatch.setattr(widget, "running_kernel_version", lambda: version)
    return widget_approver()


def raising(error):
    def fail(*a):
        raise error

    return fail


@pytest.mark.parametrize("error, reason", [
    (EOFError(), "no answer: end of input"),
    (RuntimeError("input(): lost sys.stdin"), "no answer: RuntimeError"),
    (ValueError("I/O operation on closed file."), "no answer: ValueError"),
    (OSError("bad file descriptor"), "no answer: OSError"),
])
def test_terminal_approver_rejects_when_no_line_can_be_read(monkeypatch, capsys, error, reason):
    monkeypatch.setattr(builtins, "input", raising(error))
    assert asyncio.run(terminal_approver(*ACTION)) is False
    assert capsys.readouterr().out == f"\n[approve] {SHOWN} → not approved ({reason})\n"  # nobody said "no"


def test_terminal_approver_rejects_on_empty_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the real input() raises EOFError
    assert asyncio.run(terminal_approver(*ACTION)) is False


def test_terminal_approver_rejects_on_a_closed_stdin(monkeypatch, capsys):
    closed = io.StringIO("y\n")
    closed.close()
    monkeypatch.setattr("sys.stdin", closed)
    assert asyncio.run(terminal_approver(*ACTION)) is False
    monkeypatch.setattr("sys.stdin", None)  # e.g. pythonw, or a daemon without a terminal
    assert asyncio.run(terminal_approver(*ACTION)) is False
    assert capsys.readouterr().out.count("→ not approved (no answer:") == 2


def test_terminal_approver_ctrl_c_rejects_and_stops_the_run(monkeypatch, capsys):
    """Ctrl-C under asyncio.run cancels the task awaiting the answer; the person never answers."""
    never = threading.Event()
    monkeypatch.setattr(builtins, "input", lambda *a: never.wait(5) and "y")

    async def main():
        task = asyncio.create_task(terminal_approver(*ACTION))
        await asyncio.sleep(0.05)
        task.cancel()  # what asyncio.run does on Ctrl-C
        with pytest.raises(ApprovalInterrupted) as caught:
            await task
        return caught.value

    interrupted = asyncio.run(main())
    never.set()
    line = f"[approve] {SHOWN} → not approved (no answer: the run was stopped)"
    assert str(interrupted) == line
    assert isinstance(interrupted, asyncio.CancelledError)  # the loop's `except Exception` lets it through
    assert capsys.readouterr().out == f"\n{line}\n"


def test_approval_interrupted_renders_as_one_line_in_ipython():
    assert ApprovalInterrupted("[approve] x({}) → rejected (interrupted)")._render_traceback_() == [
        "[approve] x({}) → rejected (interrupted)"]


def test_terminal_approver_does_not_block_the_event_loop(monkeypatch):
    answered = threading.Event()

    def slow_input(*a):
        answered.wait(5)
        return "y"

    monkeypatch.setattr(builtins, "input", slow_input)

    async def main():
        ticks = 0
        task = asyncio.create_task(terminal_approver(*ACTION))
        while ticks < 3:  # the loop keeps running while the "person" thinks
            await asyncio.sleep(0.01)
            ticks += 1
        answered.set()
        return await task, ticks

    assert asyncio.run(main()) == (True, 3)


# --- widgets (no frontend: the widgets talk to a dummy comm) -------------------------------------


@pytest.fixture
def shown(monkeypatch):
    """Capture what the approver displays instead of sending it to a frontend; clean switches."""
    monkeypatch.delenv("HARNESS_AUTO_APPROVE", raising=False)
    monkeypatch.delenv("HARNESS_APPROVAL_TIMEOUT", raising=False)
    displayed = []
    monkeypatch.setattr("IPython.display.display", lambda *objs, **kw: displayed.extend(objs))
    return displayed


def text(label) -> str:
    """What the label shows on the page (its HTML without tags, unescaped)."""
    return html.unescape(re.sub(r"<[^>]*>", "", label.value))


def parts(box):
    """(label, approve_button, reject_button) of one displayed approval box."""
    label, row = box.children[:2]
    approve_button, reject_button = row.children
    return label, approve_button, reject_button


def test_widget_approver_shows_the_action_and_two_buttons(shown, monkeypatch):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "approve")
    pending = []
    monkeypatch.setattr("IPython.display.display", lambda box: (shown.append(box), pending.append(text(box.children[0]))))
    asyncio.run(widget_approver()(*ACTION))
    label, approve_button, reject_button = parts(shown[0])
    assert (approve_button.description, approve_button.button_style) == ("Approve", "success")
    assert (reject_button.description, reject_button.button_style) == ("Reject", "danger")
    assert pending == [f"[approve] about to run high-impact action {SHOWN}\n"  # what the person saw before
                       "Click Approve to run it, or Reject. If nobody answers, it is not approved in 120 s."]


def test_a_saved_notebook_reads_a_sentence_not_the_widgets_repr(shown, monkeypatch):
    """JupyterLab draws no widget from a notebook opened from disk: it shows the output's text/plain, which is a
    sentence in the notebook's language, not VBox(children=(HTML(... (issue 36)."""
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    asyncio.run(widget_approver()(*ACTION))
    assert shown[0]._repr_mimebundle_()["text/plain"] == (
        "(the Approve and Reject buttons: JupyterLab draws them here while the cell waits)")
    with lang.using("es"):
        asyncio.run(widget_approver()(*ACTION))
    assert "botones Aprobar y Rechazar" in shown[1]._repr_mimebundle_()["text/plain"]


def test_widget_approver_counts_down_while_it_waits(shown, capsys):
    seen = []

    async def main():
        task = asyncio.create_task(widget_approver(timeout=1.2)(*ACTION))
        while not shown:
            await asyncio.sleep(0.001)
        label = parts(shown[0])[0]
        seen.append(text(label))
        label.observe(lambda change: seen.append(html.unescape(re.sub(r"<[^>]*>", "", change.new))), names="value")
        return await task

    assert asyncio.run(main()) is False
    counts = [int(n) for n in re.findall(r"it is not approved in (\d+) s\.$", "\n".join(seen), re.M)]
    assert counts[0] == 2 and counts == sorted(set(counts), reverse=True) and counts[-1] >= 1, seen
    assert all(t.startswith(f"[approve] about to run high-impact action {SHOWN}\nClick Approve") for t in seen[:-1])
    assert seen[-1] == f"[approve] {SHOWN} → not approved (no answer within 1.2 s)"
    assert capsys.readouterr().out == f"[approve] {SHOWN} → not approved (no answer within 1.2 s)\n"


def test_widget_approver_without_a_timeout_says_click_with_no_countdown(shown):
    async def main():
        task = asyncio.create_task(widget_approver(timeout=None)(*ACTION))
        while not shown:
            await asyncio.sleep(0.001)
        label, approve_button, _ = parts(shown[0])
        before = text(label)
        approve_button.click()
        return before, await task

    assert asyncio.run(main()) == (f"[approve] about to run high-impact action {SHOWN}\nClick Approve to run it, or Reject.",
                                   True)


def test_widget_approver_label_keeps_every_space_and_wraps_with_normal_line_gaps(shown, monkeypatch):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    pending = []
    monkeypatch.setattr("IPython.display.display", lambda box: (shown.append(box), pending.append(box.children[0].value)))
    asyncio.run(widget_approver()("write_file", {"path": "scratch/a  b.txt"}))
    assert "white-space:break-spaces" in pending[0], "HTML would collapse the two spaces (pre-wrap: hang them at a wrap)"
    assert "line-height:1.4" in pending[0], "the widget's own line height (28 px) leaves wide gaps between wrapped lines"
    assert "overflow-wrap:anywhere" in pending[0], "a long input wraps instead of being cut"
    assert '"scratch/a  b.txt"' in text(parts(shown[0])[0])


BY_SWITCH = " (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)"


def test_widget_approver_shows_the_decision_once(shown, monkeypatch, capsys):
    """After a decision the buttons and label are hidden: the printed line is the only decision on the page."""
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "approve")
    asyncio.run(widget_approver()(*ACTION))
    assert shown[0].layout.display == "none"
    assert capsys.readouterr().out == f"[approve] {SHOWN} → approved (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)\n"


def test_widget_approver_label_escapes_the_models_input(shown, monkeypatch):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    sneaky = {"path": "scratch/a.html", "content": "<img src=x onerror=alert(1)> & more"}
    asyncio.run(widget_approver()("write_file", sneaky))
    label = parts(shown[0])[0]
    assert "<img" not in label.value and "&lt;img src=x onerror=alert(1)&gt; &amp; more" in label.value
    assert text(label) == f"[approve] {describe('write_file', sneaky)} → rejected (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)"


@pytest.mark.parametrize("switch, expected, word", [("approve", True, "approved"), ("reject", False, "rejected")])
def test_widget_approver_auto_switch_clicks_the_real_button(shown, monkeypatch, capsys, switch, expected, word):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", switch)
    assert asyncio.run(widget_approver()(*ACTION)) is expected
    label, approve_button, reject_button = parts(shown[0])
    assert approve_button.disabled and reject_button.disabled
    assert text(label) == f"[approve] {SHOWN} → {word} (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)"  # the switch pressed it: said
    assert capsys.readouterr().out == f"[approve] {SHOWN} → {word} (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)\n"  # exactly one plain line


@pytest.mark.parametrize("switch", ["", "approve", "reject"])
@pytest.mark.parametrize("click, expected, word", [("approve", True, "approved"), ("reject", False, "rejected")])
def test_widget_approver_click_needs_no_person_and_says_who_clicked(shown, monkeypatch, capsys, switch, click, expected,
                                                                    word):
    """click=... presses that button in every run, a person's too (no switch), and the line says the code did it."""
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", switch)
    assert asyncio.run(widget_approver(timeout=30, click=click)(*ACTION)) is expected
    assert all(b.disabled for b in parts(shown[0])[1:])
    line = f"[approve] {SHOWN} → {word} (clicked by the code, not by a person)"
    assert capsys.readouterr().out == line + "\n"
    assert text(parts(shown[0])[0]) == line


@pytest.mark.parametrize("switch", ["notebook", "yes", "1"])
def test_widget_approver_knows_only_approve_and_reject_when_nobody_is_here(shown, monkeypatch, switch):
    """HARNESS_AUTO_APPROVE is one button for every approval; anything else (a test's old "notebook") is an error,
    which the loop counts as a no."""
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", switch)
    with pytest.raises(ValueError, match="must be 'approve' or 'reject'"):
        asyncio.run(widget_approver()(*ACTION))


def test_widget_approver_rejects_unknown_switches(shown, monkeypatch):
    with pytest.raises(ValueError, match="click"):
        widget_approver(click="yes")
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "yes")
    with pytest.raises(ValueError, match="HARNESS_AUTO_APPROVE"):
        asyncio.run(widget_approver()(*ACTION))


def test_widget_approver_times_out_as_a_rejection(shown, capsys):
    assert asyncio.run(widget_approver(timeout=0.05)(*ACTION)) is False
    label, approve_button, reject_button = parts(shown[0])
    assert approve_button.disabled and reject_button.disabled
    assert capsys.readouterr().out == f"[approve] {SHOWN} → not approved (no answer within 0.05 s)\n"
    assert text(label).endswith("→ not approved (no answer within 0.05 s)")


def test_widget_approver_timeout_from_the_environment(shown, monkeypatch, capsys):
    monkeypatch.setenv("HARNESS_APPROVAL_TIMEOUT", "0.05")
    assert asyncio.run(widget_approver(timeout=30)(*ACTION)) is False
    assert "no answer within 0.05 s" in capsys.readouterr().out


def click_from_another_thread(shown, which):
    """Like the kernel's subshell thread: wait for the buttons, then click from a plain thread."""

    def person():
        while not shown:
            threading.Event().wait(0.005)
        threading.Event().wait(0.02)  # the approver is now awaiting
        parts(shown[0])[which].click()

    thread = threading.Thread(target=person)
    thread.start()
    return thread


@pytest.mark.parametrize("which, expected", [(1, True), (2, False)])
def test_widget_approver_click_from_another_thread_resolves_it(shown, capsys, which, expected):
    async def main():
        thread = click_from_another_thread(shown, which)
        result = await widget_approver(timeout=5)(*ACTION)
        thread.join()
        return result

    assert asyncio.run(main()) is expected
    assert capsys.readouterr().out.count("[approve]") == 1


def test_widget_approver_second_click_changes_nothing(shown, capsys):
    async def main():
        thread = click_from_another_thread(shown, 2)  # Reject first ...
        result = await widget_approver(timeout=5)(*ACTION)
        thread.join()
        label, approve_button, _ = parts(shown[0])
        approve_button.click()  # ... then Approve: too late
        await asyncio.sleep(0.02)
        return result, text(label)

    result, label_text = asyncio.run(main())
    assert result is False
    assert label_text.endswith("→ rejected")
    assert capsys.readouterr().out == f"[approve] {SHOWN} → rejected\n"
    parts(shown[0])[1].click()  # even after the loop is closed a click is harmless


def test_widget_approver_two_quick_clicks_first_one_wins(shown, capsys):
    async def main():
        approve = widget_approver(timeout=5)
        task = asyncio.create_task(approve(*ACTION))
        while not shown:
            await asyncio.sleep(0.001)
        _, approve_button, reject_button = parts(shown[0])
        both = [threading.Thread(target=b.click) for b in (approve_button, reject_button)]
        for t in both:  # Approve is handled first, Reject right after, both before the loop runs again
            t.start()
            t.join()
        return await task

    assert asyncio.run(main()) is True
    assert capsys.readouterr().out == f"[approve] {SHOWN} → approved\n"


def page_click(button) -> None:
    """What a click in JupyterLab delivers to the kernel: the widget's comm message {"event": "click"}."""
    button._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "click"}}}, "buffers": []})


@pytest.mark.parametrize("by_page", [True, False])
def test_a_click_in_the_page_gives_the_keyboard_back_to_the_notebook(shown, monkeypatch, capsys, by_page):
    """A person's click (a message from the page) adds one Output widget holding widget.GO_ON, the script that focuses
    the cell below, and closes it GO_ON_FOR seconds later (a reloaded page must not run it again); a click by code
    (button.click()) sends no message and adds nothing. Never in the cell's outputs: only the box is displayed."""
    monkeypatch.setattr(widget, "GO_ON_FOR", 0.05)
    seen = {}

    async def main():
        task = asyncio.create_task(widget_approver(timeout=5)(*ACTION))
        while not shown:
            await asyncio.sleep(0.001)
        _, approve_button, reject_button = parts(shown[0])
        click = page_click if by_page else type(approve_button).click
        thread = threading.Thread(target=click, args=(approve_button,))  # as a kernel subshell thread delivers it
        thread.start()
        thread.join()
        result = await task
        click(reject_button)  # a second click decides nothing and adds no second script
        await asyncio.sleep(0.01)
        seen["children"] = shown[0].children[2:]
        await asyncio.sleep(0.1)  # past GO_ON_FOR
        return result

    assert asyncio.run(main()) is True
    assert capsys.readouterr().out == f"[approve] {SHOWN} → approved\n"
    assert len(shown) == 1 and len(shown[0].children) == 2
    if by_page:
        (go_on,) = seen["children"]
        assert go_on.outputs == ({"output_type": "display_data", "data": {"application/javascript": widget.GO_ON},
                                  "metadata": {}},)
        assert "element.closest('.jp-Cell')" in widget.GO_ON and "next.focus()" in widget.GO_ON
        assert go_on.comm is None, "closed once the page has had time to run it"
    else:
        assert seen["children"] == ()


def test_widget_approver_needs_no_ipywidgets_import_at_module_level():
    for module in (approval, widget):
        source = open(module.__file__, encoding="utf-8").read()
        top_level = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
        assert not any("ipywidgets" in line or "IPython" in line for line in top_level), module.__name__


def test_the_widget_approver_lives_in_widget_only():
    """widget.py is built on approval.py, which does not hand the widget approver out (no import back, no circle)."""
    assert widget.widget_approver is widget_approver
    assert not hasattr(approval, "widget_approver")


def test_widget_approver_label_shows_invisible_characters_escaped(shown, monkeypatch, capsys):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    asyncio.run(widget_approver()("write_file", {"path": "scratch/evil\u202etxt.exe"}))
    label = parts(shown[0])[0]
    assert "\u202e" not in label.value and text(label).endswith('"scratch/evil\\u202etxt.exe"}) → rejected (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)')
    assert "\u202e" not in capsys.readouterr().out


# --- timeouts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf"), 0, 0.0, -1, -0.5, "5", True, [5]])
def test_widget_approver_timeout_must_be_finite_and_positive(shown, bad):
    with pytest.raises(ValueError, match=r"timeout must be a finite number of seconds > 0, not " + re.escape(repr(bad))):
        widget_approver(timeout=bad)


def test_widget_approver_timeout_none_waits_until_someone_clicks(shown, monkeypatch):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "approve")
    assert asyncio.run(widget_approver(timeout=None)(*ACTION)) is True


@pytest.mark.parametrize("raw", ["nan", "NaN", "inf", "-inf", "0", "-3", "soon", "none", "1e400", "5 s"])
def test_widget_approver_bad_timeout_in_the_environment_is_a_clear_error(shown, monkeypatch, raw):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "approve")  # even a sure approval does not go through
    monkeypatch.setenv("HARNESS_APPROVAL_TIMEOUT", raw)
    approve = widget_approver()
    with pytest.raises(ValueError, match=r"HARNESS_APPROVAL_TIMEOUT must be a finite number of seconds > 0, "
                                         r"not " + re.escape(repr(raw))):
        asyncio.run(approve(*ACTION))
    assert shown == [], "nothing is shown: the loop turns the error into a rejection"


def test_widget_approver_empty_timeout_variable_means_unset(shown, monkeypatch, capsys):
    monkeypatch.setenv("HARNESS_APPROVAL_TIMEOUT", "  ")
    assert asyncio.run(widget_approver(timeout=0.05)(*ACTION)) is False
    assert "no answer within 0.05 s" in capsys.readouterr().out


# --- Stop (interrupt) while the buttons wait ----------------------------------------------------


def test_widget_approver_interrupt_rejects_at_once_and_stops_the_run(shown, capsys):
    """ipykernel 7 turns Stop into a cancellation of the cell's task; the approver must not swallow it."""

    async def main():
        task = asyncio.create_task(widget_approver(timeout=30)(*ACTION))
        while not shown:
            await asyncio.sleep(0.001)
        task.cancel()  # what ipykernel does when Stop is pressed
        with pytest.raises(ApprovalInterrupted) as caught:
            await task
        label, approve_button, reject_button = parts(shown[0])
        approve_button.click()  # a late click decides nothing
        await asyncio.sleep(0.02)
        return caught.value, label, approve_button, reject_button

    interrupted, label, approve_button, reject_button = asyncio.run(main())
    line = f"[approve] {SHOWN} → not approved (no answer: the run was stopped)"
    assert str(interrupted) == line and interrupted._render_traceback_() == [line]  # IPython shows only this
    assert approve_button.disabled and reject_button.disabled
    assert text(label) == line
    assert capsys.readouterr().out == "", "the exception is the one line; nothing else is printed"


# --- kernels that cannot deliver a click while a cell waits --------------------------------------


@pytest.mark.parametrize("answer, expected", [("y", True), ("", False), ("n", False)])
def test_widget_approver_asks_in_text_on_ipykernel_6(shown, monkeypatch, capsys, answer, expected):
    prompts = answering(monkeypatch, answer)
    approve = on_kernel(monkeypatch, (6, 17))
    assert asyncio.run(approve(*ACTION)) is expected
    assert asyncio.run(approve(*ACTION)) is expected  # a second question: the reason is not repeated
    assert shown == [], "no buttons: nobody could click them"
    assert prompts == [PROMPT, PROMPT]
    word = "approved" if expected else "rejected"
    assert capsys.readouterr().out == (
        "[approve] this kernel (ipykernel 6.17) cannot deliver a button click while a cell waits; "
        "asking in a text box instead\n" + f"[approve] {SHOWN} → {word}\n" * 2)


def test_widget_approver_text_fallback_rejects_where_there_is_no_stdin(shown, monkeypatch, capsys):
    from IPython.core.error import StdinNotImplementedError  # what input() raises under nbval

    monkeypatch.setattr(builtins, "input", raising(StdinNotImplementedError("no input requests here")))
    assert asyncio.run(on_kernel(monkeypatch, (6, 31))(*ACTION)) is False
    assert capsys.readouterr().out.endswith(f"[approve] {SHOWN} → not approved (no answer: StdinNotImplementedError)\n")


def test_widget_approver_text_fallback_interrupt_is_one_line(shown, monkeypatch, capsys):
    never = threading.Event()
    monkeypatch.setattr(builtins, "input", lambda *a: never.wait(5) and "y")

    async def main():
        task = asyncio.create_task(on_kernel(monkeypatch, (6, 17))(*ACTION))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(ApprovalInterrupted) as caught:
            await task
        return caught.value

    interrupted = asyncio.run(main())
    never.set()
    assert str(interrupted) == f"[approve] {SHOWN} → not approved (no answer: the run was stopped)"
    assert capsys.readouterr().out == (  # the reason, then nothing: the exception is the decision line
        "[approve] this kernel (ipykernel 6.17) cannot deliver a button click while a cell waits; "
        "asking in a text box instead\n")


@pytest.mark.parametrize("version", [(7, 0), (7, 3), (7, 4), (8, 0), None])
def test_widget_approver_shows_buttons_on_ipykernel_7_and_outside_a_kernel(shown, monkeypatch, version):
    monkeypatch.setattr(builtins, "input", raising(AssertionError("no text prompt expected")))
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "approve")
    assert asyncio.run(on_kernel(monkeypatch, version)(*ACTION)) is True
    assert len(shown) == 1


def test_widget_approver_auto_switch_clicks_the_button_even_on_ipykernel_6(shown, monkeypatch, capsys):
    monkeypatch.setattr(builtins, "input", raising(AssertionError("no text prompt expected")))
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")  # the click happens in-process: no message needed
    assert asyncio.run(on_kernel(monkeypatch, (6, 17))(*ACTION)) is False
    assert len(shown) == 1 and capsys.readouterr().out == f"[approve] {SHOWN} → rejected{BY_SWITCH}\n"


def test_running_kernel_version_is_none_outside_a_kernel():
    assert widget.running_kernel_version() is None


# --- notebook 05 on ipykernel 6 (a throwaway install) --------------------------------------------

OLD_IPYKERNEL = "ipykernel==6.31.0"


def test_notebook_05_approval_cell_on_ipykernel_6_asks_in_text_and_fails_closed(tmp_path):
    """The lesson's approval cell in a real ipykernel 6 kernel, with nobody to click and no text input
    (as under nbval): one line says why there are no buttons, the text prompt cannot be answered, the
    action is rejected, and nothing is written."""
    from jupyter_client.manager import KernelManager

    target = tmp_path / "old-ipykernel"
    try:
        pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--disable-pip-version-check",
                              "--retries", "0", "--timeout", "15", "--no-compile", "--target", str(target), OLD_IPYKERNEL],
                             capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as err:
        pytest.skip(f"could not install {OLD_IPYKERNEL} for this test: {err}")
    if pip.returncode:
        pytest.skip(f"could not install {OLD_IPYKERNEL} for this test: {pip.stderr.strip()[-300:]}")

    repo = Path(approval.__file__).resolve().parent.parent
    tool_root = tmp_path / "tool-root"
    (tool_root / "scratch").mkdir(parents=True)
    (tool_root / "README.md").write_text("# Agent harness fundamentals\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
    env.update(PYTHONPATH=os.pathsep.join([str(target), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               HARNESS_OFFLINE="1", HARNESS_TOOL_ROOT=str(tool_root))  # no HARNESS_AUTO_APPROVE: nobody clicks

    cells = json.loads((repo / "notebooks" / "05_human_in_the_loop.ipynb").read_text(encoding="utf-8"))["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    gate = next(i for i, c in enumerate(code) if c["id"] == "approval-demo")

    km = KernelManager(kernel_name="python3")
    km.start_kernel(env=env, cwd=str(repo / "notebooks"))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        outputs = []

        def keep(msg):
            if msg["msg_type"] == "stream":
                outputs.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                outputs.append(f"ERROR {msg['content']['ename']}: {msg['content']['evalue']}")

        version = []
        kc.execute_interactive("import ipykernel; print(ipykernel.__version__)", timeout=30,
                               output_hook=lambda m: version.append(m["content"].get("text", "")))
        assert "".join(version).strip() == OLD_IPYKERNEL.split("==")[1]
        for i, cell in enumerate(code[: gate + 2]):  # up to the gate's cell, then the one that looks at scratch/
            if i <= gate:  # keep the output of those two
                outputs.clear()
            reply = kc.execute_interactive("".join(cell["source"]), timeout=60, allow_stdin=False, output_hook=keep)
            assert reply["content"]["status"] == "ok", "".join(outputs)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)

    out = "".join(outputs)
    assert out.count("cannot deliver a button click") == 1
    assert "[approve] this kernel (ipykernel 6.31) cannot deliver a button click while a cell waits; " \
           "asking in a text box instead\n" in out
    assert re.search(r"^\[approve\] write_file\(.*\) → not approved \(no answer: StdinNotImplementedError\)$", out, re.M), out
    assert "scratch/answer.txt exists: False" in out
    assert not (tool_root / "scratch" / "answer.txt").exists()


def test_the_tests_clicker_presses_the_listed_buttons_and_nothing_more(shown, monkeypatch, capsys):
    """tests/kernel_clicker.py, the test plumbing that clicks where nobody can: in lesson 05 it presses Reject,
    Approve, Reject -- the real buttons, so the decision lines are a person's -- and a fourth question fails loudly."""
    import ipywidgets

    import kernel_clicker

    monkeypatch.setenv("KIT_TEST_CLICKS", "notebooks/05_human_in_the_loop.ipynb")
    monkeypatch.setattr(kernel_clicker, "_used", {})
    ipywidgets.Widget.on_widget_constructed(kernel_clicker.on_made)
    try:
        approve = widget_approver(timeout=30)
        assert [asyncio.run(approve(*ACTION)) for _ in range(3)] == [False, True, False]
        assert capsys.readouterr().out == "".join(f"[approve] {SHOWN} → {w}\n" for w in ("rejected", "approved",
                                                                                           "rejected"))
        with pytest.raises(ValueError, match="lists 3 click"):
            asyncio.run(approve(*ACTION))
        monkeypatch.setenv("KIT_TEST_CLICKS", "notebooks/02_the_core_loop.ipynb")  # a notebook it has no list for
        assert asyncio.run(widget_approver(timeout=0.05)(*ACTION)) is False  # nobody clicked: timeout = no
        assert "no answer within" in capsys.readouterr().out
    finally:
        ipywidgets.Widget.on_widget_constructed(None)


# --- Run All of exercise 01 needs no person ------------------------------------------------------

EXERCISE_01 = ["exercises/01_tiered_policy.ipynb", "exercises/solutions/01_tiered_policy.ipynb",
               "exercises/es/01_tiered_policy.ipynb", "exercises/es/solutions/01_tiered_policy.ipynb"]
BY_CODE = {"en": "(clicked by the code, not by a person)", "es": "(el clic lo hizo el código, no una persona)"}


def test_run_all_of_exercise_01_waits_for_nobody():
    """Every code cell of exercise 01 (starter and solution, both editions) as a person's Run All runs them: no
    HARNESS_AUTO_APPROVE, nobody clicking. The try cells' approvals press their own button (click=...) and say so;
    none ends by timeout (with HARNESS_APPROVAL_TIMEOUT=3 a wait would end in a "no answer" line, not a hang)."""
    from kernel_cells import NotebookKernel

    repo = Path(approval.__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST"))}
    env.pop("ANTHROPIC_API_KEY", None)
    env.update(HARNESS_OFFLINE="1", HARNESS_APPROVAL_TIMEOUT="3", PYTHON_DOTENV_DISABLED="1",
               HARNESS_TOOL_ROOT=os.environ["HARNESS_TOOL_ROOT"])  # the run's copy of workspace/ (tests/conftest.py)
    decisions = {}
    with NotebookKernel(repo / "exercises", env, timeout=60) as kernel:
        for path in EXERCISE_01:
            nb = json.loads((repo / path).read_text(encoding="utf-8"))
            for c in nb["cells"]:  # Run All goes on past these cells anyway (raises-exception): so does this runner
                c["metadata"]["tags"] = [t for t in c["metadata"].get("tags", []) if t != "raises-exception"]
            cells = {c.id: c for c in kernel.run(nb)}
            printed = cells["try-demo"].stdout + cells["try-parallel"].stdout
            assert "no answer" not in printed and "nadie respondió" not in printed, f"{path} waited:\n{printed}"
            assert not cells["try-demo"].raised and not cells["try-parallel"].raised, path
            decisions[path] = re.findall(r"^\[approve\] write_file\(.*\) → (.*)$", printed, re.M)
    for path in EXERCISE_01[::2]:  # the starters: the unfinished valve stops the run before any approval
        assert decisions[path] == [], decisions[path]
    by_code = BY_CODE["en"]
    assert decisions[EXERCISE_01[1]] == [f"approved {by_code}", f"rejected {by_code}"]
    by_code = BY_CODE["es"]
    assert decisions[EXERCISE_01[3]] == [f"aprobada {by_code}", f"rechazada {by_code}"]


# --- what mutation testing found untested (docs/development.md, "Mutation testing") ----------------------------
# Each test asserts what a person or a test author sees; each was checked to fail with the bug it names planted.

import signal  # noqa: E402


def test_scripted_approver_names_the_question_it_could_not_answer():
    approve = scripted_approver([])
    with pytest.raises(RuntimeError) as caught:
        asyncio.run(approve(*ACTION))
    assert str(caught.value) == (f"scripted_approver ran out of decisions: question 1 ({SHOWN}) "
                                 "but only 0 decision(s) were given")


@pytest.mark.parametrize("stdin", ["closed", "none"])
def test_a_decision_starts_on_its_own_line_when_stdin_is_gone_after_the_answer(monkeypatch, capsys, stdin):
    """stdin closed (or gone) once the line was read: not a terminal, so the decision starts on a new line."""
    gone = None
    if stdin == "closed":
        gone = io.StringIO()
        gone.close()
    monkeypatch.setattr("sys.stdin", gone)
    monkeypatch.setattr(builtins, "input", lambda prompt="": "y")
    assert asyncio.run(terminal_approver(*ACTION)) is True
    assert capsys.readouterr().out == f"\n[approve] {SHOWN} → approved\n"


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX only: signal.pthread_kill")
def test_stop_is_noticed_while_the_question_waits_even_if_nothing_else_wakes_the_loop(monkeypatch):
    """A kernel's Stop is a signal; Python runs its handler only when the main thread runs Python code. Here it
    arrives on another thread (as it may in a kernel), so only the approver's own wake-ups (harness_kit.console.WAKE_EVERY)
    let the handler run while the question waits. Stop comes half a second after the question (the event loop is
    asleep by then), the person answers two seconds after it: the Stop must be handled before that answer, and
    the action is not approved."""
    prompt_shown, answered = threading.Event(), threading.Event()

    def slow_person(prompt=""):
        prompt_shown.set()
        answered.wait(2.0)
        answered.set()
        return "y"

    monkeypatch.setattr(builtins, "input", slow_person)
    handled_before_the_answer = []

    async def main():
        task = asyncio.create_task(terminal_approver(*ACTION))

        def stop(signum, frame):  # runs on the main thread, between two Python instructions
            handled_before_the_answer.append(not answered.is_set())
            task.cancel()

        def press_stop():
            prompt_shown.wait(5)
            answered.wait(0.5)  # the main thread is asleep in the event loop by now
            signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # to this thread, not the main one

        old = signal.signal(signal.SIGUSR1, stop)
        try:
            threading.Thread(target=press_stop).start()
            with pytest.raises(ApprovalInterrupted):
                await task
        finally:
            signal.signal(signal.SIGUSR1, old)

    try:
        asyncio.run(main())
    finally:
        answered.set()
    assert handled_before_the_answer == [True]


STOPPED_AT_THE_PROMPT = """
import asyncio, sys
from harness_lib.approval import ApprovalInterrupted, terminal_approver

async def main():
    task = asyncio.create_task(terminal_approver("write_file", {"path": "scratch/a.txt", "content": "hi"}))
    await asyncio.sleep(0.2)  # the question waits on stdin, where nobody types
    task.cancel()  # what Ctrl-C does under asyncio.run
    try:
        await task
    except ApprovalInterrupted:
        sys.stderr.write("the run stopped\\n")

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX only: a pseudo-terminal")
def test_ctrl_c_at_the_question_ends_the_program_without_waiting_for_enter():
    """At a terminal: after Ctrl-C the thread reading stdin still waits for a line; it must not keep the program
    alive, since nobody will press Enter. (The program's stdin, stdout and stderr are a pseudo-terminal.)"""
    import pty
    import select

    env = {k: v for k, v in os.environ.items() if k != "HARNESS_LANG"}
    try:
        terminal, program_side = pty.openpty()
    except OSError as err:  # a container without /dev/pts
        pytest.skip(f"no pseudo-terminal here: {err}")
    program = subprocess.Popen([sys.executable, "-c", STOPPED_AT_THE_PROMPT], stdin=program_side,
                               stdout=program_side, stderr=program_side, env=env)
    os.close(program_side)
    try:
        try:
            code = program.wait(timeout=30)  # nothing is ever typed: a thread that keeps it alive hangs here
        except subprocess.TimeoutExpired:
            code = "still running, waiting for Enter"
        shown = b""
        while select.select([terminal], [], [], 0)[0]:
            try:
                chunk = os.read(terminal, 65536)
            except OSError:  # the program has gone and closed its side
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if program.poll() is None:
            program.kill()
            program.wait()
        os.close(terminal)
    shown = shown.decode("utf-8", "replace").replace("\r\n", "\n")
    assert code == 0, shown
    assert f"[approve] {SHOWN} → not approved (no answer: the run was stopped)\nthe run stopped\n" in shown


class Pipe(io.RawIOBase):
    """The reading end of a pipe: what reaches it, and nothing that still sits in the writer's buffer."""

    def __init__(self):
        self.seen = b""

    def writable(self):
        return True

    def write(self, data):
        self.seen += bytes(data)
        return len(data)


def test_ctrl_c_at_the_question_writes_its_line_out_at_once_even_into_a_pipe(monkeypatch):
    """stdout piped (`... | tee log`) is block-buffered: the interrupt line must reach the pipe at once, before
    the program goes on to fail or end (a process that dies then would lose a buffered line)."""
    pipe = Pipe()
    monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.BufferedWriter(pipe), encoding="utf-8"))
    never, readers = threading.Event(), []

    def nobody_answers(prompt=""):
        readers.append(threading.current_thread())
        return never.wait(5) and "y"

    monkeypatch.setattr(builtins, "input", nobody_answers)

    async def main():
        task = asyncio.create_task(terminal_approver(*ACTION))
        await asyncio.sleep(0.05)
        task.cancel()  # what asyncio.run does on Ctrl-C
        with pytest.raises(ApprovalInterrupted):
            await task

    try:
        asyncio.run(main())
    finally:
        never.set()
    assert pipe.seen.decode() == f"\n[approve] {SHOWN} → not approved (no answer: the run was stopped)\n"
    # the reader left waiting on stdin does not keep the program alive (see the pseudo-terminal test above)
    assert [thread.daemon for thread in readers] == [True]


# --- issue 37: the call's identity next to the question, whatever its input holds ------------------------

from harness_lib.approval import LONG_ACTION, in_short, question  # noqa: E402

PADDED = [  # inputs that try to push the tool and its path out of sight, or to end with a prompt of their own
    {"path": "scratch/a.txt", "content": "a " * 9_000},
    {"content": "x" * 19_000 + " " * 900 + "\u02ba)\n[approve] about to run high-impact action delete_file("
                "{\u02bapath\u02ba:\u02bascratch/other.txt\u02ba}) — allow it? [y/N]", "path": "scratch/a.txt"},
    {"content": "\u200b" * 5_000, "path": "scratch/\u0430.txt"},
]


@pytest.mark.parametrize("tool_input", PADDED, ids=["spaces", "fake prompt", "zero-width"])
def test_a_long_question_ends_with_the_calls_identity_next_to_the_prompt(monkeypatch, capsys, shown, tool_input):
    """The terminal's last prompt line and the widget's last label line (right above the buttons) name the
    tool and its path, escaped, and say how long the content is; nothing is cut from the full action above."""
    path_shown = json.dumps(tool_input["path"])  # as JSON, every non-ASCII letter of a path escaped
    prompts = answering(monkeypatch, "n")
    asyncio.run(terminal_approver("write_file", tool_input))
    *above, last = prompts[0].split("\n")
    assert last.startswith("[approve] that is, in short: write_file(") and f"path={path_shown}" in last
    assert f"content=({len(tool_input['content'])} characters)" in last and last.endswith("[y/N] ")
    assert len(last) < 200 and " " * 16 not in prompts[0]
    assert describe("write_file", tool_input) in above[0]  # the whole action, above it
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    labels = []
    monkeypatch.setattr("IPython.display.display", lambda box: labels.append(text(box.children[0])))
    asyncio.run(widget_approver()("write_file", tool_input))
    lines = labels[0].split("\n")
    assert lines[-2].startswith("[approve] that is, in short: write_file(") and f"path={path_shown}" in lines[-2]
    assert lines[-1].startswith("Click Approve")


def test_a_short_question_is_one_line_and_in_short_names_every_field():
    assert question(*ACTION) == describe(*ACTION) and len(describe(*ACTION)) <= LONG_ACTION
    assert question("write_file", {"content": " " * 20_000, "path": "scratch/a.txt"}) == \
        'write_file({"content":"\\u0020{20000}","path":"scratch/a.txt"})'  # 20,000 spaces, counted: one short line
    assert in_short("write_file", {"path": "scratch/a\ufffc.txt", "content": "hi"}) == \
        'write_file(path="scratch/a\\ufffc.txt", content="hi")'
    assert in_short("x", {"k" * 100: 1}) == "x((100 characters)=1)"
