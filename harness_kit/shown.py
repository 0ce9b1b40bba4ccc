"""The kit's one rule for every text a person reads: shown as it is, never obeyed, never hidden, never alike.

Standard library only, so the textbook (harness_lib) and the teacher's grader (grader/) import the same rule, and the
grader does not pay for the SDK. Every renderer of a text that a model, an endpoint, a file or a learner chose goes
through one of these functions (docs/architecture.md, "The one rule", lists them):

    visible(json_text)          JSON text (a tool call, a quoted preview): hidden characters escaped
    visible_text(text)          plain text (an answer, an error): backslashes doubled, then `visible`, line by line
    one_line(text)              plain text on one line (a line break escaped too)
    one_word(text)              a field that names a thing (a stop reason, an id, a tool's, learner's or file's name):
                                one line, and a look-alike letter shown as its code (`b\\u043eb`)
    exact(text)                 an address or a path: one line, every character that is not ASCII shown as its code
    show_call(name, input)      a tool call: `write_file({"path":"scratch/a.txt","content":"hi"})`, field by field
    show_field(key, value)      one field; in EXACT_FIELDS (path, url, to) every non-ASCII character escaped

What is escaped (as a JSON escape, ``\\u202e``): control characters (C0, DEL, C1: no terminal escape code, carriage
return or backspace gets through), bidi controls and marks, zero-width and other format characters (tag characters
too), private-use, surrogate and unassigned code points, every space but U+0020, line and paragraph separators,
combining marks and variation selectors (``e`` + U+0301 looks like ``é``; U+034F, U+FE0F draw nothing), and
characters that draw nothing (U+3164 HANGUL FILLER, U+2800 BRAILLE PATTERN BLANK, U+FFFC ...). A run of SPACE_RUN
plain spaces or more is written ``\\u0020{N}``. Everything else (é, ✓, 中文, emoji) is kept. Every single-backslash
escape in a result is one this module wrote (a text's own backslashes are doubled first; in JSON text they already
are), so two different texts are never shown alike: `decode` undoes every function here.

Not handled: a character the reader's font lacks may draw as the same box as another one; in plain text (not
`one_word`/`exact`) a word written wholly in another script (Cyrillic ``аре`` for Latin ``ape``) is kept; a lone
surrogate pair in a text reads as the astral character it would make.
"""

from __future__ import annotations

import json
import re
import unicodedata
from itertools import groupby

__all__ = ["SPACE_RUN", "EXACT_FIELDS", "compact", "visible", "visible_text", "one_line", "one_word", "exact",
           "show_field", "show_call", "decode"]

SPACE_RUN = 16
"""A run of this many plain spaces or more is shown as one escaped space and its count: ``\\u0020{20000}``."""

# Characters that draw nothing although they are letters or symbols (so their category does not say so):
# Hangul fillers, the blank Braille pattern, the object replacement character, a musical null notehead.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\ufffc\U0001d159")

EXACT_FIELDS = frozenset({"path", "url", "to"})
"""Input fields that name a thing exactly (a file, an address, a mail's recipient): every non-ASCII character in them
is shown escaped, so a Cyrillic ``о`` in ``b\\u043eb@example.com`` cannot pass for the Latin ``o`` of another one."""


def compact(value) -> str:
    """Compact JSON, the way the kit shows tool input: {"path":"README.md"}."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def _hidden(ch: str) -> bool:
    """True for a character a person cannot see, or cannot tell apart, on screen."""
    category = unicodedata.category(ch)
    return (category[0] in "CM"  # controls, format (bidi, zero-width, tags), private use, unassigned; combining marks
            or (category[0] == "Z" and ch != " ")  # spaces other than the plain one, line/paragraph separators
            or ch in _BLANK_LETTERS)


def _escape(ch: str) -> str:
    if ord(ch) <= 0xFFFF:
        return f"\\u{ord(ch):04x}"
    high, low = divmod(ord(ch) - 0x10000, 0x400)  # beyond the BMP: a JSON surrogate pair, so JSON stays JSON
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def visible(text: str, *, also=frozenset()) -> str:
    """`text` (JSON text: a tool call, a quoted preview) with every character a person could not see escaped, and
    the characters in `also` too (the look-alikes `one_word` and `exact` find). See the module's docstring."""
    out = []
    for ch, run in groupby(str(text)):  # runs of the same character
        count = len(list(run))
        if ch == " " and count >= SPACE_RUN:
            out.append(f"\\u0020{{{count}}}")
        else:
            out.append((_escape(ch) if _hidden(ch) or ch in also else ch) * count)
    return "".join(out)


