"""Test-session settings shared by the unit tests, the lesson notebooks and the exercise grading.

- Graded and tested runs are offline and deterministic, even on a machine with ANTHROPIC_API_KEY set
  (set HARNESS_OFFLINE=0 yourself to run the notebooks against Claude).
- A git-ignored .env file is not read (PYTHON_DOTENV_DISABLED=1, see harness_lib.client.load_env_file).
- Nobody clicks in a headless run, so each approval button is clicked by the approver itself:
  HARNESS_AUTO_APPROVE=notebook clicks the button the notebook cell names (see harness_lib.approval).
Kernels started by nbval inherit this process's environment.
"""

import os

os.environ.setdefault("HARNESS_OFFLINE", "1")
os.environ.setdefault("HARNESS_AUTO_APPROVE", "notebook")
os.environ.setdefault("PYTHON_DOTENV_DISABLED", "1")  # a learner's .env (API key) is not read by tests
os.environ.pop("HARNESS_SCENARIO", None)
