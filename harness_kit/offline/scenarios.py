"""The offline model's scenarios: the behaviours each lesson needs, chosen by name.

In ``demo``, ``parallel`` and ``high-impact`` a tool-calling turn opens with one short sentence (a text block,
"I'll use read_file.") before its tool_use blocks, as live Claude usually does: code that treats every content
block as a call, or reads only ``content[0]``, fails offline too. ``token-hog`` and ``max-tokens`` also open with
text; the runaway scenarios (never-ends, stuck, ping-pong) send the bare call.

Pick one with ``make_client(scenario=…)`` or ``HARNESS_SCENARIO``. Each is a pure function of the
request (see :func:`respond`); "turn k" below means k = assistant messages already in the history + 1.
The fallback calls (when a scenario's favourite tool is not offered) are documented on each function.
"""

from __future__ import annotations

from ..lang import say
from .phrases import SAY
from .planner import Conversation, Reply, fit_args, plan_reply
from .tokens import block_tokens, text_tokens
from .inbox import INBOX_BEHAVIOURS, INBOX_SCENARIOS  # noqa: E402 - after .planner: inbox reads the same modules

__all__ = ["SCENARIOS", "GAUNTLET", "respond"]

SCENARIOS: dict[str, str] = {
    "demo": "Reads your request, calls one tool per turn (after a short sentence naming it), then answers from the real tool results.",
    "parallel": "Like demo, but sends every independent tool call together in one turn (parallel tool use).",
    "never-ends": "Never finishes: calls read_file on a new path every turn (stopped only by a turn cap).",
    "stuck": "Repeats the identical call read_file(README.md) every turn (a no-progress detector stops it).",
    "ping-pong": "Alternates read_file(README.md) and get_time() forever (a cycle of length 2).",
    "token-hog": "Writes a long draft every turn and never finishes, so token use grows fast (a token budget stops it).",
    "high-impact": "Like demo, then asks write_file to save its answer to scratch/answer.txt (an approval gate decides).",
    "injection": "Like demo, but obeys tool calls written inside the files it reads (prompt injection).",
    "max-tokens": "Tries to write a long report with write_file; the reply is cut off at max_tokens.",
    "refusal": "Declines every request: stop_reason 'refusal', empty content.",
    "pause-turn": "First reply stops with 'pause_turn'; send it back as-is and it continues like demo.",
    "context-window": "First reply is cut short with stop_reason 'model_context_window_exceeded'.",
}
# Exercise 5's gauntlet, on the mailbox tools (see .inbox): offline scenarios too, kept apart from the lessons' (a
# lesson that goes through SCENARIOS with the lesson's tools, and the terminal agent's --scenario, list those only).
GAUNTLET: dict[str, str] = dict(INBOX_SCENARIOS)


def _call(name: str, args: dict) -> dict:
    return {"type": "tool_use", "name": name, "input": args}


def _no_tools(conv: Conversation) -> Reply:
    return Reply([{"type": "text", "text": say(SAY, "no_tools", conv.language)}], "end_turn")


def _first_tool_empty(conv: Conversation) -> dict | None:
    name = next(iter(conv.tools), None)
    return _call(name, {}) if name else None


def varying_call(conv: Conversation, k: int) -> dict | None:
    """read_file({"path": "notes/part-k.md"}); else the first offered tool with a required string
    property, filled with values that change with k; else the first offered tool with {}."""
    args = fit_args(conv, "read_file", {"path": f"notes/part-{k}.md"})
    if args is not None:
        return _call("read_file", args)
    for name, schema in conv.tools.items():
        props, required = schema.get("properties") or {}, schema.get("required") or []
        if not any((props.get(p) or {}).get("type") == "string" for p in required):
            continue
        args = {}
        for p in required:
            kind = (props.get(p) or {}).get("type")
            args[p] = ({"string": f"notes/part-{k}.md" if "path" in p or "file" in p else f"part {k}",
                        "integer": k, "number": k, "boolean": True}).get(kind)
        if fit_args(conv, name, args) is not None:
            return _call(name, args)
    return _first_tool_empty(conv)


def never_ends(conv: Conversation) -> Reply:
    call = varying_call(conv, conv.assistant_turns + 1)
    return Reply([call], "tool_use") if call else _no_tools(conv)


def stuck(conv: Conversation) -> Reply:
    """read_file({"path": "README.md"}) every turn; else the first offered tool with {}."""
    args = fit_args(conv, "read_file", {"path": "README.md"})
    call = _call("read_file", args) if args is not None else _first_tool_empty(conv)
    return Reply([call], "tool_use") if call else _no_tools(conv)


