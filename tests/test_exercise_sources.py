"""Each exercise is written once: what its generated notebooks may not get wrong.

An exercise is four notebooks, found by file name (a new `exercises/05_NAME.ipynb` is checked with no edit here):

    exercises/NAME.ipynb              the starter            exercises/es/NAME.ipynb              its Spanish twin
    exercises/solutions/NAME.ipynb    the reference answer   exercises/es/solutions/NAME.ipynb    its Spanish twin

1. **The starter is its solution with the answers taken out** (in each edition). The same cells in the same order:
   ids, cell types, and the metadata the grader and JupyterLab read (`tags`, `editable`, `deletable`). Every cell
   that is not a ✏️ answer cell (tag `exercise`) has the same source, markdown included: the one difference allowed
   is a relative link, which is compared by the file it points to (the solution sits one folder deeper, so its
   links to the lessons carry one more `../`; a link to a sibling exercise points to the sibling in the same
   folder). Outputs and execution counts are not compared: both are committed executed, and the starter's
   checks print ✗ where the solution's print ✓.
2. **A ✏️ cell of the starter holds a stub** with the solution's interface: the same first line (the ✏️
   instruction); every function it defines, the solution defines with the same parameters, defaults and return
   annotation (the checks call it so), and its body is a docstring and `raise NotImplementedError(...)`; every
   name it assigns, the solution assigns too, and the value is a blank (`...`, `None`, `{}`, `[]`, `()`, `set()`).
   The exceptions are the cells whose exercise is to fix code that is given (GIVEN_CODE, each with its reason and,
   where there is one, the cell it copies). A ✏️ cell whose starter and solution are the same program is an answer
   shipped to the learner.
3. **The Spanish twin translates no name** (starter and solution). The twin is built from the English notebook
   (`python -m editions`: the same code, its strings and comments translated by a table); this file checks, for the
   exercises, that a string constant of one word (no space: a tool name, a tier, a dict key, a scenario, a file name) is not
   prose and must be the same in both editions, except the words in TRANSLATED_WORDS, each with its reason.
   Markdown is a translation: only its cells' count and ids are compared (by the cell list).

NOT handled: a string constant with a space that is not prose (a tool input such as "draft text") may differ
between twins unnoticed (the Spanish notebooks' nbval run catches most such slips); whether a stub still fails
its checks, and a solution passes them, is tests/test_exercises.py's business; a given-code stub with no cell to
copy (GIVEN_CODE without one) is only checked for its interface and for not being the answer.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
FOLDERS = {  # (edition, role) -> the folder its notebooks sit in
    ("en", "starter"): EXERCISES, ("en", "solution"): EXERCISES / "solutions",
    ("es", "starter"): EXERCISES / "es", ("es", "solution"): EXERCISES / "es" / "solutions",
}
ANSWER_TAG = "exercise"  # a ✏️ cell: the learner writes here
COMPARED_METADATA = ("tags", "editable", "deletable")

# A ✏️ cell whose starter is working code to fix, not a stub: (notebook, cell id) -> (why, the cell and function
# it copies (renamed; its docstring may differ), or None).
GIVEN_CODE = {
    ("03_budget_and_progress.ipynb", "guarded-loop"): (
        "exercise 2's capped loop is given, with a tokens_used that stays 0: the learner adds valves 2 and 3 to it",
        None),
    ("04_the_approval_gate.ipynb", "gate"): (
        "the colleague's tool step is given, its gate after execution: the learner moves the gate before it",
        ("colleague", "colleague_tool_uses")),
}

# One-word string constants that the Spanish twin translates: (English, Spanish) -> why.
TRANSLATED_WORDS = {
    ("en", "es"): "the language the notebook asks for: lang.use(\"en\") / lang.use(\"es\")",
    ("yes", "sí"): "exercise 4's scripted person prints its answer (\"asked  write_file(...) → yes\")",
}


def exercise_names() -> list[str]:
    return sorted(path.name for path in FOLDERS["en", "starter"].glob("[0-9][0-9]_*.ipynb"))


def path_of(name: str, edition: str, role: str) -> Path:
    return FOLDERS[edition, role] / name


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell) -> str:
    return "".join(cell.get("source", ""))


def tags(cell) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _metadata(cell) -> dict:
    return {key: cell.get("metadata", {}).get(key) for key in COMPARED_METADATA}


# ---- 1. the starter is the solution outside the answer cells ---------------------------------------------------------

LINK = re.compile(r"(\]\(|(?:href|src)=\")([^)\"\s]+)")


def with_links_resolved(text: str, folder: Path) -> str:
    """Markdown with every relative link replaced by the file it points to: `<here>/x` for a file in the notebook's
    own folder (a sibling exercise), `<root>/path` for any other file of the repository."""
    def resolve(match):
        target, _, anchor = match.group(2).partition("#")
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            return match.group(0)  # an anchor in this notebook, or a URL
        where = (folder / target).resolve()
        shown = f"<here>/{where.name}" if where.parent == folder.resolve() else \
            f"<root>/{where.relative_to(ROOT.resolve()).as_posix()}" if where.is_relative_to(ROOT.resolve()) else target
        return match.group(1) + shown + (f"#{anchor}" if anchor else "")
    return LINK.sub(resolve, text)


def _first_line_difference(a: str, b: str) -> str:
    lines_a, lines_b = a.splitlines(), b.splitlines()
    for number, (x, y) in enumerate(zip(lines_a, lines_b), 1):
        if x != y:
            return f"line {number}:\n    starter:  {x.strip()}\n    solution: {y.strip()}"
    number = min(len(lines_a), len(lines_b)) + 1
    longer, side = (lines_a, "starter") if len(lines_a) > len(lines_b) else (lines_b, "solution")
    return f"line {number}: only the {side} has it:\n    {longer[number - 1].strip() if longer[number - 1:] else ''}"


def starter_differences(starter: dict, solution: dict, starter_dir: Path, solution_dir: Path,
                        name: str = "") -> list[str]:
    """Every way a starter is not its solution with the answers taken out; one entry each."""
    ids = [c.get("id") for c in starter["cells"]], [c.get("id") for c in solution["cells"]]
    if ids[0] != ids[1]:
        only_starter = [i for i in ids[0] if i not in ids[1]]
        only_solution = [i for i in ids[1] if i not in ids[0]]
        return [f"cell ids differ: only in the starter {only_starter}, only in the solution {only_solution}"
                + ("" if only_starter or only_solution else ", same ids in another order")]
    problems = []
    solution_cells = {c.get("id"): c for c in solution["cells"]}
    for mine, theirs in zip(starter["cells"], solution["cells"]):
        cell = f"cell {mine.get('id')!r}"
        if mine["cell_type"] != theirs["cell_type"]:
            problems.append(f"{cell}: {mine['cell_type']} in the starter, {theirs['cell_type']} in the solution")
            continue
        if _metadata(mine) != _metadata(theirs):
            problems.append(f"{cell}: metadata {_metadata(mine)} in the starter, {_metadata(theirs)} in the solution")
        if ANSWER_TAG in tags(mine) or ANSWER_TAG in tags(theirs):
            problems += [f"{cell}: {p}" for p in stub_problems(source(mine), source(theirs), given=GIVEN_CODE.get(
                (name, mine.get("id"))), cells=solution_cells)]
            continue
        a, b = source(mine), source(theirs)
        if mine["cell_type"] == "markdown":
            a, b = with_links_resolved(a, starter_dir), with_links_resolved(b, solution_dir)
        if a != b:
            problems.append(f"{cell} is not the solution's ({mine['cell_type']}), {_first_line_difference(a, b)}")
    return problems


# ---- 2. the ✏️ cells: a stub with the solution's interface -----------------------------------------------------------

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _defined(tree: ast.Module) -> dict[str, ast.AST]:
    """Top-level name -> the statement that defines it last (functions and assignments)."""
    found = {}
    for node in tree.body:
        if isinstance(node, FUNCTIONS):
            found[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    found[target.id] = node
    return found


def _interface(function) -> str:
    return f"{'async ' if isinstance(function, ast.AsyncFunctionDef) else ''}def {function.name}(" \
           f"{ast.unparse(function.args)})" + (f" -> {ast.unparse(function.returns)}" if function.returns else "")


def _without_docstring(body: list) -> list:
    has_doc = body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
        and isinstance(body[0].value.value, str)
    return body[1:] if has_doc else body


def _raises_not_implemented(function) -> bool:
    body = _without_docstring(function.body)
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    exc = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


def _is_blank(value) -> bool:
    if isinstance(value, ast.Constant):
        return value.value is ... or value.value is None
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.Tuple)):
        return not (value.keys if isinstance(value, ast.Dict) else value.elts)
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
        value.func.id in ("set", "dict", "list", "tuple") and not value.args and not value.keywords


def _program(source: str) -> str:
    """The code without docstrings, to tell whether a stub is the answer itself. (Parsed again, not deep-copied: once
    IPython has drawn a traceback in this process, its `executing` has set a `parent` on every node of the module it
    read, ast.Load() too, which every parse shares; a deep copy then copies that whole module for each Name: ~0.3 s
    per stub when tests/test_live_mode.py ran first in the same worker.)"""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (*FUNCTIONS, ast.ClassDef, ast.Module)):
            node.body = _without_docstring(node.body) or [ast.Pass()]
    return ast.dump(tree)


def stub_problems(stub: str, answer: str, *, given=None, cells=None) -> list[str]:
    """Why a starter's ✏️ cell is not a stub of the solution's (see the module docstring); [] when it is.
    `given`: this cell's GIVEN_CODE entry; `cells`: the solution's cells by id (for the cell a given code copies)."""
    if stub.splitlines()[:1] != answer.splitlines()[:1]:
        return [f"the ✏️ first line differs: starter {stub.splitlines()[:1]}, solution {answer.splitlines()[:1]}"]
    try:
        mine, theirs = ast.parse(stub), ast.parse(answer)
    except SyntaxError as err:
        return [f"does not parse ({err.msg}, line {err.lineno})"]
    if _program(stub) == _program(answer):
        return ["the starter holds the solution's answer"]
    problems, answers = [], _defined(theirs)
    if not mine.body:
        problems.append("the stub defines nothing (the checks need the names the solution defines)")
    for node in mine.body:
        if isinstance(node, FUNCTIONS):
            other = answers.get(node.name)
            if not isinstance(other, FUNCTIONS):
                problems.append(f"the stub defines {node.name}(), the solution does not")
            elif _interface(node) != _interface(other):
                problems.append(f"{node.name}'s interface differs:\n    starter:  {_interface(node)}\n"
                                f"    solution: {_interface(other)}")
            if given is None and not _raises_not_implemented(node):
                problems.append(f"{node.name}() holds code: a stub's body is a docstring and "
                                "`raise NotImplementedError(...)` (or list the cell in GIVEN_CODE, with why)")
            elif given is not None and given[1] is not None:
                copied_cell, copied_name = given[1]
                copied = _defined(ast.parse(source(cells[copied_cell]))).get(copied_name) if cells else None
                if copied is None:
                    problems.append(f"GIVEN_CODE says {node.name}() copies {copied_name}() of cell {copied_cell!r}, "
                                    "which the notebook does not have")
                elif ast.dump(ast.Module(_without_docstring(copied.body), [])) != \
                        ast.dump(ast.Module(_without_docstring(node.body), [])):
                    problems.append(f"{node.name}() is not {copied_name}() of cell {copied_cell!r}, as GIVEN_CODE says")
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not isinstance(target, ast.Name) or target.id not in answers:
                    problems.append(f"the stub assigns {ast.unparse(target)}, the solution does not")
            if not _is_blank(node.value):
                problems.append(f"line {node.lineno} holds a value: a stub's is `...`, None or empty "
                                f"({ast.unparse(node)[:80]})")
        else:
            problems.append(f"line {node.lineno}: a stub holds only definitions and blanks, not a "
                            f"{type(node).__name__} ({ast.unparse(node)[:80]})")
    return problems


# ---- 3. the Spanish twin: one-word strings are names ------------------------------------------------


def _words(source_text: str) -> list[tuple[str, int]]:
    """The one-word string constants of a cell, in tree order, with their line: neither docstrings nor the literal
    parts of f-strings (prose), but the constants inside an f-string's {expressions}."""
    tree = ast.parse(source_text)
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(v) for v in node.values if isinstance(v, ast.Constant))
        if isinstance(node, (*FUNCTIONS, ast.ClassDef, ast.Module)) and node.body != _without_docstring(node.body):
            skip.add(id(node.body[0].value))
    return [(node.value, node.lineno) for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in skip and not re.search(r"\s", node.value)]


