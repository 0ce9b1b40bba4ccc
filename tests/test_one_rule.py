"""The kit's one rule for what a person reads (harness_kit/shown.py), and each case of issue 47 as a test.

Someone who controls what a model, an endpoint or a file returns tries to make a person read something else than
what happened: a `.env` that turns the gate off, a status line with a right-to-left override, a multi-line stop
reason, an answer that ends with the harness's own words, a path pushed away from the prompt, a look-alike address,
a learner's name that reads like another, Markdown and formulas in a gradebook. Each is shown here, in-process, on
the renderer a person reads (the property tests at the end run the same inputs through every one of them).
"""

import asyncio
import contextlib
import csv
import io
import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness_kit.shown import decode, exact, one_line, one_word, show_call, visible_text
from test_approval import shown  # noqa: F401 - the fixture: what an approver displays, captured; no switch set

ROOT = Path(__file__).resolve().parent.parent
BOB = "b\u043eb@example.com"  # a Cyrillic о among Latin letters


# --- 1. nothing but a person, or code in plain sight, approves ---------------------------------------


def test_a_switch_in_a_env_file_above_the_folder_never_turns_the_gate_off(tmp_path, monkeypatch, shown, capsys):
    """The .env one folder up says HARNESS_AUTO_APPROVE=approve (and a key): the key is read, the switch is not,
    and the buttons still wait for a person (here nobody: the timeout's no)."""
    from harness_lib.client import is_live
    from harness_ui.widget import widget_approver

    for name in ("ANTHROPIC_API_KEY", "HARNESS_OFFLINE", "HARNESS_AUTO_APPROVE", "HARNESS_APPROVAL_TIMEOUT"):
        monkeypatch.setenv(name, "x")
        monkeypatch.delenv(name)  # (recorded: whatever the file sets is undone after the test)
    monkeypatch.delenv("PYTHON_DOTENV_DISABLED", raising=False)
    (tmp_path / ".env").write_text("ANTHROPIC_API_KEY=key-from-the-file\nHARNESS_AUTO_APPROVE=approve\n"
                                   "HARNESS_APPROVAL_TIMEOUT=99999\n")
    (tmp_path / "notebooks").mkdir()
    monkeypatch.chdir(tmp_path / "notebooks")
    assert is_live()  # the key was read
    assert "HARNESS_AUTO_APPROVE" not in __import__("os").environ  # the switch was not
    assert asyncio.run(widget_approver(timeout=0.05)("write_file", {"path": "scratch/a.txt", "content": "hi"})) is False
    assert capsys.readouterr().out.endswith("→ not approved (no answer within 0.05 s)\n")


@pytest.mark.parametrize("switch, word", [("approve", "approved"), ("reject", "rejected")])
def test_the_panel_says_when_the_switch_pressed_the_button(tmp_path, monkeypatch, switch, word):
    """In the browser tab's panel, as under the buttons: a decision nobody clicked says so on its line."""
    from harness_lib.client import make_client
    from harness_lib.loop import run_agent
    from harness_ui.tab import TabApproval
    from harness_lib.tools import TOOLS, make_tool_impls

    monkeypatch.setattr("IPython.display.display", lambda *objs, **kw: None)
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", switch)
    (tmp_path / "README.md").write_text("# A readme\n")

    async def scene():
        panel = TabApproval()
        panel.start(run_agent(make_client(scenario="high-impact"), "Read README.md", TOOLS, make_tool_impls(tmp_path),
                              approve=panel.approve, on_event=panel.on_event))
        await panel.task
        return panel

    panel = asyncio.run(scene())
    nobody = " (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)"
    decided = [line for line in panel.lines if line.startswith("[approve]")]
    assert decided and decided[0].endswith(f"→ {word}{nobody}")
    assert panel.lines[-1].startswith("[record] write_file(") and panel.lines[-1].endswith(nobody)  # the record too


