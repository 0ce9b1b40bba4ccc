"""The toy tools of the lesson, sandboxed, and run_tool(): the one place a tool call is run.

The lesson gives the model two harmless tools, get_time and read_file, so the stop_reason loop has
something to call. write_file and delete_file are demonstrators for valve 4, the approval gate: they
are in HIGH_IMPACT, so the loop asks a person before running them. read_file sees only the project
root (the repo's workspace/ folder by default); write_file and delete_file see only root/scratch/.

run_tool() (and arun_tool(), its async twin) is what the loop calls for each tool_use block: it finds
the tool, checks the model's input against the tool's input_schema with jsonschema (models do send bad
input), runs it, and turns every failure into (message, True). The model then gets an is_error
tool_result it can react to, and the harness does not crash.

NOT handled, on purpose (this is a teaching kit, not a production sandbox):
- POSIX only: no Windows drive letters, UNC paths, or case-insensitive file systems.
- Time-of-check to time-of-use races: a path is checked, then used. read_file closes the worst hole
  (the file swapped for a FIFO or a symlink after the check) with O_NONBLOCK|O_NOFOLLOW and a second
  check with fstat. write_file and delete_file can still be raced by another process that writes
  inside scratch/ at the same moment. A real sandbox walks paths with openat() or runs in an OS jail.
- No rate limits, no quota on how much gets written in total, no timeouts on a slow tool.
- Text is UTF-8 only: read_file refuses binary files and other encodings instead of guessing.
- delete_file follows symlinks: it deletes the file the path points to (only if that is in scratch/).
- Hard links are not detected: one made (from a shell) inside the root to a file elsewhere is read
  and written through. The tools themselves cannot make links.
"""

import asyncio
import codecs
import inspect
import os
import stat
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Callable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

READ_LIMIT = 2000  # read_file returns at most this many characters...
READ_BYTES = READ_LIMIT * 4  # ...read from at most this many bytes (a UTF-8 character is 1 to 4 bytes)
SCRATCH = "scratch"
DEFAULT_ROOT = Path(__file__).resolve().parent.parent / "workspace"

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
     "input_schema": _schema({"path": _PATH | {"description": "Relative to the project root."}})},
    {"name": "write_file",
     "description": f"Write a text file under {SCRATCH}/ (replaces it if it exists). Needs approval.",
     "input_schema": _schema({
         "path": _PATH | {"description": f"Relative to the project root, e.g. {SCRATCH}/notes.txt."},
         "content": {"type": "string", "maxLength": 20_000}})},
    {"name": "delete_file",
     "description": f"Delete a file under {SCRATCH}/. Needs approval.",
     "input_schema": _schema({"path": _PATH | {"description": "Relative to the project root."}})},
]


class ToolError(Exception):
    """A failure the model should read: str(err) becomes the is_error tool_result's content."""


def _inside(root: Path, path: str, area: Path, tool: str, where: str) -> Path:
    """Resolve `path` against `root`, symlinks followed, and require the result to be inside `area`."""
    if "\0" in path:
        raise ToolError(f"{tool}: the path contains a NUL byte: {path!r}")
    if Path(path).is_absolute():
        raise ToolError(f"{tool}: absolute paths are not allowed: {path} "
                        "(give a path relative to the project root)")
    try:  # strict=False: a missing file still resolves, so the tool can say "not found" itself
        resolved = (root / path).resolve(strict=False)
    except (OSError, RuntimeError) as err:  # RuntimeError: a symlink loop, on Python 3.11 and 3.12
        raise ToolError(f"{tool}: cannot resolve {path}: {err}") from None
    # is_relative_to compares whole path parts. str(resolved).startswith(str(area)) would be wrong:
    # with area /work/root, the string "/work/root-evil/secret" starts with "/work/root" too.
    if not resolved.is_relative_to(area):
        raise ToolError(f"{tool} may only touch files {where}: {path}")
    return resolved


def _require_file(target: Path, path: str, tool: str, missing_ok: bool = False) -> None:
    """Refuse directories, FIFOs, devices and sockets, by looking (stat) before anything is opened."""
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):
        if missing_ok:
            return
        raise ToolError(f"file not found: {path}") from None
    if stat.S_ISDIR(mode):
        raise ToolError(f"{tool}: {path} is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise ToolError(f"{tool}: {path} is not a regular file (pipes, devices and sockets are refused)")


@contextmanager
def _os_errors(tool: str, path: str):
    """Turn an OSError (permission denied, symlink loop, ...) into a ToolError naming the path."""
    try:
        yield
    except OSError as err:
        raise ToolError(f"{tool}: cannot use {path}: {err.strerror or err}") from None


def make_tool_impls(root=DEFAULT_ROOT, *, clock=None) -> dict[str, Callable[[dict], str]]:
    """The implementations behind TOOLS, confined to `root`. `clock()` returns an aware datetime."""
    root = Path(root).resolve()
    scratch = root / SCRATCH  # not resolved: a scratch/ that is a symlink out of root is refused
    now = clock or (lambda: datetime.now().astimezone())

    def get_time(tool_input: dict) -> str:
        return now().isoformat(timespec="seconds")  # e.g. 2025-01-31T14:05:09+01:00

    def read_file(tool_input: dict) -> str:
        """The first READ_LIMIT characters, exactly, with no note that the text was cut."""
        path = tool_input["path"]
        target = _inside(root, path, root, "read_file", "inside the project root")
        with _os_errors("read_file", path):
            _require_file(target, path, "read_file")
            # It may have become a FIFO or a symlink since the stat. O_NONBLOCK: opening a FIFO
            # returns at once instead of waiting for a writer. O_NOFOLLOW: refuse a symlink.
            fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):  # check what was actually opened
                    raise ToolError(f"read_file: {path} is not a regular file")
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
        path, content = tool_input["path"], tool_input["content"]
        target = _inside(root, path, scratch, "write_file", f"under {SCRATCH}/")
        with _os_errors("write_file", path):
            _require_file(target, path, "write_file", missing_ok=True)
            target.parent.mkdir(parents=True, exist_ok=True)  # target is in scratch/, so is its parent
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK | os.O_NOFOLLOW
            fd = os.open(target, flags, 0o644)
            with open(fd, "w", encoding="utf-8") as f:
                f.write(content)
        return f"wrote {len(content)} characters to {target.relative_to(root).as_posix()}"

    def delete_file(tool_input: dict) -> str:
        path = tool_input["path"]
        target = _inside(root, path, scratch, "delete_file", f"under {SCRATCH}/")
        with _os_errors("delete_file", path):
            _require_file(target, path, "delete_file")
            os.unlink(target)
        return f"deleted {target.relative_to(root).as_posix()}"

    return {f.__name__: f for f in (get_time, read_file, write_file, delete_file)}


def _prepare(tool_impls, name, tool_input, tools) -> tuple[Callable | None, str | None]:
    """(impl, None) when the call may run, else (None, a message for the model).

    A tool needs both an implementation and a schema: an impl without a schema would run unchecked,
    and a schema without an impl has nothing to run, so either way the name is an "unknown tool".
    """
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
    """run_tool for async loops: plain functions run in a worker thread, coroutine functions are
    awaited, so the tools of one turn can run at the same time (asyncio.gather). Cancellation of the
    awaiting task still propagates (a thread already running a plain function finishes on its own)."""
    try:
        impl, problem = _prepare(tool_impls, name, tool_input, tools)
        if problem:
            return problem, True
        if inspect.iscoroutinefunction(impl):
            return _result(name, await impl(tool_input))
        return _result(name, await asyncio.to_thread(impl, tool_input))
    except Exception as err:
        return _failure(err)
