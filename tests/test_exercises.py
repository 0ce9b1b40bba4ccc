"""The exercises grade as promised:

- the reference solutions pass; the untouched starters fail — by their checks, not by a crash;
- every wrong answer fails on a ✗ criterion of the check that guards it. Three batches: the classes of wrong answer
  the checks were designed for (ISSUE_CLASSES), answers written the way a beginner writes them, without looking at
  the checks (BEGINNER, VALVES), and answers written blind to the checks for issue 36 (STATE: state that outlives a
  run, an approver never awaited, a ✏️ cell that raised, the task texts' one reading), each with the hint its first
  ✗ must give (CAUSES); answers that are right but worded or built differently still pass (CORRECT);
- a notebook whose grader cells or grading.py were changed, or that holds something shaped like an API key, is
  not graded, and the message says where;
- grading gives the same verdict and summary from the root, from exercises/, from exercises/solutions/, with an
  absolute path from another folder, and for the Spanish edition from exercises/es/.

End to end, through the learner's own command (`pytest --nbval-lax <notebooks>`, so exercises/conftest.py, the
lock and the grade at the end all apply): from the root, one run grades the solutions and starters, the refused
copies (saved under exercises/_grading_tmp_*/<case>/ with the original file name, deleted afterwards) and the Spanish
edition's (each notebook's section is the same as when the Spanish ones are graded in a run of their own: compared
when the two runs became one); then one notebook from each other folder: four pytest runs.

The wrong and right answers (mutation cases) only edit a solution's ✏️ exercise cells (every edit is asserted to
apply, and to touch only an `exercise` cell), so the grader's cells are the shipped ones and what decides the case
is what its check cells do. Each case runs in one long-lived kernel (tests/kernel_cells.py), in a stable
order, with a fresh namespace and fresh kit modules every time, run as nbval runs it: every code cell in order, on
past a cell that raises, with the environment of a grading run (HARNESS_GRADING=1: a check with a ✗ raises). A
check "fails with criterion C" when its cell raised AssertionError after printing the ✗ line C. The cases are
split between two such kernels (every other case to each), and the kernels and the pytest runs share two threads,
so at most two of them are busy at once.
"""

import ast
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kernel_cells import KernelTrouble, NotebookKernel

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
EX1, EX2 = "01_tiered_policy.ipynb", "02_missing_guards.ipynb"
GRADE = [sys.executable, "-m", "pytest", "--nbval-lax", "-p", "no:randomly"]

# ---- exercise 1: run_tool_uses variants -------------------------------------------------------------------

RTU_HEAD = "async def run_tool_uses(content, tool_impls, *, tools, approve, policy, default_tier):\n"
DENY_TEXT = '"forbidden by policy: not run"'


def rtu(body: str) -> str:
    """A whole run_tool_uses cell from its body (indented 4)."""
    return "# ✏️ EXERCISE — your code here.\n" + RTU_HEAD + body


# The straightforward per-block loop a learner writes first (it asks and runs block by block): the base of
# several wrong answers below.
PER_BLOCK = rtu('''\
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        tier = policy.get(block.name, default_tier)
        if tier == "allow":
            text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
            results.append(tool_result(block.id, text, is_error))
        elif tier == "ask":
            if approve is not None and await approve(block.name, block.input) is True:
                text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
                results.append(tool_result(block.id, text, is_error))
            else:
                results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))
        else:
            results.append(tool_result(block.id, "forbidden by policy: not run", is_error=True))
    return results
''')

# ---- exercise 2: run_capped variants ----------------------------------------------------------------------

CAPPED_HEAD = ("# ✏️ EXERCISE — your code here.\nMAX_TURNS = 8\n\n\n"
               "async def run_capped(client, user_input, tools, tool_impls, *, max_turns=MAX_TURNS) -> AgentResult:\n")


def capped(body: str, head: str = CAPPED_HEAD) -> str:
    return head + body


SOLUTION_TOP = '''\
    messages = [{"role": "user", "content": user_input}]
    response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    turns, requests = 0, 1
'''

# case -> (notebook, {cell id: [(old, new), ...] or a whole new source}, [(check cell id, ✗ criterion it must print)])
ISSUE_CLASSES = {
    # exercise 1
    "1-unknown-tier-runs": (EX1, {"run-tool-uses": [
        ('        else:  # "deny", or a tier', '        elif tier == "deny":  # "deny", or a tier'),
        ('            refusals.append(DENIED.format(name=block.name))\n',
         '            refusals.append(DENIED.format(name=block.name))\n        else:\n            refusals.append(None)\n')]},
        [("check-deny", "✗ a tier that is none of the three (a typo: 'Deny') is treated as deny")]),
    "1-tool-error-dropped": (EX1, {"run-tool-uses": [
        ("results.append(tool_result(block.id, text, is_error))", "results.append(tool_result(block.id, text))")]},
        [("check-allow", "✗ a tool that fails (read_file of a missing file) is answered with is_error: true")]),
    "1-one-approval-per-turn": (EX1, {"run-tool-uses": [
        ("    refusals = []  # per call", "    answer = None\n    refusals = []  # per call"),
        ("            approved = approve is not None and await approve(block.name, block.input) is True\n",
         "            if answer is None:\n"
         "                answer = approve is not None and await approve(block.name, block.input) is True\n"
         "            approved = answer\n")]},
        [("check-parallel", "✗ two write_file calls in one turn: each was asked about, and only the approved one ran")]),
    "1-no-approver-runs": (EX1, {"run-tool-uses": [
        ("approved = approve is not None and await approve(block.name, block.input) is True",
         "approved = approve is None or await approve(block.name, block.input) is True")]},
        [("check-ask", "✗ no approver (approve=None): write_file does not run")]),
    "1-ignores-tools-argument": (EX1, {"run-tool-uses": [
        ("await arun_tool(tool_impls, block.name, block.input, tools)", "await arun_tool(tool_impls, block.name, block.input)")]},
        [("check-allow", "✗ each call is checked against the tools the valve is given")]),
    "1-every-block-is-a-call": (EX1, {"run-tool-uses": [
        ('    calls = [block for block in content if block.type == "tool_use"]', "    calls = list(content)")]},
        [("check-allow", "✗ the run: the API accepted every request and the model finished"),
         ("check-deny", "✗ the run: the API accepted every request and the model finished")]),
    "1-only-content-0": (EX1, {"run-tool-uses": [
        ('    calls = [block for block in content if block.type == "tool_use"]',
         '    calls = [content[0]] if content[0].type == "tool_use" else []')]},
        [("check-allow", "✗ the run: the API accepted every request and the model finished"),
         ("check-parallel", "✗ exactly one tool_result per tool_use, in the tool_use order")]),
    "1-approval-per-block": (EX1, {"run-tool-uses": PER_BLOCK},
        [("check-parallel", "✗ every approval of the turn was asked before any tool of the turn ran")]),
    "1-deny-says-declined-first": (EX1, {"run-tool-uses": [
        ('DENIED = "{name} is forbidden by policy: this tool may not be used, so it was not run."',
         'DENIED = "The person declined {name}; it was not run."')]},
        [("check-deny", "✗ ... saying the tool is forbidden by policy")]),
    # exercise 2
    "2-loops-until-end-turn": (EX2, {"capped-loop": [
        ('while response.stop_reason == "tool_use":', 'while response.stop_reason != "end_turn":')]},
        [("check-model-answer", "✗ a reply that is neither tool_use nor end_turn (a refusal) ends the run")]),
    "2-counts-tool-calls": (EX2, {"capped-loop": [
        ("        turns += 1\n", '        turns += sum(1 for b in response.content if b.type == "tool_use")\n')]},
        [("check-turn-cap", "✗ a turn of 2 parallel calls counts as ONE turn")]),
    "2-offers-global-tools": (EX2, {"capped-loop": [
        ("tools=tools, messages=messages)\n        requests += 1", "tools=SAFE_TOOLS, messages=messages)\n        requests += 1"),
        ("tools=tools, messages=messages)\n    turns, requests", "tools=SAFE_TOOLS, messages=messages)\n    turns, requests")]},
        [("check-turn-cap", "✗ every request offered exactly the tools the caller passed")]),
    "2-empty-cap-text": (EX2, {"capped-loop": [
        ('f"Stopped by the harness: reached the turn cap of {max_turns}."', '""')]},
        [("check-turn-cap", "✗ its text says the harness stopped the run")]),
    "2-own-tool-step-content-0": (EX2, {"capped-loop": [
        ("        results = await run_tool_uses(response.content, tool_impls, tools)\n",
         "        block = response.content[0]\n"
         "        text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)\n"
         "        results = [tool_result(block.id, text, is_error)]\n")]},
        [("check-model-answer", "✗ the demo task with max_turns=2: its 2 tool turns ran")]),
    "2-diagnosis-empty": (EX2, {"diagnosis": "DIAGNOSIS = {}\n"},
        [("check-diagnosis", "✗ DIAGNOSIS is a non-empty dict")]),
    "1-no-approve-none-branch": (EX1, {"run-tool-uses": [
        ("approved = approve is not None and await approve(block.name, block.input) is True",
         "approved = await approve(block.name, block.input) is True")]},
        [("check-ask", "✗ no approver (approve=None): write_file does not run")]),
    "2-count-before-cap": (EX2, {"capped-loop": [
        ('        if turns >= max_turns:  # first thing in the body: "may I take another turn?"\n',
         '        turns += 1\n        if turns >= max_turns:  # first thing in the body: "may I take another turn?"\n'),
        ("                               \"max_turns\", turns, requests, 0, messages)\n        turns += 1\n",
         "                               \"max_turns\", turns, requests, 0, messages)\n")]},
        [("check-turn-cap", "✗ exactly 3 tool turns ran (ran: 2)")]),
}

BEGINNER = {
    # exercise 1 — written as a learner would, not against the checks
    "b1-no-else-branch": (EX1, {"run-tool-uses": PER_BLOCK.replace(
        "        else:\n            results.append(tool_result(block.id, \"forbidden by policy: not run\", is_error=True))",
        "        elif tier == \"deny\":\n            results.append(tool_result(block.id, \"forbidden by policy: not run\", is_error=True))")},
        [("check-deny", "✗ a tier that is none of the three")]),
    "b1-uses-globals": (EX1, {"run-tool-uses": [("tier = policy.get(block.name, default_tier)",
                                                 "tier = POLICY.get(block.name, DEFAULT_TIER)")]},
        [("check-allow", "✗ the valve follows the policy and default_tier it is given"),
         ("check-default-tier", "✗ the valve follows the policy and default_tier it is given")]),
    "b1-policy-index": (EX1, {"run-tool-uses": [("tier = policy.get(block.name, default_tier)", "tier = policy[block.name]")]},
        [("check-default-tier", "✗ default_tier='allow': the unlisted delete_file ran without asking")]),
    "b1-deny-without-is-error": (EX1, {"run-tool-uses": [
        ("            results.append(tool_result(block.id, refusal, is_error=True))",
         "            results.append(tool_result(block.id, refusal))")]},
        [("check-deny", "✗ ... with is_error: true")]),
    "b1-returns-a-message": (EX1, {"run-tool-uses": [("    return results", "    return {\"role\": \"user\", \"content\": results}")]},
        [("check-parallel", "✗ for a turn of 4 tool calls, run_tool_uses returned a list")]),
    "b1-gather-everything": (EX1, {"run-tool-uses": rtu('''\
    import asyncio

    async def one(block):
        tier = policy.get(block.name, default_tier)
        if tier == "deny" or tier not in ("allow", "ask"):
            return tool_result(block.id, f"{block.name} is forbidden by policy", is_error=True)
        if tier == "ask" and not (approve is not None and await approve(block.name, block.input) is True):
            return tool_result(block.id, REJECTED_MESSAGE, is_error=True)
        text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
        return tool_result(block.id, text, is_error)
    return list(await asyncio.gather(*(one(b) for b in content if b.type == "tool_use")))
''')},
        [("check-parallel", "✗ every approval of the turn was asked before any tool of the turn ran")]),
    "b1-forgot-await-approve": (EX1, {"run-tool-uses": [
        ("approved = approve is not None and await approve(block.name, block.input) is True",
         "approved = approve is not None and bool(approve(block.name, block.input))")]},
        [("check-ask", "✗ every call that needs a yes was put to the approver")]),
    "b1-sync-run-tool": (EX1, {"run-tool-uses": [
        ("text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)",
         "text, is_error = run_tool(tool_impls, block.name, block.input, tools)"),
        ("# ✏️ EXERCISE — your code here.\n", "# ✏️ EXERCISE — your code here.\nfrom harness_lib.tools import run_tool\n")]},
        [("check-allow", "✗ read_file and get_time (allow) each ran once")]),
    "b1-deny-also-runs": (EX1, {"run-tool-uses": PER_BLOCK.replace(
        "        else:\n            results.append(tool_result(block.id, \"forbidden by policy: not run\", is_error=True))",
        "        else:\n            results.append(tool_result(block.id, \"forbidden by policy: not run\", is_error=True))\n"
        "            await arun_tool(tool_impls, block.name, block.input, tools)  # log it anyway")},
        [("check-deny", "✗ send_email (deny) never ran")]),
    "b1-rejection-without-is-error": (EX1, {"run-tool-uses": [
        ("refusals.append(None if approved else REJECTED_MESSAGE)", "refusals.append(None if approved else 'REJECTED')"),
        ("            results.append(tool_result(block.id, refusal, is_error=True))",
         "            results.append(tool_result(block.id, REJECTED_MESSAGE if refusal == 'REJECTED' else refusal,\n"
         "                                       is_error=refusal != 'REJECTED'))")]},
        [("check-ask", "✗ rejected: the call still got exactly one tool_result, with is_error: true")]),
    "b1-capitalised-tiers": (EX1, {"policy": [('"get_time": "allow"', '"get_time": "Allow"'),
                                              ('"read_file": "allow"', '"read_file": "Allow"')]},
        [("check-policy", "✗ POLICY is a dict: tool name -> 'allow' | 'ask' | 'deny'")]),
    "b1-default-allow": (EX1, {"policy": [('DEFAULT_TIER = "ask"', 'DEFAULT_TIER = "allow"')]},
        [("check-policy", "✗ DEFAULT_TIER fails closed: 'ask' or 'deny'")]),
    "b1-approve-name-only": (EX1, {"run-tool-uses": [("await approve(block.name, block.input)", "await approve(block.name)")]},
        [("check-ask", "✗ write_file (ask) was put to the approver once")]),
    "b1-refusals-first": (EX1, {"run-tool-uses": rtu('''\
    ran, refused = [], []
    for block in (b for b in content if b.type == "tool_use"):
        tier = policy.get(block.name, default_tier)
        if tier == "ask" and approve is not None and await approve(block.name, block.input) is True:
            tier = "allow"
        if tier == "allow":
            ran.append(block)
        elif tier == "ask":
            refused.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))
        else:
            refused.append(tool_result(block.id, f"{block.name} is forbidden by policy", is_error=True))
    for block in ran:
        text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
        refused.append(tool_result(block.id, text, is_error))
    return refused
''')},
        [("check-parallel", "✗ exactly one tool_result per tool_use, in the tool_use order")]),
    # exercise 2
    "b2-while-cap-in-condition": (EX2, {"capped-loop": [
        ('    while response.stop_reason == "tool_use":\n        if turns >= max_turns:  # first thing in the body: "may I take another turn?"\n'
         '            return AgentResult(f"Stopped by the harness: reached the turn cap of {max_turns}.",\n'
         '                               "max_turns", turns, requests, 0, messages)\n',
         '    while response.stop_reason == "tool_use" and turns < max_turns:\n')]},
        [("check-turn-cap", "✗ it returns AgentResult with stopped_by='max_turns', turns=3, requests=4")]),
    "b2-forgot-increment": (EX2, {"capped-loop": [("        turns += 1\n", "")]},
        [("check-turn-cap", "✗ a model that never ends its turn is stopped (never-ends, max_turns=3) — runaway")]),
    "b2-requests-not-counted": (EX2, {"capped-loop": [("        requests += 1\n", "")]},
        [("check-turn-cap", "✗ it returns AgentResult with stopped_by='max_turns', turns=3, requests=4")]),
    "b2-append-then-cap": (EX2, {"capped-loop": [
        ('        if turns >= max_turns:  # first thing in the body: "may I take another turn?"\n',
         '        messages.append({"role": "assistant", "content": response.content})\n'
         '        if turns >= max_turns:  # first thing in the body: "may I take another turn?"\n'),
        ('        turns += 1\n        messages.append({"role": "assistant", "content": response.content})\n',
         "        turns += 1\n")]},
        [("check-turn-cap", "✗ the history it returns can be continued")]),
    "b2-greater-than": (EX2, {"capped-loop": [("if turns >= max_turns:", "if turns > max_turns:")]},
        [("check-turn-cap", "✗ exactly 3 tool turns ran (ran: 4)")]),
    "b2-default-not-max-turns": (EX2, {"capped-loop": [("*, max_turns=MAX_TURNS)", "*, max_turns=10)")]},
        [("check-turn-cap", "✗ run_capped's default cap is MAX_TURNS")]),
    "b2-max-turns-string": (EX2, {"capped-loop": [("MAX_TURNS = 8", 'MAX_TURNS = "8"'),
                                                  ("*, max_turns=MAX_TURNS)", "*, max_turns=8)")]},
        [("check-turn-cap", "✗ MAX_TURNS is a whole number from 1 to 30")]),
    "b2-for-range": (EX2, {"capped-loop": capped(SOLUTION_TOP + '''\
    for _ in range(max_turns):
        if response.stop_reason != "tool_use":
            return AgentResult(final_text(response), response.stop_reason, turns, requests, 0, messages)
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        results = await run_tool_uses(response.content, tool_impls, tools)
        messages.append({"role": "user", "content": results})
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        requests += 1
    return AgentResult(f"Stopped: turn cap of {max_turns} reached.", "max_turns", turns, requests, 0, messages)
''')},
        [("check-model-answer", "✗ it returns the model's own answer (stopped_by='end_turn'), not a cap message")]),
    "b2-raises-at-cap": (EX2, {"capped-loop": [
        ('            return AgentResult(f"Stopped by the harness: reached the turn cap of {max_turns}.",\n'
         '                               "max_turns", turns, requests, 0, messages)\n',
         '            raise RuntimeError(f"turn cap of {max_turns} reached")\n')]},
        [("check-turn-cap", "✗ a model that never ends its turn is stopped (never-ends, max_turns=3) — RuntimeError")]),
    "b2-diagnosis-with-retries": (EX2, {"diagnosis": [("}\n# NO_RETRIES", "    NO_RETRIES: TURNS_BURN,\n}\n# NO_RETRIES")]},
        [("check-diagnosis", "✗ no key is a guard whose absence does not make this loop run away")]),
    "b2-diagnosis-swapped": (EX2, {"diagnosis": [("NO_TURN_CAP: TURNS_BURN,", "NO_TURN_CAP: TOKENS_BURN,"),
                                                 ("NO_TOKEN_BUDGET: TOKENS_BURN,", "NO_TOKEN_BUDGET: TURNS_BURN,")]},
        [("check-diagnosis", "✗ each of those guards is mapped to the runaway its absence allows (2 of 4 right)")]),
    "b2-diagnosis-two-only": (EX2, {"diagnosis": "DIAGNOSIS = {NO_TURN_CAP: TURNS_BURN, NO_PROGRESS_CHECK: WALKS_IN_PLACE}\n"},
        [("check-diagnosis", "✗ names every missing guard that lets this loop run away (2 of 4 named)")]),
    "b2-diagnosis-free-text": (EX2, {"diagnosis": 'DIAGNOSIS = {"no max turns": "runs forever", "no budget": "costs a lot"}\n'},
        [("check-diagnosis", "✗ DIAGNOSIS is a non-empty dict {missing guard: runaway} built from the constants")]),
    "b2-diagnosis-dangling": (EX2, {"diagnosis": [("NO_PROGRESS_CHECK: WALKS_IN_PLACE,", "NO_PROGRESS_CHECK: DANGLING_TOOL_USE,")]},
        [("check-diagnosis", "✗ no value is a failure this loop does not have")]),
}

