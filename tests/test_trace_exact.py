"""The transcript's exact words and record, where mutation testing found them untested (docs/development.md,
"Mutation testing"). Each test asserts what a person reads or what the JSONL file holds; each was checked to fail
with the bug it names planted by hand."""

import json
from datetime import datetime, timezone
from types import SimpleNamespace

from harness_kit.shown import compact, show_call, show_field, visible, visible_text
from harness_lib.trace import Transcript, preview, stop_text


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


# --- the escaping rule of issue 37, character by character --------------------------------------------------


def test_a_run_of_spaces_is_counted_from_sixteen_on():
    assert visible(" " * 15 + "|" + " " * 16 + "|" + " " * 17) == " " * 15 + "|\\u0020{16}|\\u0020{17}"
    assert visible("a  b") == "a  b"


def test_each_hidden_character_is_escaped_once_per_occurrence_and_beyond_the_bmp_as_a_surrogate_pair():
    assert visible("a\u200b\u200bb") == "a\\u200b\\u200bb"  # two zero-width spaces: two escapes
    assert visible("\U000e0041\U0001d159\ufffc\u3164\u00a0\u0301") == \
        "\\udb40\\udc41\\ud834\\udd59\\ufffc\\u3164\\u00a0\\u0301"
    assert visible("é ✓ 中文 \U0001f600") == "é ✓ 中文 \U0001f600"  # what can be seen is kept


def test_plain_text_doubles_its_backslashes_and_keeps_its_line_breaks_unless_asked_not_to():
    assert visible_text("C:\\temp\n\u202e\r\tz") == "C:\\\\temp\n\\u202e\\u000d\\u0009z"
    assert visible_text("a\nb", lines=False) == "a\\u000ab"
    assert visible_text("a\\u202eb", lines=False) == "a\\\\u202eb"  # spelt out: cannot pass for an escape


def test_a_path_or_url_shows_every_non_ascii_letter_as_its_code_other_fields_keep_theirs():
    assert show_field("path", "\u0430nswer.txt") == ('"path"', '"\\u0430nswer.txt"')  # a Cyrillic а
    assert show_field("url", "é") == ('"url"', '"\\u00e9"')
    assert show_field("content", "é") == ('"content"', '"é"')
    assert show_call("write\nfile", {"path": "a\u202e", "content": "ü\u200b"}) == \
        'write\\u000afile({"path":"a\\u202e","content":"ü\\u200b"})'
    assert show_call("n", [1, "\u200b"]) == 'n([1,"\\u200b"])' and show_call("n", None) == "n(null)"


def test_a_note_that_names_no_sentence_leaves_the_text_as_it_is():
    for note in [("stop.nope", {}), ("stop.max_turns",), "ab", 5, ("stop.max_turns", {"cap": 1, "zz": 2}),
                 ("stop.max_turns", {}), ("stop.max_turns", [1])]:
        assert stop_text({"text": "T", "note": note}) == "T", note


def test_the_transcript_shows_the_stop_and_the_answer_escaped(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "en")
    lines = []
    Transcript(out=lines.append)({"event": "end", "turn": 2, "stop_reason": "end\u202e", "stopped_by": "end_turn",
                                  "text": "line\x1b[2K\nC:\\x", "note": None, "turns": 1, "requests": 2})
    assert lines == ["[turn 2] model ends (end\\u202e)", "", "line\\u001b[2K\nC:\\\\x",
                     "That took 1 tool-calling turn across 2 model requests."]


def test_a_nested_field_is_compact_and_a_value_json_cannot_hold_is_shown_as_text():
    when = datetime(2026, 12, 4, 21, 0, tzinfo=timezone.utc)
    assert show_call("n", {"options": {"a": [1, 2]}, "path": ["é"]}) == 'n({"options":{"a":[1,2]},"path":["\\u00e9"]})'
    assert show_call("n", {"when": when}) == f'n({{"when":"{when}"}})'
    assert show_field("when", when) == ('"when"', f'"{when}"')
