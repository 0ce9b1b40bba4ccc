"""Bounds for a run of a learner's code: a loop that never stops still ends, and says which bound stopped it.

A "try it" cell runs code the learner just wrote, and so does every check; the mistake the course teaches -- a
loop with no way out -- would hang that cell for good (in a browser tab, Stop may not reach it). So every such run
gets two bounds of its own, and a run that meets one ends with one line naming it:

    client = grading.offline("inbox-runaway", max_requests=REQUESTS)  # offline: request 41 and later get a 400
    result, stopped = await bounded(run_agent(client, ...), client)     # at most SECONDS (20 s)
    if stopped:
        print(stopped)   # [practice] stopped: the model was asked more than 40 times (the practice run's cap ...)

This is the one bounded run: exercise 5's "Try it" calls it as above, and the checks' runs and the practice
cells of exercises 1-4 through exercises/checks/kit.bounded (which words the same two bounds for a check's line).

- **requests**: the offline client's ``max_requests`` (harness_kit.offline: every request past it is a 400 the SDK
  does not retry). A run that asked for more is stopped by that bound, whether it then raised or returned.
- **time**: `seconds` of wall clock. A run stuck in an ``await`` is cancelled; a run busy in a Python loop of its
  own (``while True: pass``) is stopped at its next line: a trace function (``sys.settrace``) watches the lines of
  code outside the standard library, the installed packages and the kit's three packages, and past the deadline
  raises :class:`OutOfTime` there (a BaseException, so ``except Exception`` in the learner's loop does not
  swallow it). In a process's main thread where there is a user signal (Linux, macOS: a notebook's kernel) the
  tracer is installed only at the deadline, by a timer thread that interrupts the main thread (so a run that
  ends in time costs nothing); elsewhere (a browser tab, Windows, another thread) it watches from the start.

NOT handled: a loop that catches BaseException (Python turns tracing off after the trace function raises once, so
a bare ``except:`` inside the loop keeps it going); code under a debugger (the debugger's tracer is left alone,
and only an ``await`` is bounded); a loop inside a compiled extension; two bounded runs at once in one thread (the later one's end stops
the earlier one's watch on lines: only its ``await`` stays bounded). A run stopped by a bound may leave its own
tasks running; the next run is bounded on its own.
"""

from __future__ import annotations

import _thread
import asyncio
import os
import signal
import sys
import sysconfig
import threading
import time

import harness_kit
import harness_lib
from harness_kit import lang
from harness_lib.client import offline_api

__all__ = ["REQUESTS", "SECONDS", "OutOfTime", "Stopped", "bounded"]

REQUESTS, SECONDS = 40, 20.0  # a practice run's bounds: model requests (of an offline client), wall-clock seconds

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
    """Raised in the learner's code once a run's time is up."""


class Stopped(str):
    """The line saying which bound stopped a run; `.bound` is "requests" or "time", `.limit` its number."""

    bound: str
    limit: float


def _stopped(bound: str, limit: float, line: str) -> Stopped:
    stopped = Stopped(line)
    stopped.bound, stopped.limit = bound, limit
    return stopped


def _library_folders() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    folders = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    folders |= {os.path.dirname(os.path.abspath(m.__file__)) for m in (harness_kit, harness_lib)}
    folders.add(os.path.dirname(os.path.abspath(__file__)))
    return tuple(os.path.join(os.path.abspath(f), "") for f in folders)


LIBRARY = _library_folders()


def _learners(code, cache: dict = {}) -> bool:  # noqa: B006 (a cache shared by every run, on purpose)
    """Is `code` the learner's (a notebook cell, an exercise file), not Python's, a package's or the kit's?"""
    known = cache.get(code)
    if known is None:
        name = code.co_filename
        known = cache[code] = not (name.startswith("<frozen") or os.path.abspath(name).startswith(LIBRARY))
    return known


def _time_limit(deadline: float) -> tuple:
    """(on_call, on_line): a trace function that raises OutOfTime on a line of the learner's code past `deadline`."""
    def on_line(frame, event, arg):
        if event == "line" and time.monotonic() > deadline:
            raise OutOfTime
        return on_line

    def on_call(frame, event, arg):
        return on_line if _learners(frame.f_code) else None

    return on_call, on_line


def _arm(deadline: float):
    """Start watching the learner's lines for `deadline` (see the module docstring). -> a function that stops it."""
    if sys.gettrace() is not None:  # a debugger's tracer is left alone (then only an await is bounded)
        return lambda: None
    on_call, on_line = _time_limit(deadline)
    wake = getattr(signal, "SIGUSR2", None)
    if wake is None or sys.platform == "emscripten" or threading.current_thread() is not threading.main_thread():
        sys.settrace(on_call)  # no signal to wake the main thread with: watch every line from the start
        return lambda: sys.settrace(None)

    traced = []  # the frames already running that got the line tracer

    def at_deadline(signum, frame):  # in the main thread, between two of its bytecodes
        if time.monotonic() > deadline and sys.gettrace() is None:
            while frame is not None:
                if _learners(frame.f_code):
                    frame.f_trace = on_line
                    traced.append(frame)
                frame = frame.f_back
            sys.settrace(on_call)

    previous, ended = signal.signal(wake, at_deadline), threading.Event()

    def wake_at_deadline():  # a thread of its own: interrupts the main thread once the deadline has passed
        while not ended.wait(max(deadline - time.monotonic(), 0)):
            if time.monotonic() > deadline:
                _thread.interrupt_main(wake)
                return

    threading.Thread(target=wake_at_deadline, daemon=True).start()

    def disarm():
        ended.set()
        signal.signal(wake, previous)
        sys.settrace(None)
        for frame in traced:
            frame.f_trace = None
    return disarm


def requests_over(client) -> int | None:
    """The client's cap on requests when the run asked for more than it, else None (a live client, or none: None)."""
    try:
        api = offline_api(client)
    except TypeError:  # live (or no client): no cap of ours
        return None
    return api.max_requests if api.max_requests is not None and len(api.log) > api.max_requests else None


async def bounded(run, client=None, *, seconds: float | None = None):
    """Await the coroutine `run` under a time limit (`seconds`, else SECONDS) and the request cap of `client`
    (an offline client's max_requests).

    -> ``(result, None)`` when it ended by itself within the bounds; ``(result or None, stopped)`` when a bound
    stopped it, `stopped` the line saying which (a :class:`Stopped`). Any other error of the run is raised, as
    awaiting it would.
    """
    language, seconds = lang.current(), SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds
    disarm = _arm(deadline)
    result, timed_out = None, False
    try:
        result = await asyncio.wait_for(run, timeout=seconds)
    except OutOfTime:
        timed_out = True
    except Exception as err:  # the time limit's own TimeoutError, or the run's error (its own TimeoutError too)
        timed_out = isinstance(err, asyncio.TimeoutError) and time.monotonic() >= deadline
        if not timed_out and requests_over(client) is None:
            raise
    finally:
        disarm()
    if (cap := requests_over(client)) is not None:
        return result, _stopped("requests", cap, lang.say(WORDS, "requests", language, n=cap))
    if timed_out:
        return result, _stopped("time", seconds, lang.say(WORDS, "time", language, seconds=seconds))
    return result, None
