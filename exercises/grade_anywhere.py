"""Grading an exercise notebook saved anywhere: a copy on the Desktop, a renamed folder, a file JupyterLab duplicated.

`pytest --nbval-lax exercises/01_tiered_policy.ipynb` is a grade because of two files of the kit's folder that pytest
loads for a notebook inside it: exercises/conftest.py (the check cells and the checks' code compared with
exercises/checks.lock, HARNESS_GRADING=1 so that a ✗ fails, the grade at the end) and the root conftest.py (offline,
approvals clicked). For a notebook saved elsewhere pytest loads neither: the checks would print their ✗ and pass.
Two pieces make such a notebook graded exactly as inside exercises/, or stop with one line saying what to do:

- :func:`import_grading`, which the exercises' 🔒 cell calls: exercises/grading.py from the notebook's folder or one
  above it (as always); else from the kit this Python has installed (requirements.txt's ``-e .``), but only in
  JupyterLab (``JPY_SESSION_NAME``) or under the grader (``HARNESS_GRADING=1``). A run that is neither (pytest
  without the kit's plugin, nbconvert) gets one line instead, never checks that cannot fail.
- a pytest plugin (:func:`collect`): for an exercise notebook (one with the 🔒 cell ``grader-kit``) outside the
  kit's exercises/ folder, it loads the kit's two conftest.py files and hands the notebook to exercises/conftest.py.
  Loaded through pytest's entry points (pyproject.toml, ``pytest11``) outside the kit's folder, and by the root
  conftest.py inside it (where pyproject.toml turns entry points off).

NOT handled (each stops with one line): one pytest run that grades a copy outside exercises/ together with notebooks
inside it (grade them apart); a kit installed without its folder (``pip install .``, not ``-e .``): copy the notebook
into the kit's exercises/ folder. Not handled at all: a pytest from another Python than the kit's venv, or one run
with ``PYTEST_DISABLE_PLUGIN_AUTOLOAD`` (the notebook then fails at its 🔒 cell, as a run without the grader).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

KIT = Path(__file__).resolve().parents[1]  # the kit's folder, when harness_lib is installed from it (-e .)
EXERCISES = KIT / "exercises"
_LOADED: dict[str, ModuleType] = {}
_SEEN: set[Path] = set()


def import_grading() -> ModuleType:
    """The 🔒 cell's import of exercises/grading.py (see the module docstring)."""
    here = [Path.cwd(), *Path.cwd().parents]
    folder = next((p for p in here if (p / "grading.py").is_file()), None)
    if folder is None and (os.environ.get("JPY_SESSION_NAME") or os.environ.get("HARNESS_GRADING") == "1"):
        folder = EXERCISES if (EXERCISES / "grading.py").is_file() else None
    if folder is not None and str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    try:
        return importlib.import_module("grading")
    except ModuleNotFoundError as err:
        if err.name != "grading":
            raise
        raise GraderNotFound(_where_to_grade(), name="grading") from None


class GraderNotFound(ModuleNotFoundError):
    """The 🔒 cell's one line (IPython shows an exception's _render_traceback_ instead of its traceback)."""

    def _render_traceback_(self):
        return [f"ModuleNotFoundError: {self}"]


def _where_to_grade() -> str:
    if (EXERCISES / "grading.py").is_file():
        return (f"the grader was not loaded: grade with `pytest --nbval-lax NOTEBOOK` run by the kit's venv "
                f"({sys.prefix}), after `pip install -r requirements.txt` in {KIT}")
    return ("the grader was not found (harness_lib is not installed from a kit's folder): copy this notebook into "
            "the kit's exercises/ folder and grade it there")


def _is_exercise(path: Path) -> bool:
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return False
    return any(c.get("id") == "grader-kit" and "locked" in c.get("metadata", {}).get("tags", []) for c in cells)


def _load(name: str, path: Path) -> ModuleType:
    if name not in _LOADED:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _LOADED[name] = module
    return _LOADED[name]


