"""The offline Messages API: a deterministic model behind the real anthropic SDK.

It is an httpx2 transport (:class:`OfflineMessagesAPI`, an ``httpx2.MockTransport``), so nothing in the SDK
is faked or patched:
``await client.messages.create(...)`` builds a real HTTP request, gets a real HTTP response back, and
returns a real ``anthropic.types.Message`` — or raises the real ``anthropic.BadRequestError`` when the
request breaks a rule of the API. No socket is ever opened.

    api.py          the transport: routes, the run limit, the request log
    threads.py      message threads (beta): conversations held between turns, by reply id
    validation.py   the API's 400/404 rules and their error texts
    tokens.py       the token estimate, prompt caching, max_tokens / stop_sequences
    parse.py        the person's request → ordered steps (English and Spanish)
    planner.py      the planner: walk the history, call the next tool, compose the answer
    phrases.py      the phrasebook: the words it recognises and the sentences it says, by language
    scenarios.py    SCENARIOS: the behaviours the lessons need (never-ends, stuck, injection, …); GAUNTLET:
                    exercise 5's (inbox.py), on the mailbox tools

What it is NOT: a language model. It maps a few kinds of request onto the kit's four tools
(get_time, read_file, write_file, delete_file) and answers only from what those tools returned.
It answers in the request's language (English or Spanish), else in ``HARNESS_LANG``'s (see :mod:`.phrases`).
It does not stream. Each module's docstring lists what else it does not model.
"""

import importlib

# Loaded on first use (PEP 562), so ``import harness_kit.offline`` alone loads nothing heavy: the planner,
# the scenarios and jsonschema come in only when a name below is used.
_EXPORTS = {
    "OfflineMessagesAPI": ".api", "SCENARIOS": ".scenarios", "GAUNTLET": ".scenarios",
    "count_input_tokens": ".tokens", "known_models": ".validation", "read_tool_result": ".planner",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
