"""Which model the kit asks for: ``MODEL``, the ``HARNESS_MODEL`` environment variable, else ``claude-sonnet-5``.

    from harness_lib.client import MODEL          # as the lessons write it (client hands it out too)
    await client.messages.create(model=MODEL, max_tokens=1024, messages=[...])

harness_lib.loop sends it with every request unless a run is given another (``run_agent(..., model=...)``), so the
loop needs this one line, not the module that makes clients.

NOT handled: a change after import (``MODEL`` is read once: set ``HARNESS_MODEL`` before Python starts, or pass
``model=``); whether your account can call that model (the API answers 404, and harness_ui.notebook's one-line
error says to check ``HARNESS_MODEL``); a model per call site other than by ``model=``.
"""

import os

MODEL: str = os.environ.get("HARNESS_MODEL", "claude-sonnet-5")
