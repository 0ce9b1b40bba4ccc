"""The test suite under mutmut (a pytest plugin; tests/conftest.py loads it): docs/development.md, "Mutation testing".

mutmut runs the behaviour tests of the textbook once per mutant, in a copy of the kit (mutants/, git-ignored), with
MUTANT_UNDER_TEST set. Those runs test the library in-process only: they need neither the session's warm kernel
server nor its check that the work tree is left as found (a copy in mutants/, while git sees the kit's own tree,
which people may be editing meanwhile; a change there must not count as a killed mutant). Both are set up by
tests/conftest.py's pytest_configure, which skips them in a pytest started by a test session (KIT_TEST_SESSION
set): every mutmut run is made one. The tools' root (HARNESS_TOOL_ROOT, which that session would point at a copy
of workspace/) is the copy's own workspace/: mutants/ is a throwaway copy of the kit already.

Not loaded by a learner's grading run, and nothing here happens outside mutmut.
"""

import os
import tempfile
from pathlib import Path

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if "MUTANT_UNDER_TEST" in os.environ and "KIT_TEST_SESSION" not in os.environ:
        os.environ["KIT_TEST_SESSION"] = tempfile.gettempdir()  # no kernel server, no clean-tree check
        os.environ.setdefault("HARNESS_TOOL_ROOT", str(Path(__file__).resolve().parent.parent / "workspace"))
