"""Valve 4 in JupyterLab: Approve / Reject buttons under the running cell (ipywidgets).

``widget_approver()`` makes an approver (see harness_lib.approval for what an approver is and how a
decision reads) that shows the pending action and two buttons, then awaits a click without blocking
the kernel's event loop, so the click can get through. No answer within the timeout is a no; Stop
is a no at once and ends the run. On an ipykernel too old to deliver a click while a cell waits
(6 and older) it asks in a text box instead (approval's ``[y/N]`` question). In a browser tab, where no cell can
wait for a click and no thread can ask in text, it says no at once and names the tab's approver (harness_ui.tab).

Where nobody is at the screen to click (CI, a demonstration on a projector), ``HARNESS_AUTO_APPROVE=approve``
or ``reject`` makes every approval press that real button itself.

NOT handled: the cell must *await* the approver (top-level ``await``); a blocking (non-async) cell
deadlocks. The text-box fallback has no timeout. If the page is closed, or the widget manager failed
to load, nobody can click and the wait ends by timeout. IPython and ipywidgets are imported when an
approver is made, not at import, so the terminal agent needs neither.
"""

from __future__ import annotations

import asyncio
import html
import math
import os
import re
import sys

from harness_kit import lang
from harness_kit.console import WAKE_EVERY
from harness_lib.approval import ApprovalInterrupted, ask_in_text, decision_line, question
from harness_lib.trace import NOBODY_CLICKED

CHOICES = ("approve", "reject")
"""The two buttons, by what they decide."""

GO_ON = """(function go(tries) {
  const cell = element.closest('.jp-Cell');  // (element: this output, in JupyterLab's page once it is drawn)
  if (!cell) { if (tries > 0) setTimeout(() => go(tries - 1), 50); return; }
  const next = cell.nextElementSibling;
  if (next && next.classList.contains('jp-Cell')) next.focus();
})(40);"""
"""After a person's click: the keyboard goes on from the cell below the approval cell (JupyterLab runs it)."""
GO_ON_FOR = 30.0
"""Seconds the script stays in the page (time enough to run it); then its widget is closed, so a page reloaded later,
which draws the kernel's widgets again, does not move the focus again."""


def as_html(*lines: str) -> str:
    """Lines of text as an HTML widget's value (the buttons' label, the tab's panel). An HTML widget wraps a long
    input where a Label would cut it off with "…"; every space is kept and takes room, at a line's wrap too
    (`break-spaces`: with `pre-wrap` a run of spaces there hung past the line's end, and two calls differing only
    there drew alike at twice as many widths; spaces that reach a line's end still draw nothing, see
    docs/architecture.md, "Not handled"); the lines close together, not the widget's 28 px apart."""
    text = html.escape("\n".join(lines), quote=False)
    return f'<div style="white-space:break-spaces;overflow-wrap:anywhere;line-height:1.4">{text}</div>'


