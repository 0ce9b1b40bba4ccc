"""The teacher's gradebook: grade a folder of submitted exercise notebooks, one CSV row each.

    python -m exercises.gradebook SUBMISSIONS/ --out grades.csv      (from the repository root)

For every `*.ipynb` under SUBMISSIONS/ it
1. reads it (a file that is not a notebook gets an ERROR row) and decides which exercise it is by its cells (the
   ids of the grader's 🔒/🔍 cells listed in exercises/checks.lock), not by its file name;
2. refuses it, as the learner's own grade would, when a 🔍 CHECK or 🔒 cell was changed or it holds something
   shaped like an API key (exercises/conftest.py's `refusal`, with the kit's pristine lock and grading.py);
3. builds the notebook that is graded: the kit's own starter, with the submission's ✏️ EXERCISE cells and the
   cells the learner added. Every other cell (setup, the given loop, the grader's cells) comes from the kit, so
   code in a submission runs only from the cells the learner was asked to write;
4. runs it in a fresh kernel, cell by cell, with a per-cell timeout, a per-cell output cap, no API key
   (ANTHROPIC_* removed) and HARNESS_OFFLINE=1, its working folder a temporary copy inside the kit
   (exercises/_grading_tmp_*/);
5. runs every 🔍 CHECK in its own worker process, not in the kernel (exercises/judge.py): the kernel only answers
   the judge's questions (the values of its names, calls of its functions), and everything a verdict rests on —
   the offline model's log, the tools that ran, the approver's questions, the files written, the values returned —
   is observed in the worker, where no learner code runs. A check passes when it printed no ✗ and raised nothing
   there. What the kernel prints is never read as a verdict;
6. as evidence for a person, before any cell runs and again after every check, a fresh snippet fingerprints the
   grader's objects in the kernel (grading, harness_lib, asyncio, the SDK, builtins, trace hooks): one that changed
   means code in the notebook tampered with them: NOT GRADED, with what changed. And it scans the learner's cells
   (their syntax tree) for code that reaches for grader internals (grading, sys.modules, builtins, __code__,
   get_ipython, os.environ, the offline API, writing to the kit's files, ...): NOT GRADED, "flagged for review",
   for a person to look at.
It never changes the submitted files, checks that the kit's files and the submissions are unchanged afterwards,
and writes a Markdown summary next to the CSV (per exercise: the pass rate and the criteria most often failed).

Learner code is arbitrary Python. On Linux each kernel runs in a bubblewrap sandbox (`sandbox_argv`: no network,
its own processes, the kit read-only, the class and the CSV out of sight); where bwrap cannot run, the rows say
UNSANDBOXED and the code runs with your user's rights (docs/teaching.md: a container instead). What the judge does
NOT do: tell a right answer the learner wrote from one computed some other way (the library's own function, a
lesson's cell: flagged for a person), or protect the worker from a kernel outside the sandbox.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import csv
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VERDICTS = ("PASS", "FAIL", "NOT GRADED", "ERROR")
COLUMNS = ["learner", "file", "exercise", "verdict", "points", "checks_passed", "checks_total", "failed_criteria",
           "reason", "cause", "sandbox"]  # then one column per check: "01:check-policy" = 1 (every criterion ✓) or 0
# Why a row is NOT GRADED or ERROR, in one word a spreadsheet can filter on (the reason says it in full).
CAUSES = ("not-a-notebook", "not-an-exercise", "another-exercise", "grader-edited", "api-key", "grader-changed-in-run",
          "flagged", "other-edition-passed", "timeout", "grader-failed")
RESULT_MARK = "GRADEBOOK-RESULT "
TMP_PREFIX = "_grading_tmp_gradebook_"  # git-ignored (exercises/_grading_tmp_*/); --tmp-tag adds to it


def _conftest():
    """The exercises' conftest (tamper check, key check, criteria parsing), loaded from the kit by path."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_exercises_conftest", HERE / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- which exercise is it -----------------------------------------------------------------------------------

def identify(nb: dict, lock: dict) -> str | None:
    """The exercise (its file name in the lock) whose grader cells this notebook holds, by cell id and digest."""
    digest = _conftest_module().digest
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


_CONFTEST = None


def _conftest_module():
    global _CONFTEST
    if _CONFTEST is None:
        _CONFTEST = _conftest()
    return _CONFTEST


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
             "gi_frame", "ag_frame", "__self__", "__func__", "__wrapped__"}
MODULES = ("exercises", "conftest", "grading", "harness_lib.offline", "nbval", "nbclient", "pytest", "_pytest",
           "IPython", "ipykernel", "importlib", "ctypes", "gc", "builtins")
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


# What the library or a lesson already holds: an answer taken from there is graded, and shown to a person.
REFERENCE = re.compile(r"^\s*from\s+harness_lib(\.\w+)*\s+import\s+.*\b(run_tool_uses|run_agent|run_bare|find_cycle|"
                       r"signature_of|tokens_of)\b", re.M)


def lesson_cells() -> set[str]:
    """The code of every lesson cell of some length (both editions), whitespace folded."""
    found = set()
    for path in sorted((ROOT / "notebooks").glob("**/*.ipynb")):
        try:
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        except (OSError, ValueError, KeyError):
            continue
        for cell in cells:
            code = " ".join(source_of(cell).split())
            if cell.get("cell_type") == "code" and len(source_of(cell).strip().splitlines()) >= 5:
                found.add(code)
    return found


def borrowed(cells: list[dict], lessons: set[str]) -> list[str]:
    """Learner cells whose answer is the library's own reference, or a lesson's cell pasted as it is."""
    found = []
    for cell in cells:
        where, code = f"cell '{cell.get('id')}'", source_of(cell)
        hit = REFERENCE.search(code)
        if hit:
            found.append(f"{where} imports the library's reference {hit.group(2)} instead of writing it")
        elif " ".join(code.split()) in lessons:
            found.append(f"{where} is a lesson's cell, pasted as it is")
    return found


