"""Safe to re-run, in a real JupyterLab: Run All on lesson 02 of each edition, then run every code cell once more,
one by one, as a learner pressing Shift-Enter would. Run All gets the same checks as every other lesson's in
test_browser.py (which leaves these two to this file: each is run once, here). No cell may show an error its
notebook did not announce (a cell tagged raises-exception may raise), and each re-run prints what it printed under
Run All (times aside).

Why only lesson 02 here: every lesson of both editions is re-run after Run All in a kernel, by
tests/test_live_mode.py (nbclient: Run All, then every cell again in the same kernel, the same two checks). A
re-run is a kernel matter, and a kernel does it in a second or two per lesson; a browser pays JupyterLab, a page
and polling on top (about 4 s a lesson on 2 cores), and the whole test command must stay under 90 s. So the browser
keeps a sample, one lesson per edition: 02, the lesson that promises any cell can be re-run at any time, and whose
by-hand steps (`response_1`, `turn_1`, `results_1`, ...) are what a learner re-runs most. What only the browser
adds (widgets rendering, the output area, Shift-Enter on a cell) is the same for every lesson.

Runs in the session's JupyterLab and Chromium page (tests/conftest.py). A clean tab is left open for
tests/test_browser_restart.py, which restarts its kernel (browser_support.take_tab). Skipped (loudly) without
Debian's Chromium or playwright, failing instead when CI=true.
"""

from __future__ import annotations

import json

import pytest

from browser_support import (POLL_MS, REPO, RUN_AGAIN, lesson_notebooks, open_and_check, run_all_and_check,
                             shot_name)
from sanitizer import CLOCK, sanitize

pytestmark = pytest.mark.browser


def steady(text: str) -> str:
    """What legitimately changes between two runs of a cell, hidden: the tools' clock (nbval's own rules)."""
    return sanitize(text, CLOCK)


def run_again(nb, index: int, count_before, timeout_ms: int = 60_000) -> None:
    """Run cell `index` once more and wait until it has a new execution count and is no longer running."""
    nb.run_cell(index)
    nb.page.wait_for_function(
        f"() => {{ const c = {nb._js}.content.widgets[{index}];"
        f" return c.model.executionCount !== null && c.model.executionCount !== {json.dumps(count_before)}"
        " && !c.node.querySelector('.jp-InputPrompt').textContent.includes('*'); }",
        timeout=timeout_ms, polling=POLL_MS,
    )


def run_every_cell_again(nb) -> list[str]:
    """After a clean Run All: run every code cell once more, top to bottom, one at a time; list the errors its
    notebook did not announce and the cells that print something else than under Run All (times aside)."""
    problems = []
    cells = nb.cells_info()
    first = {i: steady(shown["stdout"]) for i, shown in enumerate(nb.outputs()) if cells[i]["type"] == "code"}
    for i in first:
        run_again(nb, i, cells[i]["count"])
        info, shown = nb.cells_info()[i], nb.outputs(i)
        where = f"cell {i} run again"
        if "raises-exception" not in info["tags"]:
            problems += [f"{where}: error output: {error[:300]}" for error in info["errors"]]
            problems += [f"{where}: traceback on stderr: {text[:300]}" for text in shown["stderr"]
                         if "Traceback" in text and not info["errors"]]
        again = steady(shown["stdout"])
        if again != first[i]:
            problems.append(f"{where} printed something else:\n--- Run All\n{first[i][:600]}\n--- again\n{again[:600]}")
    nb.wait_kernel_idle(timeout_ms=30_000)
    return problems


def test_the_notebooks_are_lessons():
    english = lesson_notebooks()
    spanish = [path.replace("notebooks/", "notebooks/es/", 1) for path in english]
    assert set(RUN_AGAIN) <= set(english) | set(spanish), "a notebook to run again is not a lesson any more"
    assert all((REPO / path).exists() for path in RUN_AGAIN)
    assert {path.startswith("notebooks/es/") for path in RUN_AGAIN} == {True, False}, "one lesson of each edition"


@pytest.mark.parametrize("path", RUN_AGAIN)
def test_every_cell_can_be_run_again_after_run_all(browser, path):
    lab_page, netlog = browser
    next_path = RUN_AGAIN[(RUN_AGAIN.index(path) + 1) % len(RUN_AGAIN)]

    def run_all_then_every_cell_again(nb):
        return run_all_and_check(nb) or run_every_cell_again(nb)  # again only when Run All was clean

    problems = open_and_check(lab_page, path, run_all_then_every_cell_again,
                              f"rerun-{shot_name(path)}.png", next_path,
                              keep_open=True)  # test_browser_restart.py goes on in this tab
    assert not problems, f"{path}:\n" + "\n\n".join(problems)
    assert not netlog.outside_loopback(), "the page made requests that leave 127.0.0.1"
