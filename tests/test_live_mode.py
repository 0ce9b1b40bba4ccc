"""Live mode, tested without a key: the offline Messages API is served over real HTTP on 127.0.0.1
(tests/live_server.py), ANTHROPIC_API_KEY is a dummy and ANTHROPIC_BASE_URL points at the server, so
``is_live()`` is True and ``make_client()`` is a plain ``anthropic.AsyncAnthropic`` opening real sockets.

Covered: the client reads the environment; the terminal agent (its main(), in this process) runs live and
fails a 429 storm with one line; every lesson notebook runs live (in one edition, the editions taking turns:
LESSONS) in its own kernel against a server of its own, two at a time (nbclient, not nbval: live outputs differ),
and every one of its cells runs: a cell that needs a misbehaving model says so in one line and uses the offline
model (``scripted_model``), none is skipped, and notebook 06's SDK tool_runner talks to the server too. Then every
cell runs once more in the same kernel, top to bottom, as a learner re-running cells after Run All would: no error
its notebook did not announce, and the same printed text (ids and times aside). A 429 storm ends a notebook cell
with one line (harness_ui.notebook), in a real kernel and in-process; nbval still fails a cell that fails.

Kernels and processes are what this file spends its time on: 7 lesson kernels (lesson 01's runs the terminal
agent as a process, twice: Run All, then every cell again), one for the storm, and nbval's kernel (nbval itself
runs in this process, pytester). The terminal agent's tests here run it in this process; tests/test_cli.py starts
it as a real process.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import anthropic
import httpx2
import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat.v4 import new_code_cell, new_notebook

from harness_kit import lang as kit_lang
from harness_ui import notebook as kit_notebook
from harness_lib.__main__ import main as agent_main
from harness_lib.client import MODEL, is_live, make_client, offline_api
from harness_lib.tools import DEFAULT_ROOT
from live_server import DUMMY_KEY, live_env, serve_messages_api
from sanitizer import sanitize

REPO = Path(__file__).resolve().parent.parent
# Each lesson runs live in one edition; the editions take turns, so each is run live and each lesson once. The
# twins are the same code (tests/test_spanish_edition.py proves it cell by cell) and both editions of every lesson
# run offline under nbval: a second live run of the same code with other sentences would find nothing new. The
# Spanish lessons are the ones whose live run says the most in Spanish: 01 (the terminal agent, --lang es), 02 (the
# re-runs out of order) and 05 (the approval prompts).
SPANISH_LIVE = ("01", "02", "05")
LESSONS = sorted(REPO / "notebooks" / ("es" if path.name[:2] in SPANISH_LIVE else "") / path.name
                 for path in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
TASK = "Read the first line of README.md, then tell me what time it is"
CELL_TIMEOUT = 180  # seconds; a cell still running then is interrupted and counts as failed


@pytest.fixture
def server():
    with serve_messages_api() as s:
        yield s


@pytest.fixture
def storm():
    with serve_messages_api(storm=True) as s:
        yield s


def go_live(monkeypatch, url: str) -> None:
    """This test process, live against ``url`` (restored after the test)."""
    for name, value in live_env(url, base={}).items():
        monkeypatch.setenv(name, value)
    for name in ("ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_PROFILE", "HARNESS_SCENARIO", "HARNESS_MODEL"):
        monkeypatch.delenv(name, raising=False)


def create(client, content: str = TASK):
    return asyncio.run(client.messages.create(
        model=MODEL, max_tokens=256, messages=[{"role": "user", "content": content}],
        tools=[{"name": "get_time", "description": "Get the current local time (ISO 8601).",
                "input_schema": {"type": "object", "properties": {}, "additionalProperties": False}}]))


# ---- the server and the client -------------------------------------------------------------------------


def test_server_answers_like_the_api_and_wants_a_credential(server):
    body = {"model": MODEL, "max_tokens": 64, "messages": [{"role": "user", "content": "What time is it?"}]}
    no_key = httpx2.post(f"{server.url}/v1/messages", json=body)
    assert no_key.status_code == 401
    assert no_key.json()["error"]["type"] == "authentication_error"
    assert server.api.log == []  # refused before the model saw it

    for credential in ({"x-api-key": DUMMY_KEY}, {"authorization": f"Bearer {DUMMY_KEY}"}):
        ok = httpx2.post(f"{server.url}/v1/messages", json=body, headers=credential)
        assert ok.status_code == 200, ok.text
        assert ok.json()["type"] == "message"
    assert len(server.api.log) == 2
    assert httpx2.get(f"{server.url}/v1/models", headers={"x-api-key": DUMMY_KEY}).status_code == 404


def test_make_client_is_live_and_talks_to_ANTHROPIC_BASE_URL(monkeypatch, server):
    go_live(monkeypatch, server.url)
    assert is_live()
    client = make_client(scenario="never-ends")  # live: the scenario is ignored, the server answers
    assert type(client) is anthropic.AsyncAnthropic
    assert str(client.base_url).rstrip("/") == server.url  # the SDK read ANTHROPIC_BASE_URL itself
    with pytest.raises(TypeError, match="live API"):
        offline_api(client)

    response = create(client)
    assert response.stop_reason == "tool_use"
    assert [b.name for b in response.content if b.type == "tool_use"] == ["get_time"]
    assert len(server.api.log) == 1  # it went over HTTP to the server, not to an in-process transport
    method, path, headers = server.requests[-1]
    assert (method, path) == ("POST", "/v1/messages")
    assert DUMMY_KEY in (headers.get("x-api-key") or headers.get("authorization", ""))


# ---- the terminal agent ----------------------------------------------------------------------------------


def run_agent_cli(tmp_path: Path, monkeypatch, capsys, url: str) -> tuple[int, str, str]:
    """`python -m harness_lib --root <a copy of workspace/> TASK`, live against `url`, in this process:
    main() with the environment a live run has. Returns (exit status, stdout, stderr)."""
    root = tmp_path / "workspace"
    shutil.copytree(DEFAULT_ROOT, root)
    readme = root / "README.md"
    readme.write_text("# A copy of the sandbox for the live-mode test\n" + readme.read_text(encoding="utf-8"),
                      encoding="utf-8")
    go_live(monkeypatch, url)
    monkeypatch.chdir(root)
    status = agent_main(["--root", str(root), TASK])
    out, err = capsys.readouterr()
    return status, out, err


def test_terminal_agent_runs_live(tmp_path, monkeypatch, capsys, server):
    status, out, err = run_agent_cli(tmp_path, monkeypatch, capsys, server.url)
    assert status == 0, out + err
    lines = out.splitlines()
    mode = [line for line in lines if line.startswith(("[live", "[offline"))]
    assert mode == [f"[live: {MODEL}] {TASK}"]  # said once, before the first turn
    assert lines.index(mode[0]) < min(i for i, line in enumerate(lines) if line.startswith("[turn"))
    assert 'README.md is "# A copy of the sandbox for the live-mode test"' in out  # the tmp README
    assert len(server.api.log) == 3  # read_file, get_time, answer: three model requests over HTTP


def test_terminal_agent_429_storm_is_one_line(tmp_path, monkeypatch, capsys, storm):
    status, out, err = run_agent_cli(tmp_path, monkeypatch, capsys, storm.url)
    assert status == 1
    errors = err.strip().splitlines()
    assert len(errors) == 1, err
    assert "429" in errors[0] and "rate_limit_error" in errors[0]
    assert "Traceback" not in out + err
    assert len(storm.requests) == 3  # the first request and the SDK's two retries


# ---- harness_ui.notebook, in-process ---------------------------------------------------------------------


@pytest.fixture
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.colors = "nocolor"  # plain text, so the tests can read what it printed
    yield shell
    shell.set_custom_exc((), None)


def run_cell(shell, source: str):
    """Run one cell in ``shell``; return (result, everything it printed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        result = shell.run_cell(source)
    return result, out.getvalue()


def test_setup_says_offline_or_live(monkeypatch, server, capsys):
    monkeypatch.setenv("HARNESS_OFFLINE", "1")
    kit_notebook.setup()
    assert capsys.readouterr().out == f"offline: the kit's offline model answers, no API key used (model {MODEL})\n"
    go_live(monkeypatch, server.url)
    kit_notebook.setup()
    assert capsys.readouterr().out == f"live: requests go to {server.url} and cost tokens (model {MODEL})\n"


def test_scripted_model_uses_the_offline_model_live_and_says_why(monkeypatch, server, capsys):
    monkeypatch.setenv("HARNESS_OFFLINE", "1")
    with kit_notebook.scripted_model():
        offline_api(make_client(scenario="never-ends"))  # offline: an offline client, and nothing printed
    assert capsys.readouterr().out == ""
    assert os.environ["HARNESS_OFFLINE"] == "1"  # put back as it was

    go_live(monkeypatch, server.url)
    with kit_notebook.scripted_model():
        runaway = make_client(scenario="never-ends")
    assert capsys.readouterr().out == ("(Claude will not misbehave on cue; this cell uses the kit's scripted "
                                       "offline model)\n")
    assert os.environ["HARNESS_OFFLINE"] == "0" and is_live()  # live again after the block
    response = create(runaway)  # still the offline never-ends model: it answers, and the server never saw it
    assert response.stop_reason == "tool_use"
    assert len(offline_api(runaway).log) == 1 and server.requests == []
    assert type(make_client()) is anthropic.AsyncAnthropic and server.requests == []
    with pytest.raises(TypeError, match="live API"):
        offline_api(make_client())  # outside the block, a client is live

    monkeypatch.delenv("HARNESS_OFFLINE")
    with pytest.raises(ZeroDivisionError), kit_notebook.scripted_model():
        1 / 0
    assert "HARNESS_OFFLINE" not in os.environ  # put back (here: removed) after an error too
    capsys.readouterr()


def test_429_storm_ends_a_cell_with_one_line_and_tb_still_shows_it(monkeypatch, storm, shell):
    go_live(monkeypatch, storm.url)
    _, printed = run_cell(shell, "from harness_ui.notebook import setup\nsetup()")
    assert printed.startswith("live: ")
    result, printed = run_cell(shell, "from harness_lib.client import MODEL, make_client\n"
                                      "await make_client().messages.create(model=MODEL, max_tokens=64,\n"
                                      "    messages=[{'role': 'user', 'content': 'What time is it?'}])")
    assert isinstance(result.error_in_exec, anthropic.RateLimitError)  # still an error: Run All stops here
    assert printed.splitlines() == [
        "API error 429 rate_limit_error: Number of request tokens has exceeded your per-minute rate limit "
        "(local test storm). — the SDK retried 2 times; wait a minute, then run the cell again  "
        "(%tb shows the full traceback)"]
    assert len(storm.requests) == 3
    _, printed = run_cell(shell, "%tb")
    assert "Traceback" in printed and "RateLimitError" in printed and len(printed.splitlines()) > 10


def test_one_line_for_401_and_for_an_unreachable_server(monkeypatch, server, shell):
    go_live(monkeypatch, server.url)
    run_cell(shell, "from harness_ui.notebook import setup\nsetup()")
    result, printed = run_cell(shell, "import anthropic\nfrom harness_lib.client import MODEL, make_client\n"
                                      "await make_client().messages.create(model=MODEL, max_tokens=64,\n"
                                      "    messages=[{'role': 'user', 'content': 'hi'}],\n"
                                      "    extra_headers={'Authorization': anthropic.Omit()})  # no key sent")
    assert isinstance(result.error_in_exec, anthropic.AuthenticationError)
    assert printed.splitlines() == ["API error 401 authentication_error: x-api-key header is required — check "
                                    "ANTHROPIC_API_KEY: is it set before Jupyter started, and is it a valid key?  "
                                    "(%tb shows the full traceback)"]

    with serve_messages_api() as gone:  # a port that was just free, and is closed again
        closed = gone.url
    monkeypatch.setenv("ANTHROPIC_BASE_URL", closed)
    result, printed = run_cell(shell, "await make_client().with_options(max_retries=0).messages.create(\n"
                                      "    model=MODEL, max_tokens=64, messages=[{'role': 'user', 'content': 'hi'}])")
    assert isinstance(result.error_in_exec, anthropic.APIConnectionError)
    [line] = printed.splitlines()
    assert line.startswith(f"connection error: could not reach {closed} (ConnectError: ")
    assert "the SDK retried 0 times; check the network" in line


def test_one_line_for_an_unknown_model(monkeypatch, server, shell):
    go_live(monkeypatch, server.url)
    run_cell(shell, "from harness_ui.notebook import setup\nsetup()")
    result, printed = run_cell(shell, "from harness_lib.client import make_client\n"
                                      "await make_client().messages.create(model='claude-nonexistent-1',\n"
                                      "    max_tokens=64, messages=[{'role': 'user', 'content': 'hi'}])")
    assert isinstance(result.error_in_exec, anthropic.NotFoundError)
    [line] = printed.splitlines()
    assert line.startswith("API error 404 not_found_error: ")
    assert f"— check the model id (HARNESS_MODEL, now {MODEL})" in line


def test_nbval_still_sees_the_error_after_setup(pytester, monkeypatch):
    """The one-line handler changes the picture, not the verdict: a raises-exception cell passes, an
    untagged failing cell still fails nbval (offline here, with the tests' fault plan: three 429s). nbval's own run,
    in this process (pytester: its own config, plugins and output; the kernel is nbval's, as ever)."""
    failing = ("import anthropic, httpx2\nfrom offline_support import FaultyMessagesAPI\n"
               "transport = FaultyMessagesAPI('demo', {1: 429, 2: 429, 3: 429})  # three 429s: the SDK gives up\n"
               "client = anthropic.AsyncAnthropic(api_key='offline', base_url='https://offline.invalid',\n"
               "                                  http_client=httpx2.AsyncClient(transport=transport))\n"
               "await client.messages.create(model='claude-sonnet-5', max_tokens=64,\n"
               "    messages=[{'role': 'user', 'content': 'hi'}])")
    nb = new_notebook(cells=[new_code_cell("from harness_ui.notebook import setup\nsetup()"),
                             new_code_cell(failing, metadata={"tags": ["raises-exception"]}),
                             new_code_cell(failing)])
    nbformat.write(nb, pytester.path / "check.ipynb")
    env = {**live_env("http://unused.invalid"), "HARNESS_OFFLINE": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))}
    for name in set(os.environ) - set(env):  # what nbval's kernel inherits: this environment
        monkeypatch.delenv(name)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    # Only nbval is loaded, as the kit's own pytest settings do.
    run = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider", "--disable-plugin-autoload",
                                       "-p", "nbval.plugin", "--nbval-lax", "check.ipynb")
    stdout = run.stdout.str()
    assert run.ret == 1, stdout + run.stderr.str()
    assert "1 failed, 2 passed" in stdout
    assert "FAILED check.ipynb::Cell 2" in stdout
    assert "API error 429 rate_limit_error: " in stdout  # nbval's report shows the one line


