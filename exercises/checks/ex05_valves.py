"""Exercise 5 — the capstone's check of the valves that stop a run (check_harness_valves): the turn cap, the token
budget and no progress, each alone and two on the same turn, through the gauntlet (ex05_gauntlet.drive).

Each valve's whole contract, as the task text states it: the cap counts tool turns and pause continuations and
stops only a turn the model asks for (a run the model ends after exactly max_turns turns is not capped); the budget
counts every token billed (cache writes and reads too: a hidden hog caches the tools) and trips when the total
REACHES it (a hidden budget equals a total); no progress compares whole calls, in any order; when two valves would
stop the same turn, the first in the task text's order (cap, budget, no progress) names the stop. What the task
text's harness does on the run's own responses is ex05_gauntlet.expected_stop; a hint names what the run shows
against it.
"""

from __future__ import annotations

from harness_kit.mailbox import SAMPLE_INBOX
from harness_kit.words import number as _number

from .ex05_gauntlet import (CACHED, CYCLE_3, HIDDEN, PING_PONG, budget_stop, broke, calls_of, cycle_stop, drive,
                            eager, expected_stop, field, finished, label as _label, model_text, ran,
                            scene, spent_until, uncounted)
from .ex05_upstream import upstream
from .kit import Cause, Checks, _t, unfinished

BIG = 10 ** 9  # a limit that never stops a run


CAP, BUDGET, PROGRESS = "valve:max_turns", "valve:token_budget", "valve:no_progress"  # one cause per valve: its
# first ✗ names how it is wrong, and its later ✗ (another scenario, the same valve) follow from that one


def _own_words(run):
    """None when the run a valve stopped says so in a sentence of the harness's own (not empty, not the model's)."""
    text = field(run, "text")
    if isinstance(text, str) and text.strip() and "".join(text.split()) != "".join(model_text(run).split()):
        return None
    return Cause(_t("ex05.valves.own_words", valve=field(run, "stopped_by"), got=repr(text)[:60]), key="own words")


def _cap_hint(run, cap):
    n, stopped = len(ran(run)), field(run, "stopped_by")
    if n == cap and run.requests == cap + 1 and stopped == "max_turns" and not run.problem:
        return _own_words(run)
    if run.runaway:
        return Cause(_t("ex05.valves.cap_never", cap=cap), key=CAP)
    if broke(run):
        return broke(run)
    if stopped in ("token_budget", "no_progress"):
        return Cause(_t("ex05.valves.other_valve", valve=stopped, n=n), key="eager")
    if n == cap + 1:
        return Cause(_t("ex05.valves.cap_one_more", cap=cap, next=cap + 1), key=CAP)
    if n == cap - 1:
        return Cause(_t("ex05.valves.cap_one_less", cap=cap), key=CAP)
    if n == cap and run.requests == cap:
        return Cause(_t("ex05.valves.cap_after", cap=cap), key=CAP)
    if n != cap or run.requests != cap + 1:
        return Cause(_t("ex05.valves.cap_count", cap=cap, n=n), key=CAP)
    return Cause(_t("ex05.finish.stopped_by_want", want="max_turns", got=repr(stopped)[:40]), key=CAP)


def _named(c, key) -> bool:
    """True when this check or an earlier one (c.upstream) already named the cause `key`."""
    return key in c.causes or key in c.upstream


def _other(c, run):
    """A run stopped by another valve than the scenario's: that valve's own cause when an earlier ✗ found it wrong,
    else the valve acting too early (eager)."""
    stopped = field(run, "stopped_by")
    if _named(c, f"valve:{stopped}"):
        return Cause(eager(run) or _t("ex05.finish.valve_too_eager", valve=stopped), key=f"valve:{stopped}")
    return eager(run)


def _late(run, budget, at):
    """A budget that acted after response `at`: a total equal to the budget not taken as reached, or the tokens it
    leaves uncounted, when that is what the run shows."""
    if spent_until(run, at) == budget:
        return Cause(_t("ex05.valves.budget_equal", n=at, budget=budget), key=BUDGET)
    left = [f for f in uncounted(run, budget, run.requests) if spent_until(run, max(run.replies), (f,))]
    if left:
        return Cause(_t("ex05.valves.budget_uncounted", fields=", ".join(left), budget=budget), key=BUDGET)
    if run.requests == at + 1:  # the check saw each response's tokens one request late
        return Cause(_t("ex05.valves.budget_one_late", budget=budget, n=at), key=BUDGET)
    return Cause(_t("ex05.valves.budget_late", budget=budget, n=at), key=BUDGET)


