"""The exercises' 🔒 cell: `grading = import_grading()` finds the grader's checks for a notebook saved anywhere.

exercises/grading.py from the notebook's folder or one above it (as always); else from the kit this Python has
installed (requirements.txt's ``-e .``), but only in JupyterLab (``JPY_SESSION_NAME``) or under the grader
(``HARNESS_GRADING=1``, which the grade's pytest plugin sets: exercises/grade_anywhere.py for a copy outside the
kit's folder). A run that is neither (pytest without the kit's plugin, nbconvert) gets one line instead, never checks
that cannot fail. Kernel side only: it imports `grading` by name, with the folder that holds it on sys.path, as the
checks expect (exercises/checks/__init__.py).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

KIT = Path(__file__).resolve().parents[1]  # the kit's folder, when harness_kit is installed from it (-e .)
EXERCISES = KIT / "exercises"


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
        raise GraderNotFound(where_to_grade(), name="grading") from None


class GraderNotFound(ModuleNotFoundError):
    """The 🔒 cell's one line (IPython shows an exception's _render_traceback_ instead of its traceback)."""

    def _render_traceback_(self):
        return [f"ModuleNotFoundError: {self}"]


def where_to_grade() -> str:
    """What to do when this Python cannot grade the notebook (one line)."""
    if (EXERCISES / "grading.py").is_file():
        return (f"the grader was not loaded: grade with `pytest --nbval-lax NOTEBOOK` run by the kit's venv "
                f"({sys.prefix}), after `pip install -r requirements.txt` in {KIT}")
    return ("the grader was not found (the kit is not installed from its folder): copy this notebook into "
            "the kit's exercises/ folder and grade it there")
