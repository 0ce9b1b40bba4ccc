"""``OfflineMessagesAPI``: the Messages API as an httpx2 transport, so the real SDK talks to it.

    client = anthropic.AsyncAnthropic(api_key="offline", base_url="https://offline.invalid",
                                      http_client=httpx2.AsyncClient(transport=OfflineMessagesAPI("demo")))

The SDK builds its real HTTP request; instead of a socket, httpx2 hands it to the transport — an
``httpx2.MockTransport`` whose handler is :meth:`OfflineMessagesAPI.answer` — which answers with a real HTTP
response (the same for ``httpx2.AsyncClient`` and ``httpx2.Client``). So
``await client.messages.create(...)`` returns a real ``anthropic.types.Message``, a broken request
raises the real ``anthropic.BadRequestError``, and the SDK's retries run for real.

Routes: ``POST /v1/messages`` (create), ``POST /v1/messages/count_tokens``; anything else → 404.
Each create goes: count it and log it → over ``max_requests``? (400) → a ``thread``?
(resolve it, :mod:`.threads`) → validate (400) → model known? (404) → the scenario plans a reply →
``max_tokens``/``stop_sequences`` are applied → usage is estimated (→ a thread holds the conversation).

Fail closed: every request the offline API cannot answer gets the live API's JSON error, never a Python
exception inside the transport (the SDK would take that for a dropped connection and retry). A body that
is not JSON, or is nested too deeply, gets 400 "There was an error parsing the body of your request…";
a body that breaks a rule gets :mod:`.validation`'s 400; and, as a last resort, anything unexpected
while handling a request becomes a 400 ``invalid_request_error`` naming the exception (a 400, so the
SDK does not retry it) — that would be a bug of the offline model, and the message says so.

Run limit, ``max_requests=N``: past N ``POST /v1/messages`` (SDK retries included) every further
one gets a 400 ``invalid_request_error`` "offline run limit reached: …", which the SDK does not retry,
so a grader can bound a loop that does not stop without patching anything. The refused requests are
logged too.

Message threads (``thread: {"type": "create" | "continue"}``, beta): see :mod:`.threads`.

NOT modelled: streaming (``stream: true`` gets a 400 saying so), the Batches/Models/Files APIs,
authentication, rate limits, overload and other server errors, latency.
"""

from __future__ import annotations

import json
import random
import string

import httpx2

from .planner import read_conversation
from .scenarios import GAUNTLET, SCENARIOS, respond
from .threads import Threads
from .tokens import apply_limits, count_input_tokens, split_usage
from .validation import APIError, check_model, validate_request

__all__ = ["OfflineMessagesAPI"]

_ALPHABET = string.ascii_letters + string.digits
_UNPARSEABLE = "There was an error parsing the body of your request: {why}."


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")  # NaN, Infinity: Python's json accepts them, JSON does not


def parse_body(content: bytes):
    """(the JSON body, None) or (None, why it could not be parsed)."""
    try:
        return json.loads(content or b"null", parse_constant=_reject_constant), None
    except RecursionError:
        return None, "it is nested too deeply"
    except ValueError:  # includes UnicodeDecodeError
        return None, "invalid JSON"


