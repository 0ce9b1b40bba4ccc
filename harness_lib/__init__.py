"""harness_lib: the small shared library of the agent-harness teaching kit.

One lesson concept per module (see docs/architecture.md):

    client    make_client(), MODEL       the real anthropic SDK, live or backed by the offline model
    loop      run_bare(), run_agent()    the stop_reason loop, bare and with its four valves
    valves    tokens_of(), signature_of(), find_cycle()
    tools     TOOLS, make_tool_impls()   the toy tools, sandboxed
    approval  terminal_approver, widget_approver, scripted_approver
    trace     Transcript                 the printed transcript and its JSONL record
"""

from .approval import REJECTED_MESSAGE, scripted_approver, terminal_approver, widget_approver
from .client import MODEL, is_live, make_client
from .loop import AgentResult, final_text, run_agent, run_bare, run_tool_uses, tool_result
from .tools import DEFAULT_ROOT, HIGH_IMPACT, TOOLS, make_tool_impls, run_tool
from .trace import Transcript
from .valves import find_cycle, signature_of, tokens_of

__all__ = [
    "MODEL", "is_live", "make_client",
    "AgentResult", "final_text", "run_agent", "run_bare", "run_tool_uses", "tool_result",
    "find_cycle", "signature_of", "tokens_of",
    "DEFAULT_ROOT", "HIGH_IMPACT", "TOOLS", "make_tool_impls", "run_tool",
    "REJECTED_MESSAGE", "scripted_approver", "terminal_approver", "widget_approver",
    "Transcript",
]
