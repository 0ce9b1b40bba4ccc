"""One graded notebook, in a worker process of its own: it starts the notebook's kernel, runs the notebook cell by
cell, has each 🔍 CHECK judged, and prints one result line (JSON) on stdout.

    python -I grader/worker.py --worker --cell-timeout S --output-cap BYTES --sandbox bwrap|none --lang en|es
                                           [--hide=FOLDER ...] [--view=DIR] [--memory MB] [--processes N] [--disk MB]
                                           [--user UID:GID]
                                           (the graded notebook's JSON on stdin)

grader/gradebook.py starts one per notebook (`run_one`, through grader/workers.py: this command, or on Linux
the same `_worker` forked from a warm process), in the notebook's own temporary folder, with `kernel_env()` (no API
key, HARNESS_OFFLINE=1). `-I`: nothing from the kit's or the learner's folders is imported at start (a
sitecustomize.py, PYTHONPATH); this file puts the kit's root on sys.path itself. The worker
- talks to the kernel over Unix sockets (no TCP port another process could take) and, with `--sandbox bwrap`,
  starts it inside bubblewrap (grader/sandbox.py: the learner's view of the kit, `--view`, and the limits),
  its kernel spec in a private folder of this worker's that no sandbox shows;
- roots the tools the judge hands to the learner's functions in that private folder's copy of the workspace
  (grader/judge.py's `root_tools`), never in the kit's own workspace/;
- runs each cell with a per-cell timeout and a per-cell output cap; a cell that times out or kills the kernel
  stops the notebook there;
- runs each check in this process (grader/judge.py: the kernel only answers the judge's questions);
- before any cell runs and after every check, runs the seal (`SEAL`): a fresh snippet that fingerprints the
  grader's objects in the kernel; `seal_diff` says what changed between two seals.

What it does NOT do: decide a verdict (grader/gradebook.py's `judge` reads the result line: the checks' reports,
the seals, the cells that stopped), read or refuse a submission (grader/submissions.py), or protect itself from
a kernel that runs outside the sandbox. It dies with the gradebook (Linux: PR_SET_PDEATHSIG), and its kernel with it.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXERCISES = ROOT / "exercises"
if __name__ == "__main__":  # started as a file (`python -I grader/worker.py`): the kit's root on no path yet
    sys.path.insert(0, str(ROOT))

from grader import cgroups  # noqa: E402
from grader.sandbox import (DISK, IPC, IPC_BYTES, MEMORY, PROCESSES, SHM_BYTES, ipc_argv, ipc_outside,  # noqa: E402
                            kernel_spec, sandbox_argv)
from grader.limits import OutputBudget  # noqa: E402
from grader.submissions import source_of  # noqa: E402

RESULT_MARK = "GRADEBOOK-RESULT "
GROUPS: list[str] = []  # this worker's kernel's cgroup folders (grader/cgroups.py), where one could be made


def kernel_env() -> dict:
    """The worker's and its kernel's environment: no API key, offline, grading, nothing imported from a writable
    folder."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "HARNESS_", "PYTEST_", "JPY_", "GITHUB_TOKEN"))}
    env.update(HARNESS_OFFLINE="1", HARNESS_GRADING="1", HARNESS_AUTO_APPROVE="reject",
               PYTHON_DOTENV_DISABLED="1", PYTHONDONTWRITEBYTECODE="1")
    for name in ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONSAFEPATH"):
        env.pop(name, None)  # nothing imported from a writable folder: harness_lib is the installed (editable) kit
    env["PYTHONNOUSERSITE"] = "1"  # nor a usercustomize from the user's site-packages
    return env


# ---- the seal: the grader's objects, fingerprinted in the kernel, compared here -----------------------------

SEAL = r'''
def __gradebook_seal(kit):
    import builtins, hashlib, json, os, sys, types
    if kit not in sys.path:
        sys.path.insert(0, kit)
    import asyncio, anthropic, anthropic.resources.messages, grading
    import harness_lib, harness_lib.approval, harness_lib.client, harness_lib.loop, harness_lib.tools
    import harness_lib.trace, harness_lib.valves, harness_kit.offline, harness_kit.offline.api
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
            if isinstance(v, types.ModuleType) and v is sys.modules.get(f"{m.__name__}.{name}"):
                continue  # a submodule, bound to its package on import: a learner's import of one is no change
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
        n.split(".")[0] in ("grading", "checks", "harness_lib", "harness_kit", "harness_ui", "asyncio") or n.startswith(sdk)))
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
    # each fingerprint as a digest: the worker compares them key by key (seal_diff); the code itself was ~300 KB
    # printed after every check (~0.1 CPU-s a notebook, in the kernel, the worker and the result line)
    print("\x00SEAL" + json.dumps({k: hashlib.sha256(str(v).encode()).hexdigest()[:32] for k, v in out.items()}))
'''


