"""Turn the person's request into an ordered list of steps (English and Spanish).

This is the offline model's "understanding": a handful of regular expressions, nothing more.
It recognises ten kinds of step, in the order they appear in the text:

=============  ======================================================  ==================
kind           examples                                                tool
=============  ======================================================  ==================
``first_line``  "first line of README.md", "primera línea de README.md"  ``read_file``
``last_line``   "last line of …", "última línea de …"                    ``read_file``
``count_lines`` "how many lines …", "cuántas líneas …"                   ``read_file``
``read``        "read notes/todo.md", "show …", "lee …", "muestra …";    ``read_file``
                "summarize …" / "resume …" (all of it, said so)
``time``        "what time is it", "the time", "what day", "la hora"     ``get_time``
``list_files``  "list the files", "what files", "qué archivos"          ``list_files`` (none in the kit)
``write``       'write "hello" to scratch/hello.txt', 'escribe "hola"    ``write_file``
                en scratch/hola.txt', 'save it to scratch/x.txt',
                "create scratch/x.txt with the text '…'", "save the
                time to …"; "copy A to B" / "save A to B" is a read of
                A and a write of what it held to B; "write a
                summary of it (or of A) to B" writes the first line,
                and says so
``delete``      "delete scratch/old.txt", "borra scratch/old.txt",       ``delete_file``
                "… then delete it" (the file named before; after a
                copy, the file copied: "copy A to B, then delete it")
``email``       "email bob@example.com that the report is ready",       ``send_email``
                "envía un correo a ana@example.com diciendo que …",
                "… and email it to bob@example.com" (what the step
                before returned), "… y envíalo a ana@example.com"
``unclear``     a file named with no verb it knows: "append the time    none: the answer
                to log.txt", "compare a.txt with b.txt"                 says it left it
=============  ======================================================  ==================

The words it recognises (verbs, time phrases, "and"/"then", "it"/"lo", the language markers) are data in
:mod:`.phrases` (``HEAR``, ``MARKERS``); the e-mail phrase's grammar is the one pattern written out here.

How a file step is found: every path-looking word ("README.md", "notes/todo.md", "./a.txt", a path
outside the project a person tries the sandbox with, "../x.txt" or "/etc/hostname", a Windows path,
"notes\\todo.md" or "C:\\x.txt", a quoted path, or a quoted name with spaces right after a word that asks
for a file: "read 'my notes.txt'"; not "https://…", not "and/or") is a candidate; the text
between the previous path and this one is searched for a verb, and the LAST verb found decides the kind ("Read the
first line of README.md" → first_line).
A path after just "and"/"y"/"," inherits the previous kind ("delete a.txt and b.txt").
For a write, the text to write is the last quoted string before the path; "it"/"that"/"lo" means
"the result of the previous step". An email step needs an address and a message ("that …",
"saying …", or a quoted text); the whole phrase is then hidden from the path and time search.

Only the first ``READ_LIMIT`` (20,000) characters of a request are read (up to the last whole word). The
time grows with the text, never faster: each pattern can match a stretch of text in one way only (no long
run of spaces or commas to split between two repeats), and each character is searched for a verb once, so
a hostile request of that size is parsed in milliseconds (benchmarks/bench_parse.py).

NOT modelled: negation ("don't read X"), conditions ("if …"), other languages, paths with spaces not quoted,
other questions about a file's text ("does it mention …", "the longest line"),
UNC paths (\\\\server\\share), anything asked for after the first ``READ_LIMIT`` characters, anything that needs
real language understanding. Unrecognised requests get a plain help answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .phrases import HEAR, LANGUAGES, MARKERS

__all__ = ["READ_LIMIT", "Step", "detect_language", "parse_steps"]

READ_LIMIT = 20_000  # characters of a request that are read for steps and for its language; the rest is not
UNCLEAR_SAID = 3  # at most this many files named with no verb it knows are mentioned in the answer


@dataclass
class Step:
    """One thing the person asked for. ``content`` is None for a write that refers back ("save it")."""

    kind: str  # first_line | last_line | count_lines | read | time | list_files | write | delete | unclear | …
    pos: int = 0
    path: str | None = None
    content: str | None = None
    refers_back: bool = False  # a write whose text is the previous step's result
    part: str | None = None  # such a write of one thing of that result: "first_line", … ("save the last line to …")
    summary: bool = False  # a read asked for as a summary, or a write of "a summary of it" (its first line)
    copy_of: str | None = None  # a copy's write: the file it copies ("copy A to B, then delete it" deletes A)
    tool_name: str | None = None  # only for kind == "injected" (any tool named in a file)
    source: str | None = None  # only for kind == "injected": the file that contained it
    to: str | None = None  # only for kind == "email": the address

    @property
    def tool(self) -> str:
        return {
            "first_line": "read_file",
            "last_line": "read_file",
            "count_lines": "read_file",
            "read": "read_file",
            "time": "get_time",
            "write": "write_file",
            "delete": "delete_file",
            "email": "send_email",
            "list_files": "list_files",
            "save_answer": "write_file",
        }.get(self.kind) or self.tool_name or ""


# A path: "README.md", "notes/todo.md", "./scratch/a.txt", "notes/todo" (a slash, no extension), and the paths a
# person tries the sandbox with, or types on Windows: "../secret.txt", "../../etc/passwd", "/etc/hostname",
# "notes\todo.md", "C:\Windows\win.ini" (not "https://…": no "/" after ":"). The tools refuse those; the model
# asks for them as a real model would, and says why it could not.
_SEP = r"[/\\]"
_START = rf"(?:(?<!:){_SEP}|(?:\.\.?{_SEP})+|[A-Za-z]:{_SEP})?"  # "/", "./", "../", "../../", "C:\", or nothing
_PATH = re.compile(
    r"(?<![\w/.\\@-])"  # (not the domain of an e-mail address: "bob@example.com")
    rf"({_START}(?:[\w-]+{_SEP})*[\w.-]*\w\.[A-Za-z][A-Za-z0-9]{{0,7}}|{_START}(?:[\w-]+{_SEP})+[\w-]+"
    rf"|(?:\.\.{_SEP})+[\w-]+)"
    r"(?![\w/\\-])"
)
# Quoted text: "…", “…”, «…», `…`, and '…' (only when the quotes are not apostrophes).
_QUOTED = re.compile(r'"([^"\n]*)"|“([^”\n]*)”|«([^»\n]*)»|`([^`\n]*)`|(?<!\w)\'([^\'\n]+)\'(?!\w)')
# A file's name with spaces, quoted as a person quotes one: 'my notes.txt', "old drafts/plan v2.md". Quoted text
# is a name only right after a word that asks for a file ("read", "delete", "the first line of", "to", "en", …),
# never after "write" (`write "see notes.md" to a.txt` writes those words).
_SPACED_PATH = re.compile(rf"{_START}(?:[\w -]*\w{_SEP})*[\w .-]*\w\.[A-Za-z][A-Za-z0-9]{{0,7}}")

_I = re.IGNORECASE
LINES = ("first_line", "last_line", "count_lines")  # a file read for one thing about its lines
_AND_OR = re.compile(r"(?<![\w/])(?:and/or|y/o)(?![\w/])", _I)  # "a.txt and/or b.txt": no path, an "and"


def _words(key: str) -> str:
    """The phrasebook's words for ``key`` in every language, as one alternation."""
    return "|".join(word for language in LANGUAGES for word in HEAR[language][key])


