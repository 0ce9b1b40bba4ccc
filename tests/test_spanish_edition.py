"""The Spanish edition runs the same code as the English one, cell by cell.

Every lesson and exercise has a Spanish twin with the same file name one folder down:

    notebooks/02_the_core_loop.ipynb            ->  notebooks/es/02_the_core_loop.ipynb
    exercises/01_tiered_policy.ipynb            ->  exercises/es/01_tiered_policy.ipynb
    exercises/solutions/01_tiered_policy.ipynb  ->  exercises/es/solutions/01_tiered_policy.ipynb

What may differ between twins: markdown cells (the prose), comments, and string constants (printed messages,
task sentences, labels, docstrings, the literal parts of f-strings, format widths such as ``{label:<14}``).
Everything else must be the same, so the editions cannot drift apart:

- the same cells, in the same order, with the same ids, cell types and tags (and ``editable`` / ``deletable``);
- every code cell: the same Python once both are parsed with ``ast`` and every string constant is replaced by one
  placeholder (``ast`` drops comments by itself); a cell whose first character is ``%`` or ``!`` (an IPython
  magic or shell line, which ``ast`` cannot read) must be the same text;
- the same nbval markers (``# NBVAL_CHECK_OUTPUT`` and the others): they are comments, but they decide what the
  tests compare;
- the language the notebook asks for: ``setup(lang="en")`` / ``setup(lang="es")``, ``lang.use("en")`` /
  ``lang.use("es")``, and a ``"--lang"`` argument followed by ``"en"`` / ``"es"``.

A mismatch is reported with the cell id and the first place the two parse trees differ, with both lines.

Not handled: a string constant that is not meant for people (a dict key, a tool name, a file path) may differ
without this test noticing; the Spanish notebooks' own nbval run catches most such slips, since the code then
behaves differently. Markdown is not compared at all (links are checked by tests/test_notebook_links.py).
"""

from __future__ import annotations

import ast
import copy
import difflib
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

# Comments that are instructions to nbval: they must match even though comments may differ.
NBVAL_MARKERS = re.compile(r"^\s*#\s*(NBVAL_\w+)", re.MULTILINE)
# Cell metadata that is part of the notebook's behaviour (the grader reads tags); view state is not compared.
COMPARED_METADATA = ("tags", "editable", "deletable")
PLACEHOLDER = "<text>"


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


# ---- comparing two code cells ------------------------------------------------------------------------------


class _WithoutText(ast.NodeTransformer):
    """Every str constant becomes PLACEHOLDER; an f-string keeps only its {expressions}, in order."""

    def visit_Constant(self, node):
        if isinstance(node.value, str):
            return ast.copy_location(ast.Constant(PLACEHOLDER), node)
        return node

    def visit_JoinedStr(self, node):
        values = [self.visit(v) for v in node.values if isinstance(v, ast.FormattedValue)]
        return ast.copy_location(ast.JoinedStr(values=values), node)

    def visit_FormattedValue(self, node):
        node.value = self.visit(node.value)
        node.format_spec = None  # a width or alignment may change with the words around it
        return node


def normalized(source: str) -> ast.Module:
    return _WithoutText().visit(ast.parse(source))


def _line(source: str, node) -> str:
    lineno = getattr(node, "lineno", None)
    if lineno is None:
        return "(end of cell)"
    return f"line {lineno}: {source.splitlines()[lineno - 1].strip()}"


