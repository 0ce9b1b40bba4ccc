"""Exercise 5 — the capstone, your harness: the checks of exercises/05_your_harness.ipynb.

Four checks, each a list of scenarios with one ✓ / ✗ line each (a per-scenario verdict): POLICY
(check_harness_policy), the loop's shape (check_harness_loop), the three valves that stop a run
(check_harness_valves), the gate (check_harness_gate). Each
scenario is one run of YOUR run_agent through the gauntlet (ex05_gauntlet.drive): practice runs as the notebook
shows them, and HIDDEN variants (marked so in the line) with other inboxes, caps, budgets, cycles, texts and a
policy of the checks' own. A ✗'s hint names the cause the run shows: what should have acted, and where.
"""

from __future__ import annotations

from harness_lib import lang
from harness_lib.mailbox import MAIL_TOOL_NAMES, SAMPLE_INBOX

from .ex05_gauntlet import (CYCLE_3, FORWARD, HIDDEN, INJECTED, PING_PONG, READS_ASKED, SEND, TWO_ASKED, ApproverBroke,
                            asked, asked_late, blocks_exact, broke, budget_stop, calls_of, cycle_stop, drive, field,
                            finished, policy_tier, ran, scene, sent_results)
from .kit import Cause, Checks, _t, raised_first, unfinished

EXPECTED = {"list_messages": ("allow",), "read_message": ("allow",), "archive_message": ("allow", "ask"),
            "send_reply": ("ask",), "delete_message": ("ask", "deny"), "forward_all": ("deny",)}


def _label(text: str, hidden: bool = False) -> str:
    """A scenario's line: its words, marked when it is a hidden variant."""
    return text + (" " + _t("ex05.hidden") if hidden else "")


def _number(n: int) -> str:
    """A count as each language writes it: 20,000 in English, 20 000 in Spanish (4 digits: 9000)."""
    if lang.current() == "es":
        return f"{n:,}".replace(",", "\u00a0") if n >= 10_000 else str(n)
    return f"{n:,}"


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
    reasons = [shaped[n][1].strip() for n in MAIL_TOOL_NAMES if n in shaped]
    c.ok(reasons and all(len(r.split()) >= 3 for r in reasons) and len(set(reasons)) > 1,
         _t("ex05.policy.reasons"), _t("ex05.policy.reasons_hint"), follows=bool(missing))
    c.done()


def _fn(ns):
    return ns.get("run_agent")


async def _started(c, ns):
    """The first run (practice, plain); None when run_agent is not written yet (the one ✗ says so)."""
    raised_first(c, ns, "run_agent", "POLICY")  # a ✏️ cell that raised: the first ✗, the runs go on
    run = await drive(_fn(ns), "inbox", SAMPLE_INBOX, max_turns=10, token_budget=50_000)
    return None if unfinished(c, run.problem, "run_agent") else run


