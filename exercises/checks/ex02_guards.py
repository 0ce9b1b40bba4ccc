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

from .kit import (Checks, _digest, _error_text, _t, bounded, counting_impls, model_texts, not_defined_hint, offline,
                  one_line, raised_first, raised_name_hint, runaway_hint, says_stop, unfinished)

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
    run = SimpleNamespace(calls=[], result=None, problem=None, requests=0, offered=[], runaway=False, bound=None)
    if not callable(fn):
        run.problem = "run_capped is not defined yet: run its cell"
        return run
    bound = await bounded(scenario, lambda client: fn(client, task, TOOLS_2, counting_impls(run.calls), **kwargs),
                          limit=limit)
    run.result, run.problem, run.requests = bound.result, bound.problem, bound.requests
    run.runaway, run.bound = bound.runaway, bound.bound
    run.offered = [body.get("tools") for body in offline_api(bound.client).log]
    if run.problem is None and not isinstance(run.result, AgentResult):
        run.problem = _t("ex02.capped.not_an_agent_result", kind=type(run.result).__name__)
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
        return not_defined_hint("run_capped", _t("ex02.problem.run_its_cell_first"))
    if raised_name_hint(problem, "run_capped"):
        return raised_name_hint(problem, "run_capped")
    if "NotImplementedError" in problem:
        return _t("ex02.problem.run_capped_not_written")
    if "TextBlock" in problem:
        return _error_text(problem)
    if run.runaway:
        return runaway_hint(run, _t("ex02.problem.add_the_cap"))
    return _t("ex02.problem.ended_with_error", problem=problem) \
        if problem else _t("ex02.problem.must_return_agent_result")


def check_diagnosis(ns: dict) -> None:
    c = Checks("check-diagnosis", _t("ex02.diagnosis.title"))
    if raised_first(c, ns, "DIAGNOSIS"):
        return c.done()
    d = ns.get("DIAGNOSIS")
    vocab = {name: value for name, value in ns.items() if isinstance(value, str) and name.isupper()
             and _digest(value)[:8] in _KNOWN}
    known = set(vocab.values())
    c.ok(isinstance(d, dict) and d and all(k in known for k in d) and all(v in known for v in d.values()),
         _t("ex02.diagnosis.non_empty_dict"),
         not_defined_hint("DIAGNOSIS", _t("ex02.diagnosis.not_defined_yet")) if d is None else
         _t("ex02.diagnosis.must_be_a_dict", kind=type(d).__name__, n=len(d) if hasattr(d, "__len__") else "?")
         if not isinstance(d, dict) else
         _t("ex02.diagnosis.fill_in_one_entry") if not d else
         _t("ex02.diagnosis.use_the_constants"))
    if not (isinstance(d, dict) and d):
        c.note(_t("ex02.diagnosis.other_criteria_wait"))
        c.done()
        return
    all_known = all(k in known for k in d) and all(v in known for v in d.values())
    guards = _RUNAWAY_GUARDS | _DECOY_GUARDS
    if all_known and all(_digest(k)[:8] not in guards for k in d) and all(_digest(v)[:8] in guards for v in d.values()):
        c.cause(_t("ex02.diagnosis.keys_are_guards"), _t("ex02.diagnosis.keys_and_values_swapped"))
    c.ok(not any(_digest(k)[:8] in _DECOY_GUARDS for k in d if isinstance(k, str)),
         _t("ex02.diagnosis.every_key_a_runaway_guard"),
         _t("ex02.diagnosis.key_that_never_runs_away"))
    decoy_values = [v for v in d.values() if isinstance(v, str) and _digest(v)[:8] in _DECOY_RUNAWAYS]
    c.ok(not decoy_values, _t("ex02.diagnosis.every_value_a_failure_of_this_loop"),
         _t("ex02.diagnosis.value_that_does_not_happen"))
    keys = [_digest(k)[:8] for k in d if isinstance(k, str)]
    named = sum(1 for k in keys if k in _RUNAWAY_GUARDS)
    c.ok(named == len(_RUNAWAY_GUARDS),
         _t("ex02.diagnosis.names_every_missing_guard",
            named=named, total=len(_RUNAWAY_GUARDS)),
         _t("ex02.diagnosis.read_the_while_line"),
         follows=not all_known and named == 0)  # nothing of the 🔒 cell's vocabulary: the first ✗ says why
    runaway_keys = [(k, v) for k, v in d.items() if isinstance(k, str) and _digest(k)[:8] in _RUNAWAY_GUARDS]
    wrong = [(k, v) for k, v in runaway_keys if not (isinstance(v, str) and _digest(k, v)[:16] in _RIGHT_PAIRS)]
    if runaway_keys:
        c.ok(not wrong,
             _t("ex02.diagnosis.guards_mapped_to_their_runaway",
                right=len(runaway_keys) - len(wrong), total=len(runaway_keys)),
             _t("ex02.diagnosis.pick_each_guards_runaway"),
             follows=all(v in decoy_values for _, v in wrong))  # only the pairs whose value the ✗ above names
    c.done()


