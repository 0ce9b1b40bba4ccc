"""The offline Messages API, driven through the real anthropic SDK (strict response validation on).

Transport, validation, token accounting, caching, fault injection and make_client(). The planner
and the scenarios are in test_offline_model.py. No socket may be opened: see `no_network`.
"""

import asyncio
import json
import socket

import anthropic
import httpx2
import pytest

from harness_lib.client import MODEL, is_live, make_client, offline_api
from harness_kit.offline import GAUNTLET, SCENARIOS, OfflineMessagesAPI, count_input_tokens
from offline_support import LESSON, TOOLS, FaultyMessagesAPI, no_network, offline_client  # noqa: F401 (no_network: autouse fixture)

def run(coro):
    return asyncio.run(coro)


def make_tools(files=None, now="2026-08-26T10:42:07+02:00"):
    """Inline tool functions: name -> f(input) -> (content, is_error)."""
    files = {"README.md": "# Agent harness fundamentals\n\nThe sandbox.\n"} if files is None else files

    def read_file(inp):
        return (files[inp["path"]], False) if inp["path"] in files else (f"file not found: {inp['path']}", True)

    return {"get_time": lambda inp: (now, False), "read_file": read_file,
            "write_file": lambda inp: (f"wrote {len(inp['content'])} characters to {inp['path']}", False),
            "delete_file": lambda inp: (f"deleted {inp['path']}", False)}


async def drive(client, text, impls=None, *, tools=TOOLS, max_requests=10, **kwargs):
    """A minimal stop_reason loop: returns (responses, messages)."""
    impls = impls or make_tools()
    messages = [{"role": "user", "content": text}]
    responses = []
    while len(responses) < max_requests:
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages, **kwargs)
        responses.append(response)
        if response.stop_reason != "tool_use":
            break
        messages.append({"role": "assistant", "content": response.content})
        results = []
        for block in response.content:
            if block.type == "tool_use":
                content, is_error = impls[block.name](block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": content, "is_error": is_error})
        messages.append({"role": "user", "content": results})
    return responses, messages


def create(client, **body):
    body.setdefault("model", MODEL)
    body.setdefault("max_tokens", 256)
    return run(client.messages.create(**body))


def bad_request(body: dict, *, status=400, error=anthropic.BadRequestError):
    """POST a raw body through the SDK's own request method; return the SDK's exception."""
    client = offline_client(strict=True, max_retries=0)
    with pytest.raises(error) as info:
        run(client.post("/v1/messages", cast_to=anthropic.types.Message, body=body))
    err = info.value
    assert err.status_code == status
    assert err.response.headers["x-should-retry"] == "false"
    assert err.request_id and err.request_id.startswith("req_")
    assert err.body["type"] == "error" and err.body["request_id"] == err.request_id
    return err


# ---- the lesson run and the response shape ----------------------------------------------------------

def test_lesson_run_two_tool_turns_three_requests():
    client = offline_client(strict=True)
    responses, _ = run(drive(client, LESSON))
    assert [r.stop_reason for r in responses] == ["tool_use", "tool_use", "end_turn"]
    assert len(offline_api(client).log) == 3
    calls = [(b.name, b.input) for r in responses for b in r.content if b.type == "tool_use"]
    assert calls == [("read_file", {"path": "README.md"}), ("get_time", {})]
    assert all(isinstance(r, anthropic.types.Message) for r in responses)
    final = responses[-1]
    assert [b.type for b in final.content] == ["text"]
    assert final.content[0].text == ('The first line of README.md is "# Agent harness fundamentals", '
                                     "and it is 10:42 on 2026-08-26.")


def test_response_json_has_exactly_the_api_shape():
    client = offline_client(strict=True)
    raw = run(client.messages.with_raw_response.create(
        model=MODEL, max_tokens=256, tools=TOOLS, messages=[{"role": "user", "content": LESSON}]))
    data = json.loads(raw.http_response.content)
    assert list(data) == ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence",
                          "stop_details", "usage"]
    assert data["id"].startswith("msg_") and len(data["id"]) == 28
    assert (data["type"], data["role"], data["model"]) == ("message", "assistant", MODEL)
    assert (data["stop_reason"], data["stop_sequence"], data["stop_details"]) == ("tool_use", None, None)
    block = data["content"][-1]  # a turn may open with a short text block; the call comes last
    assert all(b["type"] == "text" for b in data["content"][:-1])
    assert list(block) == ["type", "id", "name", "input"] and block["id"].startswith("toolu_")
    assert list(data["usage"]) == ["input_tokens", "output_tokens", "cache_creation_input_tokens",
                                   "cache_read_input_tokens"]
    assert raw.http_response.headers["request-id"].startswith("req_")


