"""Lift the definitions out of a notebook's code cells, so tests can run the learner-facing code itself.

Keeps imports, function and class definitions, and assignments of names in UPPER_CASE (constants such as
MAX_TURNS or HIGH_IMPACT); drops everything else (demo runs, prints, top-level awaits). The last definition
of a name wins, as it would in the notebook after "Run All".
"""

import ast
import json
from pathlib import Path

KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _is_constant(node) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    return bool(targets) and all(isinstance(t, ast.Name) and t.id.isupper() for t in targets)


def definitions(path: Path) -> str:
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    kept = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        if source.lstrip().startswith(("%", "!")):
            continue
        for node in ast.parse(source).body:
            if isinstance(node, KEEP) or _is_constant(node):
                kept.append(ast.get_source_segment(source, node))
    return "\n\n".join(kept)


def load(path: Path) -> dict:
    """Execute a notebook's definitions in a fresh namespace and return it."""
    namespace: dict = {"__name__": f"notebook:{Path(path).stem}"}
    exec(compile(definitions(path), str(path), "exec"), namespace)
    return namespace
