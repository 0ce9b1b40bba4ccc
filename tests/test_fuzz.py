"""Fuzz the loop: random, hostile model behaviour and random approver answers, through the real SDK.

A stand-in Messages API sits behind the real `anthropic.AsyncAnthropic` at its HTTP transport (as the
offline model does) and answers every request with a random but well-formed response: 0 to 4 tool calls,
known and unknown tool names, invalid and hostile input (paths out of the root, absolute paths, symlinks,
NUL bytes, long strings, characters outside the BMP), every stop reason including pause_turn, null and
unknown ones, random usage with cache tokens and zeros, and text before and after the calls. The approver
answers True, False, "yes", 1, None, a coroutine, raises, or takes its time. Both copies of run_agent
(harness_lib's and notebook 06's) must then keep every promise:

- every request they send is one the API accepts (offline.validation: each tool_use answered by
  tool_results at the start of the next user message, no empty content), and requests == turns + 1;
- no high-impact tool runs unless the approver answered exactly True for that very call, before it ran;
- turns <= max_turns, and stopped_by is one of the documented names (loop.STOPPED_BY);
- the tools open, write and delete nothing outside the root (writes and deletes: nothing outside
  scratch/): the folder outside the root, reachable through "..", absolute paths and symlinks, is
  watched with Linux inotify (any open, read or change there fails the test, whatever path led there);
  every absolute path a tool opens is checked with a Python audit hook; the files outside scratch/
  are compared before and after; and the secret file outside the root never reaches the model.

Deterministic: derandomize=True, no example database. A lone surrogate in a response is left out: the
SDK cannot send such a string back at all (it fails to encode the request), whatever the loop does.
"""

import asyncio
import ctypes
import itertools
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import anthropic
import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness_lib.loop import STOPPED_BY, run_agent
from harness_kit.offline.validation import APIError, validate_request
from harness_lib.tools import HIGH_IMPACT, TOOLS, make_tool_impls

import notebook_code

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "06_the_full_harness.ipynb"
SECRET = "TOP-SECRET-9f2c1e"  # the content of the file outside the root; must never reach the model

# --- what the tools touch: a Python audit hook, active only inside a tool's own thread --------------

_in_tool = threading.local()
_touched: list[tuple[str, str]] = []  # (kind, absolute path) for every open / remove / mkdir / rename a tool did
_WATCHED = {"open", "os.remove", "os.unlink", "os.rmdir", "os.mkdir", "os.rename", "os.replace", "os.truncate"}


def _audit(event, args):
    if event in _WATCHED and getattr(_in_tool, "active", False):
        path = args[0]
        # A relative name is opened relative to a folder the tool holds open (dir_fd), which the event
        # does not name: those are left to the inotify watch below.
        if isinstance(path, (str, bytes, os.PathLike)) and os.path.isabs(os.fsdecode(path)):
            flags = args[2] if event == "open" and len(args) > 2 and isinstance(args[2], int) else 0
            mode = args[1] if event == "open" and len(args) > 1 and isinstance(args[1], str) else ""
            writes = event != "open" or any(c in mode for c in "wax+") or flags & (os.O_WRONLY | os.O_RDWR)
            _touched.append(("write" if writes else "read", os.fsdecode(path)))


_hooked: list = []


def install_audit_hook():
    """Once per process (a hook cannot be removed); it records only while `_in_tool.active`."""
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked.append(_audit)


def where(path: str) -> Path:
    """Where an open/unlink of the absolute `path` really lands: symlinks in the folders followed, the
    last name not (the kit's tools open with O_NOFOLLOW, and unlink never follows)."""
    return Path(os.path.realpath(os.path.dirname(path))) / os.path.basename(path)


class FolderWatch:
    """Linux inotify on one folder: was anything in it opened, read or changed, by whatever path?"""

    # IN_ACCESS | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_OPEN | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE
    MASK = 0x1 | 0x2 | 0x4 | 0x8 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200

    def __init__(self, folder: Path):
        libc = ctypes.CDLL(None, use_errno=True)
        self.fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0 or libc.inotify_add_watch(self.fd, os.fsencode(folder), self.MASK) < 0:
            raise OSError(ctypes.get_errno(), "inotify is not available")

    def events(self) -> int:
        """Bytes of events since the last call (0: nothing happened in the folder)."""
        seen = 0
        while True:
            try:
                seen += len(os.read(self.fd, 65536))
            except BlockingIOError:
                return seen


