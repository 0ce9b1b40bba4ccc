"""The grader's kit for the two exercise notebooks: every 🔍 CHECK cell is one call into this module.

Read it if you like — nothing here is secret, except that exercise 2's right answers are stored as SHA-256
digests, so reading the file does not hand you the diagnosis. Do not edit it: `exercises/checks.lock` holds its
digest next to the check cells', and a grade run with a changed kit is refused ("GRADE NOT VALID").

How a check works: it drives YOUR function on the offline model (always offline, even with ANTHROPIC_API_KEY set:
the checks need the scripted scenarios), with tools that record every run and an approver that records every
question, then prints one ✓ or ✗ line per criterion, with a hint under each ✗ that follows from what it saw. The
first ✗ of a check names the first cause the check can see; a later ✗ that fails only because of it says "follows
from the ✗ above: fix that first" rather than guess another cause, so no hint points at a line that is right.

- In JupyterLab a check only prints: a ✗ does not raise, so Run All always reaches every check cell (the ✏️ cells
  are tagged `raises-exception`: an error in the learner's own cell does not stop Run All either, and a check
  whose function is missing because its cell raised says so: "your cell raised SyntaxError: …").
- Under the grader (`pytest --nbval-lax <notebook>`; exercises/conftest.py sets HARNESS_GRADING=1, which the
  notebook's kernel inherits) a check with a ✗ raises a short AssertionError, and the grade fails.

What it does NOT do: judge style, read your code, or call live Claude. A loop that never stops is cut off after a
fixed number of model requests (a request count, not a clock); a valve that hangs is cut off after 60 s.

Language: the checks of exercises 1 and 2 print in the notebook's language (harness_lib.lang, which the first code
cell sets): English, or Spanish for the twins in exercises/es/ -- see _t() and SPANISH. The words a check *reads*
(an exception's text, the API's errors) and exercises 3 and 4 stay English.
"""

from __future__ import annotations

import asyncio
import hashlib
import inspect
import linecache
import os
import re
import sys
from datetime import datetime, timezone
from types import SimpleNamespace

import anthropic

from harness_lib import lang
from harness_lib.client import MODEL, make_client, offline_api
from harness_lib.loop import AgentResult, run_agent
from harness_lib.offline import read_tool_result
from harness_lib.tools import TOOLS, make_tool_impls

__all__ = ["Checks", "offline", "bounded"]


def _t(text: str, **values) -> str:
    """`text` -- a title, criterion, hint or note, written here in English -- in the notebook's language.

    The language is harness_lib.lang.current(): the exercise's first code cell sets it (lang.use("en") in
    exercises/, lang.use("es") in exercises/es/). Spanish is looked up in SPANISH at the end of this file, keyed by
    the English text, so the English stays where the check is; a text with no entry stays English. `values` fill
    its {fields} (str.format), the same in both languages."""
    if lang.current() == "es":
        text = SPANISH.get(text, text)
    return text.format(**values) if values else text


def grading() -> bool:
    """True under the grader (pytest sets HARNESS_GRADING=1 for the kernels it starts)."""
    return os.environ.get("HARNESS_GRADING") == "1"


class Cause(str):
    """A hint that names a cause, with a key: the same key met again in one check is the same cause."""

    def __new__(cls, text: str, key=None):
        hint = super().__new__(cls, text)
        hint.key = text if key is None else key
        return hint


class Checks:
    """Prints ✓ / ✗ per criterion (a hint under each ✗). done(): under the grader, raises while any ✗ is left.

    The first ✗ names the first cause the check can see. A later ✗ whose hint names a cause already named (the
    same text, or a Cause with the same key), or that the check marks `follows=True` (it fails only because of an
    earlier ✗), says "follows from the ✗ above: fix that first" instead of guessing another cause."""

    def __init__(self, cell_id: str, title: str):
        self.cell_id, self.title, self.failed, self.causes = cell_id, title, [], set()
        print(f"🔍 {title}")

    def ok(self, passed, criterion: str, hint: str = "", follows: bool = False) -> bool:
        passed = bool(passed)
        if not passed:
            key = getattr(hint, "key", hint)
            if self.failed and (follows or key in self.causes):
                hint = _t("follows from the ✗ above: fix that first")
            else:
                self.causes.add(key)
        print(f"  {'✓' if passed else '✗'} {criterion}" + ("" if passed else f"\n      {_t('hint')}: {hint}"))
        if not passed:
            self.failed.append((criterion, hint))
        return passed

    def note(self, text: str) -> None:
        print(f"    {text}")

    def done(self) -> None:
        if not self.failed:
            print("  " + _t("all criteria met"))
            return
        n = len(self.failed)
        if grading():
            # "hint:" stays English in both languages: exercises/conftest.py reads it
            raise AssertionError(_t("{cell_id}: {n} criterion(s) not met", cell_id=self.cell_id, n=n) + "\n"
                                 + "\n".join(f"✗ {criterion}\n    hint: {hint}" for criterion, hint in self.failed))
        print("  → " + _t("{n} criterion(s) not met: fix your cell, run it, then run this check again", n=n))


_RAISED: dict[str, str] = {}  # name -> the error its defining cell raised, as cell_error() last found it


def cell_error(name: str) -> str | None:
    """'SyntaxError: … (line n)' when the cell that defines `name` (a cell whose source has `def name(` or
    `name =`) raised, else None. IPython keeps the last error in sys.last_value and each cell's source in
    linecache, under the file name the error (or its traceback) names. Under the grader a failing check raises
    too and becomes the last error, so what was found is remembered for the checks that come after it."""
    err = getattr(sys, "last_value", None)
    if not isinstance(err, BaseException):
        return _RAISED.get(name)
    files = [err.filename] if isinstance(err, SyntaxError) and err.filename else []
    tb = err.__traceback__
    while tb is not None:
        files.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    defines = re.compile(rf"^(?:async[ \t]+)?def[ \t]+{re.escape(name)}[ \t]*\(|^{re.escape(name)}[ \t]*=", re.M)
    if not any(defines.search("".join(linecache.getlines(f))) for f in files if f):
        return _RAISED.get(name)
    if isinstance(err, SyntaxError):
        found = f"{type(err).__name__}: {err.msg}" + (_t(" (line {n})", n=err.lineno) if err.lineno else "")
    else:
        found = one_line(err)
    _RAISED[name] = found
    return found


def not_defined_hint(name: str, what: str = "") -> str:
    """The hint for `name` not being defined: the error its cell raised, if that is why; else run the cell."""
    raised = cell_error(name)
    if raised:
        return _t("your cell raised {error}, so {name} is not defined: fix it and run the cell again",
                  error=raised, name=name)
    return what or _t("run the cell that defines {name} first", name=name)


def raised_name_hint(problem: str, name: str) -> str | None:
    """The hint for a run that stopped because something is not defined: `name` itself ("... is not defined yet"),
    or a name it uses whose cell raised (NameError: name 'tokens_of' is not defined, after that cell's SyntaxError);
    None when neither is the case."""
    if "not defined yet" in problem:
        return not_defined_hint(name)
    used = re.search(r"NameError: name '(\w+)' is not defined", problem)
    return not_defined_hint(used.group(1)) if used and cell_error(used.group(1)) else None


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
    line), .client, .requests (how many requests the offline API received), .runaway (True when the bound or the
    safety net stopped it).

    The bound is a request count, not a clock: the offline API refuses every request past `limit` with a 400
    (``make_client(max_requests=...)``), so a loop that never stops ends with an error instead of hanging."""
    run = SimpleNamespace(result=None, problem=None, client=None, requests=0, runaway=False)
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
        run.runaway, run.problem = True, _t("runaway: still running after 300 s ({n} requests)", n=run.requests)
    elif task.cancelled() or len(api.log) > limit:
        run.runaway, run.problem = True, _t("runaway: still asking the model after {limit} requests", limit=limit)
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
        run.error = _t("the API refused the next request: {message}",
                       message=err.message if hasattr(err, "message") else err)
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
    """A hint that follows from how the run broke (the same hint met again in one check is reported once: later
    criteria say it follows from the ✗ above)."""
    return _error_text(run.error or "")


def _error_text(error: str) -> str:
    if "TextBlock" in error or "'text'" in error:
        return _t("your code treated the text block the model sends before its calls as a call: handle only "
                  "blocks whose type is 'tool_use' (a turn is a sentence, then the tool_use blocks)")
    if "not defined" in error and raised_name_hint(error, "run_tool_uses"):
        return raised_name_hint(error, "run_tool_uses")
    if "NotImplementedError" in error:
        return _t("write run_tool_uses (it still raises NotImplementedError)")
    if "NoneType" in error and "call" in error:
        return _t("with no approver (approve=None) nobody can say yes: check `approve is None` before calling it "
                  "(the run stopped with {error})", error=error)
    if "approve()" in error and "argument" in error:
        return _t("call the approver with the call's name and input: await approve(block.name, block.input) (the "
                  "run stopped with {error})", error=error)
    if error.startswith("KeyError"):
        return _t("a tool the policy does not list raised {error}: look its tier up with policy.get(block.name, "
                  "default_tier)", error=error)
    if "tool_result" in error or "tool_use" in error or "non-empty content" in error:
        return _t("every tool_use block needs exactly one tool_result (tool_use_id=block.id), in the next user "
                  "message; look at every block of content, not only the first")
    if "TimeoutError" in error:
        return _t("run_tool_uses did not return within 60 s: is it waiting on something?")
    return _t("the run stopped with {error}: run_tool_uses must return a list with one tool_result per tool_use "
              "block", error=error)


def why(run, hint: str) -> str:
    """The hint for a criterion: how the run broke, if it did; else the criterion's own hint."""
    return error_hint(run) if run.error else hint


def completed(c, run, label, follows=False):
    c.ok(run.error is None and run.final is not None and run.final.stop_reason == "end_turn",
         _t("{label}: the API accepted every request and the model finished", label=label)
         + (f" — {run.error}" if run.error else ""),
         error_hint(run), follows=follows)


def unfinished(c, problem, name: str) -> bool:
    """When `name` is not defined yet or still raises NotImplementedError: one ✗ saying so, and True (the other
    criteria would all fail for that same reason, so they wait)."""
    problem = problem or ""
    if "not defined yet" not in problem and "NotImplementedError" not in problem:
        return False
    c.ok(False, _t("{name} is written and runs", name=name),
         _t("write {name}: it still raises NotImplementedError", name=name) if "NotImplementedError" in problem
         else not_defined_hint(name))
    c.note(_t("(the other criteria are checked once it runs)"))
    return True


def _valve(ns):
    return ns.get("run_tool_uses")


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


# =============================================================================================================
# Exercise 3 — the token budget and no-progress detection
# (this section and exercise 4's were added after the ones above, and use only their shared helpers)
# =============================================================================================================

import shutil  # noqa: E402  (this section's own imports)
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

from anthropic.types import TextBlock, ToolUseBlock, Usage  # noqa: E402

from harness_lib import valves as _kit_valves  # noqa: E402
from harness_lib.loop import final_text, tool_result  # noqa: E402
from harness_lib.tools import DEFAULT_ROOT, run_tool  # noqa: E402

TOOLS_3 = [dict(t, description=t["description"] + " (grader's copy)") for t in TOOLS
           if t["name"] in ("read_file", "get_time")]  # the checks' own tools: the loop must offer exactly them
TASK_3 = "Read the first line of README.md, then tell me what time it is"
REVISIT_TASK = "Read the first line of README.md, then tell me the time, then read the first line of README.md again"
_MANUAL = ("Usage notes for the file tools, long on purpose: a real tool catalogue with its examples easily runs "
           "to thousands of tokens, which is why it is the first thing a harness puts in the prompt cache. ")


def cached_tools() -> list[dict]:
    """TOOLS_3 with a long manual in read_file's description (over the 1,024 tokens live caching needs) and a
    cache_control breakpoint on the last tool: every request after the first reads the tools from the prompt
    cache, and input_tokens counts only what comes after them."""
    tools = [dict(t) for t in TOOLS_3]
    tools[0]["description"] += " " + _MANUAL * 30
    tools[-1] = dict(tools[-1], cache_control={"type": "ephemeral"})
    return tools


def _all_four(usage) -> int:
    return sum(getattr(usage, name, None) or 0 for name in
               ("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"))


async def usages_of(scenario: str, tools: list, task: str = TASK_3, requests: int = 3) -> list:
    """The usage of each response of a short conversation on the offline model (the grader's own loop)."""
    client, messages, found = offline(scenario), [{"role": "user", "content": task}], []
    for _ in range(requests):
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        found.append(response.usage)
        uses = [b for b in response.content if b.type == "tool_use"]
        if not uses:
            break
        messages += [{"role": "assistant", "content": response.content},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": b.id, "content": "ok"}
                                                  for b in uses]}]
    return found


async def reference_run(scenario: str, task: str = TASK_3, tools: list | None = None, **limits):
    """The kit's own run_agent on the same scenario: what a right loop does -> (result, running token totals)."""
    totals = []

    def on_event(event):
        if event["event"] == "request":
            totals.append((totals[-1] if totals else 0) + _all_four(SimpleNamespace(**event["usage"])))
    result = await run_agent(offline(scenario), task, tools or TOOLS_3, counting_impls([]), on_event=on_event,
                             **limits)
    return result, totals


def _call(fn, *args):
    """(value, None), or (None, one line naming the exception fn raised)."""
    try:
        return fn(*args), None
    except Exception as err:
        return None, one_line(err)


async def check_tokens(ns: dict) -> None:
    c = Checks("check-tokens", _t("tokens_of: every token one response was billed for"))
    fn = ns.get("tokens_of")
    if not callable(fn):
        unfinished(c, "not defined yet", "tokens_of")
        return c.done()
    plain = Usage(input_tokens=1200, output_tokens=80, cache_creation_input_tokens=0, cache_read_input_tokens=0)
    got, problem = _call(fn, plain)
    if unfinished(c, problem, "tokens_of"):
        return c.done()
    c.ok(got == 1280 and type(got) is int, _t("no caching: input_tokens + output_tokens (1200 + 80 = 1280)")
         + (f" — {problem}" if problem else "" if got == 1280 else _t(" (got {got!r})", got=got)),
         _t("it raised {problem}", problem=problem) if problem else _t("return a whole number: usage.input_tokens + usage.output_tokens + …"))
    write, read = (await usages_of("never-ends", cached_tools(), requests=2))[:2]
    got_w, problem_w = _call(fn, write)
    got_r, problem_r = _call(fn, read)
    short = write.input_tokens + write.output_tokens
    c.note(_t("(a cached run on the offline model: the 1st response wrote {cache_creation_input_tokens} tokens "
           "to the cache, the 2nd read {cache_read_input_tokens} from it; input_tokens was only "
           "{input_tokens}, then {input_tokens2})", cache_creation_input_tokens=write.cache_creation_input_tokens, cache_read_input_tokens=read.cache_read_input_tokens, input_tokens=write.input_tokens, input_tokens2=read.input_tokens))
    c.ok(got_w == _all_four(write),
         _t("the first request of a cached run counts its cache writes: {all_four} tokens", all_four=_all_four(write))
         + (f" — {problem_w}" if problem_w else "" if got_w == _all_four(write) else _t(" (got {got!r})", got=got_w)),
         _t("it raised {problem}", problem=problem_w) if problem_w else
         _t("input + output alone is {short}: with caching on, the cached part of the prompt is billed as "
         "cache_creation_input_tokens (first time) and cache_read_input_tokens (after): add both", short=short)
         if got_w == short else _t("add every billed counter: input, output, cache_creation_input_tokens, "
                                "cache_read_input_tokens"))
    short_only = got_w == short  # input + output only, named in the ✗ above
    c.ok(got_r == _all_four(read),
         _t("a later request counts its cache reads: {all_four} tokens", all_four=_all_four(read))
         + (f" — {problem_r}" if problem_r else "" if got_r == _all_four(read) else _t(" (got {got!r})", got=got_r)),
         _t("it raised {problem}", problem=problem_r) if problem_r else
         _t("cache reads are billed too (cheaper per token, but they fill the context and the budget): add "
         "usage.cache_read_input_tokens"),
         follows=short_only and got_r == read.input_tokens + read.output_tokens)
    bare = Usage(input_tokens=30, output_tokens=12)  # the cache fields are None, as on a response without them
    got_b, problem_b = _call(fn, bare)
    c.ok(got_b == 42, _t("a usage whose cache counters are missing (None) counts them as 0 (30 + 12 = 42)")
         + (f" — {problem_b}" if problem_b else "" if got_b == 42 else _t(" (got {got!r})", got=got_b)),
         _t("a counter can be None: `usage.cache_read_input_tokens or 0` (None + int raises TypeError)")
         if problem_b and "TypeError" in problem_b else _t("it raised {problem}", problem=problem_b) if problem_b else
         _t("a missing counter is 0"))
    live = Usage(input_tokens=50, output_tokens=20, cache_creation_input_tokens=3000, cache_read_input_tokens=0,
                 cache_creation={"ephemeral_5m_input_tokens": 3000, "ephemeral_1h_input_tokens": 0})
    got_l, problem_l = _call(fn, live)
    c.ok(got_l == 3070, _t("a usage shaped like a live one (cache_creation also broken down by lifetime) counts the "
         "cache writes once (50 + 20 + 3000 = 3070)") + ("" if got_l == 3070 or problem_l else _t(" (got {got!r})", got=got_l)),
         _t("it raised {problem}", problem=problem_l) if problem_l else
         _t("usage.cache_creation is a breakdown of cache_creation_input_tokens (by cache lifetime), not more tokens: "
         "add the four *_tokens counters, nothing else"), follows=short_only and got_l == 70)
    c.done()