def translated_words(english: dict, spanish: dict) -> tuple[list[str], set]:
    """(every one-word string the twins do not share and TRANSLATED_WORDS does not list, the listed ones met).
    The twins are the same code up to strings and comments: the Spanish one is built from the English one."""
    problems, used = [], set()
    for en, es in zip(english["cells"], spanish["cells"]):
        a, b = source(en), source(es)
        if en["cell_type"] != "code" or es["cell_type"] != "code" or en.get("id") != es.get("id") \
                or a.lstrip()[:1] in ("%", "!"):
            continue
        for (word_en, line), (word_es, _) in zip(_words(a), _words(b)):
            if word_en == word_es:
                continue
            if (word_en, word_es) in TRANSLATED_WORDS:
                used.add((word_en, word_es))
            else:
                problems.append(f"cell {en.get('id')!r} line {line}: {word_en!r} in English, {word_es!r} in Spanish "
                                "(a one-word string is a name, not prose; if it is read by a person, add it to "
                                "TRANSLATED_WORDS with why)")
    return problems, used


# ---- the kit's exercises ---------------------------------------------------------------------------------------------

STARTER_PAIRS = [(name, edition) for name in exercise_names() for edition in ("en", "es")]
TWIN_PAIRS = [(name, role) for name in exercise_names() for role in ("starter", "solution")]


