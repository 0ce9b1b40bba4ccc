"""Exercise 1 — the tiered policy: the checks of exercises/01_tiered_policy.ipynb.

The learner writes POLICY, DEFAULT_TIER and run_tool_uses (one turn's tool_use blocks -> one tool_result each:
allow runs, ask goes to the approver first, deny never runs). Each check drives run_tool_uses inside the grader's
own small loop (`drive`) on the offline model, with tools that record every run (`recording_impls`, nothing is
written or sent) and an approver that records every question, then judges the order of "asked" and "ran" and the
tool_result blocks the model got.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import anthropic

from harness_lib.client import MODEL
from harness_lib.tools import TOOLS, make_tool_impls

from .kit import (EMAIL, Checks, _clock, _t, _valve, calls, error_hint, not_defined_hint, offline, one_line,
                  read_as, recorded, unfinished)

TOOLS_1 = TOOLS + [EMAIL]  # send_email is not in the lesson's TOOLS: a valve must use the `tools` it is given
SPEC = {"get_time": "allow", "read_file": "allow", "write_file": "ask", "send_email": "deny"}
TIERS = ("allow", "ask", "deny")
PARALLEL_TASK = ('Read the first line of README.md, write "draft" to scratch/policy-check.txt, '
                 "email bob@example.com that the report is ready, and tell me the time.")


def recording_impls(events: list) -> dict:
    """Tools that record each run in `events`; write/delete/send only pretend (no disk, no mail).

    They are coroutine functions (arun_tool awaits them in the event loop), so the order of "asked" and "ran"
    events is exactly the order your valve did things in."""
    real = make_tool_impls(clock=_clock)
    return recorded(events, {"get_time": real["get_time"], "read_file": real["read_file"],
                             "write_file": lambda i: f"wrote {len(i['content'])} characters to {i['path']}",
                             "delete_file": lambda i: f"deleted {i['path']}",
                             "send_email": lambda i: f"sent to {i['to']}"})


async def drive(valve, scenario, task, *, policy=SPEC, default_tier="deny", answer=True, approver="default",
                max_turns=6):
    """The grader's own small loop around YOUR run_tool_uses, on the offline model.

    answer: True / False, or a function (name, input) -> the approver's answer. approver=None passes no approver.
    -> run: .events [("asked"|"ran", name, input)], .rounds [(tool_use blocks, your results)], .error, .final"""
    run = SimpleNamespace(events=[], rounds=[], error=None, final=None)
    impls = recording_impls(run.events)

    async def approve(name, tool_input):
        run.events.append(("asked", name, tool_input))
        return answer(name, tool_input) if callable(answer) else answer

    if not callable(valve):
        run.error = "run_tool_uses is not defined yet: run its cell"
        return run
    client = offline(scenario)
    messages = [{"role": "user", "content": task}]
    try:
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_1, messages=messages)
        while response.stop_reason == "tool_use" and len(run.rounds) < max_turns:
            step = valve(response.content, impls, tools=TOOLS_1, approve=approve if approver == "default" else None,
                         policy=dict(policy), default_tier=default_tier)
            results = await asyncio.wait_for(step, 60)  # a safety net only
            run.rounds.append(([b for b in response.content if b.type == "tool_use"], results))
            messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
            response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_1, messages=messages)
        run.final = response
    except anthropic.BadRequestError as err:
        run.error = _t("the API refused the next request: {message}",
                       message=err.message if hasattr(err, "message") else err)
    except Exception as err:
        run.error = one_line(err)
    return run


def count(run, kind, name):
    return sum(1 for k, n, _ in run.events if (k, n) == (kind, name))


def only_result(run, name) -> dict:
    """The one tool_result of the one call of `name`, else {}."""
    found = calls(run, name)
    return found[0][1][0] if len(found) == 1 and len(found[0][1]) == 1 else {}


def why(run, hint: str) -> str:
    """The hint for a criterion: how the run broke, if it did; else the criterion's own hint."""
    return error_hint(run) if run.error else hint


