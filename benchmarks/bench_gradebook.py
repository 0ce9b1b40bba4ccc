"""The gradebook on 2 cores: the same class graded with -j 1 and with -j 2 (wall-clock time, one run each); or, with
--sandbox, what the bubblewrap sandbox costs: the same class graded -j 1 with --sandbox bwrap and --sandbox none,
three alternating pairs, wall-clock and CPU time (the gradebook's processes and their kernels).

    python benchmarks/bench_gradebook.py [N]            N notebooks (default 8: the solutions, copied)
    python benchmarks/bench_gradebook.py --sandbox [N]
    python benchmarks/bench_gradebook.py --class [N]    a mixed class of N (default 60), graded once with -j 2:
        solutions in both editions, untouched starters, half-done work, a broken file, and one endless loop in
        every fifteen notebooks (each stopped by the default 120 s cell timeout)
    python benchmarks/bench_gradebook.py --hanging [N]  N notebooks (default 10: solutions of exercises 1 and 2), the
        first two hanging (their first ✏️ cell sleeps forever), graded once with -j 2 --cell-timeout 60: what a
        hanging notebook's lent slot (grader/slots.py) saves; run it in this commit's checkout and the one before
    python benchmarks/bench_gradebook.py --shards K [N]   N notebooks (default 20: the solutions in both editions)
        graded as the teacher's workflow grades them (.github/workflows/grade-class.yml): K shards one after the
        other, each with the workflow's options, then gathered; each shard's own timing line, and the Actions
        minutes per 100 notebooks they suggest (the jobs' set-up is an assumption, printed as such)

Not a test: the numbers go in docs/teaching.md. On a machine shared with other work they vary a lot.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def busy_cpu_seconds() -> float:
    """The machine's busy CPU time so far (Linux /proc/stat: all but idle and iowait), in seconds. The kernels the
    gradebook starts are not its waited-for children, so rusage would miss them; run this on an idle machine."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def grade(work: Path, *args: str) -> tuple[float, float, str]:
    """(wall s, busy CPU s of the machine meanwhile, the gradebook's summary line)."""
    before = busy_cpu_seconds()
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "grader.gradebook", str(work / "class"), "--out",
                          str(work / "grades.csv"), *args], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    return wall, busy_cpu_seconds() - before, (run.stdout.strip().splitlines() or ["(no output)"])[0]


def sandbox_cost(work: Path, n: int) -> None:
    rows = {"bwrap": [], "none": []}
    for _ in range(3):
        for mode in rows:
            wall, cpu, line = grade(work, "-j", "1", "--sandbox", mode)
            rows[mode].append((wall, cpu))
            print(f"--sandbox {mode}: {wall:.1f} s wall, {cpu:.1f} CPU-s for {n} notebooks ({line})")
    for what, k in (("wall", 0), ("CPU", 1)):
        ratios = [b[k] / u[k] for b, u in zip(rows["bwrap"], rows["none"])]
        print(f"sandboxed / unsandboxed, {what}: median {statistics.median(ratios):.2f} "
              f"(pairs: {', '.join(f'{r:.2f}' for r in ratios)})")


def mixed_class(folder: Path, n: int) -> None:
    names = sorted(p.name for p in (ROOT / "exercises" / "solutions").glob("*.ipynb"))
    for i in range(n):
        name, kind = names[i % len(names)], i % 15
        edition = ROOT / "exercises" / ("es" if i % 2 else "")
        target = folder / f"learner{i:02d}" / name
        target.parent.mkdir(parents=True)
        if kind == 14:
            target.write_text("{ not a notebook", encoding="utf-8")
            continue
        nb = json.loads(((edition / "solutions" / name) if kind < 9 or kind == 13 else edition / name)
                        .read_text(encoding="utf-8"))
        exercise = [c for c in nb["cells"] if "exercise" in c["metadata"].get("tags", [])]
        if kind in (11, 12):  # half done: the last exercise cell back to the starter's
            starter = json.loads((edition / name).read_text(encoding="utf-8"))
            given = {c["id"]: c["source"] for c in starter["cells"]}
            nb = json.loads(((edition / "solutions" / name)).read_text(encoding="utf-8"))
            last = [c for c in nb["cells"] if "exercise" in c["metadata"].get("tags", [])][-1]
            last["source"] = given[last["id"]]
        if kind == 13:  # an endless loop in the learner's first cell
            exercise[0]["source"] = "while True:\n    pass\n" + "".join(exercise[0]["source"])
        target.write_text(json.dumps(nb), encoding="utf-8")


SETUP_MINUTES = 1.5  # a shard job's checkout, setup-python (pip cache), pip install, apt bubblewrap: assumed
OTHER_MINUTES = 2.5  # the collect and the gather jobs: assumed


