"""Property test: the offline API fails closed on ANY body.

Random JSON-ish bodies (dicts, lists, strings, numbers, nesting) and random mutations of valid requests go
straight to the transport. Whatever comes in, it never raises, answers 200 (a message) or 4xx with the
API's error JSON, and never needs its last-resort guard: every malformed shape is caught by validation.

Hostile tasks: the shapes that once made the task parser backtrack for minutes (long runs of spaces or
commas between two paths, after "write", after an e-mail address; thousands of paths with no verb) are
parsed as the rules say, and each within a deadline that only a runaway pattern misses (the time itself
is measured by benchmarks/bench_parse.py).
"""

import json
import signal
import threading
from contextlib import contextmanager

import httpx2
from hypothesis import HealthCheck, given, settings
import pytest
from hypothesis import strategies as st

from harness_lib.client import MODEL
from harness_kit.offline import OfflineMessagesAPI
from harness_kit.offline.parse import READ_LIMIT, parse_steps
from offline_support import LESSON, TOOLS, no_network  # noqa: F401 (no_network: autouse fixture)

FIELDS = ["model", "max_tokens", "messages", "tools", "system", "tool_choice", "stop_sequences", "metadata",
          "cache_control", "thinking", "stream", "temperature", "role", "content", "type", "text", "id", "name",
          "input", "tool_use_id", "is_error", "input_schema", "thread", "previous_message_id", "source"]
SCALARS = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
           | st.sampled_from(["user", "assistant", "text", "tool_use", "tool_result", "auto", "tool", "none",
                              "ephemeral", "create", "continue", "object", MODEL, "", "README.md"]))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), inner, max_size=4),
                    max_leaves=20)

VALID = [
    {"model": MODEL, "max_tokens": 200, "tools": TOOLS, "messages": [{"role": "user", "content": LESSON}]},
    {"model": MODEL, "max_tokens": 300, "tools": TOOLS, "system": [{"type": "text", "text": "Be brief."}],
     "stop_sequences": ["ZZZ"], "tool_choice": {"type": "auto"}, "metadata": {"user_id": "u"},
     "messages": [
         {"role": "user", "content": [{"type": "text", "text": LESSON, "cache_control": {"type": "ephemeral"}}]},
         {"role": "assistant", "content": [{"type": "text", "text": "I'll use read_file."},
                                           {"type": "tool_use", "id": "toolu_A", "name": "read_file",
                                            "input": {"path": "README.md"}}]},
         {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A",
                                       "content": [{"type": "text", "text": "# Agent harness fundamentals"}]}]},
     ]},
]


def post(api, body, path="/v1/messages", beta=None):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"content-type": "application/json", **({"anthropic-beta": beta} if beta else {})}
    return api.handle_request(httpx2.Request("POST", "https://offline.invalid" + path, content=raw, headers=headers))


def check(response, *, valid=False):
    data = json.loads(response.content)
    if valid:
        assert response.status_code == 200, data
    if response.status_code == 200:
        assert data.get("type") == "message" or set(data) == {"input_tokens"}
        return
    assert 400 <= response.status_code < 500 and response.status_code != 429, (response.status_code, data)
    assert response.headers["x-should-retry"] == "false"
    assert set(data) == {"type", "error", "request_id"} and data["type"] == "error"
    assert data["request_id"].startswith("req_") and isinstance(data["error"]["message"], str)
    assert data["error"]["type"] in ("invalid_request_error", "not_found_error")
    assert "could not handle this request" not in data["error"]["message"], data  # validation caught it, not the guard


def paths(value, prefix=()):
    """Every place inside ``value`` that a mutation may replace (or delete, for a dict key)."""
    yield prefix
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from paths(child, prefix + (key,))


