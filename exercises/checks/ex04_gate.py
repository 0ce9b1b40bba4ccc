"""Exercise 4 — the approval gate: the checks of exercises/04_the_approval_gate.ipynb.

Part (a), WHY_WRONG, is judged against SHA-256 digests of the 🔒 statements cell's constants. Part (b) drives the
learner's run_tool_uses in the grader's own loop (`gate_drive`) with the lesson's real tools on a throwaway folder,
so a write that should not have happened is really on disk, and an approver that records every question (or
answers None, 'yes', or raises).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

import anthropic

from harness_lib.client import MODEL
from harness_lib.tools import HIGH_IMPACT, TOOLS, make_tool_impls

from .kit import (EMAIL, Cause, Checks, _clock, _digest, _t, _valve, api_words, calls, error_hint, late_bound,
                  not_defined_hint, offline, one_line, one_step, only_result, raised_first, read_as, recorded,
                  recording_approver, tool_root, unasked_hint, unfinished)

TOOLS_4 = TOOLS + [EMAIL]  # the lesson's four tools and send_email (a check passes its own high_impact set)
GATE_TASK = "Read the first line of README.md, then tell me what time it is"  # high-impact: then it saves it
ONE_WRITE = 'Write "draft" to scratch/gate-check.txt, then tell me the time.'
TWO_WRITES = 'Write "a" to scratch/a.txt and write "b" to scratch/b.txt.'
MIXED = 'Read the first line of README.md, write "draft" to scratch/c.txt, and tell me the time.'

# Part (a), stored as digests (first 8 hex digits of _digest(text)) of the 🔒 statements cell's constants.
_STATEMENTS = {"b56927e5", "b92fe69a", "d80913ed", "5d4d7993", "732332a8", "194b6f77", "50186d3b", "ee80071d"}
_REASONS = {"b56927e5", "b92fe69a", "d80913ed"}
_ARGUMENT = {"5d4d7993"}  # the colleague's own argument
_REFUTED = ("732332a8", "194b6f77", "50186d3b", "ee80071d")  # what the run shows is not so, in the order their
# refutations are named


def check_why_wrong(ns: dict) -> None:
    c = Checks("check-why-wrong", _t("ex04.why_wrong.title"))
    if raised_first(c, ns, "WHY_WRONG"):
        return c.done()
    w = ns.get("WHY_WRONG")
    known = {v for k, v in ns.items() if isinstance(v, str) and k.isupper() and _digest(v)[:8] in _STATEMENTS}
    items = list(w) if isinstance(w, (set, frozenset, list, tuple)) else [] if w == {} else None
    c.ok(bool(items) and all(i in known for i in items),
         _t("ex04.why_wrong.is_a_non_empty_set"),
         not_defined_hint("WHY_WRONG", _t("ex04.why_wrong.not_defined_yet")) if w is None else
         _t("ex04.why_wrong.must_be_a_set") if items is None else
         _t("ex04.why_wrong.fill_in_one_statement") if not items else
         _t("ex04.why_wrong.use_the_constants"))
    if not items:
        c.note(_t("ex04.why_wrong.other_criteria_wait"))
        return c.done()
    marks = {_digest(i)[:8] for i in items if isinstance(i, str)}
    c.ok(not marks & _ARGUMENT, _t("ex04.why_wrong.disagrees_with_the_colleague"),
         _t("ex04.why_wrong.colleagues_own_argument"))
    untrue = [m for m in _REFUTED if m in marks]
    refuted = {"732332a8": _t("ex04.why_wrong.refuted.left_dangling"),
               "194b6f77": _t("ex04.why_wrong.refuted.model_never_told"),
               "50186d3b": _t("ex04.why_wrong.refuted.slower"),
               "ee80071d": _t("ex04.why_wrong.refuted.reads_wait_too")}
    c.ok(not untrue, _t("ex04.why_wrong.no_untrue_statement")
         + (_t("ex04.why_wrong.untrue_count", n=len(untrue)) if untrue else ""),
         _t("ex04.why_wrong.statement_that_did_not_happen", what=refuted[untrue[0]] if untrue else ""))
    named = len(marks & _REASONS)
    c.ok(named == len(_REASONS), _t("ex04.why_wrong.names_every_reason_run", named=named, n=len(_REASONS)),
         _t("ex04.why_wrong.go_through_run_again"),
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
    run = SimpleNamespace(events=[], rounds=[], error=None, final=None, files={},
                          high_impact=step.get("high_impact", HIGH_IMPACT), asks=approver == "default")
    approve = recording_approver(run.events, answer)

    if not callable(valve):
        run.error = "run_tool_uses is not defined yet: run its cell"
        return run
    root = Path(tempfile.mkdtemp(prefix="gate-check-"))
    try:
        (root / "README.md").write_text((tool_root() / "README.md").read_text(encoding="utf-8"), encoding="utf-8")
        impls = gate_impls(run.events, root)
        client = offline(scenario)
        messages = [{"role": "user", "content": task}]
        try:
            response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_4, messages=messages)
            while response.stop_reason == "tool_use" and len(run.rounds) < max_turns:
                results = await one_step(valve(response.content, impls, tools=TOOLS_4, approve=approve
                                               if approver == "default" else None, **step))
                run.rounds.append(([b for b in response.content if b.type == "tool_use"], results))
                messages += [{"role": "assistant", "content": response.content},
                             {"role": "user", "content": results}]
                response = await client.messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_4,
                                                        messages=messages)
            run.final = response
        except anthropic.BadRequestError as err:
            run.error = _t("ex01.drive.api_refused_next_request", message=api_words(err))
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
        return _t("ex04.gate.no_approver_was_called")
    if "ApproverBroke" in error:
        return (_t("ex04.gate.broken_approver_stopped_run"))
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


# one probe per check, each with a tool no other run of the checks asks about: (its task, its name)
_PROBES = {"check-gate": ("Tell me the time.", "get_time"),
           "check-fail-closed": ("Read the first line of probe-fail-closed.md.", "read_file"),
           "check-parallel": ("Delete scratch/probe-parallel.txt.", "delete_file")}


async def gate_causes(c, valve, *runs) -> bool:
    """The first ✗ when what the runs show is not the gate's own doing in each run: an approver called but never
    awaited; every question of a turn carrying the last call's input (a lambda made in a loop); first, a yes
    reused from an earlier run (a probe: a tool made high-impact for it, said yes to, then no — no other run asks
    about it)."""
    task, name = _PROBES[c.cell_id]
    yes = await gate_drive(valve, "demo", task, answer=True, high_impact=frozenset({name}))
    no = await gate_drive(valve, "demo", task, answer=False, high_impact=frozenset({name}))
    if _asked(yes, name) and _ran(no, name) and not _asked(no, name):
        c.cause(_t("kit.state.each_run_afresh"), _t("kit.state.yes_reused", name=name))
        return True
    miscalled = [n for run in runs for k, n, _ in run.events if k == "miscalled"]
    if miscalled:
        c.cause(_t("kit.state.approver_awaited"), _t("kit.state.approver_miscalled", args=miscalled[0]))
        return True
    if not any(k == "asked" for run in runs for k, _, _ in run.events):  # nobody was ever asked
        for run in runs:
            risky = [u for uses, _ in run.rounds for u in uses if u.name in run.high_impact and run.asks
                     and run.error is None and any(len(rs) == 1 for w, rs in calls(run, u.name) if w.id == u.id)]
            if risky:
                c.cause(_t("kit.state.approver_awaited"), unasked_hint(risky[0].name, bool(_ran(run, risky[0].name))))
                return True
    for run in runs:
        for uses, _ in run.rounds:
            risky = [u.input for u in uses if u.name == "write_file"]
            asked = [i for n, i in _asked(run, "write_file")]
            if late_bound(asked, risky):
                c.cause(_t("kit.state.each_call_its_own"), _t("kit.state.late_binding", value=risky[-1].get("path")))
                return True
    return False


def _finished(run) -> bool:
    return run.error is None and run.final is not None and run.final.stop_reason == "end_turn"


async def check_gate(ns: dict) -> None:
    c = Checks("check-gate", _t("ex04.gate.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    no = await gate_drive(valve, "high-impact", GATE_TASK, answer=False)
    if unfinished(c, no.error, "run_tool_uses"):
        return c.done()
    yes = await gate_drive(valve, "high-impact", GATE_TASK, answer=True)
    await gate_causes(c, valve, no, yes)
    asked = _asked(no, "write_file")
    unasked = not asked  # nobody was asked: what depends on the answer follows from the ✗ below
    c.ok(len(asked) == 1 and asked[0][1].get("path") == "scratch/answer.txt",
         _t("ex04.gate.write_file_asked_once"),
         gate_hint(no) if no.error and not asked else
         _t("ex04.gate.asked_n_times", n=len(asked)))
    ran_first = Cause(_t("ex04.gate.written_despite_a_no"), key="ran before asked")
    c.ok(not _ran(no, "write_file") and "scratch/answer.txt" not in no.files,
         _t("ex04.gate.rejected_never_ran"),
         gate_hint(no) if no.error and not _ran(no, "write_file") else ran_first)
    w = calls(no, "write_file")
    res = only_result(no, "write_file")
    unanswered = len(w) == 1 and not w[0][1]  # the rejected call got no tool_result at all
    c.ok(res.get("is_error") is True, _t("ex04.gate.rejected_got_one_error_result"),
         _t("ex04.gate.answer_rejected_call_too") if unanswered else
         gate_hint(no) if no.error and not res else
         _t("ex01.ask.rejected_mark_is_error") if res else
         _t("ex04.gate.answer_rejected_call_too"))
    c.ok(bool(res) and read_as("write_file", res) == "declined", _t("ex01.ask.rejected_reads_as_not_approved"),
         gate_hint(no) if no.error and not res else _t("ex04.gate.send_rejected_message"),
         follows=unanswered or (bool(res) and res.get("is_error") is not True))
    c.ok(_finished(no), _t("ex04.gate.rejected_run_api_accepted")
         + (f" — {no.error}" if no.error else ""), gate_hint(no), follows=unanswered)
    kinds = [(k, n) for k, n, _ in yes.events]
    c.ok(("asked", "write_file") in kinds and ("ran", "write_file") in kinds
         and kinds.index(("asked", "write_file")) < kinds.index(("ran", "write_file"))
         and "scratch/answer.txt" in yes.files,
         _t("ex04.gate.approved_ran_after_yes"),
         gate_hint(yes) if yes.error else
         _t("ex04.gate.run_after_a_yes")
         if ("ran", "write_file") not in kinds else ran_first, follows=unasked)
    c.ok(_finished(yes), _t("ex04.gate.approved_run_api_accepted")
         + (f" — {yes.error}" if yes.error else ""), gate_hint(yes))
    c.ok(not _asked(yes, "read_file") and not _asked(yes, "get_time") and len(_ran(yes, "read_file")) == 1
         and len(_ran(yes, "get_time")) == 1, _t("ex04.gate.reads_ran_unasked"),
         gate_hint(yes) if yes.error else _t("ex04.gate.only_high_impact_asked"))
    fail = await gate_drive(valve, "demo", 'Write "x" to notes/x.txt.', answer=True)
    res = only_result(fail, "write_file")
    c.ok(res.get("is_error") is True and bool(_ran(fail, "write_file")),
         _t("ex04.gate.approved_tool_fails"),
         gate_hint(fail) if fail.error else
         _t("ex04.gate.pass_tool_own_verdict"),
         follows=unasked and not _ran(fail, "write_file"))
    mail = await gate_drive(valve, "demo", "Email bob@example.com that the report is ready.", answer=False,
                            high_impact=frozenset({"write_file", "delete_file", "send_email"}))
    c.ok(len(_asked(mail, "send_email")) == 1 and not _ran(mail, "send_email"),
         _t("ex04.gate.follows_its_high_impact_set"),
         gate_hint(mail) if mail.error else
         _t("ex04.gate.use_high_impact_argument")
         if not _asked(mail, "send_email") else ran_first,
         follows=unasked or (bool(_ran(mail, "send_email")) and bool(_ran(no, "write_file"))))
    sent = await gate_drive(valve, "demo", "Email bob@example.com that the report is ready.", answer=True,
                            high_impact=frozenset({"write_file", "delete_file", "send_email"}))
    res = only_result(sent, "send_email")
    c.ok(len(_ran(sent, "send_email")) == 1 and res and not res.get("is_error"),
         _t("ex04.gate.callers_own_tool_runs") + (_t("ex01.deny.it_says", text=str(res.get("content"))[:80])
                                                   if res and not _ran(sent, "send_email") else ""),
         gate_hint(sent) if sent.error else _t("ex04.gate.pass_tools_to_arun_tool"),
         follows=unasked or not _asked(sent, "send_email"))
    c.done()


async def check_fail_closed(ns: dict) -> None:
    c = Checks("check-fail-closed", _t("ex04.fail_closed.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    probe = await gate_drive(valve, "demo", ONE_WRITE, answer=False)
    if unfinished(c, probe.error, "run_tool_uses"):
        return c.done()
    await gate_causes(c, valve, probe)
    cases = [
        (_t("ex04.fail_closed.no_approver"), dict(approver=None),
         _t("ex04.fail_closed.no_approver_is_a_no")),
        (_t("ex04.fail_closed.approver_raises_error"), dict(answer=ApproverBroke("approval service unreachable")),
         _t("ex04.fail_closed.catch_the_exception")),
        (_t("ex04.fail_closed.answers_none"), dict(answer=None),
         _t("ex04.fail_closed.none_is_a_no")),
        (_t("ex04.fail_closed.answers_the_string_yes"), dict(answer="yes"),
         _t("ex04.fail_closed.only_true_is_a_yes")),
    ]
    for label, kwargs, hint in cases:
        run = await gate_drive(valve, "demo", ONE_WRITE, **kwargs)
        res = only_result(run, "write_file")
        ok = (not _ran(run, "write_file") and not run.files and res.get("is_error") is True and _finished(run))
        c.ok(ok, _t("ex04.fail_closed.refused_and_run_goes_on", label=label)
             + (f" — {run.error}" if run.error else ""),
             _t("ex04.fail_closed.caught_and_ran") if isinstance(kwargs.get("answer"), ApproverBroke)
             and _asked(run, "write_file") and _ran(run, "write_file") and not run.error else
             hint if _ran(run, "write_file") or run.files else gate_hint(run) if run.error else
             _t("ex04.fail_closed.answer_the_refused_call") if not res.get("is_error")
             else hint)
    c.done()


async def check_parallel_gate(ns: dict) -> None:
    c = Checks("check-parallel", _t("ex04.parallel_gate.title"))
    if raised_first(c, ns, "run_tool_uses"):
        return c.done()
    valve = _valve(ns)
    two = await gate_drive(valve, "parallel", TWO_WRITES, answer=lambda n, i: i.get("path") == "scratch/a.txt")
    if unfinished(c, two.error, "run_tool_uses"):
        return c.done()
    await gate_causes(c, valve, two)
    asked = [i.get("path") for _, i in _asked(two, "write_file")]
    once = len(asked) < 2  # one question for the turn: what else fails here follows from it
    c.ok(asked == ["scratch/a.txt", "scratch/b.txt"],
         _t("ex04.parallel_gate.each_write_asked_once")
         + ("" if asked == ["scratch/a.txt", "scratch/b.txt"] else _t("ex04.parallel_gate.asked_about", asked=asked)),
         gate_hint(two) if two.error and not asked else
         _t("ex04.parallel_gate.ask_once_per_call")
         if len(asked) < 2 else _t("ex04.parallel_gate.ask_about_call_once"))
    kinds = [k for k, _, _ in two.events]
    early = Cause(_t("ex04.parallel_gate.decide_every_call_then_run"), key="early")
    c.ok("asked" in kinds and (("ran" not in kinds) or max(i for i, k in enumerate(kinds) if k == "asked")
                               < min(i for i, k in enumerate(kinds) if k == "ran")),
         _t("ex04.parallel_gate.both_questions_asked_before"),
         gate_hint(two) if two.error else early)
    c.ok(two.files == {"scratch/a.txt": "a"}, _t("ex04.parallel_gate.only_approved_write_happened")
         + ("" if two.files == {"scratch/a.txt": "a"} else _t("ex04.parallel_gate.on_disk", items=sorted(two.files))),
         gate_hint(two) if two.error and not two.files else
         Cause(_t("ex04.parallel_gate.write_ran_before_question"), key="early") if _early(two) else
         _t("ex04.parallel_gate.run_only_on_its_own_yes") if "scratch/b.txt" in two.files else
         _t("ex04.parallel_gate.a_no_does_not_stop_the_other"), follows=once)
    uses, results = two.rounds[0] if two.rounds else ([], [])
    results = results if isinstance(results, list) else []
    ids = [r.get("tool_use_id") if isinstance(r, dict) else None for r in results]
    in_order = Cause(_t("ex04.parallel_gate.one_result_per_call_in_one_list"),
                     key="order")
    c.ok(ids == [u.id for u in uses] and len(uses) == 2, _t("ex04.parallel_gate.one_result_per_call_in_order"),
         gate_hint(two) if two.error and not results else in_order)
    by_id = {r.get("tool_use_id"): r for r in results if isinstance(r, dict)}
    a = by_id.get(uses[0].id, {}) if uses else {}
    b = by_id.get(uses[1].id, {}) if len(uses) > 1 else {}
    c.ok(bool(a) and not a.get("is_error") and read_as("write_file", b) == "declined" and b.get("is_error") is True,
         _t("ex04.parallel_gate.each_result_matches_its_call"),
         gate_hint(two) if two.error and not results else
         _t("ex04.parallel_gate.result_belongs_to_its_call"), follows=once)
    c.ok(_finished(two), _t("ex04.parallel_gate.api_accepted_every_request") + (f" — {two.error}" if two.error
                                                                                     else ""), gate_hint(two))
    flip = await gate_drive(valve, "parallel", TWO_WRITES, answer=lambda n, i: i.get("path") == "scratch/b.txt")
    flip_asked = [i.get("path") for _, i in _asked(flip, "write_file")]
    fuses, fresults = flip.rounds[0] if flip.rounds else ([], [])
    fids = [r.get("tool_use_id") if isinstance(r, dict) else None for r in fresults] \
        if isinstance(fresults, list) else None
    c.ok(flip.files == {"scratch/b.txt": "b"} and flip_asked == ["scratch/a.txt", "scratch/b.txt"]
         and _finished(flip),
         _t("ex04.parallel_gate.other_way_round")
         + ("" if flip.files == {"scratch/b.txt": "b"} else _t("ex04.parallel_gate.on_disk", items=sorted(flip.files)))
         + ("" if flip_asked == ["scratch/a.txt", "scratch/b.txt"]
            else _t("ex04.parallel_gate.asked_about_flipped", flip_asked=flip_asked)),
         gate_hint(flip) if flip.error else
         _t("ex04.parallel_gate.keep_asking_after_a_no") if len(flip_asked) < 2 else
         Cause(_t("ex04.parallel_gate.write_ran_before_question"), key="early") if _early(flip) else
         _t("ex04.parallel_gate.first_no_does_not_decide"), follows=once)
    c.ok(fids == [u.id for u in fuses] and len(fuses) == 2,
         _t("ex04.parallel_gate.other_way_round_results"),
         gate_hint(flip) if flip.error and not fresults else in_order)
    mixed = await gate_drive(valve, "parallel", MIXED, answer=True)
    kinds = [(k, n) for k, n, _ in mixed.events]
    first_ran = next((i for i, (k, _) in enumerate(kinds) if k == "ran"), None)
    c.ok(("asked", "write_file") in kinds and first_ran is not None
         and kinds.index(("asked", "write_file")) < first_ran and len(_ran(mixed)) == 3 and _finished(mixed),
         _t("ex04.parallel_gate.questions_before_any_tool"),
         gate_hint(mixed) if mixed.error else
         early if first_ran is not None and ("asked", "write_file") in kinds
         and kinds.index(("asked", "write_file")) > first_ran else
         _t("ex04.parallel_gate.ask_first_then_run"))
    c.done()
