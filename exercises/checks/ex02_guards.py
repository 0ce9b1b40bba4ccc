"""Exercise 2 — the missing guards: the checks of exercises/02_missing_guards.ipynb.

Part (a), DIAGNOSIS, is judged against SHA-256 digests of the 🔒 vocabulary cell's constants, so this file does not
print the answer. Part (b), run_capped (the bare loop with a turn cap), runs on the offline model bounded by a
request count (`capped`): a loop that never stops ends with an error instead of hanging.
"""

from __future__ import annotations

from types import SimpleNamespace

from harness_lib.client import MODEL, offline_api
from harness_lib.loop import AgentResult, run_agent
from harness_lib.tools import TOOLS

from .kit import (Checks, _digest, _error_text, _t, bounded, counting_impls, not_defined_hint, offline, one_line,
                  raised_name_hint, unfinished)

TOOLS_2 = [dict(t, description=t["description"] + " (grader's copy)") for t in TOOLS
           if t["name"] in ("read_file", "get_time")]  # the checks' own tool list: the loop must offer exactly it
TASK_2 = "Read the first line of README.md, then tell me what time it is"

# The diagnosis, stored as digests of the vocabulary constants' text, so this file does not print the answer.
# A guard is the first 8 hex digits of _digest(text of the guard); a right pair the first 16 of
# _digest(guard's text, runaway's text). Maintainers who reword the 🔒 vocabulary cell recompute them.
_KNOWN = {"3f43e432", "608acd1b", "891371cd", "8e2ec7c0", "9e413877", "9f4a9fa5", "bb3b0595", "e3666f86",
          "ea6469ef", "fda9dbca"}  # every constant of the vocabulary cell
_RUNAWAY_GUARDS = {"608acd1b", "9f4a9fa5", "bb3b0595", "ea6469ef"}
_RIGHT_PAIRS = {"19e2edf48a2cc8fd", "2ac47958462382ae", "5dba24b7d1ba1486", "8b277df5732c232f", "f9faccae1de217ab"}
_DECOY_GUARDS = {"9e413877"}
_DECOY_RUNAWAYS = {"891371cd"}


async def capped(fn, scenario, task=TASK_2, limit=50, **kwargs):
    """YOUR run_capped on the offline model, bounded by request count: what ran, how often, what came back."""
    run = SimpleNamespace(calls=[], result=None, problem=None, requests=0, offered=[], runaway=False)
    if not callable(fn):
        run.problem = "run_capped is not defined yet: run its cell"
        return run
    bound = await bounded(scenario, lambda client: fn(client, task, TOOLS_2, counting_impls(run.calls), **kwargs),
                          limit=limit)
    run.result, run.problem, run.requests = bound.result, bound.problem, bound.requests
    run.runaway = bound.runaway
    run.offered = [body.get("tools") for body in offline_api(bound.client).log]
    if run.problem is None and not isinstance(run.result, AgentResult):
        run.problem = _t("it returned {kind}, not an AgentResult", kind=type(run.result).__name__)
    return run


async def resend(messages) -> str | None:
    """Continue a returned history as a caller would (one more user message): None if the API takes it."""
    try:
        await offline("demo").messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_2, messages=[
            *messages, {"role": "user", "content": "Thanks. One more thing: what time is it?"}])
        return None
    except Exception as err:
        return one_line(err)


def _problem_hint(run) -> str:
    problem = run.problem or ""
    if "not defined yet" in problem:
        return not_defined_hint("run_capped", _t("run the cell that defines MAX_TURNS and run_capped first"))
    if raised_name_hint(problem, "run_capped"):
        return raised_name_hint(problem, "run_capped")
    if "NotImplementedError" in problem:
        return _t("write run_capped (it still raises NotImplementedError)")
    if "TextBlock" in problem:
        return _error_text(problem)
    if run.runaway:
        return _t("the loop turns as long as the model asks for tools: add the cap, `if turns >= max_turns:` at the "
                  "top")
    return _t("the run ended with an error ({problem}): it must end with an AgentResult", problem=problem) \
        if problem else _t("it must return an AgentResult")