# --- the sandbox ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    install_audit_hook()
    base = tmp_path_factory.mktemp("fuzz")
    (base / "outside").mkdir()
    (base / "outside" / "secret.txt").write_text(SECRET)
    root = base / "root"
    (root / "notes").mkdir(parents=True)
    (root / "README.md").write_text("# Fuzz root\nhello\n")
    (root / "notes" / "a.md").write_text("a note\n")
    (root / "link_out").symlink_to(base / "outside", target_is_directory=True)
    try:
        watch = FolderWatch(base / "outside")
    except (OSError, AttributeError):  # not Linux: the audit hook, snapshots and the secret check remain
        watch = None
    yield base, watch
    if watch:
        os.close(watch.fd)


def reset(base: Path) -> Path:
    """A fresh scratch/ with a file to delete and two symlinks that lead out of the root."""
    scratch = base / "root" / "scratch"
    if scratch.is_dir() and sorted(p.name for p in scratch.iterdir()) == ["escape", "old.txt", "secret_link"] \
            and (scratch / "old.txt").read_text() == "old":
        return base / "root"  # untouched by the last run (most runs write nothing)
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir()
    (scratch / "old.txt").write_text("old")
    (scratch / "escape").symlink_to(base / "outside", target_is_directory=True)
    (scratch / "secret_link").symlink_to(base / "outside" / "secret.txt")
    return base / "root"


def snapshot(folder: Path, skip: str | None = None) -> dict:
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() and not p.is_symlink() else "link")
            for p in sorted(folder.rglob("*")) if not (skip and p.relative_to(folder).parts[0] == skip)
            and (p.is_symlink() or p.is_file())}


# --- random model behaviour ----------------------------------------------------------------------

PATHS = ["README.md", "notes/a.md", "scratch/old.txt", "scratch/new.txt", "scratch/deep/er/new.txt",
         "../outside/secret.txt", "../../etc/passwd", "/etc/passwd", "<ABS_SECRET>", "<ABS_README>",
         "link_out/secret.txt", "scratch/escape/secret.txt", "scratch/secret_link", "scratch/escape",
         "scratch/../../outside/secret.txt", "notes/../scratch/ok.txt", "scratch/nul\x00.txt", "nul\x00",
         "scratch/" + "a" * 300, "scratch/\U0001F600.txt", ".", "", "scratch", "scratch/", "scratch/..",
         "~/.ssh/id_rsa", "C:\\Windows\\win.ini", "\\\\server\\share\\x", "scratch\\back.txt"]
CONTENTS = ["hi", "x" * 25_000, "line\n" * 3, "\x00nul", "\U0001F600" * 10]
NAMES = ["write_file", "read_file", "delete_file", "get_time", "write_file", "read_file", "delete_file",
         "http_post", "no_such_tool", "READ_FILE"]
OTHER_STOPS = ["end_turn", "stop_sequence", "max_tokens", "refusal", "pause_turn", "model_context_window_exceeded",
               None, "a_future_stop_reason"]

# Strategies are built once, here: building one per draw (a list in sampled_from, an `a | b`) costs hypothesis
# more than drawing from it.
texts = st.text(min_size=1, max_size=30).filter(lambda t: t.strip() != "") | st.just("Let me look.")
paths = st.sampled_from(PATHS) | st.text(max_size=12)
counts = st.sampled_from([0, 0, 1, 10, 100, 1_000]) | st.integers(0, 3_000)
usages = st.fixed_dictionaries({"input_tokens": counts, "output_tokens": counts},
                               optional={"cache_creation_input_tokens": counts | st.none(),
                                         "cache_read_input_tokens": counts | st.none()})
input_kinds = st.sampled_from(["fits"] * 5 + ["empty", "wrong type", "extra key", "random"])
write_contents = st.sampled_from(CONTENTS) | st.text(max_size=20)
wrong_paths = st.integers() | st.none() | st.lists(st.integers(), max_size=2)
random_inputs = st.dictionaries(st.text(max_size=6), st.integers() | st.text(max_size=10), max_size=3)


