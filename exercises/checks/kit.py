"""The checks' shared kit: what the checks of every exercise are built from.

- `_t(message_id, **values)`: a title, criterion, hint or note, by id, in the notebook's language. Its words, English
  and Spanish, are data: one catalogue per module of checks (words_kit.py, words_ex01.py, ...), merged here into
  MESSAGES and read with the kit's one lookup, harness_lib.lang.say. A new sentence: an id at the _t() call
  ("ex02.turn_cap.one_turn_short": exercise, check, what the line says) and its text under that id in both
  languages of that module's words_*.py (a text two modules use: once, in the first module that uses it).
  tests/test_catalogues.py checks that both languages have every id, with the same {fields}, and that code uses
  every id.
- `Checks`: prints one ✓ / ✗ line per criterion, a hint under each ✗; under the grader (HARNESS_GRADING=1) its
  done() raises while a ✗ is left. `Cause`: a hint with a key, so one cause met twice is named once.
- `cell_error`, `not_defined_hint`, `raised_name_hint`: the hint when a name is missing because the learner's own
  cell raised (IPython's last error and the cell's source, from linecache).
- `offline(scenario)`: an offline client even with ANTHROPIC_API_KEY set; `bounded(...)`: a run stopped after a
  number of model requests, so a loop that never ends fails instead of hanging.
- Helpers two exercises share: the recorded calls of a tool step (`calls`, `read_as`, `error_hint`), tools that
  count their runs (`counting_impls`), the answer digests (`_digest`), the ✗ for a function not written yet
  (`unfinished`).

What it does NOT do: hold any exercise's criteria (each exercise's module has its own), or read the learner's
code: the checks only drive it and record what happened.
"""

from __future__ import annotations

import asyncio
import contextvars
import hashlib
import linecache
import os
import re
import sys
from datetime import datetime, timezone
from types import SimpleNamespace

import anthropic

from harness_lib import lang
from harness_lib.client import make_client, offline_api
from harness_lib.offline import read_tool_result
from harness_lib.tools import make_tool_impls

from . import words_ex01, words_ex02, words_ex03_budget, words_ex03_progress, words_ex04, words_kit

# The checks' catalogue, {language: {message_id: text}}: every module's words (one words_*.py per module of checks/).
MESSAGES = {language: {key: text for words in (words_kit, words_ex01, words_ex02, words_ex03_budget,
                                               words_ex03_progress, words_ex04)
                       for key, text in words.MESSAGES[language].items()}
            for language in lang.LANGUAGES}


def _t(key: str, **values) -> str:
    """The message `key` of the checks' MESSAGES -- a title, criterion, hint or note -- in the notebook's language.

    The language is harness_lib.lang.current(): the exercise's first code cell sets it (lang.use("en") in
    exercises/, lang.use("es") in exercises/es/). `values` fill its {fields} (str.format), the same in both
    languages; a text with no values is printed as written. An id missing from the catalogue is a KeyError."""
    return lang.say(MESSAGES, key, **values)


def grading() -> bool:
    """True under the grader (pytest sets HARNESS_GRADING=1 for the kernels it starts)."""
    return os.environ.get("HARNESS_GRADING") == "1"


class Cause(str):
    """A hint that names a cause, with a key: the same key met again in one check is the same cause."""

    def __new__(cls, text: str, key=None):
        hint = super().__new__(cls, text)
        hint.key = text if key is None else key
        return hint


class Checks:
    """Prints ✓ / ✗ per criterion (a hint under each ✗). done(): under the grader, raises while any ✗ is left.

    The first ✗ names the first cause the check can see. A later ✗ whose hint names a cause already named (the
    same text, or a Cause with the same key), or that the check marks `follows=True` (it fails only because of an
    earlier ✗), says "follows from the ✗ above: fix that first" instead of guessing another cause."""

    def __init__(self, cell_id: str, title: str):
        self.cell_id, self.title, self.failed, self.causes = cell_id, title, [], set()
        print(f"🔍 {title}")

    def ok(self, passed, criterion: str, hint: str = "", follows: bool = False) -> bool:
        passed = bool(passed)
        if not passed:
            key = getattr(hint, "key", hint)
            if self.failed and (follows or key in self.causes):
                hint = _t("kit.checks.follows_from_above")
            else:
                self.causes.add(key)
        print(f"  {'✓' if passed else '✗'} {criterion}"
              + ("" if passed else f"\n      {_t('kit.checks.hint')}: {hint}"))
        if not passed:
            self.failed.append((criterion, hint))
        return passed

    def note(self, text: str) -> None:
        print(f"    {text}")

    def done(self) -> None:
        if not self.failed:
            print("  " + _t("kit.checks.all_criteria_met"))
            return
        n = len(self.failed)
        if grading():
            # "hint:" stays English in both languages: exercises/conftest.py reads it
            raise AssertionError(_t("kit.checks.not_met_summary", cell_id=self.cell_id, n=n) + "\n"
                                 + "\n".join(f"✗ {criterion}\n    hint: {hint}" for criterion, hint in self.failed))
        print("  → " + _t("kit.checks.not_met_fix_and_rerun", n=n))


