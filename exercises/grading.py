"""The grader's kit for the two exercise notebooks: every 🔍 CHECK cell is one call into this module.

Read it if you like — nothing here is secret, except that exercise 2's right answers are stored as SHA-256
digests, so reading the file does not hand you the diagnosis. Do not edit it: `exercises/checks.lock` holds its
digest next to the check cells', and a grade run with a changed kit is refused ("GRADE NOT VALID").

How a check works: it drives YOUR function on the offline model (always offline, even with ANTHROPIC_API_KEY set:
the checks need the scripted scenarios), with tools that record every run and an approver that records every
question, then prints one ✓ or ✗ line per criterion, with a hint under each ✗ that follows from what it saw.

- In JupyterLab a check only prints: a ✗ does not raise, so Run All always reaches every check cell.
- Under the grader (`pytest --nbval-lax <notebook>`; exercises/conftest.py sets HARNESS_GRADING=1, which the
  notebook's kernel inherits) a check with a ✗ raises a short AssertionError, and the grade fails.

What it does NOT do: judge style, read your code, or call live Claude. A loop that never stops is cut off after a
fixed number of model requests (a request count, not a clock); a valve that hangs is cut off after 60 s.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import os
from datetime import datetime, timezone
from types import SimpleNamespace

import anthropic

from harness_lib.client import MODEL, make_client, offline_api
from harness_lib.loop import AgentResult, run_agent
from harness_lib.offline import read_tool_result
from harness_lib.tools import TOOLS, make_tool_impls

__all__ = ["Checks", "offline", "bounded"]


def grading() -> bool:
    """True under the grader (pytest sets HARNESS_GRADING=1 for the kernels it starts)."""
    return os.environ.get("HARNESS_GRADING") == "1"


class Checks:
    """Prints ✓ / ✗ per criterion (a hint under each ✗). done(): under the grader, raises while any ✗ is left."""

    def __init__(self, cell_id: str, title: str):
        self.cell_id, self.title, self.failed = cell_id, title, []
        print(f"🔍 {title}")

    def ok(self, passed, criterion: str, hint: str = "") -> bool:
        passed = bool(passed)
        print(f"  {'✓' if passed else '✗'} {criterion}" + ("" if passed else f"\n      hint: {hint}"))
        if not passed:
            self.failed.append((criterion, hint))
        return passed

    def note(self, text: str) -> None:
        print(f"    {text}")

    def done(self) -> None:
        if not self.failed:
            print("  all criteria met")
            return
        n = len(self.failed)
        if grading():
            raise AssertionError(f"{self.cell_id}: {n} criterion(s) not met\n" + "\n".join(
                f"✗ {criterion}\n    hint: {hint}" for criterion, hint in self.failed))
        print(f"  → {n} criterion(s) not met: fix your cell, run it, then run this check again")


def offline(scenario: str, max_requests: int | None = None) -> anthropic.AsyncAnthropic:
    """An offline client even when ANTHROPIC_API_KEY is set (the checks need the scripted scenarios).

    max_requests: past that many requests the offline API refuses (when this harness_lib supports it)."""
    kwargs = {"scenario": scenario}
    if max_requests is not None and "max_requests" in inspect.signature(make_client).parameters:
        kwargs["max_requests"] = max_requests
    saved = os.environ.get("HARNESS_OFFLINE")
    os.environ["HARNESS_OFFLINE"] = "1"
    try:
        return make_client(**kwargs)
    finally:
        if saved is None:
            os.environ.pop("HARNESS_OFFLINE")
        else:
            os.environ["HARNESS_OFFLINE"] = saved


def one_line(err: BaseException) -> str:
    text = getattr(err, "message", None) or str(err)
    text = (text.strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {text[:200]}"


def _supports_max_requests() -> bool:
    return "max_requests" in inspect.signature(make_client).parameters


async def bounded(scenario: str, make_run, limit: int = 50):
    """Run ``make_run(client)`` on a fresh offline client of `scenario`, stopped once the model has been asked
    more than `limit` times. -> run: .result, .problem (None when it ended by itself within the bound, else one
    line), .client, .requests (how many requests the offline API received).

    The bound is a request count, not a clock: the offline API refuses every request past `limit` with a 400
    (``make_client(max_requests=...)``), so a loop that never stops ends with an error instead of hanging."""
    run = SimpleNamespace(result=None, problem=None, client=None, requests=0)
    native = _supports_max_requests()
    run.client = client = offline(scenario, max_requests=limit if native else None)
    api = offline_api(client)
    try:
        task = asyncio.ensure_future(make_run(client))
    except Exception as err:
        run.problem = one_line(err)
        return run
    if not native:  # an older harness_lib: watch the request log instead
        class _Watched(list):
            def append(self, body):
                super().append(body)
                if len(self) > limit:
                    task.cancel()
        api.log = _Watched(api.log)
    done, _ = await asyncio.wait({task}, timeout=300)  # a safety net only (e.g. a loop that swallows the 400)
    run.requests = len(api.log)
    error = task.exception() if done and not task.cancelled() else None  # retrieved, so asyncio logs nothing
    if not done:
        task.cancel()
        run.problem = f"runaway: still running after 300 s ({run.requests} requests)"
    elif task.cancelled() or len(api.log) > limit:
        run.problem = f"runaway: still asking the model after {limit} requests"
    elif error is not None:
        run.problem = one_line(error)
    else:
        run.result = task.result()
    return run


def _clock():
    return datetime(2026, 8, 26, 10, 42, 7, tzinfo=timezone.utc)


# =============================================================================================================
# Exercise 1 — the tiered policy
# =============================================================================================================

EMAIL = {"name": "send_email", "description": "Send a short email.",
         "input_schema": {"type": "object", "additionalProperties": False, "required": ["to", "subject", "body"],
                          "properties": {"to": {"type": "string"}, "subject": {"type": "string"},
                                         "body": {"type": "string"}}}}
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
    fns = {"get_time": real["get_time"], "read_file": real["read_file"],
           "write_file": lambda i: f"wrote {len(i['content'])} characters to {i['path']}",
           "delete_file": lambda i: f"deleted {i['path']}",
           "send_email": lambda i: f"sent to {i['to']}"}

    def recorder(name, fn):
        async def impl(tool_input):
            events.append(("ran", name, tool_input))
            return fn(tool_input)
        return impl
    return {name: recorder(name, fn) for name, fn in fns.items()}


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
        run.error = f"the API refused the next request: {err.message if hasattr(err, 'message') else err}"
    except Exception as err:
        run.error = one_line(err)
    return run


def count(run, kind, name):
    return sum(1 for k, n, _ in run.events if (k, n) == (kind, name))


def calls(run, name):
    """[(tool_use, [the tool_results answering it])] for every call of `name` in the run."""
    found = []
    for uses, results in run.rounds:
        results = results if isinstance(results, list) else []
        for use in uses:
            if use.name == name:
                found.append((use, [r for r in results if isinstance(r, dict) and r.get("tool_use_id") == use.id]))
    return found


def only_result(run, name) -> dict:
    """The one tool_result of the one call of `name`, else {}."""
    found = calls(run, name)
    return found[0][1][0] if len(found) == 1 and len(found[0][1]) == 1 else {}


def read_as(name, result: dict) -> str:
    """How the offline model reads a tool_result: ok | declined | refused | not_found | error."""
    return read_tool_result(name, result.get("content"), bool(result.get("is_error")))


def error_hint(run) -> str:
    """A hint that follows from how the run broke."""
    error = run.error or ""
    if "TextBlock" in error or "'text'" in error:
        return ("your code treated the text block the model sends before its calls as a call: handle only blocks "
                "whose type is 'tool_use' (a turn is a sentence, then the tool_use blocks)")
    if "not defined yet" in error:
        return "run the cell that defines run_tool_uses first"
    if "NotImplementedError" in error:
        return "write run_tool_uses (it still raises NotImplementedError)"
    if "tool_result" in error or "tool_use" in error:
        return ("every tool_use block needs exactly one tool_result (tool_use_id=block.id), in the next user message; "
                "look at every block of content, not only the first")
    if "TimeoutError" in error:
        return "run_tool_uses did not return within 60 s: is it waiting on something?"
    return "return a list with one tool_result per tool_use block; read the error above"


def why(run, hint: str) -> str:
    """The hint for a criterion: how the run broke, if it did; else the criterion's own hint."""
    return error_hint(run) if run.error else hint