# Right answers, worded or built differently: each must PASS.
CORRECT = {
    "c1-deny-default-other-structure": (EX1, {
        "policy": [('DEFAULT_TIER = "ask"', 'DEFAULT_TIER = "deny"')],
        "run-tool-uses": rtu('''\
    uses = [b for b in content if getattr(b, "type", None) == "tool_use"]
    may_run = {}
    for b in uses:  # every decision first
        tier = policy.get(b.name, default_tier)
        if tier == "ask":
            may_run[b.id] = approve is not None and (await approve(b.name, b.input)) == True  # noqa: E712
        else:
            may_run[b.id] = tier == "allow"
    out = []
    for b in uses:
        if may_run[b.id]:
            text, failed = await arun_tool(tool_impls, b.name, b.input, tools)
            out.append(tool_result(b.id, text, is_error=failed))
        elif policy.get(b.name, default_tier) == "ask":
            out.append(tool_result(b.id, REJECTED_MESSAGE, is_error=True))
        else:
            out.append(tool_result(b.id, f"Policy forbids {b.name}. Not executed.", is_error=True))
    return out
''')}),
    "c1-deny-says-declined-and-forbidden": (EX1, {"run-tool-uses": [
        ('DENIED = "{name} is forbidden by policy: this tool may not be used, so it was not run."',
         'DENIED = "Declined: {name} is forbidden by policy."')]}),
    "c2-while-true-and-other-words": (EX2, {
        "diagnosis": [("STOP_LEFT_TO_MODEL: RUNS_WHILE_ASKED,", "STOP_LEFT_TO_MODEL: TURNS_BURN,")],
        "capped-loop": capped(SOLUTION_TOP + '''\
    while True:
        if response.stop_reason != "tool_use":
            return AgentResult(final_text(response), response.stop_reason, turns, requests, 0, messages)
        if turns >= max_turns:
            return AgentResult(f"Max turns ({max_turns}) reached.", "max_turns", turns, requests, 0, messages)
        turns += 1
        messages += [{"role": "assistant", "content": response.content},
                     {"role": "user", "content": await run_tool_uses(response.content, tool_impls, tools)}]
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        requests += 1
''', head=CAPPED_HEAD.replace("MAX_TURNS = 8", "MAX_TURNS = 5"))}),
}

# ---- exercises 3 and 4: the budget and progress valves, the approval gate ----------------------------------
# Wrong answers written the way a beginner writes them. Two wrong answers that sit in different cells and are
# judged by criteria that look only at their own cell (a pure function's cases, WHY_WRONG) share one graded copy
# ("a + b"), so the batch needs fewer notebook runs; each one's own ✗ line is asserted.

EX3, EX4 = "03_budget_and_progress.ipynb", "04_the_approval_gate.ipynb"
EDIT = "# ✏️ EXERCISE — your code here.\n"


def tokens_cell(body: str) -> str:
    return EDIT + "def tokens_of(usage) -> int:\n" + body


def signature_cell(body: str) -> str:
    return EDIT + "def signature_of(content) -> str:\n" + body


def cycle_cell(body: str) -> str:
    return EDIT + "def find_short_cycle(signatures, max_period=3):\n" + body


def gate_cell(body: str) -> str:
    return ("# ✏️ EXERCISE — move the gate before execution, and make it fail closed.\n"
            "async def run_tool_uses(content, tool_impls, *, tools, approve=None, high_impact=HIGH_IMPACT):\n" + body)


BUDGET_CHECK = '''\
        if tokens_used >= token_budget:  # valve 2: everything spent so far, before spending more
            return AgentResult(f"Stopped by the harness: {tokens_used} tokens used, reaching the token budget "
                               f"of {token_budget}.", "token_budget", turns, requests, tokens_used,
                               messages)
'''
PROGRESS_CHECK = '''\
        signatures.append(signature_of(response.content))  # valve 3: before this turn runs
        period = find_loop(signatures)
        if period:
            return AgentResult(f"Stopped by the harness: the last turns repeat a cycle of {period} "
                               f"({' -> '.join(signatures[-period:])}); no progress.",
                               "no_progress", turns, requests, tokens_used, messages)
'''
COUNT = "        tokens_used += tokens_of(response.usage)  # spent is spent: counted as soon as it arrives\n"
RUN_TOOLS = '        messages.append({"role": "user", "content": await run_tool_uses(response.content, tool_impls, tools)})\n'