def _budget_hint(c, run, budget):
    at, stopped = budget_stop(run, budget), field(run, "stopped_by")
    if at is not None and run.requests == at and stopped == "token_budget" and len(ran(run)) == at - 1:
        return _own_words(run)
    if run.runaway:
        return Cause(_t("ex05.valves.budget_never", budget=budget), key=BUDGET)
    if broke(run):
        return broke(run)
    if stopped in ("max_turns", "no_progress"):
        return _other(c, run) or _t("ex05.finish.stopped_by_want", want="token_budget", got=repr(stopped)[:40])
    if at and run.requests > at:
        return _late(run, budget, at)
    if at and len(ran(run)) >= at:
        return Cause(_t("ex05.valves.budget_ran", n=at), key=BUDGET)
    if at is None or run.requests < at:
        return Cause(_t("ex05.valves.budget_early", budget=budget),
                     key=BUDGET if stopped == "token_budget" else "eager")
    return Cause(_t("ex05.finish.stopped_by_want", want="token_budget", got=repr(stopped)[:40]), key=BUDGET)


async def _budget(c, fn, budget, label, tools=None):
    run = await drive(fn, "inbox-hog", max_turns=60, token_budget=budget, limit=40, **({"tools": tools} if tools
                                                                                        else {}))
    await scene(c, _budget_hint(c, run, budget), label, run)
    return run


def _cycle_hint(c, run):
    stop, stopped = cycle_stop(run), field(run, "stopped_by")
    at, period, calls = stop if stop else (None, None, "")
    before = sum(len(calls_of(run.replies[n])) for n in run.replies if stop and n < at)  # the calls that may run
    if stop and run.requests == at and stopped == "no_progress" and len(ran(run)) == before:
        return _own_words(run)
    if broke(run):
        return broke(run)
    if stopped in ("max_turns", "token_budget") and _other(c, run):
        return _other(c, run)
    if stop and run.requests > at + 1 and stopped != "no_progress":
        return Cause(_t("ex05.valves.cycle_missed", period=period, calls=calls[:160]), key=PROGRESS)
    if stop and (run.requests > at or len(ran(run)) > before):
        return Cause(_t("ex05.valves.cycle_late"), key=PROGRESS)
    if (stop and run.requests < at) or (not stop and stopped == "no_progress"):
        return Cause(_t("ex05.valves.cycle_early", n=run.requests), key="eager")
    return Cause(_t("ex05.finish.stopped_by_want", want="no_progress", got=repr(stopped)[:40]), key=PROGRESS)


async def _cycle(c, fn, key, inbox, hidden):
    run = await drive(fn, "inbox-chase", inbox, max_turns=16, token_budget=BIG, limit=20)
    await scene(c, _cycle_hint(c, run), _label(key, hidden), run)
    return run


def _order_hint(c, run, cap, budget):
    """Where the task text's harness stops this run (the valves in their order, a pause counted as a turn, a run
    the model ends left to end), against where the run stopped."""
    want, stopped = expected_stop(run, cap, budget), field(run, "stopped_by")
    n, valve = want if want else (None, None)
    if want and run.requests == n and (stopped == valve if valve else finished(run) is None):
        return None
    if broke(run):
        return broke(run)
    if stopped in ("max_turns", "token_budget", "no_progress") and _named(c, f"valve:{stopped}"):
        return Cause(_t("ex05.finish.stopped_by_want", want=valve or "end_turn", got=repr(stopped)[:40]),
                     key=f"valve:{stopped}")  # the valve an earlier ✗ found wrong stopped it: that cause again
    pauses = sum(1 for m in run.replies.values() if m.get("stop_reason") == "pause_turn")
    if stopped == "pause_turn":
        return Cause(_t("ex05.finish.pause"), key="pause")  # (check-loop's pause_turn ✗ names it)
    if valve == "token_budget" and stopped != valve and _named(c, BUDGET):  # (e.g. a total equal to the budget)
        return _late(run, budget, n)
    if valve and stopped in ("max_turns", "token_budget", "no_progress") and stopped != valve and run.requests == n:
        key = f"valve:{valve}"  # a valve an earlier ✗ found wrong: this follows from it; else the order is the cause
        return Cause(_t("ex05.valves.order", n=n, first=valve, got=stopped), key=key if _named(c, key) else "order")
    if valve is None and want and stopped == "max_turns":
        return Cause(_t("ex05.valves.cap_at_end", cap=cap), key=CAP)
    if valve == "max_turns" and pauses and (run.requests > n or stopped != "max_turns"):
        return Cause(_t("ex05.valves.pause_counts", cap=cap, pauses=pauses), key=CAP)
    if valve == "token_budget" and run.requests > n:
        return _late(run, budget, n)
    if stopped in ("max_turns", "token_budget", "no_progress") and _other(c, run):
        return _other(c, run)
    return _t("ex05.finish.stopped_by_want", want=valve or "end_turn", got=repr(stopped)[:40])


async def _both(c, fn, label, scenario, inbox, cap, budget):
    run = await drive(fn, scenario, inbox, max_turns=cap, token_budget=budget, limit=30)
    await scene(c, _order_hint(c, run, cap, budget), _label(label, hidden=True), run)


