"""One turn of 4 tool calls, each taking 200 ms: run concurrently (run_tool_uses) vs one after another.

    python benchmarks/bench_concurrency.py

Prints the median wall time of each and their ratio (goal: <= 0.3x; the ideal is 0.25x).
"""

import asyncio
import statistics
import time

from anthropic.types import ToolUseBlock

from harness_lib.loop import run_tool_uses
from harness_lib.tools import arun_tool

TOOLS = [{"name": "slow", "description": "sleeps 200 ms", "input_schema": {"type": "object", "properties": {}}}]
IMPLS = {"slow": lambda tool_input: time.sleep(0.2) or "done"}
CONTENT = [ToolUseBlock(type="tool_use", id=f"toolu_{i}", name="slow", input={}) for i in range(4)]
REPEATS = 5


async def concurrent():
    await run_tool_uses(CONTENT, IMPLS, tools=TOOLS)


async def sequential():
    for block in CONTENT:
        await arun_tool(IMPLS, block.name, block.input, TOOLS)


async def median(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def main():
    c, s = await median(concurrent), await median(sequential)
    print(f"4 tools x 200 ms, median of {REPEATS}: concurrent {c*1000:.0f} ms, sequential {s*1000:.0f} ms, "
          f"ratio {c/s:.2f}x (goal <= 0.3x)")


if __name__ == "__main__":
    asyncio.run(main())
