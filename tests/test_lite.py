"""The course in a browser tab: the JupyterLite site of `python -m lite.build`, in headless Chromium, offline.

The site (build/lite/site/) is served as static files on 127.0.0.1 and opened in Debian's Chromium with the browser
tests' flags (every non-loopback request goes to a dead proxy, and every request is recorded). In the tab, with the
Pyodide kernel and nothing installed:
- lesson 02 runs to the end with no error, and every cell nbval checks prints what the committed notebook shows
  (after tests/sanitize.cfg: the clock);
- exercise 01's 🔍 CHECK cells print ✗ with a hint for the starter as the site ships it, and only ✓ once the
  solution's cells are in the tab (put in as a learner types them, run again in the same kernel);
- lesson 04, with no matplotlib in the tab, runs to the end and shows its plot drawn by the kit (SVG);
- completion comes from jedi (served without the stubs of packages the tab cannot import);
- exercise 5's practice runs end by their own bounds (Stop cannot interrupt a cell in the tab): a run_agent with no
  turn cap by the cap on requests, one spinning in Python by the time limit;
- lesson 05's own approval cells, which in the tab start the run in harness_ui.tab's panel: a real click on
  Approve or Reject decides (the next cell shows the file written, or not), no answer and the panel's Stop button
  fail closed (the cell that starts the run has ended: the tab's kernel delivers no click to a running cell);
  after a click the keyboard goes on from the cell below (a real Shift+Enter runs it);
  the last two in the Spanish edition, in its words;
- the welcome pages (START.md, EMPEZAR.md) open at the site's root, rendered;
- the root address, where the tab's first visit starts, opens the welcome page in the browser's language; with the
  server gone (the network cut) and the service worker stopped (as a browser stops an idle one), the root in the
  other language shows its welcome page (an address never opened) and another notebook opens and runs, from what
  the service worker kept (last: it stops the server);
- no request leaves 127.0.0.1;
- and, with no browser, the site's SDK wheel is byte-compiled for the tab's Python (tests/test_lite_build.py checks
  the build's workflow and settings).

The test does not build the site: the build writes into lite/ (git-ignored), and a test run must leave the tree as
it found it. .ci/run builds it before `pytest`. With no site, or one older than its sources, the test skips with
one line saying so -- and fails when CI=true, so CI never skips it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import socket
import subprocess
import sys
import time
import zipfile

import pytest

from browser_support import (CHROMIUM, CHROMIUM_FLAGS, REPO, NetLog, browser_missing, free_port,
                             skip_loudly_unless_ci)
from sanitizer import sanitize

sys.path.insert(0, str(REPO))
from lite.build import CACHE, SITE, sources_digest  # noqa: E402  (lite/ is a folder of the repository, not installed)

APP = "window.jupyterapp"
KERNEL_START_MS = 240_000  # Pyodide and the preloaded kit: ~10 s here alone, more on a busy machine
RUN_ALL_MS = 240_000


def site_missing() -> str | None:
    """Why the site cannot be tested here, or None."""
    if (reason := browser_missing()) is not None:
        return reason
    if not (SITE / "jupyter-lite.json").is_file():
        return "no site in build/lite/site/: build it with `python -m lite.build`"
    stamp = CACHE / "site.sha256"
    if not stamp.is_file() or stamp.read_text() != sources_digest():
        return "build/lite/site/ is older than the files it is built from: `python -m lite.build` again"
    return None


def require_site() -> None:
    skip_loudly_unless_ci(site_missing(), "BROWSER-TAB SITE NOT TESTED", ".ci/run builds the site, so this must run")


class Tab:
    """One Chromium page on the served site; notebooks open as JupyterLab tabs, each with its Pyodide kernel."""

    def __init__(self, page, url: str, netlog: NetLog, server=None):
        self.page, self.url, self.netlog, self.server = page, url, netlog, server
        self.first_visit = None  # the heading of the welcome page the site's root showed on the first visit

    def _find(self, path: str) -> str:
        return f"Array.from({APP}.shell.widgets('main')).find(w => w.context && w.context.path === {json.dumps(path)})"

    def visit(self) -> None:
        """The first visit, as a learner's: the site's root, which sends the browser on to the welcome page in its
        language (English here) and hands the site to the service worker (the page's heading: first_visit)."""
        if self.page.url != "about:blank":
            return
        self.page.goto(f"{self.url}/")
        welcome(self.page, "")
        self.page.wait_for_function(f"() => {APP} && {APP}.commands.hasCommand('notebook:run-all-cells')",
                                    timeout=60_000, polling=100)
        self.first_visit = self.page.locator(".jp-MarkdownViewer:visible .jp-RenderedMarkdown h1").first.inner_text()

    def open(self, path: str) -> None:
        """Open `path` and wait until its kernel (Pyodide, the kit preloaded) is idle."""
        self.visit()
        self.page.evaluate(f"() => void {APP}.commands.execute('docmanager:open', {{path: {json.dumps(path)}}})")
        self.page.wait_for_function(
            f"() => {{ const w = {self._find(path)}; const k = w && w.sessionContext.session?.kernel;"
            " return k && k.status === 'idle' && w.content.widgets.length > 0; }",
            timeout=KERNEL_START_MS, polling=100)

    def run_all(self, path: str) -> list[dict]:
        """Run All, then each cell: type, source, and its outputs as the notebook model holds them."""
        nb = self._find(path)
        self.page.evaluate(
            f"() => {{ const nb = {nb}; {APP}.shell.activateById(nb.id); nb.__runAll = 'running';"
            f" {APP}.commands.execute('notebook:run-all-cells').then("
            " ok => { nb.__runAll = ok ? 'ok' : 'failed'; }, err => { nb.__runAll = String(err); }); }")
        self.page.wait_for_function(f"() => {nb}.__runAll !== 'running'", timeout=RUN_ALL_MS, polling=200)
        assert self.page.evaluate(f"() => {nb}.__runAll") == "ok", f"{path}: Run All did not finish"
        return self.cells(path)

    def cells(self, path: str) -> list[dict]:
        """Each cell of the open notebook: type, source, and its outputs as the notebook model holds them."""
        return self.page.evaluate(
            f"() => {self._find(path)}.content.widgets.map(c => ({{ type: c.model.type,"
            " source: c.model.sharedModel.getSource(),"
            " count: c.model.type === 'code' ? c.model.executionCount : null,"
            " outputs: c.model.type === 'code' ? c.model.outputs.toJSON() : [] }))")

    def run_cell(self, path: str, index: int) -> None:
        """Run one cell and wait until it has run (its execution count is set)."""
        nb = self._find(path)
        self.page.evaluate(f"() => {{ const nb = {nb}; {APP}.shell.activateById(nb.id); nb.content.activeCellIndex = {index};"
                           f" nb.content.deselectAll(); void {APP}.commands.execute('notebook:run-cell'); }}")
        self.ran(path, index)

    def ran(self, path: str, index: int) -> None:
        """Wait until cell `index` has run (its execution count is set, and no * in its prompt)."""
        self.page.wait_for_function(
            f"() => {{ const c = {self._find(path)}.content.widgets[{index}]; return c.model.executionCount !== null"
            " && !c.node.querySelector('.jp-InputPrompt').textContent.includes('*'); }",
            timeout=RUN_ALL_MS, polling=100)

    def cell(self, path: str, index: int):
        panel_id = self.page.evaluate(f"() => {self._find(path)}.id")
        return self.page.locator(f"#{panel_id} .jp-Notebook .jp-Cell").nth(index)

    def replace(self, path: str, notebook: dict) -> None:
        """Put another notebook's cells into the open tab of `path` (as a learner typing them in); same kernel."""
        self.page.evaluate(f"(content) => {{ {self._find(path)}.context.model.fromJSON(content); }}", notebook)


# One tab, one Pyodide kernel for the whole module (a kernel's start and the kit's preload are most of the time):
# exercise 1's Spanish starter, opened first, and every other notebook's cells put into it in turn, as a learner
# pasting them. Its folder (exercises/es/) is where the exercise finds its grader; a lesson runs the same there.
HOST = "exercises/es/01_tiered_policy.ipynb"


def stdout(cell: dict) -> str:
    return "".join(o["text"] for o in cell["outputs"] if o["output_type"] == "stream" and o["name"] == "stdout")


def errors(path: str, cells: list[dict]) -> list[str]:
    found = []
    for i, cell in enumerate(cells):
        if cell["type"] == "code" and cell["count"] is None:
            found.append(f"{path} cell {i}: not executed")
        found += [f"{path} cell {i}: {o['ename']}: {o['evalue']}" for o in cell["outputs"] if o["output_type"] == "error"]
    return found


def committed_notebook(path: str) -> dict:
    return json.loads((REPO / path).read_text(encoding="utf-8"))


def committed(path: str) -> list[dict]:
    return committed_notebook(path)["cells"]


@pytest.fixture(scope="module")
def tab(tmp_path_factory):
    require_site()
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(SITE)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # until the server listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as playwright:
            netlog = NetLog()
            # service workers allowed: JupyterLite's kernel reaches the files under /drive through its own
            context = playwright.chromium.launch_persistent_context(
                str(tmp_path_factory.mktemp("lite-profile")), executable_path=CHROMIUM, headless=True,
                args=[f for f in CHROMIUM_FLAGS if not f.startswith("--js-flags")],  # Python in WebAssembly: the
                viewport={"width": 1280, "height": 900})  # optimizing compiler pays here (JupyterLab's pages: not)
            netlog.attach(context)
            try:
                yield Tab(context.new_page(), f"http://127.0.0.1:{port}", netlog, server)
            finally:
                context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


CHECKED = "nbval-check-output"  # the cells whose output nbval compares with the saved one (a cell tag)


def prints_as_committed(path: str, cells: list[dict]) -> int:
    """Each cell nbval checks printed in the tab what the committed notebook shows (after sanitize.cfg). -> how many."""
    checked = [(i, cell, saved) for i, (cell, saved) in enumerate(zip(cells, committed(path), strict=True))
               if cell["type"] == "code" and CHECKED in saved["metadata"].get("tags", [])]
    for i, cell, saved in checked:
        want = "".join("".join(o.get("text", "")) for o in saved["outputs"] if o.get("name") == "stdout")
        assert sanitize(stdout(cell)) == sanitize(want), f"{path} cell {i} prints other text in the tab"
    return len(checked)


@pytest.mark.timeout(600)
def test_lesson_02_runs_to_the_end_in_the_tab(tab):
    path = "notebooks/02_the_core_loop.ipynb"
    tab.open(HOST)
    tab.replace(HOST, committed_notebook(path))
    cells = tab.run_all(HOST)
    assert errors(path, cells) == []
    assert prints_as_committed(path, cells) >= 10
    # (The Spanish edition runs the same code; its words in the tab: the welcome page and exercise 1's hints below.)
    assert tab.netlog.outside_loopback() == []


@pytest.mark.timeout(600)
def test_lesson_04_draws_its_plot_without_matplotlib_in_the_tab(tab):
    """The tab has no matplotlib: lesson 04's first cell still runs, and the kit draws the plot as SVG."""
    lesson = "notebooks/04_runaway.ipynb"
    tab.open(HOST)  # the one tab: its kernel again, lesson 04's cells put in
    tab.replace(HOST, committed_notebook(lesson))
    cells = tab.run_all(HOST)
    assert errors(lesson, cells) == []
    prints_as_committed(lesson, cells)
    plot = next(c for c in cells if "token_charts(" in c["source"])
    drawn = [o["data"]["text/html"] for o in plot["outputs"] if "text/html" in o.get("data", {})]
    assert len(drawn) == 1 and drawn[0].count("<svg") == 2, plot["outputs"]
    for words in ("Input tokens of each request", "Tokens used so far (all four counters)", "never-ends",
                  "token-hog", "a 40,000-token budget"):
        assert words in drawn[0]
    assert tab.netlog.outside_loopback() == []


@pytest.mark.timeout(600)
def test_exercise_01_checks_in_the_tab_starter_and_solution(tab):
    """The Spanish starter's cells up to its first check: a ✗ with its hint, in Spanish; then the solution's cells
    in the same tab and kernel, Run All: every check ✓."""
    starter = HOST
    tab.open(HOST)
    tab.replace(HOST, committed_notebook(starter))  # its own cells again (other notebooks ran in this tab)
    first_check = next(i for i, c in enumerate(committed(starter)) if "".join(c["source"]).startswith("# 🔍"))
    for i in range(first_check + 1):
        if committed(starter)[i]["cell_type"] == "code":
            tab.run_cell(HOST, i)
    text = stdout(tab.cells(HOST)[first_check])
    assert "✗" in text and "pista:" in text, text
    # The learner writes the solution's cells into the same tab and runs them all again, in the same kernel.
    tab.replace(HOST, committed_notebook("exercises/solutions/01_tiered_policy.ipynb"))
    cells = tab.run_all(HOST)
    assert errors(starter, cells) == []
    checks = [stdout(c) for c in cells if c["source"].startswith("# 🔍 CHECK")]
    assert len(checks) == 6
    for text in checks:
        assert "✓" in text and "✗" not in text, text
    assert tab.netlog.outside_loopback() == []


LESSON_05 = "notebooks/05_human_in_the_loop.ipynb"
LESSON_05_ES = "notebooks/es/05_human_in_the_loop.ipynb"


def lesson_05_with_two_more_runs(path: str) -> dict:
    """Lesson 05 as committed, and after it its approval cell twice more: once with nobody answering (a 1 s
    timeout, set the way a learner would), once to be stopped."""
    notebook = committed_notebook(path)
    gate = next(c for c in notebook["cells"] if c.get("id") == "approval-demo")
    extra = ["import os\nos.environ['HARNESS_APPROVAL_TIMEOUT'] = '1'", "".join(gate["source"]),
             "os.environ.pop('HARNESS_APPROVAL_TIMEOUT')", "".join(gate["source"])]
    notebook["cells"] += [{"cell_type": "code", "execution_count": None, "id": f"extra-{i}", "metadata": {},
                           "outputs": [], "source": source} for i, source in enumerate(extra)]
    return notebook


class Lesson05:
    """Lesson 05 (and two more runs of its approval cell) put into the tab, its setup cells run."""

    def __init__(self, tab, path: str):
        self.tab, self.path = tab, path
        tab.open(HOST)
        notebook = lesson_05_with_two_more_runs(path)
        tab.replace(HOST, notebook)
        self.ids = [c.get("id") for c in notebook["cells"]]
        for i in range(self.ids.index("approval-demo")):  # the lesson's setup: imports, the gate, the loop
            if notebook["cells"][i]["cell_type"] == "code":
                tab.run_cell(HOST, i)

    def decide(self, cell_id: str, button: str | None, shows: str) -> str:
        """Run the cell (it ends at once: its run goes on in the panel), click `button`, wait for `shows`."""
        index = self.ids.index(cell_id)
        self.tab.run_cell(HOST, index)
        cell = self.tab.cell(HOST, index)
        if button:
            cell.get_by_role("button", name=button).click()
        cell.get_by_text(shows).first.wait_for(timeout=60_000)
        return cell.locator(".jp-Cell-outputArea").inner_text()

    def run(self, cell_id: str) -> str:
        self.tab.run_cell(HOST, self.ids.index(cell_id))
        return stdout(self.tab.cells(HOST)[self.ids.index(cell_id)])

    def keyboard_runs_the_next_cell(self, cell_id: str) -> str:
        """After a click on the panel of `cell_id`: the cell below is selected and has the keyboard, and a real
        Shift+Enter runs it. -> what it printed."""
        index = self.ids.index(cell_id) + 1
        self.tab.page.wait_for_function(
            f"() => {{ const nb = {self.tab._find(HOST)}.content; return nb.activeCellIndex === {index}"
            f" && nb.widgets[{index}].node.contains(document.activeElement); }}", timeout=60_000, polling=100)
        self.tab.page.keyboard.press("Shift+Enter")
        self.tab.ran(HOST, index)
        return stdout(self.tab.cells(HOST)[index])

    def errors(self, upto: str) -> list[str]:
        return errors(self.path, self.tab.cells(HOST)[:self.ids.index(upto) + 1])


@pytest.mark.timeout(600)
def test_lesson_05_approval_in_the_tab_clicks_decide_and_no_answer_or_stop_fail_closed(tab):
    """Lesson 05's own approval cells in the tab: the cell starts the run in a panel and ends, a real click on the
    panel decides (Reject: nothing written; Approve: written), no answer and the panel's Stop fail closed. The
    English edition's clicks, then the Spanish edition's words (its buttons, its decision lines)."""
    lesson = Lesson05(tab, LESSON_05)
    shown = lesson.decide("approval-demo", "Reject", "The run is over.")
    assert "write_file(" in shown and "→ rejected" in shown and "did not save" in shown, shown
    assert "Traceback" not in shown and "→ approved" not in shown
    # the keyboard goes on after the click, as on the desktop: the cell below has it, and Shift+Enter runs it
    assert lesson.keyboard_runs_the_next_cell("approval-demo") == "scratch/answer.txt exists: False\n"
    shown = lesson.decide("approve-demo", "Approve", "The run is over.")
    assert "→ approved" in shown and "I saved this answer" in shown, shown
    assert lesson.run("approve-demo-after").startswith("scratch/answer.txt exists: True\nit contains: The first line")
    assert lesson.errors("approve-demo-after") == []

    lesson = Lesson05(tab, LESSON_05_ES)  # the Spanish edition: no answer, then Stop, in its own words
    lesson.run("extra-0")
    assert "→ no aprobada (nadie respondió en 1 s)" in lesson.decide("extra-1", None, "La ejecución terminó.")
    assert lesson.run("approval-demo-after") == "¿existe scratch/answer.txt? False\n"
    lesson.run("extra-2")
    shown = lesson.decide("extra-3", "Detener la ejecución", "Se detuvo la ejecución.")
    assert "→ no aprobada (sin respuesta: se detuvo la ejecución)" in shown
    assert tab.netlog.outside_loopback() == []


def test_the_welcome_pages_open_in_both_languages(tab):
    """START.md and EMPEZAR.md at the site's root open as rendered pages, each linking the other."""
    tab.visit()
    for page, title, other in (("START.md", "in your browser", "EMPEZAR.md"),
                               ("EMPEZAR.md", "en tu navegador", "START.md")):
        tab.page.evaluate(f"() => void {APP}.commands.execute('docmanager:open', {{path: {json.dumps(page)}}})")
        # the page whose title is this one's (the page opened before it may still be shown while this one renders)
        shown = tab.page.locator(".jp-MarkdownViewer:visible .jp-RenderedMarkdown",
                                 has=tab.page.locator("h1", has_text=title)).first
        shown.wait_for(timeout=30_000)
        assert shown.locator("a", has_text=other).count() == 1
        assert "CHECK" in shown.inner_text() and "pytest --nbval-lax" in shown.inner_text()
    assert tab.netlog.outside_loopback() == []


def test_the_sdk_is_served_byte_compiled_for_the_tabs_python():
    """lite/bytecode.py: the SDK's wheel the site serves holds .pyc files only, made for CPython 3.14 (its magic
    number), hash-based and unchecked; its RECORD and the tab's lock (sha256) name the bytes served."""
    require_site()
    lock = json.loads((SITE / "static" / "pyodide" / "pyodide-lock.json").read_text())
    wheel = SITE / "static" / "pyodide" / lock["packages"]["anthropic"]["file_name"]
    assert lock["info"]["python"].startswith("3.14.")
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == lock["packages"]["anthropic"]["sha256"]
    with zipfile.ZipFile(wheel) as served:
        files = {n: served.read(n) for n in served.namelist() if not n.endswith("/")}
    if any(n.endswith(".py") for n in files) and shutil.which("node") is None:
        skip_loudly_unless_ci("built without Node.js: the SDK is served as source", "SDK NOT BYTE-COMPILED",
                              ".ci/run installs nodejs")
    pycs = [data for name, data in files.items() if name.endswith(".pyc")]
    assert len(pycs) > 2000 and not [n for n in files if n.endswith(".py")]
    # CPython 3.14's magic number (3627, what the tab's Python reads), then the flags: hash-based, unchecked
    assert {data[:8] for data in pycs} == {(3627).to_bytes(2, "little") + b"\r\n" + (1).to_bytes(4, "little")}
    record = next(data for name, data in files.items() if name.endswith(".dist-info/RECORD")).decode().splitlines()
    sha = {name: (digest, size) for name, digest, size in (line.rsplit(",", 2) for line in record)}
    assert set(sha) == set(files) and all(
        sha[n] == ("sha256=" + base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b"=").decode(), str(len(d)))
        for n, d in files.items() if not n.endswith("RECORD"))


