"""Exercise 5's blind round (tests/test_capstone.py): answers written blind to the checks, each with the first ✗ it
must get (right answers: none).

A helper that had not read the checks (only the starter, the lessons and harness_lib/) wrote them from the task
text: 37 wrong answers (01-35 one mistake each in its own right answer 38; 36-37 in other styles) and 7 right
answers in other styles, each with the mistake it planted and the cause it expected the first ✗ to name. They were
graded with the learner's command before the checks changed for them (5 wrong answers passed: the assistant
message without its text, a valve's text the model's, the tools offered cut down, the approver asked with a JSON
string, a turn's answers kept by tool name; of the 32 that failed, 4 opened with a ✗ that did not name the cause
and 7 had a later ✗ that named another without saying it follows); every one is kept here as written:
tests/capstone_blind/<case>.txt holds the learner's two ✏️ cells (`policy`, `run-agent`).

BLIND: case -> None (right: PASSES every check) or (check cell, the first ✗'s line starts with, its hint holds,
the mistake planted). A first ✗ whose scenario depends on what ran before in the kernel (state that outlives a
run) is given by its check and hint only (line "✗ ").
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "capstone_blind"

LOOP, VALVES, GATE = "check-loop", "check-valves", "check-gate"
PARALLEL = "✗ parallel calls, one refused"
BLIND = {
    "01_wrong_cap_off_by_one": (VALVES, "✗ runaway, max_turns=5", "your cap let turn 6 run", "turns > max_turns"),
    "02_wrong_cap_after_tools": (VALVES, "✗ runaway, max_turns=5", "check the cap before a turn is taken",
                                 "the cap checked after a turn's tools ran"),
    "03_wrong_pause_not_counted": (VALVES, "✗ pause_turn twice", "a pause_turn continuation is a turn of the cap",
                                   "a pause continuation not counted"),
    "04_wrong_pause_ends_run": (LOOP, "✗ pause_turn", "does not go on after pause_turn", "pause_turn ends the run"),
    "05_wrong_budget_input_output_only": (VALVES, "✗ token hog, the tools cached",
                                          "leaves cache_creation_input_tokens, cache_read_input_tokens uncounted",
                                          "the budget adds input and output tokens only"),
    "06_wrong_budget_strict_greater": (VALVES, "✗ token hog, token_budget=", "reached is spent", "spent > budget"),
    "07_wrong_budget_counted_late": (VALVES, "✗ token hog, token_budget=20,000", "one request late",
                                     "a response's tokens added just before the next request"),
    "08_wrong_budget_before_cap": (VALVES, "✗ token hog, max_turns=3", "'max_turns' comes first",
                                   "the budget asked before the cap"),
    "09_wrong_noprog_after_run": (VALVES, "✗ ping-pong", "acts after the repeating turn's tools ran",
                                  "no progress checked after the turn's tools ran"),
    "10_wrong_noprog_period1_only": (VALVES, "✗ ping-pong", "did not see the cycle of 2 turn(s)",
                                     "no progress sees a period of 1 only"),
    "11_wrong_noprog_seen_anywhere": (VALVES, "✗ ping-pong", "before any cycle had repeated twice",
                                      "a signature seen anywhere earlier is no progress"),
    "12_wrong_noprog_names_only": (LOOP, "✗ plain task", "a signature is the calls' names AND inputs",
                                   "the signature of tool names only"),
    "13_wrong_noprog_order_sensitive": (VALVES, "✗ the same two reads every turn", "in any order (sort them)",
                                        "the signature in call order"),
    "14_wrong_budget_after_noprog": (VALVES, "✗ ping-pong, token_budget=", "'token_budget' comes first",
                                     "the budget asked after no progress"),
    "15_wrong_gate_truthy_answer": (GATE, "✗ an approver that answers 'yes'", "only True approves",
                                    "a truthy answer approves"),
    "16_wrong_gate_no_approver_runs": (GATE, "✗ no approver", "with no approver, an 'ask' call is refused",
                                       "no approver runs an 'ask' call"),
    "17_wrong_gate_approver_exception_escapes": (GATE, "✗ an approver that raises", "a broken gate is a closed gate",
                                                 "the approver's exception not caught"),
    "18_wrong_gate_interleaved": (GATE, "✗ a parallel turn with two questions", "decide every call of the turn first",
                                  "each call asked, then run, before the next is asked"),
    "19_wrong_deny_asks_person": (LOOP, "✗ a call of a tool that does not exist", "as your 'deny' calls do",
                                  "'deny' put to the approver like 'ask'"),
    "20_wrong_unknown_tool_allowed": (GATE, "✗ a policy that leaves delete_message out",
                                      "a name the policy does not list is denied", "an unlisted name is 'allow'"),
    "21_wrong_global_policy": (GATE, "✗ a policy passed in", "decide with the `policy` argument",
                               "the global POLICY, not the argument"),
    "22_wrong_one_message_per_result": (LOOP, PARALLEL, "went in separate user messages, and the API refused the "
                                        "request: BadRequestError: Error code: 400", "one user message per result"),
    "23_wrong_refused_results_last": (LOOP, PARALLEL, "out of order", "the refused calls' results last"),
    "24_wrong_refused_not_is_error": (LOOP, PARALLEL, "must say is_error: true", "a refusal without is_error"),
    "25_wrong_tools_called_directly": (LOOP, "✗ a tool that raises", "run tools through arun_tool",
                                       "tools called from tool_impls, not arun_tool"),
    "26_wrong_loop_on_tool_blocks": (LOOP, "✗ a response cut at max_tokens", "Only 'tool_use' (and 'pause_turn') go "
                                     "round the loop", "the loop goes round on tool_use blocks, not stop_reason"),
    "27_wrong_assistant_calls_only": (LOOP, "✗ every request offers the tools given",
                                      "is not its content as it came", "the assistant message without its text"),
    "28_wrong_approve_not_awaited": (LOOP, "✗ plain task", "approve(...) without `await`", "approve not awaited"),
    "29_wrong_valve_text_is_model_text": (VALVES, "✗ runaway, max_turns=5", "in a sentence of your own",
                                          "a valve's text is the model's"),
    "30_wrong_offers_only_allowed_tools": (LOOP, "✗ every request offers the tools given", "pass tools=tools as given",
                                           "the model offered only the tools not denied"),
    "31_wrong_text_first_block": (LOOP, "✗ a refusal", "read blocks by their type", "text = content[0].text"),
    "32_wrong_always_end_turn": (LOOP, "✗ a response cut at max_tokens", "return stopped_by 'max_tokens' here",
                                 "stopped_by always 'end_turn'"),
    "33_wrong_signatures_mutable_default": (VALVES, "✗ each run starts afresh", "outlives a run",
                                            "the signatures a mutable default argument"),
    "34_wrong_approval_remembered": (GATE, "✗ each run starts afresh", "a yes from an earlier run was reused",
                                     "a yes remembered per tool name"),
    "35_wrong_approve_input_as_string": (GATE, "✗ send_reply with a yes", "pass the call's own name and input",
                                         "the approver asked with a JSON string"),
    "36_wrong_class_state_shared": (LOOP, "✗ ", "its count did not start afresh",
                                    "the counters on one object made at import"),
    "37_wrong_decisions_by_name": (GATE, "✗ a parallel turn with two reads asked", "by its own answer",
                                   "a turn's answers kept by tool name"),
    "38_right_closures": None,
    "39_right_class_based": None,  # one-word reasons, one refusal text for 'deny' and a no
    "40_right_functional": None,  # a turn's tools run with asyncio.gather after the gate
    "41_right_match_strict_policy": None,  # delete_message 'deny'
    "42_right_counter_signature": None,  # a turn's signature a Counter of (name, input)
    "43_right_concurrent_gate": None,  # a turn's questions asked at once (asyncio.gather), before any tool runs
    "44_right_dispatch_archive_allowed": None,  # archive_message 'allow'
}

# The answers whose later checks had an unmarked ✗ (or none with it) before the checks learned to follow it: their
# four checks all run, and hold one cause between them (tests/test_capstone.py's ONE_CAUSE); every other answer runs
# the check of its first ✗ only (the round's whole grade, every check of all 44, was read once by hand).
ACROSS = ["04_wrong_pause_ends_run", "09_wrong_noprog_after_run", "10_wrong_noprog_period1_only",
          "11_wrong_noprog_seen_anywhere", "19_wrong_deny_asks_person", "28_wrong_approve_not_awaited",
          "30_wrong_offers_only_allowed_tools", "36_wrong_class_state_shared"]


def cells(case: str) -> dict:
    """{cell id: its source} of the answer's two ✏️ cells, as written."""
    text = (FOLDER / f"{case}.txt").read_text(encoding="utf-8")
    policy, run_agent = text.removeprefix("# ---- policy ----\n").split("# ---- run-agent ----\n")
    return {"policy": policy, "run-agent": run_agent}


assert sorted(BLIND) == sorted(p.stem for p in FOLDER.glob("*.txt")), "every answer has its verdict"
