"""Test plumbing: the suite's Python kernels are forked from one warm process instead of started cold.

Why: the suite starts about 70 kernels. A cold kernel spends ~1.6 s of CPU importing ipykernel, the anthropic SDK
and jsonschema before it runs a cell; on a 2-core machine that alone was over a third of the test command's time.
A forked kernel starts with those modules already imported (~0.06 s of CPU to its first cell's answer).

How:
- `start()` (tests/conftest.py calls it once per test session, on Linux) starts this file as a server on a Unix
  socket, and writes a `python3` kernelspec whose argv is tests/kernel_launcher.py into a folder that goes first
  on JUPYTER_PATH. Everything that starts a kernel in the session (nbval, nbclient, jupyter_client, JupyterLab, in
  any process the session starts) finds that kernelspec.
- The server imports the heavy modules once, then forks a child for each launcher that connects. The child takes
  the launcher's stdin/stdout/stderr, cwd, environment, sys.path and arguments, and runs ipykernel exactly as
  `python -m ipykernel_launcher` would. harness_lib and the notebooks' own code are imported by the child, fresh.
- The launcher stays in place of the kernel for whoever started it: interrupts and kills reach the kernel through
  it (see kernel_launcher.py).

What is not the same as a cold kernel, and how it is handled:
- Modules that read environment variables when imported read the server's. A launcher whose start-up variables
  (PYTHON*, locale, the few the warm modules read: `read_at_start`) differ gets a cold kernel; so does one whose
  sys.path would import another copy of a module the server has (another ipykernel on PYTHONPATH, a
  jsonschema.py in the notebook's folder: `shadowed`).
- Caches the warm-up filled (`warm_up`: the SDK's validators, ipykernel's command-line parser) start full.
- The kernel's parent process is the server, so ipykernel's "parent exited" check only notices the server exiting.
- Not on macOS or Windows (fork after these imports is not safe there): those run the ordinary kernelspec.
test_kernel_forks.py checks the above and starts one kernel the ordinary way. KIT_TEST_COLD_KERNELS=1 turns the
whole thing off; KIT_TEST_KERNEL_LOG=FILE keeps the server's log of which kernels were forked and which were not.
"""

import importlib
import json
import os
import select
import signal
import socket
import sys
import threading
from pathlib import Path

LAUNCHER = Path(__file__).with_name("kernel_launcher.py")
START_ENV = SET_BY_IMPORTS = None  # the server's environment before its imports; what they added to it
# (the second line: what a kernel's shell, and harness_kit.env, import when they start: ~10 ms of CPU per kernel)
WARM_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "anthropic", "httpx2", "jsonschema", "ipywidgets",
                "IPython.core.debugger", "IPython.core.completerlib", "IPython.extensions.storemagic", "sqlite3",
                "tornado.platform.asyncio", "dotenv")


# become_kernel() applies these; PYTHONPATH and PYTHONNOUSERSITE (the gradebook's kernels: no user site) only change
# sys.path, which the child takes from the launcher, and `shadowed` sends a launcher that would import another copy of
# a warm module to a cold kernel.
APPLIED_IN_CHILD = ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")
# PYTHON* but not read at start: python-dotenv reads it when load_dotenv() is called, from the child's environment.
NOT_AT_START = ("PYTHON_DOTENV_DISABLED",)


def read_at_start(env):
    """The variables Python reads when it starts (PYTHON*, locale) and those the warm modules read when imported.
    A launcher whose values differ from the server's gets a cold kernel (except APPLIED_IN_CHILD)."""
    names = ("ANTHROPIC_LOG", "JUPYTER_WIDGETS_ECHO", "IPYTHON_SUPPRESS_CONFIG_ERRORS",
             "JUPYTER_ALLOW_INSECURE_WRITES", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE")
    return {name: value for name, value in env.items()
            if name in names or name.startswith(("PYDEVD_", "DEBUGPY_"))
            or (name.startswith("PYTHON") and name not in APPLIED_IN_CHILD + NOT_AT_START)}


def available():
    return sys.platform == "linux" and os.environ.get("KIT_TEST_COLD_KERNELS") != "1"


def start(folder):
    """Start the server, write the kernelspec under `folder`, and point this process's environment at both.
    Returns the server's Popen (stop it with `stop`)."""
    import subprocess

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    address = str(folder / "kernels.sock")
    with open(folder / "server.log", "wb") as log:  # the kernels write to their launchers' stdout and stderr
        server = subprocess.Popen([sys.executable, __file__, address], stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    spec = folder / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(LAUNCHER), "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "metadata": {"debugger": True},
    }, indent=1))
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(folder / "jupyter"),
                                                              os.environ.get("JUPYTER_PATH")]))
    os.environ["KIT_TEST_KERNEL_SERVER"] = address
    return server


