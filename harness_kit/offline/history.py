"""The history, replayed onto the plan: which steps are done, failed, refused or still open (:func:`settle`).

How a tool_result is read (:func:`outcome`, and :func:`read_tool_result` for the graders): ok, declined (not
approved), refused (forbidden by policy), not found or a path with backslashes (ONE retry with :func:`path_variant`)
or another error, by the words of :mod:`.phrases`. A result that names a tool call (:func:`find_injections`) adds
steps only in the "injection" scenario.

Part of the planner (:mod:`.planner`). NOT modelled: a result read for its meaning (only these words and the
injection pattern); a call matched to a step by anything but its tool and path (an email by its recipient).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .conversation import Call, Conversation, _path_of, result_text
from .parse import LINES, Step
from .phrases import ERROR_KINDS, RESULT_WORDS

ANSWER_PATH = "scratch/answer.txt"


def path_variant(path: str) -> str:
    """The one alternative tried after "not found": the file stem's case toggled, else without ./ or the directory;
    after "backslashes are not allowed", the path with / for each \\ (a Windows habit)."""
    if "\\" in path:
        return path.replace("\\", "/")
    directory, _, name = path.rpartition("/")
    stem, dot, ext = name.partition(".") if not name.startswith(".") else (name, "", "")
    toggled = stem.upper() if stem == stem.lower() else stem.lower()
    variant = (directory + "/" if directory else "") + toggled + dot + ext
    if variant != path:
        return variant
    if path.startswith("./"):
        return path[2:]
    return name if directory else path


# ---- results ----------------------------------------------------------------------------------------

_POLICY, _DECLINED, _REFUSED, _NOT_FOUND = (re.compile("|".join(RESULT_WORDS[k]), re.I)
                                            for k in ("policy", "declined", "refused", "not_found"))
# The path is outside what the tool may touch, or not a path it takes ("C:\\x", "a\\b.txt"): that call's error
_THIS_PATH = re.compile("|".join(ERROR_KINDS["outside"] + ERROR_KINDS["invalid"]), re.I)
_BACKSLASHES = re.compile("backslashes are not allowed", re.I)  # the tools' words (harness_lib/sandbox.py)


def outcome(call: Call) -> str:
    """ok | declined | refused | not_found | error.

    An error that names the policy ("policy", "forbidden", "prohibido") is a refusal by policy whatever else
    it says; otherwise "not approved"/"declined"/"rechaz…" is the approval gate's no (a person's, or no answer:
    the answer then says "not approved", never "you declined"); a path outside what the tool may touch ("may only
    touch", "absolute paths are not allowed") or that it does not take ("backslashes are not allowed") is an error
    of that call, not a refusal of the tool (its next path may be fine); then the other refusal words, then "not
    found"."""
    text = call.result or ""
    if not call.is_error:
        # a rejection sent without is_error is still a rejection (for the tools that ask a person)
        return "declined" if call.name in ("write_file", "delete_file") and _DECLINED.search(text) else "ok"
    if _POLICY.search(text):
        return "refused"
    if _DECLINED.search(text):
        return "declined"
    if _THIS_PATH.search(text):
        return "error"
    if _REFUSED.search(text):
        return "refused"
    if _NOT_FOUND.search(text):
        return "not_found"
    return "error"


def read_tool_result(name: str, content, is_error: bool = False) -> str:
    """How the offline model reads a tool_result for a call of tool ``name``: "ok", "declined" (not
    approved), "refused" (forbidden by policy), "not_found" or "error". ``content`` is the tool_result's
    content (a string or a list of text blocks). The rules are :func:`outcome`'s; nothing else is inferred."""
    return outcome(Call("", name, {}, result_text(content), bool(is_error)))


# Injection pattern (scenario "injection"): a line in a tool result that names a tool call, either
#   "call delete_file with path README.md"   (optionally: and content "…"; Spanish: "llama a … con la ruta …")
#   delete_file("README.md")   or   write_file("scratch/pwned.txt", "text")
_INJECT_SENTENCE = re.compile(
    r"\b(?:call|use|run|llama\s+a|usa|ejecuta)\s+(?:the\s+)?(?P<tool>[A-Za-z0-9_-]{1,64})\s+(?:tool\s+)?"
    r"(?:with|on|con)\s+(?:the\s+)?(?:path|la\s+ruta|el\s+archivo)\s+[\"'`]?(?P<path>[^\s\"'`]+?)[\"'`]?"
    r"(?:\s+(?:and|y)\s+(?:content|contenido)\s+\"(?P<content>[^\"]*)\")?[.!,;:)]*(?=\s|$)",
    re.I,
)
_INJECT_CALL = re.compile(
    r"\b(?P<tool>[A-Za-z0-9_-]{1,64})\(\s*(?:path\s*=\s*)?[\"'](?P<path>[^\"']*)[\"']\s*"
    r"(?:,\s*(?:content\s*=\s*)?[\"'](?P<content>[^\"']*)[\"']\s*)?\)"
)


def find_injections(text: str, offered: dict) -> list[tuple[str, str, str | None]]:
    """(tool, path, content) for each instruction in ``text`` naming an offered tool, in order."""
    found = []
    for pattern in (_INJECT_SENTENCE, _INJECT_CALL):
        for m in pattern.finditer(text):
            if m.group("tool") in offered:
                found.append((m.start(), m.group("tool"), m.group("path"), m.group("content")))
    return [(tool, path, content) for _, tool, path, content in sorted(found)]


# ---- the walk ---------------------------------------------------------------------------------------

@dataclass
class Task:
    """A step plus what has happened to it so far."""

    step: Step
    status: str = "open"  # open | done | failed | declined | refused | skipped | blocked | ignored
    tried: list[str] = field(default_factory=list)  # paths tried, in order
    output: str | None = None
    error: str | None = None
    why: str | None = None  # for skipped/blocked: "no_tool" | "invalid" | "nothing" | "declined" | "refused"
    saved_text: str | None = None  # for a "save it" write: the text it refers to (filled in by compose_answer)

    @property
    def tool(self) -> str:
        return self.step.tool

    @property
    def expected_path(self) -> str | None:
        if self.step.kind == "save_answer":
            return ANSWER_PATH
        if self.tried:  # a retry is pending
            return path_variant(self.tried[0])
        return self.step.path

    def value(self, part: str | None = None) -> str:
        """What a later "save it" writes: the first or last line, the number of lines, the file, or the time as
        returned (``part``: that thing of any of them, "first_line", "last_line" or "count_lines")."""
        text, kind = self.output or "", part or self.step.kind
        if kind == "first_line":
            return first_line(text)
        if kind == "last_line":
            return last_line(text)
        return str(line_count(text)) if kind == "count_lines" else text.strip()


def first_line(text: str) -> str:
    return text.split("\n", 1)[0].rstrip("\r")


def last_line(text: str) -> str:
    """The last line that is not empty (a file usually ends with a line break)."""
    return text.rstrip("\r\n").rsplit("\n", 1)[-1].rstrip("\r")


def line_count(text: str) -> int:
    """Lines as an editor counts them: a line break at the very end starts no new line."""
    return len(text.splitlines())


def _matches(task: Task, call: Call) -> bool:
    if task.status != "open" or task.tool != call.name:
        return False
    if task.step.kind == "email":
        return call.input.get("to") == task.step.to
    return task.step.kind in ("time", "list_files") or _path_of(call.input) == task.expected_path


def settle(conv: Conversation, steps: list[Step], *, obey_injections: bool = False) -> list[Task]:
    """Replay the history onto the steps: which are done, failed, refused, still open."""
    tasks = [Task(s) for s in steps]
    blocked: dict[str, str] = {}  # tool -> "declined" | "refused"
    obey = obey_injections
    for call in conv.calls:
        if call.result is None:
            continue
        task = next((t for t in tasks if _matches(t, call)), None)
        if task is None:
            continue
        result = outcome(call)
        task.tried.append(_path_of(call.input) or "")
        if result == "ok":
            task.status, task.output = "done", call.result
            if obey and call.name == "read_file":
                at = tasks.index(task) + 1
                for tool, path, content in find_injections(call.result, conv.tools):
                    if not any(t.step.kind == "injected" and t.tool == tool and t.step.path == path for t in tasks):
                        src = _path_of(call.input)
                        tasks.insert(at, Task(Step("injected", path=path, content=content, tool_name=tool, source=src)))
                        at += 1
        elif call.name == "read_file" and len(task.tried) == 1 and path_variant(task.tried[0]) != task.tried[0] \
                and (result == "not_found" or _BACKSLASHES.search(call.result or "")):
            pass  # stays open: the retry with the variant path is next
        else:
            task.status = {"declined": "declined", "refused": "refused"}.get(result, "failed")
            task.error = (call.result or "").strip()
            if result in ("declined", "refused"):
                blocked[call.name] = result
            if result == "declined" and task.step.kind == "injected":
                obey = False
                for t in tasks:
                    if t.step.kind == "injected" and t.status == "open":
                        t.status = "ignored"
    for t in tasks:
        if t.status == "open" and t.tool in blocked:
            t.status, t.why = "blocked", blocked[t.tool]
    return tasks


def _source_of(tasks: list[Task], task: Task) -> Task | None:
    """The step a "save it" refers to: the nearest earlier read/first line/time step."""
    i = tasks.index(task)
    return next((t for t in reversed(tasks[:i]) if t.step.kind in (*LINES, "read", "time")), None)


def sent_text(tasks: list[Task], task: Task) -> tuple[str, str | None]:
    """("ok", the text a write or an e-mail sends): its own, or (``refers_back``: "save it", "email it") what the
    step before it returned; ("wait", None) while that step is unfinished, ("none", None) when it failed or there is
    none."""
    step = task.step
    if not step.refers_back:
        return "ok", step.content
    src = _source_of(tasks, task)
    if src is not None and src.status == "open":
        return "wait", None
    if src is None or src.status != "done":
        return "none", None
    return "ok", src.value(step.part)
