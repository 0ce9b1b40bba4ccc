"""The model client: the real ``anthropic`` SDK, talking to live Claude or to the offline model.

    client = make_client()                        # live if ANTHROPIC_API_KEY is set, else offline "demo"
    client = make_client(scenario="never-ends")   # offline, a scenario for one lesson
    response = await client.messages.create(model=MODEL, max_tokens=1024, messages=[...], tools=TOOLS)

Offline, the SDK is exactly the same; only its HTTP transport is replaced by
:class:`harness_kit.offline.OfflineMessagesAPI`, so no socket is opened and no key is needed.

NOT handled: other providers (Bedrock, Vertex) and the synchronous client; choosing a model per call
(``MODEL`` is read from ``HARNESS_MODEL`` once, at import); live or offline is decided when a client is
made, so a client keeps talking to the side it was made for; the offline model answers only the lesson's
scenarios, it is not a general stand-in for Claude.
"""

from __future__ import annotations

import os
import sys

from typing import TYPE_CHECKING

import anthropic
import httpx2
from dotenv import dotenv_values, find_dotenv

from harness_kit import lang
from .model import MODEL  # which model to ask for (HARNESS_MODEL): here too, as the lessons import it

if TYPE_CHECKING:  # the offline package is imported only when an offline client is made (see make_client)
    from harness_kit.offline.api import OfflineMessagesAPI

__all__ = ["MODEL", "is_live", "make_client", "offline_api", "SCENARIOS"]

OFFLINE_BASE_URL = "https://offline.invalid"


def __getattr__(name: str):
    """``SCENARIOS`` (offline scenario name -> description), loaded on first use, not at import."""
    if name == "SCENARIOS":
        from harness_kit.offline.scenarios import SCENARIOS
        return SCENARIOS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_env_file() -> None:
    """Read ``ANTHROPIC_API_KEY``, and nothing else, from the first ``.env`` found upward (a key already set wins):
    no file ever switches the kit's behaviour, the approval gate above all."""
    if os.environ.get("PYTHON_DOTENV_DISABLED", "").strip().lower() in ("1", "true", "yes", "t", "y"):
        return  # (dotenv_values does not read this switch itself; load_dotenv did)
    path = find_dotenv(usecwd=True)  # usecwd: search from the current folder, not from this module's
    key = dotenv_values(path).get("ANTHROPIC_API_KEY") if path else None
    if key and "ANTHROPIC_API_KEY" not in os.environ:
        os.environ["ANTHROPIC_API_KEY"] = key


def is_live() -> bool:
    """True when ANTHROPIC_API_KEY is set and HARNESS_OFFLINE is not "1" (after reading a ``.env`` file).
    Never in a browser tab: there a key is refused, in one line (see TAB_STAYS_OFFLINE)."""
    load_env_file()
    live = bool(os.environ.get("ANTHROPIC_API_KEY")) and os.environ.get("HARNESS_OFFLINE") != "1"
    return live and not refused_in_a_tab()


# A browser tab (JupyterLite, sys.platform "emscripten") stays offline: a key typed into a web page is within reach
# of every script the page runs, and the API would be called from the page itself. Said once per kernel.
TAB_STAYS_OFFLINE = {
    "en": {"line": "offline: a browser tab never goes live (an API key is not safe in a web page); "
                   "to talk to Claude, run the kit on your computer (README, \"Go live\")"},
    "es": {"line": "sin conexión: una pestaña del navegador nunca pasa a en vivo (una clave de API no está segura "
                   "en una página web); para hablar con Claude, usa el kit en tu ordenador (README, \"En vivo\")"},
}
_refusal_said = False


def refused_in_a_tab() -> bool:
    """True in a browser tab, after printing (once) the line that says why it stays offline and where to go live."""
    global _refusal_said
    if sys.platform != "emscripten":
        return False
    if not _refusal_said:
        _refusal_said = True
        print(lang.say(TAB_STAYS_OFFLINE, "line"))
    return True


def make_client(*, scenario: str | None = None, max_retries: int = 2,
                max_requests: int | None = None) -> anthropic.AsyncAnthropic:
    """An ``anthropic.AsyncAnthropic``: live when :func:`is_live`, else backed by the offline model.

    scenario: the offline behaviour (else ``$HARNESS_SCENARIO``, else ``"demo"``); max_requests: offline, answer at
    most this many requests, then a 400 the SDK does not retry (a bound for a loop that does not stop). Both
    are ignored live; max_retries is the SDK's own.
    """
    if is_live():
        return anthropic.AsyncAnthropic(max_retries=max_retries)
    from harness_kit.offline.api import OfflineMessagesAPI  # here, not at the top: a live run never loads it

    transport = OfflineMessagesAPI(scenario or os.environ.get("HARNESS_SCENARIO") or "demo", max_requests=max_requests)
    return anthropic.AsyncAnthropic(api_key="offline",  # explicit: the SDK never looks for credentials
                                    base_url=OFFLINE_BASE_URL, max_retries=max_retries,
                                    http_client=httpx2.AsyncClient(transport=transport))


def offline_api(client: anthropic.AsyncAnthropic) -> OfflineMessagesAPI:
    """The offline transport behind ``client`` (for its ``.log`` of requests). TypeError when live."""
    from harness_kit.offline.api import OfflineMessagesAPI

    transport = getattr(getattr(client, "_client", None), "_transport", None)
    if not isinstance(transport, OfflineMessagesAPI):
        raise TypeError("this client talks to the live API; offline_api() needs a client made offline")
    return transport
