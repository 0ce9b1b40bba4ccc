"""A submitted notebook, before any kernel runs: read it, name its learner, decide which exercise it is, and
build the notebook that is graded.

- `identify`: which exercise a notebook is, by its cells (the ids and digests of the grader's cells in
  exercises/checks.lock), not by its file name; `closest`: the kit's edition (English, Spanish) it was made from;
- who submitted it: grader/learners.py;
- `prepare`: everything decided before a kernel runs (readable? which exercise? refused by the kit's own
  `refusal`? flagged?) and `graded_notebook`: the kit's starter with the learner's ✏️ cells and added cells;
- `scan`, `borrowed`, `not_defined` and `not_written`: what a person should look at (code reaching for grader
  internals; a lesson's cell or a library function pasted, its names, comments or spacing changed or not:
  grader/similarity.py; a function the exercise asks for that no cell defines with a def, decided from the file;
  one whose code the kernel says was not compiled from a cell, after the run); `untouched`: a starter as shipped.

What it does NOT do: run anything the learner wrote (it only parses it: grader/worker.py runs the notebook),
decide a verdict (grader/gradebook.py's `judge`), or change a submitted file (a refusal is decided on a private
copy). The scan is a flag for a person, not a proof: code can reach the grader in ways no syntax tree shows, which
is what the seal (grader/worker.py) and the judge (grader/judge.py) are for.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import json
import os
import re
import shutil
import stat
import uuid
from collections import defaultdict
from pathlib import Path

from exercises import lock as kit_lock

from . import similarity
from .limits import CELL_PARSED, LEARNER_CODE, too_long

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXERCISES = ROOT / "exercises"
TMP_PREFIX = "_grading_tmp_gradebook_"  # git-ignored (exercises/_grading_tmp_*/); the gradebook adds its pid


# ---- which exercise is it -----------------------------------------------------------------------------------

def identify(nb: dict, lock: dict) -> str | None:
    """The exercise (its file name in the lock) whose grader cells this notebook holds, by cell id and digest."""
    digest = kit_lock.digest
    cells = cells_of(nb)
    ids = {c.get("id") for c in cells}
    sources = {digest(c.get("source", "")) for c in cells}
    best, best_score = None, 0.0
    for name, entries in lock["notebooks"].items():
        if not entries:
            continue
        # a check cell's id is the strongest sign; a grader cell with its shipped source counts too
        score = sum((e["id"] in ids) + (e["sha256"] in sources) for e in entries
                    if e["id"] != "grader-kit") / (2 * sum(e["id"] != "grader-kit" for e in entries) or 1)
        if score > best_score:
            best, best_score = name, score
    return best if best_score >= 0.25 else None




def source_of(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def cells_of(nb: dict) -> list[dict]:
    return [c for c in nb.get("cells", []) if isinstance(c, dict)]


def tags_of(cell: dict) -> list:
    tags = cell.get("metadata", {}).get("tags", []) if isinstance(cell.get("metadata"), dict) else []
    return tags if isinstance(tags, list) else []


def learner_cells(nb: dict, starter: dict) -> list[dict]:
    """The cells the learner wrote: the starter's ✏️ EXERCISE cells (by id) and every cell the starter lacks."""
    starter_ids = {c.get("id") for c in starter["cells"]}
    exercise_ids = {c.get("id") for c in starter["cells"] if "exercise" in tags_of(c)}
    return [c for c in nb.get("cells", []) if isinstance(c, dict) and c.get("cell_type") == "code"
            and (c.get("id") in exercise_ids or c.get("id") not in starter_ids)
            and not {"check", "locked"} & set(tags_of(c))]


def graded_notebook(nb: dict, starter: dict) -> dict:
    """The kit's starter with the submission's exercise cells and added cells (in the submission's order)."""
    by_id = {c.get("id"): c for c in cells_of(nb)}
    starter_ids = [c.get("id") for c in starter["cells"]]
    added_after: dict = defaultdict(list)
    last = None
    for c in nb.get("cells", []):
        if not isinstance(c, dict):
            continue
        if c.get("id") in starter_ids:
            last = c.get("id")
        elif c.get("cell_type") == "code" and not {"check", "locked"} & set(tags_of(c)):
            added_after[last].append(c)
    cells = []

    def code(cell, tags):
        return {"cell_type": "code", "id": cell.get("id"), "metadata": {"tags": tags}, "source": source_of(cell),
                "outputs": [], "execution_count": None}

    for c in added_after[None]:
        cells.append(code(c, ["added"]))
    for c in starter["cells"]:
        if c["cell_type"] == "code":
            mine = by_id.get(c.get("id"))
            if "exercise" in tags_of(c) and mine is not None:
                cells.append(code(mine, ["exercise"]))
            else:
                cells.append(code(c, tags_of(c)))
        for added in added_after[c.get("id")]:
            cells.append(code(added, ["added"]))
    return {"cells": cells, "metadata": starter.get("metadata", {}), "nbformat": 4, "nbformat_minor": 5}


