"""What does the browser tab cost a learner? The built site (python -m lite.build) in headless Chromium, a fresh profile.

    python benchmarks/bench_tab.py            # --files: also the 25 largest files of the first visit (and all,
                                              # in the order sent, in build/lite/bench_tab_files.json)
    python benchmarks/bench_tab.py --site DIR # another build of the site, to compare two

Serves build/lite/site/ on 127.0.0.1 (counting the bytes it sends) and, as a learner would:
  1. first visit: the site's root address -> the welcome page -> lesson 00 opened from it -> its first code cell run;
     prints the download (every byte the server sent, the kernel's Python included) and the time from the root
     address to that cell's output (cold: nothing in the browser yet);
  2. a second notebook (lesson 02) opened in the same page: the time to its kernel (each notebook starts its own),
     then to its first cell's output (the first to import the kit: the SDK and pydantic);
  3. warm: the learner leaves (the notebooks closed, their kernels shut down, and the saved layout checked to open
     no notebook: one left there is restored on the next visit, its kernel starting beside lesson 00's, which on
     2 cores doubles the time; before 2026-12-07 the bench closed them with Close All Tabs only, and its warm visit
     restored lesson 02: two kernels), then the root address again in a new page of the same browser (its cache
     and the site's service worker full): the time from the root address to lesson 00's first output, and the
     bytes sent this time. Each visit's line ends with the kernels running at its end (1 is right).
Each visit is split into phases (the welcome page shown, JupyterLab ready, the kernel idle, the first output) and
the browser's CPU-seconds are counted beside the wall-clock (every Chromium process of the run, from /proc: Linux
only), since on a shared machine the CPU is the figure that does not move with the load. The download is grouped by
kind (JupyterLab, Pyodide, wheels, the course's files) and split at the first output: what a learner waits for, and
what the service worker fetches afterwards for offline use.
Goals (issue 51): download <= 35 MB, warm <= 10 s to the first output. Wall-clock times depend on the machine's
load: it prints the load average beside them. Exit status 1 when a goal is missed.
"""

import functools
import http.server
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from browser_support import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402

SITE = ROOT / "build" / "lite" / "site"
if "--site" in sys.argv:  # another build of the site (to compare two), e.g. --site ../old-site
    SITE = Path(sys.argv[sys.argv.index("--site") + 1]).resolve()
APP = "window.jupyterapp"
SENT = [0]
FILES: dict[str, int] = {}  # path -> bytes sent, for --files
ORDER: list[tuple[int, str]] = []  # (bytes sent so far, path) as each file is sent: what came before an instant


class Counting(http.server.SimpleHTTPRequestHandler):
    def copyfile(self, source, outputfile):
        start = source.tell()
        super().copyfile(source, outputfile)
        SENT[0] += source.tell() - start
        FILES[self.path.split("?")[0]] = FILES.get(self.path.split("?")[0], 0) + source.tell() - start
        ORDER.append((SENT[0], self.path.split("?")[0]))

    def log_message(self, *args):
        pass


def kind(path: str) -> str:
    """What a file of the site is, for the download's breakdown."""
    if path.startswith("/static/pyodide/"):
        return "wheels" if path.endswith(".whl") else "Pyodide (runtime, stdlib, lock)"
    if path.startswith(("/files/", "/api/")):
        return "the course (notebooks, listings)"
    if path.startswith("/extensions/"):
        return "lab extensions (widgets, kernel)"
    return "JupyterLab (pages, scripts, styles)"