# single wrong answers: name -> ({cell id: edits}, [(check cell id, ✗ criterion it must print)])
_V = {
    # exercise 3, part 1: tokens_of
    "3-tokens-input-output": ({"tokens": tokens_cell("    return usage.input_tokens + usage.output_tokens\n")},
        [("check-tokens", "✗ the first request of a cached run counts its cache writes")]),
    "3-tokens-none-crash": ({"tokens": tokens_cell(
        "    return (usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens\n"
        "            + usage.cache_read_input_tokens)\n")},
        [("check-tokens", "✗ a usage whose cache counters are missing (None) counts them as 0")]),
    "3-tokens-no-reads": ({"tokens": tokens_cell(
        "    return usage.input_tokens + usage.output_tokens + (usage.cache_creation_input_tokens or 0)\n")},
        [("check-tokens", "✗ a later request counts its cache reads")]),
    "3-tokens-sums-everything": ({"tokens": tokens_cell(
        "    def total(d):\n"
        "        return sum(total(v) if isinstance(v, dict) else v for v in d.values() if isinstance(v, (int, dict)))\n"
        "    return total(usage.model_dump())\n")},
        [("check-tokens", "✗ a usage shaped like a live one (cache_creation also broken down by lifetime)")]),
    "3-tokens-syntax-error": ({"tokens": tokens_cell("    return usage.input_tokens + * usage.output_tokens\n")},
        [("check-tokens", "✗ tokens_of is written and runs"), ("check-budget", "✗ token-hog")]),
    # part 2: signature_of
    "3-sig-unsorted": ({"signature": signature_cell(
        '    return " | ".join(f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content if b.type == "tool_use")\n')},
        [("check-signature", "✗ the same calls in another order give the same signature")]),
    "3-sig-with-ids": ({"signature": signature_cell(
        '    return " | ".join(sorted(f"{b.id}:{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content\n'
        '                             if b.type == "tool_use"))\n')},
        [("check-signature", "✗ the same call in two turns gives the same signature")]),
    "3-sig-str-of-input": ({"signature": signature_cell(
        '    return " | ".join(sorted(f"{b.name}({b.input})" for b in content if b.type == "tool_use"))\n')},
        [("check-signature", "✗ the same input with its keys in another order")]),
    "3-sig-text-too": ({"signature": signature_cell(
        "    parts = []\n    for b in content:\n        if b.type == \"text\":\n            parts.append(b.text)\n"
        "        else:\n            parts.append(b.name + json.dumps(b.input, sort_keys=True))\n"
        "    return \"|\".join(sorted(parts))\n")},
        [("check-signature", "✗ the text before the calls does not change the signature")]),
    "3-sig-names-only": ({"signature": signature_cell(
        '    return ",".join(sorted(b.name for b in content if b.type == "tool_use"))\n')},
        [("check-signature", "✗ a different argument gives a different signature"),
         ("check-progress", "✗ never-ends (a new file every turn): not stopped as no progress")]),
    # part 3: run_guarded
    "3-budget-at-bottom": ({"guarded-loop": [(BUDGET_CHECK, ""), (COUNT, COUNT + '''\
        if tokens_used >= token_budget:
            return AgentResult(f"Token budget of {token_budget} exceeded.", "token_budget", turns, requests, tokens_used, messages)
''')]}, [("check-budget", "✗ a model that ends its turn keeps its answer"),
         ("check-budget", "✗ token_budget=1: the first response already spends it, so no turn runs")]),
    "3-budget-before-cap": ({"guarded-loop": [(BUDGET_CHECK, ""), (
        '    while response.stop_reason == "tool_use":\n',
        '    while response.stop_reason == "tool_use":\n'
        '        if tokens_used >= token_budget:\n'
        '            return AgentResult(f"Out of budget: {tokens_used} tokens.", "token_budget", turns, requests, tokens_used, messages)\n')]},
        [("check-budget", "✗ max_turns=0 and token_budget=1 both say stop: the turn cap, checked first, names it")]),
    "3-budget-greater-than": ({"guarded-loop": [("if tokens_used >= token_budget:", "if tokens_used > token_budget:")]},
        [("check-budget", "✗ a budget reached exactly")]),
    "3-budget-last-response-only": ({"guarded-loop": [(COUNT, COUNT.replace("tokens_used +=", "tokens_used ="))]},
        [("check-budget", "✗ token-hog, max_turns=8, token_budget=40,000: stopped_by='token_budget'"),
         ("check-budget", "✗ tokens_used is the sum over every request")]),
    "3-budget-first-not-counted": ({"guarded-loop": [(
        "turns, requests, tokens_used = 0, 1, tokens_of(response.usage)", "turns, requests, tokens_used = 0, 1, 0")]},
        [("check-budget", "✗ tokens_used is the sum over every request, the first included"),
         ("check-budget", "✗ token_budget=1: the first response already spends it")]),
    "3-budget-input-plus-output": ({"guarded-loop": [
        ("turns, requests, tokens_used = 0, 1, tokens_of(response.usage)",
         "turns, requests, tokens_used = 0, 1, response.usage.input_tokens + response.usage.output_tokens"),
        (COUNT, "        tokens_used += response.usage.input_tokens + response.usage.output_tokens\n")]},
        [("check-budget", "✗ with prompt caching on, the budget counts the cached tokens too")]),
    "3-budget-after-append": ({"guarded-loop": [(BUDGET_CHECK, ""), (
        '        messages.append({"role": "assistant", "content": response.content})\n',
        '        messages.append({"role": "assistant", "content": response.content})\n'
        '        if tokens_used >= token_budget:\n'
        '            return AgentResult(f"Budget of {token_budget} tokens reached.", "token_budget", turns, requests, tokens_used, messages)\n')]},
        [("check-budget", "✗ the history it returns can be continued")]),
    "3-progress-after-tools": ({"guarded-loop": [(PROGRESS_CHECK, ""), (RUN_TOOLS, RUN_TOOLS + '''\
        signatures.append(signature_of(response.content))
        if find_loop(signatures):
            return AgentResult("No progress.", "no_progress", turns, requests, tokens_used, messages)
''')]}, [("check-progress", "✗ the repeated call never ran")]),
    "3-progress-own-comparison": ({"guarded-loop": [(
        "        period = find_loop(signatures)\n",
        "        period = 1 if len(signatures) >= 2 and signatures[-1] == signatures[-2] else None\n")]},
        [("check-progress", "✗ find_loop is asked once per tool-calling turn")]),
    "3-progress-count-first": ({"guarded-loop": [(PROGRESS_CHECK, ""), ("        turns += 1\n",
        "        turns += 1\n" + PROGRESS_CHECK)]},
        [("check-progress", "✗ stuck: stopped_by='no_progress' after 1 turn and 2 requests")]),
    "3-progress-before-cap": ({"guarded-loop": [(PROGRESS_CHECK, ""), (
        '    while response.stop_reason == "tool_use":\n',
        '    while response.stop_reason == "tool_use":\n'
        '        signatures.append(signature_of(response.content))\n'
        '        if find_loop(signatures):\n'
        '            return AgentResult("No progress.", "no_progress", turns, requests, tokens_used, messages)\n')]},
        [("check-progress", "✗ stuck with max_turns=1: the cap, asked first, stops the second turn")]),
    "3-budget-model-text": ({"guarded-loop": [(BUDGET_CHECK, BUDGET_CHECK.replace(
        'AgentResult(f"Stopped by the harness: {tokens_used} tokens used, reaching the token budget "\n'
        '                               f"of {token_budget}.", "token_budget"',
        'AgentResult(final_text(response), "token_budget"'))]},
        [("check-budget", "✗ the budget's stop comes with a text that says the harness stopped the run")]),
    # part 4: find_short_cycle
    "3-cycle-longest-first": ({"cycle": cycle_cell(
        "    for p in range(max_period, 0, -1):\n"
        "        if len(signatures) >= 2 * p and signatures[-p:] == signatures[-2 * p:-p]:\n"
        "            return p\n    return None\n")},
        [("check-cycle", "✗ the shortest period wins")]),
    "3-cycle-seen-anywhere": ({"cycle": cycle_cell(
        "    return 1 if signatures and signatures[-1] in signatures[:-1] else None\n")},
        [("check-cycle", "✗ a signature seen before, after progress, is not a cycle")]),
    "3-cycle-unbounded": ({"cycle": cycle_cell(
        "    for p in range(1, len(signatures) // 2 + 1):\n        if signatures[-p:] == signatures[-2 * p:-p]:\n"
        "            return p\n    return None\n")},
        [("check-cycle", "✗ it looks back at most 2 × max_period signatures")]),
    "3-cycle-returns-true": ({"cycle": cycle_cell(
        "    for p in range(1, max_period + 1):\n"
        "        if len(signatures) >= 2 * p and signatures[-p:] == signatures[-2 * p:-p]:\n"
        "            return True\n    return None\n")},
        [("check-cycle", "✗ it returns the period of a cycle at the end")]),
    "3-cycle-empty-slices": ({"cycle": cycle_cell(
        "    for p in range(1, max_period + 1):\n        if signatures[-p:] == signatures[-2 * p:-p]:\n"
        "            return p\n    return None\n")},
        [("check-cycle", "✗ no cycle, no answer")]),
    "3-cycle-two-fixed-periods": ({"cycle": cycle_cell(
        "    if len(signatures) >= 2 and signatures[-1] == signatures[-2]:\n        return 1\n"
        "    if len(signatures) >= 4 and signatures[-2:] == signatures[-4:-2]:\n        return 2\n    return None\n")},
        [("check-cycle", "✗ max_period=3 is honoured")]),
    "3-cycle-repeats-in-window": ({"cycle": cycle_cell(
        "    window = signatures[-2 * max_period:]\n    if len(window) >= 2 and len(set(window)) < len(window):\n"
        "        return len(window) - len(set(window))\n    return None\n")},
        [("check-cycle", "✗ no cycle, no answer")]),
    # exercise 4, part (a): WHY_WRONG
    "4-why-the-argument": ({"why-wrong": "WHY_WRONG = {SAME_THING}\n"},
        [("check-why-wrong", "✗ does not agree with the colleague's argument")]),
    "4-why-plus-dangling": ({"why-wrong": "WHY_WRONG = {RAN_BEFORE_ASKED, DISCARD_UNDOES_NOTHING, "
                                          "HISTORY_CONTRADICTS_DISK, LEFT_DANGLING}\n"},
        [("check-why-wrong", "✗ no statement the run above shows to be untrue of this wiring")]),
    "4-why-one-and-untold": ({"why-wrong": "WHY_WRONG = {RAN_BEFORE_ASKED, MODEL_NEVER_TOLD}\n"},
        [("check-why-wrong", "✗ names every reason the run above shows (1 of 3 named)")]),
    "4-why-own-words": ({"why-wrong": 'WHY_WRONG = {"the file is written before anyone is asked"}\n'},
        [("check-why-wrong", "✗ WHY_WRONG is a non-empty set of the statements of the 🔒 cell")]),
    "4-why-a-dict": ({"why-wrong": "WHY_WRONG = {RAN_BEFORE_ASKED: DISCARD_UNDOES_NOTHING}\n"},
        [("check-why-wrong", "✗ WHY_WRONG is a non-empty set of the statements of the 🔒 cell")]),
    # part (b) and (c): run_tool_uses
    "4-ask-then-run-per-call": ({"gate": gate_cell('''\
    results = []
    for block in content:
        if block.type != "tool_use":
            continue
        if block.name in high_impact:
            try:
                ok = approve is not None and await approve(block.name, block.input) is True
            except Exception:
                ok = False
            if not ok:
                results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))
                continue
        text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
        results.append(tool_result(block.id, text, is_error))
    return results
''')}, [("check-parallel", "✗ both questions were asked before any tool of the turn ran")]),
    "4-truthy-yes": ({"gate": [("await approve(block.name, block.input) is True",
                                "bool(await approve(block.name, block.input))")]},
        [("check-fail-closed", "✗ an approver that answers the string 'yes'")]),
    "4-no-approver-allows": ({"gate": [("approved = approve is not None and await approve(block.name, block.input) is True",
                                        "approved = approve is None or await approve(block.name, block.input) is True")]},
        [("check-fail-closed", "✗ no approver (approve=None): write_file does not run")]),
    "4-no-try": ({"gate": [('''\
            try:
                approved = approve is not None and await approve(block.name, block.input) is True
            except Exception:  # a broken gate is a closed gate
                approved = False
''', "            approved = approve is not None and await approve(block.name, block.input) is True\n")]},
        [("check-fail-closed", "✗ an approver that raises an error")]),
    "4-rejection-unanswered": ({"gate": [('''\
        if block.id in refused:
            results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))
        else:
''', "        if block.id not in refused:\n")]},
        [("check-gate", "✗ rejected: the call got exactly one tool_result, with is_error: true")]),
    "4-rejection-without-is-error": ({"gate": [("results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))",
                                                "results.append(tool_result(block.id, REJECTED_MESSAGE))")]},
        [("check-gate", "✗ rejected: the call got exactly one tool_result, with is_error: true")]),
    "4-one-answer-for-the-turn": ({"gate": gate_cell('''\
    calls = [b for b in content if b.type == "tool_use"]
    risky = [b for b in calls if b.name in high_impact]
    ok = True
    if risky:
        try:
            ok = approve is not None and await approve(risky[0].name, risky[0].input) is True
        except Exception:
            ok = False
    results = []
    for b in calls:
        if b.name in high_impact and not ok:
            results.append(tool_result(b.id, REJECTED_MESSAGE, is_error=True))
        else:
            text, is_error = await arun_tool(tool_impls, b.name, b.input, tools)
            results.append(tool_result(b.id, text, is_error))
    return results
''')}, [("check-parallel", "✗ each write was put to the approver once, with its own input")]),
    "4-stop-asking-after-a-no": ({"gate": [("            if not approved:\n                refused.add(block.id)\n",
                                            "            if not approved:\n                refused.add(block.id)\n"
                                            "                break\n")]},
        [("check-parallel", "✗ the other way round (no to a, yes to b): both are asked about")]),
    "4-global-high-impact": ({"gate": [("        if block.name in high_impact:", "        if block.name in HIGH_IMPACT:")]},
        [("check-gate", "✗ the gate follows the high_impact set it is given")]),
    "4-asks-about-every-call": ({"gate": [("        if block.name in high_impact:\n            try:",
                                           "        if True:\n            try:")]},
        [("check-gate", "✗ read_file and get_time ran without anybody being asked")]),
    "4-tool-error-dropped": ({"gate": [("            results.append(tool_result(block.id, text, is_error))",
                                        "            results.append(tool_result(block.id, text))")]},
        [("check-gate", "✗ approved, but the tool itself fails (outside scratch/): its tool_result keeps is_error")]),
    "4-every-block-a-call": ({"gate": [('    calls = [block for block in content if block.type == "tool_use"]',
                                        "    calls = list(content)")]},
        [("check-gate", "✗ rejected run: the API accepted every request and the model finished")]),
    "4-approve-name-only": ({"gate": [("await approve(block.name, block.input)", "await approve(block.name)")]},
        [("check-gate", "✗ every call that needs a yes was put to the approver")]),
    "4-rejection-says-policy": ({"gate": [("results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))",
                                           'results.append(tool_result(block.id, "Error: not allowed by the policy.", '
                                           "is_error=True))")]},
        [("check-gate", "✗ rejected: the model reads it as not approved")]),
    "4-refused-after-run": ({"gate": [('''\
    for block in calls:  # 2. then run what may run; every call gets exactly one tool_result, in order
        if block.id in refused:
            results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))
        else:
            text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
            results.append(tool_result(block.id, text, is_error))
''', '''\
    for block in calls:  # the calls that may run, then the refusals
        if block.id not in refused:
            text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
            results.append(tool_result(block.id, text, is_error))
    for block in calls:
        if block.id in refused:
            results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))
''')]},
        [("check-parallel", "✗ the other way round too, one tool_result per call in the order of the calls")]),
    "4-run-then-overwrite": ({"gate": [('''\
        if block.id in refused:
            results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))
        else:
            text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
            results.append(tool_result(block.id, text, is_error))''', '''\
        text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
        if block.id in refused:
            text, is_error = REJECTED_MESSAGE, True
        results.append(tool_result(block.id, text, is_error))''')]},
        [("check-gate", "✗ rejected: write_file never ran, and scratch/answer.txt is not on disk")]),
}

# graded copies: name -> (notebook, the wrong answers it holds); a pair only where both are judged on their own cells
_COPIES = {
    EX3: [("3-tokens-input-output", "3-sig-unsorted"), ("3-tokens-syntax-error",), ("3-tokens-none-crash", "3-sig-with-ids"),
          ("3-tokens-no-reads", "3-sig-str-of-input"), ("3-tokens-sums-everything", "3-sig-text-too"),
          ("3-sig-names-only",), ("3-budget-at-bottom", "3-cycle-seen-anywhere"),
          ("3-budget-before-cap", "3-cycle-unbounded"), ("3-budget-greater-than", "3-cycle-returns-true"),
          ("3-budget-last-response-only", "3-cycle-empty-slices"),
          ("3-budget-first-not-counted", "3-cycle-two-fixed-periods"),
          ("3-budget-input-plus-output", "3-cycle-repeats-in-window"), ("3-budget-after-append",),
          ("3-progress-after-tools",), ("3-progress-own-comparison",), ("3-progress-before-cap",),
          ("3-progress-count-first",), ("3-budget-model-text", "3-cycle-longest-first")],
    EX4: [("4-why-the-argument", "4-ask-then-run-per-call"), ("4-why-plus-dangling", "4-truthy-yes"),
          ("4-why-one-and-untold", "4-no-approver-allows"), ("4-why-own-words", "4-no-try"),
          ("4-why-a-dict", "4-rejection-unanswered"), ("4-rejection-without-is-error",),
          ("4-one-answer-for-the-turn",), ("4-stop-asking-after-a-no",), ("4-global-high-impact",),
          ("4-asks-about-every-call",), ("4-tool-error-dropped",), ("4-every-block-a-call",),
          ("4-approve-name-only",), ("4-rejection-says-policy",), ("4-run-then-overwrite",),
          ("4-refused-after-run",)],
}
VALVES = {" + ".join(names): (name, {k: v for n in names for k, v in _V[n][0].items()},
                              [e for n in names for e in _V[n][1]])
          for name, groups in _COPIES.items() for names in groups}
assert sorted(n for groups in _COPIES.values() for names in groups for n in names) == sorted(_V), "a case is unused"

CORRECT = CORRECT | {  # right answers built differently, for exercises 3 and 4
    "c3-other-structure": (EX3, {
        "tokens": tokens_cell("    u = usage.model_dump()\n    return sum(u.get(k) or 0 for k in ('input_tokens', "
                              "'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'))\n"),
        "signature": signature_cell("    calls = sorted((b.name, json.dumps(b.input, sort_keys=True)) for b in content "
                                    "if b.type == 'tool_use')\n    return ';'.join(f'{n}:{i}' for n, i in calls)\n"),
        "cycle": cycle_cell("    n = len(signatures)\n    for p in range(1, min(max_period, n // 2) + 1):\n"
                            "        if all(signatures[n - 1 - i] == signatures[n - 1 - i - p] for i in range(p)):\n"
                            "            return p\n    return None\n")}),
    # the readings the task text leaves open, each taken the other way from the solution: the counters read as
    # attributes (`or 0` for None; the SDK's Usage always has all four), the fingerprint's JSON spaced
    # (json.dumps's default) and two identical calls in one turn kept once, the stops in other words
    "c3-other-readings": (EX3, {
        "tokens": tokens_cell("    return (usage.input_tokens + usage.output_tokens + (usage.cache_creation_input_tokens or 0)\n"
                              "            + (usage.cache_read_input_tokens or 0))\n"),
        "signature": signature_cell('    calls = {f"{b.name}({json.dumps(b.input, sort_keys=True)})" for b in content '
                                    'if b.type == "tool_use"}\n    return " | ".join(sorted(calls))\n'),
        "guarded-loop": [(BUDGET_CHECK, BUDGET_CHECK.replace(
            'AgentResult(f"Stopped by the harness: {tokens_used} tokens used, reaching the token budget "\n'
            '                               f"of {token_budget}.", "token_budget"',
            'AgentResult(f"Token budget used up ({tokens_used:,} tokens): the harness ended the run.", "token_budget"')),
            (PROGRESS_CHECK, PROGRESS_CHECK.replace(
                'AgentResult(f"Stopped by the harness: the last turns repeat a cycle of {period} "\n'
                '                               f"({\' -> \'.join(signatures[-period:])}); no progress.",',
                'AgentResult("No progress: the model kept making the same calls, so the harness stopped it.",'))]}),
    "c4-other-structure": (EX4, {
        "why-wrong": "WHY_WRONG = [HISTORY_CONTRADICTS_DISK, RAN_BEFORE_ASKED, DISCARD_UNDOES_NOTHING]\n",
        "gate": gate_cell('''\
    import asyncio
    uses = [b for b in content if getattr(b, "type", None) == "tool_use"]
    verdict = {}
    for b in uses:
        if b.name not in high_impact:
            verdict[b.id] = None
            continue
        if approve is None:
            verdict[b.id] = "No approver is set up, so this action was declined and not run."
            continue
        try:
            answer = await approve(b.name, b.input)
        except Exception as err:
            answer = err
        verdict[b.id] = None if answer is True else REJECTED_MESSAGE

    async def one(b):
        if verdict[b.id] is not None:
            return tool_result(b.id, verdict[b.id], is_error=True)
        text, failed = await arun_tool(tool_impls, b.name, b.input, tools)
        return tool_result(b.id, text, is_error=failed)
    return list(await asyncio.gather(*(one(b) for b in uses)))
''')}),
}

