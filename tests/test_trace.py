"""The transcript lines and the JSONL record."""

import json

import pytest

from harness_lib.trace import Transcript, preview, summary


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
