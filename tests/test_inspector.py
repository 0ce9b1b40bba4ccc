"""The run inspector (harness_ui/inspector.py): real offline runs drawn as HTML, read back with html.parser.

Each run goes through the real loop, the real SDK and the offline model; the picture is parsed, never
matched as a string, and every assertion is on what a person reads: the rows, the gauges' numbers, the
marks in words, the ending.
"""

import ast
import asyncio
import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import anthropic
import nbformat
import pytest

from harness_kit import lang
from harness_lib import TOOLS, make_client, make_tool_impls, run_agent, scripted_approver
from harness_lib.__main__ import main as agent_main
from harness_ui.inspector import Inspector, side_by_side
from harness_lib.tools import DEFAULT_ROOT
from harness_lib.trace import Transcript

REPO = Path(__file__).resolve().parent.parent
TASK = "Read the first line of README.md, then tell me what time it is"
READ_ONLY = [t for t in TOOLS if t["name"] in ("get_time", "read_file")]


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "HARNESS_SCENARIO",
                 "HARNESS_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HARNESS_OFFLINE", "1")
    monkeypatch.setenv("HARNESS_LANG", "en")


@pytest.fixture
def root(tmp_path):
    shutil.copytree(DEFAULT_ROOT, tmp_path / "ws", ignore=shutil.ignore_patterns("*.txt"))
    return tmp_path / "ws"


# --- reading the picture back ----------------------------------------------------------------------


class Picture(HTMLParser):
    """The table rows of an inspector's HTML: per <tr>, its classes, text, meters and marked spans."""

    def __init__(self, html: str):
        super().__init__()
        self.tables: list[list[dict]] = []
        self.captions: list[str] = []
        self._row = None
        self._spans: list[dict] = []
        self._in_caption = False
        self._in_style = False
        self.style = ""
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "table":
            self.tables.append([])
        elif tag == "caption":
            self._in_caption, text = True, ""
            self.captions.append("")
        elif tag == "style":
            self._in_style = True
        elif tag == "tr":
            self._row = {"classes": classes, "attrs": a, "cells": [], "meters": [], "marks": {}}
        elif self._row is not None and tag in ("td", "th"):
            self._row["cells"].append("")
        elif self._row is not None and tag == "meter":
            self._row["meters"].append({k: a[k] for k in ("min", "max", "value", "aria-label")})
        elif self._row is not None and tag in ("span", "li", "code"):
            self._spans.append({"classes": classes, "text": ""})

    def handle_endtag(self, tag):
        if tag == "caption":
            self._in_caption = False
        elif tag == "style":
            self._in_style = False
        elif tag == "tr" and self._row is not None:
            self._row["text"] = " | ".join(c.strip() for c in self._row["cells"])
            self.tables[-1].append(self._row)
            self._row = None
        elif self._row is not None and tag in ("span", "li", "code") and self._spans:
            span = self._spans.pop()
            for cls in span["classes"]:
                self._row["marks"].setdefault(cls, []).append(span["text"].strip())

    def handle_data(self, data):
        if self._in_style:
            self.style += data
        elif self._in_caption:
            self.captions[-1] += data
        elif self._row is not None:
            if self._row["cells"]:
                self._row["cells"][-1] += data
            for span in self._spans:
                span["text"] += data

    def rows(self, table: int = 0) -> list[dict]:
        return [r for r in self.tables[table] if "hl-row" in r["classes"]]

    def end(self, table: int = 0) -> dict:
        [end] = [r for r in self.tables[table] if "hl-end" in r["classes"]]
        return end


def draw(inspector) -> Picture:
    return Picture(inspector._repr_html_())


def gauge(row: dict, label: str) -> tuple[int, int]:
    [m] = [m for m in row["meters"] if m["aria-label"] == label]
    return int(m["value"]), int(m["max"])


async def inspected(scenario: str, tools=TOOLS, root=DEFAULT_ROOT, **options) -> tuple[Inspector, object]:
    inspector = Inspector(max_turns=options.get("max_turns", 8), token_budget=options.get("token_budget", 40_000))
    result = await run_agent(make_client(scenario=scenario), TASK, tools, make_tool_impls(root),
                             on_event=inspector, **options)
    return inspector, result


