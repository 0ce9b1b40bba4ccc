"""How the gradebook starts a notebook's worker (grader/worker.py): `run`, a `python -I` subprocess; or, on Linux
when there are two notebooks or more, `WarmWorkers`: each worker forked from one process that imported the checks
once. Both give back (exit status, the worker's result line).

Why fork: `python -I grader/worker.py` spends about 1.5 s of CPU importing before it grades anything (the
anthropic SDK, which the checks use, is most of it). The warm process (multiprocessing's forkserver) imports the
worker, the notebook machinery and the checks once (PRELOAD, then grader/warm.py), and each notebook's worker is
forked from it and runs worker.py's `_worker`, as the subprocess does. multiprocessing skips a preload it cannot
import without a word (each worker then imports it itself: the same grades, ~1 CPU-s more a notebook): `missing`
asks the warm process, and the gradebook says so on stderr.

What a forked worker has as the subprocess does:
- the environment: kernel_env(), set before the warm process starts, so no module read the teacher's API key or
  HARNESS_* settings while it was imported;
- the working folder (the notebook's temporary folder) and a session of its own;
- the import path: the kit's root and grader/ first, never the working folder, so a file that a learner's
  kernel writes there is never imported by the worker.

What is not the same, and how it is handled:
- The modules were imported once, when grading began: an edit of the kit after that is not seen by the workers.
  The gradebook reports every kit file that changed while it graded.
- Only on Linux: fork after these imports is not safe on macOS, and Windows has no fork. Elsewhere, and for a single
  notebook, the gradebook starts `python -I` workers.
- A worker's parent is the warm process, which does not end while a worker runs: each worker watches a lifeline
  pipe that only the gradebook holds open, and stops (and stops its kernel) when the gradebook is gone.
"""

from __future__ import annotations

import atexit
import gc
import json
import multiprocessing
import os
import signal
import site
import subprocess
import sys
import threading
import time
from pathlib import Path

from .worker import RESULT_MARK, kernel_env

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# What every worker would import, imported once: the notebook machinery, the judge, the checks (the SDK), and what
# a worker imported on its own before: IPython (jupyter_client finds its kernel specs through IPython.paths), the
# offline model (the checks' first client), and the SDK's trace propagation (its first request); then grader/warm.py
PRELOAD = ["nbformat", "nbclient", "jupyter_client", "grader.worker", "grader.judge", "exercises.grading",
           "IPython.paths", "harness_kit.offline.api", "opentelemetry.propagate", "grader.warm"]


def run(workdir: Path, options: list[str], graded: str, timeout: float) -> tuple[int | None, str]:
    """(exit status, stdout) of `python -I grader/worker.py OPTIONS` in `workdir`; TimeoutError, it stopped."""
    # -I: nothing from the kit's or the learner's folders is imported at start (a sitecustomize.py, PYTHONPATH)
    proc = subprocess.Popen([sys.executable, "-I", str(HERE / "worker.py"), *options], cwd=workdir, env=kernel_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(graded, timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.terminate()
        try:
            proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
        raise TimeoutError(f"no result after {timeout:g} s") from None
    return proc.returncode, out


def available() -> bool:
    return sys.platform == "linux"


def import_path() -> list[str]:
    """sys.path as `python -I grader/worker.py` has it: the kit's root, grader/, then Python's own folders.
    Left out: '' and this process's working folder, PYTHONPATH's folders, and the user's site-packages."""
    user = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    skip = {os.path.realpath(p) for p in (os.getcwd(), ROOT, HERE,
                                          *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep)))}
    rest = [p for p in sys.path if p and os.path.isabs(p) and os.path.realpath(p) not in skip
            and not (user and p.startswith(user))]
    return [str(ROOT), str(HERE), *rest]


