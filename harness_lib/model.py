"""Which model the kit asks for: `HARNESS_MODEL`, else claude-sonnet-5 (the loop sends it with every request).
Not handled: a change after import (it is read once; pass `model=` instead), whether your account may call it."""

import os

MODEL: str = os.environ.get("HARNESS_MODEL", "claude-sonnet-5")