def test_the_answer_quotes_what_the_tools_actually_returned():
    first = run(drive(offline_client(strict=True), LESSON))[0][-1].content[0].text
    tools = make_tools({"README.md": "Totally different heading\nline 2"}, now="2031-01-05T07:09:00Z")
    second = run(drive(offline_client(strict=True), LESSON, tools))[0][-1].content[0].text
    assert '"# Agent harness fundamentals"' in first and "10:42 on 2026-08-26" in first
    assert second == ('The first line of README.md is "Totally different heading", '
                      "and it is 07:09 on 2031-01-05.")


def test_tool_result_content_may_be_a_list_of_text_blocks():
    client = offline_client(strict=True)
    plain = make_tools()
    impls = {name: (lambda f: lambda inp: ([{"type": "text", "text": f(inp)[0]}], f(inp)[1]))(f) for name, f in plain.items()}
    responses, _ = run(drive(client, LESSON, impls))
    assert '"# Agent harness fundamentals"' in responses[-1].content[0].text


def test_offline_opens_no_socket_and_the_guard_is_real():
    with pytest.raises(AssertionError, match="socket"):
        socket.create_connection(("offline.invalid", 443))
    client = offline_client(strict=True)
    responses, _ = run(drive(client, LESSON))  # would fail if the SDK tried to connect
    assert responses[-1].stop_reason == "end_turn"
    assert client.api_key == "offline" and str(client.base_url).startswith("https://offline.invalid")


def test_ids_are_deterministic_per_transport():
    a = run(drive(make_client(), LESSON))[0]
    b = run(drive(make_client(), LESSON))[0]
    assert [r.id for r in a] == [r.id for r in b]
    assert len({r.id for r in a}) == 3


def test_system_may_be_a_string_or_blocks():
    client = offline_client(strict=True)
    for system in ("You are terse.", [{"type": "text", "text": "You are terse."}]):
        response = create(client, system=system, tools=TOOLS, messages=[{"role": "user", "content": LESSON}])
        assert response.content[-1].name == "read_file"


def test_sync_client_works_too():
    client = anthropic.Anthropic(api_key="offline", base_url="https://offline.invalid",
                                 http_client=httpx2.Client(transport=OfflineMessagesAPI()))
    response = client.messages.create(model=MODEL, max_tokens=100, tools=TOOLS, messages=[{"role": "user", "content": LESSON}])
    assert response.stop_reason == "tool_use"


# ---- validation: the live API's rules and texts --------------------------------------------------------

USER = {"role": "user", "content": "hi"}


@pytest.mark.parametrize("missing", ["model", "max_tokens", "messages"])
def test_missing_required_field(missing):
    body = {"model": MODEL, "max_tokens": 10, "messages": [USER]}
    del body[missing]
    err = bad_request(body)
    assert err.body["error"] == {"type": "invalid_request_error", "message": f"{missing}: Field required"}
    assert err.api_message == f"{missing}: Field required"


def test_max_tokens_below_one():
    err = bad_request({"model": MODEL, "max_tokens": 0, "messages": [USER]})
    assert err.api_message == "max_tokens: Input should be greater than or equal to 1"


def test_first_message_must_be_from_the_user():
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": [{"role": "assistant", "content": "hi"}]})
    assert err.api_message == 'messages: first message must use the "user" role'


@pytest.mark.parametrize("content", ["", [{"type": "text", "text": ""}]])
def test_text_must_be_non_empty(content):
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": content}]})
    assert err.api_message == "messages: text content blocks must be non-empty"


def test_role_must_be_user_or_assistant():
    messages = [USER, {"role": "system", "content": "be nice"}]
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": messages})
    assert err.api_message == "messages.1.role: Input should be 'user' or 'assistant'"


def test_tool_name_pattern():
    tools = [TOOLS[0], {"name": "read file", "input_schema": {"type": "object"}}]
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": [USER], "tools": tools})
    assert err.api_message == "tools.1.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"


