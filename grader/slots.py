"""How many notebooks the gradebook grades at once: `-j N` slots, and a notebook still running after `LEND_AFTER`
seconds lends its slot to the next one.

Why: a graded notebook takes a few seconds; one still running after half a minute is almost always waiting for
its cell timeout (an endless loop, a cell waiting for input that never comes), which bounds it by the clock, not
by the CPU it gets. Holding a slot for those minutes leaves the other notebooks waiting: a class of 60 with four
endless loops spent most of its time with a slot held by a loop. A lent slot goes back when its notebook ends;
at most 2 × N notebooks run at once, so memory stays bounded. Every notebook keeps its own limits (its cell
timeout, its notebook timeout, the sandbox's): lending changes only when the next one starts.
"""

from __future__ import annotations

import threading

LEND_AFTER = 30.0  # seconds


class Slots:
    def __init__(self, jobs: int) -> None:
        self.most = 2 * jobs  # the pool's threads: N notebooks in slots, and up to N that lent theirs
        self.lend_after = LEND_AFTER
        self._free = threading.Semaphore(jobs)

    def run(self, fn, *args, **kwargs):
        """fn(*args, **kwargs) once a slot is free; its slot is given back when it ends, or after lend_after s."""
        self._free.acquire()
        given_back = threading.Lock()

        def give_back() -> None:
            if given_back.acquire(blocking=False):  # once: by the timer or at the end, whichever comes first
                self._free.release()

        timer = threading.Timer(self.lend_after, give_back)
        timer.daemon = True
        timer.start()
        try:
            return fn(*args, **kwargs)
        finally:
            timer.cancel()
            give_back()
