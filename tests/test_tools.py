"""harness_lib.tools: the toy tools, their sandbox (harness_lib.sandbox), and run_tool / arun_tool."""

import asyncio
import errno
import os
import subprocess
import sys
import threading
import tracemalloc
from datetime import datetime, timedelta, timezone

import pytest
from jsonschema import Draft202012Validator

from harness_lib import sandbox
from harness_lib.tools import (
    DEFAULT_ROOT, HIGH_IMPACT, READ_LIMIT, SCRATCH, TOOLS, ToolError, arun_tool, make_tool_impls, run_tool,
)

POSIX_ONLY = ("O_NOFOLLOW", "O_NONBLOCK", "O_DIRECTORY")


@pytest.fixture(autouse=True, params=["posix", "no-posix-flags"])
def platform(request, monkeypatch):
    """Every test runs twice: with this OS's own facilities, and with the POSIX-only ones taken away, as
    on Windows (no O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY, no dir_fd), so the fallback walk is tested too."""
    if request.param == "no-posix-flags":
        for name in POSIX_ONLY:
            monkeypatch.delattr(os, name, raising=False)
        monkeypatch.setattr(os, "supports_dir_fd", set())
        monkeypatch.setattr(os, "supports_follow_symlinks", set())
    return request.param


def posix_only(platform, why):
    if platform != "posix":
        pytest.skip(f"POSIX only: {why}")


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
    message = str(info.value)
    assert "\n" not in message and message.isprintable()
    return message


def call(name, path):
    """The input for `name` on `path` (write_file also needs content)."""
    return {"path": path, "content": "x"} if name == "write_file" else {"path": path}


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
    assert refused(tools, "read_file", {"path": "README.md/inner"}) == "file not found: README.md/inner"
    assert refused(tools, "read_file", {"path": "no/such/folder.md"}) == "file not found: no/such/folder.md"


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


def test_read_file_refuses_a_symlinked_folder_into_the_sibling_whose_name_starts_with_roots(root, tools):
    (root / "evil-link").symlink_to(root.parent / "root-evil")
    message = refused(tools, "read_file", {"path": "evil-link/secret.txt"})
    assert message == \
        "read_file: evil-link is a symbolic link; links are not followed (in evil-link/secret.txt)"


def test_read_file_refuses_symlinks_out_of_the_root(root, tools):
    (root / "passwd").symlink_to("/etc/passwd")
    (root / "zero").symlink_to("/dev/zero")
    (root / "dangling").symlink_to(root.parent / "nowhere.txt")
    for name in ["passwd", "zero", "dangling"]:
        assert refused(tools, "read_file", {"path": name}) == \
            f"read_file: {name} is a symbolic link; links are not followed"


def test_read_file_refuses_even_symlinks_that_stay_inside(root, tools):
    (root / "link.md").symlink_to(root / "README.md")
    (root / "notes").mkdir()
    (root / "notes" / "a.md").write_text("inside", encoding="utf-8")
    (root / "alias").symlink_to(root / "notes")  # a symlinked parent folder, anywhere in the path
    assert refused(tools, "read_file", {"path": "link.md"}) == \
        "read_file: link.md is a symbolic link; links are not followed"
    assert refused(tools, "read_file", {"path": "notes/../alias/a.md"}) == \
        "read_file: alias is a symbolic link; links are not followed (in notes/../alias/a.md)"
    assert tools["read_file"]({"path": "notes/a.md"}) == "inside"


