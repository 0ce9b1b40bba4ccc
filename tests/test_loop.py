"""The reference loop: every valve's exact counts, approval before execution, concurrency, every stop
reason, and the valid-history guarantee -- all through the real SDK and the offline model."""

import asyncio
import functools
import gc
import json
import shutil
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import anthropic
import httpx2
import pytest

from harness_lib import (REJECTED_MESSAGE, TOOLS, make_client, make_tool_impls, run_agent, run_bare,
                         scripted_approver)
from harness_lib.client import MODEL, offline_api
from harness_lib.loop import STOPPED_BY
from harness_lib.offline.validation import APIError, validate_request
from harness_lib.tools import DEFAULT_ROOT

import notebook_code

LESSON_TASK = "Read the first line of README.md, then tell me what time it is"
FIXED_TIME = datetime(2026, 8, 26, 10, 42, 7, tzinfo=timezone(timedelta(hours=8)))


@pytest.fixture
def root(tmp_path):
    shutil.copytree(DEFAULT_ROOT, tmp_path / "ws", ignore=shutil.ignore_patterns("*.txt"))
    return tmp_path / "ws"


NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "06_the_full_harness.ipynb"


@functools.cache
def notebook_run_agent():
    """Notebook 06's run_agent, lifted from its cells once per test run (no test changes its namespace)."""
    return notebook_code.load(NOTEBOOK)["run_agent"]


@pytest.fixture(params=["harness_lib", "notebook"])
def loop(request):
    """run_agent: harness_lib's reference copy, and the one the learner reads and runs in notebooks/06
    (lifted from its cells). Every test below holds for both."""
    if request.param == "harness_lib":
        return run_agent
    if not NOTEBOOK.exists():
        pytest.skip("notebooks/06_the_full_harness.ipynb not written yet")
    return notebook_run_agent()


@pytest.fixture
def run(loop):
    """Runs an offline scenario through `loop`."""
    def go(scenario, root, task=LESSON_TASK, **kw):
        client = make_client(scenario=scenario, strict=True)
        impls = kw.pop("tool_impls", None) or make_tool_impls(root, clock=lambda: FIXED_TIME)
        result = asyncio.run(loop(client, task, kw.pop("tools", TOOLS), impls, **kw))
        return result, client
    return go


class ScriptedAPI(httpx2.AsyncBaseTransport):
    """A stand-in Messages API behind the real SDK, for responses no offline scenario gives: it answers
    request n with replies[n] (the last one repeats) and refuses, like the live API, any invalid request."""

    def __init__(self, replies):
        self.replies, self.log = replies, []

    async def handle_async_request(self, request):
        body = json.loads(await request.aread())
        self.log.append(body)
        try:
            validate_request(body)
        except APIError as err:
            error = {"type": "error", "error": {"type": err.error_type, "message": err.message}}
            return httpx2.Response(err.status, json=error)
        reply = self.replies[min(len(self.log), len(self.replies)) - 1]
        return httpx2.Response(200, json={"id": f"msg_{len(self.log)}", "type": "message", "role": "assistant",
                                          "model": body["model"], "stop_sequence": None, **reply})


def reply(stop_reason, *content, usage=None):
    """One response body's varying part: its stop_reason, its content blocks, its usage."""
    return {"stop_reason": stop_reason, "content": list(content),
            "usage": usage or {"input_tokens": 10, "output_tokens": 10}}


def scripted(*replies):
    """A real AsyncAnthropic whose HTTP transport is a ScriptedAPI; `.log` holds the request bodies."""
    api = ScriptedAPI(list(replies))
    client = anthropic.AsyncAnthropic(api_key="test", base_url="https://scripted.invalid", max_retries=0,
                                      http_client=httpx2.AsyncClient(transport=api))
    return client, api.log


def text(t):
    return {"type": "text", "text": t}


def call(name, tool_input, id="toolu_1"):
    return {"type": "tool_use", "id": id, "name": name, "input": tool_input}


def tool_rounds(messages):
    return sum(1 for m in messages if m["role"] == "user" and isinstance(m["content"], list))


def assert_valid_history(messages):
    """The offline API enforces the live API's tool_use/tool_result rules: resending must not raise."""
    client = make_client(strict=True)
    asyncio.run(client.messages.create(model=MODEL, max_tokens=64, tools=TOOLS, messages=messages))


