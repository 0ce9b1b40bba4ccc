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

from harness_lib import (REJECTED_MESSAGE, TOOLS, make_client, make_tool_impls, run_agent,
                         scripted_approver)
from harness_lib.client import MODEL, offline_api
from harness_lib.loop import STOPPED_BY
from harness_kit.offline.validation import APIError, validate_request
from harness_lib.tools import DEFAULT_ROOT

import notebook_code
from offline_support import offline_client

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
        client = offline_client(scenario=scenario, strict=True)
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
    client = offline_client(strict=True)
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


# --- what mutation testing found untested (docs/development.md, "Mutation testing") ----------------------------
# Each test asserts what a learner or a user sees; each was checked to fail with the bug it names planted by hand.

from harness_kit import lang  # noqa: E402
from harness_lib import trace  # noqa: E402
from harness_lib.loop import ask_approver, run_tool_uses  # noqa: E402


def test_the_default_turn_cap_is_8(loop, root):
    client = offline_client(scenario="never-ends", strict=True)
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), token_budget=10**9))
    assert (result.stopped_by, result.turns, result.requests) == ("max_turns", 8, 9)
    assert result.text == lang.english("stop.max_turns", cap=8)
    assert result.note == ("stop.max_turns", {"cap": 8})


def test_spending_exactly_the_budget_stops_the_run(loop, root):
    """'Spent is spent': a run that has used exactly its budget takes no further turn."""
    client, log = scripted(reply("tool_use", call("get_time", {})), reply("end_turn", text("Done.")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), token_budget=20))
    assert (result.stopped_by, result.turns, result.requests, result.tokens_used) == ("token_budget", 0, 1, 20)
    assert len(log) == 1
    assert result.text == "Stopped by the harness: 20 tokens used, reaching the token budget of 20."
    assert result.note == ("stop.token_budget", {"used": 20, "budget": 20})


def test_the_budget_sentence_names_what_was_spent_and_the_budget(loop, root):
    usage = {"input_tokens": 700, "output_tokens": 50}
    client, _ = scripted(reply("tool_use", call("get_time", {}), usage=usage),
                         reply("tool_use", call("get_time", {}, "toolu_2"), usage=usage))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), token_budget=1000))
    assert (result.stopped_by, result.turns, result.requests) == ("token_budget", 1, 2)
    assert result.text == "Stopped by the harness: 1500 tokens used, reaching the token budget of 1000."


def test_the_no_progress_sentences_name_the_repeated_calls(loop, root):
    read = call("read_file", {"path": "notas/año.md"})
    client, _ = scripted(reply("tool_use", read), reply("tool_use", read))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert (result.stopped_by, result.turns) == ("no_progress", 1)
    assert result.text == ("Stopped by the harness: the model asked again for the identical tool calls of its last "
                           'turn (read_file({"path":"notas/año.md"})); no progress.')
    assert result.note == ("stop.repeat", {"period": 1, "calls": 'read_file({"path":"notas/año.md"})'})

    first = call("read_file", {"path": "README.md"}, "toolu_0")  # a turn before the cycle begins
    a = [call("read_file", {"path": "a.md"}, f"toolu_a{n}") for n in (1, 2)]
    b = [call("get_time", {}, f"toolu_b{n}") for n in (1, 2)]
    client, _ = scripted(reply("tool_use", first), reply("tool_use", a[0]), reply("tool_use", b[0]),
                         reply("tool_use", a[1]), reply("tool_use", b[1]))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert (result.stopped_by, result.turns) == ("no_progress", 4)
    assert result.text == ("Stopped by the harness: the model went back round a cycle of 2 turns it had already "
                           'run (read_file({"path":"a.md"}) -> get_time({})); no progress.')
    assert result.note == ("stop.cycle", {"period": 2, "calls": 'read_file({"path":"a.md"}) -> get_time({})'})


def refusal_reply(explanation):
    body = reply("refusal")
    body["stop_details"] = {"type": "refusal", "category": None, "explanation": explanation}
    return body


@pytest.mark.parametrize("explanation", ["I can't help with that.", None, ""])
def test_a_refusal_reads_the_harness_sentence_then_the_models_explanation(loop, root, explanation):
    client, _ = scripted(refusal_reply(explanation))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert (result.stopped_by, result.turns, result.requests) == ("refusal", 0, 1)
    assert result.text == "The model declined this request." + (f" {explanation}" if explanation else "")
    assert result.note == ("stop.refusal", {})