CORRECT = CORRECT | {  # issue 36: right answers in other styles (gather, a dispatch helper, the stops' texts in other
    # words, naming the valve and its limit; `is not None` for a period; the questions asked at once)
 "c1-dispatch-gather-own-words": (EX1, {"run-tool-uses": rtu('''\
    import asyncio

    async def decide(block):  # -> None when the call may run, else the text it gets instead
        tier = policy.get(block.name, default_tier)
        if tier == "allow":
            return None
        if tier == "ask":
            yes = approve is not None and (await approve(block.name, block.input)) is True
            return None if yes else REJECTED_MESSAGE
        return f"Policy says no: {block.name} may not be used here."

    async def answer(block, refusal):
        if refusal is not None:
            return tool_result(block.id, refusal, is_error=True)
        text, failed = await arun_tool(tool_impls, block.name, block.input, tools)
        return tool_result(block.id, text, failed)

    uses = [b for b in content if b.type == "tool_use"]
    refusals = [await decide(b) for b in uses]  # every decision first, in order
    return list(await asyncio.gather(*(answer(b, r) for b, r in zip(uses, refusals))))  # then run them together
''')}),
 "c2-cap-other-words": (EX2, {"capped-loop": capped(SOLUTION_TOP + '''\
    while True:
        if response.stop_reason != "tool_use":
            return AgentResult(final_text(response), response.stop_reason, turns, requests, 0, messages)
        if turns >= max_turns:
            return AgentResult(f"Harness stop: {max_turns}-turn cap hit.", "max_turns", turns, requests, 0, messages)
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        messages.append({"role": "user", "content": await run_tool_uses(response.content, tool_impls, tools)})
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        requests += 1
''')}),
 "c3-other-words": (EX3, {
    "guarded-loop": [(BUDGET_CHECK, BUDGET_CHECK.replace(
        'AgentResult(f"Stopped by the harness: {tokens_used} tokens used, reaching the token budget "\n'
        '                               f"of {token_budget}.", "token_budget"',
        'AgentResult(f"Budget of {token_budget:,} tokens spent ({tokens_used:,}): the harness stopped.", "token_budget"')),
        (PROGRESS_CHECK, PROGRESS_CHECK.replace("        if period:\n", "        if period is not None:\n").replace(
            'AgentResult(f"Stopped by the harness: the last turns repeat a cycle of {period} "\n'
            '                               f"({\' -> \'.join(signatures[-period:])}); no progress.",',
            'AgentResult("Stopped: the model keeps making the same calls.",'))],
    "cycle": cycle_cell("    tail = signatures[-2 * max_period:]\n"
                        "    return next((p for p in range(1, max_period + 1)\n"
                        "                 if len(tail) >= 2 * p and tail[-p:] == tail[-2 * p:-p]), None)\n")}),
 "c4-gather-questions": (EX4, {"gate": gate_cell('''\
    import asyncio
    uses = [b for b in content if b.type == "tool_use"]
    risky = [b for b in uses if b.name in high_impact]
    if approve is None:
        answers = [False] * len(risky)
    else:  # every question of the turn at once, before anything runs; an approver that raises is a no
        answers = await asyncio.gather(*(approve(b.name, b.input) for b in risky), return_exceptions=True)
    refused = {b.id for b, a in zip(risky, answers) if a is not True}
    out = []
    for b in uses:
        if b.id in refused:
            out.append(tool_result(b.id, REJECTED_MESSAGE, is_error=True))
        else:
            text, failed = await arun_tool(tool_impls, b.name, b.input, tools)
            out.append(tool_result(b.id, text, failed))
    return out
''')}),
}

FAKE_KEY = "sk-" + "ant-" + "api03-" + "x" * 24  # shaped like a key, is none

# case -> (notebook, how it is changed, what the refusal must say)
REFUSED = {
    "tamper-edited": (EX1, "edit", "the check cell 'check-deny' was edited"),
    "tamper-deleted": (EX2, "delete", "the check cell 'check-turn-cap' was deleted"),
    "tamper-untagged": (EX2, "untag", "the check cell 'check-model-answer' has tags ['raises-exception']"),
    "key-in-source": (EX1, "key-source", "in cell 'policy' (source)"),
    "key-in-output": (EX2, "key-output", "in cell 'it-works' (output)"),
    "key-in-cell-metadata": (EX1, "key-metadata", "in cell 'policy' (metadata)"),
    "es-tamper-edited": (EX1, "edit-es", "the check cell 'check-deny' was edited"),  # the Spanish twin: same lock
}