EXERCISE_FILE = re.compile(r"(0\d_[a-z_]+)\.ipynb$")
LMS_FOLDER = re.compile(r"^(?P<name>.+?)_\d+_assignsubmission_\w*$")  # Moodle: "Ana Pérez_1234_assignsubmission_file_"
LMS_FILE = (re.compile(r"^(?P<name>.+?)\s+-\s+.+$"),  # "José Núñez - 01_tiered_policy.ipynb"
            re.compile(r"^(?:late_)?(?P<name>[a-z][a-z0-9]*)_(?:LATE_)?\d+_\d+_.+$"))  # Canvas: "perezana_123_456_…"


def learner_of(rel: Path, prefix: str = "") -> str:
    """Who submitted it: the first folder under SUBMISSIONS (a Moodle folder's name, a cloned Classroom
    repository's name less the assignment prefix its siblings share), else the learner named in the file's name
    (an LMS download: "José Núñez - NAME.ipynb", Canvas's "login_123_456_NAME.ipynb"), else the file's name."""
    if len(rel.parts) > 1:
        folder = rel.parts[0]
        moodle = LMS_FOLDER.match(folder)
        if moodle:
            return moodle["name"]
        return folder[len(prefix):] if prefix and folder.startswith(prefix) and len(folder) > len(prefix) else folder
    for pattern in LMS_FILE:
        found = pattern.match(rel.stem)
        if found:
            return found["name"].strip()
    return rel.stem


def shared_prefix(folders: list[str]) -> str:
    """The assignment prefix of cloned Classroom repositories ("harness-exercises-ana", "harness-exercises-bo" ->
    "harness-exercises-"), cut at a "-"; "" unless there are two folders or more."""
    if len(folders) < 2:
        return ""
    common = os.path.commonprefix(folders)
    return common[:common.rfind("-") + 1]


# ---- the seal: the grader's objects, fingerprinted in the kernel, compared here -----------------------------

SEAL = r'''
def __gradebook_seal(kit):
    import builtins, hashlib, json, os, sys, types
    if kit not in sys.path:
        sys.path.insert(0, kit)
    import asyncio, anthropic, anthropic.resources.messages, grading
    import harness_lib, harness_lib.approval, harness_lib.client, harness_lib.loop, harness_lib.tools
    import harness_lib.trace, harness_lib.valves, harness_lib.offline, harness_lib.offline.api
    out = {}

    def code(f):
        c = getattr(f, "__code__", None)
        if c is None:
            return str(id(f))
        parts = [str(id(f)), str(id(c)), c.co_code.hex(), repr(c.co_consts)[:2000], repr(c.co_names),
                 repr(getattr(f, "__defaults__", None))[:500], repr(getattr(f, "__kwdefaults__", None))[:500]]
        for cell in getattr(f, "__closure__", None) or ():
            try:
                parts.append(str(id(cell.cell_contents)))
            except ValueError:
                parts.append("empty")
        return "|".join(parts)

    def member(v):
        for kind in (staticmethod, classmethod):
            if isinstance(v, kind):
                return code(v.__func__)
        if isinstance(v, property):
            return "|".join(code(x) for x in (v.fget, v.fset, v.fdel) if x)
        if isinstance(v, types.FunctionType):
            return code(v)
        return None

    def fingerprint(m, data=False, skip=(), state=()):
        h = hashlib.sha256()
        for name, v in sorted(vars(m).items()):
            if name in skip:
                continue
            if name in state:  # written by the checks as they run (which learner cell raised): the object, not its contents
                h.update(f"{name}=id:{id(v)}\n".encode())
            elif isinstance(v, types.FunctionType):
                h.update(f"{name}={code(v)}\n".encode())
            elif isinstance(v, type) and getattr(v, "__module__", None) == m.__name__:
                h.update(f"{name}={id(v)}\n".encode())
                for k, w in sorted(vars(v).items()):
                    got = member(w)
                    if got is not None:
                        h.update(f"{name}.{k}={got}\n".encode())
            elif callable(v) or isinstance(v, types.ModuleType):
                h.update(f"{name}={id(v)}\n".encode())
            elif data:
                h.update(f"{name}={v!r}\n".encode())
        return h.hexdigest()

    sdk = ("anthropic._base_client", "anthropic._client", "anthropic._response", "anthropic.resources.messages",
           "anthropic.resources.beta.messages", "httpx2._client", "httpx2._transports", "httpx2._models")
    mods = sorted(n for n, m in sys.modules.items() if isinstance(m, types.ModuleType) and (
        n.split(".")[0] in ("grading", "checks", "harness_lib", "asyncio") or n.startswith(sdk)))
    graders = [n for n in mods if n.split(".")[0] in ("grading", "checks")]  # grading.py, the modules of checks/
    for n in mods:
        out[f"module {n}"] = f"{id(sys.modules[n])}:{fingerprint(sys.modules[n], data=n in graders, state=('_RAISED',))}"
    out["module builtins"] = fingerprint(builtins, skip=("_", "__IPYTHON__", "display", "get_ipython", "exit", "input",
                                                         "quit", "help", "copyright", "credits", "license"))
    for n in graders:  # each function and class once, under the module that defines it (not every importer)
        for name, v in sorted(vars(sys.modules[n]).items()):
            if isinstance(v, (types.FunctionType, type)) and getattr(v, "__module__", None) == n:
                out[f"{n}.{name}"] = member(v) if isinstance(v, types.FunctionType) else "|".join(
                    f"{k}={member(w)}" for k, w in sorted(vars(v).items()) if member(w) is not None)
    out["grading's file"] = os.path.realpath(grading.__file__)
    ip = get_ipython()
    ns = ip.user_ns
    out["the notebook's name grading"] = str(ns.get("grading", grading) is grading)
    out["builtins shadowed in the notebook"] = repr(sorted(k for k in ("globals", "print", "isinstance", "getattr")
                                                           if k in ns))
    out["HARNESS_GRADING / HARNESS_OFFLINE"] = repr((os.environ.get("HARNESS_GRADING"),
                                                     os.environ.get("HARNESS_OFFLINE")))
    out["trace and profile hooks"] = repr((sys.gettrace() is None, sys.getprofile() is None))
    out["IPython's input transformers"] = repr([[id(t) for t in getattr(ip, a, [])] for a in (
        "ast_transformers",)] + [[id(t) for t in getattr(ip.input_transformer_manager, a, [])] for a in (
        "cleanup_transforms", "line_transforms", "token_transformers")] + [
        (k, [id(f) for f in v]) for k, v in sorted(ip.events.callbacks.items())])
    out["sys.modules['grading']"] = str(id(sys.modules.get("grading")))
    print("\x00SEAL" + json.dumps(out))
'''