_VERBS = {kind: re.compile(rf"\b(?:{_words(kind)})\b", _I)
          for kind in ("first_line", "last_line", "count_lines", "write", "delete", "copy")}
_VERBS["read"] = re.compile(rf"\b(?:{_words('read')}|{_words('summarise')})\b", _I)  # ("summarize X": a read)
_SUMMARISE = re.compile(rf"(?:{_words('summarise')})", _I)  # (fullmatch: the read verb said "summarize")
_TIME = re.compile(rf"\b(?:{_words('time')})\b", _I)
_LIST = re.compile(rf"\b(?:{_words('list_files')})\b", _I)
# "email bob@example.com that the report is ready" / "envía un correo a ana@example.com diciendo que …"
_EMAIL = re.compile(
    r"\b(?:e-?mail|send\s+(?:an?\s+)?(?:e-?mail|message)\s+to|(?:escribe|env[ií]a|manda)(?:le)?\s+(?:un\s+)?"
    r"(?:correo|e-?mail|mensaje)\s+a)\s+(?P<to>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)\s*(?:,\s*)?"
    r"(?:(?:that|saying|to\s+say|diciendo(?:\s+que)?|que)\s+(?P<said>(?:[^\s.!?\n][^.!?\n]*?)??[^\s.!?,])"
    r"|(?::\s*)?(?:\"(?P<quoted>[^\"\n]+)\"|“(?P<curly>[^”\n]+)”))"
    r"(?=\s*(?:$|[.!?\n]|,\s+(?:and|then|also|y|luego|despu[eé]s)\b|(?<=\s)(?:and|then|also|y|luego|despu[eé]s)\b))",
    _I,
)
# "read notes.txt and email it to bob@example.com" / "… y envíalo a ana@example.com": what the step before returned
_EMAIL_IT = re.compile(
    r"\b(?:(?:e-?mail|send|mail|forward)\s+(?:it|that|this|the\s+(?:result|answer|file|line|time))"
    r"|(?:env[ií]a|manda|reenv[ií]a)(?:lo|la|selo|sela)(?:\s+por\s+(?:correo|e-?mail))?)"
    r"\s+(?:to|a)\s+(?P<to>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)", _I)
