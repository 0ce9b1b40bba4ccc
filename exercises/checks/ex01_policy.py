"""Exercise 1 — the tiered policy: the checks of exercises/01_tiered_policy.ipynb.

The learner writes POLICY, DEFAULT_TIER and run_tool_uses (one turn's tool_use blocks -> one tool_result each:
allow runs, ask goes to the approver first, deny never runs). Each check drives run_tool_uses inside the grader's
own small loop (`drive`) on the offline model, with tools that record every run (`recording_impls`, nothing is
written or sent) and an approver that records every question, then judges the order of "asked" and "ran" and the
tool_result blocks the model got.
"""

from __future__ import annotations

from types import SimpleNamespace

import anthropic

from harness_lib.client import MODEL
from harness_lib.tools import TOOLS, make_tool_impls

from .kit import (EMAIL, Cause, Checks, _clock, _t, _valve, api_words, calls, cell_error, error_hint, late_bound,
                  not_defined_hint, offline, one_line, one_step, only_result, raised_first, read_as, recorded,
                  recording_approver, tool_root, unasked_hint, unfinished)

TOOLS_1 = TOOLS + [EMAIL]  # send_email is not in the lesson's TOOLS: a valve must use the `tools` it is given
SPEC = {"get_time": "allow", "read_file": "allow", "write_file": "ask", "send_email": "deny"}
TIERS = ("allow", "ask", "deny")
PARALLEL_TASK = ('Read the first line of README.md, write "draft" to scratch/policy-check.txt, '
                 "email bob@example.com that the report is ready, and tell me the time.")


def recording_impls(events: list) -> dict:
    """Tools that record each run in `events`; write/delete/send only pretend (no disk, no mail).

    They are coroutine functions (arun_tool awaits them in the event loop), so the order of "asked" and "ran"
    events is exactly the order your valve did things in."""
    real = make_tool_impls(tool_root(), clock=_clock)
    return recorded(events, {"get_time": real["get_time"], "read_file": real["read_file"],
                             "write_file": lambda i: f"wrote {len(i['content'])} characters to {i['path']}",
                             "delete_file": lambda i: f"deleted {i['path']}",
                             "send_email": lambda i: f"sent to {i['to']}"})


async def drive(valve, scenario, task, *, policy=SPEC, default_tier="deny", answer=True, approver="default",
                max_turns=6, valve_tools=None):
    """The grader's own small loop around YOUR run_tool_uses, on the offline model.

    answer: True / False, or a function (name, input) -> the approver's answer. approver=None passes no approver.
    valve_tools: the tools the valve is given, when not those the model is offered (TOOLS_1).
    -> run: .events [("asked"|"ran", name, input)], .rounds [(tool_use blocks, your results)], .error, .final"""
    run = SimpleNamespace(events=[], rounds=[], error=None, final=None, policy=dict(policy),
                          default_tier=default_tier, answer=answer if approver == "default" else None)
    impls = recording_impls(run.events)
    approve = recording_approver(run.events, answer)

    if not callable(valve):
        run.error = "run_tool_uses is not defined yet: run its cell"
        return run
    client = offline(scenario)
    messages = [{"role": "user", "content": task}]
    try:
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_1, messages=messages)
        while response.stop_reason == "tool_use" and len(run.rounds) < max_turns:
            step = valve(response.content, impls, tools=valve_tools or TOOLS_1,
                         approve=approve if approver == "default" else None,
                         policy=dict(policy), default_tier=default_tier)
            results = await one_step(step)  # stopped after 60 s, even busy in its own Python
            run.rounds.append(([b for b in response.content if b.type == "tool_use"], results))
            messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
            response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_1, messages=messages)
        run.final = response
    except anthropic.BadRequestError as err:
        run.error = _t("ex01.drive.api_refused_next_request", message=api_words(err))
    except Exception as err:
        run.error = one_line(err)
    return run


def count(run, kind, name):
    return sum(1 for k, n, _ in run.events if (k, n) == (kind, name))


def treated_as(run, name) -> str | None:
    """How the valve treated `name` in this run: 'ask' (asked), 'allow' (ran unasked), 'deny' (refused by policy),
    else None (an error, no call)."""
    if count(run, "asked", name):
        return "ask"
    if count(run, "ran", name):
        return "allow"
    res = only_result(run, name)
    return "deny" if res and read_as(name, res) == "refused" else None