def stop_group(pid: int) -> None:
    """SIGKILL for `pid` and, when it leads a process group of its own (a kernel), for that whole group. `pid` must be
    a child not yet reaped (alive, or a zombie): a reaped child's pid may be another process's by now."""
    with contextlib.suppress(OSError):
        if hasattr(os, "killpg") and os.getpgid(pid) == pid:  # (no process groups on Windows)
            os.killpg(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))


def how_it_ended(km, sandbox: str) -> str:
    """" (killed by SIGABRT)", " (exit status 3)": how the kernel's process ended, as far as this side can tell
    (bwrap reports a child killed by signal n as exit status 128 + n); "" when it cannot tell. A limit that kills
    outright is named: SIGXFSZ is the --disk limit on one file (Python itself ignores it: a kernel gets OSError)."""
    process = getattr(getattr(km, "provisioner", None), "process", None)
    try:
        code = process.wait(timeout=2) if process is not None else None
    except Exception:  # noqa: BLE001 - still running, or not a process we can wait for: nothing to say
        return ""
    if code is None:
        return ""
    number = -code if code < 0 else code - 128 if sandbox == "bwrap" and 128 < code < 160 else None
    if number is None:
        return f" (exit status {code})"
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    if name == "SIGKILL" and cgroups.oom_killed(GROUPS):
        return " (killed by SIGKILL: its cgroup's memory limit, --memory and the sandbox's files together)"
    return f" (killed by {name}{': the disk limit (--disk: one file)' if name == 'SIGXFSZ' else ''})"


def seal_call(nonce: str) -> str:
    """The snippet run in the kernel: the pristine fingerprint function, defined afresh, called, then removed."""
    return (SEAL + f"\n__gradebook_seal({str(EXERCISES)!r})  # {nonce}\n"
            "del __gradebook_seal\n")


def seal_diff(first: dict, now: dict) -> list[str]:
    return sorted(k for k in first if first.get(k) != now.get(k))


# ---- one notebook, in a worker process (which starts and owns the kernel) ---------------------------------

