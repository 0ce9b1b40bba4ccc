"""Exercise 3, part 2 — no-progress detection: the checks of exercises/03_budget_and_progress.ipynb for
signature_of, find_short_cycle and run_guarded's no-progress valve (its budget is ex03_budget.py's, whose run
helpers this module uses).

`walk` is the grader's own loop around the learner's detector (with the kit's signature_of), so find_short_cycle is
judged in a loop as well as on lists.
"""

from __future__ import annotations

from types import SimpleNamespace

from anthropic.types import TextBlock, ToolUseBlock

from harness_lib import valves as _kit_valves
from harness_lib.client import MODEL
from harness_lib.loop import AgentResult, tool_result
from harness_lib.tools import run_tool

from .ex03_budget import (TASK_3, TOOLS_3, _call, _count_hint, _got, _loop_hint, guarded, harness_said,
                          reference_run, resend_3, run_causes)
from .kit import Cause, Checks, _t, counting_impls, offline, one_line, raised_first, unfinished

REVISIT_TASK = "Read the first line of README.md, then tell me the time, then read the first line of README.md again"


def _recording_detector(seen: list, answer=None):
    def detector(signatures):
        seen.append(list(signatures))
        return answer(signatures) if callable(answer) else answer
    return detector


async def check_progress(ns: dict) -> None:
    c = Checks("check-progress", _t("ex03.progress.title"))
    if raised_first(c, ns, "run_guarded"):
        return c.done()
    fn = ns.get("run_guarded")
    r = await guarded(fn, "stuck")
    if unfinished(c, r.problem, "run_guarded"):
        return c.done()
    await run_causes(c, fn, ns, progress=True)
    got = _got(r)
    ran_repeat = got is not None and got[0] == "no_progress" and len(r.calls) > 1  # caught after the tools ran
    turn_counted = got == ("no_progress", 2, 2) and len(r.calls) == 1  # caught in time, but counted as a turn
    c.ok(got == ("no_progress", 1, 2), _t("ex03.progress.stuck_stopped_no_progress")
         + (_t("ex02.turn_cap.got", got=got) if got and got != ("no_progress", 1, 2) else ""),
         _loop_hint(r) if got is None else
         _t("ex03.progress.same_call_twice_must_stop")
         if got[0] != "no_progress" else
         _t("ex03.progress.repeat_ran_before_the_check") if ran_repeat else
         _t("ex03.progress.repeat_counted_as_a_turn",
            turns=got[1]) if turn_counted else
         _t("ex03.progress.caught_before_it_runs"))
    c.ok(len(r.calls) == 1, _t("ex03.progress.repeated_call_never_ran", n=len(r.calls)),
         _loop_hint(r) if r.problem else
         _t("ex03.progress.check_before_running_tools"),
         follows=ran_repeat or (got is not None and got[0] != "no_progress"))  # nothing stopped it: the ✗ above
    res = r.result if isinstance(r.result, AgentResult) else None
    continued = res is not None and await resend_3(res.messages) is None
    own = res is not None and await harness_said(res, "stuck")
    c.ok(continued and own and await harness_said(res, "stuck", valve="no_progress"),
         _t("ex03.progress.says_why_it_stopped")
         + (_t("ex02.turn_cap.it_says", text=str(res.text)[:80]) if res is not None and not own else ""),
         _loop_hint(r) if res is None else
         _t("ex03.progress.return_before_appending_repeated") if not continued else
         _t("ex03.progress.not_the_models_text") if not own else _t("ex03.progress.name_the_repeat"),
         follows=res is not None and res.stopped_by != "no_progress")
    far = await guarded(fn, "never-ends", max_turns=4)
    c.ok(_got(far) == ("max_turns", 4, 5), _t("ex03.progress.never_ends_is_not_stuck")
         + (_t("ex02.turn_cap.got", got=_got(far)) if _got(far) and _got(far) != ("max_turns", 4, 5)
                                         else ""),
         _loop_hint(far) if _got(far) is None else
         _t("ex03.progress.include_the_input")
         if _got(far)[0] == "no_progress" else _t("ex03.progress.keep_turn_cap"))
    demo = await guarded(fn, "demo")
    c.ok(_got(demo) == ("end_turn", 2, 3), _t("ex03.progress.lesson_task_left_alone")
         + (_t("ex02.turn_cap.got", got=_got(demo)) if _got(demo) and _got(demo) != ("end_turn", 2, 3) else ""),
         _loop_hint(demo) if _got(demo) is None else _t("ex03.progress.progress_gets_its_answer"))
    order = Cause(_t("ex03.progress.valve_order"), key="valve order")
    cap = await guarded(fn, "stuck", max_turns=1)
    order_wrong = _got(cap) is not None and _got(cap)[0] == "no_progress"
    c.ok(_got(cap) == ("max_turns", 1, 2), _t("ex03.progress.cap_stops_stuck_first")
         + (_t("ex02.turn_cap.got", got=_got(cap)) if _got(cap) and _got(cap) != ("max_turns", 1, 2) else ""),
         _loop_hint(cap) if _got(cap) is None else order)
    stuck_ref, totals = await reference_run("stuck")
    budget = await guarded(fn, "stuck", token_budget=totals[1])
    count_hint = _count_hint(budget, totals)
    c.ok(_got(budget) == ("token_budget", 1, 2), _t("ex03.progress.budget_stops_stuck_first", totals_1=totals[1])
         + (_t("ex02.turn_cap.got", got=_got(budget)) if _got(budget) and _got(budget) != ("token_budget", 1, 2)
            else ""),
         _loop_hint(budget) if _got(budget) is None else
         _t("ex03.progress.no_budget_check_stopped") if _got(budget)[0] == "max_turns" else
         _t("ex03.progress.count_is_off", count_hint=count_hint)
         if count_hint else
         Cause(_t("ex03.progress.budget_must_stop_first"), key="valve order"))
    seen = []
    probe = await guarded(fn, "never-ends", max_turns=3, find_loop=_recording_detector(seen))
    lengths = [len(s) for s in seen]
    grows = lengths == [1, 2, 3] and all(seen[i] == seen[i + 1][:len(seen[i])] for i in range(2))
    c.ok(grows, _t("ex03.progress.find_loop_asked_each_turn")
         + ("" if grows else _t("ex03.progress.list_lengths_given", value=lengths)),
         _loop_hint(probe) if probe.problem else
         _t("ex03.progress.find_loop_never_called")
         if not seen else
         _t("ex03.progress.keep_one_list"),
         follows=(order_wrong and lengths == [1, 2, 3, 4])  # also asked at the 4th response, before the cap
         or (not seen and got is not None and got[0] != "no_progress"))  # no valve 3 at all, named above
    told = await guarded(fn, "never-ends", max_turns=8, find_loop=lambda s: 1 if len(s) >= 3 else None)
    c.ok(_got(told) == ("no_progress", 2, 3), _t("ex03.progress.period_stops_the_run")
         + (_t("ex02.turn_cap.got", got=_got(told)) if _got(told) and _got(told) != ("no_progress", 2, 3) else ""),
         _loop_hint(told) if _got(told) is None else
         _t("ex03.progress.use_find_loops_verdict"),
         follows=not seen or ((turn_counted or ran_repeat) and _got(told) == ("no_progress", 3, 3)))
    c.done()