def seal_call(nonce: str) -> str:
    """The snippet run in the kernel: the pristine fingerprint function, defined afresh, called, then removed."""
    return (SEAL + f"\n__gradebook_seal({str(HERE)!r})  # {nonce}\n"
            "del __gradebook_seal\n")


def seal_diff(first: dict, now: dict) -> list[str]:
    return sorted(k for k in first if first.get(k) != now.get(k))


# ---- one notebook, in a worker process (which starts and owns the kernel) ---------------------------------

def _worker(args) -> int:
    """Run the graded notebook (JSON on stdin) cell by cell; print one result line (JSON) on stdout."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    nb = nbformat.from_dict(json.loads(sys.stdin.read()))
    # The checks run here, in this process (exercises/judge.py), never in the kernel: the grader is imported in a
    # thread while the kernel starts
    sys.path.insert(0, str(ROOT))
    import threading

    from exercises import judge as judging

    ready = threading.Thread(target=judging.prepare, args=(args.lang,), daemon=True)
    ready.start()
    cap = args.output_cap
    kinds = []
    cells = []
    for c in nb.cells:
        tags = c.metadata.get("tags", [])
        kind = next((t for t in ("check", "locked", "exercise", "added") if t in tags), "other")
        if not cells:
            cells.append(nbformat.v4.new_code_cell(seal_call(uuid.uuid4().hex)))
            kinds.append(("seal", None))
        cells.append(c)
        kinds.append((kind, c.get("id")))
        if kind == "check":
            cells.append(nbformat.v4.new_code_cell(seal_call(uuid.uuid4().hex)))
            kinds.append(("seal", c.get("id")))
    nb.cells = cells

    class Capped(NotebookClient):
        def output(self, outs, msg, display_id, cell_index):
            size = len(json.dumps(msg.get("content", {}), default=str))
            used = self._used.get(cell_index, 0)
            if kinds[cell_index][0] != "seal" and used + size > cap and msg["msg_type"] != "error":
                self._capped.add(cell_index)
                return None
            self._used[cell_index] = used + size
            return super().output(outs, msg, display_id, cell_index)

    # Only an error's name and message are read here, never its traceback: the kernel prints the shortest one
    # (xmode Minimal) instead of formatting a coloured, annotated traceback for every failed check (~0.1 s each).
    km = sockets = None
    if os.name == "posix":
        # The kernel talks to this process over Unix sockets, not TCP: no port can be taken by another process between
        # the moment it is picked and the moment the kernel binds it, and the sandbox has no network to share.
        # In a short folder of their own: a socket's path has at most ~100 characters.
        import atexit
        import tempfile

        from jupyter_client import AsyncKernelManager

        sockets = tempfile.mkdtemp(prefix="kit-ipc-")
        atexit.register(shutil.rmtree, sockets, True)
        name = "python3"
        if args.sandbox == "bwrap":  # the kernel runs inside bubblewrap
            here, name = Path.cwd(), "kit-sandboxed"
            spec = here / ".kernel" / "kernels" / name
            spec.mkdir(parents=True)
            argv = (sandbox_argv(here, args.hide) + ["--bind", sockets, sockets, "--"]
                    + [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"])
            # interrupts go as messages: a signal would reach bwrap, which does not pass it on to the kernel
            (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "sandboxed",
                                                          "language": "python", "interrupt_mode": "message"}))
            os.environ["JUPYTER_PATH"] = str(here / ".kernel")
        km = AsyncKernelManager(kernel_name=name, transport="ipc", ip=str(Path(sockets) / "kernel"),
                                connection_file=str(Path(sockets) / "kernel.json"))
    client = Capped(nb, km=km, timeout=args.cell_timeout, allow_errors=True, kernel_name="python3",
                    extra_arguments=["--InteractiveShell.xmode=Minimal",
                                     # the kit being graded first on sys.path, once the kernel has started (not
                                     # PYTHONPATH: Python imports a sitecustomize.py from there at start-up)
                                     f"--IPKernelApp.exec_lines=import sys; sys.path.insert(1, {str(ROOT)!r})"],
                    resources={"metadata": {"path": os.getcwd()}})
    client._used, client._capped = {}, set()
    report = {"cells": [], "seals": []}

    def kill(*_):
        try:
            if client.km is not None and client.km.has_kernel:
                client.km.provisioner.process.kill()
            # and whatever this process started that the kernel manager does not hold yet (a kernel being launched
            # when the signal came): on Linux, every child, found by its parent's pid
            for entry in os.scandir("/proc") if sys.platform == "linux" else ():
                try:
                    stat = Path(entry.path, "stat").read_text()
                    if entry.name.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                        os.kill(int(entry.name), signal.SIGKILL)
                except (OSError, ValueError, IndexError):
                    pass
            if sockets:
                shutil.rmtree(sockets, ignore_errors=True)  # os._exit skips atexit
        finally:
            os._exit(3)

    signal.signal(signal.SIGTERM, kill)
    if sys.platform == "linux":  # dies with the gradebook (Ctrl-C, a kill): no notebook goes on running unseen
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the gradebook was gone already
            kill()
    stopped = None
    with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):
        for index, (kind, cell_id) in enumerate(kinds):
            cell = nb.cells[index]
            if stopped:
                if kind != "seal":
                    report["cells"].append({"id": cell_id, "kind": kind, "status": "not run", "why": stopped})
                continue
            # The first seal imports the kit (the SDK: a second of CPU, more on a busy machine) before any cell of
            # the notebook runs: the gradebook's own start-up, so it gets the kernel's start-up time, not the
            # per-cell timeout meant for the notebook's cells.
            client.timeout = (max(args.cell_timeout, client.startup_timeout) if index == 0 and kind == "seal"
                              else args.cell_timeout)
            call = judging.check_call(source_of(cell)) if kind == "check" else None
            if call:
                ready.join()
                outcome = _judged(client, judging, call, cell_id, index, sockets, args.cell_timeout)
                stopped = outcome.pop("stops", None) or outcome.get("why")
                report["cells"].append(outcome)
                continue
            try:
                client.execute_cell(cell, index)
            except CellTimeoutError:
                stopped = f"cell '{cell_id}' still running after {client.timeout:g} s: stopped there"
                report["cells"].append({"id": cell_id, "kind": kind, "status": "timeout", "why": stopped})
                continue
            except DeadKernelError:
                stopped = f"the kernel died in cell '{cell_id}'"
                report["cells"].append({"id": cell_id, "kind": kind, "status": "died", "why": stopped})
                continue
            text = "".join(o.get("text", "") for o in cell.outputs if o.get("output_type") == "stream")
            if kind == "seal":
                mark = text.rfind("\x00SEAL")
                try:
                    seal = json.loads(text[mark + 5:].splitlines()[0]) if mark >= 0 else None
                except (ValueError, IndexError):
                    seal = None
                report["seals"].append({"after": cell_id, "seal": seal})
                continue
            error = next((o for o in cell.outputs if o.get("output_type") == "error"), None)
            report["cells"].append({
                "id": cell_id, "kind": kind, "status": "error" if error else "ok",
                "ename": error.get("ename", "") if error else "",
                "evalue": (error.get("evalue", "") if error else "")[:20000],
                "text": text[-20000:], "capped": index in client._capped})
    print(RESULT_MARK + json.dumps(report))
    return 0


def _judged(client, judging, call: str, cell_id: str, index: int, sockets, cell_timeout: float) -> dict:
    """One check, judged in this process: the kernel runs only the line that answers the judge (in place of the
    check cell), and the check's report comes from the judge. A kernel still busy after the judge gave up stops
    the notebook there, as a cell that times out does."""
    import nbformat
    import threading

    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    listener, address = judging.listen(sockets)
    deadline = time.monotonic() + cell_timeout
    cell_ended, verdict = threading.Event(), {}
    judge = threading.Thread(target=lambda: verdict.update(
        judging.hear(listener, call, cell_id, deadline, cell_ended)), daemon=True)
    judge.start()
    stopped = None
    client.timeout = cell_timeout + 10  # the judge's deadline comes first; then the kernel has 10 s to finish
    try:
        client.execute_cell(nbformat.v4.new_code_cell(judging.SERVE.format(address=address)), index)
    except CellTimeoutError:
        stopped = ("timeout", f"cell '{cell_id}' still running after {cell_timeout:g} s: stopped there")
    except DeadKernelError:
        stopped = ("died", f"the kernel died in cell '{cell_id}'")
    finally:
        cell_ended.set()
        judge.join()
    if stopped and verdict.get("status") not in ("ok", "error"):  # the judge did not finish: the kernel's fault
        verdict.update(status=stopped[0])
    if verdict.get("status") in ("timeout", "died"):
        verdict["why"] = stopped[1] if stopped else f"cell '{cell_id}' still running after {cell_timeout:g} s: stopped there"
    elif stopped:
        verdict["stops"] = stopped[1]  # judged in full, but the kernel is stuck or gone: nothing runs after it
    return verdict


# ---- the sandbox: bubblewrap around each notebook's kernel ---------------------------------------------------

SANDBOX_PROBE = ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--cap-drop", "ALL", "true"]


def sandbox_available() -> str:
    """"" when bubblewrap (`bwrap`, Linux) can make a sandbox here, else why not (one line)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        run = subprocess.run(SANDBOX_PROBE, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as err:
        return f"bwrap does not run: {err}"
    return "" if run.returncode == 0 else f"bwrap cannot make a sandbox here: {run.stderr.strip()[:200]}"


def sandbox_argv(workdir: Path, hide: list[str]) -> list[str]:
    """bwrap's arguments for one kernel: every namespace new (no network, its own processes, which all die with
    the notebook), no capabilities; the system, Python and the kit read-only; writable only its own folder, a
    private /tmp and a private workspace/scratch; the class folder, the CSV's folder and the other notebooks'
    folders (`hide`) replaced by empty ones."""
    ro = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", sys.base_prefix, sys.prefix,
          str(Path(sys.executable).resolve().parent.parent), str(ROOT)]
    argv = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for path in dict.fromkeys(ro):
        if os.path.islink(path) and path.count("/") == 1:  # /bin -> usr/bin on a merged-/usr system
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            argv += ["--ro-bind", os.path.realpath(path), os.path.realpath(path)]
    for path in dict.fromkeys(os.path.realpath(p) for p in [*hide, ROOT / "workspace" / "scratch"]):
        if os.path.isdir(path) and not HERE.resolve().is_relative_to(path):  # never the grader's own folder
            argv += ["--tmpfs", path]
    return argv + ["--bind", str(workdir), str(workdir), "--chdir", str(workdir), "--setenv", "HOME", "/tmp",
                   "--unsetenv", "JPY_PARENT_PID", "--unsetenv", "PYTHONPATH"]


