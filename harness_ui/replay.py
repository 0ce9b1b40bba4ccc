"""A run drawn from the offline model's record of it: for a loop that emits no events (your own).

    client = make_client(scenario="inbox")
    result = await my_run_agent(client, TASK, MAIL_TOOLS, box.impls())
    Inspector.from_events(events_of(client, result), max_turns=8)

The offline API keeps every request it received (`log`) and every message it answered with (`replies`, by
request number). `events_of` turns that record into the events harness_lib.loop's run_agent emits (a
`request` per answered request with its usage, a `tool_call` per call of each response, a `tool_result` per
result the loop sent back, and an `end`), so the inspector draws any loop the same way, beside the library's.

What the loop did is read from what it SENT: a call's result is the tool_result of the same id in a later
request. So:
- a call whose result was never sent (the run stopped there) is drawn only if it is not in the last response
  (a valve that stopped the run before running it leaves it out, as run_agent's events do);
- approvals are not in the record (the approver is the loop's business): a refused call shows the reason the
  model was sent;
- how the run ended is the loop's own return value (`result`: a dict or an object with `stopped_by` and
  `text`); without it the last response's stop reason is shown.
NOT handled: a live client (no record: TypeError), a client used for more than one run (drawn as one).
"""

from __future__ import annotations

from harness_lib.client import offline_api

VALVES = ("max_turns", "token_budget", "no_progress")


def _get(result, name: str, default=None):
    return result.get(name, default) if isinstance(result, dict) else getattr(result, name, default)


def events_of(client, result=None) -> list[dict]:
    """The run the offline `client` served, as the inspector's events (see the module docstring)."""
    api = offline_api(client)
    replies = sorted(api.replies.items())
    sent = {}  # tool_use id -> (content, is_error) of the first tool_result the loop sent for it
    for body in api.log:
        for message in (body.get("messages") or []) if isinstance(body, dict) else []:
            content = message.get("content") if isinstance(message, dict) else None
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    text = block.get("content")
                    text = text if isinstance(text, str) else "\n".join(
                        b.get("text", "") for b in text or [] if isinstance(b, dict))
                    sent.setdefault(block.get("tool_use_id"), (text, bool(block.get("is_error"))))
    events, turns = [{"event": "start", "input": "", "model": ""}], 0
    for i, (n, reply) in enumerate(replies):
        events.append({"event": "request", "n": n, "usage": reply.get("usage") or {}})
        calls = [b for b in reply.get("content") or [] if b.get("type") == "tool_use"]
        last = i == len(replies) - 1
        if calls and (not last or any(c["id"] in sent for c in calls)):
            turns += 1
            for c in calls:
                events.append({"event": "tool_call", "turn": n, "id": c["id"], "name": c["name"], "input": c["input"]})
            for c in calls:
                if c["id"] in sent:
                    text, is_error = sent[c["id"]]
                    events.append({"event": "tool_result", "turn": n, "id": c["id"], "name": c["name"],
                                   "content": text, "is_error": is_error})
        elif not last and reply.get("stop_reason") == "pause_turn":
            turns += 1
    if replies:
        n, reply = replies[-1]
        stopped_by = _get(result, "stopped_by", reply.get("stop_reason"))
        stopped_by = stopped_by if isinstance(stopped_by, str) else str(stopped_by)
        text = _get(result, "text", "")
        events.append({"event": "end", "turn": n, "stop_reason": None if stopped_by in VALVES else
                       reply.get("stop_reason"), "stopped_by": stopped_by,
                       "text": text if isinstance(text, str) else str(text), "note": None, "turns": turns,
                       "requests": len(api.log)})
    return events
