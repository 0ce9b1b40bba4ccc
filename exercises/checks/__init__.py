"""The exercises' checks, one module per exercise; exercises/grading.py is their one entry point (a 🔍 CHECK cell
calls grading.check_x(globals())).

    kit.py             the shared kit: Checks (✓ / ✗ per criterion), _t (the notebook's language), bounded runs
    ex01_policy.py     exercise 1, the tiered policy
    ex02_guards.py     exercise 2, the missing guards
    ex03_budget.py     exercise 3, the token budget (and the run helpers of its part 2)
    ex03_progress.py   exercise 3, no-progress detection
    ex04_gate.py       exercise 4, the approval gate
    words_*.py         the checks' words, by message id, in English and Spanish: one catalogue per module above
                       (data; kit.py merges them into MESSAGES, and _t("ex02.turn_cap.one_turn_short") reads it)

Imports point one way: words_* <- kit <- exNN <- grading.py. The package is imported as `checks` in a notebook's
kernel (the 🔒 cell puts exercises/ on sys.path) and as `exercises.checks` from the repository's root.
"""
