"""Bounds for a practice run: a learner's loop that never stops still ends, and says which bound stopped it.

A "try it" cell runs code the learner just wrote, and the mistake the course teaches -- a loop with no way out --
would hang that cell for good (in a browser tab, Stop may not reach it). So a practice run gets two bounds of its
own, and a run that meets one ends with one line naming it:

    client = grading.offline("inbox-runaway", max_requests=40)    # offline: request 41 and later get a 400
    result, stopped = await bounded(run_agent(client, ...), client, seconds=20)
    if stopped:
        print(stopped)   # [practice] stopped: the model was asked more than 40 times (the practice run's cap)

- **requests**: the offline client's ``max_requests`` (harness_kit.offline: every request past it is a 400 the SDK
  does not retry). A run that asked for more is stopped by that bound, whether it then raised or returned.
- **time**: `seconds` of wall clock. A run stuck in an ``await`` is cancelled; a run busy in a Python loop of its
  own (``while True: pass``) is stopped at its next line: while the run is awaited, a trace function
  (``sys.settrace``) watches the lines of code outside the standard library, the installed packages and
  harness_lib, and past the deadline raises :class:`OutOfTime` there (a BaseException, so ``except Exception``
  in the learner's loop does not swallow it).

NOT handled: a loop that catches BaseException (Python turns tracing off after the trace function raises once, so
a bare ``except:`` inside the loop keeps it going); code under a debugger (the debugger's tracer is left alone,
and only an ``await`` is bounded); a loop inside a compiled extension. A run stopped by a bound may leave its own
tasks running; the next practice run is bounded on its own.
"""

from __future__ import annotations

import asyncio
import os
import sys
import sysconfig
import time

from harness_kit import lang

__all__ = ["OutOfTime", "bounded"]

WORDS = {
    "en": {"requests": "[practice] stopped: the model was asked more than {n} times (the practice run's cap on "
                       "requests): a loop that does not end?",
           "time": "[practice] stopped: still running after {seconds:g} s (the practice run's time limit): a loop "
                   "that does not end?"},
    "es": {"requests": "[práctica] detenida: se le pidió al modelo más de {n} veces (el tope de peticiones de la "
                       "práctica): ¿un bucle que no termina?",
           "time": "[práctica] detenida: seguía en marcha tras {seconds:g} s (el límite de tiempo de la práctica): "
                   "¿un bucle que no termina?"},
}


class OutOfTime(BaseException):
    """Raised in the learner's code once a practice run's time is up."""


def _library_folders() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    folders = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    folders.add(os.path.dirname(os.path.abspath(__file__)))  # harness_lib itself
    return tuple(os.path.join(os.path.abspath(f), "") for f in folders)


LIBRARY = _library_folders()


def _learners(code, cache: dict = {}) -> bool:  # noqa: B006 (a cache shared by every run, on purpose)
    """Is `code` the learner's (a notebook cell, an exercise file), not Python's, a package's or the kit's?"""
    known = cache.get(code)
    if known is None:
        name = code.co_filename
        known = cache[code] = not (name.startswith("<frozen") or os.path.abspath(name).startswith(LIBRARY))
    return known


def _time_limit(deadline: float):
    """A trace function that raises OutOfTime on a line of the learner's code once `deadline` has passed."""
    def on_line(frame, event, arg):
        if event == "line" and time.monotonic() > deadline:
            raise OutOfTime
        return on_line

    def on_call(frame, event, arg):
        return on_line if _learners(frame.f_code) else None

    return on_call


def requests_over(client) -> int | None:
    """The client's cap on requests when the run asked for more than it, else None (a live client: None)."""
    transport = getattr(getattr(client, "_client", None), "_transport", None)
    cap = getattr(transport, "max_requests", None)
    return cap if cap is not None and len(transport.log) > cap else None


async def bounded(run, client=None, *, seconds: float = 20.0):
    """Await the coroutine `run` under a time limit (and the request cap of `client`, an offline client).

    -> ``(result, None)`` when it ended by itself within the bounds; ``(result or None, line)`` when a bound
    stopped it, `line` saying which. Any other error of the run is raised, as awaiting it would.
    """
    language = lang.current()
    deadline = time.monotonic() + seconds
    previous = sys.gettrace()
    if previous is None:  # a debugger's tracer is left alone (then only an await is bounded)
        sys.settrace(_time_limit(deadline))
    result, timed_out = None, False
    try:
        result = await asyncio.wait_for(run, timeout=seconds)
    except (OutOfTime, asyncio.TimeoutError):
        timed_out = True
    except Exception:
        if requests_over(client) is None:
            raise
    finally:
        if previous is None:
            sys.settrace(None)
    if (cap := requests_over(client)) is not None:
        return result, lang.say(WORDS, "requests", language, n=cap)
    if timed_out:
        return result, lang.say(WORDS, "time", language, seconds=seconds)
    return result, None
