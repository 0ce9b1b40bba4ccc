"""The learner's side of a graded check: answers the gradebook's judge from inside the notebook's kernel.

Under the gradebook, a 🔍 CHECK cell does not run its check in the kernel. The gradebook runs the check in its own
process (grader/judge.py) and, in the kernel, one cell that calls serve(): it connects to the judge and does
what the judge asks, until the judge says bye:
- "get" a name of the notebook (POLICY, run_tool_uses, ...): its value, as data, or a reference to the function;
- "items": every name of the notebook with its value (a check that looks for the lesson's constants);
- "call" one of the notebook's functions with the judge's arguments: the scenario's content blocks, the judge's
  tools and approver (stand-ins: calling them asks the judge), the judge's SDK client (a real AsyncAnthropic
  whose HTTP goes to the judge's offline model);
- "cell_error": which error the cell that defines a name raised (for a hint; see grading's cell_error);
- "origin" of one of the notebook's functions: its module, its code's file and the number of the cell IPython
  compiled that file from (None when no cell did: a library's module, exec of a string, runpy), as facts; the
  gradebook decides from them whether the learner wrote it.

Nothing here decides anything: the judge records what the model was asked, which tools ran with what input, what
the approver was asked, what is on disk, and what each function returned, and computes the verdict itself. Code
in the notebook can replace this module, or answer in its place; it can only answer. A notebook that does not
answer fails the check.

NOT handled: the learner's functions run one call at a time (two coroutines that call the judge's tools at once
take turns); a coroutine the judge passes into the notebook cannot be called back from inside a plain function.
"""

from __future__ import annotations

import re
import socket
import sys
import types

from . import wire

_IPYTHON_NAMES = {"In", "Out", "_oh", "_ih", "_dh", "exit", "quit", "get_ipython", "_", "__", "___"}
_HISTORY = re.compile(r"^_(i{1,3}\d*|\d+)$")  # IPython's _i, _ii, _i7, _7: the history, not the learner's names
_MISSING = object()


class LearnerLine(wire.Line):
    """The kernel's end of the line: every wait blocks (the judge always answers), and the judge's SDK client
    arrives as a real client of the same settings whose HTTP transport asks the judge."""

    blocking = True

    def client_for(self, ref: int, settings: dict):
        import anthropic
        import httpx2

        line = self

        class ToTheJudge(httpx2.AsyncBaseTransport):
            async def handle_async_request(self, request):
                content = await request.aread()
                status, headers, body = line.call(
                    ref, [request.method, str(request.url), [list(h) for h in request.headers.multi_items()],
                          content], {}, wait=True)
                return httpx2.Response(status, headers=[tuple(h) for h in headers], content=body, request=request)

        return anthropic.AsyncAnthropic(api_key="offline", base_url=settings["base_url"],
                                        max_retries=settings["max_retries"],
                                        http_client=httpx2.AsyncClient(transport=ToTheJudge()),
                                        _strict_response_validation=settings["strict"])


def connect(address: str) -> socket.socket:
    """A Unix socket's path, or "127.0.0.1:PORT" where there are none."""
    if ":" in address and not address.startswith("/"):
        host, port = address.rsplit(":", 1)
        return socket.create_connection((host, int(port)))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(address)
    return sock


def origin(value) -> dict | None:
    """Where a function was defined: {"module", "file", "cell"} (cell: the number of the cell IPython compiled its
    file from, else None); None for anything that is not a function."""
    code = getattr(getattr(value, "__func__", value), "__code__", None)
    if not isinstance(code, types.CodeType):
        return None
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    cells = getattr(getattr(shell, "compile", None), "_filename_map", None) or {}
    cell = cells.get(code.co_filename)
    return {"module": str(getattr(value, "__module__", "") or ""), "file": str(code.co_filename),
            "cell": cell if isinstance(cell, int) else None}


def _names(ns: dict) -> list:
    return [(name, value) for name, value in list(ns.items())
            if name not in _IPYTHON_NAMES and not _HISTORY.match(str(name))]


async def serve(address: str, ns: dict, token: str | None = None) -> None:
    """Answer the judge at `address` with the notebook's names `ns` (the cell passes globals()), until bye; first,
    the check's `token`, by which the judge knows this connection from any other."""
    line = LearnerLine(connect(address), "learner")
    if token is not None:
        line.send({"op": "hello", "token": token})
    await answer(line, ns)


async def answer(line: LearnerLine, ns: dict) -> None:
    """serve(), on a line already open."""
    try:
        while True:
            message = line.recv()
            op = message["op"]
            if op == "bye":
                return
            if op == "get":
                value = ns.get(message.get("name"), _MISSING)
                line.send({"op": "return", "missing": True} if value is _MISSING
                          else {"op": "return", "value": line.encode(value)})
            elif op == "items":
                line.send({"op": "return", "value": line.encode([[k, v] for k, v in _names(ns)])})
            elif op == "origin":
                line.send({"op": "return", "value": origin(ns.get(message.get("name")))})
            elif op == "cell_error":
                grading = sys.modules.get("grading")
                found = getattr(grading, "cell_error", None)
                try:
                    value = found(message.get("name")) if found else None
                except Exception:  # noqa: BLE001 - a hint we cannot give is no hint
                    value = None
                line.send({"op": "return", "value": value if isinstance(value, str) else None})
            else:
                await line.aserve_one(message)
    except wire.LineBroken:
        return
    finally:
        line.sock.close()
