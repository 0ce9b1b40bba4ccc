"""The teacher's grader: grade a class's notebooks (gradebook), each in its own worker and sandbox, every check
judged outside the learner's kernel (judge), and what a person opens (report). A learner's exercises do not need
it: exercises/ holds the checks and the kernel's side of the judge; this package imports from there, never back.
The Classroom template ships it (the workflow grades in the learner's copy); a graded kernel never sees it."""
