"""The terminal agent, run as a learner runs it: `python -m harness_lib "..."`.

Five tests start a real process (about 1.5 CPU-s each, most of it importing the SDK), for what only a
process shows: stdin that is a real terminal (no task given: the lesson's task; the approval question typed
into), a real pipe read to its end, the folder it is started in, exit statuses as the shell sees them (0, 1,
130), a reader that closes the pipe (`| head -1`), Python's last flush at exit into a full disk (`>/dev/full`)
and Ctrl-C.
Everything else calls `main()` / `parse_args()` in this process, offline, with the test's own argv,
stdin and current folder.
"""

import io
import json
import os
import pty
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from harness_lib.__main__ import LESSON_TASK, TASK_LIMIT, echo, main, parse_args
from harness_lib.tools import DEFAULT_ROOT

WORKSPACE = DEFAULT_ROOT  # the kit's workspace/ folder: the lesson runs the agent from there
TIME_TASK = "What time is it?"


def agent(*args, env=None, stdin="", cwd=WORKSPACE):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "HARNESS_"))}
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "harness_lib", *args], capture_output=True, text=True,
                          env=e, input=stdin, cwd=cwd, timeout=120)


def tools_line(root: Path, how: str = "with approval") -> str:
    return f"[tools] read: {root} · write/delete ({how}): {root / 'scratch'}"


