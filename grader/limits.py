"""What a notebook can make the grader keep: the limits of every process that touches a notebook's output.

The sandbox (grader/sandbox.py) bounds the kernel. Three processes outside it read what the kernel sends, and each
keeps only a bounded amount of it:

- the worker (grader/worker.py) keeps the kernel's output messages (streams, displays, display updates, errors,
  comm and widget messages) through `OutputBudget`: per cell at most `--output-cap` bytes and MESSAGES_PER_CELL
  messages, per notebook at most OUTPUT_PER_NOTEBOOK bytes; a message over a limit is dropped (an error past the
  cap keeps its name and the start of its message: the row still says why the cell stopped), and the row says
  "output capped". Widget state is never stored (the worker writes no notebook back);
- the judge (grader/judge.py) reads at most JUDGE_BYTES and JUDGE_MESSAGES from the kernel per notebook, over all
  its checks (grader/wire.py's `Quota`): the values the learner's functions return, the approver's questions,
  the model's requests. Past it the line breaks and the check fails, saying which limit;
- the gradebook reads each learner cell's syntax tree only for a cell of at most CELL_PARSED characters (parsing
  takes hundreds of times a cell's size in memory): a longer cell is not parsed and is flagged for a person; and it
  keeps and runs a notebook only when its learner cells hold at most LEARNER_CODE characters in all (else NOT
  GRADED, flagged, not run): what it holds for a class is bounded by the class's size, not by the files'.

What it does NOT bound: one message in flight (the worker receives a message whole before it drops it: the kernel's
own memory limit, `--memory`, bounds its size), or the CPU a kernel spends sending (the timeouts do).
"""

from __future__ import annotations

import json

MESSAGES_PER_CELL = 20_000  # output messages kept per cell (status messages are not counted)
OUTPUT_PER_NOTEBOOK = 16 * 2 ** 20  # bytes of output kept over all the cells of one notebook
SEAL_OUTPUT = 1 * 2 ** 20  # bytes kept of a seal cell's output (the seal prints one line of a few KB)
ERROR_KEPT = 4000  # characters of an error's message kept when its cell is over a limit
JUDGE_BYTES = 16 * 2 ** 20  # bytes the judge reads from one notebook's kernel, over all its checks
JUDGE_MESSAGES = 200_000  # messages the judge reads from one notebook's kernel
CELL_PARSED = 200_000  # characters of one learner cell the gradebook parses (its syntax tree: ~500 times the size)
LEARNER_CODE = 2_000_000  # characters of all the learner's cells of one notebook the gradebook runs (an answer: ~10 KB)
UNCOUNTED = ("status", "execute_input")  # the kernel's own bookkeeping: a cell ends on its idle status


class OutputBudget:
    """What the worker keeps of a notebook's output messages (see the module's docstring)."""

    def __init__(self, per_cell: int):
        self.per_cell, self.per_notebook, self.messages = per_cell, OUTPUT_PER_NOTEBOOK, MESSAGES_PER_CELL
        self.used: dict[int, int] = {}  # cell index -> bytes kept
        self.count: dict[int, int] = {}  # cell index -> messages seen
        self.total = 0  # bytes kept over every cell but the seals
        self.capped: dict[int, str] = {}  # cell index -> the first limit it reached
        self._errors: set[int] = set()  # cells whose error was kept past a limit

    def admit(self, msg: dict, cell: int, seal: bool = False) -> dict | None:
        """The message to keep (an error past a limit: trimmed), or None when it is dropped."""
        kind = msg.get("msg_type", "")
        if kind in UNCOUNTED:
            return msg
        self.count[cell] = self.count.get(cell, 0) + 1
        size = len(json.dumps(msg.get("content", {}), default=str)) + sum(len(b) for b in msg.get("buffers") or ())
        used = self.used.get(cell, 0)
        if self.count[cell] > self.messages:
            why = f"more than {self.messages} output messages in the cell"
        elif used + size > (SEAL_OUTPUT if seal else self.per_cell):
            why = f"more than {SEAL_OUTPUT if seal else self.per_cell} bytes of output in the cell (--output-cap)"
        elif not seal and self.total + size > self.per_notebook:
            why = f"more than {self.per_notebook} bytes of output in the notebook"
        else:
            self.used[cell] = used + size
            self.total += 0 if seal else size
            return msg
        self.capped.setdefault(cell, why)
        if kind == "error" and cell not in self._errors:  # the name and the start of the message: why it stopped
            self._errors.add(cell)
            content = msg.get("content") or {}
            return dict(msg, content={"ename": str(content.get("ename", ""))[:200],
                                      "evalue": str(content.get("evalue", ""))[:ERROR_KEPT], "traceback": []})
        return None


def too_long(source: str) -> bool:
    """True when a learner cell is longer than the gradebook parses."""
    return len(source) > CELL_PARSED
