"""Words the book prints in the reader's language: a call in short (the approval question's last line, the
transcript's record), a run's stop sentence (translating what the loop wrote in English is the kit's job) and a
count as the reader's language writes it.

Not handled: a loop that records no `note` (its text is shown as it is).
"""

from . import lang
from .shown import EXACT_FIELDS, compact, one_word, show_field


def stop_text(ended) -> str:
    """A run's text (its "end" event or AgentResult) in the current language: the harness's sentence, named by
    the run's `note`, is written again from lang.MESSAGES; the model's words, and a text with no note, stay."""
    if isinstance(ended, dict):
        text, note = ended.get("text") or "", ended.get("note")
    else:
        text, note = ended.text, getattr(ended, "note", None)
    if not note:
        return text
    try:  # a note read from a file may be anything: one that names no sentence leaves the text as it is
        key, values = note
        english, shown = lang.english(key, **values), lang.text(key, **values)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return text
    if text.endswith(english):  # after the model's text, or the whole text
        return text[:len(text) - len(english)] + shown
    if text.startswith(english):  # a refusal: the model's explanation follows
        return shown + text[len(english):]
    return text


_SHORT_FIELD = 80  # a field's value longer than this is shown in short as its length


def in_short(name: str, tool_input) -> str:
    """The call in one short line, `write_file(path="scratch/a.txt", content=(20000 characters))`: a key or value
    over 80 characters is given as its length, except a path, url or to (EXACT_FIELDS), always whole."""
    if not isinstance(tool_input, dict):  # not an object: its schema refuses it before anyone is asked
        return f"{one_word(name)}({lang.text('approve.characters', n=len(compact(tool_input)))})"
    fields = []
    for key, value in tool_input.items():
        key_text, value_text = show_field(key, value)
        if len(key_text) > _SHORT_FIELD:
            key_text = lang.text("approve.characters", n=len(key))
        if len(value_text) > _SHORT_FIELD and key not in EXACT_FIELDS:  # a string's length; else its JSON's
            value_text = lang.text("approve.characters", n=len(value if isinstance(value, str) else value_text))
        if key_text.startswith('"'):  # a key shown in full: without its JSON quotes
            key_text = key_text[1:-1]
        fields.append(f"{key_text}={value_text}")
    return f"{one_word(name)}({', '.join(fields)})"


def number(n: int, space: str = " ") -> str:
    """A count as the reader's language writes it: 42,870 in English, 42 870 in Spanish (four digits stay: 4870).
    `space` groups the Spanish digits: a plain one in a line the one rule shows (it escapes every other space), a
    no-break one in HTML (the inspector's, so that a count is never broken over two lines)."""
    if lang.current() == "es":
        return f"{n:,}".replace(",", space) if abs(n) >= 10_000 else str(n)
    return f"{n:,}"
