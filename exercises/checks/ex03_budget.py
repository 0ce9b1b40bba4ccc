"""Exercise 3, part 1 — the token budget: the checks of exercises/03_budget_and_progress.ipynb for tokens_of and
run_guarded's budget, and the helpers its no-progress checks (ex03_progress.py) share.

`guarded` runs the learner's run_guarded on the offline model, bounded by a request count; `reference_run` runs
the kit's own run_agent on the same scenario: what a right loop does, and the running token total per request, so
no number in a criterion is written by hand.
"""

from __future__ import annotations

from types import SimpleNamespace

from anthropic.types import Usage

from harness_lib.client import MODEL, offline_api
from harness_lib.loop import AgentResult, final_text, run_agent
from harness_lib.tools import TOOLS

from .kit import (Checks, _t, bounded, counting_impls, model_texts, offline, one_line, raised_first, raised_name_hint,
                  runaway_hint, says_stop, unfinished)

TOOLS_3 = [dict(t, description=t["description"] + " (grader's copy)") for t in TOOLS
           if t["name"] in ("read_file", "get_time")]  # the checks' own tools: the loop must offer exactly them
TASK_3 = "Read the first line of README.md, then tell me what time it is"
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


class _Totals(list):
    """The running token total per request; .output and .io: the same counting only output_tokens, or input and
    output (what a loop that does not use tokens_of counts)."""

    def __init__(self):
        super().__init__()
        self.output, self.io = [], []


async def reference_run(scenario: str, task: str = TASK_3, tools: list | None = None, **limits):
    """The kit's own run_agent on the same scenario: what a right loop does -> (result, running token totals)."""
    totals = _Totals()

    def on_event(event):
        if event["event"] == "request":
            usage = SimpleNamespace(**event["usage"])
            totals.append((totals[-1] if totals else 0) + _all_four(usage))
            totals.output.append((totals.output[-1] if totals.output else 0) + (usage.output_tokens or 0))
            totals.io.append((totals.io[-1] if totals.io else 0) + (usage.input_tokens or 0)
                             + (usage.output_tokens or 0))
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
    c = Checks("check-tokens", _t("ex03.budget.tokens.title"))
    if raised_first(c, ns, "tokens_of"):
        return c.done()
    fn = ns.get("tokens_of")
    if not callable(fn):
        unfinished(c, "not defined yet", "tokens_of")
        return c.done()
    plain = Usage(input_tokens=1200, output_tokens=80, cache_creation_input_tokens=0, cache_read_input_tokens=0)
    got, problem = _call(fn, plain)
    if unfinished(c, problem, "tokens_of"):
        return c.done()
    again, _ = _call(fn, plain)
    if problem is None and again != got:
        c.cause(_t("kit.state.each_run_afresh"), _t("ex03.budget.state.tokens_of_keeps_a_total", first=got,
                                                    second=again))
    c.ok(got == 1280 and type(got) is int, _t("ex03.budget.tokens.no_caching")
         + (f" — {problem}" if problem else "" if got == 1280 else _t("ex03.budget.tokens.got", got=got)),
         _t("ex03.budget.tokens.raised_problem", problem=problem) if problem
         else _t("ex03.budget.tokens.return_a_whole_number"))
    write, read = (await usages_of("never-ends", cached_tools(), requests=2))[:2]
    got_w, problem_w = _call(fn, write)
    got_r, problem_r = _call(fn, read)
    short = write.input_tokens + write.output_tokens
    c.note(_t("ex03.budget.tokens.cached_run_numbers", cache_creation_input_tokens=write.cache_creation_input_tokens,
              cache_read_input_tokens=read.cache_read_input_tokens, input_tokens=write.input_tokens,
              input_tokens2=read.input_tokens))
    c.ok(got_w == _all_four(write),
         _t("ex03.budget.tokens.counts_cache_writes", all_four=_all_four(write))
         + (f" — {problem_w}" if problem_w else "" if got_w == _all_four(write)
            else _t("ex03.budget.tokens.got", got=got_w)),
         _t("ex03.budget.tokens.raised_problem", problem=problem_w) if problem_w else
         _t("ex03.budget.tokens.cache_writes_missing", short=short)
         if got_w == short else _t("ex03.budget.tokens.add_every_billed_counter"))
    short_only = got_w == short  # input + output only, named in the ✗ above
    c.ok(got_r == _all_four(read),
         _t("ex03.budget.tokens.counts_cache_reads", all_four=_all_four(read))
         + (f" — {problem_r}" if problem_r else "" if got_r == _all_four(read)
            else _t("ex03.budget.tokens.got", got=got_r)),
         _t("ex03.budget.tokens.raised_problem", problem=problem_r) if problem_r else
         _t("ex03.budget.tokens.cache_reads_billed_too"),
         follows=short_only and got_r == read.input_tokens + read.output_tokens)
    bare = Usage(input_tokens=30, output_tokens=12)  # the cache fields are None, as on a response without them
    got_b, problem_b = _call(fn, bare)
    c.ok(got_b == 42, _t("ex03.budget.tokens.missing_counters_are_0")
         + (f" — {problem_b}" if problem_b else "" if got_b == 42 else _t("ex03.budget.tokens.got", got=got_b)),
         _t("ex03.budget.tokens.counter_can_be_none")
         if problem_b and "TypeError" in problem_b else _t("ex03.budget.tokens.raised_problem", problem=problem_b)
         if problem_b else
         _t("ex03.budget.tokens.a_missing_counter_is_0"))
    live = Usage(input_tokens=50, output_tokens=20, cache_creation_input_tokens=3000, cache_read_input_tokens=0,
                 cache_creation={"ephemeral_5m_input_tokens": 3000, "ephemeral_1h_input_tokens": 0})
    got_l, problem_l = _call(fn, live)
    c.ok(got_l == 3070, _t("ex03.budget.tokens.live_usage_counts_writes_once")
         + ("" if got_l == 3070 or problem_l else _t("ex03.budget.tokens.got", got=got_l)),
         _t("ex03.budget.tokens.raised_problem", problem=problem_l) if problem_l else
         _t("ex03.budget.tokens.breakdown_is_not_more_tokens"), follows=short_only and got_l == 70)
    c.done()