def _carried(run) -> bool:
    """True when the result counts turns this run did not take (one call per turn in these scenarios): a count kept
    from an earlier run."""
    res = run.result if isinstance(run.result, AgentResult) else None
    return res is not None and isinstance(res.turns, int) and isinstance(res.requests, int) and (
        (res.turns > len(run.calls) and run.requests == 1) or res.requests > run.requests)


def _summary(run) -> str:
    """A run in a few words, to set two runs side by side: its (stopped_by, turns, requests), or its problem."""
    res = run.result if isinstance(run.result, AgentResult) else None
    return repr((res.stopped_by, res.turns, res.requests)) if res else (run.problem or "?")


async def check_turn_cap(ns: dict) -> None:
    c = Checks("check-turn-cap", _t("ex02.turn_cap.title"))
    if raised_first(c, ns, "run_capped", "MAX_TURNS"):
        return c.done()
    fn = ns.get("run_capped")
    r = await capped(fn, "never-ends", max_turns=3)
    if unfinished(c, r.problem, "run_capped"):
        cap = ns.get("MAX_TURNS")
        c.ok(isinstance(cap, int) and not isinstance(cap, bool) and 1 <= cap <= 30,
             _t("ex02.turn_cap.max_turns_whole_number")
             + (_t("ex02.turn_cap.it_is_cap", cap=cap) if not isinstance(cap, int) else ""),
             _t("ex02.turn_cap.set_max_turns"))
        return c.done()
    r0 = await capped(fn, "never-ends", max_turns=0)
    again = await capped(fn, "never-ends", max_turns=3)  # the same run again: what outlives a run shows
    cap_constant = ns.get("MAX_TURNS")
    n_again = (len(again.calls), _summary(again))
    if (len(r.calls), _summary(r)) != n_again:
        c.cause(_t("kit.state.each_run_afresh"), _t("ex02.state.same_run_twice", run="never-ends, max_turns=3",
                                                    first=_summary(r),
                                                    second=_summary(again)))
    elif isinstance(cap_constant, int) and cap_constant != 3 and len(r.calls) == cap_constant == len(r0.calls):
        c.cause(_t("ex02.state.uses_the_argument"), _t("ex02.state.constant_not_argument", cap=cap_constant))
    elif isinstance(cap_constant, int) and cap_constant > 0 and len(r.calls) == 3 and len(r0.calls) == cap_constant:
        c.cause(_t("ex02.turn_cap.max_turns_0_runs_no_turn", n=len(r0.calls), requests=r0.requests),
                _t("ex02.state.zero_is_a_cap", n=len(r0.calls)))
    # a runaway although max_turns=0 stops at once: the cap is asked, but `turns` never reaches it
    never_counted = r.runaway and r0.problem is None and not r0.calls and r0.requests == 1
    c.ok(r.problem is None, _t("ex02.turn_cap.never_ends_is_stopped")
         + (f" — {r.problem}" if r.problem else ""),
         _t("ex02.turn_cap.turns_never_counted") if never_counted else
         _problem_hint(r))
    n = len(r.calls)
    broke = r.problem is not None  # the ✗ above: the run did not end with a result, so nothing below can hold
    miscount = r.problem is None and n != 3  # the cap fires a turn early or late: what counts turns follows from it
    c.ok(n == 3, _t("ex02.turn_cap.exactly_3_tool_turns", n=n), follows=broke, hint=
         _t("ex02.turn_cap.one_turn_short") if n == 2 else
         _t("ex02.turn_cap.more_turns_than_the_cap") if n > 3 else
         _problem_hint(r) if r.problem else _t("ex02.turn_cap.fewer_turns_than_the_cap"))
    c.ok(r.requests == 4, _t("ex02.turn_cap.exactly_4_model_requests", n=r.requests),
         _t("ex02.turn_cap.stop_before_running_4th") if r.requests > 4 else
         _t("ex02.turn_cap.one_request_per_turn") if r.requests else _problem_hint(r),
         follows=miscount or broke)
    res = r.result if isinstance(r.result, AgentResult) else None
    got = (res.stopped_by, res.turns, res.requests) if res else None
    not_the_cap = got is not None and got[0] == "tool_use"  # it ended by the while condition, not by the cap
    mislabelled = got is not None and got[0] not in ("max_turns", "tool_use") and got[1:] == (3, 4)
    c.ok(got == ("max_turns", 3, 4), _t("ex02.turn_cap.returns_max_turns_result")
         + (_t("ex02.turn_cap.got", got=got) if got and got != ("max_turns", 3, 4) else ""),
         _problem_hint(r) if r.problem else
         _t("ex02.turn_cap.ended_by_while_not_cap", stopped_by=got[0]) if not_the_cap else
         _t("ex02.turn_cap.stopped_by_is_max_turns", stopped_by=got[0]) if mislabelled else
         _t("ex02.turn_cap.requests_miscounted", got=got[2], sent=r.requests)
         if got[2] != r.requests and got[1] == n else
         _t("ex02.turn_cap.return_max_turns_result"),
         follows=broke or (miscount and got is not None and got[0] == "max_turns"))  # the cap fired a turn off
    text = res.text.strip() if res is not None and isinstance(res.text, str) else ""
    models = await model_texts(res, "never-ends", TOOLS_2) if res is not None else set()
    own = bool(text) and text not in models
    c.ok(own and says_stop(text, "max_turns", (3,)),
         _t("ex02.turn_cap.text_says_harness_stopped") + (_t("ex02.turn_cap.it_says", text=text[:80]) if res else ""),
         _problem_hint(r) if r.problem else
         _t("ex02.turn_cap.empty_as_the_models") if not text and "" in models else
         _t("ex02.turn_cap.give_a_stop_sentence") if not text else
         _t("ex02.turn_cap.not_the_models_text") if not own else
         _t("ex02.turn_cap.name_the_cap_and_its_limit"),
         follows=not_the_cap or broke)
    c.ok(res is not None and await resend(res.messages) is None,
         _t("ex02.turn_cap.history_can_be_continued"),
         _problem_hint(r) if res is None else
         _t("ex02.turn_cap.return_before_appending"), follows=broke)
    offered_ok = bool(r.offered) and all(t == TOOLS_2 for t in r.offered)
    c.ok(offered_ok, _t("ex02.turn_cap.offered_the_callers_tools"),
         _problem_hint(r) if not r.offered else
         _t("ex02.turn_cap.pass_tools_to_create"),
         follows=broke and not r.offered)
    c.ok(r0.problem is None and len(r0.calls) == 0 and r0.requests == 1,
         _t("ex02.turn_cap.max_turns_0_runs_no_turn",
            n=len(r0.calls), requests=r0.requests),
         _t("ex02.turn_cap.max_turns_0_ran_turns", n=len(r0.calls)) if r0.calls else _problem_hint(r0),
         follows=(n > 3 and len(r0.calls) == n - 3)  # the same turn too many as above
         or (broke and (r0.problem or "").split(":")[0] == r.problem.split(":")[0]))  # the same error
    par = await capped(fn, "parallel", max_turns=1)
    pres = par.result if isinstance(par.result, AgentResult) else None
    c.ok(pres is not None and (pres.stopped_by, pres.turns, pres.requests) == ("end_turn", 1, 2),
         _t("ex02.turn_cap.parallel_calls_one_turn")
         + (_t("ex02.turn_cap.got_stopped_by_and_turns", stopped_by=pres.stopped_by, turns=pres.turns)
            if pres and (pres.stopped_by, pres.turns, pres.requests) != ("end_turn", 1, 2) else ""),
         _problem_hint(par) if pres is None else
         _t("ex02.turn_cap.count_responses_not_calls") if pres.turns > 1 else
         _t("ex02.turn_cap.model_ended_after_one_turn") if pres.stopped_by != "end_turn" else
         _t("ex02.turn_cap.count_every_request"),
         follows=(miscount and len(par.calls) != 2) or never_counted  # a turn early (or turns never counted)
         or (pres is not None and got is not None and pres.requests != 2 and got[2] != r.requests))
    cap = ns.get("MAX_TURNS")
    ok_cap = isinstance(cap, int) and not isinstance(cap, bool) and 1 <= cap <= 30
    c.ok(ok_cap, _t("ex02.turn_cap.max_turns_whole_number")
         + ("" if ok_cap else _t("ex02.turn_cap.it_is_cap", cap=cap)),
         _t("ex02.turn_cap.set_max_turns"))
    if ok_cap:
        rd = await capped(fn, "never-ends")
        c.ok(rd.problem is None and len(rd.calls) == cap,
             _t("ex02.turn_cap.default_cap_is_max_turns",
                n=len(rd.calls), cap=cap),
             _t("ex02.turn_cap.keep_the_default") if rd.problem is None else
             _problem_hint(rd),
             follows=(miscount and rd.problem is None and len(rd.calls) == cap + n - 3)  # the same miscount
             or (rd.problem is not None and rd.problem.split(":")[0] == (r.problem or "").split(":")[0]))
    c.done()