def completed(c, run, label, follows=False):
    c.ok(run.error is None and run.final is not None and run.final.stop_reason == "end_turn",
         _t("{label}: the API accepted every request and the model finished", label=label)
         + (f" — {run.error}" if run.error else ""),
         error_hint(run), follows=follows)


def check_policy(ns: dict) -> None:
    c = Checks("check-policy", _t("POLICY and DEFAULT_TIER"))
    policy, default = ns.get("POLICY"), ns.get("DEFAULT_TIER")
    bad = sorted(repr(t) for t in policy.values() if t not in TIERS) if isinstance(policy, dict) else []
    c.ok(isinstance(policy, dict) and policy and not bad,
         _t("POLICY is a dict: tool name -> 'allow' | 'ask' | 'deny'"),
         not_defined_hint("POLICY", _t("POLICY is not defined yet: run the exercise cell")) if policy is None else
         _t("fill in POLICY: one entry per tool of the colleague's list") if policy == {} else
         _t("tiers are the plain lowercase strings 'allow', 'ask', 'deny' (found {found})", found=", ".join(bad))
         if bad else _t("POLICY must be a dict"))
    for name, tier in SPEC.items():
        got = policy.get(name) if isinstance(policy, dict) else None
        c.ok(got == tier, f"POLICY[{name!r}] == {tier!r}",
             _t("{name} is not in POLICY yet", name=name) if got is None else
             _t("it is {got!r}; the colleague's list says {tier!r}", got=got, tier=tier),
             follows=repr(got) in bad)  # the tier's spelling, named in the ✗ above
    c.ok(default in ("ask", "deny"), _t("DEFAULT_TIER fails closed: 'ask' or 'deny'"),
         _t("with 'allow', any tool added later (delete_file is one already) would run unchecked")
         if default == "allow" else _t("set DEFAULT_TIER to 'ask' or 'deny' (plain lowercase strings)"))
    c.done()


async def check_allow(ns: dict) -> None:
    c = Checks("check-allow", _t("allow: the tool runs without asking, and its result goes back as it is"))
    valve = _valve(ns)
    run = await drive(valve, "demo", "Read the first line of README.md, then tell me the time.")
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    ran_once = count(run, "ran", "read_file") == 1 and count(run, "ran", "get_time") == 1
    c.ok(ran_once, _t("read_file and get_time (allow) each ran once"),
         error_hint(run) if run.error else
         why(run, _t("an allowed tool runs straight away: await arun_tool(tool_impls, block.name, block.input, "
                     "tools)")))
    c.ok(not run.error and not any(k == "asked" for k, _, _ in run.events),
         _t("nobody was asked about an allowed tool"), why(run, _t("only 'ask' tools go to the approver")))
    res = only_result(run, "get_time")
    c.ok(bool(res) and not res.get("is_error") and "2026-08-26T10:42:07" in str(res.get("content")),
         _t("the tool's output went back as its tool_result content"),
         why(run, _t("pass on the text arun_tool returned: tool_result(block.id, text, is_error)")),
         follows=not ran_once)
    completed(c, run, _t("the run"))
    missing = await drive(valve, "demo", "Read the first line of missing.md.")
    found = calls(missing, "read_file")
    answered = [r[0] for _, r in found if len(r) == 1]
    c.ok(found and len(answered) == len(found) and all(r.get("is_error") is True for r in answered),
         _t("a tool that fails (read_file of a missing file) is answered with is_error: true"),
         why(missing, _t("keep the tool's own failure: text, is_error = await arun_tool(...) and pass is_error on "
                         "to tool_result; dropped, a missing file reaches the model as a success")),
         follows=not ran_once)
    custom = await drive(valve, "demo", "Email bob@example.com that the report is ready.",
                         policy=dict(SPEC, send_email="allow"))
    c.ok(count(custom, "ran", "send_email") == 1,
         _t("an allowed tool the caller offers, not in the lesson's TOOLS (send_email), runs"),
         error_hint(custom) if custom.error else
         _t("pass the tools argument to arun_tool (arun_tool(tool_impls, name, input, tools)): it checks the input "
            "against the schemas the caller gave, and the lesson's TOOLS has no send_email"), follows=not ran_once)
    c.done()


