"""What the gradebook writes for a person to open: the CSV's rows, the Markdown summary, one feedback file per
learner and notebook, and --merge into an existing CSV. Everything a submission chose (a learner's or folder's
name, a file name, a cell id, an error's message, what a check printed) reaches them inert:

- `shown(text)` / `shown_name(text)`: the kit's one rule (harness_kit.shown, the textbook's too): `one_line` (every
  character a person could not see, or that would act instead of being read, written as an escape: a newline as
  `\\u000a`, U+202E, zero-width and format characters, combining marks and variation selectors, other spaces), and for
  a field that names a thing (a learner, a folder, a file: `shown_name`, the rule's `one_word`) look-alike letters too
  (`b\\u043eb`: a Cyrillic о among Latin letters), so no two names read the same;
- `csv_cell(value)`: that, and a text that a spreadsheet would read as a formula (its first character, after any
  spaces and read as NFKC so a fullwidth `＝` counts, is `=`, `+`, `-` or `@`: OWASP's CSV injection rule) gets a
  leading `'`;
- `md(text)`: that, then every character Markdown or HTML gives a meaning to (`` ` * _ [ ] < > & | # $ ``...)
  backslash-escaped, a line's start that would open a block (`>`, `-`, `+`, `=`, `1.`) escaped, and `://` broken, so
  a file name is shown, never rendered as a heading, code, a link, math, an image or HTML.

What it does NOT do: decide anything (grader/gradebook.py's `judge`), or guard what a person pastes elsewhere.
"""

from __future__ import annotations

import csv
import os
import re
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

from harness_kit.shown import one_line, one_word, visible  # the kit's one rule: stdlib only, no SDK

FORMULA_START = ("=", "+", "-", "@")
NAME_COLUMNS = frozenset({"learner", "file", "exercise"})  # CSV columns that name a thing: look-alikes shown
_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~&#$!])")
_BLOCK_START = re.compile(r"^(\s*)([-+=>]|\d+(?=[.)]))")  # a line's start that opens a block: escaped


def shown(text) -> str:
    """`text` on one line by the kit's one rule (harness_kit.shown.one_line)."""
    return one_line(text)


def printed(line: str) -> str:
    r"""A line a check printed, shown as the notebook shows it. The checks show every text a submission chose by the
    rule already, so the line's escapes are the rule's own (a learner's `C:\x` is printed `C:\\x`) and are shown as
    they are: `shown` would escape them again (`C:\\\\x`). Any character a person could not see is escaped all the
    same (`visible`), should a check ever print one."""
    return visible(line)


FIELD_CHARS = 2000  # characters of one CSV field, one summary line, one reason (a spreadsheet holds 32,767 a cell)
LISTED = 10  # items of a list written before "… and N more"


def few(items, sep: str = "; ", most: int = LISTED) -> str:
    """The first `most` items joined by `sep`, and how many more there are: a list a submission can make as long as
    it likes (its flagged cells, its failed criteria) stays a line a person reads."""
    items = list(items)
    more = len(items) - most
    return sep.join(items[:most]) + (f"{sep}… and {more} more ({len(items)} in all)" if more > 0 else "")


def cut(text: str, most: int = FIELD_CHARS) -> str:
    """`text`, or its first `most` characters and how long it was."""
    return text if len(text) <= most else f"{text[:most]}… ({len(text)} characters in all)"


def feedback_paths(jobs: list, folder: Path) -> dict:
    """id(job) -> its feedback file, FOLDER/<learner>/<exercise>.md, one per job: a learner's folder whose name had
    to be changed to be a file name ("!!!", "???") or that differs from another only in case gets a short digest of
    the learner's name; a second file of one learner and one exercise gets a digest of its own file's name."""
    import hashlib

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]

    safe = {}
    for learner in sorted({j.learner for j in jobs}):
        name = re.sub(r"[^\w. -]+", "_", learner).strip(". ")[:80] or "learner"
        safe[learner] = name if name == learner else f"{name}-{digest(learner)}"
    folded = Counter(name.casefold() for name in safe.values())
    safe = {who: f"{name}-{digest(who)}" if folded[name.casefold()] > 1 else name for who, name in safe.items()}
    paths, taken = {}, set()
    for j in sorted(jobs, key=lambda j: (j.learner, j.file)):
        stem = re.sub(r"[^\w.-]+", "_", Path(j.exercise or j.file).stem)[:80] or "notebook"
        where = folder / safe[j.learner] / f"{stem}.md"
        if where.as_posix().casefold() in taken:
            where = where.with_name(f"{stem}-{digest(j.file)}.md")
        taken.add(where.as_posix().casefold())
        paths[id(j)] = where
    return paths


