"""The gradebook's judge (grader/judge.py) decides a check where the learner's code cannot reach, and decides it
as the check run in the notebook would.

- The line (grader/wire.py): values cross as plain data (a str or dict subclass that lies arrives as its plain
  value; an object that is no data arrives as an Opaque, equal to nothing), functions as stand-ins that call back,
  the judge's SDK client as a real client whose HTTP the judge's offline model answers (and logs), exceptions by
  name and built-in class (the kit's own ToolError as itself), a hang as "no answer in time" at the deadline.
- The same verdicts: for the reference solutions and for wrong answers of every exercise (taken from
  tests/test_exercises.py's cases), each check prints the same lines, byte for byte, judged over the line as it does
  run in the same process; in Spanish too. Here the learner's side is a thread of this process with the notebook's
  cells run in a plain namespace (no kernel: the gradebook's tests run the real thing, in a sandboxed kernel).
"""

import ast
import asyncio
import contextlib
import io
import json
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "exercises"))

import grading  # noqa: E402
import test_exercises as cases  # noqa: E402

from grader import defendant, wire
from grader import judge  # noqa: E402
from harness_kit import lang  # noqa: E402


@pytest.fixture(autouse=True)
def printing_checks(monkeypatch):
    """The checks as in JupyterLab: a ✗ prints, it does not raise (whatever an earlier test left in the env)."""
    monkeypatch.delenv("HARNESS_GRADING", raising=False)


def opened(ns: dict, seconds: float = 60) -> judge.Notebook:
    """A judge's view of `ns`, answered by a thread that plays the kernel's part."""
    mine, theirs = socket.socketpair()
    threading.Thread(target=lambda: asyncio.run(defendant.answer(defendant.LearnerLine(theirs, "learner"), ns)),
                     daemon=True).start()
    line = judge.JudgeLine(mine, "judge")
    line.deadline = time.monotonic() + seconds
    return judge.Notebook(line)


def bye(notebook: judge.Notebook) -> None:
    notebook.line.send({"op": "bye"})
    notebook.line.sock.close()


def crossed(value, ns=None):
    """`value` as the judge receives it from the notebook."""
    notebook = opened(dict(ns or {}, value=value))
    try:
        return notebook.get("value")
    finally:
        bye(notebook)


# ---- the line ----------------------------------------------------------------------------------------------

def test_data_crosses_as_plain_data():
    from anthropic.types import TextBlock, ToolUseBlock, Usage

    from harness_lib.loop import AgentResult

    blocks = [TextBlock(type="text", text="hi", citations=None),
              ToolUseBlock(type="tool_use", id="toolu_1", name="read_file", input={"path": "a"})]
    value = {"n": 1, "x": 2.5, "t": (1, "a"), "s": {"a", "b"}, 3: [None, True], "b": b"\x00\xff", "blocks": blocks,
             "usage": Usage(input_tokens=3, output_tokens=4),
             "result": AgentResult("done", "end_turn", 1, 2, 30, [{"role": "user", "content": "hi"}])}
    got = crossed(value)
    assert got == value
    assert type(got["blocks"][1]) is ToolUseBlock and type(got["result"]) is AgentResult
    assert got["usage"].cache_read_input_tokens is None  # unset on the learner's side: unset here too


def test_a_value_that_lies_arrives_as_what_it_is():
    class Yes(str):
        def __eq__(self, other):
            return True
        __hash__ = str.__hash__

    class Always(dict):
        def get(self, *args):
            return "allow"

    class Anything:
        def __eq__(self, other):
            return True

    got = crossed({"tier": Yes("deny"), "policy": Always(read_file="deny"), "n": True, "thing": Anything()})
    assert type(got["tier"]) is str and got["tier"] != "allow"
    assert type(got["policy"]) is dict and got["policy"].get("read_file") == "deny"
    assert got["n"] is True
    assert isinstance(got["thing"], wire.Opaque) and got["thing"] != got["thing"].__class__("Anything", "")
    assert got["thing"] != 0 and got["thing"] != "anything" and got["thing"] != []