# --- the four runs of the issue ---------------------------------------------------------------------


def test_never_ends_runs_into_the_turn_cap():
    run, result = asyncio.run(inspected("never-ends", READ_ONLY, max_turns=3))
    assert result.stopped_by == "max_turns"
    picture = draw(run)
    rows = picture.rows()
    assert [r["attrs"]["data-request"] for r in rows] == ["1", "2", "3", "4"]  # one row per request
    for n, row in enumerate(rows[:3], 1):
        assert row["cells"][1].strip() == "tool_use"
        assert f'read_file({{"path":"notes/part-{n}.md"}})' in row["marks"]["hl-call"][0]
        assert row["marks"]["hl-error"] == ["✗ error:"]  # the failed read is marked in words
        assert gauge(row, "turns against the cap") == (n, 3)
        assert f"turns {n} of 3" in row["text"]
    last = rows[3]
    assert "asked to go on (not taken)" in last["text"] and gauge(last, "turns against the cap") == (3, 3)
    assert "hl-call" not in last["marks"]  # the cap refused the turn: no call of it was shown as run
    end = picture.end()
    assert end["attrs"]["data-stopped-by"] == "max_turns"
    assert "How it ended: valve 1, the turn cap, stopped it (max_turns)." in end["text"]
    assert "reached the turn cap of 3" in end["text"]
    assert "That took 3 tool-calling turns across 4 model requests." in end["text"]


def test_token_hog_runs_into_the_budget_and_the_gauge_says_by_how_much():
    run, result = asyncio.run(inspected("token-hog", READ_ONLY))
    assert result.stopped_by == "token_budget"
    rows = draw(run).rows()
    assert len(rows) == result.requests
    spent = 0
    for row, usage in zip(rows, [r.usage for r in run.rows.values()]):
        parts = {name: usage.get(name) or 0 for name in ("input_tokens", "output_tokens",
                                                         "cache_creation_input_tokens", "cache_read_input_tokens")}
        spent += sum(parts.values())
        # the four counters, each named, then the total of this response
        assert f"input {parts['input_tokens']:,} · output {parts['output_tokens']:,} · cache write " \
               f"{parts['cache_creation_input_tokens']:,} · cache read {parts['cache_read_input_tokens']:,}" in row["text"]
        assert f"total {sum(parts.values()):,}" in row["text"]
        assert f"tokens {spent:,} of 40,000" in row["text"]
        assert gauge(row, "tokens against the budget") == (min(spent, 40_000), 40_000)
    assert spent == result.tokens_used > 40_000
    assert rows[-1]["marks"]["hl-over"] == [f"over the budget by {spent - 40_000:,}"]
    assert all("hl-over" not in r["marks"] for r in rows[:-1])  # only the last response crossed it
    end = draw(run).end()
    assert end["attrs"]["data-stopped-by"] == "token_budget"
    assert "How it ended: valve 2, the token budget, stopped it (token_budget)." in end["text"]


def test_ping_pong_into_the_cycle_detector_highlights_the_cycle():
    run, result = asyncio.run(inspected("ping-pong", READ_ONLY))
    assert result.stopped_by == "no_progress"
    rows = draw(run).rows()
    assert len(rows) == 4
    # only where valve 3's own test finds a loop: turn 3 (read_file again, after get_time) is no loop yet
    assert [("hl-repeat" in r["classes"]) for r in rows] == [False, False, False, True]
    assert "hl-same" not in rows[2]["marks"] and "hl-cycle" not in rows[2]["marks"]
    assert rows[3]["marks"]["hl-cycle"] == ["↻ cycle: turns 1–2 again"]
    assert rows[3]["marks"]["hl-signature"] == ["get_time({})"]
    assert "not run: the harness stopped first" in rows[3]["text"]  # the repeated call never ran
    assert [r["marks"]["hl-signature"] for r in rows[:2]] == [['read_file({"path":"README.md"})'], ["get_time({})"]]
    end = draw(run).end()
    assert "How it ended: valve 3, no-progress detection, stopped it (no_progress)." in end["text"]