# --- the lesson's run --------------------------------------------------------------------------

def test_lesson_run_two_tool_turns_three_requests(run, root):
    result, _ = run("demo", root)
    assert (result.stopped_by, result.turns, result.requests) == ("end_turn", 2, 3)
    assert '"# Agent harness fundamentals"' in result.text
    assert "10:42" in result.text and "2026-08-26" in result.text
    calls = [b.name for m in result.messages if m["role"] == "assistant" for b in m["content"] if b.type == "tool_use"]
    assert calls == ["read_file", "get_time"]


def test_answer_quotes_what_the_tool_really_returned(run, root):
    (root / "README.md").write_text("# A different first line\nmore\n")
    result, _ = run("demo", root)
    assert '"# A different first line"' in result.text
    assert "Agent harness fundamentals" not in result.text


def test_bare_loop_answers_the_lesson_task(root):
    client = make_client()
    result = asyncio.run(run_bare(client, LESSON_TASK, TOOLS, make_tool_impls(root, clock=lambda: FIXED_TIME)))
    assert (result.stopped_by, result.turns, result.requests) == ("end_turn", 2, 3)
    assert '"# Agent harness fundamentals"' in result.text and "10:42" in result.text
    assert result.tokens_used > 0
    assert_valid_history(result.messages)


