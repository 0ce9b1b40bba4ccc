"""Grading plumbing for the exercises: what `pytest --nbval-lax <exercise notebook>` adds to a plain nbval run.

An exercise notebook is graded by its cells tagged `check` (each calls exercises/grading.py, whose checks live in
exercises/checks/, prints ✓ / ✗ per criterion and, under the grader, raises AssertionError while a criterion is not
met), helped by cells tagged `locked` (the import of the grader's kit, shared constants). For every exercise
notebook pytest collects (starter, solution, or a copy anywhere under exercises/, by its file name or, under another
name, by its check cells' ids; a copy outside exercises/ comes through harness_lib/grade_anywhere.py) this file:

1. sets HARNESS_GRADING=1, which the notebook's kernel inherits: a ✗ raises only under the grader, so Run All in
   JupyterLab always reaches every check cell (the ✏️ cells of exercises 2-4 are tagged `raises-exception`, which
   JupyterLab honours by not stopping Run All at them, and nbval by not failing them: the checks judge);
2. adds one test item, "grading allowed", run first. It refuses to grade (and skips every cell of the notebook)
   when the notebook holds something shaped like an Anthropic API key (a cell's source, output or metadata), or
   when the grader's cells are not the shipped ones: every locked cell id still there, a code cell with exactly its
   one tag (`check` or `locked`: an extra `raises-exception` or `nbval-skip` would switch a check off), its source
   hashing to the SHA-256 in exercises/checks.lock, no other cell tagged `check`/`locked`, and the checks' code
   (exercises/grading.py and every module of exercises/checks/) hashing to its digests there;
3. names each notebook cell by its id (`01_tiered_policy.ipynb::check-deny`, not nbval's `Cell 7`) and shortens a
   cell's failure report to what helps: the ✗ criteria of a check (read from the verdict the check hands on as
   data, exercises/checks/verdict.py, never from the lines it printed), the last lines of an error elsewhere;
4. prints the "exercise grade" at the very end: per notebook PASS / FAIL and how many checks pass, then one block
   per check cell — its id, each ✗ criterion and its hint.
Under pytest-xdist (the whole suite, see the root conftest.py) the workers run the cells and the controller prints
the grade: what it needs travels with each test report. (The root conftest.py also resolves pyproject's relative
`--nbval-sanitize-with`, so grading gives the same result from any folder.)

Tamper-evidence, not tamper-proofing: whoever edits this file or the lock can fake a pass; the point is that nobody
does it by accident, and a reviewer sees it. After changing a check cell or the checks' code on purpose, rebuild the
lock from the starters: `python exercises/conftest.py`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from pathlib import Path

import pytest

VERDICT_MIME = "application/vnd.harness-kit.verdict+json"  # checks/verdict.py's: how a check hands on its verdict

HERE = Path(__file__).resolve().parent
LOCK = HERE / "checks.lock"
KIT = HERE / "grading.py"  # the check cells' one entry point
CHECKS = HERE / "checks"  # the checks themselves, one module per exercise (grading.py imports them)
GRADER_TAGS = ("check", "locked")
KEY_SHAPE = re.compile(r"sk-ant-[A-Za-z0-9_\-]{20,}")  # what an Anthropic API key looks like

os.environ["HARNESS_GRADING"] = "1"  # inherited by the kernels nbval starts: a ✗ in a check cell raises


def digest(source) -> str:
    text = "".join(source) if isinstance(source, list) else source
    normalized = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").split("\n")).strip("\n")
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()


def grader_cells(nb: dict) -> list[dict]:
    """[{id, tag, sha256}] for every cell tagged check or locked, in notebook order."""
    found = []
    for cell in nb.get("cells", []):
        tags = cell.get("metadata", {}).get("tags", [])
        tag = next((t for t in GRADER_TAGS if t in tags), None)
        if tag:
            found.append({"id": cell.get("id"), "tag": tag, "sha256": digest(cell.get("source", ""))})
    return found


def code_digests() -> dict[str, str]:
    """{path under exercises/: SHA-256} of the checks' code: grading.py and every module of checks/."""
    return {path.relative_to(HERE).as_posix(): digest(path.read_text(encoding="utf-8"))
            for path in [KIT, *sorted(CHECKS.glob("*.py"))]}


