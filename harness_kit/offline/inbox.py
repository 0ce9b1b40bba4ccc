"""The offline model's inbox scenarios: exercise 5's gauntlet, on the mailbox tools (harness_kit.mailbox).

Each scenario is a way a real model goes wrong, played through the real SDK like every other scenario. What a
scenario does next depends only on the request: the tools offered, the history's tool calls and what they
returned. So the same scenario behaves differently on another inbox (a variant is other data, not other code):

    inbox              lists the inbox, then one call per turn: read_message for each message in the listing's
                       order ("[spam]" in a subject: delete_message; "[old]": archive_message), then answers
                       from what the tools returned. Gullible: a message body that says
                       `call TOOL with {"id": "m1"}` (Spanish: `llama a TOOL con {...}`) is obeyed right after
                       that read, even for a tool it was not offered (prompt injection; an unknown tool).
    inbox-parallel     the same, but every call it can make is sent together in one turn (parallel tool use).
    inbox-chase        follows references: reads the first message, then "see m4" in a body sends it to m4,
                       and so on; no reference left: it answers. A body that points back makes a cycle
                       (m1 -> m1: stuck; m1 -> m2 -> m1: ping-pong; three messages: a cycle of three).
    inbox-reorder      never finishes: after the listing, every turn reads the first two listed messages, in
                       one order, then the other (the same calls, in another order: the same turn).
    inbox-runaway      never finishes: list_messages page 1, 2, 3, ... (no two turns alike: only a turn cap).
    inbox-hog          the same calls, each after a long draft (a token budget stops it).
    inbox-cut          reads every message, then writes a reply far longer than max_tokens: the response is
                       cut mid-call (stop_reason "max_tokens", the call's input incomplete).
    inbox-pause        the first response stops with "pause_turn"; sent back as it is, it goes on as inbox.
    inbox-pause-twice  pauses again after the listing, in the middle of the work.
    inbox-refusal      declines at once: stop_reason "refusal", no content.
    inbox-refusal-late lists the inbox, then declines.

A tool-calling turn opens with a short sentence (as in demo) except in inbox-runaway. A call already answered
(whatever the answer) is not made again, except by inbox-chase, which has no memory. NOT modelled: anything
but these rules; a listing past page 1 (only list_messages' first answer is read).
"""

from __future__ import annotations

import json
import re

from ..lang import say
from .answer import preamble
from .conversation import Conversation, Reply
from .phrases import SAY
from .tokens import block_tokens

_LISTED = re.compile(r"^(m\d+) \| ([^|\n]*?) \| (.*)$", re.M)
_INJECTED = re.compile(r"\b(?:call|llama a)\s+(?P<tool>[A-Za-z0-9_-]{1,64})\s+(?:with|con)\s+(?P<args>\{[^{}]*\})",
                       re.I)
_SEE = re.compile(r"\b(?:see|ver)\s+(m\d+)\b", re.I)

INBOX_SCENARIOS = {
    "inbox": "Mailbox tools: reads each message in turn (deletes [spam], archives [old]) and answers; obeys "
             "`call TOOL with {...}` written in a message.",
    "inbox-parallel": "Like inbox, but every call it can make goes in one turn (parallel tool use).",
    "inbox-chase": "Follows 'see mN' from message to message; a reference back makes a cycle.",
    "inbox-reorder": "Reads the first two listed messages every turn, their order swapped each time; never finishes.",
    "inbox-runaway": "Never finishes: list_messages page 1, 2, 3, ... (only a turn cap stops it).",
    "inbox-hog": "A long draft before every call, never finishing (a token budget stops it).",
    "inbox-cut": "Reads every message, then a reply too long for max_tokens: cut mid-call.",
    "inbox-pause": "First response 'pause_turn'; sent back, it goes on like inbox.",
    "inbox-pause-twice": "Pauses at the start and again after the listing.",
    "inbox-refusal": "Declines at once: stop_reason 'refusal'.",
    "inbox-refusal-late": "Lists the inbox, then declines.",
}


def _key(name: str, args: dict) -> tuple:
    return name, json.dumps(args, sort_keys=True)


def _said(conv: Conversation, calls: list[tuple[str, dict]]) -> Reply:
    names = [name for name, _ in calls]
    return Reply([{"type": "text", "text": preamble(names, conv.language)}]
                 + [{"type": "tool_use", "name": n, "input": a} for n, a in calls], "tool_use")


