"""The arithmetic behind valves 2 and 3."""

from anthropic.types import TextBlock, ToolUseBlock, Usage

from harness_lib.valves import find_cycle, signature_of, tokens_of


def test_tokens_of_counts_cache_tokens_too():
    usage = Usage(input_tokens=10, output_tokens=5, cache_creation_input_tokens=100, cache_read_input_tokens=1000)
    assert tokens_of(usage) == 1115


def test_tokens_of_treats_missing_cache_fields_as_zero():
    assert tokens_of(Usage(input_tokens=10, output_tokens=5)) == 15


def test_signature_ignores_order_of_calls_and_of_keys_and_skips_text():
    a = [TextBlock(type="text", text="let me look"),
         ToolUseBlock(type="tool_use", id="toolu_1", name="read_file", input={"path": "a.md", "x": 1}),
         ToolUseBlock(type="tool_use", id="toolu_2", name="get_time", input={})]
    b = [{"type": "tool_use", "id": "toolu_9", "name": "get_time", "input": {}},
         {"type": "tool_use", "id": "toolu_8", "name": "read_file", "input": {"x": 1, "path": "a.md"}}]
    assert signature_of(a) == signature_of(b) == 'get_time({}) | read_file({"path":"a.md","x":1})'


def test_signature_tells_different_arguments_apart():
    one = [{"type": "tool_use", "id": "t", "name": "read_file", "input": {"path": "a.md"}}]
    two = [{"type": "tool_use", "id": "t", "name": "read_file", "input": {"path": "b.md"}}]
    assert signature_of(one) != signature_of(two)
    assert signature_of([]) == ""


def test_find_cycle():
    assert find_cycle(["A"]) is None
    assert find_cycle(["A", "A"]) == 1              # the lesson's valve 3
    assert find_cycle(["A", "B", "A", "B"]) == 2    # ping-pong
    assert find_cycle(["A", "B", "C", "A", "B", "C"]) == 3
    assert find_cycle(["A", "B", "A", "C"]) is None
    assert find_cycle(["X", "A", "B", "A"]) is None  # not yet two full periods
    assert find_cycle(["A", "B", "C", "D", "A", "B", "C", "D"]) is None  # longer than max_period
    assert find_cycle(["A", "B", "A", "B", "A", "B"]) == 2
    assert find_cycle(["A", "B", "A", "B", "C"]) is None  # a cycle the model has left is not counted
    assert find_cycle(["A"] * 50 + ["B", "C", "D", "E", "F", "G"]) is None  # the look-back is bounded


# --- what mutation testing found untested (docs/development.md, "Mutation testing") ----------------------------

def test_tokens_of_counts_a_usage_without_cache_fields_at_all():
    """A usage object that has no cache attributes (an older SDK, a hand-made stand-in) still counts: missing is 0."""
    from types import SimpleNamespace

    assert tokens_of(SimpleNamespace(input_tokens=10, output_tokens=5)) == 15
    assert tokens_of(SimpleNamespace()) == 0


def test_signature_shows_non_ascii_names_as_they_are():
    """The no-progress sentence and the inspector show the call as the model wrote it: año.md, not a\\u00f1o.md."""
    call = [{"type": "tool_use", "id": "t", "name": "read_file", "input": {"path": "notas/año.md", "note": "✓ 中文"}}]
    assert signature_of(call) == 'read_file({"note":"✓ 中文","path":"notas/año.md"})'
