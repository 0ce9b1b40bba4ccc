"""The toy tools of the lesson, and run_tool(): the one place a tool call is run.

get_time and read_file are harmless; write_file and delete_file, in HIGH_IMPACT, demonstrate valve 4 and touch only
root/scratch/. How a path is kept inside the root is harness_lib.sandbox's one idea. run_tool checks the model's
input against the tool's schema with jsonschema, runs the tool, and turns every failure into (message, True): an
is_error tool_result, never a crash. Contract: docs/architecture.md, "tools.py".

NOT handled, on purpose: what harness_lib.sandbox lists; rate limits, quotas, timeouts on a slow tool; text other
than UTF-8 (read_file refuses it rather than guess).
"""

import asyncio
import codecs
import inspect
import os
import sys
from datetime import datetime
from pathlib import Path
from typing import Callable

# Start-up time: jsonschema builds a large IRI grammar (~2 s) at import when the optional rfc3987_syntax is installed
# (JupyterLab pulls it in); no tool schema uses the "iri" format, so that optional import is skipped.
sys.modules.setdefault("rfc3987_syntax", None)  # type: ignore[arg-type]
from jsonschema import Draft202012Validator  # noqa: E402
from jsonschema.exceptions import best_match

from .sandbox import (SCRATCH, ToolError, open_file, os_errors, parent_folder, path_parts,
                      require_regular, scratch_parts)

READ_LIMIT = 2000  # read_file returns at most this many characters...
READ_BYTES = READ_LIMIT * 4  # ...read from at most this many bytes (a UTF-8 character is 1 to 4 bytes)
# The project root the tools see unless you give another: the folder HARNESS_TOOL_ROOT names, else the kit's
# workspace/ folder. (The kit's own test run points it at a throwaway copy, so it never touches your scratch/.)
DEFAULT_ROOT = Path(os.environ.get("HARNESS_TOOL_ROOT") or Path(__file__).resolve().parent.parent / "workspace")

# The lesson's set of actions that need a person's OK (valve 4). No http_post tool ships with the kit;
# it is listed because the lesson names it, so a tool you add under that name is gated too.
HIGH_IMPACT = frozenset({"write_file", "delete_file", "http_post"})

_PATH = {"type": "string", "minLength": 1, "maxLength": 255}


def _schema(properties: dict) -> dict:
    """A closed object schema (no extra keys) in which every property is required."""
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if properties:
        schema["required"] = list(properties)
    return schema


TOOLS = [
    {"name": "get_time",
     "description": "Get the current local time, as ISO 8601 with the UTC offset.",
     "input_schema": _schema({})},
    {"name": "read_file",
     "description": f"Read a UTF-8 text file in the project. Returns its first {READ_LIMIT} characters.",
     "input_schema": _schema({"path": _PATH | {"description": "Root-relative; use /, not \\."}})},
    {"name": "write_file",
     "description": f"Write a text file under {SCRATCH}/ (replaces it if it exists). Needs approval.",
     "input_schema": _schema({
         "path": _PATH | {"description": f"Root-relative; use /, not \\, e.g. {SCRATCH}/notes.txt."},
         "content": {"type": "string", "maxLength": 20_000}})},
    {"name": "delete_file",
     "description": f"Delete a file under {SCRATCH}/. Needs approval.",
     "input_schema": _schema({"path": _PATH | {"description": "Root-relative; use /, not \\."}})},
]


