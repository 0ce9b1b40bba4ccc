"""Test-session settings shared by the unit tests, the lesson notebooks and the exercise grading.

- Graded and tested runs are offline and deterministic, even on a machine with ANTHROPIC_API_KEY set
  (set HARNESS_OFFLINE=0 yourself to run the notebooks against Claude).
- A git-ignored .env file is not read (PYTHON_DOTENV_DISABLED=1, see harness_lib.client.load_env_file).
- Nobody clicks in a headless run, so each approval button is clicked by the approver itself:
  HARNESS_AUTO_APPROVE=notebook clicks the button the notebook cell names (see harness_lib.approval).
Kernels started by nbval inherit this process's environment.

Two more things, for every run in the repository:
- pyproject's `--nbval-sanitize-with=tests/sanitize.cfg` is relative to the root: it is resolved here, so a
  notebook gives the same result run from the root, from its own folder, or by an absolute path from elsewhere.
- The whole suite (`pytest` at the root, no paths given) runs on every core with pytest-xdist, one test file or
  notebook per worker at a time (`--dist loadfile`: a notebook's cells share one kernel, a module's fixtures one
  process). Given paths (`pytest notebooks/02_the_core_loop.ipynb`, grading an exercise) it runs in one process,
  as before. `pytest -n 0` runs the whole suite in one process; `pytest -n 4` picks the number of workers.
"""

import importlib.util
import os
import re
from pathlib import Path

import pytest

# The pytest plugins the kit uses. pyproject.toml turns off auto-loading (every installed plugin, each package's
# modules re-compiled in every pytest process); they are loaded here instead, each only if it is installed, so a
# pytest without xdist still runs the tests in one process.
pytest_plugins = [name for name in ("xdist.plugin", "nbval.plugin", "_hypothesis_pytestplugin")
                  if importlib.util.find_spec(name.partition(".")[0])]

os.environ.setdefault("HARNESS_OFFLINE", "1")
os.environ.setdefault("HARNESS_AUTO_APPROVE", "notebook")
os.environ.setdefault("PYTHON_DOTENV_DISABLED", "1")  # a learner's .env (API key) is not read by tests
os.environ.pop("HARNESS_SCENARIO", None)

# Under xdist, the files that take longest are handed out first, so the short ones fill in around them
# (and the run does not end waiting on one long file started last). Then the lesson notebooks, then the rest.
LONGEST_FIRST = [
    "tests/test_exercises.py",  # wrong answers in one kernel; solutions and starters in pytest runs of its own
    "tests/test_browser.py",  # JupyterLab + Chromium: approval buttons, Run All on lessons (+ test_browser_es.py)
    "tests/test_browser_exercises.py",  # Run All on exercises (+ test_browser_rerun.py: lessons 02, 03)
    "tests/test_live_mode.py",  # every lesson live in a kernel
    "tests/test_gradebook.py",
    "tests/test_classroom.py",
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
        # Each worker that runs a browser test starts its own JupyterLab and Chromium (tests/conftest.py, ~8 CPU-s):
        # the two small browser files go with a big one, so no worker starts them for a few seconds of tests.
        BROWSER_PARTNERS = {"tests/test_browser_es.py": "tests/test_browser.py",
                            "tests/test_browser_rerun.py": "tests/test_browser_exercises.py"}

        def _split_scope(self, nodeid):
            scope = super()._split_scope(nodeid)
            scope = self.BROWSER_PARTNERS.get(scope, scope)
            return re.sub(r"^notebooks/[a-z]{2}/", "notebooks/", scope)

    return LessonWithTranslation(config, log)


def pytest_configure(config):
    """Resolve a relative `--nbval-sanitize-with` against the repository root (when it is not found as given)."""
    for attr in ("nbval_sanitize_with", "sanitize_with"):
        value = getattr(config.option, attr, None)
        if value and not os.path.isabs(value) and not os.path.exists(value):
            candidate = Path(config.rootpath) / value
            if candidate.exists():
                setattr(config.option, attr, str(candidate))


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
