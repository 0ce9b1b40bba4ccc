"""The loop's behaviour where mutation testing found it untested after issue 37 (docs/development.md, "Mutation
testing"): each test asserts what the model is sent, what a person is asked, or what the run reports."""

import asyncio
from types import SimpleNamespace

import pytest

from anthropic.types import Usage

from harness_lib import TOOLS, make_tool_impls, run_agent
from harness_kit.lang import english


def tool_use(call_id, name="get_time"):
    return SimpleNamespace(type="tool_use", id=call_id, name=name, input={})


class OneReply:
    """A client whose model answers once: three tool calls, the last two with one id."""

    def __init__(self):
        self.messages = self
        self.sent = 0

    async def create(self, **request):
        self.sent += 1
        return SimpleNamespace(stop_reason="tool_use", usage=Usage(input_tokens=3, output_tokens=2),
                               content=[tool_use("toolu_first"), tool_use("toolu_twin"), tool_use("toolu_twin")])


def test_the_stop_sentence_names_the_id_two_calls_shared_not_the_first_call_s(tmp_path):
    client = OneReply()
    result = asyncio.run(run_agent(client, "task", TOOLS, make_tool_impls(tmp_path)))
    assert (result.stopped_by, result.turns, result.requests, client.sent) == ("duplicate_ids", 0, 1, 1)
    assert result.note == ("stop.duplicate_ids", {"id": '"toolu_twin"'})
    assert result.text == english("stop.duplicate_ids", id='"toolu_twin"')
    assert '"toolu_twin"' in result.text and "toolu_first" not in result.text


def test_a_call_whose_schema_cannot_be_checked_is_refused_with_the_reason_and_nobody_is_asked(tmp_path):
    """A broken schema (a tool one adds with a typo in it): the call cannot run, so the model is told why, as
    run_tool would tell it, and no person is asked to approve it."""
    from harness_lib.loop import run_tool_uses
    from harness_lib.tools import check_call, run_tool

    broken = [{"name": "write_file", "input_schema": {"type": "nonsense"}}]
    impls = make_tool_impls(tmp_path)
    said, _ = run_tool(impls, "write_file", {}, broken)
    assert said.startswith("tool failed: UnknownType: Unknown type 'nonsense'")
    assert check_call(impls, "write_file", {}, broken) == said
    asked = []

    async def approve(name, tool_input):
        asked.append(name)
        return True

    call = SimpleNamespace(type="tool_use", id="toolu_1", name="write_file", input={})
    results = asyncio.run(run_tool_uses([call], impls, tools=broken, approve=approve))
    assert asked == []
    assert [(r["tool_use_id"], r["content"], r["is_error"]) for r in results] == [("toolu_1", said, True)]
