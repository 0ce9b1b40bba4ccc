"""What a pytest run needs to grade a notebook, in the kit and in a learner's copy of it.

`pytest --nbval-lax exercises/01_tiered_policy.ipynb` (a learner grading an exercise) and nbval on a lesson load
this file and nothing of tests/:

- The nbval plugin. pyproject.toml turns off auto-loading (every installed plugin, each package's modules
  re-compiled in every pytest process), so the plugin is loaded here instead.
- Graded and tested runs are offline and deterministic, even on a machine with ANTHROPIC_API_KEY set
  (set HARNESS_OFFLINE=0 yourself to run the notebooks against Claude).
- A git-ignored .env file is not read (PYTHON_DOTENV_DISABLED=1, see harness_kit.env.load_env_file).
  Kernels started by nbval inherit this process's environment.
- pyproject's `--nbval-sanitize-with=tests/sanitize.cfg` is relative to the root: it is resolved here, so a
  notebook gives the same result run from the root, from its own folder, or by an absolute path from elsewhere.
- An exercise notebook saved outside exercises/ (a renamed folder) is graded as inside it: exercises/grade_anywhere.py.

The kit's test suite keeps its own settings (the whole suite on every core and in which order, the hypothesis
plugin, the browser tests' shared JupyterLab, the buttons its lesson runs press: tests/kernel_clicker.py) in
tests/conftest.py and the plugins it loads, which a learner's copy of the exercises does not have.
"""

import importlib.util
import os
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent

# Loaded only if installed, so a pytest without nbval still runs (and says the --nbval options are unknown).
pytest_plugins = [name for name in ("nbval.plugin",) if importlib.util.find_spec(name.partition(".")[0])]

os.environ.setdefault("HARNESS_OFFLINE", "1")
os.environ.setdefault("PYTHON_DOTENV_DISABLED", "1")  # a learner's .env (API key) is not read by tests
os.environ.pop("HARNESS_SCENARIO", None)


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
    in exercises/, by exercises/grade_anywhere.py. (Registered as a plugin: a conftest's pytest_collect_file would see
    only the files under this folder. Outside the kit's folder pytest loads exercises.grade_anywhere itself.)"""
    if file_path.suffix != ".ipynb" or ROOT / "exercises" in file_path.resolve().parents:
        return None
    if '"grader-kit"' not in file_path.read_text(encoding="utf-8", errors="replace"):
        return None
    from exercises import grade_anywhere

    return grade_anywhere.collect(file_path, parent)
