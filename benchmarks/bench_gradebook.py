"""The gradebook on 2 cores: the same class graded with -j 1 and with -j 2 (wall-clock time, one run each).

    python benchmarks/bench_gradebook.py [N]      N notebooks (default 8: the solutions, copied)

Not a test: the numbers go in docs/teaching.md. On a machine shared with other work they vary a lot.
"""

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    solutions = sorted((ROOT / "exercises" / "solutions").glob("*.ipynb"))
    work = Path(tempfile.mkdtemp(prefix="bench-gradebook-"))
    try:
        for i in range(n):
            target = work / "class" / f"learner{i:02d}" / solutions[i % len(solutions)].name
            target.parent.mkdir(parents=True)
            shutil.copy2(solutions[i % len(solutions)], target)
        times = {}
        for jobs in (1, 2):
            start = time.perf_counter()
            run = subprocess.run([sys.executable, "-m", "exercises.gradebook", str(work / "class"), "--out",
                                  str(work / f"grades-j{jobs}.csv"), "-j", str(jobs)], cwd=ROOT,
                                 capture_output=True, text=True)
            times[jobs] = time.perf_counter() - start
            print(f"-j {jobs}: {times[jobs]:.1f} s for {n} notebooks ({run.stdout.strip().splitlines()[0]})")
        print(f"-j 2 / -j 1: {times[2] / times[1]:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