def test_a_refusal_without_stop_details_is_the_harness_sentence_alone(loop, root):
    client, _ = scripted(reply("refusal", text("")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert result.text == "The model declined this request."


def test_two_text_blocks_are_read_as_two_lines(loop, root):
    client, _ = scripted(reply("end_turn", text("First paragraph."), text("Second paragraph.")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert (result.stopped_by, result.text, result.note) == ("end_turn", "First paragraph.\nSecond paragraph.", None)


@pytest.mark.parametrize("stop_reason, key", [("max_tokens", "stop.max_tokens"),
                                              ("model_context_window_exceeded", "stop.context_window")])
def test_a_cut_short_answer_keeps_the_models_text_then_the_harness_sentence(loop, root, stop_reason, key):
    client, _ = scripted(reply(stop_reason, text("Half an answer")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert result.text == "Half an answer\n" + lang.english(key)
    assert result.note == (key, {})
    client, _ = scripted(reply(stop_reason))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert result.text == lang.english(key)


def test_the_spanish_edition_shows_every_stop_sentence_in_spanish(loop, root, monkeypatch):
    """AgentResult.note names the harness's sentence, so the transcript and the inspector show it in Spanish."""
    monkeypatch.setenv("HARNESS_LANG", "es")
    client = offline_client(scenario="never-ends", strict=True)
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), max_turns=2, token_budget=10**9))
    assert result.text == lang.english("stop.max_turns", cap=2)  # the result itself is English in every edition
    assert trace.stop_text(result) == lang.MESSAGES["es"]["stop.max_turns"].format(cap=2)
    client, _ = scripted(refusal_reply("No."))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert trace.stop_text(result) == lang.MESSAGES["es"]["stop.refusal"] + " No."


def test_run_agent_gates_the_tools_it_is_told_are_high_impact(loop, root):
    """high_impact= decides which calls are put to the approver: here read_file is, and write_file is not."""
    approve = scripted_approver([False])
    client, log = scripted(reply("tool_use", call("read_file", {"path": "README.md"}, "toolu_r"), WRITE),
                           reply("end_turn", text("Done.")))
    result = asyncio.run(loop(client, "Read and write", TOOLS, make_tool_impls(root), approve=approve,
                              high_impact={"read_file"}))
    assert approve.asked == [("read_file", {"path": "README.md"})]
    read, write = log[1]["messages"][-1]["content"]
    assert read == {"type": "tool_result", "tool_use_id": "toolu_r", "is_error": True, "content": REJECTED_MESSAGE}
    assert write == {"type": "tool_result", "tool_use_id": "toolu_1", "content": "wrote 2 characters to scratch/a.txt"}
    assert (root / "scratch" / "a.txt").read_text() == "hi"
    assert result.stopped_by == "end_turn"


def test_run_agent_checks_calls_against_the_tools_it_was_given(loop, root):
    """tools= is what the model may call: a tool left out of it is unknown, even if an implementation exists,
    and a tool of one's own (not in harness_lib.TOOLS) runs with its own schema."""
    shout = {"name": "shout", "description": "Upper-case a text.",
             "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                              "additionalProperties": False}}
    tools = [TOOLS[0], shout]  # get_time and shout
    impls = make_tool_impls(root) | {"shout": lambda tool_input: tool_input["text"].upper()}
    client, log = scripted(reply("tool_use", call("shout", {"text": "hi"}, "toolu_s"),
                                 call("read_file", {"path": "README.md"}, "toolu_r")),
                           reply("end_turn", text("Done.")))
    asyncio.run(loop(client, "Shout", tools, impls))
    shouted, read = log[1]["messages"][-1]["content"]
    assert shouted == {"type": "tool_result", "tool_use_id": "toolu_s", "content": "HI"}
    assert read == {"type": "tool_result", "tool_use_id": "toolu_r", "is_error": True,
                    "content": "unknown tool: read_file. Available tools: get_time, shout"}


def test_run_tool_uses_checks_calls_against_the_tools_it_was_given(root):
    blocks = [anthropic.types.ToolUseBlock(type="tool_use", id="toolu_r", name="read_file",
                                           input={"path": "README.md"})]
    results = asyncio.run(run_tool_uses(blocks, make_tool_impls(root), tools=[TOOLS[0]]))
    assert results == [{"type": "tool_result", "tool_use_id": "toolu_r", "is_error": True,
                        "content": "unknown tool: read_file. Available tools: get_time"}]






def test_the_agents_end_event_tells_how_the_run_ended(loop, root):
    events = []
    client, _ = scripted(reply("tool_use", call("get_time", {})), reply("end_turn", text("Done.")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), on_event=events.append))
    assert events[0] == {"event": "start", "input": LESSON_TASK, "model": MODEL}
    assert events[-1] == {"event": "end", "turn": 2, "stop_reason": "end_turn", "stopped_by": "end_turn",
                          "text": "Done.", "note": None, "turns": 1, "requests": 2, "tokens_used": 40}
    assert result.text == "Done."
    events = []
    client, _ = scripted(reply("tool_use", call("get_time", {})))
    asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), max_turns=0, on_event=events.append))
    assert events[-1] == {"event": "end", "turn": 1, "stop_reason": None, "stopped_by": "max_turns",
                          "text": lang.english("stop.max_turns", cap=0), "note": ("stop.max_turns", {"cap": 0}),
                          "turns": 0, "requests": 1, "tokens_used": 20}


