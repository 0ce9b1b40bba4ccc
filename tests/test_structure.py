"""The kit's structure, as a maintainer reads it: files short enough to read on their own, imports that point one way.

- No .py file under exercises/ is over 500 lines (a file on TOO_LONG_FOR_NOW is one being split: the test fails
  once it is short, so the list is kept honest).
- No import cycle among the modules of exercises/: their imports are read from the syntax tree, relative ones
  (`from .kit import ...`) and the absolute ones a notebook's kernel uses (`from checks.kit import ...`, with
  exercises/ on sys.path) alike.
- The checks' modules import at the top (no import after the first def or class).
- grading.py gives the same names imported as `grading` (a notebook's 🔒 cell) and as `exercises.grading`.
- exercises/checks.lock covers every module the check cells import, and is current; a changed module is refused by
  its name.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from clean_tree import sources

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
GRADER = ROOT / "grader"  # the teacher's grader: apart from what a learner needs
MAX_LINES = 500
TOO_LONG_FOR_NOW: set[str] = set()  # a file being split (issue 26): remove it from here once it is short


def python_files(folder: Path) -> list[Path]:
    return sources(folder, ".py")


def module_name(path: Path, top: Path) -> str:
    """'checks.kit' for exercises/checks/kit.py, 'grading' for exercises/grading.py (names as seen from `top`)."""
    parts = list(path.relative_to(top).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, top: Path) -> set[str]:
    """The modules under `top` that `path` imports (anywhere in the file), by their names as seen from `top`."""
    here = module_name(path, top)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    known = {module_name(p, top) for p in python_files(top)}
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # relative: from the file's package (`top` itself for grading.py), up level - 1
                base = package.split(".") if package else []
                module = ".".join(base[:len(base) - (node.level - 1)] + ([module] if module else []))
            names = [f"{module}.{a.name}" if module else a.name for a in node.names] + [module]
        else:
            continue
        for name in names:
            name = name.removeprefix("exercises.")
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != here:
                found.add(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    found, state = [], {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(trail[trail.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def graph_of(top: Path) -> dict[str, set[str]]:
    return {module_name(p, top): imports(p, top) for p in python_files(top)}


def test_no_python_file_in_exercises_or_the_grader_is_over_500_lines():
    lengths = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
               for p in python_files(EXERCISES) + python_files(GRADER)}
    too_long = {name: n for name, n in lengths.items() if n > MAX_LINES and name not in TOO_LONG_FOR_NOW}
    assert not too_long, too_long
    short_now = sorted(name for name in TOO_LONG_FOR_NOW if lengths.get(name, 0) <= MAX_LINES)
    assert not short_now, f"no longer too long (or gone): take them off TOO_LONG_FOR_NOW: {short_now}"


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []


def test_the_import_reader_sees_relative_and_absolute_imports():
    graph = graph_of(EXERCISES)
    assert {"checks.kit", "checks.ex03_budget"} <= graph["checks.ex03_progress"]
    assert {"checks.words_kit", "checks.words_ex04"} <= graph["checks.kit"]
    assert {"checks.ex01_policy", "checks.ex04_gate", "checks.kit"} <= graph["grading"]


def test_imports_in_exercises_point_one_way():
    graph = graph_of(EXERCISES)
    assert not cycles(graph), cycles(graph)
    # the layers of the checks: words_* (data) <- kit <- exNN <- grading
    assert not any(graph[m] for m in graph if m.startswith("checks.words_")), "a catalogue imports something"
    assert not {m for m in graph["checks.kit"] if m.startswith("checks.ex")}, "the kit imports an exercise"


def test_the_learners_exercises_never_import_the_teachers_grader():
    """exercises/ is what a learner needs (the checks, their entry point, the lock and the grade's plugin); the
    grader (gradebook, judge and its line, worker, sandbox, ...) sits apart in grader/ and imports from exercises/,
    not back."""
    by_learner = {p.relative_to(ROOT).as_posix(): sorted(n for n in imports_named(p) if n.split(".")[0] == "grader")
                  for p in python_files(EXERCISES)}
    assert not {name: found for name, found in by_learner.items() if found}
    assert not cycles(graph_of(GRADER))
    assert not [p.name for p in EXERCISES.glob("*.py") if (GRADER / p.name).exists()], "a grader module left behind"


def imports_named(path: Path) -> set[str]:
    """Every module name an import statement in `path` names (absolute imports as written)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module or "")
    return found


@pytest.mark.parametrize("path", [EXERCISES / "grading.py", *sorted((EXERCISES / "checks").glob("*.py"))],
                         ids=lambda p: p.relative_to(EXERCISES).as_posix())
def test_the_checks_import_at_the_top(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    first_def = next((n.lineno for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                     ast.ClassDef))), None)
    late = [n.lineno for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
            and first_def is not None and n.lineno > first_def]
    assert not late, f"imports after the first def or class, at lines {late}"


def test_grading_gives_the_same_names_as_grading_and_as_exercises_grading():
    code = ("import json, sys\n"
            "import exercises.grading as a\n"
            f"sys.path.insert(0, {str(EXERCISES)!r})\n"
            "import grading as b\n"
            "names = lambda m: sorted(n for n in vars(m) if not n.startswith('__'))\n"
            "print(json.dumps([names(a), names(b), a.check_policy.__module__, b.check_policy.__module__]))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    as_package, as_module, where_a, where_b = json.loads(out.stdout)
    assert as_package == as_module
    assert {"check_policy", "check_cycle", "check_parallel_gate", "bounded", "offline", "Checks"} <= set(as_module)
    assert (where_a, where_b) == ("exercises.checks.ex01_policy", "checks.ex01_policy")


def test_the_lock_covers_every_module_the_checks_import_and_is_current():
    from exercises import lock as kit_lock

    graph, reached, todo = graph_of(EXERCISES), set(), ["grading"]
    while todo:
        module = todo.pop()
        if module not in reached:
            reached.add(module)
            todo += sorted(graph[module])
    files = {(EXERCISES / (m.replace(".", "/") + ".py")) if (EXERCISES / (m.replace(".", "/") + ".py")).is_file()
             else EXERCISES / m.replace(".", "/") / "__init__.py" for m in reached}
    locked = kit_lock.load_lock()["code"]
    assert {p.relative_to(EXERCISES).as_posix() for p in files} <= set(locked)
    assert locked == kit_lock.code_digests(), "exercises/checks.lock is stale: python -m exercises.lock"
    assert kit_lock.build_lock() == kit_lock.load_lock(), "exercises/checks.lock is stale: python -m exercises.lock"


def test_an_edited_module_of_the_checks_is_refused_by_its_name():
    from exercises import lock as kit_lock

    lock = kit_lock.load_lock()
    solution = EXERCISES / "solutions" / "01_tiered_policy.ipynb"
    assert kit_lock.problems(solution, lock) == []
    edited = json.loads(json.dumps(lock))
    edited["code"]["checks/ex01_policy.py"] = "0" * 64  # what an edit of the file looks like to the lock
    assert kit_lock.problems(solution, edited) == ["exercises/checks/ex01_policy.py (the checks' code) was edited"]
    del edited["code"]["checks/kit.py"]
    assert "exercises/checks/kit.py is not one of the checks' files" in kit_lock.problems(solution, edited)
    assert kit_lock.problems(solution, {**lock, "code": {}})[0] == (
        "exercises/checks.lock holds no digest of the checks' code")


def test_the_learners_pytest_reads_verdicts_of_the_type_the_checks_hand_on():
    from exercises import plugin
    from exercises.checks import verdict

    assert plugin.VERDICT_MIME == verdict.VERDICT_MIME
