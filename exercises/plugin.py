"""The learner's grade as a pytest plugin: what `pytest --nbval-lax <exercise notebook>` adds to a plain nbval run.

An exercise notebook is graded by its cells tagged `check` (each calls exercises/grading.py, whose checks live in
exercises/checks/, prints ✓ / ✗ per criterion and, under the grader, raises AssertionError while a criterion is not
met), helped by cells tagged `locked` (the import of the grader's kit, shared constants). exercises/conftest.py hands
pytest these hooks for every exercise notebook under exercises/ (starter, solution, or a copy anywhere under it, by
its file name or, under another name, by its check cells' ids; exercises/lock.py decides which notebook is which);
exercises/grade_anywhere.py hands them a copy saved outside the kit's folder. The plugin:

1. sets HARNESS_GRADING=1, which the notebook's kernel inherits: a ✗ raises only under the grader, so Run All in
   JupyterLab always reaches every check cell (the ✏️ cells of exercises 2-4 are tagged `raises-exception`, which
   JupyterLab honours by not stopping Run All at them, and nbval by not failing them: the checks judge);
2. adds one test item, "grading allowed", run first. It refuses to grade (and skips every cell of the notebook)
   when exercises/lock.py's `refusal` says so: a key in the notebook, or grader's cells or checks' code that are not
   the shipped ones;
3. names each notebook cell by its id (`01_tiered_policy.ipynb::check-deny`, not nbval's `Cell 7`) and shortens a
   cell's failure report to what helps: the ✗ criteria of a check (read from the verdict the check hands on as
   data, exercises/checks/verdict.py, never from the lines it printed), the last lines of an error elsewhere;
4. prints the "exercise grade" at the very end: per notebook PASS / FAIL and how many checks pass, then one block
   per check cell — its id, each ✗ criterion and its hint (shown by the kit's one rule, harness_kit.shown, as the
   notebook shows them: a value the learner's code chose never acts on the terminal).
Under pytest-xdist (the whole suite) the workers run the cells and the controller prints the grade: what it needs
travels with each test report.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from harness_kit.shown import visible_text  # the kit's one rule (stdlib only)
from exercises.lock import LOCK, graded, load_lock, refusal

VERDICT_MIME = "application/vnd.harness-kit.verdict+json"  # checks/verdict.py's: how a check hands on its verdict

os.environ["HARNESS_GRADING"] = "1"  # inherited by the kernels nbval starts: a ✗ in a check cell raises


class GradeRefused(Exception):
    """The notebook must not be graded (see refusal())."""


class GradingAllowedItem(pytest.Item):
    def runtest(self):
        refused = refusal(self.path, load_lock())
        if refused:
            raise GradeRefused(refused[1])

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, GradeRefused):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: grading allowed"


class GradingAllowedFile(pytest.File):
    def collect(self):
        yield GradingAllowedItem.from_parent(self, name="grading allowed")


def pytest_collect_file(file_path: Path, parent):
    if LOCK.exists() and graded(file_path):
        return GradingAllowedFile.from_parent(parent, path=file_path)
    return None


# ---- cells named by id, short failure reports, and the grade at the end ---------------------------------

_cells: dict[str, tuple[Path, str, str]] = {}  # nodeid -> (notebook, cell id, kind: allowed|check|exercise|...)
_seen: dict[str, tuple[str, str, list]] = {}  # nodeid -> (outcome, one line, [(criterion, hint, drawing)])
_refused: dict[Path, str] = {}  # notebook -> why it is not graded
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _error_of(item):
    """The kernel's error output of a failed nbval cell: (ename, evalue, traceback text) or None."""
    for out in getattr(item, "test_outputs", None) or []:
        if out.get("output_type") == "error":
            return out.get("ename", ""), out.get("evalue", ""), _ANSI.sub("", "\n".join(out.get("traceback", [])))
    return None


def _missed(item) -> list[tuple[str, str, list]] | None:
    """The ✗ criteria [(criterion, hint, drawing)] of a check cell, from the verdicts the check handed on as data (a
    display output of the type checks/verdict.py's VERDICT_MIME, never its printed lines); None when it handed on
    none. drawing: the lines of the run a ✗ judged, as the notebook draws them under it (exercise 5), else []."""
    verdicts = [out.get("data", {}).get(VERDICT_MIME) for out in getattr(item, "test_outputs", None) or []
                if out.get("output_type") == "display_data" and VERDICT_MIME in out.get("data", {})]
    if not verdicts:
        return None
    return [(c["criterion"], c["hint"], [str(line) for line in c.get("drawing") or []])
            for v in verdicts for c in v["criteria"] if not c["passed"]]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if item.nodeid not in _cells:
        return
    _note(item, report)
    # Under pytest-xdist this ran in a worker; the controller prints the grade from what the report carries.
    cells = [n for n, c in _cells.items() if c[0] == item.path] if _cells[item.nodeid][2] == "allowed" else [item.nodeid]
    report.exercise_grade = {
        "cells": {n: [str(_cells[n][0]), _cells[n][1], _cells[n][2]] for n in cells},
        "seen": {item.nodeid: list(_seen[item.nodeid])} if item.nodeid in _seen else {},
        "refused": {str(item.path): _refused[item.path]} if item.path in _refused else {},
    }


