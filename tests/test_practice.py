"""harness_ui.practice: a practice run that never ends is stopped by its own bounds, and says which one.

The run is a real loop on the offline model through the real SDK (or a coroutine written here, as a learner would
write it in a cell): a cap on requests stops a loop with no turn cap, the time limit stops a loop busy in Python
(`while True: pass`, where no await comes; in the main thread, woken at the deadline, and in another thread, where it
watches from the start) and one stuck in an await; a run within the bounds gives its result and
no line; any other error of the run is raised as awaiting it would.
"""

import asyncio
import signal
import sys
import threading

import pytest

from harness_lib.client import make_client
from harness_ui.practice import bounded
from harness_lib.tools import TOOLS


async def no_turn_cap(client):
    """The mistake exercise 5 teaches: a loop whose only way out is the model's stop_reason."""
    messages = [{"role": "user", "content": "What time is it?"}]
    while True:
        response = await client.messages.create(model="claude-sonnet-5", max_tokens=256, tools=TOOLS,
                                                messages=messages)
        if response.stop_reason != "tool_use":
            return response
        messages += [{"role": "assistant", "content": response.content},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": b.id, "content": "12:00"}
                                                  for b in response.content if b.type == "tool_use"]}]


def run(coroutine, client=None, **options):
    return asyncio.run(bounded(coroutine, client, **options))


def test_a_loop_without_a_turn_cap_is_stopped_by_the_cap_on_requests():
    client = make_client(scenario="never-ends", max_requests=5)
    result, stopped = run(no_turn_cap(client), client, seconds=60)
    assert result is None
    assert stopped == ("[practice] stopped: the model was asked more than 5 times (the practice run's cap on "
                       "requests): a loop that does not end?")


def test_a_loop_that_swallows_the_refusals_is_stopped_by_the_cap_too():
    async def swallows(client):
        for _ in range(8):
            try:
                await client.messages.create(model="claude-sonnet-5", max_tokens=64,
                                             messages=[{"role": "user", "content": "hi"}])
            except Exception:
                pass
        return "done"

    client = make_client(max_requests=3)
    result, stopped = run(swallows(client), client)
    assert result == "done" and "more than 3 times" in stopped


def test_a_busy_python_loop_is_stopped_by_the_time_limit_and_tracing_ends_with_the_run():
    async def spins():
        n = 0
        while True:
            n += 1

    result, stopped = run(spins(), seconds=0.3)
    assert result is None
    assert stopped == ("[practice] stopped: still running after 0.3 s (the practice run's time limit): a loop "
                       "that does not end?")
    assert sys.gettrace() is None


def test_away_from_the_main_thread_the_time_limit_watches_from_the_start():
    """No signal reaches another thread (nor a browser tab's, nor Windows'): there the tracer is on all along."""
    async def spins():
        while True:
            pass

    found = []
    worker = threading.Thread(target=lambda: found.append(run(spins(), seconds=0.2)))
    worker.start()
    worker.join(10)
    assert found and "still running after 0.2 s" in found[0][1]


@pytest.mark.skipif(not hasattr(signal, "SIGUSR2"), reason="no user signal here: the tracer watches from the start")
def test_a_run_within_its_time_leaves_no_tracer_and_the_signal_as_it_was():
    before = signal.getsignal(signal.SIGUSR2)
    assert run(asyncio.sleep(0, "done"), seconds=5) == ("done", None)
    assert sys.gettrace() is None and signal.getsignal(signal.SIGUSR2) is before


def test_except_exception_does_not_swallow_the_time_limit():
    async def keeps_going():
        while True:
            try:
                pass
            except Exception:
                continue

    assert "0.2 s" in run(keeps_going(), seconds=0.2)[1]


def test_a_run_stuck_in_an_await_is_stopped_by_the_time_limit():
    async def waits():
        await asyncio.Event().wait()

    assert "still running after 0.2 s" in run(waits(), seconds=0.2)[1]


def test_a_run_within_the_bounds_gives_its_result_and_no_line():
    client = make_client(scenario="demo", max_requests=10)
    response, stopped = run(no_turn_cap(client), client)
    assert stopped is None and response.stop_reason == "end_turn"


def test_another_error_of_the_run_is_raised():
    async def broken():
        raise NotImplementedError("write run_agent")

    with pytest.raises(NotImplementedError, match="write run_agent"):
        run(broken())


def test_the_line_speaks_the_notebooks_language(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "es")
    client = make_client(scenario="never-ends", max_requests=2)
    assert run(no_turn_cap(client), client)[1].startswith("[práctica] detenida: se le pidió al modelo más de 2 veces")


def test_the_runs_own_timeout_error_is_raised_not_taken_for_the_time_limit():
    async def times_out():
        await asyncio.wait_for(asyncio.Event().wait(), timeout=0.01)

    with pytest.raises(asyncio.TimeoutError):
        run(times_out(), seconds=5)