@pytest.fixture
def offline(monkeypatch):
    """In-process runs: offline, the default scenario, and no key from this machine."""
    for name in list(os.environ):
        if name.startswith(("ANTHROPIC_", "HARNESS_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HARNESS_OFFLINE", "1")


def project(tmp_path: Path, first_line: str = "# My own project") -> Path:
    """A folder of the user's own with a README.md, the way a learner tries the agent elsewhere."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "README.md").write_text(first_line + "\nMore text.\n", encoding="utf-8")
    return root


# ---- the lesson's run, and where the agent works ---------------------------------------------------------


class Terminal(io.StringIO):
    """stdin at a terminal where nobody has typed yet."""

    def isatty(self):
        return True


def test_the_lessons_terminal_run_from_the_workspace_folder(monkeypatch, capsys):
    """`cd workspace && python -m harness_lib` at a terminal: no task given, so the lesson's task. In this process,
    with the environment the real run has (no key, no HARNESS_ setting); a real terminal (a pseudo-terminal), no
    task given and the process's exit status: test_after_an_approved_write_the_last_screen_says_it_was_written."""
    for name in list(os.environ):
        if name.startswith(("ANTHROPIC_", "HARNESS_")):
            monkeypatch.delenv(name)
    monkeypatch.setattr(sys, "stdin", Terminal(""))
    monkeypatch.chdir(WORKSPACE)
    status = main([])
    out, err = capsys.readouterr()
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == tools_line(WORKSPACE)
    assert lines[1] == f"[offline model] {LESSON_TASK}"
    assert lines[2] == '[turn 1] model requests tool: read_file({"path":"README.md"})'
    assert lines[3] == '[turn 1] tool returned: "# Agent harness fundamentals\\n..."'
    assert lines[4] == "[turn 2] model requests tool: get_time({})"
    assert lines[5].startswith('[turn 2] tool returned: "20')
    assert lines[6] == "[turn 3] model ends (end_turn)"
    assert lines[8].startswith('The first line of README.md is "# Agent harness fundamentals", and it is ')
    assert lines[9] == "That took 2 tool-calling turns across 3 model requests."


def test_the_agent_works_on_the_folder_it_starts_in_with_the_task_piped_in(tmp_path):
    root = project(tmp_path)
    transcript = tmp_path / "run.jsonl"
    p = agent("--transcript", str(transcript), stdin="Read the first line of README.md\n", cwd=root)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == tools_line(root)  # the first line says where the tools read and may write
    assert lines[1] == "[offline model] Read the first line of README.md"  # the task came from stdin
    assert 'The first line of README.md is "# My own project".' in lines
    events = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    assert events[0]["event"] == "start" and events[-1]["event"] == "end"
    assert events[0]["input"] == "Read the first line of README.md"
    assert [e["event"] for e in events].count("request") == 2


def test_task_from_dash_from_a_file_and_at_a_terminal(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("  What time is it?\n"))
    assert parse_args(["-"]).task == TIME_TASK
    task_file = tmp_path / "task.txt"
    task_file.write_text("Read the first line of README.md ¿qué tal? 🕒\n", encoding="utf-8")
    assert parse_args(["--task-file", str(task_file)]).task == "Read the first line of README.md ¿qué tal? 🕒"

    monkeypatch.setattr(sys, "stdin", Terminal(""))
    assert parse_args([]).task == LESSON_TASK  # nothing given at a terminal: the lesson's task
    assert parse_args(["--max-turns", "0"]).max_turns == 0  # a turn cap of 0 is allowed: answer without tools


@pytest.mark.parametrize("argv, stdin, file_text", [
    ([""], "", None),
    (["   \n\t"], "", None),
    (["-"], " \n\n", None),
    ([], "", None),  # stdin piped, but nothing in it
    (["--task-file", "TASK_FILE"], "", "\n  \n"),
    (["--task-file", "NO_SUCH_FILE"], "", None),
    (["--task-file", "TASK_FILE", "also a task"], "", "a task"),
    (["caf\udce9"], "", None),  # a byte that is not UTF-8, as Python hands it over from argv
    (["-"], "caf\udce9\n", None),  # ... and from stdin
])
def test_an_empty_or_missing_task_is_a_one_line_usage_error(argv, stdin, file_text, tmp_path, monkeypatch, capsys):
    if file_text is not None:
        (tmp_path / "task.txt").write_text(file_text, encoding="utf-8")
    paths = {"TASK_FILE": str(tmp_path / "task.txt"), "NO_SUCH_FILE": str(tmp_path / "nope.txt")}
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    with pytest.raises(SystemExit) as stop:
        parse_args([paths.get(a, a) for a in argv])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("python -m harness_lib: error: "), err


def test_empty_stdin_is_a_usage_error_with_an_example(offline, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # piped, and nothing in it
    with pytest.raises(SystemExit) as stop:
        main([])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("python -m harness_lib: error: the task read from stdin is empty; say what the agent "
                   'should do, e.g. python -m harness_lib "What time is it?"\n')


def test_a_huge_task_is_sent_in_full_and_echoed_short(tmp_path, offline, monkeypatch, capsys):
    task = "Read the first line of README.md. " + "é" * 131_000  # 131 KB of task, most of it one character
    task_file = tmp_path / "task.txt"
    task_file.write_text(task, encoding="utf-8")
    transcript = tmp_path / "run.jsonl"
    monkeypatch.chdir(WORKSPACE)
    assert main(["--task-file", str(task_file), "--transcript", str(transcript)]) == 0
    out = capsys.readouterr().out
    assert len(out) < 2_000  # the echo is cut; the rest of the transcript is short anyway
    assert out.splitlines()[1] == f"[offline model] {task[:200]}… ({len(task)} characters)"
    start = json.loads(transcript.read_text(encoding="utf-8").splitlines()[0])
    assert start["event"] == "start" and start["input"] == task  # the model got all of it


def test_echo_keeps_one_printable_line():
    assert echo("What time is it?") == "What time is it?"
    assert echo("line one\nline two") == "line one… (17 characters)"
    assert echo("x" * 201) == "x" * 200 + "… (201 characters)"
    assert echo("clear \x1b[2J screen") == "clear \\u001b[2J screen"  # shown escaped: it never reaches the terminal


# ---- flags --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv, message", [
    (["--max-turns", "-1"], "argument --max-turns: must be 0 or more, got -1"),
    (["--token-budget", "0"], "argument --token-budget: must be 1 or more, got 0"),
    (["--token-budget", "-5"], "argument --token-budget: must be 1 or more, got -5"),
    (["--max-turns", "two"], "argument --max-turns: expected a whole number, got 'two'"),
    (["--scenario", "nope"], "argument --scenario: invalid choice: 'nope'"),
])
def test_bad_numbers_and_names_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as stop:
        parse_args([*argv, TIME_TASK])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m harness_lib [options] [TASK | -]\n")
    assert message in err