def ping_pong(conv: Conversation) -> Reply:
    """A = read_file(README.md), B = get_time({}): A on odd turns, B on even ones.
    A missing → the first offered tool with {}; B missing → the second offered tool with {}, else A."""
    a_args = fit_args(conv, "read_file", {"path": "README.md"})
    a = _call("read_file", a_args) if a_args is not None else _first_tool_empty(conv)
    b_args = fit_args(conv, "get_time", {})
    others = [n for n in conv.tools if not a or n != a["name"]]
    b = _call("get_time", b_args) if b_args is not None else (_call(others[0], {}) if others else a)
    call = a if (conv.assistant_turns + 1) % 2 else b
    return Reply([call], "tool_use") if call else _no_tools(conv)


def draft_text(k: int, tokens: int, language: str = "en") -> str:
    """A deterministic filler "draft" of about ``tokens`` tokens that mentions turn k."""
    parts, size, i = [], 0, 1
    while size < tokens * 4:
        part = say(SAY, "draft", language, k=k, i=i)
        parts.append(part)
        size += len(part)
        i += 1
    return "".join(parts)[: tokens * 4].rstrip()


HOG_HEADROOM = 24
"""Tokens token-hog's reply leaves unused under max_tokens: a reply that used all of max_tokens would have been
cut there (stop_reason "max_tokens", notebook 03), so a reply that ends with its call stays under it."""


def token_hog(conv: Conversation) -> Reply:
    """A ~1,500-token draft (smaller when max_tokens is lower, so the whole reply stays HOG_HEADROOM tokens under
    max_tokens and ends with its call, stop_reason "tool_use") + a varying call."""
    k = conv.assistant_turns + 1
    call = varying_call(conv, k)
    if call is None:
        return _no_tools(conv)
    room = conv.max_tokens - HOG_HEADROOM - block_tokens(call)
    size = min(1500, room)
    content = [{"type": "text", "text": draft_text(k, size, conv.language)}] if size > 0 else []
    return Reply(content + [call], "tool_use")


def max_tokens(conv: Conversation) -> Reply:
    """A write_file of a report about twice as long as max_tokens allows, so the reply is cut mid-call."""
    language = conv.language
    words = conv.task.strip().replace("\n", " ")[:120] or say(SAY, "report_topic", language)
    report, i = say(SAY, "report_title", language), 1
    while text_tokens(report) < 2 * conv.max_tokens + 200:
        report += say(SAY, "report_section", language, i=i, words=words)
        i += 1
    args = fit_args(conv, "write_file", {"path": "scratch/report.md", "content": report})
    if args is None:  # no write_file (or the report is too long for its schema): the report as text
        return Reply([{"type": "text", "text": report}], "end_turn")
    return Reply([{"type": "text", "text": say(SAY, "report_intro", language)}, _call("write_file", args)], "tool_use")


def refusal(conv: Conversation) -> Reply:
    return Reply([], "refusal", {
        "type": "refusal",
        "category": None,
        "explanation": say(SAY, "refusal", conv.language),
    })


def pause_turn(conv: Conversation) -> Reply:
    """No assistant turn yet: a short text and "pause_turn". Otherwise (the paused turn was sent back): demo."""
    if conv.assistant_turns == 0:
        return Reply([{"type": "text", "text": say(SAY, "working", conv.language)}], "pause_turn")
    return plan_reply(conv)


def context_window(conv: Conversation) -> Reply:
    """No assistant turn yet: one text block cut mid-sentence. Otherwise: demo."""
    if conv.assistant_turns == 0:
        return Reply([{"type": "text", "text": say(SAY, "cut_short", conv.language)}], "model_context_window_exceeded")
    return plan_reply(conv)


_BEHAVIOURS = {
    "demo": lambda conv: plan_reply(conv, say_first=True),
    "parallel": lambda conv: plan_reply(conv, parallel=True, say_first=True),
    "never-ends": never_ends,
    "stuck": stuck,
    "ping-pong": ping_pong,
    "token-hog": token_hog,
    "high-impact": lambda conv: plan_reply(conv, save_answer=True, say_first=True),
    "injection": lambda conv: plan_reply(conv, obey_injections=True),
    "max-tokens": max_tokens,
    "refusal": refusal,
    "pause-turn": pause_turn,
    "context-window": context_window,
    **INBOX_BEHAVIOURS,
}
assert _BEHAVIOURS.keys() == SCENARIOS.keys() | GAUNTLET.keys()


def respond(scenario: str, conv: Conversation) -> Reply:
    """The planned reply of ``scenario`` to the conversation (before max_tokens/stop_sequences)."""
    return _BEHAVIOURS[scenario](conv)
