"""tests/sanitize.cfg, read once for the tests that compare outputs the way nbval does.

nbval reads that file itself (pyproject's `--nbval-sanitize-with`). `sanitize()` applies the same rules, so a
test that compares two runs of a cell (test_browser_rerun.py), or checks that a rule still matches what the kit
prints (test_offline_model.py), uses the very patterns nbval uses: changing the file changes them all.
"""

import configparser
import re
from pathlib import Path

_CONFIG = configparser.ConfigParser(interpolation=None)
_CONFIG.read(Path(__file__).with_name("sanitize.cfg"), encoding="utf-8")
RULES = {name: (re.compile(_CONFIG[name]["regex"]), _CONFIG[name]["replace"]) for name in _CONFIG.sections()}
CLOCK = ("iso_time", "spoken_time_en", "spoken_time_es")  # the rules for the tools' clock


def sanitize(text: str, names=None) -> str:
    """`text` with the rules `names` (default: every rule, in the file's order) applied, as nbval applies them."""
    for name in names or RULES:
        pattern, replacement = RULES[name]
        text = pattern.sub(replacement, text)
    return text