async def check_deny(ns: dict) -> None:
    c = Checks("check-deny", _t("deny: the tool never runs, nobody is asked, and the model is told why"))
    valve = _valve(ns)
    run = await drive(valve, "demo", "Read the first line of README.md, then email bob@example.com that the report is ready.")
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    c.ok(not run.error and count(run, "ran", "send_email") == 0, _t("send_email (deny) never ran"),
         why(run, _t("look the tier up BEFORE running anything; a deny never reaches arun_tool")))
    c.ok(not run.error and count(run, "asked", "send_email") == 0, _t("nobody was asked about send_email"),
         why(run, _t("deny is not ask: a forbidden tool is refused without bothering the person")))
    email = calls(run, "send_email")
    c.ok(len(email) == 1 and len(email[0][1]) == 1, _t("the send_email call got exactly one tool_result"),
         error_hint(run) if run.error and not email else
         _t("a call you do not run still needs its tool_result (tool_use_id=block.id), or it is left dangling")
         if email and not email[0][1] else _t("one tool_result per call, not two"))
    res = only_result(run, "send_email")
    c.ok(res.get("is_error") is True, _t("... with is_error: true"),
         why(run, _t("the call did not succeed: tool_result(..., is_error=True)")))
    reading = read_as("send_email", res) if res else None
    c.ok(reading == "refused", _t("... saying the tool is forbidden by policy (so the model does not try again)"),
         follows=bool(res) and res.get("is_error") is not True and reading != "declined",  # no error: the ✗ above
         hint=_t("it reads as not approved (an approval's no); the deny text must say it is forbidden by policy (the word 'policy' or "
            "'forbidden'), not REJECTED_MESSAGE") if reading == "declined" else
         why(run, _t("say why: e.g. \"send_email is forbidden by policy; it was not run\" (the words 'forbidden' "
                     "or 'policy')")))
    completed(c, run, _t("the run"))
    deny_wrong = bool(count(run, "ran", "send_email") or count(run, "asked", "send_email")
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
         _t("a tier that is none of the three (a typo: 'Deny') is treated as deny"),
         _t("the typo ran the tool: fail closed — anything that is not exactly 'allow' or 'ask' is a deny")
         if count(typo, "ran", "send_email") else
         _t("the typo went to the approver: fail closed — anything that is not exactly 'allow' or 'ask' is a deny")
         if count(typo, "asked", "send_email") else
         _t("the typo got no tool_result at all: fail closed — anything that is not exactly 'allow' or 'ask' is a "
            "deny, answered like one") if calls(typo, "send_email") and not calls(typo, "send_email")[0][1] else
         error_hint(typo) if typo.error else
         _t("answer it exactly like a deny: one is_error tool_result, forbidden by policy"),
         follows=deny_wrong and typo_same)  # the typo was treated exactly like the deny above, which failed
    c.done()


