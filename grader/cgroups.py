"""A control group per sandbox, where the OS lets this process make one: the OS's own accounting of a kernel.

A sandbox's limits from rlimits (grader/sandbox.py) bind each process, and its tmpfs folders their bytes; none of
them counts what the kernel makes the host's kernel spend for it: the memory of every process together, the pages
of its tmpfs files, and the kernel memory of their inodes (an empty file has no bytes, and a tmpfs takes ~3 million
of them: 200,000 cost the host 160 MB it could not reclaim). A memory cgroup counts all of that, so where one can
be made every sandbox gets its own, made by the worker (`make`), entered by the kernel's launcher before bwrap
starts (`enter`: every process of the sandbox is in it), and removed when the kernel is gone (`remove`):
- memory: `--memory` plus what its tmpfs folders may hold (GROUP_EXTRA); past it the OS kills the kernel, and the
  row says the kernel died, killed by its cgroup's memory limit (`oom_killed`);
- processes: `--processes`, which holds for a root grader's sandboxes too.
Where: cgroup v2 when this process's own cgroup delegates the memory controller to its children (its
cgroup.subtree_control lists memory: a systemd unit with Delegate=yes, a container's root), else cgroup v1's
memory and pids hierarchies (root), each below this process's own cgroup, so the machine's own limits still hold.

Where none can be made (a grader that is not root, cgroup v2 without the memory controller delegated: a GitHub
runner's user), `make` returns [] with why, and what holds is the rest: each process's address space, each
tmpfs's bytes, the process limit. The number of empty files in a tmpfs is then bounded by nothing but the kernel's
own default (about one per page of half the host's memory): docs/teaching.md says so.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")


def _own() -> dict[str, str]:
    """This process's cgroup per hierarchy: {"": "/a/b"} (v2), {"memory": "/x", "pids": "/"} (v1)."""
    found = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) == 3:
            for controller in parts[1].split(",") if parts[1] else [""]:
                found[controller] = parts[2]
    return found


def _places() -> list[tuple[Path, dict[str, str]]]:
    """Where a sandbox's cgroup goes: [(parent folder, {file: limit key})], v2's one or v1's two."""
    own = _own()
    if "" in own and (CGROUP / "cgroup.controllers").is_file():  # v2 mounted at /sys/fs/cgroup
        parent = CGROUP / own[""].lstrip("/")
        try:
            delegated = (parent / "cgroup.subtree_control").read_text().split()
        except OSError:
            delegated = []
        if "memory" in delegated:
            return [(parent, {"memory.max": "memory", "memory.swap.max": "zero",
                              **({"pids.max": "processes"} if "pids" in delegated else {})})]
    places = []
    if "memory" in own and (CGROUP / "memory").is_dir():
        places.append((CGROUP / "memory" / own["memory"].lstrip("/"),
                       {"memory.limit_in_bytes": "memory", "memory.memsw.limit_in_bytes": "memory"}))
    if "pids" in own and (CGROUP / "pids").is_dir():
        places.append((CGROUP / "pids" / own["pids"].lstrip("/"), {"pids.max": "processes"}))
    return places if any("memory.limit_in_bytes" in files for _, files in places) else []


def make(name: str, memory: int, processes: int) -> tuple[list[str], str]:
    """([the sandbox's cgroup folders], "") with `memory` bytes and `processes` set; ([], why not) where none can be
    made here."""
    places = _places()
    if not places:
        return [], "no cgroup with the memory controller this process may divide (cgroup v2 delegated, or v1 as root)"
    made = []
    try:
        for parent, files in places:
            folder = parent / name
            folder.mkdir()
            made.append(str(folder))
            for file, key in files.items():
                if (folder / file).exists():
                    value = {"memory": memory, "processes": processes, "zero": 0}[key]
                    (folder / file).write_text(str(value))
    except OSError as err:
        remove(made)
        return [], f"a cgroup could not be made here: {err.strerror or err}"
    return made, ""


def enter(folders: list[str]) -> None:
    """Move this process (the kernel's launcher, before it becomes bwrap) into the sandbox's cgroups."""
    for folder in folders:
        Path(folder, "cgroup.procs").write_text(str(os.getpid()))


def oom_killed(folders: list[str]) -> bool:
    """True when the OS killed a process of the sandbox for its cgroup's memory limit."""
    for folder in folders:
        for file in ("memory.events", "memory.oom_control"):
            try:
                for line in Path(folder, file).read_text().splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill" and value.strip() not in ("", "0"):
                        return True
            except OSError:
                continue
    return False


def remove(folders: list[str], wait: float = 3) -> None:
    """Remove the sandbox's cgroups once their processes are gone (waits up to `wait` s for them to end)."""
    deadline = time.monotonic() + wait
    for folder in reversed(folders):
        while True:
            try:
                os.rmdir(folder)
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)


def sweep(prefix: str, wait: float = 5) -> None:
    """Remove this run's sandbox cgroups (named `prefix`...) that their workers could not: a sandbox's first process
    ends as a zombie that the host's init reaps when it gets to it, and until then its cgroup is busy."""
    found = [str(folder) for parent, _ in _places() for folder in parent.glob(f"{prefix}*") if folder.is_dir()]
    remove(found, wait)
