"""The responsive planner: how the offline model decides its next turn from the conversation.

It is stateless. Every request is answered from the request alone (and `HARNESS_LANG`, see 1.):

1. The FIRST user message's text is parsed into ordered steps (:mod:`.parse`), and the answer's language
   is chosen: the request's own (English or Spanish), else ``HARNESS_LANG`` (the rule is in :mod:`.phrases`).
   Later user text (a harness's nudge) does not change the plan.
2. The history is walked: every ``tool_use`` of every assistant message, with the ``tool_result``
   that answered it, is matched to the first unfinished step it fits (same tool, same path).
   A result settles the step: success → done; "not approved"/"declined"/"rechaz…" → not approved, and that
   tool is never called again; "policy"/"forbidden"/"denied"/"not allowed"/"may only" → refused,
   also never again; "not found"/"does not exist" on a read → ONE retry with a variant of the path
   (``readme.md`` ↔ ``README.md``, else without ``./`` or the directory); any other error → give up.
3. The next turn is the ``tool_use`` for the first unfinished step (``parallel``: every unfinished
   step that does not depend on another, in one turn). A step whose tool is not in the request's
   ``tools`` (or whose arguments would not validate against the tool's ``input_schema``) is skipped.
4. When nothing is left, the answer (one text block, ``end_turn``) is composed from the ACTUAL
   tool results: the first line the tool returned, the time it returned (ISO 8601 rendered as
   "10:42 on 2026-08-26", the same length on any date; anything else quoted as is), the error texts
   it returned (quoted in English; in Spanish said in Spanish by kind, see :func:`error_words`). Every sentence comes from the phrasebook (:mod:`.phrases`); this module holds only the logic.

NOT modelled: anything a real model would infer beyond these rules — it does not read file contents
for meaning (except the injection pattern in :func:`find_injections`), does not follow later user
messages, does not use custom tools it has no rule for, and never writes free prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from .parse import Step, detect_language, parse_steps
from .phrases import ERROR_KINDS, RESULT_WORDS, SAY, answer_language
from .validation import args_valid

__all__ = [
    "Call", "Conversation", "Reply", "Task", "read_conversation", "plan_reply", "settle", "compose_answer",
    "fit_args", "find_injections", "render_time", "result_text", "help_text", "preamble", "read_tool_result",
]

ANSWER_PATH = "scratch/answer.txt"


@dataclass
class Call:
    """One tool_use from the history, with the tool_result that answered it (None: unanswered)."""

    id: str
    name: str
    input: dict
    result: str | None = None
    is_error: bool = False


@dataclass
class Conversation:
    """What the model sees in one request."""

    task: str  # the text of the first user message
    language: str  # "en" or "es"
    tools: dict[str, dict]  # offered tools: name -> input_schema ({} when tool_choice is "none")
    calls: list[Call]
    assistant_turns: int
    ends_with_assistant: bool
    max_tokens: int


@dataclass
class Reply:
    """The model's planned turn, before max_tokens/stop_sequences are applied (tool_use ids are added later)."""

    content: list[dict]
    stop_reason: str
    stop_details: dict | None = None


def result_text(content) -> str:
    """A tool_result's content as text: a string, or the text blocks of a list joined by newlines."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def read_conversation(body: dict) -> Conversation:
    messages = body["messages"]
    first = messages[0]["content"]
    task = first if isinstance(first, str) else "\n".join(
        b.get("text", "") for b in first if b.get("type") == "text"
    )
    tools = {}
    if (body.get("tool_choice") or {}).get("type") != "none":
        tools = {t["name"]: t.get("input_schema", {}) for t in body.get("tools") or [] if "name" in t}
    calls: dict[str, Call] = {}
    turns = 0
    for message in messages:
        content = message["content"]
        if message["role"] == "assistant":
            turns += 1
            for block in content if isinstance(content, list) else []:
                if block.get("type") == "tool_use":
                    inp = block.get("input")
                    calls[block.get("id")] = Call(block.get("id"), block.get("name"), inp if isinstance(inp, dict) else {})
        elif isinstance(content, list):
            for block in content:
                if block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                    call = calls[block["tool_use_id"]]
                    call.result = result_text(block.get("content"))
                    call.is_error = bool(block.get("is_error"))
    return Conversation(
        task=task,
        language=answer_language(detect_language(task)),  # the request's language, else HARNESS_LANG
        tools=tools,
        calls=list(calls.values()),
        assistant_turns=turns,
        ends_with_assistant=messages[-1]["role"] == "assistant",
        max_tokens=body["max_tokens"],
    )


# ---- tool arguments ---------------------------------------------------------------------------------

_ALIASES = {"path": ("path", "file_path", "filepath", "file", "filename"), "content": ("content", "text", "contents", "data", "body")}


def fit_args(conv: Conversation, tool: str, args: dict) -> dict | None:
    """``args`` renamed to the tool's property names (path → file_path, …) if needed; None when the tool
    is not offered or the arguments do not validate against its input_schema (checked with jsonschema)."""
    schema = conv.tools.get(tool)
    if schema is None:
        return None
    props = schema.get("properties") or {}
    if props:
        fitted = {}
        for key, value in args.items():
            fitted[next((a for a in _ALIASES.get(key, (key,)) if a in props), key)] = value
        args = fitted
    return args if args_valid(schema, args) else None


def _path_of(inp: dict) -> str | None:
    path = inp.get("path")
    if isinstance(path, str):
        return path
    return next((inp[a] for a in _ALIASES["path"] if isinstance(inp.get(a), str)), None)


def path_variant(path: str) -> str:
    """The one alternative tried after "not found": the file stem's case toggled, else without ./ or the directory."""
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


