"""Exercise 5 — one mistake, one cause: what an earlier check names, known to a later one.

Each check runs apart (a cell of its own, or the gradebook's judge), so a later check that meets a cause an earlier
check names drives the earlier check's run again and sets `c.upstream[key]`: its own ✗ with that cause then says
"follows from check-…'s ✗" instead of naming it a second time (verdict.Checks). The hints of those runs are made
here, once, for the check that names them and for the checks that follow: check-policy's tiers; check-loop's plain
tasks (the practice one and the hidden one), its parallel turn with a refusal, its unknown tool and its pause;
check-valves' ping-pong (for check-gate).
"""

from __future__ import annotations

from harness_kit.mailbox import SAMPLE_INBOX

from .ex05_gauntlet import (EXPECTED, FORWARD, HIDDEN, PING_PONG, asked, blocks_exact, broke, drive, early, field,
                            finished, policy_tier, ran, refused_ran, unasked)
from .kit import Cause, _t, unasked_hint

BIG = 10 ** 9  # a limit that never stops a run


async def parallel_cause(fn, policy, inbox, spam: str):
    """A parallel turn of four calls whose delete of `spam` the person refuses: (the run, why the delete ran or
    None). check-loop's scenario; the later checks run it too, to know a cause check-loop names."""
    par = await drive(fn, "inbox-parallel", inbox, answer=False, max_turns=10, token_budget=60_000)
    if spam not in par.box.deleted:
        return par, None
    cause = refused_ran(par, "delete_message", policy_tier(policy, "delete_message"))
    if cause.key == "unasked":  # not awaited, or never consulted: what approve=None shows
        none = await drive(fn, "inbox-parallel", inbox, approver=False, max_turns=10, token_budget=60_000)
        cause = unasked(par, "delete_message", "ask", none)
    return par, cause


async def hidden_plain(fn, policy):
    """check-loop's hidden plain task (four reads and an archive, the person says yes): (the run, its hint)."""
    run = await drive(fn, "inbox", HIDDEN["plain"], answer=True, max_turns=10, token_budget=60_000)
    archived = len(ran(run, "archive_message")) == 1
    hint = early(run) or (
        None if len(ran(run, "read_message")) == 4 and archived else
        Cause(unasked_hint("archive_message", ran=False), key="await")  # a yes nobody awaited
        if not archived and policy_tier(policy, "archive_message") == "ask" and not run.asked else
        _t("ex05.upstream.every_message")) or finished(run)
    return run, hint


async def unknown_tool(fn):
    """check-loop's call of a tool that does not exist: (the run, its hint). When it went to the approver, a run
    where the model calls the retired forward_all ('deny') tells whether every 'deny' call goes there too."""
    run = await drive(fn, "inbox", HIDDEN["unknown"], max_turns=10, token_budget=60_000)
    if "purge_spam" in (run.problem or ""):
        return run, Cause(_t("ex05.upstream.unknown_crashed", error=(run.problem or "")[:120]), key="keyerror")
    if early(run) or not asked(run, "purge_spam"):
        return run, early(run) or finished(run)
    fwd = await drive(fn, "inbox", FORWARD, answer=False, max_turns=10, token_budget=60_000)
    if asked(fwd, "forward_all"):
        return run, Cause(_t("ex05.upstream.deny_asked"), key="deny asked")
    return run, Cause(_t("ex05.upstream.unknown_asked"), key="unlisted")


async def pause(fn, scenario="inbox-pause"):
    """check-loop's pause_turn run: (the run, its hint)."""
    run = await drive(fn, scenario, SAMPLE_INBOX, max_turns=10, token_budget=60_000)
    return run, finished(run)


