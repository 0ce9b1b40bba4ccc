"""The Spanish edition's approval buttons in a real JupyterLab: headless Chromium clicks «Aprobar» once.

notebooks/es/05_human_in_the_loop.ipynb asks for Spanish in its setup cell (setup(lang="es")), so its
`approval-demo` cell shows the pending action with the buttons Aprobar / Rechazar. The test runs the cells
above it, runs it, clicks Aprobar as a person would, and checks what that click did: one decision line
"→ aprobada", the transcript in Spanish, and the file the model asked to write on disk with the content
the label showed. tests/test_browser.py does the same for the English buttons (approve, reject, timeout,
Stop); this file only proves the Spanish buttons are wired to the same decisions, and that the keyboard goes on
after the click (Shift+Enter runs the cell below) in this edition too.

Runs in the session's JupyterLab and Chromium page (tests/conftest.py). Skipped (loudly) without
Debian's Chromium or playwright, failing instead when CI=true. The tools work on this test's own copy of
workspace/ (HARNESS_TOOL_ROOT, set in the kernel), so neither the repository's scratch/ nor the English
tests' copy is touched.
"""

from __future__ import annotations

import json
import re

import pytest

from browser_support import ARTIFACTS, POLL_MS, REPO, focus_goes_on, tool_root_copy

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/es/05_human_in_the_loop.ipynb"
APPROVAL_TAG = "approval-demo"
APPROVAL_TIMEOUT_S = 60  # far longer than the click takes: a timeout here would be a failure, not the test
LABEL = ".widget-html-content"  # the approver's label (an ipywidgets HTML widget)
PENDING = re.compile(r"\[approve\] a punto de ejecutar la acción de alto impacto write_file\((\{.*\})\)")
DECISION = re.compile(r"^\[approve\] \w+\(.*\) → (aprobada|rechazada.*|no aprobada.*)$", re.MULTILINE)
COUNTDOWN = re.compile(r"^Haz clic en Aprobar para ejecutarla, o en Rechazar\. Si nadie responde, no se aprueba en "
                       r"(\d+) s\.$", re.MULTILINE)


def test_aprobar_runs_the_write_in_live_jupyterlab(browser, tmp_path):
    lab_page, netlog = browser
    tool_root = tool_root_copy(tmp_path / "tool-root-es")
    source = (REPO / NOTEBOOK).read_bytes()
    nb = lab_page.open_notebook(NOTEBOOK)
    try:
        with nb.screenshot_if_failing(ARTIFACTS / "approval-es-aprobar.png"):
            nb.set_kernel_env({"HARNESS_TOOL_ROOT": str(tool_root),
                               "HARNESS_APPROVAL_TIMEOUT": str(APPROVAL_TIMEOUT_S)})
            gate = nb.index_of_tag(APPROVAL_TAG)
            nb.run_all_above(gate)  # setup(lang="es", ...), the gate, the loop
            nb.wait_executed(range(gate))

            nb.run_cell(gate)
            cell = nb.cell(gate)
            aprobar = cell.locator(".widget-button:enabled", has_text="Aprobar")
            aprobar.wait_for(timeout=15_000)
            buttons = cell.locator(".widget-button")
            assert [b.inner_text().strip() for b in buttons.all()] == ["Aprobar", "Rechazar"]
            assert nb.prompt(gate) == "[*]:", "the cell must stay busy while the buttons wait for a person"
            pending = PENDING.search(cell.locator(LABEL).first.inner_text())
            assert pending, \
                f"the label shows the pending write_file action in Spanish: {cell.locator(LABEL).first.inner_text()!r}"
            countdown = COUNTDOWN.search(cell.locator(LABEL).first.inner_text())
            assert countdown and 1 <= int(countdown.group(1)) <= APPROVAL_TIMEOUT_S, \
                "la etiqueta pide el clic, con cuenta atrás"
            action_input = json.loads(pending.group(1))
            effect = tool_root / action_input["path"]
            assert not effect.exists(), "nothing may run before the person decides"

            aprobar.click()
            nb.wait_executed([gate], timeout_ms=30_000)
            runs = nb.cells_info()[gate]["count"]

            printed = nb.stdout_text(gate)
            assert DECISION.findall(printed) == ["aprobada"], f"one decision line expected:\n{nb.output_text(gate)}"
            assert effect.read_text(encoding="utf-8") == action_input["content"], "approved: the tool ran"
            assert "[turn 3] la herramienta devolvió:" in printed, printed  # the transcript, in Spanish
            assert all(b.is_disabled() for b in buttons.all()), "both buttons disabled after a decision"
            assert not cell.locator(LABEL).first.is_visible(), "the widget hides itself once decided"
            shown = cell.locator(".jp-Cell-outputArea").first.inner_text()
            decided = [line for line in shown.splitlines() if line.startswith("[approve]") and "→ aprobada" in line]
            # ([registro]: the account)
            assert len(decided) == 1, f"the decision shows once (es/05 showed it twice):\n{shown}"
            # the last word: the harness's
            assert shown.rstrip().splitlines()[-1].startswith("[registro] write_file("), shown
            assert not nb.cells_info()[gate]["errors"], nb.output_text(gate)
            after_click = focus_goes_on(nb, gate)  # the keyboard goes on from the cell below, as in English
            assert after_click["inNotebook"] and after_click["active"] == gate + 1, after_click
            nb.page.keyboard.press("Shift+Enter")  # runs that cell, not the approval cell again
            nb.page.wait_for_function(f"() => {nb._js}.content.activeCellIndex > {gate + 1}", timeout=15_000,
                                      polling=POLL_MS)
            assert nb.cells_info()[gate]["count"] == runs
    finally:
        nb.close()
    assert (REPO / NOTEBOOK).read_bytes() == source, "the browser run must not save the notebook"
    assert netlog.urls and not netlog.outside_loopback(), netlog.outside_loopback()[:10]