def copied_class(notebooks: list[Path], n: int) -> Path:
    """A folder holding class/learnerNN/NAME: the `notebooks` copied in turn, n in all."""
    work = Path(tempfile.mkdtemp(prefix="bench-gradebook-"))
    for i in range(n):
        target = work / "class" / f"learner{i:02d}" / notebooks[i % len(notebooks)].name
        target.parent.mkdir(parents=True)
        shutil.copy2(notebooks[i % len(notebooks)], target)
    return work


def shards(k: int, n: int) -> None:
    work = copied_class(sorted((ROOT / "exercises" / "solutions").glob("*.ipynb"))
                        + sorted((ROOT / "exercises" / "es" / "solutions").glob("*.ipynb")), n)
    try:
        seconds = []
        for shard in range(1, k + 1):  # the workflow's options (its "Grade this shard" step)
            start = time.perf_counter()
            run = subprocess.run([sys.executable, "-m", "grader.gradebook", str(work / "class"), "--shard",
                                  f"{shard}/{k}", "--out", str(work / "results" / f"shard-{shard}.json"), "-j", "2",
                                  "--timeout", "300", "--cell-timeout", "60", "--sandbox", "bwrap"], cwd=ROOT,
                                 capture_output=True, text=True, check=True)
            seconds.append(time.perf_counter() - start)
            print(run.stdout.strip().splitlines()[-1])
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "grader.gradebook", "--gather",
                              *map(str, sorted((work / "results").glob("*.json"))), "--out", str(work / "grades.csv")],
                             cwd=ROOT, capture_output=True, text=True, check=True)
        print(f"gather: {time.perf_counter() - start:.1f} s: {run.stdout.strip().splitlines()[0]}")
        minutes = k * SETUP_MINUTES + sum(seconds) / 60 + OTHER_MINUTES
        print(f"{n} notebooks in {k} shard(s): {sum(seconds):.1f} s of grading ({sum(seconds) / n:.1f} s a notebook); "
              f"Actions minutes, assuming {SETUP_MINUTES} min of set-up a shard job and {OTHER_MINUTES} for the "
              f"collect and the gather: about {minutes:.0f} for these {n}, "
              f"{(k * SETUP_MINUTES + sum(seconds) / n * 100 / 60 + OTHER_MINUTES):.0f} per 100 notebooks in {k} shards")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def hanging(n: int) -> None:
    work = copied_class(sorted((ROOT / "exercises" / "solutions").glob("0[12]_*.ipynb")), n)
    try:
        for path in sorted((work / "class").glob("learner0[01]/*.ipynb")):
            nb = json.loads(path.read_text(encoding="utf-8"))
            cell = next(c for c in nb["cells"] if "exercise" in c["metadata"].get("tags", []))
            cell["source"] = "import time\nwhile True:\n    time.sleep(0.1)\n" + "".join(cell["source"])
            path.write_text(json.dumps(nb), encoding="utf-8")
        wall, cpu, line = grade(work, "-j", "2", "--cell-timeout", "60")
        print(f"-j 2, two of {n} hanging: {wall:.1f} s wall, {cpu:.1f} busy CPU-s: {line} (load {os.getloadavg()[0]:.1f})")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if "--hanging" in sys.argv[1:]:
        return hanging(int(args[0]) if args else 10)
    if "--shards" in sys.argv[1:]:
        return shards(int(args[0]), int(args[1]) if len(args) > 1 else 20)
    if "--class" in sys.argv[1:]:
        n = int(args[0]) if args else 60
        work = Path(tempfile.mkdtemp(prefix="bench-gradebook-"))
        try:
            mixed_class(work / "class", n)
            wall, cpu, line = grade(work, "-j", "2")
            print(f"-j 2: {wall:.1f} s wall ({wall / 60:.1f} min), {cpu:.1f} busy CPU-s for a class of {n}: {line}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    n = int(args[0]) if args else 8
    work = copied_class(sorted((ROOT / "exercises" / "solutions").glob("*.ipynb")), n)
    try:
        if "--sandbox" in sys.argv[1:]:
            return sandbox_cost(work, n)
        times = {}
        for jobs in (1, 2):
            start = time.perf_counter()
            run = subprocess.run([sys.executable, "-m", "grader.gradebook", str(work / "class"), "--out",
                                  str(work / f"grades-j{jobs}.csv"), "-j", str(jobs)], cwd=ROOT,
                                 capture_output=True, text=True)
            times[jobs] = time.perf_counter() - start
            print(f"-j {jobs}: {times[jobs]:.1f} s for {n} notebooks ({run.stdout.strip().splitlines()[0]})")
        print(f"-j 2 / -j 1: {times[2] / times[1]:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
