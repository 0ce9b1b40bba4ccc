"""Code that is someone else's, with its comments, names and spacing changed: notes for a person, never a verdict.

`shape(code)` is code's syntax tree with every comment, docstring and annotation gone and every name the code
binds or reads renamed by its order of appearance (v0, v1, ...); attributes and constants stay (they are what the
code does: `.messages.create`, "tool_result"). Two pieces of code of the same shape differ only in what a person
changes to hide a copy.
- `index()`: the shape of every lesson cell of some length that defines a function (both editions) and every
  function of harness_lib of some length, for `pasted`: a learner's cell shaped as a lesson's cell, or a function shaped as the library's;
- `alike(answers)`: learners of one exercise whose answers (the cells they wrote, less what the starter already
  had) have one shape, or shapes almost the same (difflib's ratio of the two dumps, at least NEAR), for the
  class's summary and each row.

What it does NOT do: decide anything (a lesson's cell pasted is still run and judged), or see a copy that was
rewritten (another loop, other constants): similarity is a reason to look, not a proof.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINES = 5  # a lesson cell or a library function shorter than this is too common to say anything
SMALL = 1000  # characters of a shape below which code is too small to be told from one written alike
NEAR = 0.95  # difflib's ratio of two answers' shapes from which they are "almost the same"
LONG = 600  # characters of an answer's shape below which two answers alike say nothing (a short answer is short)
MOST = 200  # answers of one exercise compared pairwise at most (the rest: identical shapes only)


class _Renamed(ast.NodeTransformer):
    def __init__(self):
        self.names: dict[str, str] = {}

    def _name(self, name: str) -> str:
        return self.names.setdefault(name, f"v{len(self.names)}")

    def _body(self, node):
        body = getattr(node, "body", None)
        if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]

    def visit_Name(self, node):
        node.id = self._name(node.id)
        return node

    def visit_arg(self, node):
        node.arg, node.annotation = self._name(node.arg), None
        return node

    def visit_FunctionDef(self, node):
        node.name, node.returns = self._name(node.name), None
        self._body(node)
        self.generic_visit(node)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        node.name = self._name(node.name)
        self._body(node)
        self.generic_visit(node)
        return node

    def visit_alias(self, node):
        if node.asname:
            node.asname = self._name(node.asname)
        return node

    def visit_Expr(self, node):  # a bare string is a comment
        return None if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) else node


def shape(code: str) -> str | None:
    """The dump of code's renamed tree (see the module's docstring); None when it does not parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        return ast.dump(_Renamed().visit(tree), annotate_fields=False)
    except RecursionError:
        return None


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _functions(code: str) -> list[tuple[str, str]]:
    """(name, source) of each function of some length in `code` (which parses)."""
    found, lines = [], code.splitlines()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 >= LINES:
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            text = textwrap.dedent("\n".join(lines[first - 1:node.end_lineno]))
            if len(text) >= SMALL // 3:  # (shorter source has a shape shorter than SMALL)
                found.append((node.name, text))
    return found


def python_only(code: str) -> str:
    """`code` with its shell and magic lines (`!ls`, `%time`) blanked: what Python parses."""
    return "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in code.splitlines())


def lesson_code():
    """(the notebook's name, the cell, its source) of every code cell of the lessons, both editions."""
    for path in sorted((ROOT / "notebooks").glob("**/*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        except (OSError, ValueError, KeyError):
            continue
        for cell in cells:
            if isinstance(cell, dict) and cell.get("cell_type") == "code":
                yield path.name, cell, _source(cell)


def index() -> dict[str, str]:
    """shape digest -> what it is: "lesson 05_approval_gate.ipynb, cell 'gate'", "harness_lib.loop.run_tool_uses"."""
    found = {}
    for name, cell, code in lesson_code():
        # (a cell that defines a function: what an exercise asks a learner to write)
        if "def " in code and len(code.strip().splitlines()) >= LINES and len(code) >= SMALL // 3:
            got = shape(python_only(code))
            if got and len(got) >= SMALL:
                found.setdefault(digest(got), f"lesson {name}, cell '{cell.get('id')}'")
    for path in sorted(p for kit in ("harness_lib", "harness_kit", "harness_ui") for p in (ROOT / kit).glob("**/*.py")):
        try:
            functions = _functions(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            continue
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name, text in functions:
            got = shape(text)
            if got and len(got) >= SMALL:
                found.setdefault(digest(got), f"{module}.{name}")
    return found


def pasted(cells: list[dict], known: dict[str, str]) -> list[str]:
    """A learner cell shaped as a lesson's cell, or a function in it shaped as the library's: one note each."""
    notes = []
    for cell in cells:
        code = python_only(_source(cell))
        whole = shape(code) if len(code) <= 200_000 else None  # (grader/limits.py's CELL_PARSED)
        if whole is None:
            continue
        where = known.get(digest(whole))
        if where:
            notes.append(f"cell '{cell.get('id')}' is {where}, with its names, comments or spacing changed at most")
            continue
        for name, text in _functions(code):
            where = known.get(digest(shape(text) or ""))
            if where:
                notes.append(f"the function {name} in cell '{cell.get('id')}' is {where}, with its names, comments "
                             "or spacing changed at most")
    return notes


def answer_shape(cells: list[dict], starter: dict) -> str:
    """The shape of what a learner wrote: their cells' shapes, less each one the starter's cell of that id has."""
    given = {c.get("id"): shape(_source(c)) for c in starter.get("cells", []) if c.get("cell_type") == "code"}
    parts = []
    for cell in cells:
        code = python_only(_source(cell))
        got = shape(code) if len(code) <= 200_000 else None
        if got and got != given.get(cell.get("id")):
            parts.append(got)
    return "\n".join(parts)


def alike(answers: dict[str, str]) -> list[tuple[list[str], str]]:
    """Groups of learners (by name) whose answer shapes are one ("the same") or almost one ("almost the same"):
    [([learners], how)], the learners of each group sorted."""
    by_shape: dict[str, list[str]] = {}
    for who, text in answers.items():
        if len(text) >= LONG:
            by_shape.setdefault(text, []).append(who)
    groups = [(sorted(whos), "the same") for whos in by_shape.values() if len(whos) > 1]
    shapes = list(by_shape.items())[:MOST]
    near = []
    for i, (a, whos_a) in enumerate(shapes):
        for b, whos_b in shapes[i + 1:]:
            matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
            if matcher.real_quick_ratio() >= NEAR and matcher.quick_ratio() >= NEAR and matcher.ratio() >= NEAR:
                near.append((sorted(whos_a + whos_b), "almost the same"))
    return sorted(groups) + sorted(near)