def shown_name(text) -> str:
    """A name (a learner, a folder, a file) by the kit's one rule for names: look-alike letters shown as codes, so
    two learners whose names read the same are shown apart ("bo" and a Cyrillic "bо"); the same in every run."""
    return one_word(text)


def csv_cell(value, name: bool = False):
    """One CSV field: numbers as they are; a text shown (`shown_name` when it is a name), at most FIELD_CHARS
    characters (`cut`), with a leading ' where a spreadsheet would see a formula."""
    if not isinstance(value, str):
        return value
    value = cut(shown_name(value) if name else shown(value))
    return "'" + value if unicodedata.normalize("NFKC", value.lstrip()[:1]) in FORMULA_START else value


def md(text, *, name: bool = False) -> str:
    """`text` for a Markdown (or HTML) page: shown as it is, never rendered (`name`: a name, see `shown_name`)."""
    out = _MARKDOWN.sub(r"\\\1", shown_name(text) if name else shown(text))
    out = _BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2) if not m.group(2).isdigit()
                           else m.group(1) + m.group(2) + "\\", out)
    return out.replace("://", r":\/\/").replace("www.", r"www\.").replace("@", r"\@")


def through_link(*paths) -> str:
    """"" when none of `paths` (the CSV, the summary, the feedback folder) is, or is under, a symbolic link below the
    working folder (where a learner's repository could have committed one: `grades/01.csv -> ../grader/judge.py`
    overwrote the runner's judge with a CSV); else which one, in one line."""
    here = Path.cwd()
    for path in filter(None, paths):
        path = Path(os.path.abspath(path))
        below = [p for p in path.parents if p != here and p.is_relative_to(here)]  # (a system's own /tmp link: not)
        for where in [path, *below]:
            if where.is_symlink():
                return f"{where} is a symbolic link (to {os.readlink(where)}): the gradebook never writes through one"
    return ""


