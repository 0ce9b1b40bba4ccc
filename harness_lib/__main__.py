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

Exit status: 0 the model ended its turn; 3 a valve stopped it; 1 an error or a cut-short response
(one line on stderr); 2 a usage error; 130 interrupted (Ctrl-C).

Not handled: when the task comes from stdin, `--approve ask` has no terminal left to read its answer
from, so every high-impact action is rejected (end of input means "no"); use `--approve yes|no`.
The task is read whole, with no size limit (the API refuses what does not fit). Ctrl-C during the
first second or two, while Python is still importing the SDK, shows Python's own traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import traceback
from pathlib import Path

import anthropic

from .approval import terminal_approver
from .client import MODEL, is_live, make_client
from .loop import run_agent
from .offline import SCENARIOS
from .tools import SCRATCH, TOOLS, make_tool_impls
from .trace import Transcript

LESSON_TASK = "Read the first line of README.md, then tell me what time it is"
VALVE_STOPS = {"max_turns", "token_budget", "no_progress"}
ECHO_LIMIT = 200  # the echo line shows at most this many characters of the task

USAGE_NOTES = f"""\
where the task comes from:
  TASK            the argument, in quotes
  -               read the task from stdin (also when no TASK is given and stdin is piped);
                  then --approve ask finds no answers on stdin and rejects every high-impact action
  --task-file F   read the task from file F (UTF-8)
  nothing         at a terminal: the default task,
                  "{LESSON_TASK}"

exit status:
  0    the model ended its turn
  1    an error (one line on stderr), or the response was cut short (max_tokens, refusal, ...)
  2    a usage error (bad flag, empty task)
  3    a valve stopped the loop (turn cap, token budget, no progress)
  130  interrupted (Ctrl-C)
"""


async def _always(answer: bool, name: str, tool_input: dict) -> bool:
    print(f"[approve] {name} -> {'approved' if answer else 'rejected'} (--approve {'yes' if answer else 'no'})")
    return answer


