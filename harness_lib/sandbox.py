"""How a path the model gives is confined to one folder (the project root): the tools' sandbox.

harness_lib.tools calls this module for every path a tool touches. It answers two questions:
which names a path stands for (checked as text), and how to reach them on disk without being led
out of the root (the walk). Every refusal is a ToolError, whose text the model reads.

1. As text, the same way on every OS (path_parts, scratch_parts). The model writes POSIX-style
   relative paths ("notes/a.md"). Absolute paths, drive letters ("C:\\x", "C:x"), UNC paths
   ("\\\\server\\share") and any backslash are refused outright, not translated; ".." may not climb
   out of the root (or, for write_file and delete_file, out of scratch/), and neither of those two
   may target the scratch/ folder itself.
2. On disk, one name at a time from the root, never following a symbolic link, anywhere in the
   path, even one that points back inside the root (parent_folder, open_file). On POSIX the walk
   holds each folder open and looks the next name up inside it (os.open with dir_fd and O_NOFOLLOW,
   the openat() family), then checks what it opened with fstat: another process that swaps a
   folder for a link halfway through gets an error, never a file outside the root. Where the OS
   lacks dir_fd, O_NOFOLLOW or O_DIRECTORY (Windows), the walk falls back to paths: each name is
   checked with lstat, then the full path is opened and must still resolve() inside the root.

NOT handled, on purpose (this is a teaching kit, not a production sandbox):
- Races on the fallback walk: between its lstat checks and the open or unlink, another process can
  swap a folder for a link or a junction. The final resolve() check narrows that window; it does not
  close it. Without O_NONBLOCK, a file swapped for a FIFO after the check can block the tool.
- The root itself is trusted: it is resolved once, by tools.make_tool_impls, following links. A
  folder that someone moves out of the root while a tool holds it open is not noticed.
- Case-insensitive file systems (the macOS and Windows defaults): "SCRATCH/x.txt" is the same folder
  as "scratch/x.txt", but the scratch check compares the text exactly, so it is refused (safe, if
  unfriendly). Windows' other name rules are not translated either (reserved names like CON or NUL,
  trailing dots and spaces, "a.txt:stream"); only regular files are opened or deleted, which
  refuses the devices those names reach.
- Hard links are not detected: one made (from a shell) inside the root to a file elsewhere is read
  and written through. The tools themselves cannot make links.
- What is read or written (sizes, encodings): that is the tools' business (harness_lib.tools).
"""

import errno
import os
import stat
from contextlib import contextmanager
from pathlib import Path, PurePosixPath, PureWindowsPath

SCRATCH = "scratch"
"""The one folder under the root that write_file and delete_file may touch."""


class ToolError(Exception):
    """A failure the model should read: str(err) becomes the is_error tool_result's content."""


# --- step 1: the path as text --------------------------------------------------------------------

def path_parts(path, tool: str, where: str) -> list[str]:
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
    """An os.O_* flag, or 0 where this OS has none. Looked up at each call, never at import."""
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
