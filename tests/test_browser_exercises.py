"""Run All on an exercise in a real JupyterLab (headless Chromium) reaches every 🔍 CHECK cell.

A check prints ✓ / ✗ and does not raise outside the grader, and a "try it" cell catches a broken valve's error and
prints it in one line, so Run All on a wrong answer never stops before the checks. Opened here: every untouched
starter, the reference answers of exercises 3 and 4 (every check ✓, no error output), and a copy of exercise 1's
solution with a classic mistake (every content block treated as a tool call, so the try cells' runs break). Runs in
the session's JupyterLab and Chromium page (tests/conftest.py). Each notebook's Run All happens once per test
session (browser_support.run_all_once): exercise 3's solution is also read by test_browser_inspector.py, from the
same run, whichever file asks first. Skipped (loudly) without Chromium or playwright; failing instead when CI=true.
Screenshots go to .test-output/screenshots/: the whole notebook when its Run All went wrong (and the window after
each Run All with KIT_TEST_SCREENSHOTS=1).
"""

from __future__ import annotations

import json
import shutil
import uuid

import pytest

from browser_support import (DECISION, REPO, RUN_ALL_ENV, RUN_ALL_TIMEOUT_S, LabPage, RunAll, run_all_once,
                             shot_name)

pytestmark = pytest.mark.browser

STARTERS = ["exercises/01_tiered_policy.ipynb", "exercises/02_missing_guards.ipynb",
            "exercises/03_budget_and_progress.ipynb", "exercises/04_the_approval_gate.ipynb",
            "exercises/05_your_harness.ipynb"]
# (exercise 5's solution asks only scripted approvers, no buttons: its every check ✓ is shown under nbval,
# tests/test_capstone.py; here its starter's Run All reaches every check)
SOLUTIONS = ["exercises/solutions/03_budget_and_progress.ipynb", "exercises/solutions/04_the_approval_gate.ipynb"]
# A person's Run All: nobody clicks, no switch. Exercise 01's try cells press their own buttons (click=...), so
# nothing waits; were one to wait for a person, it would end after 3 s with a "no answer" line, reported below.
PERSON_ENV = {"HARNESS_AUTO_APPROVE": "", "HARNESS_APPROVAL_TIMEOUT": "3"}
EXERCISE_01 = ["exercises/solutions/01_tiered_policy.ipynb", "exercises/es/solutions/01_tiered_policy.ipynb"]
WRONG_COPY = "01_tiered_policy.ipynb"  # under exercises/_browser_tmp_*/, so the kit is found the same way


def every_block_is_a_call() -> dict:
    nb = json.loads((REPO / "exercises" / "solutions" / WRONG_COPY).read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c.get("id") == "run-tool-uses")
    text = "".join(cell["source"])
    old = '    calls = [block for block in content if block.type == "tool_use"]'
    assert text.count(old) == 1, "the solution changed: update this test's edit"
    cell["source"] = text.replace(old, "    calls = list(content)")
    return nb


@pytest.fixture(scope="module")
def wrong_copy():
    folder = REPO / "exercises" / f"_browser_tmp_{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    (folder / WRONG_COPY).write_text(json.dumps(every_block_is_a_call(), indent=1, ensure_ascii=False), encoding="utf-8")
    try:
        yield f"exercises/{folder.name}/{WRONG_COPY}"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_all_reaches_every_check(lab_page: LabPage, path: str, passing: bool = False, next_path: str | None = None,
                                env: dict = RUN_ALL_ENV, shot: str | None = None) -> list[str]:
    """Run All on `path` (RUN_ALL_ENV: approval cells click the button they name, as under nbval; once per session:
    run_all_once); [] when every check cell ran and printed its ✓ / ✗ lines (with passing=True: only ✓), else what
    went wrong."""
    return check_problems(run_all_once(lab_page, path, env, next_path, shot), passing, person=env is PERSON_ENV)


