"""Every kind of kernel the test session starts talks over Unix sockets (IPC), not TCP (tests/kernel_ipc.py).

Over TCP the client picks the ports and the kernel binds them a moment later: another process can take one in
between, the kernel dies, and the tests sharing it error. Each test here starts one kind of kernel the way the suite
does and reads the transport from where it is decided: the kernel's own connection info, asked in the kernel
(nbclient, nbval in a pytest of its own, nbconvert), or the client's and the socket files it connects to.

Kinds covered: nbval in the session's process (the lessons), jupyter_client's KernelManager (and its restart),
nbclient, a pytest --nbval run the session starts (the learner's command in test_exercises.py), `jupyter nbconvert
--execute`, JupyterLab's kernels (the browser tests), tests/kernel_cells.py's kernel. The gradebook's workers
start theirs over IPC themselves (tested with the gradebook)."""

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

import kernel_ipc

pytestmark = pytest.mark.skipif(not kernel_ipc.available(), reason="Unix sockets: not on Windows")

# Run in the kernel: its transport, from the connection info it bound (ipykernel's own record of it).
ASK_THE_KERNEL = ("import json\nfrom ipykernel.connect import get_connection_info\n"
                  "print('transport:', json.loads(get_connection_info())['transport'])")
CHECK_IN_THE_KERNEL = ASK_THE_KERNEL + "\nassert json.loads(get_connection_info())['transport'] == 'ipc'"


def assert_over_ipc(info: dict):
    """The client's connection info says IPC, and each of its five sockets is a Unix socket the kernel bound."""
    assert info["transport"] == "ipc", info
    for name in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"):
        path = f"{info['ip']}-{info[name]}"
        assert len(path) < 100, f"{path}: too long for a Unix socket"
        assert stat.S_ISSOCK(os.stat(path).st_mode), path


def socket_folder_removed(info: dict, within: float = 10.0) -> bool:
    folder = Path(info["ip"]).parent
    deadline = time.monotonic() + within
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not folder.exists()


def notebook(tmp_path, code=CHECK_IN_THE_KERNEL) -> Path:
    path = tmp_path / "transport.ipynb"
    nb = new_notebook(cells=[new_code_cell(code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def test_nbval_in_this_process(tmp_path):
    from nbval.kernel import RunningKernel

    kernel = RunningKernel("python3", cwd=str(tmp_path))
    try:
        info = kernel.km.get_connection_info()
        assert_over_ipc(info)
    finally:
        kernel.stop()
    assert socket_folder_removed(info)


def test_jupyter_client_and_a_restart(tmp_path):
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3", cwd=str(tmp_path))
    try:
        before = km.get_connection_info()
        assert_over_ipc(before)
        km.restart_kernel(now=True)
        kc.wait_for_ready(timeout=60)
        after = km.get_connection_info()
        assert_over_ipc(after)
        assert after["ip"] == before["ip"]  # the same folder, kept across the restart
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert socket_folder_removed(after)


def test_nbclient(tmp_path):
    from nbclient import NotebookClient

    nb = nbformat.read(notebook(tmp_path, ASK_THE_KERNEL), as_version=4)
    NotebookClient(nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert nb.cells[0].outputs[0]["text"] == "transport: ipc\n"


def test_a_pytest_nbval_run_the_session_starts(tmp_path):
    """As tests/test_exercises.py runs the learner's command: a pytest of its own, with this process's environment."""
    notebook(tmp_path)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--disable-plugin-autoload",
                          "-p", "nbval.plugin", "--nbval-lax", "transport.ipynb"], cwd=tmp_path, text=True,
                         capture_output=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr  # the cell asserts the transport in the kernel


def test_jupyter_nbconvert_execute(tmp_path):
    notebook(tmp_path)
    run = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", "--stdout",
                          "transport.ipynb"], cwd=tmp_path, text=True, capture_output=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "".join(json.loads(run.stdout)["cells"][0]["outputs"][0]["text"]) == "transport: ipc\n"


def test_kernel_cells(tmp_path):
    from kernel_cells import NotebookKernel

    with NotebookKernel(tmp_path, dict(os.environ)) as kernel:
        assert_over_ipc(kernel.km.get_connection_info())
        cells = kernel.run(nbformat.read(notebook(tmp_path, ASK_THE_KERNEL), as_version=4))
    assert cells[0].stdout == "transport: ipc\n"


@pytest.mark.browser
def test_jupyterlab_kernels(lab):
    """The browser tests' JupyterLab: a kernel it starts writes an IPC connection file (what the server connects
    to) in the server's runtime folder, and binds those sockets."""
    kernel = lab.api("/api/kernels", method="POST", body={"name": "python3"})
    try:
        connection = lab.runtime / f"kernel-{kernel['id']}.json"
        deadline = time.monotonic() + 60
        while True:
            info = json.loads(connection.read_text())
            try:
                assert_over_ipc(info)
                break
            except (AssertionError, OSError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        lab.delete_quietly(f"/api/kernels/{kernel['id']}")
