"""python -m editions: build every generated notebook from its source (docs/development.md, "One source per notebook").

    python -m editions                 write each generated notebook whose cells changed, and run it (its outputs)
    python -m editions --check         compare only: exit 1, naming the notebook and cell, if a committed generated
                                       notebook is not what its sources make (tests/test_editions.py runs this)
    python -m editions --run PATH ...  also run these notebooks again (an English source after you edited it)
    python -m editions --keep-outputs  keep the committed outputs of a notebook whose cells changed (a comment, a
                                       tag, a typo: a change that prints nothing else)
    python -m editions adopt [PATH]    write the tables from the committed notebooks (for a translator who edited a
                                       generated notebook in JupyterLab); PATH: a source, or all of them

Running it twice changes nothing: a generated notebook whose cells are already what its sources make keeps its
committed outputs.
"""

import argparse
import sys
from itertools import groupby

from .notebooks import ROOT, EditionError, adopt, generate, outputs_kept, read_notebook, same_cells, targets


def check() -> list[str]:
    problems = []
    for target in targets():
        try:
            made = generate(target)
        except EditionError as error:
            problems.append(str(error))
            continue
        file = ROOT / target.path
        if not file.exists():
            problems.append(f"{target.path}: missing (run python -m editions)")
            continue
        committed = read_notebook(target.path)
        if not same_cells(made, committed) or made.metadata != committed.metadata:
            problems.append(f"{target.path}: not what {target.source} and its tables make; first difference: "
                            f"{first_difference(made, committed)}")
    return problems


def first_difference(made, committed) -> str:
    if made.metadata != committed.metadata:
        return "the notebook's metadata"
    for a, b in zip(made.cells, committed.cells):
        if (a.get("id"), a.cell_type, a.metadata, a.source) != (b.get("id"), b.cell_type, b.metadata, b.source):
            return f"cell {a.get('id')!r}"
    return f"{len(made.cells)} cells against {len(committed.cells)}"


def build(rerun: list[str], keep_outputs: bool = False) -> int:
    """Write each built notebook that is not what its sources make. It runs again if its cells changed (or it is in
    `rerun`); otherwise, or with `keep_outputs` and the same cell ids, it keeps the committed outputs."""
    from .run import run, write

    changed = 0
    for target in targets():
        made = generate(target)
        committed = read_notebook(target.path) if (ROOT / target.path).exists() else None
        if committed is not None and target.path not in rerun and (same_cells(made, committed) or (
                keep_outputs and [c.get("id") for c in made.cells] == [c.get("id") for c in committed.cells])):
            if not same_cells(made, committed) or made.metadata != committed.metadata:
                write(outputs_kept(made, committed), target.path)
                print(f"wrote {target.path} (outputs kept)", flush=True)
                changed += 1
            continue
        print(f"running {target.path} (from {target.source})", flush=True)
        write(run(made, target.path), target.path)
        changed += 1
    for path in rerun:
        if path not in {t.path for t in targets()}:
            print(f"running {path}", flush=True)
            write(run(read_notebook(path), path), path)
            changed += 1
    print(f"{changed} notebook(s) written; the rest already were what their sources make")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m editions", description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=["build", "adopt"], default="build")
    parser.add_argument("paths", nargs="*", help="adopt: the sources to adopt (default: all)")
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 on a difference")
    parser.add_argument("--run", nargs="+", default=[], metavar="PATH", help="run these notebooks again")
    parser.add_argument("--keep-outputs", action="store_true",
                        help="keep the committed outputs of a notebook whose cells changed (a change that prints "
                             "nothing else: a comment, a tag, a typo in markdown)")
    args = parser.parse_args(argv)
    try:
        if args.command == "adopt":
            by_source = groupby(targets(), key=lambda t: t.source)
            for source, group in by_source:
                if args.paths and source not in args.paths:
                    continue
                for path, text in adopt(list(group)).items():
                    (ROOT / path).parent.mkdir(parents=True, exist_ok=True)
                    (ROOT / path).write_text(text, encoding="utf-8")
                    print(f"wrote {path}")
            return 0
        if args.check:
            problems = check()
            for problem in problems:
                print(problem, file=sys.stderr)
            print(f"{len(targets()) - len(problems)} of {len(targets())} generated notebooks are what their sources "
                  "make")
            return 1 if problems else 0
        return build([p.replace("\\", "/") for p in args.run], args.keep_outputs)
    except EditionError as error:
        print(f"python -m editions: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
