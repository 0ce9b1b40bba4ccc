"""harness_ui.tab: the approval panel of the browser-tab edition, run here in-process with the real loop.

The panel's run goes on as a task after the code that started it returns; its buttons are real ipywidgets buttons,
pressed with .click() (the same handlers a person's click runs). Approve and Reject each decide, the first click
wins, no answer within the timeout is a no, Stop is a no and ends the run, and the transcript is in the panel.
(tests/test_lite.py clicks the same panel in JupyterLite, in Chromium.)
"""

import asyncio
import sys

import pytest

from harness_lib.client import make_client
from harness_lib.loop import run_agent
from harness_ui.tab import TabApproval
from harness_lib.tools import TOOLS, make_tool_impls

TASK = "Read the first line of README.md, then tell me what time it is"


@pytest.fixture(autouse=True)
def a_person_clicks(monkeypatch):
    monkeypatch.delenv("HARNESS_AUTO_APPROVE", raising=False)  # the kit's headless runs set it: here nobody does


async def start(tmp_path, **options):
    """A panel and its started run (the offline model's high-impact scenario asks to write scratch/answer.txt)."""
    (tmp_path / "README.md").write_text("# A readme\n")
    (tmp_path / "scratch").mkdir()
    panel = TabApproval(**options)
    panel.start(run_agent(make_client(scenario="high-impact"), TASK, TOOLS, make_tool_impls(tmp_path),
                          approve=panel.approve, on_event=panel.on_event))
    return panel


async def until_asked(panel):
    while panel.buttons.layout.display != "flex":
        assert not panel.task.done(), panel.lines
        await asyncio.sleep(0.01)


@pytest.mark.parametrize("button, word, written", [("approve_button", "approved", True),
                                                    ("reject_button", "rejected", False)])
def test_a_click_decides_and_the_transcript_is_in_the_panel(tmp_path, button, word, written):
    async def scene():
        panel = await start(tmp_path)
        await until_asked(panel)
        assert "write_file" in panel.asking.value and "not approved in 120 s" in panel.asking.value
        getattr(panel, button).click()
        getattr(panel, "reject_button" if word == "approved" else "approve_button").click()  # decides nothing
        await panel.task
        return panel

    panel = asyncio.run(scene())
    decisions = [line for line in panel.lines if line.startswith("[approve]")]
    assert len(decisions) == 1 and decisions[0].endswith(f"→ {word}") and "write_file(" in decisions[0]
    assert (tmp_path / "scratch" / "answer.txt").exists() is written
    assert panel.result.stopped_by == "end_turn" and "The run is over." in panel.status.value
    assert any(line.startswith("[turn 1] model requests tool") for line in panel.lines)
    assert panel.buttons.layout.display == "none" and panel.stop_button.disabled


def test_no_answer_within_the_timeout_is_a_no(tmp_path):
    async def scene():
        panel = await start(tmp_path, timeout=0.2)
        await panel.task
        return panel

    panel = asyncio.run(scene())
    assert any(line.endswith("→ not approved (no answer within 0.2 s)") for line in panel.lines), panel.lines
    assert not (tmp_path / "scratch" / "answer.txt").exists()


@pytest.mark.parametrize("value, line", [("0.2", "→ not approved (no answer within 0.2 s)"),
                                         ("soon", 'tool failed: "Not run: the approval gate failed (ValueError')])
def test_the_timeout_from_the_environment_holds_and_a_bad_one_is_a_no(tmp_path, monkeypatch, value, line):
    """HARNESS_APPROVAL_TIMEOUT, as for widget_approver: it wins over the panel's timeout; a value that is not
    seconds is an error, which the loop counts as a no."""
    monkeypatch.setenv("HARNESS_APPROVAL_TIMEOUT", value)

    async def scene():
        panel = await start(tmp_path)  # timeout 120 s: the environment's wins
        await asyncio.wait_for(panel.task, timeout=10)
        return panel

    panel = asyncio.run(scene())
    assert any(line in shown for shown in panel.lines), panel.lines
    assert not (tmp_path / "scratch" / "answer.txt").exists()


