"""How a path the model gives is confined to one folder (the tools' root): the tools' sandbox.

Two questions, each refusal a ToolError the model reads: which names a path stands for, checked as text the same way
on every OS (path_parts, scratch_parts: POSIX-style relative paths only; ".." may not climb out), and how to reach
them on disk without being led out (the walk: one name at a time, never following a link; on POSIX with dir_fd and
O_NOFOLLOW, race-free; elsewhere by lstat and resolve()).

NOT handled (a teaching kit, not a production sandbox): races on the fallback walk (Windows); a root that is itself
moved; case-insensitive file systems (refused, safe if unfriendly) and Windows' other name rules; hard links made
from a shell inside the root.
"""

import errno
import os
import stat
from contextlib import contextmanager
from pathlib import Path, PurePosixPath, PureWindowsPath

SCRATCH = "scratch"  # the one folder under the root that write_file and delete_file may touch


class ToolError(Exception):
    """A failure the model should read: str(err) becomes the is_error tool_result's content."""


# --- step 1: the path as text --------------------------------------------------------------------

def path_parts(path, tool: str, where: str) -> list[str]:
    """Check the model's path as text, the same way on every OS; return its names with ".." applied."""
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


def scratch_parts(path, tool: str) -> list[str]:
    """path_parts for write_file and delete_file: a file inside scratch/, never scratch/ itself."""
    parts = path_parts(path, tool, f"under {SCRATCH}/")
    if parts[:1] != [SCRATCH]:  # exact text: "SCRATCH" is refused even where the disk ignores case
        raise ToolError(f"{tool} may only touch files under {SCRATCH}/: {path}")
    if len(parts) == 1:
        raise ToolError(f"{tool}: {path} is the {SCRATCH}/ folder itself; "
                        f"give a file inside it, e.g. {SCRATCH}/notes.txt")
    return parts


# --- step 2: the path on disk --------------------------------------------------------------------

def _flag(name: str) -> int:
    """An os.O_* flag, or 0 where this OS has none (looked up at each call)."""
    return getattr(os, name, 0)


def can_hold_folders() -> bool:
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


def require_regular(info: os.stat_result, shown: str, tool: str) -> None:
    """Refuse links, directories, FIFOs, devices and sockets: the tools handle regular files only."""
    if _is_link(info):
        raise ToolError(f"{tool}: {shown} is a symbolic link; links are not followed")
    if stat.S_ISDIR(info.st_mode):
        raise ToolError(f"{tool}: {shown} is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ToolError(f"{tool}: {shown} is not a regular file (pipes, devices and sockets are refused)")


@contextmanager
def parent_folder(root: Path, parts: list[str], path: str, tool: str, *, create: bool = False):
    """Walk from the root to the folder that holds parts[-1], one name at a time, refusing links.
    create=True makes missing folders on the way (write_file: scratch/ and its subfolders)."""
    folder = _HeldFolder.open_root(root) if can_hold_folders() else _PathFolder(root, root)
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


def open_file(folder, name: str, flags: int, path: str, tool: str, *, missing_ok: bool = False) -> int:
    """Open a regular file in `folder`: look first (so a device is not even opened), open without
    following a link, then check what was actually opened (fstat), which is the check that counts."""
    try:
        require_regular(folder.lstat(name), path, tool)
    except FileNotFoundError:
        if not missing_ok:
            raise ToolError(f"file not found: {path}") from None
    fd = folder.open(name, flags)
    try:
        require_regular(os.fstat(fd), path, tool)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextmanager
def os_errors(tool: str, path: str):
    """Turn an OSError (permission denied, name too long, a race lost, ...) into a one-line ToolError."""
    try:
        yield
    except OSError as err:
        raise ToolError(f"{tool}: cannot use {path}: {err.strerror or err}") from None