def write_csv(out: Path, columns: list[str], rows: list[dict], excel: bool = False) -> None:
    with out.open("w", newline="", encoding="utf-8-sig" if excel else "utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, restval="", extrasaction="ignore")
        writer.writeheader()
        writer.writerows({k: csv_cell(v, k in NAME_COLUMNS) for k, v in row.items()} for row in rows)


def row_key(row: dict) -> tuple:
    """What a row grades: (learner, exercise); a row of no exercise (a broken file) by (learner, "", file)."""
    exercise = row.get("exercise") or ""
    return (row.get("learner") or "", exercise, "" if exercise else row.get("file") or "")


def merged(out: Path, rows: list[dict]) -> tuple[list[str], list[dict]]:
    """The columns of an existing CSV, and its rows less those of the (learner, exercise) pairs and the (learner,
    file) pairs graded now (the same file, graded again, may now be another exercise), then the new rows. Rows are
    compared as written (`csv_cell`), so a learner whose name was neutralised is still found."""
    try:
        # any CSV the gradebook wrote, an older one's longer fields too: a field is at most the file's size
        csv.field_size_limit(max(csv.field_size_limit(), min(out.stat().st_size + 1, 2 ** 31 - 1)))
        with out.open(encoding="utf-8-sig", newline="") as f:
            reader = csv.DictReader(f)
            old, columns = list(reader), list(reader.fieldnames or [])
    except FileNotFoundError:
        return [], rows
    written = [{k: csv_cell(v, k in NAME_COLUMNS) for k, v in r.items()} for r in rows]
    again = {row_key(r) for r in written}
    files = {(r.get("learner"), r.get("file")) for r in written}
    return columns, [r for r in old if row_key(r) not in again and (r.get("learner"), r.get("file")) not in files] + rows


# The feedback file's own lines, a catalogue read with harness_kit.lang.say (tests/test_catalogues.py checks it).
FEEDBACK = {
    "en": {"title": "Feedback: {exercise}", "verdict": "Verdict: **{verdict}**, {points} points.",
           "checks": "{passed} of {total} checks pass. What each check printed (every ✗ has its hint under it):",
           "why": "Why: {reason}", "none": "No check ran."},
    "es": {"title": "Comentarios: {exercise}", "verdict": "Veredicto: **{verdict}**, {points} puntos.",
           "checks": "Pasan {passed} de {total} controles. Lo que escribió cada control (cada ✗ lleva su pista debajo):",
           "why": "Motivo: {reason}", "none": "No se ejecutó ningún control."},
}


JUDGED = ("PASS", "FAIL", "NOT STARTED")  # the verdicts the checks decided: each row has their results


def feedback(job, most: float, all_or_nothing: bool) -> str:
    """One learner's feedback on one notebook, in the language of the edition graded (Markdown; what each check
    printed is shown as an indented block, so nothing in it is read as Markdown; names and reasons go through
    `md`)."""
    from harness_kit import lang  # here, not at the top: it imports the SDK (~1 CPU-s), which the command needs not

    def t(key, **values):  # (an edition of no known language: English)
        return lang.say(FEEDBACK, key, lang.normalize(job.lang) or lang.DEFAULT, **values)
    lines = [f"# {t('title', exercise=job.exercise or md(job.file, name=True))}", "", md(job.file, name=True), "",
             t("verdict", verdict=job.verdict, points=f"{job.points(most, all_or_nothing):g}"), ""]
    reason = cut("; ".join(filter(None, [job.reason, few(job.notes)])), 4 * FIELD_CHARS)
    if reason:
        lines += [t("why", reason=md(reason)), ""]
    if job.verdict in JUDGED and job.feedback:
        lines += [t("checks", passed=job.passed, total=job.total), ""]
        for check, text in job.feedback:
            lines += [f"## {md(check)}", ""] + ["    " + printed(line) for line in text.strip().splitlines()] + [""]
    elif job.verdict in JUDGED:
        lines += [t("none"), ""]
    return "\n".join(lines)


def summary(jobs: list) -> str:
    """The class's Markdown summary: per exercise the verdicts and pass rate, the mistakes most often made, the
    rows to look at, and who submitted an exercise more than once (with the files)."""
    lines = ["# Gradebook summary", "", f"{len(jobs)} submitted notebook(s).", "",
             "| exercise | submissions | PASS | FAIL | NOT STARTED | NOT GRADED | ERROR | pass rate |",
             "|---|---|---|---|---|---|---|---|"]
    by_ex = defaultdict(list)
    for j in jobs:
        by_ex[j.exercise or "(none)"].append(j)
    for ex, js in sorted(by_ex.items()):
        n = Counter(j.verdict for j in js)
        graded = sum(n[v] for v in JUDGED)
        rate = f"{100 * n['PASS'] / graded:.0f}% of {graded} graded" if graded else "—"
        lines.append(f"| {ex} | {len(js)} | {n['PASS']} | {n['FAIL']} | {n['NOT STARTED']} | {n['NOT GRADED']} "
                     f"| {n['ERROR']} | {rate} |")
    for ex, js in sorted(by_ex.items()):
        # causes only: a ✗ that "follows from the ✗ above" is a knock-on of one mistake, not a second one; and only
        # attempts: a starter handed in as shipped (NOT STARTED) fails every criterion and says nothing of them
        attempts = [j for j in js if j.verdict in ("PASS", "FAIL")]
        failed = Counter(c for j in attempts for c in dict.fromkeys(j.causes))
        if not failed:
            continue
        lines += ["", f"## {ex}: the mistakes most often made (what to re-teach)", "",
                  "Counted: the ✗ lines that name a cause, not those that follow from an earlier ✗; in attempts only "
                  f"({len(attempts)}), not in starters handed in untouched.", ""]
        lines += [f"- {count} of {len(attempts)}: {md(criterion)}" for criterion, count in failed.most_common(8)]
    review = [j for j in jobs if j.verdict in ("NOT GRADED", "ERROR") or j.notes]
    if review:
        lines += ["", "## To look at", ""] + [
            f"- {md(j.file, name=True)} ({md(j.learner, name=True)}): {j.verdict} — "
            + md(cut("; ".join(filter(None, [j.reason, few(j.notes)])))) for j in review]
    files = defaultdict(list)
    for j in jobs:
        if j.exercise:
            files[(j.learner, j.exercise)].append(j.file)
    twice = [f"{md(who, name=True)} ({ex}: {', '.join(md(f, name=True) for f in fs)})"
             for (who, ex), fs in sorted(files.items()) if len(fs) > 1]
    if twice:
        lines += ["", "## More than one submission of an exercise", ""] + [f"- {t}" for t in twice]
    return "\n".join(lines) + "\n"
