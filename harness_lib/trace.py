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
rule, harness_kit.shown, the approval question's): a tool's input and output, the stop reason (one word), and
the answer itself, line by line (`visible_text`). So a hidden character cannot disguise a call, and no text a model or an
endpoint returns can move the cursor, erase a line or colour the screen: an escape code is shown as
``\u001b[2K``, not obeyed. The file keeps the exact text. Not handled: rotating or size-capping the file, and redacting
secrets a tool returned.

The printed lines follow ``HARNESS_LANG`` (harness_kit.lang), read at each event; with ``es``:

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
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, TextIO

from harness_kit.shown import (EXACT_FIELDS, SPACE_RUN, compact, exact, one_line, one_word, show_call,  # noqa: F401
                               show_field, visible, visible_text)  # the kit's one rule (harness_kit/shown.py): here too

from harness_kit import lang
from .tools import HIGH_IMPACT


_SHORT_FIELD = 80  # a field's value longer than this is shown in short as its length


def in_short(name: str, tool_input) -> str:
    """The call's identity in one short line: ``write_file(path="scratch/a.txt", content=(20000 characters))``.

    Every field, by the same rule as show_call; a key or value longer than 80 characters (as shown) is replaced by
    its length in characters, except the value of a field that names the thing (EXACT_FIELDS: path, url, to), which
    is always shown whole. The approval question ends with it, so the tool and its path are next to the prompt
    whatever the input holds; the run's record (`Transcript.account`) names each call with it.
    """
    if not isinstance(tool_input, dict):  # not an object: its schema refuses it before anyone is asked
        return f"{one_word(name)}({lang.text('approve.characters', n=len(compact(tool_input)))})"
    fields = []
    for key, value in tool_input.items():
        key_text, value_text = show_field(key, value)
        if len(key_text) > _SHORT_FIELD:
            key_text = lang.text("approve.characters", n=len(key))
        if len(value_text) > _SHORT_FIELD and key not in EXACT_FIELDS:  # a string's length; else its JSON's
            value_text = lang.text("approve.characters", n=len(value if isinstance(value, str) else value_text))
        if key_text.startswith('"'):  # a key shown in full: without its JSON quotes
            key_text = key_text[1:-1]
        fields.append(f"{key_text}={value_text}")
    return f"{one_word(name)}({', '.join(fields)})"


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


NOBODY_CLICKED: ContextVar[str | None] = ContextVar("nobody_clicked", default=None)
"""Set by an approver that pressed its own button (``"code"``: ``click=``; ``"switch"``: HARNESS_AUTO_APPROVE) for
the decision it just made; the Transcript reads it at that ``approval`` event, so the file (``"nobody_clicked"``) and
the closing record say who decided, as the decision line does."""


class Transcript:
    """An `on_event` callback that prints the lesson's transcript and, optionally, writes JSONL."""

    def __init__(self, path: str | Path | None = None, *, out: Callable[[str], None] = print,
                 high_impact=HIGH_IMPACT):
        self.out, self.high_impact = out, high_impact
        self.file: TextIO | None = open(path, "a", encoding="utf-8") if path else None
        self.record: list[dict] = []  # the high-impact calls and what became of them (account())

    def __call__(self, event: dict) -> None:
        if event["event"] == "approval" and NOBODY_CLICKED.get():  # an answer nobody clicked: say so in the record
            event = {**event, "nobody_clicked": NOBODY_CLICKED.get()}
            NOBODY_CLICKED.set(None)
        if self.file:
            record = {"time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), **event}
            self.file.write(compact(record) + "\n")
            self.file.flush()
        kind, turn = event["event"], event.get("turn")
        self._keep(event)
        if kind == "tool_call":
            call = show_call(event["name"], event["input"])  # as the approval question shows it
            self.out(lang.text("transcript.tool_call", turn=turn, call=call))
        elif kind == "tool_result":
            line = "transcript.tool_failed" if event["is_error"] else "transcript.tool_returned"
            self.out(lang.text(line, turn=turn, preview=visible(preview(event["content"]))))
        elif kind == "end":
            who = "transcript.model_ends" if event["stop_reason"] else "transcript.harness_stops"
            self.out(lang.text(who, turn=turn, why=one_word(event["stop_reason"] or event["stopped_by"])))
            self.out("")
            self.out(visible_text(stop_text(event)))  # the model's words too: shown, never obeyed by the screen
            self.out(summary(event["turns"], event["requests"]))
            for line in self.account():  # the last lines are the harness's, whatever the answer said
                self.out(line)

    def _keep(self, event: dict) -> None:
        """Note what became of each high-impact call: asked for, approved or not, and its result."""
        kind = event["event"]
        if kind == "tool_call" and event["name"] in self.high_impact:
            self.record.append({"id": event["id"], "name": event["name"], "input": event["input"],
                                "approved": None, "result": None, "is_error": False})
        for entry in self.record:
            if kind == "approval" and entry["approved"] is None and \
                    (entry["name"], entry["input"]) == (event["name"], event["input"]):
                entry["approved"], entry["by"] = event["approved"], event.get("nobody_clicked")
                return
            if kind == "tool_result" and entry["result"] is None and entry["id"] == event["id"]:
                entry["result"], entry["is_error"] = event["content"], event["is_error"]
                return

    def account(self) -> list[str]:
        """The harness's own closing record, from the run's events, never from the model's text: a blank line, then
        one ``[record] write_file(path="scratch/a.txt", content=(93 characters)) → approved, run: "wrote ..."``
        line per high-impact call (→ not approved: "<what the model was told>", → approved, but the tool failed:
        ..., → not run: - when no result came). It says what the events say: a loop that runs a tool and emits no approval event
        reads "no approval recorded, its result: ...". None when it asked for none."""
        lines = [""] if self.record else []
        for entry in self.record:
            result = visible(preview(entry["result"] or "", 120))
            if entry["result"] is None:  # the run ended before the call was answered
                outcome = lang.text("cli.record.refused", result="-")
            elif entry["approved"] and not entry["is_error"]:
                outcome = lang.text("cli.record.run", result=result)
            elif entry["approved"]:
                outcome = lang.text("cli.record.failed", result=result)
            elif entry["approved"] is False:  # (the run_agent loop never runs it; a lesson's broken gate may have)
                outcome = lang.text("cli.record.not_approved", result=result)
            else:  # no approval event: refused before anyone was asked (run_agent: input its schema refuses)
                outcome = lang.text("cli.record.unasked", result=result)
            if entry.get("by") in ("code", "switch"):  # nobody clicked: said here too, as on the decision line
                outcome = lang.text("approve.by_code" if entry["by"] == "code" else "approve.by_switch", outcome=outcome)
            lines.append(lang.text("cli.record", action=in_short(entry["name"], entry["input"]), outcome=outcome))
        return lines

    def close(self) -> None:
        if self.file:
            self.file.close()
            self.file = None
