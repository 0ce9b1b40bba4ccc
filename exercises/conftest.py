"""Grading plumbing for the exercises: tamper-evidence for the grader's cells.

An exercise notebook is graded by its cells tagged `check` (they print ✓ / ✗ and raise AssertionError while a
criterion is not met), helped by cells tagged `locked` (the grader's kit, shared constants). A grade means
something only if those cells are the shipped ones, so for every exercise notebook pytest collects (starter,
solution, or a copy with the same file name anywhere under exercises/) this adds one more test item,
"grader cells unchanged", that compares them with exercises/checks.lock:

- every locked cell id is still there, is a code cell, and carries exactly its one tag (`check` or `locked`:
  an extra `raises-exception` or `nbval-skip` tag would switch the check off);
- its source hashes to the shipped SHA-256 (line endings and trailing whitespace do not count);
- no other cell carries a `check` or `locked` tag (the counts match).

If anything differs, that item fails with a message naming each changed cell, and the notebook's own cells are
skipped: checks that may have been edited prove nothing. This is tamper-evidence, not tamper-proofing: whoever
edits this file or the lock can fake a pass; the point is that nobody does it by accident, and a reviewer sees it.

After changing a check cell on purpose, rebuild the lock from the starters: `python exercises/conftest.py`.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
LOCK = HERE / "checks.lock"
GRADER_TAGS = ("check", "locked")


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


def load_lock() -> dict:
    return json.loads(LOCK.read_text(encoding="utf-8"))


def problems(path: Path, lock: dict) -> list[str]:
    """What differs between the notebook's grader cells and the shipped ones ([] when intact)."""
    shipped = lock[path.name]
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        return [f"the notebook cannot be read: {err}"]
    cells = {c.get("id"): c for c in nb.get("cells", [])}
    found = []
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


class GraderCellsChanged(Exception):
    """The check cells of a notebook are not the shipped ones."""


class GraderCellsItem(pytest.Item):
    def runtest(self):
        found = problems(self.path, load_lock())
        if found:
            raise GraderCellsChanged(
                f"GRADE NOT VALID: the check cells were changed in {self.path.name}.\n"
                + "".join(f"  - {p}\n" for p in found)
                + "The 🔍 CHECK and 🔒 cells must be exactly the shipped ones (exercises/checks.lock); this grade\n"
                "skipped the notebook. Restore those cells — exercises/solutions/ has the same ones — and grade again.")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, GraderCellsChanged):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: grader cells unchanged"


class GraderCellsFile(pytest.File):
    def collect(self):
        yield GraderCellsItem.from_parent(self, name="grader cells unchanged")


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix == ".ipynb" and LOCK.exists() and file_path.name in load_lock():
        return GraderCellsFile.from_parent(parent, path=file_path)
    return None


# ---- the grade summary: one line per check cell, by its id, at the end of the run ----------------------

_cells: dict[str, tuple[Path, str, str]] = {}  # nodeid -> (notebook, cell id, tag)
_seen: dict[str, tuple[str, str]] = {}  # nodeid -> (outcome, failure text)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def pytest_runtest_logreport(report):
    if report.nodeid in _cells and (report.when == "call" or report.outcome != "passed"):
        if report.nodeid not in _seen or _seen[report.nodeid][0] == "passed":
            _seen[report.nodeid] = (report.outcome, _ANSI.sub("", str(report.longrepr or "")))


def pytest_terminal_summary(terminalreporter):
    if not _seen:
        return
    write = terminalreporter.write_line
    terminalreporter.section("exercise grade")
    for notebook in dict.fromkeys(path for path, _, _ in _cells.values()):
        nodes = [n for n, (path, _, _) in _cells.items() if path == notebook]
        if not any(n in _seen for n in nodes):
            continue  # nothing of it ran (e.g. --collect-only, or deselected)
        intact = [n for n in nodes if _cells[n][2] == "unchanged"]
        checks = [n for n in nodes if _cells[n][2] == "check"]
        passed = [n for n in checks if _seen.get(n, ("",))[0] == "passed"]
        where = notebook.relative_to(terminalreporter.config.rootpath) if notebook.is_relative_to(
            terminalreporter.config.rootpath) else notebook
        if any(_seen.get(n, ("",))[0] != "passed" for n in intact):
            write(f"{where}: NOT GRADED — the check cells were changed (see the failure above)")
            continue
        verdict = "PASS" if checks and len(passed) == len(checks) else "FAIL"
        write(f"{where}: {verdict} — {len(passed)} of {len(checks)} checks pass")
        for n in checks:
            outcome, text = _seen.get(n, ("not run", ""))
            if outcome == "passed":
                write(f"  ✓ {_cells[n][1]}")
                continue
            title = re.search(r"AssertionError: (.*): \d+ criterion\(s\) not met", text)
            write(f"  ✗ {_cells[n][1]} — {title.group(1) if title else outcome + ' (the cell raised; see above)'}")
            for line in text.splitlines():
                if line.startswith("✗ "):
                    write(f"      {line}")
        for n in nodes:
            if _cells[n][2] == "exercise" and _seen.get(n, ("",))[0] == "failed":
                write(f"  (the exercise cell '{_cells[n][1]}' raised an error)")


def pytest_collection_modifyitems(session, config, items):
    """Run the tamper check first; skip every cell of a notebook whose grader cells were changed."""
    if not LOCK.exists():
        return
    lock = load_lock()
    for item in items:
        if item.path.name not in lock:
            continue
        if isinstance(item, GraderCellsItem):
            _cells[item.nodeid] = (item.path, "", "unchanged")
        elif getattr(item, "cell", None) is not None:
            tags = item.cell.get("metadata", {}).get("tags", [])
            _cells[item.nodeid] = (item.path, item.cell.get("id"), next(
                (t for t in ("check", "exercise", "locked") if t in tags), "other"))
    tampered = {item.path for item in items if isinstance(item, GraderCellsItem) and problems(item.path, lock)}
    items.sort(key=lambda item: not isinstance(item, GraderCellsItem))  # stable: notebooks keep their cell order
    skip = pytest.mark.skip(reason="the check cells were changed: the checks of this notebook prove nothing")
    for item in items:
        if item.path in tampered and not isinstance(item, GraderCellsItem):
            item.add_marker(skip)


def build_lock() -> dict:
    """The lock, from the starters; the solutions must have the very same grader cells."""
    lock = {}
    for starter in sorted(HERE.glob("*.ipynb")):
        lock[starter.name] = grader_cells(json.loads(starter.read_text(encoding="utf-8")))
        solution = HERE / "solutions" / starter.name
        if solution.exists():
            mismatch = problems(solution, lock)
            if mismatch:
                raise SystemExit(f"{solution.relative_to(HERE.parent)}: " + "; ".join(mismatch))
    return lock


if __name__ == "__main__":
    LOCK.write_text(json.dumps(build_lock(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {LOCK.relative_to(HERE.parent)}", file=sys.stderr)