def _first_difference(a, b, where_a, where_b):
    """The first place two normalised trees differ: (English node, Spanish node, what differs), or None.

    where_a / where_b: the nearest enclosing nodes that have a line number (for the report)."""
    if isinstance(a, ast.AST) and hasattr(a, "lineno"):
        where_a = a
    if isinstance(b, ast.AST) and hasattr(b, "lineno"):
        where_b = b
    if type(a) is not type(b):
        return where_a, where_b, f"{type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, ast.AST):
        for field in a._fields:
            found = _first_difference(getattr(a, field, None), getattr(b, field, None), where_a, where_b)
            if found:
                return found
        return None
    if isinstance(a, list):  # statements, arguments, ...: line them up first, so an added one shows as added
        dumps = [[ast.dump(x) if isinstance(x, ast.AST) else repr(x) for x in side] for side in (a, b)]
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, *dumps, autojunk=False).get_opcodes():
            if op == "equal":
                continue
            if op == "replace" and i2 - i1 == j2 - j1:
                for x, y in zip(a[i1:i2], b[j1:j2]):
                    found = _first_difference(x, y, where_a, where_b)
                    if found:
                        return found
                continue
            here_a = a[i1] if i1 < len(a) and hasattr(a[i1], "lineno") else where_a  # or the next one
            here_b = b[j1] if j1 < len(b) and hasattr(b[j1], "lineno") else where_b
            names = lambda items: ", ".join(type(x).__name__ for x in items)  # noqa: E731
            if op == "delete":
                return here_a, here_b, f"the English cell has {i2 - i1} more here ({names(a[i1:i2])})"
            if op == "insert":
                return here_a, here_b, f"the Spanish cell has {j2 - j1} more here ({names(b[j1:j2])})"
            return here_a, here_b, f"{i2 - i1} English ({names(a[i1:i2])}) vs {j2 - j1} Spanish ({names(b[j1:j2])})"
        return None
    if a != b:
        return where_a, where_b, f"{a!r} vs {b!r}"
    return None


def code_difference(english: str, spanish: str) -> str | None:
    """Why two code cells are not the same code, in a line or three; None when they are."""
    markers = NBVAL_MARKERS.findall(english), NBVAL_MARKERS.findall(spanish)
    if markers[0] != markers[1]:
        return f"nbval markers differ: English {markers[0]}, Spanish {markers[1]}"
    if english.lstrip()[:1] in ("%", "!") or spanish.lstrip()[:1] in ("%", "!"):
        return None if english == spanish else "an IPython magic / shell cell: its text must be the same"
    try:
        trees = normalized(english), normalized(spanish)
    except SyntaxError as err:
        return f"does not parse ({err.msg}, line {err.lineno})"
    found = _first_difference(trees[0], trees[1], None, None)
    if found is None:
        return None
    in_english, in_spanish, what = found
    return f"{what}\n    English {_line(english, in_english)}\n    Spanish {_line(spanish, in_spanish)}"


def _metadata(cell) -> dict:
    return {key: cell.get("metadata", {}).get(key) for key in COMPARED_METADATA}


