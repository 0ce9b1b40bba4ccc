"""The agent loop: the lesson's `stop_reason` while-loop with its four valves (run_agent; notebook 02: the bare loop).

This is notebooks/06_the_full_harness.ipynb's loop, statement for statement and comment for comment
(tests/test_textbook_sync.py); only annotations and docstrings differ. Where each valve sits, and why every way
out leaves `messages` a valid history: docs/architecture.md, "loop.py".

Not handled here: retries (the SDK's `max_retries`), streaming, server tools, trimming a history that outgrows
the context window, and cost in money rather than tokens.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from harness_kit.lang import english
from .model import MODEL
from .tools import HIGH_IMPACT, arun_tool, check_call
from .valves import find_cycle, signature_of, tokens_of

Approver = Callable[[str, dict], Awaitable[bool]]
OnEvent = Callable[[dict], None]

# The is_error text the model gets for every no, a person's or a timeout's: neutral, as the loop cannot tell them apart.
REJECTED_MESSAGE = "Not approved: this high-impact action was not run (a person said no, or no answer came in time)."

STOPPED_BY = frozenset({
    "end_turn", "stop_sequence",                    # the model finished
    "max_turns", "token_budget", "no_progress",     # a valve stopped it
    "max_tokens", "refusal", "context_window",      # the response was cut short
    "no_tool_calls", "unknown_stop",                # the response made no sense to the loop,
    "duplicate_ids",                                # or could not be answered (two calls, one id)
})


@dataclass
class AgentResult:
    """How a run ended: `stopped_by` is one of STOPPED_BY; `turns` counts every trip round the loop (requests ==
    turns + 1); `messages` is the history, valid to send again; `note` is the harness's sentence in `text` as
    (message id, values), None when `text` is the model's own words."""

    text: str
    stopped_by: str
    turns: int
    requests: int
    tokens_used: int
    messages: list = field(repr=False)
    note: tuple[str, dict] | None = None


async def ask_approver(approve: Approver | None, name: str, tool_input: dict) -> str | None:
    """Put one high-impact call to the approver: None means approved, otherwise the is_error text. Fails closed:
    only an answer that `is True` approves; a cancel (CancelledError, KeyboardInterrupt) ends the run here."""
    if approve is None:
        return REJECTED_MESSAGE
    try:
        answer = await approve(name, tool_input)
    except Exception as err:  # a broken gate is a closed gate
        reason = (str(err).splitlines() or [""])[0][:200]
        return f"Not run: the approval gate failed ({type(err).__name__}: {reason}), which counts as a no."
    if answer is True:
        return None
    if inspect.iscoroutine(answer):  # the approver forgot an await: close the coroutine, never run it
        answer.close()
        return "Not run: the approval gate returned a coroutine (an await was forgotten), which counts as a no."
    if answer is False:
        return REJECTED_MESSAGE
    return f"Not run: the approval gate answered {repr(answer)[:80]}, not True, which counts as a no."


def tool_result(tool_use_id: str, content: str, is_error: bool = False) -> dict:
    """A tool_result block, exactly as the API wants it. `is_error` is only sent when true."""
    block = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    if is_error:
        block["is_error"] = True
    return block


async def run_tool_uses(
    content: list,
    tool_impls: dict,
    *,
    tools: list,
    approve: Approver | None = None,
    high_impact: frozenset[str] | set[str] = HIGH_IMPACT,
    turn: int = 0,
    on_event: OnEvent | None = None,
) -> list[dict]:
    """Run one turn's tool calls; return their tool_result blocks in tool_use order. Valve 4 sits here: every
    high-impact call that could run is put to `approve` before any tool of the turn runs. Never raises for a
    tool or an approver that fails."""
    emit = on_event or (lambda event: None)
    calls = [b for b in content if b.type == "tool_use"]
    for b in calls:
        emit({"event": "tool_call", "turn": turn, "id": b.id, "name": b.name, "input": b.input})

    refused = {}  # valve 4: ask first, about every high-impact call; nothing has run yet
    for b in calls:
        problem = check_call(tool_impls, b.name, b.input, tools)  # a call that cannot run: refused, nobody asked
        if problem is not None:
            refused[b.id] = problem
        elif b.name in high_impact:
            why_not = "no answer"  # stays so if the run is cancelled while the approver is asked
            try:
                why_not = await ask_approver(approve, b.name, b.input)
            finally:  # recorded even when a cancel ends the run here: no means no
                emit({"event": "approval", "turn": turn, "name": b.name, "input": b.input,
                      "approved": why_not is None})
            if why_not is not None:
                refused[b.id] = why_not

    async def run_one(b):
        if b.id in refused:
            return refused[b.id], True
        return await arun_tool(tool_impls, b.name, b.input, tools)  # never raises: errors come back as text

    outputs = await asyncio.gather(*(run_one(b) for b in calls))
    for b, (text, is_error) in zip(calls, outputs):
        emit({"event": "tool_result", "turn": turn, "id": b.id, "name": b.name,
              "content": text, "is_error": is_error})
    return [tool_result(b.id, text, is_error) for b, (text, is_error) in zip(calls, outputs)]


MODEL_STOPS = {  # the model's own reasons to stop, and the name AgentResult gives each
    "end_turn": "end_turn", "stop_sequence": "stop_sequence", "max_tokens": "max_tokens",
    "refusal": "refusal", "model_context_window_exceeded": "context_window",
    "tool_use": "no_tool_calls",  # the loop only leaves on "tool_use" when the response holds no call
}


