"""Helpers for the browser tests: a private JupyterLab server, headless Chromium, and a notebook driver.

Nothing here talks to the outside world: the server listens on 127.0.0.1 with a random token and is
told not to fetch news or check for updates; Chromium is started with flags that send every
non-loopback request to a dead proxy, and every request the page makes is recorded so the test can
assert that none left 127.0.0.1.

Three choices that matter: JupyterLab's toolbar says "idle" before the kernel even exists, so the
kernel's state is read from the server's /api/sessions; Playwright's sync API stalls the page's
requests while the script sits outside a Playwright call, so waits use page.wait_for_timeout, never
time.sleep; and outside traffic is blocked by Chromium flags, not by routing requests in Playwright.
Why the gate itself waits the way it does: docs/architecture.md, "Why the approval gate is async".

A notebook's Run All is done once per test session (run_all_once): the first test that asks runs it and reads
everything any browser test asserts on (RunAll: cells, outputs, the run inspector's pictures in both themes); the
others read that record. So the browser test files share the work, whichever runs first, and each still works run
alone. Likewise a tab a test leaves open (park) is taken by the next test that works in that notebook (take_tab):
the approval tests click in lesson 05's Run All tab, the restart test restarts lesson 02's re-run tab; run alone,
each opens its own. An inspected notebook's pictures are read in the page's theme, then in the other one, which the
page keeps (one theme switch per notebook, not two).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import kernel_clicker
from clean_tree import tool_root_copy  # noqa: F401 - the tests import it from here

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / ".test-output"  # the one folder a test run writes into the kit (git-ignored; docs/development.md)
ARTIFACTS = OUTPUT / "screenshots"
# A screenshot is for the person finding out what went wrong: the whole notebook when a Run All's check found a
# problem, the window when a test's step failed (NotebookView.screenshot_if_failing). Steps that went well take none
# (each costs Chromium and Playwright ~0.1-0.2 CPU-s; a run took ~45 that nobody looked at, nor asserted on), unless
# KIT_TEST_SCREENSHOTS=1: then every step's, to look at what the tests saw.
EVERY_SCREENSHOT = os.environ.get("KIT_TEST_SCREENSHOTS") == "1"
# Debian's Chromium: its old headless shell (package chromium-headless-shell, the headless build Playwright itself
# drives) when installed, else the full browser in its headless mode. The shell is the same Blink and V8 without the
# browser's UI layer: ~20% less CPU for the same pages. .ci/run installs both.
CHROMIUM_CHOICES = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = next((p for p in CHROMIUM_CHOICES if os.access(p, os.X_OK)), CHROMIUM_CHOICES[-1])
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--js-flags=--no-opt",  # no optimizing JIT: a page open for seconds gains nothing from it (~10% of Chromium's CPU)
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--proxy-server=http://127.0.0.1:9",  # anything that is not loopback goes to a closed port
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]
# JupyterLab user settings for the test server: no autosave (a run must never rewrite a notebook in the
# repo), every cell in the DOM (so outputs and full screenshots can be read), no news, no update checks.
LAB_SETTINGS = {
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
}


# --- skip locally, fail on CI ---------------------------------------------------------------------


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as err:
        return f"playwright is not importable ({err}); pip install -r requirements-dev.txt"
    if not os.access(CHROMIUM, os.X_OK):
        return (f"none of {', '.join(CHROMIUM_CHOICES)} found; apt-get install chromium-headless-shell chromium "
                "(Playwright's own browser is not used)")
    return None


def require_browser() -> None:
    """Skip loudly when there is no browser -- but fail when CI=true, so CI never skips silently."""
    skip_loudly_unless_ci(browser_missing(), "BROWSER TESTS NOT RUN", "the browser tests must run on CI")


def skip_loudly_unless_ci(reason: str | None, what: str, why_on_ci: str) -> None:
    """Nothing when `reason` is None; else skip with one line (also in pytest's warnings summary, not only with -rs),
    or fail when CI=true, saying `why_on_ci`."""
    if reason is None:
        return
    message = f"{what}: {reason}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{message} (CI=true: {why_on_ci})", pytrace=False)
    warnings.warn(message, stacklevel=3)
    pytest.skip(message)


# --- the JupyterLab server ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    """A running JupyterLab: its base URL, token, process, and the private folders it uses."""

    url: str
    token: str
    proc: subprocess.Popen
    home: Path
    log_path: Path
    tool_root: Path | None = None  # HARNESS_TOOL_ROOT of its kernels, when the caller set one
    runtime: Path | None = None  # its runtime folder: connection files and the kernels' Unix sockets

    def api(self, path: str, method: str = "GET", body: dict | None = None):
        request = urllib.request.Request(
            f"{self.url}{path}",
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no server log)"

    def start_kernel(self, notebook: str, kernel: str = "python3") -> None:
        """Create the notebook's session (starting its kernel) unless it exists; JupyterLab then joins it.

        Calling this before the page boots overlaps the kernel's start with JupyterLab's.
        """
        self.api("/api/sessions", method="POST", body={
            "path": notebook, "type": "notebook", "name": Path(notebook).name, "kernel": {"name": kernel},
        })

    def delete_quietly(self, path: str) -> None:
        try:
            self.api(path, method="DELETE")
        except (OSError, urllib.error.URLError, ValueError):
            pass  # already gone, or the server is stopping

    def stop(self) -> None:
        """Stop the kernels and the server; whatever survives a polite stop is killed by pid."""
        import psutil  # an ipykernel dependency

        try:
            children = psutil.Process(self.proc.pid).children(recursive=True)  # the kernels
        except psutil.Error:
            children = []
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the server then shuts all its kernels down, in parallel
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for child in children:
            try:
                child.kill()
            except psutil.Error:
                pass
        shutil.rmtree(self.home, ignore_errors=True)
        if self.runtime is not None:
            shutil.rmtree(self.runtime, ignore_errors=True)


def start_lab(
    home: Path,
    kernel_env: dict[str, str] | None = None,
    timeout: float = 60,
) -> Lab:
    """Start JupyterLab on 127.0.0.1 serving the repo, with private runtime/config/settings folders.

    `kernel_env` is added to the server's environment, which its kernels inherit (a switch for one
    notebook only goes through NotebookView.set_kernel_env). The python3 kernelspec and the widgets labextension live under sys.prefix (the venv), which stays on
    Jupyter's search path even though the user-level config/data/runtime folders point into `home`.
    """
    home.mkdir(parents=True, exist_ok=True)
    dirs = {name: home / name for name in ("config", "data", "settings", "workspaces", "ipython", "mpl", "checkpoints")}
    for d in dirs.values():
        d.mkdir(exist_ok=True)
    # The kernels talk to the server over Unix sockets (--KernelManager.transport=ipc: no TCP port to lose to another
    # process before the kernel binds it, see tests/kernel_ipc.py), named after their connection files in the runtime
    # folder: a short one, since a socket's path has at most ~100 characters.
    dirs["runtime"] = Path(tempfile.mkdtemp(prefix="kit-lab-"))
    for plugin, values in LAB_SETTINGS.items():
        target = dirs["settings"] / f"{plugin}.jupyterlab-settings"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))

    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTER", "HARNESS_")) and k not in ("ANTHROPIC_API_KEY", "KIT_TEST_CLICKS")}
    if os.environ.get("KIT_TEST_KERNEL_SERVER"):  # the test session's forked kernels (tests/kernel_forks.py)
        env["JUPYTER_PATH"] = os.environ["JUPYTER_PATH"]
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTERLAB_SETTINGS_DIR=str(dirs["settings"]),
        JUPYTERLAB_WORKSPACES_DIR=str(dirs["workspaces"]),
        IPYTHONDIR=str(dirs["ipython"]),
        MPLCONFIGDIR=str(dirs["mpl"]),
        JUPYTER_PLATFORM_DIRS="1",
        PYTHONUNBUFFERED="1",
        HARNESS_OFFLINE="1",
    )
    env.update(kernel_env or {})
    kernel_clicker.write_kernel_config(dirs["ipython"])  # idle until a Run All names its notebook (RunAll below)

    port, token = free_port(), secrets.token_hex(16)
    cmd = [
        sys.executable, "-m", "jupyter", "lab", "--no-browser",
        "--ip=127.0.0.1", f"--port={port}", "--port-retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={REPO}",
        "--allow-root",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: run commands instead of key presses
        f"--FileCheckpoints.checkpoint_dir={dirs['checkpoints']}",  # not .ipynb_checkpoints/ in the repo
        "--KernelManager.transport=ipc",
    ]
    log_path = home / "server.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    lab = Lab(url=f"http://127.0.0.1:{port}", token=token, proc=proc, home=home, log_path=log_path,
              runtime=dirs["runtime"])

    deadline = time.monotonic() + timeout  # no browser yet, so plain sleeping is fine here
    while True:
        if proc.poll() is not None:
            lab.stop()
            raise RuntimeError(f"JupyterLab exited with {proc.returncode}:\n{lab.log_tail()}")
        try:
            lab.api("/api/status")
            return lab
        except (OSError, urllib.error.URLError, ValueError):
            pass
        if time.monotonic() > deadline:
            lab.stop()
            raise RuntimeError(f"JupyterLab did not answer /api/status within {timeout} s:\n{lab.log_tail()}")
        time.sleep(0.1)


# --- Chromium -------------------------------------------------------------------------------------


@dataclass
class NetLog:
    """Every URL the browser asked for (requests and websockets)."""

    urls: list[str] = field(default_factory=list)

    def attach(self, context) -> None:
        context.on("request", lambda request: self.urls.append(request.url))
        context.on("page", self._watch_websockets)

    def _watch_websockets(self, page) -> None:
        page.on("websocket", lambda ws: self.urls.append(ws.url))

    def outside_loopback(self) -> list[str]:
        allowed_schemes = {"data", "blob", "about"}
        return [
            u for u in self.urls
            if urlsplit(u).scheme not in allowed_schemes and urlsplit(u).hostname != "127.0.0.1"
        ]


def launch_chromium(playwright, user_data_dir: Path, netlog: NetLog):
    """Headless Debian Chromium with a fresh profile; every request is recorded in `netlog`."""
    context = playwright.chromium.launch_persistent_context(
        str(user_data_dir),
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_FLAGS,
        viewport={"width": 1280, "height": 900},
        service_workers="block",
    )
    netlog.attach(context)
    return context


# --- JupyterLab in the page ----------------------------------------------------------------------

_APP = "window.jupyterapp"
STDOUT_OUTPUT = ".jp-RenderedText[data-mime-type='application/vnd.jupyter.stdout']"
STDERR_OUTPUT = ".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr']"
# How often a wait re-checks its condition in the page. (Playwright's default re-checks on every animation
# frame, which keeps headless Chromium drawing frames the whole time: ~4x the CPU of this, for nothing.)
POLL_MS = 50


def _find(path: str) -> str:
    """JS expression: the open document widget (NotebookPanel) of `path`, or undefined."""
    return f"Array.from({_APP}.shell.widgets('main')).find(w => w.context && w.context.path === {json.dumps(path)})"


class LabPage:
    """One browser page running JupyterLab; notebooks are opened as tabs in it (one app boot only)."""

    def __init__(self, page, lab: Lab):
        self.page, self.lab = page, lab

    def boot(self, timeout_ms: int = 60_000) -> "LabPage":
        self.page.goto(f"{self.lab.url}/lab?token={self.lab.token}")
        self.page.wait_for_function(
            f"() => {_APP} && {_APP}.commands.hasCommand('docmanager:open')"
            f" && {_APP}.commands.hasCommand('notebook:run-all-cells')",
            timeout=timeout_ms, polling=POLL_MS,
        )
        self.page.evaluate(f"async () => {{ await {_APP}.restored; }}")  # the layout is restored
        return self

    def open_notebook(self, path: str, kernel: str = "python3", timeout_ms: int = 60_000) -> "NotebookView":
        """Open `path` in a tab, connected to a kernel of kernelspec `kernel` (see Lab.start_kernel)."""
        self.lab.start_kernel(path, kernel)
        self.page.evaluate(f"() => void {_APP}.commands.execute('docmanager:open', {{path: {json.dumps(path)}}})")
        self.page.wait_for_function(
            f"() => {{ const w = {_find(path)}; const k = w && w.sessionContext.session?.kernel;"
            " return k && k.connectionStatus === 'connected' && k.status === 'idle'"
            " && w.content.widgets.length > 0; }",
            timeout=timeout_ms, polling=POLL_MS,
        )
        panel_id = self.page.evaluate(f"() => {{ const w = {_find(path)}; {_APP}.shell.activateById(w.id); return w.id; }}")
        view = NotebookView(self, path, panel_id)
        view.wait_kernel_idle(timeout_ms)
        return view


class NotebookView:
    """One notebook tab: run cells through JupyterLab commands, read prompts and outputs from the DOM."""

    def __init__(self, lab_page: LabPage, path: str, panel_id: str):
        self.page, self.lab, self.path, self.panel_id = lab_page.page, lab_page.lab, path, panel_id
        self._js = _find(path)

    def kernel_state(self) -> str | None:
        for session in self.lab.api("/api/sessions"):
            if session["path"] == self.path and session.get("kernel"):
                return session["kernel"]["execution_state"]
        return None

    def wait_kernel_idle(self, timeout_ms: int = 60_000, settle_polls: int = 2) -> None:
        """Poll the server until the notebook's kernel reports idle `settle_polls` times in a row, 50 ms apart.

        (The toolbar says "idle" before the kernel even exists, so the server is asked.)
        """
        deadline, idle_seen = time.monotonic() + timeout_ms / 1000, 0
        while True:
            if time.monotonic() > deadline:
                raise AssertionError(f"kernel of {self.path} not idle after {timeout_ms} ms "
                                     f"(state {self.kernel_state()!r})\n{self.lab.log_tail()}")
            idle_seen = idle_seen + 1 if self.kernel_state() == "idle" else 0
            if idle_seen >= settle_polls:
                return
            self.page.wait_for_timeout(50)  # never time.sleep: Playwright's sync API would stall

    # cells -----------------------------------------------------------------------------------------

    def cell(self, index: int):
        return self.page.locator(f"#{self.panel_id} .jp-Notebook .jp-Cell").nth(index)

    def cells_info(self) -> list[dict]:
        """Per cell, from the notebook model: type, tags, execution count, error outputs ("ename: evalue").

        (JupyterLab renders an error output like stderr, so errors are read from the model, not the DOM.)
        """
        return self.page.evaluate(
            f"() => {self._js}.content.widgets.map(c => {{ const code = c.model.type === 'code'; return {{"
            " type: c.model.type, tags: c.model.getMetadata('tags') || [],"
            " count: code ? c.model.executionCount : null,"
            " errors: code ? c.model.outputs.toJSON().filter(o => o.output_type === 'error')"
            "   .map(o => `${o.ename}: ${o.evalue}`) : [] }; })"
        )

    def index_of_tag(self, tag: str) -> int:
        indexes = [i for i, c in enumerate(self.cells_info()) if tag in c["tags"]]
        if len(indexes) != 1:
            raise AssertionError(f"{self.path}: expected exactly one cell tagged {tag!r}, found {len(indexes)}")
        return indexes[0]

    def command(self, name: str, index: int | None = None) -> None:
        """Run a notebook command on this notebook (after making cell `index` the only selected one)."""
        select = f"nb.content.activeCellIndex = {index}; nb.content.deselectAll();" if index is not None else ""
        self.page.evaluate(
            f"() => {{ const nb = {self._js}; {_APP}.shell.activateById(nb.id); {select}"
            f" void {_APP}.commands.execute({json.dumps(name)}); }}"
        )

    def run_cell(self, index: int) -> None:
        self.command("notebook:run-cell", index)

    def run_all_above(self, index: int) -> None:
        self.command("notebook:run-all-above", index)

    def set_kernel_env(self, env: dict[str, str]) -> None:
        """Set environment variables in this notebook's running kernel (a silent execute, no output).

        One kernelspec serves every notebook: a switch goes to the kernel that runs the notebook, so it
        cannot be lost to a session the server reuses for the same path.
        """
        code = f"import os as _os; _os.environ.update({env!r}); del _os"
        self.page.evaluate(
            f"async () => {{ const k = {self._js}.sessionContext.session.kernel;"
            f" await k.requestExecute({{code: {json.dumps(code)}, silent: true, store_history: false}}).done; }}"
        )

    def run_all(self, timeout_ms: int = 120_000) -> bool:
        """Run All and wait for the command to finish (it stops at an error). False: still running.

        The page awaits the command's own promise (no polling while the cells run), or `timeout_ms`."""
        return self.page.evaluate(
            f"async ms => {{ const nb = {self._js}; {_APP}.shell.activateById(nb.id); nb.__runAll = 'running';"
            f" const done = {_APP}.commands.execute('notebook:run-all-cells').then("
            " ok => { nb.__runAll = ok ? 'ok' : 'failed'; }, err => { nb.__runAll = String(err); });"
            " let timer; const late = new Promise(resolve => { timer = setTimeout(resolve, ms); });"
            " await Promise.race([done, late]); clearTimeout(timer); return nb.__runAll !== 'running'; }",
            timeout_ms,
        )

    def click_toolbar(self, item: str) -> None:
        """Click this notebook's own toolbar button `item` (e.g. "interrupt", the Stop button), as a person would."""
        self.page.locator(f"#{self.panel_id} .jp-Toolbar [data-jp-item-name={json.dumps(item)}]").first.click()

    def prompt(self, index: int) -> str:
        return self.cell(index).locator(".jp-InputPrompt").inner_text().strip()

    def output_text(self, index: int) -> str:
        area = self.cell(index).locator(".jp-Cell-outputArea")
        return area.inner_text() if area.count() else ""

    def stdout_text(self, index: int) -> str:
        """Only what the cell printed (not widget text)."""
        texts = self.cell(index).locator(".jp-Cell-outputArea " + STDOUT_OUTPUT).all_inner_texts()
        return "".join(texts)

    def outputs(self, index: int | None = None) -> list[dict] | dict:
        """What the page shows of each cell (of cell `index` only, when given), read in one call: "text", the
        output area's text (widgets included), as output_text(); "stdout", what the cell printed, as
        stdout_text(); "stderr", each stderr output's text."""
        cells = f"{self._js}.content.widgets" + (f".slice({index}, {index + 1})" if index is not None else "")
        shown = self.page.evaluate(
            f"() => {cells}.map(c => {{"
            " const area = c.node.querySelector('.jp-Cell-outputArea');"
            " const texts = (root, sel) => root ? Array.from(root.querySelectorAll(sel), e => e.innerText) : [];"
            f" return {{ text: area ? area.innerText : '', stdout: texts(area, {json.dumps(STDOUT_OUTPUT)}).join(''),"
            f" stderr: texts(c.node, {json.dumps(STDERR_OUTPUT)}) }}; }})"
        )
        return shown if index is None else shown[0]

    def wait_widgets_rendered(self, timeout_ms: int = 10_000) -> bool:
        """Wait until no widget placeholder ("Loading widget...") is left. False: some never rendered."""
        try:
            self.page.wait_for_function(
                f"() => !document.getElementById({json.dumps(self.panel_id)}).innerText.includes('Loading widget')",
                timeout=timeout_ms, polling=POLL_MS,
            )
            return True
        except Exception as err:  # playwright's TimeoutError
            if "Timeout" not in type(err).__name__:
                raise
            return False

    def wait_executed(self, indexes, timeout_ms: int = 60_000) -> None:
        """Wait until each code cell in `indexes` shows an execution count and the kernel is idle."""
        wanted = json.dumps(list(indexes))
        self.page.wait_for_function(
            f"() => {{ const nb = {self._js}; return {wanted}.every(i => {{ const c = nb.content.widgets[i];"
            " return c.model.type !== 'code' || (c.model.executionCount !== null"
            " && !c.node.querySelector('.jp-InputPrompt').textContent.includes('*')); }); }",
            timeout=timeout_ms, polling=POLL_MS,
        )
        self.wait_kernel_idle(timeout_ms)

    def close(self) -> None:
        """Close the tab without saving (autosave is off) and shut its kernel down.

        The shutdown (~2 s, the server waits for the kernel) runs in a thread, not awaited;
        Lab.stop() kills whatever is left at the end.
        """
        self.page.evaluate(f"() => {{ const nb = {self._js}; if (nb) nb.dispose(); }}")
        sessions = [s["id"] for s in self.lab.api("/api/sessions") if s["path"] == self.path]
        for session_id in sessions:
            threading.Thread(target=self.lab.delete_quietly, args=(f"/api/sessions/{session_id}",), daemon=True).start()

    @contextmanager
    def screenshot_if_failing(self, path: Path):
        """Run the block; if it fails, the window is saved to `path` first (and with KIT_TEST_SCREENSHOTS=1, also when
        it passes: EVERY_SCREENSHOT)."""
        try:
            yield
        except BaseException:
            try:
                self.screenshot(path)
            except Exception:  # (the page is gone, say): the block's own failure is the one to report
                pass
            raise
        if EVERY_SCREENSHOT:
            self.screenshot(path)

    def screenshot(self, path: Path, whole_notebook: bool = False) -> None:
        """Save a PNG; with whole_notebook the viewport first grows to the notebook's full height."""
        path.parent.mkdir(parents=True, exist_ok=True)
        if not whole_notebook:
            self.page.screenshot(path=str(path))
            return
        scroller = f"document.querySelector('#{self.panel_id} .jp-WindowedPanel-outer')"  # the notebook's scroll box
        height = self.page.evaluate(f"() => {scroller}.scrollHeight - {scroller}.clientHeight")
        size = self.page.viewport_size
        self.page.set_viewport_size({"width": size["width"], "height": min(size["height"] + height + 50, 16000)})
        try:
            self.page.wait_for_timeout(300)
            self.page.evaluate(f"() => {{ {scroller}.scrollTop = 0; }}")
            self.page.wait_for_timeout(100)
            self.page.screenshot(path=str(path), full_page=True)
        finally:
            self.page.set_viewport_size(size)