RUNAWAY = """async def run_agent(client, task, tools, tool_impls, *, policy=POLICY, approve=None,
                    max_turns=10, token_budget=30_000):
    messages = [{"role": "user", "content": task}]
    while True:  # no turn cap: the mistake exercise 5 teaches
        response = await client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
        if response.stop_reason != "tool_use":
            return {"stopped_by": response.stop_reason, "text": ""}
        messages += [{"role": "assistant", "content": response.content},
                     {"role": "user", "content": [tool_result(b.id, "ok", False) for b in response.content
                                                  if b.type == "tool_use"]}]"""
SPINS = "async def run_agent(*args, **kwargs):\n    while True:\n        pass\n\nPRACTICE_SECONDS = 0.25"


@pytest.mark.timeout(600)
def test_exercise_5s_practice_runs_end_by_their_bounds_in_the_tab(tab):
    """Stop cannot interrupt a cell in the tab, so exercise 5's "Try it" runs carry bounds of their own: a run_agent
    with no turn cap is stopped by the cap on requests, one that spins in Python by the time limit; each says so."""
    path = "exercises/05_your_harness.ipynb"
    notebook = committed_notebook(path)
    next(c for c in notebook["cells"] if c.get("id") == "run-agent")["source"] = RUNAWAY
    try_it = "".join(next(c for c in notebook["cells"] if c.get("id") == "try-it")["source"])
    notebook["cells"] += [{"cell_type": "code", "execution_count": None, "id": f"extra-{i}", "metadata": {},
                           "outputs": [], "source": source} for i, source in enumerate((SPINS, try_it))]
    ids = [c.get("id") for c in notebook["cells"]]
    tab.open(HOST)
    tab.replace(HOST, notebook)
    for i, cell in enumerate(notebook["cells"][:ids.index("try-it") + 1]):
        if cell["cell_type"] == "code" and not "".join(cell["source"]).startswith("# 🔍"):
            tab.run_cell(HOST, i)
    shown = stdout(tab.cells(HOST)[ids.index("try-it")])
    assert ("inbox-runaway: [practice] stopped: the model was asked more than 40 times (the practice run's cap on "
            "requests): a loop that does not end?") in shown, shown
    for i in (ids.index("extra-0"), ids.index("extra-1")):
        tab.run_cell(HOST, i)
    shown = stdout(tab.cells(HOST)[ids.index("extra-1")]).splitlines()
    assert [line.split(":")[0] for line in shown] == ["inbox", "inbox", "inbox-runaway", "inbox-chase"], shown
    assert all(line.endswith("still running after 0.25 s (the practice run's time limit): a loop that does not end?")
               for line in shown), shown
    assert errors(path, tab.cells(HOST)[:ids.index("try-it") + 1]) == []


