"""Valve 4, the human side: a person approves a high-impact tool call before it runs.

An *approver* is any coroutine function

    async def approve(name: str, tool_input: dict) -> bool

The loop awaits it before running a high-impact tool. Only ``True`` means "run it"; anything else
(``False``, an unclear answer, an exception) means "do not run it": the loop then sends
``REJECTED_MESSAGE`` back as an ``is_error`` tool_result, so the call is answered and the model can
pick another route (a rejection is a result, not silence). Every approver here fails closed: no
answer, an unclear answer, a timeout or an interrupt is a "no".

A "no" that nobody gave (a timeout, the end of input, Stop) is not a person's rejection, and the
words say so: the decision line reads ``→ not approved (no answer ...)`` where a person's no reads
``→ rejected``. The approver still answers only ``True`` / ``False``, so the model gets one neutral
text for every no, ``REJECTED_MESSAGE`` ("Not approved ..."): it never claims that someone said no.

Three approvers live here:

- ``terminal_approver``            -- prints the action, reads a line; only ``y`` / ``yes`` approves.
- ``scripted_approver(decisions)`` -- answers from a list; for tests.
- ``widget_approver(timeout=...)`` -- Approve / Reject buttons in JupyterLab (ipywidgets).

Stopping the run while a person is asked (Stop in JupyterLab, Ctrl-C in a terminal) leaves the
action not approved and raises ``ApprovalInterrupted``, which ends the run; nothing of that turn runs.

What a person reads here follows ``HARNESS_LANG`` (harness_lib.lang): in Spanish the buttons say
Aprobar / Rechazar, the question ends ``[s/N]`` (``s``, ``si``, ``sí``, ``y``, ``yes`` approve) and a
decision line reads ``→ aprobada`` / ``→ rechazada`` / ``→ no aprobada (sin respuesta ...)``. The ``[approve]``
tag and the action stay as they are.

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
from .trace import visible

REJECTED_MESSAGE = "Not approved: this high-impact action was not run (a person said no, or no answer came in time)."
"""The is_error tool_result text the model gets for every "no": a person's, a timeout's, the end of input's.

