"""Safe to re-run: in a real JupyterLab, Run All on notebooks 02 and 03, then run every code cell once more, one by
one, as a learner pressing Shift-Enter would. No cell may show an error its notebook did not announce (a cell
tagged raises-exception may raise), and each re-run prints what it printed under Run All (times aside).

Runs in the session's JupyterLab and Chromium page (tests/conftest.py). Skipped (loudly) without
/usr/bin/chromium or playwright, failing instead when CI=true.
"""

from __future__ import annotations

import json
import re

import pytest

from browser_support import ARTIFACTS, POLL_MS, REPO, STDERR_OUTPUT

pytestmark = pytest.mark.browser

NOTEBOOKS = ["notebooks/02_the_core_loop.ipynb", "notebooks/03_stop_conditions.ipynb"]
# What legitimately changes between two runs of a cell: the tools' clock (as in tests/sanitize.cfg).
CHANGES = [re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)?"),
           re.compile(r"\d{1,2}:\d{2} on \d{1,2} [A-Z][a-z]+ \d{4}")]


def steady(text: str) -> str:
    for pattern in CHANGES:
        text = pattern.sub("<TIME>", text)
    return text


def unannounced_errors(nb, index: int, info: dict) -> list[str]:
    """Error outputs (and tracebacks on stderr) of cell `index` that its notebook did not announce."""
    if "raises-exception" in info["tags"]:
        return []
    found = [f"error output: {error[:300]}" for error in info["errors"]]
    found += [f"traceback on stderr: {text[:300]}" for text in nb.cell(index).locator(STDERR_OUTPUT).all_inner_texts()
              if "Traceback" in text and not info["errors"]]
    return found


def run_again(nb, index: int, count_before, timeout_ms: int = 60_000) -> None:
    """Run cell `index` once more and wait until it has a new execution count and is no longer running."""
    nb.run_cell(index)
    nb.page.wait_for_function(
        f"() => {{ const c = {nb._js}.content.widgets[{index}];"
        f" return c.model.executionCount !== null && c.model.executionCount !== {json.dumps(count_before)}"
        " && !c.node.querySelector('.jp-InputPrompt').textContent.includes('*'); }",
        timeout=timeout_ms, polling=POLL_MS,
    )


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_every_cell_can_be_run_again_after_run_all(browser, path):
    page, netlog = browser
    source = (REPO / path).read_bytes()
    next_path = NOTEBOOKS[(NOTEBOOKS.index(path) + 1) % len(NOTEBOOKS)]
    nb = page.open_notebook(path)
    if next_path != path:
        page.lab.start_kernel(next_path)  # the next notebook's kernel starts while this one runs
    problems = []
    try:
        assert nb.run_all(timeout_ms=120_000), f"{path}: Run All did not finish"
        nb.wait_kernel_idle(timeout_ms=30_000)
        cells = nb.cells_info()
        first = {}
        for i, info in enumerate(cells):
            if info["type"] == "code":
                assert info["count"] is not None, f"{path} cell {i}: not run by Run All"
                problems += [f"cell {i} under Run All: {p}" for p in unannounced_errors(nb, i, info)]
                first[i] = steady(nb.stdout_text(i))

        for i in first:  # every code cell once more, top to bottom, one at a time
            run_again(nb, i, cells[i]["count"])
            info = nb.cells_info()[i]
            problems += [f"cell {i} run again: {p}" for p in unannounced_errors(nb, i, info)]
            again = steady(nb.stdout_text(i))
            if again != first[i]:
                problems.append(f"cell {i} run again printed something else:\n--- Run All\n{first[i][:600]}"
                                f"\n--- again\n{again[:600]}")
        nb.wait_kernel_idle(timeout_ms=30_000)
    finally:
        nb.screenshot(ARTIFACTS / f"rerun-{path.rsplit('/', 1)[-1].removesuffix('.ipynb')}.png")
        nb.close()
    assert (REPO / path).read_bytes() == source, "the browser run must not save the notebook"
    assert not problems, f"{path}:\n" + "\n\n".join(problems)
    assert not netlog.outside_loopback(), "the page made requests that leave 127.0.0.1"
