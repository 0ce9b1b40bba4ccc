"""The grader's entry point for the five exercise notebooks: every 🔍 CHECK cell is one call into this module,
`grading.check_x(globals())`. The checks themselves live in exercises/checks/, one module per exercise
(ex01_policy, ex02_guards, ex03_budget and ex03_progress, ex04_gate, ex05_capstone with its gauntlet) on a small
shared kit (checks/kit.py); this file only gathers the names the notebooks, the tests and the gradebook use.

Read them if you like: nothing there is secret, except that the right answers of exercise 2's diagnosis and
exercise 4's statements are stored as SHA-256 digests, so reading the code does not hand you them. Do not edit
them: exercises/checks.lock holds the digest of this file and of every file in checks/, next to the check cells',
and a grade run with a changed one is refused ("GRADE NOT VALID").

How a check works: it drives YOUR code on the offline model (always offline, even with ANTHROPIC_API_KEY set: the
checks need the scripted scenarios), with tools that record every run and an approver that records every
question, then prints one ✓ or ✗ line per criterion, with a hint under each ✗ that follows from what it saw. The
first ✗ of a check names the first cause the check can see; a later ✗ that fails only because of it says "follows
from the ✗ above: fix that first" rather than guess another cause, so no hint points at a line that is right.

- In JupyterLab a check only prints: a ✗ does not raise, so Run All always reaches every check cell (the ✏️ cells
  are tagged `raises-exception`: an error in the learner's own cell does not stop Run All either, and a check
  whose function is missing because its cell raised says so: "your cell raised SyntaxError: …").
- Under the grader (`pytest --nbval-lax <notebook>`; exercises/conftest.py sets HARNESS_GRADING=1, which the
  notebook's kernel inherits) a check with a ✗ raises a short AssertionError, and the grade fails.

What it does NOT do: judge style, read your code, or call live Claude. A loop that never stops is cut off after a
fixed number of model requests, or after 20 s (a loop busy in your own Python code is stopped at its next line:
harness_ui/practice.py, the same bounds as the practice runs'); a run_tool_uses that hangs is cut off after 60 s.

Language: every check prints in the notebook's language (harness_kit.lang, which the first code cell sets):
English, or Spanish for the twins in exercises/es/. Each line is written once, by message id, in both languages
(the catalogues checks/words_*.py, read by checks.kit._t through harness_kit.lang.say). What a
check quotes stays as it was written: code (POLICY['send_email'] == 'deny'), an exception's text, the API's
errors, and the "hint:" label of the grader's summary. A check's verdict also reaches the grader as data
(checks/verdict.py): no grader reads the printed lines.
"""

from __future__ import annotations

# Every name the notebooks (the check cells, exercise 2's runs), the tests and the gradebook use:
if __package__:  # exercises.grading, imported from the repository's root
    from .checks.ex01_policy import (check_allow, check_ask, check_default_tier, check_deny, check_parallel,
                                     check_policy)
    from .checks.ex02_guards import check_diagnosis, check_model_answer, check_turn_cap
    from .checks.ex03_budget import cached_tools, check_budget, check_tokens, usages_of
    from .checks.ex03_progress import check_cycle, check_progress, check_signature
    from .checks.ex04_gate import check_fail_closed, check_gate, check_parallel_gate, check_why_wrong
    from .checks.ex05_capstone import (check_harness_gate, check_harness_loop, check_harness_policy,
                                       check_harness_valves)
    from .checks.kit import LEARNER, MESSAGES, VERDICTS, Checks, _t, bounded, cell_error, offline, one_line
else:  # grading, as a notebook's 🔒 cell imports it (with exercises/ on sys.path)
    from checks.ex01_policy import (check_allow, check_ask, check_default_tier, check_deny, check_parallel,
                                    check_policy)
    from checks.ex02_guards import check_diagnosis, check_model_answer, check_turn_cap
    from checks.ex03_budget import cached_tools, check_budget, check_tokens, usages_of
    from checks.ex03_progress import check_cycle, check_progress, check_signature
    from checks.ex04_gate import check_fail_closed, check_gate, check_parallel_gate, check_why_wrong
    from checks.ex05_capstone import (check_harness_gate, check_harness_loop, check_harness_policy,
                                      check_harness_valves)
    from checks.kit import LEARNER, MESSAGES, VERDICTS, Checks, _t, bounded, cell_error, offline, one_line

__all__ = ["Checks", "offline", "bounded", "one_line"]