_RAISED: dict[str, str] = {}  # name -> the error its defining cell raised, as cell_error() last found it
# Under the gradebook a check runs in the grading process and the notebook is at the other end of a line
# (exercises/judge.py sets this to its view of the notebook): then the notebook's kernel says which cell raised.
LEARNER: contextvars.ContextVar = contextvars.ContextVar("learner", default=None)


def cell_error(name: str) -> str | None:
    """'SyntaxError: … (line n)' when the cell that defines `name` (a cell whose source has `def name(` or
    `name =`) raised, else None. IPython keeps the last error in sys.last_value and each cell's source in
    linecache, under the file name the error (or its traceback) names. Under the grader a failing check raises
    too and becomes the last error, so what was found is remembered for the checks that come after it."""
    notebook = LEARNER.get()
    if notebook is not None:  # judged in the gradebook: only the notebook's kernel has its errors
        return notebook.cell_error(name)
    err = getattr(sys, "last_value", None)
    if not isinstance(err, BaseException):
        return _RAISED.get(name)
    files = [err.filename] if isinstance(err, SyntaxError) and err.filename else []
    tb = err.__traceback__
    while tb is not None:
        files.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    defines = re.compile(rf"^(?:async[ \t]+)?def[ \t]+{re.escape(name)}[ \t]*\(|^{re.escape(name)}[ \t]*=", re.M)
    if not any(defines.search("".join(linecache.getlines(f))) for f in files if f):
        return _RAISED.get(name)
    if isinstance(err, SyntaxError):
        found = f"{type(err).__name__}: {err.msg}" + (_t("kit.cell_error.line_number", n=err.lineno) if err.lineno
                                                      else "")
    else:
        found = one_line(err)
    _RAISED[name] = found
    return found


def not_defined_hint(name: str, what: str = "") -> str:
    """The hint for `name` not being defined: the error its cell raised, if that is why; else run the cell."""
    raised = cell_error(name)
    if raised:
        return _t("kit.not_defined.cell_raised",
                  error=raised, name=name)
    return what or _t("kit.not_defined.run_its_cell_first", name=name)


def raised_name_hint(problem: str, name: str) -> str | None:
    """The hint for a run that stopped because something is not defined: `name` itself ("... is not defined yet"),
    or a name it uses whose cell raised (NameError: name 'tokens_of' is not defined, after that cell's SyntaxError);
    None when neither is the case."""
    if "not defined yet" in problem:
        return not_defined_hint(name)
    used = re.search(r"NameError: name '(\w+)' is not defined", problem)
    return not_defined_hint(used.group(1)) if used and cell_error(used.group(1)) else None


def offline(scenario: str, max_requests: int | None = None) -> anthropic.AsyncAnthropic:
    """An offline client even when ANTHROPIC_API_KEY is set (the checks need the scripted scenarios).

    max_requests: past that many requests the offline API refuses every request (a 400)."""
    saved = os.environ.get("HARNESS_OFFLINE")
    os.environ["HARNESS_OFFLINE"] = "1"
    try:
        return make_client(scenario=scenario, max_requests=max_requests)
    finally:
        if saved is None:
            os.environ.pop("HARNESS_OFFLINE")
        else:
            os.environ["HARNESS_OFFLINE"] = saved