# ---- issue 36: wrong answers written blind to the checks, one per cause the first ✗ must name -------------------
# State that outlives a run (globals for arguments, caches, mutable defaults, a closure over the loop variable), an
# approver never awaited, a ✏️ cell that raised (any error), and the task texts' one reading. case -> (notebook,
# edits, [(check cell id, the first ✗ it must print)]); CAUSES_36 holds the hint each first ✗ must give.
GATE_HEAD = "# ✏️ EXERCISE — move the gate before execution, and make it fail closed.\n"
STATE = {
    "s1-globals-policy": (EX1, {"run-tool-uses": [("tier = policy.get(block.name, default_tier)",
                                                   "tier = POLICY.get(block.name, DEFAULT_TIER)")]},
        [("check-allow", "✗ the valve follows the policy and default_tier it is given")]),
    "s1-global-default-only": (EX1, {"run-tool-uses": [("tier = policy.get(block.name, default_tier)",
                                                        "tier = policy.get(block.name, DEFAULT_TIER)")]},
        [("check-default-tier", "✗ the valve follows the policy and default_tier it is given")]),
    "s1-approved-memory": (EX1, {"run-tool-uses": [
        ("async def run_tool_uses", "APPROVED = set()  # tools the person already said yes to\n\n\nasync def run_tool_uses"),
        ("            approved = approve is not None and await approve(block.name, block.input) is True\n",
         "            if block.name in APPROVED:\n                approved = True\n            else:\n"
         "                approved = approve is not None and await approve(block.name, block.input) is True\n"
         "                if approved:\n                    APPROVED.add(block.name)\n")]},
        [("check-ask", "✗ each run starts afresh"), ("check-parallel", "✗ each run starts afresh")]),
    "s1-approve-not-awaited": (EX1, {"run-tool-uses": [
        ("approved = approve is not None and await approve(block.name, block.input) is True",
         "approved = approve is not None and approve(block.name, block.input) is True")]},
        [("check-ask", "✗ every call that needs a yes was put to the approver")]),
    "s1-deny-no-result": (EX1, {"run-tool-uses": [
        ("        else:\n            results.append(tool_result(block.id, refusal, is_error=True))",
         "        elif refusal == REJECTED_MESSAGE:\n            results.append(tool_result(block.id, refusal, is_error=True))")]},
        [("check-deny", "✗ the send_email call got exactly one tool_result (it got 0)")]),
    "s1-raise-in-policy-cell": (EX1, {"policy": [('DEFAULT_TIER = "ask"', 'DEFAULT_TIER = "ask"\n'
                                                  'raise RuntimeError("TODO: confirm the tiers with the colleague")')]},
        [("check-policy", "✗ the cell that defines POLICY ran to its end")]),
    "s1-raise-before-def": (EX1, {"run-tool-uses": [
        ('DENIED = "{name} is forbidden by policy: this tool may not be used, so it was not run."',
         'DENIED = "{name} is forbidden by policy: this tool may not be used, so it was not run.".format()')]},
        [("check-allow", "✗ run_tool_uses is written and runs")]),
    "s1-late-binding": (EX1, {"run-tool-uses": rtu('''\
    jobs = []  # one job per call: a function that gives its tool_result
    for block in content:
        if block.type != "tool_use":
            continue
        tier = policy.get(block.name, default_tier)
        if tier == "allow" or (tier == "ask" and approve is not None and await approve(block.name, block.input) is True):
            async def job():
                text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)
                return tool_result(block.id, text, is_error)
        elif tier == "ask":
            async def job():
                return tool_result(block.id, REJECTED_MESSAGE, is_error=True)
        else:
            async def job():
                return tool_result(block.id, f"{block.name} is forbidden by policy.", is_error=True)
        jobs.append(job)
    return [await job() for job in jobs]
''')}, [("check-parallel", "✗ each call of the turn is handled with its own id and input")]),
    "s1-lambda-questions": (EX1, {"run-tool-uses": [
        ("    for block in calls:\n        tier = policy.get(block.name, default_tier)\n",
         "    questions = {block.id: (lambda: approve(block.name, block.input)) for block in calls}\n"
         "    for block in calls:\n        tier = policy.get(block.name, default_tier)\n"),
        ("approved = approve is not None and await approve(block.name, block.input) is True",
         "approved = approve is not None and await questions[block.id]() is True")]},
        [("check-parallel", "✗ each call of the turn is handled with its own id and input")]),
    "s1-deny-vague-text": (EX1, {"run-tool-uses": [
        ('DENIED = "{name} is forbidden by policy: this tool may not be used, so it was not run."',
         'DENIED = "Blocked: {name} may not be used here."')]},
        [("check-deny", "✗ ... saying the tool is forbidden by policy (so the model does not try again) (it says: ")]),
    "s1-impls-global": (EX1, {"run-tool-uses": [("await arun_tool(tool_impls, block.name, block.input, tools)",
                                                 "await arun_tool(make_impls(), block.name, block.input, tools)")]},
        [("check-allow", "✗ the calls ran on the tool_impls the valve is given")]),
    "s1-tools-global": (EX1, {"run-tool-uses": [("await arun_tool(tool_impls, block.name, block.input, tools)",
                                                 "await arun_tool(tool_impls, block.name, block.input, TOOLS_WITH_EMAIL)")]},
        [("check-allow", "✗ each call is checked against the tools the valve is given")]),
    "s1-result-cache": (EX1, {"run-tool-uses": [
        ("async def run_tool_uses", "SEEN = {}  # tool name -> (text, is_error): no need to run a tool twice\n\n\n"
                                    "async def run_tool_uses"),
        ("            text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)\n",
         "            if block.name not in SEEN:\n"
         "                SEEN[block.name] = await arun_tool(tool_impls, block.name, block.input, tools)\n"
         "            text, is_error = SEEN[block.name]\n")]},
        [("check-allow", "✗ each run starts afresh")]),
    # exercise 2
    "s2-max-turns-constant": (EX2, {"capped-loop": [("if turns >= max_turns:", "if turns >= MAX_TURNS:")]},
        [("check-turn-cap", "✗ the loop stops at its max_turns argument")]),
    "s2-global-turns": (EX2, {"capped-loop": [("MAX_TURNS = 8\n", "MAX_TURNS = 8\nturns = 0  # tool-calling turns so far\n"),
                                              ("    turns, requests = 0, 1\n", "    global turns\n    requests = 1\n")]},
        [("check-turn-cap", "✗ each run starts afresh"), ("check-model-answer", "✗ each run starts afresh")]),
    "s2-raise-leftover": (EX2, {"capped-loop": [
        ("        requests += 1\n    return AgentResult(final_text(response), response.stop_reason, turns, requests, 0, messages)",
         "        requests += 1\n    return AgentResult(final_text(response), response.stop_reason, turns, requests, 0, messages)"
         "\n\n\nprint(run_capped(max_turns=2))  # quick test\n")]},
        [("check-turn-cap", "✗ the cell that defines run_capped ran to its end")]),
    "s2-cap-text-code": (EX2, {"capped-loop": [('f"Stopped by the harness: reached the turn cap of {max_turns}."', '"max_turns"')]},
        [("check-turn-cap", "✗ its text says the harness stopped the run: it names the turn cap and its limit (3) "
                            "(it says: 'max_turns')")]),
    "s2-cap-text-model": (EX2, {"capped-loop": [('f"Stopped by the harness: reached the turn cap of {max_turns}."',
                                                 'final_text(response)')]},
        [("check-turn-cap", "✗ its text says the harness stopped the run: it names the turn cap and its limit (3) "
                            "(it says: '')")]),
    "s2-global-requests": (EX2, {"capped-loop": [("MAX_TURNS = 8\n", "MAX_TURNS = 8\nrequests = 0\n"),
                                                 ("    turns, requests = 0, 1\n",
                                                  "    global requests\n    turns = 0\n    requests += 1\n")]},
        [("check-turn-cap", "✗ each run starts afresh"), ("check-model-answer", "✗ each run starts afresh")]),
    "s2-diagnosis-swapped-kv": (EX2, {"diagnosis": "DIAGNOSIS = {RUNS_WHILE_ASKED: STOP_LEFT_TO_MODEL, TURNS_BURN: NO_TURN_CAP, "
                                                   "TOKENS_BURN: NO_TOKEN_BUDGET, WALKS_IN_PLACE: NO_PROGRESS_CHECK}\n"},
        [("check-diagnosis", "✗ each key is a missing guard, each value the runaway its absence allows")]),
    "s2-diagnosis-set": (EX2, {"diagnosis": "DIAGNOSIS = {STOP_LEFT_TO_MODEL, NO_TURN_CAP, NO_TOKEN_BUDGET, NO_PROGRESS_CHECK}\n"},
        [("check-diagnosis", "✗ DIAGNOSIS is a non-empty dict")]),
    "s2-cap-at-bottom": (EX2, {"capped-loop": [
        ('        if turns >= max_turns:  # first thing in the body: "may I take another turn?"\n'
         '            return AgentResult(f"Stopped by the harness: reached the turn cap of {max_turns}.",\n'
         '                               "max_turns", turns, requests, 0, messages)\n', ""),
        ("        requests += 1\n", "        requests += 1\n        if turns >= max_turns:\n"
         '            return AgentResult(f"Stopped by the harness: reached the turn cap of {max_turns}.",\n'
         '                               "max_turns", turns, requests, 0, messages)\n')]},
        [("check-model-answer", "✗ it returns the model's own answer")]),
    "s2-stopped-by-words": (EX2, {"capped-loop": [('"max_turns", turns, requests, 0, messages)',
                                                   '"turn cap", turns, requests, 0, messages)')]},
        [("check-turn-cap", "✗ it returns AgentResult with stopped_by='max_turns', turns=3, requests=4 (got ('turn cap', 3, 4))")]),
    "s2-default-none": (EX2, {"capped-loop": [("*, max_turns=MAX_TURNS)", "*, max_turns=None)"),
                                              ("        if turns >= max_turns:", "        if max_turns and turns >= max_turns:"),
                                              ("    messages = [{", "    max_turns = max_turns or MAX_TURNS\n    messages = [{")]},
        [("check-turn-cap", "✗ max_turns=0: not a single turn runs (tool calls: 8, requests: 9)")]),
    "s2-text-is-content": (EX2, {"capped-loop": [
        ("    return AgentResult(final_text(response), response.stop_reason,", "    return AgentResult(response.content, response.stop_reason,")]},
        [("check-model-answer", "✗ it returns the model's own answer")]),
    # exercise 3
    "s3-signatures-default": (EX3, {"guarded-loop": [
        ("                      find_loop=same_as_last) -> AgentResult:",
         "                      find_loop=same_as_last, signatures=[]) -> AgentResult:"),
        ("    signatures = []  # one per tool-calling turn, oldest first\n", "")]},
        [("check-budget", "✗ each run starts afresh"), ("check-progress", "✗ each run starts afresh")]),
    "s3-signatures-global": (EX3, {"guarded-loop": [
        ("# ✏️ EXERCISE — add valves 2 and 3 to exercise 2's capped loop.\n",
         "# ✏️ EXERCISE — add valves 2 and 3 to exercise 2's capped loop.\nSIGNATURES = []  # one per tool-calling turn\n\n\n"),
        ("    signatures = []  # one per tool-calling turn, oldest first\n", "    signatures = SIGNATURES\n")]},
        [("check-budget", "✗ each run starts afresh")]),
    "s3-global-tokens": (EX3, {"guarded-loop": [
        ("# ✏️ EXERCISE — add valves 2 and 3 to exercise 2's capped loop.\n",
         "# ✏️ EXERCISE — add valves 2 and 3 to exercise 2's capped loop.\ntokens_used = 0  # spent so far\n\n\n"),
        ("    turns, requests, tokens_used = 0, 1, tokens_of(response.usage)  # the first response costs too\n",
         "    global tokens_used\n    turns, requests = 0, 1\n    tokens_used += tokens_of(response.usage)\n")]},
        [("check-budget", "✗ each run starts afresh")]),
    "s3-budget-constant": (EX3, {"guarded-loop": [("if tokens_used >= token_budget:", "if tokens_used >= 40_000:")]},
        [("check-budget", "✗ the loop stops at the max_turns and token_budget it is given")]),
    "s3-cap-constant": (EX3, {"guarded-loop": [("if turns >= max_turns:", "if turns >= 8:")]},
        [("check-budget", "✗ the loop stops at the max_turns and token_budget it is given")]),
    "s3-budget-text-code": (EX3, {"guarded-loop": [(
        'AgentResult(f"Stopped by the harness: {tokens_used} tokens used, reaching the token budget "\n'
        '                               f"of {token_budget}.", "token_budget"', 'AgentResult("token_budget", "token_budget"')]},
        [("check-budget", "✗ the budget's stop comes with a text that says the harness stopped the run")]),
    "s3-zero-period": (EX3, {"cycle": cycle_cell(
        "    for p in range(1, max_period + 1):\n"
        "        if len(signatures) >= 2 * p and signatures[-p:] == signatures[-2 * p:-p]:\n"
        "            return p\n    return 0  # no cycle\n")},
        [("check-cycle", "✗ no cycle, no answer")]),
    "s3-raise-in-tokens-cell": (EX3, {"tokens": [(
        "    return sum(getattr(usage, name, None) or 0 for name in USAGE_COUNTERS)  # a missing counter is 0",
        "    return sum(getattr(usage, name, None) or 0 for name in USAGE_COUNTERS)  # a missing counter is 0\n\n\n"
        "print(tokens_of(usage))\n")]},
        [("check-tokens", "✗ the cell that defines tokens_of ran to its end")]),
    "s3-tokens-running-total": (EX3, {"tokens": tokens_cell.__call__(
        "    global SPENT\n    SPENT += sum((getattr(usage, n, None) or 0) for n in ('input_tokens', 'output_tokens', "
        "'cache_creation_input_tokens', 'cache_read_input_tokens'))\n    return SPENT\n").replace(
        "def tokens_of", "SPENT = 0  # tokens so far\n\n\ndef tokens_of")},
        [("check-tokens", "✗ each run starts afresh")]),
    "s3-append-after-ask": (EX3, {"guarded-loop": [(
        "        signatures.append(signature_of(response.content))  # valve 3: before this turn runs\n"
        "        period = find_loop(signatures)\n",
        "        period = find_loop(signatures)\n        signatures.append(signature_of(response.content))\n")]},
        [("check-progress", "✗ find_loop is asked once per tool-calling turn")]),
    "s3-output-only": (EX3, {"guarded-loop": [
        ("turns, requests, tokens_used = 0, 1, tokens_of(response.usage)",
         "turns, requests, tokens_used = 0, 1, response.usage.output_tokens"),
        (COUNT, "        tokens_used += response.usage.output_tokens\n")]},
        [("check-budget", "✗ token-hog, max_turns=8, token_budget=40,000")]),
    "s3-progress-text-model": (EX3, {"guarded-loop": [(
        'AgentResult(f"Stopped by the harness: the last turns repeat a cycle of {period} "\n'
        "                               f\"({' -> '.join(signatures[-period:])}); no progress.\",",
        "AgentResult(final_text(response),")]},
        [("check-progress", "✗ it says why it stopped")]),
    "s3-cycle-off-by-one": (EX3, {"cycle": cycle_cell(
        "    for p in range(1, max_period + 1):\n"
        "        if len(signatures) > 2 * p and signatures[-p:] == signatures[-2 * p:-p]:\n"
        "            return p\n    return None\n")},
        [("check-cycle", "✗ it returns the period of a cycle at the end")]),
    # exercise 4
    "s4-why-slower": (EX4, {"why-wrong": "WHY_WRONG = {RAN_BEFORE_ASKED, DISCARD_UNDOES_NOTHING, HISTORY_CONTRADICTS_DISK, SLOWER}\n"},
        [("check-why-wrong", "✗ no statement the run above shows to be untrue of this wiring (1 of yours)")]),
    "s4-why-reads-wait": (EX4, {"why-wrong": "WHY_WRONG = {RAN_BEFORE_ASKED, DISCARD_UNDOES_NOTHING, HISTORY_CONTRADICTS_DISK, "
                                             "READS_WAIT_TOO}\n"},
        [("check-why-wrong", "✗ no statement the run above shows to be untrue of this wiring (1 of yours)")]),
    "s4-why-cell-raises": (EX4, {"why-wrong": [("}\n# Not so", "}\nWHY_WRONG.add(RAN_BEFOR_ASKED)\n# Not so")]},
        [("check-why-wrong", "✗ the cell that defines WHY_WRONG ran to its end")]),
    "s4-approved-memory": (EX4, {"gate": [
        ("    refused = set()\n", "    refused = set()\n    global APPROVED\n"),
        (GATE_HEAD, GATE_HEAD + "APPROVED = set()  # (name, path) pairs the person said yes to\n\n\n"),
        ("                approved = approve is not None and await approve(block.name, block.input) is True\n",
         "                key = (block.name, block.input.get('path'))\n"
         "                approved = key in APPROVED or (approve is not None and await approve(block.name, block.input) is True)\n"
         "                if approved:\n                    APPROVED.add(key)\n")]},
        [("check-gate", "✗ each run starts afresh"), ("check-parallel", "✗ each run starts afresh")]),
    "s4-mutable-default-approved": (EX4, {"gate": [
        ("approve=None, high_impact=HIGH_IMPACT):", "approve=None, high_impact=HIGH_IMPACT, approved_before=set()):"),
        ("                approved = approve is not None and await approve(block.name, block.input) is True\n",
         "                approved = block.name in approved_before or (approve is not None and await approve(block.name, block.input) is True)\n"
         "                if approved:\n                    approved_before.add(block.name)\n")]},
        [("check-gate", "✗ each run starts afresh"), ("check-fail-closed", "✗ each run starts afresh")]),
    "s4-not-awaited": (EX4, {"gate": [("approved = approve is not None and await approve(block.name, block.input) is True",
                                       "approved = approve is not None and approve(block.name, block.input) is True")]},
        [("check-gate", "✗ every call that needs a yes was put to the approver")]),
    "s4-late-binding": (EX4, {"gate": [("""\
    for block in calls:  # 1. the gate: ask about every high-impact call; nothing has run yet
        if block.name in high_impact:
            try:
                approved = approve is not None and await approve(block.name, block.input) is True
            except Exception:  # a broken gate is a closed gate
                approved = False
            if not approved:
                refused.add(block.id)
""", """\
    questions = {block.id: (lambda: approve(block.name, block.input)) for block in calls if block.name in high_impact}
    for block_id, ask in questions.items():  # 1. the gate: every question before anything runs
        try:
            approved = approve is not None and await ask() is True
        except Exception:  # a broken gate is a closed gate
            approved = False
        if not approved:
            refused.add(block_id)
""")]}, [("check-parallel", "✗ each call of the turn is handled with its own id and input")]),
    "s4-raise-in-gate-cell": (EX4, {"gate": [(
        "            results.append(tool_result(block.id, text, is_error))\n    return results",
        "            results.append(tool_result(block.id, text, is_error))\n    return results\n\n\n"
        "print(run_tool_uses.__doc__.splitlines()[3])\n")]},
        [("check-gate", "✗ the cell that defines run_tool_uses ran to its end")]),
    "s4-broken-gate-open": (EX4, {"gate": [("                approved = False\n",
                                            "                approved = True  # the approval service is down: don't block the user\n")]},
        [("check-fail-closed", "✗ an approver that raises an error")]),
    "s4-tools-global": (EX4, {"gate": [("await arun_tool(tool_impls, block.name, block.input, tools)",
                                        "await arun_tool(tool_impls, block.name, block.input, TOOLS)")]},
        [("check-gate", "✗ approved: a call of a tool the caller offers, not in the lesson's TOOLS (send_email), runs")]),
    "s4-rejection-own-words": (EX4, {"gate": [("results.append(tool_result(block.id, REJECTED_MESSAGE, is_error=True))",
                                               'results.append(tool_result(block.id, f"{block.name} was rejected.", '
                                               "is_error=True))")]},
        [("check-gate", "✗ rejected: the model reads it as not approved")]),
    "s4-reads-first": (EX4, {"gate": [
        ("    refused = set()\n", "    refused = set()\n    early = {}\n"
         "    for block in calls:  # the harmless calls first, nobody waits for them\n"
         "        if block.name not in high_impact:\n"
         "            early[block.id] = await arun_tool(tool_impls, block.name, block.input, tools)\n"),
        ("            text, is_error = await arun_tool(tool_impls, block.name, block.input, tools)\n"
         "            results.append(tool_result(block.id, text, is_error))\n",
         "            text, is_error = early[block.id] if block.id in early else "
         "await arun_tool(tool_impls, block.name, block.input, tools)\n"
         "            results.append(tool_result(block.id, text, is_error))\n")]},
        [("check-parallel", "✗ a turn of read_file, write_file and get_time: the question comes before ANY tool")]),
}
CAUSES_36 = {
    "s1-globals-policy": [("check-allow", "✗ the valve follows", "your function reads the notebook's POLICY, not its `policy`")],
    "s1-global-default-only": [("check-default-tier", "✗ the valve follows",
                                "reads the notebook's DEFAULT_TIER, not its `default_tier` argument")],
    "s1-approved-memory": [("check-ask", "✗ each run starts afresh", "a yes from an earlier run was reused"),
                           ("check-parallel", "✗ each run starts afresh", "a yes from an earlier run was reused")],
    "s1-approve-not-awaited": [("check-ask", "✗ every call that needs a yes was put to the approver",
                                "approve(...) without `await` only makes a coroutine, which asks nobody and is never True")],
    "s1-deny-no-result": [("check-deny", "✗ the send_email call got exactly one tool_result",
                           "a call you do not run still needs its tool_result")],
    "s1-raise-in-policy-cell": [("check-policy", "✗ the cell that defines POLICY ran to its end",
                                 "your cell raised RuntimeError: TODO: confirm the tiers with the colleague (line 9)")],
    "s1-raise-before-def": [("check-allow", "✗ run_tool_uses is written and runs",
                             "your cell raised KeyError: 'name' (line 2), so run_tool_uses is not defined")],
    "s1-late-binding": [("check-parallel", "✗ each call of the turn", "a function made in the loop")],
    "s1-lambda-questions": [("check-parallel", "✗ each call of the turn", "(scratch/b.txt, every time)")],
    "s1-deny-vague-text": [("check-deny", "✗ ... saying the tool is forbidden by policy", "the words 'forbidden' or 'policy'")],
    "s1-impls-global": [("check-allow", "✗ the calls ran on the tool_impls", "not its `tool_impls` argument")],
    "s1-tools-global": [("check-allow", "✗ each call is checked against the tools", "(the notebook's TOOLS_WITH_EMAIL")],
    "s1-result-cache": [("check-allow", "✗ each run starts afresh", "a result from an earlier run was reused")],
    "s2-max-turns-constant": [("check-turn-cap", "✗ the loop stops at its max_turns argument",
                               "reads the notebook's MAX_TURNS (8), not its `max_turns` argument")],
    "s2-global-turns": [("check-turn-cap", "✗ each run starts afresh", "gave ('max_turns', 3, 4), then ('max_turns', 3, 1)"),
                        ("check-model-answer", "✗ each run starts afresh", "a count carries over from an earlier run")],
    "s2-raise-leftover": [("check-turn-cap", "✗ the cell that defines run_capped", "your cell raised TypeError: run_capped()")],
    "s2-cap-text-code": [("check-turn-cap", "✗ its text says the harness stopped the run", "name the cap")],
    "s2-cap-text-model": [("check-turn-cap", "✗ its text says the harness stopped the run",
                           "the text is empty (so is the model's own text at the cap")],
    "s2-global-requests": [("check-turn-cap", "✗ each run starts afresh", "then ('max_turns', 3, 9)"),
                           ("check-model-answer", "✗ each run starts afresh", "a count carries over from an earlier run")],
    "s2-diagnosis-swapped-kv": [("check-diagnosis", "✗ each key is a missing guard", "keys and values are swapped")],
    "s2-diagnosis-set": [("check-diagnosis", "✗ DIAGNOSIS is a non-empty dict", "it is a set of 4")],
    "s2-cap-at-bottom": [("check-model-answer", "✗ it returns the model's own answer", "the cap, asked after that request")],
    "s2-stopped-by-words": [("check-turn-cap", "✗ it returns AgentResult", "but stopped_by is 'turn cap'")],
    "s2-default-none": [("check-turn-cap", "✗ max_turns=0", "0 is a cap (not a single turn), not \"no cap given\"")],
    "s2-text-is-content": [("check-model-answer", "✗ it returns the model's own answer", "its text is not the model's answer (a list")],
    "s3-signatures-default": [("check-budget", "✗ each run starts afresh", "the list survives between runs"),
                              ("check-progress", "✗ each run starts afresh", "the list survives between runs")],
    "s3-signatures-global": [("check-budget", "✗ each run starts afresh", "the list survives between runs")],
    "s3-global-tokens": [("check-budget", "✗ each run starts afresh", "something your function keeps outlives a run")],
    "s3-budget-constant": [("check-budget", "✗ the loop stops at the max_turns and token_budget",
                            "not its `token_budget` argument")],
    "s3-cap-constant": [("check-budget", "✗ the loop stops at the max_turns and token_budget", "not its `max_turns` argument")],
    "s3-budget-text-code": [("check-budget", "✗ the budget's stop comes with a text", "name the budget")],
    "s3-zero-period": [("check-cycle", "✗ no cycle, no answer", "0 is not a period")],
    "s3-raise-in-tokens-cell": [("check-tokens", "✗ the cell that defines tokens_of",
                                 "your cell raised NameError: name 'usage' is not defined (line 10)")],
    "s3-tokens-running-total": [("check-tokens", "✗ each run starts afresh", "it keeps a total between calls")],
    "s3-append-after-ask": [("check-progress", "✗ find_loop is asked once per tool-calling turn",
                             "asked before this turn's signature was appended")],
    "s3-output-only": [("check-budget", "✗ token-hog", "tokens_used counts only output_tokens")],
    "s3-progress-text-model": [("check-progress", "✗ it says why it stopped", "that is the model's own text")],
    "s3-cycle-off-by-one": [("check-cycle", "✗ it returns the period", "a block repeated twice is exactly 2 × p signatures")],
    "s4-why-slower": [("check-why-wrong", "✗ no statement the run above shows to be untrue", "speed is not why")],
    "s4-why-reads-wait": [("check-why-wrong", "✗ no statement the run above shows to be untrue",
                           "read_file and get_time ran without waiting for anybody")],
    "s4-why-cell-raises": [("check-why-wrong", "✗ the cell that defines WHY_WRONG",
                            "your cell raised NameError: name 'RAN_BEFOR_ASKED' is not defined (line 7)")],
    "s4-approved-memory": [("check-gate", "✗ each run starts afresh", "a yes from an earlier run was reused"),
                           ("check-parallel", "✗ each run starts afresh", "a yes from an earlier run was reused")],
    "s4-mutable-default-approved": [("check-gate", "✗ each run starts afresh", "a yes from an earlier run was reused"),
                                    ("check-fail-closed", "✗ each run starts afresh", "a yes from an earlier run was reused")],
    "s4-not-awaited": [("check-gate", "✗ every call that needs a yes was put to the approver",
                        "approve(...) without `await` only makes a coroutine, which asks nobody and is never True")],
    "s4-late-binding": [("check-parallel", "✗ each call of the turn", "a function made in the loop")],
    "s4-raise-in-gate-cell": [("check-gate", "✗ the cell that defines run_tool_uses",
                               "your cell raised IndexError: list index out of range (line 24)")],
    "s4-broken-gate-open": [("check-fail-closed", "✗ an approver that raises an error",
                             "caught the approver's error and then ran write_file")],
    "s4-tools-global": [("check-gate", "✗ approved: a call of a tool the caller offers", "pass the tools argument to arun_tool")],
    "s4-rejection-own-words": [("check-gate", "✗ rejected: the model reads it as not approved", "send REJECTED_MESSAGE")],
    "s4-reads-first": [("check-parallel", "✗ a turn of read_file, write_file and get_time", "here a tool ran before every question")],
}