def check_diagnosis(ns: dict) -> None:
    c = Checks("check-diagnosis", _t("the diagnosis: what the bare loop lacks, and how each absence runs away"))
    d = ns.get("DIAGNOSIS")
    vocab = {name: value for name, value in ns.items() if isinstance(value, str) and name.isupper()
             and _digest(value)[:8] in _KNOWN}
    known = set(vocab.values())
    c.ok(isinstance(d, dict) and d and all(k in known for k in d) and all(v in known for v in d.values()),
         _t("DIAGNOSIS is a non-empty dict {missing guard: runaway} built from the constants of the 🔒 cell"),
         not_defined_hint("DIAGNOSIS", _t("DIAGNOSIS is not defined yet: run the exercise cell")) if d is None else
         _t("DIAGNOSIS must be a dict") if not isinstance(d, dict) else
         _t("fill in DIAGNOSIS: at least one entry") if not d else
         _t("use the constants' names (e.g. NO_TURN_CAP), not your own text: free text cannot be checked"))
    if not (isinstance(d, dict) and d):
        c.note(_t("(the other criteria are checked once DIAGNOSIS has entries)"))
        c.done()
        return
    all_known = all(k in known for k in d) and all(v in known for v in d.values())
    c.ok(not any(_digest(k)[:8] in _DECOY_GUARDS for k in d if isinstance(k, str)),
         _t("no key is a guard whose absence does not make this loop run away"),
         _t("one of your keys names something the bare loop lacks, but its absence never makes a loop run away "
            "(what does the SDK already do by itself?)"))
    decoy_values = [v for v in d.values() if isinstance(v, str) and _digest(v)[:8] in _DECOY_RUNAWAYS]
    c.ok(not decoy_values, _t("no value is a failure this loop does not have"),
         _t("one of your values describes something that does not happen in this loop: "
            "look at what it sends back after every tool_use"))
    keys = [_digest(k)[:8] for k in d if isinstance(k, str)]
    named = sum(1 for k in keys if k in _RUNAWAY_GUARDS)
    c.ok(named == len(_RUNAWAY_GUARDS),
         _t("names every missing guard that lets this loop run away ({named} of {total} named)",
            named=named, total=len(_RUNAWAY_GUARDS)),
         _t("read the while line (who decides when it ends?), then the two runaway runs: what grows without end, "
            "and what goes unnoticed? Each has a guard whose absence allows it"),
         follows=not all_known and named == 0)  # nothing of the 🔒 cell's vocabulary: the first ✗ says why
    runaway_keys = [(k, v) for k, v in d.items() if isinstance(k, str) and _digest(k)[:8] in _RUNAWAY_GUARDS]
    wrong = [(k, v) for k, v in runaway_keys if not (isinstance(v, str) and _digest(k, v)[:16] in _RIGHT_PAIRS)]
    if runaway_keys:
        c.ok(not wrong,
             _t("each of those guards is mapped to the runaway its absence allows ({right} of {total} right)",
                right=len(runaway_keys) - len(wrong), total=len(runaway_keys)),
             _t("for each guard ask: without it, what happens when the model keeps asking for tools? "
                "Pick the runaway constant that describes exactly that"),
             follows=all(v in decoy_values for _, v in wrong))  # only the pairs whose value the ✗ above names
    c.done()