def focus_goes_on(nb, gate: int) -> dict:
    """After a person's click has decided cell `gate`: wait (at most 15 s) until the keyboard focus is in the notebook
    on a cell below it, then the notebook's active cell and focus (focus_state). The approver's one front-end step
    (harness_ui.widget.GO_ON) lives in a widget's output, never in the cell's own outputs: a saved notebook has no
    script in it (checked here on the notebook's model, what Save writes)."""
    try:
        nb.page.wait_for_function(
            f"() => {{ const a = document.activeElement; return !!(a && a.closest('.jp-Notebook'))"
            f" && {nb._js}.content.activeCellIndex > {gate}; }}", timeout=15_000, polling=POLL_MS)
    except Exception:  # (playwright's TimeoutError) the assertions below say what the page shows instead
        pass
    saved = nb.page.evaluate(f"() => JSON.stringify({nb._js}.content.model.cells.get({gate}).toJSON().outputs)")
    assert "application/javascript" not in saved and "GO_ON" not in saved, saved[:2000]
    return focus_state(nb)


def focus_state(nb) -> dict:
    """The notebook's active cell and whether the keyboard focus is inside the notebook."""
    return nb.page.evaluate(
        f"() => {{ const nb = {nb._js}; const a = document.activeElement;"
        " return {active: nb.content.activeCellIndex, focus: a ? a.tagName : null,"
        " inNotebook: !!(a && a.closest('.jp-Notebook'))}; }")


