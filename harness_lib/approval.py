"""Valve 4, the human side: the approver contract, and its terminal and scripted approvers.

An approver is `async def approve(name: str, tool_input: dict) -> bool`; only True means "run it", and every
approver here fails closed (no answer, an unclear answer, an interrupt = no). The buttons (widget_approver) are
harness_ui.widget's, built on this module. Contract and wording: docs/architecture.md, "approval.py".

NOT handled: who the person is, remembering a decision ("always allow"), editing the action before approving it,
look-alike letters outside a `path` or `url` field; the terminal has no timeout.
"""

from __future__ import annotations

import asyncio
import unicodedata

from harness_kit import lang
from harness_kit.console import read_line, stdin_is_a_terminal
from harness_kit.shown import show_call
from harness_kit.words import in_short
from .loop import REJECTED_MESSAGE  # noqa: F401 - the loop's words after a no; the exercises import it from here


class ApprovalInterrupted(asyncio.CancelledError):
    """The run was stopped (Stop, Ctrl-C) while an approval was pending: not approved, and the run ends. A
    CancelledError, so the loop's `except Exception` lets it through; IPython shows only its decision line."""

    def _render_traceback_(self) -> list[str]:  # IPython's hook: what to show instead of a traceback
        return [str(self)]


def describe(name: str, tool_input: dict) -> str:
    """The pending action as one line of compact JSON, shown by the kit's one rule (harness_kit.shown)."""
    return show_call(name, tool_input)


LONG_ACTION = 300  # characters: a longer action is named again in short, next to the question


def question(name: str, tool_input: dict) -> str:
    """What the person is asked about: describe(), and for an action over LONG_ACTION characters, in_short too."""
    action = describe(name, tool_input)
    if len(action) <= LONG_ACTION:
        return action
    return lang.text("approve.long", action=action, short=in_short(name, tool_input))


def decision_line(action: str, key: str, **values) -> str:
    """``[approve] write_file({...}) → rejected``: the one line that states a decision, in the current language."""
    return lang.text("approve.decision", action=action, outcome=lang.text(key, **values))


async def ask_in_text(action: str, *, terminal: bool) -> bool:
    """Ask `[y/N]` on stdin and print one decision line (the terminal, and old kernels' fallback)."""
    try:  # input() shows the prompt: on the terminal, or in a notebook's text box
        answer = await read_line(lang.text("approve.prompt", action=action))
    except (asyncio.CancelledError, KeyboardInterrupt):  # Ctrl-C / Stop while the prompt waits
        line = decision_line(action, "approve.interrupted")
        if terminal:
            print(f"\n{line}", flush=True)
        raise ApprovalInterrupted(line) from None
    except EOFError:
        print("\n" + decision_line(action, "approve.eof"))
        return False
    except Exception as err:  # stdin closed or missing, or a kernel that cannot read a line
        print("\n" + decision_line(action, "approve.no_input", error=type(err).__name__))
        return False
    said = unicodedata.normalize("NFC", answer.strip().lower())  # "sí" typed as s + a combining accent too
    new_line = "\n" if terminal and not stdin_is_a_terminal() else ""
    if said in lang.yes_answers():
        print(new_line + decision_line(action, "approve.approved"))
        return True
    if said in lang.no_answers():
        print(new_line + decision_line(action, "approve.rejected"))
    else:
        print(new_line + decision_line(action, "approve.unclear", answer=repr(answer.strip())))
    return False


async def terminal_approver(name: str, tool_input: dict) -> bool:
    """Ask on the terminal, `... allow it? [y/N]`: only `y` / `yes` approves; Enter, any other answer, end of
    input and Ctrl-C do not (Ctrl-C raises ApprovalInterrupted)."""
    return await ask_in_text(question(name, tool_input), terminal=True)


def scripted_approver(decisions):
    """An approver that answers from `decisions` (a list of bools), in order, and records each question in
    `.asked`; asked once too often, it raises RuntimeError."""
    remaining = list(decisions)

    async def approve(name: str, tool_input: dict) -> bool:
        approve.asked.append((name, tool_input))
        if not remaining:
            raise RuntimeError(
                f"scripted_approver ran out of decisions: question {len(approve.asked)} "
                f"({describe(name, tool_input)}) but only {len(decisions)} decision(s) were given"
            )
        return remaining.pop(0)

    approve.asked = []
    return approve