def test_completion_in_the_tab_comes_from_jedi_with_its_stubs(tab):
    """jedi, served without the stubs of packages the tab cannot import (lite/build.py), still completes in the tab's
    kernel: names it finds in the code (not imported yet), typed, with the standard library's and jsonschema's stubs."""
    tab.open(HOST)
    ask = (f"async (code) => (await {tab._find(HOST)}.sessionContext.session.kernel"
           ".requestComplete({code, cursor_pos: code.length})).content.metadata._jupyter_types_experimental")
    assert [(c["text"], c["type"]) for c in tab.page.evaluate(ask, "import csv\ncsv.DictR")] == [("DictReader", "class")]
    dump = tab.page.evaluate(ask, "import json\njson.du")[0]
    assert dump["text"] == "dump" and "fp: SupportsWrite[str]" in dump["signature"], dump  # typeshed's stdlib stub
    assert "Draft202012Validator" in [c["text"] for c in tab.page.evaluate(ask, "import jsonschema\njsonschema.Draft20")]


def welcome(page, title: str) -> None:
    """The welcome page whose heading says `title` is shown (the one in view, not a tab behind it)."""
    page.locator(".jp-MarkdownViewer:visible .jp-RenderedMarkdown h1", has_text=title).first.wait_for(timeout=60_000)