def mutate(body, where, replacement, delete):
    body = json.loads(json.dumps(body))
    if not where:
        return replacement
    parent = body
    for key in where[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = replacement
    return body


SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def test_the_valid_bases_are_answered():
    api = OfflineMessagesAPI()
    for body in VALID:
        check(post(api, body), valid=True)
        check(post(api, body, "/v1/messages/count_tokens"), valid=True)


@SETTINGS
@given(body=JSON)
def test_any_json_gets_a_4xx_error_or_a_message(body):
    api = OfflineMessagesAPI()
    check(post(api, body))
    check(post(api, body, "/v1/messages/count_tokens"))


@SETTINGS
@given(data=st.data())
def test_any_mutation_of_a_valid_request_is_answered_or_refused_cleanly(data):
    base = data.draw(st.sampled_from(VALID))
    where = data.draw(st.sampled_from(list(paths(base))))
    body = mutate(base, where, data.draw(JSON), data.draw(st.booleans()))
    api = OfflineMessagesAPI(data.draw(st.sampled_from(["demo", "never-ends", "token-hog", "max-tokens"])))
    check(post(api, body))
    # the same body as a threaded create, and then continued from whatever it answered
    threaded = post(api, {**body, "thread": {"type": "create"}} if isinstance(body, dict) else body,
                    beta="message-threads-2026-08-12")
    check(threaded)
    if threaded.status_code == 200:
        reply = json.loads(threaded.content)
        follow = data.draw(JSON)
        check(post(api, {"model": MODEL, "max_tokens": 100, "messages": follow if isinstance(follow, list) else [],
                         "thread": {"type": "continue", "previous_message_id": reply["id"]}},
                   beta="message-threads-2026-08-12"))


@SETTINGS
@given(raw=st.binary(max_size=40) | st.builds(lambda n: b"[" * n + b"]" * n, st.integers(0, 3000)))
def test_any_bytes_get_a_4xx_error_or_a_message(raw):
    check(post(OfflineMessagesAPI(), raw))


# ---- hostile tasks ------------------------------------------------------------------------------------------

N = 10_000  # characters of padding: the old patterns needed minutes to hours for each of these
HOSTILE = {  # task -> the steps it asks for, as (kind, path, content)
    "read a.txt" + " " * N + "b.txt": [("read", "a.txt", None), ("read", "b.txt", None)],
    "read a.txt" + "," * N + "b.txt": [("read", "a.txt", None), ("read", "b.txt", None)],
    "read a.txt" + " ," * (N // 2) + "x b.txt": [("read", "a.txt", None), ("unclear", "b.txt", None)],
    "read a.txt" + " " * N + "x b.txt": [("read", "a.txt", None), ("unclear", "b.txt", None)],
    "write" + " " * N + "x scratch/a.txt": [("write", "scratch/a.txt", None)],  # no "to": writes what came before
    "write" + " " * N + "to x scratch/a.txt": [("write", "scratch/a.txt", None)],
    "write hello" + " " * N + "to scratch/a.txt": [("write", "scratch/a.txt", "hello")],
    "escribe" + "," * N + "x scratch/a.txt": [("write", "scratch/a.txt", None)],
    "email bob@example.com" + " " * N: [],
    "email bob@example.com that" + " " * N: [],
    "email bob@example.com that hi" + " " * N + "x": [("email", None, "hi" + " " * N + "x")],
    "email it" + " " * N + "to bob@example.com": [("email", None, None)],  # (what the step before returned)
    "envíalo" + " " * N + "x": [],
    "x " + "a.txt " * (N // 6): [("unclear", "a.txt", None)],  # thousands of paths, no verb: each character is
    '"a.txt" ' * (N // 8): [("unclear", "a.txt", None)],  # searched once, and a file no step uses is said once
    "read a.txt" + " x b.txt" * (N // 8): [("read", "a.txt", None), ("unclear", "b.txt", None)],
    "x " + " ".join(f"a{i}.txt" for i in range(N // 8)): [("unclear", f"a{i}.txt", None) for i in range(3)],
}


@contextmanager
def deadline(seconds: float, what: str):
    """Fail (instead of hanging) when the block runs longer than `seconds`: Python's re module checks for
    signals while it matches, so a runaway pattern is stopped. Without SIGALRM (Windows), or outside the main
    thread (where signals cannot be handled), the block just runs."""
    if not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def too_long(*_):
        raise AssertionError(f"{what} still running after {seconds} s: a pattern backtracks")
    old = signal.signal(signal.SIGALRM, too_long)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.mark.parametrize("task", list(HOSTILE), ids=lambda task: f"{task[:12]!r}…{len(task)}")
def test_a_hostile_task_is_parsed_by_the_rules_in_one_pass(task):
    with deadline(3, f"parse_steps of a {len(task)}-character task"):  # ~10 ms now; minutes before
        steps = parse_steps(task)
    kinds = [(s.kind, s.path, s.content if s.kind == "email" else s.content) for s in steps]
    assert kinds == HOSTILE[task]
    assert all(s.refers_back for s in steps if s.kind == "write" and s.content is None)


def test_only_the_first_read_limit_characters_are_read():
    assert [s.path for s in parse_steps("read a.txt " + " " * (READ_LIMIT - 30) + " and b.txt")] == ["a.txt", "b.txt"]
    assert [s.path for s in parse_steps("read a.txt " + " " * READ_LIMIT + " and b.txt")] == ["a.txt"]
    assert [s.path for s in parse_steps("read a.txt and " + " " * (READ_LIMIT - 20) + "bbbbbbbbbb.txt")] == ["a.txt"]
    with deadline(3, "parse_steps of a 1 MB task"):
        assert parse_steps("write" + " " * 1_000_000 + "x scratch/a.txt") == []


def test_a_hostile_task_gets_an_answer_from_the_api():
    api = OfflineMessagesAPI()
    for task in HOSTILE:
        body = {"model": MODEL, "max_tokens": 200, "tools": TOOLS, "messages": [{"role": "user", "content": task}]}
        with deadline(3, "the offline API on a hostile task"):
            check(post(api, body), valid=True)