def outcome(call: Call) -> str:
    """ok | declined | refused | not_found | error.

    An error that names the policy ("policy", "forbidden", "prohibido") is a refusal by policy whatever else
    it says; otherwise "not approved"/"declined"/"rechaz…" is the approval gate's no (a person's, or no answer:
    the answer then says "not approved", never "you declined"); then the other refusal words, then "not found"."""
    text = call.result or ""
    if not call.is_error:
        # a rejection sent without is_error is still a rejection (for the tools that ask a person)
        return "declined" if call.name in ("write_file", "delete_file") and _DECLINED.search(text) else "ok"
    if _POLICY.search(text):
        return "refused"
    if _DECLINED.search(text):
        return "declined"
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

    def value(self) -> str:
        """What a later "save it" writes: the first line, the file, or the time as returned."""
        text = self.output or ""
        return first_line(text) if self.step.kind == "first_line" else text.strip()


def first_line(text: str) -> str:
    return text.split("\n", 1)[0].rstrip("\r")


def _matches(task: Task, call: Call) -> bool:
    if task.status != "open" or task.tool != call.name:
        return False
    if task.step.kind == "email":
        return call.input.get("to") == task.step.to
    return task.step.kind == "time" or _path_of(call.input) == task.expected_path


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
        elif result == "not_found" and call.name == "read_file" and len(task.tried) == 1 \
                and path_variant(task.tried[0]) != task.tried[0]:
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
    return next((t for t in reversed(tasks[:i]) if t.step.kind in ("first_line", "read", "time")), None)


def task_args(conv: Conversation, tasks: list[Task], task: Task) -> dict | None | str:
    """The tool input for ``task``; "wait" when it depends on an unfinished step; None when it cannot be made."""
    step = task.step
    if step.kind == "time":
        return fit_args(conv, "get_time", {})
    if step.kind in ("first_line", "read", "delete"):
        return fit_args(conv, task.tool, {"path": task.expected_path})
    if step.kind == "write":
        content = step.content
        if step.refers_back:
            src = _source_of(tasks, task)
            if src is not None and src.status == "open":
                return "wait"
            if src is None or src.status != "done":
                return None
            content = src.value()
        return fit_args(conv, "write_file", {"path": step.path, "content": content or ""})
    if step.kind == "injected":
        args = {"path": step.path}
        props = (conv.tools.get(task.tool) or {}).get("properties") or {}
        if step.content is not None or any(a in props for a in _ALIASES["content"]):
            args["content"] = step.content or ""
        return fit_args(conv, task.tool, args)
    if step.kind == "email":
        args = {"to": step.to}
        for key in (conv.tools.get("send_email") or {}).get("properties") or {}:
            if key in ("body", "content", "text", "message"):
                args[key] = step.content
            elif key == "subject":
                args[key] = _q(step.content[:1].upper() + step.content[1:], 60)
        return fit_args(conv, "send_email", args)
    if step.kind == "save_answer":
        if any(t.status == "open" for t in tasks if t is not task):
            return "wait"
        return fit_args(conv, "write_file", {"path": ANSWER_PATH, "content": compose_answer(conv, tasks, final=False)})
    return None


