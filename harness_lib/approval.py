"""Valve 4, the human side: a person approves a high-impact tool call before it runs.

An *approver* is any coroutine function

    async def approve(name: str, tool_input: dict) -> bool

The loop awaits it before running a high-impact tool. Only ``True`` means "run it"; anything else
(``False``, an unclear answer, an exception) means "do not run it": the loop then sends
``REJECTED_MESSAGE`` back as an ``is_error`` tool_result, so the call is answered and the model can
pick another route (a rejection is a result, not silence). Every approver here fails closed: no
answer, an unclear answer, a timeout or an interrupt is a "no".

Three approvers live here:

- ``terminal_approver``            -- prints the action, reads a line; only ``y`` / ``yes`` approves.
- ``scripted_approver(decisions)`` -- answers from a list; for tests.
- ``widget_approver(timeout=...)`` -- Approve / Reject buttons in JupyterLab (ipywidgets).

Stopping the run while a person is asked (Stop in JupyterLab, Ctrl-C in a terminal) rejects the
action and raises ``ApprovalInterrupted``, which ends the run; nothing of that turn runs.

What a person reads here follows ``HARNESS_LANG`` (harness_lib.lang): in Spanish the buttons say
Aprobar / Rechazar, the question ends ``[s/N]`` (``s``, ``si``, ``sí``, ``y``, ``yes`` approve) and a
decision line reads ``→ aprobada`` / ``→ rechazada``. The ``[approve]`` tag and the action stay as they are.

Why everything is ``async``: while a person thinks, the event loop must stay free. In a notebook the
button click is delivered *through* that event loop; a cell that blocks (``time.sleep`` polling,
``input()``) would never see the click. docs/architecture.md ("Why the approval gate is async") lists
which ways of waiting work on which ipykernel.
"""

from __future__ import annotations

import asyncio
import contextvars
import html
import json
import math
import os
import re
import sys
import threading
import unicodedata

from . import lang

REJECTED_MESSAGE = "The person declined this high-impact action; it was not run."
"""The is_error tool_result text the model gets when the person says no (or nobody answers).

English in every edition: it is for the model, not for the person (see harness_lib.lang)."""


class ApprovalInterrupted(asyncio.CancelledError):
    """The run was stopped (Stop in JupyterLab, Ctrl-C) while an approval was pending.

    The action was rejected (it never ran), and the run stops here. Its message is the one decision
    line, e.g. ``[approve] write_file({...}) → rejected (interrupted)``; IPython shows just that line
    instead of a traceback.

    It is an ``asyncio.CancelledError`` because stopping is cancelling: code that turns an approver's
    ``Exception`` into a rejection (as the loop does) lets it through, so the run really ends.
    """

    def _render_traceback_(self) -> list[str]:  # IPython's hook: what to show instead of a traceback
        return [str(self)]


# Characters that can make text read as something it is not: control characters, bidi overrides,
# isolates and marks (U+202A-E, U+2066-9, U+200E/F, U+061C), zero-width characters (U+200B-D, U+2060,
# U+FEFF) and the other invisible "format" characters, and line/paragraph separators.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def _escape_invisible(text: str) -> str:
    """Write each invisible or reordering character as a JSON escape (``\\u202e``); keep the rest."""
    out = []
    for ch in text:
        if unicodedata.category(ch) not in _INVISIBLE_CATEGORIES:
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:  # beyond the BMP: a JSON surrogate pair, so the text stays valid JSON
            high, low = divmod(ord(ch) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
    return "".join(out)


def describe(name: str, tool_input: dict) -> str:
    """The pending action as one line: ``write_file({"path":"scratch/a.txt","content":"hi"})``.

    Compact JSON. Readable non-ASCII (é, ✓, 中文) is kept as is; control characters, bidi overrides
    and isolates, and zero-width characters are shown escaped (``\\u202e``), so an argument cannot
    make the pending action read as something else (a right-to-left override can make ``exe.txt``
    look like ``txt.exe``). Long inputs are shown in full (the person must see what they approve);
    nothing is truncated or redacted.

    Not handled: look-alike letters (a Cyrillic ``а`` for a Latin ``a``) are shown as they are.
    """
    return _escape_invisible(f"{name}({json.dumps(tool_input, ensure_ascii=False, separators=(',', ':'))})")


WAKE_EVERY = 0.25
"""Seconds between wake-ups while an approver waits, so that Stop (an interrupt) takes effect at once.

A kernel's interrupt is a SIGINT. Python runs its handler only when the main thread runs Python
code, and a kernel whose cell is awaiting sleeps in its event loop until some message arrives; so an
approver that simply awaited a click would notice Stop only at the next message (or its timeout).
Waking up a few times a second lets ipykernel turn the interrupt into a cancellation right away.
"""


async def _wait_awake(future: asyncio.Future) -> None:
    """Await `future`, waking up every WAKE_EVERY seconds so that an interrupt is noticed at once."""
    while not future.done():
        await asyncio.wait({future}, timeout=WAKE_EVERY)


# --- the terminal --------------------------------------------------------------------------------

YES = lang.MESSAGES["en"]["approve.yes"]
"""The only answers that approve (any case, surrounding spaces ignored). Everything else is a no.

That is ``y`` / ``yes`` in English; with ``HARNESS_LANG=es`` the question ends ``[s/N]`` and ``s``, ``si``,
``sí``, ``y`` and ``yes`` approve (``lang.yes_answers()``)."""


async def _read_line(prompt: str) -> str:
    """``input(prompt)`` in a worker thread, so the event loop keeps running while a person types.

    A daemon thread, not ``asyncio.to_thread``: ``input()`` cannot be cancelled, and a pool thread still
    waiting on stdin after Ctrl-C would keep the program alive until someone presses Enter. The
    thread runs in a copy of the caller's context, as ``asyncio.to_thread`` would (a Jupyter kernel
    may use it to send the prompt to the right cell).
    """
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
        await _wait_awake(answer)
    except BaseException:  # interrupted: whatever is typed later decides nothing
        answer.cancel()
        raise
    return answer.result()


def _stdin_is_a_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):  # closed
        return False