def _block(kind, **fields):
    if kind == "text":
        return TextBlock(type="text", text=fields["text"], citations=None)
    return ToolUseBlock(type="tool_use", id=fields.get("id", "toolu_01"), name=fields["name"], input=fields["input"])


def check_signature(ns: dict) -> None:
    c = Checks("check-signature", _t("ex03.progress.signature.title"))
    if raised_first(c, ns, "signature_of"):
        return c.done()
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
    c.ok(problem is None, _t("ex03.progress.signature.takes_a_responses_content") + (f" — {problem}" if problem
                                                                                        else ""),
         _t("ex03.progress.signature.skip_non_tool_use_blocks")
         if problem and ("text" in problem.lower() or "AttributeError" in problem)
         else _t("ex03.budget.tokens.raised_problem", problem=problem))

    def same(a, b):
        x, px = _call(fn, a)
        y, py = _call(fn, b)
        return None if px or py else x == y

    ids = same([read(1, path="README.md")], [read(2, path="README.md")])
    c.ok(ids is True, _t("ex03.progress.signature.same_call_two_turns"),
         _t("ex03.progress.signature.leave_block_ids_out"))
    text = same([say("Let me read it."), read(1, path="README.md")],
                [say("Reading it again."), read(2, path="README.md")])
    fresh = ids is False  # every signature differs (the ids in it): what must match below cannot, by the ✗ above
    c.ok(text is True, _t("ex03.progress.signature.text_does_not_count"),
         _t("ex03.progress.signature.only_tool_use_blocks"),
         follows=fresh)
    order = same([read(1, path="README.md"), clock(1)], [clock(2), read(2, path="README.md")])
    c.ok(order is True, _t("ex03.progress.signature.order_does_not_count"),
         _t("ex03.progress.signature.sort_the_calls"), follows=fresh)
    keys = same([read(1, path="README.md", limit=5, options={"a": 1, "b": 2})],
                [read(2, options={"b": 2, "a": 1}, limit=5, path="README.md")])
    c.ok(keys is True, _t("ex03.progress.signature.key_order_does_not_count"),
         _t("ex03.progress.signature.json_with_sorted_keys"), follows=fresh)
    args = same([read(1, path="README.md")], [read(2, path="notes/meeting.md")])
    c.ok(args is False, _t("ex03.progress.signature.different_argument_differs"),
         _t("ex03.progress.signature.include_the_input"))
    names = same([read(1, path="README.md")], [_block("tool_use", id="toolu_w", name="delete_file",
                                                      input={"path": "README.md"})])
    c.ok(names is False, _t("ex03.progress.signature.different_tool_differs"),
         _t("ex03.progress.signature.include_the_name"))
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
    c = Checks("check-cycle", _t("ex03.progress.cycle.title"))
    if raised_first(c, ns, "find_short_cycle"):
        return c.done()
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
    empty = _t("ex03.progress.cycle.empty_list")
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
    everything = (*found.values(), *loud.values(), revisit, left, three, six)
    cause = (_t("ex03.progress.cycle.return_the_period")
             if any(v is True for v in everything) else
             _t("ex03.progress.cycle.zero_is_no_period")
             if any(v == 0 and v is not False for v in everything) else
             _t("ex03.progress.cycle.a_block_twice_is_enough")
             if found["A A"] is None and found["A B A B"] is None and found["X A B A B"] == 2 else
             _t("ex03.progress.cycle.short_list_raised")
             if any(isinstance(v, str) for v in (*found.values(), *loud.values(), revisit, left, three, six)) else
             _t("ex03.progress.cycle.finds_repeats_anywhere")
             if revisit is not None or left is not None else
             _t("ex03.progress.cycle.empty_list_gave_a_period", p=loud[empty]) if empty in loud else
             _t("ex03.progress.cycle.tried_longest_period_first") if six in (2, 3) else
             _t("ex03.progress.cycle.tries_periods_beyond_max") if bound["A B C D A B C D (default 3)"] is not None
             or (bound["A B C A B C, max_period=2"] or 0) > 2 else
             _t("ex03.progress.cycle.use_max_period_argument")
             if three != 3 or over else None)
    known = cause is not None
    c.ok(not wrong, _t("ex03.progress.cycle.period_of_the_cycle_at_the_end")
         + (_t("ex03.progress.cycle.got_wrong", wrong=wrong) if wrong else ""),
         cause or _t("ex03.progress.cycle.compare_the_last_p"))
    c.ok(six == 1, _t("ex03.progress.cycle.shortest_period_wins")
         + ("" if six == 1 else _t("ex03.budget.tokens.got", got=six)),
         cause or _t("ex03.progress.cycle.try_short_periods_first"), follows=known)
    c.ok(not loud, _t("ex03.progress.cycle.no_cycle_no_answer")
         + (_t("ex03.progress.cycle.got_loud", loud=loud) if loud else ""),
         cause or _t("ex03.progress.cycle.needs_block_twice"),
         follows=known)
    c.ok(revisit is None and left is None, _t("ex03.progress.cycle.left_cycle_is_no_cycle")
         + ("" if revisit is None and left is None
            else _t("ex03.progress.cycle.got_revisit_left", revisit=revisit, left=left)),
         cause or _t("ex03.progress.cycle.look_only_at_the_end"),
         follows=known)
    c.ok(not over, _t("ex03.progress.cycle.bounded_look_back")
         + (_t("ex03.progress.cycle.got_over", over=over) if over else ""),
         cause or _t("ex03.progress.cycle.try_only_up_to_max_period"),
         follows=known)
    c.ok(three == 3, _t("ex03.progress.cycle.max_period_3_honoured")
         + ("" if three == 3 else _t("ex03.progress.cycle.got_three", three=three)),
         cause or _t("ex03.progress.cycle.use_max_period_not_fixed"), follows=known)
    pong = await walk(_walkable(fn), "ping-pong")
    c.ok((pong.stopped_by, pong.turns) == ("no_progress", 3),
         _t("ex03.progress.cycle.ping_pong_stopped_in_a_loop")
         + (f" — {pong.problem}" if pong.problem
            else _t("ex03.progress.cycle.got_turns", stopped_by=pong.stopped_by, turns=pong.turns)
            if (pong.stopped_by, pong.turns) != ("no_progress", 3) else ""),
         _t("ex03.budget.tokens.raised_problem", problem=pong.problem) if pong.problem
         else _t("ex03.progress.cycle.abab_is_period_2"),
         follows=known)
    back = await walk(_walkable(fn), "demo", REVISIT_TASK)
    c.ok((back.stopped_by, back.turns) == ("end_turn", 3),
         _t("ex03.progress.cycle.aba_task_gets_its_answer")
         + (_t("ex03.progress.cycle.got_turns", stopped_by=back.stopped_by, turns=back.turns)
            if (back.stopped_by, back.turns) != ("end_turn", 3)
            else ""),
         _t("ex03.budget.tokens.raised_problem", problem=back.problem) if back.problem else
         _t("ex03.progress.cycle.aba_is_no_cycle_yet"), follows=known)
    loop = ns.get("run_guarded")
    mine = await guarded(loop, "ping-pong", find_loop=fn)
    if _got(mine) != ("no_progress", 3, 4) and not c.failed and _got(mine) is not None:
        await run_causes(c, loop, ns, progress=True)
    c.ok(_got(mine) == ("no_progress", 3, 4), _t("ex03.progress.cycle.ping_pong_stopped_in_run_guarded")
         + (_t("ex02.turn_cap.got", got=_got(mine)) if _got(mine) and _got(mine) != ("no_progress", 3, 4)
                                     else ""),
         _loop_hint(mine) if _got(mine) is None else
         _t("ex03.progress.cycle.run_guarded_must_use_find_loop"),
         follows=known and _got(mine) is not None and _got(mine)[0] == "no_progress")  # it stopped, but early
    c.done()
