"""A restart mid-lesson, in a real JupyterLab (issue 36): a learner runs the first cells of lesson 02, restarts the
kernel (Kernel → Restart Kernel…, then Restart in the dialog) and runs the next cell. It fails with ONE line that names
the missing name and says what to do (harness_ui.restart_hint); the menu item that line names is clicked, and the
cell then runs as in the saved notebook. In each edition: the Spanish line in the Spanish lesson.

The learner's cells before the restart: in the tab test_browser_rerun.py leaves open (Run All, then every cell
again: the cells above ran), or, when there is none (this file run alone), the cells above the next one in a tab of
its own. Runs in the session's JupyterLab and Chromium page (tests/conftest.py). Needs the kit's IPython kernel
configuration in the venv (requirements.txt installs kernel_config/). Skipped (loudly) without Debian's Chromium or
playwright, failing instead when CI=true.
"""

from __future__ import annotations

import json

import pytest

from browser_support import ARTIFACTS, POLL_MS, REPO, take_tab
from harness_kit import lang

pytestmark = pytest.mark.browser

LESSON = {"en": "notebooks/02_the_core_loop.ipynb", "es": "notebooks/es/02_the_core_loop.ipynb"}
NEXT_CELL = "tool-use-fields"  # reads response_1, which the cell `first-request` above it makes
MISSING = "response_1"


def restart_kernel(nb) -> None:
    """Kernel → Restart Kernel…, and Restart in the dialog, as a person does; wait for the new kernel."""
    nb.command("notebook:restart-kernel")
    nb.page.locator(".jp-Dialog .jp-mod-accept").click(timeout=15_000)
    nb.page.wait_for_function(f"() => {nb._js}.sessionContext.session.kernel.status === 'idle'",
                              timeout=60_000, polling=POLL_MS)
    nb.wait_kernel_idle()


def run_and_wait(nb, index: int) -> None:
    count = nb.cells_info()[index]["count"]
    nb.run_cell(index)
    nb.page.wait_for_function(
        f"() => {{ const c = {nb._js}.content.widgets[{index}]; return c.model.executionCount !== null"
        f" && c.model.executionCount !== {json.dumps(count)}"
        " && !c.node.querySelector('.jp-InputPrompt').textContent.includes('*'); }",
        timeout=60_000, polling=POLL_MS)
    nb.wait_kernel_idle()


def cell_index(path: str, cell_id: str) -> int:
    cells = json.loads((REPO / path).read_text(encoding="utf-8"))["cells"]
    return next(i for i, c in enumerate(cells) if c.get("id") == cell_id)


@pytest.mark.parametrize("edition", ["en", "es"])
def test_a_restart_mid_lesson_says_in_one_line_to_run_the_cells_above(browser, edition):
    lab_page, _ = browser
    path = LESSON[edition]
    source = (REPO / path).read_bytes()
    index = cell_index(path, NEXT_CELL)
    nb = ran = take_tab(path)  # lesson 02 after its Run All and every cell run again (test_browser_rerun.py)
    if nb is None:
        nb = lab_page.open_notebook(path)
    try:
        if ran is None:
            nb.run_all_above(index)  # the learner's first cells
            nb.wait_executed(range(index))
        restart_kernel(nb)
        run_and_wait(nb, index)  # the next cell, after the restart
        shown = nb.output_text(index).strip()
        with nb.screenshot_if_failing(ARTIFACTS / f"restart-hint-{edition}.png"):
            assert nb.cells_info()[index]["errors"] == [f"NameError: name '{MISSING}' is not defined"]
            assert shown == lang.say(lang.MESSAGES, "restart.hint", edition, name=MISSING), shown
        if edition == "en":  # the menu item the line names is there, and does what it says
            with nb.screenshot_if_failing(ARTIFACTS / "restart-run-all-above.png"):
                nb.page.get_by_role("menuitem", name="Run", exact=True).click()
                nb.page.get_by_role("menuitem", name="Run All Above Selected Cell").click()
                nb.wait_executed(range(index))
                nb.wait_kernel_idle()
                run_and_wait(nb, index)
                info = nb.cells_info()[index]
                assert info["errors"] == [], info
                committed = "".join("".join(o.get("text", "")) for o in json.loads(source)["cells"][index]["outputs"])
                assert nb.stdout_text(index).strip() == committed.strip()
    finally:
        nb.close()
    assert (REPO / path).read_bytes() == source, "the browser run saved the notebook"
