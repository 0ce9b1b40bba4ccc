"""The small pieces behind the control valves.

Valve 1 (turn cap) and valve 4 (approval gate) are one `if` each and live in the loop itself
(`loop.py`). Valves 2 and 3 need a little arithmetic, which sits here so it can be read, and
tested, on its own:

- `tokens_of(usage)`: what one response cost, for valve 2, the token budget.
- `signature_of(content)`: the fingerprint of one turn's tool calls, for valve 3, no-progress detection.
- `find_cycle(signatures)`: valve 3 as `run_agent` uses it: the lesson's "this turn == the last turn",
  widened to short cycles such as ping-pong (A, B, A, B); the kit's addition, built in notebook 04.

Not handled here: money (tokens are not dollars; prices differ per model and per cache state),
and "progress" in any deeper sense. A model that calls a tool with a new argument every turn
(page 1, page 2, page 3 ...) makes no two signatures equal; only the turn cap and the budget stop it.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence


def tokens_of(usage: Any) -> int:
    """Every token one response was billed for: input + output + cache writes + cache reads.

    With prompt caching on, `input_tokens` counts only what came after the last cache breakpoint;
    the rest of the prompt shows up as cache_creation / cache_read tokens. A budget that adds only
    input + output silently undercounts, so all four are summed. Missing fields count as 0.
    """
    fields = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    return sum(getattr(usage, name, None) or 0 for name in fields)


def _field(block: Any, name: str) -> Any:
    # Blocks are SDK objects when they come from a response, plain dicts when written by hand.
    return block[name] if isinstance(block, dict) else getattr(block, name)


def signature_of(content: Iterable[Any]) -> str:
    """One string naming every tool call of a turn: `get_time({}) | read_file({"path":"a.md"})`.

    Calls are sorted, so the same calls in another order give the same signature, and the input is
    compact JSON with sorted keys, so {"a":1,"b":2} and {"b":2,"a":1} are the same call.
    A turn with no tool calls has the signature "".
    """
    calls = [
        f"{_field(b, 'name')}({json.dumps(_field(b, 'input'), sort_keys=True, separators=(',', ':'), ensure_ascii=False)})"
        for b in content
        if _field(b, "type") == "tool_use"
    ]
    return " | ".join(sorted(calls))


def find_cycle(signatures: Sequence[str], *, max_period: int = 3, repeats: int = 2) -> int | None:
    """The period of a loop the recent turns are stuck in, or None.

    Looks at the tail of `signatures` (one per turn, oldest first) for a block of `period` turns
    (1 <= period <= max_period) repeated `repeats` times in a row. Period 1 with repeats 2 is exactly
    the lesson's valve 3 (this turn == last turn); period 2 catches ping-pong: A, B, A, B. It never
    looks further back than max_period * repeats signatures (6 by default): an old cycle the model
    has left behind does not count.

    Not handled: cycles longer than `max_period`, and near-repeats (the same call with a
    slightly different argument is a different signature).
    """
    for period in range(1, max_period + 1):
        window = period * repeats
        if len(signatures) < window:
            break
        tail = signatures[-window:]
        if all(tail[i] == tail[i % period] for i in range(window)):
            return period
    return None
