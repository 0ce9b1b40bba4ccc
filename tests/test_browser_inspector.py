"""The run inspector in a real JupyterLab: lessons 04 and 06 and exercise 3's solution (both editions) run in the
live frontend, and the drawn runs are read back from the DOM -- rows, gauges (<meter> and their text), the cycle
rows, the approval decisions, the ending -- in the light theme and in the dark one.

Each notebook is opened as a tab with a fresh kernel in the session's JupyterLab and Chromium page
(tests/conftest.py) and run with Run All, under the same approval switch as the nbval runs. Screenshots of the
drawn cells, light and dark, go to .test-output/screenshots/ (gitignored). Skipped (loudly) without /usr/bin/chromium or
playwright, failing instead when CI=true.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from browser_support import ARTIFACTS, REPO, RUN_ALL_ENV, RUN_ALL_TIMEOUT_S, _APP

pytestmark = pytest.mark.browser

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

WORDS = {
    "en": {"turns": "turns against the cap", "tokens": "tokens against the budget", "budget": "How it ended: valve 2",
           "cycle": "How it ended: valve 3", "cap": "How it ended: valve 1", "over": "over the budget by",
           "refused": "not approved", "end_turn": "How it ended: the model ended its turn (end_turn)."},
    "es": {"turns": "turnos frente al tope", "tokens": "tokens frente al presupuesto",
           "budget": "Cómo terminó: la detuvo la válvula 2", "cycle": "Cómo terminó: la detuvo la válvula 3", "cap": "Cómo terminó: la detuvo la válvula 1",
           "over": "por encima del presupuesto", "refused": "no aprobada",
           "end_turn": "Cómo terminó: el modelo terminó su turno (end_turn)."},
}


def rows(table: dict) -> list[dict]:
    return [r for r in table["rows"] if "hl-row" in r["classes"]]


def end(table: dict) -> dict:
    [row] = [r for r in table["rows"] if "hl-end" in r["classes"]]
    return row


def meter(row: dict, label: str) -> tuple[float, float]:
    [m] = [m for m in row["meters"] if m["label"] == label]
    return m["value"], m["max"]


def luminance(css: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def set_theme(page, theme: str) -> None:
    light = "true" if "Light" in theme else "false"
    page.evaluate(f"() => {_APP}.commands.execute('apputils:change-theme', {{theme: {json.dumps(theme)}}})")
    page.wait_for_function(f"() => document.body.dataset.jpThemeLight === '{light}'", timeout=30_000)
    page.wait_for_timeout(300)  # the theme's CSS variables reach every element


def run_and_read(lab_page, path: str, cells: list[str], shot: str) -> dict:
    """Run All on `path`; per cell id, its tables and colours in the light theme, then in the dark one."""
    source = (REPO / path).read_bytes()
    nb = lab_page.open_notebook(path)
    page = lab_page.page
    found = {}
    try:
        nb.set_kernel_env(RUN_ALL_ENV)
        assert nb.run_all(timeout_ms=RUN_ALL_TIMEOUT_S * 1000), f"{path}: Run All did not finish"
        nb.wait_kernel_idle(timeout_ms=30_000)
        handle = page.evaluate_handle(f"() => {nb._js}")
        for theme in ("JupyterLab Light", "JupyterLab Dark"):
            set_theme(page, theme)
            for cell_id in cells:
                tables = page.evaluate(READ_TABLES, [handle, cell_id])
                assert tables, f"{path}: no inspector drawn in cell {cell_id!r}"
                found[(cell_id, theme)] = {"tables": tables, "colours": page.evaluate(COLOURS, [handle, cell_id])}
                locator = page.locator(f"#{nb.panel_id} .jp-Cell").nth(
                    page.evaluate("([nb, id]) => nb.content.widgets.findIndex(c => c.model.id === id)",
                                  [handle, cell_id]))
                locator.scroll_into_view_if_needed()
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                suffix = "light" if "Light" in theme else "dark"
                locator.screenshot(path=str(ARTIFACTS / f"inspector-{shot}-{cell_id}-{suffix}.png"))
    finally:
        set_theme(page, "JupyterLab Light")  # the page is shared with the other browser tests
        nb.close()
    assert (REPO / path).read_bytes() == source, f"{path}: the browser run saved the notebook"
    return found


def check_colours(found: dict) -> None:
    for (cell_id, theme), seen in found.items():
        colours = seen["colours"]
        assert colours["error"] and colours["error"] != colours["text"], (cell_id, theme, colours)
        if "Dark" in theme:  # light text on the dark page: the theme's variables reached the picture
            assert luminance(colours["text"]) > 128 > luminance(colours["page"]), (cell_id, colours)
        else:
            assert luminance(colours["text"]) < 128 < luminance(colours["page"]), (cell_id, colours)


@pytest.mark.parametrize("edition", ["en", "es"])
def test_lesson_04_draws_the_budget_and_the_side_by_side(browser, edition):
    lab_page, netlog = browser
    path = "notebooks/04_runaway.ipynb" if edition == "en" else "notebooks/es/04_runaway.ipynb"
    w = WORDS[edition]
    found = run_and_read(lab_page, path, ["budget-drawn", "side-by-side"], f"04-{edition}")
    check_colours(found)
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        [hog] = found[("budget-drawn", theme)]["tables"]
        drawn = rows(hog)
        assert len(drawn) == 8  # one row per request
        assert [meter(r, w["turns"]) for r in drawn] == [(n, 8) for n in range(1, 8)] + [(7, 8)]
        budgets = [meter(r, w["tokens"]) for r in drawn]
        assert all(b[1] == 40_000 for b in budgets) and budgets == sorted(budgets) and budgets[-1][0] == 40_000
        assert budgets[-2][0] < 40_000  # the eighth response crossed it
        assert w["over"] in drawn[-1]["marks"]["hl-over"][0] and not drawn[-2]["marks"]["hl-over"]
        assert all(r["marks"]["hl-error"] for r in drawn[:7])  # each read failed: marked in words too
        assert end(hog)["stoppedBy"] == "token_budget" and w["budget"] in end(hog)["text"]

        capped, guarded = found[("side-by-side", theme)]["tables"]
        assert len(rows(capped)) == 9 and len(rows(guarded)) == 4
        assert [("hl-repeat" in r["classes"]) for r in rows(guarded)] == [False, False, True, True]
        assert rows(guarded)[3]["marks"]["hl-cycle"], "the cycle row is marked in words"
        assert all("hl-repeat" in r["classes"] for r in rows(capped)[2:8])  # the cap let the cycle go round
        assert end(capped)["stoppedBy"] == "max_turns" and w["cap"] in end(capped)["text"]
        assert end(guarded)["stoppedBy"] == "no_progress" and w["cycle"] in end(guarded)["text"]
    assert not netlog.outside_loopback()


@pytest.mark.parametrize("edition", ["en", "es"])
def test_lesson_06_draws_the_live_run_the_cycle_and_the_refused_approval(browser, edition):
    lab_page, netlog = browser
    path = "notebooks/06_the_full_harness.ipynb" if edition == "en" else "notebooks/es/06_the_full_harness.ipynb"
    w = WORDS[edition]
    found = run_and_read(lab_page, path, ["lesson-drawn", "sweep-drawn"], f"06-{edition}")
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        [lesson] = found[("lesson-drawn", theme)]["tables"]  # show(): the live picture, updated to its last state
        assert len(rows(lesson)) == 3 and not [r for r in lesson["rows"] if "hl-waiting" in r["classes"]]
        assert [meter(r, w["turns"]) for r in rows(lesson)] == [(1, 8), (2, 8), (2, 8)]
        assert end(lesson)["stoppedBy"] == "end_turn" and w["end_turn"] in end(lesson)["text"]

        pingpong, injection = found[("sweep-drawn", theme)]["tables"]
        assert rows(pingpong)[3]["marks"]["hl-cycle"] and "hl-repeat" in rows(pingpong)[3]["classes"]
        assert end(pingpong)["stoppedBy"] == "no_progress"
        [deleted] = [r for r in rows(injection) if "delete_file" in r["text"]]
        assert deleted["marks"]["hl-refused"] == [w["refused"]] and deleted["marks"]["hl-error"]
        assert end(injection)["stoppedBy"] == "end_turn"
    check_colours({k: v for k, v in found.items() if k[0] == "sweep-drawn"})
    assert not netlog.outside_loopback()


def test_the_saved_picture_shows_without_running(browser):
    """Opened as committed (not run, so not trusted: JupyterLab sanitizes its HTML, data- attributes and all),
    the picture still shows its rows and, in words, the gauges' numbers and the ending."""
    lab_page, netlog = browser
    path = "notebooks/04_runaway.ipynb"
    nb = lab_page.open_notebook(path)
    try:
        handle = lab_page.page.evaluate_handle(f"() => {nb._js}")
        [hog] = lab_page.page.evaluate(READ_TABLES, [handle, "budget-drawn"])
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        index = lab_page.page.evaluate("([nb, id]) => nb.content.widgets.findIndex(c => c.model.id === id)",
                                       [handle, "budget-drawn"])
        nb.cell(index).scroll_into_view_if_needed()
        nb.cell(index).screenshot(path=str(ARTIFACTS / "inspector-04-en-budget-drawn-saved.png"))
    finally:
        nb.close()
    drawn = rows(hog)
    assert len(drawn) == 8
    assert [("turns %d of 8" % n) in r["text"] for n, r in zip(list(range(1, 8)) + [7], drawn)] == [True] * 8
    spent = re.search(r"tokens ([\d,]+) of 40,000 over the budget by ([\d,]+)", drawn[-1]["text"])
    used, over = (int(g.replace(",", "")) for g in spent.groups())
    assert used - 40_000 == over > 0
    assert "How it ended: valve 2, the token budget, stopped it (token_budget)." in end(hog)["text"]
    assert not netlog.outside_loopback()