def test_the_transcript_file_and_record_say_the_code_clicked(tmp_path, monkeypatch, shown, capsys):
    """widget_approver(click=...) under the real loop: the JSONL approval event and the [record] line say so."""
    from harness_lib.client import make_client
    from harness_lib.loop import run_agent
    from harness_lib.tools import TOOLS, make_tool_impls
    from harness_lib.trace import Transcript
    from harness_ui.widget import widget_approver

    (tmp_path / "README.md").write_text("# A readme\n")
    lines, path = [], tmp_path / "run.jsonl"
    transcript = Transcript(path, out=lines.append)
    asyncio.run(run_agent(make_client(scenario="high-impact"), "Read README.md", TOOLS, make_tool_impls(tmp_path),
                          approve=widget_approver(click="reject"), on_event=transcript))
    transcript.close()
    approvals = [e for e in map(json.loads, path.read_text().splitlines()) if e["event"] == "approval"]
    assert [e.get("nobody_clicked") for e in approvals] == ["code"]
    assert lines[-1].endswith("(clicked by the code, not by a person)") and "→ not approved: " in lines[-1]


# --- 2. every renderer goes through the rule -------------------------------------------------------------


def test_the_panels_status_line_shows_an_endpoints_error_on_one_line(monkeypatch):
    from harness_ui.tab import TabApproval

    monkeypatch.setattr("IPython.display.display", lambda *objs, **kw: None)
    message = "ok\u202e\n[approve] write_file({}) → rejected\nThe run is over.\x1b[2K"

    async def failing():
        raise RuntimeError(message)

    async def scene():
        panel = TabApproval()
        panel.start(failing())
        await panel.task
        return panel

    status = asyncio.run(scene()).status.value
    assert "\u202e" not in status and "\x1b" not in status and "\n" not in status
    assert "ok\\u202e\\u000a[approve] write_file({}) → rejected\\u000aThe run is over.\\u001b[2K" in status


def test_a_stop_reason_is_one_word():
    from harness_lib.trace import Transcript

    lines = []
    Transcript(out=lines.append)({"event": "end", "turn": 1, "stop_reason": "end_turn\n[record] x → rejected",
                                  "stopped_by": "unknown_stop", "text": "", "note": None, "turns": 0, "requests": 1})
    assert lines[0] == "[turn 1] model ends (end_turn\\u000a[record] x → rejected)"


def test_the_tools_line_shows_the_root_exactly():
    from harness_lib.__main__ import tools_line

    line = tools_line(Path("kit\x1b[2J\u202e", "r\u043eot"), "ask")
    assert "\x1b" not in line and "\u202e" not in line and "r\\u043eot" in line


@pytest.fixture(scope="module")
def exercises_path():
    sys.path.insert(0, str(ROOT / "exercises"))  # the checks' package, as a notebook's kernel imports it
    yield
    sys.path.remove(str(ROOT / "exercises"))


def test_the_checks_lines_show_the_learners_values_escaped(capsys, exercises_path):
    from checks.verdict import Checks

    c = Checks("x", "a check \x1b[2J")
    c.ok(False, "got 'evil\u202etxt.exe'\x1b[2J", "your loop printed \r'nothing was written'")
    c.note("1: write_file({}) → \x1b[31mok")
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\r" not in out
    assert "\\u001b[2J" in out and "\\u202e" in out and "\\u000d" in out


def test_an_inspector_file_with_a_5000_digit_number_names_the_file_and_line(tmp_path):
    from harness_ui.inspector import Inspector

    path = tmp_path / "run.jsonl"
    path.write_text('{"event": "start", "input": "x", "model": "m"}\n{"event": "request", "n": ' + "1" * 5000 + "}\n")
    with pytest.raises(ValueError, match=rf"^{path}, line 2: "):
        Inspector.from_jsonl(path)


# --- the grader: the same rule, names exact, Markdown and spreadsheets inert --------------------------------


@pytest.mark.parametrize("one, other", [("ana", "ana\u034f"), ("bo", "bo\ufe0f"), ("ana", "\u0430na"),
                                        ("e\u0301", "\u00e9"), ("bob", "b\u043eb"), ("Ana", "\uff21na")])
