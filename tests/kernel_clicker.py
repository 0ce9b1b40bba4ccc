"""Test plumbing, not part of the textbook: the person who clicks in the kit's automated runs.

The lessons are committed executed, and the tests run them again (nbval, nbclient, Run All in JupyterLab) where
nobody can click. So the kernels of a test run load this file, and it presses, in each notebook, the buttons that
the notebook's committed run shows pressed: CLICKS, by the notebook's path from the repository root. harness_lib
knows nothing of it: the approver waits for a click as it does for a person, and gets one.

How it gets into a kernel: `write_kernel_config(ipython_dir)` writes an IPython kernel configuration whose
start-up line imports this module and runs `install()`; this file, as a pytest plugin (tests/conftest.py loads it),
points IPYTHONDIR at such a folder for the kernels nbval starts in a test session and names each notebook while its
first cell is set up; tests/browser_support.py does it for JupyterLab's, editions/run.py for a build's. A lesson
with buttons run by nbval alone: `python -m pytest -p tests.kernel_clicker notebooks/05_human_in_the_loop.ipynb`. `install()` asks ipywidgets to call `on_made` for every widget
made in the kernel (`Widget.on_widget_constructed`, a public ipywidgets API).

What it presses: a Box made with Buttons among its children is one question (the approver's Approve / Reject
row, lesson 00's button). It takes the next description of the notebook's list, and that Button is pressed with
`Button.click()` -- the very handler a mouse click runs -- as soon as the running cell lets the event loop go on
(its on_click handler is in place by then). A cell that is the notebook's first code cell starts the list again
(Run All once more, in the same kernel).

It does nothing unless KIT_TEST_CLICKS names the notebook the kernel runs (read at each widget; the tests set it
only where a whole notebook runs with nobody at the screen) and that notebook is in CLICKS. A list used up, or a
row without the named button, is a ValueError from the widget's constructor: the approver counts it as a no, and
the run that expected a click fails loudly.

Standard library only at import (a kernel imports it at start-up). PYTEST_DONT_REWRITE: it holds no assert, and
tests/browser_support.py imports it before pytest loads it as a plugin.
"""

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# The button each question of a notebook's committed run was answered with, in order, by description.
CLICKS = {
    "notebooks/00_setup.ipynb": ["Click me"],
    "notebooks/es/00_setup.ipynb": ["Haz clic"],
    "notebooks/05_human_in_the_loop.ipynb": ["Reject", "Approve", "Reject"],
    "notebooks/es/05_human_in_the_loop.ipynb": ["Rechazar", "Aprobar", "Rechazar"],
}

_used: dict[str, int] = {}  # notebook -> how many of its clicks were taken
_first_cells: dict[str, str] = {}  # notebook -> the source of its first code cell


def _first_cell(notebook: str) -> str:
    if notebook not in _first_cells:
        cells = json.loads((REPO / notebook).read_text(encoding="utf-8"))["cells"]
        code = [c for c in cells if c["cell_type"] == "code"]
        _first_cells[notebook] = "".join(code[0]["source"]).strip() if code else ""
    return _first_cells[notebook]


def _notebook() -> str:
    notebook = os.environ.get("KIT_TEST_CLICKS", "")
    return notebook if notebook in CLICKS else ""


def before_cell(info) -> None:
    """IPython's pre_run_cell: the notebook's first code cell starts its list again."""
    notebook = _notebook()
    if notebook and (info.raw_cell or "").strip() == _first_cell(notebook):
        _used[notebook] = 0


def on_made(widget) -> None:
    """ipywidgets' construction callback: a Box made with Buttons is a question; press the listed one."""
    import asyncio

    import ipywidgets

    notebook = _notebook()
    if not notebook or not isinstance(widget, ipywidgets.Box):
        return
    buttons = [child for child in widget.children if isinstance(child, ipywidgets.Button)]
    if not buttons:
        return
    plan, used = CLICKS[notebook], _used.get(notebook, 0)
    if used >= len(plan):
        raise ValueError(f"{notebook} asks question {used + 1}, but tests/kernel_clicker.py lists {len(plan)} "
                         f"click(s) for it: {plan}")
    _used[notebook] = used + 1
    named = [b for b in buttons if b.description == plan[used]]
    if not named:
        raise ValueError(f"{notebook}, question {used + 1}: no button {plan[used]!r} among "
                         f"{[b.description for b in buttons]}")
    asyncio.get_running_loop().call_soon(named[0].click)  # after the cell has set its on_click handler


def install() -> None:
    """Run in the kernel at start-up (see write_kernel_config)."""
    import ipywidgets
    from IPython import get_ipython

    ipywidgets.Widget.on_widget_constructed(on_made)
    get_ipython().events.register("pre_run_cell", before_cell)


def write_kernel_config(ipython_dir: Path) -> None:
    """An IPython kernel configuration in `ipython_dir` (what IPYTHONDIR names) that runs install() at start-up:
    one line, ended with ";" so it shows nothing, that leaves no name behind and tests/ on the kernel's sys.path only
    while it imports this module."""
    profile = Path(ipython_dir) / "profile_default"
    profile.mkdir(parents=True, exist_ok=True)
    tests = str(Path(__file__).resolve().parent)
    line = (f"import sys as _kit_sys; _kit_sys.path.insert(0, {tests!r}); import kernel_clicker as _kit_clicker; "
            f"_kit_sys.path.remove({tests!r}); _kit_clicker.install(); del _kit_sys, _kit_clicker;")
    (profile / "ipython_kernel_config.py").write_text(f"c.InteractiveShellApp.exec_lines = [{line!r}]\n")


# ---- as a pytest plugin (tests/conftest.py loads it) -----------------------------------------------------------

def pytest_configure(config):
    """Once per test run (the processes it starts inherit it): the kernels nbval starts load this clicker."""
    if not os.environ.get("KIT_TEST_IPYTHONDIR"):
        ipython_dir = tempfile.mkdtemp(prefix="kit-ipython-")
        write_kernel_config(Path(ipython_dir))
        os.environ["KIT_TEST_IPYTHONDIR"] = os.environ["IPYTHONDIR"] = ipython_dir
        atexit.register(shutil.rmtree, ipython_dir, True)


def pytest_runtest_setup(item):
    """While a notebook's cell runs (nbval starts its kernel as its first cell is set up, after this hook),
    KIT_TEST_CLICKS names the notebook, from the root: the kernel's clicker presses that notebook's buttons."""
    path = Path(str(item.path)).resolve()
    if path.suffix == ".ipynb" and path.is_relative_to(REPO):
        os.environ["KIT_TEST_CLICKS"] = path.relative_to(REPO).as_posix()


def pytest_runtest_teardown(item):
    os.environ.pop("KIT_TEST_CLICKS", None)