async def guarded(fn, scenario, *, task=TASK_3, tools=None, limit=40, **kwargs):
    """YOUR run_guarded on the offline model, bounded by request count: what ran, how often, what came back."""
    run = SimpleNamespace(calls=[], result=None, problem=None, requests=0, offered=[], runaway=False, bound=None)
    if not callable(fn):
        run.problem = "run_guarded is not defined yet: run its cell"
        return run
    tools = tools or TOOLS_3
    bound = await bounded(scenario, lambda client: fn(client, task, tools, counting_impls(run.calls), **kwargs),
                          limit=limit)
    run.result, run.problem, run.requests, run.runaway = bound.result, bound.problem, bound.requests, bound.runaway
    run.bound = bound.bound
    run.offered = [body.get("tools") for body in offline_api(bound.client).log]
    if run.problem is None and not isinstance(run.result, AgentResult):
        run.problem = _t("ex02.capped.not_an_agent_result", kind=type(run.result).__name__)
    return run


def _recording(seen: list):
    """A find_loop the checks pass in: records the list it is given, and never finds a loop."""
    def detector(signatures):
        seen.append(list(signatures))
    return detector


async def run_causes(c, fn, ns, progress: bool = False) -> bool:
    """The first ✗ when run_guarded's runs depend on more than their arguments: tokens_of keeps a total between
    calls; the same run twice differs, or find_loop's first question of a run gets signatures of earlier runs (a
    list made once: a default like signatures=[], a list at module level); a fixed cap or budget instead of the
    max_turns / token_budget arguments; with `progress`, find_loop asked before the turn's signature is appended.
    -> True when it named one (every later ✗ then follows from it)."""
    tokens_of = ns.get("tokens_of")
    if callable(tokens_of):
        usage = Usage(input_tokens=100, output_tokens=10, cache_creation_input_tokens=0, cache_read_input_tokens=0)
        (a, _), (b, _) = _call(tokens_of, usage), _call(tokens_of, usage)
        if a is not None and b is not None and a != b:
            c.cause(_t("kit.state.each_run_afresh"), _t("ex03.budget.state.tokens_of_keeps_a_total", first=a, second=b))
            return True
    seen, again = [], []
    one = await guarded(fn, "never-ends", max_turns=2, token_budget=10 ** 9, find_loop=_recording(seen))
    two = await guarded(fn, "never-ends", max_turns=2, token_budget=10 ** 9, find_loop=_recording(again))
    if one.problem or two.problem:
        return False  # the criteria say what broke
    firsts = [len(s[0]) for s in (seen, again) if s]
    spent = [run.result.tokens_used if isinstance(run.result, AgentResult) else None for run in (one, two)]
    if _got(one) != _got(two) or any(n > 1 for n in firsts) or spent[0] != spent[1]:
        c.cause(_t("kit.state.each_run_afresh"),
                _t("ex03.budget.state.list_survives", n=max(firsts)) if any(n > 1 for n in firsts) else
                _t("ex02.state.same_run_twice", run="never-ends, max_turns=2", first=(*_got(one), spent[0]),
                   second=(*_got(two), spent[1])))
        return True
    if _got(one)[0] == "max_turns" and _got(one)[1] != 2:
        c.cause(_t("ex03.budget.state.uses_its_limits"), _t("ex03.budget.state.fixed_cap", n=_got(one)[1]))
        return True
    if progress and firsts and firsts[0] == 0:
        c.cause(_t("ex03.progress.find_loop_asked_each_turn"), _t("ex03.budget.append_then_ask"))
        return True
    hog = await guarded(fn, "token-hog", max_turns=12, token_budget=10 ** 9)
    res = hog.result if isinstance(hog.result, AgentResult) else None
    if res is not None and res.stopped_by == "token_budget":
        c.cause(_t("ex03.budget.state.uses_its_limits"), _t("ex03.budget.state.fixed_budget", n=res.tokens_used))
        return True
    return False


