"""harness_lib.tools: the toy tools, their sandbox, and run_tool / arun_tool."""

import asyncio
import os
import threading
import time
import tracemalloc
from datetime import datetime, timedelta, timezone

import pytest
from jsonschema import Draft202012Validator

from harness_lib.tools import (
    DEFAULT_ROOT, HIGH_IMPACT, READ_LIMIT, SCRATCH, TOOLS, ToolError, arun_tool, make_tool_impls, run_tool,
)


@pytest.fixture
def root(tmp_path):
    """A project root with a README and an empty scratch/, next to a sibling named root-evil."""
    root = tmp_path / "root"
    (root / SCRATCH).mkdir(parents=True)
    (root / "README.md").write_text("# Agent harness fundamentals\nhello\n", encoding="utf-8")
    (tmp_path / "root-evil").mkdir()
    (tmp_path / "root-evil" / "secret.txt").write_text("the secret", encoding="utf-8")
    return root


@pytest.fixture
def tools(root):
    return make_tool_impls(root)


def refused(tools, name, tool_input):
    """Call the impl directly, expect a ToolError, return its message."""
    with pytest.raises(ToolError) as info:
        tools[name](tool_input)
    return str(info.value)


# --- the definitions -----------------------------------------------------------------------------

def test_tool_schemas_are_valid_and_closed():
    assert [t["name"] for t in TOOLS] == ["get_time", "read_file", "write_file", "delete_file"]
    for tool in TOOLS:
        assert tool["description"]
        Draft202012Validator.check_schema(tool["input_schema"])
        assert tool["input_schema"]["type"] == "object"
        assert tool["input_schema"]["additionalProperties"] is False
        assert set(tool["input_schema"].get("required", [])) == set(tool["input_schema"]["properties"])
    assert HIGH_IMPACT == frozenset({"write_file", "delete_file", "http_post"})
    assert set(make_tool_impls()) == {t["name"] for t in TOOLS}


