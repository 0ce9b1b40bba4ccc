"""Every link a learner can click in the kit's prose leads somewhere.

Checked: the markdown cells of every notebook (lessons, exercise starters, solutions, in English and in Spanish)
and the markdown files (README.md, README.es.md, exercises/README.md, docs/). For each link:

- a relative link must name an existing *file* inside the repository. A folder is a failure: JupyterLab opens
  a link by loading it as a document, and a folder gives "File Load Error".
- an anchor (``file.md#section``, or ``#section`` in the same document) must match a heading of the target:
  GitHub's form (``where-it-comes-from``) or JupyterLab's (``Where-it-comes-from``).
- an external link must be a well-formed http(s) URL with a host. No request is made (the tests run offline),
  so a page that moved is NOT caught.

Links are found with regular expressions, after fenced code blocks and inline code are removed (a link shown
as code is not a link). Not handled: links inside raw HTML other than ``href="..."`` / ``src="..."``, and
reference-style links whose definition is in another cell.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
# English folders, and the Spanish edition one folder down in each (notebooks/es/, exercises/es/solutions/, ...).
ENGLISH_FOLDERS = [ROOT / "notebooks", ROOT / "exercises", ROOT / "exercises" / "solutions"]
SPANISH_FOLDERS = [ROOT / "notebooks" / "es", ROOT / "exercises" / "es", ROOT / "exercises" / "es" / "solutions"]
NOTEBOOKS = sorted(path for folder in ENGLISH_FOLDERS + SPANISH_FOLDERS for path in folder.glob("*.ipynb"))
MARKDOWN_FILES = sorted([ROOT / "README.md", ROOT / "README.es.md", ROOT / "exercises" / "README.md",
                         *(ROOT / "exercises" / "es").glob("*.md"), *(ROOT / "docs").rglob("*.md")])

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)
INLINE_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")  # [text](target) and ![alt](target)
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)  # [label]: target
AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
HTML_LINK = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def markdown_sources(path: Path) -> list[tuple[str, str]]:
    """(where, markdown) pieces of one file: each markdown cell of a notebook, or the whole .md file."""
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        return [(f"cell {cell.get('id', number)}", "".join(cell["source"]))
                for number, cell in enumerate(nb["cells"], 1) if cell["cell_type"] == "markdown"]
    return [("", path.read_text(encoding="utf-8"))]


def without_code(markdown: str) -> str:
    return CODE_SPAN.sub("", FENCE.sub("", markdown))


def links_in(markdown: str) -> list[str]:
    text = without_code(markdown)
    return [m.group(1) for pattern in (INLINE_LINK, REFERENCE, AUTOLINK, HTML_LINK) for m in pattern.finditer(text)]


def anchors_of(path: Path) -> set[str]:
    """The anchors a link may name in ``path``: each heading in GitHub's and in JupyterLab's form."""
    anchors, seen = set(), {}
    for _, markdown in markdown_sources(path):
        for heading in HEADING.findall(FENCE.sub("", markdown)):
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading: its text
            text = re.sub(r"[`*_]{1,3}(?=\S)|(?<=\S)[`*_]{1,3}", "", text).strip()  # code and emphasis marks
            github = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
            count = seen.get(github, 0)
            seen[github] = count + 1
            anchors |= {github if count == 0 else f"{github}-{count}", text.replace(" ", "-")}
    return anchors


def problems_in(path: Path, root: Path = ROOT) -> list[str]:
    """Every broken link of one file, as 'file [where]: link -> what is wrong'."""
    found = []
    for where, markdown in markdown_sources(path):
        for link in links_in(markdown):
            label = f"{path.relative_to(root).as_posix()}{f' [{where}]' if where else ''}: {link}"
            problem = link_problem(path, link, root)
            if problem:
                found.append(f"{label} -> {problem}")
    return found


def link_problem(source: Path, link: str, root: Path = ROOT) -> str | None:
    parts = urlsplit(link)
    if parts.scheme:
        if parts.scheme == "mailto":
            return None if re.fullmatch(r"[^@\s]+@[^@\s]+\.\w+", parts.path) else "not an e-mail address"
        if parts.scheme not in ("http", "https"):
            return f"unexpected scheme {parts.scheme!r} (only http, https and relative links)"
        if not re.fullmatch(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?", parts.netloc):
            return "an external link without a proper host"
        return None
    if parts.netloc or link.startswith("/"):
        return "an absolute path: links must be relative to the file they are in"
    target = (source.parent / unquote(parts.path)).resolve() if parts.path else source
    if not target.is_relative_to(root.resolve()):
        return "points outside the repository"
    if target.is_dir():
        return "a folder, not a file (JupyterLab shows 'File Load Error'): link a file in it, e.g. its README.md"
    if not target.is_file():
        return "no such file"
    if parts.fragment:
        if target.suffix not in (".md", ".ipynb"):
            return f"an anchor into a {target.suffix or 'plain'} file, which has no headings"
        if unquote(parts.fragment) not in anchors_of(target):
            return f"no heading #{parts.fragment} in {target.relative_to(root.resolve()).as_posix()}"
    return None


# ---- the kit's own files -----------------------------------------------------------------------------------


def test_the_files_to_check_exist():
    assert len(NOTEBOOKS) >= 11 and all(p.is_file() for p in MARKDOWN_FILES)


@pytest.mark.parametrize("path", NOTEBOOKS + MARKDOWN_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_resolves(path):
    problems = problems_in(path)
    assert not problems, "broken links:\n" + "\n".join(problems)


@pytest.mark.parametrize("folder", [ROOT / "notebooks", ROOT / "notebooks" / "es"], ids=["en", "es"])
def test_the_lessons_link_to_each_other(folder):
    """The lessons are read in order: each one's 'Next' link exists and was checked above (in each edition)."""
    lessons = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    for lesson, following in zip(lessons, lessons[1:]):
        if int(following.name[:2]) != int(lesson.name[:2]) + 1:
            continue  # a lesson in between is missing (an edition being written): test_spanish_edition.py says so
        links = [link for _, md in markdown_sources(lesson) for link in links_in(md)]
        assert following.name in links, f"{lesson.name} does not link to {following.name}"