# Each pattern below can match a text in one way only (no two repeats next to each other can take the same
# characters), so a long run of spaces or commas costs one pass, not minutes of backtracking.
_JOINER = re.compile(rf"[\s,;&]*(?:(?:{_words('and')})[\s,;&]*)?(?:(?:{_words('then')})[\s,;&]*)?", _I)
_REFERS_BACK = re.compile(rf"^\s*(?:{_words('it')})\s*$", _I)
_SUMMARY = re.compile(rf"(?:{_words('summary')})", _I)  # "write a one-line summary of it to …" (fullmatch)
_SUMMARY_OF = re.compile(rf"(?:{_words('summary')})\s+(?:of|de)", _I)  # "write a summary of X to …" (fullmatch)
# The end of 'write hello to ': the text before this match is what to write.
_TO_THE_PATH = re.compile(r"\s(?:to|into|in|en|a)\s+(?:the\s+file\s+|el\s+(?:archivo|fichero)\s+)?$", _I)
_NAME_ASKED = re.compile(  # ("show me 'a b.txt'", "delete the file 'a b.txt'": two words may come between)
    rf"(?:\b(?:{_words('read')}|{_words('first_line')}|{_words('delete')})(?:\s+[^\W\d]+){{0,2}}"
    r"|\b(?:of|to|into|in|de|en|a|file|archivo|fichero))\s*$", _I)
# "read notes.txt, then delete it": a delete that names no file but the one before it ("bórralo": in the verb).
_DELETE_IT = re.compile(r"(?:\s+(?:it|that|this)(?:\s+file)?|\s+(?:eso|esto|ese\s+archivo|este\s+archivo)"
                        r"|(?<=lo))(?!\.?[\w/\\-])", _I)
# "create scratch/todo.txt with the text 'buy milk'": the text to write, after the file's name.
_WITH_TEXT = re.compile(r"[ \t]*,?[ \t]*(?:with[ \t]+(?:the[ \t]+)?(?:text|contents?|words|line)|containing|that[ \t]+says"
                        r"|saying|con[ \t]+(?:el[ \t]+)?(?:texto|contenido)|que[ \t]+diga)[ \t]*:?[ \t]*", _I)
_SAID_TO_END = re.compile(  # (up to the sentence's end, or an "and" or "then" that starts the next step)
    r"[^\s.!?\n](?:[^.!?\n]*?[^\s.!?,])?(?=[ \t]*(?:$|[.!?\n]|,?[ \t]+(?:then|luego|despu[eé]s)\b|,[ \t]+(?:and|y)\b"
    r"|[ \t]+(?:and|y)[ \t]+(?:then|also|luego|tambi[eé]n|tell|dime|read|lee|show|muestra|delete|borra|write|escribe"
    r"|what|qu[eé])\b))", _I)
# "copy README.md to scratch/copy.md": the file it is copied to (read the first, write what it held to this one).
_COPY_TO = re.compile(r"\s+(?:to|into|in|as|a|en|como)\s+(?:the\s+file\s+|el\s+(?:archivo|fichero)\s+)?", _I)
_MARKERS = {language: re.compile(pattern, _I) for language, pattern in MARKERS.items()}