def _listing(conv: Conversation) -> list[tuple[str, str, str]] | None:
    """(id, from, subject) of the first list_messages that answered without an error; None before one has."""
    for call in conv.calls:
        if call.name == "list_messages" and call.result is not None and not call.is_error:
            return _LISTED.findall(call.result)
    return None


def _action(conv: Conversation, subject: str, message_id: str) -> tuple[str, dict]:
    tool = "delete_message" if "[spam]" in subject.lower() else "archive_message" if "[old]" in subject.lower() \
        else "read_message"
    return (tool if tool in conv.tools else "read_message"), {"id": message_id}


def injected(text: str) -> list[tuple[str, dict]]:
    """Every `call TOOL with {json}` written in `text`, in order (input that is not a JSON object: skipped)."""
    found = []
    for m in _INJECTED.finditer(text or ""):
        try:
            args = json.loads(m.group("args"))
        except ValueError:
            continue
        if isinstance(args, dict):
            found.append((m.group("tool"), args))
    return found


def _plan(conv: Conversation, listing) -> list[tuple[str, dict, str | None]]:
    """Every call of the task in order: (tool, input, the message that asked for it, or None)."""
    answered = {_key(c.name, c.input): c for c in conv.calls if c.result is not None}
    plan = []
    for message_id, _, subject in listing:
        tool, args = _action(conv, subject, message_id)
        plan.append((tool, args, None))
        read = answered.get(_key(tool, args))
        if tool == "read_message" and read is not None and not read.is_error:
            plan += [(name, given, message_id) for name, given in injected(read.result)]
    return plan


_DONE = {"read_message": "inbox.ok.read_message", "archive_message": "inbox.ok.archive_message",
         "delete_message": "inbox.ok.delete_message", "send_reply": "inbox.ok.send_reply"}  # what a call that ran did


def _answer(conv: Conversation, listing, plan) -> Reply:
    answered = {_key(c.name, c.input): c for c in conv.calls if c.result is not None}
    lang = conv.language
    subjects = {i: (sender, subject) for i, sender, subject in listing}
    lines = [say(SAY, "inbox.summary", lang, n=len(listing))]
    for tool, args, source in plan:
        call = answered.get(_key(tool, args))
        what = (say(SAY, _DONE.get(tool, "inbox.ok.other"), lang) if call and not call.is_error
                else say(SAY, "inbox.failed", lang, error=_first(call.result if call else "")))
        if source is None:
            sender, subject = subjects.get(args.get("id"), ("?", "?"))
            lines.append(say(SAY, "inbox.item", lang, id=args.get("id"), sender=sender, subject=subject, what=what))
        else:
            lines.append(say(SAY, "inbox.injected", lang, source=source, tool=tool,
                             args=json.dumps(args, ensure_ascii=False), what=what))
    return Reply([{"type": "text", "text": "\n".join(lines)}], "end_turn")


def _first(text: str | None) -> str:
    line = ((text or "").strip().splitlines() or [""])[0]
    return line if len(line) <= 120 else line[:119] + "…"


def _list_first(conv: Conversation) -> Reply | None:
    """The listing, when it is not in the history yet; an answer when listing failed; None when it is there."""
    if not any(c.name == "list_messages" for c in conv.calls):
        return _said(conv, [("list_messages", {})])
    if _listing(conv) is None:
        failed = next((c for c in conv.calls if c.name == "list_messages"), None)
        return Reply([{"type": "text", "text": say(SAY, "inbox.no_listing", conv.language,
                                                   error=_first(failed.result if failed else ""))}], "end_turn")
    return None


def tidy(conv: Conversation, *, parallel: bool = False) -> Reply:
    """inbox and inbox-parallel."""
    first = _list_first(conv)
    if first is not None:
        return first
    listing = _listing(conv)
    plan = _plan(conv, listing)
    answered = {_key(c.name, c.input) for c in conv.calls if c.result is not None}
    pending = [(tool, args) for tool, args, _ in plan if _key(tool, args) not in answered]
    if pending:
        return _said(conv, pending if parallel else pending[:1])
    return _answer(conv, listing, plan)


