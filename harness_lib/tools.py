"""The toy tools of the lesson, sandboxed, and run_tool(): the one place a tool call is run.

The lesson gives the model two harmless tools, get_time and read_file, so the stop_reason loop has
something to call. write_file and delete_file are demonstrators for valve 4, the approval gate: they
are in HIGH_IMPACT, so the loop asks a person before running them. read_file sees only the project
root (the repo's workspace/ folder by default); write_file and delete_file see only root/scratch/.

run_tool() (and arun_tool(), its async twin) is what the loop calls for each tool_use block: it finds
the tool, checks the model's input against the tool's input_schema with jsonschema (models do send bad
input), runs it, and turns every failure into (message, True). The model then gets an is_error
tool_result it can react to, and the harness does not crash.

How the sandbox confines a path, in two steps:
1. As text, the same way on every OS. The model writes POSIX-style relative paths ("notes/a.md").
   Absolute paths, drive letters ("C:\\x", "C:x"), UNC paths ("\\\\server\\share") and any backslash
   are refused outright, not translated; ".." may not climb out of the root (or, for write_file and
   delete_file, out of scratch/), and neither tool may target the scratch/ folder itself.
2. On disk, one name at a time from the root, never following a symbolic link, anywhere in the path,
   even one that points back inside the root. On POSIX the walk holds each folder open and looks the
   next name up inside it (os.open with dir_fd and O_NOFOLLOW, the openat() family), then checks what
   it opened with fstat: another process that swaps a folder for a link halfway through gets an error,
   never a file outside the root. Where the OS lacks dir_fd, O_NOFOLLOW or O_DIRECTORY (Windows), the
   walk falls back to paths: each name is checked with lstat, then the full path is opened and must
   still resolve() inside the root.

NOT handled, on purpose (this is a teaching kit, not a production sandbox):
- Races on the fallback walk: between its lstat checks and the open or unlink, another process can
  swap a folder for a link or a junction. The final resolve() check narrows that window; it does not
  close it. Without O_NONBLOCK, a file swapped for a FIFO after the check can block the tool.
- The root itself is trusted: it is resolved once, by make_tool_impls, following links. A folder that
  someone moves out of the root while a tool holds it open is not noticed.
- Case-insensitive file systems (the macOS and Windows defaults): "SCRATCH/x.txt" is the same folder
  as "scratch/x.txt", but the scratch check compares the text exactly, so it is refused (safe, if
  unfriendly). Windows' other name rules are not translated either (reserved names like CON or NUL,
  trailing dots and spaces, "a.txt:stream"); only regular files are read, written or deleted, which
  refuses the devices those names reach.
- No rate limits, no quota on how much gets written in total, no timeouts on a slow tool.
- Text is UTF-8 only: read_file refuses binary files and other encodings instead of guessing.
- Hard links are not detected: one made (from a shell) inside the root to a file elsewhere is read
  and written through. The tools themselves cannot make links.
"""

import asyncio
import codecs
import errno
import inspect
import os
import stat
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path, PurePosixPath, PureWindowsPath
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


class ToolError(Exception):
    """A failure the model should read: str(err) becomes the is_error tool_result's content."""


# --- step 1: the path as text --------------------------------------------------------------------

def _path_parts(path, tool: str, where: str) -> list[str]:
    """Check the model's path as text, the same way on every OS; return its names with ".." applied.

    Applying ".." to the text is safe only because the walk below never follows a link: without links,
    "a/.." on disk is the folder the text says. `where` names the area for the "may only touch" error.
    """
    if not isinstance(path, str):
        raise ToolError(f"{tool}: the path must be a string, not {type(path).__name__}")
    if "\0" in path:
        raise ToolError(f"{tool}: the path contains a NUL byte: {path!r}")
    try:  # a lone surrogate such as "\udc80" cannot be a file name (and would break the JSON reply)
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise ToolError(f"{tool}: the path is not valid Unicode text "
                        f"(it has a lone surrogate): {path!r}") from None
    # Windows would read "C:x" as a drive and "/x" or "\\server\share" as absolute: refuse them everywhere.
    windows = PureWindowsPath(path)
    if windows.drive.endswith(":"):
        raise ToolError(f"{tool}: drive letters are not allowed: {path} "
                        "(give a path relative to the project root)")
    if PurePosixPath(path).is_absolute() or windows.anchor:
        raise ToolError(f"{tool}: absolute paths are not allowed: {path} "
                        "(give a path relative to the project root)")
    if "\\" in path:
        raise ToolError(f"{tool}: backslashes are not allowed in paths: {path} (separate folders with /)")
    parts: list[str] = []
    for name in path.split("/"):
        if name == "..":
            if not parts:
                raise ToolError(f"{tool} may only touch files {where}: {path}")
            parts.pop()
        elif name not in ("", "."):
            parts.append(name)
    return parts


