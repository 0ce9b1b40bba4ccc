"""Exercise 5 — the capstone, your harness: the checks of exercises/05_your_harness.ipynb.

Four checks, each a list of scenarios with one ✓ / ✗ line each (a per-scenario verdict): POLICY
(check_harness_policy), the loop's shape (check_harness_loop), the three valves that stop a run
(check_harness_valves), the gate (check_harness_gate). Each
scenario is one run of YOUR run_agent through the gauntlet (ex05_gauntlet.drive): practice runs as the notebook
shows them, and HIDDEN variants (marked so in the line) with other inboxes, caps, budgets, cycles, texts and
policies of the checks' own. A ✗'s hint names the cause the run shows: what should have acted, and where; a ✗ whose
cause an earlier check already named (a tier check-policy fails, what check-loop's plain task shows) says it
follows from that ✗ (ex05_upstream.py). The valves' check is ex05_valves.py.
"""

from __future__ import annotations

from harness_kit.mailbox import MAIL_TOOL_NAMES, SAMPLE_INBOX

from .ex05_gauntlet import (EXPECTED, FORWARD, HIDDEN, INJECTED, PING_PONG, READS_ASKED, SEND, TWO_ASKED, UNLISTED,
                            ApproverBroke, asked, asked_late, blocks_exact, broke, calls_of, drive, eager, early, field,
                            finished, label as _label, policy_tier, ran, refused_ran, scene, sent_results, unasked)
from .ex05_upstream import as_sent as _as_sent, cycle_named, hidden_plain, parallel_cause, pause, unknown_tool, upstream
from .ex05_valves import _cycle_hint, check_harness_valves  # noqa: F401 - grading.py imports the four checks from here
from .kit import Cause, Checks, _t, raised_first, unfinished, unasked_hint

WHY = {  # why each tool has its tier, said when it has another: the hint under its ✗
    "list_messages": lambda got: _t("ex05.policy.why.list_messages", got=got),
    "read_message": lambda got: _t("ex05.policy.why.read_message", got=got),
    "archive_message": lambda got: _t("ex05.policy.why.archive_message", got=got),
    "send_reply": lambda got: _t("ex05.policy.why.send_reply", got=got),
    "delete_message": lambda got: _t("ex05.policy.why.delete_message", got=got),
    "forward_all": lambda got: _t("ex05.policy.why.forward_all", got=got)}
ANSWERS = (  # the gate's failing-closed runs: (its line, drive's arguments); the first is a plain no
    (lambda: _t("ex05.scenario.send_no"), dict(answer=False)),
    (lambda: _t("ex05.scenario.approver_raises"), dict(answer=ApproverBroke("unreachable"))),
    (lambda: _t("ex05.scenario.approver_times_out"), dict(answer=TimeoutError("no answer in 30 s"))),
    (lambda: _t("ex05.scenario.approver_none"), dict(answer=None)),
    (lambda: _t("ex05.scenario.approver_yes_string"), dict(answer="yes")),
    (lambda: _t("ex05.scenario.no_approver"), dict(approver=False)))


def check_harness_policy(ns: dict) -> None:
    c = Checks("check-policy", _t("ex05.policy.title"))
    if raised_first(c, ns, "POLICY"):
        return c.done()
    policy = ns.get("POLICY")
    entries = policy if isinstance(policy, dict) else {}
    shaped = {name: v for name, v in entries.items() if isinstance(v, (tuple, list)) and len(v) == 2
              and v[0] in ("allow", "ask", "deny") and isinstance(v[1], str)}
    missing = [name for name in MAIL_TOOL_NAMES if name not in shaped]
    c.ok(not missing, _t("ex05.policy.every_tool"),
         _t("ex05.policy.not_a_dict") if not isinstance(policy, dict) else
         _t("ex05.policy.missing", name=missing[0]) if missing and missing[0] not in entries else
         _t("ex05.policy.shape", name=missing[0]) if missing else "")
    if missing and len(missing) == len(MAIL_TOOL_NAMES):
        c.note(_t("ex05.policy.other_criteria_wait"))
        return c.done()
    for name, tiers in EXPECTED.items():
        tier = policy_tier(shaped, name)
        c.ok(tier in tiers, _t("ex05.policy.tier", name=name, tiers=" / ".join(tiers)),
             WHY[name](tier), follows=name in missing)
    c.ok(_reasons_hint(shaped) is None, _t("ex05.policy.reasons"), _reasons_hint(shaped) or "", follows=bool(missing))
    c.done()


