"""harness_lib is the textbook learners read: one idea per file, short files, imports that point one way, and
each textbook module saying what it does NOT handle. Three floors, each importing only the ones below it:
harness_ui (where a person meets the book) -> harness_lib (the book) -> harness_kit (what the book stands on: the
one escaping rule, the catalogues, the offline model, exercise 5's mailbox). Read from the source with `ast`, never
by importing it."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIB = ROOT / "harness_lib"
FLOORS = ["harness_kit", "harness_lib", "harness_ui"]  # from the ground up: each imports only the floors below
MAX_LINES = 500

# The lesson core a learner reads (docs/architecture.md): the book without its command (__main__.py, the terminal
# agent), and its budget in lines (docs/development.md, "The book's size", measures it).
TEXTBOOK = ["loop", "valves", "tools", "approval", "trace", "client"]
SPLIT_OUT = ["sandbox", "model"]
CORE = ["__init__"] + TEXTBOOK + SPLIT_OUT
CORE_BUDGET = 1000
# In harness_lib today, leaving it in their own changes (to harness_kit/ and to exercises/).
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for floor in FLOORS for p in sorted((ROOT / floor).rglob("*.py"))}


def _imports(name: str, *, top_level_only: bool) -> set[str]:
    """The modules of the three floors `name` imports (relative or absolute), resolved to module names.

    `from .offline import SCENARIOS` is an edge to harness_kit.offline; `from . import lang` to harness_kit.lang.
    The implicit import of a parent package (importing harness_lib.x runs harness_lib/__init__.py) is not an edge:
    the package's __init__ only gathers names for `from harness_lib import ...`."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    nodes = tree.body if top_level_only else ast.walk(tree)
    found = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            submodules = {f"{module}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):  # some names are attributes of `module` itself
                found.add(module)
    return {m for m in found if m in MODULES and m != name}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle in `graph` (as a path that returns to its start), or None."""
    done, on_path = set(), []

    def visit(node):
        if node in on_path:
            return on_path[on_path.index(node):] + [node]
        if node in done:
            return None
        on_path.append(node)
        for nxt in sorted(graph[node]):
            if (found := visit(nxt)) is not None:
                return found
        on_path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        if (found := visit(start)) is not None:
            return found
    return None


def _docstring(name: str) -> str:
    module = name if "." in name else f"harness_lib.{name}"
    return ast.get_docstring(ast.parse(MODULES[module].read_text(encoding="utf-8"))) or ""


def _lines(name: str) -> int:
    return len(MODULES[name].read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_500_lines():
    too_long = {name: _lines(name) for name in MODULES if _lines(name) > MAX_LINES}
    assert not too_long, f"over {MAX_LINES} lines: {too_long}"


def test_the_lesson_core_is_within_its_budget():
    """The book a learner reads stays small: the core's modules together, as `wc -l` counts them."""
    lines = {name: _lines(f"harness_lib.{name}".removesuffix(".__init__")) for name in CORE}
    assert sum(lines.values()) <= CORE_BUDGET, f"the lesson core has {sum(lines.values())} lines: {lines}"


def test_the_book_holds_the_core_and_its_command_only():
    book = {name.removeprefix("harness_lib.") for name in MODULES if name.startswith("harness_lib.")}
    assert book == set(CORE[1:]) | {"__main__"}, "a module of harness_lib that is not the book's"


def test_each_floor_imports_only_the_floors_below_it():
    """harness_kit imports no other floor; harness_lib only harness_kit; harness_ui both. (At the level of files
    there is no cycle either: test_no_import_cycle.)"""
    for name in MODULES:
        floor = FLOORS.index(name.split(".")[0])
        above = {m for m in _imports(name, top_level_only=False) if FLOORS.index(m.split(".")[0]) > floor}
        assert not above, f"{name} imports {sorted(above)}, a floor above its own"


def test_no_import_cycle():
    """Imports point one way, those inside a function included (a lazy import back is a cycle too)."""
    graph = {name: _imports(name, top_level_only=False) for name in MODULES}
    assert _cycle(graph) is None, f"import cycle: {' -> '.join(_cycle(graph))}"


def test_no_textbook_module_imports_a_test_hook():
    """The kit's tests press the lessons' buttons from tests/kernel_clicker.py: no module of the three knows of it."""
    assert "harness_lib.headless" not in MODULES
    for name, path in MODULES.items():
        marks = re.findall(r"headless|kernel_clicker|KIT_TEST_\w+", path.read_text(encoding="utf-8"))
        assert not marks, f"{name} mentions {sorted(set(marks))}"


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_relative_imports_resolve_to_modules():
    assert _imports("harness_lib.tools", top_level_only=True) == {"harness_lib.sandbox"}
    assert "harness_kit.lang" in _imports("harness_kit.offline.phrases", top_level_only=True)  # from .. import lang


@pytest.mark.parametrize("name", TEXTBOOK + SPLIT_OUT + ["harness_ui.widget"])
def test_each_textbook_module_says_what_it_does_not_handle(name):
    docstring = _docstring(name)
    assert docstring, f"{name} has no module docstring"
    assert re.search(r"\bnot handled\b", docstring, re.IGNORECASE), f"{name}'s docstring has no 'NOT handled' section"


def _code_strings_and_names(module: str) -> set[str]:
    """The string constants (not docstrings), names, attributes, keywords and imported modules of a module's code."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.add(node.value)
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            found.add(node.arg)
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


# One idea, one place: the mark of each idea that was split out appears in the code of its own module only.
ONE_PLACE = {
    "dir_fd": ["sandbox"],                 # the no-link walk, one folder at a time
    "ipywidgets": ["tab", "widget"],       # the buttons: JupyterLab's, and the browser tab's panel
    "HARNESS_AUTO_APPROVE": ["widget"],    # the one button pressed when nobody is at the screen
}


@pytest.mark.parametrize("mark", sorted(ONE_PLACE))
def test_each_split_out_idea_lives_in_one_module(mark):
    where = sorted(name.split(".", 1)[1] for name in MODULES if mark in _code_strings_and_names(name))
    assert where == ONE_PLACE[mark], f"{mark!r} is used in {where}, expected only in {ONE_PLACE[mark]}"
