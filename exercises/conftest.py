"""Grading an exercise notebook under exercises/: pytest loads this file for it, and it hands pytest the grader's hooks
(exercises/plugin.py; the lock and the refusal they use: exercises/lock.py). A notebook saved outside the kit's
folder gets the same hooks from exercises/grade_anywhere.py.
"""

from exercises.plugin import (pytest_collect_file, pytest_collection_modifyitems,  # noqa: F401 - pytest's hooks
                              pytest_runtest_logreport, pytest_runtest_makereport, pytest_unconfigure)

if __name__ == "__main__":  # (the lock was rebuilt by running this file once)
    raise SystemExit("exercises/conftest.py is pytest's; rebuild the lock with `python -m exercises.lock`")