async def guarded(fn, scenario, *, task=TASK_3, tools=None, limit=40, **kwargs):
    """YOUR run_guarded on the offline model, bounded by request count: what ran, how often, what came back."""
    run = SimpleNamespace(calls=[], result=None, problem=None, requests=0, offered=[], runaway=False)
    if not callable(fn):
        run.problem = "run_guarded is not defined yet: run its cell"
        return run
    tools = tools or TOOLS_3
    bound = await bounded(scenario, lambda client: fn(client, task, tools, counting_impls(run.calls), **kwargs),
                          limit=limit)
    run.result, run.problem, run.requests, run.runaway = bound.result, bound.problem, bound.requests, bound.runaway
    run.offered = [body.get("tools") for body in offline_api(bound.client).log]
    if run.problem is None and not isinstance(run.result, AgentResult):
        run.problem = _t("it returned {kind}, not an AgentResult", kind=type(run.result).__name__)
    return run


def _got(run) -> tuple | None:
    res = run.result if isinstance(run.result, AgentResult) else None
    return (res.stopped_by, res.turns, res.requests) if res else None


def _loop_hint(run) -> str:
    problem = run.problem or ""
    if raised_name_hint(problem, "run_guarded"):
        return raised_name_hint(problem, "run_guarded")
    if "NotImplementedError" in problem:
        return _t("something it calls is not written yet ({problem})", problem=problem)
    if getattr(run, "runaway", False):  # bounded() cut it off (its line is in the notebook's language)
        return _t("the loop does not stop: keep the turn cap at the top of the body")
    return _t("the run ended with an error ({problem}): it must end with an AgentResult", problem=problem) if problem else \
        _t("it must return an AgentResult")


async def resend_3(messages) -> str | None:
    """Continue a returned history as a caller would (one more user message): None if the API takes it."""
    try:
        await offline("demo").messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_3, messages=[
            *messages, {"role": "user", "content": "Thanks. One more thing: what time is it?"}])
        return None
    except Exception as err:
        return one_line(err)


async def harness_said(res, scenario: str, tools: list | None = None) -> bool:
    """True when a stop's text is the harness's own sentence: not empty, and none of the texts the model wrote in
    that run (the history's, and the response the loop stopped at, which it got again by sending the history)."""
    text = res.text.strip() if isinstance(res.text, str) else ""
    if not text:
        return False
    model = {b.text.strip() for m in res.messages if isinstance(m, dict) and m.get("role") == "assistant"
             and isinstance(m.get("content"), list) for b in m["content"] if getattr(b, "type", None) == "text"}
    if res.messages and isinstance(res.messages[-1], dict) and res.messages[-1].get("role") == "user":
        try:
            stop = await offline(scenario).messages.create(model=MODEL, max_tokens=1024, tools=tools or TOOLS_3,
                                                           messages=res.messages)
            model.add(final_text(stop).strip())
        except Exception:  # a history the API refuses: another criterion says so
            pass
    return text not in model


def _count_hint(run, totals: list) -> str | None:
    """What is wrong with the tokens_used `run` returned, given the right running total per request (`totals`),
    or None when it is right. The run's requests are the ones the offline API received."""
    res = run.result if isinstance(run.result, AgentResult) else None
    n = run.requests
    if res is None or not 1 <= n <= len(totals) or res.tokens_used == totals[n - 1]:
        return None
    if res.tokens_used == totals[n - 1] - totals[0]:
        return _t("tokens_used leaves out the first response: start it at tokens_of(response.usage), right after "
                  "the first request (the first response costs too)")
    if n >= 2 and res.tokens_used == totals[n - 1] - totals[n - 2]:
        return _t("tokens_used holds only the last response's tokens: add each response's to the total "
                  "(`tokens_used += tokens_of(response.usage)`), do not replace it")
    if res.tokens_used == 0:
        return _t("tokens_used stays 0: add tokens_of(response.usage) after every request, the first one included")
    return _t("add tokens_of(response.usage) after EVERY request, the first one included, and return the total")


async def check_budget(ns: dict) -> None:
    c = Checks("check-budget", _t("valve 2: the token budget, checked after the cap and before spending more"))
    fn = ns.get("run_guarded")
    ref, _ = await reference_run("token-hog", max_turns=8, token_budget=40_000)
    r = await guarded(fn, "token-hog", max_turns=8, token_budget=40_000)
    if unfinished(c, r.problem, "run_guarded"):
        return c.done()
    _, hog = await reference_run("token-hog", max_turns=8, token_budget=10 ** 9)  # the running total per request
    count_hint = _count_hint(r, hog)  # the count is the first thing the budget depends on
    miscounted = count_hint is not None
    want = ("token_budget", ref.turns, ref.requests)
    got = _got(r)
    counted_first = (got is not None and got[0] == "token_budget" and got[2] == want[2] and got[1] == want[1] + 1
                     and len(r.calls) == ref.turns)  # the stop came after `turns += 1`, the turn never ran
    c.ok(got == want, _t("token-hog, max_turns=8, token_budget=40,000: stopped_by='token_budget' after {turns} "
         "turns and {requests} requests", turns=ref.turns, requests=ref.requests) + (_t(" (got {got})", got=got) if got and got != want else "")
         + (f" — {r.problem}" if r.problem else ""),
         _loop_hint(r) if got is None else count_hint if miscounted else
         _t("the cap stopped it, not the budget: add `if tokens_used >= token_budget:` right after the cap check")
         if got[0] == "max_turns" else
         _t("the budget stopped the run after the turn was counted (turns={got_1}, though {n} turns ran): ask it at "
            "the top of the body, right after the cap, before `turns += 1` and before the response is appended",
            got_1=got[1], n=len(r.calls)) if counted_first else
         _t("stopped at the wrong moment (turns={got_1}, requests={got_2}): add each response's tokens as it "
         "arrives, and ask `tokens_used >= token_budget` at the top of the body, right after the cap", got_1=got[1], got_2=got[2]))
    res = r.result if isinstance(r.result, AgentResult) else None
    c.ok(res is not None and res.tokens_used == ref.tokens_used,
         _t("tokens_used is the sum over every request, the first included ({tokens_used})", tokens_used=ref.tokens_used)
         + (_t(" (got {tokens_used})", tokens_used=res.tokens_used) if res is not None and res.tokens_used != ref.tokens_used else ""),
         _loop_hint(r) if res is None else count_hint or
         _t("add tokens_of(response.usage) after EVERY request, the first one included, and return the total"),
         follows=r.problem is not None or (not miscounted and got != want))  # the right count, a wrong stop
    no_budget = got is not None and got[0] == "max_turns" and got[1] == 8  # nothing but the cap ever stops it
    # what the budget decides follows from the ✗ above: a wrong count, no budget check, or a stop counted as a turn
    after = miscounted or no_budget or r.problem is not None or counted_first
    c.ok(len(r.calls) == ref.turns, _t("the tools ran in exactly the {turns} turns that were allowed "
         "(ran: {n})", turns=ref.turns, n=len(r.calls)),
         _loop_hint(r) if r.problem else
         _t("stop before running the turn that would spend more, not after"), follows=after)
    c.ok(res is not None and res.stopped_by == "token_budget" and await harness_said(res, "token-hog"),
         _t("the budget's stop comes with a text that says the harness stopped the run (not the model's text)"),
         _loop_hint(r) if res is None else
         _t("when the budget stops the run, say so in your own words, e.g. "
         'f"Stopped by the harness: {tokens_used} tokens used, reaching the token budget of {token_budget}." — '
         "the model's last text is not an answer, the harness cut it off"),
         follows=after or (res is not None and res.stopped_by != "token_budget"))
    problem = await resend_3(res.messages) if res is not None else "no result"
    c.ok(problem is None, _t("the history it returns can be continued (no tool_use left without its tool_result)"),
         _loop_hint(r) if res is None else
         _t("return before appending the response whose calls you will not run"), follows=counted_first)
    c.ok(bool(r.offered) and all(t == TOOLS_3 for t in r.offered), _t("every request offered exactly the tools the "
         "caller passed"), _loop_hint(r) if not r.offered else _t("pass the tools argument to messages.create"))
    first = await guarded(fn, "never-ends", max_turns=8, token_budget=1)
    bottom = _got(first) == ("token_budget", 1, 2) and not after  # the budget is asked after the next request
    c.ok(_got(first) == ("token_budget", 0, 1) and not first.calls,
         _t("token_budget=1: the first response already spends it, so no turn runs (1 request)")
         + (_t(" (got {got})", got=_got(first)) if _got(first) and _got(first) != ("token_budget", 0, 1) else ""),
         _loop_hint(first) if _got(first) is None else
         _t("check the budget at the TOP of the body, before the first turn runs: a check at the bottom, after the "
            "next request, lets the first turn run whatever the first response cost"), follows=after)
    both = await guarded(fn, "never-ends", max_turns=0, token_budget=1)
    c.ok(_got(both) == ("max_turns", 0, 1), _t("max_turns=0 and token_budget=1 both say stop: the turn cap, "
         "checked first, names it") + (_t(" (got {got})", got=_got(both)) if _got(both) and _got(both) != ("max_turns", 0, 1)
                                      else ""),
         _loop_hint(both) if _got(both) is None else
         _t("the order at the top of the body is: turn cap, then token budget (the lessons' valve order)"))
    _, totals = await reference_run("never-ends", max_turns=8)
    exact = await guarded(fn, "never-ends", max_turns=8, token_budget=totals[3])
    late_by_one = _got(exact) == ("token_budget", 4, 5)
    c.ok(_got(exact) == ("token_budget", 3, 4), _t("a budget reached exactly (token_budget={totals_3}, the total "
         "after 4 requests) stops the run: `>=`, not `>`", totals_3=totals[3])
         + (_t(" (got {got})", got=_got(exact)) if _got(exact) and _got(exact) != ("token_budget", 3, 4) else ""),
         _loop_hint(exact) if _got(exact) is None else
         _t("spent == budget means the budget is used up: `if tokens_used >= token_budget:`")
         if late_by_one else
         _t("count every response's tokens (the first too) and stop at the top of the body once the total reaches "
         "the budget"), follows=after)
    _, demo = await reference_run("demo", max_turns=8)  # 2 tool turns, then the model's answer
    late = await guarded(fn, "demo", max_turns=8, token_budget=demo[1] + 1)
    lres = late.result if isinstance(late.result, AgentResult) else None
    c.ok(lres is not None and (lres.stopped_by, lres.turns) == ("end_turn", 2),
         _t("a model that ends its turn keeps its answer, even when that last response crosses the budget")
         + (_t(" (got stopped_by={stopped_by!r})", stopped_by=lres.stopped_by) if lres is not None and lres.stopped_by != "end_turn" else ""),
         _loop_hint(late) if lres is None else
         _t("the budget is checked before spending MORE: once the model has answered nothing more will be spent, so "
         "return its answer. A check after the request (at the bottom of the body) replaces it with a stop"),
         follows=bottom and lres is not None and lres.stopped_by == "token_budget")  # the same check at the bottom
    tools = cached_tools()
    _, true_totals = await reference_run("never-ends", tools=tools, max_turns=8)
    cached = await guarded(fn, "never-ends", tools=tools, max_turns=8, token_budget=true_totals[2])
    c.ok(_got(cached) == ("token_budget", 2, 3), _t("with prompt caching on, the budget counts the cached tokens too "
         "(token_budget={true_totals_2}: reached after 3 requests)", true_totals_2=true_totals[2])
         + (_t(" (got {got})", got=_got(cached)) if _got(cached) and _got(cached) != ("token_budget", 2, 3) else ""),
         _loop_hint(cached) if _got(cached) is None else
         _t("the loop must add tokens_of(response.usage) — all four counters — not input_tokens + output_tokens: "
         "a cached prompt shows up in cache_read_input_tokens"),
         follows=after or (late_by_one and _got(cached) == ("token_budget", 3, 4)))  # the same `>` as above
    c.done()


def _recording_detector(seen: list, answer=None):
    def detector(signatures):
        seen.append(list(signatures))
        return answer(signatures) if callable(answer) else answer
    return detector


async def check_progress(ns: dict) -> None:
    c = Checks("check-progress", _t("valve 3: a model walking in place is stopped before the repeated turn runs"))
    fn = ns.get("run_guarded")
    r = await guarded(fn, "stuck")
    if unfinished(c, r.problem, "run_guarded"):
        return c.done()
    got = _got(r)
    ran_repeat = got is not None and got[0] == "no_progress" and len(r.calls) > 1  # caught after the tools ran
    turn_counted = got == ("no_progress", 2, 2) and len(r.calls) == 1  # caught in time, but counted as a turn
    c.ok(got == ("no_progress", 1, 2), _t("stuck: stopped_by='no_progress' after 1 turn and 2 requests")
         + (_t(" (got {got})", got=got) if got and got != ("no_progress", 1, 2) else ""),
         _loop_hint(r) if got is None else
         _t("the same call twice in a row must stop the run: keep `signatures`, append signature_of(response.content), "
         "and return stopped_by='no_progress' when find_loop(signatures) finds a loop")
         if got[0] != "no_progress" else
         _t("the repeated call ran before the check caught it: append the signature and ask find_loop BEFORE the "
            "tools run") if ran_repeat else
         _t("the repeated turn never ran, yet it was counted (turns={turns}): ask find_loop before `turns += 1`",
            turns=got[1]) if turn_counted else
         _t("the second, identical response is caught before it runs: append its signature and check BEFORE "
         "`turns += 1` and before the tools run"))
    c.ok(len(r.calls) == 1, _t("the repeated call never ran: read_file ran once (ran: {n})", n=len(r.calls)),
         _loop_hint(r) if r.problem else
         _t("check for no progress before running the tools, not after"),
         follows=ran_repeat or (got is not None and got[0] != "no_progress"))  # nothing stopped it: the ✗ above
    res = r.result if isinstance(r.result, AgentResult) else None
    c.ok(res is not None and await resend_3(res.messages) is None and await harness_said(res, "stuck"),
         _t("it says why it stopped (a text of the harness, not the model's), and the history it returns can be "
            "continued"),
         _loop_hint(r) if res is None else
         _t("return before appending the repeated response, with a text that says the harness stopped the run "
            "because the turns repeat"), follows=res is not None and res.stopped_by != "no_progress")
    far = await guarded(fn, "never-ends", max_turns=4)
    c.ok(_got(far) == ("max_turns", 4, 5), _t("never-ends (a new file every turn): not stopped as no progress — the "
         "cap stops it after 4 turns") + (_t(" (got {got})", got=_got(far)) if _got(far) and _got(far) != ("max_turns", 4, 5)
                                         else ""),
         _loop_hint(far) if _got(far) is None else
         _t("a call with a different argument is a different signature: signature_of must include each call's input")
         if _got(far)[0] == "no_progress" else _t("keep the turn cap as it was"))
    demo = await guarded(fn, "demo")
    c.ok(_got(demo) == ("end_turn", 2, 3), _t("the lesson's task (2 different turns, then the answer) is left alone")
         + (_t(" (got {got})", got=_got(demo)) if _got(demo) and _got(demo) != ("end_turn", 2, 3) else ""),
         _loop_hint(demo) if _got(demo) is None else _t("a model that makes progress must get to its answer"))
    order = Cause(_t("the order at the top of the body: turn cap, token budget, then no progress"), key="valve order")
    cap = await guarded(fn, "stuck", max_turns=1)
    order_wrong = _got(cap) is not None and _got(cap)[0] == "no_progress"
    c.ok(_got(cap) == ("max_turns", 1, 2), _t("stuck with max_turns=1: the cap, asked first, stops the second turn")
         + (_t(" (got {got})", got=_got(cap)) if _got(cap) and _got(cap) != ("max_turns", 1, 2) else ""),
         _loop_hint(cap) if _got(cap) is None else order)
    stuck_ref, totals = await reference_run("stuck")
    budget = await guarded(fn, "stuck", token_budget=totals[1])
    count_hint = _count_hint(budget, totals)
    c.ok(_got(budget) == ("token_budget", 1, 2), _t("stuck with token_budget={totals_1} (spent after 2 requests): the "
         "budget, asked before no progress, stops it", totals_1=totals[1])
         + (_t(" (got {got})", got=_got(budget)) if _got(budget) and _got(budget) != ("token_budget", 1, 2) else ""),
         _loop_hint(budget) if _got(budget) is None else
         _t("no budget check stopped it: see check-budget") if _got(budget)[0] == "max_turns" else
         _t("the count is off, not the order of the valves — {count_hint} (see check-budget)", count_hint=count_hint)
         if count_hint else
         Cause(_t("the budget must stop it first: the order at the top of the body is turn cap, token budget "
         "(`tokens_used >= token_budget`: spent == budget is used up), then no progress"), key="valve order"))
    seen = []
    probe = await guarded(fn, "never-ends", max_turns=3, find_loop=_recording_detector(seen))
    lengths = [len(s) for s in seen]
    grows = lengths == [1, 2, 3] and all(seen[i] == seen[i + 1][:len(seen[i])] for i in range(2))
    c.ok(grows, _t("find_loop is asked once per tool-calling turn with every signature so far, oldest first")
         + ("" if grows else _t(" (it was given lists of length {value})", value=lengths)),
         _loop_hint(probe) if probe.problem else
         _t("find_loop was never called: call find_loop(signatures) (the argument), not your own comparison")
         if not seen else
         _t("keep ONE list for the run, append each turn's signature, and pass the whole list every turn"),
         follows=(order_wrong and lengths == [1, 2, 3, 4])  # also asked at the 4th response, before the cap
         or (not seen and got is not None and got[0] != "no_progress"))  # no valve 3 at all, named above
    told = await guarded(fn, "never-ends", max_turns=8, find_loop=lambda s: 1 if len(s) >= 3 else None)
    c.ok(_got(told) == ("no_progress", 2, 3), _t("when find_loop returns a period, the run stops as no progress "
         "(a detector that fires at the 3rd turn: 2 turns ran)")
         + (_t(" (got {got})", got=_got(told)) if _got(told) and _got(told) != ("no_progress", 2, 3) else ""),
         _loop_hint(told) if _got(told) is None else
         _t("stop when find_loop(signatures) returns a period (any number but None/0): the loop must use its verdict"),
         follows=not seen or ((turn_counted or ran_repeat) and _got(told) == ("no_progress", 3, 3)))
    c.done()