def browser_cpu(profile: str) -> float:
    """CPU-seconds of every process of the Chromium using `profile` (the browser and its children, from /proc)."""
    procs = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        procs[int(stat.parent.name)] = (int(fields[1]), sum(map(int, fields[11:15])), cmdline)
    roots = {pid for pid, (_, _, cmdline) in procs.items() if profile.encode() in cmdline}
    tree, grew = set(roots), True
    while grew:
        more = {pid for pid, (ppid, _, _) in procs.items() if ppid in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(procs[pid][1] for pid in tree) / os.sysconf("SC_CLK_TCK")


def find(path: str) -> str:
    return f"Array.from({APP}.shell.widgets('main')).find(w => w.context && w.context.path === {json.dumps(path)})"


def open_notebook(page, path: str) -> float:
    """Open `path` from the page's app; -> seconds until its kernel is idle."""
    start = time.monotonic()
    page.evaluate(f"() => void {APP}.commands.execute('docmanager:open', {{path: {json.dumps(path)}}})")
    page.wait_for_function(f"() => {{ const w = {find(path)}; const k = w && w.sessionContext.session?.kernel;"
                           " return k && k.status === 'idle' && w.content.widgets.length > 0; }",
                           timeout=600_000, polling=100)
    return time.monotonic() - start


def first_output(page, path: str) -> None:
    """Run the notebook's first code cell and wait for its output."""
    nb = find(path)
    index = page.evaluate(f"() => {nb}.content.widgets.findIndex(c => c.model.type === 'code')")
    page.evaluate(f"() => {{ const nb = {nb}; {APP}.shell.activateById(nb.id); nb.content.activeCellIndex = {index};"
                  f" void {APP}.commands.execute('notebook:run-cell'); }}")
    page.wait_for_function(f"() => {nb}.content.widgets[{index}].model.outputs.length > 0", timeout=600_000,
                           polling=50)


def visit(page, url: str, profile: str) -> dict[str, float]:
    """Root address -> welcome page -> lesson 00 -> its first output; -> seconds at each step, and CPU-seconds."""
    start, cpu = time.monotonic(), browser_cpu(profile)
    marks = {}
    page.goto(url)
    page.locator(".jp-MarkdownViewer:visible .jp-RenderedMarkdown h1").first.wait_for(timeout=600_000)
    marks["welcome page shown"] = time.monotonic() - start
    page.wait_for_function(f"() => {APP} && {APP}.commands.hasCommand('notebook:run-cell')", timeout=600_000)
    marks["JupyterLab ready"] = time.monotonic() - start
    open_notebook(page, "notebooks/00_setup.ipynb")
    marks["lesson 00's kernel idle"] = time.monotonic() - start
    first_output(page, "notebooks/00_setup.ipynb")
    marks["its first output"] = time.monotonic() - start
    marks["browser CPU-seconds"] = browser_cpu(profile) - cpu
    marks["kernels"] = running(page)
    return marks


# JupyterLab's saved workspace (JupyterLite keeps it in the browser's IndexedDB, with localforage: the store
# "statedb", one entry per workspace, "//default" here): what the next visit restores, the layout and each open
# widget's entry. -> the notebooks named in it ("notebook:PATH").
SAVED_NOTEBOOKS = """async () => {
  const get = (request) => new Promise((ok, fail) => { request.onsuccess = () => ok(request.result);
                                                      request.onerror = () => fail(request.error); });
  const found = new Set();
  for (const {name} of await indexedDB.databases()) {
    if (!name.startsWith("JupyterLite Storage")) continue;
    const db = await get(indexedDB.open(name));
    if (db.objectStoreNames.contains("statedb")) {
      for (const saved of await get(db.transaction("statedb").objectStore("statedb").getAll()))
        for (const widget of JSON.stringify(saved ?? {}).match(/notebook:[^"]+/g) ?? []) found.add(widget);
    }
    db.close();
  }
  return [...found];
}"""


def leave(page) -> int:
    """The learner leaves: every notebook closed (the cells run are not saved), the kernels shut down, and the saved
    layout with no notebook in it (a notebook left in it is restored on the next visit, its kernel starting beside
    lesson 00's). -> the kernels running after it (0). Stops the benchmark if the layout still names a notebook."""
    page.evaluate(f"() => Array.from({APP}.shell.widgets('main')).forEach(w => {{"
                  " if (w.context) w.context.model.dirty = false; w.close(); })")
    page.wait_for_function(f"() => !Array.from({APP}.shell.widgets('main')).some(w => w.sessionContext)",
                           timeout=60_000)
    page.evaluate(f"async () => {{ await {APP}.serviceManager.sessions.shutdownAll();"
                  f" await {APP}.serviceManager.kernels.shutdownAll(); }}")
    deadline = time.monotonic() + 30  # (JupyterLab saves the layout a moment after a change)
    while (saved := page.evaluate(SAVED_NOTEBOOKS)) and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    if saved:
        raise SystemExit(f"the saved layout still opens {saved}: the warm visit would start their kernels too")
    return len(running(page))


def running(page) -> list[str]:
    """The kernels running (the page's kernel manager, refreshed), each with the path of the notebook it serves."""
    return page.evaluate(f"""async () => {{ const m = {APP}.serviceManager; await m.kernels.refreshRunning();
        await m.sessions.refreshRunning(); const paths = Object.fromEntries(Array.from(m.sessions.running(),
        s => [s.kernel?.id, s.path])); return Array.from(m.kernels.running(), k => paths[k.id] ?? k.id); }}""")


def show(name: str, marks: dict) -> str:
    kernels = marks["kernels"]
    return f"{name}: " + ", ".join(f"{k} {v:.1f} s" if "CPU" not in k else f"{v:.1f} {k}" for k, v in marks.items()
                                   if k != "kernels") + f"; {len(kernels)} kernel(s) running at the end {kernels}"


def main() -> int:
    from playwright.sync_api import sync_playwright

    if not (SITE / "jupyter-lite.json").is_file():
        print("no site: python -m lite.build first")
        return 2
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True,
                args=[f for f in CHROMIUM_FLAGS if not f.startswith("--js-flags")],
                viewport={"width": 1280, "height": 900})
            page = context.new_page()
            cold = visit(page, url, profile)
            to_output = SENT[0]
            page.wait_for_timeout(5000)  # what the first visit goes on fetching (the service worker's offline copy)
            first_visit_mb, after_output = SENT[0] / 1e6, [path for sent, path in ORDER if sent > to_output]
            first_files, first_order = dict(FILES), list(ORDER)
            cpu = browser_cpu(profile)
            second_kernel = open_notebook(page, "notebooks/02_the_core_loop.ipynb")
            second_cpu, cpu, start = browser_cpu(profile) - cpu, browser_cpu(profile), time.monotonic()
            first_output(page, "notebooks/02_the_core_loop.ipynb")  # its imports: the kit, the SDK, pydantic
            imports, imports_cpu = time.monotonic() - start, browser_cpu(profile) - cpu
            sent_before = SENT[0]
            left = leave(page)
            warm_page = context.new_page()
            page.close()
            warm = visit(warm_page, url, profile)
            warm_mb = (SENT[0] - sent_before) / 1e6
            context.close()
    finally:
        server.shutdown()
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"first visit: {first_visit_mb:.1f} MB downloaded ({to_output / 1e6:.1f} MB to the first output, "
          f"{first_visit_mb - to_output / 1e6:.1f} MB after it in {len(after_output)} files), {len(first_files)} files")
    groups: dict[str, int] = {}
    for path, size in first_files.items():
        groups[kind(path)] = groups.get(kind(path), 0) + size
    for group, size in sorted(groups.items(), key=lambda item: -item[1]):
        print(f"  {size / 1e6:6.2f} MB  {group}")
    print(show("cold (root address, times from it)", cold))
    print(f"second notebook (lesson 02): its kernel in {second_kernel:.1f} s, {second_cpu:.1f} browser CPU-seconds;"
          f" its first cell (imports the kit and the SDK) in {imports:.1f} s, {imports_cpu:.1f} CPU-seconds")
    print(f"left: the notebooks closed, {left} kernel(s) running, none in the saved layout")
    print(show("warm (a new page, same browser)", warm) + f"; {warm_mb:.1f} MB sent")
    print(f"load average (1/5/15 min): {load}")
    cold, warm = cold["its first output"], warm["its first output"]
    if "--files" in sys.argv:
        print(f"first visit: {len(first_files)} files; the largest:")
        for path, size in sorted(first_files.items(), key=lambda item: -item[1])[:25]:
            print(f"  {size / 1e6:6.2f} MB  {path}")
        every = ROOT / "build" / "lite" / "bench_tab_files.json"  # every file, in the order sent (build/, git-ignored)
        every.write_text(json.dumps([[path, FILES[path], sent <= to_output] for sent, path in first_order],
                                    indent=0))
        print(f"every file of the first visit, in order: {every.relative_to(ROOT)}")
    return 0 if first_visit_mb <= 35 and warm <= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