def _decision(action: str, outcome: str, **values) -> str:
    """``[approve] write_file({...}) → rejected``: the one line that states a decision, in the current language."""
    return lang.text("approve.decision", action=action, outcome=lang.text(outcome, **values))


async def _ask_in_text(action: str, *, terminal: bool) -> bool:
    """Ask ``[y/N]`` on stdin and print one decision line. Shared by the terminal and the old-kernel fallback.

    ``terminal``: print the interrupt line too (outside IPython nobody renders ``ApprovalInterrupted``),
    and start the decision on a new line when stdin is piped (a piped answer is not echoed).
    """
    try:  # input() shows the prompt: on the terminal, or in a notebook's text box
        answer = await _read_line(lang.text("approve.prompt", action=action))
    except (asyncio.CancelledError, KeyboardInterrupt):  # Ctrl-C / Stop while the prompt waits
        line = _decision(action, "approve.interrupted")
        if terminal:
            print(f"\n{line}", flush=True)
        raise ApprovalInterrupted(line) from None
    except EOFError:
        print("\n" + _decision(action, "approve.eof"))
        return False
    except Exception as err:  # stdin closed or missing, or a kernel that cannot read a line
        print("\n" + _decision(action, "approve.no_input", error=type(err).__name__))
        return False
    said = unicodedata.normalize("NFC", answer.strip().lower())  # "sí" typed as s + a combining accent too
    new_line = "\n" if terminal and not _stdin_is_a_terminal() else ""
    if said in lang.yes_answers():
        print(new_line + _decision(action, "approve.approved"))
        return True
    if said in lang.no_answers():
        print(new_line + _decision(action, "approve.rejected"))
    else:
        print(new_line + _decision(action, "approve.unclear", answer=repr(answer.strip())))
    return False


async def terminal_approver(name: str, tool_input: dict) -> bool:
    """Ask on the terminal: ``... allow it? [y/N]``. Only ``y`` / ``yes`` (any case) approves.

    Fails closed: Enter (the default, the capital N), ``n``, any other answer, end of input (EOF) and a
    closed or missing stdin all reject. One line states the decision, e.g.
    ``[approve] write_file({...}) → rejected``. Ctrl-C while the prompt waits prints
    ``→ rejected (interrupted)`` and raises ``ApprovalInterrupted``, which stops the run.

    ``input()`` blocks, so it runs in a worker thread and the event loop keeps running meanwhile.

    Not handled: there is no timeout (a terminal session waits for its person); after Ctrl-C the
    worker thread still waits on stdin (a daemon thread, so it does not keep the program alive);
    inside a notebook run by nbval ``input()`` raises ``StdinNotImplementedError``, a rejection --
    use ``widget_approver`` there.
    """
    return await _ask_in_text(describe(name, tool_input), terminal=True)


# --- tests ---------------------------------------------------------------------------------------


def scripted_approver(decisions):
    """An approver that answers from ``decisions`` (a list of bools), in order. For tests.

    Every question is recorded in ``approve.asked`` as ``(name, tool_input)``. Being asked more often
    than there are decisions raises ``RuntimeError`` (the test then learns the loop asked too often).
    """
    remaining = list(decisions)

    async def approve(name: str, tool_input: dict) -> bool:
        approve.asked.append((name, tool_input))
        if not remaining:
            raise RuntimeError(
                f"scripted_approver ran out of decisions: question {len(approve.asked)} "
                f"({describe(name, tool_input)}) but only {len(decisions)} decision(s) were given"
            )
        return remaining.pop(0)

    approve.asked = []
    return approve


