"""Notebook plumbing for the lessons: say who answers, turn an API failure into one clear line, let a cell that
needs a misbehaving model use the offline one, live too, and give a cell a throwaway folder that a killed kernel
does not leave behind for good (throwaway_folder).

    from harness_ui.notebook import scripted_model, setup
    setup()      # a lesson's first cell; prints who answers, e.g.
                 # offline: the kit's offline model answers, no API key used (model claude-sonnet-5)

    with scripted_model():   # live, prints one line saying why; offline, nothing
        runaway = make_client(scenario="never-ends")   # the offline model's never-ends, offline and live

Why one line: when a whole class presses Run All at once, the API may answer ``429 rate_limit_error``. The
SDK retries (twice by default) and then raises ``anthropic.RateLimitError``, which IPython shows as a long
traceback through the SDK's internals. After :func:`setup`, the cell ends with one line instead::

    API error 429 rate_limit_error: Number of request tokens has exceeded ... — the SDK retried 2 times;
    wait a minute, then run the cell again  (%tb shows the full traceback)

The cell still *fails*: the kernel reports the error (ename, evalue and that one line as the traceback), so
Run All stops there, and nbval and nbclient see an error exactly as before, tagged ``raises-exception`` or
not. Only the picture changes. ``%tb`` in the next cell prints the whole traceback.

In Spanish (``setup(lang="es")``, or ``HARNESS_LANG=es`` before Jupyter starts) the mode line, the one-line
API errors and the scripted-model line are Spanish; the API's own message inside the line stays as the API
wrote it.

NOT handled: errors other than ``anthropic.APIError`` (a bug in your loop keeps its full traceback); an API
error wrapped in another exception (an ``ExceptionGroup`` from a ``TaskGroup``); plain Python outside
IPython (``setup()`` then only prints the mode line).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import anthropic

from harness_kit import lang as _lang  # (as _lang: setup() has a parameter called lang)
from harness_kit.shown import visible_text
from harness_lib.client import MODEL, is_live

__all__ = ["setup", "scripted_model", "describe_api_error", "mode_line"]

_ADVICE = (401, 403, 404, 413)  # the statuses with a piece of advice of their own ("nb.advice.<status>")


def mode_line() -> str:
    """One line: offline or live, and which model."""
    if is_live():
        base = urlsplit(os.environ.get("ANTHROPIC_BASE_URL") or "")
        where = (f"{base.scheme}://{base.netloc.rpartition('@')[2]}" if base.netloc
                 else _lang.text("nb.the_anthropic_api"))
        return _lang.text("nb.live", where=where, model=MODEL)
    return _lang.text("nb.offline", model=MODEL)


def describe_api_error(err: anthropic.APIError) -> str:
    """One line saying what went wrong with an API call, and what to do about it."""
    retries = int(err.request.headers.get("x-stainless-retry-count", 0)) if err.request is not None else 0
    retried = _lang.plural("nb.retried", retries).format(n=retries)
    if isinstance(err, anthropic.APIStatusError):
        status = err.status_code
        what = f"{_lang.text('nb.api_error', status=status)} {visible_text(err.type or '', lines=False)}".rstrip()
        what += f": {visible_text(err.api_message or err.message, lines=False)}"  # the endpoint's words, escaped
        if status in (408, 409, 429) or status >= 500:  # the statuses the SDK retries
            return _lang.text("nb.wait_and_retry", what=what, retried=retried)
        if status in _ADVICE:
            return f"{what} — {_lang.text(f'nb.advice.{status}', model=MODEL)}"
        return what
    if isinstance(err, anthropic.APIConnectionError):  # also APITimeoutError
        url = err.request.url if err.request is not None else None
        where = f"{url.scheme}://{url.netloc.decode()}" if url is not None else _lang.text("nb.the_api")
        if isinstance(err, anthropic.APITimeoutError):
            what = _lang.text("nb.timeout", where=where)
        else:
            cause = f" ({type(err.__cause__).__name__}: {err.__cause__})" if err.__cause__ else ""
            what = _lang.text("nb.unreachable", where=where, cause=cause)
        return _lang.text("nb.check_network", what=what, retried=retried)
    return _lang.text("nb.api_error_plain", message=visible_text(err.message, lines=False))


def _one_line(shell, etype, value, tb, tb_offset=None):
    """IPython's custom exception handler: show one line instead of the traceback, keep %tb working."""
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb  # what %tb reads
    if sys.version_info >= (3, 12):
        sys.last_exc = value
    line = " ".join(_lang.text("nb.full_traceback", line=describe_api_error(value)).splitlines())  # ONE line
    shell._showtraceback(etype, value, [line])  # ipykernel sends this as the cell's error output
    # nothing returned: IPython ignores a handler's return value here


