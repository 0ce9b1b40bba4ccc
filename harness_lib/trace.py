"""The transcript: what the harness prints while the loop turns, and a JSONL record of every event.

Pass a `Transcript` as `on_event` and a run prints the lesson's lines:

    [turn 1] model requests tool: read_file({"path":"README.md"})
    [turn 1] tool returned: "# Agent harness fundamentals\\n..."
    [turn 2] model requests tool: get_time({})
    [turn 2] tool returned: "2026-11-30T10:42:07+00:00"
    [turn 3] model ends (end_turn)

    The first line of README.md is "# Agent harness fundamentals", and it is 10:42 on 2026-11-30.
    That took 2 tool-calling turns across 3 model requests.

With a `path`, every event (requests and their token usage, approvals, full tool output) is also
appended to that file as one JSON object per line and flushed at once, so a crash or Ctrl-C loses
nothing already seen. The file is opened when the Transcript is made, so a path that cannot be
written fails then (OSError), before any model call. Events it has no line for (start, request,
approval, and the terminal agent's `{"event": "error", "message": ...}` when a run fails) are
recorded in the file but not printed. Every printed line goes through `visible` (the kit's one escaping
rule, the approval question's): a tool's input and output, the stop reason, and the answer itself, line
by line (`visible_text`). So a hidden character cannot disguise a call, and no text a model or an
endpoint returns can move the cursor, erase a line or colour the screen: an escape code is shown as
``\u001b[2K``, not obeyed. The file keeps the exact text. Not handled: rotating or size-capping the file, and redacting
secrets a tool returned.

The printed lines follow ``HARNESS_LANG`` (harness_lib.lang), read at each event; with ``es``:

    [turn 1] el modelo pide la herramienta: read_file({"path":"README.md"})
    [turn 1] la herramienta devolvió: "# Agent harness fundamentals\\n..."
    [turn 3] el modelo termina su turno (end_turn)
    Hicieron falta 2 turnos con llamadas a herramientas y 3 peticiones al modelo.

The loop's own stop sentences (``Stopped by the harness: reached the turn cap of 8 ...``) are English in
``AgentResult.text``; the run's `note` names each by its message id and values, so `stop_text` writes it
again in the current language when it is printed; the model's own words are never changed. The JSONL file
keeps every event exactly as the loop emitted it, in English, its note included.
"""

from __future__ import annotations

import json
import unicodedata
from datetime import datetime, timezone
from itertools import groupby
from pathlib import Path
from typing import Callable, TextIO

from . import lang


