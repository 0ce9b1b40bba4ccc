"""The docs say what the code does: signatures, links, the README's shape, and the learner's install.

- Every function signature docs/architecture.md quotes (a code span like `run_agent(client, user_input, ...)`)
  matches the code, read with inspect.signature. A span that lists parameters without `...` and whose defaults
  evaluate in the function's module is a signature: its parameter names, their order and kind (positional or
  after `*`) and its defaults must be the code's (annotations and the return part are prose, not checked). A span
  with `...`, or with a value that is an example (`make_client(max_requests=N)`), is a call: every keyword it names
  must exist. An empty call (`mode_line()`) must name something that exists. Names that are not the kit's
  (`input()`, `os._exit(130)`, the SDK's `AsyncAnthropic(...)`) are skipped; an unknown name of the kit fails.
- README.md is at most 120 lines, and so is its Spanish twin; the two have the same sections, code blocks and
  table rows, in the same order; the course map links every lesson and exercise of its edition.
- Every relative link in README.md, README.es.md and docs/*.md names a file that exists (tests/test_notebook_links.py
  checks anchors and the rest of the kit's prose the same way).
- The glossary's terms are the ones the lessons use: each English term is in an English notebook, each Spanish one
  in a Spanish notebook.
- The learner's install is enough for what a learner and a teacher run: no module that harness_lib/, exercises/,
  the root conftest.py or a notebook imports comes from a package only requirements-dev.txt installs.

Not handled: signatures quoted outside docs/architecture.md, return annotations, and parameters documented in
prose rather than in a code span.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import importlib.metadata
import inspect
import json
import pkgutil
import re
from pathlib import Path

import pytest

from clean_tree import kit_notebooks, sources
from test_notebook_links import links_in

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"
READMES = {"en": ROOT / "README.md", "es": ROOT / "README.es.md"}
DOCS = [*READMES.values(), *sorted((ROOT / "docs").glob("*.md"))]
MAX_README_LINES = 120

FENCE = re.compile(r"^```.*?^```[^\n]*$", re.MULTILINE | re.DOTALL)
CALL = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)\((?P<params>.*)\)(?:\s*->.*)?$", re.DOTALL)
# Quoted with parentheses in the docs, but not the kit's: a Path method, the shape of a callback, the SDK's client.
NOT_THE_KITS = {"resolve", "on_event", "AsyncAnthropic", "client.beta.messages.tool_runner", "api.threads.forget"}


# ---- signatures ----------------------------------------------------------------------------------------------


def kit_modules() -> list:
    import harness_kit
    import harness_lib
    import harness_ui

    return [importlib.import_module(f"{package.__name__}.{info.name}") for package in (harness_lib, harness_kit, harness_ui)
            for info in pkgutil.walk_packages(package.__path__, onerror=lambda name: None)]


def quoted_calls(markdown: str) -> list[tuple[str, str]]:
    """(the section's heading, the code span) for every code span shaped like NAME(...) outside fenced blocks."""
    found, heading = [], ""
    text = FENCE.sub("", markdown)
    for piece in re.split(r"^(#{1,6} .*)$", text, flags=re.MULTILINE):
        if re.match(r"#{1,6} ", piece):
            heading = piece
            continue
        for span in re.findall(r"`([^`]+)`", piece):
            span = " ".join(span.split())
            match = CALL.match(span)
            if match and balanced(match["params"]):
                found.append((heading, span))
    return found


def balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def resolve(name: str, heading: str, modules: list):
    """The kit's object a quoted name means: the section's module first (### loop.py), then any kit module; a
    dotted name from a kit module or object (`notebook.setup`, `Inspector.from_jsonl`). None: not the kit's."""
    first, *rest = name.split(".")
    by_module = {m.__name__.rsplit(".", 1)[-1]: m for m in modules}
    section = re.match(r"#+\s+(?:\w+/)?(?:\\?_)*([\w]+?)(?:\\?_)*(?:\.py|/)", heading)  # harness_ui/x.py: x
    preferred = [by_module[section[1]]] if section and section[1] in by_module else []
    if section and section[1] == "main":
        preferred = [by_module["__main__"]]
    candidates = []
    if rest and first in by_module:
        candidates.append(by_module[first])
        first, *rest = rest
    for module in candidates or preferred + modules:
        obj = getattr(module, first, None)  # getattr: a package may hand out names lazily (offline/)
        if obj is not None:
            for attr in rest:
                obj = getattr(obj, attr, None)
            if obj is not None:
                return obj
    if not rest:  # a method quoted on its own (`close()` under ### trace.py): a class of the section's module has it
        for module in candidates or preferred:
            for cls in vars(module).values():
                if inspect.isclass(cls) and cls.__module__ == module.__name__ and callable(getattr(cls, first, None)):
                    return getattr(cls, first)
    return None


def parameters_of(params: str) -> tuple[ast.arguments, bool] | None:
    """The quoted parameters, parsed as a def's, and whether `...` elides some; None if they do not read as
    parameters at all."""
    items = [item.strip() for item in split_top_level(params.replace("…", "..."))]
    elided = "..." in items
    items = [item for item in items if item and item != "..."]
    try:
        tree = ast.parse(f"def _({', '.join(items)}): pass")
    except SyntaxError:
        return None
    return tree.body[0].args, elided


def split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current]


