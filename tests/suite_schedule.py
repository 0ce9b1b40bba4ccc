"""How the whole test suite is spread over the cores (a pytest plugin; tests/conftest.py loads it).

`pytest` at the root with no paths (the README's test command) runs the files in parallel, one worker per core
and one more (pytest-xdist, `workers` below), one test file or notebook per worker at a time (`--dist loadfile`: a
notebook's cells share one kernel, a module's fixtures one process). Given paths (`pytest tests/test_loop.py`) it
runs in one process. `pytest -n 0` runs the whole suite in one process; `pytest -n 4` picks the number of workers.

This is the test suite's business only: a learner grading an exercise (`pytest --nbval-lax exercises/...`) never
loads this file (the root conftest.py holds what grading needs).

NOT handled: `-n` given together with paths outside tests/ only (e.g. `pytest -n 2 notebooks/`): this plugin, and
xdist with it, are loaded by tests/conftest.py, so there `-n` is an unknown option.
"""

import json
import os
import re
from collections import defaultdict
from pathlib import Path

import pytest

# Under xdist, the files that take longest are handed out first, so the short ones fill in around them and the
# workers end together (not waiting on one long file started last): the order is by measured cost, longest first.
# A whole run (`pytest`, no paths) writes what each file took (setup + call + teardown of its tests, summed, as
# `--durations=0` counts them) to COSTS_FILE, and the next whole run on this machine orders the files by those
# figures. A fresh clone has none: it uses MEASURED, the figures of a whole run on the 2-core machine (refresh them
# from a run's COSTS_FILE: `python tests/suite_schedule.py` prints them as this table). A file measured by neither
# goes after those that are: first the lesson notebooks (each waits for its kernel), then the many short files of
# in-process tests, which keep every core busy to the end.
COSTS_FILE = Path(__file__).resolve().parent.parent / ".test-output" / "suite-costs.json"
MEASURED = {  # test-seconds of a whole run (2026-12-07 19:26, 182.5 s), each browser file counted under BROWSER (below)
    "tests/test_browser.py": 111,  # every browser file: one worker, one JupyterLab and Chromium
    "tests/test_lite.py": 91,  # the browser-tab site, Pyodide in Chromium: on another worker meanwhile
    "tests/test_capstone.py": 53,
    "tests/test_exercises.py": 50,
    "tests/test_gradebook.py": 47,
    "tests/test_judge.py": 34,
    "tests/test_classroom.py": 27,
    "tests/test_live_mode.py": 16,
    "tests/test_cli.py": 11,
    "tests/test_approval.py": 11,
    "tests/test_fuzz.py": 9,
    "tests/test_shards.py": 9,
    "tests/test_grade_anywhere.py": 6,
}
# JupyterLab + Chromium, one of each for the whole run: every browser file is one scope (tests/test_browser.py's),
# its files one after the other in this order (test_kernel_transport.py last: after its one JupyterLab test, the
# rest need no browser; lessons 04 and 06 and exercise 3's solution, Run All once, are read by later files).
BROWSER = ["tests/test_browser.py",  # approval buttons, Run All on the lessons (04, 06 read by test_browser_inspector.py)
           "tests/test_browser_es.py",
           "tests/test_browser_exercises.py",  # Run All on the exercises (3's solution read by test_browser_inspector.py)
           "tests/test_browser_inspector.py",
           "tests/test_browser_rerun.py",
           "tests/test_browser_restart.py",  # a restart mid-lesson, both editions (issue 36)
           "tests/test_kernel_transport.py"]


def scope(path: str) -> str:
    """The unit a worker runs whole (a test file's path from the root, or a notebook's): every browser file is
    BROWSER[0]'s, a lesson's translation is the lesson's (notebooks/es/05_x.ipynb -> notebooks/05_x.ipynb)."""
    path = BROWSER[0] if path in BROWSER else path
    return re.sub(r"^notebooks/[a-z]{2}/", "notebooks/", path)


def costs() -> dict:
    """Seconds per scope: the last whole run's on this machine, else MEASURED."""
    try:
        measured = json.loads(COSTS_FILE.read_text(encoding="utf-8"))
        if isinstance(measured, dict) and measured and all(isinstance(v, (int, float)) for v in measured.values()):
            return measured
    except (OSError, ValueError):
        pass
    return MEASURED


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config):
    """`pytest` with no paths (the README's test command): run the files in parallel, one worker per core and one
    more.
    (A wrapper: it must decide before xdist's own pytest_cmdline_main turns `-n` into workers.)"""
    choose_workers(config)
    return (yield)


