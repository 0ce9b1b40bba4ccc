"""The model client: the real `anthropic` SDK, talking to live Claude or, behind its HTTP transport, to the
offline model (harness_kit/offline/). Contract: docs/architecture.md, "client.py".

NOT handled: other providers (Bedrock, Vertex) and the synchronous client; a client keeps talking to the side
(live or offline) it was made for; the offline model answers the lessons' scenarios, it is no general stand-in.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import anthropic
import httpx2

from harness_kit.env import load_env_file, refused_in_a_tab  # the .env file's key; a browser tab
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


def is_live() -> bool:
    """True when ANTHROPIC_API_KEY is set (after reading `.env`) and HARNESS_OFFLINE is not "1"; never in a
    browser tab, where a key is not safe."""
    load_env_file()
    live = bool(os.environ.get("ANTHROPIC_API_KEY")) and os.environ.get("HARNESS_OFFLINE") != "1"
    return live and not refused_in_a_tab()


def make_client(*, scenario: str | None = None, max_requests: int | None = None) -> anthropic.AsyncAnthropic:
    """An ``anthropic.AsyncAnthropic``: live when :func:`is_live`, else backed by the offline model.

    scenario: the offline behaviour (else ``$HARNESS_SCENARIO``, else ``"demo"``); max_requests: offline, answer at
    most this many requests, then a 400 the SDK does not retry (a bound for a loop that does not stop). Both
    are ignored live. Retries are the SDK's own (2; ``client.with_options(max_retries=0)`` for none).
    """
    if is_live():
        return anthropic.AsyncAnthropic()
    from harness_kit.offline.api import OfflineMessagesAPI  # here, not at the top: a live run never loads it

    transport = OfflineMessagesAPI(scenario or os.environ.get("HARNESS_SCENARIO") or "demo", max_requests=max_requests)
    return anthropic.AsyncAnthropic(api_key="offline",  # explicit: the SDK never looks for credentials
                                    base_url=OFFLINE_BASE_URL,
                                    http_client=httpx2.AsyncClient(transport=transport))


def offline_api(client: anthropic.AsyncAnthropic) -> OfflineMessagesAPI:
    """The offline transport behind ``client`` (for its ``.log`` of requests). TypeError when live."""
    from harness_kit.offline.api import OfflineMessagesAPI

    transport = getattr(getattr(client, "_client", None), "_transport", None)
    if not isinstance(transport, OfflineMessagesAPI):
        raise TypeError("this client talks to the live API; offline_api() needs a client made offline")
    return transport
