"""Test plumbing: every kernel the test session starts talks to its client over Unix sockets (IPC), not TCP.

Why: over TCP, jupyter_client picks five free ports in the client, closes them, and writes them into the kernel's
connection file; the kernel binds them a moment later. Any other process (another kernel's client connecting, another
test worker) can take one of those ports in between: the kernel dies with "Address already in use", and every test
that shares it errors (about one full run in 25). A Unix socket is a file in a folder of its own: nobody else can
take it.

How, for each way the session starts a kernel:
- In the session's pytest processes (tests/conftest.py calls `use()`) and in every pytest process they start (the
  learner's command that tests/test_exercises.py runs, nbval in test_live_mode.py: tests/conftest.py sets
  PYTEST_PLUGINS to this module and puts a copy of it on PYTHONPATH), `use()` makes IPCProvisioner
  jupyter_client's default kernel provisioner. nbval, nbclient and jupyter_client's KernelManager all start their
  kernels through it.
- `jupyter nbconvert --execute` and other Jupyter applications read the session's Jupyter configuration folder
  (JUPYTER_CONFIG_DIR, written by `write_config`): `c.KernelManager.transport = "ipc"`, in a folder of its own.
- JupyterLab (tests/browser_support.py) is started with `--KernelManager.transport=ipc`.
- tests/kernel_cells.py and the gradebook's workers ask for IPC themselves (left as they are here).
The kernelspec itself names no provisioner, so a process that cannot import this module (the gradebook's workers
run `python -I`) still finds the session's `python3` kernel. NOT handled: a test that starts pytest with a PYTHONPATH
of its own (instead of adding to the session's) gets "Error importing plugin kernel_ipc": keep the session's entry.

Socket paths must stay under ~100 characters: each kernel's sockets go in a folder of its own directly under the
system's temporary folder ("kit-ipc-XXXXXXXX/kernel-N"), removed when the kernel is shut down for good.
Not on Windows (os.name != "posix"): there the kernels keep TCP.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

NAME = "kit-ipc"
PREFIX = "kit-ipc-"
_OWNED: set[str] = set()  # the socket folders IPCProvisioner made (a restarted kernel keeps its folder)


def available() -> bool:
    return os.name == "posix"


def socket_folder() -> str:
    """A new folder for one kernel's sockets, with a short path."""
    return tempfile.mkdtemp(prefix=PREFIX)


def _provisioner_class():
    from jupyter_client.provisioning import LocalProvisioner

    class IPCProvisioner(LocalProvisioner):
        """jupyter_client's LocalProvisioner, with the kernel's transport switched from TCP to IPC before the
        connection file is written (a kernel manager that already asked for IPC is left as it is)."""

        async def pre_launch(self, **kwargs):
            km = self.parent
            if km is not None and km.transport == "tcp":
                folder = socket_folder()
                _OWNED.add(folder)
                km.transport = "ipc"
                km.cache_ports = False  # (TCP's port cache: not for sockets)
                km.ip = os.path.join(folder, "kernel")
            return await super().pre_launch(**kwargs)

        async def cleanup(self, restart: bool = False) -> None:
            await super().cleanup(restart=restart)
            km = self.parent
            if restart or km is None or km.transport != "ipc":
                return
            folder = str(Path(km.ip).parent)
            if folder in _OWNED:
                _OWNED.discard(folder)
                shutil.rmtree(folder, ignore_errors=True)

    return IPCProvisioner


def __getattr__(name):  # the entry point's target, made when first asked for (jupyter_client imported then)
    if name == "IPCProvisioner":
        cls = globals()["IPCProvisioner"] = _provisioner_class()
        return cls
    raise AttributeError(name)


def use() -> None:
    """Make IPCProvisioner the default provisioner of this process's kernels (those whose kernelspec names none)."""
    if not available():
        return
    from importlib.metadata import EntryPoint

    from jupyter_client.provisioning import KernelProvisionerFactory

    factory = KernelProvisionerFactory.instance()
    factory.provisioners[NAME] = EntryPoint(name=NAME, value=f"{__name__}:IPCProvisioner",
                                            group=KernelProvisionerFactory.GROUP_NAME)
    factory.default_provisioner_name = NAME


def write_config(folder: Path) -> None:
    """A Jupyter configuration folder for the session's Jupyter applications: their kernels over IPC."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "jupyter_config.py").write_text(
        "# The test session's Jupyter configuration (tests/kernel_ipc.py): kernels over Unix sockets, not TCP.\n"
        "import atexit, os, shutil, tempfile\n"
        f"_sockets = tempfile.mkdtemp(prefix={PREFIX!r})  # short: a socket's path has at most ~100 characters\n"
        "atexit.register(shutil.rmtree, _sockets, True)\n"
        "c.KernelManager.transport = 'ipc'\n"
        "c.KernelManager.ip = os.path.join(_sockets, 'kernel')\n")


def pytest_configure(config):
    """As a pytest plugin (PYTEST_PLUGINS, set by the test session for the pytest processes it starts)."""
    use()
