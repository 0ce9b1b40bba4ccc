"""Valve 4 in a real JupyterLab: headless Chromium clicks the Approve / Reject buttons; Run All on every
English lesson in the live frontend (02: in test_browser_rerun.py, which then runs each cell again); and what a
person reads tells the truth (issue 37): hostile text in the inspector, the transcript and the buttons' label runs
no script and hides nothing, live and after the notebook is saved and reopened, and no two different calls draw
the same label (a pixel comparison).

The session's JupyterLab server (127.0.0.1, random token) and Chromium page (tests/conftest.py) serve
every browser test file; each notebook is opened as a tab with a fresh kernel (the approval tests click in the tab of
lesson 05's Run All, its kernel's clicker then told to press nothing). Each lesson's Run All happens once
per test session (browser_support.run_all_once): lessons 04 and 06 are also read by test_browser_inspector.py,
from the same run, whichever file asks first. Skipped (loudly) without Debian's Chromium or playwright, failing
instead when CI=true. Screenshots go to .test-output/screenshots/ (gitignored): the window when a case fails, and
the whole notebook when its Run All found a problem (every step's with KIT_TEST_SCREENSHOTS=1).
"""

from __future__ import annotations

import json
import re
import shutil
import time

import pytest

from browser_support import (APPROVAL_TIMEOUT_S, ARTIFACTS, DECISION, EVERY_SCREENSHOT, POLL_MS, REPO, RUN_AGAIN,
                             STDERR_OUTPUT, NetLog, focus_goes_on, focus_state, lesson_notebooks, lesson_problems,
                             run_all_once, take_tab)

pytestmark = pytest.mark.browser

# The lesson notebook whose `approval-demo` cell is clicked through (tests/fixtures/approval_probe.ipynb is a
# minimal stand-in with the same cell, handy when working on the approver itself).
APPROVAL_NOTEBOOK = "notebooks/05_human_in_the_loop.ipynb"
APPROVAL_TAG = "approval-demo"
# The approval cell must ask for one write_file(...) under HARNESS_TOOL_ROOT (lab.tool_root, set by the
# session's server); the test reads path and content from the pending label, and checks the file on disk
# after the decision. The buttons wait APPROVAL_TIMEOUT_S for a click; in the "timeout" case nobody clicks, and the
# approver gives up after UNANSWERED_S (shorter: the test waits that long for nothing).
APPROVAL_ENV = {"HARNESS_APPROVAL_TIMEOUT": str(APPROVAL_TIMEOUT_S)}
UNANSWERED_S = 3  # long enough to see the buttons wait busy, on a loaded machine too

LABEL = ".widget-html-content"  # the approver's label (an ipywidgets HTML widget)
PENDING = re.compile(r"about to run high-impact action write_file\((\{.*\})\)")
COUNTDOWN = re.compile(r"^Click Approve to run it, or Reject\. If nobody answers, it is not approved in (\d+) s\.$", re.M)


def assert_label_reads_well(cell) -> None:
    """The pending label keeps every space, at a wrap too (break-spaces), and wraps with ordinary line gaps (not the
    widget's 28 px)."""
    style = cell.locator(LABEL).first.evaluate(
        "e => { const d = e.querySelector('div') || e; const s = getComputedStyle(d);"
        " return [s.whiteSpace, parseFloat(s.lineHeight), parseFloat(s.fontSize)]; }")
    white_space, line_height, font_size = style
    assert white_space == "break-spaces", style
    assert line_height <= 1.6 * font_size, f"wide gaps between wrapped lines: {style}"


def assert_decided_once(cell) -> None:
    """After a decision the buttons are disabled and the widget is hidden: the printed line is the only decision."""
    buttons = cell.locator(".widget-button")
    assert buttons.count() == 2 and all(b.is_disabled() for b in buttons.all()), "both buttons disabled after a decision"
    assert not any(b.is_visible() for b in buttons.all()) and not cell.locator(LABEL).first.is_visible(), \
        "the widget hides itself once decided"
    shown = cell.locator(".jp-Cell-outputArea").first.inner_text()  # what a person sees (hidden text excluded)
    decisions = [line for line in shown.splitlines() if line.startswith("[approve]") and "→" in line]
    assert len(decisions) == 1, f"the decision shows once (the [record] line after the answer is the run's account):\n{shown}"


def assert_loopback_only(netlog: NetLog) -> None:
    assert netlog.urls, "no request was recorded (the request log is not working)"
    outside = netlog.outside_loopback()
    assert not outside, f"the page made requests that leave 127.0.0.1: {outside[:10]}"


