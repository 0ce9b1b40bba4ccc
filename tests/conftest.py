"""The test suite's session settings, and fixtures shared by the files in tests/.

Plugins: pytest-xdist and its scheduling (tests/suite_schedule.py: `pytest` at the root runs the whole suite on
every core, longest files first) and hypothesis's, each only if installed. pyproject.toml turns off plugin
auto-loading; the root conftest.py loads nbval, which grading needs too. None of this is loaded when a learner
grades an exercise.

The browser tests (test_browser*.py, marked `browser`) share one JupyterLab server and one headless Chromium
page per test process; under xdist every browser file goes to the same worker (tests/suite_schedule.py), so a
whole run starts one of each. Both start when the first browser test asks for them, not before. Each test opens
its notebooks as tabs in that page, each with a fresh kernel, and closes them (or leaves one open for the next test
that works in it: browser_support.take_tab); a notebook's Run All is done once per session for every file that
reads it (browser_support.run_all_once). Starting JupyterLab and Chromium once
instead of once per file saves several seconds of CPU per file.

Chromium is closed again as soon as a test that is not a browser test is about to run: Playwright's sync API
keeps an asyncio event loop running in this thread while it is open, and `asyncio.run()` in any other test
would then fail ("cannot be called from a running event loop"). The next browser test opens it again.

Every kernel the session starts talks over Unix sockets, not TCP ports another process could take first
(tests/kernel_ipc.py). The tools of every notebook and kernel see a throwaway copy of workspace/ (HARNESS_TOOL_ROOT),
so a learner's files in the kit's workspace/scratch/ are never touched. A run writes into the kit only under
.test-output/ (screenshots, hypothesis's examples): pytest_sessionfinish fails the run if `git status --ignored`
differs at its end from its start, or a git-ignored file there at the start was changed or deleted.
"""

import compileall
import gc
import importlib.util
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest

import clean_tree
import kernel_forks
import kernel_ipc
from browser_support import OUTPUT, REPO, booted_page, require_browser, start_lab, tool_root_copy

kernel_ipc.use()  # this process's kernels (nbval's, nbclient's, jupyter_client's) over Unix sockets, not TCP
# hypothesis's example database in the one folder a test run writes into (not .hypothesis/ in the kit)
os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", str(OUTPUT / "hypothesis"))

# The test suite's plugins (pyproject.toml turns off auto-loading): xdist, hypothesis and pytest-timeout when
# installed, tests/suite_schedule.py, which spreads `pytest` (no paths) over the cores, tests/suite_timeout.py,
# the time limit of every test, tests/suite_mutation.py, the suite's settings under mutmut,
# tests/kernel_clicker.py, which presses the buttons of the lessons nbval runs, and pytest's own pytester (a
# pytest run inside a test, in its process: no second Python to start).
pytest_plugins = [name for name in ("xdist.plugin", "_hypothesis_pytestplugin", "pytest_timeout")
                  if importlib.util.find_spec(name.partition(".")[0])] + ["suite_schedule", "suite_timeout",
                                                                          "suite_mutation", "kernel_clicker",
                                                                          "pytester"]

# tests/fixtures/ holds notebooks the browser tests open in JupyterLab; they are not lessons for nbval
# (the approval probe would wait for a click that never comes).
collect_ignore = ["fixtures"]


class OpenBrowser:
    """The (LabPage, NetLog) of booted_page(), kept open across browser test files until close()."""

    def __init__(self):
        self._context = None
        self.value = None

    def open(self, lab, profile_dir):
        if self._context is None:
            context = booted_page(lab, profile_dir)
            self.value = context.__enter__()
            self._context = context
        return self.value

    def close(self):
        context, self._context, self.value = self._context, None, None
        if context is not None:
            context.__exit__(None, None, None)


OPEN_BROWSER = OpenBrowser()


# the kit's own Python modules, imported anew by every kernel; and the grader's, by every gradebook, worker and sandbox
KIT_FOLDERS = ("harness_lib", "harness_kit", "harness_ui", "exercises", "grader")


