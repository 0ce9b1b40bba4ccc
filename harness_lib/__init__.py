"""harness_lib: the small shared library of the agent-harness teaching kit.

One lesson concept per module (see docs/architecture.md):

    client    make_client(), MODEL        the real anthropic SDK, live or backed by the offline model
    model     MODEL                       which model the kit asks for (HARNESS_MODEL)
    loop      run_bare(), run_agent()     the stop_reason loop, bare and with its four valves
    valves    tokens_of(), signature_of(), find_cycle()
    tools     TOOLS, make_tool_impls()    the toy tools, and run_tool(): where every tool call runs
    sandbox   path_parts(), parent_folder()
                                          how a tool's path is confined to the project root
    approval  terminal_approver, scripted_approver
                                          valve 4's human side: asking, and what a decision reads
    widget    widget_approver             the Approve / Reject buttons in JupyterLab
    trace     Transcript                  the printed transcript and its JSONL record
    mailbox   MAIL_TOOLS, Mailbox         exercise 5's tool set: a small mailbox (some read, some change, one retired)

And the plumbing around them: notebook (a lesson's first cell), lang (English and Spanish), offline (the offline
model), inspector (a run drawn), restart_hint (after a kernel restart, one line: run the cells above), grade_anywhere
(an exercise notebook graded wherever it is saved), replay (a run of the offline model drawn from its record, for a
loop that emits no events).
"""

from .approval import REJECTED_MESSAGE, scripted_approver, terminal_approver
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
    "REJECTED_MESSAGE", "scripted_approver", "terminal_approver",
    "Transcript",
]