async def check_turn_cap(ns: dict) -> None:
    c = Checks("check-turn-cap", _t("the turn cap: a hard stop, asked at the top of the loop body"))
    fn = ns.get("run_capped")
    r = await capped(fn, "never-ends", max_turns=3)
    if unfinished(c, r.problem, "run_capped"):
        cap = ns.get("MAX_TURNS")
        c.ok(isinstance(cap, int) and not isinstance(cap, bool) and 1 <= cap <= 30,
             _t("MAX_TURNS is a whole number from 1 to 30")
             + (_t(" (it is {cap!r})", cap=cap) if not isinstance(cap, int) else ""),
             _t("set MAX_TURNS to your cap, e.g. 8 (the lessons' value)"))
        return c.done()
    r0 = await capped(fn, "never-ends", max_turns=0)
    # a runaway although max_turns=0 stops at once: the cap is asked, but `turns` never reaches it
    never_counted = r.runaway and r0.problem is None and not r0.calls and r0.requests == 1
    c.ok(r.problem is None, _t("a model that never ends its turn is stopped (never-ends, max_turns=3)")
         + (f" — {r.problem}" if r.problem else ""),
         _t("with max_turns=0 your loop stops at once, so the cap is asked; with max_turns=3 it never stops: "
            "`turns` never reaches the cap — add `turns += 1` for each turn that runs") if never_counted else
         _problem_hint(r))
    n = len(r.calls)
    broke = r.problem is not None  # the ✗ above: the run did not end with a result, so nothing below can hold
    miscount = r.problem is None and n != 3  # the cap fires a turn early or late: what counts turns follows from it
    c.ok(n == 3, _t("exactly 3 tool turns ran (ran: {n})", n=n), follows=broke, hint=
         _t("one turn short: the cap fired with 2 turns done — is `turns` counted before the check? Ask first, "
            "then count the turn") if n == 2 else
         _t("more turns than the cap: ask `turns >= max_turns` before every turn") if n > 3 else
         _problem_hint(r) if r.problem else _t("fewer turns than the cap: the run ended early"))
    c.ok(r.requests == 4, _t("exactly 4 model requests: the first, and one after each turn (sent: {n})", n=r.requests),
         _t("stop before running a 4th turn, so no 5th request is sent") if r.requests > 4 else
         _t("a request after each turn that ran, plus the first") if r.requests else _problem_hint(r),
         follows=miscount or broke)
    res = r.result if isinstance(r.result, AgentResult) else None
    got = (res.stopped_by, res.turns, res.requests) if res else None
    not_the_cap = got is not None and got[0] != "max_turns"  # it ended by the while condition, not by the cap
    c.ok(got == ("max_turns", 3, 4), _t("it returns AgentResult with stopped_by='max_turns', turns=3, requests=4")
         + (_t(" (got {got})", got=got) if got and got != ("max_turns", 3, 4) else ""),
         _problem_hint(r) if r.problem else
         _t("the loop ended by its while condition (stopped_by={stopped_by!r}), not by the cap: ask "
            "`if turns >= max_turns:` first thing in the body and return AgentResult(text, 'max_turns', turns, "
            "requests, 0, messages) there", stopped_by=got[0]) if not_the_cap else
         _t("it reports requests={got}, but the API received {sent}: count every request you send (the first, and "
            "`requests += 1` after each messages.create)", got=got[2], sent=r.requests)
         if got[2] != r.requests and got[1] == n else
         _t("return AgentResult(text, 'max_turns', turns, requests, 0, messages) when the cap fires; "
            "turns counts the turns that ran, requests every request sent"),
         follows=broke or (miscount and got is not None and got[0] == "max_turns"))  # the cap fired a turn off
    c.ok(res is not None and isinstance(res.text, str) and res.text.strip() != "",
         _t("its text says the harness stopped the run (not empty)"),
         _problem_hint(r) if r.problem else
         _t("give the caller a sentence, e.g. f\"Stopped by the harness: turn cap of {max_turns} reached.\""),
         follows=not_the_cap or broke)
    c.ok(res is not None and await resend(res.messages) is None,
         _t("the history it returns can be continued (no tool_use left without its tool_result)"),
         _problem_hint(r) if res is None else
         _t("when the cap fires, return before appending the response whose calls you will not run"), follows=broke)
    offered_ok = bool(r.offered) and all(t == TOOLS_2 for t in r.offered)
    c.ok(offered_ok, _t("every request offered exactly the tools the caller passed"),
         _problem_hint(r) if not r.offered else
         _t("pass the tools argument to messages.create, not a global list (the checks pass their own tools)"),
         follows=broke and not r.offered)
    c.ok(r0.problem is None and len(r0.calls) == 0 and r0.requests == 1,
         _t("max_turns=0: not a single turn runs (tool calls: {n}, requests: {requests})",
            n=len(r0.calls), requests=r0.requests),
         _t("with max_turns=0, {n} turn(s) ran: the cap must be asked before the first turn runs, first thing in "
            "the loop body", n=len(r0.calls)) if r0.calls else _problem_hint(r0),
         follows=(n > 3 and len(r0.calls) == n - 3)  # the same turn too many as above
         or (broke and (r0.problem or "").split(":")[0] == r.problem.split(":")[0]))  # the same error
    par = await capped(fn, "parallel", max_turns=1)
    pres = par.result if isinstance(par.result, AgentResult) else None
    c.ok(pres is not None and (pres.stopped_by, pres.turns, pres.requests) == ("end_turn", 1, 2),
         _t("a turn of 2 parallel calls counts as ONE turn (parallel, max_turns=1: turns=1, the model's answer)")
         + (_t(" (got stopped_by={stopped_by!r}, turns={turns})", stopped_by=pres.stopped_by, turns=pres.turns)
            if pres and (pres.stopped_by, pres.turns, pres.requests) != ("end_turn", 1, 2) else ""),
         _problem_hint(par) if pres is None else
         _t("turns counts tool-calling turns (model responses), not tool calls: add 1 per response, however many "
            "tool_use blocks it holds") if pres.turns > 1 else
         _t("after its one turn the model ended its turn: return its answer (stopped_by='end_turn'); the cap fires "
            "only when the model asks for one more turn") if pres.stopped_by != "end_turn" else
         _t("count every request you send: the first, and one after the turn"),
         follows=(miscount and len(par.calls) != 2) or never_counted  # a turn early (or turns never counted)
         or (pres is not None and got is not None and pres.requests != 2 and got[2] != r.requests))
    cap = ns.get("MAX_TURNS")
    ok_cap = isinstance(cap, int) and not isinstance(cap, bool) and 1 <= cap <= 30
    c.ok(ok_cap, _t("MAX_TURNS is a whole number from 1 to 30") + ("" if ok_cap else _t(" (it is {cap!r})", cap=cap)),
         _t("set MAX_TURNS to your cap, e.g. 8 (the lessons' value)"))
    if ok_cap:
        rd = await capped(fn, "never-ends")
        c.ok(rd.problem is None and len(rd.calls) == cap,
             _t("run_capped's default cap is MAX_TURNS (without max_turns, {n} turns ran; MAX_TURNS={cap})",
                n=len(rd.calls), cap=cap),
             _t("keep `max_turns=MAX_TURNS` as the default in the def line") if rd.problem is None else
             _problem_hint(rd),
             follows=(miscount and rd.problem is None and len(rd.calls) == cap + n - 3)  # the same miscount
             or (rd.problem is not None and rd.problem.split(":")[0] == (r.problem or "").split(":")[0]))
    c.done()