def test_widget_approver_in_a_tab_says_no_at_once_and_where_the_buttons_are(tmp_path, monkeypatch, capsys):
    """In a browser tab (sys.platform "emscripten") the desktop's buttons cannot answer a running cell and no
    thread can ask in text: widget_approver says no at once, in one line that names TabApproval."""
    from harness_ui.widget import widget_approver

    monkeypatch.setattr(sys, "platform", "emscripten")
    assert asyncio.run(widget_approver()("write_file", {"path": "scratch/a.txt", "content": "x"})) is False
    assert capsys.readouterr().out == ('[approve] write_file({"path":"scratch/a.txt","content":"x"}) → not approved '
                                       "(a browser tab cannot ask while a cell runs: start the run with "
                                       "harness_ui.tab.TabApproval)\n")
    assert asyncio.run(widget_approver(click="approve")("get_time", {})) is True  # a demonstration needs no message


def test_stop_while_asked_is_a_no_and_ends_the_run(tmp_path):
    async def scene():
        panel = await start(tmp_path)
        await until_asked(panel)
        panel.stop_button.click()
        await asyncio.wait({panel.task}, timeout=5)
        panel.approve_button.click()  # too late: decides nothing
        await asyncio.sleep(0.05)
        return panel

    panel = asyncio.run(scene())
    decided = [line for line in panel.lines if line.startswith("[approve]")]
    assert decided[-1].endswith("→ not approved (no answer: the run was stopped)")
    assert panel.lines[-1].startswith("[record] write_file(") and panel.lines[-1].endswith("→ not run: -")  # the account
    assert panel.result is None and "The run was stopped." in panel.status.value
    assert not (tmp_path / "scratch" / "answer.txt").exists()


def test_nobody_at_the_screen_the_switch_presses_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_AUTO_APPROVE", "reject")

    async def scene():
        panel = await start(tmp_path)
        await panel.task
        return panel

    panel = asyncio.run(scene())
    assert any(line.endswith("→ rejected (pressed by HARNESS_AUTO_APPROVE, not by a person: nobody clicked)")
               for line in panel.lines), panel.lines


def test_one_run_per_panel_and_the_options_are_checked(tmp_path):
    with pytest.raises(ValueError):
        TabApproval(timeout=0)
    assert repr(TabApproval().panel).startswith("(the run's panel")


def test_the_panel_speaks_the_notebooks_language(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "es")

    async def scene():
        panel = await start(tmp_path)
        await until_asked(panel)
        assert panel.approve_button.description == "Aprobar" and panel.stop_button.description.startswith("Detener")
        panel.approve_button.click()
        await panel.task
        return panel

    panel = asyncio.run(scene())
    assert any(line.endswith("→ aprobada") for line in panel.lines) and "terminó" in panel.status.value


@pytest.mark.parametrize("language, words", [("en", "a browser tab never goes live"),
                                             ("es", "una pestaña del navegador nunca pasa a en vivo")])
def test_a_browser_tab_refuses_a_key_in_one_line_and_stays_offline(monkeypatch, capsys, language, words):
    """In a browser tab (sys.platform "emscripten") a key set in the environment (lesson 00's getpass step, say)
    does not make the kit live: the first is_live() says why and where to go live, once; make_client is offline."""
    from harness_kit import env
    from harness_lib import client

    monkeypatch.setenv("HARNESS_LANG", language)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-a-key")
    monkeypatch.delenv("HARNESS_OFFLINE", raising=False)
    monkeypatch.setattr(env, "_refusal_said", False)
    assert client.is_live() is True  # the desktop: a key makes it live
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert client.is_live() is False and client.is_live() is False
    (line,) = capsys.readouterr().out.splitlines()
    assert words in line and "README" in line
    assert client.offline_api(client.make_client()).log == []  # an offline client, not the live API


def test_a_click_in_the_page_gives_the_keyboard_to_the_cell_below(tmp_path):
    """A person's click arrives as the button's "click" message (button.click() in code sends none): it decides, and
    the panel gets harness_ui.widget's GO_ON script, which JupyterLab runs to select the cell below (tests/test_lite.py
    presses Shift+Enter after a real click in Chromium)."""
    from harness_ui.widget import GO_ON

    async def scene():
        panel = await start(tmp_path)
        await until_asked(panel)
        panel.reject_button._handle_custom_msg({"event": "click"}, None)  # what the page sends on a click
        await panel.task
        return panel

    panel = asyncio.run(scene())
    scripts = [o["data"]["application/javascript"] for child in panel.panel.children for o in getattr(child, "outputs", ())]
    assert scripts == [GO_ON]
    assert any(line.endswith("→ rejected") for line in panel.lines)
