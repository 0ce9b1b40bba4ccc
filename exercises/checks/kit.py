"""The checks' shared kit: what the checks of every exercise are built from.

- `_t(message_id, **values)`: a title, criterion, hint or note, by id, in the notebook's language. Its words, English
  and Spanish, are data: one catalogue per module of checks (words_kit.py, words_ex01.py, ...), merged here into
  MESSAGES and read with the kit's one lookup, harness_kit.lang.say. A new sentence: an id at the _t() call
  ("ex02.turn_cap.one_turn_short": exercise, check, what the line says) and its text under that id in both
  languages of that module's words_*.py (a text two modules use: once, in the first module that uses it).
  tests/test_catalogues.py checks that both languages have every id, with the same {fields}, and that code uses
  every id.
- `Checks` and `Cause` (from verdict.py): one ✓ / ✗ line per criterion for the learner, and the same verdict as
  data for the grader.
- `cell_error`, `raised_first`, `not_defined_hint`, `raised_name_hint`: a ✏️ cell that raised (any error) is the
  first ✗, with the error's type, message and line. The kit's import (the 🔒 cell; the gradebook's first seal) hooks
  IPython's post_run_cell, so the last run of each cell is known (a cell fixed and run again no longer counts); without
  it, IPython's last error and the cell's source in linecache.
- What outlives a run, named first (`Checks.cause`: every later ✗ follows from it): `recording_approver` (a call
  decided with no question though an approver was given: approve(...) not awaited; called with other arguments),
  `late_bound` (every call handled with the last call's values), `says_stop` / `model_texts` (a stop's text is the
  harness's own sentence naming the valve and, for the cap and the budget, a number it stopped at).
- `offline(scenario)`: an offline client even with ANTHROPIC_API_KEY set; `bounded(...)`: a run stopped after a
  number of model requests or seconds (harness_ui.practice.bounded), so a loop that never ends fails instead of
  hanging.
- Helpers two exercises share: a tool step run under the time limit (`one_step`), the recorded calls of a tool step
  (`calls`, `read_as`, `error_hint`), tools that
  count their runs (`counting_impls`), the answer digests (`_digest`), the ✗ for a function not written yet
  (`unfinished`).

What it does NOT do: hold any exercise's criteria (each exercise's module has its own), or read the learner's
code: the checks only drive it and record what happened.
"""

from __future__ import annotations

import ast
import contextvars
import hashlib
import linecache
import os
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace

import anthropic

from harness_kit import lang
from harness_ui import practice
from harness_lib.client import MODEL, make_client, offline_api
from harness_lib.loop import final_text
from harness_kit.offline import read_tool_result
from harness_lib.tools import DEFAULT_ROOT, make_tool_impls

from . import (words_ex01, words_ex02, words_ex03_budget, words_ex03_progress, words_ex04, words_ex05,
               words_ex05_upstream, words_kit)
from .verdict import VERDICT_MIME, VERDICTS, Cause, Checks, grading  # noqa: F401 - the checks import them from here

# The checks' catalogue, {language: {message_id: text}}: every module's words (one words_*.py per module of checks/).
MESSAGES = {language: {key: text for words in (words_kit, words_ex01, words_ex02, words_ex03_budget,
                                               words_ex03_progress, words_ex04, words_ex05, words_ex05_upstream)
                       for key, text in words.MESSAGES[language].items()}
            for language in lang.LANGUAGES}


def _t(key: str, **values) -> str:
    """The message `key` of the checks' MESSAGES -- a title, criterion, hint or note -- in the notebook's language.

    The language is harness_kit.lang.current(): the exercise's first code cell sets it (lang.use("en") in
    exercises/, lang.use("es") in exercises/es/). `values` fill its {fields} (str.format), the same in both
    languages; a text with no values is printed as written. An id missing from the catalogue is a KeyError."""
    return lang.say(MESSAGES, key, **values)


def tool_root() -> Path:
    """The folder the checks' tools read and write: the one HARNESS_TOOL_ROOT names now, else the kit's workspace/
    (harness_lib.tools.DEFAULT_ROOT). The gradebook's judge names its notebook's own copy (grader/judge.py)."""
    return Path(os.environ.get("HARNESS_TOOL_ROOT") or DEFAULT_ROOT)