# ---- the rows --------------------------------------------------------------------------------------------

@dataclass
class Job:
    path: Path
    learner: str
    file: str
    exercise: str = ""
    verdict: str = ""
    reason: str = ""
    passed: int | None = None
    total: int | None = None
    failed: list = field(default_factory=list)
    flags: list = field(default_factory=list)
    graded: dict | None = None
    checks: dict = field(default_factory=dict)  # check id -> 1 (passed) or 0
    notes: list = field(default_factory=list)  # for a person to look at; they do not change the verdict
    feedback: list = field(default_factory=list)  # (check id, what the check printed)
    lang: str = "en"  # the edition graded: "es" for exercises/es/
    sandbox: str = ""  # "bwrap" when its kernel ran in the sandbox, "UNSANDBOXED" when it ran without one
    untouched: bool = False  # the starter as shipped: nothing written yet
    cause: str = ""  # one of CAUSES, for a NOT GRADED or ERROR row

    def points(self, most: float, all_or_nothing: bool = False) -> float:
        """PASS: all of them; FAIL: a share by checks passed (0 when all or nothing); NOT GRADED and ERROR: 0."""
        if self.verdict == "PASS":
            return most
        if self.verdict != "FAIL" or all_or_nothing or not self.total:
            return 0
        return round(most * (self.passed or 0) / self.total, 1)

    def row(self, most: float = 10, all_or_nothing: bool = False) -> dict:
        row = {"learner": self.learner, "file": self.file, "exercise": self.exercise, "verdict": self.verdict,
               "points": f"{self.points(most, all_or_nothing):g}",
               "checks_passed": "" if self.passed is None else self.passed,
               "checks_total": "" if self.total is None else self.total,
               "failed_criteria": " | ".join(self.failed),
               "reason": "; ".join(filter(None, [self.reason] + [f"to look at: {n}" for n in self.notes])),
               "cause": self.cause, "sandbox": self.sandbox}
        if self.verdict in ("PASS", "FAIL"):  # what a NOT GRADED run printed is no evidence: left blank
            row.update({check_column(self.exercise, check): v for check, v in self.checks.items()})
        return row