@pytest.fixture(scope="module")
def approval_notebook(browser):
    """The approval notebook open with its setup cells (those above the approval cell) run: the tab of its Run All
    (run_all_once, read by test_lesson_notebooks_run_all_in_live_frontend), left open for these tests, the kernel's
    clicker told to press nothing (KIT_TEST_CLICKS empty: only the test clicks). When that Run All happened before
    (the tab is gone), a fresh tab runs the cells above the approval cell."""
    lab_page, _ = browser
    run_all_once(lab_page, APPROVAL_NOTEBOOK, keep_open=True)
    nb = ran = take_tab(APPROVAL_NOTEBOOK)
    if nb is None:
        nb = lab_page.open_notebook(APPROVAL_NOTEBOOK)
    nb.set_kernel_env({**APPROVAL_ENV, "KIT_TEST_CLICKS": ""})
    gate = nb.index_of_tag(APPROVAL_TAG)
    if gate > 0 and ran is None:
        nb.run_all_above(gate)
        nb.wait_executed(range(gate))
    try:
        yield nb, gate
    finally:
        nb.close()


@pytest.mark.parametrize("action", ["approve", "reject", "timeout"])
def test_approval_gate_in_live_jupyterlab(lab, browser, approval_notebook, action):
    nb, gate = approval_notebook
    source = (REPO / APPROVAL_NOTEBOOK).read_bytes()
    nb.wait_kernel_idle()  # a failed earlier case may have left the cell waiting: it times out
    scratch = lab.tool_root / "scratch"
    shutil.rmtree(scratch)  # the test's own tool root: start each case with an empty scratch/
    scratch.mkdir()

    wait_s = UNANSWERED_S if action == "timeout" else APPROVAL_TIMEOUT_S
    nb.set_kernel_env({"HARNESS_APPROVAL_TIMEOUT": str(wait_s)})  # read when the approver asks
    nb.run_cell(gate)
    cell = nb.cell(gate)
    approve_button = cell.locator(".widget-button:enabled", has_text="Approve")
    reject_button = cell.locator(".widget-button:enabled", has_text="Reject")
    approve_button.wait_for(timeout=15_000)
    reject_button.wait_for(timeout=15_000)
    assert nb.prompt(gate) == "[*]:", "the cell must stay busy while the buttons wait for a person"
    label = cell.locator(LABEL).first.inner_text()
    pending = PENDING.search(label)
    assert pending, "the label shows the pending write_file action"
    countdown = COUNTDOWN.search(label)
    assert countdown and 1 <= int(countdown.group(1)) <= wait_s, f"the label says click Approve, with a countdown: {label!r}"
    assert_label_reads_well(cell)
    action_input = json.loads(pending.group(1))
    effect = lab.tool_root / action_input["path"]
    assert not effect.exists(), "nothing may run before the person decides"
    if action == "timeout" and EVERY_SCREENSHOT:  # (nobody clicks in this case: the screenshot cannot delay a click)
        nb.screenshot(ARTIFACTS / "approval-waiting.png")

    if action == "approve":
        approve_button.click()
    elif action == "reject":
        reject_button.click()
    # "timeout": nobody clicks; the approver gives up after HARNESS_APPROVAL_TIMEOUT seconds

    with nb.screenshot_if_failing(ARTIFACTS / f"approval-{action}.png"):
        nb.wait_executed([gate], timeout_ms=(APPROVAL_TIMEOUT_S + 20) * 1000)
        assert re.fullmatch(r"\[\d+\]:", nb.prompt(gate))
        output = nb.output_text(gate)
        decisions = DECISION.findall(nb.stdout_text(gate))  # printed lines only, not the label
        expected = {
            "approve": "approved",
            "reject": "rejected",
            "timeout": f"not approved (no answer within {UNANSWERED_S:g} s)",  # nobody said no: not "rejected"
        }[action]
        assert decisions == [expected], f"one decision line expected:\n{output}"
        assert_decided_once(cell)

        if action == "approve":
            assert effect.read_text() == action_input["content"], "approved: the tool ran"
        else:
            assert not effect.exists(), "a rejected action must have no side effect"
            assert "was not approved" in output and "declined" not in output, output  # the model's answer blames nobody
        assert not nb.cells_info()[gate]["errors"], output
        assert (REPO / APPROVAL_NOTEBOOK).read_bytes() == source, "the browser run must not save the notebook"
    assert_loopback_only(browser[1])


