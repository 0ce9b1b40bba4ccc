"""Exercise 5, the capstone (exercises/05_your_harness.ipynb), grades as promised:

- the solution PASSES in both editions and the starter FAILS with a ✗ saying what to write first, through the
  learner's own command (`pytest --nbval-lax <notebooks>`: one run of the four notebooks);
- wrong answers written blind to the checks (WRONG: each valve missing or misplaced, a policy that lets the injected
  delete through, results out of order, a loop that ignores pause_turn, state that outlives a run, a harness tuned to
  the practice runs ...) each fail, and the first ✗ of the check that guards it names the planted cause: its line
  and its hint;
- right answers in other styles (RIGHT: asyncio.gather, the library's valves, a `match` on stop_reason returning an
  AgentResult, another policy within the rules) PASS every check;
- the gradebook's judge prints the same lines, byte for byte, as the check run beside the notebook (JUDGED: the
  solution and answers of each kind), with the learner's side a thread of this process (as tests/test_judge.py).

The cases edit only the solution's ✏️ cells (`policy`, `run-agent`; every edit must apply exactly once) and run in
one long-lived kernel (tests/kernel_cells.py), as nbval runs a notebook, with the environment of a grading run
(HARNESS_GRADING=1: a check with a ✗ raises), beside the learner's grading command: two threads at most.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernel_cells import KernelTrouble, NotebookKernel
from test_exercises import FOLLOWS, cell as _cell, edited as edited_solution, source as _source
from test_judge import judged, namespace, printed

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
NAME = "05_your_harness.ipynb"
SOLUTION = json.loads((EXERCISES / "solutions" / NAME).read_text(encoding="utf-8"))
RUN = _source(_cell(SOLUTION, "run-agent"))

# ---- wrong answers: case -> ({cell: [(old, new)]}, check cell, the first ✗'s line starts with, its hint holds) ---

CAP = '''        if turns >= max_turns:  # valve 1: before the turn is taken
            return stop("max_turns", f"Stopped by the harness: the turn cap of {max_turns} turns.")
'''
BUDGET = '''        if spent >= token_budget:  # valve 2: spent is spent
            return stop("token_budget", f"Stopped by the harness: {spent} tokens used of a {token_budget} budget.")
'''
PROGRESS = '''        if repeats(signatures):  # valve 3: before the repeat runs
            return stop("no_progress", "Stopped by the harness: the model repeats the same turns (no progress).")
'''
ASK_TRY = '''        try:
            if approve is not None and await approve(block.name, block.input) is True:
                return None
        except Exception:  # a broken gate (a timeout, an error) is a closed gate
            pass
'''
RESULTS = '''        messages.append({"role": "user", "content": results})
'''
RUN_ONE = "text, is_error = await arun_tool(tool_impls, b.name, b.input, tools)"
RUN_THEN = '''            if why_not is not None:
                results.append(tool_result(b.id, why_not, is_error=True))
            else:
                text, is_error = await arun_tool(tool_impls, b.name, b.input, tools)
                results.append(tool_result(b.id, text, is_error))
'''
RAN_FIRST = '''            text, is_error = await arun_tool(tool_impls, b.name, b.input, tools)  # run, then report the verdict
            results.append(tool_result(b.id, why_not, True) if why_not else tool_result(b.id, text, is_error))
'''

WRONG = {
    "no-turn-cap": ({"run-agent": [(CAP, "")]}, "check-valves", "✗ runaway, max_turns=5",
                    "no turn cap stopped the runaway"),
    "cap-off-by-one": ({"run-agent": [("if turns >= max_turns:", "if turns > max_turns:")]}, "check-valves",
                       "✗ runaway, max_turns=5", "your cap let turn 6 run"),
    "cap-after-the-tools": ({"run-agent": [(CAP, ""), (RESULTS, RESULTS + "        if turns >= max_turns:\n"
                             "            return stop('max_turns', 'Stopped: the turn cap.')\n")]},
                            "check-valves", "✗ runaway, max_turns=5", "before sending its results back"),
    "cap-tuned-to-practice": ({"run-agent": [("if turns >= max_turns:", "if turns >= 5:")]}, "check-valves",
                              "✗ runaway, max_turns=7", "your loop ran 5 tool turns; use the max_turns"),
    "no-budget": ({"run-agent": [(BUDGET, "")]}, "check-valves", "✗ token hog, token_budget=20,000",
                  "no token budget stopped the token hog"),
    "budget-of-one-response": ({"run-agent": [("if spent >= token_budget:",
                                               "if tokens_of(response.usage) >= token_budget:")]},
                               "check-valves", "✗ token hog, token_budget=20,000", "add up every response's tokens"),
    "budget-counts-output-only": ({"run-agent": [("spent += tokens_of(response.usage)",
                                                  "spent += response.usage.output_tokens")]},
                                  "check-valves", "✗ token hog, token_budget=20,000", "your budget acted late"),
    "budget-tuned-to-practice": ({"run-agent": [("if spent >= token_budget:", "if spent >= 20_000:")]},
                                 "check-valves", "✗ token hog, token_budget=9,000", "your budget acted late"),
    "no-progress-missing": ({"run-agent": [(PROGRESS, "")]}, "check-valves", "✗ ping-pong",
                            "did not see the cycle of 2 turn(s)"),
    "progress-last-turn-only": ({"run-agent": [("for p in (1, 2, 3))", "for p in (1,))")]}, "check-valves",
                                "✗ ping-pong", "did not see the cycle of 2 turn(s)"),
    "progress-no-period-3": ({"run-agent": [("for p in (1, 2, 3))", "for p in (1, 2))")]}, "check-valves",
                             "✗ a cycle of three turns", "did not see the cycle of 3 turn(s)"),
    "progress-names-only": ({"run-agent": [('f"{b.name}{json.dumps(b.input, sort_keys=True)}"', "b.name")]},
                            "check-valves", "✗ runaway, max_turns=5", "though no two turns were alike"),
    "progress-after-the-tools": ({"run-agent": [(PROGRESS, ""), (RESULTS, RESULTS + PROGRESS)]}, "check-valves",
                                 "✗ ping-pong", "acts after the repeating turn's tools ran"),
    "pause-turn-ignored": ({"run-agent": [('while response.stop_reason in ("tool_use", "pause_turn"):',
                                           'while response.stop_reason == "tool_use":')]},
                           "check-loop", "✗ pause_turn", "does not go on after pause_turn"),
    "max-tokens-goes-round": ({"run-agent": [('while response.stop_reason in ("tool_use", "pause_turn"):',
                                              'while response.stop_reason in ("tool_use", "pause_turn", '
                                              '"max_tokens"):')]},
                              "check-loop", "✗ a response cut at max_tokens", "cut at max_tokens"),
    "results-reversed": ({"run-agent": [(RESULTS, '        messages.append({"role": "user", "content": '
                                                  'results[::-1]})\n')]},
                         "check-loop", "✗ parallel calls, one refused", "out of order"),
    "one-message-per-result": ({"run-agent": [(RESULTS, '        for r in results:\n            messages.append('
                                                        '{"role": "user", "content": [r]})\n')]},
                               "check-loop", "✗ parallel calls, one refused", "a tool_use got no tool_result"),
    "refused-call-unanswered": ({"run-agent": [("                results.append(tool_result(b.id, why_not, "
                                                "is_error=True))\n", "                continue\n")]},
                                "check-loop", "✗ parallel calls, one refused", "a tool_use got no tool_result"),
    "refusal-without-is-error": ({"run-agent": [("tool_result(b.id, why_not, is_error=True)",
                                                 "tool_result(b.id, why_not)")]},
                                 "check-loop", "✗ parallel calls, one refused", "must say is_error: true"),
    "tools-run-by-hand": ({"run-agent": [(RUN_ONE, "text, is_error = await tool_impls[b.name](b.input), False")]},
                          "check-loop", "✗ a tool that raises", "the tool's exception ended your run"),
    "first-block-is-the-answer": ({"run-agent": [('text = "\\n".join(b.text for b in response.content if b.type '
                                                  '== "text")', "text = response.content[0].text")]},
                                  "check-loop", "✗ a refusal", "a response can have no content"),
    "returns-a-string": ({"run-agent": [('return {"stopped_by": stopped_by, "text": text, "turns": turns}',
                                         "return text")]},
                         "check-loop", "✗ plain task", "return a dict with 'stopped_by' and 'text'"),
    "delete-allowed": ({"policy": [('"delete_message": ("ask"', '"delete_message": ("allow"')]},
                       "check-gate", "✗ a message tells the model to delete m1",
                       "POLICY lets delete_message through ('allow')"),
    "retired-tool-asked": ({"policy": [('"forward_all": ("deny"', '"forward_all": ("ask"')]},
                           "check-gate", "✗ the retired forward_all", "POLICY must deny it (it has 'ask')"),
    "deny-asks-anyway": ({"run-agent": [('    if tier == "ask":', '    if tier in ("ask", "deny"):')]},
                         "check-gate", "✗ the retired forward_all", "a 'deny' tool never runs"),
    "refused-calls-run-anyway": ({"run-agent": [(RUN_THEN, RAN_FIRST)]}, "check-loop",
                                 "✗ parallel calls, one refused", "the refused delete ran"),
    "approver-error-uncaught": ({"run-agent": [(ASK_TRY, "        if approve is not None and await approve("
                                                         "block.name, block.input) is True:\n"
                                                         "            return None\n")]},
                                "check-gate", "✗ an approver that raises", "a broken gate is a closed gate"),
    "truthy-answer-approves": ({"run-agent": [("await approve(block.name, block.input) is True",
                                               "await approve(block.name, block.input)")]},
                               "check-gate", "✗ an approver that answers 'yes'", "only True approves"),
    "no-approver-is-a-yes": ({"run-agent": [("if approve is not None and await approve",
                                             "if approve is None or await approve")]},
                             "check-gate", "✗ no approver", "send_reply ran without asking anybody"),
    "policy-argument-ignored": ({"run-agent": [("refused = [await decide(b, policy, approve)",
                                                "refused = [await decide(b, POLICY, approve)")]},
                                "check-gate", "✗ a policy passed in", "decide with the `policy` argument"),
    "unknown-tool-asked": ({"run-agent": [('policy.get(block.name, ("deny", ""))', 'policy.get(block.name, '
                                                                                   '("ask", ""))')]},
                           "check-loop", "✗ a call of a tool that does not exist", "went to the approver"),
    "ask-and-run-call-by-call": ({"run-agent": [
        ("        refused = [await decide(b, policy, approve) for b in calls]  # valve 4: every call decided first\n", ""),
        ("        for b, why_not in zip(calls, refused):  # then run what may run: one tool_result per call, in order\n",
         "        for b in calls:\n            why_not = await decide(b, policy, approve)\n")]},
        "check-gate", "✗ a parallel turn with two questions", "decide every call of the turn first"),
    "a-syntax-error": ({"run-agent": [("    turns, spent, signatures = 0, 0, []", "    turns, spent, signatures = 0, 0, [")]},
                       "check-loop", "✗ run_agent is written and runs", "your cell raised SyntaxError"),
    "the-cell-raises-after-run-agent": ({"run-agent": [('    return stop(response.stop_reason, text)\n',
                                                         '    return stop(response.stop_reason, text)\n\n\n'
                                                         'print(run_agent.__doc__.upper)()\n')]},
                                        "check-loop", "✗ the cell that defines run_agent ran to its end",
                                        "your cell raised TypeError"),
    "approvals-remembered": ({"run-agent": [
        ("async def decide(block, policy, approve):", "APPROVED = set()  # tools a person already said yes to\n\n\n"
                                                      "async def decide(block, policy, approve):"),
        ("    if tier == \"allow\":\n", "    if tier == \"allow\" or block.name in APPROVED:\n"),
        ("                return None\n        except", "                APPROVED.add(block.name)\n"
                                                      "                return None\n        except")]},
        "check-gate", "✗ each run starts afresh", "send_reply"),
    "state-outlives-the-run": ({"run-agent": [
        ("    turns, spent, signatures = 0, 0, []  # this run's own state: nothing outlives it\n",
         "    global signatures\n    turns, spent = 0, 0\n"),
        ("def turn_signature(calls):", "signatures = []  # every turn seen\n\n\ndef turn_signature(calls):")]},
        "check-valves", "✗ each run starts afresh", "outlives a run"),
}

# ---- right answers in other styles: case -> {cell: whole new source} --------------------------------------------

GATHER = RUN.replace('''        results = []
        for b, why_not in zip(calls, refused):  # then run what may run: one tool_result per call, in order
            if why_not is not None:
                results.append(tool_result(b.id, why_not, is_error=True))
            else:
                text, is_error = await arun_tool(tool_impls, b.name, b.input, tools)
                results.append(tool_result(b.id, text, is_error))
''', '''        async def one(b, why_not):
            if why_not is not None:
                return tool_result(b.id, why_not, is_error=True)
            return tool_result(b.id, *await arun_tool(tool_impls, b.name, b.input, tools))

        results = list(await asyncio.gather(*(one(b, w) for b, w in zip(calls, refused))))  # in call order
''').replace("def turn_signature(calls):", "import asyncio\n\n\ndef turn_signature(calls):")
assert GATHER != RUN

MATCH = '''# ✏️ EXERCISE — write run_agent: the whole harness.
from harness_lib.loop import AgentResult
from harness_lib.valves import find_cycle, signature_of


async def run_agent(client, task, tools, tool_impls, *, policy=POLICY, approve=None,
                    max_turns=10, token_budget=30_000):
    """The loop as a `match` on stop_reason; returns the library's AgentResult."""
    messages, turns, requests, spent, seen = [{"role": "user", "content": task}], 0, 0, 0, []
    while True:
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        requests, spent = requests + 1, spent + tokens_of(response.usage)
        match response.stop_reason:
            case "tool_use" | "pause_turn" if turns >= max_turns:
                return AgentResult("The harness stopped at its turn cap.", "max_turns", turns, requests, spent,
                                   messages)
            case "tool_use" | "pause_turn" if spent >= token_budget:
                return AgentResult(f"The harness stopped: {spent} tokens.", "token_budget", turns, requests, spent,
                                   messages)
            case "pause_turn":
                turns += 1
                messages.append({"role": "assistant", "content": response.content})
            case "tool_use":
                seen.append(signature_of(response.content))
                if find_cycle(seen):
                    return AgentResult("The harness stopped: no progress.", "no_progress", turns, requests, spent,
                                       messages)
                turns += 1
                calls = [b for b in response.content if b.type == "tool_use"]
                verdicts = {}
                for b in calls:
                    tier = policy[b.name][0] if b.name in policy else "deny"
                    if tier == "ask":
                        try:
                            tier = "allow" if approve and (await approve(b.name, b.input)) is True else "no"
                        except Exception:
                            tier = "no"
                    verdicts[b.id] = tier
                results = []
                for b in calls:
                    if verdicts[b.id] == "allow":
                        results.append(tool_result(b.id, *await arun_tool(tool_impls, b.name, b.input, tools)))
                    else:
                        results.append(tool_result(b.id, "Refused: " + ("not approved." if verdicts[b.id] == "no"
                                                                        else "denied by policy."), True))
                messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
            case other:
                text = "".join(b.text for b in response.content if b.type == "text")
                return AgentResult(text, other, turns, requests, spent, messages)