def visible_text(text, *, lines: bool = True) -> str:
    """Plain text (the model's answer, an error message) by :func:`visible`'s rule: its backslashes doubled first
    (``C:\\\\temp``, so a ``\\u202e`` the text spells out cannot pass for an escaped character), then each line
    through visible(). Line breaks are kept (``lines=False``: one line, a line break escaped too)."""
    if not lines:
        return visible(str(text).replace("\\", "\\\\"))
    return "\n".join(visible_text(line, lines=False) for line in str(text).split("\n"))


def one_line(text) -> str:
    """Plain text on one line (a line break shown as ``\\u000a``): a status, an error's cause, a check's line."""
    return visible_text(text, lines=False)


def _script(ch: str) -> str:
    name = unicodedata.name(ch, "")
    first = name.split(" ")[0]
    return "HAN" if first in ("CJK", "HIRAGANA", "KATAKANA") else first


def look_alikes(text: str) -> frozenset:
    """The characters of `text` that could pass for others: every letter that is not ASCII when the text's letters
    come from more than one script (``b\\u043eb``: Cyrillic among Latin), and every character that Unicode counts as
    a variant of another (NFKC: fullwidth ``＝``, mathematical ``𝐚``, the ligature ``ﬁ``, superscripts)."""
    letters = {ch for ch in text if ch.isalpha()}
    found = {ch for ch in set(text) if not ch.isascii() and unicodedata.normalize("NFKC", ch) != ch}
    if len({_script(ch) for ch in letters}) > 1:
        found |= {ch for ch in letters if not ch.isascii()}
    return frozenset(found)


def one_word(text) -> str:
    """A field that names a thing (a stop reason, an id, a tool's, a learner's or a file's name): one line, and its
    look-alike letters shown as their codes (:func:`look_alikes`), so ``ana`` and ``аna`` never read the same."""
    text = str(text)
    return visible(text.replace("\\", "\\\\"), also=look_alikes(text))


def exact(text) -> str:
    """An address or a path: one line, every character that is not ASCII shown as its code (``b\\u043eb@x.org``)."""
    text = str(text)
    return visible(text.replace("\\", "\\\\"), also=frozenset(ch for ch in text if not ch.isascii()))


def show_field(key: str, value) -> tuple[str, str]:
    """One field of a tool's input, shown: (key, value) as compact JSON through visible(). In the fields of
    EXACT_FIELDS every character that is not ASCII is escaped too; a key that mixes scripts shows its look-alikes."""
    shown = json.dumps(value, ensure_ascii=key in EXACT_FIELDS, separators=(",", ":"), default=str)
    key = str(key)
    return visible(compact(key), also=look_alikes(key)), visible(shown)


def show_call(name: str, tool_input) -> str:
    """A tool call as every reader of the kit sees it: ``write_file({"path":"scratch/a.txt","content":"hi"})``:
    the name by :func:`one_word`, the input field by field (:func:`show_field`)."""
    if isinstance(tool_input, dict):
        shown = "{" + ",".join(":".join(show_field(key, value)) for key, value in tool_input.items()) + "}"
    else:
        shown = visible(compact(tool_input))
    return f"{one_word(name)}({shown})"


_ESCAPE = re.compile(r"\\\\|\\u0020\{(\d+)\}|\\u([0-9a-f]{4})")


def decode(shown: str) -> str:
    """The plain text a `visible_text` / `one_line` / `one_word` / `exact` result was made from (a test's inverse:
    that it exists is what makes two different texts never look the same)."""
    def back(match: re.Match) -> str:
        if match.group(0) == "\\\\":
            return "\\"
        if match.group(1) is not None:
            return " " * int(match.group(1))
        return chr(int(match.group(2), 16))
    text = _ESCAPE.sub(back, shown)
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")  # pairs back to one character
