"""Where the kit runs, as the client needs to know it: the API key from a `.env` file, and a browser tab, which stays
offline (a key typed into a web page is within reach of every script the page runs). harness_lib.client asks both.

Not handled: deleting ANTHROPIC_API_KEY from os.environ does not hide the file's key (it is read again on the next
call: use HARNESS_OFFLINE=1); the search for `.env` does not stop at the repository root.
"""

import os
import sys

from dotenv import dotenv_values, find_dotenv

from . import lang

TAB_STAYS_OFFLINE = {
    "en": {"line": "offline: a browser tab never goes live (an API key is not safe in a web page); "
                   "to talk to Claude, run the kit on your computer (README, \"Go live\")"},
    "es": {"line": "sin conexión: una pestaña del navegador nunca pasa a en vivo (una clave de API no está segura "
                   "en una página web); para hablar con Claude, usa el kit en tu ordenador (README, \"En vivo\")"},
}
_refusal_said = False


def load_env_file() -> None:
    """Read ANTHROPIC_API_KEY, and nothing else, from the first `.env` found from the current folder upward; a key
    already set wins. No file ever switches the kit's behaviour (HARNESS_AUTO_APPROVE above all);
    PYTHON_DOTENV_DISABLED=1 (python-dotenv's own switch, which the tests set) ignores every file."""
    if os.environ.get("PYTHON_DOTENV_DISABLED", "").strip().lower() in ("1", "true", "yes", "t", "y"):
        return  # (dotenv_values does not read this switch itself; load_dotenv did)
    path = find_dotenv(usecwd=True)  # usecwd: search from the current folder, not from this module's
    key = dotenv_values(path).get("ANTHROPIC_API_KEY") if path else None
    if key and "ANTHROPIC_API_KEY" not in os.environ:
        os.environ["ANTHROPIC_API_KEY"] = key


def refused_in_a_tab() -> bool:
    """True in a browser tab (JupyterLite), after printing once per kernel the line that says why it stays offline
    and where to go live."""
    global _refusal_said
    if sys.platform != "emscripten":
        return False
    if not _refusal_said:
        _refusal_said = True
        print(lang.say(TAB_STAYS_OFFLINE, "line"))
    return True