def check_problems(run: RunAll, passing: bool, person: bool = False) -> list[str]:
    path = run.path
    problems = [f"{path}: the browser run saved the notebook"] if run.saved else []
    if not run.finished:
        return [f"{path}: Run All still running after {RUN_ALL_TIMEOUT_S} s", *problems]
    if run.state != "ok":
        problems.append(f"{path}: Run All stopped early ({run.state})")
    info = run.cells
    stdout = [shown["stdout"] for shown in run.shown]
    checks = [i for i, c in enumerate(info) if "check" in c["tags"]]
    if not checks:
        problems.append(f"{path}: no check cell found")
    for i in checks:
        printed = stdout[i]
        if info[i]["count"] is None:
            problems.append(f"{path}: check cell {i} never ran")
        elif info[i]["errors"]:
            problems.append(f"{path}: check cell {i} raised {info[i]['errors']}")
        elif not printed.startswith("🔍 ") or not any(f"  {mark} " in printed for mark in ("✓", "✗")):
            problems.append(f"{path}: check cell {i} printed no criteria: {printed[:300]!r}")
        elif passing and "  ✗ " in printed:
            problems.append(f"{path}: check cell {i} has a ✗: {printed[:300]!r}")
    for i, c in enumerate(info):
        if c["type"] == "code" and (c["count"] is None or c["errors"]):
            problems.append(f"{path}: cell {i} {'did not run' if c['count'] is None else c['errors']}")
        printed = stdout[i] if c["type"] == "code" else ""
        if "(no answer" in printed or "(nadie respondió" in printed:
            problems.append(f"{path}: cell {i} waited for a person until its approval timed out: {printed[:300]!r}")
    if person:  # nobody clicked: every decision must be the code's own click, and say so
        decisions = [d for i in range(len(info)) for d in DECISION.findall(stdout[i])]
        by_code = [d for d in decisions if d.endswith(("(clicked by the code, not by a person)",
                                                       "(el clic lo hizo el código, no una persona)"))]
        if not decisions or by_code != decisions:
            problems.append(f"{path}: decisions {decisions}, expected only the code's own clicks")
    return problems


def test_run_all_on_the_starters_reaches_every_check(browser):
    lab_page, netlog = browser
    problems = []
    for path, next_path in zip(STARTERS, [*STARTERS[1:], None]):
        problems += run_all_reaches_every_check(lab_page, path, next_path=next_path)
    assert not problems, "\n".join(problems)
    assert not netlog.outside_loopback(), netlog.outside_loopback()[:10]


def test_run_all_on_the_newer_solutions_passes_every_check(browser):
    """Exercises 3 and 4's reference answers in JupyterLab: Run All, no error output, and no ✗ in any check."""
    lab_page, netlog = browser
    problems = []
    for path, next_path in zip(SOLUTIONS, [*SOLUTIONS[1:], None]):
        problems += run_all_reaches_every_check(lab_page, path, passing=True, next_path=next_path)
    assert not problems, "\n".join(problems)
    assert not netlog.outside_loopback(), netlog.outside_loopback()[:10]


def test_run_all_on_a_wrong_answer_reaches_every_check(browser, wrong_copy):
    lab_page, netlog = browser
    problems = run_all_reaches_every_check(lab_page, wrong_copy, shot="wrong-answer")
    assert not problems, "\n".join(problems)
    assert not netlog.outside_loopback(), netlog.outside_loopback()[:10]


def test_run_all_on_exercise_01_waits_for_nobody(browser):
    """A person's Run All of exercise 01's reference answers (both editions): nobody clicks, and yet every cell ends
    at once, every check is ✓, and the try cells' approvals are the code's own clicks, said so in their lines."""
    lab_page, netlog = browser
    problems = []
    for path, next_path in zip(EXERCISE_01, [*EXERCISE_01[1:], None]):
        problems += run_all_reaches_every_check(lab_page, path, passing=True, next_path=next_path,
                                                env=PERSON_ENV, shot=f"{shot_name(path)}-person")
    assert not problems, "\n".join(problems)
    assert not netlog.outside_loopback(), netlog.outside_loopback()[:10]