_RAISED: dict = {}  # name -> the error its defining cell raised, as cell_error() last found it; "\0runs": each cell
# run the post-run hook saw, [(source, error or None)], oldest first (the seal fingerprints this dict by its id only)
# Under the gradebook a check runs in the grading process and the notebook is at the other end of a line
# (grader/judge.py sets this to its view of the notebook): then the notebook's kernel says which cell raised.
LEARNER: contextvars.ContextVar = contextvars.ContextVar("learner", default=None)
_RUNS = "\0runs"


def _on_cell(result) -> None:
    """IPython's post_run_cell: note each cell's source and the error it raised (None when it ran to its end)."""
    try:
        source = result.info.raw_cell if result.info is not None else ""
        err = result.error_before_exec or result.error_in_exec
        runs = _RAISED.setdefault(_RUNS, [])
        runs.append((source or "", _describe(err, source) if isinstance(err, BaseException) else None))
        del runs[:-200]
    except Exception:  # noqa: BLE001 - a hint we cannot give is no hint
        pass


def _watch_cells() -> None:
    """Hook _on_cell into the notebook's IPython (once: a kit imported anew replaces its earlier hook)."""
    try:
        ipython = sys.modules.get("IPython")  # already imported in a notebook's kernel; never imported here
        shell = ipython.get_ipython() if ipython is not None else None
        if shell is None:
            return
        for hook in list(shell.events.callbacks.get("post_run_cell", [])):
            if getattr(hook, "__qualname__", "") == "_on_cell" and getattr(hook, "__module__", "").endswith("kit"):
                shell.events.unregister("post_run_cell", hook)
        shell.events.register("post_run_cell", _on_cell)
    except Exception:  # noqa: BLE001 - outside IPython (the gradebook's judge, a script) there are no cells
        pass


def _describe(err: BaseException, source: str | None = None) -> str:
    """'RuntimeError: boom (line 3)': the error, and the line of the cell it came from."""
    if isinstance(err, SyntaxError):
        return f"{type(err).__name__}: {err.msg}" + (_t("kit.cell_error.line_number", n=err.lineno)
                                                      if err.lineno else "")
    line = cellish = None
    tb = err.__traceback__
    while tb is not None:  # the deepest frame whose file is the cell (a cell's code is cached under its own name)
        filename = tb.tb_frame.f_code.co_filename
        lines = linecache.getlines(filename)
        if lines and source is not None and "".join(lines).strip() == source.strip():
            line = tb.tb_lineno
        elif re.search(r"ipykernel_|<ipython-input", filename):
            cellish = tb.tb_lineno
        tb = tb.tb_next
    line = line or cellish
    return one_line(err) + (_t("kit.cell_error.line_number", n=line) if line else "")


def _defines(name: str):
    return re.compile(rf"^(?:async[ \t]+)?def[ \t]+{re.escape(name)}[ \t]*\(|^{re.escape(name)}[ \t]*=", re.M)


def cell_error(name: str) -> str | None:
    """'RuntimeError: … (line n)' when the last run of the cell that defines `name` (a cell whose source has
    `def name(` or `name =`) raised — whether or not `name` got defined before the error —, else None.

    In a notebook the kit watches every cell's run (IPython's post_run_cell, from the 🔒 cell's import on), so a cell
    fixed and run again no longer counts. Without that record (a cell run before the kit was imported) it falls back
    on IPython's last error (sys.last_value) and the cell's source in linecache; under the grader a failing check
    raises too and becomes the last error, so what was found is remembered for the checks that come after it."""
    notebook = LEARNER.get()
    if notebook is not None:  # judged in the gradebook: only the notebook's kernel has its errors
        return notebook.cell_error(name)
    defines = _defines(name)
    for source, error in reversed(_RAISED.get(_RUNS, [])):
        if defines.search(source):
            return error
    err = getattr(sys, "last_value", None)
    if not isinstance(err, BaseException):
        return _RAISED.get(name)
    files = [err.filename] if isinstance(err, SyntaxError) and err.filename else []
    tb = err.__traceback__
    while tb is not None:
        files.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    if not any(defines.search("".join(linecache.getlines(f))) for f in files if f):
        return _RAISED.get(name)
    found = _describe(err)
    _RAISED[name] = found
    return found


_ERROR_LINE = re.compile(r"^[A-Za-z_][\w.]*: ")  # 'RuntimeError: …': what cell_error gives, never a forged answer