@contextmanager
def booted_page(server: Lab, profile_dir: Path):
    """(LabPage, NetLog): headless Chromium with a fresh profile, JupyterLab booted in it, every request
    recorded. Closes the browser on the way out (the server is the caller's)."""
    from playwright.sync_api import sync_playwright

    netlog = NetLog()
    with sync_playwright() as playwright:
        context = launch_chromium(playwright, profile_dir, netlog)
        try:
            yield LabPage(context.new_page(), server).boot(), netlog
        finally:
            context.close()


def open_and_check(lab_page: LabPage, path: str, check, shot: str, next_path: str | None = None,
                   keep_open: bool = False) -> list[str]:
    """Open `path` in a tab (the kernel of `next_path`, if given, starts meanwhile), run `check(nb)` -> [problem,
    ...], and close the tab -- or, with keep_open and no problem, leave it open for the next test that works in it
    (take_tab). When something is wrong, a screenshot of the whole notebook (a tall one: ~1-2 s) goes to
    .test-output/screenshots/`shot` (the window when all went well, only with KIT_TEST_SCREENSHOTS=1). A browser
    run that saved the notebook is a problem too."""
    source = (REPO / path).read_bytes()
    nb = lab_page.open_notebook(path)
    if next_path and next_path != path:
        lab_page.lab.start_kernel(next_path)
    problems = None  # None until checked: the check itself failed
    try:
        problems = check(nb)
    finally:
        if problems != [] or EVERY_SCREENSHOT:
            nb.screenshot(ARTIFACTS / shot, whole_notebook=problems != [])
        if (REPO / path).read_bytes() != source:
            problems.append(f"{path}: the browser run saved the notebook")
        if keep_open and problems == []:
            park(nb)
        else:
            nb.close()
    return problems


