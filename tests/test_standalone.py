"""The repository stands alone: no tracked file points at one machine's folders or at material outside the repo.

Every file ``git ls-files`` lists is read (binary files are skipped). A notebook is read cell by cell, its
sources *and* its outputs, so a path printed by a run is caught as well as one typed into a cell. A hit names
where it is: ``file:line`` for a text file, ``notebook cell <id> source|output line N`` for a notebook.

What counts as a hit (the patterns are in ``PATTERNS``):

- an absolute path into a home folder or into the folder this checkout sits in -- a Linux or macOS home, a
  Windows user folder, the root user's home, a file under the temporary folder, a sibling of the checkout
  (wherever the machine running the test keeps it). Such a path only works on the machine it was written on;
  a path from ``~`` or relative to the repository is fine;
- a pointer to material outside the repository: a ``shared`` folder (here or one level up), or someone's
  note files mentioned by the bare word -- a reader of the repository cannot open those;
- something shaped like an Anthropic API key.

Paths *inside* the repository are fine (``workspace/notes/meeting.md``, ``notes/todo.md`` in an example), and
so are the few sentences where the bare word is ordinary English; ``ALLOWED`` lists those by file and by
exact phrase, so the same words anywhere else still fail.
"""

from __future__ import annotations

import json
import re
import subprocess
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# An absolute path starts a token: not right after a letter, digit, dot or dash (so the path part of a URL, or
# the relative notes/todo.md, is not one).
_START = r"(?<![\w.-])"
MACHINE_PATH_PATTERNS = {
    "home folder": re.compile(_START + r"/home/[\w.-]+"),
    "macOS home folder": re.compile(_START + r"/Users/[\w.-]+"),
    "Windows home folder": re.compile(r"\b[A-Za-z]:(?:\\\\?|/)Users(?:\\\\?|/)[\w.-]+", re.IGNORECASE),
    "root's home folder": re.compile(_START + r"/roo[t](?![\w.-])"),  # [t]: so this line is not a hit
    "temporary file": re.compile(_START + r"/tmp/[\w.-]+"),
}


def _checkout_folder_pattern() -> re.Pattern | None:
    """A path into the folder this checkout sits in (on this machine, wherever that is); None when the patterns
    above already catch such a path, or when the checkout sits at the top of a drive."""
    parent = ROOT.parent
    example = parent.as_posix() + "/other-kit"
    if parent == Path(parent.anchor) or any(p.search(example) for p in MACHINE_PATH_PATTERNS.values()):
        return None
    return re.compile(_START + re.escape(parent.as_posix()) + r"/[\w.-]+")


CHECKOUT_FOLDER = _checkout_folder_pattern()
if CHECKOUT_FOLDER is not None:
    MACHINE_PATH_PATTERNS["the checkout's own folder"] = CHECKOUT_FOLDER

OUTSIDE_PATTERNS = {
    "shared folder": re.compile(r"(?<![\w-])shared/[\w.-]"),
    "parent's shared folder": re.compile(r"\.\./+shared\b"),
    # The word after "see", "the", "my", ... and not a piece of a path (notes/ or notes.txt in the repo is fine).
    "reference to note files": re.compile(
        r"\b(?:see|per|from|in|the|my|our|these|those) (?:[\w-]+ )?note[s]\b(?![/\\]|\.\w)", re.IGNORECASE),
}
# A key in any tracked file is worse than a path (tests/test_notebook_hygiene.py uses the same shape).
SECRET_PATTERNS = {"Anthropic API key": re.compile(r"sk-ant-[A-Za-z0-9_-]{10,}")}
PATTERNS = MACHINE_PATH_PATTERNS | OUTSIDE_PATTERNS | SECRET_PATTERNS

# (file glob, pattern name, a regex for the exact phrase around the hit that makes it legitimate).
ALLOWED = [
    # The toy workspace's meeting minutes, and the lesson output that quotes them.
    ("workspace/notes/meeting.md", "reference to note files", r"drafts the release note[s]"),
    ("notebooks/05_human_in_the_loop.ipynb", "reference to note files", r"drafts the release note[s]"),
    ("notebooks/es/05_human_in_the_loop.ipynb", "reference to note files", r"drafts the release note[s]"),
    # The offline model's "stuck" scenario thinks aloud about its own earlier reading.
    ("harness_kit/offline/phrases.py", "reference to note files", r"re-reading the earlier note[s]"),
    # Code run inside a sandboxed kernel (its own /tmp), and the file name ipykernel gives a cell, forged.
    ("tests/test_grader_limits.py", "temporary file", r'open\(f"/[t]mp/f\{n\}"'),
    ("tests/test_grader_limits.py", "temporary file", r'co_filename="/[t]mp/ipykernel_1/123\.py"'),
]


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as err:
        pytest.skip(f"not a git checkout ({err}); the standalone check needs `git ls-files`")
    return [name for name in out.decode("utf-8").split("\0") if name]