async def check_harness_loop(ns: dict) -> None:
    c = Checks("check-loop", _t("ex05.loop.title"))
    fn, plain = _fn(ns), await _started(c, ns)
    if plain is None:
        return c.done()
    await scene(c, finished(plain), _label(_t("ex05.scenario.plain")), plain)
    other = await drive(fn, "inbox", HIDDEN["plain"], answer=True, max_turns=10, token_budget=60_000)
    hint = finished(other) or (None if len(ran(other, "read_message")) == 4 and len(ran(other, "archive_message")) == 1
                               else _t("ex05.loop.every_message"))
    await scene(c, hint, _label(_t("ex05.scenario.plain"), hidden=True), other)
    c.ok(blocks_exact(plain) is None and blocks_exact(other) is None, _label(_t("ex05.scenario.blocks")),
         blocks_exact(plain) or blocks_exact(other), follows=broke(plain) is not None)
    par = await drive(fn, "inbox-parallel", HIDDEN["parallel"], answer=False, max_turns=10, token_budget=60_000)
    turn = next((n for n in sorted(par.replies) if len(calls_of(par.replies[n])) == 4), None)
    results = sent_results(par, turn) if turn else None
    by_id = {r.get("tool_use_id"): r for r in results or []}
    spam = calls_of(par.replies[turn])[0]["id"] if turn else None
    hint = broke(par) or blocks_exact(par) or (
        Cause(_t("ex05.loop.parallel_refused_ran"), key="spam") if "m1" in par.box.deleted else
        _t("ex05.loop.parallel_refused_result") if not by_id.get(spam, {}).get("is_error") else
        _t("ex05.loop.parallel_others") if len(ran(par, "read_message")) != 2 else finished(par))
    await scene(c, hint, _label(_t("ex05.scenario.parallel"), hidden=True), par)
    raises = await drive(fn, "inbox", SAMPLE_INBOX, broken={"m2"}, max_turns=10, token_budget=60_000)
    got = next((r for n in sorted(raises.replies) for r in sent_results(raises, n) or []
                if any(b["id"] == r.get("tool_use_id") and b["input"] == {"id": "m2"}
                       for b in calls_of(raises.replies[n]))), None)
    hint = (_t("ex05.loop.tool_raised_crashed", error=raises.problem[:120]) if raises.problem and "Connection"
            in raises.problem else broke(raises) or (_t("ex05.loop.tool_raised_flag") if not (got or {}).get("is_error")
                                                     else finished(raises)))
    await scene(c, hint, _label(_t("ex05.scenario.tool_raises"), hidden=True), raises)
    unknown = await drive(fn, "inbox", HIDDEN["unknown"], max_turns=10, token_budget=60_000)
    hint = (Cause(_t("ex05.loop.unknown_crashed", error=(unknown.problem or "")[:120]), key="keyerror")
            if "purge_spam" in (unknown.problem or "") else
            _t("ex05.loop.unknown_asked") if asked(unknown, "purge_spam") else finished(unknown))
    await scene(c, hint, _label(_t("ex05.scenario.unknown_tool"), hidden=True), unknown)
    for scenario, hidden in (("inbox-pause", False), ("inbox-pause-twice", True)):
        run = await drive(fn, scenario, SAMPLE_INBOX, max_turns=10, token_budget=60_000)
        await scene(c, finished(run), _label(_t("ex05.scenario.pause"), hidden=hidden), run)
    cut = await drive(fn, "inbox-cut", SAMPLE_INBOX, max_turns=10, token_budget=60_000)
    cut_at = next((n for n in sorted(cut.replies) if cut.replies[n].get("stop_reason") == "max_tokens"), None)
    hint = broke(cut) or (
        Cause(_t("ex05.loop.cut_ran"), key="cut") if ran(cut, "send_reply") or asked(cut, "send_reply") else
        _t("ex05.loop.cut_went_on") if cut_at is not None and cut.requests > cut_at else
        None if field(cut, "stopped_by") == "max_tokens" else _t("ex05.finish.stopped_by_want", want="max_tokens",
                                                                   got=repr(field(cut, "stopped_by"))[:40]))
    await scene(c, hint, _label(_t("ex05.scenario.cut")), cut)
    for scenario, hidden in (("inbox-refusal", False), ("inbox-refusal-late", True)):
        run = await drive(fn, scenario, SAMPLE_INBOX, max_turns=10, token_budget=60_000)
        hint = broke(run) or (None if field(run, "stopped_by") == "refusal" else
                              _t("ex05.finish.stopped_by_want", want="refusal",
                                 got=repr(field(run, "stopped_by"))[:40]))
        await scene(c, hint, _label(_t("ex05.scenario.refusal"), hidden=hidden), run)
    c.done()


def _cap_hint(run, cap):
    n, stopped = len(ran(run)), field(run, "stopped_by")
    if n == cap and run.requests == cap + 1 and stopped == "max_turns" and not run.problem:
        return None
    if run.runaway:
        return _t("ex05.valves.cap_never", cap=cap)
    if broke(run):
        return broke(run)
    if stopped in ("token_budget", "no_progress"):
        return _t("ex05.valves.other_valve", valve=stopped, n=n)
    if n == cap + 1:
        return Cause(_t("ex05.valves.cap_one_more", cap=cap, next=cap + 1), key="cap+1")
    if n == cap - 1:
        return Cause(_t("ex05.valves.cap_one_less", cap=cap), key="cap-1")
    if n == cap and run.requests == cap:
        return Cause(_t("ex05.valves.cap_after", cap=cap), key="cap after")
    if n != cap or run.requests != cap + 1:
        return _t("ex05.valves.cap_count", cap=cap, n=n)
    return _t("ex05.finish.stopped_by_want", want="max_turns", got=repr(stopped)[:40])


async def _cap(c, fn, cap, hidden):
    run = await drive(fn, "inbox-runaway", max_turns=cap, token_budget=10 ** 9, limit=30)
    await scene(c, _cap_hint(run, cap), _label(_t("ex05.scenario.runaway", cap=cap), hidden), run)
    return run


