"""The kit around the book: plumbing that the textbook (harness_lib) and the teacher's grader both use.

It imports nothing at import time (no SDK, no widgets), so the grader and any tool can import one of its modules
for the price of that module alone. Today it holds two modules:

    shown     visible(), visible_text(), one_word(), exact(), show_call()
              the kit's one rule for every text a person reads (docs/architecture.md, "The one rule")
    practice  bounded()
              every run of a learner's code (a "try it" cell, a check) under a cap on requests and a time limit
"""
