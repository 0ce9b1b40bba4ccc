"""The run inspector in a real JupyterLab: lessons 04 and 06 and exercise 3's solution run in the live frontend,
and the drawn runs are read back from the DOM -- rows, gauges (<meter> and their text), the cycle rows, the
approval decisions, the ending -- in the light theme and in the dark one.

Each notebook's Run All happens once per test session (browser_support.run_all_once, in the session's JupyterLab
and Chromium page, tests/conftest.py), under the same approval switch as the nbval runs; test_browser.py (lessons
04 and 06) and test_browser_exercises.py (exercise 3's solution) read the same run, whichever file asks first.
Run alone, this file runs them itself. The pictures are read in both themes from that one run (a theme switch, not
another Run All): first in the theme the page is in, then in the other one, which the page keeps for the next
notebook (one switch per notebook, not a switch and a switch back).

The Spanish words and colours are checked on one notebook, lesson 04 in Spanish: the Spanish twins run the same
code as the English ones (tests/test_spanish_edition.py proves it, and nbval runs every notebook of both editions),
so a Spanish Run All of 06 or of exercise 3 would only show the same tables again; what the browser adds for the
Spanish edition is the words on the page, and one notebook shows them all (the gauges' labels, the endings, the
marks). With KIT_TEST_SCREENSHOTS=1, screenshots of the drawn cells, light and dark, go to .test-output/screenshots/
(gitignored). Skipped
(loudly) without Debian's Chromium or playwright, failing instead when CI=true.
"""

from __future__ import annotations

import json
import re

import pytest

from browser_support import REPO, THEMES, run_all_once

pytestmark = pytest.mark.browser

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


def run_and_read(browser, path: str) -> dict:
    """Run All on `path` (once per session: run_all_once); per (cell id, theme), its tables and colours."""
    lab_page, _ = browser
    run = run_all_once(lab_page, path)
    assert run.finished, f"{path}: Run All did not finish"
    assert not run.saved, f"{path}: the browser run saved the notebook"
    for (cell_id, theme), seen in run.pictures.items():
        assert seen["tables"], f"{path}: no inspector drawn in cell {cell_id!r} ({theme})"
    assert {theme for _, theme in run.pictures} == set(THEMES), run.pictures.keys()
    return run.pictures


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
    """Lesson 04 in both editions: the one Spanish notebook this file runs (see the module docstring)."""
    netlog = browser[1]
    path = "notebooks/04_runaway.ipynb" if edition == "en" else "notebooks/es/04_runaway.ipynb"
    w = WORDS[edition]
    found = run_and_read(browser, path)
    check_colours(found)
    for theme in THEMES:
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
        # marked only where valve 3's own test finds the loop: A, B, A is not one yet; A, B, A, B is
        assert [("hl-repeat" in r["classes"]) for r in rows(guarded)] == [False, False, False, True]
        assert rows(guarded)[3]["marks"]["hl-cycle"], "the cycle row is marked in words"
        assert all("hl-repeat" in r["classes"] for r in rows(capped)[3:8])  # the cap let the cycle go round
        assert "hl-repeat" not in rows(capped)[2]["classes"]
        assert end(capped)["stoppedBy"] == "max_turns" and w["cap"] in end(capped)["text"]
        assert end(guarded)["stoppedBy"] == "no_progress" and w["cycle"] in end(guarded)["text"]
    assert not netlog.outside_loopback()


def test_lesson_06_draws_the_live_run_the_cycle_and_the_refused_approval(browser):
    netlog = browser[1]
    w = WORDS["en"]
    found = run_and_read(browser, "notebooks/06_the_full_harness.ipynb")
    for theme in THEMES:
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
    the picture still shows its rows and, in words, the gauges' numbers and the ending. (Read by the same
    run_all_once() as the other tests, before it runs the notebook.)"""
    lab_page, netlog = browser
    run = run_all_once(lab_page, "notebooks/04_runaway.ipynb")
    [hog] = run.saved_pictures["budget-drawn"]
    drawn = rows(hog)
    assert len(drawn) == 8
    assert [("turns %d of 8" % n) in r["text"] for n, r in zip(list(range(1, 8)) + [7], drawn)] == [True] * 8
    spent = re.search(r"tokens ([\d,]+) of 40,000 over the budget by ([\d,]+)", drawn[-1]["text"])
    used, over = (int(g.replace(",", "")) for g in spent.groups())
    assert used - 40_000 == over > 0
    assert "How it ended: valve 2, the token budget, stopped it (token_budget)." in end(hog)["text"]
    assert not netlog.outside_loopback()


def test_exercise_try_cell_draws_the_learners_loop_beside_the_library(browser):
    """Exercise 3's solution, Run All: its try-cycle cell draws the learner's loop (with find_short_cycle, read by
    harness_ui.replay from what the offline model was sent and answered: tokens too) beside harness_lib.run_agent on
    ping-pong, both stopped by valve 3."""
    netlog = browser[1]
    found = run_and_read(browser, "exercises/solutions/03_budget_and_progress.ipynb")
    check_colours(found)
    w = WORDS["en"]
    for theme in THEMES:
        mine, reference = found[("try-cycle", theme)]["tables"]
        assert (mine["caption"], reference["caption"]) == ("your loop", "harness_lib.run_agent")
        for table in (mine, reference):
            drawn = rows(table)
            assert len(drawn) == 4  # three turns ran (A B A); the fourth response asked for B again
            assert [meter(r, w["turns"]) for r in drawn] == [(1, 8), (2, 8), (3, 8), (3, 8)]
            assert [("read_file" in r["text"], "get_time" in r["text"]) for r in drawn[:3]] == [
                (True, False), (False, True), (True, False)]
            assert "hl-repeat" not in drawn[2]["classes"]  # A again after B: no loop yet, not marked
            assert end(table)["stoppedBy"] == "no_progress" and w["cycle"] in end(table)["text"]
        ref = rows(reference)  # run_agent's stop names the cycle: B asked again is marked as the cycle
        assert ref[3]["marks"]["hl-cycle"] and "hl-repeat" in ref[3]["classes"]
        # both runs are read with their usage (the replay reads the offline API's record): a budget gauge on every row
        assert all(any(m["label"] == w["tokens"] for m in r["meters"]) for r in rows(mine) + rows(reference))
        # run_agent emitted its stop: the call it did not run is drawn, and the cycle is named on that row
        assert rows(reference)[3]["marks"]["hl-cycle"] and "hl-repeat" in rows(reference)[3]["classes"]
        assert "get_time" in rows(reference)[3]["text"] and not rows(mine)[3]["marks"]["hl-cycle"]
    assert not netlog.outside_loopback()
    # The Spanish twin is not run here (see the module docstring): its captions are the titles its cell passes,
    # which the English run above shows become the captions.
    for folder, yours in (("exercises/solutions", "your loop"), ("exercises/es/solutions", "tu bucle")):
        cell = try_cycle_source(f"{folder}/03_budget_and_progress.ipynb")
        assert f'titles=("{yours}", "harness_lib.run_agent")' in cell, cell


def try_cycle_source(path: str) -> str:
    cells = json.loads((REPO / path).read_text(encoding="utf-8"))["cells"]
    [cell] = [c for c in cells if c.get("id") == "try-cycle"]
    return "".join(cell["source"])