class WarmWorkers:
    """The warm process, started at once; `run` forks one worker from it."""

    def __init__(self) -> None:
        from multiprocessing import forkserver  # (here: it is of no use where there is no fork)

        self.ctx = multiprocessing.get_context("forkserver")
        self.env, self.path = kernel_env(), import_path()
        # The workers' lifeline: only this process holds its sending end, so when this process ends, however it ends,
        # every worker reads the end of it and stops (its parent is the warm process, which outlives its workers)
        self.lifeline, self._alive = self.ctx.Pipe(duplex=False)
        saved_env, saved_dir = dict(os.environ), os.getcwd()
        os.environ.clear()  # what the warm process imports reads the workers' environment; it imports from the kit
        # (its sys.path is not passed on). The forkserver skips a module it cannot import without a word, and each
        # worker would then import it (the checks and the SDK: ~1.3 CPU-s a notebook): missing() says so
        os.environ.update(self.env, PYTHONPATH=os.pathsep.join(self.path[:2]))
        os.chdir(ROOT)
        try:
            self.ctx.set_forkserver_preload(PRELOAD)
            forkserver.ensure_running()
        finally:
            os.chdir(saved_dir)
            os.environ.clear()
            os.environ.update(saved_env)
        missing = self.missing()  # (multiprocessing skips a preload it cannot import without a word)
        if missing:
            print(f"warning: the gradebook's warm process could not import {', '.join(missing)}: each notebook's "
                  "worker imports it itself (slower, the same grades)", file=sys.stderr)

    def missing(self) -> list[str]:
        """The modules of PRELOAD that the warm process has not imported (a process forked from it says)."""
        reader, writer = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=unloaded, args=(writer, PRELOAD))
        proc.start()
        writer.close()
        try:
            return reader.recv() if reader.poll(60) else list(PRELOAD)
        except (EOFError, OSError):
            return list(PRELOAD)
        finally:
            reader.close()
            proc.join(10)

    def run(self, workdir: Path, options: list[str], graded: str, timeout: float) -> tuple[int | None, str]:
        """(exit status, result line or "") of one worker, forked for `graded` (the notebook's JSON) in `workdir`,
        with the worker's command-line `options`. Raises TimeoutError after `timeout` s, the worker stopped."""
        reader, writer = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=forked, args=(str(workdir), options, graded, self.env, self.path, writer,
                                                     self.lifeline))
        deadline = time.monotonic() + timeout
        proc.start()
        writer.close()
        try:
            out = reader.recv() if reader.poll(timeout) else None
        except (EOFError, OSError):  # it ended without a result line
            out = ""
        finally:
            reader.close()
        proc.join(max(0.0, deadline - time.monotonic()) if out is not None else 0)
        if out is None or proc.exitcode is None:
            stop(proc)
            if out is None:
                raise TimeoutError(f"no result after {timeout:g} s")
        return proc.exitcode, out


def stop(proc) -> None:
    """SIGTERM (the worker stops its kernel), then SIGKILL for its whole session."""
    proc.terminate()
    proc.join(10)
    if proc.exitcode is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
        proc.join()


def forked(workdir: str, options: list[str], graded: str, env: dict, path: list[str], conn, lifeline) -> None:
    """The forked worker: a session of its own, in `workdir`, with the worker's environment and import path; it
    stops when the gradebook is gone (`lifeline`)."""
    gc.freeze()  # what it inherited is never collected here: no collection writes into (and so copies) those pages
    threading.Thread(target=watch, args=(lifeline,), daemon=True).start()
    os.setsid()
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update(env)
    sys.path[:] = path
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # as the subprocess: nothing read, nothing printed but the result line (sent on `conn`)
        os.dup2(null, fd)
    from grader import worker

    try:
        report = worker._worker(worker.parser().parse_args(options), graded)
        conn.send(RESULT_MARK + json.dumps(report))
    finally:
        atexit._run_exitfuncs()  # the kernel's socket folder: a forked process ends without running atexit


def unloaded(conn, names: list[str]) -> None:
    conn.send([name for name in names if name not in sys.modules])


def watch(lifeline) -> None:
    """Wait for the gradebook's end of `lifeline` to close, then SIGTERM this worker (it stops its kernel)."""
    try:
        lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os.kill(os.getpid(), signal.SIGTERM)