@st.composite
def tool_inputs(draw, name):
    """Mostly input that fits the tool's schema (so the tool really runs, on a hostile path), else not."""
    kind = draw(input_kinds)
    if kind == "fits":
        fitting = {"path": draw(paths)}
        if name == "write_file":
            fitting["content"] = draw(write_contents)
        return {} if name == "get_time" else fitting
    return {"empty": {},
            "wrong type": {"path": draw(wrong_paths)},
            "extra key": {"path": draw(paths), "extra": draw(st.integers())},
            "random": draw(random_inputs),
            }[kind]


names = st.sampled_from(NAMES)
inputs_for = {name: tool_inputs(name) for name in set(NAMES)}


@st.composite
def calls(draw):
    name = draw(names)
    return name, draw(inputs_for[name])


percent = st.integers(0, 99)
other_stops = st.sampled_from(OTHER_STOPS)
texts_before = st.lists(texts, max_size=2)
texts_after = {True: st.lists(texts, max_size=1), False: st.lists(texts, max_size=0)}  # after calls / none
one_call = calls()


@st.composite
def responses(draw):
    stop_reason = "tool_use" if draw(percent) < 80 else draw(other_stops)
    before = draw(texts_before)
    # a paused turn carries text (and, live, server-tool blocks): never a call for this harness to run
    how_many = draw(st.integers(1, 4)) if draw(percent) < 90 else 0
    if stop_reason == "pause_turn":
        how_many = 0
    tool_calls = [draw(one_call) for _ in range(how_many)]
    after = draw(texts_after[bool(tool_calls)])
    if stop_reason == "pause_turn" and not before:
        before = ["Working on it..."]
    return stop_reason, before, tool_calls, after, draw(usages)


script_lengths = st.sampled_from([8, 5, 3, 9, 1, 6])
steps_back = st.sampled_from([0, 0, 0, 0, 1, 2])
one_response = responses()


@st.composite
def scripts(draw):
    """What the model answers to each request; now and then the same answer as one or two requests ago
    (a model walking in place, or ping-ponging)."""
    script = []
    for _ in range(draw(script_lengths)):
        back = draw(steps_back)
        script.append(script[-back] if 0 < back <= len(script) else draw(one_response))
    return script


ANSWERS = [1, "yes", True, "coroutine", None, "raise", False, "slow"]


class StandInAPI(httpx2.AsyncBaseTransport):
    """Answers request n with script[n] (then end_turn), after checking the request as the API would."""

    def __init__(self, script, root: Path):
        self.script, self.root, self.log, self.invalid, self.usage = script, root, [], [], []

    def fill(self, value):
        if isinstance(value, str):
            return (value.replace("<ABS_SECRET>", str(self.root.parent / "outside" / "secret.txt"))
                    .replace("<ABS_README>", str(self.root / "README.md")))
        return {k: self.fill(v) for k, v in value.items()} if isinstance(value, dict) else value

    async def handle_async_request(self, request):
        body = json.loads(await request.aread())
        self.log.append(body)
        try:
            validate_request(body)
        except APIError as err:
            self.invalid.append(err.message)
            return httpx2.Response(400, json={"type": "error", "error": {"type": err.error_type, "message": err.message}})
        n = len(self.log)
        stop_reason, before, tool_calls, after, usage = (
            self.script[n - 1] if n <= len(self.script) else ("end_turn", ["Done."], [], [], {"input_tokens": 1, "output_tokens": 1}))
        content = [{"type": "text", "text": t} for t in before]
        content += [{"type": "tool_use", "id": f"toolu_{n}_{k}", "name": name, "input": self.fill(tool_input)}
                    for k, (name, tool_input) in enumerate(tool_calls)]
        content += [{"type": "text", "text": t} for t in after]
        self.usage.append(usage)
        return httpx2.Response(200, content=json.dumps({
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": body["model"], "content": content,
            "stop_reason": stop_reason, "stop_sequence": None, "usage": usage}).encode(),
            headers={"content-type": "application/json"})


def canonical(name, tool_input) -> str:
    return name + json.dumps(tool_input, sort_keys=True)


