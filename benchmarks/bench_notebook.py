"""Where one graded notebook's seconds go: the gradebook's steps timed one by one, in this process, with the CPU
time of every process involved (this one, and the worker's kernel with everything under it, read from /proc while
it lives), next to the learner's own command on the same notebook.

    python benchmarks/bench_notebook.py [NOTEBOOK] [--sandbox bwrap|none] [--repeat N]
    python benchmarks/bench_notebook.py [NOTEBOOK] --whole N [--repeat R]    (Linux, root: a cgroup per command)

NOTEBOOK: default exercises/solutions/01_tiered_policy.ipynb. The steps: the gradebook's start (its imports), the
kit's snapshot (before and after), reading and refusing the submission (`prepare`), the learner's view of the kit
(sandboxed: copied once per class), the worker's imports (the notebook machinery and the judge, which imports the
SDK), the kernel's start (in bubblewrap, sandboxed), then each cell by kind: the first seal (it imports the kit in
the kernel), the learner's and the kit's cells, each check's line (the judge's questions), the seals after checks;
and the kernel's stop. Linux only (/proc). CPU-seconds are the figure to trust on a shared machine; wall-clock
seconds are printed too. Not a test.

The steps run in this one process, so they cannot show what a class pays: workers forked from the gradebook's warm
process (grader/workers.py), each notebook's share of the warm process and of the gradebook's own. `--whole N`
times whole commands instead, in turn, R times: the learner's command on the notebook, the gradebook on it alone,
and the gradebook on N copies of it with -j 1 and with -j 2 (sandboxed); each command in a cgroup of its own, whose
CPU counter holds every process it started, reaped or not (the warm process, the workers, bwrap, the kernels),
which the OS's accounting of a finished child (`/usr/bin/time`) does not. It prints each run, then the medians:
a notebook's CPU-s and wall-clock seconds against the learner's command, and -j 2 against -j 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(pid: int) -> float:
    """CPU-seconds of `pid` and every living process under it (/proc), plus what each has reaped."""
    children = defaultdict(list)
    stats = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                fields = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children[int(fields[1])].append(int(entry.name))
            stats[int(entry.name)] = sum(int(x) for x in fields[11:15]) / TICK  # utime stime cutime cstime
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, 0.0)
        todo += children.get(p, [])
    return total


class Clock:
    """Wall and CPU seconds per step; CPU = this process (self and reaped children) + the kernel's tree."""

    def __init__(self) -> None:
        self.steps = defaultdict(lambda: [0.0, 0.0, 0])
        self.kernel = None

    def cpu(self) -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system + (tree_cpu(self.kernel) if self.kernel else 0)

    def timed(self, name, fn, *args, **kwargs):
        wall, cpu = time.perf_counter(), self.cpu()
        try:
            return fn(*args, **kwargs)
        finally:
            step = self.steps[name]
            step[0] += time.perf_counter() - wall
            step[1] += self.cpu() - cpu
            step[2] += 1