def test_stop_while_the_buttons_wait_rejects_at_once(lab, browser, approval_notebook):
    """JupyterLab's Stop button (interrupt the kernel) while the buttons wait: the action is rejected right
    away and the run ends with one line, no traceback; nothing is written."""
    nb, gate = approval_notebook
    nb.wait_kernel_idle()
    nb.set_kernel_env(APPROVAL_ENV)
    scratch = lab.tool_root / "scratch"
    shutil.rmtree(scratch)
    scratch.mkdir()

    nb.run_cell(gate)
    cell = nb.cell(gate)
    cell.locator(".widget-button:enabled", has_text="Approve").wait_for(timeout=15_000)
    pending = PENDING.search(cell.locator(LABEL).first.inner_text())
    assert pending, "the label shows the pending write_file action"
    effect = lab.tool_root / json.loads(pending.group(1))["path"]
    assert nb.prompt(gate) == "[*]:"

    with nb.screenshot_if_failing(ARTIFACTS / "approval-interrupted.png"):
        nb.click_toolbar("interrupt")  # JupyterLab's Stop button
        # The approver's timeout is APPROVAL_TIMEOUT_S: the outcome below says whether Stop or the timeout ended it.
        nb.wait_executed([gate], timeout_ms=(APPROVAL_TIMEOUT_S + 20) * 1000)
        assert re.fullmatch(r"\[\d+\]:", nb.prompt(gate)), "the cell is no longer busy"
        assert nb.kernel_state() == "idle"

        line = f"[approve] write_file({pending.group(1)}) → not approved (no answer: the run was stopped)"
        errors = nb.cells_info()[gate]["errors"]
        assert errors == [f"ApprovalInterrupted: {line}"], errors
        shown_error = cell.locator(STDERR_OUTPUT).all_inner_texts()  # how JupyterLab renders the error: one line
        assert [t.strip() for t in shown_error] == [line], shown_error
        output = nb.output_text(gate)
        for noise in ("Traceback", "CancelledError", "KeyboardInterrupt", "no answer within", "declined"):
            assert noise not in output, f"{noise!r} in the cell's output:\n{output}"
        assert not DECISION.findall(nb.stdout_text(gate)), "no other decision line: the run stopped"
        assert_decided_once(cell)
        assert not effect.exists(), "an interrupted approval must have no side effect"
    assert_loopback_only(browser[1])


def test_shift_enter_goes_on_after_a_click(lab, browser, approval_notebook):
    """A learner's flow: Shift+Enter runs the approval cell, a click on Approve decides, and the next Shift+Enter
    runs on from the cell after it: the focus is back in the notebook, and the approval cell does not run again."""
    nb, gate = approval_notebook
    page = nb.page
    nb.wait_kernel_idle()
    nb.set_kernel_env(APPROVAL_ENV)
    cell = nb.cell(gate)
    with nb.screenshot_if_failing(ARTIFACTS / "approval-shift-enter-goes-on.png"):
        cell.locator(".jp-InputPrompt").click()  # select the approval cell as a person does, then command mode
        page.keyboard.press("Escape")
        page.keyboard.press("Shift+Enter")
        cell.locator(".widget-button:enabled", has_text="Approve").click(timeout=15_000)
        nb.wait_executed([gate], timeout_ms=(APPROVAL_TIMEOUT_S + 20) * 1000)
        runs = nb.cells_info()[gate]["count"]
        after_click = focus_goes_on(nb, gate)
        page.keyboard.press("Shift+Enter")
        try:  # (the assertions below say where it went instead)
            page.wait_for_function(f"() => {nb._js}.content.activeCellIndex > {gate + 1}", timeout=15_000,
                                   polling=POLL_MS)
        except Exception:  # playwright's TimeoutError
            pass
        after_keys = focus_state(nb)
        assert after_click["inNotebook"], f"the focus is back in the notebook after the click: {after_click}"
        assert after_click["active"] == gate + 1, f"the cell below the approval cell is the active one: {after_click}"
        assert after_keys["active"] > gate + 1 and nb.cells_info()[gate]["count"] == runs, \
            f"Shift+Enter went on from the cell after the approval cell: {after_click} -> {after_keys}"