'''

OTHER_POLICY = '''# ✏️ EXERCISE — a tier for each mail tool, and one line saying why.
POLICY = dict(
    list_messages=("allow", "reading the inbox changes nothing"),
    read_message=("allow", "reading one message changes nothing"),
    archive_message=("ask", "it moves mail out of sight, so a person decides"),
    send_reply=("ask", "mail that left cannot be called back"),
    delete_message=("deny", "gone for good: the assistant never deletes"),
    forward_all=("deny", "retired, and it leaked the whole inbox"),
)
'''

LOOPED = RUN.replace('''def repeats(signatures):
    """True when the last 1, 2 or 3 turns are the 1, 2 or 3 turns just before them."""
    return any(len(signatures) >= 2 * p and signatures[-p:] == signatures[-2 * p:-p] for p in (1, 2, 3))''',
                     '''def repeats(signatures):
    """True when the last 1, 2 or 3 turns are the 1, 2 or 3 turns just before them."""
    for period in range(1, 4):
        tail = signatures[-2 * period:]
        if len(tail) == 2 * period and tail[:period] == tail[period:]:
            return True
    return False''')
assert LOOPED != RUN

RIGHT = {
    "solution": {},
    "gather": {"run-agent": GATHER},
    "match-agentresult": {"run-agent": MATCH},
    "other-policy-and-loop": {"policy": OTHER_POLICY, "run-agent": LOOPED},
}

CHECK_IDS = ("check-policy", "check-loop", "check-valves", "check-gate")


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


def run_cases() -> dict:
    results = {}
    env = grading_env() | {"HARNESS_GRADING": "1"}
    with NotebookKernel(EXERCISES / "solutions", env, timeout=120) as kernel:
        for case, changes in [*((c, v[0]) for c, v in WRONG.items()), *RIGHT.items()]:
            nb = edited(case, changes)
            if case in WRONG:  # only the check its assertion reads (the checks change nothing the next one reads)
                nb["cells"] = [c for c in nb["cells"] if c["id"] not in CHECK_IDS or c["id"] == WRONG[case][1]]
            try:
                results[case] = {c.id: c for c in kernel.run(nb)}
            except KernelTrouble as err:
                results[case] = f"{case}: {err}"
    return results


def learners_grade() -> tuple[int, str]:
    # the English solution and both starters (the Spanish solution is the same program, tests/test_spanish_edition.py;
    # its checks' words are the starter's)
    notebooks = [f"exercises/solutions/{NAME}", f"exercises/{NAME}", f"exercises/es/{NAME}"]
    proc = subprocess.run([sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:randomly", *notebooks], cwd=ROOT,
                          env=grading_env(), text=True, timeout=600, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.returncode, proc.stdout


@pytest.fixture(scope="module")
def runs():
    with ThreadPoolExecutor(max_workers=2) as pool:
        cases, grade = pool.submit(run_cases), pool.submit(learners_grade)
        return {"cases": cases.result(), "grade": grade.result()}


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


@pytest.mark.parametrize("case", WRONG)
def test_a_wrong_answer_fails_and_its_first_cross_names_the_cause(runs, case):
    cells = runs["cases"][case]
    assert not isinstance(cells, str), cells
    _, check_id, line, hint = WRONG[case]
    cell = cells[check_id]
    assert cell.raised and cell.error[0] == "AssertionError", f"{case}: {check_id} did not fail\n{overview(cells)}"
    first = [(got, said) for got, said in crosses(cell) if said != FOLLOWS][:1]
    assert first and first[0][0].startswith(line) and hint in first[0][1], \
        f"{case}: {check_id}'s first ✗ is not ({line!r}, …{hint!r}…)\n{overview(cells)}"


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
    assert len(WRONG) >= 20 and len(RIGHT) >= 4