def pytest_configure(config):
    """Once per test session (in xdist's main process; workers and every process they start inherit it):
    the kit's modules are compiled, the work tree's state is noted (see pytest_sessionfinish), the kernels of the
    processes the session starts talk over Unix sockets (tests/kernel_ipc.py), and they are forked from a warm
    process (tests/kernel_forks.py)."""
    if hasattr(config, "workerinput"):
        return
    compile_the_kit()
    if "KIT_TEST_SESSION" in os.environ:  # a pytest this session started: it has all of the below already
        return
    compile_the_tests(config)
    config.stash[TREE_BEFORE] = clean_tree.state(REPO)
    folder = Path(tempfile.mkdtemp(prefix="kit-kernels-")).resolve()  # short: it holds Unix sockets
    before = {name: os.environ.get(name) for name in SESSION_VARIABLES}
    os.environ["KIT_TEST_SESSION"] = str(folder)
    # The tools of every notebook, kernel and process of the run see a copy of workspace/ (harness_lib.tools:
    # DEFAULT_ROOT), never the kit's own: a learner's files in workspace/scratch/ stay as they are. Named
    # workspace/, like the kit's, so the lessons' "<kit>/workspace" lines print the same.
    os.environ["HARNESS_TOOL_ROOT"] = str(tool_root_copy(folder / "workspace"))
    if kernel_ipc.available():
        session_kernels_over_ipc(folder)
    server = kernel_forks.start(folder) if kernel_forks.available() else None

    def stop():
        try:
            if server is not None:
                kernel_forks.stop(server)
            log = folder / "kernels.sock.log"  # which kernels were forked, which started cold and why
            if os.environ.get("KIT_TEST_KERNEL_LOG") and log.exists():
                shutil.copy(log, os.environ["KIT_TEST_KERNEL_LOG"])
        finally:
            shutil.rmtree(folder, ignore_errors=True)
            for name, value in before.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
    config.add_cleanup(stop)


# What pytest_configure sets for the whole session (every process it starts inherits them), and puts back after.
SESSION_VARIABLES = ("KIT_TEST_SESSION", "HARNESS_TOOL_ROOT", "JUPYTER_PATH", "KIT_TEST_KERNEL_SERVER", "PYTHONPATH", "PYTEST_PLUGINS",
                     "JUPYTER_CONFIG_DIR")


def session_kernels_over_ipc(folder):
    """The kernels of the processes this session starts over IPC too (see tests/kernel_ipc.py): the pytest runs
    load kernel_ipc as a plugin (a copy of it on PYTHONPATH, alone in its folder), the Jupyter applications
    (nbconvert) read the session's Jupyter configuration folder."""
    site = folder / "site"
    site.mkdir()
    shutil.copy(Path(kernel_ipc.__file__), site / "kernel_ipc.py")
    kernel_ipc.write_config(folder / "jupyter-config")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    os.environ["PYTEST_PLUGINS"] = ",".join(filter(None, [os.environ.get("PYTEST_PLUGINS"), "kernel_ipc"]))
    os.environ["JUPYTER_CONFIG_DIR"] = str(folder / "jupyter-config")


# --- a run leaves the kit as it found it (tests/clean_tree.py) ----------------------------------------------

TREE_BEFORE = pytest.StashKey()
TREE_LEFT = pytest.StashKey()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """Anything the run changed in the work tree (`git status --ignored` differs from its start, .test-output/
    aside, or a git-ignored file such as a learner's in workspace/scratch/ was changed or deleted) fails it."""
    before = session.config.stash.get(TREE_BEFORE, None)
    if before is None or hasattr(session.config, "workerinput"):
        return
    after = clean_tree.state(REPO)
    left = clean_tree.left_behind(before, after) if after else []
    if left:
        session.config.stash[TREE_LEFT] = left
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    left = config.stash.get(TREE_LEFT, None)
    if left:
        terminalreporter.section("the run changed the work tree", sep="=", red=True, bold=True)
        terminalreporter.write_line("`git status --ignored --porcelain` at the start and at the end of this run "
                                    "differ, or a git-ignored file (a learner's) was changed or deleted (a test run "
                                    "writes only under .test-output/):")
        for line in left:
            terminalreporter.write_line(f"    {line}")