@lru_cache(maxsize=256)
def detect_language(text: str) -> str | None:
    """The language whose marker words (``phrases.MARKERS``) outnumber the other's; None when unclear (a tie)."""
    text = _head(text)
    counts = sorted(((len(pattern.findall(text)), language) for language, pattern in _MARKERS.items()), reverse=True)
    return counts[0][1] if counts[0][0] > counts[1][0] else None


def _mask(text: str, spans: list[tuple[int, int]]) -> str:
    """Blank out quoted text so words inside quotes are not mistaken for instructions."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            chars[i] = " "
    return "".join(chars)


def _writer(text: str, start: int, end: int) -> re.Match | None:
    """A write or copy verb in ``text[start:end]`` (before a "first line": "save the first line ...")."""
    return _VERBS["write"].search(text, start, end) or _VERBS["copy"].search(text, start, end)


def _last_verb(text: str, start: int, end: int) -> tuple[str, int, int] | None:
    """The verb that occurs last in ``text[start:end]``: (kind, start, end), positions in ``text``."""
    best = None
    for kind, pattern in _VERBS.items():
        for m in pattern.finditer(text, start, end):
            # "first line" wins over a "read" that starts at the same place or earlier.
            if best is None or m.start() > best[1]:
                best = (kind, m.start(), m.end())
    return best


def parse_steps(text: str) -> list[Step]:
    """The steps asked for in ``text``, in order of appearance. [] when nothing maps to a tool.

    Memoised (every request of a conversation re-parses the same first message): treat the
    returned Step objects as read-only.
    """
    return list(_parse_steps(_head(text)))


def _head(text: str) -> str:
    """The first ``READ_LIMIT`` characters of ``text``, without a word (a path) cut in two at the end."""
    end = min(len(text), READ_LIMIT)
    while end < len(text) and end > 0 and not text[end].isspace():
        end -= 1
    return text[:end]


@lru_cache(maxsize=256)
def _parse_steps(text: str) -> tuple[Step, ...]:
    quotes = []  # (start, end, inner)
    for m in _QUOTED.finditer(text):
        inner = next(g for g in m.groups() if g is not None)
        quotes.append((m.start(), m.end(), inner))
    emails = list(_EMAIL.finditer(text))
    emails_it = [m for m in _EMAIL_IT.finditer(text) if not any(e.start() <= m.start() < e.end() for e in emails)]
    masked = _mask(text, [(s + 1, e - 1) for s, e, _ in quotes] + [m.span() for m in emails + emails_it])
    masked = _mask(masked, [(m.start() + m.group().index("/"), m.end())  # "and/or" reads as "and"
                            for m in _AND_OR.finditer(masked)])

    # Candidate paths: outside quotes, or a quoted string that is exactly a path.
    paths: list[tuple[int, int, str]] = [(m.start(), m.end(), m.group(1)) for m in _PATH.finditer(masked)]
    for s, e, inner in quotes:
        if _PATH.fullmatch(inner.strip()) or (_SPACED_PATH.fullmatch(inner.strip())
                                              and _NAME_ASKED.search(masked, max(0, s - 60), s)):
            paths.append((s, e, inner.strip()))
    paths.sort()
    starts = {start for start, _, _ in paths}

    steps: list[Step] = []
    prev_end = 0  # where the previous step's path ends
    seen_end = 0  # where the last path ends, a step's or not: the verb for this path is searched after it
    prev: Step | None = None
    copying = False  # the previous step read a file to copy
    as_summary = False  # ... "a summary of" it ("write a summary of X to Y": X's first line goes to Y, said so)
    for start, end, path in paths:
        joins = prev is not None and seen_end == prev_end  # no path was passed over since the previous step
        span, verb = seen_end, _last_verb(masked, seen_end, start)  # (each character searched once)
        seen_end = max(seen_end, end)
        writer = verb and verb[0] in LINES and _writer(masked, span, verb[1])
        if writer and _COPY_TO.fullmatch(masked, verb[2], start):  # "save the first line to Y": of what came before
            step = Step("write", pos=writer.start(), path=path, refers_back=True, part=verb[0])
            steps.append(step)
            prev, prev_end, copying = step, end, False
            continue
        if verb is None:
            if joins and copying and _COPY_TO.fullmatch(masked, prev_end, start):
                step = Step("write", pos=start, path=path, refers_back=True, copy_of=prev.path, summary=as_summary,
                            part="first_line" if as_summary else None)
            elif joins and prev.kind in ("read", *LINES, "delete") and _JOINER.fullmatch(masked, prev_end, start):
                step = Step(prev.kind, pos=start, path=path)
            else:  # a file named with no verb the model knows ("append the time to log.txt"): the answer says so
                steps.append(Step("unclear", pos=start, path=path))
                continue
            steps.append(step)
            prev, prev_end, copying = step, end, False
            continue
        kind, pos, vend = verb
        as_summary = False
        if kind == "write" and (to := _COPY_TO.match(masked, end)) and to.end() in starts:
            kind = "copy"  # "save README.md to scratch/b.md": a file's name, then where it goes
            as_summary = bool(_SUMMARY_OF.fullmatch(masked[vend:start].strip()))
        # its file is read; the next one, "to" it, is written ("copy X to Y", "save the first line of X to Y")
        copying = kind == "copy" or bool(writer)
        step = Step("read" if kind == "copy" else kind, pos=pos, path=path)
        step.summary = kind == "read" and bool(_SUMMARISE.fullmatch(masked, pos, vend))  # (the whole file, said so)
        if kind == "write":
            inside = [q for q in quotes if pos <= q[0] and q[1] <= start and q[2].strip() != path]
            if inside:
                step.content = inside[-1][2]
            else:
                raw = text[vend:start]
                m = _TO_THE_PATH.search(raw)
                said = raw[: m.start()].strip() if m else ""
                if "\n" in said:  # the text to write is on one line
                    said = ""
                if _REFERS_BACK.match(said) or re.search(r"(?:lo|belo)\b", masked[pos:vend], _I):
                    step.refers_back = True
                    if _TIME.search(said):  # "write the time to scratch/t.txt": the time first, then the write
                        steps.append(Step("time", pos=pos))
                elif _SUMMARY.fullmatch(said):  # no free prose offline: the first line of what came before
                    step.refers_back, step.part, step.summary = True, "first_line", True
                elif said:
                    step.content = said.strip("\"'“”«»")
                elif (after := _WITH_TEXT.match(masked, end)) and after.end() > end:
                    quoted = [q for q in quotes if q[0] == after.end()]
                    told = quoted[0][2] if quoted else _SAID_TO_END.match(text, after.end())
                    if isinstance(told, re.Match):
                        told = told.group()
                    if told:
                        step.content = told
                    else:
                        step.refers_back = True
                else:
                    step.refers_back = True
        steps.append(step)
        prev, prev_end = step, end

    named, i, last = [step for step in steps if step.path and step.kind != "unclear"], 0, None  # (by position)
    for m in _VERBS["delete"].finditer(masked):  # "... then delete it": the file of the step before
        while i < len(named) and named[i].pos <= m.start():
            last, i = named[i], i + 1
        if last is not None and last.pos < m.start() and _DELETE_IT.match(masked, m.end()):
            steps.append(Step("delete", pos=m.start(), path=last.copy_of or last.path))  # (a copy's: its original)
    time_match = _TIME.search(masked)
    if time_match and not any(step.kind == "time" for step in steps):
        steps.append(Step("time", pos=time_match.start()))
    list_match = _LIST.search(masked)
    if list_match:  # no tool of the kit lists a folder: the answer says so, as a real model would
        steps.append(Step("list_files", pos=list_match.start()))
    for m in emails:
        said = m.group("said") or m.group("quoted") or m.group("curly")
        steps.append(Step("email", pos=m.start(), to=m.group("to"), content=said.strip()))
    for m in emails_it:  # the text is what the step before it returned, as "save it to …"
        steps.append(Step("email", pos=m.start(), to=m.group("to"), refers_back=True))
    # A file no step uses, said once (and at most UNCLEAR_SAID of them): not one that another step names.
    used, first = {step.path for step in steps if step.kind != "unclear"}, {}
    for step in steps:
        if step.kind == "unclear" and step.path not in used:
            first.setdefault(step.path, step)
    kept = {id(step) for step in list(first.values())[:UNCLEAR_SAID]}
    steps = [step for step in steps if step.kind != "unclear" or id(step) in kept]
    steps.sort(key=lambda s: s.pos)
    return tuple(steps)
