"""Message threads offline: the installed SDK's own tool runner and thread helper, against the offline API.

Everything goes through the real SDK (``client.beta.messages.tool_runner`` / ``.thread``); the kit's tools
(harness_lib.tools) are wrapped as the SDK's runner tools. No socket may be opened: see `no_network`.
"""

import asyncio

import anthropic
import httpx2
import pytest
from anthropic import beta_async_tool, beta_tool
from anthropic.lib.tools import ToolError

from harness_lib.client import MODEL, make_client, offline_api
from harness_kit.offline import OfflineMessagesAPI, count_input_tokens
from harness_kit.offline.threads import BETA
from harness_lib.tools import TOOLS, make_tool_impls, run_tool
from offline_support import LESSON, no_network, offline_client  # noqa: F401 (no_network: autouse fixture)

FIRST_LINE = "# Agent harness fundamentals"


def run(coro):
    return asyncio.run(coro)


def runner_tools(*, is_async: bool):
    """The kit's tools as the SDK's runner tools: same names, descriptions and input schemas, and run_tool()
    (jsonschema check, errors as text) inside. A failure is raised as the SDK's ToolError: an is_error result."""
    impls = make_tool_impls()
    tools = []
    for spec in TOOLS:
        def call(_name=spec["name"], **tool_input):
            content, is_error = run_tool(impls, _name, tool_input)
            if is_error:
                raise ToolError(content)
            return content

        async def acall(_name=spec["name"], **tool_input):
            return call(_name, **tool_input)

        wrap = beta_async_tool if is_async else beta_tool
        tools.append(wrap(acall if is_async else call, name=spec["name"], description=spec["description"],
                          input_schema=spec["input_schema"]))
    return tools


async def run_async(client, **params):
    """The SDK's async tool runner on the lesson's task; returns its messages."""
    runner = client.beta.messages.tool_runner(model=MODEL, max_tokens=1024, tools=runner_tools(is_async=True),
                                              messages=[{"role": "user", "content": LESSON}], **params)
    return [message async for message in runner]


def thread_of(body):
    return (body.get("thread") or {}).get("type")


def assert_the_lesson_answer(messages):
    assert [m.stop_reason for m in messages] == ["tool_use", "tool_use", "end_turn"]
    calls = [b.name for m in messages for b in m.content if b.type == "tool_use"]
    assert calls == ["read_file", "get_time"]
    assert f'The first line of README.md is "{FIRST_LINE}"' in messages[-1].content[-1].text


# ---- the tool runner completes the lesson's task offline, threaded ---------------------------------------

def test_the_async_tool_runner_threads_the_lesson_run():
    client = offline_client(strict=True)
    messages = run(run_async(client))
    assert_the_lesson_answer(messages)
    log = offline_api(client).log
    assert [thread_of(b) for b in log] == ["create", "continue", "continue"]
    assert log[0]["tools"] == TOOLS and len(log[0]["messages"]) == 1
    for body, previous in zip(log[1:], messages):  # only the new turn goes out: one tool_result message
        assert body["thread"]["previous_message_id"] == previous.id
        assert "tools" not in body and "system" not in body
        assert [m["role"] for m in body["messages"]] == ["user"]
        assert [b["type"] for b in body["messages"][0]["content"]] == ["tool_result"]


def test_the_sync_tool_runner_works_on_a_sync_client():
    api = OfflineMessagesAPI("demo")
    client = anthropic.Anthropic(api_key="offline", base_url="https://offline.invalid",
                                 http_client=httpx2.Client(transport=api))
    runner = client.beta.messages.tool_runner(model=MODEL, max_tokens=1024, tools=runner_tools(is_async=False),
                                              messages=[{"role": "user", "content": LESSON}])
    assert_the_lesson_answer(list(runner))
    assert [thread_of(b) for b in api.log] == ["create", "continue", "continue"]