@pytest.mark.parametrize("schema", ["object", {"type": "string"}, {"properties": {}},
                                    {"type": "object", "properties": 5}, {"type": "object", "required": "path"}])
def test_input_schema_must_be_a_json_schema_object(schema):
    tools = [{"name": "t", "input_schema": schema}]
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": [USER], "tools": tools})
    assert err.api_message == ("tools.0.custom.input_schema: JSON schema is invalid. It must match JSON Schema "
                               "draft 2020-12 (https://json-schema.org/draft/2020-12).")


def _tool_use(*ids):
    return {"role": "assistant", "content": [{"type": "tool_use", "id": i, "name": "get_time", "input": {}} for i in ids]}


def _result(i, content="ok"):
    return {"type": "tool_result", "tool_use_id": i, "content": content}


def test_tool_use_without_tool_result():
    messages = [USER, _tool_use("toolu_A", "toolu_B"), {"role": "user", "content": "go on"}]
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": messages, "tools": TOOLS})
    assert err.api_message == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A, toolu_B. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.")


def test_one_of_two_tool_results_missing():
    messages = [USER, _tool_use("toolu_A", "toolu_B"), {"role": "user", "content": [_result("toolu_A")]}]
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": messages, "tools": TOOLS})
    assert err.api_message.startswith("messages.1: `tool_use` ids were found without `tool_result` blocks "
                                      "immediately after: toolu_B. ")


def test_tool_results_must_come_first():
    late = {"role": "user", "content": [{"type": "text", "text": "here you go"}, _result("toolu_A")]}
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": [USER, _tool_use("toolu_A"), late], "tools": TOOLS})
    assert err.api_message == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_A. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message.")


def test_unexpected_tool_use_id():
    answer = {"role": "user", "content": [_result("toolu_A"), _result("toolu_ZZZ")]}
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": [USER, _tool_use("toolu_A"), answer], "tools": TOOLS})
    assert err.api_message == (
        "messages.2.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_ZZZ. "
        "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.")