def test_other_errors_keep_their_traceback(shell):
    kit_notebook.setup()  # the shell fixture's IPython is the running one
    result, printed = run_cell(shell, "def f():\n    return 1 / 0\nf()")
    assert isinstance(result.error_in_exec, ZeroDivisionError)
    assert "Traceback" in printed and "return 1 / 0" in printed


# ---- notebooks in real kernels ------------------------------------------------------------------------------


@dataclass
class NotebookRun:
    name: str
    seconds: float
    requests: int  # POST requests that reached the server while this notebook ran (both passes)
    unauthenticated: int  # requests the server refused for want of a credential
    errors: dict = field(default_factory=dict)  # cell id -> [(ename, evalue)] of its error outputs
    expected: dict = field(default_factory=dict)  # raises-exception cell id -> enames in the committed run
    executed: object = None  # the notebook as it ran live (Run All), outputs included
    again: object = None  # the same notebook after every cell ran once more
    threads: int = 0  # requests that asked the server for a message thread (what the SDK's tool_runner sends)
    out_of_order: list = field(default_factory=list)  # [(cell ids run in that order, the last one as it ran)]


def error_outputs(cell) -> list[tuple[str, str]]:
    return [(o.ename, o.evalue) for o in cell.get("outputs", []) if o.output_type == "error"]


