"""Token accounting for the offline model: a deterministic estimate, prompt caching, and output limits.

The estimate (NOT the real tokenizer, which is not public):

* The prompt is three parts: the tools (plus a fixed ``TOOL_USE_SYSTEM_PROMPT`` = 346 tokens whenever
  ``tools`` is non-empty, as the docs list for Claude models), the system prompt, and the messages.
  Each part costs ``ceil(len(its compact JSON) / 4)`` tokens (a string system prompt: ``ceil(len / 4)``),
  and every message adds ``MESSAGE_OVERHEAD`` = 4 tokens for its role markers.
  ``cache_control`` keys are not counted, so marking a breakpoint never changes the prompt's size.
* So ``input_tokens`` grows with every message you append: the whole history is re-sent each turn.
* Output tokens: text costs ``ceil(len / 4)``; a tool_use block costs ``TOOL_CALL_OVERHEAD`` = 10 plus
  ``ceil(len(compact JSON of its input) / 4)``; a response costs at least 1.

Prompt caching (:func:`split_usage`): a ``cache_control`` on a tool, a system block, a message content
block, or the request itself (automatic caching: the breakpoint is the last block) marks a breakpoint.
The prefix up to the LAST breakpoint is written to the transport's cache the first time it is seen
(``cache_creation_input_tokens``) and read after that (``cache_read_input_tokens``); when only an
earlier part of it was cached before (the breakpoint moved forward, as it does when you mark the newest
message each turn) that part is read and the rest written. ``input_tokens`` is what comes after the
last breakpoint, so the prompt's real size is input + cache_creation + cache_read.
NOT modelled: the minimum cacheable length (1,024+ tokens live), the 5-minute/1-hour TTL (entries
never expire), the 20-block lookback limit, the 4-breakpoint limit, and cache pricing.
"""

from __future__ import annotations

import hashlib
import json

__all__ = [
    "TOOL_USE_SYSTEM_PROMPT", "MESSAGE_OVERHEAD", "TOOL_CALL_OVERHEAD",
    "text_tokens", "count_input_tokens", "split_usage",
    "block_tokens", "apply_limits",
]

TOOL_USE_SYSTEM_PROMPT = 346
MESSAGE_OVERHEAD = 4
TOOL_CALL_OVERHEAD = 10