def final_text(response: Any) -> str:
    """The text blocks of a response, joined ("" when there are none)."""
    return "\n".join(b.text for b in response.content if b.type == "text")


def shared_id(content: list) -> str | None:
    """The first tool_use id that an earlier call of the same response already had, or None."""
    ids = [b.id for b in content if b.type == "tool_use"]
    return next((i for n, i in enumerate(ids) if i in ids[:n]), None)


def model_stop(response: Any) -> tuple[str, str, tuple[str, dict] | None]:
    """(stopped_by, text, note) for a response the loop does not continue; an unknown stop reason is
    "unknown_stop", never passed on raw."""
    stopped_by = MODEL_STOPS.get(response.stop_reason, "unknown_stop")
    text = final_text(response)
    shared = shared_id(response.content)
    if stopped_by == "no_tool_calls" and shared:  # the loop left a turn it could not answer: two calls, one id
        stopped_by = "duplicate_ids"
    if stopped_by in ("end_turn", "stop_sequence"):  # the model finished: the text is all its own
        return stopped_by, text, None
    if stopped_by == "refusal":  # the harness's sentence first, then the model's explanation, if it gave one
        why = getattr(getattr(response, "stop_details", None), "explanation", None)
        return stopped_by, english("stop.refusal") + (f" {why}" if why else ""), ("stop.refusal", {})
    values = ({"reason": json.dumps(response.stop_reason)} if stopped_by == "unknown_stop"
              else {"id": json.dumps(shared)} if stopped_by == "duplicate_ids" else {})
    note = (f"stop.{stopped_by}", values)  # max_tokens, context_window, no_tool_calls, unknown_stop, duplicate_ids
    return stopped_by, (f"{text}\n" if text else "") + english(note[0], **values), note


async def run_agent(client, user_input: str, tools: list, tool_impls: dict, *,
                    model: str = MODEL, max_tokens: int = 1024, max_turns: int = 8,
                    token_budget: int = 40_000, approve: Approver | None = None,
                    high_impact: frozenset[str] | set[str] = HIGH_IMPACT, tool_step: Callable | None = None,
                    on_event: OnEvent | None = None, **request: Any) -> AgentResult:
    """The loop with its four valves; `request` goes to every `messages.create`; `tool_step` replaces run_tool_uses."""
    emit = on_event or (lambda event: None)
    emit({"event": "start", "input": user_input, "model": model})
    messages: list = [{"role": "user", "content": user_input}]
    turns = requests = tokens_used = 0
    signatures: list[str] = []  # valve 3: one per tool-calling turn, oldest first

    async def ask():  # send the whole history; count the request and what it cost, as soon as it arrives
        nonlocal requests, tokens_used
        response = await client.messages.create(model=model, max_tokens=max_tokens, tools=tools,
                                                messages=messages, **request)
        requests += 1
        tokens_used += tokens_of(response.usage)
        emit({"event": "request", "n": requests, "usage": response.usage.model_dump(exclude_none=True)})
        return response

    def stop(stopped_by: str, text: str, stop_reason: str | None = None,
             note: tuple[str, dict] | None = None) -> AgentResult:
        # stop_reason None: the harness stopped, not the model; note: the harness's sentence in text (id, values)
        emit({"event": "end", "turn": turns + 1, "stop_reason": stop_reason, "stopped_by": stopped_by,
              "text": text, "note": note, "turns": turns, "requests": requests, "tokens_used": tokens_used})
        return AgentResult(text, stopped_by, turns, requests, tokens_used, messages, note)

    def halt(stopped_by: str, message: str, **values: Any) -> AgentResult:
        # a valve stops the run: its sentence is lang.MESSAGES's, in English; the note says which, with what values
        return stop(stopped_by, english(message, **values), None, (message, values))

    response = await ask()
    while response.stop_reason in ("tool_use", "pause_turn"):
        if turns >= max_turns:  # valve 1: asked before the turn is taken
            return halt("max_turns", "stop.max_turns", cap=max_turns)
        if tokens_used >= token_budget:  # valve 2: spent is spent; check before spending more
            return halt("token_budget", "stop.token_budget", used=tokens_used, budget=token_budget)
        if response.stop_reason == "pause_turn":  # the API paused a long turn: send it back to continue
            turns += 1  # a continuation is a trip round the loop too, so the turn cap bounds it
            messages.append({"role": "assistant", "content": response.content})
            response = await ask()
            continue
        if not any(b.type == "tool_use" for b in response.content):  # "tool_use", yet nothing to run
            break
        if shared_id(response.content):  # two calls share an id: no result could say whose it is
            break
        signatures.append(signature_of(response.content))  # valve 3: the last turn, or a short cycle, again?
        period = find_cycle(signatures)
        if period:
            return halt("no_progress", "stop.repeat" if period == 1 else "stop.cycle", period=period,
                        calls=" -> ".join(signatures[-period:]))
        turns += 1

        results = await (tool_step or run_tool_uses)(response.content, tool_impls, tools=tools,  # valve 4
                                                     approve=approve, high_impact=high_impact, turn=turns,
                                                     on_event=emit)
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": results})  # every result of the turn: ONE message
        response = await ask()

    stopped_by, text, note = model_stop(response)
    return stop(stopped_by, text, response.stop_reason, note)