def completed(c, run, label):
    c.ok(run.error is None and run.final is not None and run.final.stop_reason == "end_turn",
         f"{label}: the API accepted every request and the model finished" + (f" — {run.error}" if run.error else ""),
         error_hint(run))


def unfinished(c, problem, name: str) -> bool:
    """When `name` is not defined yet or still raises NotImplementedError: one ✗ saying so, and True (the other
    criteria would all fail for that same reason, so they wait)."""
    problem = problem or ""
    if "not defined yet" not in problem and "NotImplementedError" not in problem:
        return False
    c.ok(False, f"{name} is written and runs",
         f"write {name}: it still raises NotImplementedError" if "NotImplementedError" in problem
         else f"run the cell that defines {name} first")
    c.note("(the other criteria are checked once it runs)")
    return True


def _valve(ns):
    return ns.get("run_tool_uses")


def check_policy(ns: dict) -> None:
    c = Checks("check-policy", "POLICY and DEFAULT_TIER")
    policy, default = ns.get("POLICY"), ns.get("DEFAULT_TIER")
    bad = sorted(repr(t) for t in policy.values() if t not in TIERS) if isinstance(policy, dict) else []
    c.ok(isinstance(policy, dict) and policy and not bad,
         "POLICY is a dict: tool name -> 'allow' | 'ask' | 'deny'",
         "POLICY is not defined yet: run the exercise cell" if policy is None else
         "fill in POLICY: one entry per tool of the colleague's list" if policy == {} else
         f"tiers are the plain lowercase strings 'allow', 'ask', 'deny' (found {', '.join(bad)})" if bad else
         "POLICY must be a dict")
    for name, tier in SPEC.items():
        got = policy.get(name) if isinstance(policy, dict) else None
        c.ok(got == tier, f"POLICY[{name!r}] == {tier!r}",
             f"{name} is not in POLICY yet" if got is None else f"it is {got!r}; the colleague's list says {tier!r}")
    c.ok(default in ("ask", "deny"), "DEFAULT_TIER fails closed: 'ask' or 'deny'",
         "with 'allow', any tool added later (delete_file is one already) would run unchecked" if default == "allow"
         else "set DEFAULT_TIER to 'ask' or 'deny' (plain lowercase strings)")
    c.done()


