"""The teacher's grader: grade a class's notebooks (gradebook), each in its own worker and sandbox, every check
judged outside the learner's kernel (judge), and what a person opens (report). A learner's exercises do not need
it: exercises/ holds the checks; this package imports from there, never back. The Classroom template ships it (the
workflow grades in the learner's copy); a graded kernel sees of it only the judge's line: this file, wire.py and
defendant.py, the kernel's side (grader/sandbox.py's LEARNER_FILES)."""