def globals_hint(ns, run, name, policy, default_tier) -> str | None:
    """The hint when the valve treated `name` as the notebook's POLICY / DEFAULT_TIER say, not as its arguments."""
    want, seen = policy.get(name, default_tier), treated_as(run, name)
    nb_policy, nb_default = ns.get("POLICY"), ns.get("DEFAULT_TIER")
    if seen is None or seen == want or not isinstance(nb_policy, dict):
        return None
    if name in policy and nb_policy.get(name, nb_default if nb_default in ("allow", "ask") else "deny") == seen:
        return _t("ex01.state.reads_notebook_policy", name=name, want=want, nb=nb_policy.get(name), seen=seen)
    if name not in policy and name not in nb_policy and nb_default == seen:
        return _t("ex01.state.reads_notebook_default", name=name, want=want, seen=seen)
    return None


def unrun_results(run) -> list:
    """[(name, content)] of the calls that were to run (allow, or ask with a yes) and got a success or a tool's own
    failure although no tool of the checks ran them in this run."""
    def may_run(use):
        tier = run.policy.get(use.name, run.default_tier)
        yes = run.answer(use.name, use.input) if callable(run.answer) else run.answer
        return tier == "allow" or (tier == "ask" and yes is True and ("asked", use.name, use.input) in run.events)
    found = []
    for uses, results in run.rounds:
        results = [r for r in results if isinstance(r, dict)] if isinstance(results, list) else []
        for use in uses:
            mine = [r for r in results if r.get("tool_use_id") == use.id]
            if len(mine) == 1 and may_run(use) and ("ran", use.name, use.input) not in run.events \
                    and read_as(use.name, mine[0]) in ("ok", "not_found"):
                found.append((use.name, str(mine[0].get("content"))))
    return found


async def state_causes(c, valve, *runs, reused=None) -> bool:
    """The first ✗ when what the runs show is not the valve's own doing in each run: a yes reused from an earlier run
    (`reused`: a run answered no in which the tool ran unasked), an 'ask' call decided with no question though an
    approver was given (approve(...) not awaited), results that no tool of the checks produced in this run (the
    valve's own tools, or results kept from an earlier run)."""
    if reused is not None:
        c.cause(_t("kit.state.each_run_afresh"), _t("kit.state.yes_reused", name=reused))
        return True
    if not any(k in ("asked", "miscalled") for run in runs for k, _, _ in run.events):  # nobody was ever asked
        for run in runs:
            for uses, _ in run.rounds:
                for use in uses:
                    answered = [r for _, rs in calls(run, use.name) for r in rs if r.get("tool_use_id") == use.id]
                    if run.policy.get(use.name, run.default_tier) == "ask" and run.answer is not None \
                            and run.error is None and len(answered) == 1:
                        c.cause(_t("kit.state.approver_awaited"),
                                unasked_hint(use.name, ("ran", use.name, use.input) in run.events))
                        return True
    unrun = [x for run in runs for x in unrun_results(run)]
    if unrun:
        kept = any(k == "ran" for run in runs for k, _, _ in run.events)
        if not kept:  # the checks' clock in a get_time result no tool of theirs produced: kept from an earlier run
            clock = await drive(valve, "demo", "Tell me the time.")
            kept = "2026-08-26T10:42:07" in str(only_result(clock, "get_time").get("content")) \
                and not count(clock, "ran", "get_time")
        if kept:
            c.cause(_t("kit.state.each_run_afresh"), _t("ex01.state.result_reused", name=unrun[0][0],
                                                        content=unrun[0][1][:80]))
        else:
            c.cause(_t("ex01.state.uses_tool_impls"),
                    _t("ex01.state.not_the_tool_impls", names=", ".join(sorted({n for n, _ in unrun}))))
        return True
    return False


async def reuse_probe(valve) -> str | None:
    """A yes, then a no, to a read made 'ask' for the probe (no other run of the checks asks about read_file): a
    no-run in which it ran without a question reuses the earlier yes. -> the tool's name when it did, else None."""
    task, policy = "Read the first line of README.md.", dict(SPEC, read_file="ask")
    yes = await drive(valve, "demo", task, answer=True, policy=policy)
    no = await drive(valve, "demo", task, answer=False, policy=policy)
    return "read_file" if count(no, "ran", "read_file") and not count(no, "asked", "read_file") \
        and count(yes, "asked", "read_file") else None


def why(run, hint: str) -> str:
    """The hint for a criterion: how the run broke, if it did; else the criterion's own hint."""
    return error_hint(run) if run.error else hint


