"""Grading an exercise notebook saved anywhere: a copy on the Desktop, a renamed folder, a file JupyterLab duplicated.

`pytest --nbval-lax exercises/01_tiered_policy.ipynb` is a grade because pytest loads exercises/conftest.py for a
notebook inside the kit's exercises/ folder: it hands pytest the grader's hooks (exercises/plugin.py: the check
cells and the checks' code compared with exercises/checks.lock, HARNESS_GRADING=1 so that a ✗ fails, the grade at the
end). For a notebook saved elsewhere pytest loads no conftest of the kit: the checks would print their ✗ and pass.
This pytest plugin grades such a notebook (one with the 🔒 cell ``grader-kit``) exactly as inside exercises/, or
stops with one line saying what to do. It is loaded through pytest's entry points (pyproject.toml, ``pytest11``)
outside the kit's folder, and by the root conftest.py inside it (where pyproject.toml turns entry points off). The
notebook's 🔒 cell then finds the checks in the kit (harness_kit/grader_cell.py).

NOT handled (each stops with one line): one pytest run that grades a copy outside exercises/ together with notebooks
inside it (grade them apart); a kit installed without its folder (``pip install .``, not ``-e .``): copy the notebook
into the kit's exercises/ folder. Not handled at all: a pytest from another Python than the kit's venv, or one run
with ``PYTEST_DISABLE_PLUGIN_AUTOLOAD`` (the notebook then fails at its 🔒 cell, as a run without the grader).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import ModuleType

from harness_kit.grader_cell import where_to_grade

EXERCISES = Path(__file__).resolve().parent
HOOKS = "harness-kit-grader"  # the plugin's name once it holds the grader's hooks
_SEEN: set[Path] = set()
_REFUSED: dict[Path, str] = {}
_APART = "grade it in a pytest run of its own: this one also grades notebooks inside the kit's exercises/ folder"


def _is_exercise(path: Path) -> bool:
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return False
    return any(c.get("id") == "grader-kit" and "locked" in c.get("metadata", {}).get("tags", []) for c in cells)


def _grader(config) -> ModuleType:
    """exercises/plugin.py, its hooks registered once (all but pytest_collect_file, which collect() calls for the
    notebooks outside exercises/), in a grading run's environment: offline, no .env read (as the root conftest.py
    sets up the runs inside the kit)."""
    from exercises import plugin  # (HARNESS_GRADING=1 from here on: only once an exercise notebook is collected)

    if not config.pluginmanager.has_plugin(HOOKS):
        os.environ.setdefault("HARNESS_OFFLINE", "1")
        os.environ.setdefault("PYTHON_DOTENV_DISABLED", "1")
        os.environ.pop("HARNESS_SCENARIO", None)
        config.pluginmanager.register(_plugin(HOOKS, **{n: getattr(plugin, n) for n in dir(plugin)
                                                        if n.startswith("pytest_") and n != "pytest_collect_file"}), HOOKS)
    return plugin


def _plugin(name: str, **hooks) -> ModuleType:
    """A plugin holding `hooks` (pytest takes any object with hook functions; a module can be hashed, as it needs)."""
    plugin = ModuleType(name)
    plugin.__dict__.update(hooks)
    return plugin


def _inside(path) -> bool:
    return EXERCISES in Path(path).resolve().parents


def _apart(session, config, items):
    """A run that also grades notebooks inside exercises/ (whose conftest.py pytest loads): the copies outside are not
    graded in it (one line each at the end), and the grader's hooks are not registered twice."""
    if any(_inside(item.path) for item in items) and config.pluginmanager.has_plugin(HOOKS):
        config.pluginmanager.unregister(name=HOOKS)
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
        config.pluginmanager.register(_plugin("harness-kit-apart", pytest_collection_modifyitems=_apart,
                                              pytest_terminal_summary=_not_graded,
                                              pytest_sessionfinish=_failed_if_not_graded), "harness-kit-apart")
    if not (EXERCISES / "checks.lock").is_file():
        _REFUSED[path] = where_to_grade()
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
