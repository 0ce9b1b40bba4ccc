"""The terminal agent, run as a learner runs it: `python -m harness_lib "..."`."""

import json
import os
import subprocess
import sys

import pytest


def agent(*args, env=None, stdin=""):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "HARNESS_"))}
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "harness_lib", *args], capture_output=True, text=True,
                          env=e, input=stdin, timeout=120)


def test_the_lessons_terminal_run():
    p = agent()
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "[offline model] Read the first line of README.md, then tell me what time it is"
    assert lines[1] == '[turn 1] model requests tool: read_file({"path":"README.md"})'
    assert lines[2] == '[turn 1] tool returned: "# Agent harness fundamentals\\n..."'
    assert lines[3] == "[turn 2] model requests tool: get_time({})"
    assert lines[4].startswith('[turn 2] tool returned: "20')
    assert lines[5] == "[turn 3] model ends (end_turn)"
    assert lines[7].startswith('The first line of README.md is "# Agent harness fundamentals", and it is ')
    assert lines[8] == "That took 2 tool-calling turns across 3 model requests."


@pytest.mark.parametrize("scenario, valve, message", [
    ("stuck", "no_progress", "identical tool calls"),
    ("never-ends", "max_turns", "turn cap of 8"),
    ("token-hog", "token_budget", "token budget of 40000"),
])
def test_each_valve_stops_its_scenario_with_exit_3(scenario, valve, message):
    p = agent("--scenario", scenario)
    assert p.returncode == 3, p.stdout + p.stderr
    assert f"harness stops ({valve})" in p.stdout
    assert message in p.stdout


def test_turn_cap_flag():
    p = agent("--scenario", "never-ends", "--max-turns", "2")
    assert p.returncode == 3
    assert "That took 2 tool-calling turns across 3 model requests." in p.stdout


def test_approve_no_rejects_and_ask_reads_the_terminal(tmp_path):
    p = agent("--scenario", "high-impact", "--approve", "no")
    assert p.returncode == 0
    assert "write_file -> rejected" in p.stdout
    p = agent("--scenario", "high-impact", stdin="n\n")
    assert p.returncode == 0
    assert "[approve]" in p.stdout and "declined" in p.stdout


def test_transcript_file(tmp_path):
    path = tmp_path / "t.jsonl"
    p = agent("--transcript", str(path))
    assert p.returncode == 0
    events = [json.loads(line)["event"] for line in path.read_text().splitlines()]
    assert events[0] == "start" and events[-1] == "end"
    assert events.count("request") == 3 and events.count("tool_call") == 2


def test_errors_exit_1_with_one_line_reason():
    p = agent(env={"HARNESS_SCENARIO": "no-such-scenario"})
    assert p.returncode == 1
    assert p.stderr.startswith("error:") and p.stderr.count("\n") == 1
    p = agent("--model", "claude-no-such-model")
    assert p.returncode == 1
    assert "404" in p.stderr and p.stderr.count("\n") == 1


def test_unknown_scenario_flag_is_a_usage_error():
    assert agent("--scenario", "nope").returncode == 2