def _worker(args, graded: str) -> dict:
    """Run the graded notebook (`graded`, its JSON) cell by cell; return the report the result line carries."""
    # imported here, not at the top: the gradebook's own process imports this module (kernel_env, seal_diff) and
    # never needs the notebook machinery nor the judge
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    nb = nbformat.from_dict(json.loads(graded))
    # The checks run here, in this process (grader/judge.py), never in the kernel: the grader is imported in a
    # thread while the kernel starts
    from grader import judge as judging

    # this worker's private folder, which no sandbox shows: the kernel's launch spec, and the root of the tools the
    # judge hands to the learner's functions (a copy of the kit's workspace/, never the kit's own)
    private = tempfile.mkdtemp(prefix="kit-worker-")
    atexit.register(shutil.rmtree, private, True)
    ready = threading.Thread(target=judging.prepare, args=(args.lang, Path(private, "workspace")), daemon=True)
    ready.start()
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

    class Capped(NotebookClient):  # what it keeps of the kernel's messages is bounded (grader/limits.py)
        def process_message(self, msg, cell, cell_index):
            kept = self._budget.admit(msg, cell_index, seal=kinds[cell_index][0] == "seal")
            if kept is None or msg["msg_type"].startswith("comm"):  # counted, never handled: the worker renders no
                return None  # widget (nbclient's handler raised on a widget without a model module: the row ERROR)
            return super().process_message(kept, cell, cell_index)

    # Only an error's name and message are read here, never its traceback: the kernel prints the shortest one
    # (xmode Minimal) instead of formatting a coloured, annotated traceback for every failed check (~0.1 s each).
    km = sockets = None
    ipc = [None, None]  # the folder of the kernel's sockets: as this process reaches it, as the kernel sees it
    if os.name == "posix":
        # The kernel talks to this process over Unix sockets, not TCP: no port can be taken by another process between
        # the moment it is picked and the moment the kernel binds it, and the sandbox has no network to share.
        # In a short folder of their own: a socket's path has at most ~100 characters.
        from jupyter_client import AsyncKernelManager

        sockets = tempfile.mkdtemp(prefix="kit-ipc-")
        atexit.register(shutil.rmtree, sockets, True)
        ipc[:] = [sockets, sockets]
        name, manager = "python3", AsyncKernelManager
        if args.sandbox == "bwrap":  # the kernel runs inside bubblewrap
            name = "kit-sandboxed"
            spec = Path(private, "kernels", name)  # (not in the notebook's folder: the kernel would read it there)
            spec.mkdir(parents=True)
            mb, info = 2 ** 20, Path(private, "bwrap-info.json")
            bwrap = sandbox_argv(Path.cwd(), args.hide, Path(args.view) if args.view else None,
                                 disk=args.disk * mb) + ipc_argv(sockets)
            user = tuple(int(n) for n in args.user.split(":")) if args.user else None
            # the OS's own accounting, where a cgroup can be made (grader/cgroups.py): the kernel's memory and its
            # tmpfs files (their inodes' kernel memory too) together, and its processes
            # (named for this run's folder: the gradebook sweeps what is left of them, grader/cgroups.py's sweep)
            GROUPS[:] = cgroups.make(f"kit-{Path.cwd().parent.name}-{uuid.uuid4().hex[:8]}", processes=args.processes,
                                     memory=args.memory * mb + 2 * args.disk * mb + SHM_BYTES + IPC_BYTES)[0]
            # one try at the end, no waiting: the sandbox's first process is still a zombie then, most often, and its
            # cgroup busy until the host's init reaps it; the gradebook sweeps what is left (half a second a notebook
            # was spent here waiting, and failing, its slot held meanwhile)
            atexit.register(cgroups.remove, list(GROUPS), 0)
            argv = kernel_spec(spec, bwrap, memory=args.memory * mb, processes=args.processes, disk=args.disk * mb,
                               info=info, user=user, groups=GROUPS)
            # interrupts go as messages: a signal would reach bwrap, which does not pass it on to the kernel
            (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "sandboxed",
                                                          "language": "python", "interrupt_mode": "message"}))
            os.environ["JUPYTER_PATH"] = private

            class manager(AsyncKernelManager):  # noqa: N801 - the sockets are in the sandbox: reached from outside
                def client(self, **kwargs):
                    ipc[0] = ipc_outside(info)
                    self.ip = f"{ipc[0]}/kernel"
                    return super().client(**kwargs)

            ipc[1] = IPC
        km = manager(kernel_name=name, transport="ipc", ip=f"{ipc[1]}/kernel",
                     connection_file=str(Path(sockets) / "kernel.json"))
    client = Capped(nb, km=km, timeout=args.cell_timeout, allow_errors=True, kernel_name="python3",
                    store_widget_state=False,  # (no notebook is written back: a widget's state is never kept)
                    extra_arguments=["--InteractiveShell.xmode=Minimal",
                                     # the kit being graded first on sys.path, once the kernel has started (not
                                     # PYTHONPATH: Python imports a sitecustomize.py from there at start-up)
                                     f"--IPKernelApp.exec_lines=import sys; sys.path.insert(1, {str(ROOT)!r})"],
                    resources={"metadata": {"path": os.getcwd()}})
    client._budget = OutputBudget(args.output_cap)
    report = {"cells": [], "seals": []}

    def kill(*_):
        try:
            # The kernel's whole process group, not its pid alone: jupyter_client starts it in a session of its own,
            # and a sandboxed kernel killed while bwrap is still setting up leaves bwrap's inner process (pid 1 of
            # the sandbox, in that group, not yet bound to die with its parent) waiting forever.
            if client.km is not None and client.km.has_kernel and client.km.provisioner.process.returncode is None:
                stop_group(client.km.provisioner.process.pid)  # (not reaped yet: its pid is still the kernel's)
            # and whatever this process started that the kernel manager does not hold yet (a kernel being launched
            # when the signal came): on Linux, every child, found by its parent's pid
            for entry in os.scandir("/proc") if sys.platform == "linux" else ():
                try:
                    stat = Path(entry.path, "stat").read_text()
                    if entry.name.isdigit() and int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                        stop_group(int(entry.name))
                except (OSError, ValueError, IndexError):
                    pass
            for folder in (sockets, private):  # (os._exit skips atexit)
                if folder:
                    shutil.rmtree(folder, ignore_errors=True)
            cgroups.remove(GROUPS, wait=0.5)
        finally:
            os._exit(3)

    signal.signal(signal.SIGTERM, kill)
    if sys.platform == "linux":  # dies with the gradebook (Ctrl-C, a kill): no notebook goes on running unseen
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() == 1:  # the gradebook was gone already
            kill()
    kernel = {}
    if args.sandbox != "bwrap":  # no sandbox to hide the kit's workspace/scratch/: the kernel's tools get a copy
        tools_root = Path(private, "kernel-workspace")  # (HARNESS_TOOL_ROOT: harness_lib.tools.DEFAULT_ROOT)
        shutil.copytree(ROOT / "workspace", tools_root, symlinks=True, ignore=shutil.ignore_patterns("scratch"))
        (tools_root / "scratch").mkdir()
        kernel["env"] = dict(os.environ, HARNESS_TOOL_ROOT=str(tools_root))
    stopped = None
    with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kernel):
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
                outcome = _judged(client, judging, call, cell_id, index, ipc, args.cell_timeout)
                stopped = outcome.pop("stops", None) or outcome.get("why")
                outcome["capped"] = client._budget.capped.get(index, "")  # what the kernel printed meanwhile
                report["cells"].append(outcome)
                continue
            try:
                client.execute_cell(cell, index)
            except CellTimeoutError:
                stopped = f"cell '{cell_id}' still running after {client.timeout:g} s: stopped there"
                report["cells"].append({"id": cell_id, "kind": kind, "status": "timeout", "why": stopped})
                continue
            except DeadKernelError:
                stopped = f"the kernel died in cell '{cell_id}'{how_it_ended(client.km, args.sandbox)}"
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
                "text": text[-20000:], "capped": client._budget.capped.get(index, "")})
    return report