def check_column(exercise: str, check: str) -> str:
    """The CSV column of one check: "01:check-policy" (the exercise's number, the check cell's id)."""
    return f"{exercise[:2]}:{check}"


def _criteria(cell: dict) -> list[str]:
    """The ✗ criteria of a check cell: from its AssertionError, else from its printed ✗ lines."""
    if cell.get("ename") == "AssertionError":
        found = [c for c, _ in _conftest_module()._criteria(cell.get("evalue", ""))]
        if found:
            return found
    return [line.strip()[2:] for line in cell.get("text", "").splitlines() if line.strip().startswith("✗ ")]


def judge(job: Job, report: dict, checks: list[str]) -> None:
    """Verdict from the worker's report: each check passes only if it printed no ✗, raised nothing, and the
    seal still held after it."""
    seals = report.get("seals", [])
    first = seals[0]["seal"] if seals else None
    broken = []
    if not first:
        broken.append("the seal could not be taken before the notebook ran")
    first_seen = {}  # what changed -> the check cell after which it was first seen changed
    for s in seals[1:]:
        if s["seal"] is None:
            broken.append(f"no seal after '{s['after']}'")
        elif first:
            for k in seal_diff(first, s["seal"]):
                first_seen.setdefault(k, s["after"])
    broken += [f"{k} (first seen after '{after}')" for k, after in first_seen.items()]
    by_id = {c["id"]: c for c in report.get("cells", []) if c["kind"] == "check"}
    passed = 0
    for check in checks:
        cell = by_id.get(check)
        job.checks[check] = int(cell is not None and cell["status"] == "ok" and not _criteria(cell))
        if cell is not None:
            job.feedback.append((check, cell.get("text", "") + (f"\n{cell['ename']}: {cell['evalue']}"
                                                                 if cell.get("ename") else "")))
        if cell is None:
            job.failed.append(f"{check}: not run")
        elif cell["status"] in ("not run", "timeout", "died"):
            job.failed.append(f"{check}: not run ({cell['why']})")
        elif cell["status"] == "ok" and not _criteria(cell):
            passed += 1
        else:
            criteria = _criteria(cell)
            if criteria:
                job.failed += [f"{check}: ✗ {c}" for c in criteria]
            else:
                job.failed.append(f"{check}: raised {cell['ename']}: {(cell['evalue'].splitlines() or [''])[0][:160]}")
    job.passed, job.total = passed, len(checks)
    stops = [c["why"] for c in report.get("cells", []) if c["status"] in ("timeout", "died")]
    capped = [c["id"] for c in report.get("cells", []) if c.get("capped")]
    notes = stops + ([f"output capped in cell(s) {', '.join(map(repr, capped))}"] if capped else [])
    if broken:
        job.verdict, job.cause = "NOT GRADED", "grader-changed-in-run"
        job.reason = "; ".join(["the grader's objects were changed while it ran: " + ", ".join(
            dict.fromkeys(broken))[:600]] + job.flags + notes)
    elif job.flags:
        job.verdict, job.cause = "NOT GRADED", "flagged"
        job.reason = "; ".join(["flagged for review"] + job.flags + notes)
    else:
        job.verdict = "PASS" if passed == len(checks) and checks else "FAIL"
        job.reason = "; ".join(notes)


# ---- the kit's files: unchanged afterwards ------------------------------------------------------------------