def test_lesson_notebooks_run_all_in_live_frontend(browser):
    notebooks = [path for path in lesson_notebooks() if path not in RUN_AGAIN]  # those: test_browser_rerun.py
    if not notebooks:
        pytest.skip("no notebooks/*.ipynb yet: nothing to run in the live frontend")
    lab_page, netlog = browser
    problems = []
    for path, next_path in zip(notebooks, [*notebooks[1:], None]):
        started = time.monotonic()
        problems += lesson_problems(run_all_once(lab_page, path, next_path=next_path))
        print(f"{path}: ran and checked in {time.monotonic() - started:.1f} s (0 s: already run)")  # shown with -s
    assert not problems, "\n\n".join(problems)
    assert_loopback_only(netlog)


# --- issue 37: nothing a model or an endpoint returns runs in the page, hides in it, or colours it -----------

PROBE = "tests/fixtures/true_display_probe.ipynb"  # written by the test below, deleted after it
SCRIPTS = [  # each one, if it ran, adds 1 to window.__pwned
    '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">',
    '1"><img src=x onerror="window.__pwned=(window.__pwned||0)+1">',
    "<svg onload=\"window.__pwned=(window.__pwned||0)+1\"></svg>",
    "<script>window.__pwned=(window.__pwned||0)+1</script>",
    "</code></td></tr></table><iframe srcdoc=\"<script>parent.__pwned=(parent.__pwned||0)+1</script>\"></iframe>",
    "<details open ontoggle=\"window.__pwned=(window.__pwned||0)+1\">x</details>",
    "' onmouseover='window.__pwned=(window.__pwned||0)+1",
    "<style>.jp-Notebook{display:none}</style><b style=\"color:red\">fake</b>",
]
CONTROLS = ["done\x1b[37m", "\x1b[1A\x1b[2K\x1b[1A\x1b[2KNothing was written.", "\x1b]8;;https://x.invalid\x07link\x1b]8;;\x07",
            "approved\rrejected", "a\bb\x9b2J", "\x1b[41m\x1b[5mred\x1b[0m"]
# Pairs of different calls that used to look alike (or could): each must draw differently on the buttons' label.
LOOK_ALIKE = [
    {"path": "scratch/a.txt", "content": "hi"}, {"path": "scratch/a\ufffc.txt", "content": "hi"},
    {"path": "scratch/answer.txt", "content": "hi"}, {"path": "scratch/\u0430nswer.txt", "content": "hi"},
    {"path": "scratch/a.txt", "content": "rm -rf ~"}, {"path": "scratch/a.txt", "content": "rm -rf \ufffc~"},
    {"path": "scratch/a.txt", "content": "rm -rf \u2800~"}, {"path": "scratch/a.txt", "content": "rm -rf \u3164~"},
    {"path": "scratch/a.txt", "content": "rm -rf\u00a0~"}, {"path": "scratch/a.txt", "content": "rm -rf \U000e0041~"},
    {"path": "scratch/a.txt", "content": "rm -rf \ufe0f~"}, {"path": "scratch/a.txt", "content": "rm -rf \u200b~"},
    {"path": "scratch/a.txt", "content": "e\u0301"}, {"path": "scratch/a.txt", "content": "\u00e9"},
    {"path": "scratch/a.txt", "content": ""}, {"path": "scratch/a.txt", "content": "\U0001d159"},
    {"path": "scratch/a.txt", "content": "x" + " " * 20_000}, {"path": "scratch/a.txt", "content": "x" + " " * 19_999},
    {"path": "scratch/a.txt", "content": "x" + " " * 15}, {"path": "scratch/a.txt", "content": "x" + " " * 14},
    {"path": "scratch/a.txt", "content": "\u02ba" + " " * 300 + "\u02ba)"},
    {"path": "scratch/a.txt", "content": '"' + " " * 300 + '")'},
]