def setup(*, lang=None) -> None:
    """Call once, in a lesson's first cell: print :func:`mode_line`, and from now on show an
    ``anthropic.APIError`` that ends a cell as one line in the running IPython (see the module docstring).
    Calling it again is harmless. Outside IPython only the line is printed.

    ``lang``: the language of this notebook, ``"en"`` or ``"es"`` -- what harness_lib prints from now on
    in this kernel (the approver, the transcript, these lines) and the language the offline model answers
    in; it sets ``HARNESS_LANG`` (see harness_kit.lang). Any other value is a ValueError. ``None`` (the
    default) leaves the setting as it is: ``HARNESS_LANG``, else English."""
    if lang is not None:
        _lang.use(lang)
    try:
        from IPython import get_ipython
    except ImportError:
        get_ipython = lambda: None  # noqa: E731  (no IPython installed: plain Python)
    shell = get_ipython()
    if shell is not None:
        shell.set_custom_exc((anthropic.APIError,), _one_line)
    print(mode_line())


@contextlib.contextmanager
def scripted_model():
    """For a cell whose lesson needs a model that misbehaves on cue: one that never ends, hogs tokens, stops at
    max_tokens, tries a write nobody asked for. Claude will not misbehave on cue, so inside this block
    :func:`is_live` is False (``HARNESS_OFFLINE=1``): ``make_client(scenario=...)`` gives the offline model's
    scenario and the terminal agent runs offline, live too. Live, entering the block prints one line saying so;
    offline it prints nothing, and the cell prints the same either way.

    When the block ends (an exception too), ``HARNESS_OFFLINE`` is put back as it was. A client made inside
    keeps talking to the offline model after the block: the choice is made when a client is made.

    NOT handled: ``HARNESS_OFFLINE`` is one setting for the whole kernel, so anything else that makes a client
    while the block runs (another task, a button's callback) gets an offline one too; a client made before the
    block stays live. Only the cells inside such a block are scripted: every other cell talks to Claude.
    """
    if is_live():
        print(_lang.text("nb.scripted"))
    before = os.environ.get("HARNESS_OFFLINE")
    os.environ["HARNESS_OFFLINE"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("HARNESS_OFFLINE", None)
        else:
            os.environ["HARNESS_OFFLINE"] = before


def throwaway_folder(prefix: str) -> tempfile.TemporaryDirectory:
    """A new empty folder in the system's temporary folder, named `<prefix>-<this process's id>-<8 random
    characters>`, as a TemporaryDirectory: it is deleted by its cleanup(), when it is garbage collected (the
    notebook cell that made it runs again) and when Python exits normally.

    A process that is killed cannot delete its folder (nbval and nbclient stop a kernel that way). So first
    this deletes the leftovers: the folders named `<prefix>-<id>-<8 characters>` whose process no longer
    runs. A folder of a running process (this one included) is kept, and so is anything else: other names,
    files, links. An id that cannot be checked counts as running: nothing is deleted on a guess.

    NOT handled: a leftover whose process id the system has since given to a new process stays until that
    one ends too; processes in another PID namespace (containers sharing one temporary folder) look ended;
    a leftover another user may not delete, or one in another temporary folder (TMPDIR changed), stays.
    """
    if not prefix or not all(c.isascii() and (c.isalnum() or c in "_.-") for c in prefix):
        raise ValueError(f"the prefix must be letters, digits, '_', '.' or '-' (a folder name): {prefix!r}")
    for path in Path(tempfile.gettempdir()).iterdir():
        tail = path.name.removeprefix(f"{prefix}-")  # "<id>-<8 characters>" (as tempfile names them) if made here
        pid, _, rest = tail.partition("-")
        made_here = (tail != path.name and pid.isascii() and pid.isdigit() and len(rest) == 8
                     and all(c in "abcdefghijklmnopqrstuvwxyz0123456789_" for c in rest))
        if made_here and not path.is_symlink() and path.is_dir() and not _is_running(int(pid)):
            shutil.rmtree(path, ignore_errors=True)  # what cannot be deleted (another user's) stays
    return tempfile.TemporaryDirectory(prefix=f"{prefix}-{os.getpid()}-")


def _is_running(pid: int) -> bool:
    """Whether process `pid` still runs; True when that cannot be told. (psutil, an ipykernel dependency, asks each
    system the right way: on Windows os.kill(pid, 0) is no test, 0 being CTRL_C_EVENT there.)"""
    import psutil

    try:
        return psutil.pid_exists(pid)
    except (OSError, OverflowError, ValueError):
        return True
