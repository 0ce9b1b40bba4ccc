"""How the whole test suite is spread over the cores (a pytest plugin; tests/conftest.py loads it).

`pytest` at the root with no paths (the README's test command) runs the files in parallel, one worker per core
(pytest-xdist), one test file or notebook per worker at a time (`--dist loadfile`: a notebook's cells share one
kernel, a module's fixtures one process). Given paths (`pytest tests/test_loop.py`) it runs in one process.
`pytest -n 0` runs the whole suite in one process; `pytest -n 4` picks the number of workers.

This is the test suite's business only: a learner grading an exercise (`pytest --nbval-lax exercises/...`) never
loads this file (the root conftest.py holds what grading needs).

NOT handled: `-n` given together with paths outside tests/ only (e.g. `pytest -n 2 notebooks/`): this plugin, and
xdist with it, are loaded by tests/conftest.py, so there `-n` is an unknown option.
"""

import os
import re
from pathlib import Path

import pytest

# Under xdist, the files that take longest are handed out first, so the short ones fill in around them
# (and the run does not end waiting on one long file started last). Then the lesson notebooks, then the rest.
LONGEST_FIRST = [
    # JupyterLab + Chromium, one of each for the whole run: every browser file is one scope (BROWSER below), handed
    # out first, its files one after the other (test_kernel_transport.py last: after its one JupyterLab test, the
    # rest need no browser)
    "tests/test_browser.py",  # approval buttons, Run All on the lessons (04, 06 read by test_browser_inspector.py)
    "tests/test_browser_es.py",
    "tests/test_browser_exercises.py",  # Run All on the exercises (3's solution read by test_browser_inspector.py)
    "tests/test_browser_inspector.py",
    "tests/test_browser_rerun.py",
    "tests/test_browser_restart.py",  # a restart mid-lesson, both editions (issue 36)
    "tests/test_kernel_transport.py",
    "tests/test_lite.py",  # the browser-tab site, Pyodide in Chromium: on the other worker, while the one above runs
    "tests/test_exercises.py",  # wrong answers in one kernel; solutions and starters in pytest runs of its own
    "tests/test_capstone.py",  # exercise 5: its wrong answers in one kernel beside one grading run of its notebooks
    "tests/test_live_mode.py",  # every lesson live in a kernel
    "tests/test_gradebook.py",
    "tests/test_classroom.py",
    # the next-longest (~7-18 s each), before the lessons and the many short files: handed out last, one of them
    # would leave a worker running alone at the end
    "tests/test_judge.py",
    "tests/test_cli.py",
    "tests/test_shards.py",
    "tests/test_approval.py",
    "tests/test_grade_anywhere.py",
]


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config):
    """`pytest` with no paths (the README's test command): run the files in parallel, one worker per core.
    (A wrapper: it must decide before xdist's own pytest_cmdline_main turns `-n` into workers.)"""
    choose_workers(config)
    return (yield)


def choose_workers(config):
    if not config.pluginmanager.hasplugin("xdist.plugin"):
        return
    if hasattr(config, "workerinput") or "PYTEST_XDIST_WORKER" in os.environ:
        return  # an xdist worker (or a pytest started by a test in one): never workers of its own
    if config.option.numprocesses is not None:  # -n given (-n 0: one process)
        if config.option.dist == "no":
            config.option.dist = "loadfile"  # not xdist's "load": it would split a notebook's cells between kernels
        return
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or (os.cpu_count() or 1) < 2:
        return
    if config.getoption("usepdb") or config.getoption("collectonly") or config.getoption("capture") == "no":
        return  # a debugger, a listing, or -s (live output) want one process
    config.option.numprocesses = "logical"  # xdist turns it into the number of cores (os.cpu_count())
    config.option.dist = "loadfile"
    config.option.loadscopereorder = False  # keep LONGEST_FIRST's order


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile`, except that a lesson and its translation (notebooks/es/05_x.ipynb) go to one worker, one
    after the other: both write the same file in workspace/scratch/ and print whether it is there."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LessonWithTranslation(LoadFileScheduling):
        # Every browser file goes to one worker, one file after the other: that worker alone starts JupyterLab and
        # Chromium (tests/conftest.py, ~8 CPU-s each time), and a notebook's Run All is done once for every file that
        # reads it (browser_support.run_all_once: lessons 04 and 06, exercise 3's solution). The files are ~75-80 s of
        # that worker's time; the other worker takes the rest meanwhile. (test_kernel_transport.py checks, among
        # others, that JupyterLab's kernels talk over Unix sockets.)
        BROWSER = "tests/test_browser.py"
        BROWSER_PARTNERS = {"tests/test_browser_es.py": BROWSER, "tests/test_browser_exercises.py": BROWSER,
                            "tests/test_browser_inspector.py": BROWSER, "tests/test_browser_rerun.py": BROWSER,
                            "tests/test_browser_restart.py": BROWSER,
                            "tests/test_kernel_transport.py": BROWSER}

        def _split_scope(self, nodeid):
            scope = super()._split_scope(nodeid)
            scope = self.BROWSER_PARTNERS.get(scope, scope)
            return re.sub(r"^notebooks/[a-z]{2}/", "notebooks/", scope)

    return LessonWithTranslation(config, log)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):
        return  # only xdist workers: their collection order is the order files are handed out
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    root = Path(config.rootpath)

    def key(item):
        path = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else str(item.path)
        # then the lesson notebooks (each waits for its kernel), and last the many short files of in-process tests,
        # which keep both cores busy to the end
        return rank.get(path, len(rank) + (0 if path.startswith("notebooks/") else 1))

    items.sort(key=key)  # stable: within a file (a notebook's cells) the order is kept
