"""Run notebooks' code cells in one long-lived Jupyter kernel, one notebook after another, as nbval runs them.

tests/test_exercises.py grades ~80 edited copies of the exercise solutions. Starting a kernel for each copy (and
importing the SDK in it) cost more than running the copy's cells, and dozens of kernels starting at once on 2 cores
is how a copy once failed at its first cell. Here one kernel runs copy after copy. Before each, `NotebookKernel.run`
gives the kernel what a new one would have: an empty namespace (as after `%reset -f`), the working folder, environment and
sys.path it started with, and no module of the kit loaded (harness_lib, harness_kit, the exercises' grading and checks), so every copy
imports those anew and cannot see what the copy before it changed in them. Only third-party modules (the SDK,
pydantic, httpx) stay imported.

Each code cell runs as nbval runs it: in order, without storing history, and a cell that raises does not stop the
next one. What is kept per cell: its id, what it printed to stdout, and its error (ename, evalue) if it raised.
The traceback is not kept, so the kernel formats it in IPython's Minimal mode (one line), as grader/gradebook.py's
kernels do: a coloured, annotated traceback costs ~0.1 s of CPU per failed check, and wrong answers fail many.

A cell still running after `timeout` seconds, or a kernel that dies, raises KernelTrouble naming the cell; the
kernel is then replaced by a new one, so the next notebook runs in a sound kernel.

`CodeKernel` is the small sibling for a few lines at a time that keeps each error's traceback lines (a one-line
hint of the kit's is one line there): tests/test_restart_hint.py and tests/test_grade_anywhere.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from queue import Empty

from jupyter_client.manager import KernelManager

KIT_MODULES = ("harness_lib", "harness_kit", "harness_ui", "grading", "checks")  # imported anew for every notebook (with their submodules)
NBVAL_TAGS = {"nbval-skip", "raises-exception", "nbval-raises-exception", "nbval-check-output"}  # nbval acts on these


@dataclass
class Cell:
    id: str
    stdout: str
    error: tuple[str, str] | None  # (ename, evalue) when the cell raised

    @property
    def raised(self) -> bool:
        return self.error is not None


class KernelTrouble(RuntimeError):
    """A cell did not finish in time, or the kernel died."""


class NotebookKernel:
    """One kernel (python3) started in `cwd` with exactly the environment `env`. Use as a context manager."""

    def __init__(self, cwd: Path, env: dict[str, str], timeout: float = 120):
        self.cwd, self.env, self.timeout = str(cwd), dict(env), timeout
        self.km = self.kc = None

    def __enter__(self):
        self._start()
        return self

    def __exit__(self, *exc):
        self._stop()

    def _start(self):
        # Over Unix sockets (IPC), not TCP: no port can be taken by another process between the moment the manager
        # picks it and the moment the kernel binds it, and ipykernel does not warn about unencrypted TCP.
        self.sockets = tempfile.mkdtemp(prefix="kit-ipc-")  # short: a socket's path has at most ~100 characters
        self.km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(self.sockets) / "kernel"))
        self.km.start_kernel(cwd=self.cwd, env=self.env, extra_arguments=["--InteractiveShell.xmode=Minimal"],
                             stderr=subprocess.DEVNULL)  # as nbval: the kernel's own log is noise
        self.kc = self.km.client()
        self.kc.start_channels()
        try:
            self.kc.wait_for_ready(timeout=120)
        except RuntimeError:
            self._stop()
            raise
        out = self._execute("import json, os, sys\n"
                            "print(json.dumps([os.getcwd(), dict(os.environ), sys.path]))", "(start)")
        if out.error:
            raise KernelTrouble(f"the new kernel could not run its first line: {out.error}")
        self.initial = json.loads(out.stdout)  # [cwd, environment, sys.path] as the kernel started

    def _stop(self):
        if self.kc is not None:
            self.kc.stop_channels()
        if self.km is not None:
            self.km.shutdown_kernel(now=True)
            shutil.rmtree(self.sockets, ignore_errors=True)
        self.km = self.kc = None

    def _fresh(self):
        """What a new kernel would have, except the third-party modules it already imported (see the docstring).

        The namespace is emptied as `%reset -f` empties it, without the two full garbage collections that magic
        runs (0.2 s of CPU per notebook, with the SDK loaded)."""
        cwd, env, path = self.initial
        code = (
            "import os, sys\n"
            f"os.chdir({cwd!r})\n"
            f"os.environ.clear()\nos.environ.update({env!r})\n"
            f"sys.path[:] = {path!r}\n"
            f"for name in [m for m in sys.modules if m.split('.')[0] in {KIT_MODULES!r}]:\n"
            "    del sys.modules[name]\n"
            "shell = get_ipython()\n"
            "for name in [n for n in shell.user_ns if n not in shell.user_ns_hidden]:\n"
            "    del shell.user_ns[name]\n"
        )
        out = self._execute(code, "(reset)")
        if out.error:
            raise KernelTrouble(f"resetting the kernel failed: {out.error}")

    def run(self, nb: dict) -> list[Cell]:
        """Every code cell of the notebook `nb` (a dict, as json.load gives it), in order, in a fresh namespace."""
        tagged = [c.get("id") for c in nb["cells"] if NBVAL_TAGS & set(c.get("metadata", {}).get("tags", []))]
        if tagged:
            raise ValueError(f"cells {tagged} carry a tag nbval would act on ({', '.join(sorted(NBVAL_TAGS))}); "
                             "this runner runs every cell and keeps every error: grade such a notebook with nbval")
        try:
            self._fresh()
            return [self._execute(_source(c), c.get("id") or f"number {i + 1}")
                    for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]
        except KernelTrouble:
            self._stop()
            self._start()  # a sound kernel for the next notebook
            raise

    def _execute(self, code: str, cell_id: str) -> Cell:
        """Run one cell the way nbval does (store_history=False, allow_stdin=False), and gather its outputs."""
        msg_id = self.kc.execute(code, store_history=False, allow_stdin=False, stop_on_error=False)
        deadline = time.monotonic() + self.timeout
        stdout, error = [], None
        while True:
            if time.monotonic() > deadline:
                raise KernelTrouble(f"cell '{cell_id}' was still running after {self.timeout:g} s")
            try:
                msg = self.kc.get_iopub_msg(timeout=1)
            except Empty:
                if not self.km.is_alive():
                    raise KernelTrouble(f"the kernel died while running cell '{cell_id}'") from None
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream" and content["name"] == "stdout":
                stdout.append(content["text"])
            elif kind == "error":
                error = (content["ename"], content["evalue"])
            elif kind == "status" and content["execution_state"] == "idle":
                break
        self._reply(msg_id, cell_id)
        return Cell(cell_id, "".join(stdout), error)

    def _reply(self, msg_id: str, cell_id: str):
        """Take the cell's execute_reply off the shell channel (it is sent before the kernel goes idle)."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                if self.kc.get_shell_msg(timeout=1)["parent_header"].get("msg_id") == msg_id:
                    return
            except Empty:
                if not self.km.is_alive():
                    raise KernelTrouble(f"the kernel died after running cell '{cell_id}'") from None
        raise KernelTrouble(f"no reply from the kernel for cell '{cell_id}'")


def _source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


class CodeKernel:
    """One kernel for a few lines of code at a time, keeping what NotebookKernel does not: the error's traceback
    lines as the kernel formats them (a one-line hint is one line there). Started in `cwd` with environment `env`."""

    def __init__(self, cwd: Path, env: dict[str, str], timeout: float = 120):
        self.timeout = timeout
        self.km = KernelManager(kernel_name="python3")
        self.km.start_kernel(env=env, cwd=str(cwd))
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)

    def run(self, code: str) -> tuple[str, list[str]]:
        """(what the code printed, its error's traceback lines)."""
        msg_id, out, tb = self.kc.execute(code), [], []
        while True:
            try:
                msg = self.kc.get_iopub_msg(timeout=self.timeout)
            except Empty:
                raise AssertionError(f"no answer from the kernel to {code!r}") from None
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                tb = msg["content"]["traceback"]
            elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return "".join(out), tb

    def close(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)
