"""The book's size (docs/development.md, "The book's size"): lines and docstring lines of each part of the kit.

    python benchmarks/book_size.py            # this checkout
    python benchmarks/book_size.py --at REV   # another commit's, read with git show (nothing is checked out)

A docstring line is a line of a module's, class's or function's docstring, or of a string right under an assignment
(an attribute's docstring), read with ast. The lesson core is the book without its command (tests/test_structure_lib.py
holds it to 1,000 lines).
"""

import argparse
import ast
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = [f"harness_lib/{m}.py" for m in
        ("__init__", "client", "model", "loop", "valves", "tools", "sandbox", "approval", "trace")]
PARTS = {"lesson core": CORE, "harness_lib/": "harness_lib/", "harness_kit/": "harness_kit/",
         "harness_ui/": "harness_ui/", "exercises/ (grading, checks)": "exercises/", "grader/": "grader/"}


def docstring_lines(source: str) -> int:
    lines = 0
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            first = i == 0 and isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            after_assignment = i > 0 and isinstance(body[i - 1], (ast.Assign, ast.AnnAssign))
            if (first or after_assignment) and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                    and isinstance(stmt.value.value, str):
                lines += stmt.end_lineno - stmt.lineno + 1
    return lines


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--at", help="a commit (default: the files as they are)")
    at = p.parse_args().at

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout

    files = git("ls-tree", "-r", "--name-only", at or "HEAD").split() if at else git("ls-files").split()
    for part, where in PARTS.items():
        paths = [f for f in files if f.endswith(".py") and (f in where if isinstance(where, list) else f.startswith(where))]
        texts = [git("show", f"{at}:{f}") if at else (ROOT / f).read_text(encoding="utf-8") for f in paths]
        if not paths:
            print(f"{part:32} —")
            continue
        lines, docs = sum(len(t.splitlines()) for t in texts), sum(docstring_lines(t) for t in texts)
        print(f"{part:32} {lines:6,} lines, {len(paths):3} files, {docs:5,} docstring ({docs / lines:.0%})")


if __name__ == "__main__":
    main()