def text_of(path: Path) -> str | None:
    """The file's text, or None for a binary file (a NUL byte, or not UTF-8)."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def output_text(output: dict) -> str:
    """What an output shows: a stream's text, every MIME type of a display, an error's name and traceback."""
    def joined(value):
        if isinstance(value, list):
            return "".join(v if isinstance(v, str) else json.dumps(v) for v in value)
        return value if isinstance(value, str) else json.dumps(value)

    parts = [joined(output.get("text", ""))]
    parts += [joined(value) for value in output.get("data", {}).values()]
    parts += [output.get("ename", ""), output.get("evalue", ""), "\n".join(output.get("traceback", []))]
    return "\n".join(part for part in parts if part)


def located_lines(name: str, text: str):
    """(where, line) for every line a reader can see; a notebook is read per cell, source and outputs."""
    if name.endswith(".ipynb"):
        nb = json.loads(text)
        for number, cell in enumerate(nb.get("cells", []), 1):
            cell_id = cell.get("id", f"#{number}")
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else source
            for line_no, line in enumerate(source.splitlines(), 1):
                yield f"{name} cell {cell_id} source line {line_no}", line
            for out_no, output in enumerate(cell.get("outputs", []), 1):
                for line_no, line in enumerate(output_text(output).splitlines(), 1):
                    yield f"{name} cell {cell_id} output {out_no} line {line_no}", line
        metadata = json.dumps(nb.get("metadata", {}), ensure_ascii=False)
        yield f"{name} notebook metadata", metadata
    else:
        for line_no, line in enumerate(text.splitlines(), 1):
            yield f"{name}:{line_no}", line


def _allowed(name: str, pattern_name: str, line: str, match: re.Match) -> bool:
    for glob, allowed_pattern, phrase in ALLOWED:
        if fnmatch(name, glob) and allowed_pattern == pattern_name:
            for allowed in re.finditer(phrase, line):
                if allowed.start() <= match.start() and match.end() <= allowed.end():
                    return True
    return False


def hits_in(name: str, text: str) -> list[str]:
    """Every hit in one file, as 'where: what (the matched text)'."""
    hits = []
    for where, line in located_lines(name, text):
        for pattern_name, pattern in PATTERNS.items():
            for match in pattern.finditer(line):
                if not _allowed(name, pattern_name, line, match):
                    hits.append(f"{where}: {pattern_name} ({match.group(0)!r} in {line.strip()[:120]!r})")
    return hits


def test_no_tracked_file_points_outside_the_repository():
    files = tracked_files()
    assert "README.md" in files, "git ls-files did not list the repository's files"
    hits = []
    for name in files:
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        text = text_of(path)
        if text is not None:
            hits.extend(hits_in(name, text))
    assert not hits, "machine paths or outside references in tracked files:\n" + "\n".join(hits)


# --- the check itself can fail, and does not fail on in-repo paths ------------------------------------------

BAD = [
    "python " + "/ho" + "me/ana/kit/run.py",
    "open('" + "/Us" + "ers/ana/Desktop/key.txt')",
    "C:" + "\\" + "Users" + "\\" + "ana\\kit",
    "cd " + "/ro" + "ot/kit",
    f"cd {ROOT.parent.as_posix()}/other-kit",
    "written to " + "/tm" + "p/run-1/out.json",
    "facts in " + "../" + "sha" + "red/facts.md",
    "copied from shared" + "/notes/gate.md",
    "(see " + "no" + "tes)",
    "See the approval-gate " + "no" + "tes.",
    "ANTHROPIC_API_KEY=" + "sk-ant-" + "api03-abcdefghijklmnop",
]
GOOD = [
    "read workspace/notes/meeting.md, then notes/todo.md",
    "links are not followed (in notes/../alias/a.md); the folder notes/ is swapped",
    "a scratch file such as scratch/notes.txt",
    "see docs/architecture.md",
    "the path ~/kit/run.py is fine, and so is https://example.org" + "/ho" + "me/page",
    "tool_root = tmp_path_factory.mktemp('tool-root')",
    "--root DIR",
    "ANTHROPIC_API_KEY=sk-ant-... in a git-ignored .env",
    "the /tmp folder on its own, or /etc/passwd refused by the sandbox",
]


@pytest.mark.parametrize("line", BAD)
def test_the_check_finds(line):
    assert hits_in("example.py", line), line


@pytest.mark.parametrize("line", GOOD)
def test_the_check_passes(line):
    assert hits_in("example.py", line) == [], line


def test_a_notebook_hit_names_the_cell_and_whether_source_or_output():
    nb = {"cells": [{"id": "first-request", "cell_type": "code", "source": ["print('hi')\n"],
                     "outputs": [{"output_type": "stream", "name": "stdout",
                                  "text": ["ok\n", "saved to " + "/ho" + "me/ana/out.txt\n"]}]}],
          "metadata": {}}
    (hit,) = hits_in("notebooks/x.ipynb", json.dumps(nb))
    assert hit.startswith("notebooks/x.ipynb cell first-request output 1 line 2: home folder")


def test_an_allowed_phrase_is_allowed_only_in_its_file():
    line = "Ana drafts the release " + "no" + "tes"
    assert hits_in("workspace/notes/meeting.md", line) == []
    assert hits_in("docs/other.md", line)


@pytest.mark.parametrize("entry", ALLOWED, ids=lambda entry: f"{entry[0]}: {entry[2]}")
def test_every_allowed_phrase_is_still_there(entry):
    """An allow-list entry whose phrase is gone would silently allow the next hit in that file: remove it."""
    glob, pattern_name, phrase = entry
    files = [name for name in tracked_files() if fnmatch(name, glob)]
    assert files, f"no tracked file matches {glob}"
    found = [line for name in files for _, line in located_lines(name, text_of(ROOT / name) or "")
             if any(_allowed(name, pattern_name, line, m) for m in PATTERNS[pattern_name].finditer(line))]
    assert found, f"{phrase!r} no longer appears in {glob}: remove it from ALLOWED"