def probe_notebook() -> dict:
    """A notebook that draws hostile events in the inspector, prints hostile answers through Transcript, and asks
    about each LOOK_ALIKE call with the buttons (nobody auto-clicks: the test does)."""
    data = json.dumps({"scripts": SCRIPTS, "controls": CONTROLS, "calls": LOOK_ALIKE})

    def code(source: str, cell_id: str) -> dict:
        return {"cell_type": "code", "id": cell_id, "metadata": {}, "execution_count": None, "outputs": [],
                "source": source}

    return {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "language": "python",
                                                                             "display_name": "Python 3"}},
            "cells": [
                code("import json, os, tempfile\n"
                     "os.environ['HARNESS_AUTO_APPROVE'] = ''\nos.environ['HARNESS_APPROVAL_TIMEOUT'] = ''\n"
                     "from harness_ui.inspector import Inspector\nfrom harness_lib.trace import Transcript\n"
                     "from harness_ui.widget import widget_approver\n"
                     f"DATA = json.loads({data!r})\n"
                     "HOSTILE = DATA['scripts'] + DATA['controls']", "setup"),
                code("events = [{'event': 'start', 'input': 'x', 'model': 'm'}]\n"
                     "for n, p in enumerate(HOSTILE, 1):\n"
                     "    events += [{'event': 'request', 'n': n, 'usage': {'input_tokens': 1}},\n"
                     "               {'event': 'tool_call', 'turn': n, 'id': p, 'name': p, 'input': {'path': p, p: p}},\n"
                     "               {'event': 'approval', 'turn': n, 'name': p, 'input': {'path': p, p: p}, 'approved': False},\n"
                     "               {'event': 'tool_result', 'turn': n, 'id': p, 'name': p, 'content': p, 'is_error': True}]\n"
                     "events += [{'event': 'request', 'n': n + 1, 'usage': {}},\n"
                     "           {'event': 'end', 'turn': n + 1, 'stop_reason': HOSTILE[0], 'stopped_by': HOSTILE[1],\n"
                     "            'text': '\\n'.join(HOSTILE), 'note': None, 'turns': n, 'requests': n + 1, 'tokens_used': 1}]\n"
                     "Inspector.from_events(events)", "inspector"),
                code("path = os.path.join(tempfile.mkdtemp(), 'run.jsonl')\n"
                     "with open(path, 'w') as f:\n"
                     "    for p in HOSTILE:\n"
                     "        f.write(json.dumps({'event': 'request', 'n': p}) + '\\n')\n"
                     "try:\n    Inspector.from_jsonl(path)\nexcept ValueError as err:\n    print(err)\n"
                     "Inspector.from_events([{'event': 'start'}, {'event': 'error', 'message': '\\n'.join(HOSTILE)}])",
                     "from-file"),
                code("t = Transcript()\nfor p in HOSTILE:\n"
                     "    t({'event': 'tool_call', 'turn': 1, 'id': 't', 'name': p, 'input': {'path': p}})\n"
                     "    t({'event': 'end', 'turn': 2, 'stop_reason': p, 'stopped_by': 'unknown_stop', 'text': p,\n"
                     "       'note': None, 'turns': 1, 'requests': 2, 'tokens_used': 1})\n"
                     "t({'event': 'tool_call', 'turn': 1, 'id': 't', 'name': 'get_time', 'input': {}})", "transcript"),
                code("approve = widget_approver(timeout=None)\n"
                     "for call in DATA['calls']:\n    await approve('write_file', call)", "buttons"),
            ]}


