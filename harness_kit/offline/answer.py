"""The offline model's answer: one text, composed only from what the tools actually returned, in the request's
language (:func:`compose_answer`); and its other fixed sentences: the help text (:func:`help_text`) and the short
opening of a tool-calling turn (:func:`preamble`).

Every sentence comes from the phrasebook (:mod:`.phrases`), by id, through the kit's one lookup (``lang.say``,
in the request's language); this module holds only the logic of which one, and
fills in the first line, the file, the time (:func:`render_time`) and the error (:func:`error_words`).

Part of the planner (:mod:`.planner`). NOT modelled: free prose; anything not returned by a tool.
"""

from __future__ import annotations

import re
from datetime import datetime

from .conversation import Conversation
from .history import ANSWER_PATH, Task, line_count, sent_text
from ..lang import say
from .parse import LINES
from .phrases import ERROR_KINDS, SAY

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
    return say(SAY, "time_at", language, hh=f"{t:%H}", mm=f"{t:%M}", date=f"{t:%Y-%m-%d}")


def _q(text: str | None, limit: int = 300) -> str:
    text = (text or "").strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


_ERROR_KINDS = {kind: re.compile("|".join(words), re.I) for kind, words in ERROR_KINDS.items()}


def error_words(error: str | None, lang: str) -> str:
    """A tool's error as the answer in ``lang`` puts it (see phrases.ERROR_KINDS): quoted in English, the
    tools' own language; in Spanish a paraphrase of its kind, or quoted after a few Spanish words."""
    error = _q(error)
    kind = next((kind for kind, words in _ERROR_KINDS.items() if words.search(error)), "other")
    return say(SAY, f"errors.{kind}", lang, error=error)


def _describe(task: Task, lang: str) -> tuple[str, str] | None:
    """("clause" | "block", text) for one settled task."""
    def p(key: str, **values) -> str:
        return say(SAY, key, lang, **values)

    step, kind, status = task.step, task.step.kind, task.status
    path = task.tried[-1] if task.tried and status == "done" else step.path
    error = error_words(task.error, lang)
    act = "read" if kind in LINES else kind
    action = p(f"act_{act}", path=step.path, tool=task.tool, to=step.to) if f"act_{act}" in SAY[lang] else task.tool
    if status in ("skipped", "blocked"):
        if kind == "injected":
            return "clause", p("inj_ignored", source=step.source, tool=task.tool, path=step.path)
        if status == "blocked" and kind == "write" and task.why == "declined":
            content = _q(task.saved_text if step.refers_back else step.content, 200)
            return "clause", p("blocked_write", path=step.path, content=content)
        if status == "blocked":
            return "clause", p(f"blocked_{task.why}", action=action, tool=task.tool)
        if kind == "email" and task.why in ("nothing", "nothing_before"):  # ("email it to …" with nothing before)
            return "clause", p("nothing_email" if task.why == "nothing" else "nothing_before_email", to=step.to)
        return "clause", p(task.why, action=action, tool=task.tool, path=step.path)
    if kind == "injected":
        key = {"done": "inj_done", "declined": "inj_declined", "ignored": "inj_ignored"}.get(status, "inj_failed")
        return "clause", p(key, source=step.source, tool=task.tool, path=step.path, output=_q(task.output, 200), error=error)
    if kind == "list_files":
        if status == "done":
            return "block", p("listed", tool=task.tool, text=(task.output or "").rstrip("\n")[:2000])
        return "clause", p("list_failed", error=error)
    if kind in (*LINES, "read"):
        if status == "done":
            text = task.output or ""
            if not text.strip():
                clause = p("empty", path=path)
            elif kind == "first_line":
                clause = p("first_line", path=path, line=task.value())
            elif kind == "last_line":
                clause = p("last_line", path=path, line=task.value())
            elif kind == "count_lines":
                n = line_count(text)
                clause = p("count_lines_1", path=path) if n == 1 else p("count_lines", path=path, n=n)
            else:
                shown = text.rstrip("\n") if len(text) <= 2000 else text[:2000].rstrip() + "\n…"
                return "block", p("read_summary" if step.summary else "read", path=path, text=shown)
            if len(task.tried) > 1:
                why = "retried_slashes" if "\\" in task.tried[0] else "retried"  # a Windows path, or not found
                clause += p(why, first=task.tried[0], path=path)
            return "clause", clause
        if status == "declined":
            return "clause", p("read_declined", path=step.path)
        if len(task.tried) > 1:
            return "clause", p("read_failed_both", path=task.tried[0], variant=task.tried[-1], error=error)
        return "clause", p("read_failed", path=step.path, error=error)
    if kind == "time":
        if status == "done":
            return "clause", render_time(task.output, lang) or p("time_raw", text=_q(task.output))
        return "clause", p("time_declined" if status == "declined" else "time_failed", error=error)
    if kind in ("write", "delete"):
        content = _q(task.saved_text if step.refers_back else step.content, 200)
        done = "wrote" if kind == "write" else "deleted"
        key = {"done": done, "declined": f"{kind}_declined"}.get(status, f"{kind}_failed")
        stand_in = p("summary_stand_in") if step.summary and task.saved_text is not None else ""
        return "clause", p(key, path=step.path, error=error, content=content) + stand_in
    if kind == "email":
        key = {"done": "emailed", "declined": "email_declined"}.get(status, "email_failed")
        content = _q(task.saved_text if step.refers_back else step.content, 200)
        return "clause", p(key, to=step.to, content=content, error=error)
    return None


