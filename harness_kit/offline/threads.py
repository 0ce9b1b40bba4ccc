"""Message threads (beta): the offline API holds a conversation between turns, so a turn sends only what is new.

A request opts in with the ``anthropic-beta: message-threads-2026-08-12`` header and a ``thread`` field:

* ``{"type": "create"}`` — the request is answered as usual, and then the conversation (its messages
  plus the reply, with its ``system`` and ``tools``) is held under the reply's ``id``.
* ``{"type": "continue", "previous_message_id": id}`` — the request sends only the messages after that
  reply, and leaves out ``system`` and ``tools`` (the thread keeps the ones it was created with). The held
  history is put in front of the new messages, and that whole conversation is validated and answered as
  if it had been sent in full; the new reply is held under its own id, and ``id`` cannot be continued again.

So the SDK's thread helper and ``client.beta.messages.tool_runner(...)`` (which threads by default) run
offline. Token usage counts the whole held conversation as input, as a resent history would: a thread
makes the request smaller, not the prompt. A 400 on a ``continue`` names positions in that whole
conversation (``messages.3`` is the fourth message of the thread, not of the request).

Errors, in the shape the SDK's recovery reads (``error.details.error_code``):

* ``thread_not_found`` (404 ``not_found_error``) — no held conversation under ``previous_message_id``:
  an id this transport never answered, or one it let go (see the bound below). The SDK replays the
  full history with a new ``create``.
* ``thread_already_continued`` (400) — that reply was already continued once. The SDK replays too.
* ``thread_unsupported_request`` (400, ``details.unsupported``: the field names) — the offline API does
  not thread a request that sets ``thinking``, ``context_management`` or ``fallbacks``: features the
  offline model does not model, so it does not pretend to hold them either (the names come from the SDK's
  ``ThreadUnsupportedFeatureName``; this is the offline API's own rule, not a statement about the live
  API). A thread with ``unsupported_request_behavior="continue_unthreaded"`` (the tool runner's setting)
  then sends that turn and every later one in full, without ``thread``.
* a plain 400 for a malformed ``thread``, a ``continue`` that repeats ``system`` or ``tools``, or a
  ``thread`` without the beta header.

Held state belongs to one transport (one client) and goes with it. It is bounded: at most
``MAX_THREADS`` (64) held conversations, the least recently used let go first — a
``continue`` from one of those gets ``thread_not_found``, which is also how the live API reports an
expired thread.

NOT modelled: expiry by time (5 minutes live), ``thread_continue_in_flight`` (the offline API answers each
request completely before it reads the next, so no continue is ever in flight), fingerprint checks on the
other fields (``model``, ``max_tokens``, … may change between turns), ``tool_addition``/``tool_removal``
system messages, and ``count_tokens`` (it ignores ``thread`` and counts what it is sent).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from .validation import APIError, bad_request

__all__ = ["BETA", "UNSUPPORTED", "Threads", "thread_error"]

BETA = "message-threads-2026-08-12"
UNSUPPORTED = ("thinking", "context_management", "fallbacks")
HELD_FIELDS = ("system", "tools")  # taken from the thread on a continue
MAX_THREADS = 64  # conversations one transport holds


def thread_error(status: int, error_type: str, code: str, message: str, **details) -> APIError:
    """An APIError whose body carries ``error.details = {"error_code": code, **details}``."""
    err = APIError(status, error_type, message)
    err.details = {"error_code": code, **details}
    return err


@dataclass
class Held:
    """One held conversation: every message so far (the last is the reply it is held under) and its system/tools."""

    messages: list
    fields: dict


class Threads:
    """The conversations one transport holds, by reply id (an LRU of at most ``max_threads``)."""

    def __init__(self):
        self.max_threads = MAX_THREADS
        self._held: OrderedDict[str, Held] = OrderedDict()
        self._continued: OrderedDict[str, None] = OrderedDict()  # ids already continued (bounded the same way)

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, message_id) -> bool:
        return message_id in self._held

    def forget(self) -> None:
        """Let go of every held conversation (as a server that lost them would): the next continue gets thread_not_found."""
        self._held.clear()
        self._continued.clear()

    def resolve(self, body: dict, beta_header: str) -> tuple[dict, str | None]:
        """(the request as the model sees it, the id it continues or None). Raises APIError for a thread error.

        ``body`` has a non-null ``thread``; the returned body has no ``thread`` key.
        """
        thread = body["thread"]
        if not isinstance(thread, dict):
            raise bad_request("thread: Input should be a valid dictionary or object")
        if thread.get("type") not in ("create", "continue"):
            raise bad_request(f"thread: Input tag {thread.get('type')!r} found using 'type' does not match any of "
                              "the expected tags: 'create', 'continue'")
        if BETA not in [b.strip() for b in beta_header.split(",")]:
            raise bad_request(f"thread: message threads are in beta; send the header `anthropic-beta: {BETA}` "
                              "(the SDK does, through client.beta.messages)")
        unsupported = [name for name in UNSUPPORTED if body.get(name) is not None]
        if unsupported:
            raise thread_error(400, "invalid_request_error", "thread_unsupported_request",
                               f"thread: the offline API does not thread a request that sets {', '.join(unsupported)}; "
                               "send the full conversation without `thread`.", unsupported=unsupported)
        request = {k: v for k, v in body.items() if k != "thread"}
        if thread["type"] == "create":
            return request, None
        previous = thread.get("previous_message_id")
        if previous is None:
            raise bad_request("thread.continue.previous_message_id: Field required")
        if not isinstance(previous, str):
            raise bad_request("thread.continue.previous_message_id: Input should be a valid string")
        repeated = [f"`{f}`" for f in HELD_FIELDS if f in request]
        if repeated:
            raise bad_request(f"thread: a `continue` takes {' and '.join(repeated)} from the thread; leave "
                              f"{'them' if len(repeated) > 1 else 'it'} out of the request.")
        if previous in self._continued:
            raise thread_error(400, "invalid_request_error", "thread_already_continued",
                               f"thread: the response {previous} has already been continued; each response can be "
                               "continued only once. Continue from the thread's most recent response id.")
        held = self._held.get(previous)
        if held is None:
            raise thread_error(404, "not_found_error", "thread_not_found",
                               f"thread: no thread is held for {previous}. Replay the full conversation with "
                               '`thread: {"type": "create"}`.')
        if isinstance(request.get("messages"), list):
            request["messages"] = held.messages + request["messages"]
        request.update(held.fields)
        return request, previous

    def hold(self, request: dict, reply: dict, continued: str | None) -> None:
        """After a successful answer: hold the conversation under the reply's id; ``continued`` is used up."""
        if continued is not None:
            self._held.pop(continued, None)
            self._continued[continued] = None
            while len(self._continued) > 4 * self.max_threads:
                self._continued.popitem(last=False)
        messages = request["messages"] + [{"role": "assistant", "content": reply["content"]}]
        self._held[reply["id"]] = Held(messages, {f: request[f] for f in HELD_FIELDS if f in request})
        while len(self._held) > self.max_threads:
            self._held.popitem(last=False)
