"""The transcript lines and the JSONL record."""

import json

import pytest

from harness_kit import lang
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


# --- issue 37: one rule for every text a person reads, before and after a decision -----------------------

import re  # noqa: E402
import sys  # noqa: E402
import unicodedata  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from harness_kit.shown import SPACE_RUN, one_word, show_call, visible_text  # noqa: E402
from harness_lib.trace import stop_text  # noqa: E402

DRAW_NOTHING = ("Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Mc", "Me", "Zs", "Zl", "Zp")  # and U+0020 is kept
BLANK_GLYPHS = "\u115f\u1160\u3164\uffa0\u2800\ufffc\U0001d159"  # letters and symbols that draw nothing


SPACES = re.compile(r"\\u0020\{(\d+)\}")


def unshow(shown: str) -> str:
    """visible_text's inverse: proves that two different texts can never be shown alike."""
    out, i = [], 0
    while i < len(shown):
        if shown.startswith("\\\\", i):
            out.append("\\")
            i += 2
        elif space := SPACES.match(shown, i):
            out.append(" " * int(space.group(1)))
            i = space.end()
        elif shown.startswith("\\u", i):
            code = int(shown[i + 2:i + 6], 16)
            i += 6
            if 0xD800 <= code < 0xDC00 and shown.startswith("\\u", i):  # a surrogate pair
                code = 0x10000 + (code - 0xD800) * 0x400 + int(shown[i + 2:i + 6], 16) - 0xDC00
                i += 6
            out.append(chr(code))
        else:
            out.append(shown[i])
            i += 1
    return "".join(out)


def test_every_code_point_that_draws_nothing_is_shown_escaped():
    """A sweep of all 1,114,112 code points: none of the categories that draw nothing (controls, format, bidi,
    tags, private use, unassigned, surrogates, combining marks and variation selectors, every space but U+0020,
    line and paragraph separators), nor the letters and symbols that draw nothing (U+FFFC ...), survives."""
    every = "".join(map(chr, range(sys.maxunicode + 1)))
    left = {ch for ch in set(visible(every)) if unicodedata.category(ch) in DRAW_NOTHING and ch != " "
            or ch in BLANK_GLYPHS}
    assert not left, sorted(f"U+{ord(ch):04X}" for ch in left)[:20]


# Hostile text, by class: what a model or an endpoint may put in an answer, a stop reason, a refusal, a call.
HOSTILE = {
    "cursor up and erase": "\x1b[1A\x1b[2K\x1b[1A\x1b[2KNothing was written.",
    "colour left on": "done\x1b[37m",
    "OSC hyperlink and title": "\x1b]8;;https://evil.invalid\x07click\x1b]8;;\x07\x1b]0;pwned\x07",
    "carriage return overwrite": "wrote it\rnothing written",
    "backspaces": "approved\b\b\b\b\b\b\b\brejected",
    "C1 CSI": "\x9b2J\x9b1A",
    "object replacement": "scratch/a\ufffc.txt",
    "tag characters": "a\U000e0061\U000e0062b",
    "variation selectors": "a\ufe0f\U000e0100b",
    "combining on nothing": "\u0301\u20dd",
    "private use": "\ue000\U000f0000",
    "unassigned": "\u0378\U0001fffe",
    "20,000 spaces": "rm -rf" + " " * 20_000 + "x",
    "look-alike quotes": " " * 300 + "\u02ba)\n[approve] delete_file(\u02bapath\u02ba:\u02bascratch/x\u02ba)",
    "homoglyph": "scratch/\u0430nswer.txt",
    "spelled escape": "\\u202e and \\\\u0020{3}",
    "html": '1"><img src=x onerror=alert(1)><script>alert(2)</script>',
}

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # every control but the line break


@pytest.mark.parametrize("kind", HOSTILE)
def test_visible_text_shows_every_hostile_class_escaped_and_exactly(kind):
    shown = visible_text(HOSTILE[kind])
    assert not RAW_CONTROL.search(shown)
    assert unshow(shown.replace("\n", "\\u000a")) == HOSTILE[kind]
    assert all(not (unicodedata.category(ch) in DRAW_NOTHING and ch != " ") or ch == "\n" for ch in shown)
    assert " " * SPACE_RUN not in shown


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.text(st.characters(codec=None, exclude_categories=()), max_size=40),
       st.text(st.characters(codec=None), max_size=40))
def test_two_different_texts_are_never_shown_alike(one, other):
    """visible_text is one-to-one (unshow undoes it): what a person reads names exactly one text."""
    assert unshow(visible_text(one, lines=False)) == one
    if one != other:
        assert visible_text(one) != visible_text(other)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.dictionaries(st.sampled_from(["path", "content", "url", "x\u200by", "n"]),
                       st.one_of(st.text(max_size=30), st.integers(), st.none(),
                                 st.text(" \u00a0\ufffc\u0430a\u202e\x1b", max_size=40)), max_size=3),
       st.text(max_size=10))
def test_a_shown_call_names_exactly_one_call(tool_input, name):
    shown = show_call(name, tool_input)
    assert not RAW_CONTROL.search(shown) and "\n" not in shown
    head = one_word(name)  # a name is one word: its look-alikes shown as codes too
    assert shown.startswith(head + "(") and unshow(head) == name  # the name, exactly
    json_part = SPACES.sub(lambda m: " " * int(m.group(1)), shown[len(head) + 1:-1])
    assert json.loads(json_part) == tool_input  # the input, exactly


def test_space_runs_are_counted_and_homoglyph_paths_escaped():
    assert visible(" " * 15) == " " * 15
    assert visible("a" + " " * 20_000 + "b") == "a\\u0020{20000}b"
    call = show_call("write_file", {"path": "scratch/\u0430nswer.txt", "content": "\u0430 in content is kept"})
    assert call == 'write_file({"path":"scratch/\\u0430nswer.txt","content":"\u0430 in content is kept"})'
    assert show_call("write_file", {"path": "scratch/a\ufffc.txt"}) != show_call("write_file", {"path": "scratch/a.txt"})


@pytest.mark.parametrize("kind", HOSTILE)
def test_the_transcript_after_the_decision_shows_the_models_text_escaped(kind):
    """The answer, the stop reason and a refusal's explanation: shown by the same rule, never obeyed."""
    hostile = HOSTILE[kind]
    lines = []
    t = Transcript(out=lines.append)
    t({"event": "tool_call", "turn": 1, "id": "t", "name": hostile, "input": {"path": hostile}})
    t({"event": "tool_result", "turn": 1, "id": "t", "name": "x", "content": hostile, "is_error": False})
    t({"event": "end", "turn": 2, "stop_reason": hostile, "stopped_by": "unknown_stop", "text": hostile,
       "note": None, "turns": 1, "requests": 2, "tokens_used": 1})
    t({"event": "end", "turn": 2, "stop_reason": "refusal", "stopped_by": "refusal",
       "text": "The model declined this request. " + hostile, "note": ["stop.refusal", {}], "turns": 1,
       "requests": 2, "tokens_used": 1})
    printed = "\n".join(lines)
    assert not RAW_CONTROL.search(printed)
    assert " " * SPACE_RUN not in printed
    assert "\ufffc" not in printed
    assert "\n" not in lines[0] and lines[0].endswith(show_call(hostile, {"path": hostile}))  # the call: one line
    assert visible_text(hostile) in printed


def test_a_note_from_a_file_that_names_no_sentence_leaves_the_text_as_it_is():
    for note in (["stop.nope", {}], ["stop.max_turns", {"wrong": 1}], ["x"], 5):
        assert stop_text({"text": "t", "note": note}) == "t"