async def check_allow(ns: dict) -> None:
    c = Checks("check-allow", "allow: the tool runs without asking, and its result goes back as it is")
    valve = _valve(ns)
    run = await drive(valve, "demo", "Read the first line of README.md, then tell me the time.")
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    c.ok(count(run, "ran", "read_file") == 1 and count(run, "ran", "get_time") == 1,
         "read_file and get_time (allow) each ran once",
         error_hint(run) if run.error else
         why(run, "an allowed tool runs straight away: await arun_tool(tool_impls, block.name, block.input, tools)"))
    c.ok(not run.error and not any(k == "asked" for k, _, _ in run.events), "nobody was asked about an allowed tool",
         why(run, "only 'ask' tools go to the approver"))
    res = only_result(run, "get_time")
    c.ok(bool(res) and not res.get("is_error") and "2026-08-26T10:42:07" in str(res.get("content")),
         "the tool's output went back as its tool_result content",
         why(run, "pass on the text arun_tool returned: tool_result(block.id, text, is_error)"))
    completed(c, run, "the run")
    missing = await drive(valve, "demo", "Read the first line of missing.md.")
    found = calls(missing, "read_file")
    answered = [r[0] for _, r in found if len(r) == 1]
    c.ok(found and len(answered) == len(found) and all(r.get("is_error") is True for r in answered),
         "a tool that fails (read_file of a missing file) is answered with is_error: true",
         why(missing, "keep the tool's own failure: text, is_error = await arun_tool(...) and pass is_error on to "
             "tool_result; dropped, a missing file reaches the model as a success"))
    custom = await drive(valve, "demo", "Email bob@example.com that the report is ready.",
                         policy=dict(SPEC, send_email="allow"))
    c.ok(count(custom, "ran", "send_email") == 1,
         "an allowed tool the caller offers, not in the lesson's TOOLS (send_email), runs",
         error_hint(custom) if custom.error else
         "pass the tools argument to arun_tool (arun_tool(tool_impls, name, input, tools)): it checks the input "
         "against the schemas the caller gave, and the lesson's TOOLS has no send_email")
    c.done()


