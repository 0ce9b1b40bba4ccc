"""Exercise 5, the capstone (exercises/05_your_harness.ipynb), grades as promised:

- the solution PASSES in both editions and the starter FAILS with a ✗ saying what to write first, through the
  learner's own command (`pytest --nbval-lax <notebooks>`: one run of the solution, both starters and a wrong answer
  saved as a copy); the wrong answer gets, under each check's first ✗, its run drawn beside the reference, as the
  notebook draws it;
- wrong answers (tests/capstone_cases.py: WRONG, each valve missing, misplaced or miscounted, two valves in the
  wrong order, a policy that lets the injected delete through, results out of order or split or sent without the
  assistant's message before them (the API's 400, whole, is the hint), a gate never
  consulted, asked after running or not awaited, a loop that ignores pause_turn, state that outlives a run, a
  harness tuned to the practice runs ...) each fail, the first ✗ of the check that guards it names the planted
  cause (its line and its hint), and no later ✗ of that check names another;
- one mistake is one cause across the four checks: the four checks hold one ✗ not marked `follows` (ONE_CAUSE);
- right answers in other styles (RIGHT: asyncio.gather, the library's valves, a `match` on stop_reason returning an
  AgentResult, another policy within the rules, a strict policy with short reasons, the usage fields added by name)
  PASS every check;
- the blind round (tests/capstone_blind.py: 44 answers written blind to the checks, each whole): each wrong one's
  first ✗ names its planted cause, each right one PASSES;
- the gradebook's judge prints the same lines, byte for byte, as the check run beside the notebook (JUDGED: the
  solution and answers of each kind), with the learner's side a thread of this process (as tests/test_judge.py).

The cases edit only the solution's ✏️ cells (`policy`, `run-agent`; every edit must apply exactly once) and run in
two long-lived kernels (tests/kernel_cells.py; every other case in each), as nbval runs a notebook, with the
environment of a grading run (HARNESS_GRADING=1: a check with a ✗ raises), beside the learner's grading command:
two threads at most.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernel_cells import KernelTrouble, NotebookKernel
from capstone_cases import BLIND_ACROSS, BLIND_WRONG, NAME, RIGHT, WRONG
from test_exercises import FOLLOWS, edited as edited_solution, source as _source
from test_judge import judged, namespace, printed

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
CHECK_IDS = ("check-policy", "check-loop", "check-valves", "check-gate")
FOLLOWS_FROM = FOLLOWS.split(" the ✗")[0]  # a ✗ whose hint starts so follows from another ✗: not a cause of its own


def edited(case: str, changes: dict) -> dict:
    """The solution with the case's ✏️ cells edited (tests/test_exercises.py's edit), less its drawings."""
    nb = edited_solution(case, NAME, changes)
    drop = {"practice-kit", "try-it"}  # the drawings cost time and decide nothing
    nb["cells"] = [c for c in nb["cells"] if c.get("id") not in drop]
    return nb


def grading_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "HARNESS_SCENARIO", "HARNESS_GRADING",
                                                            "ANTHROPIC_API_KEY")}
    return env | {"HARNESS_OFFLINE": "1", "PYTHON_DOTENV_DISABLED": "1"}


def run_cases(half: int) -> dict:
    """{case: {cell id: Cell}} of every other case (`half` 0: the first, 1: the second) in one kernel: the fixture
    runs the two halves in two kernels at once."""
    results = {}
    env = grading_env() | {"HARNESS_GRADING": "1"}
    cases = [*((c, v[0]) for c, v in WRONG.items()), *RIGHT.items()]
    with NotebookKernel(EXERCISES / "solutions", env, timeout=120) as kernel:
        for case, changes in cases[half::2]:
            nb = edited(case, changes)
            if case in WRONG and case not in ALL_FOUR:  # only the check its assertion reads (the checks change
                # nothing the next one reads); one-cause cases run all four
                nb["cells"] = [c for c in nb["cells"] if c["id"] not in CHECK_IDS or c["id"] == WRONG[case][1]]
            try:
                results[case] = {c.id: c for c in kernel.run(nb)}
            except KernelTrouble as err:
                results[case] = f"{case}: {err}"
    return results


DRAWN = "drawn"  # the wrong answer graded beside the four notebooks, its runs drawn under each check's first ✗


def learners_grade(tmp: Path) -> tuple[int, str]:
    """The learner's command, one run: the English solution, both starters (the Spanish solution is the same program,
    tests/test_spanish_edition.py; its checks' words are the starter's) and a wrong answer saved as a copy under
    exercises/ (graded by its file name, as exercises/conftest.py says)."""
    wrong = tmp / DRAWN / NAME
    wrong.parent.mkdir(parents=True)
    wrong.write_text(json.dumps(edited_solution("progress-names-only", NAME, WRONG["progress-names-only"][0])),
                     encoding="utf-8")
    notebooks = [f"exercises/solutions/{NAME}", f"exercises/{NAME}", f"exercises/es/{NAME}",
                 wrong.relative_to(ROOT).as_posix()]
    proc = subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:randomly", *notebooks], cwd=ROOT,
                          env=grading_env(), text=True, timeout=600, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.returncode, proc.stdout


@pytest.fixture(scope="module")
def runs():
    tmp = EXERCISES / f"_grading_tmp_{uuid.uuid4().hex[:8]}"  # (git-ignored; deleted afterwards)
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:  # the learner's grade while the first kernel runs
            halves = [pool.submit(run_cases, 0), pool.submit(learners_grade, tmp), pool.submit(run_cases, 1)]
            return {"cases": halves[0].result() | halves[2].result(), "grade": halves[1].result()}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def crosses(cell) -> list[tuple[str, str]]:
    """[(✗ line, its hint)] a check cell printed, in order."""
    lines = [line.strip() for line in cell.stdout.splitlines()]
    return [(line, lines[i + 1].split(": ", 1)[-1] if i + 1 < len(lines) else "")
            for i, line in enumerate(lines) if line.startswith("✗ ")]


def overview(cells: dict) -> str:
    return "\n".join(f"  {c.id}: " + (f"raised {c.error[0]}" if c.raised else "ok") + "".join(
        f"\n      {line}  ← {hint}" for line, hint in crosses(c)) for c in cells.values() if c.id in CHECK_IDS)


def test_every_exercise_cell_is_tagged_raises_exception():
    """A learner's error in a ✏️ cell does not stop Run All (JupyterLab) nor fail that cell (nbval): the checks say
    it (a-syntax-error above). In the four notebooks; no grader cell carries the tag."""
    for folder in ("", "solutions/", "es/", "es/solutions/"):
        cells = json.loads((EXERCISES / folder / NAME).read_text(encoding="utf-8"))["cells"]
        mine = [c for c in cells if "exercise" in c["metadata"].get("tags", [])]
        assert [c["id"] for c in mine] == ["policy", "run-agent"], folder
        assert all("raises-exception" in c["metadata"]["tags"] for c in mine), folder
        assert not [c["id"] for c in cells if {"check", "locked"} & set(c["metadata"].get("tags", []))
                    and "raises-exception" in c["metadata"]["tags"]], folder


def test_the_solution_passes_and_the_starter_says_what_to_write_first(runs):
    code, out = runs["grade"]
    assert code == 1, out[-3000:]  # the starters fail
    assert f"exercises/solutions/{NAME}: PASS — 4 of 4 checks pass" in out, out[-6000:]
    grade = out.split(" exercise grade ", 1)[-1]
    assert f"exercises/{NAME}: FAIL — 0 of 4 checks pass" in grade, grade
    starter = grade.split(f"exercises/{NAME}: ", 1)[1].split("exercises/es/", 1)[0]
    assert "raised" not in starter, starter  # every check ran to its verdict
    assert "✗ POLICY gives each of the six mail tools a pair (tier, reason)\n          hint: list_messages has no " \
           "entry in POLICY" in starter, starter
    assert starter.count("✗ run_agent is written and runs\n          hint: write run_agent: it still raises "
                         "NotImplementedError") == 3, starter
    assert f"exercises/es/{NAME}: FAIL — 0 of 4 checks pass" in grade and \
        "✗ run_agent está escrita y se ejecuta\n          hint: escribe run_agent" in grade, grade


def test_the_learners_grade_draws_the_run_under_each_checks_first_cross(runs):
    """The drawing the notebook shows under a check's first ✗ with a run (the learner's run beside the reference's),
    in the grade `pytest --nbval-lax` prints too; once per check."""
    code, out = runs["grade"]
    grade = out.split(" exercise grade ", 1)[-1].split(f"/{DRAWN}/{NAME}: ", 1)[-1]
    assert grade.startswith("FAIL — 1 of 4 checks pass"), grade
    header = "your run_agent, this run"
    for check in ("check-loop", "check-valves", "check-gate"):
        block = grade.split(f"  ✗ {check}\n", 1)[1].split("\n  ✗ check-", 1)[0]
        lines = block.splitlines()
        assert lines[0].startswith("      ✗ ") and lines[1].startswith("          hint: "), block
        assert lines[2].strip().startswith(header) and "│ harness_lib.run_agent" in lines[2], block
        assert block.count(header) == 1 and "end: no_progress" in block, block


@pytest.mark.parametrize("case", WRONG)
def test_a_wrong_answer_fails_and_its_first_cross_names_the_cause(runs, case):
    cells = runs["cases"][case]
    assert not isinstance(cells, str), cells
    _, check_id, line, hint = WRONG[case]
    cell = cells[check_id]
    assert cell.raised and cell.error[0] == "AssertionError", f"{case}: {check_id} did not fail\n{overview(cells)}"
    named = [(got, said) for got, said in crosses(cell) if not said.startswith(FOLLOWS_FROM)]
    assert named and named[0][0].startswith(line) and hint in named[0][1], \
        f"{case}: {check_id}'s first ✗ is not ({line!r}, …{hint!r}…)\n{overview(cells)}"
    assert len(named) == 1, f"{case}: a later ✗ of {check_id} names another cause\n{overview(cells)}"


def test_results_sent_without_the_assistant_message_are_named_so_with_the_apis_words_whole(runs):
    """The first hint says what was left out, and quotes the API's 400 to its last sentence; the drawing of the run
    ends where it raised (not at the last response's stop_reason)."""
    cell = runs["cases"]["assistant-message-forgotten"]["check-loop"]
    (first, hint), *_ = crosses(cell)
    assert hint.startswith("your tool_results went back without the assistant message that asked for them") and \
        "a corresponding `tool_use` block in the previous message. — append the response's content" in hint, hint
    assert "      end: raised BadRequestError " in cell.stdout and "      end: tool_use " not in cell.stdout, cell.stdout


def test_the_notebook_draws_the_run_in_two_columns_it_never_escapes_its_own_padding(runs):
    """Under the first ✗ the notebook prints the learner's run beside the reference's: every line's │ in one column,
    the padding before it never shown as an escaped run of spaces (\\u0020{N}, which the kit's one rule makes of
    16 spaces or more: the notebook once showed the drawing so, and the gradebook's feedback too); each text in the
    drawing is shown by that rule (a terminal escape a tool returned is written out, not obeyed)."""
    sys.path.insert(0, str(EXERCISES))
    from checks.ex05_gauntlet import WIDTH, _column, _padded

    lines = runs["cases"]["assistant-message-forgotten"]["check-loop"].stdout.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("hint: "))
    drawing = lines[first + 1:next(i for i in range(first + 1, len(lines)) if lines[i].strip().startswith("✗ "))]
    assert len(drawing) >= 3 and drawing[0].strip().startswith("your run_agent, this run"), lines
    assert {line.index("│") for line in drawing} == {6 + WIDTH + 1}, drawing
    assert not any("\\u0020" in line or " " * 16 in line for line in drawing), drawing
    from grader.report import printed  # the gradebook's feedback shows each printed line as the notebook does
    assert [printed(line) for line in drawing] == drawing
    assert _column("read\x1b[2J\u202eok") == "read\\u001b[2J\\u202eok" and len(_column("x" * 99)) == WIDTH
    assert all(len(_padded(text)) == WIDTH and " " * 16 not in _padded(text) for text in ("", "a", "x" * WIDTH))