def _scratch_parts(path, tool: str) -> list[str]:
    """_path_parts for write_file and delete_file: a file inside scratch/, never scratch/ itself."""
    parts = _path_parts(path, tool, f"under {SCRATCH}/")
    if parts[:1] != [SCRATCH]:  # exact text: "SCRATCH" is refused even where the disk ignores case
        raise ToolError(f"{tool} may only touch files under {SCRATCH}/: {path}")
    if len(parts) == 1:
        raise ToolError(f"{tool}: {path} is the {SCRATCH}/ folder itself; "
                        f"give a file inside it, e.g. {SCRATCH}/notes.txt")
    return parts


# --- step 2: the path on disk --------------------------------------------------------------------

def _flag(name: str) -> int:
    """An os.O_* flag, or 0 where this OS has none. Looked up at each call, never at import."""
    return getattr(os, name, 0)


def _can_hold_folders() -> bool:
    """True where a folder can be held open and names looked up inside it without following links."""
    return (hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")
            and {os.open, os.stat, os.mkdir, os.unlink} <= os.supports_dir_fd
            and os.stat in os.supports_follow_symlinks)  # lstat inside a held folder


class _HeldFolder:
    """A folder held open by a file descriptor (POSIX). Each name is looked up inside this folder
    (dir_fd), and O_NOFOLLOW refuses a link at the moment of opening, so whatever another process
    renames meanwhile, what gets opened is in this folder and is not a link."""

    def __init__(self, fd: int):
        self.fd = fd

    @classmethod
    def open_root(cls, root: Path) -> "_HeldFolder":
        return cls(os.open(root, os.O_RDONLY | os.O_DIRECTORY))

    def lstat(self, name: str) -> os.stat_result:
        return os.stat(name, dir_fd=self.fd, follow_symlinks=False)

    def mkdir(self, name: str) -> None:
        os.mkdir(name, dir_fd=self.fd)

    def enter(self, name: str) -> "_HeldFolder":
        return _HeldFolder(os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=self.fd))

    def open(self, name: str, flags: int) -> int:
        # O_NONBLOCK: a FIFO opens at once instead of waiting for a writer (fstat then refuses it).
        return os.open(name, flags | os.O_NOFOLLOW | _flag("O_NONBLOCK"), 0o644, dir_fd=self.fd)

    def unlink(self, name: str) -> None:
        os.unlink(name, dir_fd=self.fd)  # removes the entry in this folder, even if it became a link

    def close(self) -> None:
        os.close(self.fd)


class _PathFolder:
    """The fallback where folders cannot be held open (Windows): a folder is a path. The walk has
    checked each name with lstat, and open/unlink check that the full path still resolves inside
    the root; a link swapped in between those two checks and the use is NOT caught (a race)."""

    def __init__(self, path: Path, root: Path):
        self.path, self.root = path, root

    def lstat(self, name: str) -> os.stat_result:
        return os.lstat(self.path / name)

    def mkdir(self, name: str) -> None:
        os.mkdir(self.path / name)

    def enter(self, name: str) -> "_PathFolder":
        return _PathFolder(self.path / name, self.root)

    def open(self, name: str, flags: int) -> int:
        # Each flag where the OS has it; O_BINARY (Windows only) stops "\n" from being written as "\r\n".
        extra = _flag("O_NOFOLLOW") | _flag("O_NONBLOCK") | _flag("O_BINARY")
        return os.open(self._still_inside(name), flags | extra, 0o644)

    def unlink(self, name: str) -> None:
        os.unlink(self._still_inside(name))

    def close(self) -> None:
        pass

    def _still_inside(self, name: str) -> Path:
        target = self.path / name
        if not target.resolve().is_relative_to(self.root):
            raise PermissionError(errno.EACCES, "it now leads out of the project root")
        return target


def _is_link(info: os.stat_result) -> bool:
    # st_reparse_tag (Windows only) is set for symlinks and junctions, which S_ISLNK misses.
    return stat.S_ISLNK(info.st_mode) or bool(getattr(info, "st_reparse_tag", 0))