async def check_deny(ns: dict) -> None:
    c = Checks("check-deny", "deny: the tool never runs, nobody is asked, and the model is told why")
    valve = _valve(ns)
    run = await drive(valve, "demo", "Read the first line of README.md, then email bob@example.com that the report is ready.")
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    c.ok(not run.error and count(run, "ran", "send_email") == 0, "send_email (deny) never ran",
         why(run, "look the tier up BEFORE running anything; a deny never reaches arun_tool"))
    c.ok(not run.error and count(run, "asked", "send_email") == 0, "nobody was asked about send_email",
         why(run, "deny is not ask: a forbidden tool is refused without bothering the person"))
    email = calls(run, "send_email")
    c.ok(len(email) == 1 and len(email[0][1]) == 1, "the send_email call got exactly one tool_result",
         error_hint(run) if run.error and not email else
         "a call you do not run still needs its tool_result (tool_use_id=block.id), or it is left dangling"
         if email and not email[0][1] else "one tool_result per call, not two")
    res = only_result(run, "send_email")
    c.ok(res.get("is_error") is True, "... with is_error: true",
         why(run, "the call did not succeed: tool_result(..., is_error=True)"))
    reading = read_as("send_email", res) if res else None
    c.ok(reading == "refused", "... saying the tool is forbidden by policy (so the model does not try again)",
         "it reads as a person's no; the deny text must say it is forbidden by policy (the word 'policy' or "
         "'forbidden'), not REJECTED_MESSAGE" if reading == "declined" else
         why(run, "say why: e.g. \"send_email is forbidden by policy; it was not run\" (the words 'forbidden' or "
             "'policy')"))
    completed(c, run, "the run")
    typo = await drive(valve, "demo", "Email bob@example.com that the report is ready.",
                       policy=dict(SPEC, send_email="Deny"))
    res = only_result(typo, "send_email")
    c.ok(count(typo, "ran", "send_email") == 0 and count(typo, "asked", "send_email") == 0
         and res.get("is_error") is True and read_as("send_email", res) == "refused",
         "a tier that is none of the three (a typo: 'Deny') is treated as deny",
         "the typo ran the tool: fail closed — anything that is not exactly 'allow' or 'ask' is a deny"
         if count(typo, "ran", "send_email") else
         "the typo went to the approver: fail closed — anything that is not exactly 'allow' or 'ask' is a deny"
         if count(typo, "asked", "send_email") else
         error_hint(typo) if typo.error else "answer it exactly like a deny: one is_error tool_result, forbidden by policy")
    c.done()


async def check_ask(ns: dict) -> None:
    c = Checks("check-ask", "ask: the approval gate decides, before the tool runs")
    valve = _valve(ns)
    task = 'Write "draft" to scratch/policy-check.txt, then tell me the time.'
    yes = await drive(valve, "demo", task, answer=True)
    if unfinished(c, yes.error, "run_tool_uses"):
        return c.done()
    no = await drive(valve, "demo", task, answer=False)
    asked = [(n, i) for k, n, i in yes.events if k == "asked"]
    c.ok(asked == [("write_file", {"path": "scratch/policy-check.txt", "content": "draft"})],
         "write_file (ask) was put to the approver once, with its name and input",
         error_hint(yes) if yes.error and not asked else
         "for an 'ask' tool: await approve(block.name, block.input) — the gate you already have")
    kinds = [(k, n) for k, n, _ in yes.events]
    c.ok(("ran", "write_file") in kinds and ("asked", "write_file") in kinds
         and kinds.index(("asked", "write_file")) < kinds.index(("ran", "write_file")),
         "approved: write_file ran, and only after the yes",
         why(yes, "it never ran after a yes: run it when approve(...) returns True") if ("ran", "write_file") not in kinds else
         "ask first, then run: a question asked after the tool ran comes too late, the file is already written")
    c.ok(not no.error and count(no, "ran", "write_file") == 0, "rejected: write_file never ran",
         why(no, "on a no, skip arun_tool"))
    w = calls(no, "write_file")
    c.ok(len(w) == 1 and len(w[0][1]) == 1 and w[0][1][0].get("is_error") is True,
         "rejected: the call still got exactly one tool_result, with is_error: true",
         why(no, "answer it: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — a rejection is a result, "
             "not silence"))
    res = only_result(no, "write_file")
    reading = read_as("write_file", res) if res else None
    c.ok(reading == "declined", "rejected: the model reads it as the person's no",
         "it reads as a refusal by policy: a rejection is not a deny — send REJECTED_MESSAGE"
         if reading == "refused" else why(no, "send REJECTED_MESSAGE (from harness_lib.approval): it tells the model "
                                              "a person declined"))
    completed(c, yes, "approved run")
    completed(c, no, "rejected run")
    nobody = await drive(valve, "demo", task, approver=None)
    w = calls(nobody, "write_file")
    c.ok(count(nobody, "ran", "write_file") == 0 and len(w) == 1 and len(w[0][1]) == 1
         and w[0][1][0].get("is_error") is True,
         "no approver (approve=None): write_file does not run, and gets an is_error tool_result",
         why(nobody, "with no approver nobody can say yes: fail closed, answer it like a rejection")
         if not count(nobody, "ran", "write_file") else
         "approve=None ran the tool: with no approver nobody can say yes — fail closed, treat it as a no")
    odd = await drive(valve, "demo", task, answer=lambda name, tool_input: "no")
    c.ok(not odd.error and count(odd, "ran", "write_file") == 0,
         "an approver that answers something other than True (here the string 'no') does not approve",
         why(odd, "only `True` is a yes: `if await approve(...) is True:` — a truthy 'no' must not run the tool"))
    c.done()


