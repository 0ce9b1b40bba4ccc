"""The approval gate's behaviour where mutation testing found it untested after issue 37 (docs/development.md,
"Mutation testing"): each test asserts what a person is asked or what the model is told."""

import pytest

from harness_kit import lang
from harness_lib.approval import LONG_ACTION, describe, in_short, question


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("HARNESS_LANG", "en")
    lang.use("en")


def test_a_field_of_exactly_80_characters_as_shown_is_kept_one_more_is_counted():
    key, value = "k" * 78, "v" * 78  # shown with their quotes: 80 characters each
    assert in_short("n", {key: value}) == f'n({key}="{value}")'
    assert in_short("n", {"k" * 79: "v" * 79}) == "n((79 characters)=(79 characters))"


def test_the_short_line_shows_the_tool_name_on_one_line_and_an_input_that_is_no_object_by_its_length():
    assert in_short("write\nfile", {"path": "a"}) == 'write\\u000afile(path="a")'
    assert in_short("write\nfile", [1, 2]) == "write\\u000afile((5 characters))"
    assert question("n", list(range(120))).endswith("\n[approve] that is, in short: n((371 characters))")


def test_an_action_of_exactly_the_long_limit_is_asked_as_it_is_one_more_character_adds_the_short_line():
    pad = LONG_ACTION - len(describe("n", {"content": ""}))
    exact = {"content": "x" * pad}
    assert len(describe("n", exact)) == LONG_ACTION
    assert question("n", exact) == describe("n", exact)
    longer = {"content": "x" * (pad + 1)}
    assert question("n", longer) == describe("n", longer) + \
        f"\n[approve] that is, in short: n(content=({pad + 1} characters))"
