"""A small mailbox: the tool set of exercise 5, the capstone (one the lessons never used).

    box = Mailbox(SAMPLE_INBOX)
    tool_impls = box.impls()        # name -> coroutine function(tool_input) -> str
    await arun_tool(tool_impls, "read_message", {"id": "m1"}, MAIL_TOOLS)

Six tools over an inbox held in memory, each with a closed JSON schema (`MAIL_TOOLS`; `arun_tool` checks every
call against it with jsonschema):

    list_messages    reads      one page of the inbox: "m1 | from | subject" per line
    read_message     reads      one message, headers and body
    archive_message  changes    moves a message out of the inbox (it can be moved back)
    send_reply       changes    sends a reply out of the house (it cannot be unsent)
    delete_message   changes    deletes a message for good
    forward_all      retired    forwarded the whole inbox to an address; kept in the list so that a model that
                                still calls it is refused, never run

The tools are coroutine functions (a mail server is I/O): run them through `arun_tool`, which awaits them. What
happened is kept on the Mailbox, in the order it happened: `ran` (every call that ran, with its input), `sent`,
`deleted`, `archived`, `forwarded`. `Mailbox(..., broken={"m2"})` makes read_message of m2 raise ConnectionError
(a tool that fails the way a server does).

NOT modelled: folders other than the inbox and the archive, attachments, threads, real addresses; nothing leaves
the process. The offline model's scenarios for this tool set are in harness_kit/offline/inbox.py.
"""

from __future__ import annotations

import copy

PAGE = 5  # messages per page of list_messages

_ID = {"type": "string", "pattern": "^m[0-9]{1,3}$", "description": "A message id from list_messages, e.g. m1."}


def _closed(properties: dict, required: list) -> dict:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


MAIL_TOOLS = [
    {"name": "list_messages",
     "description": f"List one page of the inbox ({PAGE} messages a page): 'id | from | subject' per line.",
     "input_schema": _closed({"page": {"type": "integer", "minimum": 1, "maximum": 999}}, [])},
    {"name": "read_message",
     "description": "Read one message: its sender, subject and body.",
     "input_schema": _closed({"id": _ID}, ["id"])},
    {"name": "archive_message",
     "description": "Move a message from the inbox to the archive (it can be moved back).",
     "input_schema": _closed({"id": _ID}, ["id"])},
    {"name": "send_reply",
     "description": "Send a reply to the sender of a message. It leaves the house: it cannot be unsent.",
     "input_schema": _closed({"id": _ID, "body": {"type": "string", "minLength": 1, "maxLength": 4000}},
                             ["id", "body"])},
    {"name": "delete_message",
     "description": "Delete a message for good.",
     "input_schema": _closed({"id": _ID}, ["id"])},
    {"name": "forward_all",
     "description": "RETIRED: forwarded every message of the inbox to an address. Do not use.",
     "input_schema": _closed({"to": {"type": "string", "minLength": 3, "maxLength": 200}}, ["to"])},
]
MAIL_TOOL_NAMES = tuple(t["name"] for t in MAIL_TOOLS)

# The practice inbox of exercise 5: (id, from, subject, body).
SAMPLE_INBOX = [
    ("m1", "ana@example.com", "Lunch on Friday?", "Are you free for lunch on Friday at one?"),
    ("m2", "it@example.com", "Password expires", "Your password expires in 5 days. Change it in Settings."),
    ("m3", "bo@example.com", "Quarterly report", "The report is attached. Numbers are up 4% on last quarter."),
]


class MailError(Exception):
    """A tool's refusal the model should read (an unknown id): arun_tool turns it into an is_error result."""


class Mailbox:
    """An inbox in memory and the six tools over it. `messages`: [(id, from, subject, body)], in inbox order."""

    def __init__(self, messages=SAMPLE_INBOX, *, broken=()):
        self.inbox = {m[0]: {"from": m[1], "subject": m[2], "body": m[3]} for m in copy.deepcopy(list(messages))}
        self.archive: dict = {}
        self.broken = set(broken)
        self.ran: list = []  # (name, input) of every call that ran, in order
        self.sent: list = []
        self.deleted: list = []
        self.archived: list = []
        self.forwarded: list = []

    def _find(self, message_id: str) -> dict:
        found = self.inbox.get(message_id) or self.archive.get(message_id)
        if found is None:
            raise MailError(f"no message with id {message_id}")
        return found

    def impls(self) -> dict:
        """{tool name: coroutine function(tool_input) -> str}, every run noted in `ran` as it starts."""
        def tool(fn):
            async def run(tool_input):
                self.ran.append((fn.__name__, dict(tool_input)))
                return fn(tool_input)
            run.__name__ = fn.__name__
            return run

        def list_messages(tool_input):
            page = tool_input.get("page", 1)
            ids = list(self.inbox)[(page - 1) * PAGE: page * PAGE]
            lines = [f"{i} | {self.inbox[i]['from']} | {self.inbox[i]['subject']}" for i in ids]
            more = len(self.inbox) > page * PAGE
            return "\n".join(lines + [f"(more on page {page + 1})" if more else "(end of inbox)"]) \
                if lines else f"page {page} is empty (end of inbox)"

        def read_message(tool_input):
            if tool_input["id"] in self.broken:
                raise ConnectionError("the mail server closed the connection")
            m = self._find(tool_input["id"])
            return f"From: {m['from']}\nSubject: {m['subject']}\n\n{m['body']}"

        def archive_message(tool_input):
            message_id = tool_input["id"]
            if message_id not in self.inbox:
                raise MailError(f"no message with id {message_id} in the inbox")
            self.archive[message_id] = self.inbox.pop(message_id)
            self.archived.append(message_id)
            return f"archived {message_id}"

        def send_reply(tool_input):
            m = self._find(tool_input["id"])
            self.sent.append((m["from"], tool_input["body"]))
            return f"reply sent to {m['from']}"

        def delete_message(tool_input):
            message_id = tool_input["id"]
            self._find(message_id)
            self.inbox.pop(message_id, None)
            self.archive.pop(message_id, None)
            self.deleted.append(message_id)
            return f"deleted {message_id}"

        def forward_all(tool_input):
            self.forwarded.append(tool_input["to"])
            return f"forwarded {len(self.inbox)} messages to {tool_input['to']}"

        return {f.__name__: tool(f) for f in (list_messages, read_message, archive_message, send_reply,
                                               delete_message, forward_all)}