async def check_default_tier(ns: dict) -> None:
    c = Checks("check-default-tier", "the default tier: what a tool the policy does not list gets")
    valve = _valve(ns)
    task = "Delete scratch/old-report.txt."
    probe = await drive(valve, "demo", task, default_tier="deny")
    if unfinished(c, probe.error, "run_tool_uses"):
        return c.done()
    expect = {"allow": ((0, 1), "ran without asking"), "ask": ((1, 1), "was asked, then ran"),
              "deny": ((0, 0), "was neither asked about nor run")}
    for tier, (want, said) in expect.items():
        run = await drive(valve, "demo", task, default_tier=tier)  # the policy lists no delete_file
        got = (count(run, "asked", "delete_file"), count(run, "ran", "delete_file"))
        c.ok(got == want, f"default_tier={tier!r}: the unlisted delete_file {said}",
             error_hint(run) if run.error and got == (0, 0) else
             "look the tier up with policy.get(block.name, default_tier): the default_tier argument, not a fixed tier")
        if tier == "deny":
            res = only_result(run, "delete_file")
            c.ok(res.get("is_error") is True and read_as("delete_file", res) == "refused",
                 "default_tier='deny': delete_file got one is_error tool_result saying it is forbidden by policy",
                 why(run, "an unlisted tool that falls to deny is answered exactly like a listed deny"))
    run = await drive(valve, "demo", task, policy=dict(SPEC, delete_file="allow"), default_tier="deny")
    c.ok(count(run, "ran", "delete_file") == 1, "a tool the policy lists gets its own tier, not the default",
         why(run, "use the policy argument the loop passes in (the checks pass their own), not the global POLICY"))
    c.done()


async def check_parallel(ns: dict) -> None:
    c = Checks("check-parallel", "a turn of several calls: approvals first, then one tool_result each, in order")
    valve = _valve(ns)
    run = await drive(valve, "parallel", PARALLEL_TASK)
    if unfinished(c, run.error, "run_tool_uses"):
        return c.done()
    uses, results = run.rounds[0] if run.rounds else ([], None)
    c.ok(len(uses) == 4 and isinstance(results, list), "for a turn of 4 tool calls, run_tool_uses returned a list",
         error_hint(run) if run.error and not run.rounds else
         "return a list of tool_result blocks; the loop sends it as ONE user message")
    results = results if isinstance(results, list) else []
    c.ok([r.get("tool_use_id") if isinstance(r, dict) else None for r in results] == [u.id for u in uses],
         "exactly one tool_result per tool_use, in the tool_use order",
         why(run, "one result per tool_use block, in the order of the blocks, none skipped, none twice "
             "(the text block before them gets none)"))
    c.ok(bool(results) and all(isinstance(r, dict) and r.get("type") == "tool_result" and "content" in r
                               for r in results),
         "every block is a tool_result: type, tool_use_id, content (and is_error when it failed)",
         why(run, "build each one with tool_result(block.id, text, is_error)"))
    first_turn = [(k, n) for k, n, _ in run.events]
    ran = sorted(n for k, n in first_turn if k == "ran")
    c.ok(ran == ["get_time", "read_file", "write_file"],
         "read_file, get_time and the approved write_file ran; send_email did not",
         why(run, "allow runs, ask runs after a yes, deny never runs — in a turn of several calls too"))
    kinds = [k for k, _ in first_turn]
    c.ok("asked" in kinds and "ran" in kinds and max(i for i, k in enumerate(kinds) if k == "asked")
         < min(i for i, k in enumerate(kinds) if k == "ran"),
         "every approval of the turn was asked before any tool of the turn ran",
         why(run, "the kit's rule: first decide every call of the turn (look up tiers, ask the approver for each "
             "'ask'), then run the calls that may run — here a tool ran before the turn's question was asked"))
    completed(c, run, "the run")
    two = await drive(valve, "parallel", 'Write "a" to scratch/a.txt and write "b" to scratch/b.txt.',
                      answer=lambda name, tool_input: tool_input.get("path") == "scratch/a.txt")
    asked = [i.get("path") for k, n, i in two.events if (k, n) == ("asked", "write_file")]
    ran = [i.get("path") for k, n, i in two.events if (k, n) == ("ran", "write_file")]
    c.ok(asked == ["scratch/a.txt", "scratch/b.txt"] and ran == ["scratch/a.txt"],
         "two write_file calls in one turn: each was asked about, and only the approved one ran",
         error_hint(two) if two.error and not asked else
         f"the approver was asked {len(asked)} time(s) for 2 calls: ask once per call (with its own input), and "
         f"run a call only on its own yes (ran: {ran})")
    c.done()


