"""What the offline model sees in one request: the task, its language, the tools offered, and every tool call of the
history with the tool_result that answered it (:func:`read_conversation`); and the arguments it would give a tool
(:func:`fit_args`: renamed to the tool's own property names, checked against its ``input_schema``).

Part of the planner (:mod:`.planner`). It only reads: what the results mean is :mod:`.history`'s, the next turn
:mod:`.planner`'s, the answer's wording :mod:`.answer`'s.

NOT modelled: images, documents or other non-text blocks (a tool_result's text blocks only); tool_use blocks that
were never answered count as calls with no result; user text after the first message is not read.
"""

from __future__ import annotations

from dataclasses import dataclass

from .parse import detect_language
from .phrases import answer_language
from .validation import args_valid


@dataclass
class Call:
    """One tool_use from the history, with the tool_result that answered it (None: unanswered)."""

    id: str
    name: str
    input: dict
    result: str | None = None
    is_error: bool = False


@dataclass
class Conversation:
    """What the model sees in one request."""

    task: str  # the text of the first user message
    language: str  # "en" or "es"
    tools: dict[str, dict]  # offered tools: name -> input_schema ({} when tool_choice is "none")
    calls: list[Call]
    assistant_turns: int
    ends_with_assistant: bool
    max_tokens: int


@dataclass
class Reply:
    """The model's planned turn, before max_tokens/stop_sequences are applied (tool_use ids are added later)."""

    content: list[dict]
    stop_reason: str
    stop_details: dict | None = None


def result_text(content) -> str:
    """A tool_result's content as text: a string, or the text blocks of a list joined by newlines."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def read_conversation(body: dict) -> Conversation:
    messages = body["messages"]
    first = messages[0]["content"]
    task = first if isinstance(first, str) else "\n".join(
        b.get("text", "") for b in first if b.get("type") == "text"
    )
    tools = {}
    if (body.get("tool_choice") or {}).get("type") != "none":
        tools = {t["name"]: t.get("input_schema", {}) for t in body.get("tools") or [] if "name" in t}
    calls: dict[str, Call] = {}
    turns = 0
    for message in messages:
        content = message["content"]
        if message["role"] == "assistant":
            turns += 1
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "tool_use":
                    inp = block.get("input")
                    calls[block.get("id")] = Call(block.get("id"), block.get("name"), inp if isinstance(inp, dict) else {})
        elif isinstance(content, list):
            for block in content:
                if block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                    call = calls[block["tool_use_id"]]
                    call.result = result_text(block.get("content"))
                    call.is_error = bool(block.get("is_error"))
    return Conversation(
        task=task,
        language=answer_language(detect_language(task)),  # the request's language, else HARNESS_LANG
        tools=tools,
        calls=list(calls.values()),
        assistant_turns=turns,
        ends_with_assistant=messages[-1]["role"] == "assistant",
        max_tokens=body["max_tokens"],
    )


# ---- tool arguments ---------------------------------------------------------------------------------

_ALIASES = {"path": ("path", "file_path", "filepath", "file", "filename"), "content": ("content", "text", "contents", "data", "body")}


def fit_args(conv: Conversation, tool: str, args: dict) -> dict | None:
    """``args`` renamed to the tool's property names (path → file_path, …) if needed; None when the tool
    is not offered or the arguments do not validate against its input_schema (checked with jsonschema)."""
    schema = conv.tools.get(tool)
    if schema is None:
        return None
    props = schema.get("properties") or {}
    if props:
        fitted = {}
        for key, value in args.items():
            fitted[next((a for a in _ALIASES.get(key, (key,)) if a in props), key)] = value
        args = fitted
    return args if args_valid(schema, args) else None


def _path_of(inp: dict) -> str | None:
    path = inp.get("path")
    if isinstance(path, str):
        return path
    return next((inp[a] for a in _ALIASES["path"] if isinstance(inp.get(a), str)), None)