def quoted_parameters(args: ast.arguments) -> list[tuple[str, str, ast.expr | None]]:
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    quoted = [(a.arg, "POSITIONAL_OR_KEYWORD", d) for a, d in zip(positional, defaults)]
    if args.vararg:
        quoted.append((args.vararg.arg, "VAR_POSITIONAL", None))
    quoted += [(a.arg, "KEYWORD_ONLY", d) for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg:
        quoted.append((args.kwarg.arg, "VAR_KEYWORD", None))
    return quoted


def value_of(expr: ast.expr, namespace: dict):
    """A quoted default's value in the function's own module; raises if it is an example (`N`, `[...]`)."""
    if any(isinstance(node, ast.Constant) and node.value is Ellipsis for node in ast.walk(expr)):
        raise ValueError("an elided value")
    return eval(compile(ast.Expression(expr), "<docs>", "eval"), dict(namespace))  # noqa: S307 (our own docs)


def signature_problems(span: str, heading: str, modules: list) -> list[str]:
    match = CALL.match(span)
    name = match["name"]
    if name in NOT_THE_KITS or hasattr(builtins, name):
        return []
    obj = resolve(name, heading, modules)
    if obj is None:
        if "." in name and name.split(".")[0] not in {m.__name__.rsplit(".", 1)[-1] for m in modules}:
            return []  # os._exit(130), button.click(), api.threads.forget(): not a kit name
        return [f"`{span}` ({heading.strip('# ')}): no {name} in harness_lib, harness_kit or harness_ui"]
    if not match["params"].strip() and "->" not in span:
        return []  # `mode_line()`: a mention; it exists
    parsed = parameters_of(match["params"])
    if parsed is None:
        return []  # `AsyncAnthropic(api_key="offline", ...)`-like prose, not parameters
    args, elided = parsed
    real = inspect.signature(obj)
    real_params = [p for p in real.parameters.values() if p.name != "self"]
    namespace = {**vars(builtins), **getattr(inspect.getmodule(obj), "__dict__", {})}
    quoted = quoted_parameters(args)
    try:
        defaults = {n: value_of(d, namespace) for n, _, d in quoted if d is not None}
    except Exception:  # noqa: BLE001 - an example value: this span is a call, not a signature
        elided, defaults = True, {}
    if elided:  # a call: every keyword it names exists
        names = {p.name for p in real_params}
        return [f"`{span}`: {obj.__qualname__} has no parameter {n!r} (it has {sorted(names)})"
                for n, _, _ in quoted if n not in names and not any(p.kind is p.VAR_KEYWORD for p in real_params)]
    expected = [(p.name, p.kind.name, p.default is not p.empty) for p in real_params]
    got = [(n, kind, d is not None) for n, kind, d in quoted]
    if got != expected:
        return [f"`{span}` ({heading.strip('# ')}): the code says {obj.__qualname__}{real}"]
    return [f"`{span}`: {n}={defaults[n]!r}, but the code's default is {real.parameters[n].default!r}"
            for n in defaults if not same(defaults[n], real.parameters[n].default)]


def same(a, b) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def test_every_signature_architecture_md_quotes_matches_the_code():
    modules = kit_modules()
    calls = quoted_calls(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(calls) > 20, "the signature reader found almost nothing: has the docs' form changed?"
    problems = [p for heading, span in calls for p in signature_problems(span, heading, modules)]
    assert not problems, "docs/architecture.md:\n" + "\n".join(problems)


def test_the_signature_check_catches_each_kind_of_stale_quote():
    modules = kit_modules()
    loop = "### loop.py (the loop)"

    def check(span, heading=loop):
        return signature_problems(span, heading, modules)

    assert check("run_agent(client, user_input, tools, tool_impls, *, model=MODEL, max_tokens=1024, max_turns=8, "
                 "token_budget=40_000, approve=None, high_impact=HIGH_IMPACT, tool_step=None, on_event=None, "
                 "**request)") == []
    assert check("tool_result(tool_use_id, content, is_error=False) -> dict") == []
    assert check("tool_result(tool_use_id, content)")  # a parameter left out
    assert check("tool_result(tool_use_id, content, is_error=True)")  # a wrong default
    assert check("tool_result(content, tool_use_id, is_error=False)")  # the order
    assert check("tool_result(tool_use_id, *, content, is_error=False)")  # the kind
    assert check("run_tools(content)")  # a name the kit does not have
    assert check("run_agent(client, ..., max_turns=8)") == []  # a call: the keywords exist
    assert check("run_bare(client, ..., max_turns=8)")  # ... and one the function does not take
    assert check("make_client(max_requests=N)", "### client.py") == []  # an example value: a call
    assert check("parse_args(argv)", "### \\_\\_main\\_\\_.py (the terminal agent)")  # the default left out
    assert check("os._exit(130)") == [] and check("input()") == []


# ---- the READMEs -----------------------------------------------------------------------------------------------


def outline(path: Path) -> list[str]:
    """Headings' levels, code blocks' languages and each table's row count, in order: the document's shape."""
    shape, rows, in_fence = [], 0, False
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if rows and not line.startswith("|"):
            shape.append(f"table of {rows} rows")
            rows = 0
        if line.startswith("```"):
            shape.append("end code" if in_fence else f"code {line[3:].strip()}")
            in_fence = not in_fence
        elif in_fence:
            continue
        elif line.startswith("|"):
            rows += 1
        elif re.match(r"#{1,6} ", line):
            shape.append(line.split(" ")[0])
    return shape


@pytest.mark.parametrize("lang", READMES)
def test_the_readme_is_short(lang):
    lines = READMES[lang].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"{READMES[lang].name} has {lines} lines (at most {MAX_README_LINES})"


def test_the_two_readmes_have_the_same_sections_code_blocks_and_tables():
    english, spanish = outline(READMES["en"]), outline(READMES["es"])
    assert "code mermaid" in english  # the loop's picture
    assert english == spanish, f"README.md:\n{english}\nREADME.es.md:\n{spanish}"


@pytest.mark.parametrize("lang, lessons, exercises", [("en", "notebooks", "exercises"),
                                                      ("es", "notebooks/es", "exercises/es")])
def test_the_course_map_links_every_lesson_and_exercise(lang, lessons, exercises):
    links = set(links_in(READMES[lang].read_text(encoding="utf-8")))
    notebooks = [*kit_notebooks(ROOT / lessons), *kit_notebooks(ROOT / exercises, "[0-9]*.ipynb")]
    assert len(notebooks) >= 11
    missing = [p.relative_to(ROOT).as_posix() for p in notebooks if p.relative_to(ROOT).as_posix() not in links]
    assert not missing, f"{READMES[lang].name} does not link: {missing}"


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_names_a_file_that_exists(path):
    broken = []
    for link in links_in(path.read_text(encoding="utf-8")):
        target = link.split("#", 1)[0]
        if re.match(r"^[a-z][a-z0-9+.-]*:", link) or not target:
            continue
        if not (path.parent / target).is_file():
            broken.append(link)
    assert not broken, f"{path.relative_to(ROOT).as_posix()}: no such file: {broken}"


def notebook_text(folder: Path) -> str:
    return "\n".join("".join(cell["source"]) for path in kit_notebooks(folder)
                     for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]).lower()


def glossary() -> list[tuple[str, str]]:
    text = READMES["en"].read_text(encoding="utf-8")
    table = text.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()
            if line.startswith("|") and not line.startswith("|---")]
    return [(row[0], row[1]) for row in rows[1:]]


