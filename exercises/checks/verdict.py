"""A check's verdict: one ✓ / ✗ line per criterion for the learner to read, and the same verdict as data for the
grader, so no grader ever reads the printed lines back.

- `Checks(cell_id, title)`: `ok(passed, criterion, hint)` prints a ✓ or a ✗ (a hint under each ✗) and records it;
  `cause(criterion, hint)` is a ✗ found before the criteria (a cell that raised, state kept between runs), and
  every later ✗ follows from it; `upstream[key] = where` marks every ✗ whose cause has that key as following from
  a ✗ another check already named (`where` says which; the key "*": every ✗ does); `done()` ends the check.
- The verdict, as data: `{"check": cell id, "title": ..., "criteria": [{"criterion", "passed", "hint",
  "follows", "key"}, ...]}`, where `follows` is true for a ✗ that fails only because of an earlier one (its hint
  then says so; a ✗ may carry a "drawing" too: the run it judged, as lines), and `key` names a criterion the gradebook gives a column of its own (exercise 5's scenarios). `done()` hands it to whoever grades:
  - the gradebook's judge (grader/judge.py) runs the check in its own process and collects it in `VERDICTS`;
  - under the learner's `pytest --nbval-lax` (HARNESS_GRADING=1, exercises/conftest.py) the check runs in the
    notebook's kernel, which shows it to pytest as a display output of the type VERDICT_MIME;
  - in JupyterLab nobody grades: only the lines are printed.
  Under a grader a check with a ✗ then raises AssertionError, so the cell fails as a failed test does.

What it does NOT do: decide anything from the printed lines, or keep a verdict once it is handed on. A check that
raises before done() (a bug, an error of the learner's code it did not catch) hands on no verdict: a grader reads
that as a failed check, never as a pass.
"""

from __future__ import annotations

import contextvars
import os
import sys

from harness_kit.shown import visible_text  # the kit's one rule: what a check prints is shown, never obeyed
from harness_kit import lang

from . import words_kit

VERDICT_MIME = "application/vnd.harness-kit.verdict+json"
# The judge sets a list here while it runs a check: done() appends the verdict to it instead of showing it.
VERDICTS: contextvars.ContextVar = contextvars.ContextVar("verdicts", default=None)


def grading() -> bool:
    """True under the grader (pytest sets HARNESS_GRADING=1 for the kernels it starts)."""
    return os.environ.get("HARNESS_GRADING") == "1"


def _t(key: str, **values) -> str:
    return lang.say(words_kit.MESSAGES, key, **values)


class Cause(str):
    """A hint that names a cause, with a key: the same key met again in one check is the same cause."""

    def __new__(cls, text: str, key=None):
        hint = super().__new__(cls, text)
        hint.key = text if key is None else key
        return hint


class Checks:
    """Prints ✓ / ✗ per criterion (a hint under each ✗) and records the verdict. done(): hands the verdict on and,
    under the grader, raises while any ✗ is left.

    The first ✗ names the first cause the check can see. A later ✗ whose hint names a cause already named (the
    same text, or a Cause with the same key), or that the check marks `follows=True` (it fails only because of an
    earlier ✗), says "follows from the ✗ above: fix that first" instead of guessing another cause."""

    def __init__(self, cell_id: str, title: str):
        self.cell_id, self.title, self.failed, self.causes = cell_id, title, [], set()
        self.criteria: list[dict] = []  # the verdict's criteria, in the order they were printed
        self.blocked = False  # a cause() was named: every later ✗ follows from it
        self.upstream: dict = {}  # a cause's key -> the ✗ of an earlier check that named it
        print(f"🔍 {visible_text(title)}")

    def cause(self, criterion: str, hint: str) -> None:
        """A ✗ for a cause the check found before its criteria (a cell that raised, state kept between runs, an
        approver never awaited...): it comes first, and every ✗ after it says it follows from it."""
        self.ok(False, criterion, hint)
        self.blocked = True

    def ok(self, passed, criterion: str, hint: str = "", follows: bool = False, key: str = "") -> bool:
        passed = bool(passed)
        where = None if passed else self.upstream.get(getattr(hint, "key", hint), self.upstream.get("*"))
        follows = not passed and (where is not None or bool(self.failed) and (
            follows or self.blocked or getattr(hint, "key", hint) in self.causes))
        if where is not None:
            hint = _t("kit.checks.follows_from", where=where)
        elif follows:
            hint = _t("kit.checks.follows_from_above")
        elif not passed:
            self.causes.add(getattr(hint, "key", hint))
        print(f"  {'✓' if passed else '✗'} {visible_text(criterion)}"  # a value the learner's code chose, an error
              + ("" if passed else f"\n      {_t('kit.checks.hint')}: {visible_text(hint)}"))  # message: by the rule
        self.criteria.append({"criterion": str(criterion), "passed": passed, "hint": "" if passed else str(hint),
                              "follows": follows, "key": str(key)})
        if not passed:
            self.failed.append((criterion, hint))
        return passed

    def note(self, text: str) -> None:
        print(f"    {visible_text(text)}")

    def draw(self, lines: list[str]) -> None:
        """Under the last ✗: the run it judged, as lines whose every text is already shown by the rule (the layout
        around them, padding and rules, is the check's own); the learner's grade (pytest) shows them there too."""
        for line in lines:
            print(f"      {line}")
        self.criteria[-1]["drawing"] = list(lines)

    def verdict(self) -> dict:
        return {"check": self.cell_id, "title": str(self.title), "criteria": [dict(c) for c in self.criteria]}

    def done(self) -> None:
        _hand_on(self.verdict())
        if not self.failed:
            print("  " + _t("kit.checks.all_criteria_met"))
            return
        n = len(self.failed)
        if grading():
            raise AssertionError(_t("kit.checks.not_met_summary", cell_id=self.cell_id, n=n) + "\n"
                                 + "\n".join(f"✗ {criterion}\n    hint: {hint}" for criterion, hint in self.failed))
        print("  → " + _t("kit.checks.not_met_fix_and_rerun", n=n))


def _hand_on(verdict: dict) -> None:
    """The verdict to the judge that collects it; else, under pytest, to pytest through the kernel's outputs."""
    collected = VERDICTS.get()
    if collected is not None:
        collected.append(verdict)
    elif grading() and "IPython" in sys.modules:  # in a kernel: IPython is already loaded
        shell = sys.modules["IPython"].get_ipython()
        if shell is not None:
            shell.display_pub.publish(data={VERDICT_MIME: verdict}, metadata={})