# --- JupyterLab ----------------------------------------------------------------------------------


AUTO_CHOICES = ("approve", "reject")

_headless_clicks: list[str] = []  # the buttons a headless run presses, in order (see set_headless_clicks)


def set_headless_clicks(choices) -> None:
    """Say, once per notebook, which button each approval of a *headless* run presses, in order.

    Nobody clicks in the kit's automated runs (nbval, CI: ``HARNESS_AUTO_APPROVE=notebook``), so a
    lesson lists its approvals' buttons in its setup cell -- ``["reject", "approve"]`` -- instead of
    naming one in every lesson cell. A person's run ignores the list: you click. Each approval that
    finds no ``auto_click`` of its own takes the next entry; when the list is used up, the approver
    raises ``ValueError`` (the loop counts that as a no, and the test that expected a click fails loudly).
    """
    choices = list(choices)
    bad = [c for c in choices if c not in AUTO_CHOICES]
    if bad:
        raise ValueError(f"headless clicks must be 'approve' or 'reject', not {bad[0]!r}")
    _headless_clicks[:] = choices


def _check_timeout(value, what: str) -> float:
    """``value`` as seconds if it is a finite number > 0; otherwise a ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{what} must be a finite number of seconds > 0, not {value!r}")
    return float(value)


def _timeout_from_environment(default: float | None) -> float | None:
    """``HARNESS_APPROVAL_TIMEOUT`` when set (finite seconds > 0, nothing else), else ``default``."""
    raw = os.environ.get("HARNESS_APPROVAL_TIMEOUT", "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value <= 0:
        raise ValueError(f"HARNESS_APPROVAL_TIMEOUT must be a finite number of seconds > 0, not {raw!r}")
    return value


def running_kernel_version() -> tuple[int, int] | None:
    """(major, minor) of the ipykernel that runs this code, or None outside a Jupyter kernel."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    if getattr(get_ipython(), "kernel", None) is None:  # plain Python, or a terminal IPython
        return None
    import ipykernel

    major, minor = (re.findall(r"\d+", ipykernel.__version__) + ["0", "0"])[:2]
    return int(major), int(minor)