def _got(run) -> tuple | None:
    res = run.result if isinstance(run.result, AgentResult) else None
    return (res.stopped_by, res.turns, res.requests) if res else None


def _loop_hint(run) -> str:
    problem = run.problem or ""
    if raised_name_hint(problem, "run_guarded"):
        return raised_name_hint(problem, "run_guarded")
    if "NotImplementedError" in problem:
        return _t("ex03.budget.loop.something_calls_not_written", problem=problem)
    if getattr(run, "runaway", False):  # bounded() cut it off (its line is in the notebook's language)
        return runaway_hint(run, _t("ex03.budget.loop.does_not_stop"))
    return _t("ex02.problem.ended_with_error", problem=problem) if problem else \
        _t("ex02.problem.must_return_agent_result")


async def resend_3(messages) -> str | None:
    """Continue a returned history as a caller would (one more user message): None if the API takes it."""
    try:
        await offline("demo").messages.create(model=MODEL, max_tokens=1024, tools=TOOLS_3, messages=[
            *messages, {"role": "user", "content": "Thanks. One more thing: what time is it?"}])
        return None
    except Exception as err:
        return one_line(err)


async def harness_said(res, scenario: str, tools: list | None = None, valve: str | None = None, limits=()) -> bool:
    """True when a stop's text is the harness's own sentence: none of the texts the model wrote in that run, and
    (given `valve`) one a person reads as "the harness stopped the run": it names the valve and, for the budget,
    a number it stopped at (`limits`) — kit.says_stop."""
    text = res.text.strip() if isinstance(res.text, str) else ""
    if not text or text in await model_texts(res, scenario, tools or TOOLS_3):
        return False
    return valve is None or says_stop(text, valve, limits)


