"""The gradebook's judge: each 🔍 check runs here, in the gradebook's process, and its verdict is decided here.

The learner's kernel is the defendant, never the judge. For every check cell the gradebook's worker
1. opens a socket only the notebook's kernel can reach (a Unix socket in the worker's own folder, which the
   sandbox binds in; 127.0.0.1 with a port the system picks where there are no Unix sockets);
2. runs, in the kernel, one line in place of the check cell: `serve()` of grader/defendant.py;
3. runs the check itself here, the same function of grading the cell names, with the notebook's names seen through
   `Notebook`: reading POLICY asks the kernel for its value (it arrives as data); calling run_tool_uses asks the
   kernel to call it with this process's arguments.

Everything a verdict rests on is then observed here, where no code of the notebook runs: the offline model that
answers (and its log of every request), the tools that ran with their input (and the files they wrote, in a folder
of this process), the approver's questions, and the values the learner's functions returned, as plain data. The
verdict is handed over here as data (exercises/checks/verdict.py), with the ✓ / ✗ lines it printed for the
learner's feedback: the gradebook grades the data, never the printed lines, and never anything from the kernel. Patching the grader, the shell, the garbage collector's objects or the
printed lines inside the kernel changes nothing the judge sees, and an answer that is not a plain value (an object
equal to everything) arrives as an Opaque.

NOT handled: the learner's code still runs, so a right answer it computes some other way (the library's own
function, a classmate's cell) is a right answer: the gradebook flags those for a person, a function from where the
defendant says it was defined (`Notebook.origins`; grader/submissions.py's `not_written`), a pasted lesson cell by
its text. A check that waits
longer than `deadline` stops with status "timeout", as a cell would.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import os
import re
import socket
import threading
import time
from pathlib import Path

from grader import limits, wire

# One worker judges one notebook: what its kernel may send the judge, over all its checks
QUOTA = wire.Quota(limits.JUDGE_BYTES, limits.JUDGE_MESSAGES)
CALL = re.compile(r"^\s*(?:await\s+)?grading\.(check_\w+)\(globals\(\)\)\s*$", re.M)
# run in the kernel in place of a check cell, kept out of its history; `token` is this check's secret: the judge
# answers only the connection that sends it first (a thread of the notebook's that connects before serve() does is
# closed), so only code that reads the running cell's own frames, which the scan flags, could answer in its place
SERVE = "await __import__('grader.defendant', fromlist=['serve']).serve({address!r}, globals(), {token!r})"


def check_call(source: str) -> str | None:
    """The grading function a (kit's own) check cell calls: 'check_allow' for `await grading.check_allow(...)`."""
    found = CALL.search(source)
    return found.group(1) if found else None


class JudgeLine(wire.Line):
    """The judge's end: an SDK client it passes crosses as its settings plus a function that answers its HTTP."""

    def encode_client(self, value) -> dict | None:
        cls = type(value)
        if cls.__name__ != "AsyncAnthropic" or not cls.__module__.startswith("anthropic"):
            return None
        transport = getattr(getattr(value, "_client", None), "_transport", None)
        if transport is None:
            return None
        import httpx2

        async def http(method, url, headers, content):
            request = httpx2.Request(method, url, headers=[tuple(h) for h in headers], content=content)
            response = await transport.handle_async_request(request)
            body = await response.aread()
            return [response.status_code, [list(h) for h in response.headers.multi_items()], body]

        self.sent[id(http)] = http
        return {"$client": [id(http), {"base_url": str(value.base_url), "max_retries": value.max_retries,
                                       "strict": bool(getattr(value, "_strict_response_validation", False))}]}


class Notebook:
    """The learner's names, seen from the judge: read-only, each read a question to the kernel."""

    def __init__(self, line: JudgeLine):
        self.line = line
        self.origins: dict = {}  # name -> where the notebook says its function was defined (defendant's origin)

    def _ask(self, message: dict):
        self.line.send(message)
        reply = self.line.recv()
        if reply.get("op") != "return":
            raise wire.LineBroken(f"the notebook answered {reply.get('op')!r} to {message['op']!r}")
        return reply

    def get(self, name: str, default=None):
        reply = self._ask({"op": "get", "name": name})
        return default if reply.get("missing") else self._noted(name, self.line.decode(reply.get("value")))

    def __getitem__(self, name: str):
        reply = self._ask({"op": "get", "name": name})
        if reply.get("missing"):
            raise KeyError(name)
        return self._noted(name, self.line.decode(reply.get("value")))

    def _noted(self, name: str, value):
        """A function of the notebook: ask once where it was defined (the gradebook flags one the learner did not
        write in a cell)."""
        if isinstance(getattr(value, "remote", None), wire.Remote) and name not in self.origins:
            found = self._ask({"op": "origin", "name": name}).get("value")
            self.origins[name] = found if isinstance(found, dict) else None
        return value

    def __contains__(self, name: str) -> bool:
        return not self._ask({"op": "get", "name": name}).get("missing")

    def items(self) -> list:
        found = self.line.decode(self._ask({"op": "items"}).get("value"))
        return [(k, v) for k, v in found if isinstance(k, str)] if isinstance(found, list) else []

    def keys(self) -> list:
        return [k for k, _ in self.items()]

    def cell_error(self, name: str) -> str | None:
        value = self._ask({"op": "cell_error", "name": name}).get("value")
        return value if isinstance(value, str) else None


def listen(folder: str | None, seen_as: str | None = None) -> tuple[socket.socket, str]:
    """A listening socket for one check, and the address the kernel connects to: a Unix socket in `folder`, which
    the kernel sees as `seen_as` (a sandbox's IPC folder, reached from here through the sandbox's root as procfs
    links it)."""
    if folder and hasattr(socket, "AF_UNIX"):
        name = f"judge-{os.urandom(4).hex()}"
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        owner = os.stat(folder) if seen_as and hasattr(os, "geteuid") and os.geteuid() == 0 else None
        if owner is not None and owner.st_uid != 0:  # a sandbox a root grader started as another user
            _bind_as(sock, os.path.join(folder, name), owner.st_uid, owner.st_gid)
        else:
            sock.bind(os.path.join(folder, name))
        sock.listen(8)
        return sock, os.path.join(seen_as or folder, name)
    sock = socket.create_server(("127.0.0.1", 0))  # port 0: the system picks a free port and binds it at once
    return sock, f"127.0.0.1:{sock.getsockname()[1]}"


def _bind_as(sock: socket.socket, path: str, uid: int, gid: int) -> None:
    """Bind `sock` at `path` as the user uid:gid, from a process running as root. For a sandbox that a root grader
    started as another user (grader/sandbox.py's kernel_user): its IPC folder is a tmpfs of the sandbox's own user
    namespace, where root cannot make a file (no uid of the host but that user's is mapped there: EOVERFLOW); the
    socket is made by that user, who connects to it. Linux's file-system ids are the calling thread's own: only this
    thread acts as that user, and only while it binds."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.setfsgid(gid)
    libc.setfsuid(uid)
    try:
        sock.bind(path)
    finally:
        libc.setfsuid(0)
        libc.setfsgid(0)


def _accept(listener: socket.socket, deadline: float, given_up: threading.Event,
            token: str | None = None) -> socket.socket | None:
    """The kernel's connection: the first one that sends {"op": "hello", "token": token} first (any first one when
    `token` is None); others are closed."""
    listener.settimeout(0.05)
    last = False
    while time.monotonic() < deadline:
        try:
            sock = listener.accept()[0]
        except (socket.timeout, TimeoutError, OSError):
            if last:
                return None
            if given_up.is_set():  # the serve cell ended without connecting: one last look, then no
                last = True
                listener.settimeout(0.2)
            continue
        if token is None or _greeted(sock, token, min(deadline, time.monotonic() + 2)):
            return sock
        sock.close()
    return None


def _greeted(sock: socket.socket, token: str, deadline: float) -> bool:
    """True when the first message on `sock` is serve()'s hello with this check's token."""
    line = wire.Line(sock, "judge")
    line.deadline, line.quota = deadline, QUOTA
    try:
        hello = line.recv()
    except wire.LineBroken:
        return False
    return hello.get("op") == "hello" and hello.get("token") == token


def hear(listener: socket.socket, call: str, cell_id: str, deadline: float, cell_ended: threading.Event,
         token: str | None = None) -> dict:
    """Run the check `call` (a function of grading) against the notebook on the other end of `listener`.
    -> the check cell's report, as the gradebook reads one: status ok | error | timeout, the error's name and
    message, what the check printed (for the learner's feedback), its verdicts as data (what is graded), and where
    each function of the notebook it used was defined (origins)."""
    report = {"id": cell_id, "kind": "check", "status": "ok", "ename": "", "evalue": "", "text": "", "capped": False,
              "verdicts": []}
    sock = _accept(listener, deadline, cell_ended, token)
    listener.close()
    if sock is None:
        report.update(status="error", ename="NotAnswered",
                      evalue="the notebook did not answer the grader (its kernel never ran the check)")
        return report
    line = JudgeLine(sock, "judge")
    line.deadline, line.quota = deadline, QUOTA  # what one notebook may send, over all its checks (grader/limits.py)
    printed, verdicts, notebook = io.StringIO(), [], Notebook(line)
    try:
        with contextlib.redirect_stdout(printed):
            asyncio.run(_run(call, notebook, deadline, verdicts))
    except wire.LineBroken as err:
        report.update(status="error", ename="NotAnswered", evalue=f"the notebook stopped answering the grader: {err}")
    except BaseException as err:  # noqa: BLE001 - an AssertionError is a failed check; anything else fails it too
        report.update(status="error", ename=type(err).__name__, evalue=str(err)[:20000])
    finally:
        try:
            line.deadline, line.broken = time.monotonic() + 2, None
            line.send({"op": "bye"})
        except (OSError, ValueError, wire.LineBroken):
            pass
        sock.close()
    if report["status"] != "ok" and time.monotonic() >= deadline:
        report["status"] = "timeout"  # out of time, whatever the wait that noticed it raised
    report["text"] = printed.getvalue()[-20000:]
    report["verdicts"] = verdicts  # each Checks' verdict as data (exercises/checks/verdict.py): what is graded
    report["origins"] = notebook.origins
    return report


async def _run(call: str, notebook: Notebook, deadline: float, verdicts: list) -> None:
    from exercises import grading

    learner, collected = grading.LEARNER.set(notebook), grading.VERDICTS.set(verdicts)
    try:
        result = getattr(grading, call)(notebook)
        if inspect.isawaitable(result):
            await asyncio.wait_for(result, max(0.01, deadline - time.monotonic()))
    finally:
        grading.VERDICTS.reset(collected)
        grading.LEARNER.reset(learner)


def prepare(language: str, tools_root: Path | None = None) -> None:
    """Import the grader here (in a thread, while the kernel starts), speak the notebook's language, and root the
    tools the checks hand to the learner's functions in `tools_root` (see `root_tools`)."""
    global QUOTA
    QUOTA = wire.Quota(limits.JUDGE_BYTES, limits.JUDGE_MESSAGES)  # (a fresh one for this worker's notebook)
    from exercises import grading  # noqa: F401 - imported now (the warm process has: PRELOAD), so no check pays for it
    from harness_kit import lang

    lang.use(language)
    if tools_root is not None:
        root_tools(tools_root)


def root_tools(folder: Path) -> Path:
    """Make `folder` a fresh copy of the kit's workspace/ (its scratch/ empty) and the checks' tool root in this
    process (HARNESS_TOOL_ROOT, which the checks' `tool_root()` reads): the `read_file` / `write_file` they build and
    hand to the learner's run_tool_uses then read and write that notebook's own copy, never the kit's workspace/
    (what they read comes back to the learner, in the feedback too). One worker grades one notebook, so this is set
    once for its whole life. -> folder."""
    import shutil

    from harness_lib import tools

    old = Path(tools.DEFAULT_ROOT)
    shutil.copytree(old, folder, symlinks=True, ignore=lambda where, names: names if Path(where).name == "scratch"
                    and Path(where).parent == old else [n for n in names if n == "__pycache__"])
    (folder / tools.SCRATCH).mkdir(exist_ok=True)
    new = folder.resolve()
    os.environ["HARNESS_TOOL_ROOT"] = str(new)
    return new
