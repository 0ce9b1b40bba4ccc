"""Grading an exercise notebook saved anywhere (issue 36; exercises/grade_anywhere.py), as a learner does it.

A copy outside the kit's folder, graded with the README's command from the copy's folder, in a learner's
environment (no HARNESS_* setting of this test session): a solution PASSes, a starter duplicated by JupyterLab under
another name FAILs by its checks, a copy whose check cell was edited is NOT VALID, one renamed with its check cells
deleted is NOT GRADED; graded together with a notebook inside exercises/, the copy is NOT GRADED (one line) and the other
graded. And the 🔒 cell in a kernel: from another folder in JupyterLab it imports the kit's grader; in a run that is
neither JupyterLab nor the grader it stops with one line, never with checks that cannot fail.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from kernel_cells import CodeKernel

ROOT = Path(__file__).resolve().parent.parent
EX1, EX2 = "01_tiered_policy.ipynb", "02_missing_guards.ipynb"


def learner_env() -> dict[str, str]:
    """A learner's shell: none of the settings the kit's conftest files or this session make (the tools' root
    excepted: the copy of workspace/ this session's tools write in)."""
    drop = ("HARNESS_OFFLINE", "HARNESS_AUTO_APPROVE", "HARNESS_GRADING", "HARNESS_SCENARIO", "HARNESS_LANG",
            "PYTHON_DOTENV_DISABLED", "ANTHROPIC_API_KEY", "JPY_SESSION_NAME")
    return {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PYTEST_")}


def edited(source: Path, target: Path, change=None) -> Path:
    nb = json.loads(source.read_text(encoding="utf-8"))
    if change:
        change(nb)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")
    return target


def edit_a_check(nb):
    next(c for c in nb["cells"] if "check" in c["metadata"].get("tags", []))["source"] = "pass"


def drop_the_checks(nb):
    nb["cells"] = [c for c in nb["cells"] if "check" not in c["metadata"].get("tags", [])]


def grade(cwd: Path, *paths) -> tuple[int, str]:
    run = subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:cacheprovider", *map(str, paths)],
                         cwd=cwd, env=learner_env(), capture_output=True, text=True, timeout=300)
    return run.returncode, run.stdout + run.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    desktop = tmp_path_factory.mktemp("Desktop")
    copies = {
        "solution": edited(ROOT / "exercises" / "solutions" / EX1, desktop / EX1),
        "starter": edited(ROOT / "exercises" / EX2, desktop / "renamed" / "02_missing_guards-Copy1.ipynb"),
        "edited": edited(ROOT / "exercises" / "solutions" / EX1, desktop / "edited" / EX1, edit_a_check),
        "no checks": edited(ROOT / "exercises" / "solutions" / EX1, desktop / "gone" / "mine.ipynb", drop_the_checks),
    }
    jobs = {"outside": (desktop, *copies.values()),  # one run, as `pytest --nbval-lax .` on the Desktop would be
            "with one inside": (ROOT, copies["solution"], ROOT / "exercises" / "solutions" / EX2)}
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(grade, *job) for name, job in jobs.items()}
        yield {name: future.result() for name, future in futures.items()}
    shutil.rmtree(desktop, ignore_errors=True)


def section(out: str, name: str) -> str:
    """The lines of the exercise grade about notebook `name` (its verdict line and the ✓ / ✗ lines under it)."""
    lines = out.rsplit(" exercise grade ", 1)[-1].splitlines()  # after the banner (the reports above name it too)
    start = next(i for i, line in enumerate(lines) if line.startswith(name) or f"/{name}:" in line)
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    return "\n".join(lines[start:end])


def test_a_solution_saved_outside_the_kit_passes(runs):
    code, out = runs["outside"]
    assert section(out, EX1).startswith(f"{EX1}: PASS — 6 of 6 checks pass"), out[-3000:]
    assert "Traceback" not in out and code == 1  # 1: the other copies of this run fail


def test_a_starter_duplicated_under_another_name_fails_by_its_checks(runs):
    code, out = runs["outside"]
    graded = section(out, "02_missing_guards-Copy1.ipynb")
    assert "02_missing_guards-Copy1.ipynb: FAIL — 0 of 3 checks pass" in graded, out[-3000:]
    assert "      ✗ run_capped is written and runs" in graded


def test_an_edited_check_cell_is_not_a_grade_outside_the_kit_either(runs):
    code, out = runs["outside"]
    assert f"edited/{EX1}: NOT GRADED — the check cells or the grader's kit were changed" in out, out[-3000:]
    assert "GRADE NOT VALID: the grader's cells were changed" in out


def test_a_copy_without_its_check_cells_is_not_graded_in_one_line(runs):
    code, out = runs["outside"]
    lines = [line for line in out.splitlines() if line.startswith("mine.ipynb")]
    assert lines == ["mine.ipynb: NOT GRADED — its 🔍 CHECK cells are none of an exercise's (deleted, or their ids "
                     "changed): copy them back from the exercise's starter"], out[-3000:]


def test_a_copy_graded_with_a_notebook_inside_the_kit_is_set_apart(runs):
    code, out = runs["with one inside"]
    assert code == 1, out[-3000:]
    assert f"{EX1}: NOT GRADED — grade it in a pytest run of its own" in out
    assert f"exercises/solutions/{EX2}: PASS — 3 of 3 checks pass" in out
    assert out.count("PASS —") == 1, "the copy is not graded, and the notebook inside is graded once"


def run_cells(path: Path, env: dict[str, str], ids: list[str]) -> dict[str, tuple[str, list[str]]]:
    """{cell id: (what it printed, its error's traceback lines)} of the notebook's cells `ids`, run in order in one
    kernel started in the notebook's folder with environment `env`."""
    cells = {c["id"]: "".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]}
    kernel = CodeKernel(path.parent, env)
    try:
        return {cell_id: kernel.run(cells[cell_id]) for cell_id in ids}
    finally:
        kernel.close()


def test_the_grader_cell_in_jupyterlab_from_another_folder_and_in_a_run_without_the_grader(tmp_path):
    copy = edited(ROOT / "exercises" / "solutions" / EX1, tmp_path / EX1)
    committed = {c["id"]: "".join("".join(o.get("text", "")) for o in c.get("outputs", []))
                 for c in json.loads(copy.read_text(encoding="utf-8"))["cells"]}
    ids = ["setup", "send-email", "loop", "grader-kit", "policy", "check-policy"]
    with ThreadPoolExecutor(max_workers=2) as pool:  # the two kernels at once
        lab = pool.submit(run_cells, copy, learner_env() | {"JPY_SESSION_NAME": str(copy), "HARNESS_OFFLINE": "1"}, ids)
        alone = pool.submit(run_cells, copy, learner_env() | {"HARNESS_OFFLINE": "1"}, ["setup", "grader-kit"])
        in_lab, headless = lab.result(), alone.result()
    assert in_lab["grader-kit"][1] == [] and in_lab["check-policy"] == (committed["check-policy"], [])
    out, tb = headless["grader-kit"]
    assert len(tb) == 1 and tb[0].startswith("ModuleNotFoundError: the grader was not loaded: grade with `pytest "
                                             "--nbval-lax NOTEBOOK` run by the kit's venv"), tb  # one line