def _at_least(low: int):
    """An argparse type: a whole number >= low. A bad value is a usage error (exit 2)."""
    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {low} or more, got {value}")
        return value
    return number


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with the task resolved: `args.task` is the full task text, never empty."""
    p = argparse.ArgumentParser(
        prog="python -m harness_lib", usage="%(prog)s [options] [TASK | -]",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="A small AI agent for the terminal. It asks a model to do TASK; the model may call\n"
                    "get_time and read_file (files in --root) and, each time you approve, write_file and\n"
                    "delete_file (only in --root's scratch/ folder). Four valves keep the loop in check:\n"
                    "a turn cap, a token budget, no-progress detection and your approval.\n"
                    "Offline by default (no API key needed); with ANTHROPIC_API_KEY set it talks to Claude.",
        epilog=USAGE_NOTES)
    p.add_argument("task", nargs="?", metavar="TASK", help="what to ask the agent, in plain words ('-': read stdin)")
    p.add_argument("--task-file", metavar="FILE", help="read the task from this file")
    p.add_argument("--root", default=".", metavar="DIR",
                   help="the folder the tools work on (default: . , the current folder)")
    p.add_argument("--approve", choices=["ask", "yes", "no"], default="ask",
                   help="valve 4: ask at the terminal before each high-impact action, or approve (yes) / "
                        "reject (no) all of them (default: ask)")
    p.add_argument("--max-turns", type=_at_least(0), default=8, metavar="N",
                   help="valve 1: the turn cap, tool-calling turns (default: 8)")
    p.add_argument("--token-budget", type=_at_least(1), default=40_000, metavar="N",
                   help="valve 2: the token budget, input + output tokens (default: 40000)")
    p.add_argument("--transcript", metavar="FILE",
                   help="also append every event to this JSONL file (its folder must exist)")
    p.add_argument("--scenario", choices=sorted(SCENARIOS), metavar="NAME",
                   help=f"offline model behaviour (default: demo): {', '.join(sorted(SCENARIOS))}")
    p.add_argument("--offline", action="store_true", help="use the offline model even if ANTHROPIC_API_KEY is set")
    p.add_argument("--model", default=MODEL, metavar="ID", help=f"model id (default: {MODEL})")
    args = p.parse_args(argv)
    args.task = _read_task(p, args)
    return args


def _read_task(p: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    def usage_error(message: str):  # one line, exit status 2
        p.exit(2, f"{p.prog}: error: {message}\n")

    if args.task_file is not None and args.task is not None:
        usage_error("give the task either as TASK or with --task-file, not both")
    if args.task_file is not None:
        source = f"in --task-file {args.task_file}"
    elif args.task == "-" or (args.task is None and sys.stdin is not None and not sys.stdin.isatty()):
        source = "read from stdin"
    elif args.task is None:
        return LESSON_TASK
    else:
        source = "given"
    try:
        if args.task_file is not None:
            task = Path(args.task_file).read_text(encoding="utf-8")
        else:
            task = sys.stdin.read() if source == "read from stdin" else args.task
        task.encode("utf-8")  # stdin and arguments may carry undecodable bytes as surrogates
    except (UnicodeDecodeError, UnicodeEncodeError):
        usage_error(f"the task {source} is not UTF-8 text")
    except OSError as err:
        usage_error(f"cannot read the task from --task-file {args.task_file}: {err.strerror or err}")
    task = task.strip()  # e.g. the newline `echo` adds
    if not task:
        usage_error(f"the task {source} is empty; say what the agent should do, "
                    'e.g. python -m harness_lib "What time is it?"')
    return task


def echo(task: str, limit: int = ECHO_LIMIT) -> str:
    """The task as one short printable line: a long or multi-line task is cut, and says how long it was."""
    first = task.split("\n", 1)[0]
    shown = "".join(c if c.isprintable() else " " for c in first[:limit])  # no escape codes to the terminal
    return shown if first == task and len(task) <= limit else f"{shown}… ({len(task)} characters)"


def tools_line(root: Path, approve: str) -> str:
    """`[tools] read: /abs/root · write/delete (with approval): /abs/root/scratch`."""
    how = {"ask": "with approval", "yes": "approved by --approve yes", "no": "always rejected: --approve no"}
    return f"[tools] read: {root} · write/delete ({how[approve]}): {root / SCRATCH}"


async def main_async(args: argparse.Namespace) -> int:
    """Run one task (args from `parse_args`) and return the exit status. Errors: one line on stderr."""
    if args.offline:
        os.environ["HARNESS_OFFLINE"] = "1"
    approve = terminal_approver if args.approve == "ask" else (
        lambda name, tool_input: _always(args.approve == "yes", name, tool_input))
    try:  # everything that can be wrong before the first model call: fail now, with one line
        root = _folder(args.root)
        tool_impls = make_tool_impls(root)
        client = make_client(scenario=args.scenario)
        transcript = Transcript(args.transcript)  # opens (appends to) the file now, if there is one
    except ValueError as err:  # a bad root; an unknown scenario name from HARNESS_SCENARIO
        return _fail(None, str(err))
    except OSError as err:
        return _fail(None, f"cannot write the transcript {args.transcript}: {err.strerror or err}")

    try:
        print(tools_line(root, args.approve))
        print(f"[{'live: ' + args.model if is_live() else 'offline model'}] {echo(args.task)}")
        result = await run_agent(client, args.task, TOOLS, tool_impls, model=args.model,
                                 max_turns=args.max_turns, token_budget=args.token_budget,
                                 approve=approve, on_event=transcript)
    except anthropic.APIStatusError as err:
        return _fail(transcript, f"the API answered {err.status_code}: {err.message}")
    except anthropic.APIConnectionError as err:
        return _fail(transcript, f"could not reach the API: {err}")
    except (BrokenPipeError, KeyboardInterrupt, asyncio.CancelledError) as err:
        _record(transcript, {"event": "error",
                             "message": "stdout closed" if isinstance(err, BrokenPipeError) else "interrupted"})
        raise  # main() ends the program for these
    except Exception as err:  # a bug, most likely: one line here, the traceback in the transcript
        return _fail(transcript, f"{type(err).__name__}: {err}", traceback.format_exc())
    finally:
        transcript.close()
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
        raise ValueError(f"--root {path}: {'not a folder' if root.exists() else 'no such folder'}")
    return root


def _fail(transcript: Transcript | None, message: str, details: str | None = None) -> int:
    """One line on stderr (and an error event in the transcript); exit status 1."""
    message = " ".join(message.split())  # one line, whatever the error text looked like
    if transcript is not None:
        _record(transcript, {"event": "error", "message": message, **({"traceback": details} if details else {})})
    print(f"error: {message}", file=sys.stderr)
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
    try:
        status = runner.run(main_async(parse_args(argv)))
        sys.stdout.flush()  # inside the try: a reader that has gone is handled below
    except BrokenPipeError:  # e.g. `python -m harness_lib | head -1`: the reader left; end quietly
        # Point stdout at /dev/null, so Python's last flush at exit has nowhere to fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    except KeyboardInterrupt:  # the run was cancelled and its transcript closed (see main_async)
        print(("\n" if sys.stderr.isatty() else "") + "interrupted", file=sys.stderr)
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
