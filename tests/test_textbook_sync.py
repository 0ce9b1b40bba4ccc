"""One textbook: harness_lib/loop.py holds the loop notebooks/06 builds, statement for statement (and lesson 05's).

The learner reads the loop in notebook 06; the terminal agent (and every other caller) runs
harness_lib.loop. These tests parse both with `ast` and compare the shared definitions with docstrings
and type annotations stripped (those may differ: the library documents more), then compare their
comments with `tokenize` (those may not). If either copy changes alone, a test here fails.
"""

import ast
import inspect
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
LIBRARY = REPO / "harness_lib" / "loop.py"
NOTEBOOK = REPO / "notebooks" / "06_the_full_harness.ipynb"

# Defined in both, in this order.
SHARED = ["ask_approver", "tool_result", "run_tool_uses", "MODEL_STOPS", "final_text", "shared_id", "model_stop",
          "run_agent"]


class _Strip(ast.NodeTransformer):
    """Drop docstrings and type annotations; `x: T = v` becomes `x = v`."""

    def _body(self, node):
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
        return node

    def visit_FunctionDef(self, node):
        node.returns = None
        self.generic_visit(node)
        return self._body(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_arg(self, node):
        node.annotation = None
        return node

    def visit_AnnAssign(self, node):
        if node.value is None:
            return None
        return ast.copy_location(ast.Assign(targets=[node.target], value=self.visit(node.value)), node)


def _name(node) -> str | None:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


def _comments(source: str, node) -> list[str]:
    """The comments inside `node`'s lines, in order."""
    lines = range(node.lineno, node.end_lineno + 1)
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [t.string for t in tokens if t.type == tokenize.COMMENT and t.start[0] in lines]


def definitions(sources: list[str]) -> dict[str, tuple[str, list[str], int]]:
    """name -> (normalised code, comments, order of appearance) for every top-level definition.

    A later definition of the same name wins, as it would after "Run All" in a notebook."""
    found, order = {}, 0
    for source in sources:
        for node in ast.parse(source).body:
            name = _name(node)
            if name is None:
                continue
            comments = _comments(source, node)
            code = ast.dump(_Strip().visit(node), include_attributes=False)
            found[name] = (code, comments, order)
            order += 1
    return found


def library_definitions():
    return definitions([LIBRARY.read_text(encoding="utf-8")])


def notebook_definitions(nb=None):
    nb = nb or json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    return definitions(["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"
                        and not "".join(c["source"]).lstrip().startswith(("%", "!"))])


@pytest.fixture(scope="module")
def both():
    return library_definitions(), notebook_definitions()


@pytest.mark.parametrize("name", SHARED)
def test_same_statements(both, name):
    library, notebook = both
    assert name in library, f"harness_lib/loop.py no longer defines {name}"
    assert name in notebook, f"notebooks/06 no longer defines {name}"
    assert library[name][0] == notebook[name][0], (
        f"{name} differs between harness_lib/loop.py and notebooks/06_the_full_harness.ipynb "
        "(docstrings and annotations aside): change both, or neither")


@pytest.mark.parametrize("name", SHARED)
def test_same_comments(both, name):
    library, notebook = both
    assert library[name][1] == notebook[name][1], f"{name}'s comments differ between loop.py and notebook 06"


def test_same_order(both):
    library, notebook = both
    assert sorted(SHARED, key=lambda n: library[n][2]) == SHARED
    assert sorted(SHARED, key=lambda n: notebook[n][2]) == SHARED


def test_the_check_notices_a_drift():
    """The comparison is not vacuous: one changed constant, or one changed comment, is caught."""
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c.get("id") == "run-agent")
    source = "".join(cell["source"])
    assert "if turns >= max_turns:" in source and "# valve 1: asked before the turn is taken" in source
    library = library_definitions()
    cell["source"] = source.replace("if turns >= max_turns:", "if turns > max_turns:")
    assert notebook_definitions(nb)["run_agent"][0] != library["run_agent"][0]
    cell["source"] = source.replace("# valve 1: asked before", "# valve 1: checked before")
    drifted = notebook_definitions(nb)["run_agent"]
    assert drifted[0] == library["run_agent"][0] and drifted[1] != library["run_agent"][1]