@pytest.mark.parametrize("case", RIGHT)
def test_a_right_answer_in_another_style_passes(runs, case):
    cells = runs["cases"][case]
    assert not isinstance(cells, str), cells
    assert all(cid in cells for cid in CHECK_IDS)
    assert not any(c.raised for c in cells.values()), f"{case}: not every cell passes\n{overview(cells)}"


# ---- the same verdicts through the gradebook's judge ------------------------------------------------------------

JUDGED = ["solution", "match-agentresult", "state-outlives-the-run", "approver-error-uncaught", "results-reversed",
          "pause-turn-ignored", "delete-allowed"]


@pytest.mark.parametrize("case", JUDGED)
def test_the_judge_prints_what_the_notebook_prints(case, monkeypatch):
    monkeypatch.delenv("HARNESS_GRADING", raising=False)  # a ✗ prints, as in JupyterLab
    monkeypatch.setenv("HARNESS_OFFLINE", "1")
    sys.path.insert(0, str(EXERCISES))
    from grader.judge import check_call

    nb = edited(case, WRONG[case][0] if case in WRONG else RIGHT[case])
    calls = {c["id"]: check_call(_source(c)) for c in nb["cells"] if "check" in c["metadata"].get("tags", [])}
    assert set(calls) == set(CHECK_IDS) and all(calls.values()), calls
    wanted = [WRONG[case][1]] if case in WRONG else list(CHECK_IDS)
    for check_id in wanted:  # (tests/test_judge.py's helpers: the same lines and the same verdicts, judged)
        here = printed(calls[check_id], namespace(nb, check_id))
        assert ("✗" in here[0]) == (case in WRONG), (check_id, here[0])
        assert judged(calls[check_id], namespace(nb, check_id)) == here, check_id