async def check_model_answer(ns: dict) -> None:
    c = Checks("check-model-answer", _t("ex02.model_answer.title"))
    if raised_first(c, ns, "run_capped"):
        return c.done()
    fn = ns.get("run_capped")
    reference = await run_agent(offline("demo"), TASK_2, TOOLS_2, counting_impls([]))
    r = await capped(fn, "demo", max_turns=2)  # the task needs exactly 2 tool turns, then the model ends its turn
    if unfinished(c, r.problem, "run_capped"):
        return c.done()
    if _carried(r):
        c.cause(_t("kit.state.each_run_afresh"), _t("ex02.state.counts_carried_over", turns=r.result.turns,
                                                    ran=len(r.calls), requests=r.result.requests, sent=r.requests))
    c.ok(r.problem is None and len(r.calls) == 2 and r.requests == 3,
         _t("ex02.model_answer.demo_within_cap_of_2",
            n=len(r.calls), requests=r.requests) + (f" — {r.problem}" if r.problem else ""),
         _problem_hint(r) if r.problem else
         _t("ex02.model_answer.cap_of_2_allows_2") if len(r.calls) < 2 else
         _t("ex02.model_answer.one_request_per_turn"))
    res = r.result if isinstance(r.result, AgentResult) else None
    c.ok(res is not None and res.stopped_by == "end_turn" and res.text == reference.text,
         _t("ex02.model_answer.returns_the_answer"),
         _t("ex02.model_answer.text_is_not_the_answer", kind=type(res.text).__name__, text=str(res.text)[:60])
         if res is not None and res.stopped_by == "end_turn" else
         _t("ex02.model_answer.cap_asked_after_the_answer")
         if res is not None and (res.stopped_by, len(r.calls), r.requests) == ("max_turns", 2, 3) else
         _t("ex02.model_answer.end_by_while_condition")
         + (_t("ex02.model_answer.got_stopped", stopped_by=res.stopped_by) if res else "")
         if res is not None else _problem_hint(r))
    c.ok(res is not None and (res.turns, res.requests) == (2, 3),
         _t("ex02.model_answer.reports_turns_and_requests")
         + (_t("ex02.model_answer.got_turns_requests", turns=res.turns, requests=res.requests)
            if res and (res.turns, res.requests) != (2, 3) else ""),
         _t("ex02.model_answer.count_turns_and_requests") if res is not None else _problem_hint(r))
    c.ok(res is not None and await resend(res.messages) is None,
         _t("ex02.model_answer.history_can_be_continued"),
         _t("ex02.model_answer.return_the_messages") if res is not None else _problem_hint(r))
    ref = await capped(fn, "refusal", max_turns=3)
    rres = ref.result if isinstance(ref.result, AgentResult) else None
    c.ok(rres is not None and (rres.stopped_by, rres.turns, rres.requests) == ("refusal", 0, 1),
         _t("ex02.model_answer.refusal_ends_the_run")
         + (f" — {ref.problem}" if ref.problem else ""),
         _t("ex02.model_answer.loop_only_while_tool_use")
         if ref.problem is None or "NotImplementedError" not in ref.problem else _problem_hint(ref))
    c.done()