async def check_ask(ns: dict) -> None:
    c = Checks("check-ask", _t("ask: the approval gate decides, before the tool runs"))
    valve = _valve(ns)
    task = 'Write "draft" to scratch/policy-check.txt, then tell me the time.'
    yes = await drive(valve, "demo", task, answer=True)
    if unfinished(c, yes.error, "run_tool_uses"):
        return c.done()
    no = await drive(valve, "demo", task, answer=False)
    asked = [(n, i) for k, n, i in yes.events if k == "asked"]
    unasked = not asked  # nothing was put to the approver: what depends on its answer cannot work yet
    c.ok(asked == [("write_file", {"path": "scratch/policy-check.txt", "content": "draft"})],
         _t("write_file (ask) was put to the approver once, with its name and input"),
         error_hint(yes) if yes.error and not asked else
         _t("for an 'ask' tool: await approve(block.name, block.input) — the gate you already have"))
    kinds = [(k, n) for k, n, _ in yes.events]
    c.ok(("ran", "write_file") in kinds and ("asked", "write_file") in kinds
         and kinds.index(("asked", "write_file")) < kinds.index(("ran", "write_file")),
         _t("approved: write_file ran, and only after the yes"),
         why(yes, _t("it never ran after a yes: run it when approve(...) returns True"))
         if ("ran", "write_file") not in kinds else
         _t("ask first, then run: a question asked after the tool ran comes too late, the file is already written"),
         follows=unasked)
    c.ok(not no.error and count(no, "ran", "write_file") == 0, _t("rejected: write_file never ran"),
         why(no, _t("on a no, skip arun_tool")), follows=unasked)
    w = calls(no, "write_file")
    rejection_ok = len(w) == 1 and len(w[0][1]) == 1 and w[0][1][0].get("is_error") is True
    c.ok(rejection_ok, _t("rejected: the call still got exactly one tool_result, with is_error: true"),
         _t("a rejected call did not succeed: mark its result is_error=True — tool_result(block.id, REJECTED_MESSAGE, "
            "is_error=True)") if len(w) == 1 and len(w[0][1]) == 1 and not no.error else
         why(no, _t("answer it: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — a rejection is a result, "
                    "not silence")), follows=unasked)
    res = only_result(no, "write_file")
    reading = read_as("write_file", res) if res else None
    c.ok(reading == "declined", _t("rejected: the model reads it as not approved"),
         _t("it reads as a refusal by policy: a rejection is not a deny — send REJECTED_MESSAGE")
         if reading == "refused" else why(no, _t("send REJECTED_MESSAGE (from harness_lib.approval): it tells the "
                                                 "model the action was not approved")), follows=unasked)
    completed(c, yes, _t("approved run"), follows=unasked)
    completed(c, no, _t("rejected run"), follows=unasked)
    nobody = await drive(valve, "demo", task, approver=None)
    w = calls(nobody, "write_file")
    c.ok(count(nobody, "ran", "write_file") == 0 and len(w) == 1 and len(w[0][1]) == 1
         and w[0][1][0].get("is_error") is True,
         _t("no approver (approve=None): write_file does not run, and gets an is_error tool_result")
         + (f" — {nobody.error}" if nobody.error else ""),
         why(nobody, _t("with no approver nobody can say yes: fail closed, answer it like a rejection"))
         if not count(nobody, "ran", "write_file") else
         _t("approve=None ran the tool: with no approver nobody can say yes — fail closed, treat it as a no"),
         follows=not rejection_ok and not nobody.error and not count(nobody, "ran", "write_file"))  # answered as above
    odd = await drive(valve, "demo", task, answer=lambda name, tool_input: "no")
    c.ok(not odd.error and count(odd, "ran", "write_file") == 0,
         _t("an approver that answers something other than True (here the string 'no') does not approve"),
         why(odd, _t("only `True` is a yes: `if await approve(...) is True:` — a truthy 'no' must not run the tool")),
         follows=unasked)
    c.done()


async def check_default_tier(ns: dict) -> None:
    c = Checks("check-default-tier", _t("the default tier: what a tool the policy does not list gets"))
    valve = _valve(ns)
    task = "Delete scratch/old-report.txt."
    probe = await drive(valve, "demo", task, default_tier="deny")
    if unfinished(c, probe.error, "run_tool_uses"):
        return c.done()
    expect = {"allow": ((0, 1), _t("ran without asking")), "ask": ((1, 1), _t("was asked, then ran")),
              "deny": ((0, 0), _t("was neither asked about nor run"))}
    for tier, (want, said) in expect.items():
        run = await drive(valve, "demo", task, default_tier=tier)  # the policy lists no delete_file
        got = (count(run, "asked", "delete_file"), count(run, "ran", "delete_file"))
        c.ok(got == want, _t("default_tier={tier!r}: the unlisted delete_file {said}", tier=tier, said=said),
             error_hint(run) if run.error and got == (0, 0) else
             _t("look the tier up with policy.get(block.name, default_tier): the default_tier argument, not a fixed "
                "tier"))
        if tier == "deny":
            res = only_result(run, "delete_file")
            c.ok(res.get("is_error") is True and read_as("delete_file", res) == "refused",
                 _t("default_tier='deny': delete_file got one is_error tool_result saying it is forbidden by policy"),
                 why(run, _t("an unlisted tool that falls to deny is answered exactly like a listed deny")),
                 follows=got != want)  # it was asked about or ran: not treated as deny at all (the ✗ above)
    run = await drive(valve, "demo", task, policy=dict(SPEC, delete_file="allow"), default_tier="deny")
    c.ok(count(run, "ran", "delete_file") == 1, _t("a tool the policy lists gets its own tier, not the default"),
         why(run, _t("use the policy argument the loop passes in (the checks pass their own), not the global POLICY")))
    c.done()


