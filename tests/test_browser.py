"""Valve 4 in a real JupyterLab: headless Chromium clicks the Approve / Reject buttons; and Run All on
every English lesson in the live frontend (02: in test_browser_rerun.py, which then runs each cell again).

The session's JupyterLab server (127.0.0.1, random token) and Chromium page (tests/conftest.py) serve
every browser test file; each notebook is opened as a tab with a fresh kernel. Each lesson's Run All happens once
per test session (browser_support.run_all_once): lessons 04 and 06 are also read by test_browser_inspector.py,
from the same run, whichever file asks first. Skipped (loudly) without Debian's Chromium or playwright, failing
instead when CI=true. Screenshots go to .test-output/screenshots/ (gitignored): the window after each case and
each Run All, and the whole notebook when its Run All found a problem.
"""

from __future__ import annotations

import json
import re
import shutil
import time

import pytest

from browser_support import (APPROVAL_TIMEOUT_S, ARTIFACTS, DECISION, REPO, RUN_AGAIN, STDERR_OUTPUT, NetLog,
                             lesson_notebooks, lesson_problems, run_all_once)

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
    """The pending label keeps every space (pre-wrap) and wraps with ordinary line gaps (not the widget's 28 px)."""
    style = cell.locator(LABEL).first.evaluate(
        "e => { const d = e.querySelector('div') || e; const s = getComputedStyle(d);"
        " return [s.whiteSpace, parseFloat(s.lineHeight), parseFloat(s.fontSize)]; }")
    white_space, line_height, font_size = style
    assert white_space == "pre-wrap", style
    assert line_height <= 1.6 * font_size, f"wide gaps between wrapped lines: {style}"


def assert_decided_once(cell) -> None:
    """After a decision the buttons are disabled and the widget is hidden: the printed line is the only decision."""
    buttons = cell.locator(".widget-button")
    assert buttons.count() == 2 and all(b.is_disabled() for b in buttons.all()), "both buttons disabled after a decision"
    assert not any(b.is_visible() for b in buttons.all()) and not cell.locator(LABEL).first.is_visible(), \
        "the widget hides itself once decided"
    shown = cell.locator(".jp-Cell-outputArea").first.inner_text()  # what a person sees (hidden text excluded)
    assert shown.count("→") == 1, f"the decision shows once:\n{shown}"


def assert_loopback_only(netlog: NetLog) -> None:
    assert netlog.urls, "no request was recorded (the request log is not working)"
    outside = netlog.outside_loopback()
    assert not outside, f"the page made requests that leave 127.0.0.1: {outside[:10]}"


@pytest.fixture(scope="module")
def approval_notebook(browser):
    """The approval notebook open with its setup cells (those above the approval cell) run."""
    lab_page, _ = browser
    nb = lab_page.open_notebook(APPROVAL_NOTEBOOK)
    nb.set_kernel_env(APPROVAL_ENV)
    gate = nb.index_of_tag(APPROVAL_TAG)
    if gate > 0:
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
    if action == "timeout":  # (nobody clicks in this case, so the screenshot cannot delay a click)
        nb.screenshot(ARTIFACTS / "approval-waiting.png")

    if action == "approve":
        approve_button.click()
    elif action == "reject":
        reject_button.click()
    # "timeout": nobody clicks; the approver gives up after HARNESS_APPROVAL_TIMEOUT seconds

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
    nb.screenshot(ARTIFACTS / f"approval-{action}.png")

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
    nb.screenshot(ARTIFACTS / "approval-interrupted.png")
    assert not effect.exists(), "an interrupted approval must have no side effect"
    assert_loopback_only(browser[1])


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