def test_there_are_exercises():
    assert exercise_names(), f"no exercise notebooks found in {rel(EXERCISES)}"


@pytest.mark.parametrize("name", exercise_names())
def test_every_exercise_has_its_four_notebooks(name):
    missing = [rel(path_of(name, *key)) for key in FOLDERS if not path_of(name, *key).is_file()]
    assert not missing, f"{name}: missing {missing} (an exercise is a starter, its solution and their Spanish twins)"


def test_every_solution_has_a_starter():
    orphans = [rel(path) for (_, role), folder in FOLDERS.items() if role == "solution"
               for path in sorted(folder.glob("*.ipynb")) if path.name not in exercise_names()]
    assert not orphans, f"solutions with no starter in {rel(EXERCISES)}: {orphans}"


@pytest.mark.parametrize("name, edition", STARTER_PAIRS, ids=[f"{e}-{n}" for n, e in STARTER_PAIRS])
def test_the_starter_is_the_solution_without_its_answers(name, edition):
    starter, solution = path_of(name, edition, "starter"), path_of(name, edition, "solution")
    problems = starter_differences(load(starter), load(solution), starter.parent, solution.parent, name)
    assert not problems, (f"{rel(starter)} is not {rel(solution)} with the answers taken out:\n" + "\n".join(problems))