WRONG = ISSUE_CLASSES | BEGINNER | VALVES | STATE

# The first cause, for every wrong answer above: per check cell it names, each ✗ whose hint is not "follows from the
# ✗ above", in order — (check cell id, the ✗ criterion it starts with, what its hint must say). The first of them is
# the check's first ✗, and its hint names the class's cause; every other ✗ of that check says it follows from the ✗
# above (so no hint points at a line that is already right).
CAUSES = {
    # exercise 1
    "1-unknown-tier-runs": [("check-deny", "✗ a tier that is none of the three", "the typo ran the tool: fail closed")],
    "1-tool-error-dropped": [("check-allow", "✗ a tool that fails (read_file of a missing file)",
                              "keep the tool's own failure")],
    "1-one-approval-per-turn": [("check-parallel", "✗ two write_file calls in one turn",
                                 "asked 1 time(s) for 2 calls: ask once per call")],
    "1-no-approver-runs": [("check-ask", "✗ no approver (approve=None)", "approve=None ran the tool")],
    "1-ignores-tools-argument": [("check-allow", "✗ each call is checked against the tools the valve is given",
                                  "other tools than its `tools` argument")],
    "1-every-block-is-a-call": [("check-allow", "✗ read_file and get_time (allow) each ran once",
                                 "treated the text block the model sends before its calls as a call"),
                                ("check-deny", "✗ send_email (deny) never ran",
                                 "treated the text block the model sends before its calls as a call")],
    "1-only-content-0": [("check-allow", "✗ read_file and get_time (allow) each ran once",
                          "look at every block of content, not only the first"),
                         ("check-parallel", "✗ exactly one tool_result per tool_use",
                          "look at every block of content, not only the first")],
    "1-approval-per-block": [("check-parallel", "✗ every approval of the turn was asked before any tool",
                              "first decide every call of the turn")],
    "1-deny-says-declined-first": [("check-deny", "✗ ... saying the tool is forbidden by policy",
                                    "it reads as not approved")],
    "1-no-approve-none-branch": [("check-ask", "✗ no approver (approve=None): write_file does not run",
                                  "check `approve is None` before calling it")],
    "b1-no-else-branch": [("check-deny", "✗ a tier that is none of the three", "the typo got no tool_result at all")],
    "b1-uses-globals": [("check-allow", "✗ the valve follows the policy and default_tier it is given",
                         "your function reads the notebook's POLICY, not its `policy` argument"),
                        ("check-default-tier", "✗ the valve follows the policy and default_tier it is given",
                         "your function reads the notebook's DEFAULT_TIER, not its `default_tier` argument")],
    "b1-policy-index": [("check-default-tier", "✗ default_tier='allow'",
                         "raised KeyError: 'delete_file': look its tier up with policy.get")],
    "b1-deny-without-is-error": [("check-deny", "✗ ... with is_error: true", "tool_result(..., is_error=True)")],
    "b1-returns-a-message": [("check-parallel", "✗ for a turn of 4 tool calls, run_tool_uses returned a list",
                              "return a list of tool_result blocks")],
    "b1-gather-everything": [("check-parallel", "✗ every approval of the turn was asked before any tool",
                              "first decide every call of the turn")],
    "b1-forgot-await-approve": [("check-ask", "✗ every call that needs a yes was put to the approver",
                                 "approve(...) without `await` only makes a coroutine — truthy")],
    "b1-sync-run-tool": [("check-allow", "✗ read_file and get_time (allow) each ran once",
                          "await arun_tool(tool_impls, block.name, block.input, tools)")],
    "b1-deny-also-runs": [("check-deny", "✗ send_email (deny) never ran", "a deny never reaches arun_tool")],
    "b1-rejection-without-is-error": [("check-ask", "✗ rejected: the call still got exactly one tool_result",
                                       "mark its result is_error=True")],
    "b1-capitalised-tiers": [("check-policy", "✗ POLICY is a dict", "plain lowercase strings")],
    "b1-default-allow": [("check-policy", "✗ DEFAULT_TIER fails closed", "with 'allow', any tool added later")],
    "b1-approve-name-only": [("check-ask", "✗ write_file (ask) was put to the approver once",
                              "call the approver with the call's name and input")],
    "b1-refusals-first": [("check-parallel", "✗ exactly one tool_result per tool_use, in the tool_use order",
                           "in the order of the blocks")],
    # exercise 2
    "2-loops-until-end-turn": [("check-model-answer", "✗ a reply that is neither tool_use nor end_turn",
                                "loop only `while response.stop_reason == \"tool_use\"`")],
    "2-counts-tool-calls": [("check-turn-cap", "✗ a turn of 2 parallel calls counts as ONE turn",
                             "not tool calls: add 1 per response")],
    "2-offers-global-tools": [("check-turn-cap", "✗ every request offered exactly the tools the caller passed",
                               "pass the tools argument to messages.create")],
    "2-empty-cap-text": [("check-turn-cap", "✗ its text says the harness stopped the run", "the text is empty")],
    "2-own-tool-step-content-0": [("check-model-answer", "✗ the demo task with max_turns=2",
                                   "treated the text block the model sends before its calls as a call")],
    "2-diagnosis-empty": [("check-diagnosis", "✗ DIAGNOSIS is a non-empty dict", "fill in DIAGNOSIS")],
    "2-count-before-cap": [("check-turn-cap", "✗ exactly 3 tool turns ran (ran: 2)",
                            "is `turns` counted before the check?")],
    "b2-while-cap-in-condition": [("check-turn-cap", "✗ it returns AgentResult with stopped_by='max_turns'",
                                   "ended by its while condition (stopped_by='tool_use'), not by the cap")],
    "b2-forgot-increment": [("check-turn-cap", "✗ a model that never ends its turn is stopped",
                             "`turns` never reaches the cap — add `turns += 1`")],
    "b2-requests-not-counted": [("check-turn-cap", "✗ it returns AgentResult with stopped_by='max_turns'",
                                 "it reports requests=1, but the API received 4")],
    "b2-append-then-cap": [("check-turn-cap", "✗ the history it returns can be continued",
                            "return before appending the response whose calls you will not run")],
    "b2-greater-than": [("check-turn-cap", "✗ exactly 3 tool turns ran (ran: 4)", "ask `turns >= max_turns`")],
    "b2-default-not-max-turns": [("check-turn-cap", "✗ run_capped's default cap is MAX_TURNS",
                                  "keep `max_turns=MAX_TURNS` as the default")],
    "b2-max-turns-string": [("check-turn-cap", "✗ MAX_TURNS is a whole number from 1 to 30", "set MAX_TURNS to your cap")],
    "b2-for-range": [("check-model-answer", "✗ it returns the model's own answer",
                      "end by its while condition and return final_text(response)")],
    "b2-raises-at-cap": [("check-turn-cap", "✗ a model that never ends its turn is stopped (never-ends, max_turns=3) "
                          "— RuntimeError", "it must end with an AgentResult")],
    "b2-diagnosis-with-retries": [("check-diagnosis", "✗ no key is a guard whose absence does not make",
                                   "what does the SDK already do by itself?")],
    "b2-diagnosis-swapped": [("check-diagnosis", "✗ each of those guards is mapped to the runaway",
                              "Pick the runaway constant that describes exactly that")],
    "b2-diagnosis-two-only": [("check-diagnosis", "✗ names every missing guard", "read the while line")],
    "b2-diagnosis-free-text": [("check-diagnosis", "✗ DIAGNOSIS is a non-empty dict", "use the constants' names")],
    "b2-diagnosis-dangling": [("check-diagnosis", "✗ no value is a failure this loop does not have",
                               "look at what it sends back after every tool_use")],
    # exercise 3
    "3-tokens-input-output": [("check-tokens", "✗ the first request of a cached run counts its cache writes",
                               "input + output alone is 44")],
    "3-tokens-none-crash": [("check-tokens", "✗ a usage whose cache counters are missing (None)",
                             "a counter can be None")],
    "3-tokens-no-reads": [("check-tokens", "✗ a later request counts its cache reads", "cache reads are billed too")],
    "3-tokens-sums-everything": [("check-tokens", "✗ a usage shaped like a live one",
                                  "usage.cache_creation is a breakdown")],
    "3-tokens-syntax-error": [("check-tokens", "✗ tokens_of is written and runs",
                               "your cell raised SyntaxError: invalid syntax (line 3), so tokens_of is not defined"),
                              ("check-budget", "✗ token-hog, max_turns=8", "so tokens_of is not defined")],  # it uses it
    "3-sig-unsorted": [("check-signature", "✗ the same calls in another order", "sort the calls")],
    "3-sig-with-ids": [("check-signature", "✗ the same call in two turns", "leave the block ids out")],
    "3-sig-str-of-input": [("check-signature", "✗ the same input with its keys in another order",
                            "JSON with sorted keys")],
    "3-sig-text-too": [("check-signature", "✗ the text before the calls", "only the tool_use blocks count")],
    "3-sig-names-only": [("check-signature", "✗ a different argument gives a different signature",
                          "include each call's input"),
                         ("check-progress", "✗ never-ends (a new file every turn)", "must include each call's input")],
    "3-budget-at-bottom": [("check-budget", "✗ token_budget=1", "a check at the bottom, after the next request")],
    "3-budget-before-cap": [("check-budget", "✗ max_turns=0 and token_budget=1 both say stop",
                             "turn cap, then token budget")],
    "3-budget-greater-than": [("check-budget", "✗ a budget reached exactly", "`if tokens_used >= token_budget:`")],
    "3-budget-last-response-only": [("check-budget", "✗ token-hog, max_turns=8, token_budget=40,000",
                                     "tokens_used holds only the last response's tokens")],
    "3-budget-first-not-counted": [("check-budget", "✗ tokens_used is the sum over every request",
                                    "tokens_used leaves out the first response"),
                                   ("check-progress", "✗ stuck with token_budget=",  # not the valves' order
                                    "the count is off, not the order of the valves — tokens_used leaves out")],
    "3-budget-input-plus-output": [("check-budget", "✗ with prompt caching on, the budget counts the cached tokens",
                                    "not input_tokens + output_tokens")],
    "3-budget-after-append": [("check-budget", "✗ token-hog, max_turns=8, token_budget=40,000",
                               "after the turn was counted (turns=8, though 7 turns ran)")],
    "3-budget-model-text": [("check-budget", "✗ the budget's stop comes with a text that says the harness stopped",
                             "the model's last text is not an answer")],
    "3-progress-after-tools": [("check-progress", "✗ stuck: stopped_by='no_progress' after 1 turn",
                                "the repeated call ran before the check caught it")],
    "3-progress-own-comparison": [("check-progress", "✗ find_loop is asked once per tool-calling turn",
                                   "find_loop was never called")],
    "3-progress-before-cap": [("check-progress", "✗ stuck with max_turns=1",
                               "turn cap, token budget, then no progress")],
    "3-progress-count-first": [("check-progress", "✗ stuck: stopped_by='no_progress' after 1 turn",
                                "ask find_loop before `turns += 1`")],
    "3-cycle-seen-anywhere": [("check-cycle", "✗ it returns the period of a cycle at the end",
                               "it finds a repeat anywhere in the list")],
    "3-cycle-unbounded": [("check-cycle", "✗ it looks back at most 2 × max_period signatures",
                           "it tries periods beyond max_period")],
    "3-cycle-returns-true": [("check-cycle", "✗ it returns the period of a cycle at the end",
                              "return the period p itself (an int), not True")],
    "3-cycle-empty-slices": [("check-cycle", "✗ no cycle, no answer", "the empty list gave 1")],
    "3-cycle-two-fixed-periods": [("check-cycle", "✗ it returns the period of a cycle at the end",
                                   "use the max_period argument")],
    "3-cycle-repeats-in-window": [("check-cycle", "✗ the shortest period wins", "it finds a repeat anywhere")],
    "3-cycle-longest-first": [("check-cycle", "✗ the shortest period wins", "it tried the longest period first")],
    # exercise 4
    "4-why-the-argument": [("check-why-wrong", "✗ does not agree with the colleague's argument",
                            "the colleague's own argument"),
                           ("check-why-wrong", "✗ names every reason the run above shows (0 of 3 named)",
                            "go through the run again")],
    "4-why-plus-dangling": [("check-why-wrong", "✗ no statement the run above shows to be untrue",
                             "one of your statements is not what happened")],
    "4-why-one-and-untold": [("check-why-wrong", "✗ no statement the run above shows to be untrue",
                              "one of your statements is not what happened"),
                             ("check-why-wrong", "✗ names every reason the run above shows (1 of 3 named)",
                              "go through the run again")],
    "4-why-own-words": [("check-why-wrong", "✗ WHY_WRONG is a non-empty set", "use the constants' names"),
                        ("check-why-wrong", "✗ names every reason the run above shows (0 of 3 named)",
                         "go through the run again")],
    "4-why-a-dict": [("check-why-wrong", "✗ WHY_WRONG is a non-empty set", "must be a set (or list)")],
    "4-ask-then-run-per-call": [("check-parallel", "✗ both questions were asked before any tool of the turn ran",
                                 "decide every call of the turn first")],
    "4-truthy-yes": [("check-fail-closed", "✗ an approver that answers the string 'yes'",
                      "`if await approve(...):` lets any truthy value through")],
    "4-no-approver-allows": [("check-fail-closed", "✗ no approver (approve=None)", "`if approve is None:`")],
    "4-no-try": [("check-fail-closed", "✗ an approver that raises an error",
                  "catch the Exception and answer the call like a rejection")],
    "4-rejection-unanswered": [("check-gate", "✗ rejected: the call got exactly one tool_result",
                                "answer a rejected call too")],
    "4-rejection-without-is-error": [("check-gate", "✗ rejected: the call got exactly one tool_result",
                                      "mark its result is_error=True")],
    "4-one-answer-for-the-turn": [("check-parallel", "✗ each write was put to the approver once",
                                   "one answer does not cover the turn")],
    "4-stop-asking-after-a-no": [("check-parallel", "✗ the other way round (no to a, yes to b)",
                                  "after a no, go on asking")],
    "4-global-high-impact": [("check-gate", "✗ the gate follows the high_impact set it is given",
                              "use the high_impact argument")],
    "4-asks-about-every-call": [("check-gate", "✗ read_file and get_time ran without anybody being asked",
                                 "only calls whose name is in high_impact")],
    "4-tool-error-dropped": [("check-gate", "✗ approved, but the tool itself fails", "pass on the tool's own verdict")],
    "4-every-block-a-call": [("check-gate", "✗ write_file was put to the approver once",
                              "treated the text block the model sends before its calls as a call")],
    "4-approve-name-only": [("check-gate", "✗ every call that needs a yes was put to the approver",
                             "the approver was called with ('write_file',) and raised TypeError")],
    "4-rejection-says-policy": [("check-gate", "✗ rejected: the model reads it as not approved",
                                 "send REJECTED_MESSAGE")],
    "4-run-then-overwrite": [("check-gate", "✗ rejected: write_file never ran", "ask BEFORE the tool runs")],
    "4-refused-after-run": [("check-parallel", "✗ the other way round too, one tool_result per call in the order",
                             "not rejections after the runs")],
}
CAUSES |= CAUSES_36
FOLLOWS = "follows from the ✗ above: fix that first"
assert set(CAUSES) == {name for case in WRONG for name in case.split(" + ")}, "every wrong answer names its cause"


