"""Exercise 5's cases (tests/test_capstone.py): wrong answers, each with the first ✗ it must get, and right answers in
other styles, each an edit of the solution's ✏️ cells (`policy`, `run-agent`; every edit applies exactly once).

How blind they are: the first set (WRONG down to "state-outlives-the-run", and RIGHT) was written blind to the
checks; the second set (MORE_WRONG, "strict-short-reasons") was written from the task text and the mistakes a class
made, by the same hand that then changed the checks: not blind. The blind round (BLIND_WRONG, and the right answers
named "blind-…") is tests/capstone_blind.py's: written blind, each answer whole.
"""

from __future__ import annotations

import json
from pathlib import Path

from capstone_blind import ACROSS, BLIND, cells
from test_exercises import cell as _cell, source as _source

NAME = "05_your_harness.ipynb"
SOLUTION = json.loads((Path(__file__).resolve().parent.parent / "exercises" / "solutions" / NAME).read_text(
    encoding="utf-8"))
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
    "cap-tuned-to-practice": ({"run-agent": [("if turns >= max_turns:", "if turns >= 5:")]}, "check-loop",
                              "✗ plain task", "'max_turns' a run the model finishes: that valve acted where it should "
                              "not (after 5 of max_turns=10 turns)"),
    "no-budget": ({"run-agent": [(BUDGET, "")]}, "check-valves", "✗ token hog, token_budget=20,000",
                  "no token budget stopped the token hog"),
    "budget-of-one-response": ({"run-agent": [("if spent >= token_budget:",
                                               "if tokens_of(response.usage) >= token_budget:")]},
                               "check-valves", "✗ token hog, token_budget=20,000", "add up every response's tokens"),
    "budget-counts-output-only": ({"run-agent": [("spent += tokens_of(response.usage)",
                                                  "spent += response.usage.output_tokens")]},
                                  "check-valves", "✗ token hog, token_budget=20,000",
                                  "your budget leaves input_tokens uncounted"),
    "budget-tuned-to-practice": ({"run-agent": [("if spent >= token_budget:", "if spent >= 20_000:")]},
                                 "check-valves", "✗ token hog, token_budget=9,000", "your budget acted late"),
    "no-progress-missing": ({"run-agent": [(PROGRESS, "")]}, "check-valves", "✗ ping-pong",
                            "did not see the cycle of 2 turn(s)"),
    "progress-last-turn-only": ({"run-agent": [("for p in (1, 2, 3))", "for p in (1,))")]}, "check-valves",
                                "✗ ping-pong", "did not see the cycle of 2 turn(s)"),
    "progress-no-period-3": ({"run-agent": [("for p in (1, 2, 3))", "for p in (1, 2))")]}, "check-valves",
                             "✗ a cycle of three turns", "did not see the cycle of 3 turn(s)"),
    "progress-names-only": ({"run-agent": [('f"{b.name}{json.dumps(b.input, sort_keys=True)}"', "b.name")]},
                            "check-loop", "✗ plain task", "a signature is the calls' names AND inputs"),
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
                               "check-loop", "✗ parallel calls, one refused", "went in separate user messages, and the "
                               "API refused the request: BadRequestError: Error code: 400"),
    "assistant-message-forgotten": ({"run-agent": [('        messages.append({"role": "assistant", "content": '
                                                    'response.content})\n' + RESULTS, RESULTS)]},
                                    "check-loop", "✗ plain task", "Each `tool_result` block must have a corresponding "
                                    "`tool_use` block in the previous message."),  # the API's words, whole: their end
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
                       "check-policy", "✗ delete_message: ask / deny", "delete_message cannot be undone"),
    "retired-tool-asked": ({"policy": [('"forward_all": ("deny"', '"forward_all": ("ask"')]},
                           "check-policy", "✗ forward_all: deny", "forward_all is retired: deny it"),
    "deny-asks-anyway": ({"run-agent": [('    if tier == "ask":', '    if tier in ("ask", "deny"):')]},
                         "check-loop", "✗ a call of a tool that does not exist", "as your 'deny' calls do"),
    "refused-calls-run-anyway": ({"run-agent": [(RUN_THEN, RAN_FIRST)]}, "check-loop",
                                 "✗ parallel calls, one refused", "ran although the approver did not say yes"),
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

# ---- more wrong answers (not blind: see the docstring) -------------------------------------------------------------