def workers(cores: int) -> int:
    """One worker per core, and one more. Many tests wait: for a kernel's answer, a page in Chromium, a learner's
    command in its own process, a sandbox to start. With one worker per core about a tenth of the two cores' time
    was idle (2026-12-07, /proc/stat over whole runs: 38-40 of ~400 core-seconds); a third worker fills most of it,
    for ~9 CPU-s more a run (its start and collection, more switching). Paired (in turn, A B A B): `-n 3` took 0.948
    of the wall time of `-n 2` in one checkout (0.942-0.954), and 0.962 (0.937-0.987) against the commit before in
    fresh clones (docs/development.md, "Where the time goes")."""
    return cores + 1


def choose_workers(config):
    if not config.pluginmanager.hasplugin("xdist.plugin"):
        return
    if hasattr(config, "workerinput") or "PYTEST_XDIST_WORKER" in os.environ:
        return  # an xdist worker (or a pytest started by a test in one): never workers of its own
    if config.option.numprocesses is not None:  # -n given (-n 0: one process)
        if config.option.dist == "no":
            config.option.dist = "loadfile"  # not xdist's "load": it would split a notebook's cells between kernels
        config.option.loadscopereorder = False  # the order by cost (below), not xdist's by number of tests
        return
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or (os.cpu_count() or 1) < 2:
        return
    if config.getoption("usepdb") or config.getoption("collectonly") or config.getoption("capture") == "no":
        return  # a debugger, a listing, or -s (live output) want one process
    config.option.numprocesses = workers(os.cpu_count() or 1)
    config.option.dist = "loadfile"
    config.option.loadscopereorder = False  # keep the order of pytest_collection_modifyitems (by cost)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile`, except that every browser file goes to one worker, one file after the other, and a lesson
    and its translation (notebooks/es/05_x.ipynb) to one worker, one after the other (see `scope`)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LessonWithTranslation(LoadFileScheduling):
        # Every browser file on one worker: that worker alone starts JupyterLab and Chromium (tests/conftest.py, ~8
        # CPU-s each time), and a notebook's Run All is done once for every file that reads it
        # (browser_support.run_all_once: lessons 04 and 06, exercise 3's solution); the other workers take the rest
        # meanwhile. A lesson and its translation both write the same file in workspace/scratch/ and print whether
        # it is there. (test_kernel_transport.py checks, among others, that JupyterLab's kernels talk over Unix
        # sockets.)
        def _split_scope(self, nodeid):
            return scope(super()._split_scope(nodeid))

    config.pluginmanager.register(Spent(), "suite-costs")
    return LessonWithTranslation(config, log)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    if not hasattr(config, "workerinput"):
        return  # only xdist workers: their collection order is the order files are handed out
    cost = costs()
    root = Path(config.rootpath)

    def key(item):
        path = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else str(item.path)
        unit = scope(path)
        within = BROWSER.index(path) if unit == BROWSER[0] else 0
        if unit in cost:
            return 0, -cost[unit], unit, within
        # not measured: the lesson notebooks, then the rest, each in collection order
        return (1 if path.startswith("notebooks/") else 2), 0, "", within

    items.sort(key=key)  # stable: within a file (a notebook's cells) the order is kept


# --- what each file took, written by a whole run for the next (COSTS_FILE) -------------------------------------

class Spent:
    """In xdist's main process (registered with the scheduler): every test's setup, call and teardown, added to
    its scope; a whole run that ran to its end (passed or with failures) keeps the sums for the next whole run."""

    def __init__(self):
        self.seconds = defaultdict(float)

    def pytest_runtest_logreport(self, report):
        self.seconds[scope(report.nodeid.split("::")[0])] += report.duration

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session, exitstatus):
        config = session.config
        whole = (config.args_source == pytest.Config.ArgsSource.TESTPATHS and not config.getoption("keyword")
                 and not config.getoption("markexpr") and not session.shouldfail and not session.shouldstop)
        if not self.seconds or not whole or exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            return
        try:
            COSTS_FILE.parent.mkdir(exist_ok=True)
            COSTS_FILE.write_text(json.dumps({unit: round(seconds, 1) for unit, seconds in
                                              sorted(self.seconds.items(), key=lambda kv: -kv[1])}, indent=1) + "\n",
                                  encoding="utf-8")
        except OSError:  # a read-only copy of the kit: the next run orders by MEASURED
            pass


if __name__ == "__main__":  # the last whole run's figures, as MEASURED's lines (those of 5 s or more)
    for unit, seconds in sorted(costs().items(), key=lambda kv: -kv[1]):
        if seconds >= 5:
            print(f"    \"{unit}\": {round(seconds)},")
