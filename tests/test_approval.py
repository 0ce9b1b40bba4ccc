"""harness_lib.approval without a browser: plain sync tests that drive the approvers with asyncio.run."""

import asyncio
import builtins
import html
import io
import re
import threading

import pytest

from harness_lib import approval
from harness_lib.approval import (
    REJECTED_MESSAGE,
    describe,
    scripted_approver,
    terminal_approver,
    widget_approver,
)

ACTION = ("write_file", {"path": "scratch/a.txt", "content": "hi"})
SHOWN = 'write_file({"path":"scratch/a.txt","content":"hi"})'


def test_describe_is_compact_json_and_keeps_non_ascii():
    assert describe(*ACTION) == SHOWN
    assert describe("write_file", {"content": "héllo ✓"}) == 'write_file({"content":"héllo ✓"})'
    assert describe("get_time", {}) == "get_time({})"


def test_rejected_message_says_declined():
    assert "declined" in REJECTED_MESSAGE
    assert REJECTED_MESSAGE == "The person declined this high-impact action; it was not run."


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


@pytest.mark.parametrize(
    "line, expected",
    [("", True), ("y", True), ("yes", True), ("n", False), ("N", False), (" NO ", False), ("no", False)],
)
def test_terminal_approver_reads_a_line(monkeypatch, capsys, line, expected):
    monkeypatch.setattr(builtins, "input", lambda *a: line)
    assert asyncio.run(terminal_approver(*ACTION)) is expected
    out = capsys.readouterr().out
    assert out.startswith(f"[approve] about to run high-impact action {SHOWN} — Enter to allow / n to reject: ")


def test_terminal_approver_reads_real_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert asyncio.run(terminal_approver(*ACTION)) is False
    monkeypatch.setattr("sys.stdin", io.StringIO("\n"))
    assert asyncio.run(terminal_approver(*ACTION)) is True


def test_terminal_approver_rejects_on_eof(monkeypatch, capsys):
    def eof(*a):
        raise EOFError

    monkeypatch.setattr(builtins, "input", eof)
    assert asyncio.run(terminal_approver(*ACTION)) is False
    assert "→ rejected" in capsys.readouterr().out



def test_terminal_approver_rejects_on_empty_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # the real input() raises EOFError
    assert asyncio.run(terminal_approver(*ACTION)) is False


def test_terminal_approver_does_not_block_the_event_loop(monkeypatch):
    answered = threading.Event()

    def slow_input(*a):
        answered.wait(5)
        return ""

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
    label, row = box.children
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
    assert pending == [f"[approve] about to run high-impact action {SHOWN}"]  # what the person saw before


def test_widget_approver_label_escapes_the_models_input(shown, monkeypatch):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")
    sneaky = {"path": "scratch/a.html", "content": "<img src=x onerror=alert(1)> & more"}
    asyncio.run(widget_approver()("write_file", sneaky))
    label = parts(shown[0])[0]
    assert "<img" not in label.value and "&lt;img src=x onerror=alert(1)&gt; &amp; more" in label.value
    assert text(label) == f"[approve] {describe('write_file', sneaky)} → rejected"


@pytest.mark.parametrize("switch, expected, word", [("approve", True, "approved"), ("reject", False, "rejected")])
def test_widget_approver_auto_switch_clicks_the_real_button(shown, monkeypatch, capsys, switch, expected, word):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", switch)
    assert asyncio.run(widget_approver()(*ACTION)) is expected
    label, approve_button, reject_button = parts(shown[0])
    assert approve_button.disabled and reject_button.disabled
    assert text(label) == f"[approve] {SHOWN} → {word}"
    assert capsys.readouterr().out == f"[approve] {SHOWN} → {word}\n"  # exactly one plain line


@pytest.mark.parametrize("switch, auto_click, expected", [
    ("notebook", "approve", True),   # the notebook names the button
    ("notebook", "reject", False),
    ("approve", "reject", True),     # an explicit switch wins over the notebook's choice
    ("reject", "approve", False),
])
def test_widget_approver_notebook_switch_clicks_the_named_button(shown, monkeypatch, switch, auto_click, expected):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", switch)
    assert asyncio.run(widget_approver(auto_click=auto_click)(*ACTION)) is expected
    assert all(b.disabled for b in parts(shown[0])[1:])


def test_widget_approver_notebook_switch_needs_a_named_button(shown, monkeypatch):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "notebook")
    with pytest.raises(ValueError, match="auto_click"):
        asyncio.run(widget_approver()(*ACTION))


def test_widget_approver_without_switch_ignores_auto_click(shown, capsys):
    assert asyncio.run(widget_approver(timeout=0.05, auto_click="approve")(*ACTION)) is False
    assert "no answer within" in capsys.readouterr().out


def test_widget_approver_rejects_unknown_switches(shown, monkeypatch):
    with pytest.raises(ValueError, match="auto_click"):
        widget_approver(auto_click="yes")
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "yes")
    with pytest.raises(ValueError, match="HARNESS_AUTO_APPROVE"):
        asyncio.run(widget_approver()(*ACTION))


def test_widget_approver_times_out_as_a_rejection(shown, capsys):
    assert asyncio.run(widget_approver(timeout=0.05)(*ACTION)) is False
    label, approve_button, reject_button = parts(shown[0])
    assert approve_button.disabled and reject_button.disabled
    assert capsys.readouterr().out == f"[approve] {SHOWN} → rejected (no answer within 0.05 s)\n"
    assert text(label).endswith("→ rejected (no answer within 0.05 s)")


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


def test_widget_approver_needs_no_ipywidgets_import_at_module_level():
    source = open(approval.__file__, encoding="utf-8").read()
    top_level = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert not any("ipywidgets" in line or "IPython" in line for line in top_level)