def run_lesson_live(path: Path, tool_root: Path) -> NotebookRun:
    """Run one lesson notebook in a fresh kernel, live against a server of its own (Run All); then run every
    cell once more, top to bottom, in the same kernel."""
    nb = nbformat.read(path, as_version=4)
    expected = {c.id: [e for e, _ in error_outputs(c)] for c in nb.cells
                if "raises-exception" in c.metadata.get("tags", [])}
    shutil.copytree(DEFAULT_ROOT, tool_root)
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", allow_errors=True,
                            interrupt_on_timeout=True, resources={"metadata": {"path": str(path.parent)}})
    with serve_messages_api() as server:
        env = live_env(server.url, HARNESS_APPROVAL_TIMEOUT="10", HARNESS_TOOL_ROOT=str(tool_root),
                       KIT_TEST_CLICKS=path.relative_to(REPO).as_posix())  # tests/kernel_clicker.py clicks
        start = time.perf_counter()
        out_of_order = []
        with client.setup_kernel(env=env):
            for index, cell in enumerate(nb.cells):  # Run All
                client.execute_cell(cell, index)
            executed = copy.deepcopy(nb)
            for index, cell in enumerate(nb.cells):  # every cell again
                client.execute_cell(cell, index)
            again = copy.deepcopy(nb)  # (nbclient also writes a cell's outputs into nb.cells[index])
            for order in OUT_OF_ORDER.get(path.stem, []):  # then the orders the issue tracker found breaking
                index = {cell.id: i for i, cell in enumerate(nb.cells)}
                ran = [client.execute_cell(copy.deepcopy(nb.cells[index[cell_id]]), index[cell_id])
                       for cell_id in order]
                out_of_order.append((order, ran[-1]))
        seconds = time.perf_counter() - start
        requests = list(server.requests)
        threads = sum("thread" in body for body in server.api.log)
    posts = sum(method == "POST" for method, _, _ in requests)
    refused = sum(1 for _, _, h in requests
                  if not (h.get("x-api-key") or h.get("authorization", "").startswith("Bearer ")))
    name = str(path.relative_to(REPO / "notebooks").with_suffix(""))
    run = NotebookRun(name, seconds, posts, refused, expected=expected, executed=executed, again=again,
                      threads=threads, out_of_order=out_of_order)
    for cell in executed.cells:
        if cell.cell_type == "code" and error_outputs(cell):
            run.errors[cell.id] = error_outputs(cell)  # a cell past CELL_TIMEOUT: KeyboardInterrupt
    return run


