"""The agent loop: the lesson's `stop_reason` while-loop, bare and with its four control valves.

    send messages -> look at stop_reason -> "tool_use"? run the tools, send the results back, repeat
                                         -> anything else? return the text, leave the loop

`run_bare` is that loop and nothing else: it trusts the model to stop. `run_agent` is the same loop
with the four valves, each at the one step where it works:

    while the model asks for tools:
        1. turn cap      -- "may I turn again?" is asked before the turn is taken
        2. token budget  -- checked against everything spent so far, before spending more
        3. no progress   -- this turn's calls == last turn's calls? then the model is walking in place
        turns += 1
        4. approval gate -- inside the tool step, before a high-impact tool runs (run_tool_uses)
        send the results back in ONE user message; ask again

Every way out leaves `messages` a valid history: a tool_use the harness decides not to run is
never appended, so no tool_use is ever left without its tool_result.

Not handled here: retries (the SDK retries 429/5xx itself, `max_retries`), streaming, server tools,
trimming a history that outgrows the context window, and cost in money rather than tokens.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from .approval import REJECTED_MESSAGE
from .client import MODEL
from .tools import HIGH_IMPACT, arun_tool
from .valves import signature_of, tokens_of

Approver = Callable[[str, dict], Awaitable[bool]]
OnEvent = Callable[[dict], None]

# The model's own reasons to stop, and the name AgentResult gives each.
MODEL_STOPS = {
    "end_turn": "end_turn",
    "stop_sequence": "stop_sequence",
    "max_tokens": "max_tokens",
    "refusal": "refusal",
    "model_context_window_exceeded": "context_window",
}


@dataclass
class AgentResult:
    """How a run ended.

    text        the model's final answer, or the harness's reason for stopping
    stopped_by  end_turn | stop_sequence (the model finished); max_turns | token_budget | no_progress
                (a valve stopped it); max_tokens | refusal | context_window (the response was cut short)
    turns       tool-calling turns that actually ran
    requests    requests sent to the model
    tokens_used every token billed across those requests (see valves.tokens_of)
    messages    the history, valid to send again (the final response is not appended)
    """

    text: str
    stopped_by: str
    turns: int
    requests: int
    tokens_used: int
    messages: list = field(repr=False)


def final_text(response: Any) -> str:
    """The text blocks of a response, joined. "" when there are none (a refusal may have none)."""
    return "\n".join(b.text for b in response.content if b.type == "text")


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
    """Run one turn's tool calls; return their tool_result blocks in tool_use order.

    Valve 4, the approval gate, sits here and nowhere later: every high-impact call is put to
    `approve` one at a time *before any tool of this turn runs*. A rejected call (or any high-impact
    call when there is no approver: fail closed) is not run; it still gets a tool_result, with
    is_error, so the model learns the person said no. Then the approved calls run concurrently.
    """
    emit = on_event or (lambda event: None)
    blocks = [b for b in content if b.type == "tool_use"]
    for b in blocks:
        emit({"event": "tool_call", "turn": turn, "id": b.id, "name": b.name, "input": b.input})

    refused: set[str] = set()
    for b in blocks:
        if b.name in high_impact:
            approved = approve is not None and bool(await approve(b.name, b.input))
            emit({"event": "approval", "turn": turn, "name": b.name, "input": b.input, "approved": approved})
            if not approved:
                refused.add(b.id)

    async def run_one(b) -> tuple[str, bool]:
        if b.id in refused:
            return REJECTED_MESSAGE, True
        return await arun_tool(tool_impls, b.name, b.input, tools)

    outputs = await asyncio.gather(*(run_one(b) for b in blocks))
    results = []
    for b, (text, is_error) in zip(blocks, outputs):
        emit({"event": "tool_result", "turn": turn, "id": b.id, "name": b.name, "content": text, "is_error": is_error})
        results.append(tool_result(b.id, text, is_error))
    return results


async def run_bare(client, user_input: str, tools: list, tool_impls: dict, *,
                   model: str = MODEL, max_tokens: int = 1024, on_event: OnEvent | None = None) -> str:
    """The bare loop of lesson 2 on the real SDK: no valves. It stops only when the model does.

    Nothing bounds it: a model that keeps asking for tools keeps it turning forever. High-impact
    tools are refused (there is no approver), so even the bare loop cannot write or delete.
    """
    messages = [{"role": "user", "content": user_input}]
    response = await client.messages.create(model=model, max_tokens=max_tokens, tools=tools, messages=messages)
    turn = 0
    while response.stop_reason == "tool_use":
        turn += 1
        messages.append({"role": "assistant", "content": response.content})
        results = await run_tool_uses(response.content, tool_impls, tools=tools, turn=turn, on_event=on_event)
        messages.append({"role": "user", "content": results})
        response = await client.messages.create(model=model, max_tokens=max_tokens, tools=tools, messages=messages)
    return final_text(response)


async def run_agent(client, user_input: str, tools: list, tool_impls: dict, *,
                    model: str = MODEL, max_tokens: int = 1024, max_turns: int = 8,
                    token_budget: int = 40_000, approve: Approver | None = None,
                    high_impact: frozenset[str] | set[str] = HIGH_IMPACT,
                    on_event: OnEvent | None = None, **request: Any) -> AgentResult:
    """The loop with its four valves. See the module docstring for where each valve sits and why.

    `request` goes to every `messages.create` call unchanged (e.g. `system=...`, `stop_sequences=[...]`).
    """
    emit = on_event or (lambda event: None)
    emit({"event": "start", "input": user_input, "model": model})
    messages: list = [{"role": "user", "content": user_input}]
    turns = requests = tokens_used = 0
    last_signature = None

    async def ask():
        nonlocal requests, tokens_used
        response = await client.messages.create(model=model, max_tokens=max_tokens, tools=tools,
                                                messages=messages, **request)
        requests += 1
        tokens_used += tokens_of(response.usage)  # valve 2 counts every response, as it arrives
        emit({"event": "request", "n": requests, "usage": response.usage.model_dump(exclude_none=True)})
        return response

    def stop(stopped_by: str, text: str, stop_reason: str | None = None) -> AgentResult:
        emit({"event": "end", "turn": turns + 1, "stop_reason": stop_reason, "stopped_by": stopped_by,
              "text": text, "turns": turns, "requests": requests, "tokens_used": tokens_used})
        return AgentResult(text, stopped_by, turns, requests, tokens_used, messages)

    response = await ask()
    while response.stop_reason in ("tool_use", "pause_turn"):
        # Valve 1, turn cap: the first thing in the body, before turns += 1.
        if turns >= max_turns:
            return stop("max_turns", f"Stopped by the harness: reached the turn cap of {max_turns} "
                        "(the task may be too hard, or the model may be stuck).")
        # Valve 2, token budget: spent is spent; check before spending more.
        if tokens_used >= token_budget:
            return stop("token_budget", f"Stopped by the harness: {tokens_used} tokens used, "
                        f"reaching the token budget of {token_budget}.")
        if response.stop_reason == "pause_turn":
            # The API paused a long turn; sending its content back as-is lets it continue.
            messages.append({"role": "assistant", "content": response.content})
            response = await ask()
            continue
        # Valve 3, no progress: the same calls as last turn means walking in place.
        signature = signature_of(response.content)
        if signature == last_signature:
            return stop("no_progress", "Stopped by the harness: two turns in a row made the identical "
                        f"tool calls ({signature}); no progress.")
        last_signature = signature
        turns += 1

        messages.append({"role": "assistant", "content": response.content})
        # Valve 4, approval gate: inside run_tool_uses, before any tool runs.
        results = await run_tool_uses(response.content, tool_impls, tools=tools, approve=approve,
                                      high_impact=high_impact, turn=turns, on_event=emit)
        messages.append({"role": "user", "content": results})  # all results of a turn: ONE message
        response = await ask()

    stopped_by = MODEL_STOPS.get(response.stop_reason, response.stop_reason)
    text = final_text(response)
    if stopped_by == "max_tokens":
        text = (f"{text}\n" if text else "") + ("Stopped: the response hit max_tokens. Any tool call in it was "
                                                "cut off and was not run; retry with a higher max_tokens.")
    elif stopped_by == "refusal":
        details = getattr(response, "stop_details", None)
        text = "The model declined this request." + (f" {details.explanation}" if details and details.explanation else "")
    elif stopped_by == "context_window":
        text = (f"{text}\n" if text else "") + "Stopped: the model ran out of context window; this answer is truncated."
    return stop(stopped_by, text, response.stop_reason)