def compile_the_kit():
    """Write the kit's bytecode (__pycache__/, git-ignored) once, even where PYTHONDONTWRITEBYTECODE is set.

    A run imports harness_lib (and the exercises' grading) afresh some 180 times: ~70 kernels, ~80 graded copies
    in one kernel (tests/kernel_cells.py), ~30 processes. Without bytecode on disk each of those compiles it from
    source again (~30-60 ms of CPU each, several seconds a run). Python only reads bytecode whose source is
    unchanged, so an edited module is compiled again, never run stale."""
    root = Path(__file__).resolve().parent.parent
    for folder in KIT_FOLDERS:
        compileall.compile_dir(root / folder, quiet=2, workers=1)


def compile_the_tests(config):
    """The same for tests/, once per session in its main process, before the workers start: the helpers' bytecode,
    and pytest's assertion-rewritten bytecode of the test files, conftest.py and suite_*.py (hash-checked pycs in
    tests/__pycache__/, which pytest reads even where PYTHONDONTWRITEBYTECODE keeps it from writing them). Without it
    every worker parses and rewrites all ~60 test files anew while it collects (~1.5 CPU-s each). A pytest without
    these internals (another version) just rewrites them itself, as before."""
    folder = Path(__file__).resolve().parent
    rewritten = re.compile(r"[/\\](test_\w+|conftest|suite_\w+)\.py$")
    compileall.compile_dir(folder, maxlevels=0, rx=rewritten, quiet=2, workers=1)
    try:
        from _pytest.assertion.rewrite import (PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key,
                                               get_cache_dir)
        state = config.stash[assertstate_key]
    except (ImportError, KeyError):  # another pytest, or --assert=plain
        return
    try:
        for source in sorted(folder.glob("*.py")):
            pyc = get_cache_dir(source) / (source.name[:-3] + PYC_TAIL)
            if rewritten.search(str(source)) and _read_pyc(source, pyc) is None:
                pyc.parent.mkdir(parents=True, exist_ok=True)
                source_hash, code = _rewrite_test(source, config)
                _write_pyc(state, code, source_hash, pyc)
    except (OSError, TypeError, ValueError):  # a read-only copy of the kit, or these internals changed shape in
        return  # another pytest: pytest rewrites them in each process, as before


def pytest_collection_finish(session):
    """What collection imported (the SDK, Jupyter, hypothesis...) stays for the whole run: frozen, the garbage
    collector does not walk it again at every full collection (~10% of the in-process tests' CPU)."""
    gc.collect()
    gc.freeze()


def pytest_runtest_setup(item):
    if item.get_closest_marker("browser") is None:
        OPEN_BROWSER.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """The JupyterLab server (127.0.0.1, random token) of this test process. Its kernels' tools work on a
    copy of workspace/ (HARNESS_TOOL_ROOT = lab.tool_root), so no browser test writes into the kit's own."""
    require_browser()
    tool_root = tool_root_copy(tmp_path_factory.mktemp("tool-root"))
    server = start_lab(tmp_path_factory.mktemp("jupyter"), kernel_env={"HARNESS_TOOL_ROOT": str(tool_root)})
    server.tool_root = tool_root
    try:
        yield server
    finally:
        OPEN_BROWSER.close()
        server.stop()  # kernels too, always


@pytest.fixture(scope="module")
def browser(lab, tmp_path_factory):
    """(LabPage, NetLog): JupyterLab booted in headless Chromium (opened by the first browser test, or again
    after other tests ran); every request Chromium makes is recorded while it is open."""
    return OPEN_BROWSER.open(lab, tmp_path_factory.mktemp("chromium-profile"))