def edition_differences(english_nb: dict, spanish_nb: dict) -> list[str]:
    """Every way two notebooks are not twins: cells (id, type, order, metadata) and code, one entry each."""
    en_cells, es_cells = english_nb["cells"], spanish_nb["cells"]
    en_ids, es_ids = [c.get("id") for c in en_cells], [c.get("id") for c in es_cells]
    if en_ids != es_ids:
        missing = [i for i in en_ids if i not in es_ids]
        extra = [i for i in es_ids if i not in en_ids]
        first = next((n for n, (x, y) in enumerate(zip(en_ids, es_ids)) if x != y), min(len(en_ids), len(es_ids)))
        return [f"cell ids differ (first at position {first + 1}): missing in Spanish {missing}, "
                f"only in Spanish {extra}" + ("" if missing or extra else ", same ids in another order")]
    problems = []
    for en, es in zip(en_cells, es_cells):
        cell = f"cell {en.get('id')!r}"
        if en["cell_type"] != es["cell_type"]:
            problems.append(f"{cell}: {en['cell_type']} in English, {es['cell_type']} in Spanish")
            continue
        if _metadata(en) != _metadata(es):
            problems.append(f"{cell}: metadata {_metadata(en)} in English, {_metadata(es)} in Spanish")
        if en["cell_type"] == "code":
            why = code_difference("".join(en["source"]), "".join(es["source"]))
            if why:
                problems.append(f"{cell}: {why}")
    return problems


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
            continue  # reported by edition_differences
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "setup":
                lang = next((k.value for k in node.keywords if k.arg == "lang"), None)
                if not (isinstance(lang, ast.Constant) and lang.value == language):
                    problems.append(f"cell {cell.get('id')!r}: setup(...) without lang={language!r}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "use" \
                    and getattr(node.func.value, "id", None) == "lang":  # harness_lib.lang.use("es")
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
def test_the_spanish_twin_is_the_same_code(english, spanish):
    problems = edition_differences(load(english), load(spanish))
    assert not problems, (f"{rel(spanish)} is not the same code as {rel(english)} (only markdown, comments and "
                          "string constants may differ):\n" + "\n".join(problems))


@pytest.mark.parametrize("english, spanish", pairs(), ids=[rel(spanish) for _, spanish in pairs()])
def test_each_edition_asks_for_its_language(english, spanish):
    problems = ([f"{rel(english)} {p}" for p in language_problems(load(english), "en")]
                + [f"{rel(spanish)} {p}" for p in language_problems(load(spanish), "es")])
    assert not problems, "\n".join(problems)


def test_every_spanish_notebook_has_an_english_original():
    """A notebook in a Spanish folder with no English file of the same name is a typo or a leftover."""
    orphans = [rel(path) for _, spanish_dir in EDITIONS for path in sorted(spanish_dir.glob("*.ipynb"))
               if not any(twin_of(english) == path for english in english_notebooks())]
    assert not orphans, f"Spanish notebooks without an English original (same file name): {orphans}"


def test_every_english_notebook_has_a_spanish_twin():
    """Issue 16's done-when: every lesson, exercise starter and solution has its Spanish twin."""
    missing = [f"{rel(english)} -> {rel(twin_of(english))}" for english in english_notebooks()
               if not twin_of(english).is_file()]
    assert not missing, "no Spanish twin yet:\n" + "\n".join(missing)


# ---- the comparison itself catches drift ----------------------------------------------------------------------


def _cell(cell_id, source, cell_type="code", tags=None):
    cell = {"id": cell_id, "cell_type": cell_type, "metadata": {"tags": tags} if tags else {},
            "source": source.splitlines(keepends=True)}
    if cell_type == "code":
        cell.update(outputs=[], execution_count=None)
    return cell


ENGLISH = {"metadata": {}, "cells": [
    _cell("intro", "# A lesson\n\nSome prose.", "markdown"),
    _cell("setup", 'from harness_lib.notebook import setup\n\nsetup(lang="en")\n'),
    _cell("task", '# NBVAL_CHECK_OUTPUT\nTASK = "Read README.md"  # the task\n'
                  'def greet(name):\n    """Say hello."""\n    return f"Hello, {name}! {len(name):<3} letters"\n\n'
                  'print(greet("you"), TASK)\nrun = ["python", "-m", "harness_lib", "--lang", "en", TASK]\n'),
]}


def _spanish(**changes):
    """The Spanish twin of ENGLISH as a translator would write it, then `changes` (cell id -> new source)."""
    nb = copy.deepcopy(ENGLISH)
    sources = {
        "intro": "# Una lección\n\nUn poco de prosa.",
        "setup": 'from harness_lib.notebook import setup\n\nsetup(lang="es")\n',
        "task": '# NBVAL_CHECK_OUTPUT\nTASK = "Lee README.md"  # la tarea\n'
                'def greet(name):\n    """Saluda."""\n    return f"¡Hola, {name}! {len(name):<5} letras"\n\n'
                'print(greet("tú"), TASK)\nrun = ["python", "-m", "harness_lib", "--lang", "es", TASK]\n',
    }
    sources.update(changes)
    for cell in nb["cells"]:
        cell["source"] = sources[cell["id"]].splitlines(keepends=True)
    return nb


def test_a_faithful_translation_passes():
    assert edition_differences(ENGLISH, _spanish()) == []
    assert language_problems(ENGLISH, "en") == [] and language_problems(_spanish(), "es") == []


def test_a_changed_identifier_is_caught_with_the_cell_and_line():
    source = "".join(_spanish()["cells"][2]["source"]).replace("print(greet(", "print(saluda(")
    (problem,) = edition_differences(ENGLISH, _spanish(task=source))
    assert problem.startswith("cell 'task': 'greet' vs 'saluda'")
    assert "English line 7: print(greet(\"you\"), TASK)" in problem
    assert "Spanish line 7: print(saluda(\"tú\"), TASK)" in problem


def test_an_added_statement_is_caught():
    source = "".join(_spanish()["cells"][2]["source"]) + 'print("una línea más")\n'
    (problem,) = edition_differences(ENGLISH, _spanish(task=source))
    assert "cell 'task'" in problem and "the Spanish cell has 1 more here (Expr)" in problem
    assert 'Spanish line 9: print("una línea más")' in problem


def test_a_changed_expression_inside_an_f_string_is_caught():
    source = "".join(_spanish()["cells"][2]["source"]).replace("{len(name):<5}", "{len(TASK):<5}")
    (problem,) = edition_differences(ENGLISH, _spanish(task=source))
    assert "'name' vs 'TASK'" in problem and "line 5" in problem


def test_a_dropped_nbval_marker_a_changed_tag_and_reordered_cells_are_caught():
    source = "".join(_spanish()["cells"][2]["source"]).replace("# NBVAL_CHECK_OUTPUT\n", "# se compara\n")
    assert edition_differences(ENGLISH, _spanish(task=source)) == [
        "cell 'task': nbval markers differ: English ['NBVAL_CHECK_OUTPUT'], Spanish []"]

    tagged = _spanish()
    tagged["cells"][1]["metadata"]["tags"] = ["raises-exception"]
    assert edition_differences(ENGLISH, tagged) == [
        "cell 'setup': metadata {'tags': None, 'editable': None, 'deletable': None} in English, "
        "{'tags': ['raises-exception'], 'editable': None, 'deletable': None} in Spanish"]

    reordered = _spanish()
    reordered["cells"][1], reordered["cells"][2] = reordered["cells"][2], reordered["cells"][1]
    (problem,) = edition_differences(ENGLISH, reordered)
    assert "position 2" in problem and "another order" in problem

    dropped = _spanish()
    del dropped["cells"][0]
    (problem,) = edition_differences(ENGLISH, dropped)
    assert "missing in Spanish ['intro']" in problem


def test_the_wrong_language_is_caught():
    english_in_spanish = _spanish(setup='from harness_lib.notebook import setup\n\nsetup()\n')
    assert language_problems(english_in_spanish, "es") == ["cell 'setup': setup(...) without lang='es'"]
    assert language_problems(ENGLISH, "es") == ["cell 'setup': setup(...) without lang='es'",
                                                "cell 'task': \"--lang\" not followed by 'es'"]


def test_lang_use_is_checked_too():
    cell = {"metadata": {}, "cells": [_cell("setup", 'from harness_lib import lang\n\nlang.use("en")\n')]}
    assert language_problems(cell, "en") == []
    assert language_problems(cell, "es") == ["cell 'setup': lang.use(...) without 'es'"]


def test_drift_in_a_real_lesson_is_caught():
    """On an in-memory copy of a committed lesson: identical passes; one renamed name or one more line does not."""
    english = load(ROOT / "notebooks" / "06_the_full_harness.ipynb")
    assert edition_differences(english, copy.deepcopy(english)) == []
    code = next(c for c in english["cells"] if c.get("id") == "run-agent")

    renamed = copy.deepcopy(english)
    cell = next(c for c in renamed["cells"] if c.get("id") == "run-agent")
    cell["source"] = "".join(code["source"]).replace("tokens_used >= token_budget", "tokens_used > token_budget")
    (problem,) = edition_differences(english, renamed)
    assert problem.startswith("cell 'run-agent': GtE vs Gt") and "tokens_used > token_budget" in problem

    longer = copy.deepcopy(english)
    cell = next(c for c in longer["cells"] if c.get("id") == "run-agent")
    cell["source"] = "".join(code["source"]).replace("        turns += 1\n\n", "        turns += 1\n        turns += 1\n\n")
    (problem,) = edition_differences(english, longer)
    assert problem.startswith("cell 'run-agent': the Spanish cell has 1 more here (AugAssign)")
    assert "Spanish line 51: turns += 1" in problem  # the first of the two is as good as the second

    translated = copy.deepcopy(english)
    cell = next(c for c in translated["cells"] if c.get("id") == "run-agent")
    cell["source"] = ("".join(code["source"]).replace("# valve 1: asked before the turn is taken",
                                                      "# válvula 1: se pregunta antes de dar el turno")
                      .replace("Stopped by the harness: reached", "El arnés se detuvo: alcanzó"))
    assert edition_differences(english, translated) == []


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