def test_default_root_is_the_workspace_folder():
    assert DEFAULT_ROOT.name == "workspace"
    readme = (DEFAULT_ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.splitlines()[0] == "# Agent harness fundamentals"
    assert run_tool(make_tool_impls(), "read_file", {"path": "README.md"}) == (readme[:READ_LIMIT], False)


# --- get_time ------------------------------------------------------------------------------------

def test_get_time_uses_the_clock_and_gives_iso_with_offset(root):
    fixed = datetime(2025, 1, 31, 14, 5, 9, 123456, tzinfo=timezone(timedelta(hours=1)))
    text = make_tool_impls(root, clock=lambda: fixed)["get_time"]({})
    assert text == "2025-01-31T14:05:09+01:00"
    assert datetime.fromisoformat(text) == fixed.replace(microsecond=0)


def test_get_time_default_clock_is_aware_local_time(tools):
    parsed = datetime.fromisoformat(tools["get_time"]({}))
    assert parsed.utcoffset() is not None
    assert parsed.microsecond == 0
    assert abs(parsed - datetime.now(timezone.utc)) < timedelta(minutes=1)


# --- read_file -----------------------------------------------------------------------------------

def test_read_file_happy_path(root, tools):
    assert tools["read_file"]({"path": "README.md"}) == "# Agent harness fundamentals\nhello\n"
    (root / "notes").mkdir()
    (root / "notes" / "a.md").write_text("héllo ✓", encoding="utf-8")
    assert tools["read_file"]({"path": "notes/a.md"}) == "héllo ✓"
    assert tools["read_file"]({"path": "notes/../README.md"}).startswith("# Agent")  # stays inside
    (root / "empty.txt").touch()
    assert tools["read_file"]({"path": "empty.txt"}) == ""


def test_read_file_missing_says_not_found_with_the_path(tools):
    assert refused(tools, "read_file", {"path": "readme.md"}) == "file not found: readme.md"
    assert "not found" in refused(tools, "read_file", {"path": "README.md/inner"})


def test_read_file_returns_exactly_read_limit_chars_of_a_huge_file_without_reading_it(root, tools):
    big = root / "big.txt"
    with open(big, "wb") as f:
        f.write(b"a" * 10_000)
        f.truncate(50 * 1024 * 1024)  # 50 MB, sparse: the rest is never written to disk
    tracemalloc.start()
    try:
        text = tools["read_file"]({"path": "big.txt"})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert text == "a" * READ_LIMIT
    assert peak < 1024 * 1024  # reading the whole file would allocate 50 MB


def test_read_file_cuts_multibyte_text_on_a_character_boundary(root, tools):
    (root / "emoji.txt").write_text("a" + "😀" * 3000, encoding="utf-8")  # byte limit cuts an emoji
    assert tools["read_file"]({"path": "emoji.txt"}) == "a" + "😀" * (READ_LIMIT - 1)
    (root / "accents.txt").write_text("é" * 5000, encoding="utf-8")
    assert tools["read_file"]({"path": "accents.txt"}) == "é" * READ_LIMIT


@pytest.mark.parametrize("path", ["../root-evil/secret.txt", "../../etc/passwd", "notes/../../x"])
def test_read_file_refuses_dotdot_escapes(tools, path):
    message = refused(tools, "read_file", {"path": path})
    assert message == f"read_file may only touch files inside the project root: {path}"


def test_read_file_refuses_absolute_paths(root, tools):
    message = refused(tools, "read_file", {"path": "/etc/passwd"})
    assert message.startswith("read_file: absolute paths are not allowed: /etc/passwd")
    inside = str(root / "README.md")  # even one that points inside the root
    assert "absolute paths are not allowed" in refused(tools, "read_file", {"path": inside})


def test_read_file_refuses_the_sibling_whose_name_starts_with_roots(root, tools):
    (root / "evil-link").symlink_to(root.parent / "root-evil")
    message = refused(tools, "read_file", {"path": "evil-link/secret.txt"})
    assert message == "read_file may only touch files inside the project root: evil-link/secret.txt"


def test_read_file_refuses_symlinks_out_of_the_root(root, tools):
    (root / "passwd").symlink_to("/etc/passwd")
    (root / "zero").symlink_to("/dev/zero")
    (root / "dangling").symlink_to(root.parent / "nowhere.txt")
    for name in ["passwd", "zero", "dangling"]:
        assert refused(tools, "read_file", {"path": name}).startswith("read_file may only touch files inside")


def test_read_file_follows_symlinks_that_stay_inside(root, tools):
    (root / "link.md").symlink_to(root / "README.md")
    assert tools["read_file"]({"path": "link.md"}).startswith("# Agent")


def test_read_file_refuses_a_fifo_without_blocking(root, tools):
    os.mkfifo(root / "pipe")
    outcome = []
    def read_the_pipe():
        outcome.append(run_tool(tools, "read_file", {"path": "pipe"}))

    worker = threading.Thread(target=read_the_pipe, daemon=True)
    worker.start()
    worker.join(timeout=5)
    if worker.is_alive():  # unblock the stuck reader so the test run can end, then fail
        with open(os.open(root / "pipe", os.O_WRONLY | os.O_NONBLOCK), "wb"):
            pass
        pytest.fail("read_file blocked on a FIFO")
    assert outcome == [
        ("read_file: pipe is not a regular file (pipes, devices and sockets are refused)", True)]


def test_read_file_refuses_directories(root, tools):
    assert refused(tools, "read_file", {"path": SCRATCH}) == "read_file: scratch is a directory, not a file"
    assert refused(tools, "read_file", {"path": "."}) == "read_file: . is a directory, not a file"


def test_read_file_refuses_binary_and_non_utf8(root, tools):
    (root / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (root / "nul.txt").write_bytes(b"hello\x00world")
    (root / "latin1.txt").write_bytes("café".encode("latin-1"))
    (root / "cut.txt").write_bytes("caf".encode() + "é".encode()[:1])  # truncated sequence at EOF
    assert refused(tools, "read_file", {"path": "image.png"}) == \
        "read_file: image.png looks like a binary file (it contains NUL bytes)"
    assert "nul.txt looks like a binary file" in refused(tools, "read_file", {"path": "nul.txt"})
    assert refused(tools, "read_file", {"path": "latin1.txt"}) == \
        "read_file: latin1.txt is not a UTF-8 text file"
    assert "cut.txt is not a UTF-8 text file" in refused(tools, "read_file", {"path": "cut.txt"})


def test_read_file_refuses_nul_in_the_path(tools):
    assert "contains a NUL byte" in refused(tools, "read_file", {"path": "README.md\x00.txt"})


# --- write_file and delete_file ------------------------------------------------------------------

def test_write_then_delete_inside_scratch(root, tools):
    assert tools["write_file"]({"path": "scratch/hello.txt", "content": "hello, world"}) == \
        "wrote 12 characters to scratch/hello.txt"
    assert (root / "scratch" / "hello.txt").read_text(encoding="utf-8") == "hello, world"
    assert tools["read_file"]({"path": "scratch/hello.txt"}) == "hello, world"
    assert tools["write_file"]({"path": "scratch/hello.txt", "content": "é"}) == \
        "wrote 1 characters to scratch/hello.txt"  # replaced, counted in characters
    assert tools["delete_file"]({"path": "scratch/hello.txt"}) == "deleted scratch/hello.txt"
    assert not (root / "scratch" / "hello.txt").exists()
    assert refused(tools, "delete_file", {"path": "scratch/hello.txt"}) == "file not found: scratch/hello.txt"


def test_write_creates_parent_folders_inside_scratch(root, tools):
    assert tools["write_file"]({"path": "scratch/a/b/c.txt", "content": "x"}) == \
        "wrote 1 characters to scratch/a/b/c.txt"
    assert (root / "scratch" / "a" / "b" / "c.txt").read_text() == "x"
    fresh = make_tool_impls(root.parent / "fresh")  # no scratch/ yet: write_file creates it
    assert fresh["write_file"]({"path": "scratch/n.txt", "content": ""}) == \
        "wrote 0 characters to scratch/n.txt"


@pytest.mark.parametrize("name", ["write_file", "delete_file"])
@pytest.mark.parametrize("path", [
    "README.md", "../README.md", "scratch/../README.md", "scratch/a/../../README.md",
    "../root-evil/secret.txt", "scratch-evil/x.txt",
])
def test_high_impact_tools_only_touch_scratch(root, tools, name, path):
    (root / "scratch-evil").mkdir()
    (root / "scratch-evil" / "x.txt").write_text("keep")
    tool_input = {"path": path, "content": "overwritten"} if name == "write_file" else {"path": path}
    assert refused(tools, name, tool_input) == f"{name} may only touch files under scratch/: {path}"
    assert (root / "README.md").read_text().startswith("# Agent")
    assert (root.parent / "root-evil" / "secret.txt").read_text() == "the secret"
    assert (root / "scratch-evil" / "x.txt").read_text() == "keep"


@pytest.mark.parametrize("name", ["write_file", "delete_file"])
def test_high_impact_tools_refuse_absolute_paths(root, tools, name):
    path = str(root / "scratch" / "x.txt")
    tool_input = {"path": path, "content": "x"} if name == "write_file" else {"path": path}
    assert f"{name}: absolute paths are not allowed: {path}" in refused(tools, name, tool_input)


def test_write_refuses_symlinks_in_scratch_that_point_outside(root, tools):
    outside = root.parent / "outside"
    outside.mkdir()
    (outside / "target.txt").write_text("keep")
    (root / "scratch" / "file-link").symlink_to(outside / "target.txt")
    (root / "scratch" / "dir-link").symlink_to(outside)
    (root / "scratch" / "dangling").symlink_to(outside / "new.txt")
    (root / "scratch" / "readme-link").symlink_to(root / "README.md")  # inside root, outside scratch
    for path in ["scratch/file-link", "scratch/dir-link/new.txt", "scratch/dangling", "scratch/readme-link"]:
        assert refused(tools, "write_file", {"path": path, "content": "x"}) == \
            f"write_file may only touch files under scratch/: {path}"
        assert refused(tools, "delete_file", {"path": path}).startswith("delete_file may only touch")
    assert sorted(p.name for p in outside.iterdir()) == ["target.txt"]
    assert (outside / "target.txt").read_text() == "keep"
    assert (root / "README.md").read_text().startswith("# Agent")


def test_a_scratch_folder_that_is_a_symlink_out_of_root_is_refused(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir(), outside.mkdir()
    (root / "scratch").symlink_to(outside)
    tools = make_tool_impls(root)
    message = refused(tools, "write_file", {"path": "scratch/x.txt", "content": "x"})
    assert message == "write_file may only touch files under scratch/: scratch/x.txt"
    assert list(outside.iterdir()) == []


def test_delete_and_write_refuse_directories_and_fifos(root, tools):
    (root / "scratch" / "sub").mkdir()
    os.mkfifo(root / "scratch" / "pipe")
    assert refused(tools, "delete_file", {"path": "scratch/sub"}) == \
        "delete_file: scratch/sub is a directory, not a file"
    assert refused(tools, "delete_file", {"path": "scratch"}) == \
        "delete_file: scratch is a directory, not a file"
    assert refused(tools, "write_file", {"path": "scratch/sub", "content": "x"}) == \
        "write_file: scratch/sub is a directory, not a file"
    assert "not a regular file" in refused(tools, "write_file", {"path": "scratch/pipe", "content": "x"})
    assert "not a regular file" in refused(tools, "delete_file", {"path": "scratch/pipe"})
    assert (root / "scratch" / "sub").is_dir()


# --- run_tool ------------------------------------------------------------------------------------

def test_run_tool_runs_a_tool(tools):
    assert run_tool(tools, "read_file", {"path": "README.md"}) == \
        ("# Agent harness fundamentals\nhello\n", False)


def test_run_tool_unknown_tool(tools):
    assert run_tool(tools, "http_post", {"url": "x"}) == \
        ("unknown tool: http_post. Available tools: get_time, read_file, write_file, delete_file", True)


def test_run_tool_needs_both_an_impl_and_a_schema(tools):
    with_extra_impl = tools | {"secret": lambda tool_input: "ran"}
    assert run_tool(with_extra_impl, "secret", {}) == \
        ("unknown tool: secret. Available tools: get_time, read_file, write_file, delete_file", True)
    only_time = {"get_time": tools["get_time"]}
    assert run_tool(only_time, "read_file", {"path": "README.md"}) == \
        ("unknown tool: read_file. Available tools: get_time", True)


@pytest.mark.parametrize("tool_input, message", [
    ({}, "invalid input for read_file: 'path' is a required property"),
    ({"path": "README.md", "mode": "r"},
     "invalid input for read_file: Additional properties are not allowed ('mode' was unexpected)"),
    ({"path": 123}, "invalid input for read_file: 123 is not of type 'string' (field 'path')"),
    ({"path": ""}, "invalid input for read_file: '' should be non-empty (field 'path')"),
    ("README.md", "invalid input for read_file: expected a JSON object, got str"),
    (None, "invalid input for read_file: expected a JSON object, got NoneType"),
])
def test_run_tool_invalid_input(tools, tool_input, message):
    assert run_tool(tools, "read_file", tool_input) == (message, True)


def test_run_tool_checks_lengths_and_does_not_echo_huge_input(tools):
    content, is_error = run_tool(tools, "write_file", {"path": "scratch/x.txt", "content": "x" * 20_001})
    assert is_error
    assert content.startswith("invalid input for write_file: 'xxx")
    assert content.endswith(" ... (cut) (field 'content')") and len(content) < 300
    assert run_tool(tools, "read_file", {"path": "x" * 256})[0].endswith(" ... (cut) (field 'path')")


def test_run_tool_turns_failures_into_messages(tools):
    assert run_tool(tools, "read_file", {"path": "../root-evil/secret.txt"}) == \
        ("read_file may only touch files inside the project root: ../root-evil/secret.txt", True)
    schema = [{"name": "boom", "input_schema": {"type": "object"}}]

    def raise_tool_error(tool_input):
        raise ToolError("no such city: Atlantis")

    assert run_tool({"boom": raise_tool_error}, "boom", {}, schema) == ("no such city: Atlantis", True)
    assert run_tool({"boom": lambda tool_input: 1 / 0}, "boom", {}, schema) == \
        ("tool failed: ZeroDivisionError: division by zero", True)
    assert run_tool({"boom": lambda tool_input: 42}, "boom", {}, schema) == \
        ("tool failed: boom returned int, not a string", True)


# --- arun_tool -----------------------------------------------------------------------------------

def test_arun_tool_runs_plain_tools_concurrently_in_threads():
    spans = {}
    schema = [{"name": "nap", "input_schema": {"type": "object", "required": ["i"]}}]

    def nap(tool_input):
        start = time.monotonic()
        time.sleep(0.2)
        spans[tool_input["i"]] = (start, time.monotonic(), threading.get_ident())
        return f"slept {tool_input['i']}"

    async def main():
        calls = [arun_tool({"nap": nap}, "nap", {"i": i}, schema) for i in range(4)]
        return await asyncio.gather(*calls)

    assert asyncio.run(main()) == [(f"slept {i}", False) for i in range(4)]
    starts, ends = [s for s, _, _ in spans.values()], [e for _, e, _ in spans.values()]
    assert max(starts) < min(ends)  # every nap began before any nap ended: all four overlapped
    assert threading.get_ident() not in {t for _, _, t in spans.values()}


def test_arun_tool_awaits_coroutine_tools_and_reports_failures(tools):
    schema = [{"name": "echo", "input_schema": {"type": "object"}}]

    async def echo(tool_input):
        await asyncio.sleep(0)
        return f"echo {tool_input.get('x')} on {threading.current_thread().name}"

    async def broken(tool_input):
        raise ToolError("nothing to echo")

    async def main():
        return [
            await arun_tool({"echo": echo}, "echo", {"x": 1}, schema),
            await arun_tool({"echo": broken}, "echo", {}, schema),
            await arun_tool({"echo": lambda tool_input: [].pop()}, "echo", {}, schema),
            await arun_tool(tools, "read_file", {"path": "README.md"}),
            await arun_tool(tools, "read_file", {}),
            await arun_tool(tools, "nope", {}),
        ]

    assert asyncio.run(main()) == [
        ("echo 1 on MainThread", False),
        ("nothing to echo", True),
        ("tool failed: IndexError: pop from empty list", True),
        ("# Agent harness fundamentals\nhello\n", False),
        ("invalid input for read_file: 'path' is a required property", True),
        ("unknown tool: nope. Available tools: get_time, read_file, write_file, delete_file", True),
    ]