# --- tabs left open for the next test that works in them --------------------------------------------------------

_PARKED: dict[str, NotebookView] = {}  # by notebook path: an open tab, its kernel as the last test left it


def park(nb: NotebookView) -> None:
    """Leave `nb` open (its kernel running) for the next test that asks for it (take_tab)."""
    old = _PARKED.pop(nb.path, None)
    if old is not None and old is not nb and _alive(old):
        old.close()
    _PARKED[nb.path] = nb


def take_tab(path: str) -> NotebookView | None:
    """The tab of `path` a test left open (park), activated; None when there is none (the test then opens the
    notebook itself: run alone, or after the browser was closed and opened again)."""
    nb = _PARKED.pop(path, None)
    if nb is None or not _alive(nb):
        return None
    nb.page.evaluate(f"() => {_APP}.shell.activateById({json.dumps(nb.panel_id)})")
    nb.wait_kernel_idle()
    return nb


def _alive(nb: NotebookView) -> bool:
    """The tab is still open in a page that is still open."""
    return not nb.page.is_closed() and nb.page.evaluate(f"() => !!({nb._js})")


# --- Run All, once per notebook and test session ---------------------------------------------------

APPROVAL_TIMEOUT_S = 5  # HARNESS_APPROVAL_TIMEOUT for Run All and test_browser.py's approval cases
# Before Run All, each notebook's kernel gets these, and KIT_TEST_CLICKS names the notebook (read_run_all), as under
# nbval (the repo's conftest.py): the kernel's clicker presses the buttons the committed run shows pressed
# (tests/kernel_clicker.py).
RUN_ALL_ENV = {"HARNESS_APPROVAL_TIMEOUT": str(APPROVAL_TIMEOUT_S)}
RUN_ALL_TIMEOUT_S = 240  # per notebook; the slowest lesson (01, with subprocess runs) takes ~10-20 s here
# Lessons that tests/test_browser_rerun.py runs (Run All, then every cell again), one per edition: lesson 02 is the
# one that promises any cell can be re-run. test_browser.py runs Run All on the other English lessons.
RUN_AGAIN = ["notebooks/02_the_core_loop.ipynb", "notebooks/es/02_the_core_loop.ipynb"]
DECISION = re.compile(r"^\[approve\] \w+\(.*\) → ((?:not |no )?(?:approved|aprobada).*|rejected.*|rechazada.*)$",
                      re.MULTILINE)  # one printed decision line, in either edition
