"""The transcript lines and the JSONL record."""

import json

import pytest

from harness_lib import lang
from harness_lib.approval import describe
from harness_lib.trace import Transcript, preview, summary, visible


def test_preview_shows_the_first_line_then_an_ellipsis():
    assert preview("# Title\nmore text") == '"# Title\\n..."'
    assert preview("2026-11-30T10:42:07+00:00") == '"2026-11-30T10:42:07+00:00"'
    assert preview("x" * 100, limit=10) == '"xxxxxxxxxx..."'


def test_summary_singular_and_plural():
    assert summary(2, 3) == "That took 2 tool-calling turns across 3 model requests."
    assert summary(1, 1) == "That took 1 tool-calling turn across 1 model request."


def test_transcript_prints_the_lessons_lines_and_writes_jsonl(tmp_path):
    lines, path = [], tmp_path / "run.jsonl"
    t = Transcript(path, out=lines.append)
    t({"event": "tool_call", "turn": 1, "id": "toolu_1", "name": "read_file", "input": {"path": "README.md"}})
    assert path.read_text().count("\n") == 1  # flushed as it happens, before the run ends
    t({"event": "tool_result", "turn": 1, "id": "toolu_1", "name": "read_file", "content": "# T\nx", "is_error": False})
    t({"event": "tool_result", "turn": 2, "id": "toolu_2", "name": "read_file", "content": "file not found: x", "is_error": True})
    t({"event": "end", "turn": 3, "stop_reason": "end_turn", "stopped_by": "end_turn", "text": "Done.",
       "turns": 2, "requests": 3, "tokens_used": 10})
    t({"event": "end", "turn": 9, "stop_reason": None, "stopped_by": "max_turns", "text": "Stopped.",
       "turns": 8, "requests": 9, "tokens_used": 10})
    t.close()
    assert lines == [
        '[turn 1] model requests tool: read_file({"path":"README.md"})',
        '[turn 1] tool returned: "# T\\n..."',
        '[turn 2] tool failed: "file not found: x"',
        "[turn 3] model ends (end_turn)", "", "Done.", "That took 2 tool-calling turns across 3 model requests.",
        "[turn 9] harness stops (max_turns)", "", "Stopped.", "That took 8 tool-calling turns across 9 model requests.",
    ]
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["event"] for r in records] == ["tool_call", "tool_result", "tool_result", "end", "end"]
    assert records[1]["content"] == "# T\nx" and "time" in records[0]


def test_events_without_a_line_are_recorded_not_printed(tmp_path):
    lines, path = [], tmp_path / "run.jsonl"
    t = Transcript(path, out=lines.append)
    t({"event": "start", "input": "What time is it?", "model": "claude-sonnet-5"})
    t({"event": "error", "message": "interrupted"})  # the terminal agent's record of why a run ended early
    t.close()
    assert lines == []
    assert [json.loads(line)["event"] for line in path.read_text().splitlines()] == ["start", "error"]


def test_a_path_that_cannot_be_written_fails_when_the_transcript_is_made(tmp_path):
    with pytest.raises(FileNotFoundError):
        Transcript(tmp_path / "missing" / "run.jsonl")
    with pytest.raises(IsADirectoryError):
        Transcript(tmp_path)


# What a person reads before deciding: the transcript's line just above the [y/N] prompt must show the same
# escaped text as the prompt (and the widget), so that nothing hides in it.
HIDDEN = {
    "blank letters": "\u3164\u2800\u115f\u1160\uffa0",
    "non-ASCII spaces": "\u00a0\u2002\u2009\u202f\u205f\u3000\u1680",
    "combining marks": "e\u0301\u0308\u20dd",
    "bidi": "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
    "zero-width": "\u200b\u200c\u200d\u2060\ufeff",
    "C1 controls": "\x80\x85\x9b\x9f",
    "C0 controls and DEL": "\x00\x07\x1b\x7f",
    "separators": "\u2028\u2029",
}


@pytest.mark.parametrize("kind", HIDDEN)
def test_visible_escapes_what_a_person_cannot_see(kind):
    text = f"scratch/a{HIDDEN[kind]}b.txt"
    shown = visible(json.dumps(text, ensure_ascii=False))
    assert shown.isascii() or kind == "combining marks" and "e" in shown
    assert all(ch not in shown for ch in HIDDEN[kind] if ch != "e")
    assert json.loads(shown) == text, "escaped JSON still says exactly the same"


def test_visible_keeps_readable_text_and_plain_spaces():
    text = "héllo  ✓ 中文 Ωμέγα עברית العربية 😀"
    assert visible(text) == text


@pytest.mark.parametrize("kind", HIDDEN)
@pytest.mark.parametrize("language", ["en", "es"])
def test_transcript_line_above_the_prompt_escapes_like_the_prompt(kind, language):
    tool_input = {"path": f"scratch/a{HIDDEN[kind]}b.txt", "content": "x"}
    lines = []
    with lang.using(language):
        Transcript(out=lines.append)({"event": "tool_call", "turn": 1, "id": "toolu_1", "name": "write_file",
                                      "input": tool_input})
        Transcript(out=lines.append)({"event": "tool_result", "turn": 1, "id": "toolu_1", "name": "write_file",
                                      "content": f"wrote {tool_input['path']}", "is_error": False})
    assert lines[0].endswith(": " + describe("write_file", tool_input)), "the same text as the [y/N] question"
    assert all(ch not in "".join(lines) for ch in HIDDEN[kind] if ch != "e")


def test_two_paths_that_look_alike_never_print_alike():
    for one, other in [("a b", "a\u00a0b"), ("a b", "a\u3164b"), ("ab", "a\u2800b"), ("é", "e\u0301")]:
        lines = []
        for path in (one, other):
            Transcript(out=lines.append)({"event": "tool_call", "turn": 1, "id": "t", "name": "write_file",
                                          "input": {"path": path}})
        assert lines[0] != lines[1]


def test_the_jsonl_record_keeps_the_exact_text(tmp_path):
    path = tmp_path / "run.jsonl"
    t = Transcript(path, out=lambda line: None)
    t({"event": "tool_call", "turn": 1, "id": "t", "name": "write_file", "input": {"path": "a\u202eb"}})
    t.close()
    assert json.loads(path.read_text())["input"] == {"path": "a\u202eb"}