def test_the_helpers_the_loop_uses_agree_with_the_library(both):
    """tokens_of, signature_of and find_cycle are written out in the notebook and imported in loop.py
    from valves.py (which also accepts plain dicts): same answers on the same input."""
    import anthropic.types as t

    from harness_lib import valves
    import notebook_code

    ns = notebook_code.load(NOTEBOOK)
    usage = t.Usage(input_tokens=3, output_tokens=4, cache_creation_input_tokens=5, cache_read_input_tokens=None)
    assert ns["tokens_of"](usage) == valves.tokens_of(usage) == 12
    content = [t.TextBlock(type="text", text="hi"),
               t.ToolUseBlock(type="tool_use", id="b", name="read_file", input={"path": "é", "a": [1]}),
               t.ToolUseBlock(type="tool_use", id="a", name="get_time", input={})]
    assert ns["signature_of"](content) == valves.signature_of(content)
    for sigs in (["A"], ["A", "A"], ["A", "B", "A", "B"], ["A", "B", "C", "A", "B", "C"], ["A", "B", "C", "D"] * 2,
                 ["X", "A", "B", "A"], ["A", "B", "A", "C"]):
        assert ns["find_cycle"](sigs) == valves.find_cycle(sigs), sigs


LESSON_05 = REPO / "notebooks" / "05_human_in_the_loop.ipynb"


def test_lesson_05s_loop_is_the_librarys_and_the_lines_it_shows_are_the_librarys():
    """Lesson 05 shows only the lines of the loop that valve 4 changes (quoted in comments, `#     ...`) and calls
    harness_lib.loop.run_agent for the rest: every quoted statement is the library's, every parameter it names has
    the library's default, and its run_agent is the library's loop with the lesson's gate as the tool step."""
    import notebook_code
    from harness_lib import loop

    nb = json.loads(LESSON_05.read_text(encoding="utf-8"))
    source = "".join(next(c for c in nb["cells"] if c.get("id") == "loop")["source"])
    quoted = [line[len("#     "):] for line in source.splitlines() if line.startswith("#     ")]
    signature = [q for q in quoted if "run_agent(" in q or q.lstrip().startswith("tool_step")]
    body = [q.split("  # NEW")[0] for q in quoted if q not in signature and q.strip() != "..."]
    assert signature and body, "lesson 05's loop cell no longer quotes the lines that change"

    library_source = LIBRARY.read_text(encoding="utf-8")
    node = next(n for n in ast.parse(library_source).body if getattr(n, "name", None) == "run_agent")
    defaults = {a.arg: ast.unparse(d) for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None}
    for name, default in re.findall(r"(\w+)=([\w.]+)", " ".join(signature)):
        assert defaults.get(name) == default, \
            f"lesson 05 shows {name}={default}; harness_lib.loop.run_agent has {defaults.get(name)}"
    flat = lambda text: re.sub(r"\s+", " ", text).strip()  # noqa: E731
    assert flat("\n".join(body)) in flat(ast.get_source_segment(library_source, node)), (
        "the lines lesson 05 quotes are not harness_lib.loop.run_agent's: quote them as loop.py has them")

    lesson = notebook_code.load(LESSON_05)
    calls = [n for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.Call) and ast.unparse(n.func) == "loop.run_agent"]
    assert len(calls) == 1 and lesson["loop"] is loop, "lesson 05's run_agent no longer calls harness_lib.loop.run_agent"
    assert inspect.signature(lesson["run_agent"]).parameters["tool_step"].default is lesson["run_tool_uses"]
