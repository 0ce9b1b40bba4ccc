"""Running a notebook as it is committed: offline, in its own folder, with the kit's throwaway workspace.

The same run the test suite makes (nbval): HARNESS_OFFLINE=1, no .env read, no API key, no grading mode, the tools
working in a copy of workspace/ (so a build never writes into the learner's folder), and the buttons a lesson's
committed run shows pressed pressed by tests/kernel_clicker.py (nobody is at the screen). Outputs are kept as the
kernel gave them; execution times are not recorded, so a run twice writes the same bytes where the notebook's own
outputs are the same.
"""

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from tests.clean_tree import tool_root_copy  # the test suite's plumbing, as its kernels have it
from tests.kernel_clicker import write_kernel_config

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def kit_run_environment():
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="kit-editions-") as tmp:
        workspace = tool_root_copy(Path(tmp) / "workspace")
        ipython_dir = Path(tmp) / "ipython"
        write_kernel_config(ipython_dir)
        for name in ("ANTHROPIC_API_KEY", "HARNESS_GRADING", "HARNESS_SCENARIO", "HARNESS_AUTO_APPROVE"):
            os.environ.pop(name, None)
        os.environ.update(HARNESS_OFFLINE="1", PYTHON_DOTENV_DISABLED="1", HARNESS_TOOL_ROOT=str(workspace),
                          IPYTHONDIR=str(ipython_dir), KIT_TEST_IPYTHONDIR=str(ipython_dir))
        try:
            yield workspace
        finally:
            os.environ.clear()
            os.environ.update(saved)


def run(nb, path: str):
    """Run `nb` (the notebook at `path`, from the root) top to bottom; return it with its outputs."""
    with kit_run_environment():  # (a fresh workspace copy for each notebook: its scratch/ starts empty)
        os.environ["KIT_TEST_CLICKS"] = path
        client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True, record_timing=False,
                                store_widget_state=False, resources={"metadata": {"path": str((ROOT / path).parent)}})
        client.execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = joined_streams(cell.outputs)
    return nb


def joined_streams(outputs: list) -> list:
    """Consecutive prints to the same stream as one output, as JupyterLab saves them."""
    joined = []
    for output in outputs:
        last = joined[-1] if joined else None
        if output.output_type == "stream" and last is not None and last.output_type == "stream" \
                and last.name == output.name:
            last.text += output.text
        else:
            joined.append(output)
    return joined


def write(nb, path: str) -> None:
    nbformat.write(nb, ROOT / path)