PROGRESS_FIRST = (
    '    while response.stop_reason in ("tool_use", "pause_turn"):\n',
    '    while response.stop_reason in ("tool_use", "pause_turn"):\n'
    '        if response.stop_reason == "tool_use" and repeats(signatures + [turn_signature(\n'
    '                [b for b in response.content if b.type == "tool_use"])]):  # no progress asked first\n'
    '            return stop("no_progress", "Stopped: no progress.")\n')
RUN_THEN_ASK = '''            text, is_error = await arun_tool(tool_impls, b.name, b.input, tools)
            why_not = await decide(b, policy, approve)  # asked once it ran
            results.append(tool_result(b.id, why_not, is_error=True) if why_not else tool_result(b.id, text, is_error))
'''
NOT_AWAITED = ("await approve(block.name, block.input) is True", "approve(block.name, block.input) is True")
SAME = ["only reads the inbox", "only reads one message", "changes the inbox, but can be moved back",
        "leaves the house and cannot be unsent", "cannot be undone: a person decides", "retired: it sent the whole inbox out"]

MORE_WRONG = {
    "budget-ignores-cache": ({"run-agent": [("spent += tokens_of(response.usage)", "spent += response.usage.input_tokens"
                                             " + response.usage.output_tokens")]},
                             "check-valves", "✗ token hog, the tools cached",
                             "leaves cache_creation_input_tokens, cache_read_input_tokens uncounted"),
    "budget-greater-than": ({"run-agent": [("if spent >= token_budget:", "if spent > token_budget:")]}, "check-valves",
                            "✗ token hog, token_budget=", "reached is spent"),
    "budget-before-the-cap": ({"run-agent": [(CAP + BUDGET, BUDGET + CAP)]}, "check-valves",
                              "✗ token hog, max_turns=3", "'max_turns' comes first"),
    "progress-before-the-cap": ({"run-agent": [(PROGRESS, ""), PROGRESS_FIRST]}, "check-valves",
                                "✗ ping-pong, max_turns=4", "'max_turns' comes first"),
    "cap-after-the-next-response": ({"run-agent": [(CAP, ""), ("        response = await ask()\n    text",
                                                                "        response = await ask()\n"
                                                                "        if turns >= max_turns:\n"
                                                                "            return stop('max_turns', 'Stopped: the cap.')\n"
                                                                "    text")]},
                                    "check-valves", "✗ plain task, max_turns=", "the cap stops only a turn the model asks for"),
    "pause-not-counted": ({"run-agent": [('        turns += 1\n        if response.stop_reason == "pause_turn":',
                                          '        if response.stop_reason == "pause_turn":'),
                                         ("        calls = [b for b", "        turns += 1\n        calls = [b for b")]},
                          "check-valves", "✗ pause_turn twice", "a pause_turn continuation is a turn of the cap"),
    "signature-in-call-order": ({"run-agent": [('" | ".join(sorted(f"{b.name}{json.dumps(b.input, sort_keys=True)}" '
                                                'for b in calls))', '" | ".join(f"{b.name}{json.dumps(b.input, '
                                                'sort_keys=True)}" for b in calls)')]},
                                "check-valves", "✗ the same two reads every turn", "in any order (sort them)"),
    "refused-results-first": ({"run-agent": [(RESULTS, '        results.sort(key=lambda r: not r.get("is_error"))\n'
                                                       + RESULTS)]},
                              "check-loop", "✗ parallel calls, the refused one second", "out of order"),
    "unlisted-allowed": ({"run-agent": [('policy.get(block.name, ("deny", ""))', 'policy.get(block.name, ("allow", ""))')]},
                         "check-gate", "✗ a policy that leaves delete_message out", "does not list is denied"),
    "gate-never-consulted": ({"run-agent": [("refused = [await decide(b, policy, approve) for b in calls]",
                                             "refused = [None for b in calls]")]},
                             "check-loop", "✗ parallel calls, one refused", "the gate was never consulted"),
    "answer-ignored": ({"run-agent": [("            if approve is not None and await approve(block.name, block.input) "
                                       "is True:\n", "            if approve is not None:\n"
                                       "                await approve(block.name, block.input)\n")]},
                       "check-loop", "✗ parallel calls, one refused", "ran although the approver did not say yes"),
    "asked-after-running": ({"run-agent": [(RUN_THEN, RUN_THEN_ASK), ("refused = [await decide(b, policy, approve) "
                                                                      "for b in calls]", "refused = [None for b in calls]")]},
                            "check-loop", "✗ parallel calls, one refused", "ran before the person was asked"),
    "approver-not-awaited": ({"run-agent": [NOT_AWAITED]}, "check-gate", "✗ each 'ask' call goes to",
                             "approve(...) without `await` only makes a coroutine, which asks nobody and is never True"),
    "approver-not-awaited-truthy": ({"run-agent": [("await approve(block.name, block.input) is True",
                                                    "approve(block.name, block.input)")]},
                                    "check-loop", "✗ parallel calls, one refused", "approve(...) without `await`"),
    "one-reason-for-all": ({"policy": [(f'"{why}"', '"a person decides"') for why in SAME]},
                           "check-policy", "✗ each tool has its own reason", "all six tools have the same reason"),
    "an-empty-reason": ({"policy": [('"cannot be undone: a person decides"', '""')]},
                        "check-policy", "✗ each tool has its own reason", "POLICY['delete_message'] has an empty reason"),
}
WRONG |= MORE_WRONG

