"""Every lesson's final loop, lifted out of its notebook's cells, runs the tests of the valves it claims.

    02 run_bare     the bare loop: answers the lesson task, all of a turn's results in one message, a failing
                    tool as an is_error result, a history valid to resend; nothing bounds it
    03 run_capped   + the turn cap (exact counts) and every stop reason, named as AgentResult names them
    04 run_guarded  + the token budget, no progress (repeat and short cycle)
    05 run_agent    + the approval gate: asked before any tool of the turn runs, only True approves, fails closed

Each lesson carries forward what the earlier ones taught, so each loop also runs the earlier lessons' tests.
Notebook 06's run_agent (and harness_lib's) is covered by tests/test_loop.py, whose test bodies are reused here.
"""

import asyncio
import json
from pathlib import Path

import pytest

import notebook_code
import test_loop
from harness_lib import REJECTED_MESSAGE, TOOLS, make_client, make_tool_impls, scripted_approver
from harness_lib.client import offline_api
from harness_lib.loop import STOPPED_BY
from test_loop import FIXED_TIME, LESSON_TASK, assert_valid_history, call, reply, root, scripted, text  # noqa: F401
from offline_support import offline_client

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = {  # lesson -> (notebook, name of its final loop)
    "02": ("02_the_core_loop.ipynb", "run_bare"),
    "03": ("03_stop_conditions.ipynb", "run_capped"),
    "04": ("04_runaway.ipynb", "run_guarded"),
    "05": ("05_human_in_the_loop.ipynb", "run_agent"),
}
ALL = list(LESSONS)
CAPPED = ["03", "04", "05"]  # the turn cap and every stop reason (notebook 03 on)
GUARDED = ["04", "05"]  # the token budget and no progress (notebook 04 on)
GATED = ["05"]  # the approval gate (notebook 05)
READ_ONLY = [t for t in TOOLS if t["name"] in ("get_time", "read_file")]  # what lessons 02-04 offer the model

_loaded: dict = {}


def lesson_loop(lesson):
    """The lesson's final loop, from the definitions in its notebook's cells (loaded once per test run)."""
    if lesson not in _loaded:
        notebook, name = LESSONS[lesson]
        _loaded[lesson] = notebook_code.load(NOTEBOOKS / notebook)[name]
    return _loaded[lesson]


def runner(lesson):
    """Like tests/test_loop.py's `run` fixture: runs an offline scenario through the lesson's loop.
    Lessons 02 to 04 have no approval gate, so they are offered only the read-only tools, as in their notebooks."""
    loop = lesson_loop(lesson)

    def go(scenario, root, task=LESSON_TASK, **kw):
        client = offline_client(scenario=scenario, strict=True)
        impls = kw.pop("tool_impls", None) or make_tool_impls(root, clock=lambda: FIXED_TIME)
        tools = kw.pop("tools", None) or (TOOLS if lesson in GATED else READ_ONLY)
        if lesson not in GUARDED and kw.get("token_budget", 0) >= 10**9:
            del kw["token_budget"]  # a test switching the budget off; this lesson has none yet
        result = asyncio.run(loop(client, task, tools, impls, **kw))
        return result, client
    return go


def run_scripted(lesson, root, *replies, task=LESSON_TASK, **kw):
    client, log = scripted(*replies)
    tools = TOOLS if lesson in GATED else READ_ONLY
    return asyncio.run(lesson_loop(lesson)(client, task, tools, make_tool_impls(root), **kw)), log


# --- 02 on: the bare loop -----------------------------------------------------------------------

@pytest.mark.parametrize("lesson", ALL)
def test_answers_the_lesson_task_with_a_valid_history(lesson, root):
    test_loop.test_lesson_run_two_tool_turns_three_requests(runner(lesson), root)
    result, _ = runner(lesson)("demo", root)
    assert result.stopped_by in STOPPED_BY and result.tokens_used > 0
    assert [m["role"] for m in result.messages] == ["user", "assistant", "user", "assistant", "user"]
    assert_valid_history(result.messages)


@pytest.mark.parametrize("lesson", ALL)
def test_answer_quotes_what_the_tool_really_returned(lesson, root):
    test_loop.test_answer_quotes_what_the_tool_really_returned(runner(lesson), root)