def _judged(client, judging, call: str, cell_id: str, index: int, ipc: list, cell_timeout: float) -> dict:
    """One check, judged in this process: the kernel runs only the line that answers the judge (in place of the
    check cell), and the check's report comes from the judge. A kernel still busy after the judge gave up stops
    the notebook there, as a cell that times out does."""
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    listener, address = judging.listen(*ipc)
    token = uuid.uuid4().hex  # the secret serve() sends first (grader/judge.py's SERVE)
    deadline = time.monotonic() + cell_timeout
    cell_ended, verdict = threading.Event(), {}

    def hear():
        try:
            verdict.update(judging.hear(listener, call, cell_id, deadline, cell_ended, token))
        except BaseException as err:  # noqa: BLE001 - a judge that fails is a check that fails, never a pass
            verdict.update(id=cell_id, kind="check", status="error", ename=type(err).__name__,
                           evalue=f"the grader failed: {err}", text="", capped=False)

    judge = threading.Thread(target=hear, daemon=True)
    judge.start()
    stopped = None
    client.timeout = cell_timeout + 10  # the judge's deadline comes first; then the kernel has 10 s to finish
    try:
        client.execute_cell(nbformat.v4.new_code_cell(judging.SERVE.format(address=address, token=token)), index,
                            store_history=False)  # (its token is never in the kernel's In / _ih)
    except CellTimeoutError:
        stopped = ("timeout", f"cell '{cell_id}' still running after {cell_timeout:g} s: stopped there")
    except DeadKernelError:
        ended = how_it_ended(client.km, "bwrap" if ipc[1] == IPC else "")
        stopped = ("died", f"the kernel died in cell '{cell_id}'{ended}")
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


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -I grader/worker.py",
                                description="Run one graded notebook (JSON on stdin) and print its result line; "
                                "started by grader/gradebook.py, one per notebook.")
    p.add_argument("--worker", action="store_true", required=True, help="run as the gradebook's worker")
    p.add_argument("--cell-timeout", type=float, default=120, help="seconds per cell (default 120)")
    p.add_argument("--output-cap", type=int, default=1_000_000, help="bytes of output kept per cell (default 1 MB)")
    p.add_argument("--sandbox", choices=("bwrap", "none"), default="none", help="run the kernel in bubblewrap")
    p.add_argument("--hide", action="append", default=[], help="a folder the sandbox replaces by an empty one")
    p.add_argument("--lang", default="en", help="the notebook's language (the checks' words)")
    p.add_argument("--view", help="the learner's view of the kit, mounted where the kit is (grader/sandbox.py)")
    p.add_argument("--memory", type=int, default=MEMORY // 2 ** 20, help="MB of address space per kernel process")
    p.add_argument("--processes", type=int, default=PROCESSES, help="processes (RLIMIT_NPROC) of the kernel")
    p.add_argument("--disk", type=int, default=DISK // 2 ** 20, help="MB of the notebook's folder, of its /tmp, "
                   "and of any one file it writes")
    p.add_argument("--user", metavar="UID:GID", help="start the sandbox as this user (a grader running as root: "
                   "grader/sandbox.py's kernel_user)")
    return p


def main(argv=None) -> int:
    print(RESULT_MARK + json.dumps(_worker(parser().parse_args(argv), sys.stdin.read())))
    return 0


if __name__ == "__main__":
    main()
    # The result line is out and the kernel stopped: the cleanups registered with atexit run, then the process ends
    # without Python's teardown of its ~3,600 modules (~0.5 s the gradebook waited for, the notebook's slot held).
    sys.stdout.flush()
    atexit._run_exitfuncs()
    os._exit(0)