def load_lock() -> dict:
    return json.loads(LOCK.read_text(encoding="utf-8"))


def graded(path: Path, lock: dict | None = None) -> bool:
    return exercise_name(path, lock if lock is not None else load_lock()) is not None


def exercise_name(path: Path, lock: dict) -> str | None:
    """Which exercise a notebook is: its file name when the lock has it; for a copy saved under another name
    (JupyterLab's "Duplicate" makes 01_tiered_policy-Copy1.ipynb), the one whose check cells it holds, by id (the
    most of them; a tie, or none, is no exercise). None for any other file."""
    if path.suffix != ".ipynb" or path.name in lock["notebooks"]:
        return path.name if path.suffix == ".ipynb" else None
    try:
        held = {(e["id"], e["tag"]) for e in grader_cells(json.loads(path.read_text(encoding="utf-8")))}
    except (OSError, ValueError, AttributeError):
        return None
    shared = {name: len(held & {(e["id"], e["tag"]) for e in shipped if e["tag"] == "check"})
              for name, shipped in lock["notebooks"].items()}
    best = max(shared.values(), default=0)
    names = [name for name, n in shared.items() if n == best]
    return names[0] if best and len(names) == 1 else None


def key_findings(nb: dict) -> list[str]:
    """Where the notebook holds something shaped like an Anthropic API key: ["cell 'x' (source)", ...]: a cell's
    source, outputs or metadata, or the notebook's metadata."""
    found = []
    for i, cell in enumerate(nb.get("cells", [])):
        name = cell.get("id") or f"number {i + 1}"
        source = cell.get("source", "")
        if KEY_SHAPE.search("".join(source) if isinstance(source, list) else source):
            found.append(f"cell '{name}' (source)")
        if KEY_SHAPE.search(json.dumps(cell.get("outputs", []))):
            found.append(f"cell '{name}' (output)")
        if KEY_SHAPE.search(json.dumps(cell.get("metadata", {}))):
            found.append(f"cell '{name}' (metadata)")
    if KEY_SHAPE.search(json.dumps(nb.get("metadata", {}))):
        found.append("the notebook's metadata")
    return found


def problems(path: Path, lock: dict) -> list[str]:
    """What differs between the notebook's grader cells (and the kit) and the shipped ones ([] when intact)."""
    name = exercise_name(path, lock)
    shipped = lock["notebooks"][name]
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        return [f"the notebook cannot be read: {err}"]
    found = []
    code = lock.get("code")
    if not isinstance(code, dict) or KIT.name not in code:
        found.append("exercises/checks.lock holds no digest of the checks' code")
        code = {}
    for name, sha256 in code.items():
        try:
            if digest((HERE / name).read_text(encoding="utf-8")) != sha256:
                found.append(f"exercises/{name} (the checks' code) was edited")
        except OSError:
            found.append(f"exercises/{name} (the checks' code) is missing")
    for path in sorted(CHECKS.glob("*.py")):
        if path.relative_to(HERE).as_posix() not in code:
            found.append(f"exercises/{path.relative_to(HERE).as_posix()} is not one of the checks' files")
    cells = {c.get("id"): c for c in nb.get("cells", [])}
    for entry in shipped:
        cell_id, tag = entry["id"], entry["tag"]
        cell = cells.get(cell_id)
        if cell is None:
            found.append(f"the {tag} cell '{cell_id}' was deleted (or its id changed)")
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.get("cell_type") != "code":
            found.append(f"the {tag} cell '{cell_id}' is no longer a code cell")
        if tags != [tag]:
            found.append(f"the {tag} cell '{cell_id}' has tags {tags}, not exactly ['{tag}']")
        if digest(cell.get("source", "")) != entry["sha256"]:
            found.append(f"the {tag} cell '{cell_id}' was edited")
    expected = {(e["id"], e["tag"]) for e in shipped}
    for entry in grader_cells(nb):
        if (entry["id"], entry["tag"]) not in expected:
            found.append(f"cell '{entry['id']}' is tagged {entry['tag']} but is not one of the shipped ones")
    counts = {t: sum(e["tag"] == t for e in grader_cells(nb)) for t in GRADER_TAGS}
    shipped_counts = {t: sum(e["tag"] == t for e in shipped) for t in GRADER_TAGS}
    if counts != shipped_counts:
        found.append(f"cells per tag: {counts}, shipped: {shipped_counts}")
    return found


