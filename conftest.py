"""What a pytest run needs to grade a notebook, in the kit and in a learner's copy of it.

`pytest --nbval-lax exercises/01_tiered_policy.ipynb` (a learner grading an exercise) and nbval on a lesson load
this file and nothing of tests/:

- The nbval plugin. pyproject.toml turns off auto-loading (every installed plugin, each package's modules
  re-compiled in every pytest process), so the plugin is loaded here instead.
- Graded and tested runs are offline and deterministic, even on a machine with ANTHROPIC_API_KEY set
  (set HARNESS_OFFLINE=0 yourself to run the notebooks against Claude).
- A git-ignored .env file is not read (PYTHON_DOTENV_DISABLED=1, see harness_kit.env.load_env_file).
- Nobody clicks in a test run. In the kit (not in a learner's copy, which has no tests/ folder), the kernels
  nbval starts load tests/kernel_clicker.py, which presses the buttons each lesson's committed run shows
  pressed (IPYTHONDIR points at a configuration that loads it; KIT_TEST_CLICKS names the notebook while its
  kernel starts). The exercises need no clicks: their approvals are scripted or press their own button.
  Kernels started by nbval inherit this process's environment.
- pyproject's `--nbval-sanitize-with=tests/sanitize.cfg` is relative to the root: it is resolved here, so a
  notebook gives the same result run from the root, from its own folder, or by an absolute path from elsewhere.
- An exercise notebook saved outside exercises/ (a renamed folder) is graded as inside it: harness_lib/grade_anywhere.py.

The kit's test suite keeps its own settings (the whole suite on every core and in which order, the hypothesis
plugin, the browser tests' shared JupyterLab) in tests/conftest.py and tests/suite_schedule.py, which a learner's
copy of the exercises does not have.
"""

import atexit
import importlib.util
import os
import runpy
import shutil
import tempfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent
CLICKER = ROOT / "tests" / "kernel_clicker.py"  # test plumbing: not in a learner's copy

# Loaded only if installed, so a pytest without nbval still runs (and says the --nbval options are unknown).
pytest_plugins = [name for name in ("nbval.plugin",) if importlib.util.find_spec(name.partition(".")[0])]

os.environ.setdefault("HARNESS_OFFLINE", "1")
os.environ.setdefault("PYTHON_DOTENV_DISABLED", "1")  # a learner's .env (API key) is not read by tests
os.environ.pop("HARNESS_SCENARIO", None)

if CLICKER.exists() and not os.environ.get("KIT_TEST_IPYTHONDIR"):  # once per test run (its processes inherit it)
    _ipython_dir = tempfile.mkdtemp(prefix="kit-ipython-")
    runpy.run_path(str(CLICKER))["write_kernel_config"](Path(_ipython_dir))
    os.environ["KIT_TEST_IPYTHONDIR"] = os.environ["IPYTHONDIR"] = _ipython_dir
    atexit.register(shutil.rmtree, _ipython_dir, True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    """While a notebook's first cell is set up (nbval starts its kernel then), KIT_TEST_CLICKS names the notebook,
    from the root: the kernel's clicker presses that notebook's buttons (tests/kernel_clicker.py)."""
    path = Path(str(item.path)).resolve()
    named = CLICKER.exists() and path.suffix == ".ipynb" and path.is_relative_to(ROOT)
    if named:
        os.environ["KIT_TEST_CLICKS"] = path.relative_to(ROOT).as_posix()
    try:
        yield
    finally:
        if named:
            os.environ.pop("KIT_TEST_CLICKS", None)


def pytest_configure(config):
    """Resolve a relative `--nbval-sanitize-with` against the repository root (when it is not found as given), and
    grade an exercise notebook saved outside exercises/ (_saved_elsewhere)."""
    if not config.pluginmanager.has_plugin("harness-kit-grading"):
        plugin = ModuleType("harness-kit-grading")  # (a plugin is any object with hook functions; this one hashes)
        plugin.pytest_collect_file = _saved_elsewhere
        config.pluginmanager.register(plugin, "harness-kit-grading")
    for attr in ("nbval_sanitize_with", "sanitize_with"):
        value = getattr(config.option, attr, None)
        if value and not os.path.isabs(value) and not os.path.exists(value):
            candidate = Path(config.rootpath) / value
            if candidate.exists():
                setattr(config.option, attr, str(candidate))


def _saved_elsewhere(file_path, parent):
    """An exercise notebook outside exercises/ (a renamed folder, a copy outside the kit graded from here): graded as
    in exercises/, by harness_lib.grade_anywhere. (Registered as a plugin: a conftest's pytest_collect_file would see
    only the files under this folder. Outside the kit's folder pytest loads harness_lib.grade_anywhere itself.)"""
    kit = Path(__file__).resolve().parent
    if file_path.suffix != ".ipynb" or kit / "exercises" in file_path.resolve().parents:
        return None
    if '"grader-kit"' not in file_path.read_text(encoding="utf-8", errors="replace"):
        return None
    from harness_lib import grade_anywhere

    return grade_anywhere.collect(file_path, parent)