def raised_first(c, ns, *names) -> bool:
    """When the cell that defines one of `names` raised (on its last run) after defining it: the first ✗ says so —
    the error's type, its message and the line —, and the check goes on, every later ✗ following from it (it judges
    a cell that did not run to its end). The first thing a check asks. A name the error left undefined is the
    check's own first ✗ ("... is written and runs", "POLICY is a dict"), whose hint names the same error
    (not_defined_hint). -> False: the check goes on either way."""
    for name in names:
        error = cell_error(name) if name in ns else None
        if isinstance(error, str) and _ERROR_LINE.match(error):
            c.cause(_t("kit.raised.cell_ran_to_its_end", name=name), _t("kit.raised.cell_raised", error=error,
                                                                         name=name))
            return False
    return False


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


# The SDK's message for an error status: "Error code: 400 - {'type': 'error', 'error': {..., 'message': '...'}}".
_STATUS_ERROR = re.compile(r"Error code: (\d{3}) - (\{.*\})", re.S)


def api_said(text: str) -> str:
    """An SDK error's message with the API's own words in place of the body it quotes ("Error code: 400 - <the
    error's message>"); any other text as it is."""
    match = _STATUS_ERROR.fullmatch(text.strip()) if len(text) < 10_000 else None
    if match:
        try:
            body = ast.literal_eval(match.group(2))
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return text
        said = body.get("error", {}).get("message") if isinstance(body, dict) and isinstance(body.get("error"), dict) \
            else None
        if isinstance(said, str) and said.strip():
            return f"Error code: {match.group(1)} - {said.strip()}"
    return text


def api_words(err: BaseException) -> str:
    """The error's message, the API's own words in place of the body an SDK error quotes (:func:`api_said`)."""
    return api_said(str(getattr(err, "message", None) or err))