def test_the_cycle_and_the_stop_sentence_come_from_the_note_never_from_the_text(tmp_path, monkeypatch):
    """The period of the cycle and the Spanish stop sentence are read from the end event's note (kept as a JSON
    list in a transcript file); an end event without one (a loop of one's own) keeps its text as it was written
    and shows no call it cannot know."""
    events = []
    asyncio.run(run_agent(make_client(scenario="ping-pong"), TASK, READ_ONLY, make_tool_impls(),
                          on_event=events.append))
    calls = 'read_file({"path":"README.md"}) -> get_time({})'
    assert events[-1]["note"] == ("stop.cycle", {"period": 2, "calls": calls})
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    assert Inspector.from_jsonl(path)._repr_html_() == Inspector.from_events(events)._repr_html_()
    monkeypatch.setenv("HARNESS_LANG", "es")
    shown = draw(Inspector.from_jsonl(path))
    assert "no se ejecutó: el arnés se detuvo antes" in shown.rows()[3]["text"]
    assert "El arnés se detuvo: el modelo volvió a recorrer un ciclo de 2 turnos" in shown.end()["text"]
    bare = draw(Inspector.from_events(events[:-1] + [{k: v for k, v in events[-1].items() if k != "note"}]))
    assert "no se ejecutó" not in bare.rows()[-1]["text"]  # which turns the cycle held is not in the words
    assert events[-1]["text"] in bare.end()["text"]  # written in English by the loop: shown as written


def test_stuck_repeat_is_marked_as_a_repeat_of_the_last_turn():
    run, result = asyncio.run(inspected("stuck", READ_ONLY))
    rows = draw(run).rows()
    assert result.stopped_by == "no_progress" and len(rows) == 2
    assert rows[1]["marks"]["hl-cycle"] == ["↻ repeat: the same calls as turn 1"]


def test_a_rejected_approval_is_drawn_with_its_reason_and_nothing_ran(root):
    says_no = scripted_approver([False])
    run, result = asyncio.run(inspected("high-impact", root=root, approve=says_no))
    assert not (root / "scratch" / "answer.txt").exists()
    rows = draw(run).rows()
    [write] = [r for r in rows if "write_file" in r["text"]]
    assert write["marks"]["hl-refused"] == ["not approved"]
    assert write["marks"]["hl-error"] == ["✗ error:"]
    assert "Not approved: this high-impact action was not run" in write["text"]
    assert "hl-approved" not in write["marks"]


def test_an_approved_call_says_approved(root):
    run, result = asyncio.run(inspected("high-impact", root=root, approve=scripted_approver([True])))
    [write] = [r for r in draw(run).rows() if "write_file" in r["text"]]
    assert write["marks"]["hl-approved"] == ["approved"] and write["marks"]["hl-ok"] == ["✓ returned"]
    end = draw(run).end()
    assert "How it ended: the model ended its turn (end_turn)." in end["text"]
    assert "The answer: " in end["text"]


def test_spanish_edition(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "es")
    run, _ = asyncio.run(inspected("ping-pong", READ_ONLY))
    picture = draw(run)
    rows = picture.rows()
    assert picture.captions == ["Inspector de la ejecución"]
    assert 'lang="es"' in run._repr_html_()
    assert "turnos: 3 de 8" in rows[2]["text"] and "tokens: " in rows[2]["text"]
    assert rows[3]["marks"]["hl-cycle"] == ["↻ ciclo: otra vez los turnos 1–2"]
    end = picture.end()
    assert "Cómo terminó: la detuvo la válvula 3, la detección de falta de progreso (no_progress)." in end["text"]
    assert "El arnés se detuvo: el modelo volvió a recorrer un ciclo de 2 turnos" in end["text"]
    assert "Hicieron falta 3 turnos con llamadas a herramientas y 4 peticiones al modelo." in end["text"]