async def check_model_answer(ns: dict) -> None:
    c = Checks("check-model-answer", _t("the cap leaves a model that ends in time alone"))
    fn = ns.get("run_capped")
    reference = await run_agent(offline("demo"), TASK_2, TOOLS_2, counting_impls([]))
    r = await capped(fn, "demo", max_turns=2)  # the task needs exactly 2 tool turns, then the model ends its turn
    if unfinished(c, r.problem, "run_capped"):
        return c.done()
    c.ok(r.problem is None and len(r.calls) == 2 and r.requests == 3,
         _t("the demo task with max_turns=2: its 2 tool turns ran, in 3 requests (ran: {n}, requests: {requests})",
            n=len(r.calls), requests=r.requests) + (f" — {r.problem}" if r.problem else ""),
         _problem_hint(r) if r.problem else
         _t("a cap of 2 must allow 2 turns: compare before counting the turn") if len(r.calls) < 2 else
         _t("the task needs 2 turns and the model then ends its turn: send one request per turn, plus the first"))
    res = r.result if isinstance(r.result, AgentResult) else None
    c.ok(res is not None and res.stopped_by == "end_turn" and res.text == reference.text,
         _t("it returns the model's own answer (stopped_by='end_turn'), not a cap message"),
         _t("the model ended its turn within the cap, so the loop must end by its while condition and return "
            "final_text(response)")
         + (_t(" — got stopped_by={stopped_by!r}", stopped_by=res.stopped_by) if res else "")
         if res is not None else _problem_hint(r))
    c.ok(res is not None and (res.turns, res.requests) == (2, 3),
         _t("it reports turns=2, requests=3")
         + (_t(" (got turns={turns}, requests={requests})", turns=res.turns, requests=res.requests)
            if res and (res.turns, res.requests) != (2, 3) else ""),
         _t("count a turn when it runs and every request you send") if res is not None else _problem_hint(r))
    c.ok(res is not None and await resend(res.messages) is None,
         _t("the history it returns can be continued"),
         _t("return the messages list the loop built") if res is not None else _problem_hint(r))
    ref = await capped(fn, "refusal", max_turns=3)
    rres = ref.result if isinstance(ref.result, AgentResult) else None
    c.ok(rres is not None and (rres.stopped_by, rres.turns, rres.requests) == ("refusal", 0, 1),
         _t("a reply that is neither tool_use nor end_turn (a refusal) ends the run: stopped_by='refusal', 1 request")
         + (f" — {ref.problem}" if ref.problem else ""),
         _t("loop only `while response.stop_reason == \"tool_use\"`: any other stop reason (refusal, max_tokens, …) "
            "ends the loop and is returned as stopped_by; `!= \"end_turn\"` runs an empty tool step")
         if ref.problem is None or "NotImplementedError" not in ref.problem else _problem_hint(ref))
    c.done()