def _reasons_hint(shaped: dict) -> str | None:
    """None when each tool has its own reason as the task text asks (one line, not empty, not one sentence for all
    six); else the hint, naming the first tool whose reason is not one."""
    for name in MAIL_TOOL_NAMES:
        why = shaped[name][1].strip() if name in shaped else None
        if why == "":
            return _t("ex05.policy.reason_empty", name=name)
        if why is not None and "\n" in why:
            return _t("ex05.policy.reason_lines", name=name)
    reasons = {shaped[n][1].strip() for n in MAIL_TOOL_NAMES if n in shaped}
    if len(reasons) == 1 and len(shaped) == len(MAIL_TOOL_NAMES):
        return _t("ex05.policy.reason_same", why=next(iter(reasons))[:60])
    return None


def _fn(ns):
    return ns.get("run_agent")


async def _started(c, ns):
    """The first run (practice, plain); None when run_agent is not written yet (the one ✗ says so)."""
    raised_first(c, ns, "run_agent", "POLICY")  # a ✏️ cell that raised: the first ✗, the runs go on
    run = await drive(_fn(ns), "inbox", SAMPLE_INBOX, max_turns=10, token_budget=50_000)
    return None if unfinished(c, run.problem, "run_agent") else run


async def _parallel(c, fn, policy, inbox, spam):
    """A parallel turn of four calls whose delete of `spam` is refused (the person says no)."""
    par, cause = await parallel_cause(fn, policy, inbox, spam)
    turn = next((n for n in sorted(par.replies) if len(calls_of(par.replies[n])) == 4), None)
    by_id = {r.get("tool_use_id"): r for r in (sent_results(par, turn) if turn else None) or []}
    refused = next((b["id"] for b in calls_of(par.replies[turn]) if b["input"] == {"id": spam}), None) if turn else None
    hint = early(par) or blocks_exact(par) or (
        cause if cause is not None else
        _t("ex05.loop.parallel_refused_result") if not by_id.get(refused, {}).get("is_error") else
        _t("ex05.loop.parallel_others") if len(ran(par, "read_message")) != 2 else finished(par))
    await scene(c, hint, _label(_t("ex05.scenario.parallel") if spam == "m1" else _t("ex05.scenario.parallel_mid"),
                                hidden=True), par)