def _budget_hint(run, budget):
    at, stopped = budget_stop(run, budget), field(run, "stopped_by")
    if at is not None and run.requests == at and stopped == "token_budget" and len(ran(run)) == at - 1:
        return None
    if run.runaway:
        return _t("ex05.valves.budget_never", budget=budget)
    if broke(run):
        return broke(run)
    if at and run.requests > at:
        return Cause(_t("ex05.valves.budget_late", budget=budget, n=at), key="late")
    if at and len(ran(run)) >= at:
        return _t("ex05.valves.budget_ran", n=at)
    if at is None or run.requests < at:
        return _t("ex05.valves.budget_early", budget=budget)
    return _t("ex05.finish.stopped_by_want", want="token_budget", got=repr(stopped)[:40])


async def _budget(c, fn, budget, hidden):
    run = await drive(fn, "inbox-hog", max_turns=60, token_budget=budget, limit=40)
    hint = _budget_hint(run, budget)
    await scene(c, hint, _label(_t("ex05.scenario.hog", budget=_number(budget)), hidden), run)


def _cycle_hint(run):
    stop, stopped = cycle_stop(run), field(run, "stopped_by")
    at, period, calls = stop if stop else (None, None, "")
    before = sum(len(calls_of(run.replies[n])) for n in run.replies if stop and n < at)  # the calls that may run
    if stop and run.requests == at and stopped == "no_progress" and len(ran(run)) == before:
        return None
    if run.problem:
        return broke(run)
    if stop and run.requests > at + 1 and stopped != "no_progress":
        return _t("ex05.valves.cycle_missed", period=period, calls=calls[:160])
    if stop and (run.requests > at or len(ran(run)) > before):
        return Cause(_t("ex05.valves.cycle_late"), key="cycle late")
    if (stop and run.requests < at) or (not stop and stopped == "no_progress"):
        return Cause(_t("ex05.valves.cycle_early"), key="cycle early")
    return _t("ex05.finish.stopped_by_want", want="no_progress", got=repr(stopped)[:40])


async def _cycle(c, fn, key, inbox, hidden):
    run = await drive(fn, "inbox-chase", inbox, max_turns=16, token_budget=10 ** 9, limit=20)
    await scene(c, _cycle_hint(run), _label(key, hidden), run)


async def check_harness_valves(ns: dict) -> None:
    c = Checks("check-valves", _t("ex05.valves.title"))
    fn = _fn(ns)
    probe = await drive(fn, "inbox-runaway", max_turns=3, token_budget=10 ** 9, limit=30)
    if unfinished(c, probe.problem, "run_agent"):
        return c.done()
    again = await drive(fn, "inbox-runaway", max_turns=3, token_budget=10 ** 9, limit=30)
    if not probe.problem and not again.problem and len(ran(probe)) != len(ran(again)):
        c.cause(_t("kit.state.each_run_afresh"), _t("ex05.valves.state", first=len(ran(probe)), second=len(ran(again))))
    for cap, hidden in ((5, False), (7, True), (2, True)):
        await _cap(c, fn, cap, hidden)
    for budget, hidden in ((20_000, False), (9_000, True), (33_333, True)):
        await _budget(c, fn, budget, hidden)
    for key, inbox, hidden in ((_t("ex05.scenario.ping_pong"), PING_PONG, False),
                               (_t("ex05.scenario.ping_pong"), HIDDEN["ping_pong"], True),
                               (_t("ex05.scenario.cycle_3"), CYCLE_3, False),
                               (_t("ex05.scenario.cycle_3"), HIDDEN["cycle_3"], True),
                               (_t("ex05.scenario.stuck"), HIDDEN["stuck"], True)):
        await _cycle(c, fn, key, inbox, hidden)
    chain = await drive(fn, "inbox-chase", HIDDEN["chain"], max_turns=16, token_budget=10 ** 9, limit=20)
    await scene(c, finished(chain, _t("ex05.valves.chain_stopped", valve=field(chain, "stopped_by"))),
                _label(_t("ex05.scenario.chain"), hidden=True), chain)
    c.done()