def test_there_are_enough_cases():
    assert len(WRONG) >= 20 and len(RIGHT) >= 4 and len(BLIND_WRONG) >= 30


# ---- one cause, one first ✗, across the four checks -------------------------------------------------------------

ONE_CAUSE = ["progress-names-only", "budget-counts-output-only", "one-message-per-result", "gate-never-consulted",
             "delete-allowed"]  # a valve, the loop, the gate and the policy, each named once and followed elsewhere
ONE_CAUSE += BLIND_ACROSS  # and the blind round's answers whose later checks follow an earlier check's ✗
ALL_FOUR = set(ONE_CAUSE)  # the wrong answers whose four checks all run (the others: the check their ✗ is in)


@pytest.mark.parametrize("case", ONE_CAUSE)
def test_one_mistake_is_one_cause_across_the_four_checks(runs, case):
    """All four checks, run as the learner's grade runs them, name the case's one mistake once: every other ✗
    follows from it, in its check or another (its hint says so, as the verdict's `follows` the gradebook's "what to
    re-teach" counts: exercises/checks/verdict.py prints one with the other)."""
    cells = runs["cases"][case]
    assert not isinstance(cells, str), cells
    assert all(not cells[c].raised or cells[c].error[0] == "AssertionError" for c in CHECK_IDS), \
        f"{case}: a check raised\n{overview(cells)}"
    causes = [(check_id, line) for check_id in CHECK_IDS for line, hint in crosses(cells[check_id])
              if not hint.startswith(FOLLOWS_FROM)]
    assert len(causes) == 1 and causes[0][0] == WRONG[case][1], f"{case}: {causes}\n{overview(cells)}"


def test_the_gauntlets_own_policies_obey_the_reason_rule_it_enforces():
    """check-policy's rule for reasons (one line per tool, not empty, not one sentence for all six: the task text's)
    holds for every policy the checks pass in themselves, and a short reason is a reason."""
    sys.path.insert(0, str(EXERCISES))
    from checks.ex05_capstone import _reasons_hint
    from checks.ex05_gauntlet import READS_ASKED, TWO_ASKED, UNLISTED

    for policy in (READS_ASKED, TWO_ASKED, UNLISTED, {name: ("deny", why) for name, why in
                                                     zip(READS_ASKED, ("read-only", "reads", "moves", "sends",
                                                                       "destructive", "retired"))}):
        assert _reasons_hint(policy) is None, policy
    assert _reasons_hint({name: ("deny", "no") for name in READS_ASKED}) is not None  # one sentence for all six