def compact(value) -> str:
    """Compact JSON, the way the transcript shows tool input: {"path":"README.md"}."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


# Characters that draw nothing although they are letters or symbols (so their category does not say so):
# Hangul fillers, the blank Braille pattern, the object replacement character, a musical null notehead.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\ufffc\U0001d159")

SPACE_RUN = 16
"""A run of this many plain spaces or more is shown as one escaped space and its count: ``\\u0020{20000}``."""


def _hidden(ch: str) -> bool:
    """True for a character a person cannot see, or cannot tell apart, on screen."""
    category = unicodedata.category(ch)
    return (category[0] in "CM"  # controls, format (bidi, zero-width, tags), private use, unassigned; combining marks
            or (category[0] == "Z" and ch != " ")  # spaces other than the plain one, line/paragraph separators
            or ch in _BLANK_LETTERS)


def _escape(ch: str) -> str:
    if ord(ch) <= 0xFFFF:
        return f"\\u{ord(ch):04x}"
    high, low = divmod(ord(ch) - 0x10000, 0x400)  # beyond the BMP: a JSON surrogate pair, so JSON stays JSON
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def visible(text: str) -> str:
    """`text` (JSON text: a tool call, a quoted preview) with every character a person could not see escaped.

    The kit's one rule for what a person reads, before deciding (the approval question, the buttons'
    label, the transcript's lines) and after (the answer, the stop reason, the inspector, the terminal
    agent's last lines). Written as a JSON escape (``\\u3164``): control characters (C0, DEL, C1, so no
    terminal escape code and no carriage return gets through), bidi controls and marks, zero-width and
    other "format" characters (tag characters too), private-use and unassigned code points, every space
    but U+0020 (no-break, thin, ideographic ...), line and paragraph separators, combining marks and
    variation selectors (``e`` + U+0301 looks like ``é``), and characters that draw nothing (U+3164 HANGUL
    FILLER, U+2800 BRAILLE PATTERN BLANK, U+FFFC OBJECT REPLACEMENT CHARACTER ...). A run of SPACE_RUN
    plain spaces or more is written ``\\u0020{N}``: padding cannot push the rest of a call off the screen,
    and its length is a number you can read. Everything else (é, ✓, 中文, emoji) is kept.

    In JSON text a backslash the text holds is already written ``\\\\``, so every single-backslash escape
    in the result is one this function wrote, and two different texts never look the same. Plain text is
    shown by :func:`visible_text`, which doubles its backslashes first. Applied to JSON text without
    space runs, the result is still valid JSON with the same value.

    Not handled: look-alike letters (a Cyrillic ``а`` for a Latin ``a``) are kept as they are (the
    approval question shows a path's non-ASCII letters escaped: see harness_lib.approval); scripts that
    write with combining marks (Devanagari, Hebrew points) come out escaped, hard to read but exact; a
    character the reader's font lacks may draw as the same empty box as another one.
    """
    out = []
    for ch, run in groupby(text):  # runs of the same character
        count = len(list(run))
        if ch == " " and count >= SPACE_RUN:
            out.append(f"\\u0020{{{count}}}")
        else:
            out.append((_escape(ch) if _hidden(ch) else ch) * count)
    return "".join(out)


def visible_text(text: str, *, lines: bool = True) -> str:
    """Plain text (the model's answer, a stop reason, an error message) by :func:`visible`'s rule.

    Its backslashes are doubled first (``C:\\\\temp``), so a ``\\u202e`` the text spells out cannot pass
    for an escaped character; then each line goes through visible(). Line breaks (``\\n``) are kept, so
    an answer still reads as lines (``lines=False``: one line, a line break escaped too); a carriage
    return, a tab and every escape code are shown escaped.
    """
    if not lines:
        return visible(str(text).replace("\\", "\\\\"))
    return "\n".join(visible_text(line, lines=False) for line in str(text).split("\n"))


EXACT_FIELDS = frozenset({"path", "url"})
"""Input fields that name a thing (a file, an address): every non-ASCII character in them is shown escaped.

A look-alike letter (a Cyrillic ``а`` in ``scratch/аnswer.txt``) then shows as the code it is,
``scratch/\\u0430nswer.txt``, and cannot pass for the Latin ``a`` of another path."""


def show_field(key: str, value) -> tuple[str, str]:
    """One field of a tool's input, shown: (key, value) as compact JSON through visible().

    In the fields of EXACT_FIELDS every character that is not ASCII is escaped too."""
    exact = json.dumps(value, ensure_ascii=key in EXACT_FIELDS, separators=(",", ":"), default=str)
    return visible(compact(key)), visible(exact)


def show_call(name: str, tool_input) -> str:
    """A tool call as every reader of the kit sees it: ``write_file({"path":"scratch/a.txt","content":"hi"})``.

    The name (plain text) and the input (compact JSON, field by field: :func:`show_field`) by
    :func:`visible`'s rule, the same in the approval question, the buttons' label, the transcript and
    the inspector.
    """
    if isinstance(tool_input, dict):
        shown = "{" + ",".join(":".join(show_field(key, value)) for key, value in tool_input.items()) + "}"
    else:
        shown = visible(compact(tool_input))
    return f"{visible_text(name, lines=False)}({shown})"


def preview(text: str, limit: int = 60) -> str:
    """A tool's output cut to its first line (and at most `limit` characters), quoted as JSON."""
    first, _, rest = text.partition("\n")
    cut = first[:limit]
    more = "\n..." if rest else ("..." if len(first) > limit else "")
    return json.dumps(cut + more, ensure_ascii=False)


def summary(turns: int, requests: int) -> str:
    """`That took 2 tool-calling turns across 3 model requests.` (singular for 1, in the current language)"""
    return lang.text("transcript.summary", turns=turns, turn_word=lang.plural("turn", turns),
                     requests=requests, request_word=lang.plural("request", requests))


def stop_text(ended) -> str:
    """The text of a run that has ended -- its "end" event, or its AgentResult -- in the current language.

    The one sentence the harness wrote into the text (a valve's whole text, the last line after a
    cut-short response, the first sentence of a refusal) is named by the run's `note`: its message id
    and values. This writes that sentence again from lang.MESSAGES in the current language, in place of
    its English; the text is never read back to find it. Anything else, above all the model's own words,
    comes back unchanged, and so does a text with no note (a loop that does not record one).
    """
    if isinstance(ended, dict):
        text, note = ended.get("text") or "", ended.get("note")
    else:
        text, note = ended.text, getattr(ended, "note", None)
    if not note:
        return text
    try:  # a note read from a file may be anything: one that names no sentence leaves the text as it is
        key, values = note
        english, shown = lang.english(key, **values), lang.text(key, **values)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return text
    if text.endswith(english):  # after the model's text, or the whole text
        return text[:len(text) - len(english)] + shown
    if text.startswith(english):  # a refusal: the model's explanation follows
        return shown + text[len(english):]
    return text


class Transcript:
    """An `on_event` callback that prints the lesson's transcript and, optionally, writes JSONL."""

    def __init__(self, path: str | Path | None = None, *, out: Callable[[str], None] = print):
        self.out = out
        self.file: TextIO | None = open(path, "a", encoding="utf-8") if path else None

    def __call__(self, event: dict) -> None:
        if self.file:
            record = {"time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), **event}
            self.file.write(compact(record) + "\n")
            self.file.flush()
        kind, turn = event["event"], event.get("turn")
        if kind == "tool_call":
            call = show_call(event["name"], event["input"])  # as the approval question shows it
            self.out(lang.text("transcript.tool_call", turn=turn, call=call))
        elif kind == "tool_result":
            line = "transcript.tool_failed" if event["is_error"] else "transcript.tool_returned"
            self.out(lang.text(line, turn=turn, preview=visible(preview(event["content"]))))
        elif kind == "end":
            who = "transcript.model_ends" if event["stop_reason"] else "transcript.harness_stops"
            self.out(lang.text(who, turn=turn, why=visible_text(event["stop_reason"] or event["stopped_by"])))
            self.out("")
            self.out(visible_text(stop_text(event)))  # the model's words too: shown, never obeyed by the screen
            self.out(summary(event["turns"], event["requests"]))

    def close(self) -> None:
        if self.file:
            self.file.close()
            self.file = None