def test_two_learners_never_read_the_same_in_the_csv_summary_or_terminal(one, other):
    from grader.report import csv_cell, md, shown_name

    assert shown_name(one) != shown_name(other)
    assert csv_cell(one, True) != csv_cell(other, True)
    assert md(one, name=True) != md(other, name=True)


def test_markdown_block_syntax_and_math_are_inert():
    from grader.report import md

    assert md("# PASS 10 of 10") == "\\# PASS 10 of 10"
    assert md("> quoted").startswith("\\>") and md("- item").startswith("\\-") and md("1. one") == "1\\. one"
    assert md("$x^2$") == "\\$x^2\\$"


@pytest.mark.parametrize("value", [" =1+1", "\uff1d1+1", "\uff0bx", "  @SUM(A1)", "-1"])
def test_a_formula_after_spaces_or_in_fullwidth_is_prefixed(value):
    from grader.report import csv_cell

    assert csv_cell(value).startswith("'")


def test_the_grader_imports_the_rule_without_the_sdk():
    probe = "import sys, grader.report\nprint(sorted(m for m in ('anthropic', 'harness_lib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "[]"


# --- 3. a closing account wherever a run is shown -----------------------------------------------------------


def test_the_transcript_ends_with_the_harness_record_after_the_models_words():
    from harness_lib.trace import Transcript

    lines = []
    t = Transcript(out=lines.append)
    call = {"path": "scratch/evil.txt", "content": "x"}
    t({"event": "tool_call", "turn": 1, "id": "t1", "name": "write_file", "input": call})
    t({"event": "approval", "turn": 1, "name": "write_file", "input": call, "approved": True})
    t({"event": "tool_result", "turn": 1, "id": "t1", "name": "write_file", "content": "wrote 1 characters to "
       "scratch/evil.txt", "is_error": False})
    t({"event": "end", "turn": 2, "stop_reason": "end_turn", "stopped_by": "end_turn", "note": None, "turns": 1,
       "requests": 2, "text": "[approve] write_file(...) → rejected\nNothing was written; every file is as it was."})
    assert lines[-1] == ('[record] write_file(path="scratch/evil.txt", content="x") → approved, run: '
                         '"wrote 1 characters to scratch/evil.txt"')  # the last line is the harness's, not the model's
    assert any(line.endswith("Nothing was written; every file is as it was.") for line in lines[:-1])


# --- 4. the path beside the question, always ----------------------------------------------------------------


def test_a_long_path_stays_beside_the_question():
    from harness_lib.approval import question

    path = "scratch/" + "deep/" * 20 + "a.txt"  # 113 characters
    asked = question("write_file", {"path": path, "content": "x" * 19000})
    assert asked.splitlines()[-1].endswith(f'write_file(path="{path}", content=(19000 characters))')


# --- 5. a mail's recipient is an exact field -----------------------------------------------------------------


def test_a_look_alike_address_is_asked_about_as_its_code():
    from harness_lib.approval import question

    real = question("send_email", {"to": "bob@example.com", "subject": "hi", "body": "x"})
    fake = question("send_email", {"to": BOB, "subject": "hi", "body": "x"})
    assert fake != real and '"to":"b\\u043eb@example.com"' in fake


@pytest.mark.parametrize("notebook", [f"exercises/{edition}{part}{name}" for edition in ("", "es/")
                                      for part in ("", "solutions/")
                                      for name in ("01_tiered_policy.ipynb", "04_the_approval_gate.ipynb")])
def test_exercises_1_and_4_show_a_call_by_the_rule_so_to_is_exact(notebook):
    """Their transcript and log lines show a call with show_call: a `to` of send_email is an exact field there too."""
    code = "".join("".join(c["source"]) for c in json.loads((ROOT / notebook).read_text(encoding="utf-8"))["cells"]
                   if c["cell_type"] == "code")
    assert "show_call(" in code and "compact(" not in code


# --- 6. the lessons' own prints of model text -----------------------------------------------------------------