class OfflineMessagesAPI(httpx2.MockTransport):
    """A deterministic Messages API behind the SDK. See the module docstring.

    Attributes:
        scenario: the behaviour (a key of ``SCENARIOS``, the lessons', or of ``GAUNTLET``, exercise 5's).
        max_requests: None (no limit), or how many ``POST /v1/messages`` are answered before the run
            limit refuses every further one (see the module docstring).
        threads: the conversations held for message threads (:class:`.threads.Threads`, at most
            ``threads.MAX_THREADS``); ``api.threads.forget()`` lets go of all of them.
        log: the JSON bodies of every ``POST /v1/messages`` received, in order (retries and failed
            requests included) — ``len(api.log)`` is the number of model requests. A threaded
            ``continue`` is logged as sent: only its new messages.
        count_tokens_log: the bodies of ``POST /v1/messages/count_tokens`` requests.
        replies: ``{n: response body}`` for every ``POST /v1/messages`` answered with a message, n its 1-based
            place in ``log`` (with ``log``, a run drawn without instrumenting the loop: harness_ui.replay).
    """

    def __init__(self, scenario: str = "demo", *, max_requests: int | None = None):
        if scenario not in SCENARIOS and scenario not in GAUNTLET:
            raise ValueError(f"unknown scenario {scenario!r}; valid scenarios: {', '.join([*SCENARIOS, *GAUNTLET])}")
        if max_requests is not None and (not isinstance(max_requests, int) or isinstance(max_requests, bool)
                                         or max_requests < 0):
            raise ValueError(f"max_requests must be None or an integer >= 0, got {max_requests!r}")
        super().__init__(self.answer)  # httpx2 reads the body, then calls answer(request) instead of a socket
        self.scenario = scenario
        self.max_requests = max_requests
        self.threads = Threads()
        self.log: list = []
        self.count_tokens_log: list = []
        self.replies: dict[int, dict] = {}
        self._cache: set[str] = set()  # fingerprints of cached prompt prefixes (see tokens.split_usage)
        self._ids = random.Random(f"offline-messages-api/{scenario}")  # deterministic ids per transport

    def __repr__(self) -> str:
        limit = f", max_requests={self.max_requests}" if self.max_requests is not None else ""
        return f"OfflineMessagesAPI(scenario={self.scenario!r}, {limit}, requests={len(self.log)})"

    # ---- routing ----------------------------------------------------------------------------------

    def _id(self, prefix: str) -> str:
        return prefix + "01" + "".join(self._ids.choices(_ALPHABET, k=22))

    def _json(self, status: int, payload: dict, headers: dict | None = None) -> httpx2.Response:
        base = {"content-type": "application/json", "request-id": payload.get("request_id") or self._id("req_")}
        return httpx2.Response(status, headers={**base, **(headers or {})}, content=json.dumps(payload).encode())

    def _error(self, status: int, error_type: str, message: str, details: dict | None = None) -> httpx2.Response:
        request_id = self._id("req_")
        error = {"type": error_type, "message": message, **({"details": details} if details else {})}
        body = {"type": "error", "error": error, "request_id": request_id}
        retry = {"x-should-retry": "false"} if 400 <= status < 500 and status != 429 else {}
        return self._json(status, body, retry)

    def answer(self, request: httpx2.Request) -> httpx2.Response:
        """The HTTP response to one request (its body already read). See the module docstring for the route."""
        path = request.url.path
        if request.method != "POST" or path not in ("/v1/messages", "/v1/messages/count_tokens"):
            return self._error(404, "not_found_error", "Not Found")
        body, unparseable = parse_body(request.content)
        if path == "/v1/messages":
            self.log.append(body)
            if self.max_requests is not None and len(self.log) > self.max_requests:
                return self._error(400, "invalid_request_error", (
                    f"offline run limit reached: more than {self.max_requests} requests "
                    f"(max_requests={self.max_requests}) — the loop is not stopping"))
        else:
            self.count_tokens_log.append(body)
        if unparseable:
            return self._error(400, "invalid_request_error", _UNPARSEABLE.format(why=unparseable))
        try:
            return self._reply(path, body, request.headers.get("anthropic-beta", ""))
        except APIError as err:
            return self._error(err.status, err.error_type, err.message, details=getattr(err, "details", None))
        except Exception as err:  # the last resort: a bug here must not look like a dropped connection
            return self._error(400, "invalid_request_error", (
                f"The offline API could not handle this request ({type(err).__name__}: {err}). "
                "This is a gap in the offline model's request checks; the live API may answer it differently."))

    def _reply(self, path: str, body, beta_header: str) -> httpx2.Response:
        count_tokens = path.endswith("count_tokens")
        threaded = not count_tokens and isinstance(body, dict) and body.get("thread") is not None
        continued = None
        if threaded:
            body, continued = self.threads.resolve(body, beta_header)
        validate_request(body, count_tokens=count_tokens)
        check_model(body["model"])
        if count_tokens:
            return self._json(200, {"input_tokens": count_input_tokens(body)})
        response = self.create(body)
        self.replies[len(self.log)] = response
        if threaded:
            self.threads.hold(body, response, continued)
        return self._json(200, response)

    # ---- POST /v1/messages ------------------------------------------------------------------------

    def create(self, body: dict) -> dict:
        """The response body for a valid create request."""
        reply = respond(self.scenario, read_conversation(body))
        content, stop_reason, stop_sequence, output_tokens = apply_limits(
            reply.content, reply.stop_reason, body["max_tokens"], body.get("stop_sequences")
        )
        content = [  # a tool_use gets its id here, in the API's key order: {type, id, name, input}
            {"type": "tool_use", "id": self._id("toolu_"), "name": b["name"], "input": b["input"]}
            if b["type"] == "tool_use" else b for b in content
        ]
        input_tokens, cache_creation, cache_read = split_usage(body, self._cache)
        return {
            "id": self._id("msg_"),
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": content,
            "stop_reason": stop_reason,
            "stop_sequence": stop_sequence,
            "stop_details": reply.stop_details if stop_reason == reply.stop_reason else None,
            "usage": {
                "input_tokens": input_tokens,
                "output_tokens": output_tokens,
                "cache_creation_input_tokens": cache_creation,
                "cache_read_input_tokens": cache_read,
            },
        }
