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
                          reference_run, resend_3)
from .kit import Cause, Checks, _t, counting_impls, offline, one_line, unfinished

REVISIT_TASK = "Read the first line of README.md, then tell me the time, then read the first line of README.md again"


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
