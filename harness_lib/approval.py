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

Two approvers live here, and what every approver shares (the one line that shows the pending
action, the one line that states a decision, ``ApprovalInterrupted``). ``REJECTED_MESSAGE`` is the loop's
(harness_lib.loop writes every tool_result); ``from harness_lib.approval import REJECTED_MESSAGE`` still finds it:

- ``terminal_approver``            -- prints the action, reads a line; only ``y`` / ``yes`` approves.
- ``scripted_approver(decisions)`` -- answers from a list; for tests and for the lessons' demonstrations.

The third, ``widget_approver(timeout=...)`` (Approve / Reject buttons in JupyterLab), is
harness_ui.widget's one idea, built on this module (which does not import it back).

Stopping the run while a person is asked (Stop in JupyterLab, Ctrl-C in a terminal) leaves the
action not approved and raises ``ApprovalInterrupted``, which ends the run; nothing of that turn runs.

What a person reads here follows ``HARNESS_LANG`` (harness_kit.lang): in Spanish the buttons say
Aprobar / Rechazar, the question ends ``[s/N]`` (``s``, ``si``, ``sí``, ``y``, ``yes`` approve) and a
decision line reads ``→ aprobada`` / ``→ rechazada`` / ``→ no aprobada (sin respuesta ...)``. The ``[approve]``
tag and the action stay as they are.

Why everything is ``async``: while a person thinks, the event loop must stay free. In a notebook the
button click is delivered *through* that event loop; a cell that blocks (``time.sleep`` polling,
``input()``) would never see the click. docs/architecture.md ("Why the approval gate is async") lists
which ways of waiting work on which ipykernel.

What a person is asked about is shown by the kit's one escaping rule (``describe``): nothing in an
argument can hide, draw nothing, or move the cursor; a long action is followed by its identity in short
(``question``), next to the prompt. A call its tool's schema refuses is refused before anyone is asked
(harness_lib.loop), so the question is never about a call that could not run.

NOT handled: who the person is (anyone at the keyboard decides), remembering a decision ("always
allow"), editing the action before approving it, and look-alike letters outside a ``path`` or ``url``
field (a Cyrillic ``а`` in a file's content is shown as it is). The terminal has no timeout.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import sys
import threading
import unicodedata

from harness_kit import lang
from .loop import REJECTED_MESSAGE  # noqa: F401 - the loop's words after a no; the exercises import it from here
from .trace import in_short, show_call  # noqa: F401 - in_short: the call in short, also the record's


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

    Compact JSON, escaped by the kit's one rule for what a person reads (:func:`harness_lib.trace.show_call`,
    built on :func:`harness_lib.trace.visible`): readable non-ASCII (é, ✓, 中文) is kept as is; controls,
    bidi and zero-width characters, spaces other than the plain one, combining marks and characters
    that draw nothing are shown as ``\\u202e``-style escapes, a run of 16 spaces or more as
    ``\\u0020{N}``, and in a ``path`` (or ``url``) every non-ASCII letter is escaped too, so a look-alike
    Cyrillic ``а`` reads ``\\u0430``. So an argument cannot make the pending action read as something
    else (a right-to-left override can make ``exe.txt`` look like ``txt.exe``), and two different inputs
    never look the same. Long inputs are shown in full (the person must see what they approve); the
    question then names the call again in short next to the prompt (:func:`in_short`).
    """
    return show_call(name, tool_input)


LONG_ACTION = 300
"""An action longer than this (in characters, as shown) is named again in short right before the question."""

def question(name: str, tool_input: dict) -> str:
    """What the person is asked about: describe(), and for a long action its identity too (in_short), last."""
    action = describe(name, tool_input)
    if len(action) <= LONG_ACTION:
        return action
    return lang.text("approve.long", action=action, short=in_short(name, tool_input))


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


def decision_line(action: str, key: str, **values) -> str:
    """``[approve] write_file({...}) → rejected``: the one line that states a decision, in the current language."""
    return lang.text("approve.decision", action=action, outcome=lang.text(key, **values))


async def ask_in_text(action: str, *, terminal: bool) -> bool:
    """Ask ``[y/N]`` on stdin and print one decision line. Shared by the terminal and the old-kernel fallback.

    ``terminal``: print the interrupt line too (outside IPython nobody renders ``ApprovalInterrupted``),
    and start the decision on a new line when stdin is piped (a piped answer is not echoed).
    """
    try:  # input() shows the prompt: on the terminal, or in a notebook's text box
        answer = await _read_line(lang.text("approve.prompt", action=action))
    except (asyncio.CancelledError, KeyboardInterrupt):  # Ctrl-C / Stop while the prompt waits
        line = decision_line(action, "approve.interrupted")
        if terminal:
            print(f"\n{line}", flush=True)
        raise ApprovalInterrupted(line) from None
    except EOFError:
        print("\n" + decision_line(action, "approve.eof"))
        return False
    except Exception as err:  # stdin closed or missing, or a kernel that cannot read a line
        print("\n" + decision_line(action, "approve.no_input", error=type(err).__name__))
        return False
    said = unicodedata.normalize("NFC", answer.strip().lower())  # "sí" typed as s + a combining accent too
    new_line = "\n" if terminal and not _stdin_is_a_terminal() else ""
    if said in lang.yes_answers():
        print(new_line + decision_line(action, "approve.approved"))
        return True
    if said in lang.no_answers():
        print(new_line + decision_line(action, "approve.rejected"))
    else:
        print(new_line + decision_line(action, "approve.unclear", answer=repr(answer.strip())))
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
    worker thread still waits on stdin (a daemon thread, so it does not keep the program alive, but
    it holds stdin's lock: with stdin a pipe, a program that then ends normally is aborted by Python
    at exit, "could not acquire lock for <stdin>", so end it with os._exit as harness_lib.__main__ does);
    inside a notebook run by nbval ``input()`` raises ``StdinNotImplementedError``, no answer --
    use ``widget_approver`` there.
    """
    return await ask_in_text(question(name, tool_input), terminal=True)


# --- scripted answers ----------------------------------------------------------------------------


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
