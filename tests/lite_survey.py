"""Every lesson and exercise of the browser-tab site, Run All in Chromium, offline: what errs, and what differs.

    python -m lite.build            # the site, once (build/lite/site/)
    python tests/lite_survey.py     # ~5 min here: 24 notebooks, each in its own tab and Pyodide kernel

For each notebook the site ships (lessons 00-06 and the exercises' starters, English and Spanish) it opens the
notebook as a learner would, presses Run All, and reports: every error output and every cell left unexecuted (the
exit status is 1 if there is any), then each code cell whose printed output differs from the committed notebook's
after tests/sanitize.cfg (the clock), with its first differing line, and whether any request left 127.0.0.1.

A difference is not an error: some cells describe the machine they run on (Python's version, where the kit is
installed), and in the tab lesson 05's approval cells start their run in a panel instead of awaiting it, so
their transcript is in the panel (widget state), not in the cell's printed output. docs/development.md lists
what this reported last and why each difference is expected. The test command does not run this (it would take
minutes): tests/test_lite.py runs lessons 02 and 04, exercise 01 and lesson 05's approval cells in the tab.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_lite  # noqa: E402  (its Tab drives the site; its helpers read the committed notebooks)
from sanitizer import sanitize  # noqa: E402

NOTEBOOKS = [f"{folder}/{name}" for folder in ("notebooks", "notebooks/es")
             for name in sorted(p.name for p in (test_lite.REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))]
NOTEBOOKS += [f"{folder}/{name}" for folder in ("exercises", "exercises/es")
              for name in sorted(p.name for p in (test_lite.REPO / "exercises").glob("[0-9][0-9]_*.ipynb"))]


def printed(outputs) -> str:
    return "".join("".join(o.get("text", "")) for o in outputs if o.get("output_type") == "stream")


def first_difference(got: str, want: str) -> str:
    for i, (a, b) in enumerate(zip(got.splitlines() + [""] * 99, want.splitlines() + [""] * 99)):
        if a != b:
            return f"line {i + 1}: tab {a[:90]!r} | saved {b[:90]!r}"
    return "(same lines, other line ends)"


def survey(tab, path: str) -> tuple[list[str], list[str]]:
    start = time.monotonic()
    tab.open(path)
    opened = time.monotonic()
    cells = tab.run_all(path)
    errors = test_lite.errors(path, cells)
    differs = []
    for i, (cell, saved) in enumerate(zip(cells, test_lite.committed(path), strict=True)):
        if cell["type"] == "code":
            got, want = sanitize(printed(cell["outputs"])), sanitize(printed(saved.get("outputs", [])))
            if got != want:
                differs.append(f"  cell {i}: {first_difference(got, want)}")
    print(f"{path}: kernel {opened - start:.1f} s, Run All {time.monotonic() - opened:.1f} s, "
          f"{len(errors)} error(s), {len(differs)} cell(s) print otherwise", flush=True)
    for line in errors + differs:
        print(line if line.startswith("  ") else f"  ERROR {line}", flush=True)
    tab.page.evaluate(f"() => {{ const w = {tab._find(path)}; return w.sessionContext.shutdown().then(() => w.dispose()); }}")
    return errors, differs


def main() -> int:
    reason = test_lite.site_missing()
    if reason:
        print(f"cannot survey: {reason}")
        return 2
    fixture = test_lite.tab.__wrapped__(TmpFactory())  # the tests' own server and Chromium, as a generator
    tab = next(fixture)
    failed = []
    try:
        for path in NOTEBOOKS:
            errors, _ = survey(tab, path)
            failed += errors
        outside = tab.netlog.outside_loopback()
        print("requests that left 127.0.0.1:", outside or "none")
    finally:
        fixture.close()
    return 1 if failed or outside else 0


class TmpFactory:
    """What pytest's tmp_path_factory gives the fixture: a fresh folder."""

    def mktemp(self, name: str) -> Path:
        import tempfile

        return Path(tempfile.mkdtemp(prefix=f"{name}-"))


if __name__ == "__main__":
    sys.exit(main())
