"""The exercises' lock: which notebook is an exercise, whether its grader's cells and the checks' code are the shipped
ones, and whether it may be graded at all. Plain functions over files, no pytest: the learner's grade
(exercises/plugin.py, through exercises/conftest.py), grading anywhere (exercises/grade_anywhere.py) and the
teacher's gradebook (grader/submissions.py) all import this one module.

exercises/checks.lock holds the SHA-256 of every cell tagged `check` or `locked` of each starter, of exercises/grading.py
and of every module of exercises/checks/, and each starter as shipped. A notebook is refused (`refusal`) when it holds
something shaped like an Anthropic API key (a cell's source, output or metadata), or when the grader's cells are not
the shipped ones: every locked cell id still there, a code cell with exactly its one tag (`check` or `locked`: an extra
`raises-exception` or `nbval-skip` would switch a check off), its source hashing to the lock's digest, no other cell
tagged `check`/`locked`, and the checks' code hashing to its digests there.

Tamper-evidence, not tamper-proofing: whoever edits this file or the lock can fake a pass; the point is that nobody
does it by accident, and a reviewer sees it. After changing a check cell or the checks' code on purpose, rebuild the
lock from the starters: `python -m exercises.lock` (tests/test_structure.py fails while it is stale).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
LOCK = HERE / "checks.lock"
KIT = HERE / "grading.py"  # the check cells' one entry point
CHECKS = HERE / "checks"  # the checks themselves, one module per exercise (grading.py imports them)
GRADER_TAGS = ("check", "locked")
KEY_SHAPE = re.compile(r"sk-ant-[A-Za-z0-9_\-]{20,}")  # what an Anthropic API key looks like


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


def main() -> None:
    LOCK.write_text(json.dumps(build_lock(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {LOCK.relative_to(HERE.parent)}", file=sys.stderr)


if __name__ == "__main__":
    main()