async def check_harness_valves(ns: dict) -> None:
    c = Checks("check-valves", _t("ex05.valves.title"))
    fn = ns.get("run_agent")
    probe = await drive(fn, "inbox-runaway", max_turns=3, token_budget=BIG, limit=30)
    if unfinished(c, probe.problem, "run_agent"):
        return c.done()
    again = await drive(fn, "inbox-runaway", max_turns=3, token_budget=BIG, limit=30)
    await upstream(c, fn, ns.get("POLICY"), paused=True)
    if not probe.problem and not again.problem and len(ran(probe)) != len(ran(again)):
        c.cause(_t("kit.state.each_run_afresh"), Cause(_t("ex05.valves.state", first=len(ran(probe)),
                                                          second=len(ran(again))), key="state"))
    elif eager(probe) is not None and eager(probe).key == "state":  # stopped before this run took a turn
        c.cause(_t("kit.state.each_run_afresh"), eager(probe))
    for cap, hidden in ((5, False), (7, True), (2, True)):
        run = await drive(fn, "inbox-runaway", max_turns=cap, token_budget=BIG, limit=30)
        await scene(c, _cap_hint(run, cap), _label(_t("ex05.scenario.runaway", cap=cap), hidden), run)
    hog = await _budget(c, fn, 20_000, _label(_t("ex05.scenario.hog", budget=_number(20_000))))
    for budget in (9_000, 33_333):
        await _budget(c, fn, budget, _label(_t("ex05.scenario.hog", budget=_number(budget)), True))
    await _budget(c, fn, 19_000, _label(_t("ex05.scenario.hog_cached", budget=_number(19_000)), True), CACHED)
    exact = spent_until(hog, 3) if len(hog.replies) >= 3 else 9_000  # the total after response 3, exactly
    await _budget(c, fn, exact, _label(_t("ex05.scenario.hog_exact", budget=_number(exact)), True))
    cycles = []
    for key, inbox, hidden in ((_t("ex05.scenario.ping_pong"), PING_PONG, False),
                               (_t("ex05.scenario.ping_pong"), HIDDEN["ping_pong"], True),
                               (_t("ex05.scenario.cycle_3"), CYCLE_3, False),
                               (_t("ex05.scenario.cycle_3"), HIDDEN["cycle_3"], True),
                               (_t("ex05.scenario.stuck"), HIDDEN["stuck"], True)):
        cycles.append(await _cycle(c, fn, key, inbox, hidden))
    shuffled = await drive(fn, "inbox-reorder", SAMPLE_INBOX, max_turns=16, token_budget=BIG, limit=20)
    hint = _cycle_hint(c, shuffled)
    if hint is not None and field(shuffled, "stopped_by") in ("no_progress", None) and len(shuffled.replies) >= 3:
        orders = [" | ".join(f"{b['name']}({b['input'].get('id')})" for b in calls_of(shuffled.replies[n]))
                  for n in (2, 3)]
        hint = Cause(_t("ex05.valves.cycle_order", first=orders[0], second=orders[1]), key=PROGRESS) \
            if getattr(hint, "key", None) == PROGRESS else hint
    await scene(c, hint, _label(_t("ex05.scenario.reordered"), hidden=True), shuffled)
    chain = await drive(fn, "inbox-chase", HIDDEN["chain"], max_turns=16, token_budget=BIG, limit=20)
    stopped = _other(c, chain) or _t("ex05.valves.chain_stopped", valve=field(chain, "stopped_by"))
    await scene(c, finished(chain, stopped),
                _label(_t("ex05.scenario.chain"), hidden=True), chain)
    # two valves on the same turn: the cap before the budget, both before no progress
    await _both(c, fn, _t("ex05.scenario.cap_and_cycle"), "inbox-chase", PING_PONG, 4, BIG)
    pong = spent_until(cycles[0], 5) if len(cycles[0].replies) >= 5 else 1
    await _both(c, fn, _t("ex05.scenario.budget_and_cycle", budget=_number(pong)), "inbox-chase", PING_PONG, 16, pong)
    both = spent_until(hog, 4) if len(hog.replies) >= 4 else 1
    await _both(c, fn, _t("ex05.scenario.cap_and_budget", budget=_number(both)), "inbox-hog", SAMPLE_INBOX, 3, both)
    # the cap's edges: a run the model ends at the cap, and pause continuations counted as turns
    whole = await drive(fn, "inbox", SAMPLE_INBOX, max_turns=BIG, token_budget=BIG)
    turns = sum(1 for m in whole.replies.values() if m.get("stop_reason") == "tool_use") or 1
    await _both(c, fn, _t("ex05.scenario.ends_at_cap", cap=turns), "inbox", SAMPLE_INBOX, turns, BIG)
    await _both(c, fn, _t("ex05.scenario.pause_counts", cap=turns + 1), "inbox-pause-twice", SAMPLE_INBOX, turns + 1,
                BIG)
    c.done()