def widget_approver(*, timeout: float | None = 120.0, auto_click: str | None = None,
                    kernel_version=running_kernel_version):
    """An approver that shows Approve / Reject buttons under the running cell and awaits a click.

    Each call displays the pending action and two buttons, then awaits an ``asyncio.Future``. The
    cell stays busy (``[*]``) while it waits, but the kernel's event loop is free, so the click
    message gets through. The click handler may run on a kernel *subshell thread* (JupyterLab 4.6
    sends widget messages over subshells), so it only hands the decision to the event loop with
    ``loop.call_soon_threadsafe``; the Future is set on the loop's own thread.

    - The first click decides; both buttons are then disabled and the label shows the decision.
      The label shows the whole action, wrapped, never cut: the person must see what they approve.
      A second click (or a late one) decides nothing.
    - No answer within ``timeout`` seconds is a rejection (fail-safe). ``timeout`` must be a finite
      number > 0 (``ValueError`` otherwise); ``timeout=None`` waits forever, and only an explicit
      ``None`` in code can ask for that.
    - One plain line is printed per decision, e.g. ``[approve] write_file({...}) → approved``.
    - Stop (interrupt the kernel) while the buttons wait rejects at once: both buttons are disabled,
      the label shows ``→ rejected (interrupted)``, and ``ApprovalInterrupted`` is raised, so the
      run stops and the cell ends with that one line (IPython shows it instead of a traceback).
    - A kernel that cannot deliver a click while a cell waits (ipykernel 6 and older: it handles
      the click only after the cell ends) gets a text box instead: one line says why, then the
      terminal's ``[y/N]`` question (only ``y`` / ``yes`` approves). ipykernel 7.0-7.3 can deliver
      the click to another thread, which the thread-safe hand-over above handles, so 7.x gets buttons.
      ``kernel_version`` is the probe that tells (a function returning ``(major, minor)`` or None
      outside a kernel); tests pass their own.

    Environment switches, for headless runs (nbval, CI) where nobody can click (read at each call):

    - ``HARNESS_AUTO_APPROVE=approve|reject``: the approver clicks that real button itself
      (``button.click()``), so the same handler runs and the printed output is the same as after a
      human click. (This works on any kernel: the click needs no message.)
    - ``HARNESS_AUTO_APPROVE=notebook``: click the button this approval is given: ``auto_click="approve"``
      or ``"reject"``, else the next entry of the notebook's list (:func:`set_headless_clicks`, which
      ``harness_lib.notebook.setup(headless_clicks=[...])`` calls), so a lesson can show a rejection under
      nbval too; with neither, ``ValueError``.
    - unset or empty: wait for a person (``auto_click`` is then ignored).
    - ``HARNESS_APPROVAL_TIMEOUT=<seconds>``: when set, overrides ``timeout``; a value that is not a
      finite number > 0 raises ``ValueError`` (the loop counts that as a no: it fails closed).

    Not handled: the cell must *await* the approver (top-level ``await``); a blocking (non-async)
    cell deadlocks. The text-box fallback has no timeout, and after Stop its worker thread still waits
    for an answer (what is typed into a leftover box decides nothing). The buttons are ordinary widgets: if the
    page is closed, or the widget manager failed to load, nobody can click and the wait ends by
    timeout.
    """
    import IPython.display  # imported here so the terminal agent does not need IPython/ipywidgets
    import ipywidgets as widgets

    if auto_click not in (None, *AUTO_CHOICES):
        raise ValueError(f"auto_click must be 'approve', 'reject' or None, not {auto_click!r}")
    if timeout is not None:
        timeout = _check_timeout(timeout, "timeout")
    told_why_no_buttons = False

    async def approve(name: str, tool_input: dict) -> bool:
        nonlocal told_why_no_buttons
        wait = _timeout_from_environment(timeout)
        auto = os.environ.get("HARNESS_AUTO_APPROVE", "").strip().lower()
        if auto == "notebook":
            if auto_click is None and not _headless_clicks:
                raise ValueError("HARNESS_AUTO_APPROVE=notebook, but no button is named for this approval: "
                                 "list it in the notebook's setup(headless_clicks=[...]) "
                                 "or use widget_approver(auto_click='approve' / 'reject')")
            auto = auto_click or _headless_clicks.pop(0)
        if auto not in ("", *AUTO_CHOICES):
            raise ValueError(f"HARNESS_AUTO_APPROVE must be 'approve', 'reject' or 'notebook', not {auto!r}")

        action = describe(name, tool_input)
        version = kernel_version()
        if not auto and version is not None and version < (7, 0):  # a click would arrive after the cell
            if not told_why_no_buttons:
                print(lang.text("approve.no_buttons", version=f"{version[0]}.{version[1]}"))
                told_why_no_buttons = True
            return await _ask_in_text(action, terminal=False)

        loop = asyncio.get_running_loop()
        decision: asyncio.Future[bool] = loop.create_future()

        def show(text: str) -> str:  # an HTML widget wraps long inputs; a Label would cut them off with "…"
            return f'<div style="overflow-wrap:anywhere">{html.escape(text, quote=False)}</div>'

        label = widgets.HTML(show(lang.text("approve.pending", action=action)))
        approve_button = widgets.Button(description=lang.text("approve.button_approve"), button_style="success",
                                        icon="check")
        reject_button = widgets.Button(description=lang.text("approve.button_reject"), button_style="danger",
                                       icon="times")

        def settle(approved: bool) -> None:  # runs on the event loop's thread
            if not decision.done():  # the first click wins; a later one (or one after the timeout) is ignored
                decision.set_result(approved)

        def on_click(button) -> None:  # may run on a kernel subshell thread: do not touch the Future here
            if not decision.done():
                loop.call_soon_threadsafe(settle, button is approve_button)

        def finish(outcome: str, **values) -> str:  # no live buttons are ever left behind
            if not decision.done():
                decision.set_result(False)  # a late click decides nothing
            approve_button.disabled = reject_button.disabled = True
            line = _decision(action, outcome, **values)
            label.value = show(line)
            return line

        approve_button.on_click(on_click)
        reject_button.on_click(on_click)
        IPython.display.display(widgets.VBox([label, widgets.HBox([approve_button, reject_button])]))

        if auto:  # headless run: press the real button, exactly as a person would
            (approve_button if auto == "approve" else reject_button).click()

        deadline = None if wait is None else loop.time() + wait
        try:
            while not decision.done():
                left = None if deadline is None else deadline - loop.time()
                if left is not None and left <= 0:
                    break
                await asyncio.wait({decision}, timeout=WAKE_EVERY if left is None else min(WAKE_EVERY, left))
        except (asyncio.CancelledError, KeyboardInterrupt):  # Stop: reject, and let the run end
            raise ApprovalInterrupted(finish("approve.interrupted")) from None
        if decision.done():
            approved = decision.result()
            print(finish("approve.approved" if approved else "approve.rejected"))
        else:
            approved = False
            print(finish("approve.timed_out", seconds=f"{wait:g}"))
        return approved

    return approve