STRICT = '''# ✏️ EXERCISE — a tier for each mail tool, and one line saying why.
POLICY = {
    "list_messages": ("allow", "read-only"),
    "read_message": ("allow", "reads only"),
    "archive_message": ("ask", "moves mail"),
    "send_reply": ("ask", "irreversible"),
    "delete_message": ("deny", "destructive"),
    "forward_all": ("deny", "retired"),
}
'''
RIGHT["strict-short-reasons"] = {"policy": STRICT}

# A harness written from the task text alone, in another shape (not blind: see the docstring): the usage fields
# added by name, a turn's signature a frozenset, the valves asked in a helper, results built after every decision.
FIELDS = '''# ✏️ EXERCISE — write run_agent: the whole harness.
USAGE_FIELDS = ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def billed(usage):
    return sum(getattr(usage, name, 0) or 0 for name in USAGE_FIELDS)


def valve(turns, spent, history, max_turns, token_budget):
    """Which valve stops the turn about to be taken (None: none); the cap, then the budget, then no progress."""
    if turns >= max_turns:
        return "max_turns"
    if spent >= token_budget:
        return "token_budget"
    for p in (1, 2, 3):
        if len(history) >= 2 * p and history[-p:] == history[-2 * p:-p]:
            return "no_progress"
    return None


async def run_agent(client, task, tools, tool_impls, *, policy=POLICY, approve=None,
                    max_turns=10, token_budget=30_000):
    messages = [{"role": "user", "content": task}]
    turns = spent = 0
    history = []
    while True:
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        spent += billed(response.usage)
        if response.stop_reason not in ("tool_use", "pause_turn"):
            return {"stopped_by": response.stop_reason,
                    "text": "\\n".join(b.text for b in response.content if b.type == "text")}
        calls = [b for b in response.content if b.type == "tool_use"]
        if response.stop_reason == "tool_use":
            history.append(frozenset((b.name, json.dumps(b.input, sort_keys=True)) for b in calls))
        stopped = valve(turns, spent, history if response.stop_reason == "tool_use" else [], max_turns, token_budget)
        if stopped:
            return {"stopped_by": stopped, "text": f"The harness stopped this run ({stopped}) after {turns} turns "
                                                   f"and {spent} tokens."}
        turns += 1
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason == "pause_turn":
            continue
        allowed = {}
        for b in calls:
            tier = policy[b.name][0] if b.name in policy else "deny"
            ok = tier == "allow"
            if tier == "ask" and approve is not None:
                try:
                    ok = (await approve(b.name, b.input)) is True
                except Exception:
                    ok = False
            allowed[b.id] = ok
        results = []
        for b in calls:
            if allowed[b.id]:
                text, is_error = await arun_tool(tool_impls, b.name, b.input, tools)
            else:
                text, is_error = f"Refused: {b.name} was not allowed to run.", True
            results.append(tool_result(b.id, text, is_error))
        messages.append({"role": "user", "content": results})
'''
RIGHT["usage-fields-and-frozensets"] = {"run-agent": FIELDS}

# ---- the blind round (tests/capstone_blind.py: written blind to the checks, each answer whole) ----------------------
BLIND_WRONG = {f"blind-{case}": (cells(case), *want[:3]) for case, want in BLIND.items() if want}
BLIND_ACROSS = [f"blind-{case}" for case in ACROSS]  # (their four checks run: tests/test_capstone.py's ONE_CAUSE)
WRONG |= BLIND_WRONG
RIGHT |= {f"blind-{case}": cells(case) for case, want in BLIND.items() if want is None}