@pytest.mark.parametrize("lesson", ALL)
def test_all_results_of_a_turn_come_back_in_one_message_in_order(lesson, root):
    test_loop.test_a_turns_tools_run_concurrently_and_results_come_back_in_order_in_one_message(runner(lesson), root)


@pytest.mark.parametrize("lesson", ALL)
def test_a_failing_tool_becomes_an_is_error_result(lesson, root):
    result, _ = runner(lesson)("demo", root, task="Read the first line of readme.md")
    first_results = result.messages[2]["content"]
    assert first_results == [{"type": "tool_result", "tool_use_id": first_results[0]["tool_use_id"],
                               "content": "file not found: readme.md", "is_error": True}]
    assert all("is_error" not in r for r in result.messages[4]["content"])  # only on failure
    assert (result.stopped_by, result.turns) == ("end_turn", 2)
    assert_valid_history(result.messages)


@pytest.mark.parametrize("lesson", ALL)
def test_api_errors_surface_as_the_sdks_exceptions(lesson, root):
    test_loop.test_api_errors_surface_as_the_sdks_exceptions(runner(lesson), root)


def test_the_bare_loop_never_stops_when_the_model_never_ends(root):
    """Nothing bounds notebook 02's loop: 40 requests in, it is still turning (we cancel it)."""
    client = make_client(scenario="never-ends")
    log = offline_api(client).log

    async def watch():
        task = asyncio.create_task(lesson_loop("02")(client, LESSON_TASK, READ_ONLY, make_tool_impls(root)))
        while len(log) < 40 and not task.done():
            await asyncio.sleep(0)
        still_running = not task.done()
        task.cancel()
        return still_running

    assert asyncio.run(watch()) is True


@pytest.mark.parametrize("stop_reason", ["max_tokens", "refusal", "pause_turn", "model_context_window_exceeded",
                                         None, "a_stop_reason_from_the_future"])
def test_the_bare_loop_never_passes_a_raw_stop_reason_on(root, stop_reason):
    """Notebook 02's loop knows one ending, end_turn; it calls every other one unknown_stop (03 names them)."""
    result, log = run_scripted("02", root, reply(stop_reason, text("Partial")))
    assert (result.stopped_by, result.text, result.turns, result.requests, len(log)) == (
        "unknown_stop", "Partial", 0, 1, 1)


# --- 03 on: the turn cap and every stop reason ----------------------------------------------------

@pytest.mark.parametrize("lesson", CAPPED)
@pytest.mark.parametrize("cap", [0, 1, 3, 8])
def test_turn_cap_allows_exactly_n_tool_rounds_and_n_plus_1_requests(lesson, root, cap):
    test_loop.test_turn_cap_allows_exactly_n_tool_rounds_and_n_plus_1_requests(runner(lesson), root, cap)


@pytest.mark.parametrize("lesson", CAPPED)
def test_a_model_that_pauses_forever_is_stopped_by_the_turn_cap(lesson, root):
    test_loop.test_a_model_that_pauses_forever_is_stopped_by_the_turn_cap(lesson_loop(lesson), root)


@pytest.mark.parametrize("lesson", CAPPED)
def test_pause_turn_is_continued_and_counts_as_a_turn(lesson, root):
    test_loop.test_pause_turn_is_continued_and_counts_as_a_turn(runner(lesson), root)


@pytest.mark.parametrize("lesson", CAPPED)
def test_refusal_and_context_window_are_named_and_flagged(lesson, root):
    test_loop.test_refusal(runner(lesson), root)
    test_loop.test_context_window(runner(lesson), root)
    test_loop.test_context_window_is_never_passed_on_raw(lesson_loop(lesson), root)


@pytest.mark.parametrize("lesson", CAPPED)
def test_a_truncated_tool_use_is_never_run(lesson, root):
    calls = []
    impls = make_tool_impls(root)
    impls["write_file"] = lambda tool_input: calls.append(tool_input) or "written"
    approve = {"approve": scripted_approver([True] * 5)} if lesson in GATED else {}
    result, _ = runner(lesson)("max-tokens", root, task="Write a long report to scratch/report.md",
                               tools=TOOLS, tool_impls=impls, **approve)
    assert result.stopped_by == "max_tokens" and calls == []
    assert "max_tokens" in result.text
    assert_valid_history(result.messages)


