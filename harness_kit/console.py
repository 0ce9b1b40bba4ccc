"""Reading a line on the console without stopping the event loop: what the terminal approver (harness_lib.approval)
and the buttons' text-box fallback (harness_ui.widget) wait with.

A kernel's Stop is a SIGINT, which Python handles only when the main thread runs Python code; an awaiting kernel
sleeps in its event loop until some message comes. So a waiting approver wakes WAKE_EVERY seconds.

Not handled: after Ctrl-C the reading thread still waits on stdin (a daemon, so it does not keep the program alive,
but it holds stdin's lock: end such a program with os._exit, as the terminal agent does).
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
import threading

WAKE_EVERY = 0.25  # seconds: a waiting approver wakes this often, so Stop (a SIGINT) takes effect at once


async def wait_awake(future: asyncio.Future) -> None:
    """Await `future`, waking every WAKE_EVERY seconds so that an interrupt is noticed at once."""
    while not future.done():
        await asyncio.wait({future}, timeout=WAKE_EVERY)


async def read_line(prompt: str) -> str:
    """`input(prompt)` in a daemon thread (not cancellable, and never keeping the program alive after Ctrl-C), so
    the event loop keeps running while a person types."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()
    context = contextvars.copy_context()

    def deliver(line: str | None, error: BaseException | None) -> None:  # on the loop's thread
        if answer.done():  # the wait was interrupted: a late line decides nothing
            return
        if error is None:
            answer.set_result(line)
        else:
            answer.set_exception(error)

    def read() -> None:
        line, error = None, None
        try:
            line = context.run(input, prompt)
        except BaseException as err:  # EOF, a closed or missing stdin, no stdin in this kernel, ...
            error = err
        try:
            loop.call_soon_threadsafe(deliver, line, error)
        except RuntimeError:  # the event loop is gone (the program stopped meanwhile)
            pass

    threading.Thread(target=read, name="approval-input", daemon=True).start()
    try:
        await wait_awake(answer)
    except BaseException:  # interrupted: whatever is typed later decides nothing
        answer.cancel()
        raise
    return answer.result()


def stdin_is_a_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # closed
        return False