def test_bare_loop_names_the_models_stop_like_run_agent(root):
    client, log = scripted(reply("tool_use", text("Let me look.")))
    result = asyncio.run(run_bare(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert (result.stopped_by, result.turns, result.requests) == ("no_tool_calls", 0, 1) and len(log) == 1
    client, _ = scripted(reply("pause_turn", text("Working on it...")))
    result = asyncio.run(run_bare(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert result.stopped_by == "unknown_stop" and '"pause_turn"' in result.text


def test_bare_loop_never_stops_when_the_model_never_ends(root):
    """Nothing bounds the bare loop: 40 requests in, it is still turning (we cancel it)."""
    client = make_client(scenario="never-ends")
    log = offline_api(client).log

    async def watch():
        task = asyncio.create_task(run_bare(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
        while len(log) < 40 and not task.done():
            await asyncio.sleep(0)
        still_running = not task.done()
        task.cancel()
        return still_running

    assert asyncio.run(watch()) is True
    assert len(log) >= 40


# --- valve 1: turn cap -------------------------------------------------------------------------

@pytest.mark.parametrize("cap", [0, 1, 3, 8])
def test_turn_cap_allows_exactly_n_tool_rounds_and_n_plus_1_requests(run, root, cap):
    result, client = run("never-ends", root, max_turns=cap, token_budget=10**9)
    assert result.stopped_by == "max_turns"
    assert result.turns == cap
    assert result.requests == cap + 1 == len(offline_api(client).log)
    assert tool_rounds(result.messages) == cap
    assert f"turn cap of {cap}" in result.text
    assert_valid_history(result.messages)


def test_a_model_that_pauses_forever_is_stopped_by_the_turn_cap(loop, root):
    """pause_turn continuations count toward the cap, so even a model that reports no usage at all stops."""
    client, log = scripted(reply("pause_turn", text("Still working..."), usage={"input_tokens": 0, "output_tokens": 0}))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), max_turns=5))
    assert (result.stopped_by, result.turns, result.requests, result.tokens_used) == ("max_turns", 5, 6, 0)
    assert len(log) == 6
    assert [m["role"] for m in result.messages] == ["user"] + ["assistant"] * 5


# --- valve 2: token budget ---------------------------------------------------------------------

def test_token_hog_is_stopped_by_the_budget_before_the_turn_cap(run, root):
    events = []
    result, _ = run("token-hog", root, on_event=events.append)
    assert result.stopped_by == "token_budget"
    assert result.turns < 8
    spent = [sum(e["usage"].values()) for e in events if e["event"] == "request"]
    assert result.tokens_used == sum(spent) >= 40_000
    assert sum(spent[:-1]) < 40_000  # it stopped at the first check over budget, not later
    assert result.requests == result.turns + 1
    assert_valid_history(result.messages)


@pytest.mark.parametrize("budget", [1, 3_000, 12_000])
def test_budget_stops_at_the_first_check_over_budget(run, root, budget):
    events = []
    result, _ = run("never-ends", root, max_turns=100, token_budget=budget, on_event=events.append)
    cumulative, total = [], 0
    for e in events:
        if e["event"] == "request":
            total += sum(e["usage"].values())
            cumulative.append(total)
    first_over = next(i for i, c in enumerate(cumulative) if c >= budget) + 1
    assert result.stopped_by == "token_budget"
    assert result.requests == first_over
    assert result.turns == first_over - 1


def test_input_tokens_grow_with_every_request(run, root):
    events = []
    run("never-ends", root, max_turns=5, token_budget=10**9, on_event=events.append)
    inputs = [e["usage"]["input_tokens"] for e in events if e["event"] == "request"]
    assert inputs == sorted(inputs) and len(set(inputs)) == len(inputs)


# --- valve 3: no progress ----------------------------------------------------------------------

def test_stuck_model_is_stopped_on_the_second_identical_turn(run, root):
    result, _ = run("stuck", root)
    assert (result.stopped_by, result.turns, result.requests) == ("no_progress", 1, 2)
    assert result.text == ("Stopped by the harness: the model asked again for the identical tool calls of its "
                           'last turn (read_file({"path":"README.md"})); no progress.')
    assert_valid_history(result.messages)


def test_ping_pong_is_caught_by_the_cycle_check(run, root):
    """A, B, A, B: no two turns in a row are equal, yet valve 3 stops it before the second B runs."""
    result, _ = run("ping-pong", root, max_turns=8, token_budget=10**9)
    assert (result.stopped_by, result.turns, result.requests) == ("no_progress", 3, 4)
    assert result.text == ("Stopped by the harness: the model went back round a cycle of 2 turns it had already "
                           'run (read_file({"path":"README.md"}) -> get_time({})); no progress.')
    assert_valid_history(result.messages)


def test_a_new_argument_every_turn_is_not_a_cycle(run, root):
    result, _ = run("never-ends", root, max_turns=12, token_budget=10**9)
    assert (result.stopped_by, result.turns) == ("max_turns", 12)


# --- valve 4: approval gate --------------------------------------------------------------------

def test_rejected_write_leaves_no_file_and_the_model_changes_route(run, root):
    approver = scripted_approver([False])
    result, _ = run("high-impact", root, approve=approver)
    assert approver.asked == [("write_file", {"path": "scratch/answer.txt", "content": approver.asked[0][1]["content"]})]
    assert not (root / "scratch" / "answer.txt").exists()
    rejected = [b for m in result.messages if m["role"] == "user" and isinstance(m["content"], list)
                for b in m["content"] if b.get("is_error")]
    assert [b["content"] for b in rejected] == [REJECTED_MESSAGE]
    assert result.stopped_by == "end_turn"
    assert "not save" in result.text.lower() or "did not" in result.text.lower()


def test_approved_write_runs(run, root):
    result, _ = run("high-impact", root, approve=scripted_approver([True]))
    assert (root / "scratch" / "answer.txt").exists()
    assert result.stopped_by == "end_turn"


def test_no_approver_means_no_high_impact_action(run, root):
    result, _ = run("high-impact", root)
    assert not (root / "scratch" / "answer.txt").exists()
    assert result.stopped_by == "end_turn"


def test_injected_instruction_is_stopped_at_the_gate(run, root):
    approver = scripted_approver([False])
    result, _ = run("injection", root, task="Read notes/meeting.md and tell me the first line", approve=approver)
    assert [name for name, _ in approver.asked] == ["delete_file"]
    assert (root / "README.md").exists()
    assert result.stopped_by == "end_turn"


def test_every_approval_is_asked_before_any_tool_of_the_turn_runs(run, root):
    timeline = []
    impls = make_tool_impls(root, clock=lambda: FIXED_TIME)

    def recording(name):
        def impl(tool_input):
            timeline.append(("run", name))
            return impls[name](tool_input)
        return impl

    async def approve(name, tool_input):
        timeline.append(("ask", name))
        return True

    task = 'Read README.md and write "hi" to scratch/hi.txt and delete scratch/old.txt'
    (root / "scratch").mkdir(exist_ok=True)
    (root / "scratch" / "old.txt").write_text("old")
    result, _ = run("parallel", root, task=task, approve=approve,
                    tool_impls={name: recording(name) for name in impls})
    first_turn = timeline[: timeline.index(("run", "read_file")) + 1]
    asks = [i for i, (kind, _) in enumerate(timeline) if kind == "ask"]
    runs = [i for i, (kind, _) in enumerate(timeline) if kind == "run"]
    assert len(asks) == 2 and max(asks) < min(runs), timeline
    assert ("ask", "write_file") in first_turn
    assert (root / "scratch" / "hi.txt").read_text() == "hi"
    assert result.stopped_by == "end_turn"


# --- concurrency -------------------------------------------------------------------------------

def test_a_turns_tools_run_concurrently_and_results_come_back_in_order_in_one_message(run, root):
    impls = make_tool_impls(root, clock=lambda: FIXED_TIME)
    # Each of the turn's two calls waits for the other at a barrier: it opens only while both are in flight at
    # once. A loop that runs them one after the other breaks it (the first call gives up after 10 s).
    both = threading.Barrier(2, timeout=10)
    met = {}

    def meets_the_other(name):
        def impl(tool_input):
            both.wait()
            met[name] = threading.get_ident()
            return impls[name](tool_input)
        return impl

    result, _ = run("parallel", root, tool_impls=impls | {n: meets_the_other(n) for n in ("read_file", "get_time")})
    assert sorted(met) == ["get_time", "read_file"], f"the turn's two calls did not run at the same time: {result.messages[2:3]}"
    assert (result.turns, result.requests) == (1, 2)
    assistant, results = result.messages[1], result.messages[2]
    ids = [b.id for b in assistant["content"] if b.type == "tool_use"]
    assert [r["tool_use_id"] for r in results["content"]] == ids
    assert all(r["type"] == "tool_result" for r in results["content"])


# --- the model's own stop reasons ---------------------------------------------------------------

def test_truncated_tool_use_is_never_run(run, root):
    calls = []
    impls = make_tool_impls(root)
    impls["write_file"] = lambda tool_input: calls.append(tool_input) or "written"
    result, _ = run("max-tokens", root, task="Write a long report to scratch/report.md",
                    approve=scripted_approver([True] * 5), tool_impls=impls)
    assert result.stopped_by == "max_tokens"
    assert calls == []
    assert "max_tokens" in result.text
    assert_valid_history(result.messages)


def test_refusal(run, root):
    result, _ = run("refusal", root)
    assert (result.stopped_by, result.turns, result.requests) == ("refusal", 0, 1)
    assert result.text.startswith("The model declined")


def test_context_window(run, root):
    result, _ = run("context-window", root)
    assert result.stopped_by == "context_window"
    assert "context window" in result.text


def test_pause_turn_is_continued_and_counts_as_a_turn(run, root):
    result, _ = run("pause-turn", root)
    assert result.stopped_by == "end_turn"
    assert result.requests == 4 and result.turns == 3  # one continuation + two tool-calling turns
    assert_valid_history(result.messages)
    assert '"# Agent harness fundamentals"' in result.text


def test_stop_sequence(run, root):
    result, _ = run("demo", root, stop_sequences=["and it is"])
    assert result.stopped_by == "stop_sequence"
    assert "and it is" not in result.text


def test_api_errors_surface_as_the_sdks_exceptions(run, root):
    with pytest.raises(anthropic.NotFoundError):
        run("demo", root, model="claude-no-such-model")


# --- fail closed: odd responses and odd approvers ----------------------------------------------

def test_tool_use_with_no_tool_call_ends_the_run_without_an_empty_message(loop, root):
    client, log = scripted(reply("tool_use", text("I will now use a tool.")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert (result.stopped_by, result.turns, result.requests) == ("no_tool_calls", 0, 1)
    assert len(log) == 1
    assert result.text.startswith("I will now use a tool.\nStopped:") and "no tool call" in result.text
    assert_valid_history(result.messages)


@pytest.mark.parametrize("stop_reason", [None, "a_stop_reason_from_the_future"])
def test_a_null_or_unknown_stop_reason_is_named_unknown_stop(loop, root, stop_reason):
    client, _ = scripted(reply(stop_reason, text("Partial answer")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert result.stopped_by == "unknown_stop" in STOPPED_BY
    assert result.text.startswith("Partial answer\nStopped:") and json.dumps(stop_reason) in result.text


def test_context_window_is_never_passed_on_raw(loop, root):
    client, _ = scripted(reply("model_context_window_exceeded", text("To answer this")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert result.stopped_by == "context_window"


WRITE = call("write_file", {"path": "scratch/a.txt", "content": "hi"})


class ForgotToAwait:
    """An approver that calls an async helper and returns its coroutine without awaiting it."""

    def __init__(self):
        self.helper_ran = False

    async def helper(self):
        self.helper_ran = True
        return True

    async def __call__(self, name, tool_input):
        return self.helper()


@pytest.mark.parametrize("answer", ["yes", "no", "n", 1, None, [True], "forgot await"])
def test_only_an_answer_that_is_true_approves(loop, root, answer, recwarn):
    approver = ForgotToAwait() if answer == "forgot await" else None

    async def approve(name, tool_input):
        return answer

    events = []
    client, log = scripted(reply("tool_use", WRITE), reply("end_turn", text("Done.")))
    result = asyncio.run(loop(client, "Write hi", TOOLS, make_tool_impls(root), approve=approver or approve,
                              on_event=events.append))
    assert not (root / "scratch" / "a.txt").exists()
    [sent] = log[1]["messages"][-1]["content"]
    assert sent["is_error"] is True and sent["content"].startswith(("Not run:", REJECTED_MESSAGE))
    assert [e["approved"] for e in events if e["event"] == "approval"] == [False]
    assert result.stopped_by == "end_turn"
    if approver:
        assert not approver.helper_ran
        assert "coroutine" in sent["content"]
        gc.collect()  # a coroutine left unawaited warns when it is collected (a full collection: ~0.3 s)
        assert not [w for w in recwarn if "never awaited" in str(w.message)]


def test_an_approver_that_raises_is_a_no_with_its_reason(loop, root):
    async def approve(name, tool_input):
        raise ValueError("the approval service is down\nsecond line")

    events = []
    client, log = scripted(reply("tool_use", text("Saving."), WRITE), reply("end_turn", text("Not saved.")))
    result = asyncio.run(loop(client, "Write hi", TOOLS, make_tool_impls(root), approve=approve,
                              on_event=events.append))
    assert not (root / "scratch" / "a.txt").exists()
    assert log[1]["messages"][-1]["content"] == [{
        "type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
        "content": "Not run: the approval gate failed (ValueError: the approval service is down), which counts as a no."}]
    assert [e["approved"] for e in events if e["event"] == "approval"] == [False]
    assert (result.stopped_by, result.turns) == ("end_turn", 1)
    assert_valid_history(result.messages)


@pytest.mark.parametrize("interrupt", [asyncio.CancelledError, KeyboardInterrupt])
def test_an_interrupt_at_the_gate_ends_the_run_before_any_tool_runs(loop, root, interrupt):
    ran, events = [], []
    impls = make_tool_impls(root)
    impls["read_file"] = lambda tool_input: ran.append(tool_input) or "text"

    async def approve(name, tool_input):
        raise interrupt()

    client, log = scripted(reply("tool_use", call("read_file", {"path": "README.md"}, "toolu_r"), WRITE))
    with pytest.raises(interrupt):
        asyncio.run(loop(client, "Read and write", TOOLS, impls, approve=approve, on_event=events.append))
    assert ran == [] and not (root / "scratch" / "a.txt").exists()
    assert [e["approved"] for e in events if e["event"] == "approval"] == [False]
    assert len(log) == 1


def test_cancelling_the_run_while_the_gate_waits_runs_nothing(loop, root):
    ran, events = [], []
    impls = make_tool_impls(root)
    impls["read_file"] = lambda tool_input: ran.append(tool_input) or "text"

    async def main():
        waiting = asyncio.Event()

        async def approve(name, tool_input):  # a person who never answers
            waiting.set()
            await asyncio.Event().wait()

        client, log = scripted(reply("tool_use", call("read_file", {"path": "README.md"}, "toolu_r"), WRITE))
        task = asyncio.create_task(loop(client, "Read and write", TOOLS, impls, approve=approve,
                                        on_event=events.append))
        await waiting.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.05)  # give a wrongly started tool time to show up
        return log

    log = asyncio.run(main())
    assert ran == [] and not (root / "scratch" / "a.txt").exists() and len(log) == 1
    assert [e["approved"] for e in events if e["event"] == "approval"] == [False]
    assert [e for e in events if e["event"] in ("tool_result", "end")] == []
