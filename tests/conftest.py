"""Fixtures shared by the files in tests/.

The browser tests (test_browser*.py) share one JupyterLab server and one headless Chromium page per test
process (under xdist: per worker). Both start when the first browser test asks for them, not before, and
stop when the session ends. Each test opens its notebooks as tabs in that page, each with a fresh kernel,
and closes them. Starting JupyterLab and Chromium once instead of once per file saves several seconds of
CPU per file.
"""

import pytest

from browser_support import booted_page, require_browser, start_lab, tool_root_copy

# tests/fixtures/ holds notebooks the browser tests open in JupyterLab; they are not lessons for nbval
# (the approval probe would wait for a click that never comes).
collect_ignore = ["fixtures"]


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """The JupyterLab server (127.0.0.1, random token) of this test process. Its kernels' tools work on a
    copy of workspace/ (HARNESS_TOOL_ROOT = lab.tool_root), so no browser test writes into the kit's own."""
    require_browser()
    tool_root = tool_root_copy(tmp_path_factory.mktemp("tool-root"))
    server = start_lab(tmp_path_factory.mktemp("jupyter"), kernel_env={"HARNESS_TOOL_ROOT": str(tool_root)})
    server.tool_root = tool_root
    try:
        yield server
    finally:
        server.stop()  # kernels too, always


@pytest.fixture(scope="session")
def browser(lab, tmp_path_factory):
    """(LabPage, NetLog): JupyterLab booted once in headless Chromium; every request of the session recorded."""
    with booted_page(lab, tmp_path_factory.mktemp("chromium-profile")) as page_and_log:
        yield page_and_log
