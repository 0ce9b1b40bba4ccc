"""The gradebook's progress line on a terminal: "graded 12 of 60 · about 3 min left", the time left estimated
from the notebooks graded so far in this run (those decided before any kernel ran, a broken file, a link, count
as done and take no time)."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, done: int) -> None:
        self.total, self.done, self.first = total, done, done  # first: decided before any kernel ran
        self.out = sys.stderr
        self.tty = self.out.isatty()
        self.started = time.monotonic()

    def line(self, now: float | None = None) -> str:
        graded = self.done - self.first
        left = self.total - self.done
        text = f"graded {self.done} of {self.total}"
        if graded and left:  # the mean pace so far; with -j N, N notebooks run meanwhile, as they will
            seconds = ((now if now is not None else time.monotonic()) - self.started) / graded * left
            text += f" · about {round(seconds)} s left" if seconds < 90 else f" · about {round(seconds / 60)} min left"
        return text

    def step(self) -> None:
        """One more notebook graded."""
        self.done += 1
        if self.tty:  # (padded: a shorter line overwrites a longer one)
            print(f"\r{self.line():<48}", end="", file=self.out, flush=True)

    def end(self) -> None:
        if self.tty:
            print(file=self.out)