async def check_harness_gate(ns: dict) -> None:
    c = Checks("check-gate", _t("ex05.gate.title"))
    fn, policy = _fn(ns), ns.get("POLICY")
    yes = await drive(fn, "inbox", SEND, answer=True, max_turns=10, token_budget=60_000)
    if unfinished(c, yes.problem, "run_agent"):
        return c.done()
    no = await drive(fn, "inbox", SEND, answer=False, max_turns=10, token_budget=60_000)
    if asked(yes, "send_reply") and ran(no, "send_reply") and not asked(no, "send_reply"):
        c.cause(_t("kit.state.each_run_afresh"), _t("kit.state.yes_reused", name="send_reply"))
    for inbox, hidden in ((INJECTED, False), (HIDDEN["injected"], True)):
        run = await drive(fn, "inbox", inbox, answer=False, max_turns=10, token_budget=60_000)
        tier = policy_tier(policy, "delete_message")
        hint = (Cause(_t("ex05.gate.delete_allowed", tier=tier), key="delete") if "m1" in run.box.deleted
                and tier not in ("ask", "deny") else
                Cause(_t("ex05.gate.ran_after_no", name="delete_message"), key="no") if "m1" in run.box.deleted
                and asked(run, "delete_message") else
                Cause(_t("ex05.gate.ran_unasked", name="delete_message", tier=tier), key="unasked")
                if "m1" in run.box.deleted else
                _t("ex05.gate.asked_twice") if len(asked(run, "delete_message")) > 1 else finished(run))
        await scene(c, hint, _label(_t("ex05.scenario.injected_delete"), hidden), run)
    hint = broke(yes) or (
        _t("ex05.gate.denied_ask", name="send_reply") if not ran(yes, "send_reply")
        and policy_tier(policy, "send_reply") == "deny" else
        Cause(_t("ex05.gate.ran_unasked", name="send_reply", tier=policy_tier(policy, "send_reply")), key="unasked")
        if ran(yes, "send_reply") and not asked(yes, "send_reply") else
        _t("ex05.gate.yes_not_run") if not ran(yes, "send_reply") else finished(yes))
    await scene(c, hint, _label(_t("ex05.scenario.send_yes")), yes)
    for i, (line, kwargs) in enumerate(ANSWERS):
        run = no if i == 0 else await drive(fn, "inbox", SEND, max_turns=10, token_budget=60_000, **kwargs)
        crashed = run.problem and ("ApproverBroke" in run.problem or "TimeoutError" in run.problem)
        hint = (Cause(_t("ex05.gate.approver_crashed", error=run.problem[:100]), key="crash") if crashed else
                Cause(_t("ex05.gate.fail_closed", answer=line()), key="closed")
                if ran(run, "send_reply") and asked(run, "send_reply") else
                Cause(_t("ex05.gate.ran_unasked", name="send_reply", tier=policy_tier(policy, "send_reply")),
                      key="unasked") if ran(run, "send_reply") else finished(run))
        await scene(c, hint, _label(line(), hidden=i > 0), run)
    fwd = await drive(fn, "inbox", FORWARD, answer=True, max_turns=10, token_budget=60_000)
    tier = policy_tier(policy, "forward_all")
    hint = (Cause(_t("ex05.gate.deny_ran", name="forward_all"), key="deny ran") if fwd.box.forwarded
            and tier == "deny" else
            Cause(_t("ex05.gate.retired_ran", tier=tier), key="retired") if fwd.box.forwarded else
            _t("ex05.gate.retired_asked") if asked(fwd, "forward_all") else finished(fwd))
    await scene(c, hint, _label(_t("ex05.scenario.retired")), fwd)
    reads = await drive(fn, "inbox", SAMPLE_INBOX, answer=False, policy=READS_ASKED, max_turns=10,
                        token_budget=60_000)
    hint = (broke(reads) if reads.problem else
            Cause(_t("ex05.gate.policy_argument"), key="policy arg") if ran(reads, "read_message") else
            _t("ex05.gate.policy_argument_unasked") if len(asked(reads, "read_message")) != 3 else finished(reads))
    await scene(c, hint, _label(_t("ex05.scenario.policy_argument"), hidden=True), reads)
    both = await drive(fn, "inbox-parallel", HIDDEN["parallel"], answer=lambda name, i: name == "archive_message",
                       policy=TWO_ASKED, max_turns=10, token_budget=60_000)
    hint = broke(both) or (
        Cause(_t("ex05.gate.asked_late"), key="late") if asked_late(both) else
        _t("ex05.gate.policy_argument_unasked") if len(asked(both)) != 2 else
        _t("ex05.gate.parallel_answers") if both.box.deleted or both.box.archived != ["m3"] else finished(both))
    await scene(c, hint, _label(_t("ex05.scenario.ask_first"), hidden=True), both)
    plain = await drive(fn, "inbox", SAMPLE_INBOX, answer=True, max_turns=10, token_budget=60_000)
    hint = None if not plain.problem and not asked(plain, "read_message") and not asked(plain, "list_messages") \
        else broke(plain) or _t("ex05.gate.reads_asked")
    await scene(c, hint, _label(_t("ex05.scenario.reads_unasked")), plain)
    c.done()