@pytest.mark.parametrize("lesson", CAPPED)
def test_tool_use_with_no_tool_call_ends_the_run_without_an_empty_message(lesson, root):
    test_loop.test_tool_use_with_no_tool_call_ends_the_run_without_an_empty_message(lesson_loop(lesson), root)


@pytest.mark.parametrize("lesson", CAPPED)
@pytest.mark.parametrize("stop_reason", [None, "a_stop_reason_from_the_future"])
def test_a_null_or_unknown_stop_reason_is_named_unknown_stop(lesson, root, stop_reason):
    test_loop.test_a_null_or_unknown_stop_reason_is_named_unknown_stop(lesson_loop(lesson), root, stop_reason)


@pytest.mark.parametrize("lesson", CAPPED)
@pytest.mark.parametrize("scenario", ["demo", "never-ends", "pause-turn", "max-tokens", "refusal", "context-window"])
def test_every_ending_is_one_of_STOPPED_BY_and_requests_are_turns_plus_one(lesson, root, scenario):
    events = []
    result, client = runner(lesson)(scenario, root, tools=TOOLS if scenario == "max-tokens" else None,
                                    on_event=events.append)
    assert result.stopped_by in STOPPED_BY
    assert result.requests == result.turns + 1 == len(offline_api(client).log)
    assert [e["event"] for e in events].count("end") == 1 and events[-1]["stopped_by"] == result.stopped_by


# --- 04 on: the token budget and no progress ---------------------------------------------------------

@pytest.mark.parametrize("lesson", GUARDED)
def test_token_hog_is_stopped_by_the_budget_before_the_turn_cap(lesson, root):
    test_loop.test_token_hog_is_stopped_by_the_budget_before_the_turn_cap(runner(lesson), root)


@pytest.mark.parametrize("lesson", GUARDED)
@pytest.mark.parametrize("budget", [1, 3_000, 12_000])
def test_budget_stops_at_the_first_check_over_budget(lesson, root, budget):
    test_loop.test_budget_stops_at_the_first_check_over_budget(runner(lesson), root, budget)


@pytest.mark.parametrize("lesson", GUARDED)
def test_the_budget_counts_all_four_usage_counters(lesson, root):
    cached = {"input_tokens": 10, "output_tokens": 10, "cache_creation_input_tokens": 300,
              "cache_read_input_tokens": 700}
    result, log = run_scripted(lesson, root, reply("tool_use", call("get_time", {}, "toolu_a"), usage=cached),
                               reply("tool_use", call("read_file", {"path": "README.md"}, "toolu_b"), usage=cached),
                               token_budget=2_000)
    assert (result.stopped_by, result.tokens_used, result.requests, len(log)) == ("token_budget", 2_040, 2, 2)


@pytest.mark.parametrize("lesson", GUARDED)
def test_stuck_model_is_stopped_on_the_second_identical_turn(lesson, root):
    test_loop.test_stuck_model_is_stopped_on_the_second_identical_turn(runner(lesson), root)


@pytest.mark.parametrize("lesson", GUARDED)
def test_ping_pong_is_caught_by_the_cycle_check(lesson, root):
    test_loop.test_ping_pong_is_caught_by_the_cycle_check(runner(lesson), root)


@pytest.mark.parametrize("lesson", GUARDED)
def test_a_new_argument_every_turn_is_not_a_cycle(lesson, root):
    test_loop.test_a_new_argument_every_turn_is_not_a_cycle(runner(lesson), root)


def test_notebook_04_shows_ping_pong_slipping_past_the_one_turn_rule(root):
    same_as_last = notebook_code.load(NOTEBOOKS / LESSONS["04"][0])["same_as_last"]
    result, _ = runner("04")("ping-pong", root, find_loop=same_as_last)
    assert (result.stopped_by, result.turns, result.requests) == ("max_turns", 8, 9)


# --- 05: the approval gate ---------------------------------------------------------------------------