@pytest.mark.parametrize("name, role", TWIN_PAIRS, ids=[f"{r}-{n}" for n, r in TWIN_PAIRS])
def test_the_spanish_twin_translates_no_name(name, role):
    english, spanish = load(path_of(name, "en", role)), load(path_of(name, "es", role))
    problems = translated_words(english, spanish)[0]
    assert not problems, (f"{rel(path_of(name, 'es', role))} translates a name of {rel(path_of(name, 'en', role))} "
                          "(its table is in editions/es/exercises/):\n"
                          + "\n".join(problems))


def test_every_listed_exception_is_still_needed():
    """A GIVEN_CODE cell is a ✏️ cell whose starter holds code; a TRANSLATED_WORDS pair still differs somewhere."""
    stale = []
    for (name, cell_id), (why, _) in GIVEN_CODE.items():
        for edition in ("en", "es"):
            cells = {c.get("id"): c for c in load(path_of(name, edition, "starter"))["cells"]}
            cell = cells.get(cell_id)
            if cell is None or ANSWER_TAG not in tags(cell):
                stale.append(f"GIVEN_CODE {name} {cell_id!r}: no such ✏️ cell in the {edition} starter")
            elif all(_raises_not_implemented(f) for f in ast.parse(source(cell)).body if isinstance(f, FUNCTIONS)):
                stale.append(f"GIVEN_CODE {name} {cell_id!r}: the {edition} starter holds a plain stub now")
    used = set()
    for name, role in TWIN_PAIRS:
        used |= translated_words(load(path_of(name, "en", role)), load(path_of(name, "es", role)))[1]
    stale += [f"TRANSLATED_WORDS {pair}: no twin differs by it any more"
              for pair in TRANSLATED_WORDS if pair not in used]
    assert not stale, "\n".join(stale)


# ---- the comparisons themselves catch drift (on in-memory copies of a committed exercise) ----------------------------

EX1 = "01_tiered_policy.ipynb"


def _pair(edition="en"):
    return (load(path_of(EX1, edition, "starter")), load(path_of(EX1, edition, "solution")),
            FOLDERS[edition, "starter"], FOLDERS[edition, "solution"])


def _cell(nb, cell_id):
    return next(c for c in nb["cells"] if c.get("id") == cell_id)