def _block(kind, **fields):
    if kind == "text":
        return TextBlock(type="text", text=fields["text"], citations=None)
    return ToolUseBlock(type="tool_use", id=fields.get("id", "toolu_01"), name=fields["name"], input=fields["input"])


def check_signature(ns: dict) -> None:
    c = Checks("check-signature", _t("signature_of: one turn's tool calls, as one comparable fingerprint"))
    fn = ns.get("signature_of")
    if not callable(fn):
        unfinished(c, "not defined yet", "signature_of")
        return c.done()
    read = lambda i, **kw: _block("tool_use", id=f"toolu_r{i}", name="read_file", input=kw)  # noqa: E731
    clock = lambda i: _block("tool_use", id=f"toolu_t{i}", name="get_time", input={})  # noqa: E731
    say = lambda text: _block("text", text=text)  # noqa: E731
    base, problem = _call(fn, [say("I'll read it and check the time."), read(1, path="README.md", limit=5),
                               clock(1)])
    if unfinished(c, problem, "signature_of"):
        return c.done()
    c.ok(problem is None, _t("it takes a response's content (text and tool_use blocks)") + (f" — {problem}" if problem
                                                                                        else ""),
         _t("skip the blocks that are not tool_use (the text a turn opens with has no name or input)")
         if problem and ("text" in problem.lower() or "AttributeError" in problem) else _t("it raised {problem}", problem=problem))

    def same(a, b):
        x, px = _call(fn, a)
        y, py = _call(fn, b)
        return None if px or py else x == y

    ids = same([read(1, path="README.md")], [read(2, path="README.md")])
    c.ok(ids is True, _t("the same call in two turns gives the same signature (each turn's blocks have new ids)"),
         _t("leave the block ids out: every tool_use gets a fresh id, so a signature with ids never repeats"))
    text = same([say("Let me read it."), read(1, path="README.md")],
                [say("Reading it again."), read(2, path="README.md")])
    fresh = ids is False  # every signature differs (the ids in it): what must match below cannot, by the ✗ above
    c.ok(text is True, _t("the text before the calls does not change the signature"),
         _t("only the tool_use blocks count: the model's sentence changes every turn while it walks in place"),
         follows=fresh)
    order = same([read(1, path="README.md"), clock(1)], [clock(2), read(2, path="README.md")])
    c.ok(order is True, _t("the same calls in another order give the same signature"),
         _t("sort the calls (e.g. the strings 'name(input)') before joining them: a parallel turn's order is not "
         "meaningful"), follows=fresh)
    keys = same([read(1, path="README.md", limit=5, options={"a": 1, "b": 2})],
                [read(2, options={"b": 2, "a": 1}, limit=5, path="README.md")])
    c.ok(keys is True, _t("the same input with its keys in another order (nested ones too) gives the same signature"),
         _t("write the input as JSON with sorted keys: json.dumps(block.input, sort_keys=True) (str(dict) keeps the "
         "order the keys came in)"), follows=fresh)
    args = same([read(1, path="README.md")], [read(2, path="notes/meeting.md")])
    c.ok(args is False, _t("a different argument gives a different signature"),
         _t("include each call's input, not just its name: reading page 1 and page 2 is not walking in place"))
    names = same([read(1, path="README.md")], [_block("tool_use", id="toolu_w", name="delete_file",
                                                      input={"path": "README.md"})])
    c.ok(names is False, _t("a different tool with the same input gives a different signature"),
         _t("include each call's name"))
    c.done()


def _walkable(fn):
    """YOUR detector as the grader's loop uses it: -> (period or None, problem)."""
    return lambda signatures: _call(fn, signatures)


async def walk(detector, scenario: str, task: str = TASK_3, max_turns: int = 8) -> SimpleNamespace:
    """The grader's own loop (the kit's signature_of), stopping when `detector(signatures)` returns a period."""
    run = SimpleNamespace(stopped_by=None, turns=0, problem=None)
    client, messages, signatures = offline(scenario), [{"role": "user", "content": task}], []
    impls = counting_impls([])
    response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_3, messages=messages)
    while response.stop_reason == "tool_use":
        if run.turns >= max_turns:
            run.stopped_by = "max_turns"
            return run
        signatures.append(_kit_valves.signature_of(response.content))
        period, run.problem = detector(list(signatures))
        if run.problem or period:
            run.stopped_by = "no_progress" if period else None
            return run
        run.turns += 1
        results = [tool_result(b.id, *run_tool(impls, b.name, b.input, TOOLS_3))
                   for b in response.content if b.type == "tool_use"]
        messages += [{"role": "assistant", "content": response.content}, {"role": "user", "content": results}]
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_3, messages=messages)
    run.stopped_by = response.stop_reason
    return run


async def check_cycle(ns: dict) -> None:
    c = Checks("check-cycle", _t("find_short_cycle: A, B, A, B … within a bounded look-back"))
    fn = ns.get("find_short_cycle")
    if not callable(fn):
        unfinished(c, "not defined yet", "find_short_cycle")
        return c.done()
    got, problem = _call(fn, ["A", "B", "A", "B"])
    if unfinished(c, problem, "find_short_cycle"):
        return c.done()

    def period(signatures, **kwargs):
        try:
            return fn(signatures, **kwargs)
        except Exception as err:
            return f"raised {one_line(err)}"

    cases = {"A A": (["A", "A"], 1), "A B A B": (["A", "B", "A", "B"], 2),
             "A B C A B C": (["A", "B", "C", "A", "B", "C"], 3), "X A B A B": (["X", "A", "B", "A", "B"], 2)}
    found = {name: period(list(sigs)) for name, (sigs, _) in cases.items()}
    wrong = {name: found[name] for name, (_, want) in cases.items() if found[name] != want}
    empty = _t("(empty)")
    quiet = {empty: [], "A": ["A"], "A B": ["A", "B"], "A B A": ["A", "B", "A"], "A B C D": ["A", "B", "C", "D"]}
    loud = {name: period(list(sigs)) for name, sigs in quiet.items()}
    loud = {name: p for name, p in loud.items() if p is not None}
    revisit = period(["A", "B", "C", "A"])
    left = period(["A", "B", "A", "B", "C"])
    bound = {"A B C A B C, max_period=2": period(["A", "B", "C", "A", "B", "C"], max_period=2),
             "A B A B, max_period=1": period(["A", "B", "A", "B"], max_period=1),
             "A B C D A B C D (default 3)": period(["A", "B", "C", "D", "A", "B", "C", "D"])}
    over = {name: p for name, p in bound.items() if p is not None}
    three = period(["A", "B", "C", "A", "B", "C"], max_period=3)
    six = period(["A"] * 6)
    # The first cause the cases show; the first ✗ names it, and what else fails follows from it.
    cause = (_t("return the period p itself (an int), not True, when the last p signatures repeat the p before them")
             if any(v is True for v in (*found.values(), *loud.values(), revisit, left, three, six)) else
             _t("a short list raised: with too few signatures for a period, skip that period")
             if any(isinstance(v, str) for v in (*found.values(), *loud.values(), revisit, left, three, six)) else
             _t("it finds a repeat anywhere in the list: look only at the END — the last p signatures against the p "
                "just before them (a model may come back to a file after doing something else)")
             if revisit is not None or left is not None else
             _t("the empty list gave {p!r}: with too few signatures for a period, skip that period (two empty slices "
                "are equal)", p=loud[empty]) if empty in loud else
             _t("it tried the longest period first: A A A A A A repeats with period 1, 2 and 3, and the answer is the "
                "shortest — try p = 1, 2, … max_period in that order") if six in (2, 3) else
             _t("it tries periods beyond max_period: try only p = 1 … max_period (the argument; default 3), which "
                "bounds how far back it looks") if bound["A B C D A B C D (default 3)"] is not None
             or (bound["A B C A B C, max_period=2"] or 0) > 2 else
             _t("use the max_period argument: try every p from 1 to max_period, not a fixed set of periods")
             if three != 3 or over else None)
    known = cause is not None
    c.ok(not wrong, _t("it returns the period of a cycle at the end: A A → 1, A B A B → 2, A B C A B C → 3, "
         "X A B A B → 2") + (_t(" (got {wrong})", wrong=wrong) if wrong else ""),
         cause or _t("for p in 1 … max_period: the last p signatures equal the p before them → return p"))
    c.ok(six == 1, _t("the shortest period wins: A A A A A A → 1 (try p = 1 first)")
         + ("" if six == 1 else _t(" (got {got!r})", got=six)),
         cause or _t("try the short periods first: p = 1, 2, … max_period"), follows=known)
    c.ok(not loud, _t("no cycle, no answer: [], A, A B, A B A, A B C D → None") + (_t(" (got {loud})", loud=loud) if loud else ""),
         cause or _t("a cycle needs its block twice in a row; with too few signatures for a period, skip that period"),
         follows=known)
    c.ok(revisit is None and left is None, _t("a signature seen before, after progress, is not a cycle: A B C A → None; "
         "a cycle the model has left behind does not count: A B A B C → None")
         + ("" if revisit is None and left is None else _t(" (got {revisit!r}, {left!r})", revisit=revisit, left=left)),
         cause or _t("look only at the END of the list: the last p signatures against the p just before them, not "
                     "anywhere in the history (a model may come back to a file after doing something else)"),
         follows=known)
    c.ok(not over, _t("it looks back at most 2 × max_period signatures: longer cycles are not its business")
         + (_t(" (got {over})", over=over) if over else ""),
         cause or _t("try only p = 1 … max_period (the argument; default 3): that bounds how far back it looks"),
         follows=known)
    c.ok(three == 3, _t("max_period=3 is honoured (A B C A B C → 3)") + ("" if three == 3 else _t(" (got {three!r})", three=three)),
         cause or _t("use the max_period argument, not a fixed number of periods"), follows=known)
    pong = await walk(_walkable(fn), "ping-pong")
    c.ok((pong.stopped_by, pong.turns) == ("no_progress", 3),
         _t("in a loop, ping-pong (read_file, get_time, …) is stopped at the 4th response: 3 turns ran")
         + (f" — {pong.problem}" if pong.problem else _t(" (got {stopped_by}, {turns} turns)", stopped_by=pong.stopped_by, turns=pong.turns)
            if (pong.stopped_by, pong.turns) != ("no_progress", 3) else ""),
         _t("it raised {problem}", problem=pong.problem) if pong.problem else _t("A B A B is a cycle of period 2"),
         follows=known)
    back = await walk(_walkable(fn), "demo", REVISIT_TASK)
    c.ok((back.stopped_by, back.turns) == ("end_turn", 3),
         _t("a task that reads README.md, tells the time, then reads README.md again (A B A) gets to its answer")
         + (_t(" (got {stopped_by}, {turns} turns)", stopped_by=back.stopped_by, turns=back.turns) if (back.stopped_by, back.turns) != ("end_turn", 3)
            else ""),
         _t("it raised {problem}", problem=back.problem) if back.problem else
         _t("A B A is no cycle yet: only a block repeated twice in a row at the end is"), follows=known)
    loop = ns.get("run_guarded")
    mine = await guarded(loop, "ping-pong", find_loop=fn)
    c.ok(_got(mine) == ("no_progress", 3, 4), _t("plugged into your run_guarded: ping-pong stops as no progress after "
         "3 turns and 4 requests") + (_t(" (got {got})", got=_got(mine)) if _got(mine) and _got(mine) != ("no_progress", 3, 4)
                                     else ""),
         _loop_hint(mine) if _got(mine) is None else
         _t("run_guarded must stop when find_loop(signatures) returns a period (see check-progress)"),
         follows=known and _got(mine) is not None and _got(mine)[0] == "no_progress")  # it stopped, but early
    c.done()


# =============================================================================================================
# Exercise 4 — the approval gate
# =============================================================================================================

TOOLS_4 = TOOLS_1  # the lesson's four tools and send_email (the checks pass their own high_impact set for it)
GATE_TASK = "Read the first line of README.md, then tell me what time it is"  # high-impact: then it saves it
ONE_WRITE = 'Write "draft" to scratch/gate-check.txt, then tell me the time.'
TWO_WRITES = 'Write "a" to scratch/a.txt and write "b" to scratch/b.txt.'
MIXED = 'Read the first line of README.md, write "draft" to scratch/c.txt, and tell me the time.'

# Part (a), stored as digests (first 8 hex digits of _digest(text)) of the 🔒 statements cell's constants.
_STATEMENTS = {"b56927e5", "b92fe69a", "d80913ed", "5d4d7993", "732332a8", "194b6f77", "50186d3b", "ee80071d"}
_REASONS = {"b56927e5", "b92fe69a", "d80913ed"}
_ARGUMENT = {"5d4d7993"}  # the colleague's own argument
_UNTRUE = {"732332a8", "194b6f77", "50186d3b", "ee80071d"}  # what the run shows is not so


def check_why_wrong(ns: dict) -> None:
    c = Checks("check-why-wrong", _t("why asking after running is no approval gate"))
    w = ns.get("WHY_WRONG")
    known = {v for k, v in ns.items() if isinstance(v, str) and k.isupper() and _digest(v)[:8] in _STATEMENTS}
    items = list(w) if isinstance(w, (set, frozenset, list, tuple)) else [] if w == {} else None
    c.ok(bool(items) and all(i in known for i in items),
         _t("WHY_WRONG is a non-empty set of the statements of the 🔒 cell"),
         not_defined_hint("WHY_WRONG", _t("WHY_WRONG is not defined yet: run the exercise cell")) if w is None else
         _t("WHY_WRONG must be a set (or list) of the statements' constants") if items is None else
         _t("fill in WHY_WRONG: at least one statement") if not items else
         _t("use the constants' names (e.g. SLOWER), not your own text: free text cannot be checked"))
    if not items:
        c.note(_t("(the other criteria are checked once WHY_WRONG has entries)"))
        return c.done()
    marks = {_digest(i)[:8] for i in items if isinstance(i, str)}
    c.ok(not marks & _ARGUMENT, _t("does not agree with the colleague's argument"),
         _t("one of your statements is the colleague's own argument, which the run above disproves"))
    c.ok(not marks & _UNTRUE, _t("no statement the run above shows to be untrue of this wiring"),
         _t("one of your statements is not what happened: look at the tool_result the model got, and at which "
         "calls waited for the person"))
    named = len(marks & _REASONS)
    c.ok(named == len(_REASONS), _t("names every reason the run above shows ({named} of {n} named)", named=named, n=len(_REASONS)),
         _t("go through the run again: what did the disk say after the no, what was the model told, and when was "
         "the person asked? Each answer is one reason"),
         follows=not all(i in known for i in items) and not marks)  # none of the 🔒 statements: the ✗ above
    c.done()