def make_tool_impls(root=DEFAULT_ROOT, *, clock=None) -> dict[str, Callable[[dict], str]]:
    """The implementations behind TOOLS, confined to `root` (an existing folder, resolved once); `clock()` returns
    an aware datetime. Each returns a string or raises ToolError."""
    root = Path(root)
    if not root.is_dir():
        problem = "is not a folder" if root.exists() else "does not exist"
        raise ValueError(f"the project root {problem}: {root}")
    root = root.resolve()
    now = clock or (lambda: datetime.now().astimezone())

    def get_time(tool_input: dict) -> str:
        return now().isoformat(timespec="seconds")  # e.g. 2025-01-31T14:05:09+01:00

    def read_file(tool_input: dict) -> str:
        """The first READ_LIMIT characters, exactly, with no note that the text was cut."""
        path = tool_input["path"]
        parts = path_parts(path, "read_file", "inside the project root")
        if not parts:  # "." or "notes/..": the root itself
            raise ToolError(f"read_file: {path} is a directory, not a file")
        with os_errors("read_file", path), parent_folder(root, parts, path, "read_file") as folder:
            fd = open_file(folder, parts[-1], os.O_RDONLY, path, "read_file")
            try:
                data = b""
                while len(data) < READ_BYTES and (chunk := os.read(fd, READ_BYTES - len(data))):
                    data += chunk
            finally:
                os.close(fd)
        if b"\0" in data:
            raise ToolError(f"read_file: {path} looks like a binary file (it contains NUL bytes)")
        try:  # stopped at the byte limit? Then the last character may be cut: final=False drops it
            text = codecs.getincrementaldecoder("utf-8")().decode(data, final=len(data) < READ_BYTES)
        except UnicodeDecodeError:
            raise ToolError(f"read_file: {path} is not a UTF-8 text file") from None
        return text[:READ_LIMIT]

    def write_file(tool_input: dict) -> str:
        """Create or replace a file under scratch/ (making scratch/ and subfolders as needed)."""
        path, content = tool_input["path"], tool_input["content"]
        parts = scratch_parts(path, "write_file")
        if not isinstance(content, str):
            raise ToolError(f"write_file: the content must be a string, not {type(content).__name__}")
        try:  # before anything is opened: bad content must not leave an emptied file behind
            data = content.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ToolError(f"write_file: the content is not valid Unicode text "
                            f"(a lone surrogate at character {err.start})") from None
        with os_errors("write_file", path), \
                parent_folder(root, parts, path, "write_file", create=True) as folder:
            fd = open_file(folder, parts[-1], os.O_WRONLY | os.O_CREAT, path, "write_file", missing_ok=True)
            with open(fd, "wb") as f:
                f.truncate(0)
                f.write(data)
        return f"wrote {len(content)} characters to {'/'.join(parts)}"

    def delete_file(tool_input: dict) -> str:
        """Delete a regular file under scratch/: never a folder; a link is refused, not followed."""
        path = tool_input["path"]
        parts = scratch_parts(path, "delete_file")
        with os_errors("delete_file", path), parent_folder(root, parts, path, "delete_file") as folder:
            try:
                require_regular(folder.lstat(parts[-1]), path, "delete_file")
            except FileNotFoundError:
                raise ToolError(f"file not found: {path}") from None
            folder.unlink(parts[-1])
        return f"deleted {'/'.join(parts)}"

    return {f.__name__: f for f in (get_time, read_file, write_file, delete_file)}


def _prepare(tool_impls, name, tool_input, tools) -> tuple[Callable | None, str | None]:
    """(impl, None) when the call may run, else (None, a message for the model)."""
    schemas = {t.get("name"): t.get("input_schema", {}) for t in tools}
    if name not in tool_impls or name not in schemas:
        available = ", ".join(n for n in schemas if n in tool_impls) or "none"
        return None, f"unknown tool: {name}. Available tools: {available}"
    if not isinstance(tool_input, dict):
        return None, f"invalid input for {name}: expected a JSON object, got {type(tool_input).__name__}"
    error = best_match(Draft202012Validator(schemas[name]).iter_errors(tool_input))
    if error is not None:
        message = error.message if len(error.message) <= 200 else error.message[:150] + " ... (cut)"
        field = f" (field '{'/'.join(map(str, error.absolute_path))}')" if error.absolute_path else ""
        return None, f"invalid input for {name}: {message}{field}"
    return tool_impls[name], None


def check_call(tool_impls: dict, name: str, tool_input, tools: list = TOOLS) -> str | None:
    """None when the call may run; otherwise why not, as run_tool would say it. The loop asks this before it
    asks a person, so nobody approves a call that cannot run."""
    try:
        return _prepare(tool_impls, name, tool_input, tools)[1]
    except Exception as err:  # a broken schema, say: the call cannot run
        return _failure(err)[0]


def _result(name: str, result) -> tuple[str, bool]:
    if not isinstance(result, str):
        return f"tool failed: {name} returned {type(result).__name__}, not a string", True
    return result, False


def _failure(err: Exception) -> tuple[str, bool]:
    if isinstance(err, ToolError):
        return str(err), True
    return f"tool failed: {type(err).__name__}: {err}", True


def run_tool(tool_impls: dict, name: str, tool_input, tools: list = TOOLS) -> tuple[str, bool]:
    """Run one tool call: (content, is_error). Never raises; every failure is a message for the model."""
    try:
        impl, problem = _prepare(tool_impls, name, tool_input, tools)
        return (problem, True) if problem else _result(name, impl(tool_input))
    except Exception as err:  # not BaseException: Ctrl-C and SystemExit still stop the harness
        return _failure(err)


async def arun_tool(tool_impls: dict, name: str, tool_input, tools: list = TOOLS) -> tuple[str, bool]:
    """run_tool for async loops: plain functions run in a worker thread, coroutine functions are awaited."""
    try:
        impl, problem = _prepare(tool_impls, name, tool_input, tools)
        if problem:
            return problem, True
        if inspect.iscoroutinefunction(impl):
            return _result(name, await impl(tool_input))
        return _result(name, await asyncio.to_thread(impl, tool_input))
    except Exception as err:
        return _failure(err)