@pytest.mark.parametrize("edition", ["en", "es"])
def test_exercise_try_cell_draws_the_learners_loop_beside_the_library(browser, edition):
    """Exercise 3's solution, Run All: its try-cycle cell draws the learner's loop (with find_short_cycle, read
    from the history it returned: no tokens) beside harness_lib.run_agent on ping-pong, both stopped by valve 3."""
    lab_page, netlog = browser
    folder = "exercises/solutions" if edition == "en" else "exercises/es/solutions"
    found = run_and_read(lab_page, f"{folder}/03_budget_and_progress.ipynb", ["try-cycle"], f"ex03-{edition}")
    check_colours(found)
    w = WORDS[edition]
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        mine, reference = found[("try-cycle", theme)]["tables"]
        yours = "your loop" if edition == "en" else "tu bucle"
        assert (mine["caption"], reference["caption"]) == (yours, "harness_lib.run_agent")
        for table in (mine, reference):
            drawn = rows(table)
            assert len(drawn) == 4  # three turns ran (A B A); the fourth response asked for B again
            assert [meter(r, w["turns"]) for r in drawn] == [(1, 8), (2, 8), (3, 8), (3, 8)]
            assert [("read_file" in r["text"], "get_time" in r["text"]) for r in drawn[:3]] == [
                (True, False), (False, True), (True, False)]
            assert drawn[2]["marks"]["hl-same"] and "hl-repeat" in drawn[2]["classes"]  # A again: marked in words
            assert end(table)["stoppedBy"] == "no_progress" and w["cycle"] in end(table)["text"]
        # the learner's history holds no usage: no budget gauge on their side, one on every row of the library's
        assert not any(m["label"] == w["tokens"] for r in rows(mine) for m in r["meters"])
        assert all(any(m["label"] == w["tokens"] for m in r["meters"]) for r in rows(reference))
        # run_agent emitted its stop: the call it did not run is drawn, and the cycle is named on that row
        assert rows(reference)[3]["marks"]["hl-cycle"] and "hl-repeat" in rows(reference)[3]["classes"]
        assert "get_time" in rows(reference)[3]["text"] and not rows(mine)[3]["marks"]["hl-cycle"]
    assert not netlog.outside_loopback()
