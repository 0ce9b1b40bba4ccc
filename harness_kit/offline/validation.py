"""The request rules the offline Messages API enforces, with the live API's error texts.

A broken request gets HTTP 400 ``{"type": "error", "error": {"type": "invalid_request_error",
"message": …}}`` and the SDK raises ``anthropic.BadRequestError``; an unknown model id gets HTTP 404
``not_found_error`` (``anthropic.NotFoundError``). Checked, in this order:

0. the body is a JSON object nested at most ``MAX_DEPTH`` (100) levels deep.
1. required fields: ``model``, ``max_tokens`` (not for count_tokens), ``messages`` → "<field>: Field required";
   ``max_tokens`` an integer from 1 to ``MAX_OUTPUT_TOKENS`` (128,000, the offline model's ceiling for
   every model id); ``stream: true`` is refused (the offline model does not stream).
2. the type of every other field the offline model reads, in the live API's pydantic wording
   ("<path>: Input should be a valid string", "… a valid list", "… a valid dictionary or object",
   "Input tag 'x' found using 'type' does not match any of the expected tags: …"): ``system``,
   ``stop_sequences``, ``temperature``/``top_p``/``top_k``, ``metadata``, ``tool_choice``, ``thinking``,
   ``cache_control`` (top level, on tools, system blocks and content blocks), and every content block:
   its ``type`` must be one the installed SDK knows, and text, tool_use, tool_result, thinking, image
   and document blocks must have their fields of the right type.
3. ``tools``: each custom tool's name matches ``^[a-zA-Z0-9_-]{1,64}$``, names are unique, and its
   ``input_schema`` is a JSON Schema object (a dict, ``"type": "object"``, valid per draft 2020-12).
4. ``messages``: at least one; roles ``user``/``assistant``; the first is from the user; no empty text
   (an empty string content, or an empty text block); no empty content except a final assistant message.
5. tool use: every ``tool_use`` id in an assistant message is answered by a ``tool_result`` at the START
   of the very next message (a final assistant message is exempt: that is prefill); every
   ``tool_result`` names a ``tool_use`` of the message just before it; no two ``tool_use`` blocks of the
   request share an id ("messages.1.content.2: `tool_use` ids must be unique").
6. the model id is one the installed SDK knows (``anthropic.types.Model``), or ``$HARNESS_MODEL``.

NOT modelled: the fields of images, documents, citations and server-tool blocks beyond their
``type`` and ``source`` (typed server tools are accepted as they are), unknown top-level fields
(accepted and ignored), the request-size limit (413), authentication (any API key is accepted),
whitespace-only text, per-model output limits, and ``tool_choice`` beyond its shape and ``{"type": "none"}``.
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

__all__ = [
    "APIError", "validate_request", "check_model", "known_models", "schema_validator", "args_valid", "bad_request",
    "MAX_DEPTH", "MAX_OUTPUT_TOKENS",
]


class APIError(Exception):
    """A request the API refuses: becomes an HTTP error response with the API's JSON error body."""

    def __init__(self, status: int, error_type: str, message: str):
        super().__init__(message)
        self.status, self.error_type, self.message = status, error_type, message


def _bad(message: str) -> APIError:
    return APIError(400, "invalid_request_error", message)


bad_request = _bad  # for the other offline modules: a 400 invalid_request_error with this message

MAX_DEPTH = 100
MAX_OUTPUT_TOKENS = 128_000


_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_TOOL_USE_MISSING = (
    "messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. "
    "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
)
_DUPLICATE_TOOL_USE = "messages.{n}.content.{k}: `tool_use` ids must be unique"
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


# ---- types: the live API's pydantic-style messages ----------------------------------------------------

def _tags(tp, out: set[str]) -> set[str]:
    """The ``type`` literals of every TypedDict/model in the (nested) union ``tp``."""
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is typing.Annotated or (origin is not None and not isinstance(tp, type)):
        for arg in typing.get_args(tp):
            _tags(arg, out)
    elif isinstance(tp, type):
        try:
            hint = typing.get_type_hints(tp).get("type")
        except Exception:  # a type the SDK builds in a way get_type_hints cannot read: skip it
            hint = None
        out.update(_flatten_literals(hint) if typing.get_origin(hint) is typing.Literal else [])
    return out