def _listed(items: list[str], lang: str, joiner: str = "and") -> str:
    """"a", "a and b", "a, b and c" in the phrasebook's words (``joiner``: "and" or "or")."""
    if len(items) == 1:
        return items[0]
    if joiner == "or":
        return ", ".join(items[:-1]) + say(SAY, "list_or2" if len(items) == 2 else "list_or_last", lang) + items[-1]
    return ", ".join(items[:-1]) + say(SAY, "list_and", lang) + items[-1]


def _join(clauses: list[str], lang: str) -> str:
    """The clauses as one sentence: "A, and B." / "A, B, and C." (Spanish: "A, y B." / "A, B y C.")."""
    if len(clauses) == 1:
        text = clauses[0]
    elif len(clauses) == 2:
        text = say(SAY, "and2", lang, first=clauses[0], second=clauses[1])
    else:
        text = ", ".join(clauses[:-1]) + say(SAY, "and_last", lang, last=clauses[-1])
    ended = text.rstrip('"”»').endswith((".", "!", "?"))  # ('… "Ship on Friday."': no second full stop)
    return text[0].upper() + text[1:] + ("" if ended else ".")


def compose_answer(conv: Conversation, tasks: list[Task], *, final: bool = True) -> str:
    """The final answer, built only from what the tools actually returned, in ``conv.language``.

    ``final=False`` leaves out the sentence about saving the answer (that text is what gets saved).
    """
    lang = conv.language
    for t in tasks:  # a "save it" step quotes what it would have saved
        if t.step.kind in ("write", "email") and t.step.refers_back:
            t.saved_text = sent_text(tasks, t)[1]
    paragraphs, clauses = [], []
    save = None
    unclear = [t.step.path for t in tasks if t.step.kind == "unclear"]  # said together, where the first one was
    for task in tasks:
        if task.step.kind == "save_answer":
            save = task
            continue
        if task.step.kind == "unclear":
            if task.step.path == unclear[0]:
                clauses.append(say(SAY, "unclear", lang, path=unclear[0]) if len(unclear) == 1
                               else say(SAY, "unclear_many", lang, paths=_listed(unclear, lang)))
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
        key = {"done": "save_done", "declined": "save_declined", "blocked": "save_blocked"}.get(save.status, "save_failed")
        how = say(SAY, save.why, lang) if save.why in ("declined", "refused") else ""
        paragraphs.append(say(SAY, key, lang, path=ANSWER_PATH, how=how, error=error_words(save.error, lang)))
    return "\n\n".join(paragraphs)


# What the help text says the model can do, per tool offered, in this order.
_CAN = {"read_file": "can.read_file", "get_time": "can.get_time", "write_file": "can.write_file",
        "delete_file": "can.delete_file", "send_email": "can.send_email"}


def help_text(conv: Conversation) -> str:
    """The answer to a request that maps to no tool: what the offline model can do here."""
    language = conv.language
    offered = [say(SAY, key, language) for name, key in _CAN.items() if name in conv.tools]
    if not offered:
        return say(SAY, "no_tools_help", language)
    return say(SAY, "help", language, listed=_listed(offered, language, "or"))


def preamble(names: list[str], language: str = "en") -> str:
    """The short sentence a tool-calling turn opens with: "I'll use read_file." / "Voy a usar read_file y get_time."

    Live Claude usually says a sentence before its tool calls, so a turn is text + tool_use blocks: code
    that treats every content block as a call, or reads only ``content[0]``, breaks offline too."""
    return say(SAY, "preamble", language, listed=_listed(list(dict.fromkeys(names)), language))