@pytest.mark.parametrize("answer, said", [
    ("yes", "Not run: the approval gate answered 'yes', not True, which counts as a no."),
    (1, "Not run: the approval gate answered 1, not True, which counts as a no."),
    (None, "Not run: the approval gate answered None, not True, which counts as a no."),
    ("x" * 200, f"Not run: the approval gate answered {repr('x' * 200)[:80]}, not True, which counts as a no."),
])
def test_what_the_model_is_told_when_the_approver_answers_oddly(answer, said):
    async def approve(name, tool_input):
        return answer
    assert asyncio.run(ask_approver(approve, *WRITE_ACTION)) == said


WRITE_ACTION = ("write_file", {"path": "scratch/a.txt", "content": "hi"})


def test_what_the_model_is_told_when_the_approver_fails_or_forgets_an_await():
    async def broken(name, tool_input):
        raise RuntimeError("")

    async def long_error(name, tool_input):
        raise ValueError("e" * 300 + "\nsecond line")

    async def helper():
        return True

    async def forgot(name, tool_input):
        return helper()

    assert asyncio.run(ask_approver(broken, *WRITE_ACTION)) == (
        "Not run: the approval gate failed (RuntimeError: ), which counts as a no.")
    assert asyncio.run(ask_approver(long_error, *WRITE_ACTION)) == (
        f"Not run: the approval gate failed (ValueError: {'e' * 200}), which counts as a no.")
    assert asyncio.run(ask_approver(forgot, *WRITE_ACTION)) == (
        "Not run: the approval gate returned a coroutine (an await was forgotten), which counts as a no.")
    assert asyncio.run(ask_approver(None, *WRITE_ACTION)) == REJECTED_MESSAGE
    assert asyncio.run(ask_approver(scripted_approver([False]), *WRITE_ACTION)) == REJECTED_MESSAGE
    assert asyncio.run(ask_approver(scripted_approver([True]), *WRITE_ACTION)) is None


def test_the_default_request_and_budget(loop, root):
    """Defaults a learner relies on: max_tokens 1024 in every request, a token budget of 40,000."""
    big = {"input_tokens": 30_000, "output_tokens": 10_000}
    client, log = scripted(reply("tool_use", call("get_time", {}), usage=big), reply("end_turn", text("Done.")))
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root)))
    assert log[0]["max_tokens"] == 1024
    assert (result.stopped_by, result.requests) == ("token_budget", 1)
    assert result.text == "Stopped by the harness: 40000 tokens used, reaching the token budget of 40000."


def test_a_response_object_without_stop_details_is_still_read():
    """A response made by hand, or by an SDK older than stop_details, ends the run with the harness's sentence."""
    from types import SimpleNamespace

    from harness_lib.loop import model_stop

    refusal = SimpleNamespace(stop_reason="refusal", content=[])
    assert model_stop(refusal) == ("refusal", "The model declined this request.", ("stop.refusal", {}))


