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
``AgentResult.text``: loop.py is the same text as notebook 06's loop. `stop_text` shows them in the
current language when they are printed; the model's own words are never changed. The JSONL file keeps
every event exactly as the loop emitted it, in English.
"""

from __future__ import annotations

import json
import re
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


# Which of loop.py's stop sentences each stopped_by may end with (their English text is in lang.MESSAGES).
_STOP_SENTENCES = {
    "max_turns": ["stop.max_turns"], "token_budget": ["stop.token_budget"],
    "no_progress": ["stop.repeat", "stop.cycle"], "max_tokens": ["stop.max_tokens"],
    "context_window": ["stop.context_window"], "no_tool_calls": ["stop.no_tool_calls"],
    "unknown_stop": ["stop.unknown_stop"],
}


def _pattern(template: str) -> re.Pattern:
    """A message template as a regular expression: its {fields} become named groups."""
    parts = re.split(r"\{(\w+)\}", template)
    return re.compile("".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>.*?)"
                              for i, part in enumerate(parts)) + r"\Z", re.DOTALL)


def stop_text(text: str, stopped_by: str) -> str:
    """`text` of a run that ended by `stopped_by`, with the harness's English stop sentence in the current language.

    loop.py writes its reasons for stopping in English (it is the same text as notebook 06's loop); this
    puts the one sentence the harness added -- the whole text after a valve, the last line after a
    cut-short response, the first sentence of a refusal -- into the current language. Anything else,
    above all the model's own words, comes back unchanged; in English, everything does.
    """
    if lang.current() == "en":
        return text
    english = lang.MESSAGES["en"]
    if stopped_by == "refusal" and text.startswith(english["stop.refusal"]):
        return lang.text("stop.refusal") + text[len(english["stop.refusal"]):]
    above, newline, last = text.rpartition("\n")  # a note follows the model's text on a line of its own
    for key in _STOP_SENTENCES.get(stopped_by, []):
        for before, sentence in (("", text), (above + newline, last)):  # the whole text, else its last line
            found = _pattern(english[key]).match(sentence)
            if found:
                return before + lang.text(key, **found.groupdict())
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
            self.out(stop_text(event["text"], event["stopped_by"]))
            self.out(summary(event["turns"], event["requests"]))

    def close(self) -> None:
        if self.file:
            self.file.close()
            self.file = None
