"""The request rules the offline Messages API enforces, with the live API's error texts.

A broken request gets HTTP 400 ``{"type": "error", "error": {"type": "invalid_request_error",
"message": …}}`` and the SDK raises ``anthropic.BadRequestError``; an unknown model id gets HTTP 404
``not_found_error`` (``anthropic.NotFoundError``). Checked, in this order:

1. required fields: ``model``, ``max_tokens`` (not for count_tokens), ``messages`` → "<field>: Field required";
   ``max_tokens`` an integer ≥ 1; ``stream: true`` is refused (the offline model does not stream).
2. ``tools``: each custom tool's name matches ``^[a-zA-Z0-9_-]{1,64}$``, names are unique, and its
   ``input_schema`` is a JSON Schema object (a dict, ``"type": "object"``, valid per draft 2020-12).
3. ``messages``: at least one; roles ``user``/``assistant``; the first is from the user; no empty text
   (an empty string content, or an empty text block); no empty content except a final assistant message.
4. tool use: every ``tool_use`` id in an assistant message is answered by a ``tool_result`` at the START
   of the very next message (a final assistant message is exempt: that is prefill); every
   ``tool_result`` names a ``tool_use`` of the message just before it.
5. the model id is one the installed SDK knows (``anthropic.types.Model``), or ``$HARNESS_MODEL``.

NOT modelled: the many other field checks (types of every block, images, documents, thinking,
server tools — typed tools are accepted as they are), the request-size limit (413), authentication
(any API key is accepted), whitespace-only text, and ``tool_choice`` except ``{"type": "none"}``.
"""

from __future__ import annotations

import json
import os
import re
import typing
from functools import lru_cache

import anthropic
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

__all__ = ["APIError", "validate_request", "check_model", "known_models", "schema_validator", "args_valid"]


class APIError(Exception):
    """A request the API refuses: becomes an HTTP error response with the API's JSON error body."""

    def __init__(self, status: int, error_type: str, message: str):
        super().__init__(message)
        self.status, self.error_type, self.message = status, error_type, message


def _bad(message: str) -> APIError:
    return APIError(400, "invalid_request_error", message)


_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_TOOL_USE_MISSING = (
    "messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
    "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
)
_UNEXPECTED_RESULT = (
    "messages.{n}.content.{k}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. "
    "Each `tool_result` block must have a corresponding `tool_use` block in the previous message."
)
_BAD_SCHEMA = (
    "tools.{n}.custom.input_schema: JSON schema is invalid. "
    "It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12)."
)


def _flatten_literals(tp) -> list[str]:
    if typing.get_origin(tp) is typing.Literal:
        return [a for a in typing.get_args(tp) if isinstance(a, str)]
    return [lit for arg in typing.get_args(tp) for lit in _flatten_literals(arg)]


_SDK_MODELS = frozenset(_flatten_literals(anthropic.types.Model))


def known_models() -> frozenset[str]:
    """The literal model ids of the installed SDK, plus ``$HARNESS_MODEL`` when set."""
    extra = os.environ.get("HARNESS_MODEL")
    return _SDK_MODELS | {extra} if extra else _SDK_MODELS


@lru_cache(maxsize=256)
def _schema_from(text: str) -> Draft202012Validator | None:
    """A validator for the schema in ``text`` (compact JSON), or None when it is not a valid object schema."""
    schema = json.loads(text)
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError:
        return None
    return Draft202012Validator(schema)


def schema_validator(schema) -> Draft202012Validator | None:
    """Cached: the same schema is checked once per process, not once per request."""
    try:
        return _schema_from(json.dumps(schema, sort_keys=True, separators=(",", ":")))
    except (TypeError, ValueError):
        return None


@lru_cache(maxsize=1024)
def _valid(schema_text: str, args_text: str) -> bool:
    validator = _schema_from(schema_text)
    return validator is not None and validator.is_valid(json.loads(args_text))


def args_valid(schema, args) -> bool:
    """Does ``args`` validate against the tool input ``schema``? (jsonschema, memoised: it is slow.)"""
    try:
        return _valid(json.dumps(schema, sort_keys=True, separators=(",", ":")),
                      json.dumps(args, sort_keys=True, separators=(",", ":")))
    except (TypeError, ValueError):
        return False