def test_tool_result_in_the_first_message_is_unexpected():
    err = bad_request({"model": MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": [_result("toolu_X")]}]})
    assert err.api_message.startswith("messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_X.")


def test_a_trailing_assistant_tool_use_is_prefill_not_an_error():
    client = offline_client(strict=True)
    response = create(client, tools=TOOLS, messages=[{"role": "user", "content": LESSON}, _tool_use("toolu_A")])
    assert response.stop_reason == "tool_use"


def test_unknown_model_is_404_not_found():
    err = bad_request({"model": "claude-3-opus-20240229", "max_tokens": 10, "messages": [USER]},
                      status=404, error=anthropic.NotFoundError)
    assert err.body["error"] == {"type": "not_found_error", "message": "model: claude-3-opus-20240229"}


def test_harness_model_is_a_known_model(monkeypatch):
    monkeypatch.setenv("HARNESS_MODEL", "my-proxy-model")
    response = create(offline_client(strict=True), model="my-proxy-model", messages=[USER])
    assert response.model == "my-proxy-model"


def test_streaming_is_refused_with_a_clear_message():
    client = make_client().with_options(max_retries=0)
    with pytest.raises(anthropic.BadRequestError) as info:
        run(client.messages.create(model=MODEL, max_tokens=10, messages=[USER], stream=True))
    assert "does not stream" in info.value.api_message


def test_other_paths_are_404():
    client = make_client().with_options(max_retries=0)
    with pytest.raises(anthropic.NotFoundError) as info:
        run(client.models.retrieve(MODEL))
    assert info.value.body["error"]["type"] == "not_found_error"


# ---- tokens ---------------------------------------------------------------------------------------------

def test_count_tokens_agrees_with_usage_and_input_grows_with_history():
    client = offline_client(strict=True)
    responses, messages = run(drive(client, LESSON))
    inputs = [r.usage.input_tokens for r in responses]
    assert inputs == sorted(inputs) and len(set(inputs)) == 3
    counted = run(client.messages.count_tokens(model=MODEL, tools=TOOLS, messages=messages[:3]))
    assert counted.input_tokens == responses[1].usage.input_tokens
    assert all(r.usage.cache_creation_input_tokens == 0 and r.usage.cache_read_input_tokens == 0 for r in responses)
    assert all(r.usage.output_tokens >= 1 for r in responses)
    assert len(offline_api(client).count_tokens_log) == 1


def test_tools_cost_a_tool_use_system_prompt():
    plain = {"messages": [USER]}
    assert count_input_tokens({**plain, "tools": TOOLS[:1]}) > count_input_tokens(plain) + 346


def _cached_body(history):
    system = [{"type": "text", "text": "You are a careful assistant. " * 40, "cache_control": {"type": "ephemeral"}}]
    return dict(system=system, tools=TOOLS, messages=history)


def test_prompt_caching_writes_then_reads_the_prefix():
    client = offline_client(strict=True)
    body = _cached_body([{"role": "user", "content": LESSON}])
    total = count_input_tokens(body)
    first, second = create(client, **body).usage, create(client, **body).usage
    assert first.cache_creation_input_tokens > 0 and first.cache_read_input_tokens == 0
    assert second.cache_creation_input_tokens == 0 and second.cache_read_input_tokens == first.cache_creation_input_tokens
    for usage in (first, second):  # input_tokens is only what follows the breakpoint
        assert usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens == total
        assert usage.input_tokens < total - 346
    # count_tokens reports the whole prompt, and does not touch the cache
    assert run(client.messages.count_tokens(model=MODEL, **body)).input_tokens == total


def test_a_breakpoint_that_moves_forward_reads_the_old_prefix_and_writes_the_rest():
    client = offline_client(strict=True)
    turn1 = [{"role": "user", "content": [{"type": "text", "text": LESSON, "cache_control": {"type": "ephemeral"}}]}]
    u1 = create(client, tools=TOOLS, messages=turn1).usage
    turn2 = [{"role": "user", "content": [{"type": "text", "text": LESSON}]},
             {"role": "assistant", "content": "Let me think."},
             {"role": "user", "content": [{"type": "text", "text": "Go on.", "cache_control": {"type": "ephemeral"}}]}]
    u2 = create(client, tools=TOOLS, messages=turn2).usage
    assert u1.cache_creation_input_tokens == count_input_tokens({"tools": TOOLS, "messages": turn1})
    assert u2.cache_read_input_tokens == u1.cache_creation_input_tokens
    assert u2.cache_creation_input_tokens == count_input_tokens({"tools": TOOLS, "messages": turn2}) - u2.cache_read_input_tokens
    assert u2.input_tokens == 0


def test_a_new_transport_has_an_empty_cache():
    body = _cached_body([{"role": "user", "content": LESSON}])
    assert create(make_client(), **body).usage.cache_creation_input_tokens > 0
    assert create(make_client(), **body).usage.cache_read_input_tokens == 0


# ---- max_tokens and stop_sequences -----------------------------------------------------------------------

def test_text_is_cut_at_max_tokens():
    response = create(offline_client(strict=True), max_tokens=8, messages=[{"role": "user", "content": "hello"}])
    assert response.stop_reason == "max_tokens" and response.usage.output_tokens == 8
    assert 0 < len(response.content[0].text) <= 32


def test_a_tool_use_that_does_not_fit_keeps_only_the_fields_that_fit():
    text = 'write "' + "a long line of text " * 40 + '" to scratch/long.txt'
    response = create(offline_client(strict=True), max_tokens=25, tools=TOOLS, messages=[{"role": "user", "content": text}])
    assert response.stop_reason == "max_tokens"
    assert response.content[-1].type == "tool_use" and response.content[-1].input == {"path": "scratch/long.txt"}


def test_stop_sequences_cut_text_before_the_sequence():
    response = create(offline_client(strict=True), stop_sequences=["any of my tools"], tools=TOOLS,
                      messages=[{"role": "user", "content": "hello"}])
    assert response.stop_reason == "stop_sequence" and response.stop_sequence == "any of my tools"
    assert response.content[0].text == "I couldn't match your request to "


# ---- fault injection: the SDK's own retries -------------------------------------------------------------

def test_a_429_is_retried_by_the_sdk():
    client = offline_client(strict=True, faults={1: 429})
    response = create(client, messages=[USER])
    assert response.type == "message" and len(offline_api(client).log) == 2


def test_without_retries_a_429_raises_rate_limit_error():
    client = offline_client(faults={1: 429}, max_retries=0)
    with pytest.raises(anthropic.RateLimitError) as info:
        create(client, messages=[USER])
    assert info.value.body["error"]["type"] == "rate_limit_error"
    assert info.value.response.headers["retry-after-ms"] == "1"


@pytest.mark.parametrize("status, error, kind", [(500, anthropic.InternalServerError, "api_error"),
                                                 (529, anthropic.OverloadedError, "overloaded_error")])
def test_server_errors(status, error, kind):
    client = offline_client(faults={1: status, 2: status}, max_retries=1)
    with pytest.raises(error) as info:
        create(client, messages=[USER])
    assert info.value.status_code == status and info.value.body["error"]["type"] == kind
    assert len(offline_api(client).log) == 2
    assert create(client, messages=[USER]).type == "message"  # request 3 is fine


def test_a_dropped_connection_raises_api_connection_error_after_retries():
    client = offline_client(faults={1: "disconnect", 2: "disconnect"}, max_retries=1)
    with pytest.raises(anthropic.APIConnectionError):
        create(client, messages=[USER])
    assert len(offline_api(client).log) == 2


def test_bad_fault_plans_are_refused():
    with pytest.raises(ValueError):
        FaultyMessagesAPI(faults={1: 404})
    with pytest.raises(ValueError):
        FaultyMessagesAPI(faults={0: 429})


# ---- make_client --------------------------------------------------------------------------------------

def test_scenario_precedence_and_unknown_names(monkeypatch):
    assert offline_api(make_client()).scenario == "demo"
    monkeypatch.setenv("HARNESS_SCENARIO", "stuck")
    assert offline_api(make_client()).scenario == "stuck"
    assert offline_api(make_client(scenario="parallel")).scenario == "parallel"
    with pytest.raises(ValueError) as info:
        make_client(scenario="nope")
    assert all(name in str(info.value) for name in [*SCENARIOS, *GAUNTLET])
    assert len(SCENARIOS) == 12 and all(isinstance(d, str) and d for d in SCENARIOS.values())
    assert len(GAUNTLET) == 11 and all(isinstance(d, str) and d for d in GAUNTLET.values())
    assert offline_api(make_client(scenario="inbox-runaway")).scenario == "inbox-runaway"


def test_live_only_with_a_key_and_not_forced_offline(monkeypatch):
    assert not is_live()
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    assert is_live()
    live = make_client()
    with pytest.raises(TypeError):
        offline_api(live)
    monkeypatch.setenv("HARNESS_OFFLINE", "1")
    assert not is_live()
    assert isinstance(offline_api(make_client()), OfflineMessagesAPI)


def test_the_sdk_keeps_its_default_validation():
    assert make_client()._strict_response_validation is False


# ---- fail closed: every malformed body gets the API's 400, through the real SDK, never a retry ----------

def _valid_body(**changes):
    body = {"model": MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": LESSON}], "tools": TOOLS}
    body.update(changes)
    return body


def _history(block):
    """A valid turn history whose assistant message holds ``block`` (its id is toolu_A)."""
    return [{"role": "user", "content": LESSON}, {"role": "assistant", "content": [block]},
            {"role": "user", "content": [_result("toolu_A")]}]


MALFORMED = {  # the fuzz campaign's shapes, and the ones next to them: (body, the live-API-like message)
    "tool_choice a string": (_valid_body(tool_choice="auto"),
                             "tool_choice: Input should be a valid dictionary or object"),
    "tool_choice without type": (_valid_body(tool_choice={"name": "get_time"}),
                                 "tool_choice: Unable to extract tag using discriminator 'type'"),
    "stop_sequences a number": (_valid_body(stop_sequences=5), "stop_sequences: Input should be a valid list"),
    "a stop sequence a number": (_valid_body(stop_sequences=["END", 5]), "stop_sequences.1: Input should be a valid string"),
    "text a number": (_valid_body(messages=[{"role": "user", "content": [{"type": "text", "text": 5}]}]),
                      "messages.0.content.0.text: Input should be a valid string"),
    "content a number": (_valid_body(messages=[{"role": "user", "content": 5}]),
                         "messages.0.content: Input should be a valid string or a valid list"),
    "a block a string": (_valid_body(messages=[{"role": "user", "content": ["hi"]}]),
                         "messages.0.content.0: Input should be a valid dictionary with a `type`"),
    "tool_use input a string": (
        _valid_body(messages=_history({"type": "tool_use", "id": "toolu_A", "name": "get_time", "input": "{}"})),
        "messages.1.content.0.input: Input should be a valid dictionary or object"),
    "tool_use id a number": (
        _valid_body(messages=_history({"type": "tool_use", "id": 7, "name": "get_time", "input": {}})),
        "messages.1.content.0.id: Input should be a valid string"),
    "tools an object": (_valid_body(tools=TOOLS[0]), "tools: Input should be a valid list"),
    "a tool without a name": (_valid_body(tools=[{"input_schema": {"type": "object"}}]),
                              "tools.0.custom.name: Field required"),
    "a message a string": (_valid_body(messages=["hi"]), "messages.0: Input should be a valid dictionary"),
    "max_tokens a string": (_valid_body(max_tokens="10"), "max_tokens: Input should be a valid integer"),
    "max_tokens a bool": (_valid_body(max_tokens=True), "max_tokens: Input should be a valid integer"),
    "max_tokens a float": (_valid_body(max_tokens=10.5), "max_tokens: Input should be a valid integer"),
    "max_tokens too large": (_valid_body(max_tokens=10**12),
                             f"max_tokens: {10**12} > 128000, which is the maximum allowed number of output tokens for {MODEL}"),
    "system a number": (_valid_body(system=5), "system: Input should be a valid string or a valid list"),
    "a system block without text": (_valid_body(system=[{"type": "text"}]), "system.0.text: Field required"),
    "metadata a string": (_valid_body(metadata="me"), "metadata: Input should be a valid dictionary or object"),
    "metadata with another key": (_valid_body(metadata={"user": "me"}), "metadata.user: Extra inputs are not permitted"),
    "metadata.user_id a number": (_valid_body(metadata={"user_id": 5}), "metadata.user_id: Input should be a valid string"),
    "an unknown block type": (
        _valid_body(messages=[{"role": "user", "content": [{"type": "sticker", "text": "hi"}]}]),
        "messages.0.content.0: Input tag 'sticker' found using 'type' does not match any of the expected tags: "),
    "tool_result content a number": (
        _valid_body(messages=_history({"type": "tool_use", "id": "toolu_A", "name": "get_time", "input": {}})[:2]
                    + [{"role": "user", "content": [_result("toolu_A", 5)]}]),
        "messages.2.content.0.content: Input should be a valid string or a valid list"),
    "tool_result content with a tool_use block": (
        _valid_body(messages=_history({"type": "tool_use", "id": "toolu_A", "name": "get_time", "input": {}})[:2]
                    + [{"role": "user", "content": [_result("toolu_A", [{"type": "tool_use"}])]}]),
        "messages.2.content.0.content.0: Input tag 'tool_use' found using 'type' does not match any of the expected tags: "),
    "cache_control a string": (_valid_body(cache_control="yes"), "cache_control: Input should be a valid dictionary or object"),
    "cache_control of another type": (
        _valid_body(messages=[{"role": "user", "content": [{"type": "text", "text": "hi", "cache_control": {"type": "forever"}}]}]),
        "messages.0.content.0.cache_control.type: Input should be 'ephemeral'"),
    "thinking a string": (_valid_body(thinking="on"), "thinking: Input should be a valid dictionary or object"),
    "temperature a string": (_valid_body(temperature="hot"), "temperature: Input should be a valid number"),
    "stream a string": (_valid_body(stream="no"), "stream: Input should be a valid boolean"),
    "nested 200 levels deep": (_valid_body(metadata=json.loads("[" * 199 + "]" * 199)),
                               "There was an error parsing the body of your request: it is nested more than 100 levels deep."),
}


@pytest.mark.parametrize("name", MALFORMED)
def test_a_malformed_body_gets_the_api_400_once_and_is_not_retried(name):
    body, message = MALFORMED[name]
    client = offline_client(strict=True)  # the SDK's default retries are on: a 5xx or a dropped connection would be retried
    with pytest.raises(anthropic.BadRequestError) as info:
        run(client.post("/v1/messages", cast_to=anthropic.types.Message, body=body))
    err = info.value
    assert err.body["error"]["type"] == "invalid_request_error"
    assert err.api_message.startswith(message)
    assert err.response.headers["x-should-retry"] == "false"
    assert err.body["request_id"] == err.request_id
    assert len(offline_api(client).log) == 1  # exactly one request: no retry


@pytest.mark.parametrize("raw, why", [
    (b"[" * 5000 + b"]" * 5000, "it is nested too deeply"),  # json.loads itself would raise RecursionError
    (b'{"model": "m", "max_tokens": NaN, "messages": []}', "invalid JSON"),  # NaN is not JSON
    (b'{"model": "\xff"}', "invalid JSON"),  # not UTF-8
    (b'{"model": ', "invalid JSON"),
])
def test_a_body_that_is_not_json_gets_the_parse_error(raw, why):
    client = make_client()
    with pytest.raises(anthropic.BadRequestError) as info:
        run(client.post("/v1/messages", cast_to=anthropic.types.Message, content=raw,
                        options={"headers": {"content-type": "application/json"}}))
    assert info.value.api_message == f"There was an error parsing the body of your request: {why}."
    assert len(offline_api(client).log) == 1


def test_anything_unexpected_becomes_a_400_not_a_connection_error(monkeypatch):
    """The last-resort guard: a bug inside the offline model is a clear 400, not a retried 'connection error'."""
    client = make_client()
    api = offline_api(client)

    def broken(body):
        raise KeyError("surprise")
    monkeypatch.setattr(api, "create", broken)  # our own transport's method, not the SDK
    with pytest.raises(anthropic.BadRequestError) as info:
        create(client, messages=[USER])
    assert info.value.api_message.startswith("The offline API could not handle this request (KeyError: 'surprise').")
    assert len(api.log) == 1


def test_a_tool_result_text_block_list_and_prefill_still_pass():
    """The new type checks do not refuse what the SDK legitimately sends."""
    client = offline_client(strict=True)
    messages = [{"role": "user", "content": [{"type": "text", "text": LESSON, "cache_control": {"type": "ephemeral", "ttl": "1h"}}]},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_A", "name": "read_file", "input": {"path": "README.md"}}]},
                {"role": "user", "content": [_result("toolu_A", [{"type": "text", "text": "# Agent harness fundamentals"}])]}]
    response = create(client, tools=TOOLS, messages=messages, metadata={"user_id": "u-1"}, stop_sequences=["ZZZ"],
                      tool_choice={"type": "auto", "disable_parallel_tool_use": True},
                      system=[{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}])
    assert response.stop_reason == "tool_use" and any(b.type == "tool_use" and b.name == "get_time" for b in response.content)


# ---- the run limit (max_requests) ---------------------------------------------------------------------

def test_max_requests_bounds_a_loop_that_does_not_stop():
    client = make_client(scenario="never-ends", max_requests=3)
    with pytest.raises(anthropic.BadRequestError) as info:
        run(drive(client, LESSON, max_requests=50))
    assert info.value.api_message == ("offline run limit reached: more than 3 requests (max_requests=3) "
                                      "— the loop is not stopping")
    assert info.value.response.headers["x-should-retry"] == "false"
    assert len(offline_api(client).log) == 4  # three answered, the fourth refused, no retry of it


def test_max_requests_counts_retries_and_leaves_count_tokens_alone():
    client = offline_client(faults={1: 429}, max_requests=2)
    assert create(client, messages=[USER]).type == "message"  # request 1 (429) and its retry, request 2
    assert run(client.messages.count_tokens(model=MODEL, messages=[USER])).input_tokens > 0
    with pytest.raises(anthropic.BadRequestError, match="offline run limit reached"):
        create(client, messages=[USER])


def test_max_requests_must_be_a_count():
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises(ValueError):
            OfflineMessagesAPI(max_requests=bad)
    assert make_client(max_requests=0) and offline_api(make_client(max_requests=7)).max_requests == 7


# ---- importing the loop does not load the offline model ----------------------------------------------

def test_importing_the_loop_does_not_load_the_offline_model():
    import subprocess
    import sys
    code = ("import sys, harness_lib.loop, harness_lib\n"
            "loaded = sorted(m for m in sys.modules if m.startswith('harness_kit.offline'))\n"
            "print(loaded)\n"
            "from harness_lib.client import SCENARIOS\n"
            "from harness_kit.offline import SCENARIOS as again\n"
            "assert SCENARIOS is again and 'demo' in SCENARIOS\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = out.strip()
    assert "harness_kit.offline.planner" not in loaded and "harness_kit.offline.api" not in loaded
    assert loaded == "[]"


def test_one_place_checks_the_scenario_name():
    with pytest.raises(ValueError) as via_client:
        make_client(scenario="nope")
    with pytest.raises(ValueError) as via_api:
        OfflineMessagesAPI("nope")
    assert str(via_client.value) == str(via_api.value)