def _count_hint(run, totals: list) -> str | None:
    """What is wrong with the tokens_used `run` returned, given the right running total per request (`totals`),
    or None when it is right. The run's requests are the ones the offline API received."""
    res = run.result if isinstance(run.result, AgentResult) else None
    n = run.requests
    if res is None or not 1 <= n <= len(totals) or res.tokens_used == totals[n - 1]:
        return None
    if res.tokens_used == totals[n - 1] - totals[0]:
        return _t("ex03.budget.count.first_response_left_out")
    if n >= 2 and res.tokens_used == totals[n - 1] - totals[n - 2]:
        return _t("ex03.budget.count.only_last_response")
    if res.tokens_used == 0:
        return _t("ex03.budget.count.tokens_used_stays_0")
    for kind in ("output", "io"):
        if len(getattr(totals, kind, [])) >= n and res.tokens_used == getattr(totals, kind)[n - 1]:
            return _t("ex03.budget.count.not_tokens_of", counted=_t("ex03.budget.count.counted_output")
                      if kind == "output" else _t("ex03.budget.count.counted_io"))
    return _t("ex03.budget.count.add_after_every_request")


async def check_budget(ns: dict) -> None:
    c = Checks("check-budget", _t("ex03.budget.title"))
    if raised_first(c, ns, "run_guarded"):
        return c.done()
    fn = ns.get("run_guarded")
    ref, _ = await reference_run("token-hog", max_turns=8, token_budget=40_000)
    r = await guarded(fn, "token-hog", max_turns=8, token_budget=40_000)
    if unfinished(c, r.problem, "run_guarded"):
        return c.done()
    await run_causes(c, fn, ns)
    _, hog = await reference_run("token-hog", max_turns=8, token_budget=10 ** 9)  # the running total per request
    count_hint = _count_hint(r, hog)  # the count is the first thing the budget depends on
    miscounted = count_hint is not None
    want = ("token_budget", ref.turns, ref.requests)
    got = _got(r)
    counted_first = (got is not None and got[0] == "token_budget" and got[2] == want[2] and got[1] == want[1] + 1
                     and len(r.calls) == ref.turns)  # the stop came after `turns += 1`, the turn never ran
    c.ok(got == want, _t("ex03.budget.token_hog_stopped_by_budget", turns=ref.turns, requests=ref.requests)
         + (_t("ex02.turn_cap.got", got=got) if got and got != want else "")
         + (f" — {r.problem}" if r.problem else ""),
         _loop_hint(r) if got is None else count_hint if miscounted else
         _t("ex03.budget.cap_stopped_not_budget")
         if got[0] == "max_turns" else
         _t("ex03.budget.stopped_after_counting_the_turn",
            got_1=got[1], n=len(r.calls)) if counted_first else
         _t("ex03.budget.stopped_at_wrong_moment", got_1=got[1], got_2=got[2]))
    res = r.result if isinstance(r.result, AgentResult) else None
    c.ok(res is not None and res.tokens_used == ref.tokens_used,
         _t("ex03.budget.tokens_used_is_the_sum", tokens_used=ref.tokens_used)
         + (_t("ex03.budget.got_tokens_used", tokens_used=res.tokens_used)
            if res is not None and res.tokens_used != ref.tokens_used else ""),
         _loop_hint(r) if res is None else count_hint or
         _t("ex03.budget.count.add_after_every_request"),
         follows=r.problem is not None or (not miscounted and got != want))  # the right count, a wrong stop
    no_budget = got is not None and got[0] == "max_turns" and got[1] == 8  # nothing but the cap ever stops it
    # what the budget decides follows from the ✗ above: a wrong count, no budget check, or a stop counted as a turn
    after = miscounted or no_budget or r.problem is not None or counted_first
    c.ok(len(r.calls) == ref.turns, _t("ex03.budget.tools_ran_in_allowed_turns", turns=ref.turns, n=len(r.calls)),
         _loop_hint(r) if r.problem else
         _t("ex03.budget.stop_before_running_turn"), follows=after)
    said = res is not None and await harness_said(res, "token-hog")
    c.ok(said and res.stopped_by == "token_budget" and says_stop(res.text, "token_budget", (40_000, res.tokens_used)),
         _t("ex03.budget.stop_text_is_the_harnesss")
         + (_t("ex02.turn_cap.it_says", text=str(res.text)[:80]) if res is not None else ""),
         _loop_hint(r) if res is None else
         _t("ex03.budget.say_the_budget_stopped_it") if not said else _t("ex03.budget.name_the_budget"),
         follows=after or (res is not None and res.stopped_by != "token_budget"))
    problem = await resend_3(res.messages) if res is not None else "no result"
    c.ok(problem is None, _t("ex02.turn_cap.history_can_be_continued"),
         _loop_hint(r) if res is None else
         _t("ex03.budget.return_before_appending"), follows=counted_first)
    c.ok(bool(r.offered) and all(t == TOOLS_3 for t in r.offered), _t("ex02.turn_cap.offered_the_callers_tools"),
         _loop_hint(r) if not r.offered else _t("ex03.budget.pass_tools_to_create"))
    first = await guarded(fn, "never-ends", max_turns=8, token_budget=1)
    bottom = _got(first) == ("token_budget", 1, 2) and not after  # the budget is asked after the next request
    c.ok(_got(first) == ("token_budget", 0, 1) and not first.calls,
         _t("ex03.budget.budget_of_1_runs_no_turn")
         + (_t("ex02.turn_cap.got", got=_got(first)) if _got(first) and _got(first) != ("token_budget", 0, 1) else ""),
         _loop_hint(first) if _got(first) is None else
         _t("ex03.budget.check_at_the_top"), follows=after)
    both = await guarded(fn, "never-ends", max_turns=0, token_budget=1)
    c.ok(_got(both) == ("max_turns", 0, 1), _t("ex03.budget.cap_named_before_budget")
         + (_t("ex02.turn_cap.got", got=_got(both)) if _got(both) and _got(both) != ("max_turns", 0, 1)
                                      else ""),
         _loop_hint(both) if _got(both) is None else
         _t("ex03.budget.cap_then_budget"))
    _, totals = await reference_run("never-ends", max_turns=8)
    exact = await guarded(fn, "never-ends", max_turns=8, token_budget=totals[3])
    late_by_one = _got(exact) == ("token_budget", 4, 5)
    c.ok(_got(exact) == ("token_budget", 3, 4), _t("ex03.budget.reached_exactly_stops", totals_3=totals[3])
         + (_t("ex02.turn_cap.got", got=_got(exact)) if _got(exact) and _got(exact) != ("token_budget", 3, 4) else ""),
         _loop_hint(exact) if _got(exact) is None else
         _t("ex03.budget.use_greater_or_equal")
         if late_by_one else
         _t("ex03.budget.count_every_response"), follows=after)
    _, demo = await reference_run("demo", max_turns=8)  # 2 tool turns, then the model's answer
    late = await guarded(fn, "demo", max_turns=8, token_budget=demo[1] + 1)
    lres = late.result if isinstance(late.result, AgentResult) else None
    c.ok(lres is not None and (lres.stopped_by, lres.turns) == ("end_turn", 2),
         _t("ex03.budget.answer_kept_past_budget")
         + (_t("ex03.budget.got_stopped", stopped_by=lres.stopped_by)
            if lres is not None and lres.stopped_by != "end_turn" else ""),
         _loop_hint(late) if lres is None else
         _t("ex03.budget.check_before_spending_more"),
         follows=bottom and lres is not None and lres.stopped_by == "token_budget")  # the same check at the bottom
    tools = cached_tools()
    _, true_totals = await reference_run("never-ends", tools=tools, max_turns=8)
    cached = await guarded(fn, "never-ends", tools=tools, max_turns=8, token_budget=true_totals[2])
    c.ok(_got(cached) == ("token_budget", 2, 3), _t("ex03.budget.counts_cached_tokens", true_totals_2=true_totals[2])
         + (_t("ex02.turn_cap.got", got=_got(cached)) if _got(cached) and _got(cached) != ("token_budget", 2, 3)
            else ""),
         _loop_hint(cached) if _got(cached) is None else
         _t("ex03.budget.add_all_four_counters"),
         follows=after or (late_by_one and _got(cached) == ("token_budget", 3, 4)))  # the same `>` as above
    c.done()