def test_spanish_cap_budget_and_refusal(monkeypatch, root):
    monkeypatch.setenv("HARNESS_LANG", "es")
    cap, _ = asyncio.run(inspected("never-ends", READ_ONLY, max_turns=2))
    assert "Cómo terminó: la detuvo la válvula 1, el tope de turnos (max_turns)." in draw(cap).end()["text"]
    hog, _ = asyncio.run(inspected("token-hog", READ_ONLY))
    assert "por encima del presupuesto" in draw(hog).rows()[-1]["marks"]["hl-over"][0]
    assert "Cómo terminó: la detuvo la válvula 2, el tope de presupuesto (token_budget)." in draw(hog).end()["text"]
    no, _ = asyncio.run(inspected("high-impact", root=root, approve=scripted_approver([False])))
    [write] = [r for r in draw(no).rows() if "write_file" in r["text"]]
    assert write["marks"]["hl-refused"] == ["no aprobada"]


def test_the_bare_loop_beside_the_guarded_one():
    from test_lesson_loops import lesson_loop
    run_bare = lesson_loop("02")  # notebook 02's bare loop

    async def both():
        bare, guarded = Inspector(), Inspector()
        task = asyncio.create_task(run_bare(make_client(scenario="ping-pong", max_requests=12), TASK, READ_ONLY,
                                            make_tool_impls(), on_event=bare))
        with pytest.raises(anthropic.BadRequestError):
            await task  # the offline model stops answering after 12 requests: the bare loop has no valve of its own
        await run_agent(make_client(scenario="ping-pong"), TASK, READ_ONLY, make_tool_impls(), on_event=guarded)
        return bare, guarded

    bare, guarded = asyncio.run(both())
    picture = Picture(side_by_side(bare, guarded, titles=("bare", "guarded"))._repr_html_())
    assert picture.captions == ["bare", "guarded"]
    assert len(picture.rows(0)) > len(picture.rows(1)) == 4
    assert "hl-cycle" in picture.rows(0)[3]["marks"]  # the bare loop went round the same cycle, unstopped
    assert "How it ended: valve 3" in picture.end(1)["text"]
    with pytest.raises(TypeError):
        side_by_side(bare, "guarded")


def test_deterministic_no_ids_no_times():
    one, _ = asyncio.run(inspected("stuck", READ_ONLY))
    two, _ = asyncio.run(inspected("stuck", READ_ONLY))
    assert one._repr_html_() == two._repr_html_()
    assert "toolu_" not in one._repr_html_() and "0x" not in repr(one)
    assert "<script" not in one._repr_html_()
    assert "var(--jp-ui-font-color1" in Picture(one._repr_html_()).style  # JupyterLab's theme, dark too


def test_from_a_transcript_jsonl_file(tmp_path):
    path = tmp_path / "run.jsonl"
    transcript = Transcript(path, out=lambda line: None)
    live = Inspector(max_turns=3)

    def both(event):
        transcript(event)
        live(event)

    asyncio.run(run_agent(make_client(scenario="never-ends"), TASK, READ_ONLY, make_tool_impls(),
                          max_turns=3, on_event=both))
    transcript.close()
    again = Inspector.from_jsonl(path, max_turns=3)
    assert again._repr_html_() == live._repr_html_()


def test_the_terminal_agents_transcript_opens_in_the_inspector(tmp_path, capsys):
    """The transcript `python -m harness_lib --transcript FILE` writes (its main(), in this process: the terminal
    agent as a real process is tests/test_cli.py's) opens in the inspector."""
    path = tmp_path / "run.jsonl"
    status = agent_main(["--scenario", "ping-pong", "--transcript", str(path), "--root", str(DEFAULT_ROOT), TASK])
    assert status == 3, capsys.readouterr().err
    picture = draw(Inspector.from_jsonl(path))
    assert len(picture.rows()) == 4 and "hl-cycle" in picture.rows()[3]["marks"]
    assert "How it ended: valve 3" in picture.end()["text"]