WIDGET_BROKEN = ("Error displaying widget", "Loading widget")

# The run inspector's pictures that tests/test_browser_inspector.py reads, by notebook: the ids of the cells that
# draw them, read after Run All in each theme (and, for SAVED_PICTURES, once as committed, before running).
INSPECTED = {
    "notebooks/04_runaway.ipynb": ("budget-drawn", "side-by-side"),
    "notebooks/es/04_runaway.ipynb": ("budget-drawn", "side-by-side"),
    "notebooks/06_the_full_harness.ipynb": ("lesson-drawn", "sweep-drawn"),
    "exercises/solutions/03_budget_and_progress.ipynb": ("try-cycle",),
}
SAVED_PICTURES = {"notebooks/04_runaway.ipynb": ("budget-drawn",)}
THEMES = ("JupyterLab Light", "JupyterLab Dark")
MARKS = ("hl-error", "hl-refused", "hl-approved", "hl-cycle", "hl-same", "hl-over", "hl-signature", "hl-ok")

# Everything the page shows of the inspector tables in one cell, read in one call.
READ_TABLES = """([nb, id]) => {
  const cell = nb.content.widgets.find(c => c.model.id === id);
  if (!cell) return null;
  const marks = %s;
  return Array.from(cell.node.querySelectorAll('.hl-inspector table')).map(t => ({
    caption: (t.querySelector('caption') || {innerText: ''}).innerText.trim(),
    rows: Array.from(t.querySelectorAll('tbody tr')).map(tr => ({
      classes: Array.from(tr.classList), text: tr.innerText, stoppedBy: tr.dataset.stoppedBy || null,
      meters: Array.from(tr.querySelectorAll('meter')).map(m => ({label: m.getAttribute('aria-label'),
                                                                  value: m.value, max: m.max})),
      marks: Object.fromEntries(marks.map(c => [c, Array.from(tr.querySelectorAll('.' + c), e => e.innerText.trim())])),
    })),
  }));
}""" % json.dumps(list(MARKS))