# ---- what the learner's cells reach for ---------------------------------------------------------------------

GRADER_NAMES = {"grading", "Checks", "_Checks", "conftest", "checks_lock", "offline_api", "OfflineMessagesAPI",
                "__gradebook_seal"}
INTERNALS = {"__builtins__", "builtins", "get_ipython", "__code__", "__globals__", "__closure__", "__defaults__",
             "__kwdefaults__", "__dict__", "__class__", "__subclasses__", "__import__", "setattr", "delattr",
             "globals", "vars", "exec", "eval", "compile", "importlib", "ctypes", "gc", "settrace", "setprofile",
             "_getframe", "addaudithook", "environ", "putenv", "unsetenv", "modules",
             # walking the stack to the grader's frames
             "currentframe", "stack", "f_back", "f_globals", "f_locals", "f_builtins", "tb_frame", "cr_frame",
             "gi_frame", "ag_frame", "__self__", "__func__", "__wrapped__", "_current_frames",
             # the running cell's text (the judge's serve line and its token)
             "history_manager", "input_hist_raw", "input_hist_parsed", "_ih", "In"}
MODULES = ("exercises", "grader", "conftest", "grading", "checks", "harness_kit.offline", "nbval", "nbclient", "pytest",
           "_pytest", "IPython", "ipykernel", "importlib", "ctypes", "gc", "builtins")
STRINGS = ("grading", "conftest", "checks.lock", "HARNESS_", "ANTHROPIC_", "solutions")
MAGIC = re.compile(r"^\s*(!|%%|%(sx|system|run|load|writefile|env|reset|store|alias|macro)\b)")