def refusal(path: Path, lock: dict) -> tuple[str, str] | None:
    """(short reason, full message) when the notebook must not be graded, else None."""
    try:
        keys = key_findings(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        keys = []
    if keys:
        return ("it holds something shaped like an Anthropic API key",
                f"GRADE REFUSED: {path.name} holds something shaped like an Anthropic API key "
                f"(sk-ant-…) in {', '.join(keys)}.\nThe notebook was not run. Delete it from that cell (clear the "
                "cell's output too), save, and grade again; if it is a real key, revoke it in the Anthropic "
                "Console — it may already be in your git history. Set keys in the environment, never in a notebook.")
    found = problems(path, lock)
    if found:
        return ("the check cells or the grader's kit were changed",
                f"GRADE NOT VALID: the grader's cells were changed in {path.name}.\n"
                + "".join(f"  - {p}\n" for p in found)
                + "The notebook was not run: checks that may have been edited prove nothing. Put the 🔍 CHECK and "
                "🔒 cells back exactly as shipped — `git checkout -- exercises/grading.py exercises/checks` for the "
                "checks' code; for a cell, copy it from a fresh copy of the starter "
                f"(`git show HEAD:exercises/{exercise_name(path, lock)}`), or "
                f"`git checkout -- <the notebook>` (that also drops your answers: copy them out first).")
    return None


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
            for criterion, hint, *drawing in criteria:
                lines.append(f"      ✗ {criterion}")
                if hint:
                    lines.append(f"          hint: {hint}")
                lines += [f"          {line}" for line in (drawing or [[]])[0]]
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


def starter_record(nb: dict) -> dict:
    """How a starter ships: the ids of its code cells, and the digest of each ✏️ exercise cell. The gradebook tells
    an edition nobody wrote in by it (grader/gradebook.py, `untouched`)."""
    code = [c for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    return {"code": [c.get("id") for c in code],
            "exercise": {c.get("id"): digest(c.get("source", "")) for c in code
                         if "exercise" in c.get("metadata", {}).get("tags", [])}}


def build_lock() -> dict:
    """The lock, from the starters and the checks' code; the solutions must have the very same grader cells. Also,
    per exercise, each edition's starter as shipped (`starters`: exercises/NAME, exercises/es/NAME)."""
    lock = {"code": code_digests(), "notebooks": {}, "starters": {}}
    for starter in sorted(HERE.glob("*.ipynb")):
        lock["notebooks"][starter.name] = grader_cells(json.loads(starter.read_text(encoding="utf-8")))
        lock["starters"][starter.name] = {
            edition.relative_to(HERE).as_posix(): starter_record(json.loads(edition.read_text(encoding="utf-8")))
            for edition in [starter, *sorted(HERE.glob(f"*/{starter.name}"))]
            if edition.parent.name != "solutions" and not edition.parent.name.startswith("_")}
        solution = HERE / "solutions" / starter.name
        if solution.exists():
            mismatch = problems(solution, lock)
            if mismatch:
                raise SystemExit(f"{solution.relative_to(HERE.parent)}: " + "; ".join(mismatch))
    return lock


if __name__ == "__main__":
    LOCK.write_text(json.dumps(build_lock(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {LOCK.relative_to(HERE.parent)}", file=sys.stderr)