def test_a_failed_terminal_run_and_bad_files(tmp_path):
    path = tmp_path / "failed.jsonl"
    path.write_text(json.dumps({"event": "start", "input": "x", "model": "m"}) + "\n"
                    + json.dumps({"event": "error", "message": "the API answered 401: bad key"}) + "\n")
    picture = draw(Inspector.from_jsonl(path))
    assert "The run failed: the API answered 401: bad key" in picture.end()["text"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "start"}\nnot json\n')
    with pytest.raises(ValueError, match="line 2"):
        Inspector.from_jsonl(bad)
    with pytest.raises(ValueError, match="max_turns"):
        Inspector(max_turns=-1)
    with pytest.raises(ValueError, match="cannot draw this 'tool_call' event: it has no 'turn' field"):
        Inspector()({"event": "tool_call", "id": "toolu_1", "name": "get_time", "input": {}})
    quiet = Inspector()
    quiet({"event": "something_new", "n": 1})  # an event it does not know is not drawn, and is no error
    assert "No events yet" in quiet._repr_html_()


def test_live_states_waiting_for_the_model_and_for_approval():
    run = Inspector()
    assert "No events yet" in run._repr_html_()
    run({"event": "start", "input": TASK, "model": "m"})
    assert "waiting for the model: request 1" in run._repr_html_()
    run({"event": "request", "n": 1, "usage": {"input_tokens": 10, "output_tokens": 5}})
    run({"event": "tool_call", "turn": 1, "id": "toolu_a", "name": "write_file",
         "input": {"path": "scratch/a.txt", "content": "hi"}})
    picture = draw(run)
    [waiting] = [r for r in picture.tables[0] if "hl-waiting" in r["classes"]]
    assert waiting["text"] == '⏳ waiting for approval: write_file({"path":"scratch/a.txt","content":"hi"})'
    run({"event": "approval", "turn": 1, "name": "write_file", "input": {"path": "scratch/a.txt", "content": "hi"},
         "approved": False})
    run({"event": "tool_result", "turn": 1, "id": "toolu_a", "name": "write_file", "content": "Not approved",
         "is_error": True})
    assert "waiting for approval" not in run._repr_html_()
    assert "waiting for the model: request 2" in run._repr_html_()


def test_the_textbook_modules_do_not_import_the_inspector():
    """The inspector reads the loop's events; no textbook module imports it (lang.py holds its words as data)."""
    for module in (REPO / "harness_lib").glob("*.py"):
        if module.name == "inspector.py":
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            assert not any("inspector" in name for name in names), f"{module.name} imports the inspector"


# --- a saved notebook, rendered to static HTML ------------------------------------------------------


def test_nbconvert_renders_a_saved_notebook_with_the_same_rows(tmp_path, monkeypatch):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "from harness_lib import make_client, run_agent, TOOLS, make_tool_impls\n"
        "from harness_ui.inspector import Inspector\n"
        f"run = Inspector(max_turns=3)\nrun.show()\n"
        f"await run_agent(make_client(scenario='never-ends'), {TASK!r}, TOOLS, make_tool_impls(), max_turns=3,"
        " on_event=run)\nNone")]
    path = tmp_path / "drawn.ipynb"
    nbformat.write(nb, path)
    # What `jupyter nbconvert --to notebook --execute --inplace drawn.ipynb` and then `jupyter nbconvert --to html
    # drawn.ipynb` do, with the same classes in this process (their command-line layer adds nothing read here): the
    # notebook run in a kernel in its folder and saved, then the saved file rendered to static HTML.
    from nbconvert import HTMLExporter
    from nbconvert.preprocessors import ExecutePreprocessor

    monkeypatch.setenv("PYTHON_DOTENV_DISABLED", "1")  # (the kernel's HARNESS_OFFLINE and HARNESS_LANG: `offline`)
    ExecutePreprocessor(timeout=300).preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    nbformat.write(nb, path)
    saved = nbformat.read(path, as_version=4)
    [output] = saved.cells[0].outputs  # one picture, updated in place while the run ran
    assert "display_id" not in json.dumps(output)  # the saved output carries no id
    html, _ = HTMLExporter().from_filename(str(path))
    static = Picture(html)
    tables = [t for t in static.tables if any("hl-row" in r["classes"] for r in t)]
    assert len(tables) == 1
    rows = [r for r in tables[0] if "hl-row" in r["classes"]]
    assert [gauge(r, "turns against the cap") for r in rows] == [(1, 3), (2, 3), (3, 3), (3, 3)]
    [end] = [r for r in tables[0] if "hl-end" in r["classes"]]
    assert "How it ended: valve 1, the turn cap, stopped it (max_turns)." in end["text"]
    assert Picture(output.data["text/html"]).rows()[0]["text"] == rows[0]["text"]


