"""What a generated notebook's cells say: a starter from its solution, a Spanish notebook from its English one.

A code cell is translated string by string and comment by comment: the cell's code is the English cell's, and only
the text of its string literals and comments is swapped for the table's, in place. So code that is not a string is
written once. A markdown cell is translated whole.

A table entry remembers the English it was made from. A markdown entry whose English is not the cell's any more is
stale; a code cell's string or comment that a person reads (a comment, or a string of two or more words) with no
entry is missing; an entry whose English the cell no longer has is stale. Each is an EditionError naming the table,
the cell and the text.
"""

import io
import re
import tokenize
from collections import defaultdict, deque

NBVAL_MARKER = re.compile(r"#\s*NBVAL_\w+\s*$")
PREFIX_AND_QUOTES = re.compile(r"^[rbfuRBFU]*(\"\"\"|'''|\"|')")
EXPRESSION = re.compile(r"\{[^{}]*\}")


class EditionError(Exception):
    """A table does not fit the notebook it translates (missing, stale), or a notebook cannot be adopted."""


def _offsets(source: str) -> list[int]:
    starts, total = [0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        starts.append(total)
    return starts


def texts_of(source: str) -> list[tuple[int, int, str]]:
    """(start, end, text) of every string literal and comment of a code cell, in order.

    An f-string is one text, also on Python 3.12 and later, where tokenize splits it into parts."""
    starts, found, depth, opened = _offsets(source), [], 0, None
    fstring_start = getattr(tokenize, "FSTRING_START", None)
    fstring_end = getattr(tokenize, "FSTRING_END", None)
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        start = starts[tok.start[0] - 1] + tok.start[1]
        end = starts[tok.end[0] - 1] + tok.end[1]
        if fstring_start is not None and tok.type == fstring_start:
            depth += 1
            opened = start if depth == 1 else opened
        elif fstring_end is not None and tok.type == fstring_end:
            depth -= 1
            if depth == 0:
                found.append((opened, end, source[opened:end]))
        elif depth == 0 and tok.type in (tokenize.STRING, tokenize.COMMENT):
            found.append((start, end, tok.string))
    return found


def is_prose(text: str) -> bool:
    """A comment, or a string of two or more words: what a person reads, so it needs a translation (which may be
    the same text). A one-word string is a name (a tool, a tag, a file) and stays as it is unless the table says."""
    if text.startswith("#"):
        return not NBVAL_MARKER.match(text)
    words = PREFIX_AND_QUOTES.sub("", text)
    while EXPRESSION.search(words):  # an f-string's {expressions} are code, not words
        words = EXPRESSION.sub(" ", words)
    return len([word for word in words.split() if re.search(r"[^\W\d_]", word)]) >= 2


def translate_code(source: str, pairs: list[dict], where: str) -> str:
    """The cell's code with each text the table lists replaced by its translation, in order of appearance."""
    todo: dict[str, deque] = defaultdict(deque)
    for pair in pairs or []:
        todo[pair["en"]].append(pair["es"])
    out, at = [], 0
    for start, end, text in texts_of(source):
        if todo[text]:
            translated = todo[text].popleft()
        elif is_prose(text):
            raise EditionError(f"{where}: no translation of {text!r}")
        else:
            translated = text
        out += [source[at:start], translated]
        at = end
    stale = [en for en, left in todo.items() for _ in left]
    if stale:
        raise EditionError(f"{where}: the table translates {stale[0]!r}, which the cell no longer has (stale)")
    return "".join(out) + source[at:]


def translate_markdown(source: str, entry, where: str) -> str:
    if not isinstance(entry, dict) or "en" not in entry or "es" not in entry:
        raise EditionError(f"{where}: no translation of this markdown cell")
    if entry["en"] != source:
        first = next((i for i, (a, b) in enumerate(zip(entry["en"], source)) if a != b),
                     min(len(entry["en"]), len(source)))
        raise EditionError(f"{where}: the English changed since it was translated (stale), from "
                           f"{source[max(0, first - 30):first + 30]!r}")
    return entry["es"]


def translate_cell(cell, table: dict, key: str, where: str) -> str:
    entry = table.get(key)
    if cell.cell_type == "markdown":
        return translate_markdown(cell.source, entry, where)
    if entry is not None and not isinstance(entry, list):
        raise EditionError(f"{where}: a code cell's entry is a list of en/es pairs")
    return translate_code(cell.source, entry or [], where)


# Adopting: the table that makes one notebook from another, read off the two (how the tables were first made, and
# how a translator who edited a generated notebook in JupyterLab hands the edit back).

def pairs_between(english: str, spanish: str, where: str) -> list[dict]:
    """The en/es pairs that turn `english` into `spanish`, if the two differ only in strings and comments."""
    ours, theirs = texts_of(english), texts_of(spanish)
    # Code between the texts must be the same; its line breaks may differ (a longer Spanish string wrapped on two
    # lines): the generated notebook then takes the English layout.
    after = lambda source, found, i: re.sub(r"\s+", "", source[found[i][1]:found[i + 1][0] if i + 1 < len(found)
                                                                else len(source)])
    differ = EditionError(f"{where}: the two cells differ in more than strings and comments")
    if re.sub(r"\s+", "", english[:ours[0][0] if ours else None]) \
            != re.sub(r"\s+", "", spanish[:theirs[0][0] if theirs else None]):
        raise differ
    pairs, j = [], 0
    for i, (_, _, text) in enumerate(ours):
        if j >= len(theirs):
            raise differ
        start, end = theirs[j][0], theirs[j][1]
        # A translation may be longer than one literal: "..." "..." written over two lines.
        while j + 1 < len(theirs) and not after(spanish, theirs, j) and (
                after(english, ours, i) != after(spanish, theirs, j) or len(theirs) - j > len(ours) - i):
            j += 1
            end = theirs[j][1]
        if after(english, ours, i) != after(spanish, theirs, j):
            raise differ
        if spanish[start:end] != text or is_prose(text):
            pairs.append({"en": text, "es": spanish[start:end]})
        j += 1
    if j != len(theirs):
        raise differ
    return pairs


def entry_between(english_cell, spanish_cell, where: str):
    if english_cell.cell_type != spanish_cell.cell_type:
        raise EditionError(f"{where}: a {english_cell.cell_type} cell in one, a {spanish_cell.cell_type} in the other")
    if english_cell.cell_type == "markdown":
        return {"en": english_cell.source, "es": spanish_cell.source}
    return pairs_between(english_cell.source, spanish_cell.source, where)