def test_help_stands_alone(capsys):
    with pytest.raises(SystemExit) as stop:
        parse_args(["--help"])
    assert stop.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # as words: the help is wrapped to the terminal's width
    for default in ("(default: ask)", "(default: . , the current folder)", "(default: 8)", "(default: 40000)"):
        assert default in text
    for status in ("0 the model ended its turn", "1 an error", "2 a usage error", "3 a valve", "130 interrupted"):
        assert status in text
    assert "agent.js" not in text and "lesson" not in text


@pytest.mark.parametrize("language, budget, limit", [
    ("en", "the token budget, every token billed: input, output, cache writes and cache reads",
     "a task may be up to 1,000,000 characters long; a longer one is a usage error"),
    ("es", "el tope de presupuesto, todos los tokens facturados: entrada, salida, escritura y lectura de caché",
     "una tarea puede tener hasta 1 000 000 caracteres; una más larga es un error de uso"),
])
def test_help_counts_every_billed_token_and_states_the_task_limit(language, budget, limit, capsys):
    """valves.tokens_of sums all four usage counters (lesson 04): --help says so, not "input + output"."""
    with pytest.raises(SystemExit):
        parse_args(["--lang", language, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert budget in text and limit in text
    assert "+" not in text  # no "input + output" (nor "entrada + salida") left
    assert str(TASK_LIMIT) == "1000000"  # the number the help spells out


def test_a_task_longer_than_the_limit_is_a_usage_error(tmp_path, monkeypatch, capsys):
    """The task is read up to TASK_LIMIT characters, however much more there is (an endless /dev/zero too)."""
    exactly = "What time is it? " + "x" * (TASK_LIMIT - 17)
    assert parse_args([exactly]).task == exactly
    task_file = tmp_path / "task.txt"
    task_file.write_text(exactly + "y", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(exactly + "y"))
    cases = [(["--task-file", str(task_file)], f"in --task-file {task_file}"), (["-"], "read from stdin"),
             ([exactly + "y"], "given")]
    if os.path.exists("/dev/zero"):
        cases.append((["--task-file", "/dev/zero"], "in --task-file /dev/zero"))
    for argv, source in cases:
        with pytest.raises(SystemExit) as stop:
            parse_args(argv)
        assert stop.value.code == 2
        out, err = capsys.readouterr()
        assert out == "" and err == (f"python -m harness_lib: error: the task {source} is longer than 1,000,000 "
                                     "characters; give a shorter one\n")
    with pytest.raises(SystemExit):
        parse_args(["--lang", "es", exactly + "y"])
    assert capsys.readouterr().err == ("python -m harness_lib: error: la tarea dada tiene más de 1 000 000 "
                                       "caracteres; da una más corta\n")


# ---- each runtime failure: one line on stderr, exit 1 ------------------------------------------------------


@pytest.mark.parametrize("scenario, valve, message", [
    ("stuck", "no_progress", "identical tool calls"),
    ("never-ends", "max_turns", "turn cap of 8"),
    ("token-hog", "token_budget", "token budget of 40000"),
])
def test_each_valve_stops_its_scenario_with_exit_3(scenario, valve, message, offline, monkeypatch, capsys):
    monkeypatch.chdir(WORKSPACE)
    status = main(["--scenario", scenario, "Read the first line of README.md, then tell me what time it is"])
    out, err = capsys.readouterr()
    assert status == 3, out + err
    assert f"harness stops ({valve})" in out
    assert message in out


def test_turn_cap_flag(offline, capsys):
    assert main(["--root", str(WORKSPACE), "--scenario", "never-ends", "--max-turns", "2", LESSON_TASK]) == 3
    assert "That took 2 tool-calling turns across 3 model requests." in capsys.readouterr().out


def test_errors_exit_1_with_one_line_reason(offline, monkeypatch, capsys):
    monkeypatch.chdir(WORKSPACE)
    monkeypatch.setenv("HARNESS_SCENARIO", "no-such-scenario")
    assert main([TIME_TASK]) == 1
    out, err = capsys.readouterr()
    assert err.startswith("error: unknown scenario") and err.count("\n") == 1
    assert out == ""  # it failed before the run started
    monkeypatch.delenv("HARNESS_SCENARIO")
    assert main(["--model", "claude-no-such-model", TIME_TASK]) == 1
    err = capsys.readouterr().err
    assert "404" in err and err.count("\n") == 1


def test_a_transcript_that_cannot_be_written_fails_at_the_start(tmp_path, offline, capsys):
    path = tmp_path / "missing" / "dir" / "x.jsonl"
    assert main(["--root", str(WORKSPACE), "--transcript", str(path), TIME_TASK]) == 1
    out, err = capsys.readouterr()
    assert out == ""  # nothing ran: no model call, no output
    assert err == f"error: cannot write the transcript {path}: No such file or directory\n"
    assert not path.parent.exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a disk that is always full)")
def test_a_transcript_on_a_full_disk_is_one_line(offline, capsys):
    assert main(["--root", str(WORKSPACE), "--transcript", "/dev/full", TIME_TASK]) == 1
    out, err = capsys.readouterr()
    assert err == "error: cannot write the transcript /dev/full: No space left on device\n"  # no traceback
    assert "[turn" not in out  # the run stopped at its first event


@pytest.mark.parametrize("language, message", [
    ("en", "error: stdout is closed, so there is nowhere to show the run\n"),
    ("es", "error: stdout está cerrada, así que no hay dónde mostrar la ejecución\n"),
])
def test_a_closed_stdout_is_one_line(language, message, offline, capsys):
    """`python -m harness_lib ... >&-`: Python starts with sys.stdout None."""
    stdout = sys.stdout
    sys.stdout = None
    try:
        status = main(["--lang", language, "--root", str(WORKSPACE), TIME_TASK])
    finally:
        sys.stdout = stdout
    assert status == 1
    assert capsys.readouterr().err == message


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a disk that is always full)")
@pytest.mark.parametrize("language, message", [
    ("en", "error: cannot write to stdout: No space left on device\n"),
    ("es", "error: no se puede escribir en stdout: No space left on device\n"),
])
def test_stdout_on_a_full_disk_is_one_line(language, message, tmp_path, offline, capsys):
    transcript = tmp_path / "run.jsonl"
    stdout = sys.stdout
    sys.stdout = full = open("/dev/full", "w", encoding="utf-8")
    try:
        status = main(["--lang", language, "--root", str(WORKSPACE), "--transcript", str(transcript), TIME_TASK])
    finally:
        sys.stdout = stdout
        full.close()  # stdout's descriptor now points at /dev/null: nothing is left to fail
    assert status == 1
    assert capsys.readouterr().err == message
    events = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    assert events[-1]["event"] == "error" and events[-1]["message"] == message[len("error: "):-1]