def check_one_run(loop, sandbox, script, answers, max_turns, token_budget):
    base, watch = sandbox
    root = reset(base)
    outside_before, root_before = snapshot(base / "outside"), snapshot(root, skip="scratch")
    if watch:
        watch.events()  # forget the snapshot's own reads
    order = itertools.count()
    asked, ran = [], []

    async def helper():
        return True

    async def approve(name, tool_input):
        answer = answers[len(asked) % len(answers)]
        asked.append((next(order), canonical(name, tool_input), answer))
        if answer == "raise":
            raise RuntimeError("the approval service is down")
        if answer == "slow":
            await asyncio.sleep(0.001)
            return True
        return helper() if answer == "coroutine" else answer

    def recorded(name, impl):
        def run(tool_input):
            ran.append((next(order), canonical(name, tool_input)))
            _in_tool.active = True
            try:
                return impl(tool_input)
            finally:
                _in_tool.active = False
        return run

    impls = {name: recorded(name, impl) for name, impl in make_tool_impls(root).items()}
    api = StandInAPI(script, root)
    client = anthropic.AsyncAnthropic(api_key="test", base_url="https://fuzz.invalid", max_retries=0,
                                      http_client=httpx2.AsyncClient(transport=api))
    del _touched[:]
    result = asyncio.run(loop(client, "Do something with the files", TOOLS, impls, max_turns=max_turns,
                              token_budget=token_budget, approve=approve))

    # every request was one the API accepts, and the counts add up
    assert api.invalid == []
    assert result.requests == len(api.log) == result.turns + 1
    assert result.turns <= max_turns
    assert result.stopped_by in STOPPED_BY
    assert len(result.messages) == len(api.log[-1]["messages"])  # the history the last request sent
    assert result.tokens_used == sum(v or 0 for u in api.usage for v in u.values())

    # no high-impact tool ran without a True for that very call, given before it ran
    yes = [(seq, call) for seq, call, answer in asked if answer is True or answer == "slow"]  # not `in`: 1 == True
    for seq, call in ran:
        name = call[: call.index("{")] if "{" in call else call
        if name in HIGH_IMPACT:
            match = next((y for y in yes if y[1] == call and y[0] < seq), None)
            assert match, f"{call} ran without an approval: asked={asked}"
            yes.remove(match)

    # nothing outside the root was opened; nothing outside scratch/ was written or deleted
    if watch:
        assert watch.events() == 0, "a tool opened, read or changed something in the folder outside the root"
    real_root = root.resolve()
    for kind, path in _touched:
        lands = where(path)
        area = real_root / "scratch" if kind == "write" else real_root
        assert lands == area or lands.is_relative_to(area), f"a tool did {kind} {path!r} (lands at {lands})"
    assert snapshot(base / "outside") == outside_before
    assert snapshot(root, skip="scratch") == root_before
    assert not any(SECRET in json.dumps(body, ensure_ascii=False) for body in api.log)  # never read


@pytest.mark.parametrize("which", ["harness_lib", "notebook"])
@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(script=scripts(),
       answers=st.lists(st.sampled_from(ANSWERS), min_size=1, max_size=6),
       max_turns=st.sampled_from([6, 5, 4, 3, 2, 1, 0]),
       token_budget=st.sampled_from([10**9, 20_000, 2_000, 0]))
def test_random_models_and_approvers_never_break_a_promise(sandbox, which, script, answers, max_turns, token_budget):
    loop = run_agent if which == "harness_lib" else _notebook_loop()
    check_one_run(loop, sandbox, script, answers, max_turns, token_budget)


_cache: dict = {}


def _notebook_loop():
    if "loop" not in _cache:
        _cache["loop"] = notebook_code.load(NOTEBOOK)["run_agent"]
    return _cache["loop"]


def test_the_watch_and_the_audit_hook_see_a_read_outside_the_root(sandbox):
    """The checks above can fail: a read through the root's symlink, and one by absolute path, are seen."""
    base, watch = sandbox
    root = reset(base)
    if watch:
        watch.events()
    del _touched[:]
    _in_tool.active = True
    try:
        assert (root / "link_out" / "secret.txt").read_text() == SECRET
        with open(base / "outside" / "secret.txt", encoding="utf-8"):
            pass
    finally:
        _in_tool.active = False
    if watch:
        assert watch.events() > 0
    assert [where(path) for kind, path in _touched] == [(base / "outside" / "secret.txt").resolve()] * 2