# --- live: a kernel's run against the local stand-in of the API, watched through its display updates ----------


LIVE_CELL = """
from harness_lib import TOOLS, is_live, make_client, make_tool_impls, run_agent, scripted_approver
from harness_ui.inspector import Inspector
print("live:", is_live())
run = Inspector()
run.show()
result = await run_agent(make_client(), {task!r}, TOOLS, make_tool_impls({root!r}),
                         approve=scripted_approver([False]), on_event=run)
print(result.stopped_by, result.requests)
"""


def test_a_live_run_fills_the_picture_in_request_by_request(tmp_path, root):
    from jupyter_client.manager import start_new_kernel
    from live_server import live_env, serve_messages_api

    pictures, printed = [], []

    def watch(msg):
        kind, content = msg["msg_type"], msg["content"]
        if kind in ("display_data", "update_display_data") and "text/html" in content.get("data", {}):
            pictures.append((kind, Picture(content["data"]["text/html"])))
        elif kind == "stream":
            printed.append(content["text"])

    with serve_messages_api("high-impact") as server:
        env = live_env(server.url, HARNESS_LANG="en", PYTHON_DOTENV_DISABLED="1")
        manager, client = start_new_kernel(kernel_name="python3", env=env, cwd=str(tmp_path))
        try:
            reply = client.execute_interactive(LIVE_CELL.format(task=TASK, root=str(root)), output_hook=watch,
                                               timeout=120)
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
        assert len(server.api.log) == 4  # the requests really went over HTTP to the stand-in
    assert reply["content"]["status"] == "ok", reply["content"]
    assert "live: True" in "".join(printed) and "end_turn 4" in "".join(printed)

    kinds = [kind for kind, _ in pictures]
    assert kinds[0] == "display_data" and set(kinds[1:]) == {"update_display_data"}  # one picture, redrawn
    counts = [len(p.rows()) for _, p in pictures]
    assert counts == sorted(counts) and counts[0] == 0 and counts[-1] == 4  # it only grows, row by row
    assert {1, 2, 3} <= set(counts)  # intermediate states with fewer rows than the final one
    waiting = ["".join(r["text"] for r in p.tables[0] if "hl-waiting" in r["classes"]) for _, p in pictures]
    assert any(w.startswith("⏳ waiting for the model: request 2") for w in waiting)
    assert any(w.startswith("⏳ waiting for approval: write_file(") for w in waiting)  # the approval wait shows
    final = pictures[-1][1]
    assert not waiting[-1] and "hl-end" in [c for r in final.tables[0] for c in r["classes"]]
    [write] = [r for r in final.rows() if "write_file" in r["text"]]
    assert write["marks"]["hl-refused"] == ["not approved"]


# --- issue 37: what the inspector draws from a file or an endpoint is typed and escaped --------------------

import re  # noqa: E402

KIT_TAGS = {"style", "div", "table", "caption", "thead", "tbody", "tr", "th", "td", "code", "ul", "li", "span",
            "br", "b", "meter"}
SCRIPT_PAYLOADS = ['1"><img src=x onerror=alert(1)>', "<script>alert(1)</script>", "</code><svg onload=alert(1)>",
                   "' onmouseover='alert(1)", "javascript:alert(1)", "<iframe srcdoc='<script>x</script>'>",
                   "&lt;script&gt;", "\x1b[37mwhite\x1b[0m\r\x9b2J\ufffc\u202e" + " " * 5000]