# The content block types the installed SDK can send (plain and beta Messages API), and those a tool_result may hold.
BLOCK_TYPES = tuple(sorted(_tags(anthropic.types.ContentBlockParam, set())
                           | _tags(anthropic.types.beta.BetaContentBlockParam, set())))
RESULT_TYPES = tuple(sorted(_tags(typing.get_type_hints(anthropic.types.beta.BetaToolResultBlockParam)["content"], set())))


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _tag_error(where: str, tag, expected) -> APIError:
    if not isinstance(tag, str):
        return _bad(f"{where}.type: Input should be a valid string")
    listed = ", ".join(f"'{t}'" for t in expected)
    return _bad(f"{where}: Input tag '{tag}' found using 'type' does not match any of the expected tags: {listed}")


_KINDS = {  # kind -> (is the value of that kind?, the live API's words for it)
    "str": (lambda v: isinstance(v, str), "a valid string"),
    "list": (lambda v: isinstance(v, list), "a valid list"),
    "dict": (lambda v: isinstance(v, dict), "a valid dictionary or object"),
    "bool": (lambda v: isinstance(v, bool), "a valid boolean"),
    "int": (_is_int, "a valid integer"),
    "number": (_is_number, "a valid number"),
}


def _need(value, kind: str, where: str) -> None:
    """Raise the pydantic-style 400 unless ``value`` is of ``kind`` (str, list, dict, bool, int, number)."""
    ok, what = _KINDS[kind]
    if not ok(value):
        raise _bad(f"{where}: Input should be {what}")


def _required(obj: dict, key: str, kind: str, where: str) -> None:
    if key not in obj:
        raise _bad(f"{where}.{key}: Field required")
    _need(obj[key], kind, f"{where}.{key}")


def _optional(obj: dict, key: str, kind: str, where: str = "") -> None:
    if obj.get(key) is not None:
        _need(obj[key], kind, f"{where}.{key}" if where else key)


def _check_cache_control(value, where: str) -> None:
    if value is None:
        return
    _need(value, "dict", where)
    if value.get("type") != "ephemeral":
        raise _bad(f"{where}.type: Input should be 'ephemeral'")
    if value.get("ttl") is not None and value["ttl"] not in ("5m", "1h"):
        raise _bad(f"{where}.ttl: Input should be '5m' or '1h'")
    for key in value:
        if key not in ("type", "ttl"):
            raise _bad(f"{where}.{key}: Extra inputs are not permitted")


_BLOCK_FIELDS = {  # the required fields of a content block that the offline model reads, by block type
    "text": {"text": "str"},
    "tool_use": {"id": "str", "name": "str", "input": "dict"},
    "server_tool_use": {"id": "str", "name": "str", "input": "dict"},
    "tool_result": {"tool_use_id": "str"},
    "thinking": {"thinking": "str", "signature": "str"},
    "redacted_thinking": {"data": "str"},
    "image": {"source": "dict"},
    "document": {"source": "dict"},
}


def _check_block(block, where: str, allowed=BLOCK_TYPES) -> None:
    """The type of one content block and of the fields the offline model reads from it."""
    if not isinstance(block, dict) or "type" not in block:
        raise _bad(f"{where}: Input should be a valid dictionary with a `type`")
    kind = block["type"]
    if not isinstance(kind, str) or kind not in allowed:
        raise _tag_error(where, kind, allowed)
    if "cache_control" in block:
        _check_cache_control(block["cache_control"], f"{where}.cache_control")
    for key, key_kind in _BLOCK_FIELDS.get(kind, {}).items():
        _required(block, key, key_kind, where)
    if kind == "tool_result":
        _optional(block, "is_error", "bool", where)
        content = block.get("content")
        if content is not None and not isinstance(content, (str, list)):
            raise _bad(f"{where}.content: Input should be a valid string or a valid list")
        for i, inner in enumerate(content if isinstance(content, list) else []):
            _check_block(inner, f"{where}.content.{i}", RESULT_TYPES)