def kit_files() -> list[Path]:
    """The kit's tracked files (git), else every file outside the venv, git, caches and grading folders."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=30)
        return [ROOT / p for p in out.stdout.decode().split("\0") if p]
    except (OSError, subprocess.SubprocessError):
        # Not a git checkout (e.g. a Classroom repository's export): walk the folder, never into the skipped ones.
        # Another gradebook run in the same kit deletes its own _grading_tmp_ folder while this one walks: such
        # folders are not entered, and a folder that vanishes meanwhile is passed over (os.walk ignores it).
        skip = {".git", ".venv", "venv", "__pycache__", ".ipynb_checkpoints", "test-artifacts"}
        found = []
        for folder, subfolders, files in os.walk(ROOT):
            subfolders[:] = [d for d in subfolders if d not in skip and not d.startswith("_grading_tmp_")]
            found += [Path(folder, name) for name in files]
        return found


def snapshot(paths) -> dict:
    found = {}
    for p in paths:
        try:
            found[p] = p.read_bytes()
        except OSError:
            found[p] = None
    return found


def changed(before: dict) -> list[Path]:
    return [p for p, data in before.items() if snapshot([p])[p] != data]


# ---- the run ----------------------------------------------------------------------------------------------

def kernel_env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "HARNESS_", "PYTEST_", "JPY_", "GITHUB_TOKEN"))}
    env.update(HARNESS_OFFLINE="1", HARNESS_GRADING="1", HARNESS_AUTO_APPROVE="notebook",
               PYTHON_DOTENV_DISABLED="1", PYTHONDONTWRITEBYTECODE="1")
    for name in ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONSAFEPATH"):
        env.pop(name, None)  # nothing imported from a writable folder: harness_lib is the installed (editable) kit
    env["PYTHONNOUSERSITE"] = "1"  # nor a usercustomize from the user's site-packages
    return env


def run_one(job: Job, args, tmp_root: Path, checks: list[str]) -> Job:
    job.sandbox = "bwrap" if args.sandbox == "bwrap" else "UNSANDBOXED"
    workdir = tmp_root / uuid.uuid4().hex[:12]
    workdir.mkdir(parents=True)
    try:
        # -I: nothing from the kit's or the learner's folders is imported at start (a sitecustomize.py, PYTHONPATH)
        proc = subprocess.Popen(
            [sys.executable, "-I", str(HERE / "gradebook.py"), "--worker", "--cell-timeout", str(args.cell_timeout),
             "--output-cap", str(args.output_cap), "--sandbox", args.sandbox, "--lang", job.lang]
            + [f"--hide={h}" for h in args.hide],
            cwd=workdir, env=kernel_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            out, _ = proc.communicate(json.dumps(job.graded), timeout=args.timeout)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.communicate()
            job.verdict, job.cause, job.reason = "ERROR", "timeout", f"grading took longer than {args.timeout:g} s: stopped"
            return job
        line = next((ln for ln in reversed(out.splitlines()) if ln.startswith(RESULT_MARK)), None)
        if line is None:
            job.verdict, job.cause = "ERROR", "grader-failed"
            job.reason = f"the grading process failed (exit status {proc.returncode})"
            return job
        judge(job, json.loads(line[len(RESULT_MARK):]), checks)
        return job
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def closest(nb: dict, candidates: list[dict]) -> dict:
    """The starter this submission was made from: of the kit's editions of the exercise (exercises/NAME, and e.g.
    exercises/es/NAME, same grader cells), the one sharing the most cell sources with it."""
    digest = _conftest_module().digest
    mine = {digest(source_of(c)) for c in cells_of(nb)}
    return max(candidates, key=lambda st: sum(digest(source_of(c)) in mine for c in st["cells"]))


def prepare(job: Job, lock: dict, starters: dict, expected: str | None = None, lessons: frozenset = frozenset()) -> None:
    """Everything decided before a kernel runs: readable? which exercise? the one it is named for (`expected`)?
    refused? flagged? the graded notebook."""
    conftest = _conftest_module()
    try:
        raw = job.path.read_bytes()
        nb = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        job.verdict, job.cause, job.reason = "ERROR", "not-a-notebook", f"not a notebook: {type(err).__name__}: {str(err)[:120]}"
        return
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        job.verdict, job.cause, job.reason = "ERROR", "not-a-notebook", "not a notebook: no list of cells"
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
    copy_dir = HERE / f"{TMP_PREFIX}{uuid.uuid4().hex[:12]}"
    copy_dir.mkdir()
    try:
        copy = copy_dir / name
        copy.write_bytes(raw)
        refused = conftest.refusal(copy, lock)
    finally:
        shutil.rmtree(copy_dir, ignore_errors=True)
    if refused:
        lines = [ln.strip("- ").strip() for ln in refused[1].splitlines()[1:] if ln.startswith("  - ")]
        job.verdict = "NOT GRADED"
        job.cause = "api-key" if conftest.key_findings(nb) else "grader-edited"  # refusal looks for a key first
        job.reason = refused[0] + (": " + "; ".join(lines) if lines else "")
        return
    starter = closest(nb, starters[name])
    mine = learner_cells(nb, starter)
    job.flags = scan(mine)
    job.notes += borrowed(mine, lessons)
    job.graded = graded_notebook(nb, starter)
    job.untouched = untouched(nb, name, lock)


def untouched(nb: dict, name: str, lock: dict) -> bool:
    """True when the notebook is one of the kit's starters of `name` as shipped, as far as code goes: its ✏️ cells
    unchanged and no code cell added (by the lock's record of the starters, not by the files on disk, which in a
    learner's repository are the learner's own). Such a notebook fails every check: nothing is written yet."""
    digest = _conftest_module().digest
    code = {c.get("id"): source_of(c) for c in cells_of(nb) if c.get("cell_type") == "code"}
    for shipped in lock.get("starters", {}).get(name, {}).values():
        added = [i for i, source in code.items() if i not in shipped["code"] and source.strip()]
        if not added and all(digest(code.get(i, "")) == d for i, d in shipped["exercise"].items()):
            return True
    return False


def discover(folder: Path, exercise: str | None = None) -> list[Job]:
    """One job per notebook under `folder` (or `folder` itself); the learner is `learner_of` its path. With `exercise` (one learner's copy of the
    kit, e.g. a Classroom repository): only the notebooks of that file name, and they are all one learner's,
    named after the folder."""
    paths = [folder] if folder.is_file() else sorted(
        p for p in folder.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts and p.is_file())
    if exercise and folder.is_dir():  # FOLDER/NAME and FOLDER/<edition>/NAME (es/), never a solutions/ folder
        paths = [p for p in paths if p.name == exercise and len(p.relative_to(folder).parts) <= 2
                 and p.parent.name != "solutions" and not p.relative_to(folder).parts[0].startswith("_")]
    jobs = []
    rels = [p.relative_to(folder) if folder.is_dir() else Path(p.name) for p in paths]
    prefix = shared_prefix(sorted({r.parts[0] for r in rels if len(r.parts) > 1}))
    for p, rel in zip(paths, rels):
        learner = learner_of(rel, prefix)
        if exercise:
            learner = folder.name if folder.is_dir() else folder.parent.name
        jobs.append(Job(path=p, learner=learner, file=rel.as_posix()))
    return jobs


FEEDBACK = {
    "en": {"title": "Feedback: {exercise}", "verdict": "Verdict: **{verdict}**, {points} points.",
           "checks": "{passed} of {total} checks pass. What each check printed (every ✗ has its hint under it):",
           "why": "Why: {reason}", "none": "No check ran."},
    "es": {"title": "Comentarios: {exercise}", "verdict": "Veredicto: **{verdict}**, {points} puntos.",
           "checks": "Pasan {passed} de {total} controles. Lo que escribió cada control (cada ✗ lleva su pista debajo):",
           "why": "Motivo: {reason}", "none": "No se ejecutó ningún control."},
}


def feedback(job: Job, most: float, all_or_nothing: bool) -> str:
    """One learner's feedback on one notebook, in the language of the edition graded (Markdown; what each check
    printed is shown as an indented block, so nothing in it is read as Markdown)."""
    t = FEEDBACK.get(job.lang, FEEDBACK["en"])
    lines = [f"# {t['title'].format(exercise=job.exercise or job.file)}", "", f"`{job.file}`", "",
             t["verdict"].format(verdict=job.verdict, points=f"{job.points(most, all_or_nothing):g}"), ""]
    reason = "; ".join(filter(None, [job.reason] + job.notes))
    if reason:
        lines += [t["why"].format(reason=reason), ""]
    if job.verdict in ("PASS", "FAIL") and job.feedback:
        lines += [t["checks"].format(passed=job.passed, total=job.total), ""]
        for check, text in job.feedback:
            lines += [f"## {check}", ""] + ["    " + line for line in text.strip().splitlines()] + [""]
    elif job.verdict in ("PASS", "FAIL"):
        lines += [t["none"], ""]
    return "\n".join(lines)


def merged(out: Path, jobs: list[Job], rows: list[dict]) -> tuple[list[str], list[dict]]:
    """The columns of an existing CSV, and its rows less those of the learners graded now, then the new rows."""
    try:
        with out.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            old, columns = list(reader), list(reader.fieldnames or [])
    except FileNotFoundError:
        return [], rows
    again = {j.learner for j in jobs}
    return columns, [r for r in old if r.get("learner") not in again] + rows


def summary(jobs: list[Job]) -> str:
    lines = ["# Gradebook summary", "", f"{len(jobs)} submitted notebook(s).", "",
             "| exercise | submissions | PASS | FAIL | NOT GRADED | ERROR | pass rate |", "|---|---|---|---|---|---|---|"]
    by_ex = defaultdict(list)
    for j in jobs:
        by_ex[j.exercise or "(none)"].append(j)
    for ex, js in sorted(by_ex.items()):
        n = Counter(j.verdict for j in js)
        graded = n["PASS"] + n["FAIL"]
        rate = f"{100 * n['PASS'] / graded:.0f}% of {graded} graded" if graded else "—"
        lines.append(f"| {ex} | {len(js)} | {n['PASS']} | {n['FAIL']} | {n['NOT GRADED']} | {n['ERROR']} | {rate} |")
    for ex, js in sorted(by_ex.items()):
        failed = Counter(c for j in js if j.verdict in ("PASS", "FAIL") for c in dict.fromkeys(j.failed))
        if not failed:
            continue
        lines += ["", f"## {ex}: the criteria most often failed (what to re-teach)", ""]
        graded = sum(j.verdict in ("PASS", "FAIL") for j in js)
        lines += [f"- {count} of {graded}: {criterion}" for criterion, count in failed.most_common(8)]
    review = [j for j in jobs if j.verdict in ("NOT GRADED", "ERROR") or j.notes]
    if review:
        lines += ["", "## To look at", ""] + [f"- `{j.file}` ({j.learner}): {j.verdict} — "
                                              + "; ".join(filter(None, [j.reason] + j.notes)) for j in review]
    dup = Counter((j.learner, j.exercise) for j in jobs if j.exercise)
    twice = [f"{who} ({ex}: {n})" for (who, ex), n in sorted(dup.items()) if n > 1]
    if twice:
        lines += ["", "## More than one submission of an exercise", "", "- " + "; ".join(twice)]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m exercises.gradebook", description=__doc__.split("\n\n")[0])
    p.add_argument("submissions", nargs="?", type=Path, help="a folder of submitted notebooks (or one notebook)")
    p.add_argument("--out", type=Path, default=Path("grades.csv"), help="the CSV to write (default: grades.csv)")
    p.add_argument("--summary", type=Path, help="the Markdown summary (default: the CSV's name with .md)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks graded at once "
                   "(default: the CPU count)")
    p.add_argument("--cell-timeout", type=float, default=120, help="seconds per cell (default 120)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per notebook (default 600)")
    p.add_argument("--output-cap", type=int, default=1_000_000, help="bytes of output kept per cell (default 1 MB)")
    p.add_argument("--points", type=float, default=10, help="the points of a PASS (default 10): a FAIL gets its "
                   "share by checks passed, NOT GRADED and ERROR get 0 (the CSV's points column)")
    p.add_argument("--all-or-nothing", action="store_true", help="a FAIL gets 0 points, not a share")
    p.add_argument("--feedback", type=Path, metavar="DIR", help="also write one Markdown file per learner and "
                   "notebook: DIR/<learner>/<exercise>.md, each ✗ with its hint, in the notebook's language")
    p.add_argument("--merge", action="store_true", help="keep the rows of --out for every learner not graded now "
                   "(re-grade one learner into a class's CSV)")
    p.add_argument("--excel", action="store_true", help="write the CSV as UTF-8 with a BOM, so Excel reads its "
                   "accents right")
    p.add_argument("--require-pass", action="store_true",
                   help="exit status 1 unless every notebook is PASS (for GitHub Classroom's command grader)")
    p.add_argument("--exercise", metavar="NAME", help="grade one learner's NAME (e.g. 01_tiered_policy.ipynb): "
                   "the notebooks of that file name in SUBMISSIONS and its edition folders (exercises/NAME, "
                   "exercises/es/NAME), one after the other until one is PASS; an edition left as shipped is not "
                   "run (FAIL, 'nothing written yet', when no edition was written in); a notebook of another "
                   "exercise saved under NAME is NOT GRADED. With --require-pass: exit status 0 when an edition is PASS")
    p.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default="auto", help="run each notebook's "
                   "kernel in a bubblewrap sandbox (Linux): auto (default) uses it where it works and otherwise "
                   "grades UNSANDBOXED, saying so in the CSV and on stderr; bwrap refuses to grade without it")
    p.add_argument("--hide", action="append", default=[], help=argparse.SUPPRESS)  # the worker: folders to hide
    p.add_argument("--lang", default="en", help=argparse.SUPPRESS)  # the worker: the notebook's language
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--tmp-tag", default="", help=argparse.SUPPRESS)  # tests: tell this run's folders apart
    args = p.parse_args(argv)
    global TMP_PREFIX
    TMP_PREFIX += re.sub(r"[^A-Za-z0-9]", "", args.tmp_tag)[:20] + ("_" if args.tmp_tag else "")
    if args.worker:
        return _worker(args)
    if args.submissions is None or not args.submissions.exists():
        p.error("give a folder of submitted notebooks (or one notebook) that exists")
    if args.jobs < 1:
        p.error("-j must be 1 or more")
    folder = args.submissions.resolve()
    unsandboxed = sandbox_available() if args.sandbox != "none" else "--sandbox none"
    if unsandboxed and args.sandbox == "bwrap":
        p.error(f"--sandbox bwrap: {unsandboxed}")
    args.sandbox = "none" if unsandboxed else "bwrap"
    if unsandboxed:
        print(f"warning: grading UNSANDBOXED ({unsandboxed}): the learners' code runs with your rights and can "
              "change files, the CSV and other grades; see docs/teaching.md", file=sys.stderr)
    conftest = _conftest_module()
    lock = conftest.load_lock()
    starters = {name: [json.loads(p.read_text(encoding="utf-8")) for p in (HERE / name, *sorted(HERE.glob(f"*/{name}")))
                       if p.is_file() and p.parent.name not in ("solutions",) and not p.parent.name.startswith("_")]
                for name in lock["notebooks"]}
    checks = {name: [e["id"] for e in entries if e["tag"] == "check"] for name, entries in lock["notebooks"].items()}
    kit_before = snapshot(kit_files())
    submitted = sorted(p for p in (folder.rglob("*") if folder.is_dir() else [folder]) if p.is_file())
    submitted_before = snapshot(submitted)
    if args.exercise is not None and args.exercise not in lock["notebooks"]:
        p.error(f"--exercise: not an exercise of this kit: {args.exercise} (one of: {', '.join(lock['notebooks'])})")
    jobs = discover(folder, args.exercise)
    lessons = lesson_cells()
    for job in jobs:
        prepare(job, lock, starters, args.exercise, lessons)
    tmp_root = HERE / f"{TMP_PREFIX}{uuid.uuid4().hex[:12]}"
    args.hide = [str(p) for p in (folder if folder.is_dir() else folder.parent, args.out.resolve().parent,
                                  args.feedback.resolve() if args.feedback else None, tmp_root) if p]
    todo = [j for j in jobs if j.graded is not None]
    tty = sys.stderr.isatty()
    done = len(jobs) - len(todo)
    left_out = []
    if args.exercise and todo:  # one learner's editions: an edition left as shipped is not run
        worked = [j for j in todo if not j.untouched]
        left_out = [j for j in todo if j.untouched] if worked else todo[1:]
        if not worked:  # no edition was written in: the first one is graded without a kernel, as what it is
            first = todo[0]
            first.verdict, first.passed, first.total = "FAIL", 0, len(checks[first.exercise])
            first.reason = "nothing written yet: the ✏️ cells are the starter's"
            first.checks = {check: 0 for check in checks[first.exercise]}
        jobs = [j for j in jobs if j not in left_out]
        todo = worked
    try:
        if args.exercise:  # one learner's editions of one exercise: the first PASS is the grade
            for j in todo:
                if any(other.verdict == "PASS" for other in jobs):
                    j.verdict, j.cause, j.reason = "NOT GRADED", "other-edition-passed", "another edition of this exercise is PASS"
                else:
                    run_one(j, args, tmp_root, checks[j.exercise])
            todo = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(run_one, j, args, tmp_root, checks[j.exercise]) for j in todo]
            for _ in concurrent.futures.as_completed(futures):
                done += 1
                if tty:
                    print(f"\rgraded {done} of {len(jobs)}", end="", file=sys.stderr, flush=True)
        for f in futures:
            f.result()
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)
    if tty:
        print(file=sys.stderr)
    problems = []
    touched = changed(kit_before)  # reported, never written back: a person may be editing the kit meanwhile
    if touched:
        problems.append("the kit's files changed while grading (check them with `git status`): "
                        + ", ".join(p.relative_to(ROOT).as_posix() for p in touched))
    moved = changed(submitted_before)
    if moved:
        problems.append("submitted files changed while grading: " + ", ".join(str(p) for p in moved))
    counts = Counter((j.learner, j.exercise) for j in jobs if j.exercise and not args.exercise)
    for j in jobs:
        if j.exercise and counts[(j.learner, j.exercise)] > 1:
            j.reason = "; ".join(filter(None, [j.reason, f"one of {counts[(j.learner, j.exercise)]} submissions of "
                                                         f"this exercise by {j.learner}"]))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    found = {j.exercise for j in jobs if j.exercise}
    per_check = [check_column(name, check) for name in sorted(found) for check in checks[name]]
    rows = [j.row(args.points, args.all_or_nothing) for j in jobs]
    if args.merge:
        before, rows = merged(args.out, jobs, rows)
        per_check = sorted({c for c in before + per_check if c not in COLUMNS})
    with args.out.open("w", newline="", encoding="utf-8-sig" if args.excel else "utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS + per_check, restval="", extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    if args.feedback:
        for j in jobs:
            name = re.sub(r"[^\w.-]+", "_", Path(j.exercise or j.file).stem)
            who = re.sub(r"[^\w. -]+", "_", j.learner).strip(". ") or "learner"
            where = args.feedback / who / f"{name}.md"
            where.parent.mkdir(parents=True, exist_ok=True)
            where.write_text(feedback(j, args.points, args.all_or_nothing), encoding="utf-8")
    md = args.summary or args.out.with_suffix(".md")
    md.write_text(summary(jobs) + "".join(f"\n**Warning:** {p}\n" for p in problems), encoding="utf-8")
    n = Counter(j.verdict for j in jobs)
    print(f"{len(jobs)} notebook(s): " + ", ".join(f"{n[v]} {v}" for v in VERDICTS if n[v])
          + f" → {args.out} and {md}")
    for j in jobs:
        if args.require_pass or len(jobs) == 1:
            print(f"{j.file}: {j.verdict}" + (f" — {j.passed} of {j.total} checks pass" if j.total else "")
                  + (f" ({j.reason})" if j.reason else ""))
            for c in j.failed:
                print(f"  ✗ {c}")
    for j in left_out:
        print(f"{j.file}: not graded — the starter as shipped, nothing written in this edition")
    if args.exercise:
        best = next((j for j in jobs if j.verdict == "PASS"), jobs[0] if jobs else None)
        print(f"{args.exercise}: " + (f"{best.verdict} ({best.file})" if best else "no notebook of that name found"))
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    if args.require_pass:
        passed = [j.verdict == "PASS" for j in jobs]
        if not jobs or not (any(passed) if args.exercise else all(passed)):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