class Tags(HTMLParser):
    """Every tag and attribute of a picture."""

    def __init__(self, html):
        super().__init__()
        self.tags, self.attributes, self.text = [], [], []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend(attrs)

    def handle_data(self, data):
        self.text.append(data)


def assert_inert(html: str) -> None:
    """Only the kit's own tags, no event handler, no URL, nothing that draws nothing, no escape code."""
    parsed = Tags(html)
    assert set(parsed.tags) <= KIT_TAGS, set(parsed.tags) - KIT_TAGS
    assert {name for name, _ in parsed.attributes} <= {"class", "data-request", "data-stopped-by", "scope",
                                                       "colspan", "lang", "min", "max", "value", "aria-label"}
    text = "".join(parsed.text)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffc\u202e]", text)
    assert " " * 16 not in text


@pytest.mark.parametrize("payload", SCRIPT_PAYLOADS)
def test_a_transcript_file_cannot_put_html_or_a_script_on_the_page(tmp_path, payload):
    """Every field of every event (but the typed numbers) holds the payload; the turn is typed: a file whose
    turn is not a whole number is refused with its line, and nothing is drawn."""
    events = [
        {"event": "start", "input": payload, "model": payload},
        {"event": "request", "n": 1, "usage": {"input_tokens": 1, "output_tokens": 2}},
        {"event": "tool_call", "turn": 1, "id": payload, "name": payload, "input": {"path": payload, payload: 1}},
        {"event": "approval", "turn": 1, "name": payload, "input": {"path": payload, payload: 1}, "approved": True},
        {"event": "tool_result", "turn": 1, "id": payload, "name": payload, "content": payload, "is_error": True},
        {"event": "request", "n": 2, "usage": {"input_tokens": 1}},
        {"event": "end", "turn": 2, "stop_reason": payload, "stopped_by": payload, "text": payload,
         "note": [payload, {payload: payload}], "turns": 1, "requests": 2, "tokens_used": 4},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    drawn = Inspector.from_jsonl(path)
    assert_inert(drawn._repr_html_())
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", repr(drawn))
    failed = Inspector.from_events([{"event": "start"}, {"event": "error", "message": payload}])
    assert_inert(failed._repr_html_())
    for field, value in [("turn", payload), ("turn", 1.5), ("turn", True), ("turn", -1), ("turn", [1]),
                         ("id", 1), ("content", {"x": 1}), ("is_error", "yes")]:
        bad = dict(events[4], **{field: value})
        path.write_text(json.dumps(events[0]) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
        with pytest.raises(ValueError, match=f"line 2: .*'{field}' field"):
            Inspector.from_jsonl(path)
    for bad in ({"event": "request", "n": "1"}, {"event": "request", "n": 1, "usage": {"input_tokens": "9"}},
                {"event": "end", **events[-1], "note": "stop.refusal"}, {"event": "error", "message": 5}):
        with pytest.raises(ValueError, match="cannot draw"):
            Inspector.from_events([bad])


def test_two_calls_with_one_id_are_said_to_share_it_and_no_result_is_drawn_twice():
    drawn = Inspector.from_events([
        {"event": "tool_call", "turn": 1, "id": "toolu_same", "name": "read_file", "input": {"path": "a.md"}},
        {"event": "tool_call", "turn": 1, "id": "toolu_same", "name": "read_file", "input": {"path": "b.md"}},
        {"event": "tool_result", "turn": 1, "id": "toolu_same", "name": "read_file", "content": "A", "is_error": False},
        {"event": "tool_result", "turn": 1, "id": "toolu_same", "name": "read_file", "content": "B", "is_error": False},
    ])
    calls = [call.result for call in drawn.rows[1].calls]
    assert calls == ["A", "B"]  # each result once, in order; never the second drawn over the first
    assert drawn._repr_html_().count("hl-shared-id") == 2
