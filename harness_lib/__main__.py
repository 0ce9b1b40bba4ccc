"""The terminal agent: give it a task in plain words, and it works on the folder you start it in.

    cd workspace
    python -m harness_lib "Read the first line of README.md, then tell me what time it is"

It is the kit's reference loop (`run_agent`, four valves) with the toy tools. read_file sees the folder
given by `--root` (default: the current folder); write_file and delete_file touch only its scratch/
subfolder, and only after a person says yes. Offline by default (no API key needed); with
ANTHROPIC_API_KEY set it talks to Claude.

Where the task comes from: the argument; `-` (or no argument while stdin is piped) reads it from stdin;
`--task-file FILE` reads a file. An empty task is a usage error. With no task at a terminal it runs the
lesson's task. The task is sent in full; the echo line shows at most its first 200 characters.

Exit status: 0 the model ended its turn; 3 a valve stopped it; 1 an error, a cut-short response, or
output that cannot be written (stdout closed or full, the transcript's disk full), each with one line on
stderr; 2 a usage error (also a task longer than TASK_LIMIT characters); 130 interrupted (Ctrl-C).

What it prints is shown by the kit's one escaping rule (harness_lib.trace.visible): the task's echo, every
transcript line, the model's answer and an API error message, so no escape code from a model, a file it quotes or
an endpoint moves the cursor, erases a line or colours the terminal. After the answer, one `[record]` line per
high-impact call says what became of it (run, refused, failed), from the run's events: the last lines on the
screen tell what was written, whatever the answer says.

Language: `--lang es` (or HARNESS_LANG=es) prints its lines, help and usage errors in Spanish, and with no
task at a terminal it runs the lesson's task in Spanish. `--lang` wins over HARNESS_LANG, for this run only
(see harness_kit.lang for what stays English).

Not handled: when the task comes from stdin, `--approve ask` has no terminal left to read its answer
from, so every high-impact action is rejected (end of input means "no"); use `--approve yes|no`.
The task is read up to TASK_LIMIT characters (an endless file such as /dev/zero stops there): the
limit is not the model's, which may refuse a shorter task that does not fit. Ctrl-C during the first
second or two, while Python is still importing the SDK, shows Python's own traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import traceback
from pathlib import Path

import anthropic

from harness_kit import lang
from harness_kit.offline import SCENARIOS
from harness_kit.shown import one_word, visible_text
from .approval import terminal_approver
from .client import MODEL, is_live, make_client
from .loop import run_agent
from .tools import SCRATCH, TOOLS, make_tool_impls
from .trace import Transcript

LESSON_TASK = lang.MESSAGES["en"]["cli.lesson_task"]  # "Read the first line of README.md, then tell me ..."
VALVE_STOPS = {"max_turns", "token_budget", "no_progress"}
ECHO_LIMIT = 200  # the echo line shows at most this many characters of the task
TASK_LIMIT = 1_000_000  # characters: more than a model's context window holds; a longer task is a usage error


class Unwritable(Exception):
    """stdout or the transcript file cannot be written (closed, disk full): the run cannot go on."""


def say(line: str = "") -> None:
    """print() a line to stdout; a stdout that fails (closed, on a full disk) raises Unwritable.

    From then on stdout goes to /dev/null, so that Python's last flush at exit has nowhere to fail
    (it would print "Exception ignored" and exit with status 120).
    """
    global stdout_failed
    try:
        print(line)
    except BrokenPipeError:
        raise  # the reader left (`| head -1`): main() ends quietly
    except OSError as err:
        _drop_stdout()
        stdout_failed = lang.text("cli.stdout_unwritable", error=err.strerror or err)
        raise Unwritable(stdout_failed) from None


stdout_failed: str | None = None  # why stdout failed in this run, if it has (even where Unwritable was caught)


def _drop_stdout() -> None:
    """Point stdout's file descriptor at /dev/null (what is still buffered is then written there)."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        pass


def _number(n: int) -> str:
    """1,000,000 in English; 1 000 000 in Spanish."""
    return f"{n:,}".replace(",", " " if lang.current() == "es" else ",")


