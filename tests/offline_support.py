"""Shared by the offline API's tests: the kit's four tool schemas written out (so those tests do not depend
on harness_lib.tools), the lesson's task, the fixture that makes any socket connection fail the test, the offline
API with a fault plan (FaultyMessagesAPI: the kit's own has none, no learner needs one), and an offline client
with a fault plan or strict validation."""

import socket

import anthropic
import httpx2
import pytest

from harness_kit.offline.api import OfflineMessagesAPI, parse_body
from harness_lib.client import OFFLINE_BASE_URL

_PATH = {"type": "string", "minLength": 1, "maxLength": 255}
TOOLS = [
    {"name": "get_time", "description": "Get the current local time (ISO 8601).",
     "input_schema": {"type": "object", "properties": {}, "additionalProperties": False}},
    {"name": "read_file", "description": "Read a text file.",
     "input_schema": {"type": "object", "properties": {"path": _PATH}, "required": ["path"], "additionalProperties": False}},
    {"name": "write_file", "description": "Write a file under scratch/.",
     "input_schema": {"type": "object", "properties": {"path": _PATH, "content": {"type": "string"}},
                      "required": ["path", "content"], "additionalProperties": False}},
    {"name": "delete_file", "description": "Delete a file under scratch/.",
     "input_schema": {"type": "object", "properties": {"path": _PATH}, "required": ["path"], "additionalProperties": False}},
]
LESSON = "Read the first line of README.md, then tell me what time it is"


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Offline means offline: any attempt to connect a socket fails the test (and no key or switch leaks in)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a socket connection was attempted")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "HARNESS_OFFLINE", "HARNESS_SCENARIO", "HARNESS_MODEL", "HARNESS_LANG"):
        monkeypatch.delenv(name, raising=False)


FAULTS = {
    429: ("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit (offline fault injection)."),
    500: ("api_error", "Internal server error (offline fault injection)."),
    529: ("overloaded_error", "Overloaded (offline fault injection)."),
    "disconnect": None,
}


class FaultyMessagesAPI(OfflineMessagesAPI):
    """The real offline API, except that the n-th ``POST /v1/messages`` it receives (1-based, SDK retries included)
    fails as the fault plan ``{n: 429 | 500 | 529 | "disconnect"}`` says: the live API's error body with
    ``retry-after-ms: 1`` (so the SDK's retry waits 1 ms instead of its 0.5–8 s backoff; it ignores 0), or a dropped
    connection (``httpx2.RemoteProtocolError``, which the SDK retries and finally raises as APIConnectionError).
    A failed request is logged like any other and counts towards ``max_requests``, whose refusal comes first."""

    def __init__(self, scenario: str = "demo", faults: dict | None = None, **options):
        faults = dict(faults or {})
        for n, kind in faults.items():
            if not isinstance(n, int) or n < 1 or kind not in FAULTS:
                raise ValueError(f"bad fault {n!r}: {kind!r}; use {{request_number >= 1: 429 | 500 | 529 | 'disconnect'}}")
        super().__init__(scenario, **options)
        self.faults = faults

    def answer(self, request: httpx2.Request) -> httpx2.Response:
        n = len(self.log) + 1  # this request's number, if it is a create
        fault = self.faults.get(n) if request.method == "POST" and request.url.path == "/v1/messages" else None
        if fault is None or (self.max_requests is not None and n > self.max_requests):
            return super().answer(request)
        self.log.append(parse_body(request.content)[0])
        if fault == "disconnect":
            raise httpx2.RemoteProtocolError("Server disconnected without sending a response.", request=request)
        error_type, message = FAULTS[fault]
        request_id = self._id("req_")
        body = {"type": "error", "error": {"type": error_type, "message": message}, "request_id": request_id}
        return self._json(fault, body, {"x-should-retry": "true", "retry-after-ms": "1"})


def offline_client(*, scenario: str = "demo", faults: dict | None = None, strict: bool = False, max_retries: int = 2,
                   max_requests: int | None = None) -> anthropic.AsyncAnthropic:
    """An offline client as a test needs it, built here rather than by a test-only parameter of make_client or of
    the offline API: a fault plan (FaultyMessagesAPI) and the SDK's strict response validation (every response
    checked against the SDK's types). Otherwise what make_client builds offline."""
    transport = FaultyMessagesAPI(scenario, faults, max_requests=max_requests)
    return anthropic.AsyncAnthropic(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=max_retries,
                                    http_client=httpx2.AsyncClient(transport=transport),
                                    _strict_response_validation=strict)
