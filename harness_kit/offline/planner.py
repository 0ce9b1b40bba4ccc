"""The responsive planner: how the offline model decides its next turn from the conversation.

It is stateless. Every request is answered from the request alone (and `HARNESS_LANG`, see 1.):

1. The FIRST user message's text is parsed into ordered steps (:mod:`.parse`), and the answer's language
   is chosen: the request's own (English or Spanish), else ``HARNESS_LANG`` (the rule is in :mod:`.phrases`).
   Later user text (a harness's nudge) does not change the plan.
2. The history is walked: every ``tool_use`` of every assistant message, with the ``tool_result``
   that answered it, is matched to the first unfinished step it fits (same tool, same path).
   A result settles the step: success → done; "not approved"/"declined"/"rechaz…" → not approved, and that
   tool is never called again; "policy"/"forbidden"/"denied"/"not allowed"/"may only" → refused,
   also never again (but a path outside what the tool may touch, or one it does not take, fails that step only);
   "not found"/"does not exist" or "backslashes are not allowed" on a read → ONE retry with a variant of the path
   (``notes\\todo.md`` → ``notes/todo.md``, ``readme.md`` ↔ ``README.md``, else without ``./`` or the directory);
   any other error → give up.
3. The next turn is the ``tool_use`` for the first unfinished step (``parallel``: every unfinished
   step that does not depend on another, in one turn). A step whose tool is not in the request's
   ``tools`` (or whose arguments would not validate against the tool's ``input_schema``) is skipped, and so is
   a file the request names with no verb the model knows (``unclear``): the answer says it left that file alone.
4. When nothing is left, the answer (one text block, ``end_turn``) is composed from the ACTUAL
   tool results: the first line the tool returned, the time it returned (ISO 8601 rendered as
   "10:42 on 2026-08-26", the same length on any date; anything else quoted as is), the error texts
   it returned (quoted in English; in Spanish said in Spanish by kind, see :func:`error_words`). Every sentence comes from the phrasebook (:mod:`.phrases`); this module holds only the logic.

One idea per file: :mod:`.conversation` reads the request (1.), :mod:`.history` replays the history onto the
steps (2.), :mod:`.answer` words the answer (4.); this module plans the next turn (3.) and puts them together
(:func:`plan_reply`). The names the kit imports from here (``read_tool_result``, ``render_time``, ...) still are.

NOT modelled: anything a real model would infer beyond these rules — it does not read file contents
for meaning (except the injection pattern in :func:`find_injections`), does not follow later user
messages, does not use custom tools it has no rule for, and never writes free prose.
"""

from __future__ import annotations

# Some of these are imported only to be importable from here (the API, the scenarios, the graders and the tests do).
from .answer import _q, compose_answer, error_words, help_text, preamble, render_time
from .conversation import _ALIASES, Call, Conversation, Reply, fit_args, read_conversation, result_text
from .history import ANSWER_PATH, Task, _source_of, find_injections, read_tool_result, sent_text, settle
from .parse import LINES, Step, parse_steps

__all__ = [
    "Call", "Conversation", "Reply", "Task", "read_conversation", "plan_reply", "settle", "compose_answer",
    "fit_args", "find_injections", "render_time", "result_text", "help_text", "preamble", "read_tool_result",
]


# ---- the next turn -------------------------------------------------------------------------------

def task_args(conv: Conversation, tasks: list[Task], task: Task) -> dict | None | str:
    """The tool input for ``task``; "wait" when it depends on an unfinished step; None when it cannot be made."""
    step = task.step
    if step.kind == "time":
        return fit_args(conv, "get_time", {})
    if step.kind == "list_files":  # a list_files tool of the learner's own: called with no arguments
        return fit_args(conv, "list_files", {})
    if step.kind in (*LINES, "read", "delete"):
        return fit_args(conv, task.tool, {"path": task.expected_path})
    if step.kind == "write":
        state, content = sent_text(tasks, task)
        if state != "ok":
            return "wait" if state == "wait" else None
        return fit_args(conv, "write_file", {"path": step.path, "content": content or ""})
    if step.kind == "injected":
        args = {"path": step.path}
        props = (conv.tools.get(task.tool) or {}).get("properties") or {}
        if step.content is not None or any(a in props for a in _ALIASES["content"]):
            args["content"] = step.content or ""
        return fit_args(conv, task.tool, args)
    if step.kind == "email":
        state, content = sent_text(tasks, task)
        if state != "ok":
            return "wait" if state == "wait" else None
        args = {"to": step.to}
        for key in (conv.tools.get("send_email") or {}).get("properties") or {}:
            if key in ("body", "content", "text", "message"):
                args[key] = content
            elif key == "subject":
                args[key] = _q(content[:1].upper() + content[1:], 60)
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
        if task.step.kind == "unclear":  # a file the request names without a verb the model knows: no call
            task.status, task.why = "skipped", "unclear"
            continue
        if task.tool not in conv.tools:
            task.status, task.why = "skipped", "no_tool"
            continue
        args = task_args(conv, tasks, task)
        if args == "wait":
            break
        if args is None:
            task.status, task.why = "skipped", ("invalid" if not task.step.refers_back
                                                else "nothing" if _source_of(tasks, task) else "nothing_before")
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


def plan_reply(conv: Conversation, *, parallel: bool = False, obey_injections: bool = False,
               save_answer: bool = False, say_first: bool = False) -> Reply:
    """The planner's next turn: tool_use block(s) with stop_reason "tool_use", or the final answer.

    ``say_first``: a tool-calling turn opens with a short text block (:func:`preamble`) before its calls."""
    steps = parse_steps(conv.task)
    if all(step.kind == "unclear" for step in steps):  # nothing maps to a tool ("does README.md mention …?")
        return Reply([{"type": "text", "text": help_text(conv)}], "end_turn")
    if save_answer and not any(s.kind == "write" for s in steps):  # a plan that writes already uses write_file
        steps.append(Step("save_answer", pos=len(conv.task), path=ANSWER_PATH))
    tasks = settle(conv, steps, obey_injections=obey_injections)
    calls = next_calls(conv, tasks, parallel=parallel)
    if calls:
        said = [{"type": "text", "text": preamble([name for name, _ in calls], conv.language)}] if say_first else []
        return Reply(said + [{"type": "tool_use", "name": name, "input": args} for name, args in calls], "tool_use")
    return Reply([{"type": "text", "text": compose_answer(conv, tasks)}], "end_turn")