@pytest.mark.parametrize("folder", [ROOT / "exercises", ROOT / "exercises" / "es"], ids=["en", "es"])
def test_the_exercises_lead_on_and_the_last_says_what_comes_next(folder):
    """Exercise N's last section links exercise N + 1 (es/02 once sent the reader back to lesson 06); the last
    exercise ends with where to go from here: the full harness again, and what a production harness adds."""
    exercises = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    assert len(exercises) == 5
    for exercise, following in zip(exercises, exercises[1:]):
        last = [md for _, md in markdown_sources(exercise)][-1]
        assert following.name in links_in(last), f"{exercise.name}'s last section does not link {following.name}"
    last = [md for _, md in markdown_sources(exercises[-1])][-1]
    assert any(link.endswith("06_the_full_harness.ipynb") for link in links_in(last))
    assert ("production harness" if folder.name == "exercises" else "arnés de producción") in last


def english_links_with_a_spanish_twin(path: Path, root: Path = ROOT) -> list[str]:
    """Links in a Spanish file to an English notebook that has a Spanish twin (the reader wants the twin)."""
    english_to_spanish = {english.resolve(): spanish.resolve()
                          for english, spanish in zip([root / "notebooks", root / "exercises",
                                                       root / "exercises" / "solutions"],
                                                      [root / "notebooks" / "es", root / "exercises" / "es",
                                                       root / "exercises" / "es" / "solutions"])}
    found = []
    for where, markdown in markdown_sources(path):
        for link in links_in(markdown):
            parts = urlsplit(link)
            if parts.scheme or not parts.path.endswith(".ipynb"):
                continue
            target = (path.parent / unquote(parts.path)).resolve()
            twin = english_to_spanish.get(target.parent, Path("/nonexistent")) / target.name
            if twin.is_file():
                found.append(f"{path.relative_to(root).as_posix()}{f' [{where}]' if where else ''}: {link} -> "
                             f"{twin.relative_to(root.resolve()).as_posix()}")
    return found


