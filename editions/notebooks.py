"""Which notebooks are written by hand, which are generated from them, and how.

Written by hand (the sources): the English lessons, notebooks/NN_*.ipynb, and the English solutions,
exercises/solutions/NN_*.ipynb. Generated from them:

    notebooks/es/NN.ipynb            the lesson, through editions/es/notebooks/NN.yml
    exercises/NN.ipynb               the starter: the solution with editions/starters/NN.yml's cells instead
    exercises/es/solutions/NN.ipynb  the solution, through editions/es/exercises/NN.yml
    exercises/es/NN.ipynb            the starter, through the same table (its starter/ID entries for the cells
                                     the starter has of its own)

A generated notebook has the same cells, ids, tags and metadata as its source, and `metadata.edition` saying what it
was built from. Its outputs are its own run's (editions/run.py), kept while its cells do not change.
"""

import copy
from dataclasses import dataclass
from pathlib import Path

import nbformat
import yaml

from .source import EditionError, entry_between, translate_cell

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "editions"


@dataclass(frozen=True)
class Target:
    path: str  # the generated notebook, from the repository root
    source: str  # the notebook it is built from
    language: str  # "en" or "es"
    starter: bool  # the exercise's starter (True) or the solution / lesson (False)

    @property
    def table(self) -> str | None:
        name = Path(self.source).stem + ".yml"
        if self.language == "es":
            kind = "notebooks" if self.source.startswith("notebooks/") else "exercises"
            return f"editions/es/{kind}/{name}"
        return None

    @property
    def starters(self) -> str | None:
        return f"editions/starters/{Path(self.source).stem}.yml" if self.starter else None


def targets() -> list[Target]:
    found = []
    for lesson in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        found.append(Target(f"notebooks/es/{lesson.name}", f"notebooks/{lesson.name}", "es", False))
    for solution in sorted((ROOT / "exercises" / "solutions").glob("[0-9][0-9]_*.ipynb")):
        source = f"exercises/solutions/{solution.name}"
        found += [Target(f"exercises/{solution.name}", source, "en", True),
                  Target(f"exercises/es/solutions/{solution.name}", source, "es", False),
                  Target(f"exercises/es/{solution.name}", source, "es", True)]
    return found


def read_notebook(path: str):
    return nbformat.read(ROOT / path, as_version=4)


def read_table(path: str | None) -> dict:
    if path is None:
        return {}
    file = ROOT / path
    if not file.exists():
        raise EditionError(f"{path}: no such table")
    return yaml.load(file.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}


def generate(target: Target):
    """The target's notebook as its sources make it: cells, ids, tags and metadata; no outputs."""
    nb = copy.deepcopy(read_notebook(target.source))
    starters, table = read_table(target.starters), read_table(target.table)
    ids = {cell.get("id") for cell in nb.cells}
    for name, known in (("starters", starters), ("table", table)):
        unknown = [key for key in known if key.removeprefix("starter/") not in ids]
        if unknown:
            raise EditionError(f"{target.starters if name == 'starters' else target.table}: no cell {unknown[0]!r} "
                               f"in {target.source} (stale)")
    for cell in nb.cells:
        own = target.starter and cell.id in starters
        if own:
            cell.source = starters[cell.id]
        if target.language == "es":
            key = f"starter/{cell.id}" if own else cell.id
            cell.source = translate_cell(cell, table, key, f"{target.table}: cell {key!r}")
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata["edition"] = {"built_from": target.source, "language": target.language,
                              "tables": [t for t in (target.starters, target.table) if t],
                              "by": "python -m editions"}
    return nb


def same_cells(a, b) -> bool:
    """The same cells (ids, types, metadata, sources): what a run's outputs depend on."""
    strip = lambda nb: [(c.get("id"), c.cell_type, c.metadata, c.source) for c in nb.cells]
    return strip(a) == strip(b)


def outputs_kept(generated, committed):
    """`generated` with the committed notebook's outputs (its cells are the same)."""
    for mine, theirs in zip(generated.cells, committed.cells):
        if mine.cell_type == "code":
            mine.outputs, mine.execution_count = theirs.outputs, theirs.execution_count
    return generated


# Adopting (editions/__main__.py adopt): write the tables that make the committed generated notebooks.

class _Literal(str):
    pass


def _dump(data: dict) -> str:
    class Dumper(yaml.SafeDumper):
        pass
    Dumper.add_representer(_Literal, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|"))
    blockish = lambda s: _Literal(s) if "\n" in s and not s.endswith((" ", "\t")) and " \n" not in s else s
    def walk(v):
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return blockish(v) if isinstance(v, str) else v
    return yaml.dump(walk(data), Dumper=Dumper, allow_unicode=True, sort_keys=False, width=120)


HEADERS = {
    "starters": "# The starter's own cells, by cell id: each replaces the solution's cell of that id in the starter.\n"
                "# Built with `python -m editions` (docs/development.md, \"One source per notebook\").\n",
    "table": "# The Spanish edition of {source}, by cell id: a markdown cell whole (en: the English it translates),\n"
             "# a code cell as the en/es pairs of its strings and comments; starter/ID is the starter's own cell.\n"
             "# Built with `python -m editions` (docs/development.md, \"One source per notebook\").\n",
}


def adopt(group: list[Target]) -> dict[str, str]:
    """{table path: its text}: the tables that make `group`'s committed notebooks from their source."""
    source = read_notebook(group[0].source)
    starters: dict = {}
    tables: dict[str, dict] = {}
    starter_en = next((t for t in group if t.starter and t.language == "en"), None)
    if starter_en:
        committed = read_notebook(starter_en.path)
        for mine, theirs in _paired(source, committed, starter_en.path):
            if mine.source != theirs.source:
                starters[mine.id] = theirs.source
    for target in (t for t in group if t.language == "es"):
        committed = read_notebook(target.path)
        table = tables.setdefault(target.table, {})
        english = copy.deepcopy(source)
        for cell in english.cells:
            if target.starter and cell.id in starters:
                cell.source = starters[cell.id]
        for mine, theirs in _paired(english, committed, target.path):
            own = target.starter and mine.id in starters
            if target.starter and not own:
                continue  # the solution's table covers it; generate() checks that it fits
            key = f"starter/{mine.id}" if own else mine.id
            entry = entry_between(mine, theirs, f"{target.path}: cell {mine.id!r}")
            if entry:
                table[key] = entry
    texts = {}
    if starters:
        texts[starter_en.starters] = HEADERS["starters"] + _dump(starters)
    for path, table in tables.items():
        ordered = {k: table[k] for k in sorted(table, key=_order(source))}
        texts[path] = HEADERS["table"].format(source=group[0].source) + _dump(ordered)
    return texts


def _order(source):
    position = {cell.id: i for i, cell in enumerate(source.cells)}
    return lambda key: (position[key.removeprefix("starter/")], key.startswith("starter/"))


def _paired(a, b, where):
    if [c.get("id") for c in a.cells] != [c.get("id") for c in b.cells]:
        raise EditionError(f"{where}: not the same cells (ids) as its source")
    return zip(a.cells, b.cells)