@pytest.mark.parametrize("name", ["read_file", "write_file", "delete_file"])
def test_a_folder_swapped_for_a_symlink_after_the_check_is_not_followed(root, tools, monkeypatch, name):
    """The race, made deterministic: the walk's look (lstat) sees a real folder, but by the time it is
    opened, `notes` is a symlink into the sibling root-evil/ (whose name starts with root's). POSIX: the
    open with O_NOFOLLOW refuses it. Fallback: the final resolve() check sees the path leave the root."""
    base = root if name == "read_file" else root / SCRATCH  # where the tool may go
    (base / "notes").mkdir()
    real = os.lstat(base / "notes")
    os.rename(base / "notes", base / "notes.real")
    (base / "notes").symlink_to(root.parent / "root-evil")
    for folder in (sandbox._HeldFolder, sandbox._PathFolder):
        looked = folder.lstat
        monkeypatch.setattr(folder, "lstat", lambda self, n, looked=looked:
                            real if n == "notes" else looked(self, n))
    path = ("notes/" if name == "read_file" else "scratch/notes/") + "secret.txt"
    assert refused(tools, name, call(name, path)) in (
        f"{name}: cannot use {path}: Not a directory",  # POSIX: Linux's errno for O_DIRECTORY|O_NOFOLLOW
        f"{name}: cannot use {path}: Too many levels of symbolic links",  # POSIX: ELOOP elsewhere
        f"{name}: cannot use {path}: it now leads out of the project root")  # the fallback's resolve()
    assert (root.parent / "root-evil" / "secret.txt").read_text() == "the secret"  # still there, unchanged