def one_line(err: BaseException) -> str:
    """The error's first line: the API's own words for an SDK error (whole: they name the cause), else 200
    characters of it."""
    text = api_words(err)
    text = (text.strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {text[:300] if text.startswith('Error code: ') else text[:200]}"


async def bounded(scenario: str, make_run, limit: int = 50, seconds: float | None = None):
    """Run ``make_run(client)`` on a fresh offline client of `scenario`, under harness_ui.practice's bounds: stopped
    once the model has been asked more than `limit` times, or after `seconds` (default practice.SECONDS, 20 s;
    a loop busy in the learner's Python is stopped at its next line). -> run: .result, .problem (None when it ended
    by itself within the bounds, else one line: the error, or which bound stopped it), .client, .requests (how many
    requests the offline API received), .runaway (True when a bound stopped it), .bound (which: "requests" or
    "time"; a hint for a runaway reads it through `runaway_hint`).

    The same bounds as exercise 5's "Try it" (practice.bounded does the bounding); only the line is the checks'."""
    run = SimpleNamespace(result=None, problem=None, client=None, requests=0, runaway=False, bound=None)
    run.client = client = offline(scenario, max_requests=limit)
    try:
        run.result, stopped = await practice.bounded(make_run(client), client, seconds=seconds)
    except Exception as err:
        stopped, run.problem = None, one_line(err)
    run.requests = len(offline_api(client).log)
    if stopped is not None:
        run.runaway, run.bound = True, stopped.bound
        run.problem = (_t("kit.bounded.runaway_past_the_limit", limit=limit) if stopped.bound == "requests" else
                       _t("kit.bounded.runaway_after_seconds", seconds=stopped.limit, n=run.requests))
    return run


def runaway_hint(run, hint: str) -> str:
    """`hint` (the exercise's, for a loop that kept asking the model) when the cap on requests stopped `run`; when the
    time limit did, the kit's: a loop of the learner's own that never ends, whatever it asked the model."""
    if getattr(run, "bound", None) == "time":
        return _t("kit.bounded.busy_hint", n=run.requests)
    return hint


async def one_step(step, seconds: float = 60):
    """Await one tool step of the learner's (exercises 1 and 4 drive it in the checks' own capped loop) under
    practice.bounded's time limit, so a step busy in its own Python ends too: past it, TimeoutError (its hint:
    kit.error_text.run_tool_uses_timed_out)."""
    results, stopped = await practice.bounded(step, seconds=seconds)
    if stopped is not None:
        raise TimeoutError(stopped)
    return results


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
    real = make_tool_impls(tool_root(), clock=_clock)

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
    criteria say it follows from the ✗ above): a call the valve left without its tool_result is named."""
    error = run.error or ""
    if "tool_result" in error or "tool_use" in error or "non-empty content" in error:
        for uses, results in getattr(run, "rounds", []):
            answered = {r.get("tool_use_id") for r in (results if isinstance(results, list) else [])
                        if isinstance(r, dict)}
            missing = [u.name for u in uses if u.id not in answered]
            if missing:  # one cause, whichever call it names: a later ✗ it explains follows from it
                text = (_t("kit.error_text.call_got_no_result", name=missing[0]) if answered else
                        _t("kit.error_text.turn_got_no_result", name=missing[0]))
                return Cause(text, key="a call without its result")
    return _error_text(error)


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


def recording_approver(events: list, answer):
    """The approver the checks pass in: records ("asked", name, input) in `events` when asked. answer: the answer, a
    function (name, input) -> answer, or an exception to raise. A coroutine function, as the lesson's approvers: a
    call that is not awaited asks nobody (what the checks then see: a call decided with no question). Called with
    other arguments than (name, input) it records ("miscalled", ...) and raises the TypeError Python would."""
    async def approve(*args, **kwargs):
        if len(args) != 2 or kwargs:  # asked, but not with (name, input): Python's own words for the mistake
            events.append(("miscalled", repr(args), kwargs))
            raise TypeError("approve() missing 1 required positional argument: 'tool_input'" if len(args) < 2 else
                            f"approve() takes 2 positional arguments but {len(args)} were given")
        name, tool_input = args
        events.append(("asked", name, tool_input))
        if isinstance(answer, BaseException):
            raise answer
        return answer(name, tool_input) if callable(answer) else answer
    return approve


def unasked_hint(name: str, ran: bool) -> str:
    """The hint when an approver was given, the call needs a yes, and nobody was asked in any run of the check: a
    call of approve(...) that is not awaited makes a coroutine and asks nobody — truthy (the call ran) and never
    True (it was refused)."""
    return _t("kit.state.ran_unasked", name=name) if ran else _t("kit.state.refused_unasked", name=name)


def late_bound(seen: list, calls_in_order: list) -> bool:
    """True when every one of several calls was handled with the LAST call's values: a function made in a loop (a
    lambda, an inner def) that reads the loop variable when it runs, after the loop has moved on."""
    return (len(calls_in_order) >= 2 and len(seen) == len(calls_in_order) and calls_in_order[0] != calls_in_order[-1]
            and all(s == calls_in_order[-1] for s in seen))


async def model_texts(res, scenario: str, tools: list) -> set:
    """Every text the model wrote in a stopped run: the history's, and the response the loop stopped at (got again by
    sending the returned history to a fresh client of the same scenario)."""
    texts = {b.text.strip() for m in res.messages if isinstance(m, dict) and m.get("role") == "assistant"
             and isinstance(m.get("content"), list) for b in m["content"] if getattr(b, "type", None) == "text"}
    if res.messages and isinstance(res.messages[-1], dict) and res.messages[-1].get("role") == "user":
        try:
            stop = await offline(scenario).messages.create(model=MODEL, max_tokens=1024, tools=tools,
                                                           messages=res.messages)
            texts.add(final_text(stop).strip())
        except Exception:  # noqa: BLE001 - a history the API refuses: another criterion says so
            pass
    return texts


def says_stop(text, valve: str, limits=()) -> bool:
    """A person reads `text` as "the harness stopped the run, by this valve": it names the valve (its words in
    either language: turn / cap, token / budget, repeat / progress / loop ...), and for the cap and the budget a
    number it stopped at (the limit, or for the budget what was spent), written with or without separators."""
    if not isinstance(text, str) or not text.strip():
        return False
    low = text.lower()
    if not any(word in low for word in _VALVE_WORDS[valve]):
        return False
    if not limits:
        return True
    digits = {re.sub(r"[^0-9]", "", n) for n in re.findall(r"\d[\d,._\u202f\u00a0 ]*\d|\d", text)}
    return any(str(limit) in digits for limit in limits)


_VALVE_WORDS = {  # what names a valve, in English and Spanish (the checks take either: a learner writes their own)
    "max_turns": ("turn", "cap", "max_turns", "turno", "tope", "límite", "limite"),
    "token_budget": ("token", "budget", "presupuesto"),
    "no_progress": ("progress", "repeat", "loop", "cycle", "same", "stuck", "progreso", "repit", "bucle", "ciclo",
                    "mism", "atasc"),
}


def _valve(ns):
    return ns.get("run_tool_uses")


def _digest(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()


_watch_cells()  # the 🔒 cell's import (and the gradebook's first seal) starts watching the cells
