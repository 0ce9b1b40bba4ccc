"""Valve 4, the human side: a person approves a high-impact tool call before it runs.

An *approver* is any coroutine function

    async def approve(name: str, tool_input: dict) -> bool

The loop awaits it before running a high-impact tool. ``True`` means "run it"; ``False`` means "do not
run it": the loop then sends ``REJECTED_MESSAGE`` back as an ``is_error`` tool_result, so the call is
answered and the model can pick another route (a rejection is a result, not silence).

Three approvers live here:

- ``terminal_approver``            -- prints the action, reads a line (Enter allows, ``n`` rejects).
- ``scripted_approver(decisions)`` -- answers from a list; for tests.
- ``widget_approver(timeout=...)`` -- Approve / Reject buttons in JupyterLab (ipywidgets).

Why everything is ``async``: while a person thinks, the event loop must stay free. In a notebook the
button click is delivered *through* that event loop; a cell that blocks (``time.sleep`` polling,
``input()``) would never see the click. See docs/architecture.md and the approval-gate notes.
"""

from __future__ import annotations

import asyncio
import html
import json
import os

REJECTED_MESSAGE = "The person declined this high-impact action; it was not run."
"""The is_error tool_result text the model gets when the person says no (or nobody answers)."""


def describe(name: str, tool_input: dict) -> str:
    """The pending action as one line: ``write_file({"path":"scratch/a.txt","content":"hi"})``.

    Compact JSON, non-ASCII kept as is. Long inputs are shown in full (the person must see what
    they approve); nothing is truncated or redacted.
    """
    return f"{name}({json.dumps(tool_input, ensure_ascii=False, separators=(',', ':'))})"


# --- the terminal --------------------------------------------------------------------------------


async def terminal_approver(name: str, tool_input: dict) -> bool:
    """Ask on the terminal. Enter (or any answer but ``n`` / ``no``) allows; ``n`` / ``no`` rejects.

    ``input()`` blocks, so it runs in a worker thread (``asyncio.to_thread``) and the event loop
    keeps running meanwhile. End of input (EOF, e.g. stdin closed or piped empty) rejects.

    Not handled: there is no timeout (a terminal session waits for its person); Ctrl-C while the
    prompt waits stops the program, but the worker thread still holds stdin until a line or EOF
    arrives; inside a notebook run by nbval ``input()`` raises ``StdinNotImplementedError`` -- use
    ``widget_approver`` there.
    """
    print(
        f"[approve] about to run high-impact action {describe(name, tool_input)}"
        " — Enter to allow / n to reject: ",
        end="",
        flush=True,
    )
    try:
        answer = await asyncio.to_thread(input)
    except EOFError:
        print("\n[approve] no input (EOF) → rejected")
        return False
    return answer.strip().lower() not in ("n", "no")


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


def widget_approver(*, timeout: float = 120.0, auto_click: str | None = None):
    """An approver that shows Approve / Reject buttons under the running cell and awaits a click.

    Each call displays the pending action and two buttons, then awaits an ``asyncio.Future``. The
    cell stays busy (``[*]``) while it waits, but the kernel's event loop is free, so the click
    message gets through. The click handler may run on a kernel *subshell thread* (JupyterLab 4.6
    sends widget messages over subshells), so it only hands the decision to the event loop with
    ``loop.call_soon_threadsafe``; the Future is set on the loop's own thread.

    - The first click decides; both buttons are then disabled and the label shows the decision.
      The label shows the whole action, wrapped, never cut: the person must see what they approve.
      A second click (or a late one) decides nothing.
    - No answer within ``timeout`` seconds is a rejection (fail-safe). ``timeout=None`` waits forever.
    - One plain line is printed per decision, e.g. ``[approve] write_file({...}) → approved``.

    Environment switches, for headless runs (nbval, CI) where nobody can click (read at each call):

    - ``HARNESS_AUTO_APPROVE=approve|reject``: the approver clicks that real button itself
      (``button.click()``), so the same handler runs and the printed output is the same as after a
      human click.
    - ``HARNESS_AUTO_APPROVE=notebook``: click the button this notebook names with
      ``auto_click="approve"`` or ``"reject"`` (so a lesson can show a rejection under nbval too);
      an approver that names none raises ``ValueError``.
    - unset or empty: wait for a person (``auto_click`` is then ignored).
    - ``HARNESS_APPROVAL_TIMEOUT=<seconds>``: when set, overrides ``timeout``.

    Not handled: needs ipykernel >= 7.4 and a cell that *awaits* the approver (top-level ``await``);
    a blocking (non-async) cell deadlocks. While a cell waits in ``await``, an interrupt is only
    noticed at the next kernel message -- the timeout is what ends an unattended wait. The buttons
    are ordinary widgets: if the page is closed, or the widget manager failed to load, nobody can
    click and the wait ends by timeout.
    """
    import IPython.display  # imported here so the terminal agent does not need IPython/ipywidgets
    import ipywidgets as widgets

    if auto_click not in (None, *AUTO_CHOICES):
        raise ValueError(f"auto_click must be 'approve', 'reject' or None, not {auto_click!r}")

    async def approve(name: str, tool_input: dict) -> bool:
        env_timeout = os.environ.get("HARNESS_APPROVAL_TIMEOUT", "").strip()
        wait = float(env_timeout) if env_timeout else timeout
        auto = os.environ.get("HARNESS_AUTO_APPROVE", "").strip().lower()
        if auto == "notebook":
            if auto_click is None:
                raise ValueError("HARNESS_AUTO_APPROVE=notebook, but this approver names no button: "
                                 "use widget_approver(auto_click='approve') or auto_click='reject'")
            auto = auto_click
        if auto not in ("", *AUTO_CHOICES):
            raise ValueError(f"HARNESS_AUTO_APPROVE must be 'approve', 'reject' or 'notebook', not {auto!r}")

        action = describe(name, tool_input)
        loop = asyncio.get_running_loop()
        decision: asyncio.Future[bool] = loop.create_future()

        def show(text: str) -> str:  # an HTML widget wraps long inputs; a Label would cut them off with "…"
            return f'<div style="overflow-wrap:anywhere">{html.escape(text, quote=False)}</div>'

        label = widgets.HTML(show(f"[approve] about to run high-impact action {action}"))
        approve_button = widgets.Button(description="Approve", button_style="success", icon="check")
        reject_button = widgets.Button(description="Reject", button_style="danger", icon="times")

        def settle(approved: bool) -> None:  # runs on the event loop's thread
            if not decision.done():  # the first click wins; a later one (or one after the timeout) is ignored
                decision.set_result(approved)

        def on_click(button) -> None:  # may run on a kernel subshell thread: do not touch the Future here
            if not decision.done():
                loop.call_soon_threadsafe(settle, button is approve_button)

        approve_button.on_click(on_click)
        reject_button.on_click(on_click)
        IPython.display.display(widgets.VBox([label, widgets.HBox([approve_button, reject_button])]))

        if auto:  # headless run: press the real button, exactly as a person would
            (approve_button if auto == "approve" else reject_button).click()

        outcome = "cancelled (not run)"  # what the label says if the wait is interrupted
        try:
            approved = await asyncio.wait_for(decision, wait)
            outcome = "approved" if approved else "rejected"
        except asyncio.TimeoutError:
            approved = False
            outcome = f"rejected (no answer within {wait:g} s)"
        finally:  # also on cancellation: never leave live buttons behind
            approve_button.disabled = reject_button.disabled = True
            label.value = show(f"[approve] {action} → {outcome}")
        print(f"[approve] {action} → {outcome}")
        return approved

    return approve