def cell(nb, cell_id):
    return next(c for c in nb["cells"] if c.get("id") == cell_id)


def source(c):
    return "".join(c["source"]) if isinstance(c["source"], list) else c["source"]


def solution(name):
    return json.loads((EXERCISES / "solutions" / name).read_text(encoding="utf-8"))


def edited(case, name, changes):
    nb = solution(name)
    for c in nb["cells"]:  # the ✏️ cells' raises-exception (JupyterLab's Run All goes on past a learner's error)
        tags = c["metadata"].get("tags", [])  # changes nothing here: this runner goes on past every error anyway
        if "exercise" in tags and "raises-exception" in tags:
            c["metadata"]["tags"] = [t for t in tags if t != "raises-exception"]
    for cell_id, edits in changes.items():
        c = cell(nb, cell_id)
        assert "exercise" in c["metadata"].get("tags", []), f"{case}: {cell_id} is not a ✏️ exercise cell"
        if isinstance(edits, str):
            c["source"] = edits
            continue
        text = source(c)
        for old, new in edits:
            assert text.count(old) == 1, f"{case}: the solution changed, this edit no longer applies: {old!r}"
            text = text.replace(old, new)
        c["source"] = text
    return nb


def refused(case):
    name, how, _ = REFUSED[case]
    nb = solution(name) if not how.endswith("-es") else load_es(f"solutions/{name}")
    if how in ("edit", "edit-es"):
        c = cell(nb, "check-deny")
        c["source"] = source(c) + "\n# all good!"
    elif how == "delete":
        nb["cells"].remove(cell(nb, "check-turn-cap"))
    elif how == "untag":
        cell(nb, "check-model-answer")["metadata"]["tags"] = ["raises-exception"]
    elif how == "key-metadata":
        cell(nb, "policy")["metadata"]["note"] = FAKE_KEY
    elif how == "key-source":
        c = cell(nb, "policy")
        c["source"] = f'import os\nos.environ["ANTHROPIC_API_KEY"] = "{FAKE_KEY}"\n' + source(c)
    else:
        cell(nb, "it-works")["outputs"].append({"output_type": "stream", "name": "stdout", "text": [FAKE_KEY + "\n"]})
    return nb


def grade_sections(stdout):
    """{notebook path: its block of the "exercise grade" at the end of the output}."""
    text = stdout.split(" exercise grade ", 1)[-1]
    sections, current = {}, None
    for line in text.splitlines():
        header = re.match(r"^(\S.*?\.ipynb): ", line)
        if header:
            current = header.group(1)
            sections[current] = [line]
        elif current and line.startswith(" "):
            sections[current].append(line)
    return {path: "\n".join(lines) for path, lines in sections.items()}


def grading_env(**settings):
    """This process's environment for a grading run (no test-session pytest options, no scenario), plus `settings`."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "HARNESS_SCENARIO", "HARNESS_GRADING")}
    return env | settings


def grade(cwd, notebooks, env):
    """(returncode, stdout, {notebook: grade section}) of `pytest --nbval-lax <notebooks>` run in `cwd`."""
    proc = subprocess.run([*GRADE, *notebooks], cwd=cwd, env=env, text=True, timeout=900,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return proc.returncode, proc.stdout, grade_sections(proc.stdout)


# The lessons' demonstrations in the exercise notebooks: they print a run for the learner to read and define nothing
# a check uses (inspector-kit's names serve the "try it" cells, which a wrong answer's copy cuts off or drops).
DEMOS = {"it-works", "runaway", "see-cache", "inspector-kit", "try-guarded", "see-it"}


def checks_read(case, nb):
    """A wrong answer's copy `nb` cut after the last check cell its expectations read (WRONG[case][2], and the checks
    CAUSES names), without the other check cells (no test reads them) and without the DEMOS: what each cell it keeps
    prints, and its error, were the same, byte for byte, as in the copy run whole up to that check (compared for all
    129 wrong answers when this cut was made, those whose state outlives a run too)."""
    read = {check_id for check_id, _ in WRONG[case][2]} | {check for name in case.split(" + ")
                                                             for check, _, _ in CAUSES[name]}
    nb = up_to(nb, read)
    return nb | {"cells": [c for c in nb["cells"] if c.get("id") not in DEMOS and (
        "check" not in c["metadata"].get("tags", []) or c.get("id") in read)]}


def up_to(nb, check_ids):
    """`nb` cut after the last of its cells whose id is in `check_ids`."""
    last = max((i for i, c in enumerate(nb["cells"]) if c.get("id") in check_ids), default=len(nb["cells"]) - 1)
    return nb | {"cells": nb["cells"][:last + 1]}  # (an id not found: the whole copy runs, the test names the id)


# Issue 51: a learner's code busy in a Python loop of its own (`while True: pass`, no await) cannot hang a practice
# cell of exercises 1-4: each run stops at its time limit with a line naming it. Only the given cells up to the
# practice cells run, with the time limit cut to BUSY_SECONDS: {case: (notebook, the ✏️ cell made busy,
# the practice cells, the line each of their runs prints)}. Exercise 2 keeps one check too: the checks' runs are
# bounded the same way, and its hint says what stopped the run (BUSY_CHECK).
BUSY_SECONDS = 0.2
BUSY_BODY = "\n    while True:\n        pass\n"
BUSY = {
    "busy-1": (EX1, {"run-tool-uses": "async def run_tool_uses(content, tool_impls, *, tools, approve, policy, "
                                      "default_tier):" + BUSY_BODY}, ("try-demo", "try-parallel"),
               f"[practice] stopped: still running after {BUSY_SECONDS:g} s (the practice run's time limit)"),
    "busy-2": (EX2, {"capped-loop": "async def run_capped(client, user_input, tools, tool_impls, *, max_turns=8):"
                                    + BUSY_BODY}, ("try-capped",), f"runaway: still running after {BUSY_SECONDS:g} s"),
    "busy-3": (EX3, {"guarded-loop": "async def run_guarded(client, user_input, tools, tool_impls, *, max_turns=8, "
                                     "token_budget=40_000, find_loop=None):" + BUSY_BODY},
               ("try-guarded", "try-cycle"), f"runaway: still running after {BUSY_SECONDS:g} s"),
    "busy-4": (EX4, {"gate": "async def run_tool_uses(content, tool_impls, *, tools, approve=None, high_impact=None):"
                             + BUSY_BODY}, ("try-gate",), f"runaway: still running after {BUSY_SECONDS:g} s"),
}


BUSY_CHECK = {"busy-2": ("check-turn-cap", "a loop in your own code that never ends?")}


def busy(case):
    """The case's notebook: its solution with the ✏️ cell busy, the time limit cut short, no check but BUSY_CHECK's."""
    name, changes, tries, _ = BUSY[case]
    nb = edited(case, name, changes)
    kept = BUSY_CHECK.get(case, ("",))[0]
    cells = [c for c in nb["cells"] if "check" not in c["metadata"].get("tags", []) or c.get("id") == kept]
    cells = cells[:max(i for i, c in enumerate(cells) if c.get("id") in tries) + 1]
    for c in cells:  # exercise 1 gives its own limit (room for a person's click); 2-4 use the kit's (SECONDS)
        c["source"] = re.sub(r"PRACTICE_SECONDS = \d+", f"PRACTICE_SECONDS = {BUSY_SECONDS}", source(c))
    shorten = nbformat_cell(f"import harness_ui.practice\nharness_ui.practice.SECONDS = {BUSY_SECONDS}")
    return nb | {"cells": [shorten, *cells]}


def nbformat_cell(code):
    return {"cell_type": "code", "id": "busy-seconds", "metadata": {}, "source": code, "outputs": [],
            "execution_count": None}


def run_cases(cases):
    """{case: [kernel_cells.Cell] of its edited solution, or one line saying what went wrong with the kernel}.

    One kernel, cwd exercises/solutions/ as nbval's would be, the environment of a grading run; the cases in a
    stable order (by notebook, then name) though each starts from a fresh kernel state (see kernel_cells).
    A wrong answer's copy runs only the cells that can change what the checks its expectations read say
    (checks_read). A right answer's copy runs to the end (every cell must pass)."""
    env = grading_env(HARNESS_GRADING="1", HARNESS_OFFLINE="1", HARNESS_AUTO_APPROVE="notebook",
                      PYTHON_DOTENV_DISABLED="1")
    env.pop("ANTHROPIC_API_KEY", None)
    results = {}
    with NotebookKernel(EXERCISES / "solutions", env, timeout=120) as kernel:
        for case in sorted(cases, key=lambda c: (cases[c][0], c)):
            name, changes = cases[case][:2]
            try:
                nb = busy(case) if case in BUSY else edited(case, name, changes)
                if case in WRONG:
                    nb = checks_read(case, nb)
                results[case] = kernel.run(nb)
            except KernelTrouble as err:
                results[case] = f"{case}: {err}"
    return results


def halved(cases):
    """The cases in two halves for two kernels, every other case of run_cases' order in each (so each half holds
    as many of each notebook's cases, and the two kernels take about as long)."""
    order = sorted(cases, key=lambda c: (cases[c][0], c))
    return [{c: cases[c] for c in order[i::2]} for i in (0, 1)]


# The Spanish edition's notebooks the root run grades (beside the English ones: one pytest process, not two).
ES_GRADED = [f"exercises/es/solutions/{EX1}", f"exercises/es/solutions/{EX2}",
             f"exercises/es/{EX1}", f"exercises/es/{EX2}"]


@pytest.fixture(scope="module")
def runs():
    """{group: (returncode, stdout, {notebook: grade section})} of the end-to-end runs, "cases": run_cases(WRONG |
    CORRECT | BUSY) in two kernels of half the cases each, "paths": {refused case: its copy}. The two kernels and the
    pytest runs share two threads, the longest first: two of them run at once, at most (the machine has 2 cores)."""
    tmp = EXERCISES / f"_grading_tmp_{uuid.uuid4().hex[:8]}"
    elsewhere = Path(tempfile.mkdtemp(prefix="grading-cwd-"))
    env = grading_env()
    try:
        paths = {}
        for case in REFUSED:
            path = tmp / case / REFUSED[case][0]
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps(refused(case), indent=1, ensure_ascii=False), encoding="utf-8")
            paths[case] = path.relative_to(ROOT).as_posix()
        groups = {
            "root": (ROOT, [*sorted(paths.values()), *(f"exercises/solutions/{n}" for n in (EX1, EX2, EX3, EX4)),
                            *(f"exercises/{n}" for n in (EX1, EX2, EX3, EX4)), *ES_GRADED]),
            "from-exercises": (EXERCISES, [f"solutions/{EX1}"]),
            "from-elsewhere": (elsewhere, [str(EXERCISES / EX2)]),
            "from-es": (EXERCISES / "es", [EX1]),
        }
        halves = halved({c: v[:2] for c, v in (WRONG | CORRECT | BUSY).items()})
        jobs = {"cases-1": (run_cases, halves[0]), "root": (grade, *groups.pop("root"), env),  # the longest first
                "cases-2": (run_cases, halves[1])} | {g: (grade, cwd, nbs, env) for g, (cwd, nbs) in groups.items()}
        with ThreadPoolExecutor(max_workers=2) as pool:
            pending = {g: pool.submit(*job) for g, job in jobs.items()}
            results = {g: future.result() for g, future in pending.items()}
        results["cases"] = results.pop("cases-1") | results.pop("cases-2")
        results["paths"] = paths
        yield results
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(elsewhere, ignore_errors=True)


def cells_of(runs, case):
    """The case's cells by id; a failure naming the case when its kernel died or a cell hung."""
    cells = runs["cases"][case]
    assert not isinstance(cells, str), cells
    return {c.id: c for c in cells}


def printed_failures(c):
    """The ✗ lines a check cell printed (stripped)."""
    return [line.strip() for line in c.stdout.splitlines() if line.strip().startswith("✗ ")]


def crosses(c):
    """[(✗ criterion line, its hint)] a check cell printed, in order (stripped)."""
    lines = [line.strip() for line in c.stdout.splitlines()]
    return [(line, lines[i + 1][len("hint: "):] if i + 1 < len(lines) and lines[i + 1].startswith("hint: ") else "")
            for i, line in enumerate(lines) if line.startswith("✗ ")]


def overview(cells):
    """One line per cell: its id and whether it raised, with the ✗ lines it printed (for failure messages)."""
    return "\n".join(f"  {c.id}: " + (f"raised {c.error[0]}" if c.raised else "ok")
                     + "".join(f"\n      {line}" for line in printed_failures(c)) for c in cells.values())


@pytest.mark.parametrize("case", sorted(BUSY))
def test_a_busy_loop_in_the_learners_code_is_stopped_by_the_practice_time_limit(runs, case):
    _, _, tries, line = BUSY[case]
    cells = cells_of(runs, case)
    for cell_id in tries:
        c = cells[cell_id]
        assert not c.raised and line in c.stdout, f"{case} {cell_id}: {c.error} {c.stdout[-800:]}"
    if case in BUSY_CHECK:
        check_id, hint = BUSY_CHECK[case]
        assert hint in cells[check_id].stdout, cells[check_id].stdout[-1500:]


