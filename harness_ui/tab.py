"""Valve 4 in a browser tab (JupyterLite's Pyodide kernel): the run goes on after its cell, and the buttons decide.

On the desktop a cell awaits the approver and the click reaches it meanwhile (harness_ui.widget). In a browser tab
the kernel handles one message at a time, so a click waits behind the running cell: every approval would end in
"no answer". Here the cell *starts* the run and ends; the run goes on as an asyncio task; each high-impact call
shows the action and Approve / Reject, and the click (now delivered, the cell having ended) decides. A task's print()
shows nowhere once its cell has ended, so the transcript is written into the panel instead:

    panel = TabApproval(timeout=120)                     # shows the panel under this cell
    panel.start(run_agent(client, TASK, TOOLS, impls, approve=panel.approve, on_event=panel.on_event))
    # the cell ends at once; the panel shows the transcript, the question and the buttons, then the answer
    # a later cell, once the panel says the run is over: panel.result (an AgentResult), panel.error

Fail closed, as on the desktop: no answer within `timeout` seconds is a no (``→ not approved (no answer within
120 s)``); the panel's Stop button ends the run, and a question then waiting is a no (``→ not approved (no answer:
the run was stopped)``); the first click decides, a later one decides nothing. HARNESS_AUTO_APPROVE=approve|reject
(nobody at the screen) presses that button itself, as widget_approver does; HARNESS_APPROVAL_TIMEOUT, when set, is
the timeout. (A demonstration that clicks in code is widget_approver(click=...), which works in a tab too.)

After a person's click on the panel the keyboard goes on from the cell below (Shift+Enter runs it), as on the desktop.

NOT handled: awaiting the run in a cell (``await panel.task``): in the tab that cell would hold back the very click
it waits for, until the timeout says no. The kernel's own Stop button does not reach a run whose cell has ended:
the panel's Stop does. One run per panel. The panel is drawn by JupyterLab's widget manager: with the page closed
nobody can click and every question ends by timeout.
"""

from __future__ import annotations

import asyncio
import math
import sys

from harness_kit import lang
from harness_kit.shown import one_line
from harness_lib.approval import ApprovalInterrupted, decision_line, question
from harness_lib.trace import NOBODY_CLICKED, Transcript
from .widget import (GO_ON, GO_ON_FOR, as_html, check_timeout, nobody_here, timeout_from_environment,
                     wait_for_click)

__all__ = ["TabApproval", "in_tab"]

# The panel's own words (the approval lines themselves are the kit's, from harness_kit.lang).
WORDS = {
    "en": {"stop": "Stop the run", "running": "Running…", "done": "The run is over.",
           "stopped": "The run was stopped.", "failed": "The run ended with an error: {error}",
           "here": "(the run's panel: in a browser tab JupyterLab draws the transcript and the buttons here)"},
    "es": {"stop": "Detener la ejecución", "running": "En marcha…", "done": "La ejecución terminó.",
           "stopped": "Se detuvo la ejecución.", "failed": "La ejecución terminó con un error: {error}",
           "here": "(el panel de la ejecución: en una pestaña del navegador JupyterLab dibuja aquí la "
                   "transcripción y los botones)"},
}


def in_tab() -> bool:
    """True under Pyodide (the course in a browser tab), where a click cannot reach a running cell."""
    return sys.platform == "emscripten"


