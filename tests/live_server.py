"""The kit's offline Messages API served over real HTTP on 127.0.0.1, so tests can run the kit in LIVE mode.

    with serve_messages_api() as server:            # scenario "demo", a free port, a background thread
        env = live_env(server.url)                   # ANTHROPIC_API_KEY=dummy, ANTHROPIC_BASE_URL=server.url
        subprocess.run([sys.executable, "-m", "harness_lib"], env=env)

In live mode ``make_client()`` returns a plain ``anthropic.AsyncAnthropic()``: the SDK reads the key and
``ANTHROPIC_BASE_URL`` from the environment and opens real sockets. This server answers them with the
kit's own :class:`harness_kit.offline.OfflineMessagesAPI` (its sync ``handle_request``), so nothing is
re-implemented: only the HTTP framing and two things the offline transport leaves out on purpose:

- authentication: a request with no credential gets the live API's 401 ``authentication_error``. A
  credential is an ``x-api-key`` header (the API's documented header) or ``Authorization: Bearer ...``
  (how the installed SDK sends ``ANTHROPIC_API_KEY``); any value is accepted, there is no real key to check;
- a rate-limit storm (``storm=True``): every request is answered ``429 rate_limit_error`` with
  ``retry-after: 1`` (seconds, as the live API sends it) and ``retry-after-ms`` (which the SDK prefers, so its
  retries wait milliseconds instead of a second) — what a class of 60 pressing Run All at once may see.

One live model serves every client, like the real API: all clients see the server's one scenario,
whatever ``make_client(scenario=...)`` asked for (live, the scenario argument is ignored).

NOT modelled: TLS, streaming, real rate-limit accounting, latency, keys that are present but invalid.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx2

from harness_kit.offline import OfflineMessagesAPI

__all__ = ["MessagesAPIServer", "serve_messages_api", "live_env", "DUMMY_KEY"]

DUMMY_KEY = "dummy-key-for-the-local-test-server"  # not shaped like a real key on purpose
STORM_RETRY_AFTER_MS = 20

# Environment variables that would change who answers or how; live_env() sets or removes each.
_CLEARED = ("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_PROFILE", "ANTHROPIC_CONFIG_DIR", "ANTHROPIC_CUSTOM_HEADERS",
            "HARNESS_SCENARIO", "HARNESS_MODEL")


def live_env(url: str, base: dict | None = None, **extra: str) -> dict:
    """A copy of ``base`` (default ``os.environ``) in which the kit is live and talks to ``url``."""
    env = dict(os.environ if base is None else base)
    for name in _CLEARED:
        env.pop(name, None)
    env.update(ANTHROPIC_API_KEY=DUMMY_KEY, ANTHROPIC_BASE_URL=url, HARNESS_OFFLINE="0", **extra)
    return env


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as the SDK's connection pool expects
    timeout = 60  # an idle kept-alive connection is closed after this many seconds
    server: "MessagesAPIServer"

    def log_message(self, format, *args):  # quiet: the tests read server.requests instead
        pass

    def do_GET(self):
        self._answer()

    def do_POST(self):
        self._answer()

    def _answer(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        self.server.record(self.command, self.path, headers)
        if not (headers.get("x-api-key") or headers.get("authorization", "").startswith("Bearer ")):
            return self._send_error(401, "authentication_error", "x-api-key header is required",
                                    {"x-should-retry": "false"})
        if self.server.storm:
            return self._send_error(429, "rate_limit_error",
                                    "Number of request tokens has exceeded your per-minute rate limit (local test storm).",
                                    {"retry-after": "1", "retry-after-ms": str(STORM_RETRY_AFTER_MS)})
        request = httpx2.Request(self.command, f"http://{headers.get('host', '127.0.0.1')}{self.path}",
                                 headers=headers, content=body)
        with self.server.lock:  # one offline model, asked by many threads: one request at a time
            response = self.server.api.handle_request(request)
        self._send(response.status_code, dict(response.headers), response.content)

    def _send_error(self, status: int, error_type: str, message: str, headers: dict):
        body = {"type": "error", "error": {"type": error_type, "message": message}, "request_id": "req_local"}
        self._send(status, {"content-type": "application/json", "request-id": "req_local", **headers},
                   json.dumps(body).encode())

    def _send(self, status: int, headers: dict, content: bytes):
        self.send_response(status)
        for name, value in headers.items():
            if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                self.send_header(name, value)
        self.send_header("content-length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)


class MessagesAPIServer(ThreadingHTTPServer):
    """An HTTP server on 127.0.0.1 answering with one :class:`OfflineMessagesAPI`.

    Attributes: ``url`` (``http://127.0.0.1:<port>``), ``api`` (the offline API; ``api.log`` holds every
    ``POST /v1/messages`` body it saw), ``requests`` (``(method, path, headers)`` of every HTTP request,
    rejected ones included), ``storm``.
    """

    daemon_threads = True

    def __init__(self, scenario: str = "demo", *, storm: bool = False):
        super().__init__(("127.0.0.1", 0), _Handler)  # port 0: the OS picks a free port
        self.api = OfflineMessagesAPI(scenario)
        self.storm = storm
        self.lock = threading.Lock()
        self.requests: list[tuple[str, str, dict]] = []
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    def record(self, method: str, path: str, headers: dict) -> None:
        with self.lock:
            self.requests.append((method, path, headers))

    def __repr__(self) -> str:
        return f"MessagesAPIServer({self.url}, scenario={self.api.scenario!r}, storm={self.storm})"


@contextlib.contextmanager
def serve_messages_api(scenario: str = "demo", *, storm: bool = False):
    """Start a :class:`MessagesAPIServer` in a background thread; stop it and free its port on exit."""
    server = MessagesAPIServer(scenario, storm=storm)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},  # quick to stop
                              name=f"messages-api {server.url}", daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