SPANISH_FILES = sorted([*(p for folder in SPANISH_FOLDERS for p in folder.glob("*.ipynb")), ROOT / "README.es.md",
                        *(ROOT / "exercises" / "es").glob("*.md")])


@pytest.mark.parametrize("path", SPANISH_FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_spanish_edition_links_its_own_notebooks(path):
    found = english_links_with_a_spanish_twin(path)
    assert not found, "links to an English notebook whose Spanish twin exists (link the twin):\n" + "\n".join(found)


# ---- the checker itself catches what it should -----------------------------------------------------------


def test_the_checker_finds_each_kind_of_broken_link(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# A guide\n\n## Where it comes from\n\n## `code` and *more*\n",
                                                encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[ok](docs/guide.md) [ok anchor](docs/guide.md#where-it-comes-from) [jlab anchor](docs/guide.md#A-guide)\n"
        "[code heading](docs/guide.md#code-and-more) [self](#page) [web](https://example.org/a?b=1)\n"
        "[![badge](https://example.org/b.svg)](https://example.org/launch)\n"
        "[folder](docs) [folder slash](docs/) [missing](nope.md) [bad anchor](docs/guide.md#nowhere)\n"
        "[outside](../elsewhere.md) [abs](/etc/hosts) [scheme](file:///etc/hosts) [host](https://localhost)\n"
        "`[in code](nope2.md)`\n\n```\n[in a fence](nope3.md)\n```\n\n[ref]: also-missing.md\n",
        encoding="utf-8")
    problems = problems_in(page, root=tmp_path)
    assert [p.split(": ", 1)[1].split(" -> ")[0] for p in problems] == [
        "docs", "docs/", "nope.md", "docs/guide.md#nowhere", "../elsewhere.md", "/etc/hosts", "file:///etc/hosts",
        "https://localhost", "also-missing.md"]
    assert "File Load Error" in problems[0]


def test_the_checker_reads_notebook_markdown_cells_only(tmp_path):
    nb = {"cells": [
        {"id": "intro", "cell_type": "markdown", "source": ["# Title\n", "[next](missing.ipynb) [up](#Title)"]},
        {"id": "code", "cell_type": "code", "source": ["print('[not a link](missing.md)')"], "outputs": []},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert problems_in(path, root=tmp_path) == ["lesson.ipynb [cell intro]: missing.ipynb -> no such file"]


def test_a_spanish_link_to_an_english_notebook_with_a_twin_is_found(tmp_path):
    for folder in ("notebooks/es", "exercises/solutions", "exercises/es/solutions"):
        (tmp_path / folder).mkdir(parents=True)
    for name in ("notebooks/02_loop.ipynb", "notebooks/es/02_loop.ipynb", "notebooks/03_stop.ipynb",
                 "exercises/solutions/01_policy.ipynb", "exercises/es/solutions/01_policy.ipynb"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    page = tmp_path / "notebooks" / "es" / "01_intro.ipynb"
    page.write_text(json.dumps({"cells": [{"id": "next", "cell_type": "markdown", "source": [
        "[twin](02_loop.ipynb) [english, twin exists](../02_loop.ipynb) [english, no twin yet](../03_stop.ipynb) ",
        "[solution](../../exercises/solutions/01_policy.ipynb) [code](../../harness_lib/loop.py)"]}]}), encoding="utf-8")
    assert english_links_with_a_spanish_twin(page, root=tmp_path) == [
        "notebooks/es/01_intro.ipynb [cell next]: ../02_loop.ipynb -> notebooks/es/02_loop.ipynb",
        "notebooks/es/01_intro.ipynb [cell next]: ../../exercises/solutions/01_policy.ipynb -> "
        "exercises/es/solutions/01_policy.ipynb"]
