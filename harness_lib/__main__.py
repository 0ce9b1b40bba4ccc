"""`python -m harness_lib "task"`: the terminal agent, which lives in the kit (harness_kit/terminal.py)."""

import sys

from harness_kit.terminal import main

sys.exit(main())