@pytest.mark.timeout(600)
def test_the_root_opens_the_welcome_page_and_the_course_goes_on_with_the_server_gone(tab):
    """The site's root address, the first visit (Tab.visit, before the tests above): the welcome page in the
    browser's language. Then the server stops (the network cut): the root again, the browser now asking for Spanish,
    shows the Spanish welcome page (at an address never opened before), and a notebook this browser has not opened
    yet opens, starts its kernel and runs a cell, from the copies JupyterLite's service worker keeps (lite/build.py:
    the root among them, which the first visit fetched before the worker was there). "Once loaded" means once a
    notebook has started its kernel (the files of Python in the tab are fetched then, and kept)."""
    page = tab.page
    tab.open(HOST)  # (already open, with its kernel, when the tests above ran)
    assert tab.first_visit == "Agent harness fundamentals — in your browser", tab.first_visit
    # Closed, as a learner leaving: a later page restores what was left open, each notebook starting its kernel.
    page.evaluate(f"() => Array.from({APP}.shell.widgets('main')).forEach(w => {{"
                  " if (w.context) w.context.model.dirty = false; w.close(); })")  # (the tests' edits: not kept)
    page.wait_for_function(f"() => !Array.from({APP}.shell.widgets('main')).some(w => w.sessionContext)",
                           timeout=30_000)
    page.wait_for_timeout(1500)  # (JupyterLab saves the layout a moment later)

    tab.server.terminate()
    tab.server.wait(timeout=10)
    cdp = page.context.new_cdp_session(page)  # and the worker stopped, as a browser stops an idle one (the next
    cdp.send("ServiceWorker.enable")           # request starts it again, from its script)
    cdp.send("ServiceWorker.stopAllWorkers")
    # The root again, as a Spanish-speaking learner's browser asks for it: it sends the page to an address this
    # browser never opened (lab/index.html?path=EMPEZAR.md), served from the worker's copy of the same page.
    page.add_init_script("Object.defineProperty(navigator, 'languages', {get: () => ['es-MX', 'en-US']})")
    page.goto(f"{tab.url}/")
    welcome(page, "en tu navegador")
    page.wait_for_function(f"() => {APP} && {APP}.commands.hasCommand('notebook:run-cell')", timeout=60_000)
    second = "notebooks/00_setup.ipynb"
    tab.open(second)
    versions = next(i for i, c in enumerate(committed(second)) if c.get("id") == "versions")
    tab.run_cell(second, versions)
    cell = tab.cells(second)[versions]
    assert errors(second, [cell]) == [] and stdout(cell).startswith("Python      3.14"), cell
    assert tab.netlog.outside_loopback() == []
