"""The sandbox around each graded notebook's kernel: bubblewrap (`bwrap`, Linux).

`sandbox_available()` says whether bwrap can make a sandbox on this machine ("" when it can, else why not, in one
line); `sandbox_argv(workdir, hide)` is bwrap's command line for one kernel: every namespace new (no network, its
own processes), no capabilities, the system, Python and the kit read-only, writable only the notebook's own folder,
a private /tmp and a private workspace/scratch, and the folders in `hide` (the class, the CSV's folder, the other
notebooks') replaced by empty ones.

What it does NOT do: start anything (exercises/worker.py writes this command line into the kernel's spec); limit
CPU time or memory (the gradebook's per-cell and per-notebook timeouts stop a notebook); protect anything on a
machine where bwrap cannot run (the gradebook then grades UNSANDBOXED and says so in every row).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

SANDBOX_PROBE = ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--cap-drop", "ALL", "true"]


def sandbox_available() -> str:
    """"" when bubblewrap (`bwrap`, Linux) can make a sandbox here, else why not (one line)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        run = subprocess.run(SANDBOX_PROBE, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as err:
        return f"bwrap does not run: {err}"
    return "" if run.returncode == 0 else f"bwrap cannot make a sandbox here: {run.stderr.strip()[:200]}"


def sandbox_argv(workdir: Path, hide: list[str]) -> list[str]:
    """bwrap's arguments for one kernel: every namespace new (no network, its own processes, which all die with
    the notebook), no capabilities; the system, Python and the kit read-only; writable only its own folder, a
    private /tmp and a private workspace/scratch; the class folder, the CSV's folder and the other notebooks'
    folders (`hide`) replaced by empty ones."""
    ro = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", sys.base_prefix, sys.prefix,
          str(Path(sys.executable).resolve().parent.parent), str(ROOT)]
    argv = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for path in dict.fromkeys(ro):
        if os.path.islink(path) and path.count("/") == 1:  # /bin -> usr/bin on a merged-/usr system
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            argv += ["--ro-bind", os.path.realpath(path), os.path.realpath(path)]
    for path in dict.fromkeys(os.path.realpath(p) for p in [*hide, ROOT / "workspace" / "scratch"]):
        if os.path.isdir(path) and not HERE.resolve().is_relative_to(path):  # never the grader's own folder
            argv += ["--tmpfs", path]
    return argv + ["--bind", str(workdir), str(workdir), "--chdir", str(workdir), "--setenv", "HOME", "/tmp",
                   "--unsetenv", "JPY_PARENT_PID", "--unsetenv", "PYTHONPATH"]