def next_calls(conv: Conversation, tasks: list[Task], *, parallel: bool) -> list[tuple[str, dict]]:
    """The tool calls of the next turn ([] when it is time to answer). Marks impossible steps skipped."""
    batch: list[tuple[str, dict]] = []
    touched: set[str] = set()
    for task in tasks:
        if task.status != "open":
            continue
        if task.tool not in conv.tools:
            task.status, task.why = "skipped", "no_tool"
            continue
        args = task_args(conv, tasks, task)
        if args == "wait":
            break
        if args is None:
            task.status, task.why = "skipped", ("nothing" if task.step.refers_back else "invalid")
            continue
        path = task.expected_path
        if batch and path in touched and task.step.kind in ("write", "delete", "injected"):
            break  # depends on an earlier call in this turn: next turn
        batch.append((task.tool, args))
        if path:
            touched.add(path)
        if not parallel:
            break
    return batch


# ---- the answer -------------------------------------------------------------------------------------

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?")


def render_time(text: str, language: str = "en") -> str | None:
    """"it is 09:42 on 2026-08-26" / "son las 09:42 del 2026-08-26"; None if no ISO 8601 time.

    Always the same length (the hour zero-padded, the date in ISO form): see SAY's "time_at"."""
    m = _ISO.search(text or "")
    if not m:
        return None
    try:
        t = datetime.fromisoformat(m.group(0))
    except ValueError:
        return None
    return SAY[language]["time_at"].format(hh=f"{t:%H}", mm=f"{t:%M}", date=f"{t:%Y-%m-%d}")


def _q(text: str | None, limit: int = 300) -> str:
    text = (text or "").strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


_ERROR_KINDS = {kind: re.compile("|".join(words), re.I) for kind, words in ERROR_KINDS.items()}


def error_words(error: str | None, lang: str) -> str:
    """A tool's error as the answer in ``lang`` puts it (see phrases.ERROR_KINDS): quoted in English, the
    tools' own language; in Spanish a paraphrase of its kind, or quoted after a few Spanish words."""
    error = _q(error)
    kind = next((kind for kind, words in _ERROR_KINDS.items() if words.search(error)), "other")
    return SAY[lang]["errors"][kind].format(error=error)


def _describe(task: Task, lang: str) -> tuple[str, str] | None:
    """("clause" | "block", text) for one settled task."""
    p = SAY[lang]
    step, kind, status = task.step, task.step.kind, task.status
    path = task.tried[-1] if task.tried and status == "done" else step.path
    error = error_words(task.error, lang)
    act = "read" if kind == "first_line" else kind
    action = p.get(f"act_{act}", "{tool}").format(path=step.path, tool=task.tool, to=step.to)
    if status in ("skipped", "blocked"):
        if kind == "injected":
            return "clause", p["inj_ignored"].format(source=step.source, tool=task.tool, path=step.path)
        if status == "blocked" and kind == "write" and task.why == "declined":
            content = _q(task.saved_text if step.refers_back else step.content, 200)
            return "clause", p["blocked_write"].format(path=step.path, content=content)
        if status == "blocked":
            return "clause", p[f"blocked_{task.why}"].format(action=action, tool=task.tool)
        return "clause", p[task.why].format(action=action, tool=task.tool, path=step.path)
    if kind == "injected":
        key = {"done": "inj_done", "declined": "inj_declined", "ignored": "inj_ignored"}.get(status, "inj_failed")
        return "clause", p[key].format(source=step.source, tool=task.tool, path=step.path, output=_q(task.output, 200), error=error)
    if kind in ("first_line", "read"):
        if status == "done":
            text = task.output or ""
            if not text.strip():
                clause = p["empty"].format(path=path)
            elif kind == "first_line":
                clause = p["first_line"].format(path=path, line=first_line(text))
            else:
                shown = text.rstrip("\n") if len(text) <= 2000 else text[:2000].rstrip() + "\n…"
                return "block", p["read"].format(path=path, text=shown)
            if len(task.tried) > 1:
                clause += p["retried"].format(first=task.tried[0], path=path)
            return "clause", clause
        if status == "declined":
            return "clause", p["read_declined"].format(path=step.path)
        if len(task.tried) > 1:
            return "clause", p["read_failed_both"].format(path=task.tried[0], variant=task.tried[-1], error=error)
        return "clause", p["read_failed"].format(path=step.path, error=error)
    if kind == "time":
        if status == "done":
            return "clause", render_time(task.output, lang) or p["time_raw"].format(text=_q(task.output))
        return "clause", p["time_declined" if status == "declined" else "time_failed"].format(error=error)
    if kind in ("write", "delete"):
        content = _q(task.saved_text if step.refers_back else step.content, 200)
        done = "wrote" if kind == "write" else "deleted"
        key = {"done": done, "declined": f"{kind}_declined"}.get(status, f"{kind}_failed")
        return "clause", p[key].format(path=step.path, error=error, content=content)
    if kind == "email":
        key = {"done": "emailed", "declined": "email_declined"}.get(status, "email_failed")
        return "clause", p[key].format(to=step.to, content=_q(step.content, 200), error=error)
    return None