async def check_harness_loop(ns: dict) -> None:
    c = Checks("check-loop", _t("ex05.loop.title"))
    fn, plain = _fn(ns), await _started(c, ns)
    if plain is None:
        return c.done()
    for name, tiers in EXPECTED.items():  # a tier check-policy fails: a ✗ here it causes follows from that one
        if policy_tier(ns.get("POLICY"), name) not in tiers:
            c.upstream[f"policy:{name}"] = _t("ex05.upstream.policy", name=name, tiers=" / ".join(tiers))
    await scene(c, finished(plain), _label(_t("ex05.scenario.plain")), plain)
    other, hint = await hidden_plain(fn, ns.get("POLICY"))
    await scene(c, hint, _label(_t("ex05.scenario.plain"), hidden=True), other)
    shape = blocks_exact(plain) or blocks_exact(other) or _as_sent(plain) or _as_sent(other)
    c.ok(shape is None, _label(_t("ex05.scenario.blocks")), shape, follows=broke(plain) is not None)
    await _parallel(c, fn, ns.get("POLICY"), HIDDEN["parallel"], "m1")
    await _parallel(c, fn, ns.get("POLICY"), HIDDEN["parallel_mid"], "m2")
    raises = await drive(fn, "inbox", SAMPLE_INBOX, broken={"m2"}, max_turns=10, token_budget=60_000)
    got = next((r for n in sorted(raises.replies) for r in sent_results(raises, n) or []
                if any(b["id"] == r.get("tool_use_id") and b["input"] == {"id": "m2"}
                       for b in calls_of(raises.replies[n]))), None)
    hint = (_t("ex05.loop.tool_raised_crashed", error=raises.problem[:120]) if raises.problem and "Connection"
            in raises.problem else early(raises) or (_t("ex05.loop.tool_raised_flag") if not (got or {}).get("is_error")
                                                     else finished(raises)))
    await scene(c, hint, _label(_t("ex05.scenario.tool_raises"), hidden=True), raises)
    unknown, hint = await unknown_tool(fn)
    await scene(c, hint, _label(_t("ex05.scenario.unknown_tool"), hidden=True), unknown)
    for scenario, hidden in (("inbox-pause", False), ("inbox-pause-twice", True)):
        run, hint = await pause(fn, scenario)
        await scene(c, hint, _label(_t("ex05.scenario.pause"), hidden=hidden), run)
    cut = await drive(fn, "inbox-cut", SAMPLE_INBOX, max_turns=10, token_budget=60_000)
    cut_at = next((n for n in sorted(cut.replies) if cut.replies[n].get("stop_reason") == "max_tokens"), None)
    hint = broke(cut) or (
        Cause(_t("ex05.loop.cut_ran"), key="cut") if ran(cut, "send_reply") or asked(cut, "send_reply") else
        _t("ex05.loop.cut_went_on") if cut_at is not None and cut.requests > cut_at else eager(cut) or (
            None if field(cut, "stopped_by") == "max_tokens" else _stop_reason(cut, "max_tokens")))
    await scene(c, hint, _label(_t("ex05.scenario.cut")), cut)
    for scenario, hidden in (("inbox-refusal", False), ("inbox-refusal-late", True)):
        run = await drive(fn, scenario, SAMPLE_INBOX, max_turns=10, token_budget=60_000)
        hint = early(run) or (None if field(run, "stopped_by") == "refusal" else _stop_reason(run, "refusal"))
        await scene(c, hint, _label(_t("ex05.scenario.refusal"), hidden=hidden), run)
    c.done()


def _stop_reason(run, want):
    """stopped_by is not the response's own stop reason: one cause, wherever it shows."""
    return Cause(_t("ex05.finish.stopped_by_want", want=want, got=repr(field(run, "stopped_by"))[:40]), key="stop reason")


def _gate_cause(yes, no, none, tier):
    """How the gate itself is wrong, seen in the plain yes / no runs of send_reply ('ask'), or None: not awaited,
    never consulted, asked after running, the answer ignored. Every later ✗ of the gate follows from it."""
    if tier != "ask":
        return None
    if ran(no, "send_reply"):
        cause = refused_ran(no, "send_reply", tier)
        return unasked(no, "send_reply", tier, none) if cause.key == "unasked" else cause
    if not ran(yes, "send_reply") and not yes.problem and not yes.asked and field(yes, "stopped_by") == "end_turn":
        return Cause(unasked_hint("send_reply", ran=False), key="await")
    return None


