"""The transcript's exact words and record, where mutation testing found them untested (docs/development.md,
"Mutation testing"). Each test asserts what a person reads or what the JSONL file holds; each was checked to fail
with the bug it names planted by hand."""

import json
from datetime import datetime, timezone
from types import SimpleNamespace

from harness_lib.trace import Transcript, compact, preview, stop_text, visible


def test_the_transcript_shows_non_ascii_text_as_it_is(tmp_path):
    lines = []
    t = Transcript(out=lines.append)
    t({"event": "tool_call", "turn": 1, "id": "toolu_1", "name": "write_file",
       "input": {"path": "scratch/a.txt", "content": "año ✓ 中文"}})
    t({"event": "tool_result", "turn": 1, "id": "toolu_1", "name": "read_file", "content": "año ✓", "is_error": False})
    assert "año ✓ 中文" in lines[0] and "\\u" not in lines[0]
    assert lines[1] == '[turn 1] tool returned: "año ✓"'


def test_a_preview_is_cut_only_past_its_limit():
    assert preview("x" * 60) == json.dumps("x" * 60)
    assert preview("x" * 61) == json.dumps("x" * 60 + "...")
    assert preview("año") == '"año"'


def test_the_record_is_stamped_in_utc_and_keeps_what_json_cannot_hold(tmp_path):
    path = tmp_path / "run.jsonl"
    t = Transcript(path, out=lambda line: None)
    when = datetime(2026, 12, 4, 21, 0, tzinfo=timezone.utc)
    t({"event": "start", "input": "año", "model": "m", "when": when})
    t.close()
    record = json.loads(path.read_text(encoding="utf-8"))
    assert datetime.fromisoformat(record["time"]).utcoffset().total_seconds() == 0  # UTC, with its offset
    assert record["when"] == str(when) and record["input"] == "año"
    assert compact({"when": when, "path": "año.md"}) == f'{{"when":"{when}","path":"año.md"}}'


def test_stop_text_of_a_run_that_records_no_note_is_its_text():
    """A loop of one's own (a learner's AgentResult) need not have a `note`; an event read from a file may lack text."""
    assert stop_text(SimpleNamespace(text="Done.", stopped_by="end_turn")) == "Done."
    assert stop_text({"event": "end", "text": None, "note": None}) == ""


def test_visible_escapes_the_last_character_of_the_bmp():
    assert visible("a\uffffb") == "a\\uffffb"