def test_tool_result_sends_is_error_only_when_true():
    from harness_lib.loop import tool_result

    assert tool_result("toolu_1", "ok") == {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
    assert tool_result("toolu_1", "no", True) == {"type": "tool_result", "tool_use_id": "toolu_1", "content": "no",
                                                 "is_error": True}


def test_the_tool_events_of_a_turn(root):
    """What a transcript or the inspector is told about each call: who, which turn, what came back."""
    blocks = [anthropic.types.ToolUseBlock(type="tool_use", id="toolu_t", name="get_time", input={})]
    events = []
    asyncio.run(run_tool_uses(blocks, make_tool_impls(root, clock=lambda: FIXED_TIME), tools=TOOLS,
                              on_event=events.append))
    assert events == [
        {"event": "tool_call", "turn": 0, "id": "toolu_t", "name": "get_time", "input": {}},
        {"event": "tool_result", "turn": 0, "id": "toolu_t", "name": "get_time",
         "content": "2026-08-26T10:42:07+08:00", "is_error": False}]


# --- issue 37: validate before asking; two calls with one id; the record after the fact --------------------

import re  # noqa: E402
from html.parser import HTMLParser  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from harness_ui.inspector import Inspector  # noqa: E402
from harness_lib.trace import Transcript  # noqa: E402


def test_a_call_its_schema_refuses_is_refused_before_anyone_is_asked(loop, root):
    """A 100 KB write (the schema allows 20,000 characters), an unknown tool, a missing field: each gets its
    is_error result at once; the approver is never asked, nothing is written, and the history stays valid."""
    client, log = scripted(
        reply("tool_use", call("write_file", {"path": "scratch/big.txt", "content": "x" * 100_000}, "toolu_big"),
              call("write_file", {"path": "scratch/no-content.txt"}, "toolu_missing"),
              call("http_post", {"url": "https://example.invalid"}, "toolu_unknown"),
              call("write_file", {"path": "scratch/ok.txt", "content": "ok"}, "toolu_ok")),
        reply("end_turn", text("Done.")))
    approver = scripted_approver([True])
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), approve=approver))
    assert approver.asked == [("write_file", {"path": "scratch/ok.txt", "content": "ok"})]  # only the valid one
    results = {b["tool_use_id"]: b for b in log[1]["messages"][-1]["content"]}
    assert results["toolu_big"]["is_error"] and "(field 'content')" in results["toolu_big"]["content"]
    assert results["toolu_missing"]["is_error"] and "'content' is a required property" in results["toolu_missing"]["content"]
    assert results["toolu_unknown"]["is_error"] and "unknown tool: http_post" in results["toolu_unknown"]["content"]
    assert "is_error" not in results["toolu_ok"]
    assert not (root / "scratch" / "big.txt").exists() and (root / "scratch" / "ok.txt").read_text() == "ok"
    assert result.stopped_by == "end_turn"
    assert_valid_history(result.messages)


@pytest.mark.parametrize("where", ["first turn", "second turn"])
def test_two_tool_calls_with_one_id_stop_the_run_before_anything_runs(loop, root, where):
    """The API refuses a history whose tool_use ids repeat ("`tool_use` ids must be unique"), and no result
    could say which call it answers: the loop runs none of that turn's calls, asks nobody, sends nothing
    more, and says why (duplicate_ids). Every tool_use it did send has exactly one tool_result."""
    twins = reply("tool_use", call("write_file", {"path": "scratch/a.txt", "content": "A"}, "toolu_same"),
                  call("delete_file", {"path": "scratch/keep.txt"}, "toolu_same"))
    first = [reply("tool_use", call("get_time", {}, "toolu_time"))] if where == "second turn" else []
    (root / "scratch").mkdir(exist_ok=True)
    (root / "scratch" / "keep.txt").write_text("keep")
    client, log = scripted(*first, twins, reply("end_turn", text("never asked for")))
    approver, events = scripted_approver([True, True]), []
    result = asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root, clock=lambda: FIXED_TIME),
                              approve=approver, on_event=events.append))
    assert result.stopped_by == "duplicate_ids" and result.stopped_by in STOPPED_BY
    assert '"toolu_same"' in result.text and "none of its calls was run" in result.text
    assert result.note == ("stop.duplicate_ids", {"id": '"toolu_same"'})
    assert approver.asked == [] and len(log) == len(first) + 1
    assert not (root / "scratch" / "a.txt").exists() and (root / "scratch" / "keep.txt").exists()
    assert [e["name"] for e in events if e["event"] == "tool_call"] == (["get_time"] if first else [])
    assert_valid_history(result.messages)
    assert result.requests == result.turns + 1
    drawn = Inspector.from_events(events)
    assert "two tool calls of a response shared an id" in drawn._repr_html_()




def test_the_offline_api_refuses_a_history_with_a_repeated_tool_use_id():
    messages = [{"role": "user", "content": "hi"},
                {"role": "assistant", "content": [call("get_time", {}, "toolu_x"), call("get_time", {}, "toolu_x")]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "t"}]}]
    with pytest.raises(APIError, match=r"messages\.1\.content\.1: `tool_use` ids must be unique"):
        validate_request({"model": MODEL, "max_tokens": 10, "messages": messages})


