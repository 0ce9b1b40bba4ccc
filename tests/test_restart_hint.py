"""harness_ui.restart_hint (issue 36): after a kernel restart, a NameError of a name that a cell above defines is one
line saying to run the cells above; any other NameError keeps Python's traceback.

What a name "defined above" is (top_level_names, names_above), the line in each language, the kernel configuration
the install puts in the venv (and that it loads the hint only for a notebook Jupyter started), and one real kernel
started as jupyter_server starts a notebook's (JPY_SESSION_NAME). tests/test_browser_restart.py does it in JupyterLab.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from traitlets.config import Config

from harness_kit import lang
from harness_ui.restart_hint import hint, names_above, top_level_names
from kernel_cells import CodeKernel

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "kernel_config" / "ipython_kernel_config.py"
INSTALLED = Path(sys.prefix) / "etc" / "ipython" / "ipython_kernel_config.py"


def notebook(*cells: str) -> dict:
    return {"cells": [{"cell_type": "markdown", "source": "# a lesson"}]
            + [{"cell_type": "code", "source": code.splitlines(keepends=True)} for code in cells]}


def test_the_names_a_cell_gives_a_value_to_at_the_top_level():
    code = ("import a.b as c, d.e\nfrom x import y\nfrom z import *\nv = w = 1\nfor i in range(3):\n    j = i\n"
            "def f():\n    local = 1\nclass K:\n    attr = 1\nawait g()\n[q for q in ()]\n"
            "with o() as (m, n):\n    pass\nif (walrus := 3):\n    pass\nt[0] = u.v = 2\n")
    assert top_level_names(code) == {"c", "d", "y", "v", "w", "i", "j", "f", "K", "m", "n", "walrus"}
    assert top_level_names("def broken(:\n") == set()  # a cell that does not parse defines nothing


def test_only_cells_above_the_running_one_count():
    nb = notebook("client = make_client()", "print(client)", "later = 1")
    assert names_above(nb, "print(client)")[0] == {"client"}
    assert names_above(nb, "print(later)\n")[0] == {"client", "later"}  # not a saved cell: every saved cell counts
    assert names_above(nb, "client = make_client()")[0] == set()


def test_the_language_is_the_one_the_notebook_chooses():
    assert names_above(notebook('setup(lang="es")  # dice quién responde', "x"), "x")[1] == "es"
    assert names_above(notebook("lang.use('es')", "x"), "x")[1] == "es"
    assert names_above(notebook('setup(lang="en")', "x"), "x")[1] == "en"
    assert names_above(notebook("x = 1"), "x")[1] is None  # then the kernel's setting (HARNESS_LANG), else English


@pytest.mark.parametrize("language", lang.LANGUAGES)
def test_the_hint_is_one_line_naming_the_name_and_the_menu_item(language):
    line = hint("response_1", language)
    assert "\n" not in line and "'response_1'" in line and "Run → Run All Above Selected Cell" in line


def test_the_install_puts_the_kernel_configuration_in_the_venv():
    assert INSTALLED.is_file() and INSTALLED.read_text() == CONFIG.read_text(), \
        f"{INSTALLED} is missing or stale: pip install -r requirements.txt"


@pytest.mark.parametrize("session, loaded", [("kit/notebooks/02_the_core_loop.ipynb", True),
                                             ("kit/console-1", False), (None, False)])
def test_the_configuration_loads_the_hint_only_for_a_notebook(monkeypatch, session, loaded):
    if session is None:
        monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    else:
        monkeypatch.setenv("JPY_SESSION_NAME", session)
    c = Config()
    exec(compile(CONFIG.read_text(), str(CONFIG), "exec"), {"c": c})
    extensions = c.InteractiveShellApp.extra_extensions.get_value([]) if "InteractiveShellApp" in c else []
    assert (extensions == ["harness_ui.restart_hint"]) == loaded, extensions


def Kernel(path: Path) -> CodeKernel:
    """A kernel started with JPY_SESSION_NAME, as jupyter_server starts the kernel of a saved notebook."""
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_LANG"} | {"JPY_SESSION_NAME": str(path)}
    return CodeKernel(path.parent, env, timeout=60)


def test_in_a_kernel_after_a_restart(tmp_path):
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(notebook("import json\nanswer = json.dumps(42)", "print(answer)")), encoding="utf-8")
    kernel = Kernel(path)
    try:
        _, tb = kernel.run("print(answer)")  # the kernel has not run the cell above: as after a restart
        assert tb == [hint("answer", "en")]
        _, tb = kernel.run("print(anwser)")  # a typo: no cell defines it, Python's own traceback
        assert len(tb) > 1 and "NameError" in tb[-1] and "anwser" in tb[-1]
        out, tb = kernel.run("import json\nanswer = json.dumps(42)\nprint(answer)")
        assert (out, tb) == ("42\n", [])
        # a lesson's setup() takes IPython's one custom handler for its one-line API errors: the hint is off
        out, tb = kernel.run("from harness_ui.notebook import setup\nsetup()\n"
                             "import anthropic\nprint(get_ipython().custom_exceptions == (anthropic.APIError,))")
        assert out.endswith("True\n") and tb == []
    finally:
        kernel.close()


def test_what_requirements_txt_installs_from_the_kit_is_handed_out_with_it():
    """A learner's copy (grader/export_template.py, GitHub Classroom) holds LEARNER_FILES only: the folders that
    requirements.txt installs (`-e .`, ./kernel_config) must be among them, or its `pip install` fails there."""
    from grader.sandbox import LEARNER_FILES

    local = [line.split()[-1].removeprefix("./") for line in (ROOT / "requirements.txt").read_text().splitlines()
             if line.startswith(("./", "-e ."))]
    assert local == [".", "kernel_config"]
    missing = [f"{name}/" for name in local if name != "." and not f"{name}/".startswith(LEARNER_FILES)]
    assert not missing, f"not handed out with the kit (grader/sandbox.py, LEARNER_FILES): {missing}"