Neutral on purpose: an approver answers only True / False, so the loop cannot tell a person's no from
silence, and the model must not be told "you declined" when nobody did. English in every edition: it
is for the model, not for the person (see harness_lib.lang)."""


class ApprovalInterrupted(asyncio.CancelledError):
    """The run was stopped (Stop in JupyterLab, Ctrl-C) while an approval was pending.

    The action was not approved (it never ran), and the run stops here. Its message is the one decision
    line, e.g. ``[approve] write_file({...}) → not approved (no answer: the run was stopped)``; IPython
    shows just that line instead of a traceback.

    It is an ``asyncio.CancelledError`` because stopping is cancelling: code that turns an approver's
    ``Exception`` into a rejection (as the loop does) lets it through, so the run really ends.
    """

    def _render_traceback_(self) -> list[str]:  # IPython's hook: what to show instead of a traceback
        return [str(self)]


def describe(name: str, tool_input: dict) -> str:
    """The pending action as one line: ``write_file({"path":"scratch/a.txt","content":"hi"})``.

    Compact JSON, escaped by the kit's one rule for what a person reads before deciding
    (:func:`harness_lib.trace.visible`): readable non-ASCII (é, ✓, 中文) is kept as is; controls, bidi and
    zero-width characters, spaces other than the plain one, combining marks and blank letters are shown
    as ``\\u202e``-style escapes, so an argument cannot make the pending action read as something else (a
    right-to-left override can make ``exe.txt`` look like ``txt.exe``), and two different inputs never
    look the same. Long inputs are shown in full (the person must see what they approve); nothing is
    truncated or redacted.

    Not handled: look-alike letters (a Cyrillic ``а`` for a Latin ``a``) are shown as they are.
    """
    return visible(f"{name}({json.dumps(tool_input, ensure_ascii=False, separators=(',', ':'))})")


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


def _decision(action: str, key: str, **values) -> str:
    """``[approve] write_file({...}) → rejected``: the one line that states a decision, in the current language."""
    return lang.text("approve.decision", action=action, outcome=lang.text(key, **values))


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

    Fails closed: Enter (the default, the capital N), ``n`` and any other answer reject
    (``→ rejected``); end of input (EOF) and a closed or missing stdin are no answer, so the action is
    not approved either (``→ not approved (no answer: end of input)``). One line states the decision.
    Ctrl-C while the prompt waits prints ``→ not approved (no answer: the run was stopped)`` and raises
    ``ApprovalInterrupted``, which stops the run.

    ``input()`` blocks, so it runs in a worker thread and the event loop keeps running meanwhile.

    Not handled: there is no timeout (a terminal session waits for its person); after Ctrl-C the
    worker thread still waits on stdin (a daemon thread, so it does not keep the program alive);
    inside a notebook run by nbval ``input()`` raises ``StdinNotImplementedError``, no answer --
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
    naming one in every lesson cell. A person's run ignores the list: you click. Each approval takes the
    next entry; when the list is used up, the approver raises ``ValueError`` (the loop counts that as a no,
    and the test that expected a click fails loudly).
    An approver made with ``widget_approver(click=...)`` presses its own button and takes nothing from the list.
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


def widget_approver(*, timeout: float | None = 120.0, click: str | None = None,
                    kernel_version=running_kernel_version):
    """An approver that shows Approve / Reject buttons under the running cell and awaits a click.

    Each call displays the pending action, what to do ("Click Approve to run it, or Reject") with a
    countdown ("... not approved in 87 s"), and two buttons; then it awaits an ``asyncio.Future``. The
    cell stays busy (``[*]``) while it waits, but the kernel's event loop is free, so the click
    message gets through. The click handler may run on a kernel *subshell thread* (JupyterLab 4.6
    sends widget messages over subshells), so it only hands the decision to the event loop with
    ``loop.call_soon_threadsafe``; the Future is set on the loop's own thread.

    - The first click decides; both buttons are then disabled and the buttons and label are hidden:
      the one printed line, e.g. ``[approve] write_file({...}) → approved``, is the decision's record.
      The label shows the whole action, wrapped, never cut, escaped like the terminal's question, with
      every space kept: the person must see exactly what they approve. A second click decides nothing.
    - No answer within ``timeout`` seconds is a no (fail-safe): ``→ not approved (no answer within
      120 s)``. ``timeout`` must be a finite number > 0 (``ValueError`` otherwise); ``timeout=None``
      waits forever, and only an explicit ``None`` in code can ask for that.
    - Stop (interrupt the kernel) while the buttons wait is a no at once: ``→ not approved (no answer:
      the run was stopped)`` is the message of the ``ApprovalInterrupted`` it raises, so the run stops
      and the cell ends with that one line (IPython shows it instead of a traceback).
    - ``click="approve"`` or ``"reject"``: a demonstration that needs no person. The approver shows the
      buttons and presses that one itself at once, in every run (yours too), and the decision line says
      so: ``→ approved (clicked by the code, not by a person)``. Without it, a person must click.
    - A kernel that cannot deliver a click while a cell waits (ipykernel 6 and older: it handles
      the click only after the cell ends) gets a text box instead: one line says why, then the
      terminal's ``[y/N]`` question (only ``y`` / ``yes`` approves). ipykernel 7.0-7.3 can deliver
      the click to another thread, which the thread-safe hand-over above handles, so 7.x gets buttons.
      ``kernel_version`` is the probe that tells (a function returning ``(major, minor)`` or None
      outside a kernel); tests pass their own.

    Environment switches, for the kit's headless runs (nbval, CI) where nobody can click (read at each call;
    ``click`` wins over them):

    - ``HARNESS_AUTO_APPROVE=approve|reject``: the approver clicks that real button itself
      (``button.click()``), so the same handler runs and the printed output is the same as after a
      human click. (This works on any kernel: the click needs no message.)
    - ``HARNESS_AUTO_APPROVE=notebook``: click the next button of the notebook's list
      (:func:`set_headless_clicks`, which ``harness_lib.notebook.setup(headless_clicks=[...])`` calls), so a
      lesson can show a rejection under nbval too; an empty list is a ``ValueError``.
    - unset or empty: wait for a person.
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

    if click not in (None, *AUTO_CHOICES):
        raise ValueError(f"click must be 'approve', 'reject' or None, not {click!r}")
    if timeout is not None:
        timeout = _check_timeout(timeout, "timeout")
    told_why_no_buttons = False

    async def approve(name: str, tool_input: dict) -> bool:
        nonlocal told_why_no_buttons
        wait = _timeout_from_environment(timeout)
        auto = "" if click else os.environ.get("HARNESS_AUTO_APPROVE", "").strip().lower()
        if auto == "notebook":
            if not _headless_clicks:
                raise ValueError("HARNESS_AUTO_APPROVE=notebook, but no button is named for this approval: "
                                 "list it in the notebook's setup(headless_clicks=[...]) "
                                 "or use widget_approver(click='approve' / 'reject')")
            auto = _headless_clicks.pop(0)
        if auto not in ("", *AUTO_CHOICES):
            raise ValueError(f"HARNESS_AUTO_APPROVE must be 'approve', 'reject' or 'notebook', not {auto!r}")

        action = describe(name, tool_input)
        version = kernel_version()
        if not (click or auto) and version is not None and version < (7, 0):  # a click would arrive after the cell
            if not told_why_no_buttons:
                print(lang.text("approve.no_buttons", version=f"{version[0]}.{version[1]}"))
                told_why_no_buttons = True
            return await _ask_in_text(action, terminal=False)

        loop = asyncio.get_running_loop()
        decision: asyncio.Future[bool] = loop.create_future()

        def show(*lines: str) -> str:  # an HTML widget wraps long inputs (a Label would cut them off with "…"),
            text = html.escape("\n".join(lines), quote=False)  # keeps every space (pre-wrap), lines close together
            return f'<div style="white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.4">{text}</div>'

        def asking(seconds_left: int | None) -> str:
            what_to_do = (lang.text("approve.click") if seconds_left is None
                          else lang.text("approve.countdown", seconds=seconds_left))
            return show(lang.text("approve.pending", action=action), what_to_do)

        shown_left = None if wait is None else math.ceil(wait)
        label = widgets.HTML(asking(shown_left))
        approve_button = widgets.Button(description=lang.text("approve.button_approve"), button_style="success",
                                        icon="check")
        reject_button = widgets.Button(description=lang.text("approve.button_reject"), button_style="danger",
                                       icon="times")
        box = widgets.VBox([label, widgets.HBox([approve_button, reject_button])])

        def settle(approved: bool) -> None:  # runs on the event loop's thread
            if not decision.done():  # the first click wins; a later one (or one after the timeout) is ignored
                decision.set_result(approved)

        def on_click(button) -> None:  # may run on a kernel subshell thread: do not touch the Future here
            if not decision.done():
                loop.call_soon_threadsafe(settle, button is approve_button)

        def finish(key: str, **values) -> str:  # no live buttons are ever left behind
            if not decision.done():
                decision.set_result(False)  # a late click decides nothing
            approve_button.disabled = reject_button.disabled = True
            line = _decision(action, key, **values)
            label.value = show(line)
            box.layout.display = "none"  # the printed line is the decision's one record on the page
            return line

        approve_button.on_click(on_click)
        reject_button.on_click(on_click)
        IPython.display.display(box)

        if click or auto:  # a demonstration, or a headless run: press the real button, exactly as a person would
            (approve_button if (click or auto) == "approve" else reject_button).click()

        deadline = None if wait is None else loop.time() + wait
        try:
            while not decision.done():
                left = None if deadline is None else deadline - loop.time()
                if left is not None and left <= 0:
                    break
                if left is not None and math.ceil(left) != shown_left:  # the countdown, once a second
                    shown_left = math.ceil(left)
                    label.value = asking(shown_left)
                await asyncio.wait({decision}, timeout=WAKE_EVERY if left is None else min(WAKE_EVERY, left))
        except (asyncio.CancelledError, KeyboardInterrupt):  # Stop: no answer, and the run ends
            raise ApprovalInterrupted(finish("approve.interrupted")) from None
        if not decision.done():
            print(finish("approve.timed_out", seconds=f"{wait:g}"))
            return False
        approved = decision.result()
        word = "approve.approved" if approved else "approve.rejected"
        if click:  # say who pressed it
            print(finish("approve.by_code", outcome=lang.text(word)))
        else:
            print(finish(word))
        return approved

    return approve
