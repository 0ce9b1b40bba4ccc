"""Shared by the offline API's tests: the kit's four tool schemas written out (so those tests do not depend
on harness_lib.tools), the lesson's task, the fixture that makes any socket connection fail the test, and an offline client with a fault
plan or strict validation."""

import socket

import anthropic
import httpx2
import pytest

from harness_kit.offline.api import OfflineMessagesAPI
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


def offline_client(*, scenario: str = "demo", faults: dict | None = None, strict: bool = False, max_retries: int = 2,
                   max_requests: int | None = None) -> anthropic.AsyncAnthropic:
    """An offline client as a test needs it, built here rather than by a test-only parameter of make_client: the
    offline API's fault plan (``{request number: 429 | 500 | 529 | "disconnect"}``) and the SDK's strict response
    validation (every response checked against the SDK's types). Otherwise what make_client builds offline."""
    transport = OfflineMessagesAPI(scenario, faults, max_requests=max_requests)
    return anthropic.AsyncAnthropic(api_key="offline", base_url=OFFLINE_BASE_URL, max_retries=max_retries,
                                    http_client=httpx2.AsyncClient(transport=transport),
                                    _strict_response_validation=strict)
