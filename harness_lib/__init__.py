"""harness_lib: the book a learner reads, one lesson concept per module: client, model, loop, valves, tools,
sandbox, approval, trace (docs/architecture.md). `python -m harness_lib "task"` is the terminal agent (__main__.py).
The kit around the book: harness_kit below it, harness_ui above it."""

from .approval import REJECTED_MESSAGE, scripted_approver, terminal_approver
from .client import MODEL, is_live, make_client
from .loop import AgentResult, final_text, run_agent, run_tool_uses, tool_result
from .tools import DEFAULT_ROOT, HIGH_IMPACT, TOOLS, make_tool_impls, run_tool
from .trace import Transcript
from .valves import find_cycle, signature_of, tokens_of

__all__ = [
    "MODEL", "is_live", "make_client",
    "AgentResult", "final_text", "run_agent", "run_tool_uses", "tool_result",
    "find_cycle", "signature_of", "tokens_of",
    "DEFAULT_ROOT", "HIGH_IMPACT", "TOOLS", "make_tool_impls", "run_tool",
    "REJECTED_MESSAGE", "scripted_approver", "terminal_approver",
    "Transcript",
]