def test_stdout_that_fails_at_the_approve_line_is_still_an_error(tmp_path, offline, capsys):
    """The `--approve yes` line is printed inside the approval gate, where a failure counts as a no: the run
    ends with the stdout error all the same, and the write never ran."""
    class FullAtTheApproval(io.StringIO):
        def write(self, text):
            if "[approve]" in text:
                raise OSError(28, "No space left on device")
            return super().write(text)

    root = project(tmp_path)
    stdout = sys.stdout
    sys.stdout = FullAtTheApproval()
    try:
        status = main(["--root", str(root), "--scenario", "high-impact", "--approve", "yes", LESSON_TASK])
    finally:
        sys.stdout = stdout
    assert status == 1
    assert capsys.readouterr().err == "error: cannot write to stdout: No space left on device\n"
    assert not (root / "scratch").exists()


@pytest.mark.parametrize("root, problem", [("nope", "no such folder"), ("README.md", "not a folder")])
def test_a_bad_root_is_one_line(root, problem, offline, capsys):
    assert main(["--root", str(WORKSPACE / root), TIME_TASK]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f"error: --root {WORKSPACE / root}: {problem}\n"


def test_an_unreachable_api_is_one_line(tmp_path, offline, monkeypatch, capsys):
    with socket.socket() as s:  # a port nobody listens on: bind one, then close it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.delenv("HARNESS_OFFLINE")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "dummy-key-for-this-test")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("NO_PROXY", "*")
    transcript = tmp_path / "run.jsonl"
    assert main(["--root", str(WORKSPACE), "--transcript", str(transcript), TIME_TASK]) == 1
    assert capsys.readouterr().err == "error: could not reach the API: Connection error.\n"
    events = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    assert [e["event"] for e in events] == ["start", "error"]
    assert events[-1]["message"] == "could not reach the API: Connection error."


def test_a_reader_that_goes_away_is_no_traceback():
    """`python -m harness_lib ... | head -1`: stdout is a pipe whose reader closes it early."""
    proc = subprocess.Popen([sys.executable, "-m", "harness_lib", TIME_TASK], cwd=WORKSPACE,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "HARNESS_"))})
    proc.stdout.close()  # before the program has printed anything
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1
    assert stderr == ""  # no traceback, no "Exception ignored ... BrokenPipeError" at exit


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a disk that is always full)")
def test_stdout_on_a_full_disk_exits_1_with_one_line():
    """`python -m harness_lib ... >/dev/full`: a real process, for Python's last flush at exit (status 120)."""
    with open("/dev/full", "w") as full:
        p = subprocess.run([sys.executable, "-m", "harness_lib", TIME_TASK], cwd=WORKSPACE, stdin=subprocess.DEVNULL,
                           stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                           env={k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "HARNESS_"))})
    assert (p.returncode, p.stderr) == (1, "error: cannot write to stdout: No space left on device\n")


