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
recorded in the file but not printed. The printed lines show a tool's input and output through
`visible` (the approval question's escaping rule), so a hidden character cannot disguise them; the file
keeps the exact text. Not handled: rotating or size-capping the file, and redacting
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
from pathlib import Path
from typing import Callable, TextIO

from . import lang


def compact(value) -> str:
    """Compact JSON, the way the transcript shows tool input: {"path":"README.md"}."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


# Letters that draw nothing (Hangul fillers, the blank Braille pattern): a path can hide in them.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _hidden(ch: str) -> bool:
    """True for a character a person cannot see, or cannot tell apart, on screen."""
    category = unicodedata.category(ch)
    return (category[0] in "CM"  # controls (C0, DEL, C1), bidi and zero-width "format" characters, combining marks
            or (category[0] == "Z" and ch != " ")  # spaces other than the plain one, line/paragraph separators
            or ch in _BLANK_LETTERS)


def visible(text: str) -> str:
    """`text` with every character a person could not see written as a JSON escape (``\\u3164``).

    The kit's one escaping rule for what a person reads before deciding: the approval question, the
    approval buttons' label and the transcript's lines. Escaped: control characters (C0, DEL, C1), bidi
    controls and marks, zero-width and other invisible "format" characters, every space but U+0020
    (no-break, thin, ideographic ...), line and paragraph separators, combining marks (``e`` + U+0301
    looks like ``é``), and blank letters (U+3164 HANGUL FILLER, U+2800 BRAILLE PATTERN BLANK ...).
    Everything else (é, ✓, 中文, emoji) is kept. Applied to JSON text, the result is still valid JSON
    with the same value (a character beyond U+FFFF becomes a surrogate pair), and two different texts
    never look the same.

    Not handled: look-alike letters (a Cyrillic ``а`` for a Latin ``a``) are kept as they are; scripts
    that write with combining marks (Devanagari, Hebrew points) come out escaped, hard to read but exact.
    """
    out = []
    for ch in text:
        if not _hidden(ch):
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:  # beyond the BMP: a JSON surrogate pair, so the text stays valid JSON
            high, low = divmod(ord(ch) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
    return "".join(out)


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
    key, values = note
    english, shown = lang.english(key, **values), lang.text(key, **values)
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
            call = visible(f"{event['name']}({compact(event['input'])})")  # as the approval question shows it
            self.out(lang.text("transcript.tool_call", turn=turn, call=call))
        elif kind == "tool_result":
            line = "transcript.tool_failed" if event["is_error"] else "transcript.tool_returned"
            self.out(lang.text(line, turn=turn, preview=visible(preview(event["content"]))))
        elif kind == "end":
            who = "transcript.model_ends" if event["stop_reason"] else "transcript.harness_stops"
            self.out(lang.text(who, turn=turn, why=event["stop_reason"] or event["stopped_by"]))
            self.out("")
            self.out(stop_text(event))
            self.out(summary(event["turns"], event["requests"]))

    def close(self) -> None:
        if self.file:
            self.file.close()
            self.file = None