def _listed(items: list[str], lang: str, joiner: str = "and") -> str:
    """"a", "a and b", "a, b and c" in the phrasebook's words (``joiner``: "and" or "or")."""
    say = SAY[lang]
    if len(items) == 1:
        return items[0]
    if joiner == "or":
        return ", ".join(items[:-1]) + (say["list_or2"] if len(items) == 2 else say["list_or_last"]) + items[-1]
    return ", ".join(items[:-1]) + say["list_and"] + items[-1]


def _join(clauses: list[str], lang: str) -> str:
    """The clauses as one sentence: "A, and B." / "A, B, and C." (Spanish: "A, y B." / "A, B y C.")."""
    say = SAY[lang]
    if len(clauses) == 1:
        text = clauses[0]
    elif len(clauses) == 2:
        text = say["and2"].format(*clauses)
    else:
        text = ", ".join(clauses[:-1]) + say["and_last"].format(clauses[-1])
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def compose_answer(conv: Conversation, tasks: list[Task], *, final: bool = True) -> str:
    """The final answer, built only from what the tools actually returned, in ``conv.language``.

    ``final=False`` leaves out the sentence about saving the answer (that text is what gets saved).
    """
    lang = conv.language
    for t in tasks:  # a "save it" step quotes what it would have saved
        if t.step.kind == "write" and t.step.refers_back:
            src = _source_of(tasks, t)
            t.saved_text = src.value() if src is not None and src.status == "done" else None
    paragraphs, clauses = [], []
    save = None
    for task in tasks:
        if task.step.kind == "save_answer":
            save = task
            continue
        described = _describe(task, lang)
        if described is None:
            continue
        form, text = described
        if form == "block":
            if clauses:
                paragraphs.append(_join(clauses, lang))
                clauses = []
            paragraphs.append(text)
        else:
            clauses.append(text)
    if clauses:
        paragraphs.append(_join(clauses, lang))
    if final and save is not None and save.status != "skipped":
        p = SAY[lang]
        key = {"done": "save_done", "declined": "save_declined", "blocked": "save_blocked"}.get(save.status, "save_failed")
        paragraphs.append(p[key].format(path=ANSWER_PATH, how=p.get(save.why or "", ""), error=error_words(save.error, lang)))
    return "\n\n".join(paragraphs)


def help_text(conv: Conversation) -> str:
    """The answer to a request that maps to no tool: what the offline model can do here."""
    say = SAY[conv.language]
    offered = [text for name, text in say["can"].items() if name in conv.tools]
    if not offered:
        return say["no_tools_help"]
    return say["help"].format(listed=_listed(offered, conv.language, "or"))


def preamble(names: list[str], language: str = "en") -> str:
    """The short sentence a tool-calling turn opens with: "I'll use read_file." / "Voy a usar read_file y get_time."

    Live Claude usually says a sentence before its tool calls, so a turn is text + tool_use blocks: code
    that treats every content block as a call, or reads only ``content[0]``, breaks offline too."""
    return SAY[language]["preamble"].format(listed=_listed(list(dict.fromkeys(names)), language))


def plan_reply(conv: Conversation, *, parallel: bool = False, obey_injections: bool = False,
               save_answer: bool = False, say_first: bool = False) -> Reply:
    """The planner's next turn: tool_use block(s) with stop_reason "tool_use", or the final answer.

    ``say_first``: a tool-calling turn opens with a short text block (:func:`preamble`) before its calls."""
    steps = parse_steps(conv.task)
    if not steps:
        return Reply([{"type": "text", "text": help_text(conv)}], "end_turn")
    if save_answer and not any(s.kind == "write" for s in steps):  # a plan that writes already uses write_file
        steps.append(Step("save_answer", pos=len(conv.task), path=ANSWER_PATH))
    tasks = settle(conv, steps, obey_injections=obey_injections)
    calls = next_calls(conv, tasks, parallel=parallel)
    if calls:
        said = [{"type": "text", "text": preamble([name for name, _ in calls], conv.language)}] if say_first else []
        return Reply(said + [{"type": "tool_use", "name": name, "input": args} for name, args in calls], "tool_use")
    return Reply([{"type": "text", "text": compose_answer(conv, tasks)}], "end_turn")