def scan(cells: list[dict]) -> list[str]:
    """What the learner's cells do that a solution never needs: [one line each] (empty when nothing)."""
    found = []
    for cell in cells:
        where = f"cell '{cell.get('id')}'"
        lines = source_of(cell).splitlines()
        if any(MAGIC.match(line) for line in lines):
            found.append(f"{where} runs a shell command or an IPython magic")
        text = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in lines)
        if too_long(text):  # its syntax tree would cost the gradebook hundreds of times its size (grader/limits.py)
            found.append(f"{where} is {len(text)} characters long, more than the grader reads ({CELL_PARSED}): "
                         "not inspected")
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue  # it cannot run either; its checks say so
        hits = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and (node.id in GRADER_NAMES or node.id in INTERNALS):
                hits.add(node.id)
            elif isinstance(node, ast.Attribute) and (node.attr in GRADER_NAMES or node.attr in INTERNALS):
                hits.add(node.attr)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom)
                                                         and node.module else [])
                for name in names:
                    if any(name == m or name.startswith(m + ".") for m in MODULES):
                        hits.add(f"import {name}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                for s in STRINGS:
                    if s in node.value:
                        hits.add(repr(s))
        if hits:
            found.append(f"{where} touches grader internals: {', '.join(sorted(hits))}")
    return found


def lesson_cells() -> dict[str, str]:
    """The code of every lesson cell of some length (both editions), whitespace folded (-> ""), and the shape of
    each lesson cell and library function (grader/similarity.py: its digest -> what it is)."""
    found = {" ".join(code.split()): "" for _, _, code in similarity.lesson_code()
             if len(code.strip().splitlines()) >= 5}
    return {**found, **similarity.index()}


def borrowed(cells: list[dict], lessons: dict) -> list[str]:
    """Learner cells that are a lesson's cell pasted as it is, or a lesson's cell or a library function with its
    names, comments or spacing changed (grader/similarity.py). (An answer taken from the library by any route is
    looked for from the file too: `not_defined`.)"""
    exact = [cell for cell in cells if " ".join(source_of(cell).split()) in lessons]
    return ([f"cell '{cell.get('id')}' is a lesson's cell, pasted as it is" for cell in exact]
            + similarity.pasted([c for c in cells if c not in exact], lessons))


def to_write(starter: dict) -> set[str]:
    """The functions an exercise asks the learner to write: those its ✏️ cells define in the kit's starter."""
    names = set()
    for cell in cells_of(starter):
        if "exercise" in ((cell.get("metadata") or {}).get("tags") or []):
            with contextlib.suppress(SyntaxError, ValueError):
                names |= {node.name for node in ast.walk(ast.parse(source_of(cell)))
                          if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return names


def not_defined(cells: list[dict], written: set[str]) -> list[str]:
    """From the notebook's file, which the gradebook reads itself (never from what the kernel says): each function
    the exercise asks for that no learner cell defines with a `def`, or that a cell binds some other way too (an
    assignment, an import: the library's function under the asked name). For a person to look at."""
    defined, bound = set(), {}
    for cell in cells:
        text = source_of(cell)
        if too_long(text):
            continue  # (flagged already: not parsed)
        try:
            tree = ast.parse(similarity.python_only(text))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in written:
                defined.add(node.name)
            names = []
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [(a.asname or a.name).split(".")[0] for a in node.names]
            for name in set(names) & written:
                bound.setdefault(name, cell.get("id"))
    found = [f"{name} is not defined by a def in any of the notebook's cells" for name in sorted(written - defined)
             if name not in bound]
    found += [f"{name} is bound in cell '{bound[name]}' by an assignment or an import, not only by its def"
              for name in sorted(bound)]
    return found


def not_written(origins: dict, written: set[str]) -> list[str]:
    """For a person to look at: each function the exercise asks for whose code was not compiled from a cell of the
    notebook (the defendant's facts: module, file, cell), however it got there: any import form, importlib,
    pkgutil, runpy, or exec of the library's source. A function written in a cell that calls the library's is
    not found here (it is the learner's code: the checks judge what it does)."""
    found = []
    for name in sorted(written & set(origins)):
        where = origins[name]
        if not isinstance(where, dict) or (where.get("module") == "__main__" and where.get("cell") is not None):
            continue
        file = str(where.get("file"))
        shown = Path(file).name if file.endswith(".py") else file
        found.append(f"{name} was not written in a cell of the notebook: its code was compiled from {shown} "
                     f"(module {where.get('module')})")
    return found


EXERCISE_FILE = re.compile(r"(0\d_[a-z_]+)\.ipynb$")
# ---- before any kernel runs ---------------------------------------------------------------------------

def closest(nb: dict, candidates: list[dict]) -> dict:
    """The starter this submission was made from: of the kit's editions of the exercise (exercises/NAME, and e.g.
    exercises/es/NAME, same grader cells), the one sharing the most cell sources with it."""
    digest = kit_lock.digest
    mine = {digest(source_of(c)) for c in cells_of(nb)}
    return max(candidates, key=lambda st: sum(digest(source_of(c)) in mine for c in st["cells"]))


def prepare(job, lock: dict, starters: dict, expected: str | None = None, tmp_prefix: str = TMP_PREFIX) -> None:
    """Everything decided before a kernel runs: readable? which exercise? the one it is named for (`expected`)?
    refused? flagged? the graded notebook. Written into `job` (the gradebook's Job). The kit's refusal is decided on a
    copy, in a folder of the kit named `tmp_prefix` and a random suffix, deleted afterwards. Not the comparison with the
    lessons (`borrowed`): `job.pasted` keeps what it needs, and the gradebook makes it while the kernels start."""
    try:
        raw = read_submission(job.path)
        nb = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as err:
        job.verdict, job.cause, job.reason = "ERROR", "not-a-notebook", f"not a notebook: {type(err).__name__}: {str(err)[:120]}"
        return
    why = invalid(nb)
    if why:
        job.verdict, job.cause, job.reason = "ERROR", "not-a-notebook", f"not a notebook: {why}"
        return
    name = identify(nb, lock)
    if name is None:
        job.verdict, job.cause = "NOT GRADED", "not-an-exercise"
        job.reason = "not one of the exercises (none of their check cells is in it)"
        return
    job.exercise = name
    # the feedback's language: the edition's (its setup cell picks it; a refused notebook gets feedback too)
    job.lang = "es" if any('lang.use("es")' in source_of(c) for c in cells_of(nb)) else "en"
    named = EXERCISE_FILE.search(job.path.name)
    if named and f"{named[1]}.ipynb" != name and not expected:
        job.notes.append(f"the file is named for {named[1]}.ipynb, but it holds exercise {name}")
    if expected and name != expected:
        job.verdict, job.cause = "NOT GRADED", "another-exercise"
        job.reason = f"this file is graded as {expected}, but it holds exercise {name}"
        return
    # the kit's own refusal, on a private copy carrying the exercise's file name (the submission is not touched)
    copy_dir = EXERCISES / f"{tmp_prefix}{uuid.uuid4().hex[:12]}"
    copy_dir.mkdir()
    try:
        copy = copy_dir / name
        copy.write_bytes(raw)
        refused = kit_lock.refusal(copy, lock)
    finally:
        shutil.rmtree(copy_dir, ignore_errors=True)
    if refused:
        lines = [ln.strip("- ").strip() for ln in refused[1].splitlines()[1:] if ln.startswith("  - ")]
        job.verdict = "NOT GRADED"
        job.cause = "api-key" if kit_lock.key_findings(nb) else "grader-edited"  # refusal looks for a key first
        job.reason = refused[0] + (": " + "; ".join(lines) if lines else "")
        return
    starter = closest(nb, starters[name])
    mine = learner_cells(nb, starter)
    size = sum(len(source_of(c)) for c in mine)
    if size > LEARNER_CODE:  # (grader/limits.py: neither kept for the class nor run)
        job.verdict, job.cause = "NOT GRADED", "flagged"
        job.reason = (f"flagged for review: its cells hold {size} characters of code, more than the grader runs "
                      f"({LEARNER_CODE}): not run")
        return
    job.flags = scan(mine)
    job.pasted = (len(job.notes), mine)  # compared with the lessons later, at this place among its lines (note_pasted)
    job.shape = similarity.answer_shape(mine, starter)  # (the gradebook lists learners whose answers are alike)
    job.written = to_write(starter)
    job.notes += not_defined(mine, job.written)  # decided from the file; the kernel's own word is `not_written`
    job.graded = graded_notebook(nb, starter)
    job.untouched = untouched(nb, name, lock)


MAX_BYTES = 64 * 2 ** 20  # a submitted notebook bigger than this is not read (the kit's are under 1 MB)


def read_submission(path: Path) -> bytes:
    """The file's bytes, never through a symbolic link (O_NOFOLLOW) and only a regular file of at most MAX_BYTES:
    a link, a FIFO or a device raises OSError, saying which."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"not a regular file: {path.name}")
        if st.st_size > MAX_BYTES:
            raise OSError(f"{st.st_size} bytes, over the limit of {MAX_BYTES}")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(MAX_BYTES + 1)
    finally:
        os.close(fd)


def invalid(nb) -> str | None:
    """Why this JSON is not a valid notebook (nbformat's own schema), in one line; None when it is one."""
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        return "no list of cells"
    for i, cell in enumerate(nb["cells"]):
        if not isinstance(cell, dict):
            return f"cells[{i}] is a {type(cell).__name__}, not a cell"
    import warnings

    import nbformat  # here: the gradebook's start-up needs it only once a notebook is read

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nbformat.validate(copy.deepcopy(nb))
    except nbformat.ValidationError as err:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in getattr(err, "absolute_path", []))
        return f"invalid ({where.lstrip('.') or 'the notebook'}: {str(err.message)[:160]})"
    except Exception as err:  # noqa: BLE001 - nbformat trips on some shapes (a cell id that is a list, ...)
        return f"invalid ({type(err).__name__}: {str(err)[:160]})"
    return None


LINK_CAUSE = "symlink"


def walk(folder: Path) -> list[tuple[Path, str | None]]:
    """Every notebook under `folder` as (path, None), and every symbolic link that stands for a notebook or a
    folder as (path, where it points): a link is never followed (a learner's link to the teacher's solution or to
    a classmate's notebook would be graded as that notebook); right under `folder`, every link (a learner's folder
    that is a link, even one pointing nowhere). .ipynb_checkpoints folders are passed over."""
    found = []

    def visit(where: Path, top: bool = False) -> None:
        try:
            entries = sorted(os.scandir(where), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                try:
                    target = os.readlink(path)
                except OSError as err:
                    target = f"? ({err.strerror})"
                if top or entry.name.endswith(".ipynb") or os.path.isdir(path):
                    found.append((path, target))
            elif entry.is_dir(follow_symlinks=False):
                if entry.name != ".ipynb_checkpoints":
                    visit(path)
            elif entry.name.endswith(".ipynb"):
                found.append((path, None))
    visit(folder, top=True)
    return found


def untouched(nb: dict, name: str, lock: dict) -> bool:
    """True when the notebook is one of the kit's starters of `name` as shipped, as far as code goes: its ✏️ cells
    unchanged and no code cell added (by the lock's record of the starters, not by the files on disk, which in a
    learner's repository are the learner's own). Such a notebook fails every check: nothing is written yet."""
    digest = kit_lock.digest
    code = {c.get("id"): source_of(c) for c in cells_of(nb) if c.get("cell_type") == "code"}
    for shipped in lock.get("starters", {}).get(name, {}).values():
        added = [i for i, source in code.items() if i not in shipped["code"] and source.strip()]
        if not added and all(digest(code.get(i, "")) == d for i, d in shipped["exercise"].items()):
            return True
    return False