def completed(c, run, label, follows=False):
    c.ok(run.error is None and run.final is not None and run.final.stop_reason == "end_turn",
         _t("ex01.completed.api_accepted_every_request", label=label)
         + (f" — {run.error}" if run.error else ""),
         error_hint(run), follows=follows)


def check_policy(ns: dict) -> None:
    c = Checks("check-policy", _t("ex01.policy.title"))
    if raised_first(c, ns, "POLICY", "DEFAULT_TIER"):
        return c.done()
    policy, default = ns.get("POLICY"), ns.get("DEFAULT_TIER")
    bad = sorted(repr(t) for t in policy.values() if t not in TIERS) if isinstance(policy, dict) else []
    if policy is None and cell_error("POLICY"):  # its cell raised before defining it: the rest follows from that
        c.cause(_t("ex01.policy.is_a_dict_of_tiers"), not_defined_hint("POLICY"))
    else:
        c.ok(isinstance(policy, dict) and policy and not bad,
             _t("ex01.policy.is_a_dict_of_tiers"),
             not_defined_hint("POLICY", _t("ex01.policy.not_defined_yet")) if policy is None else
             _t("ex01.policy.fill_in_one_entry_per_tool") if policy == {} else
             _t("ex01.policy.tiers_plain_lowercase_strings", found=", ".join(bad))
             if bad else _t("ex01.policy.must_be_a_dict"))
    for name, tier in SPEC.items():
        got = policy.get(name) if isinstance(policy, dict) else None
        c.ok(got == tier, f"POLICY[{name!r}] == {tier!r}",
             _t("ex01.policy.tool_not_in_policy", name=name) if got is None else
             _t("ex01.policy.wrong_tier", got=got, tier=tier),
             follows=repr(got) in bad)  # the tier's spelling, named in the ✗ above
    c.ok(default in ("ask", "deny"), _t("ex01.policy.default_tier_fails_closed"),
         _t("ex01.policy.allow_runs_later_tools_unchecked")
         if default == "allow" else _t("ex01.policy.set_default_tier"))
    c.done()