def _grader(config) -> ModuleType:
    """The kit's exercises/conftest.py, registered once as a plugin (all its hooks but pytest_collect_file, which
    collect() calls for the notebooks outside exercises/), and the root conftest.py unless pytest loaded it."""
    if "grader" not in _LOADED:
        loaded = {getattr(p, "__file__", None) for p in config.pluginmanager.get_plugins()}
        grader = _load("grader", EXERCISES / "conftest.py")
        if str(KIT / "conftest.py") not in loaded:
            config.pluginmanager.register(_hooks(_load("kit_conftest", KIT / "conftest.py")), "harness-kit-conftest")
        config.pluginmanager.register(_hooks(grader), "harness-kit-grader")
    return _LOADED["grader"]


def _hooks(module: ModuleType) -> ModuleType:
    """A conftest's hook functions as a plugin, but pytest_collect_file (collect() calls it, for its notebooks only)
    and its pytest_plugins list (nbval is loaded already)."""
    return _plugin(module.__name__, **{n: getattr(module, n) for n in dir(module)
                                       if n.startswith("pytest_") and n not in ("pytest_collect_file", "pytest_plugins")})


def _plugin(name: str, **hooks) -> ModuleType:
    """A plugin holding `hooks` (pytest takes any object with hook functions; a module can be hashed, as it needs)."""
    plugin = ModuleType(f"harness-kit-{name}")
    plugin.__dict__.update(hooks)
    return plugin


def _inside(path) -> bool:
    return EXERCISES in Path(path).resolve().parents


def _apart(session, config, items):
    """A run that also grades notebooks inside exercises/ (whose conftest.py pytest loads): the copies outside are not
    graded in it (one line each at the end), and the kit's conftest files are not registered twice."""
    if any(_inside(item.path) for item in items) and "grader" in _LOADED:
        for name in ("harness-kit-grader", "harness-kit-conftest"):
            if config.pluginmanager.has_plugin(name):
                config.pluginmanager.unregister(name=name)
        _REFUSED.update({path: _APART for path in _SEEN if path not in _REFUSED})
    import pytest

    for item in items:
        if Path(item.path).resolve() in _REFUSED:
            item.add_marker(pytest.mark.skip(reason=_REFUSED[Path(item.path).resolve()]))


def _not_graded(terminalreporter):
    for path, why in _REFUSED.items():
        terminalreporter.write_line(f"{path.name}: NOT GRADED — {why}")


def _failed_if_not_graded(session, exitstatus):
    if _REFUSED and exitstatus == 0:
        session.exitstatus = 1  # a notebook that was not graded did not pass


_APART = "grade it in a pytest run of its own: this one also grades notebooks inside the kit's exercises/ folder"
_REFUSED: dict[Path, str] = {}


def collect(file_path: Path, parent):
    """The grader's collector for an exercise notebook outside the kit's exercises/ folder; None for other files."""
    if file_path.suffix != ".ipynb" or _inside(file_path) or not _is_exercise(file_path):
        return None
    path = file_path.resolve()
    if path in _SEEN:  # (the kit's root conftest.py and the entry point both loaded: once is enough)
        return None
    _SEEN.add(path)
    config = parent.config
    if not config.pluginmanager.has_plugin("harness-kit-apart"):
        config.pluginmanager.register(_plugin("apart", pytest_collection_modifyitems=_apart,
                                              pytest_terminal_summary=_not_graded,
                                              pytest_sessionfinish=_failed_if_not_graded), "harness-kit-apart")
    if not (EXERCISES / "conftest.py").is_file():
        _REFUSED[path] = _where_to_grade()
        return None
    if str(EXERCISES / "conftest.py") in {getattr(p, "__file__", None) for p in config.pluginmanager.get_plugins()}:
        _REFUSED[path] = _APART  # pytest loaded it already, for a notebook inside exercises/
        return None
    collector = _grader(config).pytest_collect_file(file_path=file_path, parent=parent)
    if collector is None:  # the 🔒 cell is there, but not the check cells of any exercise
        _REFUSED[path] = ("its 🔍 CHECK cells are none of an exercise's (deleted, or their ids changed): copy them back "
                          "from the exercise's starter")
    return collector


pytest_collect_file = collect  # the plugin's one hook (pyproject.toml's pytest11 entry point loads this module)
