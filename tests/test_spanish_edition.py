"""What the build cannot know about the Spanish edition: that it asks for Spanish, and uses one name for each thing.

The Spanish notebooks are generated from the English ones (`python -m editions`, tests/test_editions.py): the same
cells and the same code, with the strings and comments of each code cell and the markdown translated by a table. So
the twins cannot drift apart in their code; what a table can still get wrong is checked here:

- the language the notebook asks for: ``setup(lang="en")`` / ``setup(lang="es")``, ``lang.use("en")`` /
  ``lang.use("es")``, and a ``"--lang"`` argument followed by ``"en"`` / ``"es"`` (a one-word string the table
  must translate);
- one Spanish name for each thing a learner reads, in the notebooks' text and in what they printed.
"""

from __future__ import annotations

import ast
import copy
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# (English folder, Spanish folder): the Spanish twin of ENGLISH/x.ipynb is SPANISH/x.ipynb.
EDITIONS = [
    (ROOT / "notebooks", ROOT / "notebooks" / "es"),
    (ROOT / "exercises", ROOT / "exercises" / "es"),
    (ROOT / "exercises" / "solutions", ROOT / "exercises" / "es" / "solutions"),
]



def english_notebooks() -> list[Path]:
    return [path for english, _ in EDITIONS for path in sorted(english.glob("*.ipynb"))]


def twin_of(english: Path) -> Path:
    for english_dir, spanish_dir in EDITIONS:
        if english.parent == english_dir:
            return spanish_dir / english.name
    raise ValueError(f"{english} is not in an English folder")


def pairs() -> list[tuple[Path, Path]]:
    """(English, Spanish) for every English notebook whose Spanish twin exists."""
    return [(english, twin_of(english)) for english in english_notebooks() if twin_of(english).is_file()]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def language_problems(nb: dict, language: str) -> list[str]:
    """Where a notebook asks for another language than `language` (setup(lang=...), "--lang", ...)."""
    problems = []
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] != "code" or source.lstrip()[:1] in ("%", "!"):
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # a cell nbval cannot run either
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
                lang = next((k.value for k in node.keywords if k.arg == "lang"), None)
                if not (isinstance(lang, ast.Constant) and lang.value == language):
                    problems.append(f"cell {cell.get('id')!r}: setup(...) without lang={language!r}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "use" \
                    and getattr(node.func.value, "id", None) == "lang":  # harness_kit.lang.use("es")
                chosen = node.args[0] if node.args else None
                if not (isinstance(chosen, ast.Constant) and chosen.value == language):
                    problems.append(f"cell {cell.get('id')!r}: lang.use(...) without {language!r}")
            if isinstance(node, (ast.List, ast.Tuple, ast.Call)):
                items = node.elts if not isinstance(node, ast.Call) else node.args
                for flag, value in zip(items, items[1:]):
                    if isinstance(flag, ast.Constant) and flag.value == "--lang" and not (
                            isinstance(value, ast.Constant) and value.value == language):
                        problems.append(f"cell {cell.get('id')!r}: \"--lang\" not followed by {language!r}")
    return problems


# ---- the kit's own notebooks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("english, spanish", pairs(), ids=[rel(spanish) for _, spanish in pairs()])
def test_each_edition_asks_for_its_language(english, spanish):
    problems = ([f"{rel(english)} {p}" for p in language_problems(load(english), "en")]
                + [f"{rel(spanish)} {p}" for p in language_problems(load(spanish), "es")])
    assert not problems, "\n".join(problems)


# ---- the language check itself ---------------------------------------------------------------------------------


def _cell(cell_id, source, cell_type="code", tags=None):
    cell = {"id": cell_id, "cell_type": cell_type, "metadata": {"tags": tags} if tags else {},
            "source": source.splitlines(keepends=True)}
    if cell_type == "code":
        cell.update(outputs=[], execution_count=None)
    return cell


ENGLISH = {"metadata": {}, "cells": [
    _cell("intro", "# A lesson\n\nSome prose.", "markdown"),
    _cell("setup", 'from harness_ui.notebook import setup\n\nsetup(lang="en")\n'),
    _cell("task", 'TASK = "Read README.md"  # the task\n'
                  'run = ["python", "-m", "harness_lib", "--lang", "en", TASK]\n'),
]}


def test_the_wrong_language_is_caught():
    english_in_spanish = copy.deepcopy(ENGLISH)
    english_in_spanish["cells"][1] = _cell("setup", 'from harness_ui.notebook import setup\n\nsetup()\n')
    assert language_problems(english_in_spanish, "es")[0] == "cell 'setup': setup(...) without lang='es'"
    assert language_problems(ENGLISH, "en") == []
    assert language_problems(ENGLISH, "es") == ["cell 'setup': setup(...) without lang='es'",
                                                "cell 'task': \"--lang\" not followed by 'es'"]


def test_lang_use_is_checked_too():
    cell = {"metadata": {}, "cells": [_cell("setup", 'from harness_kit import lang\n\nlang.use("en")\n')]}
    assert language_problems(cell, "en") == []
    assert language_problems(cell, "es") == ["cell 'setup': lang.use(...) without 'es'"]


# One Spanish name for each thing a learner reads, in every Spanish text the kit ships: the variants once used side
# by side, each with the one kept (issue-by-issue wording choices; the English thousands comma is checked in outputs).
SPANISH_TEXTS = sorted([*(ROOT / "notebooks" / "es").glob("*.ipynb"), *(ROOT / "exercises" / "es").glob("*.ipynb"),
                        *(ROOT / "exercises" / "es" / "solutions").glob("*.ipynb"), ROOT / "README.es.md",
                        *(ROOT / "exercises" / "es").glob("*.md")])
ONE_NAME = {
    "el modelo solicita herramienta": "el modelo pide la herramienta",
    "el modelo cierra": "el modelo termina su turno",
    "fallar cerrado": "fallar en cerrado", "falla cerrada": "falla en cerrado", "fallo cerrado": "falla en cerrado",
    "ejecutor de herramientas del SDK": "el tool runner del SDK",
    "textos para personas": "los textos que lee una persona",
    "pulsa Enter": "pulsa Intro", "Shift+Enter": "Mayús+Intro", "Mayús+Enter": "Mayús+Intro",
}


@pytest.mark.parametrize("path", SPANISH_TEXTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_spanish_edition_uses_one_name_for_each_thing(path):
    text = path.read_text(encoding="utf-8")
    found = [f"{old!r} (say {new!r})" for old, new in ONE_NAME.items() if old in text]
    if path.suffix == ".ipynb":  # what the notebook printed: no English thousands comma ("42,870 tokens")
        printed = "".join("".join(o.get("text", "")) for c in json.loads(text)["cells"] for o in c.get("outputs", []))
        found += [f"{n!r} in an output (Spanish writes 42870 or 42 870)" for n in re.findall(r"\b\d{1,3},\d{3}\b", printed)]
        found += [f"{w!r} in an output" for w in re.findall(r"^(?:turns|requests):", printed, re.M)]
    assert not found, f"{path.relative_to(ROOT).as_posix()}: " + "; ".join(found)
