"""The offline Messages API: a deterministic model behind the real anthropic SDK.

It is an httpx2 transport (:class:`OfflineMessagesAPI`), so nothing in the SDK is faked or patched:
``await client.messages.create(...)`` builds a real HTTP request, gets a real HTTP response back, and
returns a real ``anthropic.types.Message`` — or raises the real ``anthropic.BadRequestError`` when the
request breaks a rule of the API. No socket is ever opened.

    api.py          the transport: routes, fault injection, the request log
    validation.py   the API's 400/404 rules and their error texts
    tokens.py       the token estimate, prompt caching, max_tokens / stop_sequences
    parse.py        the person's request → ordered steps (English and Spanish)
    model.py        the planner: walk the history, call the next tool, compose the answer
    scenarios.py    SCENARIOS: the behaviours the lessons need (never-ends, stuck, injection, …)

What it is NOT: a language model. It maps a few kinds of request onto the kit's four tools
(get_time, read_file, write_file, delete_file) and answers only from what those tools returned.
It does not stream. Each module's docstring lists what else it does not model.
"""

from .api import FAULTS, OfflineMessagesAPI
from .model import read_tool_result
from .scenarios import SCENARIOS
from .tokens import count_input_tokens
from .validation import known_models

__all__ = ["OfflineMessagesAPI", "SCENARIOS", "FAULTS", "count_input_tokens", "known_models", "read_tool_result"]
