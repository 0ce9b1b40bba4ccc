"""harness_lib.tools and harness_lib.sandbox away from POSIX.

The whole tool suite already runs twice (tests/test_tools.py's `platform` fixture): once as is, once with
O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY and dir_fd support taken away, as on Windows. This file adds what that
cannot show: that the module reads none of those at import time, and how Windows-only details are met.
"""

import os
import stat
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from harness_lib import sandbox

# Run in a fresh interpreter: the POSIX-only parts of `os` are gone BEFORE harness_lib.sandbox is imported.
WITHOUT_POSIX = """
import os, sys
from pathlib import Path
for name in ("O_NOFOLLOW", "O_NONBLOCK", "O_DIRECTORY"):
    if hasattr(os, name):
        delattr(os, name)
os.supports_dir_fd = set()
os.supports_follow_symlinks = set()

from harness_lib.sandbox import can_hold_folders
from harness_lib.tools import make_tool_impls, run_tool

root = Path(sys.argv[1])
(root / "README.md").write_text("hello", encoding="utf-8")
tools = make_tool_impls(root)
print(can_hold_folders())
print(run_tool(tools, "read_file", {"path": "README.md"}))
print(run_tool(tools, "write_file", {"path": "scratch/a/b.txt", "content": "made"}))
print(run_tool(tools, "read_file", {"path": "scratch/a/b.txt"}))
print(run_tool(tools, "delete_file", {"path": "scratch/a/b.txt"}))
print(run_tool(tools, "read_file", {"path": "..\\\\x"}))
"""


def test_the_module_imports_and_works_without_the_posix_only_flags(tmp_path):
    project = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(project)}
    done = subprocess.run([sys.executable, "-c", WITHOUT_POSIX, str(tmp_path)], capture_output=True, text=True, env=env,
                          cwd=project, timeout=120)
    assert done.stderr == ""
    assert done.stdout.splitlines() == [
        "False",
        "('hello', False)",
        "('wrote 4 characters to scratch/a/b.txt', False)",
        "('made', False)",
        "('deleted scratch/a/b.txt', False)",
        "('read_file: backslashes are not allowed in paths: ..\\\\x (separate folders with /)', True)",
    ]


def test_windows_junctions_count_as_links():
    # A junction is a directory to lstat on Windows; only st_reparse_tag (absent on POSIX) gives it away.
    junction = SimpleNamespace(st_mode=stat.S_IFDIR | 0o755, st_reparse_tag=0xA0000003)
    folder = SimpleNamespace(st_mode=stat.S_IFDIR | 0o755, st_reparse_tag=0)
    assert sandbox._is_link(junction)
    assert not sandbox._is_link(folder)
    assert sandbox._is_link(SimpleNamespace(st_mode=stat.S_IFLNK | 0o777))
