"""Test plumbing: a test run leaves the kit's work tree as it found it (tests/conftest.py's session hooks use this).

A run may write into the kit only under .test-output/ (git-ignored: the browser tests' screenshots, hypothesis's
example database). Everything the tools of the lessons and exercises write goes to a throwaway copy of workspace/
(tests/conftest.py points HARNESS_TOOL_ROOT at it), never into the kit's workspace/scratch/, where a learner who
ran the notebooks by hand keeps their own files.

At the start of a run `state()` notes `git status --ignored --porcelain` and a digest of every git-ignored file a
learner may have made (workspace/scratch/'s files, anything else ignored outside the skipped folders below); at
its end `left_behind()` lists every status line that differs and every such file that was changed or deleted, which
fails the run. Not counted: .test-output/, Python's bytecode caches (__pycache__/, written next to the modules by
imports, and on purpose by tests/conftest.py's compile_the_kit), and the folders of an install (.venv/, ...),
which are not read. Outside a git clone (no `git`, or an exported copy) nothing is checked.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

OUTPUT = ".test-output"  # the one folder a run writes into (tests/browser_support.py: OUTPUT)
# Folders in the kit that hold none of its sources: bytecode, JupyterLab's checkpoints, and the copies other tests
# and gradebook runs make in exercises/ while the run goes on (git-ignored, deleted again: `sources` leaves them out)
NOT_SOURCES = ("__pycache__", ".ipynb_checkpoints", "_grading_tmp_", "_browser_tmp_")
# Ignored folders whose files are not a learner's work: installs, caches, build output. Not read.
NOT_READ = {OUTPUT, "__pycache__", ".venv", "venv", "build", "node_modules", ".hypothesis", ".git", "mutants"}


def state(root: Path) -> tuple[set[str], dict[str, str]] | None:
    """(`git status --ignored --porcelain` lines, {path: sha256} of the ignored files), or None outside a clone."""
    if not (root / ".git").exists():
        return None
    try:
        status = subprocess.run(["git", "status", "--ignored", "--porcelain", "--untracked-files=normal"], cwd=root,
                                capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if status.returncode != 0:
        return None
    lines = set(status.stdout.splitlines())
    return lines, ignored_files(root, [_path(line) for line in lines if line.startswith("!! ")])


def ignored_files(root: Path, entries: list[str]) -> dict[str, str]:
    """{relative path: sha256} of the files in `entries` (git's ignored paths; a folder ends in /), folders walked,
    the NOT_READ folders and links left out."""
    digests = {}
    for entry in entries:
        path = root / entry
        if _skipped(entry):
            continue
        if path.is_dir() and not path.is_symlink():
            for folder, subfolders, files in os.walk(path):
                subfolders[:] = [name for name in subfolders if name not in NOT_READ and not name.endswith(".egg-info")]
                for name in files:
                    digests.update(_digest(root, Path(folder) / name))
        else:
            digests.update(_digest(root, path))
    return digests


def sources(folder: Path, suffix: str) -> list[Path]:
    """Every `suffix` file (".py", ".ipynb") under `folder`, sorted, none from a NOT_SOURCES folder. os.walk, not
    rglob: it passes over a folder another test deletes while it walks (rglob raises)."""
    found = []
    for where, subfolders, files in os.walk(folder):
        subfolders[:] = [name for name in subfolders if not name.startswith(NOT_SOURCES)]
        found += [Path(where, name) for name in files if name.endswith(suffix)]
    return sorted(found)


def kit_notebooks(folder: Path, pattern: str = "*.ipynb") -> list[Path]:
    """The notebooks in `folder` (not below it) that `pattern` matches and the kit holds: git's tracked ones in a
    checkout, else every one. (tests/test_grader_limits.py puts an untracked copy next to the starters for a
    moment, as a teacher might leave one: a test that lists the kit's notebooks meanwhile must not read it.)"""
    found = sorted(folder.glob(pattern))
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", "."], cwd=folder, capture_output=True, check=True,
                             timeout=30)
    except (OSError, subprocess.SubprocessError):
        return found
    tracked = {(folder / name).resolve() for name in out.stdout.decode().split("\0") if name}
    return [path for path in found if path.resolve() in tracked]


def left_behind(before: tuple[set[str], dict[str, str]], after: tuple[set[str], dict[str, str]]) -> list[str]:
    """The status lines in one state and not the other (new, changed or gone), except the ones not counted, then
    `changed: PATH` / `deleted: PATH` for every ignored file of the start that is not the same at the end."""
    lines = sorted(line for line in before[0] ^ after[0] if _counts(_path(line)))
    for path, digest in sorted(before[1].items()):
        if path not in after[1]:
            lines.append(f"deleted: {path}")
        elif after[1][path] != digest:
            lines.append(f"changed: {path}")
    return lines


def _path(line: str) -> str:
    return line[3:].split(" -> ")[-1].strip('"')


def _counts(path: str) -> bool:
    path = path.rstrip("/")
    return path != OUTPUT and not path.startswith(OUTPUT + "/") and "__pycache__" not in Path(path).parts


def _skipped(path: str) -> bool:
    parts = Path(path.rstrip("/")).parts
    return any(part in NOT_READ or part.endswith(".egg-info") for part in parts)


def _digest(root: Path, path: Path) -> dict[str, str]:
    if path.is_symlink() or not path.is_file():
        return {}
    try:
        with open(path, "rb") as file:
            return {path.relative_to(root).as_posix(): hashlib.file_digest(file, "sha256").hexdigest()}
    except OSError:
        return {}


def tool_root_copy(folder: Path) -> Path:
    """`folder` filled with a copy of the kit's workspace/ (README.md, notes/, ...) and an empty scratch/: the tools'
    root for a test's kernels (HARNESS_TOOL_ROOT), so a test never writes into the kit's own workspace/."""
    shutil.copytree(Path(__file__).resolve().parent.parent / "workspace", folder, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("scratch"))
    (folder / "scratch").mkdir()
    return folder