def _edit(nb, cell_id, old, new):
    cell = _cell(nb, cell_id)
    assert old in source(cell), f"{old!r} is not in cell {cell_id!r} any more: update this test"
    cell["source"] = source(cell).replace(old, new, 1)


def test_a_changed_line_outside_the_answers_is_caught():
    starter, solution, *dirs = _pair()
    assert starter_differences(starter, solution, *dirs, EX1) == []
    _edit(starter, "loop", "max_turns", "max_turns + 1")
    (problem,) = starter_differences(starter, solution, *dirs, EX1)
    assert problem.startswith("cell 'loop' is not the solution's (code), line ") and "max_turns + 1" in problem


def test_changed_prose_a_wrong_link_a_dropped_tag_and_a_missing_cell_are_caught():
    starter, solution, *dirs = _pair("es")
    _edit(starter, "the-task", "La", "Una")
    (problem,) = starter_differences(starter, solution, *dirs, EX1)
    assert problem.startswith("cell 'the-task' is not the solution's (markdown), line ")

    starter, solution, *dirs = _pair()
    _edit(solution, "intro", "../../notebooks/06_the_full_harness.ipynb", "../notebooks/06_the_full_harness.ipynb")
    (problem,) = starter_differences(starter, solution, *dirs, EX1)
    assert problem.startswith("cell 'intro' is not the solution's (markdown)")  # the solution's link is broken

    starter, solution, *dirs = _pair()
    _cell(starter, "check-deny")["metadata"]["tags"] = []
    (problem,) = starter_differences(starter, solution, *dirs, EX1)
    assert problem.startswith("cell 'check-deny': metadata {'tags': []")

    starter, solution, *dirs = _pair()
    del starter["cells"][3]
    (problem,) = starter_differences(starter, solution, *dirs, EX1)
    assert problem == "cell ids differ: only in the starter [], only in the solution ['send-email-md']"


def test_a_stub_that_holds_an_answer_or_another_interface_is_caught():
    starter, solution, *dirs = _pair()
    answer = source(_cell(solution, "run-tool-uses"))
    _cell(starter, "run-tool-uses")["source"] = answer
    assert starter_differences(starter, solution, *dirs, EX1) == [
        "cell 'run-tool-uses': the starter holds the solution's answer"]

    starter, solution, *dirs = _pair()
    _edit(starter, "run-tool-uses", "policy, default_tier", "policy, default_tier=\"ask\"")
    (problem,) = starter_differences(starter, solution, *dirs, EX1)
    assert problem.startswith("cell 'run-tool-uses': run_tool_uses's interface differs")
    assert "default_tier='ask'" in problem

    starter, solution, *dirs = _pair()
    _edit(starter, "run-tool-uses", 'raise NotImplementedError("...your code here...")', "return []")
    assert starter_differences(starter, solution, *dirs, EX1) == [
        "cell 'run-tool-uses': run_tool_uses() holds code: a stub's body is a docstring and "
        "`raise NotImplementedError(...)` (or list the cell in GIVEN_CODE, with why)"]

    starter, solution, *dirs = _pair()
    _edit(starter, "policy", "DEFAULT_TIER = None", 'DEFAULT_TIER = "ask"')
    (problem,) = starter_differences(starter, solution, *dirs, EX1)
    assert problem.startswith("cell 'policy': line 5 holds a value")


def test_given_code_must_be_the_cell_it_copies():
    name = "04_the_approval_gate.ipynb"
    starter, solution = load(path_of(name, "en", "starter")), load(path_of(name, "en", "solution"))
    dirs = FOLDERS["en", "starter"], FOLDERS["en", "solution"]
    assert starter_differences(starter, solution, *dirs, name) == []
    _edit(starter, "gate", "# the tool runs here", "# the tool runs here\n        is_error = False")
    assert starter_differences(starter, solution, *dirs, name) == [
        "cell 'gate': run_tool_uses() is not colleague_tool_uses() of cell 'colleague', as GIVEN_CODE says"]


def test_a_one_word_string_the_twin_translates_is_caught():
    english, spanish = load(path_of(EX1, "en", "solution")), load(path_of(EX1, "es", "solution"))
    assert translated_words(english, spanish) == ([], {("en", "es")})
    _edit(spanish, "send-email", '"name": "send_email"', '"name": "enviar_email"')
    problems, _ = translated_words(english, spanish)
    assert problems == ["cell 'send-email' line 2: 'send_email' in English, 'enviar_email' in Spanish (a one-word "
                        "string is a name, not prose; if it is read by a person, add it to TRANSLATED_WORDS with why)"]