@pytest.mark.parametrize("lesson", GATED)
def test_rejected_write_leaves_no_file_and_the_model_changes_route(lesson, root):
    test_loop.test_rejected_write_leaves_no_file_and_the_model_changes_route(runner(lesson), root)


@pytest.mark.parametrize("lesson", GATED)
def test_approved_write_runs(lesson, root):
    test_loop.test_approved_write_runs(runner(lesson), root)


@pytest.mark.parametrize("lesson", GATED)
def test_no_approver_means_no_high_impact_action(lesson, root):
    test_loop.test_no_approver_means_no_high_impact_action(runner(lesson), root)


@pytest.mark.parametrize("lesson", GATED)
def test_injected_instruction_is_stopped_at_the_gate(lesson, root):
    test_loop.test_injected_instruction_is_stopped_at_the_gate(runner(lesson), root)


@pytest.mark.parametrize("lesson", GATED)
def test_every_approval_is_asked_before_any_tool_of_the_turn_runs(lesson, root):
    test_loop.test_every_approval_is_asked_before_any_tool_of_the_turn_runs(runner(lesson), root)


@pytest.mark.parametrize("lesson", GATED)
@pytest.mark.parametrize("answer", ["yes", "no", "n", 1, None, [True]])
def test_only_an_answer_that_is_true_approves(lesson, root, answer):
    test_loop.test_only_an_answer_that_is_true_approves(lesson_loop(lesson), root, answer, recwarn=None)


@pytest.mark.parametrize("lesson", GATED)
def test_an_approver_that_raises_is_a_no(lesson, root):
    async def approve(name, tool_input):
        raise ValueError("the approval service is down")

    result, log = run_scripted(lesson, root, reply("tool_use", text("Saving."), test_loop.WRITE),
                               reply("end_turn", text("Not saved.")), task="Write hi", approve=approve)
    [sent] = log[1]["messages"][-1]["content"]
    assert sent["is_error"] is True and sent["content"] == REJECTED_MESSAGE
    assert not (root / "scratch" / "a.txt").exists()
    assert (result.stopped_by, result.turns) == ("end_turn", 1)
    assert_valid_history(result.messages)


@pytest.mark.parametrize("lesson", GATED)
@pytest.mark.parametrize("interrupt", [asyncio.CancelledError, KeyboardInterrupt])
def test_an_interrupt_at_the_gate_ends_the_run_before_any_tool_runs(lesson, root, interrupt):
    ran = []
    impls = make_tool_impls(root)
    impls["read_file"] = lambda tool_input: ran.append(tool_input) or "text"

    async def approve(name, tool_input):
        raise interrupt()

    client, log = scripted(reply("tool_use", call("read_file", {"path": "README.md"}, "toolu_r"), test_loop.WRITE))
    with pytest.raises(interrupt):
        asyncio.run(lesson_loop(lesson)(client, "Read and write", TOOLS, impls, approve=approve))
    assert ran == [] and not (root / "scratch" / "a.txt").exists() and len(log) == 1


def test_notebook_05s_ask_after_wiring_is_shown_to_write_despite_a_no(root):
    """The colleague's wiring (run, then ask) is the notebook's counter-example: the file is written anyway."""
    cells = notebook_code.load(NOTEBOOKS / LESSONS["05"][0])
    result, _ = runner("05")("high-impact", root, approve=scripted_approver([False]),
                             tool_step=cells["run_tools_then_ask"])
    assert (root / "scratch" / "answer.txt").exists()
    rejected = [b for m in result.messages if m["role"] == "user" and isinstance(m["content"], list)
                for b in m["content"] if b.get("is_error")]
    assert [b["content"] for b in rejected] == [REJECTED_MESSAGE]


def test_each_lesson_defines_its_loop_once_and_no_name_twice():
    """No two definitions share a name in one lesson notebook (a re-run cell must not swap what a name means)."""
    import ast
    for notebook, final in LESSONS.values():
        nb = json.loads((NOTEBOOKS / notebook).read_text(encoding="utf-8"))
        defined = []
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                defined += [node.name for node in ast.parse("".join(cell["source"])).body
                            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
        twice = {name for name in defined if defined.count(name) > 1}
        assert not twice, f"{notebook} defines {sorted(twice)} more than once"
        assert final in defined, f"{notebook} does not define {final}"