@pytest.mark.parametrize("name", ["read_file", "write_file", "delete_file"])
def test_a_tool_cannot_be_raced_out_of_the_root(root, tools, platform, tmp_path, name):
    """Another process swaps the folder notes/ for a symlink out of the root and back, as fast as it can,
    while the tool uses notes/x.txt 2,000 times: the outside file is never returned, written or deleted."""
    posix_only(platform, "the fallback walk does not close this race (the module docstring says so)")
    base = root if name == "read_file" else root / SCRATCH
    (base / "notes").mkdir()
    (base / "notes" / "x.txt").write_text("inside", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.txt").write_text("OUTSIDE", encoding="utf-8")
    (base / "link").symlink_to(outside)
    path = ("notes/" if name == "read_file" else "scratch/notes/") + "x.txt"
    swapper = subprocess.Popen([sys.executable, "-c", SWAPPER, str(base), str(tmp_path / "stop")],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert swapper.stdout.readline() == "ready\n"
        results = [run_tool(tools, name, call(name, path)) for _ in range(2000)]
    finally:
        (tmp_path / "stop").touch()
        swaps = int(swapper.stdout.read() or 0)
        swapper.wait()
    assert swaps > 0  # the swapper really ran while the tool was used
    assert all("OUTSIDE" not in content for content, _ in results)
    assert sorted(p.name for p in outside.iterdir()) == ["x.txt"]
    assert (outside / "x.txt").read_text(encoding="utf-8") == "OUTSIDE"


# Run by test_a_tool_cannot_be_raced_out_of_the_root in its own process: notes/ becomes the symlink
# `link`, then the real folder again, until the stop file appears. Prints how many swaps it made.
SWAPPER = """
import os, shutil, sys

def move(src, dst):
    while True:
        try:
            return os.rename(src, dst)
        except OSError:  # write_file made a fresh notes/ while there was none: remove it, try again
            shutil.rmtree(dst, ignore_errors=True)

os.chdir(sys.argv[1])
print("ready", flush=True)
swaps = 0
while not os.path.exists(sys.argv[2]):
    move("notes", "notes.real"); move("link", "notes")
    move("notes", "link"); move("notes.real", "notes")
    swaps += 1
print(swaps, flush=True)
"""


def test_read_file_refuses_a_fifo_without_blocking(root, tools, platform):
    posix_only(platform, "os.mkfifo")
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
    assert refused(tools, "read_file", {"path": "scratch/.."}) == \
        "read_file: scratch/.. is a directory, not a file"


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
    assert refused(tools, "read_file", {"path": "README.md\x00.txt"}) == \
        "read_file: the path contains a NUL byte: 'README.md\\x00.txt'"


# --- paths every tool refuses the same way, on every OS -----------------------------------------

HINT = "(give a path relative to the project root)"


@pytest.mark.parametrize("name", ["read_file", "write_file", "delete_file"])
@pytest.mark.parametrize("path, message", [
    ("/etc/passwd", f"absolute paths are not allowed: /etc/passwd {HINT}"),
    ("//server/share/x", f"absolute paths are not allowed: //server/share/x {HINT}"),
    ("\\\\server\\share\\x", f"absolute paths are not allowed: \\\\server\\share\\x {HINT}"),  # UNC
    ("\\scratch\\x", f"absolute paths are not allowed: \\scratch\\x {HINT}"),
    ("C:\\scratch\\x", f"drive letters are not allowed: C:\\scratch\\x {HINT}"),
    ("C:scratch/x", f"drive letters are not allowed: C:scratch/x {HINT}"),
    ("c:/scratch/x", f"drive letters are not allowed: c:/scratch/x {HINT}"),
    ("scratch\\x.txt", "backslashes are not allowed in paths: scratch\\x.txt (separate folders with /)"),
    ("scratch/..\\..\\x", "backslashes are not allowed in paths: scratch/..\\..\\x (separate folders with /)"),
    ("scratch/\udc80", "the path is not valid Unicode text (it has a lone surrogate): 'scratch/\\udc80'"),
    ("scratch/x\x00", "the path contains a NUL byte: 'scratch/x\\x00'"),
])
def test_every_tool_refuses_windows_shaped_and_invalid_paths(root, tools, name, path, message):
    assert refused(tools, name, call(name, path)) == f"{name}: {message}"
    assert sorted(p.name for p in (root / SCRATCH).iterdir()) == []


@pytest.mark.parametrize("name", ["read_file", "write_file", "delete_file"])
def test_every_tool_turns_os_errors_into_one_line_messages(root, tools, name):
    too_long = "scratch/" + "a" * 300  # one name longer than any file system allows
    assert refused(tools, name, call(name, too_long)) == f"{name}: cannot use {too_long}: File name too long"
    assert refused(tools, name, call(name, 42)) == f"{name}: the path must be a string, not int"


@pytest.mark.parametrize("name", ["read_file", "write_file", "delete_file"])
def test_permission_denied_is_a_tool_error(root, tools, name, monkeypatch):
    (root / SCRATCH / "locked.txt").write_text("keep", encoding="utf-8")

    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "open", denied)
    monkeypatch.setattr(os, "unlink", denied)
    assert refused(tools, name, call(name, "scratch/locked.txt")) == \
        f"{name}: cannot use scratch/locked.txt: Permission denied"
    monkeypatch.undo()
    assert (root / SCRATCH / "locked.txt").read_text(encoding="utf-8") == "keep"


def test_an_unreadable_file_is_a_tool_error(root, tools):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("root reads any file whatever its mode (the monkeypatched test covers the message)")
    (root / "locked.txt").write_text("keep", encoding="utf-8")
    (root / "locked.txt").chmod(0)
    assert refused(tools, "read_file", {"path": "locked.txt"}) == \
        "read_file: cannot use locked.txt: Permission denied"


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
    assert tools["write_file"]({"path": "./scratch/a/../d.txt", "content": "y"}) == \
        "wrote 1 characters to scratch/d.txt"  # the path it reports is the one it wrote


def test_write_creates_the_scratch_folder_on_the_first_write(tmp_path):
    fresh = tmp_path / "fresh"
    fresh.mkdir()  # a project folder with no scratch/ yet, as when the CLI runs in any folder
    tools = make_tool_impls(fresh)
    assert refused(tools, "delete_file", {"path": "scratch/n.txt"}) == "file not found: scratch/n.txt"
    assert not (fresh / SCRATCH).exists()  # only write_file makes it
    assert tools["write_file"]({"path": "scratch/n.txt", "content": ""}) == \
        "wrote 0 characters to scratch/n.txt"
    assert (fresh / SCRATCH / "n.txt").read_text() == ""


def test_a_root_that_is_not_a_folder_is_refused_when_the_tools_are_made(tmp_path):
    with pytest.raises(ValueError, match=r"^the project root does not exist: .*missing$"):
        make_tool_impls(tmp_path / "missing")
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(ValueError, match=r"^the project root is not a folder: .*file\.txt$"):
        make_tool_impls(tmp_path / "file.txt")


def test_a_root_reached_through_a_symlink_works(root, tmp_path):
    (tmp_path / "alias").symlink_to(root)  # as macOS reaches its temp folder: the root is resolved once
    tools = make_tool_impls(tmp_path / "alias")
    assert tools["read_file"]({"path": "README.md"}).startswith("# Agent")
    assert tools["write_file"]({"path": "scratch/x.txt", "content": "x"}) == \
        "wrote 1 characters to scratch/x.txt"
    assert (root / SCRATCH / "x.txt").read_text() == "x"


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


def test_write_and_delete_refuse_symlinks_in_scratch(root, tools):
    outside = root.parent / "outside"
    outside.mkdir()
    (outside / "target.txt").write_text("keep")
    (root / "scratch" / "file-link").symlink_to(outside / "target.txt")
    (root / "scratch" / "dir-link").symlink_to(outside)
    (root / "scratch" / "dangling").symlink_to(outside / "new.txt")
    (root / "scratch" / "readme-link").symlink_to(root / "README.md")  # inside root, outside scratch
    (root / "scratch" / "kept.txt").write_text("kept")
    (root / "scratch" / "inner-link").symlink_to(root / "scratch" / "kept.txt")  # even inside scratch
    links = ["scratch/file-link", "scratch/dangling", "scratch/readme-link", "scratch/inner-link"]
    for path in links:
        for name in ["write_file", "delete_file"]:
            assert refused(tools, name, call(name, path)) == \
                f"{name}: {path} is a symbolic link; links are not followed"
    for name in ["write_file", "delete_file"]:
        assert refused(tools, name, call(name, "scratch/dir-link/new.txt")) == \
            f"{name}: scratch/dir-link is a symbolic link; links are not followed " \
            "(in scratch/dir-link/new.txt)"
    assert sorted(p.name for p in outside.iterdir()) == ["target.txt"]
    assert all((root / p).is_symlink() for p in links)  # delete_file removed no link either
    assert (root / "scratch" / "kept.txt").read_text() == "kept"
    assert (outside / "target.txt").read_text() == "keep"
    assert (root / "README.md").read_text().startswith("# Agent")


def test_a_scratch_folder_that_is_a_symlink_out_of_root_is_refused(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir(), outside.mkdir()
    (root / "scratch").symlink_to(outside)
    tools = make_tool_impls(root)
    for name in ["write_file", "delete_file"]:
        assert refused(tools, name, call(name, "scratch/x.txt")) == \
            f"{name}: scratch is a symbolic link; links are not followed (in scratch/x.txt)"
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize("name", ["write_file", "delete_file"])
@pytest.mark.parametrize("path", ["scratch", "scratch/", "./scratch", "scratch/.", "scratch/a/..", "b/../scratch"])
@pytest.mark.parametrize("scratch_is", ["a folder", "a file"])
def test_high_impact_tools_never_target_the_scratch_folder_itself(tmp_path, name, path, scratch_is):
    root = tmp_path / "root"
    root.mkdir()
    if scratch_is == "a folder":
        (root / SCRATCH / "sub").mkdir(parents=True)
    else:
        (root / SCRATCH).write_text("a file named scratch: keep it")
    message = refused(make_tool_impls(root), name, call(name, path))
    assert message == \
        f"{name}: {path} is the scratch/ folder itself; give a file inside it, e.g. scratch/notes.txt"
    if scratch_is == "a folder":
        assert (root / SCRATCH / "sub").is_dir()
    else:
        assert (root / SCRATCH).read_text() == "a file named scratch: keep it"


def test_write_into_a_scratch_that_is_a_file_is_a_clear_error(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    (root / SCRATCH).write_text("keep")
    tools = make_tool_impls(root)
    assert refused(tools, "write_file", {"path": "scratch/x.txt", "content": "x"}) == \
        "write_file: scratch is a file, not a folder (in scratch/x.txt)"
    assert refused(tools, "delete_file", {"path": "scratch/x.txt"}) == "file not found: scratch/x.txt"
    assert (root / SCRATCH).read_text() == "keep"


def test_the_scratch_check_compares_the_name_exactly(root, tools):
    # On a case-insensitive disk (macOS, Windows) SCRATCH/ is scratch/; the tools refuse it anyway.
    for name in ["write_file", "delete_file"]:
        assert refused(tools, name, call(name, "SCRATCH/x.txt")) == \
            f"{name} may only touch files under scratch/: SCRATCH/x.txt"


def test_write_refuses_bad_content_before_touching_the_file(root, tools):
    (root / SCRATCH / "notes.txt").write_text("keep", encoding="utf-8")
    assert refused(tools, "write_file", {"path": "scratch/notes.txt", "content": "ok \udc80"}) == \
        "write_file: the content is not valid Unicode text (a lone surrogate at character 3)"
    assert (root / SCRATCH / "notes.txt").read_text(encoding="utf-8") == "keep"  # not emptied


def test_delete_and_write_refuse_directories(root, tools):
    (root / "scratch" / "sub").mkdir()
    assert refused(tools, "delete_file", {"path": "scratch/sub"}) == \
        "delete_file: scratch/sub is a directory, not a file"
    assert refused(tools, "delete_file", {"path": "scratch/sub/"}) == \
        "delete_file: scratch/sub/ is a directory, not a file"
    assert refused(tools, "write_file", {"path": "scratch/sub", "content": "x"}) == \
        "write_file: scratch/sub is a directory, not a file"
    assert (root / "scratch" / "sub").is_dir()


def test_delete_and_write_refuse_fifos(root, tools, platform):
    posix_only(platform, "os.mkfifo")
    os.mkfifo(root / "scratch" / "pipe")
    assert refused(tools, "write_file", {"path": "scratch/pipe", "content": "x"}) == \
        "write_file: scratch/pipe is not a regular file (pipes, devices and sockets are refused)"
    assert refused(tools, "delete_file", {"path": "scratch/pipe"}) == \
        "delete_file: scratch/pipe is not a regular file (pipes, devices and sockets are refused)"
    assert (root / "scratch" / "pipe").exists()


def test_the_walk_used_is_the_one_the_os_supports(platform):
    """In the simulated Windows run the tools really take the fallback walk (so its tests mean something)."""
    if platform == "posix" and os.name == "posix":
        assert sandbox.can_hold_folders()
    if platform == "no-posix-flags":
        assert not sandbox.can_hold_folders()


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
    threads = {}
    schema = [{"name": "meet", "input_schema": {"type": "object", "required": ["i"]}}]
    # The barrier opens only when all four calls are in flight at once; run one after another, they break it.
    all_four = threading.Barrier(4, timeout=10)

    def meet(tool_input):
        all_four.wait()
        threads[tool_input["i"]] = threading.get_ident()
        return f"met {tool_input['i']}"

    async def main():
        calls = [arun_tool({"meet": meet}, "meet", {"i": i}, schema) for i in range(4)]
        return await asyncio.gather(*calls)

    assert asyncio.run(main()) == [(f"met {i}", False) for i in range(4)]  # (a broken barrier: is_error results)
    assert threading.get_ident() not in threads.values()  # worker threads, not the event loop's


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


# --- what mutation testing found untested (docs/development.md, "Mutation testing") ----------------------------
# Each test asserts what a user of the tools sees; each was checked to fail with the bug it names planted by hand.

import stat  # noqa: E402


@pytest.mark.parametrize("name", ["read_file", "write_file"])
def test_a_file_swapped_for_a_symlink_after_the_check_is_not_followed(root, tools, monkeypatch, name):
    """The race on the last name, made deterministic: the look (lstat) sees a regular file, but by the time it
    is opened, x.txt is a symlink out of the root. POSIX: the open with O_NOFOLLOW refuses it (what it would
    open is a regular file, so the fstat check would not). Fallback: the final resolve() check sees it leave."""
    base = root if name == "read_file" else root / SCRATCH
    (base / "x.real").write_text("inside", encoding="utf-8")
    real = os.lstat(base / "x.real")
    (base / "x.txt").symlink_to(root.parent / "root-evil" / "secret.txt")
    for folder in (sandbox._HeldFolder, sandbox._PathFolder):
        looked = folder.lstat
        monkeypatch.setattr(folder, "lstat", lambda self, n, looked=looked:
                            real if n == "x.txt" else looked(self, n))
    path = "x.txt" if name == "read_file" else "scratch/x.txt"
    assert refused(tools, name, call(name, path)) in (
        f"{name}: cannot use {path}: Too many levels of symbolic links",  # POSIX: O_NOFOLLOW's ELOOP
        f"{name}: cannot use {path}: it now leads out of the project root")  # the fallback's resolve()
    assert (root.parent / "root-evil" / "secret.txt").read_text() == "the secret"  # not read into, not written


def test_a_new_file_is_readable_by_all_and_executable_by_none(root, tools):
    old = os.umask(0)  # what the tool asks for, not what the umask leaves of it
    try:
        tools["write_file"]({"path": "scratch/new.txt", "content": "x"})
        tools["write_file"]({"path": "scratch/sub/deeper.txt", "content": "x"})
    finally:
        os.umask(old)
    for path in (root / SCRATCH / "new.txt", root / SCRATCH / "sub" / "deeper.txt"):
        assert stat.filemode(os.stat(path).st_mode) == "-rw-r--r--"


def test_delete_in_a_subfolder_of_scratch(root, tools):
    tools["write_file"]({"path": "scratch/notes/old.txt", "content": "old"})
    tools["write_file"]({"path": "scratch/notes/keep.txt", "content": "keep"})
    tools["write_file"]({"path": "scratch/old.txt", "content": "top"})
    assert tools["delete_file"]({"path": "scratch/notes/old.txt"}) == "deleted scratch/notes/old.txt"
    assert sorted(p.name for p in (root / SCRATCH / "notes").iterdir()) == ["keep.txt"]
    assert (root / SCRATCH / "old.txt").read_text() == "top"
    assert refused(tools, "delete_file", {"path": "scratch/notes/old.txt"}) == \
        "file not found: scratch/notes/old.txt"


def only_dir_fd_taken_away(monkeypatch):
    """A POSIX system without dir_fd (the O_* flags are there): the fallback walk, with O_NOFOLLOW and O_NONBLOCK."""
    monkeypatch.setattr(os, "supports_dir_fd", set())


@pytest.fixture(params=["held folders", "paths with posix flags"])
def posix_walk(request, platform, monkeypatch):
    """On POSIX: the walk that holds folders open, and the fallback walk where only dir_fd is missing."""
    posix_only(platform, "needs O_NOFOLLOW and O_NONBLOCK")
    if request.param == "paths with posix flags":
        only_dir_fd_taken_away(monkeypatch)
    return request.param


def looks_like(monkeypatch, name, info):
    """The walk's look (lstat) at `name` sees `info`: what was there before another process swapped it."""
    for folder in (sandbox._HeldFolder, sandbox._PathFolder):
        looked = folder.lstat
        monkeypatch.setattr(folder, "lstat", lambda self, n, looked=looked: info if n == name else looked(self, n))


@pytest.mark.parametrize("name", ["read_file", "write_file"])
def test_a_file_swapped_for_a_link_inside_the_root_is_not_followed_either(root, monkeypatch, posix_walk, name):
    """The link stays inside the root, so only O_NOFOLLOW at the open refuses it (no resolve() check can)."""
    tools = make_tool_impls(root)
    base = root if name == "read_file" else root / SCRATCH
    (base / "target.txt").write_text("the target", encoding="utf-8")
    (base / "x.txt").symlink_to(base / "target.txt")
    looks_like(monkeypatch, "x.txt", os.lstat(base / "target.txt"))
    path = "x.txt" if name == "read_file" else "scratch/x.txt"
    assert refused(tools, name, call(name, path)) == f"{name}: cannot use {path}: Too many levels of symbolic links"
    assert (base / "target.txt").read_text(encoding="utf-8") == "the target"


@pytest.mark.parametrize("name", ["read_file", "write_file"])
def test_a_file_swapped_for_a_fifo_after_the_check_is_refused_without_blocking(root, monkeypatch, posix_walk, name):
    """Opened without O_NONBLOCK, a FIFO with no writer would block the tool for ever; opened with it, the check
    of what was opened (fstat) refuses it."""
    tools = make_tool_impls(root)
    base = root if name == "read_file" else root / SCRATCH
    (base / "plain.txt").write_text("plain", encoding="utf-8")
    os.mkfifo(base / "x.txt")
    looks_like(monkeypatch, "x.txt", os.lstat(base / "plain.txt"))
    path = "x.txt" if name == "read_file" else "scratch/x.txt"
    assert refused(tools, name, call(name, path)) in (
        f"{name}: {path} is not a regular file (pipes, devices and sockets are refused)",  # opened, then refused
        f"{name}: cannot use {path}: No such device or address")  # POSIX: a FIFO with no reader, for writing


def test_a_folder_swapped_for_a_fifo_after_the_check_is_refused_without_blocking(root, tools, platform, monkeypatch):
    posix_only(platform, "os.mkfifo; the fallback walk does not close this race")
    (root / "notes.real").mkdir()
    os.mkfifo(root / "notes")
    looks_like(monkeypatch, "notes", os.lstat(root / "notes.real"))
    assert refused(tools, "read_file", {"path": "notes/a.md"}) == "read_file: cannot use notes/a.md: Not a directory"


def test_a_project_root_swapped_for_a_fifo_is_refused_without_blocking(tmp_path, platform):
    posix_only(platform, "os.mkfifo")
    (tmp_path / "root").mkdir()
    tools = make_tool_impls(tmp_path / "root")
    (tmp_path / "root").rmdir()
    os.mkfifo(tmp_path / "root")
    assert refused(tools, "read_file", {"path": "a.md"}) == "read_file: cannot use a.md: Not a directory"


def test_a_windows_junction_is_refused_like_a_link(root, tools, monkeypatch):
    """On Windows a junction (or any reparse point) looks like a folder to S_ISLNK: st_reparse_tag gives it away."""
    from types import SimpleNamespace

    (root / "junction").mkdir()
    looks_like(monkeypatch, "junction", SimpleNamespace(st_mode=stat.S_IFDIR | 0o755, st_reparse_tag=0xA0000003))
    assert refused(tools, "read_file", {"path": "junction/a.md"}) == \
        "read_file: junction is a symbolic link; links are not followed (in junction/a.md)"
    assert sandbox.require_regular(SimpleNamespace(st_mode=stat.S_IFREG, st_reparse_tag=0), "a", "t") is None


@pytest.mark.parametrize("missing", ["O_NOFOLLOW", "O_DIRECTORY", "dir_fd for os.unlink", "lstat with dir_fd"])
def test_a_system_missing_any_one_facility_takes_the_fallback_walk(platform, monkeypatch, missing):
    posix_only(platform, "starts from this OS's facilities")
    if missing.startswith("O_"):
        monkeypatch.delattr(os, missing)
    elif missing == "dir_fd for os.unlink":
        monkeypatch.setattr(os, "supports_dir_fd", os.supports_dir_fd - {os.unlink})
    else:
        monkeypatch.setattr(os, "supports_follow_symlinks", os.supports_follow_symlinks - {os.stat})
    assert not sandbox.can_hold_folders()


def test_a_system_with_exactly_the_four_dir_fd_functions_holds_folders(platform, monkeypatch):
    posix_only(platform, "starts from this OS's facilities")
    monkeypatch.setattr(os, "supports_dir_fd", {os.open, os.stat, os.mkdir, os.unlink})
    assert sandbox.can_hold_folders()


def test_a_file_read_in_short_pieces_is_read_whole(root, tools, monkeypatch):
    """os.read may return fewer bytes than asked (a network file system, a signal): read_file reads on."""
    (root / "long.md").write_text("0123456789" * 1000, encoding="utf-8")
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: real_read(fd, min(n, 100)))
    assert tools["read_file"]({"path": "long.md"}) == ("0123456789" * 1000)[:READ_LIMIT]
    # a first read that comes back short, then full ones: still no byte past the limit is read (a NUL there
    # must not make the text look binary)
    (root / "nul.md").write_bytes(b"a" * (READ_LIMIT * 4) + b"\0" + b"b" * 100)
    reads = []

    def first_read_short(fd, n):
        reads.append(n)
        return real_read(fd, 10 if len(reads) == 1 else n)

    monkeypatch.setattr(os, "read", first_read_short)
    assert tools["read_file"]({"path": "nul.md"}) == "a" * READ_LIMIT


def test_what_the_model_reads_when_no_tool_is_available_or_a_tool_has_no_schema(tools):
    assert run_tool(tools, "read_file", {"path": "README.md"}, []) == \
        ("unknown tool: read_file. Available tools: none", True)
    assert run_tool({"ping": lambda tool_input: "pong"}, "ping", {"any": "thing"}, [{"name": "ping"}]) == \
        ("pong", False)  # a tool listed without an input_schema takes any object


SHORT = [{"name": "note", "input_schema": {"type": "object", "properties": {
    "text": {"type": "string", "maxLength": 1},
    "items": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}}]


def test_a_schema_error_is_read_whole_up_to_200_characters_then_cut_to_150(tools):
    impls = {"note": lambda tool_input: "noted"}
    fits = run_tool(impls, "note", {"text": "a" * 186}, SHORT)[0]  # the error: 'aaa...a' is too long (200)
    assert fits == f"invalid input for note: '{'a' * 186}' is too long (field 'text')"
    cut = run_tool(impls, "note", {"text": "a" * 187}, SHORT)[0]
    assert cut == f"invalid input for note: '{'a' * 149} ... (cut) (field 'text')"
    nested = run_tool(impls, "note", {"items": [{"n": 1}, {"n": "two"}]}, SHORT)[0]
    assert nested == "invalid input for note: 'two' is not of type 'integer' (field 'items/1/n')"


def test_a_tool_that_returns_no_text_is_named_in_the_failure(tools):
    async def answer_with_a_number(tool_input):
        return 42

    schema = [{"name": "count", "input_schema": {"type": "object"}}]
    assert asyncio.run(arun_tool({"count": answer_with_a_number}, "count", {}, schema)) == \
        ("tool failed: count returned int, not a string", True)
    assert asyncio.run(arun_tool({"count": lambda tool_input: None}, "count", {}, schema)) == \
        ("tool failed: count returned NoneType, not a string", True)


def test_write_file_called_directly_refuses_content_that_is_not_text(root, tools):
    """The schema stops it in run_tool; called directly (a lesson does), the tool says so itself."""
    assert refused(tools, "write_file", {"path": "scratch/n.txt", "content": 5}) == \
        "write_file: the content must be a string, not int"
    assert not (root / SCRATCH / "n.txt").exists()