COLOURS = """([nb, id]) => {
  const cell = nb.content.widgets.find(c => c.model.id === id).node;
  const colour = sel => { const e = cell.querySelector(sel); return e ? getComputedStyle(e).color : null; };
  return {text: colour('.hl-inspector'), error: colour('.hl-error, .hl-refused'),
          background: getComputedStyle(cell.querySelector('.jp-OutputArea-output')).backgroundColor,
          page: getComputedStyle(document.body).backgroundColor};
}"""


@dataclass
class RunAll:
    """What one Run All of a notebook in JupyterLab showed: everything any browser test asserts on, read before
    the tab was closed. `cells`: NotebookView.cells_info(); `shown`: NotebookView.outputs(); `pictures`: per
    (cell id, theme) the inspector's tables and colours (INSPECTED); `saved_pictures`: per cell id, the tables as
    committed (SAVED_PICTURES); `saved`: the browser run wrote the notebook file."""

    path: str
    env: dict[str, str]
    finished: bool = False
    state: str | None = None  # how the Run All command ended: "ok", "failed" (it stops at an error), ...
    cells: list[dict] = field(default_factory=list)
    shown: list[dict] = field(default_factory=list)
    pictures: dict[tuple[str, str], dict] = field(default_factory=dict)
    saved_pictures: dict[str, list] = field(default_factory=dict)
    saved: bool = False