def _require_regular(info: os.stat_result, shown: str, tool: str) -> None:
    """Refuse links, directories, FIFOs, devices and sockets: the tools handle regular files only."""
    if _is_link(info):
        raise ToolError(f"{tool}: {shown} is a symbolic link; links are not followed")
    if stat.S_ISDIR(info.st_mode):
        raise ToolError(f"{tool}: {shown} is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ToolError(f"{tool}: {shown} is not a regular file (pipes, devices and sockets are refused)")


@contextmanager
def _parent_folder(root: Path, parts: list[str], path: str, tool: str, *, create: bool = False):
    """Walk from the root to the folder that holds parts[-1], one name at a time, refusing links.
    create=True makes missing folders on the way (write_file: scratch/ and its subfolders)."""
    folder = _HeldFolder.open_root(root) if _can_hold_folders() else _PathFolder(root, root)
    try:
        for i, name in enumerate(parts[:-1]):
            here = "/".join(parts[: i + 1])
            try:
                info = folder.lstat(name)
            except FileNotFoundError:
                if not create:
                    raise ToolError(f"file not found: {path}") from None
                try:
                    folder.mkdir(name)
                except FileExistsError:  # made by someone else just now: check it like any folder
                    pass
                info = folder.lstat(name)
            if _is_link(info):
                raise ToolError(f"{tool}: {here} is a symbolic link; links are not followed (in {path})")
            if not stat.S_ISDIR(info.st_mode):
                if not create:
                    raise ToolError(f"file not found: {path}")
                raise ToolError(f"{tool}: {here} is a file, not a folder (in {path})")
            inner = folder.enter(name)  # the real guard: refuses a link swapped in since the lstat
            folder.close()
            folder = inner
        yield folder
    finally:
        folder.close()


def _open_file(folder, name: str, flags: int, path: str, tool: str, *, missing_ok: bool = False) -> int:
    """Open a regular file in `folder`: look first (so a device is not even opened), open without
    following a link, then check what was actually opened (fstat), which is the check that counts."""
    try:
        _require_regular(folder.lstat(name), path, tool)
    except FileNotFoundError:
        if not missing_ok:
            raise ToolError(f"file not found: {path}") from None
    fd = folder.open(name, flags)
    try:
        _require_regular(os.fstat(fd), path, tool)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def _os_errors(tool: str, path: str):
    """Turn an OSError (permission denied, name too long, a race lost, ...) into a one-line ToolError."""
    try:
        yield
    except OSError as err:
        raise ToolError(f"{tool}: cannot use {path}: {err.strerror or err}") from None


def make_tool_impls(root=DEFAULT_ROOT, *, clock=None) -> dict[str, Callable[[dict], str]]:
    """The implementations behind TOOLS, confined to `root`. `clock()` returns an aware datetime.

    `root` must be an existing folder (ValueError otherwise); write_file creates root/scratch/ on its
    first write. The root is resolved here, once, following links (see "The root itself is trusted").
    """
    root = Path(root)
    if not root.is_dir():
        problem = "is not a folder" if root.exists() else "does not exist"
        raise ValueError(f"the project root {problem}: {root}")
    root = root.resolve()
    now = clock or (lambda: datetime.now().astimezone())

    def get_time(tool_input: dict) -> str:
        return now().isoformat(timespec="seconds")  # e.g. 2025-01-31T14:05:09+01:00

    def read_file(tool_input: dict) -> str:
        """The first READ_LIMIT characters, exactly, with no note that the text was cut.

        Symbolic links are refused anywhere in the path. On POSIX the read cannot be raced out of the
        root; on the fallback walk (no dir_fd/O_NOFOLLOW) a folder swapped for a link at the wrong
        moment can still be followed: see the module docstring.
        """
        path = tool_input["path"]
        parts = _path_parts(path, "read_file", "inside the project root")
        if not parts:  # "." or "notes/..": the root itself
            raise ToolError(f"read_file: {path} is a directory, not a file")
        with _os_errors("read_file", path), _parent_folder(root, parts, path, "read_file") as folder:
            fd = _open_file(folder, parts[-1], os.O_RDONLY, path, "read_file")
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
        """Create or replace a file under scratch/ (making scratch/ and subfolders as needed).

        Links are refused, and an existing file is emptied only after it was opened and checked.
        The same races as read_file's apply on the fallback walk.
        """
        path, content = tool_input["path"], tool_input["content"]
        parts = _scratch_parts(path, "write_file")
        if not isinstance(content, str):
            raise ToolError(f"write_file: the content must be a string, not {type(content).__name__}")
        try:  # before anything is opened: bad content must not leave an emptied file behind
            data = content.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ToolError(f"write_file: the content is not valid Unicode text "
                            f"(a lone surrogate at character {err.start})") from None
        with _os_errors("write_file", path), \
                _parent_folder(root, parts, path, "write_file", create=True) as folder:
            fd = _open_file(folder, parts[-1], os.O_WRONLY | os.O_CREAT, path, "write_file", missing_ok=True)
            with open(fd, "wb") as f:
                f.truncate(0)
                f.write(data)
        return f"wrote {len(content)} characters to {'/'.join(parts)}"

    def delete_file(tool_input: dict) -> str:
        """Delete a regular file under scratch/: never a folder, and a link is refused, not followed.
        On POSIX the unlink happens inside the folder the walk checked (dir_fd), so it cannot be
        redirected; on the fallback walk it can, by the race the module docstring describes."""
        path = tool_input["path"]
        parts = _scratch_parts(path, "delete_file")
        with _os_errors("delete_file", path), _parent_folder(root, parts, path, "delete_file") as folder:
            try:
                _require_regular(folder.lstat(parts[-1]), path, "delete_file")
            except FileNotFoundError:
                raise ToolError(f"file not found: {path}") from None
            folder.unlink(parts[-1])
        return f"deleted {'/'.join(parts)}"

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
