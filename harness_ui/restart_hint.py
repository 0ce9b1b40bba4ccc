"""After a kernel restart, say in one line what to do, instead of a cascade of NameErrors.

A learner restarts the kernel in the middle of a lesson and runs the next cell: everything the cells above made
(`client`, `messages`, the imports) is gone, and each cell fails with ``NameError``. With this extension, such a
``NameError`` is one line::

    name 'client' is not defined: a cell above defines it but has not run since the kernel started. Run them:
    Run → Run All Above Selected Cell, then this cell again.

(one line on screen; wrapped here). It is said only when it is true: the missing name is given a value at the top
level of a code cell ABOVE the running one in the saved notebook (an assignment, an import, a ``def``, a
``class``, a ``for`` or ``with`` target). Any other ``NameError`` (a typo, a name no cell makes) keeps Python's
own traceback. In Spanish when the notebook chooses Spanish (``setup(lang="es")`` or ``lang.use("es")`` in one
of its cells: after a restart the kernel has not run that cell yet either).

How it is loaded: the install puts ``ipython_kernel_config.py`` in the venv's ``etc/ipython/`` (requirements.txt
installs it from ``kernel_config/``), which loads this module into every kernel that Jupyter starts for a saved
notebook (``JPY_SESSION_NAME``, set by jupyter_server). Elsewhere (nbval, nbclient, the gradebook, plain
IPython) it is not loaded, and nothing changes.

NOT handled: a notebook run in a kernel that Jupyter did not start for it (VS Code, Colab, a console attached to
the kernel); a notebook renamed or moved while its kernel runs (the kernel reads the path it was started with);
unsaved cells (the hint reads the saved file: a running cell that is not in it counts as below every cell, so any
saved cell counts as above); names made inside a function, by ``globals()[...]``, ``exec``, ``%run`` or
``from x import *``. IPython keeps one custom error handler per kernel: ``harness_ui.notebook.setup()`` puts its
own (the one-line API errors) in its place, so after a lesson's first cell has run again the hint is off, which is
when the kit is loaded anyway.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from pathlib import Path

from harness_kit.shown import one_word

from harness_kit import lang

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)
_LANGUAGE = re.compile(r"""(?:setup\(.*\blang=|lang\.use\()\s*["'](\w+)["']""")


def top_level_names(code: str) -> set[str]:
    """The names a cell's code gives a value to at the top level (not inside a def, class, lambda or comprehension);
    an empty set for code that does not parse."""
    try:
        tree = compile(code, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return set()
    names, todo = set(), list(ast.iter_child_nodes(tree))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name.partition(".")[0]) for a in node.names if a.name != "*")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        if not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))
    return names


def names_above(notebook: dict, running: str, transform=lambda code: code) -> tuple[set[str], str | None]:
    """(the names the code cells above `running` give a value to, the language the notebook chooses or None).
    `running` is the running cell's code; when no saved cell holds it, every saved cell counts as above.
    `transform` turns a cell's IPython syntax (%magics, !commands) into Python (the shell's transform_cell)."""
    cells = ["".join(c.get("source", "")) for c in notebook.get("cells", []) if c.get("cell_type") == "code"]
    above = cells[:next((i for i, code in enumerate(cells) if code.strip() == running.strip()), len(cells))]
    names = set().union(*(top_level_names(transform(code)) for code in above))
    language = next((found for code in cells for found in _LANGUAGE.findall(code)), None)
    return names, lang.normalize(language)


def hint(name: str, language: str | None = None) -> str:
    """The one line, for the missing `name`."""
    return lang.say(lang.MESSAGES, "restart.hint", language, name=one_word(name))  # a look-alike name: as its codes


def _handler(shell, etype, value, tb, tb_offset=None):
    """IPython's custom handler for NameError: the one line when the hint is true, else Python's traceback."""
    line = None
    try:
        notebook = json.loads(Path(os.environ["JPY_SESSION_NAME"]).read_text(encoding="utf-8"))
        running = (shell.history_manager.input_hist_raw or [""])[-1]  # the running cell, as typed
        names, language = names_above(notebook, running, shell.transform_cell)
        if getattr(value, "name", None) in names:
            line = hint(value.name, language)
    except Exception:  # noqa: BLE001  (no saved notebook to read, or one that is not JSON: Python's own traceback)
        line = None
    if line is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb  # what %tb reads
    if sys.version_info >= (3, 12):
        sys.last_exc = value
    shell._showtraceback(etype, value, [line])  # ipykernel sends this as the cell's error output


def load_ipython_extension(shell) -> None:
    """Called by IPython when the kernel starts (see the module docstring); only for a saved notebook."""
    if str(os.environ.get("JPY_SESSION_NAME", "")).endswith(".ipynb"):
        shell.set_custom_exc((NameError,), _handler)
