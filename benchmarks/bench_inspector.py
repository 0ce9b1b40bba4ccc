"""What does drawing a run cost? The run inspector against the run it draws, on a 50-turn offline run:
the model reads 50 files one per turn, then answers (the run of bench_valves.py, with all four valves).

    python benchmarks/bench_inspector.py

Prints the median over several repetitions of the process's CPU time of
  - the run alone (run_agent, no on_event),
  - the run with an Inspector collecting its events (on_event=inspector), and the time spent inside it,
  - drawing it once (inspector._repr_html_(), what a notebook cell's result shows),
and the cost of collecting + drawing as a share of the run (goal: < 5%). It also prints, for information,
what the live picture costs (show(): the whole table redrawn after every event, about 200 times here), which
grows with the square of the run's length. Exit status 1 when the goal is missed.
"""

import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

from harness_lib import TOOLS, make_client, make_tool_impls, run_agent
from harness_ui.inspector import Inspector

TURNS, REPEATS, GOAL = 50, 9, 0.05


def fill(root: Path) -> None:
    for i in range(1, TURNS + 1):
        (root / f"p{i:02d}.md").write_text(f"# page {i}\n")


class Timed(Inspector):
    """An Inspector that adds up the CPU time spent inside its own on_event (the inspector's share of the run)."""

    def __init__(self, **options):
        super().__init__(**options)
        self.spent = 0.0

    def on_event(self, event):
        start = time.process_time()
        super().on_event(event)
        self.spent += time.process_time() - start

    __call__ = on_event


class Redrawn(Inspector):
    """An Inspector that redraws after every event, as show() does in a notebook (without a display)."""

    def on_event(self, event):
        super().on_event(event)
        self._repr_html_()

    __call__ = on_event


async def main(root: Path) -> int:
    fill(root)
    task = ", then ".join(f"read p{i:02d}.md" for i in range(1, TURNS + 1))
    impls = make_tool_impls(root)
    options = dict(max_turns=TURNS + 1, token_budget=10**9)

    async def run(on_event=None):
        result = await run_agent(make_client(), task, TOOLS, impls, on_event=on_event, **options)
        assert result.turns == TURNS and result.stopped_by == "end_turn", result

    def cpu(fn) -> float:
        gc.collect()
        start = time.process_time()
        fn()
        return time.process_time() - start

    await run()  # warm up
    alone, collecting, drawing, live = [], [], [], []
    for _ in range(REPEATS):
        gc.collect()
        start = time.process_time()
        await run()
        alone.append(time.process_time() - start)

        inspector = Timed(**options)
        gc.collect()
        start = time.process_time()
        await run(inspector)
        collecting.append((time.process_time() - start, inspector.spent))
        drawing.append(cpu(inspector._repr_html_))
        assert inspector._repr_html_().count('class="hl-row') == TURNS + 1

        redrawn = Redrawn(**options)
        gc.collect()
        start = time.process_time()
        await run(redrawn)
        live.append(time.process_time() - start)

    a, d, l = (statistics.median(x) for x in (alone, drawing, live))
    c = statistics.median(total for total, _ in collecting)
    inside = statistics.median(spent for _, spent in collecting)
    share = (inside + d) / a
    print(f"{TURNS}-turn offline run, median CPU time of {REPEATS}: run alone {a*1000:.1f} ms, "
          f"run with an Inspector {c*1000:.1f} ms ({inside*1000:.2f} ms inside its on_event), "
          f"one drawing {d*1000:.2f} ms")
    print(f"collecting + drawing: {share:.1%} of the run (goal < {GOAL:.0%})")
    print(f"live picture (redrawn after every event): {(l - a) / a:.1%} of the run (for information)")
    return 0 if share < GOAL else 1


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="bench-inspector-") as folder:
        sys.exit(asyncio.run(main(Path(folder))))