async def check_harness_gate(ns: dict) -> None:
    c = Checks("check-gate", _t("ex05.gate.title"))
    fn, policy = _fn(ns), ns.get("POLICY")
    yes = await drive(fn, "inbox", SEND, answer=True, max_turns=10, token_budget=60_000)
    if unfinished(c, yes.problem, "run_agent"):
        return c.done()
    await upstream(c, fn, policy, gate=True)
    no = await drive(fn, "inbox", SEND, answer=False, max_turns=10, token_budget=60_000)
    none = await drive(fn, "inbox", SEND, approver=False, max_turns=10, token_budget=60_000)
    tier = policy_tier(policy, "send_reply")
    if asked(yes, "send_reply") and ran(no, "send_reply") and not asked(no, "send_reply"):
        c.cause(_t("kit.state.each_run_afresh"), _t("ex05.gate.yes_reused", name="send_reply"))
    elif _gate_cause(yes, no, none, tier):
        c.cause(_t("ex05.gate.consulted"), _gate_cause(yes, no, none, tier))
    for inbox, hidden in ((INJECTED, False), (HIDDEN["injected"], True)):
        run = await drive(fn, "inbox", inbox, answer=False, max_turns=10, token_budget=60_000)
        hint = (refused_ran(run, "delete_message", policy_tier(policy, "delete_message")) if "m1" in run.box.deleted
                else early(run) or (_t("ex05.gate.asked_twice") if len(asked(run, "delete_message")) > 1
                                    else finished(run)))
        await scene(c, hint, _label(_t("ex05.scenario.injected_delete"), hidden), run)
    hint = early(yes) or (
        Cause(_t("ex05.gate.denied_ask", name="send_reply"), key="policy:send_reply") if not ran(yes, "send_reply")
        and tier == "deny" else unasked(yes, "send_reply", tier, none) if ran(yes, "send_reply") and not asked(yes)
        else Cause(unasked_hint("send_reply", ran=False), key="await") if not asked(yes) and yes.approver else
        _asked_with(yes) or (_t("ex05.gate.yes_not_run") if not ran(yes, "send_reply") else finished(yes)))
    await scene(c, hint, _label(_t("ex05.scenario.send_yes")), yes)
    for i, (line, kwargs) in enumerate(ANSWERS):
        run = no if i == 0 else none if "approver" in kwargs else await drive(fn, "inbox", SEND, max_turns=10,
                                                                               token_budget=60_000, **kwargs)
        crashed = run.problem and ("ApproverBroke" in run.problem or "TimeoutError" in run.problem)
        cause = refused_ran(run, "send_reply", tier) if ran(run, "send_reply") else None
        hint = (Cause(_t("ex05.gate.approver_crashed", error=run.problem[:100]), key="crash") if crashed else
                Cause(_t("ex05.gate.ran_unasked", name="send_reply", tier=tier), key="no approver")
                if cause is not None and run is none else
                unasked(run, "send_reply", tier, none) if cause is not None and cause.key == "unasked" else
                Cause(_t("ex05.gate.fail_closed", answer=line()), key="no") if cause is not None and cause.key == "no"
                and i > 0 else cause or early(run) or finished(run))
        await scene(c, hint, _label(line(), hidden=i > 0), run)
    fwd = await drive(fn, "inbox", FORWARD, answer=True, max_turns=10, token_budget=60_000)
    fwd_tier = policy_tier(policy, "forward_all")
    hint = (Cause(_t("ex05.gate.retired_asked"), key="policy:forward_all") if fwd_tier not in ("deny", "?") and (
        fwd.box.forwarded or asked(fwd, "forward_all")) else  # a yes ran it: the tier is the cause
        refused_ran(fwd, "forward_all", fwd_tier) if fwd.box.forwarded else early(fwd) or (
        Cause(_t("ex05.gate.retired_asked"), key="policy:forward_all" if fwd_tier != "deny" else "deny asked")
        if asked(fwd, "forward_all") else finished(fwd)))
    await scene(c, hint, _label(_t("ex05.scenario.retired")), fwd)
    reads = await drive(fn, "inbox", SAMPLE_INBOX, answer=False, policy=READS_ASKED, max_turns=10,
                        token_budget=60_000)
    hint = early(reads) or (
        refused_ran(reads, "read_message", "ask") if ran(reads, "read_message") and asked(reads) else
        Cause(_t("ex05.gate.policy_argument"), key="policy arg") if ran(reads, "read_message") else
        Cause(_t("ex05.gate.policy_argument_unasked"), key="policy arg") if len(asked(reads, "read_message")) != 3
        else finished(reads))
    await scene(c, hint, _label(_t("ex05.scenario.policy_argument"), hidden=True), reads)
    left_out = await drive(fn, "inbox", INJECTED, answer=True, policy=UNLISTED, max_turns=10, token_budget=60_000)
    key = "policy arg" if "policy arg" in c.causes else "deny asked" if asked(left_out, "delete_message") and \
        "deny asked" in c.upstream else "unlisted"
    hint = (Cause(_t("ex05.gate.unlisted_ran"), key=key) if "m1" in left_out.box.deleted else
            Cause(_t("ex05.gate.unlisted_asked"), key=key) if asked(left_out, "delete_message") else
            early(left_out) or finished(left_out))
    await scene(c, hint, _label(_t("ex05.scenario.unlisted"), hidden=True), left_out)
    both = await drive(fn, "inbox-parallel", HIDDEN["parallel"], answer=lambda name, i: name == "archive_message",
                       policy=TWO_ASKED, max_turns=10, token_budget=60_000)
    hint = early(both) or (
        Cause(_t("ex05.gate.asked_late"), key="late") if asked_late(both) else
        Cause(_t("ex05.gate.policy_argument_unasked"), key="policy arg") if len(asked(both)) != 2 else
        refused_ran(both, "delete_message", "ask") if both.box.deleted else
        _t("ex05.gate.parallel_answers") if both.box.archived != ["m3"] else finished(both))
    await scene(c, hint, _label(_t("ex05.scenario.ask_first"), hidden=True), both)
    pong = await drive(fn, "inbox-chase", PING_PONG, answer=True, policy=READS_ASKED, max_turns=16,
                       token_budget=10 ** 9, limit=20)
    stopped = field(pong, "stopped_by")
    reads_asked = len(asked(pong, "read_message"))
    hint = (early(pong) or (None if stopped == "no_progress" and reads_asked == 3 else
            Cause(_t("ex05.gate.asked_repeat"), key="gate first") if reads_asked > 3 else
            Cause(_t("ex05.gate.policy_argument_unasked"), key="policy arg") if reads_asked < 3 else
            _t("ex05.finish.stopped_by_want", want="no_progress", got=repr(stopped)[:40])))
    if hint is not None and await cycle_named(c, fn, lambda run: _cycle_hint(c, run)):  # check-valves names it
        hint = Cause(str(hint), key="valves:cycle")
    await scene(c, hint, _label(_t("ex05.scenario.gate_and_cycle"), hidden=True), pong)
    plain = await drive(fn, "inbox", SAMPLE_INBOX, answer=True, max_turns=10, token_budget=60_000)
    hint = None if not plain.problem and not asked(plain, "read_message") and not asked(plain, "list_messages") \
        else broke(plain) or Cause(_t("ex05.gate.reads_asked"), key="policy:read_message"
                                   if policy_tier(policy, "read_message") != "allow" else "reads asked")
    await scene(c, hint, _label(_t("ex05.scenario.reads_unasked")), plain)
    own = await drive(fn, "inbox-parallel", HIDDEN["parallel"], answer=lambda name, i: i == {"id": "m4"},
                      policy=READS_ASKED, max_turns=10, token_budget=60_000)  # two reads asked: m2 no, m4 yes
    reads = sorted(i.get("id", "?") for i in ran(own, "read_message"))
    hint = early(own) or _asked_with(own) or (
        Cause(_t("ex05.gate.policy_argument_unasked"), key="policy arg") if len(asked(own, "read_message")) != 2 else
        Cause(_t("ex05.gate.own_answer", ran=", ".join(reads) or "-"), key="by name") if reads != ["m4"] else
        finished(own))
    await scene(c, hint, _label(_t("ex05.scenario.own_answer"), hidden=True), own)
    c.done()


def _asked_with(run):
    """None when the approver was asked with each call's own name and input (the dict the model sent)."""
    calls = [(b["name"], b["input"]) for n in sorted(run.replies) for b in calls_of(run.replies[n])]
    wrong = next(((name, i) for name, i in run.asked if (name, i) not in calls), None)
    return Cause(_t("ex05.gate.asked_with", name=wrong[0], got=repr(wrong[1])[:80]), key="asked with") if wrong \
        else None