def test_functions_call_back_and_errors_cross_by_name():
    from harness_lib.tools import ToolError

    async def learner(approve, impls):
        said = await approve("write_file", {"path": "scratch/a.txt"})
        try:
            impls["read_file"]({"path": "missing.md"})
        except ToolError as err:  # the kit's own class, on both sides
            return [said, f"caught {err}"]

    def boom():
        raise KeyError("nope")

    notebook = opened({"learner": learner, "boom": boom})
    asked = []

    async def approve(name, tool_input):
        asked.append((name, tool_input))
        return "yes"

    def read_file(tool_input):
        raise ToolError(f"file not found: {tool_input['path']}")

    async def main():
        fn = notebook.get("learner")
        assert asyncio.iscoroutinefunction(fn)
        return await fn(approve, {"read_file": read_file})

    try:
        assert asyncio.run(main()) == ["yes", "caught file not found: missing.md"]
        assert asked == [("write_file", {"path": "scratch/a.txt"})]  # recorded here, by the judge's own approver
        with pytest.raises(KeyError) as err:
            notebook.get("boom")()
        assert type(err.value).__name__ == "KeyError" and "nope" in str(err.value)
        assert notebook.get("nothing", "missing") == "missing" and "boom" in notebook
    finally:
        bye(notebook)


def test_the_judges_client_answers_the_learners_sdk_and_keeps_the_log():
    from anthropic.types import Message

    from harness_lib.client import MODEL, offline_api

    async def learner(client):
        response = await client.messages.create(model=MODEL, max_tokens=64,
                                                messages=[{"role": "user", "content": "Hello"}])
        bad = None
        try:
            await client.messages.create(model=MODEL, max_tokens=64, messages=[])
        except Exception as err:  # noqa: BLE001
            bad = type(err).__name__
        return [type(response).__name__, isinstance(response, Message), response.stop_reason, bad]

    notebook = opened({"learner": learner})
    client = grading.offline("demo")
    try:
        got = asyncio.run(notebook.get("learner")(client))
    finally:
        bye(notebook)
    assert got == ["Message", True, "end_turn", "BadRequestError"]  # a real SDK on the learner's side, the real 400
    assert [body["messages"] for body in offline_api(client).log][0] == [{"role": "user", "content": "Hello"}]


def test_a_learner_that_never_answers_is_out_of_time_at_the_deadline():
    def stuck():
        time.sleep(30)

    notebook = opened({"stuck": stuck}, seconds=1)
    started = time.monotonic()
    with pytest.raises(wire.LineBroken, match="no answer in time"):
        notebook.get("stuck")()
    assert time.monotonic() - started < 10
    with pytest.raises(wire.LineBroken):  # and the line stays broken: nothing out of step is read later
        notebook.get("stuck")


def test_sys_exit_in_the_learners_code_is_an_error_not_the_judges_exit():
    def leaves():
        sys.exit(0)

    notebook = opened({"leaves": leaves})
    try:
        with pytest.raises(Exception) as err:
            notebook.get("leaves")()
        assert type(err.value).__name__ == "SystemExit" and not isinstance(err.value, SystemExit)
    finally:
        bye(notebook)


# ---- the same verdicts ---------------------------------------------------------------------------------------