def pytest_runtest_logreport(report):
    """Record what a report carries (the same values in a single process; a worker's results under xdist)."""
    carried = getattr(report, "exercise_grade", None)
    if not carried:
        return
    for nodeid, (notebook, cell_id, kind) in carried["cells"].items():
        _cells[nodeid] = (Path(notebook), cell_id, kind)
    for nodeid, (outcome, line, criteria) in carried["seen"].items():
        _seen[nodeid] = (outcome, line, [tuple(c) for c in criteria])
    _refused.update({Path(notebook): reason for notebook, reason in carried["refused"].items()})


def _note(item, report):
    notebook, cell_id, kind = _cells[item.nodeid]
    if report.when != "call" and report.outcome == "passed":
        return
    if kind == "allowed" or not report.failed:
        if item.nodeid not in _seen or _seen[item.nodeid][0] == "passed":
            _seen[item.nodeid] = (report.outcome, "", [])
        return
    error = _error_of(item)
    if error is None:  # not a kernel error (e.g. a timeout, a dead kernel): keep pytest's report
        _seen[item.nodeid] = (report.outcome, "failed (see the report above)", [])
        return
    ename, evalue, traceback = error
    criteria = (_missed(item) or []) if kind == "check" and ename == "AssertionError" else []
    if criteria:
        report.longrepr = (f"{cell_id}: {len(criteria)} criterion(s) not met — each ✗ and its hint are in the "
                           "exercise grade at the end")
        line = f"{len(criteria)} criterion(s) not met"
    else:
        tail = "\n".join(traceback.strip().splitlines()[-12:])
        where = "the check itself" if kind == "check" else f"cell '{cell_id}'"
        report.longrepr = f"{where} raised {ename}: {(evalue.splitlines() or [''])[0]}\n\n{tail}"
        line = f"raised {ename}: {(evalue.splitlines() or [''])[0][:160]}"
    _seen[item.nodeid] = (report.outcome, line, criteria)


def pytest_collection_modifyitems(session, config, items):
    """Run the "grading allowed" item first; name cells by id; skip every cell of a notebook that is refused."""
    if not LOCK.exists():
        return
    lock = load_lock()
    refused = _refused
    for item in items:
        if not graded(item.path, lock):
            continue
        if isinstance(item, GradingAllowedItem):
            _cells[item.nodeid] = (item.path, "grading allowed", "allowed")
            reason = refusal(item.path, lock)
            if reason:
                refused[item.path] = reason[0]
        elif getattr(item, "cell", None) is not None:
            cell_id = item.cell.get("id") or item.name
            tags = item.cell.get("metadata", {}).get("tags", [])
            if hasattr(item, "_id"):  # the id JupyterLab shows, not nbval's "Cell 7" (pytest >= 9 keeps a NodeId)
                item._id = item.parent.id.child(cell_id)
            else:
                item._nodeid = f"{item.parent.nodeid}::{cell_id}"
            item.name = cell_id
            shown = f"{_shown_path(config, item.path)}::{cell_id}"
            item.reportinfo = lambda path=item.path, shown=shown: (path, 0, shown)
            item.__dict__.pop("location", None)  # pytest caches it from reportinfo()
            _cells[item.nodeid] = (item.path, cell_id, next(
                (t for t in ("check", "exercise", "locked") if t in tags), "other"))
    items.sort(key=lambda item: not isinstance(item, GradingAllowedItem))  # stable: cells keep their order
    for item in items:
        if item.path in refused and not isinstance(item, GradingAllowedItem):
            item.add_marker(pytest.mark.skip(reason=f"not graded: {refused[item.path]}"))


def _shown_path(config, path: Path) -> str:
    root = Path(config.rootpath)
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def grade_lines(config) -> list[str]:
    lines = []
    refused = _refused
    for notebook in dict.fromkeys(path for path, _, _ in _cells.values()):
        nodes = [n for n, (path, _, _) in _cells.items() if path == notebook]
        if not any(n in _seen for n in nodes):
            continue  # nothing of it ran (e.g. --collect-only, or deselected)
        where = _shown_path(config, notebook)
        if notebook in refused:
            lines.append(f"{where}: NOT GRADED — {refused[notebook]} (see the message above)")
            continue
        checks = [n for n in nodes if _cells[n][2] == "check"]
        passed = [n for n in checks if _seen.get(n, ("",))[0] == "passed"]
        verdict = "PASS" if checks and len(passed) == len(checks) else "FAIL"
        lines.append(f"{where}: {verdict} — {len(passed)} of {len(checks)} checks pass")
        for n in checks:
            outcome, line, criteria = _seen.get(n, ("not run", "not run", []))
            cell_id = _cells[n][1]
            if outcome == "passed":
                lines.append(f"  ✓ {cell_id}")
                continue
            lines.append(f"  ✗ {cell_id}" + ("" if criteria else f" — {line}"))
            for criterion, hint, *drawing in criteria:  # shown by the kit's one rule, as the notebook shows them
                lines.append(f"      ✗ {visible_text(criterion)}")
                if hint:
                    lines.append(f"          hint: {visible_text(hint)}")
                lines += [f"          {line}" for line in (drawing or [[]])[0]]  # (each text in it shown so already)
        for n in nodes:
            if _cells[n][2] != "check" and _cells[n][2] != "allowed" and _seen.get(n, ("",))[0] == "failed":
                lines.append(f"  (cell '{_cells[n][1]}' {_seen[n][1]}: see its report above)")
    return lines


def pytest_unconfigure(config):
    """The grade comes last, after pytest's own summary, so it is what the learner reads first."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if hasattr(config, "workerinput"):
        return  # an xdist worker: the controller prints the grade
    lines = grade_lines(config) if reporter is not None else []
    if lines:
        reporter.write_sep("=", "exercise grade")
        for line in lines:
            reporter.write_line(line)