# =============================================================================================================
# Exercise 2 — the missing guards
# =============================================================================================================

TOOLS_2 = [dict(t, description=t["description"] + " (grader's copy)") for t in TOOLS
           if t["name"] in ("read_file", "get_time")]  # the checks' own tool list: the loop must offer exactly it
TASK_2 = "Read the first line of README.md, then tell me what time it is"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


# The diagnosis, stored as digests of the vocabulary constants' text, so this file does not print the answer.
# A guard is the first 8 hex digits of _digest(text of the guard); a right pair the first 16 of
# _digest(guard's text, runaway's text). Maintainers who reword the 🔒 vocabulary cell recompute them.
_KNOWN = {"3f43e432", "608acd1b", "891371cd", "8e2ec7c0", "9e413877", "9f4a9fa5", "bb3b0595", "e3666f86",
          "ea6469ef", "fda9dbca"}  # every constant of the vocabulary cell
_RUNAWAY_GUARDS = {"608acd1b", "9f4a9fa5", "bb3b0595", "ea6469ef"}
_RIGHT_PAIRS = {"19e2edf48a2cc8fd", "2ac47958462382ae", "5dba24b7d1ba1486", "8b277df5732c232f", "f9faccae1de217ab"}
_DECOY_GUARDS = {"9e413877"}
_DECOY_RUNAWAYS = {"891371cd"}


def counting_impls(calls_made: list) -> dict:
    """get_time (a fixed clock) and read_file, each run recorded in `calls_made`."""
    real = make_tool_impls(clock=_clock)

    def recorder(name):
        def impl(tool_input):
            calls_made.append((name, tool_input))
            return real[name](tool_input)
        return impl
    return {name: recorder(name) for name in ("get_time", "read_file")}


async def capped(fn, scenario, task=TASK_2, limit=50, **kwargs):
    """YOUR run_capped on the offline model, bounded by request count: what ran, how often, what came back."""
    run = SimpleNamespace(calls=[], result=None, problem=None, requests=0, offered=[])
    if not callable(fn):
        run.problem = "run_capped is not defined yet: run its cell"
        return run
    bound = await bounded(scenario, lambda client: fn(client, task, TOOLS_2, counting_impls(run.calls), **kwargs),
                          limit=limit)
    run.result, run.problem, run.requests = bound.result, bound.problem, bound.requests
    run.offered = [body.get("tools") for body in offline_api(bound.client).log]
    if run.problem is None and not isinstance(run.result, AgentResult):
        run.problem = f"it returned {type(run.result).__name__}, not an AgentResult"
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
    if "not defined" in problem:
        return "run the cell that defines MAX_TURNS and run_capped first"
    if "NotImplementedError" in problem:
        return "write run_capped (it still raises NotImplementedError)"
    if "runaway" in problem:
        return "the loop turns as long as the model asks for tools: add the cap, `if turns >= max_turns:` at the top"
    return "the run ended with an error (shown above): it must end with an AgentResult" if problem else \
        "it must return an AgentResult"


def check_diagnosis(ns: dict) -> None:
    c = Checks("check-diagnosis", "the diagnosis: what the bare loop lacks, and how each absence runs away")
    d = ns.get("DIAGNOSIS")
    vocab = {name: value for name, value in ns.items() if isinstance(value, str) and name.isupper()
             and _digest(value)[:8] in _KNOWN}
    known = set(vocab.values())
    c.ok(isinstance(d, dict) and d and all(k in known for k in d) and all(v in known for v in d.values()),
         "DIAGNOSIS is a non-empty dict {missing guard: runaway} built from the constants of the 🔒 cell",
         "DIAGNOSIS is not defined yet: run the exercise cell" if d is None else
         "DIAGNOSIS must be a dict" if not isinstance(d, dict) else
         "fill in DIAGNOSIS: at least one entry" if not d else
         "use the constants' names (e.g. NO_TURN_CAP), not your own text: free text cannot be checked")
    if not (isinstance(d, dict) and d):
        c.note("(the other criteria are checked once DIAGNOSIS has entries)")
        c.done()
        return
    keys = [_digest(k)[:8] for k in d if isinstance(k, str)]
    named = sum(1 for k in keys if k in _RUNAWAY_GUARDS)
    c.ok(named == len(_RUNAWAY_GUARDS),
         f"names every missing guard that lets this loop run away ({named} of {len(_RUNAWAY_GUARDS)} named)",
         "read the while line (who decides when it ends?), then the two runaway runs: what grows without end, "
         "and what goes unnoticed? Each has a guard whose absence allows it")
    runaway_keys = [(k, v) for k, v in d.items() if isinstance(k, str) and _digest(k)[:8] in _RUNAWAY_GUARDS]
    right = sum(1 for k, v in runaway_keys if isinstance(v, str) and _digest(k, v)[:16] in _RIGHT_PAIRS)
    if runaway_keys:
        c.ok(right == len(runaway_keys),
             f"each of those guards is mapped to the runaway its absence allows ({right} of {len(runaway_keys)} right)",
             "for each guard ask: without it, what happens when the model keeps asking for tools? "
             "Pick the runaway constant that describes exactly that")
    c.ok(not any(_digest(k)[:8] in _DECOY_GUARDS for k in d if isinstance(k, str)),
         "no key is a guard whose absence does not make this loop run away",
         "one of your keys names something the bare loop lacks, but its absence never makes a loop run away "
         "(hint: what does the SDK already do by itself?)")
    c.ok(not any(_digest(v)[:8] in _DECOY_RUNAWAYS for v in d.values() if isinstance(v, str)),
         "no value is a failure this loop does not have",
         "one of your values describes something that does not happen in this loop: "
         "look at what it sends back after every tool_use")
    c.done()