def namespace(nb: dict, check_id: str) -> dict:
    """The notebook's names as a kernel would have them just before `check_id`: every code cell above it run in
    order, on past a cell that raises (nbval --nbval-lax), but not the check cells nor the cells that import or call
    the grader (it is this process's own `grading`)."""
    ns = {"grading": grading, "__name__": "__main__"}
    for c in nb["cells"]:
        if c.get("id") == check_id:
            break
        text = cases.source(c)
        tags = c.get("metadata", {}).get("tags", [])
        if c["cell_type"] != "code" or "check" in tags or "grading" in text:
            continue
        try:
            result = eval(compile(text, f"<cell {c.get('id')}>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT), ns)
            if asyncio.iscoroutine(result):
                asyncio.run(result)
        except Exception:  # noqa: BLE001 - as nbval-lax: the cells after it still run
            pass
    return ns


def printed(call: str, ns) -> tuple[str, list]:
    """What the check prints run in this process with the notebook's own names, and the verdicts it hands on."""
    out, verdicts = io.StringIO(), []
    token = grading.VERDICTS.set(verdicts)
    try:
        with contextlib.redirect_stdout(out):
            result = getattr(grading, call)(ns)
            if asyncio.iscoroutine(result):
                asyncio.run(result)
    finally:
        grading.VERDICTS.reset(token)
    return out.getvalue(), verdicts


def judged(call: str, ns: dict) -> tuple[str, list]:
    """The same through the judge (the notebook at the other end of a line): printed lines and verdicts."""
    notebook = opened(ns)
    out, verdicts = io.StringIO(), []
    try:
        with contextlib.redirect_stdout(out):
            asyncio.run(judge._run(call, notebook, time.monotonic() + 60, verdicts))
    finally:
        bye(notebook)
    return out.getvalue(), verdicts


def check_calls(nb: dict) -> dict:
    return {c["id"]: judge.check_call(cases.source(c)) for c in nb["cells"]
            if "check" in c.get("metadata", {}).get("tags", [])}


SOLUTIONS = [cases.EX1, cases.EX2, cases.EX3, cases.EX4]


def wrong_cases():
    """Every wrong answer of tests/test_exercises.py whose first ✗ is not about a SyntaxError (its hint reads
    IPython's own record of the error, which only a kernel has: the gradebook's tests run those, in a kernel)."""
    return sorted(case for case, (_, _, expected) in cases.WRONG.items()
                  if not any("raised" in hint for _, _, hint in cases.CAUSES.get(case, []))
                  and not any("SyntaxError" in str(e) for e in expected))


@pytest.mark.parametrize("name", SOLUTIONS)
def test_a_solution_prints_and_hands_on_the_same_judged(name):
    nb = cases.solution(name)
    for check_id, call in check_calls(nb).items():
        here = printed(call, namespace(nb, check_id))
        assert "✗" not in here[0]
        assert here[1] and all(c["passed"] for v in here[1] for c in v["criteria"]), check_id
        assert judged(call, namespace(nb, check_id)) == here, check_id


@pytest.mark.parametrize("case", wrong_cases())
def test_a_wrong_answer_prints_and_hands_on_the_same_judged(case):
    name, changes, expected = cases.WRONG[case]
    nb = cases.edited(case, name, changes)
    calls = check_calls(nb)
    for check_id in dict.fromkeys(check_id for check_id, _ in expected):
        here = printed(calls[check_id], namespace(nb, check_id))
        assert "✗" in here[0], check_id
        missed = [c for v in here[1] for c in v["criteria"] if not c["passed"]]
        assert [c["criterion"] for c in missed] == [line.strip()[2:] for line in here[0].splitlines()
                                                     if line.strip().startswith("✗ ")], check_id  # data = lines
        assert missed and not missed[0]["follows"], check_id  # the first ✗ is a cause, never a knock-on
        assert judged(calls[check_id], namespace(nb, check_id)) == here, check_id


def test_the_spanish_edition_prints_the_same_judged():
    nb = json.loads((ROOT / "exercises" / "es" / "solutions" / cases.EX4).read_text(encoding="utf-8"))
    before = lang.current()
    lang.use("es")
    try:
        for check_id, call in check_calls(nb).items():
            here = printed(call, namespace(nb, check_id))
            assert "✓" in here[0] and "✗" not in here[0]
            assert judged(call, namespace(nb, check_id)) == here
    finally:
        lang.use(before)


def test_a_plain_function_that_returns_a_coroutine_is_awaited_on_the_learners_side():
    async def later(x):
        return x * 2

    def plain(x):  # not a coroutine function, but what it returns can be awaited (as a check's `await` would)
        return later(x)

    notebook = opened({"plain": plain})
    try:
        fn = notebook.get("plain")
        assert not asyncio.iscoroutinefunction(fn)
        assert asyncio.run(_awaited(fn(21))) == 42
    finally:
        bye(notebook)


async def _awaited(value):
    return await value


def test_the_judges_tools_are_rooted_in_the_notebooks_own_copy_of_the_workspace(tmp_path, monkeypatch):
    """judge.root_tools (the worker calls it once, for its one notebook): the tools the checks build and hand to the
    learner's functions read a fresh copy of the workspace (its scratch/ empty) and write there; what the kit's own
    workspace holds in scratch/ is not found, and nothing is written into it."""
    import checks.ex01_policy as ex01
    from checks.kit import counting_impls, tool_root
    from harness_lib import tools

    monkeypatch.setenv("HARNESS_TOOL_ROOT", str(tool_root()))  # put back after the test
    kit = tool_root()
    planted = kit / "scratch" / f"planted-{time.monotonic_ns()}.txt"
    planted.write_text("the teacher's", encoding="utf-8")
    try:
        private = judge.root_tools(tmp_path / "ws")
        assert tool_root() == private
        assert (private / "README.md").read_bytes() == (kit / "README.md").read_bytes()
        assert list((private / "scratch").iterdir()) == []
        impls = tools.make_tool_impls(tool_root())
        with pytest.raises(tools.ToolError, match="not found"):
            counting_impls([])["read_file"]({"path": f"scratch/{planted.name}"})
        events = []
        recorded = ex01.recording_impls(events)  # what exercise 1's checks hand to the learner's run_tool_uses
        with pytest.raises(tools.ToolError, match="not found"):
            asyncio.run(recorded["read_file"]({"path": f"scratch/{planted.name}"}))
        impls["write_file"]({"path": "scratch/judged.txt", "content": "x"})
        assert (private / "scratch" / "judged.txt").is_file() and not (kit / "scratch" / "judged.txt").exists()
    finally:
        planted.unlink()
