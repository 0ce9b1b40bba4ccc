"""The line between the gradebook's judge and a learner's kernel: what crosses it, and how.

The gradebook decides a check's verdict in its own process (grader/judge.py), where the learner's code cannot
reach. The check still needs the learner's functions, and they live in the learner's kernel
(grader/defendant.py). So the two talk over one socket, one message at a time: a message is 4 bytes of length,
then JSON. Either side may call a function of the other, and the callee may call back before it answers
(the learner's loop asks the judge's model, the judge's approver, the judge's tools).

Values cross as data, never as objects: None, bools, ints, floats, strings, bytes, lists, tuples, dicts, sets, the
SDK's own types (rebuilt from their fields on the other side), an AgentResult, an exception (its class name, the
built-in class it derives from, its message). A function crosses as a reference: the other side gets a stand-in
that sends a call. The judge's SDK client crosses as a client of the same settings whose HTTP goes to the judge.
Anything else arrives as an Opaque: its type name and a short repr, equal to nothing.

So an object that claims to equal everything, a str or int subclass with a clever __eq__, or a proxy, arrives as
its plain value (or as an Opaque): the judge compares data it made itself.

NOT handled: generators, classes and modules cross as Opaque; objects that refer to themselves are cut at the
repeat (an Opaque); a message over MAX_MESSAGE bytes is refused (ValueError) rather than sent, and one received
breaks the line, as does reading more than the line's Quota (the judge's: bytes and messages per notebook).
"""

from __future__ import annotations

import asyncio
import base64
import builtins
import dataclasses
import inspect
import json
import socket
import struct
import sys
import time
import types

MAX_MESSAGE = 32 * 2 ** 20  # bytes of JSON in one message
_DEPTH = 60  # nesting deeper than this arrives as an Opaque


class Opaque:
    """A value that could not cross as data: its type's name and a short repr. Equal only to itself."""

    def __init__(self, kind: str, shown: str):
        self.kind, self.shown = kind, shown

    def __repr__(self) -> str:
        return self.shown

    __hash__ = object.__hash__


class LineBroken(ConnectionError):
    """The other side hung up, sent something that is not a message, or took longer than the deadline."""


def _exception_class(name: str, base: str, module: str = "") -> type:
    """The kit's own exception class (harness_lib's ToolError, ...) when it is one; else a class named `name`
    derived from the built-in exception `base` (Exception for anything else), so `except KeyError` and
    `type(err).__name__` work the same on both sides. SystemExit, KeyboardInterrupt and other non-Exception
    classes become Exception subclasses: a learner's sys.exit() never stops the judge."""
    if module.split(".")[0] == "harness_lib":  # only a module this side has loaded already: nothing is imported
        kit = getattr(sys.modules.get(module), name, None)
        if isinstance(kit, type) and issubclass(kit, Exception):
            return kit
    found = getattr(builtins, base, None)
    if not (isinstance(found, type) and issubclass(found, Exception)):
        found = Exception
    return found if name == found.__name__ else type(name, (found,), {"__module__": "learner"})


class Quota:
    """What one side may still read from the other, over every line it opens: bytes and messages. The judge holds one
    per notebook (grader/limits.py); past it, a line breaks saying which limit."""

    def __init__(self, size: int, messages: int):
        self.size, self.messages = size, messages
        self.left, self.messages_left = size, messages

    def take(self, size: int) -> str | None:
        """Count one message of `size` bytes; why it is over the limit, or None."""
        self.left -= size
        self.messages_left -= 1
        if self.left < 0:
            return f"the notebook sent the grader more than {self.size} bytes (the grader's limit)"
        if self.messages_left < 0:
            return f"the notebook sent the grader more than {self.messages} messages (the grader's limit)"
        return None