def gate_impls(events: list, root) -> dict:
    """The lesson's real tools on a throwaway folder (so a write is really on disk), plus a pretend send_email;
    each run is recorded in `events` as it starts. Coroutine functions: the order of "asked" and "ran" events is
    exactly the order your tool step did things in."""
    fns = dict(make_tool_impls(root, clock=_clock), send_email=lambda i: f"sent to {i['to']}")

    def recorder(name, fn):
        async def impl(tool_input):
            events.append(("ran", name, tool_input))
            return fn(tool_input)
        return impl
    return {name: recorder(name, fn) for name, fn in fns.items()}


class ApproverBroke(RuntimeError):
    pass


async def gate_drive(valve, scenario, task, *, answer=True, approver="default", max_turns=6, **step):
    """The grader's own loop around YOUR run_tool_uses on the offline model, with real tools on a throwaway folder.

    answer: the approver's answer, a function (name, input) -> answer, or an exception to raise.
    -> run: .events [("asked"|"ran", name, input)], .rounds [(tool_use blocks, your results)], .error, .final,
       .files {path under scratch/: text} after the run"""
    run = SimpleNamespace(events=[], rounds=[], error=None, final=None, files={})

    async def approve(name, tool_input):
        run.events.append(("asked", name, tool_input))
        if isinstance(answer, BaseException):
            raise answer
        return answer(name, tool_input) if callable(answer) else answer

    if not callable(valve):
        run.error = "run_tool_uses is not defined yet: run its cell"
        return run
    root = Path(tempfile.mkdtemp(prefix="gate-check-"))
    try:
        (root / "README.md").write_text((DEFAULT_ROOT / "README.md").read_text(encoding="utf-8"), encoding="utf-8")
        impls = gate_impls(run.events, root)
        client = offline(scenario)
        messages = [{"role": "user", "content": task}]
        try:
            response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_4, messages=messages)
            while response.stop_reason == "tool_use" and len(run.rounds) < max_turns:
                results = await asyncio.wait_for(valve(response.content, impls, tools=TOOLS_4, approve=approve
                                                       if approver == "default" else None, **step), 60)
                run.rounds.append(([b for b in response.content if b.type == "tool_use"], results))
                messages += [{"role": "assistant", "content": response.content},
                             {"role": "user", "content": results}]
                response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_4,
                                                        messages=messages)
            run.final = response
        except anthropic.BadRequestError as err:
            run.error = _t("the API refused the next request: {message}", message=getattr(err, 'message', err))
        except Exception as err:
            run.error = one_line(err)
        scratch = root / "scratch"
        run.files = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
                     for p in (scratch.rglob("*") if scratch.is_dir() else []) if p.is_file()}
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return run


def gate_hint(run) -> str:
    """A hint that follows from how the run broke."""
    error = run.error or ""
    if "NoneType" in error and "call" in error:
        return _t("with no approver (approve=None) nobody can say yes: check `approve is None` before calling it")
    if "ApproverBroke" in error:
        return (_t("the approver raised, and the error stopped the run: a broken gate is a closed gate — catch the "
                "Exception and answer the call like a rejection"))
    return error_hint(run)


def _asked(run, name=None):
    return [(n, i) for k, n, i in run.events if k == "asked" and (name is None or n == name)]


def _ran(run, name=None):
    return [(n, i) for k, n, i in run.events if k == "ran" and (name is None or n == name)]


def _early(run) -> bool:
    """True when some call ran before the question about it, asked later, was asked."""
    asked_later = _asked(run)
    asked = []
    for kind, name, tool_input in run.events:
        if kind == "asked":
            asked.append((name, tool_input))
        elif (name, tool_input) not in asked and (name, tool_input) in asked_later:
            return True
    return False


def _finished(run) -> bool:
    return run.error is None and run.final is not None and run.final.stop_reason == "end_turn"


async def check_gate(ns: dict) -> None:
    c = Checks("check-gate", _t("the gate sits before execution: a no means the tool never runs"))
    valve = _valve(ns)
    no = await gate_drive(valve, "high-impact", GATE_TASK, answer=False)
    if unfinished(c, no.error, "run_tool_uses"):
        return c.done()
    yes = await gate_drive(valve, "high-impact", GATE_TASK, answer=True)
    asked = _asked(no, "write_file")
    unasked = not asked  # nobody was asked: what depends on the answer follows from the ✗ below
    c.ok(len(asked) == 1 and asked[0][1].get("path") == "scratch/answer.txt",
         _t("write_file was put to the approver once, with its name and input"),
         gate_hint(no) if no.error and not asked else
         _t("it was asked {n} times: once per call — await approve(block.name, block.input)", n=len(asked)))
    ran_first = Cause(_t("the file was written although the person said no: ask BEFORE the tool runs, and run it "
                         "only after a yes"), key="ran before asked")
    c.ok(not _ran(no, "write_file") and "scratch/answer.txt" not in no.files,
         _t("rejected: write_file never ran, and scratch/answer.txt is not on disk"),
         gate_hint(no) if no.error and not _ran(no, "write_file") else ran_first)
    w = calls(no, "write_file")
    res = w[0][1][0] if len(w) == 1 and len(w[0][1]) == 1 else {}
    unanswered = len(w) == 1 and not w[0][1]  # the rejected call got no tool_result at all
    c.ok(res.get("is_error") is True, _t("rejected: the call got exactly one tool_result, with is_error: true"),
         _t("answer a rejected call too: tool_result(block.id, REJECTED_MESSAGE, is_error=True)") if unanswered else
         gate_hint(no) if no.error and not res else
         _t("a rejected call did not succeed: mark its result is_error=True — tool_result(block.id, REJECTED_MESSAGE, "
            "is_error=True)") if res else
         _t("answer a rejected call too: tool_result(block.id, REJECTED_MESSAGE, is_error=True)"))
    c.ok(bool(res) and read_as("write_file", res) == "declined", _t("rejected: the model reads it as not approved"),
         gate_hint(no) if no.error and not res else _t("send REJECTED_MESSAGE: it tells the model the action was not approved"),
         follows=unanswered or (bool(res) and res.get("is_error") is not True))
    c.ok(_finished(no), _t("rejected run: the API accepted every request and the model finished")
         + (f" — {no.error}" if no.error else ""), gate_hint(no), follows=unanswered)
    kinds = [(k, n) for k, n, _ in yes.events]
    c.ok(("asked", "write_file") in kinds and ("ran", "write_file") in kinds
         and kinds.index(("asked", "write_file")) < kinds.index(("ran", "write_file"))
         and "scratch/answer.txt" in yes.files,
         _t("approved: write_file ran after the yes, and the file is on disk"),
         gate_hint(yes) if yes.error else
         _t("after a yes, run it: await arun_tool(tool_impls, block.name, block.input, tools)")
         if ("ran", "write_file") not in kinds else ran_first, follows=unasked)
    c.ok(_finished(yes), _t("approved run: the API accepted every request and the model finished")
         + (f" — {yes.error}" if yes.error else ""), gate_hint(yes))
    c.ok(not _asked(yes, "read_file") and not _asked(yes, "get_time") and len(_ran(yes, "read_file")) == 1
         and len(_ran(yes, "get_time")) == 1, _t("read_file and get_time ran without anybody being asked"),
         gate_hint(yes) if yes.error else _t("only calls whose name is in high_impact go to the approver"))
    fail = await gate_drive(valve, "demo", 'Write "x" to notes/x.txt.', answer=True)
    w = calls(fail, "write_file")
    res = w[0][1][0] if len(w) == 1 and len(w[0][1]) == 1 else {}
    c.ok(res.get("is_error") is True and bool(_ran(fail, "write_file")),
         _t("approved, but the tool itself fails (outside scratch/): its tool_result keeps is_error: true"),
         gate_hint(fail) if fail.error else
         _t("pass on the tool's own verdict: text, is_error = await arun_tool(...); tool_result(block.id, text, is_error)"),
         follows=unasked and not _ran(fail, "write_file"))
    mail = await gate_drive(valve, "demo", "Email bob@example.com that the report is ready.", answer=False,
                            high_impact=frozenset({"write_file", "delete_file", "send_email"}))
    c.ok(len(_asked(mail, "send_email")) == 1 and not _ran(mail, "send_email"),
         _t("the gate follows the high_impact set it is given (here it names send_email: asked, rejected, not sent)"),
         gate_hint(mail) if mail.error else
         _t("use the high_impact argument, not the global HIGH_IMPACT: the caller decides what needs a person")
         if not _asked(mail, "send_email") else ran_first,
         follows=unasked or (bool(_ran(mail, "send_email")) and bool(_ran(no, "write_file"))))
    c.done()


async def check_fail_closed(ns: dict) -> None:
    c = Checks("check-fail-closed", _t("fail closed: no approver, a broken one or an unclear answer is a no"))
    valve = _valve(ns)
    probe = await gate_drive(valve, "demo", ONE_WRITE, answer=False)
    if unfinished(c, probe.error, "run_tool_uses"):
        return c.done()
    cases = [
        (_t("no approver (approve=None)"), dict(approver=None),
         _t("with no approver nobody can say yes: `if approve is None:` → answer it like a rejection")),
        (_t("an approver that raises an error"), dict(answer=ApproverBroke("approval service unreachable")),
         _t("wrap the question: try: … await approve(…) except Exception: → a no (a broken gate is a closed gate)")),
        (_t("an approver that answers nothing (None)"), dict(answer=None),
         _t("only `is True` is a yes: None (an approver that forgot its return) is a no")),
        (_t("an approver that answers the string 'yes'"), dict(answer="yes"),
         _t("only `is True` is a yes: `if await approve(...):` lets any truthy value through")),
    ]
    for label, kwargs, hint in cases:
        run = await gate_drive(valve, "demo", ONE_WRITE, **kwargs)
        w = calls(run, "write_file")
        res = w[0][1][0] if len(w) == 1 and len(w[0][1]) == 1 else {}
        ok = (not _ran(run, "write_file") and not run.files and res.get("is_error") is True and _finished(run))
        c.ok(ok, _t("{label}: write_file does not run, its call gets an is_error tool_result, and the run goes on", label=label)
             + (f" — {run.error}" if run.error else ""),
             hint if _ran(run, "write_file") or run.files else gate_hint(run) if run.error else
             _t("answer the refused call: tool_result(block.id, <why>, is_error=True)") if not res.get("is_error")
             else hint)
    c.done()


async def check_parallel_gate(ns: dict) -> None:
    c = Checks("check-parallel", _t("a parallel turn: two writes, one approved and one rejected"))
    valve = _valve(ns)
    two = await gate_drive(valve, "parallel", TWO_WRITES, answer=lambda n, i: i.get("path") == "scratch/a.txt")
    if unfinished(c, two.error, "run_tool_uses"):
        return c.done()
    asked = [i.get("path") for _, i in _asked(two, "write_file")]
    once = len(asked) < 2  # one question for the turn: what else fails here follows from it
    c.ok(asked == ["scratch/a.txt", "scratch/b.txt"],
         _t("each write was put to the approver once, with its own input, in the order of the calls")
         + ("" if asked == ["scratch/a.txt", "scratch/b.txt"] else _t(" (asked about: {asked})", asked=asked)),
         gate_hint(two) if two.error and not asked else
         _t("ask once per call, each with its own block.input: one answer does not cover the turn")
         if len(asked) < 2 else _t("ask about each call once"))
    kinds = [k for k, _, _ in two.events]
    early = Cause(_t("the kit's rule: decide every call of the turn first (ask about each high-impact one), then run "
                     "what may run — here a tool ran before every question of the turn had been asked"), key="early")
    c.ok("asked" in kinds and (("ran" not in kinds) or max(i for i, k in enumerate(kinds) if k == "asked")
                               < min(i for i, k in enumerate(kinds) if k == "ran")),
         _t("both questions were asked before any tool of the turn ran"),
         gate_hint(two) if two.error else early)
    c.ok(two.files == {"scratch/a.txt": "a"}, _t("only the approved write happened: scratch/a.txt is on disk, "
         "scratch/b.txt is not") + ("" if two.files == {"scratch/a.txt": "a"} else _t(" (on disk: {items})", items=sorted(two.files))),
         gate_hint(two) if two.error and not two.files else
         Cause(_t("a write ran before its question was asked: ask first"), key="early") if _early(two) else
         _t("run a call only on its own yes") if "scratch/b.txt" in two.files else
         _t("a no for one call must not stop the other: run every call that was approved"), follows=once)
    uses, results = two.rounds[0] if two.rounds else ([], [])
    results = results if isinstance(results, list) else []
    ids = [r.get("tool_use_id") if isinstance(r, dict) else None for r in results]
    in_order = Cause(_t("every call gets exactly one tool_result, in the tool_use order, in ONE list (the rejected "
                        "one too): build the list in the order of the calls, not rejections after the runs"),
                     key="order")
    c.ok(ids == [u.id for u in uses] and len(uses) == 2, _t("one tool_result per call, in the order of the calls"),
         gate_hint(two) if two.error and not results else in_order)
    by_id = {r.get("tool_use_id"): r for r in results if isinstance(r, dict)}
    a = by_id.get(uses[0].id, {}) if uses else {}
    b = by_id.get(uses[1].id, {}) if len(uses) > 1 else {}
    c.ok(bool(a) and not a.get("is_error") and read_as("write_file", b) == "declined" and b.get("is_error") is True,
         _t("scratch/a.txt's result is the tool's output; scratch/b.txt's is an is_error rejection"),
         gate_hint(two) if two.error and not results else
         _t("each call's result belongs to that call: the approved one gets its tool's output, the rejected one "
         "REJECTED_MESSAGE with is_error=True"), follows=once)
    c.ok(_finished(two), _t("the API accepted every request and the model finished") + (f" — {two.error}" if two.error
                                                                                     else ""), gate_hint(two))
    flip = await gate_drive(valve, "parallel", TWO_WRITES, answer=lambda n, i: i.get("path") == "scratch/b.txt")
    flip_asked = [i.get("path") for _, i in _asked(flip, "write_file")]
    fuses, fresults = flip.rounds[0] if flip.rounds else ([], [])
    fids = [r.get("tool_use_id") if isinstance(r, dict) else None for r in fresults] \
        if isinstance(fresults, list) else None
    c.ok(flip.files == {"scratch/b.txt": "b"} and flip_asked == ["scratch/a.txt", "scratch/b.txt"]
         and _finished(flip),
         _t("the other way round (no to a, yes to b): both are asked about, and only scratch/b.txt is written")
         + ("" if flip.files == {"scratch/b.txt": "b"} else _t(" (on disk: {items})", items=sorted(flip.files)))
         + ("" if flip_asked == ["scratch/a.txt", "scratch/b.txt"] else _t(" (asked about: {flip_asked})", flip_asked=flip_asked)),
         gate_hint(flip) if flip.error else
         _t("after a no, go on asking: every high-impact call gets its own question, and a call nobody was asked "
         "about must not run") if len(flip_asked) < 2 else
         Cause(_t("a write ran before its question was asked: ask first"), key="early") if _early(flip) else
         _t("a first no must not decide the rest of the turn: answer each call by its own answer"), follows=once)
    c.ok(fids == [u.id for u in fuses] and len(fuses) == 2,
         _t("the other way round too, one tool_result per call in the order of the calls (a rejected call before an "
            "approved one keeps its place)"),
         gate_hint(flip) if flip.error and not fresults else in_order)
    mixed = await gate_drive(valve, "parallel", MIXED, answer=True)
    kinds = [(k, n) for k, n, _ in mixed.events]
    first_ran = next((i for i, (k, _) in enumerate(kinds) if k == "ran"), None)
    c.ok(("asked", "write_file") in kinds and first_ran is not None
         and kinds.index(("asked", "write_file")) < first_ran and len(_ran(mixed)) == 3 and _finished(mixed),
         _t("a turn of read_file, write_file and get_time: the question comes before ANY tool of the turn runs, "
         "then all three run"),
         gate_hint(mixed) if mixed.error else
         early if first_ran is not None and ("asked", "write_file") in kinds
         and kinds.index(("asked", "write_file")) > first_ran else
         _t("first ask about every high-impact call, then run the calls (the reads too): a read that runs while the "
         "person is still deciding is already under way whatever they answer"))
    c.done()

# =============================================================================================================
# The checks' words in Spanish (exercises 1 and 2), for the notebooks in exercises/es/ -- see _t() at the top.
# Keyed by the English text as written above; the {fields} are the same. A text not listed here stays English.
# =============================================================================================================