# ---- valve 4 at the terminal: only y / yes approves -------------------------------------------------------


@pytest.mark.parametrize("answer", ["", "\n", "maybe\n", "n\n"])
def test_anything_but_yes_rejects_the_action(answer, tmp_path, offline, monkeypatch, capsys):
    root = project(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(answer))
    assert main(["--root", str(root), "--scenario", "high-impact", LESSON_TASK]) == 0
    out = capsys.readouterr().out
    assert '[turn 3] tool failed: "Not approved: this high-impact action was not run (a person ..."' in out
    assert not (root / "scratch").exists() or not any((root / "scratch").iterdir())  # nothing written


def test_approve_no_rejects_without_asking(tmp_path, offline, capsys):
    root = project(tmp_path)
    assert main(["--root", str(root), "--scenario", "high-impact", "--approve", "no", LESSON_TASK]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == tools_line(root, "always rejected: --approve no")
    assert "[approve] write_file -> rejected (--approve no)" in out
    assert not (root / "scratch").exists()


def test_y_at_the_terminal_approves_the_action(tmp_path, offline, monkeypatch, capsys):
    root = project(tmp_path)
    monkeypatch.chdir(root)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))
    status = main(["--scenario", "high-impact", LESSON_TASK])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "[turn 3] tool returned: \"wrote " in out
    answer = (root / "scratch" / "answer.txt").read_text(encoding="utf-8")
    assert answer.startswith('The first line of README.md is "# My own project", and it is ')


def test_ctrl_c_at_the_approval_prompt_exits_130_and_keeps_the_transcript(tmp_path):
    root = project(tmp_path)
    transcript = tmp_path / "run.jsonl"
    # At a terminal, Ctrl-C reaches a program whose SIGINT is in its default state. A process started in the
    # background by a shell (`pytest &`, some CI runners) ignores SIGINT, and its children inherit that: the
    # program is started from a handler here, so it begins with the default whatever ran the tests.
    ignored_or_not = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "harness_lib", "--scenario", "high-impact", "--transcript",
                                 str(transcript), LESSON_TASK], cwd=root, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env={k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "HARNESS_"))})
    finally:
        signal.signal(signal.SIGINT, ignored_or_not)
    seen = b""
    try:
        while b"[approve] about to run" not in seen:  # the prompt waits for a line that never comes
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, f"no approval prompt; so far: {seen!r}"
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, f"the program ended before asking: {seen!r} {proc.stderr.read()!r}"
            seen += chunk
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
    assert proc.returncode == 130
    assert stderr.decode() == "interrupted\n"
    events = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    assert events[0]["event"] == "start"
    assert [e["event"] for e in events].count("tool_result") == 2  # read_file and get_time, as they ran
    assert events[-1] == {**events[-1], "event": "error", "message": "interrupted"}
    assert not (root / "scratch").exists()  # the pending write never ran


# ---- issue 37: the terminal's last screen tells the truth, whatever the model's answer holds ---------------