_RUNS: dict[tuple, RunAll] = {}  # this test session's Run Alls, by (path, env)


def _key(path: str, env: dict[str, str]) -> tuple:
    return path, tuple(sorted(env.items()))


def shot_name(path: str) -> str:
    """A screenshot's name for `path`: notebooks/es/04_runaway.ipynb -> notebooks-es-04_runaway."""
    return path.removesuffix(".ipynb").replace("/", "-")


def run_all_once(lab_page: LabPage, path: str, env: dict[str, str] = RUN_ALL_ENV, next_path: str | None = None,
                 shot: str | None = None, keep_open: bool = False) -> RunAll:
    """Run All on `path` under `env` once per test session: the first call opens it in a tab, runs it, reads
    everything (RunAll), takes its screenshots and closes it; later calls get that record. So the test files
    share the work, whichever runs first, and each still works run alone. `next_path`'s kernel (when it has not
    run yet) starts meanwhile. keep_open: a clean first run leaves its tab open for the caller (take_tab).
    Screenshots, into .test-output/screenshots/: `run-all-<shot>.png`, the whole notebook when the run went wrong;
    with KIT_TEST_SCREENSHOTS=1 also the window after a clean run, and the inspected cells
    (`inspector-<shot>-<cell id>-<light|dark|saved>.png`)."""
    key = _key(path, env)
    if key not in _RUNS:
        if next_path and not any(k[0] == next_path for k in _RUNS):
            prestart = next_path
        else:
            prestart = None
        _RUNS[key] = _run_all(lab_page, path, env, prestart, shot or shot_name(path), keep_open)
    return _RUNS[key]


def _run_all(lab_page: LabPage, path: str, env: dict[str, str], next_path: str | None, shot: str,
             keep_open: bool) -> RunAll:
    source = (REPO / path).read_bytes()
    nb = lab_page.open_notebook(path)
    if next_path and next_path != path:
        lab_page.lab.start_kernel(next_path)
    run, shot_decided, left_open = RunAll(path, dict(env)), False, False
    try:
        handle = nb.page.evaluate_handle(f"() => {nb._js}")
        for cell_id in SAVED_PICTURES.get(path, ()):  # opened as committed: not run, so not trusted
            run.saved_pictures[cell_id] = nb.page.evaluate(READ_TABLES, [handle, cell_id])
            _cell_shot(nb, handle, cell_id, ARTIFACTS / f"inspector-{shot}-{cell_id}-saved.png")
        read_run_all(nb, env, run)
        went_wrong = bool(lesson_problems(run, decisions=False))
        if went_wrong or EVERY_SCREENSHOT:
            nb.screenshot(ARTIFACTS / f"run-all-{shot}.png", whole_notebook=went_wrong)
        shot_decided = True  # (a screenshot taken or, the run clean, not needed)
        if run.finished and path in INSPECTED:
            _read_pictures(nb, handle, run, INSPECTED[path], shot)
        if keep_open and run.finished and run.state == "ok":
            park(nb)
            left_open = True
    finally:
        try:
            if not shot_decided:  # something failed on the way: the whole notebook, to see where
                nb.screenshot(ARTIFACTS / f"run-all-{shot}.png", whole_notebook=True)
        finally:
            if not left_open:
                nb.close()
    run.saved = (REPO / path).read_bytes() != source
    return run


def _cell_shot(nb: NotebookView, handle, cell_id: str, path: Path) -> None:
    """A picture of one cell for a person to look at: only with KIT_TEST_SCREENSHOTS=1 (no test reads it)."""
    if not EVERY_SCREENSHOT:
        return
    index = nb.page.evaluate("([nb, id]) => nb.content.widgets.findIndex(c => c.model.id === id)", [handle, cell_id])
    if index < 0:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    nb.cell(index).scroll_into_view_if_needed()
    nb.cell(index).screenshot(path=str(path))