async def check_parallel(ns: dict) -> None:
    c = Checks("check-parallel", _t("a turn of several calls: approvals first, then one tool_result each, in order"))
    valve = _valve(ns)
    run = await drive(valve, "parallel", PARALLEL_TASK)
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    uses, results = run.rounds[0] if run.rounds else ([], None)
    c.ok(len(uses) == 4 and isinstance(results, list), _t("for a turn of 4 tool calls, run_tool_uses returned a list"),
         error_hint(run) if run.error and not run.rounds else
         _t("return a list of tool_result blocks; the loop sends it as ONE user message"))
    not_a_list = bool(run.rounds) and not isinstance(results, list)  # the ✗ above: what follows cannot hold
    results = results if isinstance(results, list) else []
    c.ok([r.get("tool_use_id") if isinstance(r, dict) else None for r in results] == [u.id for u in uses],
         _t("exactly one tool_result per tool_use, in the tool_use order"),
         why(run, _t("one result per tool_use block, in the order of the blocks, none skipped, none twice "
                     "(the text block before them gets none)")), follows=not_a_list)
    c.ok(bool(results) and all(isinstance(r, dict) and r.get("type") == "tool_result" and "content" in r
                               for r in results),
         _t("every block is a tool_result: type, tool_use_id, content (and is_error when it failed)"),
         why(run, _t("build each one with tool_result(block.id, text, is_error)")), follows=not_a_list)
    first_turn = [(k, n) for k, n, _ in run.events]
    ran = sorted(n for k, n in first_turn if k == "ran")
    c.ok(ran == ["get_time", "read_file", "write_file"],
         _t("read_file, get_time and the approved write_file ran; send_email did not"),
         why(run, _t("allow runs, ask runs after a yes, deny never runs — in a turn of several calls too")))
    kinds = [k for k, _ in first_turn]
    c.ok("asked" in kinds and "ran" in kinds and max(i for i, k in enumerate(kinds) if k == "asked")
         < min(i for i, k in enumerate(kinds) if k == "ran"),
         _t("every approval of the turn was asked before any tool of the turn ran"),
         why(run, _t("the kit's rule: first decide every call of the turn (look up tiers, ask the approver for "
                     "each 'ask'), then run the calls that may run — here a tool ran before the turn's question "
                     "was asked")))
    completed(c, run, _t("the run"), follows=not_a_list)
    two = await drive(valve, "parallel", 'Write "a" to scratch/a.txt and write "b" to scratch/b.txt.',
                      answer=lambda name, tool_input: tool_input.get("path") == "scratch/a.txt")
    asked = [i.get("path") for k, n, i in two.events if (k, n) == ("asked", "write_file")]
    ran = [i.get("path") for k, n, i in two.events if (k, n) == ("ran", "write_file")]
    c.ok(asked == ["scratch/a.txt", "scratch/b.txt"] and ran == ["scratch/a.txt"],
         _t("two write_file calls in one turn: each was asked about, and only the approved one ran"),
         error_hint(two) if two.error and not asked else
         _t("the approver was asked {n} time(s) for 2 calls: ask once per call (with its own input), and run a call "
            "only on its own yes (ran: {ran})", n=len(asked), ran=ran))
    c.done()
