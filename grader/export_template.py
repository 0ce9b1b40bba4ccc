"""Export a student template repository from the kit, for GitHub Classroom (or any class).

    python -m grader.export_template OUT_DIR          (from the repository root; OUT_DIR must not exist)

What goes in: the lessons (notebooks/), the exercise starters and their checks (exercises/ without solutions/),
the teacher's grader (grader/, which Classroom's workflow runs), harness_lib/, workspace/, the files that install
and configure the kit, docs/architecture.md, the Classroom workflow (.github/workflows/classroom.yml) with its
switch, .github/classroom-template, and a README for students.
What stays with the teacher: exercises/solutions/ and exercises/es/solutions/, the kit's tests and benchmarks,
docs/teaching.md (it lists the common wrong answers), the fork workflow grade.yml, CI files.

Then: `cd OUT_DIR && git init && git add . && git commit -m "Exercises"`, push it to a new repository, mark that
repository as a template, and pick it as the starter code of a GitHub Classroom assignment.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from . import gradebook
from .sandbox import GRADER_FILES, LEARNER_FILES

ROOT = Path(__file__).resolve().parent.parent

KEEP = LEARNER_FILES + GRADER_FILES  # (grader/sandbox.py: LEARNER_FILES is what a graded kernel sees of the kit)
DROP = ("exercises/solutions/", "exercises/es/solutions/", "exercises/_grading_tmp_", "grader/export_template.py")

MARKER = """This file switches on .github/workflows/classroom.yml: a repository holding it is a Classroom copy, and
every push is graded, one score per exercise. Delete it to switch the autograding off.
"""

README = """# Agent harness fundamentals — your exercises

Write an LLM agent harness by hand, in Python, on the real Anthropic SDK: the `stop_reason` while-loop, exact
`tool_use` / `tool_result` blocks, the four control valves (turn cap, token budget, no-progress detection, a
human approval gate), then a tiered allow / ask / deny tool policy. Everything runs without an API key: an
offline model answers through the real SDK.

## Start

With Python 3.11 or newer, from this folder:

```bash
python3 -m venv .venv && . .venv/bin/activate   # Windows: py -m venv .venv, then .venv\\Scripts\\activate
pip install -r requirements.txt
jupyter lab                                      # then open notebooks/00_setup.ipynb
```

Read the lessons in `notebooks/` in order (00 → 06), then do the exercises in `exercises/`.

## The exercises and your grade

| notebook | you write |
|---|---|
{table}

Fill in the cells marked ✏️ EXERCISE and run the 🔍 CHECK cell under each: ✓ or ✗ per criterion, with a hint
under each ✗. Don't edit the 🔍 CHECK and 🔒 cells, nor the files in `exercises/` other than the notebooks.

Grade yourself before you push (same checks as your teacher's):

```bash
pytest --nbval-lax exercises/01_tiered_policy.ipynb
```

**Every push is graded** (the Actions tab, "Autograding Tests"): each exercise scores its points when every
check of its notebook passes, else 0. The log lists each ✗ criterion with its hint. Commit your *saved*
notebooks. Only the ✏️ cells (and cells you add) are graded; code that changes the grader is not graded and is
shown to your teacher. Never put an API key in a notebook: such a notebook is not graded.
"""

EXERCISE_ROWS = {
    "01_tiered_policy.ipynb": "`POLICY`, `DEFAULT_TIER` and `run_tool_uses`: a per-tool allow / ask / deny valve",
    "02_missing_guards.ipynb": "`DIAGNOSIS`, `MAX_TURNS` and `run_capped`: what a bare loop lacks, and a turn cap",
    "03_budget_and_progress.ipynb": "valves 2 and 3 by hand: what a response costs, the token budget, a turn's "
                                    "signature and the no-progress check",
    "04_the_approval_gate.ipynb": "why asking after a tool ran is no gate, and the gate before execution, failing "
                                  "closed",
    "05_your_harness.ipynb": "the capstone: a whole `run_agent` and its `POLICY` from a blank cell, graded against "
                             "a gauntlet of runs that go wrong",
}


def kit_files() -> list[str]:
    """The kit's files as the gradebook lists them (git's, else a walk), relative to the root."""
    return sorted(p.relative_to(ROOT).as_posix() for p in gradebook.kit_files())


def chosen(files: list[str]) -> list[str]:
    return [f for f in files if f.startswith(KEEP) and not f.startswith(DROP) and (ROOT / f).is_file()]


# The template has no solutions/ folder, so where a lesson or starter points to it, the copy points to the teacher.
ELSEWHERE = {"`exercises/solutions/`": "your teacher's copy of the kit",
             "`exercises/es/solutions/`": "la copia del kit de tu profesor o profesora"}


def point_to_the_teacher(path: Path) -> None:
    """In an exported notebook's markdown cells, name the teacher's copy instead of a solutions/ folder that is
    not there, and leave out what the notebook was built from (`metadata.edition`: a starter's is its solution).
    Code cells (and so the graded 🔒 / 🔍 cells) are left exactly as they are."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    changed = nb.get("metadata", {}).pop("edition", None) is not None
    for cell in nb.get("cells", []):
        source = "".join(cell.get("source", []))
        if cell.get("cell_type") == "markdown" and any(k in source for k in ELSEWHERE):
            for before, after in ELSEWHERE.items():
                source = source.replace(before, after)
            cell["source"], changed = source.splitlines(keepends=True), True
    if changed:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def export(out: Path) -> list[str]:
    if out.exists():
        raise SystemExit(f"{out} exists: give a folder that does not exist yet")
    files = chosen(kit_files())
    for f in files:
        (out / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, out / f)
    for f in files:
        if f.endswith(".ipynb"):
            point_to_the_teacher(out / f)
    exercises = sorted(p.name for p in (ROOT / "exercises").glob("[0-9]*.ipynb"))
    table = "\n".join(f"| `exercises/{name}` | {EXERCISE_ROWS.get(name, 'see the notebook')} |" for name in exercises)
    (out / "README.md").write_text(README.format(table=table), encoding="utf-8")
    (out / ".github").mkdir(parents=True, exist_ok=True)
    (out / ".github" / "classroom-template").write_text(MARKER, encoding="utf-8")
    return files + ["README.md", ".github/classroom-template"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m grader.export_template", description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="the folder to create")
    args = p.parse_args(argv)
    files = export(args.out)
    print(f"wrote {len(files)} files to {args.out} (no exercises/solutions/); next: git init there, push, "
          "mark the repository as a template")
    return 0


if __name__ == "__main__":
    sys.exit(main())