def stop(server):
    server.terminate()
    try:
        server.wait(10)
    except Exception:
        server.kill()


# --- the server --------------------------------------------------------------------------------------------

def serve(address):
    """Accept launchers until the process that started us exits. Returns only in a forked child: its request."""
    parent = os.getppid()
    before = dict(os.environ)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address)
    listener.listen(64)  # launchers that connect while the imports below run wait in the backlog
    for name in WARM_MODULES:
        importlib.import_module(name)
    warm_up()
    global START_ENV, SET_BY_IMPORTS
    START_ENV = before
    SET_BY_IMPORTS = {k: v for k, v in os.environ.items() if before.get(k) != v}  # e.g. pydevd's PYDEVD_USE_FRAME_EVAL
    import gc
    gc.collect()
    gc.freeze()  # the children's garbage collector leaves the imported modules' pages shared
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the system reaps the children: no zombies
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    while os.getppid() == parent:
        if not select.select([listener], [], [], 1.0)[0]:
            continue
        conn, _ = listener.accept()
        try:
            message, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
            while not message.endswith(b"\n"):
                more = conn.recv(1 << 20)
                if not more:
                    raise ConnectionError("launcher went away")
                message += more
            request = json.loads(message)
        except (OSError, ValueError, ConnectionError):
            conn.close()
            continue
        refused = refusal(request, fds)
        with open(address + ".log", "a") as log:
            print(f"refused: {refused}" if refused else "forked", request["cwd"], file=log)
        if refused:
            conn.sendall(b"refused\n")
            conn.close()
            for fd in fds:
                os.close(fd)
            continue
        pid = os.fork()
        if pid == 0:
            listener.close()
            return conn, fds, request
        conn.close()
        for fd in fds:
            os.close(fd)
    return None


def warm_up():
    """What every kernel does first, done once here: its caches are then the children's (~0.2 s of CPU each).
    - the SDK builds its request and response types' validators on first use: one request, answered in-process;
    - ipykernel parses its command line and loads its debugger support when it starts."""
    import asyncio

    import anthropic
    import httpx2
    from ipykernel import kernelapp

    tool_use = {"type": "tool_use", "id": "toolu_01", "name": "get_time", "input": {}}
    reply = {"id": "msg_01", "type": "message", "role": "assistant", "model": "warm-up", "stop_reason": "tool_use",
             "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
             "content": [{"type": "text", "text": "warm"}, tool_use]}

    async def one_request():
        transport = httpx2.MockTransport(lambda request: httpx2.Response(200, json=reply))
        async with anthropic.AsyncAnthropic(api_key="warm-up", http_client=httpx2.AsyncClient(transport=transport)) as client:
            await client.messages.create(
                model="warm-up", max_tokens=16, system="s",
                tools=[{"name": "get_time", "description": "d", "input_schema": {"type": "object", "properties": {}}}],
                messages=[{"role": "user", "content": "hi"}, {"role": "assistant", "content": [tool_use]},
                          {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01",
                                                        "content": "t", "is_error": False}]}])

    asyncio.run(one_request())
    importlib.import_module("ipykernel.debugger")
    kernelapp.IPKernelApp().parse_command_line(["-f", "warm-up.json"])


