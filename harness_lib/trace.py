"""The transcript: what the harness prints while the loop turns, and a JSONL record of every event.

Pass a `Transcript` as `on_event`: a run prints the lesson's lines (`[turn 1] model requests tool: ...`, the answer,
the summary) and ends with the harness's own record of every high-impact call, written from the events, never from
the model's text. With a `path`, each event is also appended as one JSON line and flushed at once. Every printed
line goes through the kit's one escaping rule (harness_kit.shown); the lines follow HARNESS_LANG. Contract:
docs/architecture.md, "trace.py".

Not handled: rotating or size-capping the file, and redacting secrets a tool returned.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, TextIO

from harness_kit import lang
from harness_kit.shown import compact, one_word, show_call, visible, visible_text
from harness_kit.words import in_short, stop_text  # a call in short; the run's stop sentence, in the reader's language
from .tools import HIGH_IMPACT


def preview(text: str, limit: int = 60) -> str:
    """A tool's output cut to its first line (and at most `limit` characters), quoted as JSON."""
    first, _, rest = text.partition("\n")
    cut = first[:limit]
    more = "\n..." if rest else ("..." if len(first) > limit else "")
    return json.dumps(cut + more, ensure_ascii=False)


def summary(turns: int, requests: int) -> str:
    """`That took 2 tool-calling turns across 3 model requests.` (in the current language)"""
    return lang.text("transcript.summary", turns=turns, turn_word=lang.plural("turn", turns),
                     requests=requests, request_word=lang.plural("request", requests))


# Set by an approver that pressed its own button ("code": click=; "switch": HARNESS_AUTO_APPROVE), read at that
# approval event, so the file and the closing record say nobody clicked.
NOBODY_CLICKED: ContextVar[str | None] = ContextVar("nobody_clicked", default=None)


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
        """The closing record: one `[record] write_file(...) → approved, run: "..."` line per high-impact call (none
    when the run asked for none), from the run's events."""
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