SPANISH = {
    # Checks: the hint label (in the notebook; the grade's summary keeps "hint:"), the closing line
    "hint": "pista",
    "all criteria met": "todos los criterios se cumplen",
    "{cell_id}: {n} criterion(s) not met": "{cell_id}: {n} criterio(s) sin cumplir",
    "{n} criterion(s) not met: fix your cell, run it, then run this check again":
        "{n} criterio(s) sin cumplir: arregla tu celda, ejecútala y vuelve a ejecutar este control",
    # bounded() and the shared helpers
    "runaway: still running after 300 s ({n} requests)":
        "desbocado: sigue en marcha después de 300 s ({n} peticiones)",
    "runaway: still asking the model after {limit} requests":
        "desbocado: sigue preguntando al modelo después de {limit} peticiones",
    "the API refused the next request: {message}": "la API rechazó la petición siguiente: {message}",
    "your code treated the text block the model sends before its calls as a call: handle only blocks whose type "
    "is 'tool_use' (a turn is a sentence, then the tool_use blocks)":
        "tu código trató como una llamada el bloque de texto que el modelo envía antes de sus llamadas: atiende "
        "solo los bloques cuyo type es 'tool_use' (un turno es una frase y luego los bloques tool_use)",
    "write run_tool_uses (it still raises NotImplementedError)":
        "escribe run_tool_uses (todavía lanza NotImplementedError)",
    "every tool_use block needs exactly one tool_result (tool_use_id=block.id), in the next user message; look at "
    "every block of content, not only the first":
        "cada bloque tool_use necesita exactamente un tool_result (tool_use_id=block.id) en el siguiente mensaje "
        "user; recorre todos los bloques de content, no solo el primero",
    "run_tool_uses did not return within 60 s: is it waiting on something?":
        "run_tool_uses no terminó en 60 s: ¿está esperando algo?",
    "{label}: the API accepted every request and the model finished":
        "{label}: la API aceptó todas las peticiones y el modelo terminó",
    "{name} is written and runs": "{name} está escrita y se ejecuta",
    "write {name}: it still raises NotImplementedError": "escribe {name}: todavía lanza NotImplementedError",
    "run the cell that defines {name} first": "ejecuta antes la celda que define {name}",
    "(the other criteria are checked once it runs)": "(los demás criterios se comprueban cuando se ejecute)",
    # exercise 1: check_policy
    "POLICY and DEFAULT_TIER": "POLICY y DEFAULT_TIER",
    "POLICY is a dict: tool name -> 'allow' | 'ask' | 'deny'":
        "POLICY es un dict: nombre de la herramienta -> 'allow' | 'ask' | 'deny'",
    "POLICY is not defined yet: run the exercise cell": "POLICY aún no está definido: ejecuta la celda del ejercicio",
    "fill in POLICY: one entry per tool of the colleague's list":
        "rellena POLICY: una entrada por cada herramienta de la lista de tu compañera",
    "tiers are the plain lowercase strings 'allow', 'ask', 'deny' (found {found})":
        "los niveles son las cadenas 'allow', 'ask' y 'deny', tal cual y en minúsculas (hay {found})",
    "POLICY must be a dict": "POLICY tiene que ser un dict",
    "{name} is not in POLICY yet": "{name} aún no está en POLICY",
    "it is {got!r}; the colleague's list says {tier!r}": "es {got!r}; la lista de tu compañera dice {tier!r}",
    "DEFAULT_TIER fails closed: 'ask' or 'deny'": "DEFAULT_TIER falla en cerrado: 'ask' o 'deny'",
    "with 'allow', any tool added later (delete_file is one already) would run unchecked":
        "con 'allow', cualquier herramienta que se añada después (delete_file ya es una) se ejecutaría sin control",
    "set DEFAULT_TIER to 'ask' or 'deny' (plain lowercase strings)":
        "da a DEFAULT_TIER el valor 'ask' o 'deny' (cadenas tal cual, en minúsculas)",
    # check_allow
    "allow: the tool runs without asking, and its result goes back as it is":
        "allow: la herramienta se ejecuta sin preguntar, y su resultado vuelve tal cual",
    "read_file and get_time (allow) each ran once": "read_file y get_time (allow) se ejecutaron una vez cada una",
    "an allowed tool runs straight away: await arun_tool(tool_impls, block.name, block.input, tools)":
        "una herramienta permitida se ejecuta en el acto: await arun_tool(tool_impls, block.name, block.input, tools)",
    "nobody was asked about an allowed tool": "no se preguntó a nadie por una herramienta permitida",
    "only 'ask' tools go to the approver": "al aprobador solo van las herramientas 'ask'",
    "the tool's output went back as its tool_result content":
        "lo que devolvió la herramienta volvió como content de su tool_result",
    "pass on the text arun_tool returned: tool_result(block.id, text, is_error)":
        "pasa el texto que devolvió arun_tool: tool_result(block.id, text, is_error)",
    "the run": "la ejecución",
    "a tool that fails (read_file of a missing file) is answered with is_error: true":
        "una herramienta que falla (read_file de un archivo que no existe) se responde con is_error: true",
    "keep the tool's own failure: text, is_error = await arun_tool(...) and pass is_error on to tool_result; "
    "dropped, a missing file reaches the model as a success":
        "conserva el fallo de la propia herramienta: text, is_error = await arun_tool(...) y pasa is_error a "
        "tool_result; si lo pierdes, un archivo que no existe le llega al modelo como un éxito",
    "an allowed tool the caller offers, not in the lesson's TOOLS (send_email), runs":
        "se ejecuta una herramienta permitida que ofrece quien llama y que no está en TOOLS de la lección (send_email)",
    "pass the tools argument to arun_tool (arun_tool(tool_impls, name, input, tools)): it checks the input against "
    "the schemas the caller gave, and the lesson's TOOLS has no send_email":
        "pasa el argumento tools a arun_tool (arun_tool(tool_impls, name, input, tools)): comprueba la entrada con "
        "los esquemas que dio quien llama, y TOOLS de la lección no tiene send_email",
    # check_deny
    "deny: the tool never runs, nobody is asked, and the model is told why":
        "deny: la herramienta no se ejecuta nunca, no se pregunta a nadie y al modelo se le dice por qué",
    "send_email (deny) never ran": "send_email (deny) no se ejecutó nunca",
    "look the tier up BEFORE running anything; a deny never reaches arun_tool":
        "consulta el nivel ANTES de ejecutar nada; un deny nunca llega a arun_tool",
    "nobody was asked about send_email": "no se preguntó a nadie por send_email",
    "deny is not ask: a forbidden tool is refused without bothering the person":
        "deny no es ask: una herramienta prohibida se rechaza sin molestar a la persona",
    "the send_email call got exactly one tool_result": "la llamada a send_email recibió exactamente un tool_result",
    "a call you do not run still needs its tool_result (tool_use_id=block.id), or it is left dangling":
        "una llamada que no ejecutas también necesita su tool_result (tool_use_id=block.id); si no, queda colgando",
    "one tool_result per call, not two": "un tool_result por llamada, no dos",
    "... with is_error: true": "... con is_error: true",
    "the call did not succeed: tool_result(..., is_error=True)":
        "la llamada no salió bien: tool_result(..., is_error=True)",
    "... saying the tool is forbidden by policy (so the model does not try again)":
        "... diciendo que la política prohíbe la herramienta (así el modelo no lo vuelve a intentar)",
    "it reads as not approved (an approval's no); the deny text must say it is forbidden by policy (the word 'policy' or "
    "'forbidden'), not REJECTED_MESSAGE":
        "se lee como no aprobada (el no de una aprobación); el texto del deny tiene que decir que la política lo prohíbe (la palabra "
        "'policy' o 'forbidden'), no REJECTED_MESSAGE",
    "say why: e.g. \"send_email is forbidden by policy; it was not run\" (the words 'forbidden' or 'policy')":
        "di por qué: p. ej. \"send_email is forbidden by policy; it was not run\" (las palabras 'forbidden' o "
        "'policy')",
    "a tier that is none of the three (a typo: 'Deny') is treated as deny":
        "un nivel que no es ninguno de los tres (una errata: 'Deny') se trata como deny",
    "the typo ran the tool: fail closed — anything that is not exactly 'allow' or 'ask' is a deny":
        "la errata ejecutó la herramienta: falla en cerrado — todo lo que no sea exactamente 'allow' o 'ask' es "
        "un deny",
    "the typo went to the approver: fail closed — anything that is not exactly 'allow' or 'ask' is a deny":
        "la errata llegó al aprobador: falla en cerrado — todo lo que no sea exactamente 'allow' o 'ask' es un deny",
    "answer it exactly like a deny: one is_error tool_result, forbidden by policy":
        "respóndela igual que a un deny: un tool_result con is_error, prohibida por la política",
    # check_ask
    "ask: the approval gate decides, before the tool runs":
        "ask: decide la válvula de aprobación, antes de que se ejecute la herramienta",
    "write_file (ask) was put to the approver once, with its name and input":
        "write_file (ask) pasó una vez por el aprobador, con su nombre y su entrada",
    "for an 'ask' tool: await approve(block.name, block.input) — the gate you already have":
        "para una herramienta 'ask': await approve(block.name, block.input) — la válvula que ya tienes",
    "approved: write_file ran, and only after the yes": "aprobada: write_file se ejecutó, y solo después del sí",
    "it never ran after a yes: run it when approve(...) returns True":
        "no se ejecutó tras un sí: ejecútala cuando approve(...) devuelva True",
    "ask first, then run: a question asked after the tool ran comes too late, the file is already written":
        "primero pregunta y después ejecuta: una pregunta hecha cuando la herramienta ya se ejecutó llega tarde, el "
        "archivo ya está escrito",
    "rejected: write_file never ran": "rechazada: write_file no se ejecutó nunca",
    "on a no, skip arun_tool": "ante un no, sáltate arun_tool",
    "rejected: the call still got exactly one tool_result, with is_error: true":
        "rechazada: la llamada recibió aun así exactamente un tool_result, con is_error: true",
    "answer it: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — a rejection is a result, not silence":
        "respóndela: tool_result(block.id, REJECTED_MESSAGE, is_error=True) — un rechazo es un resultado, no un "
        "silencio",
    "rejected: the model reads it as not approved": "rechazada: el modelo lo lee como no aprobada",
    "it reads as a refusal by policy: a rejection is not a deny — send REJECTED_MESSAGE":
        "se lee como un rechazo por política: un rechazo de la persona no es un deny — envía REJECTED_MESSAGE",
    "send REJECTED_MESSAGE (from harness_lib.approval): it tells the model the action was not approved":
        "envía REJECTED_MESSAGE (de harness_lib.approval): le dice al modelo que la acción no se aprobó",
    "approved run": "ejecución aprobada",
    "rejected run": "ejecución rechazada",
    "no approver (approve=None): write_file does not run, and gets an is_error tool_result":
        "sin aprobador (approve=None): write_file no se ejecuta y recibe un tool_result con is_error",
    "with no approver nobody can say yes: fail closed, answer it like a rejection":
        "sin aprobador nadie puede decir que sí: falla en cerrado, respóndela como un rechazo",
    "approve=None ran the tool: with no approver nobody can say yes — fail closed, treat it as a no":
        "con approve=None se ejecutó la herramienta: sin aprobador nadie puede decir que sí — falla en cerrado, "
        "tómalo como un no",
    "an approver that answers something other than True (here the string 'no') does not approve":
        "un aprobador que responde algo distinto de True (aquí la cadena 'no') no aprueba",
    "only `True` is a yes: `if await approve(...) is True:` — a truthy 'no' must not run the tool":
        "solo `True` es un sí: `if await approve(...) is True:` — un 'no' que Python toma por verdadero no debe "
        "ejecutar la herramienta",
    # check_default_tier
    "the default tier: what a tool the policy does not list gets":
        "el nivel por defecto: lo que recibe una herramienta que la política no menciona",
    "ran without asking": "se ejecutó sin preguntar",
    "was asked, then ran": "se preguntó por ella y luego se ejecutó",
    "was neither asked about nor run": "ni se preguntó por ella ni se ejecutó",
    "default_tier={tier!r}: the unlisted delete_file {said}":
        "default_tier={tier!r}: delete_file, que no está en la lista, {said}",
    "look the tier up with policy.get(block.name, default_tier): the default_tier argument, not a fixed tier":
        "consulta el nivel con policy.get(block.name, default_tier): el argumento default_tier, no un nivel fijo",
    "default_tier='deny': delete_file got one is_error tool_result saying it is forbidden by policy":
        "default_tier='deny': delete_file recibió un tool_result con is_error que dice que la política lo prohíbe",
    "an unlisted tool that falls to deny is answered exactly like a listed deny":
        "una herramienta que no está en la lista y cae en deny se responde igual que un deny de la lista",
    "a tool the policy lists gets its own tier, not the default":
        "una herramienta que la política menciona recibe su propio nivel, no el de por defecto",
    "use the policy argument the loop passes in (the checks pass their own), not the global POLICY":
        "usa el argumento policy que pasa el bucle (los controles pasan el suyo), no el POLICY global",
    # check_parallel
    "a turn of several calls: approvals first, then one tool_result each, in order":
        "un turno de varias llamadas: primero las aprobaciones, luego un tool_result por llamada, en orden",
    "for a turn of 4 tool calls, run_tool_uses returned a list":
        "para un turno de 4 llamadas a herramientas, run_tool_uses devolvió una lista",
    "return a list of tool_result blocks; the loop sends it as ONE user message":
        "devuelve una lista de bloques tool_result; el bucle la envía como UN mensaje user",
    "exactly one tool_result per tool_use, in the tool_use order":
        "exactamente un tool_result por tool_use, en el orden de los tool_use",
    "one result per tool_use block, in the order of the blocks, none skipped, none twice (the text block before "
    "them gets none)":
        "un resultado por bloque tool_use, en el orden de los bloques, sin saltarse ninguno ni repetirlo (el bloque "
        "de texto que va antes no recibe ninguno)",
    "every block is a tool_result: type, tool_use_id, content (and is_error when it failed)":
        "cada bloque es un tool_result: type, tool_use_id, content (e is_error si falló)",
    "build each one with tool_result(block.id, text, is_error)":
        "construye cada uno con tool_result(block.id, text, is_error)",
    "read_file, get_time and the approved write_file ran; send_email did not":
        "se ejecutaron read_file, get_time y el write_file aprobado; send_email no",
    "allow runs, ask runs after a yes, deny never runs — in a turn of several calls too":
        "allow se ejecuta, ask se ejecuta tras un sí, deny no se ejecuta nunca — también en un turno de varias "
        "llamadas",
    "every approval of the turn was asked before any tool of the turn ran":
        "todas las aprobaciones del turno se pidieron antes de que se ejecutara ninguna herramienta del turno",
    "the kit's rule: first decide every call of the turn (look up tiers, ask the approver for each 'ask'), then "
    "run the calls that may run — here a tool ran before the turn's question was asked":
        "la regla del kit: primero decide todas las llamadas del turno (consulta los niveles, pregunta al aprobador "
        "por cada 'ask') y después ejecuta las que pueden ejecutarse — aquí una herramienta se ejecutó antes de "
        "hacer la pregunta del turno",
    "two write_file calls in one turn: each was asked about, and only the approved one ran":
        "dos llamadas a write_file en un turno: se preguntó por cada una, y solo se ejecutó la aprobada",
    "the approver was asked {n} time(s) for 2 calls: ask once per call (with its own input), and run a call only "
    "on its own yes (ran: {ran})":
        "se preguntó {n} vez (veces) al aprobador para 2 llamadas: pregunta una vez por llamada (con su propia "
        "entrada) y ejecuta cada llamada solo con su propio sí (se ejecutaron: {ran})",
    # exercise 2: the helpers
    "it returned {kind}, not an AgentResult": "devolvió {kind}, no un AgentResult",
    "run the cell that defines MAX_TURNS and run_capped first":
        "ejecuta antes la celda que define MAX_TURNS y run_capped",
    "write run_capped (it still raises NotImplementedError)": "escribe run_capped (todavía lanza NotImplementedError)",
    "the loop turns as long as the model asks for tools: add the cap, `if turns >= max_turns:` at the top":
        "el bucle da vueltas mientras el modelo pida herramientas: añade el tope, `if turns >= max_turns:` al "
        "principio",
    "it must return an AgentResult": "tiene que devolver un AgentResult",
    # check_diagnosis
    "the diagnosis: what the bare loop lacks, and how each absence runs away":
        "el diagnóstico: qué le falta al bucle desnudo, y cómo se desboca por cada ausencia",
    "DIAGNOSIS is a non-empty dict {missing guard: runaway} built from the constants of the 🔒 cell":
        "DIAGNOSIS es un dict no vacío {salvaguarda que falta: desbocamiento} hecho con las constantes de la celda 🔒",
    "DIAGNOSIS is not defined yet: run the exercise cell":
        "DIAGNOSIS aún no está definido: ejecuta la celda del ejercicio",
    "DIAGNOSIS must be a dict": "DIAGNOSIS tiene que ser un dict",
    "fill in DIAGNOSIS: at least one entry": "rellena DIAGNOSIS: al menos una entrada",
    "use the constants' names (e.g. NO_TURN_CAP), not your own text: free text cannot be checked":
        "usa los nombres de las constantes (p. ej. NO_TURN_CAP), no un texto tuyo: un texto libre no se puede "
        "comprobar",
    "(the other criteria are checked once DIAGNOSIS has entries)":
        "(los demás criterios se comprueban cuando DIAGNOSIS tenga entradas)",
    "names every missing guard that lets this loop run away ({named} of {total} named)":
        "nombra todas las salvaguardas que faltan y dejan que este bucle se desboque (nombradas: {named} de {total})",
    "read the while line (who decides when it ends?), then the two runaway runs: what grows without end, and what "
    "goes unnoticed? Each has a guard whose absence allows it":
        "lee la línea del while (¿quién decide cuándo termina?) y luego las dos ejecuciones desbocadas: ¿qué crece "
        "sin fin, y qué pasa inadvertido? Cada cosa tiene una salvaguarda cuya ausencia la permite",
    "each of those guards is mapped to the runaway its absence allows ({right} of {total} right)":
        "cada una de esas salvaguardas va con el desbocamiento que permite su ausencia (bien: {right} de {total})",
    "for each guard ask: without it, what happens when the model keeps asking for tools? Pick the runaway constant "
    "that describes exactly that":
        "pregúntate por cada salvaguarda: sin ella, ¿qué pasa cuando el modelo sigue pidiendo herramientas? Elige la "
        "constante de desbocamiento que describe exactamente eso",
    "no key is a guard whose absence does not make this loop run away":
        "ninguna clave es una salvaguarda cuya ausencia no haga desbocarse a este bucle",
    "no value is a failure this loop does not have": "ningún valor es un fallo que este bucle no tiene",
    "one of your values describes something that does not happen in this loop: look at what it sends back after "
    "every tool_use":
        "uno de tus valores describe algo que no ocurre en este bucle: mira lo que devuelve después de cada tool_use",
    # check_turn_cap
    "the turn cap: a hard stop, asked at the top of the loop body":
        "el tope de turnos: un límite firme, comprobado al principio del cuerpo del bucle",
    "MAX_TURNS is a whole number from 1 to 30": "MAX_TURNS es un número entero entre 1 y 30",
    " (it is {cap!r})": " (es {cap!r})",
    "set MAX_TURNS to your cap, e.g. 8 (the lessons' value)":
        "pon en MAX_TURNS tu tope, p. ej. 8 (el de las lecciones)",
    "a model that never ends its turn is stopped (never-ends, max_turns=3)":
        "un modelo que nunca cierra su turno queda detenido (never-ends, max_turns=3)",
    "exactly 3 tool turns ran (ran: {n})": "se ejecutaron exactamente 3 turnos con herramientas (se ejecutaron: {n})",
    "one turn short: the cap fired with 2 turns done — is `turns` counted before the check? Ask first, then count "
    "the turn":
        "falta un turno: el tope saltó con 2 turnos hechos — ¿cuentas `turns` antes de comprobarlo? Primero "
        "pregunta y luego cuenta el turno",
    "more turns than the cap: ask `turns >= max_turns` before every turn":
        "más turnos que el tope: comprueba `turns >= max_turns` antes de cada turno",
    "fewer turns than the cap: the run ended early": "menos turnos que el tope: la ejecución terminó antes de tiempo",
    "exactly 4 model requests: the first, and one after each turn (sent: {n})":
        "exactamente 4 peticiones al modelo: la primera, y una después de cada turno (enviadas: {n})",
    "stop before running a 4th turn, so no 5th request is sent":
        "detente antes de ejecutar un 4.º turno, para que no se envíe una 5.ª petición",
    "a request after each turn that ran, plus the first":
        "una petición después de cada turno ejecutado, más la primera",
    "it returns AgentResult with stopped_by='max_turns', turns=3, requests=4":
        "devuelve AgentResult con stopped_by='max_turns', turns=3, requests=4",
    " (got {got})": " (se obtuvo {got})",
    "return AgentResult(text, 'max_turns', turns, requests, 0, messages) when the cap fires; turns counts the turns "
    "that ran, requests every request sent":
        "devuelve AgentResult(text, 'max_turns', turns, requests, 0, messages) cuando salta el tope; turns cuenta "
        "los turnos ejecutados, y requests todas las peticiones enviadas",
    "its text says the harness stopped the run (not empty)":
        "su texto dice que el arnés detuvo la ejecución (no vacío)",
    "give the caller a sentence, e.g. f\"Stopped by the harness: turn cap of {max_turns} reached.\"":
        "dale una frase a quien llama, p. ej. f\"El arnés se detuvo: llegó al tope de turnos de {max_turns}.\"",
    "the history it returns can be continued (no tool_use left without its tool_result)":
        "el historial que devuelve se puede continuar (ningún tool_use se queda sin su tool_result)",
    "when the cap fires, return before appending the response whose calls you will not run":
        "cuando salta el tope, devuelve el resultado antes de añadir la respuesta cuyas llamadas no vas a ejecutar",
    "every request offered exactly the tools the caller passed":
        "cada petición ofreció exactamente las herramientas que pasó quien llama",
    "pass the tools argument to messages.create, not a global list (the checks pass their own tools)":
        "pasa el argumento tools a messages.create, no una lista global (los controles pasan sus propias "
        "herramientas)",
    "max_turns=0: not a single turn runs (tool calls: {n}, requests: {requests})":
        "max_turns=0: no se ejecuta ni un turno (llamadas a herramientas: {n}, peticiones: {requests})",
    "with max_turns=0, {n} turn(s) ran: the cap must be asked before the first turn runs, first thing in the loop "
    "body":
        "con max_turns=0 se ejecutaron {n} turno(s): el tope tiene que comprobarse antes de que se ejecute el primer "
        "turno, lo primero del cuerpo del bucle",
    "a turn of 2 parallel calls counts as ONE turn (parallel, max_turns=1: turns=1, the model's answer)":
        "un turno con 2 llamadas en paralelo cuenta como UN turno (parallel, max_turns=1: turns=1, la respuesta "
        "del modelo)",
    " (got stopped_by={stopped_by!r}, turns={turns})": " (se obtuvo stopped_by={stopped_by!r}, turns={turns})",
    "turns counts tool-calling turns (model responses), not tool calls: add 1 per response, however many tool_use "
    "blocks it holds":
        "turns cuenta turnos con llamadas a herramientas (respuestas del modelo), no llamadas: suma 1 por "
        "respuesta, tenga los bloques tool_use que tenga",
    "after its one turn the model ended its turn: return its answer (stopped_by='end_turn'); the cap fires only "
    "when the model asks for one more turn":
        "tras su único turno el modelo cerró su turno: devuelve su respuesta (stopped_by='end_turn'); el tope solo "
        "salta cuando el modelo pide un turno más",
    "count every request you send: the first, and one after the turn":
        "cuenta todas las peticiones que envías: la primera, y una después del turno",
    "run_capped's default cap is MAX_TURNS (without max_turns, {n} turns ran; MAX_TURNS={cap})":
        "el tope por defecto de run_capped es MAX_TURNS (sin max_turns se ejecutaron {n} turnos; MAX_TURNS={cap})",
    "keep `max_turns=MAX_TURNS` as the default in the def line":
        "deja `max_turns=MAX_TURNS` como valor por defecto en la línea def",
    # check_model_answer
    "the cap leaves a model that ends in time alone": "el tope no molesta a un modelo que termina a tiempo",
    "the demo task with max_turns=2: its 2 tool turns ran, in 3 requests (ran: {n}, requests: {requests})":
        "la tarea demo con max_turns=2: se ejecutaron sus 2 turnos con herramientas, en 3 peticiones "
        "(se ejecutaron: {n}, peticiones: {requests})",
    "a cap of 2 must allow 2 turns: compare before counting the turn":
        "un tope de 2 tiene que permitir 2 turnos: compara antes de contar el turno",
    "the task needs 2 turns and the model then ends its turn: send one request per turn, plus the first":
        "la tarea necesita 2 turnos y después el modelo termina su turno: envía una petición por turno, más la primera",
    "it returns the model's own answer (stopped_by='end_turn'), not a cap message":
        "devuelve la respuesta del propio modelo (stopped_by='end_turn'), no un mensaje del tope",
    "the model ended its turn within the cap, so the loop must end by its while condition and return "
    "final_text(response)":
        "el modelo cerró su turno dentro del tope, así que el bucle tiene que terminar por su condición del while "
        "y devolver final_text(response)",
    " — got stopped_by={stopped_by!r}": " — se obtuvo stopped_by={stopped_by!r}",
    "it reports turns=2, requests=3": "informa turns=2, requests=3",
    " (got turns={turns}, requests={requests})": " (se obtuvo turns={turns}, requests={requests})",
    "count a turn when it runs and every request you send":
        "cuenta un turno cuando se ejecuta, y cada petición que envías",
    "the history it returns can be continued": "el historial que devuelve se puede continuar",
    "return the messages list the loop built": "devuelve la lista messages que construyó el bucle",
    "a reply that is neither tool_use nor end_turn (a refusal) ends the run: stopped_by='refusal', 1 request":
        "una respuesta que no es ni tool_use ni end_turn (un rechazo) termina la ejecución: stopped_by='refusal', "
        "1 petición",
    "loop only `while response.stop_reason == \"tool_use\"`: any other stop reason (refusal, max_tokens, …) ends "
    "the loop and is returned as stopped_by; `!= \"end_turn\"` runs an empty tool step":
        "da vueltas solo `while response.stop_reason == \"tool_use\"`: cualquier otro motivo de parada (refusal, "
        "max_tokens, …) termina el bucle y se devuelve como stopped_by; `!= \"end_turn\"` ejecuta un paso de "
        "herramientas vacío",
}


