"""Does guarding the loop cost anything? Notebook 02's bare loop vs run_agent (all four valves) on the same
50-turn offline run: the model reads 50 files one per turn, then answers.

    python benchmarks/bench_valves.py

Prints, for each, the median over several repetitions of the process's CPU time (all threads: the offline
model, the SDK, the loop, the tools) and of wall time, and their ratios (goal: <= 1.05x). The offline run is
CPU-bound, so CPU time is the steadier measure; wall time also carries thread-pool and scheduler noise.
"""

import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness_lib import TOOLS, make_client, make_tool_impls, run_agent

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import notebook_code  # noqa: E402  (the bare loop is notebook 02's own)

run_bare = notebook_code.load(Path(__file__).resolve().parent.parent / "notebooks" / "02_the_core_loop.ipynb")["run_bare"]

TURNS, REPEATS = 50, 15


def fill(root: Path) -> None:
    for i in range(1, TURNS + 1):
        (root / f"p{i:02d}.md").write_text(f"# page {i}\n")


async def timed(fn) -> tuple[float, float]:
    gc.collect()  # start each run with no garbage left by the previous one
    cpu, wall = time.process_time(), time.perf_counter()
    await fn()
    return time.process_time() - cpu, time.perf_counter() - wall


async def main(root: Path) -> None:
    fill(root)
    task = ", then ".join(f"read p{i:02d}.md" for i in range(1, TURNS + 1))
    impls = make_tool_impls(root)

    async def bare():
        await run_bare(make_client(), task, TOOLS, impls)

    async def guarded():
        result = await run_agent(make_client(), task, TOOLS, impls, max_turns=TURNS + 1, token_budget=10**9)
        assert result.turns == TURNS and result.stopped_by == "end_turn", result

    await bare(), await guarded()  # warm up
    times = {"bare": [], "guarded": []}
    for i in range(REPEATS):  # interleaved, each going first half the time, so drift hits both alike
        order = [("bare", bare), ("guarded", guarded)][:: 1 if i % 2 else -1]
        for name, fn in order:
            times[name].append(await timed(fn))
    for i, kind in enumerate(("CPU", "wall")):
        b = statistics.median(t[i] for t in times["bare"])
        g = statistics.median(t[i] for t in times["guarded"])
        print(f"{TURNS}-turn offline run, median {kind} time of {REPEATS}: bare {b*1000:.1f} ms, "
              f"guarded {g*1000:.1f} ms, ratio {g/b:.3f}x (goal <= 1.05x)")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="bench-valves-") as folder:
        asyncio.run(main(Path(folder)))