def _check_tools(tools) -> None:
    if not isinstance(tools, list):
        raise _bad("tools: Input should be a valid list")
    names = set()
    for n, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise _bad(f"tools.{n}: Input should be a valid dictionary")
        if tool.get("type") not in (None, "custom"):
            continue  # a server tool (web_search_…, bash_…): not modelled, accepted as is
        name = tool.get("name")
        if name is None:
            raise _bad(f"tools.{n}.custom.name: Field required")
        if not isinstance(name, str) or not _TOOL_NAME.match(name):
            raise _bad(f"tools.{n}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'")
        if "input_schema" not in tool:
            raise _bad(f"tools.{n}.custom.input_schema: Field required")
        if schema_validator(tool["input_schema"]) is None:
            raise _bad(_BAD_SCHEMA.format(n=n))
        if name in names:
            raise _bad("tools: Tool names must be unique.")
        names.add(name)


def _blocks(content) -> list:
    return content if isinstance(content, list) else []


def _check_messages(messages) -> None:
    if not isinstance(messages, list):
        raise _bad("messages: Input should be a valid list")
    if not messages:
        raise _bad("messages: at least one message is required")
    for n, message in enumerate(messages):
        if not isinstance(message, dict):
            raise _bad(f"messages.{n}: Input should be a valid dictionary")
        if "role" not in message:
            raise _bad(f"messages.{n}.role: Field required")
        if message["role"] not in ("user", "assistant"):
            raise _bad(f"messages.{n}.role: Input should be 'user' or 'assistant'")
        if "content" not in message:
            raise _bad(f"messages.{n}.content: Field required")
        content = message["content"]
        if not isinstance(content, (str, list)):
            raise _bad(f"messages.{n}.content: Input should be a valid string or a valid list")
        if content == "":
            raise _bad("messages: text content blocks must be non-empty")
        for k, block in enumerate(_blocks(content)):
            if not isinstance(block, dict) or "type" not in block:
                raise _bad(f"messages.{n}.content.{k}: Input should be a valid dictionary with a `type`")
            if block["type"] == "text" and not block.get("text"):
                raise _bad("messages: text content blocks must be non-empty")
        if content == [] and not (n == len(messages) - 1 and message["role"] == "assistant"):
            raise _bad(f"messages.{n}: all messages must have non-empty content except for the optional final assistant message")
    if messages[0]["role"] != "user":
        raise _bad('messages: first message must use the "user" role')

    for n, message in enumerate(messages):
        blocks = _blocks(message["content"])
        if message["role"] == "assistant":
            ids = [b.get("id") for b in blocks if b["type"] == "tool_use"]
            if ids and n + 1 < len(messages):
                following = messages[n + 1]
                answered = set()
                if following["role"] == "user":
                    for block in _blocks(following["content"]):
                        if block["type"] != "tool_result":
                            break  # tool_result blocks must come first
                        answered.add(block.get("tool_use_id"))
                missing = [i for i in ids if i not in answered]
                if missing:
                    raise _bad(_TOOL_USE_MISSING.format(n=n, ids=", ".join(map(str, missing))))
        else:
            previous = messages[n - 1] if n > 0 else None
            offered = set()
            if previous is not None and previous["role"] == "assistant":
                offered = {b.get("id") for b in _blocks(previous["content"]) if b["type"] == "tool_use"}
            for k, block in enumerate(blocks):
                if block["type"] == "tool_result" and block.get("tool_use_id") not in offered:
                    raise _bad(_UNEXPECTED_RESULT.format(n=n, k=k, id=block.get("tool_use_id")))


def validate_request(body, *, count_tokens: bool = False) -> None:
    """Raise :class:`APIError` (400) for the first rule ``body`` breaks. See the module docstring."""
    if not isinstance(body, dict):
        raise _bad("Input should be a valid dictionary")
    required = ("model", "messages") if count_tokens else ("model", "max_tokens", "messages")
    for field in required:
        if field not in body:
            raise _bad(f"{field}: Field required")
    if not isinstance(body["model"], str):
        raise _bad("model: Input should be a valid string")
    if not count_tokens:
        max_tokens = body["max_tokens"]
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool):
            raise _bad("max_tokens: Input should be a valid integer")
        if max_tokens < 1:
            raise _bad("max_tokens: Input should be greater than or equal to 1")
        if body.get("stream"):
            raise _bad(
                "stream: the offline model does not stream. Call messages.create() without stream=True "
                "(and not messages.stream()), or set ANTHROPIC_API_KEY to use the live API."
            )
    system = body.get("system")
    if system is not None and not isinstance(system, (str, list)):
        raise _bad("system: Input should be a valid string or a valid list")
    if "tools" in body:
        _check_tools(body["tools"])
    _check_messages(body["messages"])


def check_model(model: str) -> None:
    """404 ``not_found_error`` for a model id the SDK does not list (as live for retired/unknown ids)."""
    if model not in known_models():
        raise APIError(404, "not_found_error", f"model: {model}")
