"""The terminal agent: the lesson's `node agent.js "..."`, in Python.

    python -m harness_lib "Read the first line of README.md, then tell me what time it is"

Offline by default (no API key needed); with ANTHROPIC_API_KEY set it talks to Claude.
Exit status: 0 the model ended its turn, 3 a valve stopped it, 1 an error or a cut-short response.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

import anthropic

from .approval import terminal_approver
from .client import MODEL, is_live, make_client
from .loop import run_agent
from .offline import SCENARIOS
from .tools import DEFAULT_ROOT, TOOLS, make_tool_impls
from .trace import Transcript

LESSON_TASK = "Read the first line of README.md, then tell me what time it is"
VALVE_STOPS = {"max_turns", "token_budget", "no_progress"}


async def _always(answer: bool, name: str, tool_input: dict) -> bool:
    print(f"[approve] {name} -> {'approved' if answer else 'rejected'} (--approve {'yes' if answer else 'no'})")
    return answer


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m harness_lib", description=__doc__.split("\n\n")[0])
    p.add_argument("task", nargs="?", default=LESSON_TASK, help="what to ask the agent (default: the lesson's task)")
    p.add_argument("--scenario", choices=sorted(SCENARIOS), help="offline model behaviour (default: demo)")
    p.add_argument("--max-turns", type=int, default=8, help="valve 1: the turn cap (default 8)")
    p.add_argument("--token-budget", type=int, default=40_000, help="valve 2: the token budget (default 40000)")
    p.add_argument("--approve", choices=["ask", "yes", "no"], default="ask",
                   help="valve 4: ask at the terminal, or approve / reject every high-impact action")
    p.add_argument("--root", default=str(DEFAULT_ROOT), help="the folder the tools may read (default: workspace/)")
    p.add_argument("--transcript", help="also write every event to this JSONL file")
    p.add_argument("--offline", action="store_true", help="use the offline model even if ANTHROPIC_API_KEY is set")
    p.add_argument("--model", default=MODEL, help=f"model id (default {MODEL})")
    return p.parse_args(argv)


async def main_async(args: argparse.Namespace) -> int:
    if args.offline:
        os.environ["HARNESS_OFFLINE"] = "1"
    approve = terminal_approver if args.approve == "ask" else (
        lambda name, tool_input: _always(args.approve == "yes", name, tool_input))
    transcript = Transcript(args.transcript)
    try:
        client = make_client(scenario=args.scenario)
        print(f"[{'live: ' + args.model if is_live() else 'offline model'}] {args.task}")
        result = await run_agent(client, args.task, TOOLS, make_tool_impls(args.root), model=args.model,
                                 max_turns=args.max_turns, token_budget=args.token_budget,
                                 approve=approve, on_event=transcript)
    except anthropic.APIStatusError as err:
        print(f"error: the API answered {err.status_code}: {err.message}", file=sys.stderr)
        return 1
    except anthropic.APIConnectionError as err:
        print(f"error: could not reach the API: {err}", file=sys.stderr)
        return 1
    finally:
        transcript.close()
    if result.stopped_by in ("end_turn", "stop_sequence"):
        return 0
    return 3 if result.stopped_by in VALVE_STOPS else 1


def main(argv: list[str] | None = None) -> int:
    try:
        return asyncio.run(main_async(parse_args(argv)))
    except ValueError as err:  # e.g. an unknown scenario name from HARNESS_SCENARIO
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