def test_solutions_pass(runs):
    code, out, sections = runs["root"]
    assert f"exercises/solutions/{EX1}: PASS — 6 of 6 checks pass" in out, out[-6000:]
    assert f"exercises/solutions/{EX2}: PASS — 3 of 3 checks pass" in out, out[-6000:]


def test_starters_fail_by_their_checks(runs):
    code, out, sections = runs["root"]
    assert code == 1, out[-4000:]  # 1: tests failed (2-4 would be an interrupted run or a usage/internal error)
    assert f"exercises/{EX1}: FAIL — 0 of 6 checks pass" in out and f"exercises/{EX2}: FAIL — 0 of 3 checks pass" in out
    for path in (f"exercises/{EX1}", f"exercises/{EX2}"):
        section = sections[path]
        assert "raised" not in section, section  # each check ran to its verdict: ✗ criteria, no crash
        assert section.count("      ✗ ") >= 3 and "          hint: " in section, section
    # a check of a function that still raises NotImplementedError says so once, instead of ✗ on every criterion
    assert "      ✗ run_tool_uses is written and runs\n          hint: write run_tool_uses" in sections[f"exercises/{EX1}"]
    assert "      ✗ run_capped is written and runs\n          hint: write run_capped" in sections[f"exercises/{EX2}"]


def test_exercises_3_and_4_solutions_pass_and_starters_fail_by_their_checks(runs):
    code, out, sections = runs["root"]
    assert f"exercises/solutions/{EX3}: PASS — 5 of 5 checks pass" in out, out[-6000:]
    assert f"exercises/solutions/{EX4}: PASS — 4 of 4 checks pass" in out, out[-6000:]
    assert f"exercises/{EX3}: FAIL — 0 of 5 checks pass" in out and f"exercises/{EX4}: FAIL — 0 of 4 checks pass" in out
    for path in (f"exercises/{EX3}", f"exercises/{EX4}"):
        section = sections[path]
        assert "raised" not in section, section  # each check ran to its verdict: ✗ criteria, no crash
        assert section.count("      ✗ ") >= 4 and "          hint: " in section, section
    assert "      ✗ tokens_of is written and runs\n          hint: write tokens_of" in sections[f"exercises/{EX3}"]
    # the colleague's wiring, as the starter holds it, fails where the lesson says it does
    assert "      ✗ rejected: write_file never ran, and scratch/answer.txt is not on disk" in sections[f"exercises/{EX4}"]


def test_the_grade_shows_what_the_learners_code_chose_by_the_kits_one_rule(monkeypatch, tmp_path):
    """A criterion's value or a hint's error message (which the learner's code chose) reaches the terminal in the
    grade at the end written out, never obeyed, as the notebook shows it (harness_kit.shown's rule)."""
    from types import SimpleNamespace

    from exercises import plugin

    node = "01_tiered_policy.ipynb::check-deny"
    monkeypatch.setattr(plugin, "_cells", {node: (tmp_path / EX1, "check-deny", "check")})
    monkeypatch.setattr(plugin, "_seen", {node: ("failed", "", [("deny\x1b[2J", "raised \x1b[31mPASS\u202e", [])])})
    monkeypatch.setattr(plugin, "_refused", {})
    lines = plugin.grade_lines(SimpleNamespace(rootpath=tmp_path))
    assert "      ✗ deny\\u001b[2J" in lines and "          hint: raised \\u001b[31mPASS\\u202e" in lines, lines


def test_a_failing_grade_is_short_and_names_cells_by_id(runs):
    code, out, sections = runs["root"]
    assert "Cell " not in out, "cells are named by their id, not nbval's number"
    assert "Traceback" not in out and "\x1b[" not in out
    assert f"exercises/{EX1}::check-deny" in out
    assert out.rstrip().splitlines()[-1].startswith("      ")  # the grade is the last thing printed
    # all 12 notebooks (8 English, 4 Spanish) graded and every refused copy in under 400 lines (about 360 today; a
    # grade that printed each failing cell's traceback or output would run to thousands)
    assert len(sections) == 8 + len(ES_GRADED) + len(REFUSED) and len(out.splitlines()) < 400, len(out.splitlines())


@pytest.mark.parametrize("case", WRONG)
def test_wrong_answer_fails_on_a_criterion(runs, case):
    _, _, expected = WRONG[case]
    cells = cells_of(runs, case)
    for check_id, criterion in expected:
        c = cells[check_id]
        assert c.raised, f"{case}: {check_id} did not fail\n{overview(cells)}"
        assert c.error[0] == "AssertionError", f"{case}: {check_id} crashed ({c.error}) instead of failing a criterion"
        assert any(line.startswith(criterion) for line in printed_failures(c)), \
            f"{case}: {check_id} failed, but not with {criterion!r}\n{overview(cells)}"
    # the first ✗ of each check names the class's cause; every other ✗ of it either names its own cause (listed in
    # CAUSES) or says it follows from the ✗ above — no hint points at a line that is already right
    causes = [entry for name in case.split(" + ") for entry in CAUSES[name]]
    for check_id in dict.fromkeys(check for check, _, _ in causes):
        want = [(criterion, hint) for check, criterion, hint in causes if check == check_id]
        got = [(line, hint) for line, hint in crosses(cells[check_id]) if hint != FOLLOWS]
        assert got and all(hint for _, hint in got), f"{case}: {check_id}\n{cells[check_id].stdout}"
        assert len(got) == len(want) and all(line.startswith(criterion) and hint in said
                                             for (line, said), (criterion, hint) in zip(got, want)), \
            f"{case}: {check_id}: its ✗ and hints are not {want}\n{cells[check_id].stdout}"


@pytest.mark.parametrize("case", CORRECT)
def test_right_answer_in_other_words_passes(runs, case):
    cells = cells_of(runs, case)
    checks = [c["id"] for c in solution(CORRECT[case][0])["cells"] if "check" in c["metadata"].get("tags", [])]
    assert checks and all(cell_id in cells for cell_id in checks), (checks, list(cells))
    assert not any(c.raised for c in cells.values()), f"{case}: not every cell passes\n{overview(cells)}"


@pytest.mark.parametrize("case", REFUSED)
def test_refused_notebook_is_not_graded(runs, case):
    _, how, message = REFUSED[case]
    path = runs["paths"][case]
    code, out, sections = runs["root"]
    assert f"{path}: NOT GRADED — " in sections.get(path, ""), out[-6000:]
    assert message in out
    if how.startswith("key"):
        assert "GRADE REFUSED" in out and FAKE_KEY not in out  # says where, never repeats it
    else:
        assert "GRADE NOT VALID" in out and "git checkout -- " in out
        for block in out.split("GRADE NOT VALID")[1:]:  # it names the learner's files, not the teacher's
            text = re.split(r"\n\n|\n_{3,} |\n={3,} ", block, maxsplit=1)[0]  # up to the next report's header
            assert "git checkout -- " in text and "solutions/" not in text, text


def test_grading_gives_the_same_result_from_any_folder(runs):
    for group, path, verdict in [("from-exercises", f"exercises/solutions/{EX1}", "PASS — 6 of 6"),
                                 ("from-elsewhere", f"exercises/{EX2}", "FAIL — 0 of 3")]:
        code, out, sections = runs[group]
        assert "FileNotFoundError" not in out, out[-3000:]
        assert sections.get(path, "").startswith(f"{path}: {verdict} checks pass"), (group, out[-3000:])
        root_section = runs["root"][2].get(path)
        assert sections[path] == root_section, f"{group}: the summary differs from the root's"


# ---- the Spanish edition (exercises/es/): the same check cells and lock, the grade in the same shape ---------

def load_es(name):
    return json.loads((EXERCISES / "es" / name).read_text(encoding="utf-8"))


def shape(section):
    """A notebook's grade section without its words: the verdict line without its path, each check's line, and
    for every ✗ criterion and its hint only the marker."""
    lines = section.splitlines()
    return [re.sub(r"^\S*\.ipynb: ", "", lines[0])] + [re.sub(r"^( {6,}(?:✗|hint:)) .*$", r"\1", line)
                                                         for line in lines[1:]]


@pytest.mark.parametrize("name", [EX1, EX2, f"solutions/{EX1}", f"solutions/{EX2}"])
def test_the_spanish_twin_has_the_english_grader_cells(name):
    english, spanish = json.loads((EXERCISES / name).read_text(encoding="utf-8")), load_es(name)
    assert [(c.get("id"), c["cell_type"], c.get("metadata", {}).get("tags", [])) for c in spanish["cells"]] == \
        [(c.get("id"), c["cell_type"], c.get("metadata", {}).get("tags", [])) for c in english["cells"]]
    for en, es in zip(english["cells"], spanish["cells"]):
        if {"check", "locked"} & set(en.get("metadata", {}).get("tags", [])):
            assert source(es) == source(en), f"{name}: the grader cell {en.get('id')} differs from the English one"


def test_spanish_solutions_pass_and_starters_fail_by_their_checks(runs):
    code, out, sections = runs["root"]  # graded beside the English ones
    assert code == 1, out[-4000:]
    assert f"exercises/es/solutions/{EX1}: PASS — 6 of 6 checks pass" in out, out[-6000:]
    assert f"exercises/es/solutions/{EX2}: PASS — 3 of 3 checks pass" in out, out[-6000:]
    assert f"exercises/es/{EX1}: FAIL — 0 of 6 checks pass" in out, out[-6000:]
    assert f"exercises/es/{EX2}: FAIL — 0 of 3 checks pass" in out, out[-6000:]
    for name in (EX1, EX2):
        assert "raised" not in sections[f"exercises/es/{name}"], sections[f"exercises/es/{name}"]
    # the criteria and hints are in Spanish: the notebook's setup cell chose the language (lang.use("es"))
    assert ("      ✗ run_tool_uses está escrita y se ejecuta\n          hint: escribe run_tool_uses"
            in sections[f"exercises/es/{EX1}"])
    assert ("      ✗ run_capped está escrita y se ejecuta\n          hint: escribe run_capped"
            in sections[f"exercises/es/{EX2}"])


def test_the_spanish_grade_has_the_english_shape(runs):
    for name in (f"solutions/{EX1}", f"solutions/{EX2}", EX1, EX2):
        english, spanish = runs["root"][2][f"exercises/{name}"], runs["root"][2][f"exercises/es/{name}"]
        assert shape(spanish) == shape(english), f"{name}\n{english}\n---\n{spanish}"


def test_grading_from_the_spanish_folder_gives_the_same_summary(runs):
    code, out, sections = runs["from-es"]
    path = f"exercises/es/{EX1}"
    assert sections.get(path) == runs["root"][2][path], out[-3000:]


def _grading_module():
    return importlib.import_module("exercises.grading")  # the checks package, as exercises.checks


def test_the_checks_speak_by_message_id(monkeypatch):
    """The checks' _t() takes a message id of the checks' catalogue (tests/test_catalogues.py checks that every id
    has both languages, the same {fields}, and a use) and prints it in the notebook's language."""
    grading = _grading_module()
    key = "kit.checks.not_met_fix_and_rerun"
    monkeypatch.setenv("HARNESS_LANG", "en")
    assert grading._t(key, n=2) == "2 criterion(s) not met: fix your cell, run it, then run this check again"
    monkeypatch.setenv("HARNESS_LANG", "es")
    assert grading._t(key, n=2) == ("2 criterio(s) sin cumplir: arregla tu celda, ejecútala y vuelve a ejecutar "
                                    "este control")
    with pytest.raises(KeyError):  # an English sentence is not an id: nothing is keyed by its English text
        grading._t("{n} criterion(s) not met: fix your cell, run it, then run this check again", n=2)


@pytest.mark.parametrize("path", ["04_the_approval_gate.ipynb", "solutions/04_the_approval_gate.ipynb",
                                  "es/04_the_approval_gate.ipynb", "es/solutions/04_the_approval_gate.ipynb"])
def test_exercise_4s_throwaway_sandbox_is_deleted(path, tmp_path, monkeypatch):
    """Exercise 4's setup copies the sandbox into a temporary folder. The folder goes when the cell runs again and
    when the namespace goes (as between the graded copies above, or when a kernel shuts down): with mkdtemp, every
    run of the notebook once left one behind.

    A killed kernel (nbval and nbclient stop theirs so) cannot delete its folder: the folder's name carries the
    kernel's process id, and the cell deletes the folders of exercise 4 whose process has ended. The folders of a
    process that runs (another kernel doing exercise 4 now; this one) stay, and so does everything else."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setenv("HARNESS_LANG", "en")  # restored afterwards: the cell's lang.use() sets it
    setup = source(cell(json.loads((EXERCISES / path).read_text(encoding="utf-8")), "setup"))
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()  # its id names no process now
    running = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        left = tmp_path / f"exercise-04-{ended.pid}-k1lled_0"  # what a killed kernel leaves, with a write in it
        (left / "scratch").mkdir(parents=True)
        (left / "scratch" / "draft.txt").write_text("written before the kernel was killed", encoding="utf-8")
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "elsewhere" / "keep.txt").write_text("not exercise 4's", encoding="utf-8")
        for name in (f"exercise-04-{running.pid}-runn1ng0",  # another kernel doing exercise 4 right now
                     f"exercise-04-{os.getpid()}-th1s0ne0",  # this process's own
                     f"exercise-05-{ended.pid}-abcdefgh", f"exercise-04-{ended.pid}-draft", "exercise-04-mine"):
            (tmp_path / name).mkdir()
        (tmp_path / f"exercise-04-{ended.pid}-f1le0000").write_text("a file, not a folder", encoding="utf-8")
        (tmp_path / f"exercise-04-{ended.pid}-l1nk0000").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
        kept = set(tmp_path.iterdir()) - {left}
        ns = {}
        exec(setup, ns)
        first = ns["ROOT"]
        assert not left.exists(), "the folder of a kernel that no longer runs was not deleted"
        assert set(tmp_path.iterdir()) == kept | {first}
        assert (tmp_path / "elsewhere" / "keep.txt").is_file()
        assert first.name.startswith(f"exercise-04-{os.getpid()}-") and (first / "README.md").is_file()
        exec(setup, ns)  # the learner runs the setup cell again
        assert not first.exists() and (ns["ROOT"] / "README.md").is_file()
        ns.clear()
        assert set(tmp_path.iterdir()) == kept
    finally:
        running.stdin.close()
        running.wait()


@pytest.mark.parametrize("name", [EX1, EX2, EX3, EX4])
def test_an_error_in_the_learners_own_cell_does_not_stop_run_all(name):
    """Every ✏️ cell is tagged raises-exception (JupyterLab sends such a cell with stop_on_error=false, so Run All
    goes on past a learner's SyntaxError to the checks, which say the cell raised; nbval does not fail the cell, the
    checks judge), in both editions, starter and solution; no grader cell is (conftest.py would refuse it)."""
    for folder in ("", "solutions/", "es/", "es/solutions/"):
        cells = json.loads((EXERCISES / folder / name).read_text(encoding="utf-8"))["cells"]
        exercise = [c for c in cells if "exercise" in c["metadata"].get("tags", [])]
        assert exercise and all("raises-exception" in c["metadata"]["tags"] for c in exercise), f"{folder}{name}"
        assert not [c["id"] for c in cells if {"check", "locked"} & set(c["metadata"].get("tags", []))
                    and "raises-exception" in c["metadata"]["tags"]], f"{folder}{name}"
