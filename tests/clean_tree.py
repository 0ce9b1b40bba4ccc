"""Test plumbing: a test run leaves the kit's work tree as it found it (tests/conftest.py's session hooks use this).

A run may write into the kit only under .test-output/ (git-ignored: the browser tests' screenshots, hypothesis's
example database). At the start of a run `state()` notes `git status --ignored --porcelain` and the entries of
workspace/scratch/; at its end `forget_new_scratch()` deletes what the tools wrote into workspace/scratch/ meanwhile
(exercise 01 and lesson 05 write there on purpose: their tools' root is the kit's workspace/), and `left_behind()`
lists every status line that differs, which fails the run. Not counted: .test-output/, and Python's bytecode caches
(__pycache__/, written next to the modules by imports, and on purpose by tests/conftest.py's compile_the_kit).
Outside a git clone (no `git`, or an exported copy) nothing is checked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

OUTPUT = ".test-output"  # the one folder a run writes into (tests/browser_support.py: OUTPUT)


def state(root: Path) -> tuple[set[str], set[str]] | None:
    """(`git status --ignored --porcelain` lines, the entries of workspace/scratch/), or None outside a git clone."""
    if not (root / ".git").exists():
        return None
    try:
        status = subprocess.run(["git", "status", "--ignored", "--porcelain", "--untracked-files=normal"], cwd=root,
                                capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if status.returncode != 0:
        return None
    scratch = root / "workspace" / "scratch"
    return set(status.stdout.splitlines()), set(os.listdir(scratch)) if scratch.is_dir() else set()


def forget_new_scratch(root: Path, before: set[str]) -> list[str]:
    """Delete the entries of workspace/scratch/ that are not in `before`; returns their names."""
    scratch = root / "workspace" / "scratch"
    new = sorted(set(os.listdir(scratch)) - before) if scratch.is_dir() else []
    for name in new:
        path = scratch / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return new


def left_behind(before: set[str], after: set[str]) -> list[str]:
    """The status lines in one state and not the other (new, changed or gone), except the ones not counted."""
    def counts(line: str) -> bool:
        path = line[3:].split(" -> ")[-1].strip('"')
        return path.rstrip("/") != OUTPUT and not path.startswith(OUTPUT + "/") and "__pycache__" not in Path(path).parts
    return sorted(line for line in before ^ after if counts(line))