# =============================================================================================================
# The checks' words in Spanish, exercises 3 and 4 (keyed like SPANISH above, by the English template at the _t() call).
# =============================================================================================================

SPANISH_34 = {
    # ---- exercise 3: run_guarded's helpers ---------------------------------------------------------------------
    "the run ended with an error ({problem}): it must end with an AgentResult":
        "la ejecución terminó con un error ({problem}): tiene que terminar con un AgentResult",
    "it must return an AgentResult": "tiene que devolver un AgentResult",
    "something it calls is not written yet ({problem})": "algo a lo que llama aún no está escrito ({problem})",
    "the loop does not stop: keep the turn cap at the top of the body":
        "el bucle no se detiene: mantén el tope de turnos al principio del cuerpo",
    "it returned {kind}, not an AgentResult": "devolvió {kind}, no un AgentResult",
    # ---- exercise 4: gate_hint and check_fail_closed's cases -----------------------------------------------------
    "with no approver (approve=None) nobody can say yes: check `approve is None` before calling it":
        "sin aprobador (approve=None) nadie puede decir que sí: comprueba `approve is None` antes de llamarlo",
    "the approver raised, and the error stopped the run: a broken gate is a closed gate — catch the Exception and "
    "answer the call like a rejection":
        "el aprobador lanzó una excepción y el error detuvo la ejecución: una válvula rota es una válvula cerrada — "
        "captura la Exception y responde la llamada como un rechazo",
    "no approver (approve=None)": "sin aprobador (approve=None)",
    "with no approver nobody can say yes: `if approve is None:` → answer it like a rejection":
        "sin aprobador nadie puede decir que sí: `if approve is None:` → respóndela como un rechazo",
    "an approver that raises an error": "un aprobador que lanza un error",
    "wrap the question: try: … await approve(…) except Exception: → a no (a broken gate is a closed gate)":
        "envuelve la pregunta: try: … await approve(…) except Exception: → un no (una válvula rota es una válvula "
        "cerrada)",
    "an approver that answers nothing (None)": "un aprobador que no responde nada (None)",
    "only `is True` is a yes: None (an approver that forgot its return) is a no":
        "solo `is True` es un sí: None (un aprobador al que se le olvidó el return) es un no",
    "an approver that answers the string 'yes'": "un aprobador que responde la cadena 'yes'",
    "only `is True` is a yes: `if await approve(...):` lets any truthy value through":
        "solo `is True` es un sí: `if await approve(...):` deja pasar cualquier valor que Python tome por verdadero",
    # ---- check_tokens --------------------------------------------------------------------------------------------
    "tokens_of: every token one response was billed for": "tokens_of: todos los tokens que se facturaron por una respuesta",
    "no caching: input_tokens + output_tokens (1200 + 80 = 1280)": "sin caché: input_tokens + output_tokens (1200 + 80 = 1280)",
    " (got {got!r})": " (se obtuvo {got!r})",
    "it raised {problem}": "lanzó {problem}",
    "return a whole number: usage.input_tokens + usage.output_tokens + …":
        "devuelve un número entero: usage.input_tokens + usage.output_tokens + …",
    "(a cached run on the offline model: the 1st response wrote {cache_creation_input_tokens} tokens to the cache, "
    "the 2nd read {cache_read_input_tokens} from it; input_tokens was only {input_tokens}, then {input_tokens2})":
        "(una ejecución con caché en el modelo sin conexión: la 1.ª respuesta escribió {cache_creation_input_tokens} "
        "tokens en la caché y la 2.ª leyó {cache_read_input_tokens} de ella; input_tokens fue solo {input_tokens} y "
        "luego {input_tokens2})",
    "the first request of a cached run counts its cache writes: {all_four} tokens":
        "la primera petición de una ejecución con caché cuenta lo que escribió en la caché: {all_four} tokens",
    "input + output alone is {short}: with caching on, the cached part of the prompt is billed as "
    "cache_creation_input_tokens (first time) and cache_read_input_tokens (after): add both":
        "solo entrada + salida da {short}: con la caché activada, la parte del prompt que está en caché se factura "
        "como cache_creation_input_tokens (la primera vez) y cache_read_input_tokens (después): suma los dos",
    "add every billed counter: input, output, cache_creation_input_tokens, cache_read_input_tokens":
        "suma todos los contadores que se facturan: entrada, salida, cache_creation_input_tokens, "
        "cache_read_input_tokens",
    "a later request counts its cache reads: {all_four} tokens":
        "una petición posterior cuenta lo que leyó de la caché: {all_four} tokens",
    "cache reads are billed too (cheaper per token, but they fill the context and the budget): add "
    "usage.cache_read_input_tokens":
        "las lecturas de la caché también se facturan (más baratas por token, pero llenan el contexto y el "
        "presupuesto): suma usage.cache_read_input_tokens",
    "a usage whose cache counters are missing (None) counts them as 0 (30 + 12 = 42)":
        "un usage al que le faltan los contadores de caché (None) los cuenta como 0 (30 + 12 = 42)",
    "a counter can be None: `usage.cache_read_input_tokens or 0` (None + int raises TypeError)":
        "un contador puede ser None: `usage.cache_read_input_tokens or 0` (None + int lanza TypeError)",
    "a missing counter is 0": "un contador que falta vale 0",
    "a usage shaped like a live one (cache_creation also broken down by lifetime) counts the cache writes once "
    "(50 + 20 + 3000 = 3070)":
        "un usage con la forma de uno en vivo (cache_creation desglosado además por duración) cuenta una sola vez "
        "lo escrito en la caché (50 + 20 + 3000 = 3070)",
    "usage.cache_creation is a breakdown of cache_creation_input_tokens (by cache lifetime), not more tokens: add "
    "the four *_tokens counters, nothing else":
        "usage.cache_creation es un desglose de cache_creation_input_tokens (por duración de la caché), no más "
        "tokens: suma los cuatro contadores *_tokens y nada más",
    # ---- check_budget --------------------------------------------------------------------------------------------
    "valve 2: the token budget, checked after the cap and before spending more":
        "válvula 2: el tope de presupuesto, comprobado después del tope de turnos y antes de gastar más",
    "token-hog, max_turns=8, token_budget=40,000: stopped_by='token_budget' after {turns} turns and {requests} "
    "requests":
        "token-hog, max_turns=8, token_budget=40_000: stopped_by='token_budget' tras {turns} turnos y {requests} "
        "peticiones",
    " (got {got})": " (se obtuvo {got})",
    "stopped at the wrong moment (turns={got_1}, requests={got_2}): add each response's tokens as it arrives, and "
    "ask `tokens_used >= token_budget` at the top of the body, right after the cap":
        "se detuvo en mal momento (turns={got_1}, requests={got_2}): suma los tokens de cada respuesta en cuanto "
        "llega y comprueba `tokens_used >= token_budget` al principio del cuerpo, justo después del tope de turnos",
    "tokens_used is the sum over every request, the first included ({tokens_used})":
        "tokens_used es la suma de todas las peticiones, la primera incluida ({tokens_used})",
    " (got {tokens_used})": " (se obtuvo {tokens_used})",
    "add tokens_of(response.usage) after EVERY request, the first one included, and return the total":
        "suma tokens_of(response.usage) después de CADA petición, la primera incluida, y devuelve el total",
    "the tools ran in exactly the {turns} turns that were allowed (ran: {n})":
        "las herramientas se ejecutaron exactamente en los {turns} turnos permitidos (se ejecutaron: {n})",
    "stop before running the turn that would spend more, not after":
        "detente antes de ejecutar el turno que gastaría más, no después",
    "the history it returns can be continued (no tool_use left without its tool_result)":
        "el historial que devuelve se puede continuar (ningún tool_use se queda sin su tool_result)",
    "return before appending the response whose calls you will not run":
        "devuelve el resultado antes de añadir la respuesta cuyas llamadas no vas a ejecutar",
    "every request offered exactly the tools the caller passed":
        "cada petición ofreció exactamente las herramientas que pasó quien llama",
    "pass the tools argument to messages.create": "pasa el argumento tools a messages.create",
    "token_budget=1: the first response already spends it, so no turn runs (1 request)":
        "token_budget=1: la primera respuesta ya lo gasta, así que no se ejecuta ningún turno (1 petición)",
    "max_turns=0 and token_budget=1 both say stop: the turn cap, checked first, names it":
        "max_turns=0 y token_budget=1 dicen los dos que hay que parar: lo nombra el tope de turnos, que se comprueba "
        "primero",
    "the order at the top of the body is: turn cap, then token budget (the lessons' valve order)":
        "el orden al principio del cuerpo es: tope de turnos y luego tope de presupuesto (el orden de las válvulas "
        "de las lecciones)",
    "a budget reached exactly (token_budget={totals_3}, the total after 4 requests) stops the run: `>=`, not `>`":
        "un presupuesto alcanzado justo (token_budget={totals_3}, el total tras 4 peticiones) detiene la ejecución: "
        "`>=`, no `>`",
    "spent == budget means the budget is used up: `if tokens_used >= token_budget:`":
        "gastado == presupuesto significa que el presupuesto se agotó: `if tokens_used >= token_budget:`",
    "count every response's tokens (the first too) and stop at the top of the body once the total reaches the "
    "budget":
        "cuenta los tokens de cada respuesta (también de la primera) y detente al principio del cuerpo en cuanto el "
        "total llegue al presupuesto",
    "a model that ends its turn keeps its answer, even when that last response crosses the budget":
        "un modelo que cierra su turno conserva su respuesta, aunque esa última respuesta se pase del presupuesto",
    " (got stopped_by={stopped_by!r})": " (se obtuvo stopped_by={stopped_by!r})",
    "the budget is checked before spending MORE: once the model has answered nothing more will be spent, so return "
    "its answer. A check after the request (at the bottom of the body) replaces it with a stop":
        "el presupuesto se comprueba antes de gastar MÁS: cuando el modelo ya respondió no se va a gastar nada más, "
        "así que devuelve su respuesta. Una comprobación después de la petición (al final del cuerpo) la cambia por "
        "una parada",
    "with prompt caching on, the budget counts the cached tokens too (token_budget={true_totals_2}: reached after 3 "
    "requests)":
        "con la caché de prompts activada, el presupuesto cuenta también los tokens de la caché "
        "(token_budget={true_totals_2}: se alcanza tras 3 peticiones)",
    "the loop must add tokens_of(response.usage) — all four counters — not input_tokens + output_tokens: a cached "
    "prompt shows up in cache_read_input_tokens":
        "el bucle tiene que sumar tokens_of(response.usage) —los cuatro contadores—, no input_tokens + "
        "output_tokens: un prompt en caché aparece en cache_read_input_tokens",
    # ---- check_progress ------------------------------------------------------------------------------------------
    "valve 3: a model walking in place is stopped before the repeated turn runs":
        "válvula 3: a un modelo que gira en vacío se le detiene antes de que se ejecute el turno repetido",
    "stuck: stopped_by='no_progress' after 1 turn and 2 requests":
        "stuck: stopped_by='no_progress' tras 1 turno y 2 peticiones",
    "the same call twice in a row must stop the run: keep `signatures`, append signature_of(response.content), and "
    "return stopped_by='no_progress' when find_loop(signatures) finds a loop":
        "la misma llamada dos veces seguidas tiene que detener la ejecución: lleva `signatures`, añade "
        "signature_of(response.content) y devuelve stopped_by='no_progress' cuando find_loop(signatures) encuentre "
        "un ciclo",
    "the second, identical response is caught before it runs: append its signature and check BEFORE `turns += 1` "
    "and before the tools run":
        "la segunda respuesta, idéntica, se detecta antes de ejecutarla: añade su firma y comprueba ANTES de "
        "`turns += 1` y antes de que se ejecuten las herramientas",
    "the repeated call never ran: read_file ran once (ran: {n})":
        "la llamada repetida no llegó a ejecutarse: read_file se ejecutó una vez (se ejecutó: {n})",
    "check for no progress before running the tools, not after":
        "comprueba la falta de progreso antes de ejecutar las herramientas, no después",
    "never-ends (a new file every turn): not stopped as no progress — the cap stops it after 4 turns":
        "never-ends (un archivo nuevo en cada turno): no se detiene por falta de progreso — lo detiene el tope de "
        "turnos tras 4 turnos",
    "a call with a different argument is a different signature: signature_of must include each call's input":
        "una llamada con un argumento distinto es una firma distinta: signature_of tiene que incluir la entrada de "
        "cada llamada",
    "keep the turn cap as it was": "deja el tope de turnos como estaba",
    "the lesson's task (2 different turns, then the answer) is left alone":
        "la tarea de la lección (2 turnos distintos y luego la respuesta) sigue su curso",
    "a model that makes progress must get to its answer": "un modelo que avanza tiene que llegar a su respuesta",
    "stuck with max_turns=1: the cap, asked first, stops the second turn":
        "stuck con max_turns=1: el tope de turnos, que se comprueba primero, detiene el segundo turno",
    "the order at the top of the body: turn cap, token budget, then no progress":
        "el orden al principio del cuerpo: tope de turnos, tope de presupuesto y después falta de progreso",
    "stuck with token_budget={totals_1} (spent after 2 requests): the budget, asked before no progress, stops it":
        "stuck con token_budget={totals_1} (gastado tras 2 peticiones): lo detiene el presupuesto, que se comprueba "
        "antes que la falta de progreso",
    "no budget check stopped it: see check-budget": "no lo detuvo ninguna comprobación del presupuesto: mira check-budget",
    "the budget must stop it first: the order at the top of the body is turn cap, token budget (`tokens_used >= "
    "token_budget`: spent == budget is used up), then no progress":
        "primero tiene que detenerlo el presupuesto: el orden al principio del cuerpo es tope de turnos, tope de "
        "presupuesto (`tokens_used >= token_budget`: gastado == presupuesto es que se agotó) y luego falta de "
        "progreso",
    "find_loop is asked once per tool-calling turn with every signature so far, oldest first":
        "se pregunta a find_loop una vez por turno con llamadas a herramientas, con todas las firmas hasta ese "
        "momento, la más antigua primero",
    " (it was given lists of length {value})": " (recibió listas de longitud {value})",
    "find_loop was never called: call find_loop(signatures) (the argument), not your own comparison":
        "nunca se llamó a find_loop: llama a find_loop(signatures) (el argumento), no a una comparación tuya",
    "keep ONE list for the run, append each turn's signature, and pass the whole list every turn":
        "lleva UNA lista para toda la ejecución, añade la firma de cada turno y pasa la lista entera en cada turno",
    "when find_loop returns a period, the run stops as no progress (a detector that fires at the 3rd turn: 2 turns "
    "ran)":
        "cuando find_loop devuelve un periodo, la ejecución se detiene por falta de progreso (un detector que salta "
        "en el 3.er turno: se ejecutaron 2 turnos)",
    "stop when find_loop(signatures) returns a period (any number but None/0): the loop must use its verdict":
        "detente cuando find_loop(signatures) devuelva un periodo (cualquier número salvo None/0): el bucle tiene "
        "que hacer caso a su veredicto",
    # ---- check_signature -----------------------------------------------------------------------------------------
    "signature_of: one turn's tool calls, as one comparable fingerprint":
        "signature_of: las llamadas a herramientas de un turno, como una huella que se puede comparar",
    "it takes a response's content (text and tool_use blocks)":
        "acepta el content de una respuesta (bloques de texto y tool_use)",
    "skip the blocks that are not tool_use (the text a turn opens with has no name or input)":
        "sáltate los bloques que no son tool_use (el texto con el que se abre un turno no tiene name ni input)",
    "the same call in two turns gives the same signature (each turn's blocks have new ids)":
        "la misma llamada en dos turnos da la misma firma (los bloques de cada turno traen ids nuevos)",
    "leave the block ids out: every tool_use gets a fresh id, so a signature with ids never repeats":
        "deja fuera los ids de los bloques: cada tool_use trae un id nuevo, así que una firma con ids no se repite "
        "nunca",
    "the text before the calls does not change the signature": "el texto previo a las llamadas no cambia la firma",
    "only the tool_use blocks count: the model's sentence changes every turn while it walks in place":
        "solo cuentan los bloques tool_use: la frase del modelo cambia en cada turno aunque esté girando en vacío",
    "the same calls in another order give the same signature": "las mismas llamadas en otro orden dan la misma firma",
    "sort the calls (e.g. the strings 'name(input)') before joining them: a parallel turn's order is not meaningful":
        "ordena las llamadas (p. ej. las cadenas 'name(input)') antes de unirlas: el orden de un turno en paralelo "
        "no significa nada",
    "the same input with its keys in another order (nested ones too) gives the same signature":
        "la misma entrada con sus claves en otro orden (también las anidadas) da la misma firma",
    "write the input as JSON with sorted keys: json.dumps(block.input, sort_keys=True) (str(dict) keeps the order "
    "the keys came in)":
        "escribe la entrada como JSON con las claves ordenadas: json.dumps(block.input, sort_keys=True) (str(dict) "
        "conserva el orden en que llegaron las claves)",
    "a different argument gives a different signature": "un argumento distinto da una firma distinta",
    "include each call's input, not just its name: reading page 1 and page 2 is not walking in place":
        "incluye la entrada de cada llamada, no solo su nombre: leer la página 1 y la 2 no es girar en vacío",
    "a different tool with the same input gives a different signature":
        "otra herramienta con la misma entrada da una firma distinta",
    "include each call's name": "incluye el nombre de cada llamada",
    # ---- check_cycle ---------------------------------------------------------------------------------------------
    "find_short_cycle: A, B, A, B … within a bounded look-back":
        "find_short_cycle: A, B, A, B… mirando atrás solo hasta cierto punto",
    "it returns the period of a cycle at the end: A A → 1, A B A B → 2, A B C A B C → 3, X A B A B → 2":
        "devuelve el periodo de un ciclo al final: A A → 1, A B A B → 2, A B C A B C → 3, X A B A B → 2",
    " (got {wrong})": " (se obtuvo {wrong})",
    "for p in 1 … max_period: the last p signatures equal the p before them → return p":
        "para p en 1 … max_period: si las últimas p firmas son iguales a las p anteriores → devuelve p",
    "no cycle, no answer: [], A, A B, A B A, A B C D → None": "sin ciclo no hay respuesta: [], A, A B, A B A, A B C D → None",
    " (got {loud})": " (se obtuvo {loud})",
    "a cycle needs its block twice in a row; with too few signatures for a period, skip that period":
        "un ciclo necesita su bloque dos veces seguidas; si no hay firmas suficientes para un periodo, sáltate ese "
        "periodo",
    "a signature seen before, after progress, is not a cycle: A B C A → None; a cycle the model has left behind does "
    "not count: A B A B C → None":
        "una firma que ya salió, después de avanzar, no es un ciclo: A B C A → None; un ciclo que el modelo ya dejó "
        "atrás no cuenta: A B A B C → None",
    " (got {revisit!r}, {left!r})": " (se obtuvo {revisit!r}, {left!r})",
    "look only at the END of the list: the last p signatures against the p just before them, not anywhere in the "
    "history (a model may come back to a file after doing something else)":
        "mira solo el FINAL de la lista: las últimas p firmas frente a las p justo anteriores, no en cualquier punto "
        "del historial (un modelo puede volver a un archivo después de hacer otra cosa)",
    "it looks back at most 2 × max_period signatures: longer cycles are not its business":
        "mira atrás como mucho 2 × max_period firmas: los ciclos más largos no son asunto suyo",
    " (got {over})": " (se obtuvo {over})",
    "try only p = 1 … max_period (the argument; default 3): that bounds how far back it looks":
        "prueba solo p = 1 … max_period (el argumento; por defecto 3): eso limita cuánto mira hacia atrás",
    "max_period=3 is honoured (A B C A B C → 3)": "se respeta max_period=3 (A B C A B C → 3)",
    " (got {three!r})": " (se obtuvo {three!r})",
    "use the max_period argument, not a fixed number of periods":
        "usa el argumento max_period, no un número fijo de periodos",
    "in a loop, ping-pong (read_file, get_time, …) is stopped at the 4th response: 3 turns ran":
        "dentro de un bucle, el ping-pong (read_file, get_time, …) se detiene en la 4.ª respuesta: se ejecutaron 3 "
        "turnos",
    " (got {stopped_by}, {turns} turns)": " (se obtuvo {stopped_by}, {turns} turnos)",
    "A B A B is a cycle of period 2": "A B A B es un ciclo de periodo 2",
    "a task that reads README.md, tells the time, then reads README.md again (A B A) gets to its answer":
        "una tarea que lee README.md, dice la hora y vuelve a leer README.md (A B A) llega a su respuesta",
    "A B A is no cycle yet: only a block repeated twice in a row at the end is":
        "A B A todavía no es un ciclo: solo lo es un bloque repetido dos veces seguidas al final",
    "plugged into your run_guarded: ping-pong stops as no progress after 3 turns and 4 requests":
        "enchufado a tu run_guarded: el ping-pong se detiene por falta de progreso tras 3 turnos y 4 peticiones",
    "run_guarded must stop when find_loop(signatures) returns a period (see check-progress)":
        "run_guarded tiene que detenerse cuando find_loop(signatures) devuelve un periodo (mira check-progress)",
    # ---- check_why_wrong -----------------------------------------------------------------------------------------
    "why asking after running is no approval gate":
        "por qué preguntar después de ejecutar no es ninguna válvula de aprobación",
    "WHY_WRONG is a non-empty set of the statements of the 🔒 cell":
        "WHY_WRONG es un conjunto no vacío de afirmaciones de la celda 🔒",
    "WHY_WRONG is not defined yet: run the exercise cell": "WHY_WRONG aún no está definido: ejecuta la celda del ejercicio",
    "WHY_WRONG must be a set (or list) of the statements' constants":
        "WHY_WRONG tiene que ser un conjunto (o una lista) de las constantes de las afirmaciones",
    "fill in WHY_WRONG: at least one statement": "rellena WHY_WRONG: al menos una afirmación",
    "use the constants' names (e.g. SLOWER), not your own text: free text cannot be checked":
        "usa los nombres de las constantes (p. ej. SLOWER), no un texto tuyo: un texto libre no se puede comprobar",
    "(the other criteria are checked once WHY_WRONG has entries)":
        "(los demás criterios se comprueban cuando WHY_WRONG tenga entradas)",
    "names every reason the run above shows ({named} of {n} named)":
        "nombra todas las razones que muestra la ejecución de arriba (nombradas: {named} de {n})",
    "go through the run again: what did the disk say after the no, what was the model told, and when was the person "
    "asked? Each answer is one reason":
        "repasa la ejecución: ¿qué había en disco después del no, qué se le dijo al modelo y cuándo se preguntó a la "
        "persona? Cada respuesta es una razón",
    "does not agree with the colleague's argument": "no le da la razón al argumento de tu compañera",
    "one of your statements is the colleague's own argument, which the run above disproves":
        "una de tus afirmaciones es el propio argumento de tu compañera, y la ejecución de arriba lo desmiente",
    "no statement the run above shows to be untrue of this wiring":
        "ninguna afirmación que la ejecución de arriba muestre falsa para este montaje",
    "one of your statements is not what happened: look at the tool_result the model got, and at which calls waited "
    "for the person":
        "una de tus afirmaciones no es lo que ocurrió: mira el tool_result que recibió el modelo, y qué llamadas "
        "esperaron a la persona",
    # ---- check_gate ----------------------------------------------------------------------------------------------
    "the gate sits before execution: a no means the tool never runs":
        "la válvula va antes de la ejecución: un no significa que la herramienta no llega a ejecutarse",
    "write_file was put to the approver once, with its name and input":
        "se preguntó al aprobador por write_file una vez, con su nombre y su entrada",
    "it was asked {n} times: once per call — await approve(block.name, block.input)":
        "se preguntó {n} veces: una por llamada — await approve(block.name, block.input)",
    "rejected: write_file never ran, and scratch/answer.txt is not on disk":
        "rechazada: write_file no se ejecutó nunca, y scratch/answer.txt no está en disco",
    "the file was written although the person said no: ask BEFORE the tool runs, and run it only after a yes":
        "el archivo se escribió aunque la persona dijo que no: pregunta ANTES de que se ejecute la herramienta, y "
        "ejecútala solo después de un sí",
    "rejected: the call got exactly one tool_result, with is_error: true":
        "rechazada: la llamada recibió exactamente un tool_result, con is_error: true",
    "answer a rejected call too: tool_result(block.id, REJECTED_MESSAGE, is_error=True)":
        "responde también a una llamada rechazada: tool_result(block.id, REJECTED_MESSAGE, is_error=True)",
    "rejected: the model reads it as not approved": "rechazada: el modelo lo lee como no aprobada",
    "send REJECTED_MESSAGE: it tells the model the action was not approved":
        "envía REJECTED_MESSAGE: le dice al modelo que la acción no se aprobó",
    "rejected run: the API accepted every request and the model finished":
        "ejecución rechazada: la API aceptó todas las peticiones y el modelo terminó",
    "approved: write_file ran after the yes, and the file is on disk":
        "aprobada: write_file se ejecutó después del sí, y el archivo está en disco",
    "after a yes, run it: await arun_tool(tool_impls, block.name, block.input, tools)":
        "tras un sí, ejecútala: await arun_tool(tool_impls, block.name, block.input, tools)",
    "approved run: the API accepted every request and the model finished":
        "ejecución aprobada: la API aceptó todas las peticiones y el modelo terminó",
    "read_file and get_time ran without anybody being asked":
        "read_file y get_time se ejecutaron sin preguntar a nadie",
    "only calls whose name is in high_impact go to the approver":
        "al aprobador solo van las llamadas cuyo nombre está en high_impact",
    "approved, but the tool itself fails (outside scratch/): its tool_result keeps is_error: true":
        "aprobada, pero la propia herramienta falla (fuera de scratch/): su tool_result conserva is_error: true",
    "pass on the tool's own verdict: text, is_error = await arun_tool(...); tool_result(block.id, text, is_error)":
        "pasa el veredicto de la propia herramienta: text, is_error = await arun_tool(...); "
        "tool_result(block.id, text, is_error)",
    "the gate follows the high_impact set it is given (here it names send_email: asked, rejected, not sent)":
        "la válvula sigue el conjunto high_impact que recibe (aquí incluye send_email: se pregunta, se rechaza y no "
        "se envía)",
    "use the high_impact argument, not the global HIGH_IMPACT: the caller decides what needs a person":
        "usa el argumento high_impact, no el HIGH_IMPACT global: quien llama decide qué necesita a una persona",
    # ---- check_fail_closed ---------------------------------------------------------------------------------------
    "fail closed: no approver, a broken one or an unclear answer is a no":
        "fallar en cerrado: sin aprobador, con uno roto o con una respuesta dudosa, es un no",
    "{label}: write_file does not run, its call gets an is_error tool_result, and the run goes on":
        "{label}: write_file no se ejecuta, su llamada recibe un tool_result con is_error y la ejecución sigue",
    "answer the refused call: tool_result(block.id, <why>, is_error=True)":
        "responde a la llamada rechazada: tool_result(block.id, <motivo>, is_error=True)",
    # ---- check_parallel_gate -------------------------------------------------------------------------------------
    "a parallel turn: two writes, one approved and one rejected":
        "un turno en paralelo: dos escrituras, una aprobada y otra rechazada",
    "each write was put to the approver once, with its own input, in the order of the calls":
        "se preguntó al aprobador por cada escritura una vez, con su propia entrada, en el orden de las llamadas",
    " (asked about: {asked})": " (se preguntó por: {asked})",
    "ask once per call, each with its own block.input: one answer does not cover the turn":
        "pregunta una vez por llamada, cada una con su propio block.input: una sola respuesta no vale para todo el "
        "turno",
    "ask about each call once": "pregunta por cada llamada una sola vez",
    "both questions were asked before any tool of the turn ran":
        "las dos preguntas se hicieron antes de que se ejecutara ninguna herramienta del turno",
    "the kit's rule: decide every call of the turn first (ask about each high-impact one), then run what may run — "
    "here a tool ran before every question of the turn had been asked":
        "la regla del kit: primero decide todas las llamadas del turno (pregunta por cada una de alto impacto) y "
        "después ejecuta lo que puede ejecutarse — aquí una herramienta se ejecutó antes de que se hicieran todas "
        "las preguntas del turno",
    "only the approved write happened: scratch/a.txt is on disk, scratch/b.txt is not":
        "solo ocurrió la escritura aprobada: scratch/a.txt está en disco y scratch/b.txt no",
    " (on disk: {items})": " (en disco: {items})",
    "a write ran before its question was asked: ask first":
        "una escritura se ejecutó antes de que se hiciera su pregunta: pregunta primero",
    "run a call only on its own yes": "ejecuta cada llamada solo con su propio sí",
    "a no for one call must not stop the other: run every call that was approved":
        "el no a una llamada no debe detener la otra: ejecuta todas las llamadas aprobadas",
    "one tool_result per call, in the order of the calls": "un tool_result por llamada, en el orden de las llamadas",
    "scratch/a.txt's result is the tool's output; scratch/b.txt's is an is_error rejection":
        "el resultado de scratch/a.txt es lo que devolvió la herramienta; el de scratch/b.txt, un rechazo con "
        "is_error",
    "each call's result belongs to that call: the approved one gets its tool's output, the rejected one "
    "REJECTED_MESSAGE with is_error=True":
        "el resultado de cada llamada es de esa llamada: la aprobada recibe lo que devolvió su herramienta, y la "
        "rechazada REJECTED_MESSAGE con is_error=True",
    "the API accepted every request and the model finished": "la API aceptó todas las peticiones y el modelo terminó",
    "the other way round (no to a, yes to b): both are asked about, and only scratch/b.txt is written":
        "al revés (no a a, sí a b): se pregunta por las dos y solo se escribe scratch/b.txt",
    " (asked about: {flip_asked})": " (se preguntó por: {flip_asked})",
    "after a no, go on asking: every high-impact call gets its own question, and a call nobody was asked about must "
    "not run":
        "después de un no, sigue preguntando: cada llamada de alto impacto recibe su propia pregunta, y una llamada "
        "por la que no se preguntó no debe ejecutarse",
    "a first no must not decide the rest of the turn: answer each call by its own answer":
        "un primer no no debe decidir el resto del turno: responde cada llamada según su propia respuesta",
    "a turn of read_file, write_file and get_time: the question comes before ANY tool of the turn runs, then all "
    "three run":
        "un turno con read_file, write_file y get_time: la pregunta llega antes de que se ejecute NINGUNA "
        "herramienta del turno, y después se ejecutan las tres",
    "first ask about every high-impact call, then run the calls (the reads too): a read that runs while the person "
    "is still deciding is already under way whatever they answer":
        "pregunta primero por cada llamada de alto impacto y después ejecuta las llamadas (también las lecturas): "
        "una lectura que se ejecuta mientras la persona aún decide ya está en marcha responda lo que responda",
    "the API refused the next request: {message}": "la API rechazó la petición siguiente: {message}",
    # ---- first causes, and what follows from them (issue 25) --------------------------------------------------
    "(empty)":
        "(vacía)",
    " (line {n})":
        " (línea {n})",
    "follows from the ✗ above: fix that first":
        "es consecuencia del ✗ de arriba: arregla eso primero",
    "your cell raised {error}, so {name} is not defined: fix it and run the cell again":
        "tu celda lanzó {error}, así que {name} no está definida: corrígela y vuelve a ejecutar la celda",
    "a rejected call did not succeed: mark its result is_error=True — tool_result(block.id, REJECTED_MESSAGE, "
    "is_error=True)":
        "una llamada rechazada no tuvo éxito: marca su resultado con is_error=True — tool_result(block.id, "
        "REJECTED_MESSAGE, is_error=True)",
    "a short list raised: with too few signatures for a period, skip that period":
        "una lista corta lanzó una excepción: si no hay firmas suficientes para un periodo, sáltate ese periodo",
    "a tool the policy does not list raised {error}: look its tier up with policy.get(block.name, default_tier)":
        "una herramienta que la política no incluye lanzó {error}: busca su nivel con policy.get(block.name, "
        "default_tier)",
    "call the approver with the call's name and input: await approve(block.name, block.input) (the run stopped "
    "with {error})":
        "llama al aprobador con el nombre y la entrada de la llamada: await approve(block.name, block.input) (la "
        "ejecución se detuvo con {error})",
    "check the budget at the TOP of the body, before the first turn runs: a check at the bottom, after the next "
    "request, lets the first turn run whatever the first response cost":
        "comprueba el presupuesto al PRINCIPIO del cuerpo, antes de que se ejecute el primer turno: una "
        "comprobación al final, después de la petición siguiente, deja correr el primer turno cueste lo que cueste "
        "la primera respuesta",
    "every call gets exactly one tool_result, in the tool_use order, in ONE list (the rejected one too): build the "
    "list in the order of the calls, not rejections after the runs":
        "cada llamada recibe exactamente un tool_result, en el orden de los tool_use, en UNA sola lista (también "
        "la rechazada): construye la lista en el orden de las llamadas, no con los rechazos después de lo "
        "ejecutado",
    "it finds a repeat anywhere in the list: look only at the END — the last p signatures against the p just "
    "before them (a model may come back to a file after doing something else)":
        "encuentra una repetición en cualquier parte de la lista: mira solo el FINAL — las últimas p firmas contra "
        "las p justo anteriores (un modelo puede volver a un archivo después de hacer otra cosa)",
    "it reports requests={got}, but the API received {sent}: count every request you send (the first, and "
    "`requests += 1` after each messages.create)":
        "indica requests={got}, pero la API recibió {sent}: cuenta cada petición que envías (la primera, y "
        "`requests += 1` después de cada messages.create)",
    "it says why it stopped (a text of the harness, not the model's), and the history it returns can be continued":
        "dice por qué se detuvo (un texto del arnés, no del modelo), y el historial que devuelve se puede continuar",
    "it tried the longest period first: A A A A A A repeats with period 1, 2 and 3, and the answer is the shortest "
    "— try p = 1, 2, … max_period in that order":
        "probó primero el periodo más largo: A A A A A A se repite con periodo 1, 2 y 3, y la respuesta es el más "
        "corto — prueba p = 1, 2, … max_period en ese orden",
    "it tries periods beyond max_period: try only p = 1 … max_period (the argument; default 3), which bounds how "
    "far back it looks":
        "prueba periodos mayores que max_period: prueba solo p = 1 … max_period (el argumento; por defecto 3), que "
        "limita hasta dónde mira hacia atrás",
    "one of your keys names something the bare loop lacks, but its absence never makes a loop run away (what does "
    "the SDK already do by itself?)":
        "una de tus claves nombra algo que le falta al bucle desnudo, pero cuya ausencia nunca hace que un bucle "
        "se desboque (¿qué hace ya el SDK por su cuenta?)",
    "return before appending the repeated response, with a text that says the harness stopped the run because the "
    "turns repeat":
        "devuelve el resultado antes de añadir la respuesta repetida, con un texto que diga que el arnés detuvo la "
        "ejecución porque los turnos se repiten",
    "return the period p itself (an int), not True, when the last p signatures repeat the p before them":
        "devuelve el propio periodo p (un int), no True, cuando las últimas p firmas repiten las p anteriores",
    "the budget stopped the run after the turn was counted (turns={got_1}, though {n} turns ran): ask it at the "
    "top of the body, right after the cap, before `turns += 1` and before the response is appended":
        "el presupuesto detuvo la ejecución después de contar el turno (turns={got_1}, aunque se ejecutaron {n} "
        "turnos): compruébalo al principio del cuerpo, justo después del tope de turnos, antes de `turns += 1` y "
        "antes de añadir la respuesta",
    "the budget's stop comes with a text that says the harness stopped the run (not the model's text)":
        "la parada por presupuesto trae un texto que dice que el arnés detuvo la ejecución (no el texto del modelo)",
    "the cap stopped it, not the budget: add `if tokens_used >= token_budget:` right after the cap check":
        "lo detuvo el tope de turnos, no el presupuesto: añade `if tokens_used >= token_budget:` justo después de "
        "comprobar el tope de turnos",
    "the count is off, not the order of the valves — {count_hint} (see check-budget)":
        "falla la cuenta, no el orden de las válvulas — {count_hint} (mira check-budget)",
    "the empty list gave {p!r}: with too few signatures for a period, skip that period (two empty slices are equal)":
        "la lista vacía dio {p!r}: si no hay firmas suficientes para un periodo, sáltate ese periodo (dos cortes "
        "vacíos son iguales)",
    "the loop ended by its while condition (stopped_by={stopped_by!r}), not by the cap: ask `if turns >= "
    "max_turns:` first thing in the body and return AgentResult(text, 'max_turns', turns, requests, 0, messages) "
    "there":
        "el bucle terminó por su condición del while (stopped_by={stopped_by!r}), no por el tope: pregunta `if "
        "turns >= max_turns:` lo primero del cuerpo y devuelve ahí AgentResult(text, 'max_turns', turns, requests, "
        "0, messages)",
    "the other way round too, one tool_result per call in the order of the calls (a rejected call before an "
    "approved one keeps its place)":
        "también al revés, un tool_result por llamada en el orden de las llamadas (una llamada rechazada antes de "
        "una aprobada conserva su lugar)",
    "the repeated call ran before the check caught it: append the signature and ask find_loop BEFORE the tools run":
        "la llamada repetida se ejecutó antes de que la comprobación la detectara: añade la firma y pregunta a "
        "find_loop ANTES de ejecutar las herramientas",
    "the repeated turn never ran, yet it was counted (turns={turns}): ask find_loop before `turns += 1`":
        "el turno repetido nunca se ejecutó, pero se contó (turns={turns}): pregunta a find_loop antes de `turns "
        "+= 1`",
    "the run stopped with {error}: run_tool_uses must return a list with one tool_result per tool_use block":
        "la ejecución se detuvo con {error}: run_tool_uses debe devolver una lista con un tool_result por bloque "
        "tool_use",
    "the shortest period wins: A A A A A A → 1 (try p = 1 first)":
        "gana el periodo más corto: A A A A A A → 1 (prueba primero p = 1)",
    "the typo got no tool_result at all: fail closed — anything that is not exactly 'allow' or 'ask' is a deny, "
    "answered like one":
        "la errata no recibió ningún tool_result: falla en cerrado — todo lo que no sea exactamente 'allow' o "
        "'ask' es un deny, y se responde como tal",
    "tokens_used holds only the last response's tokens: add each response's to the total (`tokens_used += "
    "tokens_of(response.usage)`), do not replace it":
        "tokens_used solo guarda los tokens de la última respuesta: suma los de cada respuesta al total "
        "(`tokens_used += tokens_of(response.usage)`), no lo reemplaces",
    "tokens_used leaves out the first response: start it at tokens_of(response.usage), right after the first "
    "request (the first response costs too)":
        "tokens_used deja fuera la primera respuesta: empieza con tokens_of(response.usage), justo después de la "
        "primera petición (la primera respuesta también cuesta)",
    "tokens_used stays 0: add tokens_of(response.usage) after every request, the first one included":
        "tokens_used se queda en 0: suma tokens_of(response.usage) después de cada petición, también de la primera",
    "try the short periods first: p = 1, 2, … max_period":
        "prueba primero los periodos cortos: p = 1, 2, … max_period",
    "use the max_period argument: try every p from 1 to max_period, not a fixed set of periods":
        "usa el argumento max_period: prueba cada p de 1 a max_period, no un conjunto fijo de periodos",
    "when the budget stops the run, say so in your own words, e.g. f\"Stopped by the harness: {tokens_used} tokens "
    "used, reaching the token budget of {token_budget}.\" — the model's last text is not an answer, the harness "
    "cut it off":
        "cuando el presupuesto detenga la ejecución, dilo con tus palabras, p. ej. f\"El arnés se detuvo: se "
        "gastaron {tokens_used} tokens y se alcanzó el tope de presupuesto de {token_budget}.\" — el último texto "
        "del modelo no es una respuesta: el arnés lo cortó",
    "with max_turns=0 your loop stops at once, so the cap is asked; with max_turns=3 it never stops: `turns` never "
    "reaches the cap — add `turns += 1` for each turn that runs":
        "con max_turns=0 tu bucle se detiene enseguida, así que el tope se comprueba; con max_turns=3 nunca se "
        "detiene: `turns` nunca llega al tope — añade `turns += 1` por cada turno que se ejecuta",
    "with no approver (approve=None) nobody can say yes: check `approve is None` before calling it (the run "
    "stopped with {error})":
        "sin aprobador (approve=None) nadie puede decir que sí: comprueba `approve is None` antes de llamarlo (la "
        "ejecución se detuvo con {error})",
}
SPANISH.update(SPANISH_34)