def test_nothing_a_model_returns_runs_hides_or_colours_in_jupyterlab(lab, browser):
    """Hostile text (scripts, markup, escape codes, characters that draw nothing, padding, look-alike letters) in
    every field the inspector draws, in a transcript file, in the answers and stop reasons Transcript prints, and
    in the calls the buttons ask about: live, then saved (signed, so trusted) and reopened. No script runs, no
    control character reaches the page, nothing is coloured by an answer, and no two different calls draw the same
    label (a pixel comparison of the buttons' labels, as drawn and a quarter narrower, as in a narrower window or
    beside JupyterLab's file browser: a run of spaces where a line wrapped once hung past the line's end, so "x" and
    15 spaces looked like "x" and 14)."""
    from io import BytesIO

    from PIL import Image

    def pixels(element) -> tuple:
        image = Image.open(BytesIO(element.screenshot())).convert("RGB")
        return image.size, image.tobytes()

    lab_page, _ = browser
    page = lab_page.page
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.evaluate("() => { window.__pwned = 0; }")
    probe = REPO / PROBE
    probe.write_text(json.dumps(probe_notebook()), encoding="utf-8")
    nb = None
    try:
        nb = lab_page.open_notebook(PROBE)
        nb.run_all_above(4)
        nb.wait_executed(range(4))
        nb.run_cell(4)  # the buttons: it waits for the clicks below
        cell = nb.cell(4)  # the "buttons" cell
        drawn = {False: [], True: []}  # the labels as drawn, and drawn a quarter narrower
        for i in range(len(LOOK_ALIKE)):
            reject = cell.locator(".widget-button:enabled", has_text="Reject")
            reject.wait_for(timeout=15_000)
            assert cell.locator(".widget-button").count() == 2 * (i + 1)  # question i's own buttons, not the last ones
            label = cell.locator(LABEL).last
            drawn[False].append(pixels(label))  # as the notebook shows it
            label.evaluate("e => { e.style.maxWidth = Math.round(e.clientWidth * 0.75) + 'px'; }")
            drawn[True].append(pixels(label))  # a quarter narrower: its lines wrap elsewhere
            label.evaluate("e => { e.style.maxWidth = ''; }")
            reject.click()
            if i + 1 < len(LOOK_ALIKE):  # wait for the next question's buttons
                page.wait_for_function(f"() => document.getElementById({json.dumps(nb.panel_id)}).querySelectorAll("
                                       f"'.jp-Cell')[4].querySelectorAll('.widget-button').length >= {2 * (i + 2)}",
                                       timeout=15_000, polling=50)
        nb.wait_executed(range(5), timeout_ms=60_000)

        def read_page(stage: str) -> dict:
            return page.evaluate(
                f"() => {{ const root = document.getElementById({json.dumps(nb.panel_id)});"
                " const areas = Array.from(root.querySelectorAll('.jp-Cell-outputArea'));"
                " const text = areas.map(a => a.innerText).join('\\n');"
                " const q = s => areas.reduce((n, a) => n + a.querySelectorAll(s).length, 0);"
                " return { pwned: window.__pwned, text,"
                "  foreign: q('.hl-inspector img, .hl-inspector svg, .hl-inspector script, .hl-inspector iframe,"
                "            .hl-inspector details, .hl-inspector style:not(:first-child), .jp-RenderedText img,"
                "            .jp-RenderedText script'),"
                "  ansi: q('[class*=\"ansi-\"]'), inspectors: q('.hl-inspector'),"
                "  styled: q('.hl-inspector [style]') }; }")

        live = read_page("live")
        nb.command("docmanager:save")
        page.wait_for_function(f"() => {nb._js}.context.model.dirty === false", timeout=30_000, polling=POLL_MS)
        nb.close()
        deadline = time.monotonic() + 30
        while any(s["path"] == PROBE for s in lab.api("/api/sessions")):  # its kernel is gone: the next one is new
            assert time.monotonic() < deadline, "the closed probe's kernel session was still there after 30 s"
            page.wait_for_timeout(100)
        saved = json.loads(probe.read_text(encoding="utf-8"))
        assert all(cell["outputs"] for cell in saved["cells"][1:]), "the save wrote the run's outputs"
        nb = lab_page.open_notebook(PROBE)
        page.wait_for_function(  # the saved outputs are drawn again (then a moment for anything they might run)
            f"() => document.getElementById({json.dumps(nb.panel_id)}).querySelectorAll('.hl-inspector').length >= 2",
            timeout=30_000, polling=POLL_MS)
        page.wait_for_timeout(500)
        reopened = read_page("reopened")
    finally:
        if nb is not None:
            nb.close()
        probe.unlink(missing_ok=True)
        checkpoint = probe.parent / ".ipynb_checkpoints"
        if checkpoint.exists():
            shutil.rmtree(checkpoint)

    for narrow, labels in drawn.items():
        same = [(LOOK_ALIKE[i], LOOK_ALIKE[j]) for i in range(len(labels)) for j in range(i + 1, len(labels))
                if labels[i] == labels[j]]
        assert not same, f"{'a quarter narrower: ' * narrow}different calls drawn alike: {same[:3]}"
    for stage, seen in (("live", live), ("saved and reopened", reopened)):
        assert seen["pwned"] == 0 and not dialogs, f"{stage}: a script ran ({seen['pwned']}, {dialogs})"
        assert seen["inspectors"] >= 2 and seen["foreign"] == 0 and seen["styled"] == 0, (stage, seen)
        assert seen["ansi"] == 0, f"{stage}: an answer's escape code coloured the page"
        raw = re.findall(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffc\u202e]", seen["text"])
        assert not raw, f"{stage}: {len(raw)} raw control characters on the page"
    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, (list, dict)):
            for item in (value.values() if isinstance(value, dict) else value):
                yield from strings(item)

    saved_text = "".join(strings([cell.get("outputs", []) for cell in saved["cells"]]))
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffc\u202e]", saved_text), \
        "a raw control character was saved in an output"
    print(f"issue 37 browser fuzz: {len(SCRIPTS)} script payloads x {len(SCRIPTS + CONTROLS)} fields each, "
          f"{len(CONTROLS)} control payloads, {len(LOOK_ALIKE)} calls ({len(labels) * (len(labels) - 1) // 2} "
          f"label pairs compared): scripts run live {live['pwned']}, reopened {reopened['pwned']}; raw controls 0; "
          "label pairs alike 0")