def test_the_glossary_uses_the_lessons_own_words():
    english = notebook_text(ROOT / "notebooks") + notebook_text(ROOT / "exercises")
    spanish = notebook_text(ROOT / "notebooks" / "es") + notebook_text(ROOT / "exercises" / "es")
    terms = glossary()
    assert len(terms) >= 10
    missing = []
    for en, es in terms:
        for term, text in ((en, english), (es, spanish)):
            for part in re.split(r"\s*[:/(]\s*", re.sub(r"[`)]", "", term)):
                if part and part.lower() not in text:
                    missing.append(part)
    assert not missing, f"glossary terms no lesson or exercise uses: {missing}"


# ---- the learner's install -------------------------------------------------------------------------------------


def requirement_names(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(re.split(r"[=<>!~\[ ]", line, maxsplit=1)[0].lower().replace("_", "-"))
    return names


def imported_modules() -> dict[str, str]:
    """{top-level module: a file that imports it} for what a learner or a teacher runs."""
    found = {}
    files = [*(p for top in ("harness_lib", "harness_kit", "harness_ui", "exercises", "grader")
               for p in sources(ROOT / top, ".py")), ROOT / "conftest.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level
                     else [])
            for name in names:
                found.setdefault(name.split(".")[0], path.relative_to(ROOT).as_posix())
    for path in sorted(ROOT.glob("notebooks/**/*.ipynb")) + sorted(ROOT.glob("exercises/**/*.ipynb")):
        if any(part.startswith(("_", ".")) for part in path.relative_to(ROOT).parts):
            continue  # a test's temporary copy, a checkpoint
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                for name in re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", "".join(cell["source"]), re.M):
                    found.setdefault(name, path.relative_to(ROOT).as_posix())
    return found


def test_requirements_dev_adds_to_the_learners_install():
    dev = (ROOT / "requirements-dev.txt").read_text(encoding="utf-8")
    assert re.search(r"^-r requirements\.txt$", dev, re.MULTILINE)
    assert not requirement_names(ROOT / "requirements.txt") & requirement_names(ROOT / "requirements-dev.txt")
    assert {"pytest", "nbval", "jupyterlab"} <= requirement_names(ROOT / "requirements.txt")  # learners grade


def test_nothing_a_learner_or_teacher_runs_needs_a_dev_only_package():
    dev_only = requirement_names(ROOT / "requirements-dev.txt")
    distributions = importlib.metadata.packages_distributions()
    needs = {module: (where, {d.lower().replace("_", "-") for d in distributions.get(module, [])})
             for module, where in imported_modules().items()}
    assert "anthropic" in needs and "nbclient" in needs  # the reader sees the kit's and the gradebook's imports
    found = [f"{where} imports {module} (from {sorted(dists & dev_only)}, only in requirements-dev.txt)"
             for module, (where, dists) in needs.items() if dists & dev_only]
    assert not found, "\n".join(found)