def _check_fields(body: dict) -> None:
    """Every optional top-level field the offline model reads: of the right type, in the live API's words."""
    system = body.get("system")
    if system is not None and not isinstance(system, (str, list)):
        raise _bad("system: Input should be a valid string or a valid list")
    for i, block in enumerate(system if isinstance(system, list) else []):
        _need(block, "dict", f"system.{i}")
        if block.get("type") != "text":
            raise _bad(f"system.{i}.type: Input should be 'text'")
        _required(block, "text", "str", f"system.{i}")
        if "cache_control" in block:
            _check_cache_control(block["cache_control"], f"system.{i}.cache_control")
    if body.get("stop_sequences") is not None:
        _need(body["stop_sequences"], "list", "stop_sequences")
        for i, sequence in enumerate(body["stop_sequences"]):
            _need(sequence, "str", f"stop_sequences.{i}")
    for key, kind in (("temperature", "number"), ("top_p", "number"), ("top_k", "int")):
        _optional(body, key, kind)
    if body.get("metadata") is not None:
        _need(body["metadata"], "dict", "metadata")
        for key, value in body["metadata"].items():
            if key != "user_id":
                raise _bad(f"metadata.{key}: Extra inputs are not permitted")
            if value is not None:
                _need(value, "str", "metadata.user_id")
    if "cache_control" in body:
        _check_cache_control(body["cache_control"], "cache_control")
    choice = body.get("tool_choice")
    if choice is not None:
        _need(choice, "dict", "tool_choice")
        if "type" not in choice:
            raise _bad("tool_choice: Unable to extract tag using discriminator 'type'")
        if choice["type"] not in ("auto", "any", "tool", "none"):
            raise _tag_error("tool_choice", choice["type"], ("auto", "any", "tool", "none"))
        if choice["type"] == "tool":
            _required(choice, "name", "str", "tool_choice.tool")
        _optional(choice, "disable_parallel_tool_use", "bool", f"tool_choice.{choice['type']}")
    thinking = body.get("thinking")
    if thinking is not None:
        _need(thinking, "dict", "thinking")
        kinds = ("enabled", "disabled", "adaptive")
        if thinking.get("type") not in kinds:
            raise _tag_error("thinking", thinking.get("type"), kinds)
        if thinking["type"] == "enabled":
            _required(thinking, "budget_tokens", "int", "thinking.enabled")
            if thinking["budget_tokens"] < 1024:
                raise _bad("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
            if _is_int(body.get("max_tokens")) and body["max_tokens"] <= thinking["budget_tokens"]:
                raise _bad("`max_tokens` must be greater than `thinking.budget_tokens`.")


def _depth_ok(body, limit: int) -> bool:
    """Is ``body`` nested at most ``limit`` levels deep? Level by level, so a deep body cannot exhaust the stack."""
    level, depth = [body], 1
    while level:
        if depth > limit:
            return False
        level = [child for value in level for child in (value.values() if type(value) is dict else value)
                 if type(child) is dict or type(child) is list]
        depth += 1
    return True


# ---- the rules ----------------------------------------------------------------------------------------

def _check_tools(tools) -> None:
    if not isinstance(tools, list):
        raise _bad("tools: Input should be a valid list")
    names = set()
    for n, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise _bad(f"tools.{n}: Input should be a valid dictionary")
        if "cache_control" in tool:
            _check_cache_control(tool["cache_control"], f"tools.{n}.cache_control")
        if tool.get("type") not in (None, "custom"):
            # a server tool (web_search_…, bash_…): not modelled, accepted as is once its type and name are strings
            _need(tool["type"], "str", f"tools.{n}.type")
            _optional(tool, "name", "str", f"tools.{n}")
            continue
        name = tool.get("name")
        if name is None:
            raise _bad(f"tools.{n}.custom.name: Field required")
        if not isinstance(name, str) or not _TOOL_NAME.match(name):
            raise _bad(f"tools.{n}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{{1,64}}$'")
        _optional(tool, "description", "str", f"tools.{n}.custom")
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
            _check_block(block, f"messages.{n}.content.{k}")
            if block["type"] == "text" and not block["text"]:
                raise _bad("messages: text content blocks must be non-empty")
        if content == [] and not (n == len(messages) - 1 and message["role"] == "assistant"):
            raise _bad(f"messages.{n}: all messages must have non-empty content except for the optional final assistant message")
    if messages[0]["role"] != "user":
        raise _bad('messages: first message must use the "user" role')

    seen_ids = set()  # every tool_use id of the request: the live API refuses one used twice
    for n, message in enumerate(messages):
        blocks = _blocks(message["content"])
        if message["role"] == "assistant":
            for k, block in enumerate(blocks):
                if block["type"] == "tool_use":
                    if block["id"] in seen_ids:
                        raise _bad(_DUPLICATE_TOOL_USE.format(n=n, k=k))
                    seen_ids.add(block["id"])
            ids = [b["id"] for b in blocks if b["type"] == "tool_use"]
            if ids and n + 1 < len(messages):
                following = messages[n + 1]
                answered = set()
                if following["role"] == "user":
                    for block in _blocks(following["content"]):
                        if block["type"] != "tool_result":
                            break  # tool_result blocks must come first
                        answered.add(block["tool_use_id"])
                missing = [i for i in ids if i not in answered]
                if missing:
                    raise _bad(_TOOL_USE_MISSING.format(n=n, ids=", ".join(missing)))
        else:
            previous = messages[n - 1] if n > 0 else None
            offered = set()
            if previous is not None and previous["role"] == "assistant":
                offered = {b["id"] for b in _blocks(previous["content"]) if b["type"] == "tool_use"}
            for k, block in enumerate(blocks):
                if block["type"] == "tool_result" and block["tool_use_id"] not in offered:
                    raise _bad(_UNEXPECTED_RESULT.format(n=n, k=k, id=block["tool_use_id"]))


def validate_request(body, *, count_tokens: bool = False) -> None:
    """Raise :class:`APIError` (400) for the first rule ``body`` breaks. See the module docstring."""
    if not isinstance(body, dict):
        raise _bad("Input should be a valid dictionary")
    if not _depth_ok(body, MAX_DEPTH):
        raise _bad(f"There was an error parsing the body of your request: it is nested more than {MAX_DEPTH} levels deep.")
    required = ("model", "messages") if count_tokens else ("model", "max_tokens", "messages")
    for field in required:
        if field not in body:
            raise _bad(f"{field}: Field required")
    if not isinstance(body["model"], str):
        raise _bad("model: Input should be a valid string")
    if not count_tokens:
        max_tokens = body["max_tokens"]
        if not _is_int(max_tokens):
            raise _bad("max_tokens: Input should be a valid integer")
        if max_tokens < 1:
            raise _bad("max_tokens: Input should be greater than or equal to 1")
        if max_tokens > MAX_OUTPUT_TOKENS:
            raise _bad(f"max_tokens: {max_tokens} > {MAX_OUTPUT_TOKENS}, which is the maximum allowed number of "
                       f"output tokens for {body['model']}")
        if body.get("stream") is not None:
            _need(body["stream"], "bool", "stream")
        if body.get("stream"):
            raise _bad(
                "stream: the offline model does not stream. Call messages.create() without stream=True "
                "(and not messages.stream()), or set ANTHROPIC_API_KEY to use the live API."
            )
    _check_fields(body)
    if "tools" in body:
        _check_tools(body["tools"])
    _check_messages(body["messages"])


def check_model(model: str) -> None:
    """404 ``not_found_error`` for a model id the SDK does not list (as live for retired/unknown ids)."""
    if model not in known_models():
        raise APIError(404, "not_found_error", f"model: {model}")
