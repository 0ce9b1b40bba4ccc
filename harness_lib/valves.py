"""The small pieces behind valves 2 and 3 (valves 1 and 4 are one `if` each, in the loop): what a response cost,
and whether the recent turns repeat themselves.

Not handled: money (tokens are not dollars), and "progress" in any deeper sense: a model that asks for page 1, page
2, page 3 ... makes no two signatures equal; only the turn cap and the budget stop it.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Sequence


def tokens_of(usage: Any) -> int:
    """Every token one response was billed for: input + output + cache writes + cache reads (a budget that adds
    only input + output undercounts once caching is on). Missing fields count as 0."""
    fields = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    return sum(getattr(usage, name, None) or 0 for name in fields)


def _field(block: Any, name: str) -> Any:
    # Blocks are SDK objects when they come from a response, plain dicts when written by hand.
    return block[name] if isinstance(block, dict) else getattr(block, name)


def signature_of(content: Iterable[Any]) -> str:
    """One string naming every tool call of a turn, sorted, input as compact JSON with sorted keys:
    `get_time({}) | read_file({"path":"a.md"})`; "" for a turn with no tool call."""
    calls = [
        f"{_field(b, 'name')}({json.dumps(_field(b, 'input'), sort_keys=True, separators=(',', ':'), ensure_ascii=False)})"
        for b in content
        if _field(b, "type") == "tool_use"
    ]
    return " | ".join(sorted(calls))


def find_cycle(signatures: Sequence[str], *, max_period: int = 3) -> int | None:
    """The period p when the last p signatures repeat the p before them (1 <= p <= max_period), or None.
    Period 1 is the lesson's valve 3 (this turn == the last); 2 is ping-pong (A, B, A, B). It never looks
    further back than 2 * max_period turns, so a cycle the model has left does not count."""
    for p in range(1, max_period + 1):
        if len(signatures) < 2 * p:
            return None
        if signatures[-p:] == signatures[-2 * p:-p]:
            return p
    return None