def one_line(err: BaseException) -> str:
    text = getattr(err, "message", None) or str(err)
    text = (text.strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {text[:200]}"


async def bounded(scenario: str, make_run, limit: int = 50):
    """Run ``make_run(client)`` on a fresh offline client of `scenario`, stopped once the model has been asked
    more than `limit` times. -> run: .result, .problem (None when it ended by itself within the bound, else one
    line), .client, .requests (how many requests the offline API received), .runaway (True when the bound or the
    safety net stopped it).

    The bound is a request count, not a clock: the offline API refuses every request past `limit` with a 400
    (``make_client(max_requests=...)``), so a loop that never stops ends with an error instead of hanging."""
    run = SimpleNamespace(result=None, problem=None, client=None, requests=0, runaway=False)
    run.client = client = offline(scenario, max_requests=limit)
    api = offline_api(client)
    try:
        task = asyncio.ensure_future(make_run(client))
    except Exception as err:
        run.problem = one_line(err)
        return run
    done, _ = await asyncio.wait({task}, timeout=300)  # a safety net only (e.g. a loop that swallows the 400)
    run.requests = len(api.log)
    error = task.exception() if done and not task.cancelled() else None  # retrieved, so asyncio logs nothing
    if not done:
        task.cancel()
        run.runaway, run.problem = True, _t("kit.bounded.runaway_after_300_s", n=run.requests)
    elif task.cancelled() or len(api.log) > limit:
        run.runaway, run.problem = True, _t("kit.bounded.runaway_past_the_limit", limit=limit)
    elif error is not None:
        run.problem = one_line(error)
    else:
        run.result = task.result()
    return run


def _clock():
    return datetime(2026, 8, 26, 10, 42, 7, tzinfo=timezone.utc)


# ---- shared by the exercises' checks -------------------------------------------------------------------------

# send_email is not in the lesson's TOOLS: a valve must use the `tools` it is given (exercises 1 and 4)
EMAIL = {"name": "send_email", "description": "Send a short email.",
         "input_schema": {"type": "object", "additionalProperties": False, "required": ["to", "subject", "body"],
                          "properties": {"to": {"type": "string"}, "subject": {"type": "string"},
                                         "body": {"type": "string"}}}}


def recorded(events: list, fns: dict) -> dict:
    """`fns` as coroutine functions that append ("ran", name, input) to `events` as each run starts (arun_tool
    awaits them in the event loop, so the order of "asked" and "ran" events is the order the valve did things in)."""
    def recorder(name, fn):
        async def impl(tool_input):
            events.append(("ran", name, tool_input))
            return fn(tool_input)
        return impl
    return {name: recorder(name, fn) for name, fn in fns.items()}


def counting_impls(calls_made: list) -> dict:
    """get_time (a fixed clock) and read_file, each run recorded in `calls_made`."""
    real = make_tool_impls(clock=_clock)

    def recorder(name):
        def impl(tool_input):
            calls_made.append((name, tool_input))
            return real[name](tool_input)
        return impl
    return {name: recorder(name) for name in ("get_time", "read_file")}


def calls(run, name):
    """[(tool_use, [the tool_results answering it])] for every call of `name` in the run."""
    found = []
    for uses, results in run.rounds:
        results = results if isinstance(results, list) else []
        for use in uses:
            if use.name == name:
                found.append((use, [r for r in results if isinstance(r, dict) and r.get("tool_use_id") == use.id]))
    return found


def only_result(run, name) -> dict:
    """The one tool_result of the one call of `name`, else {}."""
    found = calls(run, name)
    return found[0][1][0] if len(found) == 1 and len(found[0][1]) == 1 else {}


def read_as(name, result: dict) -> str:
    """How the offline model reads a tool_result: ok | declined | refused | not_found | error."""
    return read_tool_result(name, result.get("content"), bool(result.get("is_error")))


def error_hint(run) -> str:
    """A hint that follows from how the run broke (the same hint met again in one check is reported once: later
    criteria say it follows from the ✗ above)."""
    return _error_text(run.error or "")


def _error_text(error: str) -> str:
    if "TextBlock" in error or "'text'" in error:
        return _t("kit.error_text.text_block_taken_for_a_call")
    if "not defined" in error and raised_name_hint(error, "run_tool_uses"):
        return raised_name_hint(error, "run_tool_uses")
    if "NotImplementedError" in error:
        return _t("kit.error_text.run_tool_uses_not_written")
    if "NoneType" in error and "call" in error:
        return _t("kit.error_text.no_approver_was_called", error=error)
    if "approve()" in error and "argument" in error:
        return _t("kit.error_text.approver_arguments", error=error)
    if error.startswith("KeyError"):
        return _t("kit.error_text.unlisted_tool_keyerror", error=error)
    if "tool_result" in error or "tool_use" in error or "non-empty content" in error:
        return _t("kit.error_text.one_result_per_tool_use")
    if "TimeoutError" in error:
        return _t("kit.error_text.run_tool_uses_timed_out")
    return _t("kit.error_text.run_stopped_with_error", error=error)


def unfinished(c, problem, name: str) -> bool:
    """When `name` is not defined yet or still raises NotImplementedError: one ✗ saying so, and True (the other
    criteria would all fail for that same reason, so they wait)."""
    problem = problem or ""
    if "not defined yet" not in problem and "NotImplementedError" not in problem:
        return False
    c.ok(False, _t("kit.unfinished.written_and_runs", name=name),
         _t("kit.unfinished.still_raises_not_implemented", name=name) if "NotImplementedError" in problem
         else not_defined_hint(name))
    c.note(_t("kit.unfinished.other_criteria_wait"))
    return True


def _valve(ns):
    return ns.get("run_tool_uses")


def _digest(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()