class TabApproval:
    """A panel under the cell: the run's transcript, the pending question with Approve / Reject, and Stop."""

    def __init__(self, *, timeout: float | None = 120.0):
        import IPython.display  # imported here, as in harness_ui.widget: the terminal agent needs neither
        import ipywidgets as widgets

        if timeout is not None:
            timeout = check_timeout(timeout, "timeout")
        self.timeout, self.language = timeout, lang.current()
        self.task: asyncio.Task | None = None
        self.result = self.error = None
        self.lines: list[str] = []  # the transcript, as print() would have shown it
        self._decision: asyncio.Future | None = None
        self._action = ""
        self.log, self.asking, self.status = widgets.HTML(""), widgets.HTML(""), widgets.HTML("")
        self.approve_button = widgets.Button(description=lang.text("approve.button_approve"),
                                             button_style="success", icon="check")
        self.reject_button = widgets.Button(description=lang.text("approve.button_reject"),
                                            button_style="danger", icon="times")
        self.stop_button = widgets.Button(description=self._say("stop"), icon="stop")
        self.buttons = widgets.HBox([self.approve_button, self.reject_button])
        self.buttons.layout.display = "none"
        self._loop: asyncio.AbstractEventLoop | None = None  # the run's, set by start()
        self.approve_button.on_click(lambda _: self._clicked(True))
        self.reject_button.on_click(lambda _: self._clicked(False))
        self.stop_button.on_click(lambda _: self._clicked(None))
        for button in (self.approve_button, self.reject_button, self.stop_button):
            button.on_msg(self._clicked_in_the_page)  # a person's click (button.click() in code sends no message)
        self.panel = _panel(widgets, [self.log, self.asking, self.buttons, self.stop_button, self.status],
                            self._say("here"))
        self.on_event = Transcript(out=self.write)  # the lesson's transcript lines, written into the panel
        IPython.display.display(self.panel)

    def _say(self, key: str, **values) -> str:
        return lang.say(WORDS, key, self.language, **values)

    def write(self, line: str = "") -> None:
        """Add a line to the panel's transcript (what print() would have shown)."""
        self.lines.append(line)
        self.log.value = as_html(*self.lines)

    def start(self, run) -> asyncio.Task:
        """Run the coroutine `run` (e.g. run_agent(...)) as a task and return at once: the cell may end."""
        if self.task is not None:
            raise RuntimeError("one run per panel: make another TabApproval")
        self.status.value = as_html(self._say("running"))
        self._loop = asyncio.get_running_loop()
        self.task = self._loop.create_task(self._run(run))
        return self.task

    async def _run(self, run) -> None:
        with lang.using(self.language):  # the task outlives its cell: keep the notebook's language
            try:
                self.result = await run
                status = self._say("done")
            except asyncio.CancelledError:  # Stop (ApprovalInterrupted is one too)
                status = self._say("stopped")
            except Exception as err:  # shown, since nobody would see a traceback from a task; on one line, by the rule
                self.error = err
                status = self._say("failed", error=one_line(f"{type(err).__name__}: {err}"))
            finally:
                self.stop_button.disabled = True
            if self.result is None:  # no "end" event wrote the run's record: the harness's account, here
                for line in self.on_event.account():
                    self.write(line)
            self.status.value = as_html(status)

    def stop(self) -> None:
        """End the run: a question then waiting is a no (the loop gets ApprovalInterrupted)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()

    def _clicked(self, approved: bool | None) -> None:
        """A button's handler (None: Stop). It may run on another thread (a desktop kernel's subshell), so what
        it does is done on the loop's own thread."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.stop if approved is None else lambda: self._settle(approved))

    def _clicked_in_the_page(self, button, content, buffers) -> None:
        """After a person's click the keyboard goes on from the cell below, as on the desktop (harness_ui.widget's
        GO_ON, a script JupyterLab runs): the click had made this cell the selected one, and Shift+Enter would stop."""
        if content.get("event") == "click" and self._loop is not None:
            self._loop.call_soon_threadsafe(self._give_the_keyboard_back)

    def _give_the_keyboard_back(self) -> None:
        import ipywidgets as widgets

        go_on = widgets.Output()
        go_on.outputs = ({"output_type": "display_data", "data": {"application/javascript": GO_ON}, "metadata": {}},)
        self.panel.children += (go_on,)
        self._loop.call_later(GO_ON_FOR, self._forget, go_on)  # then gone: a reload does not move the focus again

    def _forget(self, go_on) -> None:
        self.panel.children = tuple(child for child in self.panel.children if child is not go_on)
        go_on.close()

    def _settle(self, approved: bool) -> None:
        if self._decision is not None and not self._decision.done():  # the first click wins
            self._decision.set_result(approved)

    async def approve(self, name: str, tool_input: dict) -> bool:
        """The approver: show the action and the buttons, wait for a click; no answer or Stop is a no."""
        self._action = action = question(name, tool_input)
        NOBODY_CLICKED.set(None)  # until this decision says otherwise: a person's
        loop = asyncio.get_running_loop()
        self._decision = decision = loop.create_future()
        auto = nobody_here()  # nobody at the screen (HARNESS_AUTO_APPROVE)

        def asking(seconds: int | None) -> str:
            what = lang.text("approve.click") if seconds is None else lang.text("approve.countdown", seconds=seconds)
            return as_html(lang.text("approve.pending", action=action), what)

        wait = timeout_from_environment(self.timeout)  # HARNESS_APPROVAL_TIMEOUT, as for widget_approver
        self.asking.value, self.buttons.layout.display = asking(None if wait is None else math.ceil(wait)), "flex"
        if auto:
            (self.approve_button if auto == "approve" else self.reject_button).click()
        try:
            await wait_for_click(decision, wait, lambda seconds: setattr(self.asking, "value", asking(seconds)))
        except asyncio.CancelledError:  # Stop: no answer, and the run ends
            raise ApprovalInterrupted(self._decided("approve.interrupted")) from None
        if not decision.done():
            self._decided("approve.timed_out", seconds=f"{wait:g}")
            return False
        approved = decision.result()
        word = "approve.approved" if approved else "approve.rejected"
        if auto:  # say who pressed it: the switch, never a person
            NOBODY_CLICKED.set("switch")  # and the transcript's record says it too
            self._decided("approve.by_switch", outcome=lang.text(word))
        else:
            self._decided(word)
        return approved

    def _decided(self, key: str, **values) -> str:
        """Close the question (a late click decides nothing) and write its one decision line."""
        if self._decision is not None and not self._decision.done():
            self._decision.set_result(False)
        self.asking.value, self.buttons.layout.display = "", "none"
        line = decision_line(self._action, key, **values)
        self.write(line)
        return line


def _panel(widgets, children, text_form: str):
    """A VBox whose text form (what a notebook opened from disk shows where no widget is drawn) is a sentence,
    not its repr (VBox(children=...))."""
    class Panel(widgets.VBox):
        def __repr__(self) -> str:
            return text_form

    return Panel(children)