async def check_turn_cap(ns: dict) -> None:
    c = Checks("check-turn-cap", "the turn cap: a hard stop, asked at the top of the loop body")
    fn = ns.get("run_capped")
    r = await capped(fn, "never-ends", max_turns=3)
    if unfinished(c, r.problem, "run_capped"):
        cap = ns.get("MAX_TURNS")
        c.ok(isinstance(cap, int) and not isinstance(cap, bool) and 1 <= cap <= 30,
             "MAX_TURNS is a whole number from 1 to 30" + (f" (it is {cap!r})" if not isinstance(cap, int) else ""),
             "set MAX_TURNS to your cap, e.g. 8 (the lessons' value)")
        return c.done()
    c.ok(r.problem is None, "a model that never ends its turn is stopped (never-ends, max_turns=3)"
         + (f" — {r.problem}" if r.problem else ""), _problem_hint(r))
    n = len(r.calls)
    c.ok(n == 3, f"exactly 3 tool turns ran (ran: {n})",
         "one turn short: the cap fired with 2 turns done — is `turns` counted before the check? Ask first, "
         "then count the turn" if n == 2 else
         "more turns than the cap: ask `turns >= max_turns` before every turn" if n > 3 else
         _problem_hint(r) if r.problem else "fewer turns than the cap: the run ended early")
    c.ok(r.requests == 4, f"exactly 4 model requests: the first, and one after each turn (sent: {r.requests})",
         "stop before running a 4th turn, so no 5th request is sent" if r.requests > 4 else
         "a request after each turn that ran, plus the first" if r.requests else _problem_hint(r))
    res = r.result if isinstance(r.result, AgentResult) else None
    got = (res.stopped_by, res.turns, res.requests) if res else None
    c.ok(got == ("max_turns", 3, 4), f"it returns AgentResult with stopped_by='max_turns', turns=3, requests=4"
         + (f" (got {got})" if got and got != ("max_turns", 3, 4) else ""),
         _problem_hint(r) if r.problem else
         "return AgentResult(text, 'max_turns', turns, requests, 0, messages) when the cap fires; "
         "turns counts the turns that ran, requests every request sent")
    c.ok(res is not None and isinstance(res.text, str) and res.text.strip() != "",
         "its text says the harness stopped the run (not empty)",
         _problem_hint(r) if r.problem else
         "give the caller a sentence, e.g. f\"Stopped by the harness: turn cap of {max_turns} reached.\"")
    c.ok(res is not None and await resend(res.messages) is None,
         "the history it returns can be continued (no tool_use left without its tool_result)",
         _problem_hint(r) if res is None else
         "when the cap fires, return before appending the response whose calls you will not run")
    offered_ok = bool(r.offered) and all(t == TOOLS_2 for t in r.offered)
    c.ok(offered_ok, "every request offered exactly the tools the caller passed",
         _problem_hint(r) if not r.offered else
         "pass the tools argument to messages.create, not a global list (the checks pass their own tools)")
    r0 = await capped(fn, "never-ends", max_turns=0)
    c.ok(r0.problem is None and len(r0.calls) == 0 and r0.requests == 1,
         f"max_turns=0: not a single turn runs (tool calls: {len(r0.calls)}, requests: {r0.requests})",
         f"with max_turns=0, {len(r0.calls)} turn(s) ran: the cap must be asked before the first turn runs, "
         "first thing in the loop body" if r0.calls else _problem_hint(r0))
    par = await capped(fn, "parallel", max_turns=1)
    pres = par.result if isinstance(par.result, AgentResult) else None
    c.ok(pres is not None and (pres.stopped_by, pres.turns, pres.requests) == ("end_turn", 1, 2),
         "a turn of 2 parallel calls counts as ONE turn (parallel, max_turns=1: turns=1, the model's answer)"
         + (f" (got stopped_by={pres.stopped_by!r}, turns={pres.turns})"
            if pres and (pres.stopped_by, pres.turns, pres.requests) != ("end_turn", 1, 2) else ""),
         _problem_hint(par) if pres is None else
         "turns counts tool-calling turns (model responses), not tool calls: add 1 per response, however many "
         "tool_use blocks it holds" if pres.turns != 1 else
         "after its one turn the model ended its turn: return its answer (stopped_by='end_turn'); the cap fires only "
         "when the model asks for one more turn" if pres.stopped_by != "end_turn" else
         "count every request you send: the first, and one after the turn")
    cap = ns.get("MAX_TURNS")
    ok_cap = isinstance(cap, int) and not isinstance(cap, bool) and 1 <= cap <= 30
    c.ok(ok_cap, "MAX_TURNS is a whole number from 1 to 30" + ("" if ok_cap else f" (it is {cap!r})"),
         "set MAX_TURNS to your cap, e.g. 8 (the lessons' value)")
    if ok_cap:
        rd = await capped(fn, "never-ends")
        c.ok(rd.problem is None and len(rd.calls) == cap,
             f"run_capped's default cap is MAX_TURNS (without max_turns, {len(rd.calls)} turns ran; MAX_TURNS={cap})",
             "keep `max_turns=MAX_TURNS` as the default in the def line" if rd.problem is None else _problem_hint(rd))
    c.done()