@pytest.fixture(scope="module")
def lessons_live(tmp_path_factory):
    """Every lesson notebook, live, two at a time (a kernel and the server it talks to take turns: one lesson
    alone keeps about one core busy)."""
    tmp = tmp_path_factory.mktemp("live-notebooks")
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(lambda path: run_lesson_live(path, tmp / path.parent.name / path.stem), LESSONS))
    total = time.perf_counter() - start
    print(f"\nlesson notebooks live, two kernels at a time: {total:.0f} s in all; "
          + ", ".join(f"{r.name} {r.seconds:.0f} s" for r in runs))
    return runs


def test_every_lesson_notebook_runs_against_the_server(lessons_live):
    english = sorted(path.name for path in (REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert sorted(path.name for path in LESSONS) == english and len(lessons_live) == len(english) == 7
    assert {path.parent.name for path in LESSONS} == {"notebooks", "es"}, "both editions run live"
    for run in lessons_live:
        assert run.requests > 0, f"{run.name}: no request reached the server; was the kernel live?"
        assert run.unauthenticated == 0, f"{run.name}: requests without a key"


def unexpected_errors(run: NotebookRun) -> list[str]:
    found = []
    for cell_id, errors in run.errors.items():
        if cell_id in run.expected and [e for e, _ in errors] == run.expected[cell_id]:
            continue  # a raises-exception cell raising what it raises offline
        found += [f"{run.name} [{cell_id}] {ename}: {evalue.splitlines()[0] if evalue else ''}"
                  for ename, evalue in errors]
    found += [f"{run.name} [{cell_id}] did not raise {enames}" for cell_id, enames in run.expected.items()
              if cell_id not in run.errors and enames]
    return found


def test_no_lesson_cell_fails_live(lessons_live):
    failures = [line for run in lessons_live for line in unexpected_errors(run)]
    assert not failures, "cells that fail live:\n" + "\n".join(failures)


def stdout(cell) -> str:
    return "".join(o.text for o in cell.get("outputs", []) if o.output_type == "stream" and o.name == "stdout")


def test_every_lesson_cell_runs_live_and_none_is_skipped(lessons_live):
    """Each cell that needs a misbehaving model says so in one line, first, and runs; no other cell says it; no
    cell says it was skipped; and the SDK's tool_runner of notebook 06 talks to the server (a message thread)."""
    problems = []
    for run in lessons_live:
        scripted_line = kit_lang.MESSAGES["es" if run.name.startswith("es") else "en"]["nb.scripted"]
        scripted_cells = 0
        for cell in run.executed.cells:
            if cell.cell_type != "code":
                continue
            printed = stdout(cell)
            where = f"{run.name} [{cell.id}]"
            if cell.execution_count is None:
                problems.append(f"{where} did not run")
            if "skipped live" in printed or "omitida en vivo" in printed:
                problems.append(f"{where} says it was skipped: {printed[:200]!r}")
            if "with scripted_model():" in cell.source:
                scripted_cells += 1
                if not printed.startswith(scripted_line + "\n"):
                    problems.append(f"{where} does not begin with the scripted-model line: {printed[:200]!r}")
                if printed.count(scripted_line) != 1:
                    problems.append(f"{where} says the scripted-model line {printed.count(scripted_line)} times")
            elif scripted_line in printed:
                problems.append(f"{where} says the scripted-model line outside a scripted_model() block")
        if run.name.endswith(("03_stop_conditions", "04_runaway", "05_human_in_the_loop")):
            if scripted_cells < 5:
                problems.append(f"{run.name}: only {scripted_cells} cells use the scripted model")
    assert not problems, "\n".join(problems)
    runner_runs = {run.name: run.threads for run in lessons_live if run.name.endswith("06_the_full_harness")}
    assert runner_runs and all(threads > 0 for threads in runner_runs.values()), runner_runs


def rerun_problems(where: str, first, again) -> list[str]:
    """An error `first`'s notebook did not announce, or other printed text than `first`'s (ids, times aside)."""
    problems = []
    if "raises-exception" not in first.metadata.get("tags", []):
        problems += [f"{where}: {ename}: {(evalue or '').splitlines()[:1]}" for ename, evalue in error_outputs(again)]
    if sanitize(stdout(again)) != sanitize(stdout(first)):  # nbval's rules: ids and the tools' clock
        problems.append(f"{where} printed something else:\n--- Run All\n{stdout(first)[:600]}\n"
                        f"--- again\n{stdout(again)[:600]}")
    return problems


def test_every_lesson_cell_can_be_run_again_after_run_all(lessons_live):
    """A learner re-runs cells after Run All: every cell, once more, top to bottom, in the same kernel. No cell may
    show an error its notebook did not announce, and each prints what it printed under Run All, as nbval compares
    (ids and times aside)."""
    problems = []
    for run in lessons_live:
        for first, again in zip(run.executed.cells, run.again.cells):
            if first.cell_type == "code":
                problems += rerun_problems(f"{run.name} [{first.id}] run again", first, again)
    assert not problems, "\n\n".join(problems)


# Re-runs out of order that once broke a lesson (lesson stem -> cell ids, run in this order after the above).
# 02: the first tool step, then the loop's history (the step's loop variable was `result`, the loop's run too:
# AttributeError); a new first request, then turn 1 (it sent the new turn with the old results: HTTP 400).
# 06: your own tool's run, then the lesson's result (it printed your tool's run, both being `result`).
OUT_OF_ORDER = {"02_the_core_loop": [["run-turn-1", "core-loop-history"], ["first-request", "turn-1"]],
                "06_the_full_harness": [["own-run", "lesson-result"]]}


def test_cells_run_again_out_of_order(lessons_live):
    problems, checked = [], 0
    for run in lessons_live:
        cells = {cell.id: cell for cell in run.executed.cells}
        for order, last in run.out_of_order:
            problems += rerun_problems(f"{run.name}: {' then '.join(order)}", cells[order[-1]], last)
            checked += 1
    assert checked == 3, "lesson 02 (in Spanish) and lesson 06 (in English)"
    assert not problems, "\n\n".join(problems)


def test_429_storm_in_a_kernel_ends_the_cell_with_one_line(tmp_path, storm):
    nb = new_notebook(cells=[
        new_code_cell("from harness_ui.notebook import setup\nsetup()"),
        new_code_cell("from harness_lib.client import MODEL, make_client\n"
                      "response = await make_client().messages.create(model=MODEL, max_tokens=64,\n"
                      "    messages=[{'role': 'user', 'content': 'What time is it?'}])"),
        new_code_cell("print('not reached by Run All')"),
    ])
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    with pytest.raises(CellExecutionError) as failed:  # nbclient stops at the failing cell, as Run All does
        client.execute(env=live_env(storm.url))
    assert failed.value.ename == "RateLimitError"
    setup_cell, request_cell, last_cell = nb.cells
    assert setup_cell.outputs[0].text.startswith("live: requests go to http://127.0.0.1:")
    [error] = request_cell.outputs
    assert error.output_type == "error" and error.ename == "RateLimitError"
    assert error.traceback == ["API error 429 rate_limit_error: Number of request tokens has exceeded your "
                               "per-minute rate limit (local test storm). — the SDK retried 2 times; wait a "
                               "minute, then run the cell again  (%tb shows the full traceback)"]
    assert last_cell.outputs == []
    assert len(storm.requests) == 3