@pytest.mark.parametrize("notebook", ["notebooks/02_the_core_loop.ipynb", "notebooks/es/02_the_core_loop.ipynb",
                                      "exercises/02_missing_guards.ipynb", "exercises/es/02_missing_guards.ipynb",
                                      "exercises/solutions/02_missing_guards.ipynb",
                                      "exercises/es/solutions/02_missing_guards.ipynb"])
def test_the_lessons_print_model_text_through_the_rule(notebook):
    cells = json.loads((ROOT / notebook).read_text(encoding="utf-8"))["cells"]
    raw = [line for c in cells if c["cell_type"] == "code" for line in "".join(c["source"]).splitlines()
           if "print(" in line and any(f in line for f in ("result.text", "final_text(", "block.text", ".stop_reason",
                                                            "call.id", "call.name", '["message"]', "else value}"))
           and not any(f"{rule}(" in line for rule in ("visible_text", "one_word", "one_line"))]
    assert raw == []


# --- the property: hidden, look-alike and escape-shaped inputs are never hidden, never shown alike ------------

HOSTILE = st.text(st.sampled_from("ab ./\\u{}0é中\u0430\u043e\u202e\u200b\u034f\ufe0f\u0301\x1b\r\n\t\u00a0"
                                  "\U000e0041\u3164\uff1d=$#>-`*_[]@"), max_size=24)
RENDERERS = {
    "visible_text": lambda s: visible_text(s, lines=False), "one_line": one_line, "one_word": one_word,
    "exact": exact,
}


def _raw_hidden(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch)[0] in "CM" or (unicodedata.category(ch)[0] == "Z"
                                                                          and ch != " ")]


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(HOSTILE, HOSTILE)
def test_the_rule_hides_nothing_and_shows_no_two_texts_alike(one, other):
    for name, render in RENDERERS.items():
        shown = render(one)
        assert not _raw_hidden(shown), (name, shown)
        assert decode(shown) == one, name
        if one != other:
            assert shown != render(other), name


@settings(max_examples=100, derandomize=True, database=None, deadline=None)
@given(HOSTILE, HOSTILE)
def test_every_renderer_the_rule_serves_hides_nothing_and_shows_no_two_alike(exercises_path, one, other):
    """The grader's CSV, Markdown and terminal lines, a tool call, a transcript's stop reason and answer."""
    from checks.verdict import Checks
    from grader.report import csv_cell, md, shown, shown_name
    from harness_lib.__main__ import tools_line
    from harness_lib.approval import question
    from harness_ui.inspector import Inspector
    from harness_lib.trace import Transcript

    def transcript(text):
        lines = []
        Transcript(out=lines.append)({"event": "end", "turn": 1, "stop_reason": text, "stopped_by": "end_turn",
                                      "text": text, "note": None, "turns": 0, "requests": 1})
        return "\n".join(lines)

    def csv_line(text):
        out = io.StringIO()
        csv.writer(out).writerow([csv_cell(text), csv_cell(text, True)])
        return out.getvalue()

    def check_lines(text):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            c = Checks("x", text)
            c.ok(False, text, text)
            c.note(text)
        return out.getvalue()

    def inspector(text):
        return repr(Inspector.from_events([{"event": "end", "turn": 1, "stop_reason": text, "stopped_by": text,
                                            "text": text, "turns": 0, "requests": 1}]))

    tools = tools_line(Path("root", one), "ask")  # (a path: "a/" and "a" are one folder, so only: nothing hidden)
    assert not _raw_hidden(tools), tools
    renderers = {"checks": check_lines, "inspector": inspector,
                 "md": md, "md name": lambda s: md(s, name=True), "csv": csv_line, "shown": shown,
                 "shown_name": shown_name, "call": lambda s: show_call(s, {"path": s, "to": s, "content": s}),
                 "question": lambda s: question(s, {"path": s, "content": s * 20}), "transcript": transcript}
    for name, render in renderers.items():
        text = render(one)
        assert not [ch for ch in _raw_hidden(text) if ch not in "\n\r"], (name, text)  # (csv ends its row: \r\n)
        if one != other:
            assert text != render(other), name