def test_a_thread_counts_the_whole_conversation_as_input_like_a_resent_history():
    threaded, plain = make_client(), make_client()
    with_thread = run(run_async(threaded))
    without = run(run_async(plain, thread=False))
    assert all(thread_of(b) is None for b in offline_api(plain).log)
    assert [m.content[-1].model_dump() for m in with_thread][-1] == [m.content[-1].model_dump() for m in without][-1]
    for message, body in zip(with_thread, offline_api(plain).log):
        assert message.usage.input_tokens == count_input_tokens(body)  # the full history each turn
    sent = [len(str(b["messages"])) for b in offline_api(threaded).log]
    resent = [len(str(b["messages"])) for b in offline_api(plain).log]
    assert sent[-1] < resent[-1]  # what a thread saves is the request size


# ---- the errors the SDK recovers from -------------------------------------------------------------------

async def create(client, **body):
    body = {"model": MODEL, "max_tokens": 256, "betas": [BETA], **body}
    return await client.beta.messages.create(**body)


def test_a_continue_from_an_unknown_id_is_thread_not_found():
    client = make_client().with_options(max_retries=0)
    with pytest.raises(anthropic.NotFoundError) as info:
        run(create(client, messages=[{"role": "user", "content": "go on"}],
                   thread={"type": "continue", "previous_message_id": "msg_01nothingheldunderthisid"}))
    err = info.value
    assert err.error_code == "thread_not_found" and err.body["error"]["type"] == "not_found_error"
    assert err.body["error"]["details"] == {"error_code": "thread_not_found"}
    assert err.response.headers["x-should-retry"] == "false"


def _run_forgetting(client, forget_after: set[int]):
    """The runner on the lesson's task; after the replies numbered in ``forget_after`` the API loses its threads."""
    api = offline_api(client)

    async def go():
        out = []
        runner = client.beta.messages.tool_runner(model=MODEL, max_tokens=1024, tools=runner_tools(is_async=True),
                                                  messages=[{"role": "user", "content": LESSON}])
        async for message in runner:
            out.append(message)
            if len(out) in forget_after:
                api.threads.forget()  # as a server that lost every held conversation
        return out

    return run(go())


def test_the_runner_replays_the_history_when_the_thread_is_gone():
    client = offline_client(strict=True)
    assert_the_lesson_answer(_run_forgetting(client, {1}))
    log = offline_api(client).log
    assert [thread_of(b) for b in log] == ["create", "continue", "create", "continue"]
    assert len(log[2]["messages"]) == 3 and log[2]["tools"] == TOOLS  # the replay: full history, and the tools


def test_the_runner_stops_threading_when_the_replayed_thread_is_lost_too():
    client = offline_client(strict=True)
    assert_the_lesson_answer(_run_forgetting(client, {1, 2}))
    assert [thread_of(b) for b in offline_api(client).log] == ["create", "continue", "create", "continue", None]


def test_held_threads_are_bounded_and_the_oldest_is_let_go():
    api = OfflineMessagesAPI()
    api.threads.max_threads = 1  # (64 in the kit: threads.MAX_THREADS)
    client = anthropic.AsyncAnthropic(api_key="offline", base_url="https://offline.invalid", max_retries=0,
                                      http_client=httpx2.AsyncClient(transport=api))
    first = run(create(client, tools=TOOLS, messages=[{"role": "user", "content": LESSON}], thread={"type": "create"}))
    run(create(client, messages=[{"role": "user", "content": "hello"}], thread={"type": "create"}))
    assert len(api.threads) == 1 and first.id not in api.threads
    with pytest.raises(anthropic.NotFoundError) as info:
        run(create(client, messages=[{"role": "user", "content": "go on"}],
                   thread={"type": "continue", "previous_message_id": first.id}))
    assert info.value.error_code == "thread_not_found"


def _answer(message, text="# Agent harness fundamentals"):
    call = next(b for b in message.content if b.type == "tool_use")
    return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": text}]}


def test_a_reply_can_be_continued_only_once():
    client = make_client().with_options(max_retries=0)
    first = run(create(client, tools=TOOLS, messages=[{"role": "user", "content": LESSON}], thread={"type": "create"}))
    cont = {"type": "continue", "previous_message_id": first.id}
    second = run(create(client, messages=[_answer(first)], thread=cont))
    assert [b.name for b in second.content if b.type == "tool_use"] == ["get_time"]  # it read the held history
    with pytest.raises(anthropic.BadRequestError) as info:
        run(create(client, messages=[_answer(first)], thread=cont))
    assert info.value.error_code == "thread_already_continued"
    assert info.value.body["error"]["details"] == {"error_code": "thread_already_continued"}