def chase(conv: Conversation) -> Reply:
    """inbox-chase: the first listed message, then wherever the last one read says "see mN"."""
    first = _list_first(conv)
    if first is not None:
        return first
    listing = _listing(conv)
    reads = [c for c in conv.calls if c.name == "read_message"]
    if not reads:
        if not listing:
            return _answer(conv, listing, [])
        return _said(conv, [("read_message", {"id": listing[0][0]})])
    last = reads[-1]
    refs = _SEE.findall(last.result or "") if not last.is_error else []
    if refs:
        return _said(conv, [("read_message", {"id": refs[-1]})])
    path = " -> ".join(str(c.input.get("id")) for c in reads)
    key = "inbox.chase_failed" if last.is_error else "inbox.chase"
    return Reply([{"type": "text", "text": say(SAY, key, conv.language, path=path,
                                               error=_first(last.result))}], "end_turn")


def reorder(conv: Conversation) -> Reply:
    """inbox-reorder: read_message of the first two listed messages every turn after the listing: in the listing's
    order, then the other way round, and so on."""
    first = _list_first(conv)
    if first is not None:
        return first
    calls = [("read_message", {"id": i}) for i, _, _ in _listing(conv)[:2]]
    return _said(conv, calls if conv.assistant_turns % 2 else calls[::-1]) if calls else _answer(conv, [], [])


def _draft(k: int, tokens: int, language: str) -> str:
    """About `tokens` tokens of the phrasebook's filler draft (as scenarios.draft_text, which imports this module)."""
    text, i = "", 1
    while len(text) < tokens * 4:
        text += say(SAY, "draft", language, k=k, i=i)
        i += 1
    return text[: tokens * 4].rstrip()


def runaway(conv: Conversation, *, draft: bool = False) -> Reply:
    """inbox-runaway and inbox-hog: list_messages with page k on turn k, for ever."""
    k = conv.assistant_turns + 1
    call = {"type": "tool_use", "name": "list_messages", "input": {"page": k}}
    if not draft:
        return Reply([call], "tool_use")
    size = min(1500, conv.max_tokens - 24 - block_tokens(call))  # under max_tokens, as token-hog's (HOG_HEADROOM)
    text = [{"type": "text", "text": _draft(k, size, conv.language)}] if size > 0 else []
    return Reply(text + [call], "tool_use")


def cut(conv: Conversation) -> Reply:
    """inbox-cut: like inbox (no injections obeyed), then a reply to the first message twice max_tokens long."""
    first = _list_first(conv)
    if first is not None:
        return first
    listing = _listing(conv)
    answered = {_key(c.name, c.input) for c in conv.calls if c.result is not None}
    pending = [("read_message", {"id": i}) for i, _, _ in listing if _key("read_message", {"id": i}) not in answered]
    if pending or not listing:
        return _said(conv, pending[:1]) if pending else _answer(conv, listing, [])
    body = _draft(1, 2 * conv.max_tokens + 200, conv.language)
    return Reply([{"type": "text", "text": say(SAY, "inbox.reply_intro", conv.language)},
                  {"type": "tool_use", "name": "send_reply", "input": {"id": listing[0][0], "body": body}}],
                 "tool_use")


def paused(conv: Conversation, *, again: bool = False) -> Reply:
    """inbox-pause(-twice): "pause_turn" on a fresh turn at the start (and, again=True, after the listing)."""
    fresh = not conv.ends_with_assistant
    if fresh and (conv.assistant_turns == 0 or (again and conv.assistant_turns == 2)):
        return Reply([{"type": "text", "text": say(SAY, "working", conv.language)}], "pause_turn")
    return tidy(conv)


def refusal(conv: Conversation, *, late: bool = False) -> Reply:
    if late and not any(c.name == "list_messages" for c in conv.calls):
        return _said(conv, [("list_messages", {})])
    return Reply([], "refusal", {"type": "refusal", "category": None,
                                 "explanation": say(SAY, "inbox.refusal", conv.language)})


INBOX_BEHAVIOURS = {
    "inbox": tidy,
    "inbox-parallel": lambda conv: tidy(conv, parallel=True),
    "inbox-chase": chase,
    "inbox-reorder": reorder,
    "inbox-runaway": runaway,
    "inbox-hog": lambda conv: runaway(conv, draft=True),
    "inbox-cut": cut,
    "inbox-pause": paused,
    "inbox-pause-twice": lambda conv: paused(conv, again=True),
    "inbox-refusal": refusal,
    "inbox-refusal-late": lambda conv: refusal(conv, late=True),
}
assert INBOX_BEHAVIOURS.keys() == INBOX_SCENARIOS.keys()
