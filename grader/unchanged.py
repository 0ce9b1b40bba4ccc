"""The kit's files, unchanged afterwards: the gradebook snapshots every file of the kit before it grades and
compares afterwards (a changed file is reported, never written back: a person may be editing the kit meanwhile)."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def kit_files() -> list[Path]:
    """The kit's tracked files (git), else every file outside the venv, git, caches and grading folders."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30)
        return [ROOT / p for p in out.stdout.decode().split("\0") if p]
    except (OSError, subprocess.SubprocessError):
        # Not a git checkout (e.g. a Classroom repository's export): walk the folder, never into the skipped ones.
        # Another gradebook run in the same kit deletes its own _grading_tmp_ folder while this one walks: such
        # folders are not entered, and a folder that vanishes meanwhile is passed over (os.walk ignores it).
        skip = {".git", ".venv", "venv", "__pycache__", ".ipynb_checkpoints", "test-artifacts", ".test-output"}
        found = []
        for folder, subfolders, files in os.walk(ROOT):
            subfolders[:] = [d for d in subfolders if d not in skip and not d.startswith("_grading_tmp_")]
            found += [Path(folder, name) for name in files]
        return found


def snapshot(paths) -> dict:
    """path -> SHA-256 of its bytes (None: not a regular file, or unreadable); a symbolic link is not followed."""
    found = {}
    for p in paths:
        try:
            with open(p, "rb", opener=lambda path, flags: os.open(path, flags | getattr(os, "O_NOFOLLOW", 0)
                                                                   | getattr(os, "O_NONBLOCK", 0))) as f:
                found[p] = hashlib.file_digest(f, "sha256").hexdigest() if os.path.isfile(p) else None
        except OSError:
            found[p] = None
    return found


def changed(before: dict) -> list[Path]:
    return [p for p, data in before.items() if snapshot([p])[p] != data]