async def _always(answer: bool, name: str, tool_input: dict) -> bool:
    outcome = lang.text("approve.approved" if answer else "approve.rejected")
    say(lang.text("cli.always", name=one_word(name), outcome=outcome, flag="yes" if answer else "no"))
    return answer


def _at_least(low: int):
    """An argparse type: a whole number >= low. A bad value is a usage error (exit 2)."""
    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(lang.text("cli.not_a_number", text=text)) from None
        if value < low:
            raise argparse.ArgumentTypeError(lang.text("cli.too_small", low=low, value=value))
        return value
    return number


def lang_option(argv: list[str] | None) -> str | None:
    """The value of `--lang` in `argv` (also `--lang=es`, `--la es`), if it is one of lang.LANGUAGES; else None.

    Read before the real parse, so that `--help` and the usage errors are already in that language. A
    bad value is left to the real parse, which rejects it with a usage error.
    """
    argv = sys.argv[1:] if argv is None else argv
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if len(name) >= 3 and "--lang".startswith(name):
            value = value if equals else (argv[i + 1] if i + 1 < len(argv) else "")
            return value if value in lang.LANGUAGES else None
    return None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with the task resolved: `args.task` is the full task text, never empty."""
    with lang.using(lang_option(argv)):  # help, usage errors and the default task in the run's language
        p = argparse.ArgumentParser(
            prog="python -m harness_lib", usage="%(prog)s [options] [TASK | -]",
            formatter_class=argparse.RawDescriptionHelpFormatter,
            description=lang.text("cli.description"),
            epilog=lang.text("cli.notes", lesson_task=lang.text("cli.lesson_task"), limit=_number(TASK_LIMIT)))
        p.add_argument("task", nargs="?", metavar="TASK", help=lang.text("cli.help.task"))
        p.add_argument("--task-file", metavar="FILE", help=lang.text("cli.help.task_file"))
        p.add_argument("--root", default=".", metavar="DIR", help=lang.text("cli.help.root"))
        p.add_argument("--approve", choices=["ask", "yes", "no"], default="ask", help=lang.text("cli.help.approve"))
        p.add_argument("--max-turns", type=_at_least(0), default=8, metavar="N", help=lang.text("cli.help.max_turns"))
        p.add_argument("--token-budget", type=_at_least(1), default=40_000, metavar="N",
                       help=lang.text("cli.help.token_budget"))
        p.add_argument("--transcript", metavar="FILE", help=lang.text("cli.help.transcript"))
        p.add_argument("--scenario", choices=sorted(SCENARIOS), metavar="NAME",
                       help=lang.text("cli.help.scenario", names=", ".join(sorted(SCENARIOS))))
        p.add_argument("--offline", action="store_true", help=lang.text("cli.help.offline"))
        p.add_argument("--model", default=MODEL, metavar="ID", help=lang.text("cli.help.model", model=MODEL))
        p.add_argument("--lang", choices=lang.LANGUAGES, help=lang.text("cli.help.lang"))
        args = p.parse_args(argv)
        args.task = _read_task(p, args)
    return args


def _read_task(p: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    def usage_error(message: str):  # one line, exit status 2
        p.exit(2, f"{p.prog}: error: {message}\n")

    if args.task_file is not None and args.task is not None:
        usage_error(lang.text("cli.both_tasks"))
    from_stdin = args.task_file is None and (
        args.task == "-" or (args.task is None and sys.stdin is not None and not sys.stdin.isatty()))
    if args.task_file is not None:
        source = lang.text("cli.task_file", file=args.task_file)
    elif from_stdin:
        source = lang.text("cli.task_stdin")
    elif args.task is None:
        return lang.text("cli.lesson_task")  # LESSON_TASK, in the run's language
    else:
        source = lang.text("cli.task_given")
    try:  # at most one character more than the limit: an endless file (/dev/zero) stops there
        if args.task_file is not None:
            with open(args.task_file, encoding="utf-8") as file:
                task = file.read(TASK_LIMIT + 1)
        elif from_stdin:
            task = sys.stdin.read(TASK_LIMIT + 1) if sys.stdin is not None else ""  # `<&-`: no stdin at all
        else:
            task = args.task
        task.encode("utf-8")  # stdin and arguments may carry undecodable bytes as surrogates
    except (UnicodeDecodeError, UnicodeEncodeError):
        usage_error(lang.text("cli.not_utf8", source=source))
    except OSError as err:
        usage_error(lang.text("cli.unreadable", file=args.task_file, error=err.strerror or err))
    if len(task) > TASK_LIMIT:
        usage_error(lang.text("cli.task_too_long", source=source, limit=_number(TASK_LIMIT)))
    task = task.strip()  # e.g. the newline `echo` adds
    if not task:
        usage_error(lang.text("cli.empty_task", source=source, example=lang.text("cli.example_task")))
    return task


def echo(task: str, limit: int = ECHO_LIMIT) -> str:
    """The task as one short line, shown by the kit's one rule (trace.visible_text): a long or multi-line
    task is cut, and says how long it was; no escape code reaches the terminal."""
    first = task.split("\n", 1)[0]
    shown = visible_text(first[:limit], lines=False)
    return shown if first == task and len(task) <= limit else lang.text("cli.long_task", shown=shown, length=len(task))


def tools_line(root: Path, approve: str) -> str:
    """`[tools] read: <root> · write/delete (with approval): <root>/scratch`: the folders by the rule for a name
    (`one_word`: a hidden or look-alike character as its code; é in a folder's name stays é), written with / on
    every OS (a \\ would be shown doubled)."""
    return lang.text("cli.tools", root=one_word(root.as_posix()), how=lang.text(f"cli.how.{approve}"),
                     scratch=one_word((root / SCRATCH).as_posix()))


async def main_async(args: argparse.Namespace) -> int:
    """Run one task (args from `parse_args`) and return the exit status. Errors: one line on stderr.

    `args.lang` (`--lang`), when given, is the language of this run only (lang.using)."""
    with lang.using(getattr(args, "lang", None)):
        return await _run(args)


async def _run(args: argparse.Namespace) -> int:
    """main_async's body, in the run's language."""
    global stdout_failed
    stdout_failed = None
    if args.offline:
        os.environ["HARNESS_OFFLINE"] = "1"
    if sys.stdout is None:  # started with stdout closed (`>&-`): Python leaves sys.stdout None
        return _fail(None, lang.text("cli.stdout_closed"))
    approve = terminal_approver if args.approve == "ask" else (
        lambda name, tool_input: _always(args.approve == "yes", name, tool_input))
    try:  # everything that can be wrong before the first model call: fail now, with one line
        root = _folder(args.root)
        tool_impls = make_tool_impls(root)
        client = make_client(scenario=args.scenario)
        transcript = Transcript(args.transcript, out=say)  # opens (appends to) the file now, if there is one
    except ValueError as err:  # a bad root; an unknown scenario name from HARNESS_SCENARIO
        return _fail(None, str(err))
    except OSError as err:
        return _fail(None, lang.text("cli.transcript_unwritable", path=args.transcript, error=err.strerror or err))

    def on_event(event: dict) -> None:  # the transcript ends with the run's [record] lines (Transcript.account)
        try:
            transcript(event)
        except OSError as err:  # not stdout (say() raises Unwritable for it): the transcript file
            raise Unwritable(lang.text("cli.transcript_unwritable", path=args.transcript,
                                       error=err.strerror or err)) from None

    try:
        say(tools_line(root, args.approve))
        say(f"[{'live: ' + args.model if is_live() else 'offline model'}] {echo(args.task)}")
        result = await run_agent(client, args.task, TOOLS, tool_impls, model=args.model,
                                 max_turns=args.max_turns, token_budget=args.token_budget,
                                 approve=approve, on_event=on_event)
        if stdout_failed:  # raised where the loop caught it (the --approve line: a failed gate), still an error
            raise Unwritable(stdout_failed)
    except Unwritable as err:  # the error event goes to the transcript if that is not what failed
        return _fail(transcript, str(err))
    except anthropic.APIStatusError as err:
        return _fail(transcript, lang.text("cli.api_status", status=err.status_code, message=err.message))
    except anthropic.APIConnectionError as err:
        return _fail(transcript, lang.text("cli.api_connection", error=err))
    except (BrokenPipeError, KeyboardInterrupt, asyncio.CancelledError) as err:
        _record(transcript, {"event": "error",
                             "message": "stdout closed" if isinstance(err, BrokenPipeError) else "interrupted"})
        raise  # main() ends the program for these
    except Exception as err:  # a bug, most likely: one line here, the traceback in the transcript
        return _fail(transcript, f"{type(err).__name__}: {err}", traceback.format_exc())
    finally:
        try:
            transcript.close()
        except OSError:  # every event was flushed as it was written: this failure was already reported
            pass
    if result.stopped_by in ("end_turn", "stop_sequence"):
        return 0
    return 3 if result.stopped_by in VALVE_STOPS else 1


def _folder(path: str) -> Path:
    """--root as an absolute path to an existing folder, else ValueError."""
    try:
        root = Path(path).resolve()
    except (OSError, RuntimeError, ValueError) as err:  # RuntimeError: a symlink loop (Python 3.11)
        raise ValueError(f"--root {path}: {err}") from None
    if not root.is_dir():
        raise ValueError(f"--root {path}: {lang.text('cli.not_a_folder' if root.exists() else 'cli.no_such_folder')}")
    return root


def _fail(transcript: Transcript | None, message: str, details: str | None = None) -> int:
    """One line on stderr (and an error event in the transcript); exit status 1."""
    message = visible_text(" ".join(message.split()), lines=False)  # one line, shown by the kit's one rule
    if transcript is not None:
        _record(transcript, {"event": "error", "message": message, **({"traceback": details} if details else {})})
    try:
        if sys.stderr is not None:  # None: started with `2>&-`
            print(f"error: {message}", file=sys.stderr)
    except OSError:  # stderr on a full disk: the exit status is all that is left
        pass
    return 1


def _record(transcript: Transcript, event: dict) -> None:
    """Add an event to the JSONL file on the way out; a file that fails now (disk full) is let go."""
    try:
        transcript(event)
    except OSError:
        pass


def main(argv: list[str] | None = None) -> int:
    """The program: parse, run, and turn a closed stdout or Ctrl-C into an exit status.

    Ctrl-C ends the process at once (os._exit) once the run is cancelled and the output flushed: a
    thread may still be blocked reading stdin (the approval prompt), and a normal exit would wait for
    it, or fail while tearing down the stdin it holds.
    """
    for stream in (sys.stdout, sys.stderr):  # each line as it happens; an odd character never crashes
        try:
            stream.reconfigure(line_buffering=True, errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    runner = asyncio.Runner()  # not asyncio.run(): its clean-up would wait for that blocked thread
    with lang.using(lang_option(argv)):  # the one line Ctrl-C leaves, worded before anything can go wrong
        interrupted = lang.text("cli.interrupted")
    try:
        status = runner.run(main_async(parse_args(argv)))
        if sys.stdout is not None:
            sys.stdout.flush()  # inside the try: a reader that has gone is handled below
    except BrokenPipeError:  # e.g. `python -m harness_lib | head -1`: the reader left; end quietly
        _drop_stdout()  # so Python's last flush at exit has nowhere to fail
        status = 1
    except OSError as err:  # the last flush of a stdout on a full disk
        _drop_stdout()
        with lang.using(lang_option(argv)):
            status = _fail(None, lang.text("cli.stdout_unwritable", error=err.strerror or err))
    except KeyboardInterrupt:  # the run was cancelled and its transcript closed (see main_async)
        print(("\n" if sys.stderr.isatty() else "") + interrupted, file=sys.stderr)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:
                pass
        os._exit(130)
    runner.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
