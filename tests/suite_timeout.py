"""A time limit on every test of the suite (a pytest plugin; tests/conftest.py loads it with pytest-timeout).

A test that hangs (an endless loop, a read that never returns) fails after SUITE_TIMEOUT seconds with its own name
and "Failed: Timeout", and the run goes on with the next test; without a limit it would hang `pytest` itself.

The limit counts the whole test: its fixtures' setup, the call and the teardown, so the first browser test (which
starts JupyterLab and Chromium) and the first gradebook test (which grades a class) fit in it too. The longest
took 21 s (Run All on the lessons in the browser, its call) and 18 s (the exercises' solutions graded, its setup) on
their own on the 2-core CI machine (`pytest --durations=25` on the slow files, 2026-12-04); with the rest of the
suite beside them, twice that at most. SUITE_TIMEOUT leaves them about three times their time.

pytest-timeout's signal method (SIGALRM): the test fails and the run goes on, under xdist as in one process.
`pytest --timeout=N` (N = 0: no limit) or `PYTEST_TIMEOUT=N` overrides it, and a test may carry its own
`@pytest.mark.timeout(N)`.

This is the suite's business only: a learner grading an exercise (`pytest --nbval-lax exercises/...`, with
requirements.txt alone) never loads this file or pytest-timeout, so no `timeout` key sits in pyproject.toml (pytest
would warn every learner about an option it does not know).

NOT handled: a test that sets its own SIGALRM timer (tests/test_offline_fuzz.py's `deadline`) turns this limit
off for the rest of that test; a hang inside C code that never returns to Python is not interrupted by a signal.
"""

import os

import pytest

SUITE_TIMEOUT = 120
"""Seconds a test may take, setup and teardown included."""


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    """Before pytest-timeout reads its settings: the suite's limit, unless one was given."""
    if not config.pluginmanager.hasplugin("pytest_timeout"):
        return
    if config.getoption("timeout", None) is None and not os.environ.get("PYTEST_TIMEOUT") \
            and not config.getini("timeout"):
        config.option.timeout = SUITE_TIMEOUT
