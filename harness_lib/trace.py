"""The transcript: what the harness prints while the loop turns, and a JSONL record of every event.

Pass a `Transcript` as `on_event` and a run prints the lesson's lines:

    [turn 1] model requests tool: read_file({"path":"README.md"})
    [turn 1] tool returned: "# Agent harness fundamentals\\n..."
    [turn 2] model requests tool: get_time({})
    [turn 2] tool returned: "2026-11-30T10:42:07+00:00"
    [turn 3] model ends (end_turn)

    The first line of README.md is "# Agent harness fundamentals", and it is 10:42 on 30 November 2026.
    That took 2 tool-calling turns across 3 model requests.

With a `path`, every event (requests and their token usage, approvals, full tool output) is also
appended to that file as one JSON object per line and flushed at once, so a crash or Ctrl-C loses
nothing already seen. The file is opened when the Transcript is made, so a path that cannot be
written fails then (OSError), before any model call. Events it has no line for (start, request,
approval, and the terminal agent's `{"event": "error", "message": ...}` when a run fails) are
recorded in the file but not printed. Not handled: rotating or size-capping the file, and redacting
secrets a tool returned.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, TextIO


def compact(value) -> str:
    """Compact JSON, the way the transcript shows tool input: {"path":"README.md"}."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def preview(text: str, limit: int = 60) -> str:
    """A tool's output cut to its first line (and at most `limit` characters), quoted as JSON."""
    first, _, rest = text.partition("\n")
    cut = first[:limit]
    more = "\n..." if rest else ("..." if len(first) > limit else "")
    return json.dumps(cut + more, ensure_ascii=False)


def summary(turns: int, requests: int) -> str:
    """`That took 2 tool-calling turns across 3 model requests.`"""
    t = "turn" if turns == 1 else "turns"
    r = "request" if requests == 1 else "requests"
    return f"That took {turns} tool-calling {t} across {requests} model {r}."


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
            self.out(f"[turn {turn}] model requests tool: {event['name']}({compact(event['input'])})")
        elif kind == "tool_result":
            verb = "tool failed" if event["is_error"] else "tool returned"
            self.out(f"[turn {turn}] {verb}: {preview(event['content'])}")
        elif kind == "end":
            who = "model ends" if event["stop_reason"] else "harness stops"
            self.out(f"[turn {turn}] {who} ({event['stop_reason'] or event['stopped_by']})")
            self.out("")
            self.out(event["text"])
            self.out(summary(event["turns"], event["requests"]))

    def close(self) -> None:
        if self.file:
            self.file.close()
            self.file = None