def as_sent(run):
    """None when every request offered the tools run_agent was given and sent each earlier response's content back
    as it came (SDK blocks or their dicts: type, text, id, name, input compared); else the cause."""
    given = [t["name"] for t in run.tools]
    for n, request in enumerate(run.log, 1):
        offered = [t.get("name") for t in request.get("tools") or []]
        if offered != given:
            return Cause(_t("ex05.loop.tools_offered", n=n, got=offered, k=len(given)), key="tools")
    fields = ("type", "text", "id", "name", "input")
    for n in sorted(run.replies):
        sent = [m for m in (run.log[n].get("messages") or []) if m.get("role") == "assistant"] if len(run.log) > n else []
        if run.replies[n].get("stop_reason") not in ("tool_use", "pause_turn") or len(sent) < n:
            continue
        came, back = run.replies[n].get("content") or [], sent[n - 1].get("content")
        if not isinstance(back, list) or [[b.get(f) for f in fields] for b in came] != [
                [b.get(f) if isinstance(b, dict) else None for f in fields] for b in back]:
            return Cause(_t("ex05.loop.content_as_it_came", n=n, want=[b.get("type") for b in came],
                            got=[b.get("type") for b in back if isinstance(b, dict)] if isinstance(back, list)
                            else type(back).__name__), key="as it came")
    return None


def _mark(c, cause, criterion: str, run=None) -> None:
    key = getattr(cause, "key", cause)
    if cause and key not in c.upstream:
        c.upstream[key] = _t("ex05.upstream.loop", criterion=criterion)
    if cause and key == "eager" and run is not None:  # a valve that acted where it should not: that valve's cause
        c.upstream.setdefault(f"valve:{field(run, 'stopped_by')}", c.upstream[key])
    if key == "deny asked":  # the 'deny' calls the person was asked about: those that then ran follow too
        c.upstream.setdefault("deny ran", c.upstream[key])


async def upstream(c, fn, policy, *, paused: bool = False, gate: bool = False) -> None:
    """A cause an earlier check names, as this check's `upstream`: each tool whose tier check-policy fails, and
    what check-loop's runs show (driven as check-loop drives them): its plain tasks, its parallel turn with a
    refusal; for check-valves (`paused`) its pause_turn; for check-gate (`gate`) its unknown tool. A ✗ here with
    the same cause says it follows from that ✗ instead of naming it again."""
    for name, tiers in EXPECTED.items():
        if policy_tier(policy, name) not in tiers:
            c.upstream[f"policy:{name}"] = _t("ex05.upstream.policy", name=name, tiers=" / ".join(tiers))
    plain = await drive(fn, "inbox", SAMPLE_INBOX, max_turns=10, token_budget=50_000)
    _mark(c, finished(plain), _t("ex05.scenario.plain"), plain)
    if as_sent(plain):  # the model was not offered the tools, or not sent back its own words: every run differs
        c.upstream["*"] = _t("ex05.upstream.loop", criterion=_t("ex05.scenario.blocks"))
    par, ran_anyway = await parallel_cause(fn, policy, HIDDEN["parallel"], "m1")
    # check-loop's to name: results, order, a refusal run
    _mark(c, broke(par) or blocks_exact(par) or ran_anyway, _t("ex05.scenario.parallel"))
    other, hint = await hidden_plain(fn, policy)
    _mark(c, hint, _t("ex05.scenario.plain") + " " + _t("ex05.hidden"), other)
    if paused:
        _mark(c, (await pause(fn))[1], _t("ex05.scenario.pause"))
    if gate:
        _mark(c, (await unknown_tool(fn))[1], _t("ex05.scenario.unknown_tool") + " " + _t("ex05.hidden"))


async def cycle_named(c, fn, cycle_hint) -> bool:
    """True when check-valves' ping-pong (the practice one) fails: a ✗ of check-gate about a repeating turn then
    follows from that ✗ (key "valves:cycle")."""
    run = await drive(fn, "inbox-chase", PING_PONG, max_turns=16, token_budget=BIG, limit=20)
    if cycle_hint(run) is None:
        return False
    c.upstream["valves:cycle"] = _t("ex05.upstream.valves", criterion=_t("ex05.scenario.ping_pong"))
    return True
