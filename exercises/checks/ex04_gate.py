"""Exercise 4 — the approval gate: the checks of exercises/04_the_approval_gate.ipynb.

Part (a), WHY_WRONG, is judged against SHA-256 digests of the 🔒 statements cell's constants. Part (b) drives the
learner's run_tool_uses in the grader's own loop (`gate_drive`) with the lesson's real tools on a throwaway folder,
so a write that should not have happened is really on disk, and an approver that records every question (or
answers None, 'yes', or raises).
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

import anthropic

from harness_lib.client import MODEL
from harness_lib.tools import DEFAULT_ROOT, TOOLS, make_tool_impls

from .kit import (EMAIL, Cause, Checks, _clock, _digest, _t, _valve, calls, error_hint, not_defined_hint, offline,
                  one_line, read_as, recorded, unfinished)

TOOLS_4 = TOOLS + [EMAIL]  # the lesson's four tools and send_email (a check passes its own high_impact set)
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
    return recorded(events, dict(make_tool_impls(root, clock=_clock), send_email=lambda i: f"sent to {i['to']}"))


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
