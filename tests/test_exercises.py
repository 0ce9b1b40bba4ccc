"""The exercises grade as promised, through the learner's own command (`pytest --nbval-lax <notebook>`):

- both reference solutions pass, and both untouched starters fail — by their checks, not by a crash;
- known-wrong answers fail, each for the right reason: the check that guards it prints the expected ✗;
- a notebook whose check cells were edited, deleted or untagged is not graded (exercises/conftest.py).

Wrong answers are made by editing the solution's `exercise` cells (each edit is asserted to apply) and saving
the copy under exercises/_grading_tmp_*/<case>/ with the original file name, so exercises/conftest.py and
exercises/checks.lock apply to it exactly as to the real notebook. The copies are deleted afterwards.
Each grading run starts one kernel per notebook; the runs go in four processes at once.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
EX1, EX2 = "01_tiered_policy.ipynb", "02_missing_guards.ipynb"
GRADE = [sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:cacheprovider"]

# case -> (notebook, exercise cell id, [(old, new), ...], [(check cell id, the ✗ criterion it must print), ...])
WRONG_ANSWERS = {
    "deny-drops-the-call": (EX1, "run-tool-uses", [(
        "results.append(tool_result(block.id, DENIED.format(name=block.name), is_error=True))\n            continue",
        "continue")],
        [("check-deny", "✗ the send_email call got exactly one tool_result")]),
    "deny-runs-the-tool": (EX1, "run-tool-uses", [('elif tier != "allow":', 'elif tier not in ("allow", "deny"):')],
        [("check-deny", "✗ send_email (deny) never ran")]),
    "ask-runs-before-approval": (EX1, "run-tool-uses", [(
        "            if not (approve is not None and await approve(block.name, block.input)):\n"
        "                results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))\n"
        "                continue\n",
        "            text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)\n"
        "            if not (approve is not None and await approve(block.name, block.input)):\n"
        "                text, is_error = REJECTED_MESSAGE, True  # the output is dropped, but the tool has run\n"
        "            results.append(tool_result(block.id, text, is_error))\n"
        "            continue\n")],
        [("check-ask", "✗ approved: write_file ran, and only after the yes"),
         ("check-ask", "✗ rejected: write_file never ran")]),
    "rejected-ask-without-result": (EX1, "run-tool-uses", [(
        "results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))\n                continue",
        "continue")],
        [("check-ask", "✗ rejected: the call still got exactly one tool_result")]),
    "unlisted-tool-ignores-default": (EX1, "run-tool-uses", [
        ("policy.get(block.name, default_tier)", 'policy.get(block.name, "ask")')],
        [("check-default-tier", "✗ default_tier='allow': the unlisted delete_file ran without asking")]),
    "cap-after-increment": (EX2, "capped-loop", [
        ("        if turns >= max_turns:  # first", "        turns += 1\n        if turns >= max_turns:  # first"),
        ("                               \"max_turns\", turns, requests, 0, messages)\n        turns += 1\n",
         "                               \"max_turns\", turns, requests, 0, messages)\n")],
        [("check-turn-cap", "✗ exactly 3 tool turns ran (ran: 2)")]),
    "cap-at-bottom": (EX2, "capped-loop", [
        ("        if turns >= max_turns:  # first thing in the body: \"may I take another turn?\"\n"
         "            return AgentResult(f\"Stopped by the harness: reached the turn cap of {max_turns}.\",\n"
         "                               \"max_turns\", turns, requests, 0, messages)\n", ""),
        ("        requests += 1\n",
         "        requests += 1\n        if turns >= max_turns:\n"
         "            return AgentResult(\"Stopped by the harness.\", \"max_turns\", turns, requests, 0, messages)\n")],
        [("check-turn-cap", "✗ max_turns=0: not a single turn runs"),
         ("check-model-answer", "✗ it returns the model's own answer")]),
    "no-cap": (EX2, "capped-loop", [
        ("        if turns >= max_turns:  # first thing in the body: \"may I take another turn?\"\n"
         "            return AgentResult(f\"Stopped by the harness: reached the turn cap of {max_turns}.\",\n"
         "                               \"max_turns\", turns, requests, 0, messages)\n", "")],
        [("check-turn-cap", "✗ a model that never ends its turn is stopped (never-ends, max_turns=3) — runaway")]),
    "diagnosis-omits-no-progress": (EX2, "diagnosis", [
        ("    NO_PROGRESS_CHECK: WALKS_IN_PLACE,", "    # (no-progress: forgotten)")],
        [("check-diagnosis", "✗ names: no no-progress check: identical repeated calls go unnoticed")]),
}

# case -> (notebook, how the grader cells are changed, what the refusal must name)
TAMPERED = {
    "tamper-edited": (EX1, "edit", "the check cell 'check-deny' was edited"),
    "tamper-deleted": (EX2, "delete", "the check cell 'check-turn-cap' was deleted"),
    "tamper-untagged": (EX2, "untag", "the check cell 'check-model-answer' has tags ['raises-exception']"),
}


def cell(nb, cell_id):
    return next(c for c in nb["cells"] if c.get("id") == cell_id)


def source(c):
    return "".join(c["source"]) if isinstance(c["source"], list) else c["source"]


def solution(name):
    return json.loads((EXERCISES / "solutions" / name).read_text(encoding="utf-8"))


def wrong_answer(case):
    name, cell_id, edits, _ = WRONG_ANSWERS[case]
    nb = solution(name)
    c = cell(nb, cell_id)
    text = source(c)
    for old, new in edits:
        assert text.count(old) == 1, f"{case}: the solution changed, this edit no longer applies: {old!r}"
        text = text.replace(old, new)
    c["source"] = text
    return name, nb


def tampered(case):
    name, how, _ = TAMPERED[case]
    nb = solution(name)
    if how == "edit":
        c = cell(nb, "check-deny")
        c["source"] = source(c).replace("_c.done()", "_c.failed.clear()  # all good!\n_c.done()")
    elif how == "delete":
        nb["cells"].remove(cell(nb, "check-turn-cap"))
    else:
        cell(nb, "check-model-answer")["metadata"]["tags"] = ["raises-exception"]
    return name, nb


def grade_sections(stdout):
    """{notebook path: its block of the "exercise grade" summary}."""
    text = stdout.split(" exercise grade ", 1)[-1].split("short test summary", 1)[0]
    sections, current = {}, None
    for line in text.splitlines():
        header = re.match(r"^(\S.*?\.ipynb): ", line)
        if header:
            current = header.group(1)
            sections[current] = [line]
        elif current and line.startswith(" "):
            sections[current].append(line)
    return {path: "\n".join(lines) for path, lines in sections.items()}


@pytest.fixture(scope="module")
def runs():
    """Start every grading run at once; {name: (returncode, stdout, {notebook: grade section})}."""
    tmp = EXERCISES / f"_grading_tmp_{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "HARNESS_SCENARIO")}
    try:
        paths = {}
        for case, make in [*((c, wrong_answer) for c in WRONG_ANSWERS), *((c, tampered) for c in TAMPERED)]:
            name, nb = make(case)
            path = tmp / case / name
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding="utf-8")
            paths[case] = str(path.relative_to(ROOT))
        groups = {
            "solutions": [f"exercises/solutions/{EX1}", f"exercises/solutions/{EX2}"],
            "starters": [f"exercises/{EX1}", f"exercises/{EX2}"],
            "wrong-1": [p for c, p in paths.items() if c in WRONG_ANSWERS and WRONG_ANSWERS[c][0] == EX1],
            "wrong-2": [p for c, p in paths.items() if c in TAMPERED or WRONG_ANSWERS[c][0] == EX2],
        }
        procs = {g: subprocess.Popen([*GRADE, *nbs], cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT) for g, nbs in groups.items()}
        results = {}
        for group, proc in procs.items():
            out, _ = proc.communicate(timeout=900)
            results[group] = (proc.returncode, out, grade_sections(out))
        results["paths"] = paths
        yield results
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_solutions_pass(runs):
    code, out, sections = runs["solutions"]
    assert code == 0, out[-4000:]
    assert f"exercises/solutions/{EX1}: PASS — 5 of 5 checks pass" in out
    assert f"exercises/solutions/{EX2}: PASS — 3 of 3 checks pass" in out


def test_starters_fail_by_their_checks(runs):
    code, out, sections = runs["starters"]
    assert code == 1, out[-4000:]  # 1: tests failed (2-4 would be an interrupted run or a usage/internal error)
    assert f"exercises/{EX1}: FAIL — 0 of 5 checks pass" in out and f"exercises/{EX2}: FAIL — 0 of 3 checks pass" in out
    for section in sections.values():
        assert "the cell raised" not in section, section  # each check ran to its verdict: ✗ criteria, no crash
    assert "NotImplementedError: ...your code here..." in out


@pytest.mark.parametrize("case", WRONG_ANSWERS)
def test_wrong_answer_fails_for_the_right_reason(runs, case):
    name, _, _, expected = WRONG_ANSWERS[case]
    code, out, sections = runs["wrong-1" if name == EX1 else "wrong-2"]
    assert code == 1, out[-4000:]
    section = sections.get(runs["paths"][case])
    assert section is not None and ": FAIL — " in section.splitlines()[0], section or out[-4000:]
    for check_id, criterion in expected:
        block = section.split(f"  ✗ {check_id} — ", 1)
        assert len(block) == 2, f"{case}: {check_id} did not fail\n{section}"
        assert criterion in block[1].split("\n  ✗ ")[0], f"{case}: {check_id} failed, but not with {criterion!r}\n{section}"


@pytest.mark.parametrize("case", TAMPERED)
def test_tampered_checks_are_not_graded(runs, case):
    _, _, message = TAMPERED[case]
    code, out, sections = runs["wrong-2"]
    assert code == 1
    path = runs["paths"][case]
    assert f"{path}: NOT GRADED — the check cells were changed" in sections.get(path, ""), out[-4000:]
    assert "GRADE NOT VALID: the check cells were changed" in out and message in out
