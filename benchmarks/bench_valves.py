"""Does guarding the loop cost anything? The bare loop vs run_agent (all four valves) on the same
50-turn offline run: the model reads 50 files one per turn, then answers.

    python benchmarks/bench_valves.py

Prints the median wall time of each over several repetitions and their ratio (goal: <= 1.05x).
"""

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from harness_lib import TOOLS, make_client, make_tool_impls, run_agent, run_bare

TURNS, REPEATS = 50, 7


def make_root() -> Path:
    root = Path(tempfile.mkdtemp())
    for i in range(1, TURNS + 1):
        (root / f"p{i:02d}.md").write_text(f"# page {i}\n")
    return root


async def timed(fn) -> float:
    start = time.perf_counter()
    await fn()
    return time.perf_counter() - start


async def main() -> None:
    root = make_root()
    task = ", then ".join(f"read p{i:02d}.md" for i in range(1, TURNS + 1))
    impls = make_tool_impls(root)

    async def bare():
        await run_bare(make_client(), task, TOOLS, impls)

    async def guarded():
        result = await run_agent(make_client(), task, TOOLS, impls, max_turns=TURNS + 1, token_budget=10**9)
        assert result.turns == TURNS and result.stopped_by == "end_turn", result

    await bare(), await guarded()  # warm up
    times = {"bare": [], "guarded": []}
    for _ in range(REPEATS):  # interleaved, so drift hits both alike
        times["bare"].append(await timed(bare))
        times["guarded"].append(await timed(guarded))
    b, g = statistics.median(times["bare"]), statistics.median(times["guarded"])
    print(f"{TURNS}-turn offline run, median of {REPEATS}: bare {b*1000:.1f} ms, guarded {g*1000:.1f} ms, "
          f"ratio {g/b:.3f}x (goal <= 1.05x)")


if __name__ == "__main__":
    asyncio.run(main())