def refusal(request, fds):
    """Why this launcher must start a cold kernel, or '' if a fork will do."""
    if (request["executable"], request["prefix"]) != (sys.executable, sys.prefix):
        return "another Python"
    if len(fds) != 3:
        return "no stdin/stdout/stderr"
    if threading.active_count() > 1:
        return "the server runs a thread (a fork would copy its locks, not the thread)"
    shadows = shadowed(request["path"])
    if shadows:  # e.g. another ipykernel on PYTHONPATH, or a jsonschema.py in the kernel's folder
        return "its sys.path finds other copies of " + ", ".join(shadows[:5])
    theirs, ours = read_at_start(request["env"]), read_at_start(START_ENV)
    if theirs != ours:
        return "start-up variables differ: " + ", ".join(sorted(k for k in {*theirs, *ours} if theirs.get(k) != ours.get(k)))
    return ""


def shadowed(path):
    """The modules imported here that a cold kernel, with sys.path = path, would import from another file."""
    from importlib.machinery import PathFinder
    names = sorted(name for name, module in sys.modules.items()
                   if "." not in name and name != "__main__" and getattr(module.__spec__, "has_location", False))
    found = {name: PathFinder.find_spec(name, path) for name in names}
    # (not found at all is fine: e.g. debugpy imports its vendored pydevd from a folder it puts on sys.path briefly)
    return [name for name, spec in found.items() if spec is not None and spec.origin != sys.modules[name].__file__]


def become_kernel(conn, fds, request):
    """In the forked child: take the launcher's place, then run ipykernel as `python -m ipykernel_launcher`."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.setsid()  # a process group of its own: the launcher passes signals on to the whole group
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    # The start-up variables that can still be applied after the fork (sys.path is set below).
    if request["env"].get("PYTHONUNBUFFERED"):
        sys.stdout.reconfigure(write_through=True)
        sys.stderr.reconfigure(write_through=True)
    # grader/gradebook.py sets it for its kernels: they fork too where the test session runs without it.
    sys.dont_write_bytecode = bool(request["env"].get("PYTHONDONTWRITEBYTECODE"))
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"] | SET_BY_IMPORTS)
    sys.path[:] = request["path"]
    sys.argv[:] = [str(Path(sys.modules["ipykernel"].__file__).parent.parent / "ipykernel_launcher.py"),
                   *request["argv"]]
    try:
        conn.sendall(b"started %d\n" % os.getpid())
    except OSError:  # the launcher was killed while this was forked: no kernel to stand in for, and no clean-up
        os._exit(0)  # to run (an exception here spun at exit, in the server's inherited exit handlers)
    threading.Thread(target=obey_launcher, args=(conn,), daemon=True).start()
    if sys.path and sys.path[0] == "":
        del sys.path[0]
    from ipykernel import kernelapp
    quiet_tcp_warning()
    # Two settings ipykernel reads from the environment when it is imported (here: in the server, long before).
    kernelapp.IPKernelApp.launch_instance(parent_handle=int(os.environ.get("JPY_PARENT_PID") or 0),
                                          interrupt=int(os.environ.get("JPY_INTERRUPT_EVENT") or 0))


def quiet_tcp_warning():
    """Drop ipykernel's "Kernel is running over TCP without encryption" warning, which every kernel started over
    TCP on 127.0.0.1 logs, in this kernel process only: the session's output then shows what matters. (The session's
    kernels talk over Unix sockets, tests/kernel_ipc.py; a kernel started over TCP all the same, e.g. by a process
    that does not load kernel_ipc, would log it.)"""
    import logging

    logging.getLogger("IPKernelApp").addFilter(
        lambda record: not str(record.msg).startswith("Kernel is running over TCP without encryption"))


def obey_launcher(conn):
    """Signals the launcher received go to this kernel's process group; when it is gone, so is the group."""
    buffer = b""
    while True:
        try:
            data = conn.recv(64)
        except OSError:
            data = b""
        if not data:
            os.killpg(os.getpgrp(), signal.SIGKILL)
            return
        buffer += data
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            os.killpg(os.getpgrp(), int(line))


if __name__ == "__main__":
    child = serve(sys.argv[1])
    if child is not None:
        become_kernel(*child)