async def check_allow(ns: dict) -> None:
    c = Checks("check-allow", _t("ex01.allow.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    run = await drive(valve, "demo", "Read the first line of README.md, then tell me the time.")
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    missing = await drive(valve, "demo", "Read the first line of missing.md.")
    custom = await drive(valve, "demo", "Email bob@example.com that the report is ready.",
                         policy=dict(SPEC, send_email="allow"))
    if await state_causes(c, valve, run, missing, custom):
        pass
    elif count(unknown := await drive(valve, "demo", "Tell me the time.", valve_tools=[
            t for t in TOOLS_1 if t["name"] != "get_time"]), "ran", "get_time"):  # its tools lack get_time: not run
        c.cause(_t("ex01.state.uses_its_tools"), _t("ex01.state.not_its_tools"))
    elif globals_hint(ns, custom, "send_email", dict(SPEC, send_email="allow"), "deny"):
        c.cause(_t("ex01.state.follows_its_arguments"),
                globals_hint(ns, custom, "send_email", dict(SPEC, send_email="allow"), "deny"))
    ran_once = count(run, "ran", "read_file") == 1 and count(run, "ran", "get_time") == 1
    c.ok(ran_once, _t("ex01.allow.allowed_tools_ran_once"),
         error_hint(run) if run.error else
         why(run, _t("ex01.allow.allowed_tool_runs_straight")))
    c.ok(not run.error and not any(k == "asked" for k, _, _ in run.events),
         _t("ex01.allow.nobody_asked_about_allowed"), why(run, _t("ex01.allow.only_ask_tools_are_asked")))
    res = only_result(run, "get_time")
    c.ok(bool(res) and not res.get("is_error") and "2026-08-26T10:42:07" in str(res.get("content")),
         _t("ex01.allow.tool_output_went_back"),
         why(run, _t("ex01.allow.pass_text_arun_tool")),
         follows=not ran_once)
    completed(c, run, _t("ex01.allow.the_run"))
    found = calls(missing, "read_file")
    answered = [r[0] for _, r in found if len(r) == 1]
    c.ok(found and len(answered) == len(found) and all(r.get("is_error") is True for r in answered),
         _t("ex01.allow.failing_tool_is_error"),
         why(missing, _t("ex01.allow.keep_tool_own_failure")),
         follows=not ran_once)
    c.ok(count(custom, "ran", "send_email") == 1,
         _t("ex01.allow.callers_own_tool_runs"),
         error_hint(custom) if custom.error else
         _t("ex01.allow.pass_tools_to_arun_tool"), follows=not ran_once)
    c.done()


async def check_deny(ns: dict) -> None:
    c = Checks("check-deny", _t("ex01.deny.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    run = await drive(valve, "demo", "Read the first line of README.md, then email bob@example.com that the report is ready.")
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    await state_causes(c, valve, run)
    email = calls(run, "send_email")
    unseen = "" if email else " — " + _t("ex01.deny.call_never_reached", error=run.error or "")
    c.ok(email and count(run, "ran", "send_email") == 0, _t("ex01.deny.send_email_never_ran") + unseen,
         error_hint(run) if not email else _t("ex01.deny.look_tier_up_before"))
    c.ok(email and count(run, "asked", "send_email") == 0, _t("ex01.deny.nobody_asked_about_send_email") + unseen,
         error_hint(run) if not email else _t("ex01.deny.deny_is_not_ask"), follows=not email)
    email = calls(run, "send_email")
    c.ok(len(email) == 1 and len(email[0][1]) == 1, _t("ex01.deny.send_email_got_one_result")
         + (_t("ex01.deny.got_n_results", n=len(email[0][1])) if len(email) == 1 else ""),
         error_hint(run) if run.error and not email else
         Cause(_t("ex01.deny.unrun_call_needs_a_result"), key="a call without its result")
         if email and not email[0][1] else _t("ex01.deny.one_result_not_two"), follows=not email)
    res = only_result(run, "send_email")
    unanswered = bool(email) and not email[0][1]  # the ✗ above: no result, so nothing below can hold
    c.ok(res.get("is_error") is True, _t("ex01.deny.with_is_error"),
         why(run, _t("ex01.deny.mark_is_error")), follows=unanswered)
    reading = read_as("send_email", res) if res else None
    c.ok(reading == "refused", _t("ex01.deny.saying_forbidden_by_policy")
         + (_t("ex01.deny.it_says", text=str(res.get("content"))[:80]) if res and reading != "refused" else ""),
         follows=unanswered or (bool(res) and res.get("is_error") is not True and reading != "declined"),
         hint=_t("ex01.deny.reads_as_not_approved") if reading == "declined" else
         why(run, _t("ex01.deny.say_why")))  # (unanswered: the same cause as above, so it follows)
    completed(c, run, _t("ex01.allow.the_run"))
    deny_wrong = bool(count(run, "ran", "send_email") or count(run, "asked", "send_email") or unanswered
                      or (res and (res.get("is_error") is not True or reading != "refused")))
    typo = await drive(valve, "demo", "Email bob@example.com that the report is ready.",
                       policy=dict(SPEC, send_email="Deny"))
    typo_res = only_result(typo, "send_email")
    typo_same = (count(typo, "ran", "send_email"), count(typo, "asked", "send_email"),
                 typo_res.get("is_error"), read_as("send_email", typo_res) if typo_res else None) == \
        (count(run, "ran", "send_email"), count(run, "asked", "send_email"), res.get("is_error"), reading)
    res = typo_res
    c.ok(count(typo, "ran", "send_email") == 0 and count(typo, "asked", "send_email") == 0
         and res.get("is_error") is True and read_as("send_email", res) == "refused",
         _t("ex01.deny.typo_tier_is_a_deny"),
         _t("ex01.deny.typo_ran_the_tool")
         if count(typo, "ran", "send_email") else
         _t("ex01.deny.typo_went_to_the_approver")
         if count(typo, "asked", "send_email") else
         Cause(_t("ex01.deny.typo_got_no_result"), key="a call without its result")
         if calls(typo, "send_email") and not calls(typo, "send_email")[0][1] else
         error_hint(typo) if typo.error else
         _t("ex01.deny.answer_exactly_like_deny"),
         follows=deny_wrong and typo_same)  # the typo was treated exactly like the deny above, which failed
    c.done()


async def check_ask(ns: dict) -> None:
    c = Checks("check-ask", _t("ex01.ask.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    task = 'Write "draft" to scratch/policy-check.txt, then tell me the time.'
    yes = await drive(valve, "demo", task, answer=True)
    if unfinished(c, yes.error, "run_tool_uses"):
        return c.done()
    no = await drive(valve, "demo", task, answer=False)
    reused = count(no, "ran", "write_file") and not count(no, "asked", "write_file") and count(yes, "asked", "write_file")
    await state_causes(c, valve, yes, no, reused="write_file" if reused else None)
    asked = [(n, i) for k, n, i in yes.events if k == "asked"]
    unasked = not asked  # nothing was put to the approver: what depends on its answer cannot work yet
    c.ok(asked == [("write_file", {"path": "scratch/policy-check.txt", "content": "draft"})],
         _t("ex01.ask.write_file_asked_once"),
         error_hint(yes) if yes.error and not asked else
         _t("ex01.ask.await_approve"))
    kinds = [(k, n) for k, n, _ in yes.events]
    c.ok(("ran", "write_file") in kinds and ("asked", "write_file") in kinds
         and kinds.index(("asked", "write_file")) < kinds.index(("ran", "write_file")),
         _t("ex01.ask.approved_ran_after_yes"),
         why(yes, _t("ex01.ask.never_ran_after_yes"))
         if ("ran", "write_file") not in kinds else
         _t("ex01.ask.asked_too_late"),
         follows=unasked)
    c.ok(not no.error and count(no, "ran", "write_file") == 0, _t("ex01.ask.rejected_never_ran"),
         why(no, _t("ex01.ask.on_a_no_skip_arun_tool")), follows=unasked)
    w = calls(no, "write_file")
    rejection_ok = len(w) == 1 and len(w[0][1]) == 1 and w[0][1][0].get("is_error") is True
    c.ok(rejection_ok, _t("ex01.ask.rejected_got_one_error_result"),
         _t("ex01.ask.rejected_mark_is_error") if len(w) == 1 and len(w[0][1]) == 1 and not no.error else
         why(no, _t("ex01.ask.answer_the_rejected_call")), follows=unasked)
    res = only_result(no, "write_file")
    reading = read_as("write_file", res) if res else None
    c.ok(reading == "declined", _t("ex01.ask.rejected_reads_as_not_approved"),
         _t("ex01.ask.reads_as_policy_refusal")
         if reading == "refused" else why(no, _t("ex01.ask.send_rejected_message")), follows=unasked)
    completed(c, yes, _t("ex01.ask.approved_run"), follows=unasked)
    completed(c, no, _t("ex01.ask.rejected_run"), follows=unasked)
    nobody = await drive(valve, "demo", task, approver=None)
    w = calls(nobody, "write_file")
    c.ok(count(nobody, "ran", "write_file") == 0 and len(w) == 1 and len(w[0][1]) == 1
         and w[0][1][0].get("is_error") is True,
         _t("ex01.ask.no_approver_does_not_run")
         + (f" — {nobody.error}" if nobody.error else ""),
         why(nobody, _t("ex01.ask.no_approver_fail_closed"))
         if not count(nobody, "ran", "write_file") else
         _t("ex01.ask.no_approver_ran_the_tool"),
         follows=not rejection_ok and not nobody.error and not count(nobody, "ran", "write_file"))  # answered as above
    odd = await drive(valve, "demo", task, answer=lambda name, tool_input: "no")
    c.ok(not odd.error and count(odd, "ran", "write_file") == 0,
         _t("ex01.ask.non_true_answer_does_not_approve"),
         why(odd, _t("ex01.ask.only_true_is_a_yes")),
         follows=unasked)
    c.done()


async def check_default_tier(ns: dict) -> None:
    c = Checks("check-default-tier", _t("ex01.default_tier.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    task = "Delete scratch/old-report.txt."
    probe = await drive(valve, "demo", task, default_tier="deny")
    if unfinished(c, probe.error, "run_tool_uses"):
        return c.done()
    runs = {tier: await drive(valve, "demo", task, default_tier=tier) for tier in TIERS}  # the policy lists no
    # delete_file: each default tier decides it
    listed = await drive(valve, "demo", task, policy=dict(SPEC, delete_file="allow"), default_tier="deny")
    if not await state_causes(c, valve, *runs.values(), listed):
        found = [globals_hint(ns, runs[tier], "delete_file", SPEC, tier) for tier in TIERS] + [
            globals_hint(ns, listed, "delete_file", dict(SPEC, delete_file="allow"), "deny")]
        if any(found):
            c.cause(_t("ex01.state.follows_its_arguments"), next(h for h in found if h))
    expect = {"allow": ((0, 1), _t("ex01.default_tier.ran_without_asking")),
              "ask": ((1, 1), _t("ex01.default_tier.asked_then_ran")),
              "deny": ((0, 0), _t("ex01.default_tier.neither_asked_nor_ran"))}
    for tier, (want, said) in expect.items():
        run = runs[tier]
        got = (count(run, "asked", "delete_file"), count(run, "ran", "delete_file"))
        c.ok(got == want, _t("ex01.default_tier.unlisted_delete_file", tier=tier, said=said),
             error_hint(run) if run.error and got == (0, 0) else
             _t("ex01.default_tier.use_default_tier_argument"))
        if tier == "deny":
            res = only_result(run, "delete_file")
            c.ok(res.get("is_error") is True and read_as("delete_file", res) == "refused",
                 _t("ex01.default_tier.deny_answers_like_deny"),
                 why(run, _t("ex01.default_tier.answer_like_a_listed_deny")),
                 follows=got != want)  # it was asked about or ran: not treated as deny at all (the ✗ above)
    run = listed
    c.ok(count(run, "ran", "delete_file") == 1, _t("ex01.default_tier.listed_tool_keeps_its_tier"),
         why(run, _t("ex01.default_tier.use_policy_argument")))
    c.done()


async def check_parallel(ns: dict) -> None:
    c = Checks("check-parallel", _t("ex01.parallel.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    run = await drive(valve, "parallel", PARALLEL_TASK)
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    uses, results = run.rounds[0] if run.rounds else ([], None)
    two = await drive(valve, "parallel", 'Write "a" to scratch/a.txt and write "b" to scratch/b.txt.',
                      answer=lambda name, tool_input: tool_input.get("path") == "scratch/a.txt")
    if not await state_causes(c, valve, run, two, reused=await reuse_probe(valve)):
        ids = [r.get("tool_use_id") for r in results if isinstance(r, dict)] if isinstance(results, list) else []
        ran = [i for k, n, i in run.events if k == "ran"]
        writes = [u.input for uses_2, _ in two.rounds[:1] for u in uses_2 if u.name == "write_file"]
        if late_bound(ids, [u.id for u in uses]) or late_bound(ran, [u.input for u in uses if u.name != "send_email"]):
            c.cause(_t("kit.state.each_call_its_own"), _t("kit.state.late_binding", value=uses[-1].name))
        elif late_bound([i for k, n, i in two.events if (k, n) == ("asked", "write_file")], writes):
            c.cause(_t("kit.state.each_call_its_own"), _t("kit.state.late_binding", value=writes[-1].get("path")))
    c.ok(len(uses) == 4 and isinstance(results, list), _t("ex01.parallel.returned_a_list"),
         error_hint(run) if run.error and not run.rounds else
         _t("ex01.parallel.return_a_list"))
    not_a_list = bool(run.rounds) and not isinstance(results, list)  # the ✗ above: what follows cannot hold
    results = results if isinstance(results, list) else []
    c.ok([r.get("tool_use_id") if isinstance(r, dict) else None for r in results] == [u.id for u in uses],
         _t("ex01.parallel.one_result_per_call_in_order"),
         why(run, _t("ex01.parallel.one_result_per_block")), follows=not_a_list)
    c.ok(bool(results) and all(isinstance(r, dict) and r.get("type") == "tool_result" and "content" in r
                               for r in results),
         _t("ex01.parallel.every_block_is_a_tool_result"),
         why(run, _t("ex01.parallel.build_with_tool_result")), follows=not_a_list)
    first_turn = [(k, n) for k, n, _ in run.events]
    ran = sorted(n for k, n in first_turn if k == "ran")
    c.ok(ran == ["get_time", "read_file", "write_file"],
         _t("ex01.parallel.allowed_and_approved_ran"),
         why(run, _t("ex01.parallel.tiers_hold_in_a_turn")))
    kinds = [k for k, _ in first_turn]
    c.ok("asked" in kinds and "ran" in kinds and max(i for i, k in enumerate(kinds) if k == "asked")
         < min(i for i, k in enumerate(kinds) if k == "ran"),
         _t("ex01.parallel.approvals_before_any_tool"),
         why(run, _t("ex01.parallel.decide_every_call_then_run")))
    completed(c, run, _t("ex01.allow.the_run"), follows=not_a_list)
    asked = [i.get("path") for k, n, i in two.events if (k, n) == ("asked", "write_file")]
    ran = [i.get("path") for k, n, i in two.events if (k, n) == ("ran", "write_file")]
    c.ok(asked == ["scratch/a.txt", "scratch/b.txt"] and ran == ["scratch/a.txt"],
         _t("ex01.parallel.two_writes_asked_each"),
         error_hint(two) if two.error and not asked else
         _t("ex01.parallel.asked_n_times_for_2_calls", n=len(asked), ran=ran))
    c.done()