def measure(notebook: Path, sandbox: str) -> Clock:
    clock = Clock()
    for name, modules in (("the gradebook's imports (a process of its own)", "grader.gradebook"),
                          ("the worker's imports (nbclient, the judge, the SDK; once a class when forked)",
                           "grader.worker, nbclient, grader.judge"),
                          ("the judge's grader (grading: the SDK, the checks; once a class when forked)",
                           "sys; sys.path.insert(0, 'exercises'); import grading")):
        start = subprocess.run([sys.executable, "-c", "import time, resource; t = time.perf_counter(); "
                                f"import {modules}; r = resource.getrusage(resource.RUSAGE_SELF); "
                                "print(time.perf_counter() - t, r.ru_utime + r.ru_stime)"],
                               cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
        clock.steps[name] = [float(start[0]), float(start[1]), 1]
    from exercises import lock as kit_lock
    from grader import gradebook
    from grader.sandbox import learner_view
    from grader.submissions import prepare
    from grader.unchanged import changed, kit_files, snapshot

    before = clock.timed("the kit's snapshot, before", lambda: snapshot(kit_files()))
    lock = kit_lock.load_lock()
    starters = {name: [json.loads(p.read_text(encoding="utf-8")) for p in (gradebook.EXERCISES / name,
                                                                            *sorted(gradebook.EXERCISES.glob(f"*/{name}")))
                       if p.is_file() and p.parent.name != "solutions" and not p.parent.name.startswith("_")]
                for name in lock["notebooks"]}
    (job,) = gradebook.discover(notebook)
    clock.timed("reading and refusing it (prepare)", prepare, job, lock, starters)
    tmp = Path(tempfile.mkdtemp(prefix="_grading_tmp_bench_", dir=gradebook.EXERCISES))
    try:
        view = None
        if sandbox == "bwrap":
            view = clock.timed("the learner's view of the kit (once a class)", learner_view, tmp / "view")
        workdir = tmp / "nb"
        workdir.mkdir()
        run_worker(clock, job, workdir, view, sandbox, tmp, notebook)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    clock.timed("the kit's snapshot, after", changed, before)
    return clock


def run_worker(clock: Clock, job, workdir: Path, view, sandbox: str, tmp: Path, notebook: Path) -> None:
    """The worker's `_worker`, in this process, each of its steps timed."""
    import nbclient

    from grader import judge as judging
    from grader import worker

    sys.path.insert(0, str(ROOT / "exercises"))
    import grading  # noqa: F401 - timed above, in a process of its own: here it is not the kernel's start's

    kinds = {}
    real_execute, real_setup = nbclient.NotebookClient.execute_cell, nbclient.NotebookClient.setup_kernel
    first = []

    def execute_cell(self, cell, index, *a, **k):
        tags = cell.metadata.get("tags", [])
        source = "".join(cell.source)
        kind = ("the first seal (imports the kit in the kernel)" if not first else "a seal after a check") \
            if "__gradebook_seal" in source else "a check's line (the judge's questions)" if "defendant" in source \
            else "the learner's cells" if {"exercise", "added"} & set(tags) else "the kit's cells (setup, given code)"
        first.append(1)
        kinds[kind] = kinds.get(kind, 0) + 1
        return clock.timed(kind, real_execute, self, cell, index, *a, **k)

    import contextlib

    @contextlib.contextmanager
    def setup_kernel(self, **kwargs):
        wall, cpu = time.perf_counter(), clock.cpu()
        with real_setup(self, **kwargs):
            clock.kernel = self.km.provisioner.process.pid
            step = clock.steps["the kernel's start (its process and its sockets)"]
            step[0] += time.perf_counter() - wall
            step[1] += clock.cpu() - cpu
            step[2] += 1
            try:
                yield
            finally:
                wall, cpu = time.perf_counter(), clock.cpu()
        step = clock.steps["the kernel's stop"]
        step[0] += time.perf_counter() - wall
        step[1] += clock.cpu() - cpu + 0  # (what the kernel spent, reaped now, is in the children's times)
        step[2] += 1
        clock.kernel = None

    nbclient.NotebookClient.execute_cell, nbclient.NotebookClient.setup_kernel = execute_cell, setup_kernel
    args = worker.parser().parse_args(["--worker", "--sandbox", sandbox, "--lang", job.lang, "--cell-timeout", "60",
                                       f"--hide={notebook.parent}", f"--hide={tmp}"] + ([f"--view={view}"] if view else []))
    saved, env = os.getcwd(), dict(os.environ)
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update(worker.kernel_env())
    try:
        report = worker._worker(args, json.dumps(job.graded))
    finally:
        os.chdir(saved)
        os.environ.clear()
        os.environ.update(env)
        nbclient.NotebookClient.execute_cell, nbclient.NotebookClient.setup_kernel = real_execute, real_setup
    assert judging  # (imported above, timed)
    checks = [c for c in report["cells"] if c["kind"] == "check"]
    print(f"{notebook.name}: {sum(c['status'] == 'ok' for c in checks)} of {len(checks)} checks ran to their end")


def learner(notebook: Path) -> tuple[float, float]:
    """(wall, CPU-s) of the learner's command on the notebook: pytest --nbval-lax, from its folder."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = ROOT / "exercises" / f"_bench_{os.getpid()}_{notebook.name}"
        shutil.copy(notebook, copy)
        try:
            env = {**os.environ, "HARNESS_OFFLINE": "1", "PYTHON_DOTENV_DISABLED": "1", "HARNESS_TOOL_ROOT": tmp}
            shutil.copytree(ROOT / "workspace", tmp, dirs_exist_ok=True)
            wall = time.perf_counter()
            before = os.times()
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax", str(copy)],
                           cwd=ROOT / "exercises", env=env, capture_output=True, check=True)
            after = os.times()
            return time.perf_counter() - wall, (after.children_user + after.children_system
                                                - before.children_user - before.children_system)
        finally:
            copy.unlink()


# ---- --whole: each command as a whole, every process it starts counted by the OS (a cgroup of its own) ----------

def cgroup_cpu_folder() -> Path:
    """A fresh cgroup for one command: cgroup v1's cpuacct (as root), or a child of this process's cgroup v2 (where
    it may make one). Its CPU counter covers every process the command starts, reaped or not: the forkserver, the
    workers, bwrap, the kernels. SystemExit where none can be made."""
    own = dict(line.split(":", 2)[1:] for line in Path("/proc/self/cgroup").read_text().splitlines())
    v1 = Path("/sys/fs/cgroup/cpuacct")
    parent = v1 / own.get("cpuacct", own.get("cpu,cpuacct", "/")).lstrip("/") if (v1 / "cpuacct.usage").exists() \
        else Path("/sys/fs/cgroup") / own.get("", "/").lstrip("/")
    folder = parent / f"bench-notebook-{os.getpid()}-{time.monotonic_ns()}"
    try:
        folder.mkdir()
    except OSError as err:
        raise SystemExit(f"--whole needs a cgroup of its own to count every process (root, or a delegated cgroup "
                         f"v2): {err}") from None
    return folder


def cgroup_seconds(folder: Path) -> float:
    if (folder / "cpuacct.usage").exists():
        return int((folder / "cpuacct.usage").read_text()) / 1e9
    stat = dict(line.split() for line in (folder / "cpu.stat").read_text().splitlines())
    return int(stat["usage_usec"]) / 1e6


KINDS = (("ipykernel_launcher", "kernels"), ("bwrap", "sandboxes (bwrap)"), ("sandbox.py", "sandboxes (bwrap)"),
         ("pytest", "the learner's command (pytest, nbval)"), ("grader.gradebook", "the gradebook's own process"))


def kind_of(pid: int, parent: int, top: int, cmdline: str) -> str:
    if pid == top:
        return "the gradebook's own process" if "grader.gradebook" in cmdline else "the learner's command (pytest, nbval)"
    if "forkserver" in cmdline:
        return "the warm process (imports, once a class)" if parent == top else "forked workers"
    if "grader/worker.py" in cmdline:
        return "the worker (python -I grader/worker.py)"
    return next((name for mark, name in KINDS if mark in cmdline), "other")


def whole(command: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, dict]:
    """(wall s, CPU-s of every process `command` started, once all of them have ended, {kind: CPU-s}); the kinds
    (kernels, workers...) from each process's own CPU read every 20 ms while it lives, so each loses its last few
    milliseconds: their sum is a little under the whole."""
    folder = cgroup_cpu_folder()
    seen, kinds = {}, {}
    errors = tempfile.TemporaryFile()
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors,
                                preexec_fn=lambda: (folder / "cgroup.procs").write_text(str(os.getpid())))
        deadline = None
        while True:
            pids = [int(p) for p in (folder / "cgroup.procs").read_text().split()]
            for pid in pids:
                try:
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    # (read again each time: a process forked to exec another program has its parent's at first;
                    # a zombie has none, and an orphan another parent)
                    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    if cmdline and cmdline != kinds.get(pid, ("", ""))[0]:
                        kinds[pid] = (cmdline, kind_of(pid, int(fields[1]), proc.pid, cmdline))
                    seen[pid] = (int(fields[11]) + int(fields[12])) / TICK  # its own utime + stime
                except (OSError, IndexError, ValueError):
                    continue
            if deadline is None and proc.poll() is not None:
                wall = time.perf_counter() - start
                deadline = time.monotonic() + 30  # what it left behind (a forkserver, a sandbox's last process) ends
            if deadline is not None and (not pids or time.monotonic() > deadline):
                break
            time.sleep(0.02)
        if proc.returncode:
            errors.seek(0)
            raise SystemExit(f"{command} ended with {proc.returncode}: {errors.read().decode()[-2000:]}")
        by_kind = defaultdict(float)
        for pid, cpu in seen.items():
            by_kind[kinds.get(pid, ("", "other"))[1]] += cpu
        return wall, cgroup_seconds(folder), dict(by_kind)
    finally:
        errors.close()
        for _ in range(100):
            try:
                folder.rmdir()
                break
            except OSError:
                time.sleep(0.05)


def whole_runs(notebook: Path, n: int, repeat: int) -> None:
    """The learner's command on `notebook`, the gradebook on it alone, and on `n` copies with -j 1 and -j 2, in
    turn, `repeat` times; each as whole processes (`whole`)."""
    work = Path(tempfile.mkdtemp(prefix="bench-notebook-"))
    try:
        for i in range(n):
            (work / "class" / f"learner{i:02d}").mkdir(parents=True)
            shutil.copy(notebook, work / "class" / f"learner{i:02d}" / notebook.name)
        (work / "one").mkdir()
        shutil.copy(notebook, work / "one" / notebook.name)
        shutil.copytree(ROOT / "workspace", work / "tools", dirs_exist_ok=True)
        learner_env = {**os.environ, "HARNESS_OFFLINE": "1", "PYTHON_DOTENV_DISABLED": "1",
                       "HARNESS_TOOL_ROOT": str(work / "tools")}
        gradebook = [sys.executable, "-m", "grader.gradebook", "--sandbox", "bwrap", "--out", str(work / "grades.csv")]
        copy = ROOT / "exercises" / f"_bench_{os.getpid()}_{notebook.name}"  # where a learner's notebook is
        shutil.copy(notebook, copy)
        runs = {"the learner's command (pytest --nbval-lax), one notebook":
                    ([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--nbval-lax", copy.name],
                     copy.parent, learner_env, 1),
                "the gradebook, one notebook (-j 1)": (gradebook + [str(work / "one"), "-j", "1"], ROOT, None, 1),
                f"the gradebook, {n} notebooks, -j 1": (gradebook + [str(work / "class"), "-j", "1"], ROOT, None, n),
                f"the gradebook, {n} notebooks, -j 2": (gradebook + [str(work / "class"), "-j", "2"], ROOT, None, n)}
        seen = defaultdict(list)
        for _ in range(repeat):
            for name, (command, cwd, env, count) in runs.items():
                load = os.getloadavg()[0]
                wall, cpu, by_kind = whole(command, cwd, env)
                seen[name].append((wall, cpu, count))
                print(f"  {cpu:7.2f} CPU-s {wall:7.2f} s wall (load {load:.1f}) {name}: {cpu / count:.2f} CPU-s, "
                      f"{wall / count:.2f} s wall a notebook")
                for kind, spent in sorted(by_kind.items(), key=lambda kv: -kv[1]):
                    print(f"           {spent:7.2f} CPU-s  {kind}")
                print(flush=True)
        median = {name: [statistics.median(r[k] for r in rows) / rows[0][2] for k in (0, 1)]
                  for name, rows in seen.items()}
        learner_wall, learner_cpu = median[next(iter(runs))]
        print(f"medians of {repeat}, a notebook against the learner's command ({learner_cpu:.2f} CPU-s, "
              f"{learner_wall:.2f} s wall):")
        for name, (wall, cpu) in list(median.items())[1:]:
            print(f"  {cpu / learner_cpu:5.2f}× CPU {wall / learner_wall:5.2f}× wall  {name}")
        j1, j2 = (median[name] for name in list(runs)[2:])
        print(f"  -j 2 / -j 1: {j2[0] / j1[0]:.2f}× wall, {j2[1] / j1[1]:.2f}× CPU")
    finally:
        shutil.rmtree(work, ignore_errors=True)
        (ROOT / "exercises" / f"_bench_{os.getpid()}_{notebook.name}").unlink(missing_ok=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("notebook", nargs="?", type=Path, default=ROOT / "exercises" / "solutions" / "01_tiered_policy.ipynb")
    p.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--whole", type=int, metavar="N", help="whole processes instead of steps: the learner's command, "
                   "the gradebook on the notebook alone and on N copies with -j 1 and -j 2 (needs a cgroup: root)")
    args = p.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    if args.whole:
        whole_runs(args.notebook.resolve(), args.whole, args.repeat)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return
    for _ in range(args.repeat):
        wall, cpu = learner(args.notebook.resolve())
        print(f"the learner's command (pytest --nbval-lax): {wall:.2f} s wall, {cpu:.2f} CPU-s")
        clock = measure(args.notebook.resolve(), args.sandbox)
        total = [sum(s[i] for s in clock.steps.values()) for i in (0, 1)]
        for name, (w, c, n) in sorted(clock.steps.items(), key=lambda kv: -kv[1][1]):
            print(f"  {c:6.2f} CPU-s {w:6.2f} s wall  ×{n:<3} {name}")
        print(f"  {total[1]:6.2f} CPU-s {total[0]:6.2f} s wall  in all (gradebook / learner: {total[1] / cpu:.2f}× CPU, "
              f"{total[0] / wall:.2f}× wall)")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