# Compact JSON with non-ASCII kept as is (so "í" is one character), like json.dumps(..., separators=(",", ":")).
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def text_tokens(text: str) -> int:
    """ceil(len(text) / 4)."""
    return -(-len(text) // 4)


def _size(has_tools: bool, tools: list, system, messages: list) -> int:
    """The estimate for a prompt (or a prefix of one): see the module docstring."""
    tokens = TOOL_USE_SYSTEM_PROMPT if has_tools else 0
    if tools:
        tokens += text_tokens(_dumps(tools))
    if system:
        tokens += text_tokens(system if isinstance(system, str) else _dumps(system))
    if messages:
        tokens += text_tokens(_dumps(messages)) + MESSAGE_OVERHEAD * len(messages)
    return tokens


def _blocks(content) -> list:
    return content if isinstance(content, list) else []


def _marked(part) -> bool:
    return isinstance(part, dict) and part.get("cache_control") is not None


def _strip(part):
    if isinstance(part, dict) and "cache_control" in part:
        return {k: v for k, v in part.items() if k != "cache_control"}
    return part


def _parts(body: dict) -> tuple[list, object, list, bool]:
    """(tools, system, messages, any cache_control?) without cache_control keys (copied only where present)."""
    tools = body.get("tools") or []
    system = body.get("system")
    messages = body.get("messages") or []
    marked = bool(body.get("cache_control"))
    if any("cache_control" in t for t in tools if isinstance(t, dict)):
        tools, marked = [_strip(t) for t in tools], True
    if isinstance(system, list) and any(isinstance(b, dict) and "cache_control" in b for b in system):
        system, marked = [_strip(b) for b in system], True
    if any(isinstance(b, dict) and "cache_control" in b for m in messages for b in _blocks(m.get("content"))):
        messages = [{**m, "content": [_strip(b) for b in m["content"]]} if isinstance(m.get("content"), list) else m
                    for m in messages]
        marked = True
    return tools, system, messages, marked


def count_input_tokens(body: dict) -> int:
    """The whole prompt's estimated size (what ``count_tokens`` returns)."""
    tools, system, messages, _ = _parts(body)
    return _size(bool(tools), tools, system, messages)


def _boundaries(body: dict, tools: list, system, messages: list) -> list[tuple[str, bool, tuple]]:
    """Every block boundary of the prompt in cache order: (text of the block, is_breakpoint, where)."""
    out = []
    for i, tool in enumerate(body.get("tools") or []):
        out.append((_dumps(tools[i]), _marked(tool), ("tools", i)))
    raw_system = body.get("system")
    if isinstance(raw_system, str):
        out.append((raw_system, False, ("system", 0)))
    elif isinstance(raw_system, list):
        for j, block in enumerate(raw_system):
            out.append((_dumps(system[j]), _marked(block), ("system", j)))
    for m, message in enumerate(body.get("messages") or []):
        role = f"<{message.get('role')}>"
        content = message.get("content")
        if isinstance(content, list) and content:
            for k, block in enumerate(content):
                out.append(((role if k == 0 else "") + _dumps(messages[m]["content"][k]), _marked(block), ("messages", m, k)))
        else:
            out.append((role + _dumps(content), False, ("messages", m, 0)))
    if body.get("cache_control") and out:  # automatic caching: breakpoint on the last block
        out[-1] = (out[-1][0], True, out[-1][2])
    return out


def _prefix_size(where: tuple, has_tools: bool, tools: list, system, messages: list) -> int:
    if where[0] == "tools":
        return _size(has_tools, tools[: where[1] + 1], None, [])
    if where[0] == "system":
        return _size(has_tools, tools, system if isinstance(system, str) else system[: where[1] + 1], [])
    m, k = where[1], where[2]
    last = messages[m]
    if isinstance(last.get("content"), list):
        last = {**last, "content": last["content"][: k + 1]}
    return _size(has_tools, tools, system, messages[:m] + [last])


def split_usage(body: dict, cache: set[str] | None) -> tuple[int, int, int]:
    """(input_tokens, cache_creation_input_tokens, cache_read_input_tokens) for one request.

    ``cache`` is the transport's set of cached prefix fingerprints; it is updated (pass None to
    only look). Without any breakpoint the answer is (whole prompt, 0, 0).
    """
    tools, system, messages, marked = _parts(body)
    has_tools = bool(tools)
    total = _size(has_tools, tools, system, messages)
    if not marked:
        return total, 0, 0
    bounds = _boundaries(body, tools, system, messages)
    breakpoints = [i for i, (_, bp, _) in enumerate(bounds) if bp]
    if not breakpoints:
        return total, 0, 0
    last = breakpoints[-1]
    running, fingerprints = hashlib.sha256(), []
    for text, _, _ in bounds[: last + 1]:
        running.update(text.encode("utf-8", "surrogatepass") + b"\x1e")
        fingerprints.append(running.hexdigest())
    prefix = min(total, _prefix_size(bounds[last][2], has_tools, tools, system, messages))
    known = cache if cache is not None else set()
    hit = next((i for i in range(last, -1, -1) if fingerprints[i] in known), None)
    read = 0 if hit is None else min(prefix, _prefix_size(bounds[hit][2], has_tools, tools, system, messages))
    if cache is not None:
        cache.update(fingerprints[i] for i in breakpoints)
    return total - prefix, prefix - read, read


# ---- output -----------------------------------------------------------------------------------------

def block_tokens(block: dict) -> int:
    """Estimated output tokens of one response content block."""
    if block.get("type") == "text":
        return text_tokens(block.get("text", ""))
    if block.get("type") == "tool_use":
        return TOOL_CALL_OVERHEAD + text_tokens(_dumps(block.get("input", {})))
    return text_tokens(_dumps(block))


def apply_limits(content: list[dict], stop_reason: str, max_tokens: int, stop_sequences=None):
    """Cut the planned response like the live API: returns (content, stop_reason, stop_sequence, output_tokens).

    * ``stop_sequences``: a text block is cut just before the earliest occurrence of any of them and
      nothing after it is generated → stop_reason "stop_sequence" (only text is searched, as live).
    * ``max_tokens``: blocks are kept while they fit; a text block that does not fit is cut (at a word
      boundary when there is one); a tool_use block that does not fit keeps only the input fields
      that fit, in order, possibly none (``{}``) → stop_reason "max_tokens", output_tokens = max_tokens.
    """
    sequences = [s for s in (stop_sequences or []) if isinstance(s, str) and s]
    out: list[dict] = []
    used = 0
    for block in content:
        room = max_tokens - used
        if block.get("type") == "text":
            text = block["text"]
            hit = None
            if sequences:
                found = [(text.find(s), s) for s in sequences if s in text]
                if found:
                    hit = min(found)
                    text = text[: hit[0]]
            cost = text_tokens(text)
            if cost > room:
                cut = text[: room * 4]
                if " " in cut[len(cut) // 2 :]:
                    cut = cut[: cut.rindex(" ")]
                if cut:
                    out.append({**block, "text": cut})
                return out, "max_tokens", None, max_tokens
            if text:
                out.append({**block, "text": text})
            used += cost
            if hit is not None:
                return out, "stop_sequence", hit[1], max(1, used)
        elif block.get("type") == "tool_use":
            cost = block_tokens(block)
            if cost > room:
                kept: dict = {}
                for key, value in block["input"].items():
                    trial = {**kept, key: value}
                    if TOOL_CALL_OVERHEAD + text_tokens(_dumps(trial)) > room:
                        break
                    kept = trial
                out.append({**block, "input": kept})
                return out, "max_tokens", None, max_tokens
            out.append(block)
            used += cost
        else:
            out.append(block)
            used += block_tokens(block)
    return out, stop_reason, None, max(1, used)