class Line:
    """One side's end of the socket, with a table of the functions it has sent to the other side."""

    blocking = False  # True on the learner's side: every wait blocks (see Remote.function)

    def __init__(self, sock: socket.socket, side: str):
        self.sock, self.side = sock, side
        self.sent: dict[int, object] = {}  # id -> a function (or client) of this side the other side may call
        self.deadline: float | None = None  # time.monotonic() past which a wait is a LineBroken
        self.broken: str | None = None
        self.quota: Quota | None = None  # what this side may still read (None: MAX_MESSAGE a message, no total)

    # ---- messages ------------------------------------------------------------------------------------------

    def send(self, message: dict) -> None:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
        if len(data) > MAX_MESSAGE:
            raise ValueError(f"a message of {len(data)} bytes is over the limit of {MAX_MESSAGE}")
        self._check()
        self.sock.setblocking(True)
        try:
            self.sock.sendall(struct.pack(">I", len(data)) + data)
        except OSError as err:
            self._break(f"the line is closed ({err})")

    def recv(self) -> dict:
        """The next message, waiting at most until the deadline."""
        self._check()
        head = self._read(4)
        return self._parse(self._read(self._admit(struct.unpack(">I", head)[0])))

    async def arecv(self) -> dict:
        """recv(), but waiting in the event loop (so asyncio.wait_for can stop the wait)."""
        self._check()
        loop = asyncio.get_running_loop()
        self.sock.setblocking(False)
        try:
            head = await self._aread(loop, 4)
            return self._parse(await self._aread(loop, self._admit(struct.unpack(">I", head)[0])))
        except asyncio.CancelledError:
            self.broken = "a wait for the other side was cancelled halfway"  # what is left to read is out of step
            raise

    def _admit(self, size: int) -> int:
        """`size`, when a message of that many bytes may be read; else the line breaks, saying which limit."""
        if size > MAX_MESSAGE:
            self._break(f"a message of {size} bytes is over the limit of {MAX_MESSAGE}")
        over = self.quota.take(4 + size) if self.quota is not None else None
        if over:
            self._break(over)
        return size

    def _read(self, n: int) -> bytes:
        chunks = []
        while n:
            self.sock.settimeout(self._time_left())
            try:
                chunk = self.sock.recv(min(n, 1 << 20))
            except (socket.timeout, TimeoutError):
                self._break("no answer in time")
            except OSError as err:
                self._break(f"the line is closed ({err})")
            n -= len(self._got(chunk, chunks))
        return b"".join(chunks)

    async def _aread(self, loop, n: int) -> bytes:
        chunks = []
        while n:
            try:
                chunk = await asyncio.wait_for(loop.sock_recv(self.sock, min(n, 1 << 20)), self._time_left())
            except asyncio.TimeoutError:
                self._break("no answer in time")
            except OSError as err:
                self._break(f"the line is closed ({err})")
            n -= len(self._got(chunk, chunks))
        return b"".join(chunks)

    def _time_left(self) -> float | None:
        """Seconds until the deadline (None: no deadline); past it, LineBroken."""
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            self._break("no answer in time")
        return left

    def _got(self, chunk: bytes, chunks: list) -> bytes:
        if not chunk:
            self._break("the other side hung up")
        chunks.append(chunk)
        return chunk

    def _parse(self, data: bytes) -> dict:
        try:
            message = json.loads(data)
        except ValueError:
            self._break("a message that is not JSON")
        if not isinstance(message, dict) or not isinstance(message.get("op"), str):
            self._break("a message without an op")
        return message

    def _check(self) -> None:
        if self.broken:
            raise LineBroken(self.broken)

    def _break(self, why: str):
        self.broken = why
        raise LineBroken(why)

    # ---- values --------------------------------------------------------------------------------------------

    def encode(self, value, depth: int = 0, seen: frozenset = frozenset()):
        if value is None or type(value) in (bool, str):
            return value
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, int):
            return int.__int__(value)  # a subclass arrives as its plain number
        if isinstance(value, float):
            return float.__float__(value)
        if isinstance(value, str):
            return str.__str__(value)  # a subclass arrives as its plain text
        if isinstance(value, (bytes, bytearray)):
            return {"$b": base64.b64encode(bytes(value)).decode()}
        if depth > _DEPTH or id(value) in seen:
            return self._opaque(value)
        seen, depth = seen | {id(value)}, depth + 1
        if isinstance(value, list):
            return [self.encode(v, depth, seen) for v in list.__iter__(value)]
        if isinstance(value, tuple):
            return {"$t": [self.encode(v, depth, seen) for v in tuple.__iter__(value)]}
        if isinstance(value, dict):
            return {"$d": [[self.encode(k, depth, seen), self.encode(v, depth, seen)]
                           for k, v in dict.items(value)]}
        if isinstance(value, (set, frozenset)):
            return {"$set": [self.encode(v, depth, seen) for v in set(value)]}
        if isinstance(value, BaseException):
            base = next(c.__name__ for c in type(value).__mro__ if getattr(builtins, c.__name__, None) is c)
            message = getattr(value, "message", None)
            return {"$exc": [type(value).__name__, base, _text(value), message if isinstance(message, str) else None,
                             type(value).__module__]}
        if isinstance(value, types.SimpleNamespace):
            return {"$ns": self.encode(dict(vars(value)), depth, seen)}
        sdk = _sdk_type(value)
        if sdk:
            return {"$sdk": [sdk, self.encode(value.model_dump(mode="json", exclude_unset=True), depth, seen)]}
        if _is_agent_result(value):
            return {"$result": self.encode({f.name: getattr(value, f.name) for f in dataclasses.fields(value)},
                                           depth, seen)}
        client = self.encode_client(value)
        if client is not None:
            return client
        if isinstance(value, Remote) and value.line is self:
            return {"$mine": value.ref}  # one of the other side's own functions, going home
        if callable(value) and isinstance(value, (types.FunctionType, types.MethodType, types.BuiltinFunctionType,
                                                  types.BuiltinMethodType)):
            self.sent[id(value)] = value
            return {"$fn": [id(value), inspect.iscoroutinefunction(value), getattr(value, "__name__", "function")]}
        if inspect.isawaitable(value):
            self.sent[id(value)] = value
            return {"$await": id(value)}
        return self._opaque(value)

    def _opaque(self, value) -> dict:
        try:
            shown = repr(value)[:200]
        except Exception:  # noqa: BLE001 - a repr that raises is still an object we can name
            shown = "<unprintable>"
        return {"$opaque": [type(value).__name__, shown]}

    def decode(self, value):
        if isinstance(value, list):
            return [self.decode(v) for v in value]
        if not isinstance(value, dict):
            return value
        (tag, body), = value.items()
        if tag == "$b":
            return base64.b64decode(body)
        if tag == "$t":
            return tuple(self.decode(v) for v in body)
        if tag == "$d":
            return {_hashable(self.decode(k)): self.decode(v) for k, v in body}
        if tag == "$set":
            return {_hashable(self.decode(v)) for v in body}
        if tag == "$exc":
            name, base, text, message, module = body
            err = _exception_class(name, base, module)(text)
            if message is not None:
                err.message = message
            return err
        if tag == "$ns":
            return types.SimpleNamespace(**{str(k): v for k, v in self.decode(body).items()})
        if tag == "$sdk":
            import anthropic.types

            return getattr(anthropic.types, body[0]).model_validate(self.decode(body[1]))
        if tag == "$result":
            from harness_lib.loop import AgentResult

            return AgentResult(**{str(k): v for k, v in self.decode(body).items()})
        if tag == "$client":
            return self.client_for(body[0], body[1])
        if tag == "$mine":
            return self.sent.get(body, Opaque("function", "<a function this side no longer has>"))
        if tag == "$fn":
            return Remote(self, *body).function()
        if tag == "$await":
            return Remote(self, body, True, "awaitable").awaitable()
        if tag == "$opaque":
            return Opaque(*body)
        raise LineBroken(f"a value tagged {tag!r}")

    def encode_client(self, value) -> dict | None:
        """An SDK client as {"$client": [ref, settings]}, on the side that can serve its HTTP (the judge's)."""
        return None

    def client_for(self, ref: int, settings: dict):
        """The client to use in place of the other side's (the learner's side builds a real one)."""
        return Opaque("AsyncAnthropic", "<the other side's client>")

    # ---- calls ---------------------------------------------------------------------------------------------

    def call(self, ref: int, args, kwargs, *, wait: bool) -> object:
        """Call the other side's function `ref` and return what it returned (or raise what it raised).
        wait=False: a plain function, so its result (even a coroutine) is sent back as it is."""
        self.send({"op": "call", "ref": ref, "args": self.encode(list(args)), "kwargs": self.encode(dict(kwargs)),
                   "await": wait})
        while True:
            message = self.recv()
            if message["op"] in ("return", "raise"):
                return self._outcome(message)
            self.serve_one(message)

    async def acall(self, ref: int, args, kwargs, *, op: str = "call") -> object:
        """call(), for a coroutine function: waits in the event loop, and awaits this side's callbacks."""
        self.send({"op": op, "ref": ref, "args": self.encode(list(args)), "kwargs": self.encode(dict(kwargs)),
                   "await": True})
        while True:
            message = await self.arecv()
            if message["op"] in ("return", "raise"):
                return self._outcome(message)
            await self.aserve_one(message)

    def _outcome(self, message: dict):
        value = self.decode(message.get("value"))
        if message["op"] == "raise":
            raise value if isinstance(value, BaseException) else LineBroken("a raise without an exception")
        return value

    def _callee(self, message: dict):
        fn = self.sent.get(message.get("ref"))
        if fn is None:
            raise LineBroken(f"a call of an unknown function ({message.get('ref')!r})")
        return fn, self.decode(message.get("args", [])), self.decode(message.get("kwargs", {}))

    def serve_one(self, message: dict) -> None:
        """Answer one call from the other side, in a plain (blocking) context."""
        if message["op"] not in ("call", "await"):
            self._break(f"an unexpected {message['op']!r} in the middle of a call")
        fn, args, kwargs = self._callee(message)
        try:
            if message["op"] == "await":
                raise RuntimeError("an awaitable cannot be awaited from inside a plain call")
            value = fn(*args, **kwargs)
            if message.get("await") and inspect.isawaitable(value):
                getattr(value, "close", lambda: None)()
                raise RuntimeError(f"{getattr(fn, '__name__', 'a coroutine function')} cannot be called back from "
                                   "inside a plain call")
        except LineBroken:
            raise
        except BaseException as err:  # noqa: BLE001 - whatever it raised goes back to the caller as data
            self.send({"op": "raise", "value": self.encode(err)})
            return
        self.send({"op": "return", "value": self.encode(value)})

    async def aserve_one(self, message: dict) -> None:
        """Answer one call from the other side, awaiting it when it is a coroutine."""
        if message["op"] not in ("call", "await"):
            self._break(f"an unexpected {message['op']!r} in the middle of a call")
        fn, args, kwargs = self._callee(message)
        try:
            value = fn if message["op"] == "await" else fn(*args, **kwargs)
            if message.get("await") and inspect.isawaitable(value):
                value = await value
        except (LineBroken, asyncio.CancelledError):
            raise
        except BaseException as err:  # noqa: BLE001 - whatever it raised goes back to the caller as data
            self.send({"op": "raise", "value": self.encode(err)})
            return
        self.send({"op": "return", "value": self.encode(value)})