def check_timeout(value, what: str) -> float:
    """``value`` as seconds if it is a finite number > 0; otherwise a ValueError naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{what} must be a finite number of seconds > 0, not {value!r}")
    return float(value)


def nobody_here() -> str:
    """``HARNESS_AUTO_APPROVE`` (read at each call): ``"approve"`` or ``"reject"``, the button every approval presses
    when nobody is at the screen; ``""`` (unset or empty) when a person clicks. Any other value: ValueError."""
    auto = os.environ.get("HARNESS_AUTO_APPROVE", "").strip().lower()
    if auto not in ("", *CHOICES):
        raise ValueError(f"HARNESS_AUTO_APPROVE must be 'approve' or 'reject', not {auto!r}")
    return auto


def timeout_from_environment(default: float | None) -> float | None:
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


async def wait_for_click(decision: asyncio.Future, wait: float | None, countdown) -> None:
    """Return once ``decision`` is set (a click) or ``wait`` seconds have passed (None: no limit), calling
    ``countdown(seconds_left)`` each time the whole seconds left change. The Future wakes it at once; it also wakes
    every WAKE_EVERY s to count down. A cancel (Stop) reaches the caller, which says what it means."""
    loop = asyncio.get_running_loop()
    deadline = None if wait is None else loop.time() + wait
    shown = None if wait is None else math.ceil(wait)
    while not decision.done():
        left = None if deadline is None else deadline - loop.time()
        if left is not None and left <= 0:
            return
        if left is not None and math.ceil(left) != shown:  # the countdown, once a second
            shown = math.ceil(left)
            countdown(shown)
        await asyncio.wait({decision}, timeout=WAKE_EVERY if left is None else min(WAKE_EVERY, left))


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


def widget_approver(*, timeout: float | None = 120.0, click: str | None = None):
    """An approver that shows Approve / Reject buttons under the running cell and awaits a click.

    Each call displays the pending action, what to do ("Click Approve to run it, or Reject") with a
    countdown ("... not approved in 87 s"), and two buttons; then it awaits an ``asyncio.Future``. The
    cell stays busy (``[*]``) while it waits, but the kernel's event loop is free, so the click
    message gets through. The click handler may run on a kernel *subshell thread* (JupyterLab 4.6
    sends widget messages over subshells), so it only hands the decision to the event loop with
    ``loop.call_soon_threadsafe``; the Future is set on the loop's own thread.

    - The first click decides; both buttons are then disabled and the buttons and label are hidden:
      the one printed line, e.g. ``[approve] write_file({...}) → approved``, is the decision's record.
      The label shows the whole action, wrapped, never cut, escaped like the terminal's question (a run
      of 16 spaces or more as its count, ``\\u0020{20000}``): the person must see exactly what they
      approve. A long action is followed by its identity in short (approval.question), right above
      the buttons. A second click decides nothing.
    - After a person's click in the page (not ``button.click()`` in code, which sends no message), the keyboard
      goes on from the cell below: the box gets one more child, an Output widget holding ``GO_ON``, a script that
      JupyterLab runs (a widget's outputs are trusted) and that focuses that cell, so Shift+Enter runs on from
      there instead of running the approval cell again. It lives in the widget, not in the cell's outputs, so a
      saved notebook holds no script, and that widget is closed ``GO_ON_FOR`` (30) s later, so a page reloaded
      after that does not run it again. Where no script runs (another front end), the focus stays where the click
      left it: on the page, and Shift+Enter does nothing until you click into the notebook.
    - No answer within ``timeout`` seconds is a no (fail-safe): ``→ not approved (no answer within
      120 s)``. ``timeout`` must be a finite number > 0 (``ValueError`` otherwise); ``timeout=None``
      waits forever, and only an explicit ``None`` in code can ask for that.
    - Stop (interrupt the kernel) while the buttons wait is a no at once: ``→ not approved (no answer:
      the run was stopped)`` is the message of the ``ApprovalInterrupted`` it raises, so the run stops
      and the cell ends with that one line (IPython shows it instead of a traceback).
    - ``click="approve"`` or ``"reject"``: a demonstration that needs no person. The approver shows the
      buttons and presses that one itself at once, in every run (yours too), and the decision line says
      so: ``→ approved (clicked by the code, not by a person)``. Without it, a person must click.
    - The widget's text form, what a notebook opened from disk shows where JupyterLab draws no widget, is a
      sentence ("(the Approve and Reject buttons: JupyterLab draws them here while the cell waits)"), not its
      repr (``VBox(children=(HTML(...``); the decision line below it is the record.
    - In a browser tab (JupyterLite's Pyodide kernel) a click reaches the kernel only after the cell ends, and no
      thread can run a text box: without ``click`` (or ``HARNESS_AUTO_APPROVE``) each approval is a no at once,
      ``→ not approved (a browser tab cannot ask while a cell runs: start the run with harness_ui.tab.TabApproval)``.
    - A kernel that cannot deliver a click while a cell waits (ipykernel 6 and older: it handles
      the click only after the cell ends) gets a text box instead: one line says why, then the
      terminal's ``[y/N]`` question (only ``y`` / ``yes`` approves). ipykernel 7.0-7.3 can deliver
      the click to another thread, which the thread-safe hand-over above handles, so 7.x gets buttons
      (``running_kernel_version()`` tells, at each call).

    Environment switches, for a run where nobody is at the screen to click (CI, a demonstration on a
    projector; read at each call; ``click`` wins over them):

    - ``HARNESS_AUTO_APPROVE=approve|reject``: every approval clicks that real button itself
      (``button.click()``), so the same handler runs, and the decision line says nobody clicked:
      ``→ approved (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)``. (This works on any kernel:
      the click needs no message.) Any other value that is not empty is a ``ValueError`` (the loop counts that as a
      no). It is read from the environment only: a ``.env`` file never sets it (harness_lib.client).
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

    class _Buttons(widgets.VBox):
        """The label and the two buttons. Its text form, what a saved notebook shows where JupyterLab does not
        draw the widget (a notebook opened from disk), is a sentence, not the widget's repr (VBox(children=...)."""

        def __init__(self, children):
            super().__init__(children)
            self._text_form = lang.text("approve.buttons_here")  # in the language of the notebook that asked

        def __repr__(self) -> str:
            return self._text_form

    if click not in (None, *CHOICES):
        raise ValueError(f"click must be 'approve', 'reject' or None, not {click!r}")
    if timeout is not None:
        timeout = check_timeout(timeout, "timeout")
    told_why_no_buttons = False

    async def approve(name: str, tool_input: dict) -> bool:
        nonlocal told_why_no_buttons
        NOBODY_CLICKED.set(None)  # until this decision says otherwise: a person's
        wait = timeout_from_environment(timeout)
        auto = "" if click else nobody_here()

        action = question(name, tool_input)  # a long action ends with its identity, next to the buttons
        version = running_kernel_version()
        if not (click or auto) and sys.platform == "emscripten":  # a browser tab (harness_ui.tab.in_tab): a click
            print(decision_line(action, "approve.in_a_tab"))        # comes after the cell, no thread can ask: a no
            return False
        if not (click or auto) and version is not None and version < (7, 0):  # a click would arrive after the cell
            if not told_why_no_buttons:
                print(lang.text("approve.no_buttons", version=f"{version[0]}.{version[1]}"))
                told_why_no_buttons = True
            return await ask_in_text(action, terminal=False)

        loop = asyncio.get_running_loop()
        decision: asyncio.Future[bool] = loop.create_future()

        def asking(seconds_left: int | None) -> str:
            what_to_do = (lang.text("approve.click") if seconds_left is None
                          else lang.text("approve.countdown", seconds=seconds_left))
            return as_html(lang.text("approve.pending", action=action), what_to_do)

        label = widgets.HTML(asking(None if wait is None else math.ceil(wait)))
        approve_button = widgets.Button(description=lang.text("approve.button_approve"), button_style="success",
                                        icon="check")
        reject_button = widgets.Button(description=lang.text("approve.button_reject"), button_style="danger",
                                       icon="times")
        box = _Buttons([label, widgets.HBox([approve_button, reject_button])])

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
            line = decision_line(action, key, **values)
            label.value = as_html(line)
            box.layout.display = "none"  # the printed line is the decision's one record on the page
            return line

        def give_the_keyboard_back() -> None:  # runs on the event loop's thread, after a click in the page
            if len(box.children) == 2:  # once: the first click decides
                go_on = widgets.Output()
                go_on.outputs = ({"output_type": "display_data", "data": {"application/javascript": GO_ON},
                                  "metadata": {}},)
                box.children += (go_on,)
                loop.call_later(GO_ON_FOR, forget, go_on)

        def forget(go_on) -> None:
            box.children = tuple(child for child in box.children if child is not go_on)
            go_on.close()

        def clicked_in_the_page(button, content, buffers) -> None:  # a subshell thread too, like on_click
            if content.get("event") == "click":
                loop.call_soon_threadsafe(give_the_keyboard_back)

        for button in (approve_button, reject_button):
            button.on_click(on_click)
            button.on_msg(clicked_in_the_page)  # a person's click (button.click() in code sends no message)
        IPython.display.display(box)

        if click or auto:  # a demonstration, or nobody at the screen: press the real button, as a person would
            (approve_button if (click or auto) == "approve" else reject_button).click()

        try:
            await wait_for_click(decision, wait, lambda seconds: setattr(label, "value", asking(seconds)))
        except (asyncio.CancelledError, KeyboardInterrupt):  # Stop: no answer, and the run ends
            raise ApprovalInterrupted(finish("approve.interrupted")) from None
        if not decision.done():
            print(finish("approve.timed_out", seconds=f"{wait:g}"))
            return False
        approved = decision.result()
        word = "approve.approved" if approved else "approve.rejected"
        if click or auto:  # say who pressed it: the code in plain sight, or the switch; never a person
            NOBODY_CLICKED.set("code" if click else "switch")  # and the transcript's record says it too
            print(finish("approve.by_code" if click else "approve.by_switch", outcome=lang.text(word)))
        else:
            print(finish(word))
        return approved

    return approve