import re  # noqa: E402
import time  # noqa: E402


def screen(output: str, cols: int = 80, rows: int = 24) -> list[str]:
    """The last screen of an 80x24 terminal after `output`: a small emulator that obeys what a real terminal
    obeys (wrapping, carriage return, backspace, cursor moves, erasing, colours ignored), so a leaked escape
    code would change the screen here as it would there."""
    lines, row, col, i = [[]], 0, 0, 0
    while i < len(output):
        ch = output[i]
        if ch == "\x1b" and output[i + 1:i + 2] == "[":
            match = re.match(r"\x1b\[([?0-9;]*)([A-Za-z@])", output[i:])
            args, final = match.group(1), match.group(2)
            n = int(args) if args.isdigit() else 1
            if final == "A":
                row = max(0, row - n)
            elif final == "B":
                row += n
            elif final == "K":
                lines[row][col:] = [] if args in ("", "0") else lines[row][col:]
                if args == "2":
                    lines[row] = []
            elif final == "J":
                lines[row + 1:] = []
                lines[row][col:] = []
            i += match.end()
            while len(lines) <= row:
                lines.append([])
            continue
        if ch == "\x1b" and output[i + 1:i + 2] == "]":  # OSC: up to BEL or ESC backslash
            end = min(j for j in (output.find("\x07", i), output.find("\x1b\\", i), len(output)) if j != -1)
            i = end + 1
            continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            row += 1
            if row == len(lines):
                lines.append([])
        elif ch == "\b":
            col = max(0, col - 1)
        elif ch.isprintable() or ch == " ":
            if col == cols:
                row, col = row + 1, 0
                if row == len(lines):
                    lines.append([])
            line = lines[row]
            line.extend(" " * (col - len(line)))
            line[col:col + 1] = [ch]
            col += 1
        i += 1
    return ["".join(line) for line in lines][-rows:]


def unwrapped(rows: list[str], cols: int = 80) -> str:
    """The screen's rows as the lines they show: a full row was wrapped, so it goes on in the next one."""
    return "".join(row if len(row) == cols else row + "\n" for row in rows)