def set_theme(page, theme: str) -> None:
    """Switch JupyterLab to `theme` (nothing to do when it is on already)."""
    light = "true" if "Light" in theme else "false"
    if page.evaluate(f"() => document.body.dataset.jpThemeLight === '{light}' && {_APP}.commands.isToggled"
                     f"('apputils:change-theme', {{theme: {json.dumps(theme)}}})"):
        return
    page.evaluate(f"() => {_APP}.commands.execute('apputils:change-theme', {{theme: {json.dumps(theme)}}})")
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'", timeout=30_000, polling=POLL_MS)
    page.wait_for_timeout(300)  # the theme's CSS variables reach every element


def _read_pictures(nb: NotebookView, handle, run: RunAll, cells, shot: str) -> None:
    """The inspector's tables and colours of `cells` in the page's theme, then in the other one (and a screenshot of
    each cell: _cell_shot). The page stays in the second theme: the next inspected notebook starts from it, so each
    one costs one theme switch (the whole page restyled: ~1 CPU-s), not two. No other test depends on the theme."""
    light = nb.page.evaluate("() => document.body.dataset.jpThemeLight !== 'false'")
    for theme in (THEMES if light else THEMES[::-1]):
        set_theme(nb.page, theme)
        for cell_id in cells:
            tables = nb.page.evaluate(READ_TABLES, [handle, cell_id])
            colours = nb.page.evaluate(COLOURS, [handle, cell_id]) if tables else None
            run.pictures[(cell_id, theme)] = {"tables": tables, "colours": colours}
            suffix = "light" if "Light" in theme else "dark"
            _cell_shot(nb, handle, cell_id, ARTIFACTS / f"inspector-{shot}-{cell_id}-{suffix}.png")


def lesson_notebooks() -> list[str]:
    return sorted(p.relative_to(REPO).as_posix() for p in (REPO / "notebooks").glob("*.ipynb"))


def committed_stdouts(path: str) -> list[str]:
    """Each cell's printed text as committed (the nbval run), "" for cells without any."""
    cells = json.loads((REPO / path).read_text(encoding="utf-8"))["cells"]
    return ["".join("".join(o.get("text", "")) for o in c.get("outputs", []) if o.get("output_type") == "stream")
            for c in cells]


def read_run_all(nb: NotebookView, env: dict[str, str] = RUN_ALL_ENV, run: RunAll | None = None) -> RunAll:
    """Set `env` in the kernel, Run All, wait for the kernel and the widgets, and read the cells into `run`."""
    run = run if run is not None else RunAll(nb.path, dict(env))
    nb.set_kernel_env({**env, "KIT_TEST_CLICKS": nb.path})  # the clicker presses this notebook's buttons
    run.finished = nb.run_all(timeout_ms=RUN_ALL_TIMEOUT_S * 1000)
    if not run.finished:
        return run
    nb.wait_kernel_idle(timeout_ms=30_000)
    nb.wait_widgets_rendered()  # widget views render after their output arrives; stragglers are reported
    run.state = nb.page.evaluate(f"() => {nb._js}.__runAll")
    run.cells, run.shown = nb.cells_info(), nb.outputs()
    return run


def lesson_problems(run: RunAll, decisions: bool = True) -> list[str]:
    """What went wrong in a lesson's Run All: unexecuted cells, errors, tracebacks, unrendered widgets, a saved
    notebook, and (decisions=True) approval decisions that differ from the committed (headless) run's."""
    saved = [f"{run.path}: the browser run saved the notebook"] if run.saved else []
    if not run.finished:
        return [f"{run.path}: Run All did not finish within {RUN_ALL_TIMEOUT_S} s", *saved]
    committed_stdout = committed_stdouts(run.path) if decisions else None
    problems = []
    for i, (info, shown) in enumerate(zip(run.cells, run.shown)):
        if info["type"] != "code":
            continue
        where = f"{run.path} cell {i}"
        if info["count"] is None:
            problems.append(f"{where}: not executed (Run All stopped before it?)")
        if "raises-exception" not in info["tags"]:
            problems += [f"{where}: error output: {error[:500]}" for error in info["errors"]]
            for stderr in shown["stderr"]:
                if "Traceback" in stderr and not info["errors"]:  # (an error output renders as stderr too)
                    problems.append(f"{where}: traceback on stderr:\n{stderr[:1500]}")
        problems += [f"{where}: a widget did not render ({b!r})" for b in WIDGET_BROKEN if b in shown["text"]]
        if decisions:
            live, committed = DECISION.findall(shown["stdout"]), DECISION.findall(committed_stdout[i])
            if live != committed:  # e.g. a timeout deciding where the notebook's own button should have
                problems.append(f"{where}: approval decisions {live} differ from the committed run's {committed}")
    return problems + saved


def run_all_and_check(nb: NotebookView) -> list[str]:
    """Run All on an open notebook under RUN_ALL_ENV (not memoized: test_browser_rerun.py then runs every cell
    again in the same tab) and list its lesson_problems()."""
    return lesson_problems(read_run_all(nb))