class Remote:
    """A function of the other side: calling its stand-in sends a call over the line."""

    def __init__(self, line: Line, ref: int, is_async: bool, name: str):
        self.line, self.ref, self.is_async, self.name = line, ref, bool(is_async), str(name)

    def function(self):
        remote = self
        if self.is_async and self.line.blocking:
            async def stand_in(*args, **kwargs):  # a coroutine function, as the original; the wait itself blocks
                return remote.line.call(remote.ref, args, kwargs, wait=True)
        elif self.is_async:
            async def stand_in(*args, **kwargs):
                return await remote.line.acall(remote.ref, args, kwargs)
        else:
            def stand_in(*args, **kwargs):
                return remote.line.call(remote.ref, args, kwargs, wait=False)
        stand_in.__name__ = stand_in.__qualname__ = self.name
        stand_in.remote = self
        return stand_in

    def awaitable(self):
        return self.line.acall(self.ref, (), {}, op="await")


def _text(err: BaseException) -> str:
    try:
        return str(err)[:20000]
    except Exception:  # noqa: BLE001
        return "<unprintable>"


def _hashable(value):
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, set):
        return frozenset(value)
    if isinstance(value, dict):
        return Opaque("dict", repr(value)[:200])
    return value


def _sdk_type(value) -> str | None:
    """The name of value's class when it is one of anthropic.types' models, else None."""
    cls = type(value)
    if not cls.__module__.startswith("anthropic.types") or not hasattr(value, "model_dump"):
        return None
    import anthropic.types

    return cls.__name__ if getattr(anthropic.types, cls.__name__, None) is cls else None


def _is_agent_result(value) -> bool:
    cls = type(value)
    return dataclasses.is_dataclass(value) and cls.__name__ == "AgentResult" and cls.__module__ == "harness_lib.loop"