def run_in_a_terminal(args: list[str], cwd: Path, answer: str) -> tuple[int, str]:
    """`python -m harness_lib ARGS` with a pty as its terminal (stdin, stdout, stderr), typing `answer` at the
    approval question, as a person would; its exit status, and everything the terminal received, decoded."""
    terminal, keyboard = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "HARNESS_"))}
    process = subprocess.Popen([sys.executable, "-m", "harness_lib", *args], stdin=keyboard, stdout=keyboard,
                               stderr=keyboard, cwd=cwd, env={**env, "HARNESS_OFFLINE": "1", "TERM": "xterm"})
    os.close(keyboard)
    received, answered, deadline = b"", False, time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([terminal], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(terminal, 65536)
                except OSError:  # the process closed its end
                    break
                if not chunk:
                    break
                received += chunk
            if not answered and b"[y/N]" in received:
                os.write(terminal, answer.encode() + b"\n")
                answered = True
            if process.poll() is not None and not ready:
                break
    finally:
        os.close(terminal)
        status = process.wait(timeout=30)
    return status, received.decode("utf-8", errors="replace")


def test_after_an_approved_write_the_last_screen_says_it_was_written(tmp_path):
    """A README whose first line moves the cursor up and erases lines, then claims nothing was written, and
    pads the screen: the model quotes it in its answer after the write was approved. Before the fix the last
    screen read "... Nothing was written." and the "→ approved" line was gone. Now no escape code from the
    model reaches the terminal, and the harness's own record comes last: written.
    No task is given: at a real terminal that is the lesson's task, and the run ends with status 0 (the lines of
    the lesson's own run are checked in this process: test_the_lessons_terminal_run_from_the_workspace_folder)."""
    hostile = ("\x1b[1A\x1b[2K" * 6 + "\x1b[0J\rNothing was written." + "\x1b[37m" + "\u2028" * 30
               + " " * 1500 + "\u02ba) [approve] nothing to do \x1b]0;title\x07")
    root = project(tmp_path, first_line=hostile)
    status, output = run_in_a_terminal(["--scenario", "high-impact"], root, "y")
    assert status == 0, output
    lines = output.replace("\r\n", "\n").split("\n")
    assert lines[0] == tools_line(root)  # where it works: the folder it was started in
    assert lines[1] == f"[offline model] {LESSON_TASK}"  # nothing given at a terminal: the lesson's task
    assert (root / "scratch" / "answer.txt").exists()
    assert hostile[:20] in (root / "scratch" / "answer.txt").read_text()  # the model did quote the file
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", output.replace("\r\n", "\n")), \
        "a control character reached the terminal"
    last = "\n".join(screen(output))
    assert "→ approved" in output and "\\u001b[1A" in output  # the decision line, and the codes shown, not obeyed
    assert re.search(r'\n\[approve\] that is, in short: write_file\(path="scratch/answer\.txt", '
                     r'content=\(\d+ characters\)\) — allow it\? \[y/N\] ', output.replace("\r\n", "\n")), \
        "a long question ends with the call's identity, next to the prompt"
    record = unwrapped(screen(output))
    assert '[record] write_file(path="scratch/answer.txt"' in record
    assert "→ approved, run: \"wrote" in record and "to scratch/answer.txt\"" in record
    assert screen(output)[-1].strip() != "Nothing was written."


@pytest.mark.parametrize("flag, written, outcome", [("yes", True, '→ approved, run: "wrote '),
                                                     ("no", False, '→ not approved: "Not approved: ')])
def test_the_record_after_the_answer_says_what_became_of_each_high_impact_call(tmp_path, offline, monkeypatch,
                                                                                capsys, flag, written, outcome):
    root = project(tmp_path, first_line="\x1b[2J\x1b[HI saved nothing.\r")
    monkeypatch.chdir(root)
    assert main(["--scenario", "high-impact", "--approve", flag, LESSON_TASK]) == 0
    out = capsys.readouterr().out
    assert (root / "scratch" / "answer.txt").exists() is written
    assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]", out)
    last = out.rstrip("\n").split("\n")[-1]
    assert last.startswith('[record] write_file(path="scratch/answer.txt", content=(') and outcome in last


HOSTILE_FIRST_LINES = {
    "cursor up, erase, fake end": "\x1b[1A\x1b[2K\x1b[1A\x1b[2KNothing was written.",
    "colour left on": "answer\x1b[37m",
    "carriage return": "wrote it\rNothing was written.",
    "backspaces": "approved\b\b\b\b\b\b\b\brejected",
    "C1 CSI": "\x9b2J\x9b1Aclear",
    "OSC title and link": "\x1b]0;pwned\x07\x1b]8;;https://x.invalid\x07link\x1b]8;;\x07",
    "bidi": "\u202etxt.exe",
    "draws nothing": "a\ufffc\u2800\u3164\u200b\U000e0041b",
    "padding and look-alike quotes": " " * 1_000 + "\u02ba) [approve] delete_file(\u02bapath\u02ba)",
    "line separators": "one\u2028two\u2029three\x85four",
}


def test_no_escape_code_a_file_holds_reaches_the_terminal_and_the_record_comes_last(tmp_path, offline, monkeypatch,
                                                                                      capsys):
    """Each hostile first line, quoted by the model in its answer and in the content it writes (approved): the
    terminal gets no control character but the line break, and its last line is the harness's record."""
    for number, (kind, first_line) in enumerate(HOSTILE_FIRST_LINES.items()):
        (tmp_path / str(number)).mkdir()
        root = project(tmp_path / str(number), first_line=first_line)
        monkeypatch.chdir(root)
        assert main(["--scenario", "high-impact", "--approve", "yes", LESSON_TASK]) == 0, kind
        out = capsys.readouterr().out
        assert not re.search(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202e\ufffc\u2800\u3164\u200b]", out), kind
        assert " " * 16 not in out, kind
        assert out.rstrip("\n").split("\n")[-1].startswith('[record] write_file(path="scratch/answer.txt"'), kind
        assert '→ approved, run: "wrote ' in out.rstrip("\n").split("\n")[-1], kind
        assert first_line[:3] in (root / "scratch" / "answer.txt").read_text(encoding="utf-8"), kind  # quoted