def test_the_thread_helper_replays_when_its_reply_was_already_continued():
    client = make_client()
    api = offline_api(client)

    async def go():
        thread = client.beta.messages.thread(model=MODEL, max_tokens=512, tools=TOOLS,
                                             messages=[{"role": "user", "content": LESSON}])
        first = await thread.send()
        # someone else continues from the same reply first
        await create(client, messages=[_answer(first)], thread={"type": "continue", "previous_message_id": first.id})
        return await thread.send(_answer(first))

    reply = run(go())
    assert [b.name for b in reply.content if b.type == "tool_use"] == ["get_time"]
    assert [thread_of(b) for b in api.log] == ["create", "continue", "continue", "create"]
    assert len(api.log[3]["messages"]) == 3  # replayed in full under a new thread


def test_an_unthreadable_request_is_refused_with_the_features_named():
    client = make_client().with_options(max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as info:
        run(create(client, messages=[{"role": "user", "content": LESSON}], thread={"type": "create"},
                   thinking={"type": "adaptive"}))
    assert info.value.error_code == "thread_unsupported_request"
    assert info.value.body["error"]["details"] == {"error_code": "thread_unsupported_request", "unsupported": ["thinking"]}


def test_the_runner_continues_unthreaded_when_the_request_cannot_be_threaded():
    client = offline_client(strict=True)
    messages = run(run_async(client, thinking={"type": "adaptive"}))
    assert_the_lesson_answer(messages)
    log = offline_api(client).log
    assert [thread_of(b) for b in log] == ["create", None, None, None]  # refused once, then the full history
    assert [len(b["messages"]) for b in log[1:]] == [1, 3, 5]


# ---- plain 400s, and what a failed continue leaves behind ------------------------------------------------

def test_malformed_threads_get_a_400():
    client = make_client().with_options(max_retries=0)
    user = [{"role": "user", "content": LESSON}]
    first = run(create(client, messages=user, tools=TOOLS, thread={"type": "create"}))
    cases = [
        (dict(thread={"type": "fork"}), "thread: Input tag 'fork' found using 'type' does not match"),
        (dict(thread={"type": "continue"}), "thread.continue.previous_message_id: Field required"),
        (dict(thread={"type": "continue", "previous_message_id": first.id}, tools=TOOLS),
         "thread: a `continue` takes `tools` from the thread"),
        (dict(thread={"type": "create"}, betas=[]), "thread: message threads are in beta"),
    ]
    for extra, message in cases:
        with pytest.raises(anthropic.BadRequestError) as info:
            run(create(client, messages=[_answer(first)] if "continue" in str(extra) else user, **extra))
        assert info.value.api_message.startswith(message), info.value.api_message
    # none of those used the thread up
    assert run(create(client, messages=[_answer(first)],
                      thread={"type": "continue", "previous_message_id": first.id})).stop_reason == "tool_use"


def test_a_continue_that_breaks_a_rule_leaves_the_thread_to_continue():
    client = make_client().with_options(max_retries=0)
    first = run(create(client, tools=TOOLS, messages=[{"role": "user", "content": LESSON}], thread={"type": "create"}))
    cont = {"type": "continue", "previous_message_id": first.id}
    with pytest.raises(anthropic.BadRequestError) as info:  # the tool_result is missing: positions count the thread
        run(create(client, messages=[{"role": "user", "content": "what now?"}], thread=cont))
    assert info.value.api_message.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks")
    assert run(create(client, messages=[_answer(first)], thread=cont)).stop_reason == "tool_use"


def test_a_request_without_thread_holds_nothing():
    client = make_client()
    run(client.messages.create(model=MODEL, max_tokens=100, messages=[{"role": "user", "content": LESSON}]))
    assert len(offline_api(client).threads) == 0


def test_a_paused_turn_resumes_from_an_empty_continue():
    client = offline_client(scenario="pause-turn", strict=True)
    messages = run(run_async(client))
    assert messages[0].stop_reason == "pause_turn" and messages[-1].stop_reason == "end_turn"
    log = offline_api(client).log
    assert thread_of(log[1]) == "continue" and log[1]["messages"] == []  # the API holds the paused turn