HOSTILE_TEXT = ["\x1b[1A\x1b[2K\x1b[1A\x1b[2KNothing was written.", "answer\x1b[37m", "a\rb\bc\x9b2J",
                "scratch/a\ufffc.txt", " " * 20_000 + "\u02ba)", '1"><img src=x onerror=alert(1)>',
                "\u202etxt.exe", "\U000e0061\ufe0f\u0301", "\x1b]8;;https://x.invalid\x07link\x1b]8;;\x07"]


@pytest.mark.parametrize("hostile", HOSTILE_TEXT, ids=range(len(HOSTILE_TEXT)))
def test_no_text_an_endpoint_returns_reaches_a_reader_raw(loop, root, hostile):
    """A scripted endpoint puts hostile text in a call's input, the answer, the stop reason and a refusal's
    explanation; the transcript's printed lines and the inspector's picture hold no control character, no
    U+FFFC, no run of spaces and no tag of the endpoint's: every one of them is shown escaped."""
    runs = [
        [reply("tool_use", text(hostile), call("write_file", {"path": hostile, "content": hostile}, "toolu_1")),
         reply("end_turn", text(hostile))],
        [reply(hostile, text(hostile))],  # an unknown stop reason
        [{**reply("refusal", text(hostile)), "stop_details": {"type": "refusal", "category": None,
                                                            "explanation": hostile}}],
    ]
    for replies in runs:
        printed, page = what_a_person_sees(loop, replies, root)
        for shown in (printed, page.text):
            assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\ufffc\u202e\U000e0061\ufe0f\u0301]", shown)
            assert " " * 16 not in shown
        assert page.tags <= INSPECTOR_TAGS


INSPECTOR_TAGS = {"style", "div", "table", "caption", "thead", "tbody", "tr", "th", "td", "code", "ul", "li", "span",
                  "br", "b", "meter"}


def what_a_person_sees(loop, replies, root):
    """(the Transcript's printed lines and the inspector's text view, the inspector's page) of one run of `loop`
    against a scripted endpoint answering `replies`; every high-impact call is refused."""
    client, _ = scripted(*replies)
    lines, drawn = [], Inspector()

    def both(event):
        Transcript(out=lines.append)(event)
        drawn(event)

    asyncio.run(loop(client, LESSON_TASK, TOOLS, make_tool_impls(root), approve=scripted_approver([False]),
                     on_event=both))
    return "\n".join(lines) + "\n" + repr(drawn), HTMLText(drawn._repr_html_())


class HTMLText(HTMLParser):
    def __init__(self, html):
        super().__init__()
        self.tags, self.parts = set(), []
        self.feed(html)
        self.text = "".join(self.parts)

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.parts.append(data)


HOSTILE_CHARS = "\x00\x07\x08\t\r\x1b\x7f\x85\x9b\u00a0\u0301\u200b\u202e\u2028\u2800\u3164\ufe0f\ufffc\ue000\U000e0041 [m;2J<>\"'\\a\u0430"


@settings(max_examples=120, derandomize=True, database=None, deadline=None)
@given(answer=st.text(HOSTILE_CHARS, max_size=60), reason=st.text(HOSTILE_CHARS, min_size=1, max_size=20),
       explanation=st.text(HOSTILE_CHARS, max_size=40), path=st.text(HOSTILE_CHARS, min_size=1, max_size=30),
       shape=st.sampled_from(["answer", "unknown stop", "refusal", "call"]))
def test_fuzz_no_raw_control_character_from_an_endpoint_is_printed_or_drawn(answer, reason, explanation, path, shape):
    """run_agent through the real SDK and a scripted endpoint whose every text is drawn from control, format,
    invisible, markup and look-alike characters: Transcript's lines and the inspector never hold one raw."""
    replies = {
        "answer": [reply("end_turn", text(answer or "x"))],
        "unknown stop": [reply(reason, text(answer or "x"))],
        "refusal": [{**reply("refusal", text(answer or "x")),
                     "stop_details": {"type": "refusal", "category": None, "explanation": explanation or None}}],
        "call": [reply("tool_use", call("write_file", {"path": path, "content": answer}, "toolu_f")),
                 reply("end_turn", text(answer or "x"))],
    }[shape]
    printed, page = what_a_person_sees(run_agent, replies, FUZZ_ROOT)
    for shown in (printed, page.text):
        assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u00a0\u0301\u200b\u202e\u2028\u2800\u3164\ufe0f\ufffc"
                             r"\ue000\U000e0041]", shown), shown
    assert page.tags <= INSPECTOR_TAGS


FUZZ_ROOT = DEFAULT_ROOT  # read-only here: every write is rejected by the approver