async def check_model_answer(ns: dict) -> None:
    c = Checks("check-model-answer", "the cap leaves a model that ends in time alone")
    fn = ns.get("run_capped")
    reference = await run_agent(offline("demo"), TASK_2, TOOLS_2, counting_impls([]))
    r = await capped(fn, "demo", max_turns=2)  # the task needs exactly 2 tool turns, then the model ends its turn
    if unfinished(c, r.problem, "run_capped"):
        return c.done()
    c.ok(r.problem is None and len(r.calls) == 2 and r.requests == 3,
         f"the demo task with max_turns=2: its 2 tool turns ran, in 3 requests (ran: {len(r.calls)}, "
         f"requests: {r.requests})" + (f" — {r.problem}" if r.problem else ""),
         _problem_hint(r) if r.problem else
         "a cap of 2 must allow 2 turns: compare before counting the turn" if len(r.calls) < 2 else
         "the task needs 2 turns and the model then ends its turn: send one request per turn, plus the first")
    res = r.result if isinstance(r.result, AgentResult) else None
    c.ok(res is not None and res.stopped_by == "end_turn" and res.text == reference.text,
         "it returns the model's own answer (stopped_by='end_turn'), not a cap message",
         "the model ended its turn within the cap, so the loop must end by its while condition and return "
         "final_text(response)" + (f" — got stopped_by={res.stopped_by!r}" if res else "")
         if res is not None else _problem_hint(r))
    c.ok(res is not None and (res.turns, res.requests) == (2, 3),
         "it reports turns=2, requests=3"
         + (f" (got turns={res.turns}, requests={res.requests})" if res and (res.turns, res.requests) != (2, 3) else ""),
         "count a turn when it runs and every request you send" if res is not None else _problem_hint(r))
    c.ok(res is not None and await resend(res.messages) is None,
         "the history it returns can be continued",
         "return the messages list the loop built" if res is not None else _problem_hint(r))
    ref = await capped(fn, "refusal", max_turns=3)
    rres = ref.result if isinstance(ref.result, AgentResult) else None
    c.ok(rres is not None and (rres.stopped_by, rres.turns, rres.requests) == ("refusal", 0, 1),
         "a reply that is neither tool_use nor end_turn (a refusal) ends the run: stopped_by='refusal', 1 request"
         + (f" — {ref.problem}" if ref.problem else ""),
         "loop only `while response.stop_reason == \"tool_use\"`: any other stop reason (refusal, max_tokens, …) "
         "ends the loop and is returned as stopped_by; `!= \"end_turn\"` runs an empty tool step"
         if ref.problem is None or "NotImplementedError" not in ref.problem else _problem_hint(ref))
    c.done()

