"""The test session's forked kernels (tests/kernel_forks.py) behave as the kernels they stand in for:
the launcher's folder, environment and sys.path; killing the launcher ends them; a kernel whose sys.path would
import another copy of a module starts cold, as the stock `python3` kernelspec would start it.

Interrupts are checked where a learner sends them: JupyterLab's Stop button interrupts a forked kernel in
tests/test_browser.py (test_stop_while_the_buttons_wait_rejects_at_once), through the launcher."""

import os
import time
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

import kernel_forks

pytestmark = pytest.mark.skipif(not os.environ.get("KIT_TEST_KERNEL_SERVER"),
                                reason="kernels are forked on Linux only (tests/kernel_forks.py)")

REPO = Path(__file__).resolve().parent.parent
PROBE = "import os, sys\nprint(os.getpid(), os.getcwd(), os.environ.get('KIT_PROBE'), sys.path[0], sep='|')"


def started(cwd, ksm=None, **env):
    km = KernelManager(kernel_name="python3", **({"kernel_spec_manager": ksm} if ksm else {}))
    km.start_kernel(cwd=str(cwd), env={**os.environ, **env})
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def run(kc, code, timeout=30):
    out, errors = [], []

    def keep(msg):
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            errors.append(msg["content"]["ename"])

    reply = kc.execute_interactive(code, timeout=timeout, output_hook=keep)
    return reply["content"]["status"], "".join(out).strip(), errors


def stopped(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def gone(pid, within=10.0):
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def test_a_forked_kernel_has_the_launchers_folder_environment_and_path(tmp_path):
    km, kc = started(tmp_path, KIT_PROBE="from the caller")
    try:
        status, out, _ = run(kc, PROBE)
        pid, cwd, probe, first = out.split("|")
        assert status == "ok"
        assert int(pid) != km.provisioner.process.pid, "forked: the kernel is not the process that was started"
        assert (cwd, probe, first) == (str(tmp_path), "from the caller", str(tmp_path))
        assert run(kc, "import harness_lib; print(harness_lib.__file__)")[1] == str(REPO / "harness_lib" / "__init__.py")
    finally:
        stopped(km, kc)


@pytest.mark.parametrize("value", ["", "1"])
def test_a_forked_kernel_writes_bytecode_as_its_launchers_environment_says(tmp_path, value):
    """grader/gradebook.py starts its kernels with PYTHONDONTWRITEBYTECODE=1, whether the session has it or not:
    still a forked kernel, with Python's own reading of the variable (set and not empty: write no bytecode)."""
    km, kc = started(tmp_path, PYTHONDONTWRITEBYTECODE=value)
    try:
        status, out, _ = run(kc, PROBE + "\nprint(sys.dont_write_bytecode)")
        probe, flag = out.splitlines()
        assert status == "ok"
        assert int(probe.split("|")[0]) != km.provisioner.process.pid, "forked: the kernel is not the process started"
        assert flag == str(value != "")
    finally:
        stopped(km, kc)


def test_killing_the_launcher_ends_the_forked_kernel(tmp_path):
    km, kc = started(tmp_path)
    try:
        pid = int(run(kc, PROBE)[1].split("|")[0])
        km._kill_kernel()  # SIGKILL to the launcher's process group: the kernel must not outlive it
        assert gone(pid), "the forked kernel outlived its launcher"
    finally:
        stopped(km, kc)


def test_a_folder_with_its_own_copy_of_a_warm_module_gets_an_ordinary_kernel(tmp_path):
    """The launcher's fallback is the ordinary kernel: the command of the stock `python3` kernelspec."""
    ksm = KernelSpecManager()
    ours = str(Path(os.environ["KIT_TEST_KERNEL_SERVER"]).parent)
    ksm.kernel_dirs = [d for d in ksm.kernel_dirs if not d.startswith(ours)]
    stock = ksm.get_kernel_spec("python3").argv
    assert stock[1:] == ["-m", "ipykernel_launcher", "-f", "{connection_file}"], stock

    (tmp_path / "jsonschema.py").write_text("WHERE = 'the notebook folder'\n")
    km, kc = started(tmp_path)
    try:
        status, out, _ = run(kc, PROBE + "\nimport jsonschema\nprint(jsonschema.WHERE)\nprint(sys.argv[0])")
        assert status == "ok", out
        first, where, launched = out.splitlines()
        assert int(first.split("|")[0]) == km.provisioner.process.pid, "cold: the started process is the kernel"
        assert where == "the notebook folder"
        assert Path(launched).name == "ipykernel_launcher.py"  # `python -m ipykernel_launcher`, as the stock spec
    finally:
        stopped(km, kc)


def test_the_start_up_variables_that_force_a_cold_kernel():
    env = {"PYTHONHASHSEED": "0", "PYTHONPATH": "x", "PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHON_DOTENV_DISABLED": "1", "ANTHROPIC_LOG": "debug", "PYDEVD_DEBUG": "1", "LC_ALL": "C",
           "HOME": "/elsewhere"}
    assert kernel_forks.read_at_start(env) == {"PYTHONHASHSEED": "0", "ANTHROPIC_LOG": "debug", "PYDEVD_DEBUG": "1",
                                               "LC_ALL": "C"}
