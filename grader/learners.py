"""Who submitted a notebook: the learner's name (and the LMS's id) from where the file is in the class's folder,
and what a person should know of the repository it came from.

- `learner_of` / `shared_prefix`: a Moodle folder ("Ana Pérez_1234_assignsubmission_file_": "Ana Pérez (1234)"), a
  cloned Classroom repository less the assignment prefix its siblings share, an LMS download's file name (Canvas's
  "login_123_456_NAME.ipynb" first: "login (123)", then "José Núñez - NAME.ipynb"), else the file's name;
- `learner_folders`: the folders of a class's download, each a learner's;
- `workflow_notes`: a cloned Classroom repository whose .github/ is not the template's, or was not in an
  earlier commit (`workflow_history`: an edit reverted with [skip ci]).

What it does NOT do: tell two people apart who share a name and no id (a folder of plain names), or decide
anything of a grade.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


LMS_FOLDER = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_\w*$")  # Moodle: "Ana Pérez_1234_assignsubmission_file_"
# An LMS download's file names, Canvas's first: "perezana_123_456_Final - 01.ipynb" is perezana's (Canvas's user id
# 123), never "perezana_123_456_Final"'s
LMS_FILE = (re.compile(r"^(?:late_)?(?P<name>[a-z][a-z0-9]*)_(?:LATE_)?(?P<id>\d+)_\d+_.+$"),  # Canvas
            re.compile(r"^(?P<name>.+?)\s+-\s+.+$"))  # "José Núñez - 01_tiered_policy.ipynb"


def learner_of(rel: Path, prefix: str = "") -> str:
    """Who submitted it: the first folder under SUBMISSIONS (a Moodle folder's name, a cloned Classroom
    repository's name less the assignment prefix its siblings share), else the learner named in the file's name
    (an LMS download: Canvas's "login_123_456_NAME.ipynb", "José Núñez - NAME.ipynb"), else the file's name. The
    LMS's id stays with the name ("Ana Pérez (1234)"): two learners of one name are two learners, in the CSV, the
    feedback and --merge."""
    if len(rel.parts) > 1:
        folder = rel.parts[0]
        moodle = LMS_FOLDER.match(folder)
        if moodle:
            return f"{moodle['name']} ({moodle['id']})"
        return folder[len(prefix):] if prefix and folder.startswith(prefix) and len(folder) > len(prefix) else folder
    for pattern in LMS_FILE:
        found = pattern.match(rel.stem)
        if found:
            ident = found.groupdict().get("id")
            return found["name"].strip() + (f" ({ident})" if ident else "")
    return rel.stem


def shared_prefix(folders: list[str]) -> str:
    """The assignment prefix of cloned Classroom repositories ("harness-exercises-ana", "harness-exercises-bo" ->
    "harness-exercises-"), cut at a "-"; "" unless there are two folders or more."""
    if len(folders) < 2:
        return ""
    common = os.path.commonprefix(folders)
    return common[:common.rfind("-") + 1]


def learner_folders(folder: Path) -> list[str]:
    """The folders right under `folder` (a learner's each, in a class's download), hidden ones left out."""
    try:
        return sorted(e.name for e in os.scandir(folder) if e.is_dir(follow_symlinks=False)
                      and not e.name.startswith((".", "__MACOSX")))
    except OSError:
        return []


CLASSROOM_WORKFLOW = Path(".github", "workflows", "classroom.yml")
CLASSROOM_MARKER = Path(".github", "classroom-template")  # written by grader/export_template.py


def workflow_notes(notebook: Path, folder: Path) -> list[str]:
    """A cloned Classroom repository (a folder above the notebook, inside `folder`, that holds .github/ or .git/)
    whose .github/ is not what the template ships (the kit's .github/workflows/classroom.yml and the
    classroom-template marker, nothing else): its Classroom points may come from a workflow the learner edited,
    deleted or added. One note for a person, listing what differs; the gradebook's own verdict does not depend on
    it. Links under .github/ are never followed: a link is itself a difference."""
    kit = ROOT / CLASSROOM_WORKFLOW
    for repo in notebook.parents:
        if repo == folder.parent or not repo.is_relative_to(folder):
            break
        github = repo / ".github"
        if not (github.exists() or github.is_symlink() or (repo / ".git").exists()):
            continue
        if github.is_symlink() or not github.is_dir():
            return ["its repository's .github/ is missing or a symlink: the kit's Classroom workflow is not there"]
        theirs, links = {}, []
        for where, folders, files in os.walk(github):
            for name in folders + files:
                path = Path(where, name)
                if path.is_symlink():
                    links.append(path.relative_to(repo).as_posix())
                elif path.is_file():
                    theirs[path.relative_to(repo).as_posix()] = path
        differs = [f"{name} is a symlink" for name in sorted(links)]
        ours = theirs.pop(CLASSROOM_WORKFLOW.as_posix(), None)
        if ours is None and CLASSROOM_WORKFLOW.as_posix() not in links:
            differs.append(f"{CLASSROOM_WORKFLOW.as_posix()} is missing")
        elif ours is not None and not (kit.is_file() and ours.read_bytes() == kit.read_bytes()):
            differs.append(f"{CLASSROOM_WORKFLOW.as_posix()} is not the kit's")
        theirs.pop(CLASSROOM_MARKER.as_posix(), None)
        differs += [f"{name} was added" for name in sorted(theirs)]
        if not differs:
            return workflow_history(repo)
        return [f"its repository's .github/ is not the template's ({'; '.join(differs)}): its Classroom points may "
                "come from an edited workflow"]
    return []


def workflow_history(repo: Path) -> list[str]:
    """A cloned repository whose .github/ is the template's now, but which changed it in an earlier commit (a
    workflow edited, pushed, then reverted with [skip ci]: no run for the revert): one note, from git's history.
    [] when its history has only the commit that made it, or git cannot read it (no .git/, no git). git runs with
    the repository's hooks and fsmonitor off: nothing of the learner's is run."""
    if not (repo / ".git").is_dir() or shutil.which("git") is None:
        return []
    try:
        run = subprocess.run(["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-C", str(repo),
                              "rev-list", "--count", "HEAD", "--", ".github"], capture_output=True, text=True,
                             timeout=20, env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"})
        count = int(run.stdout.strip()) if run.returncode == 0 else 0
    except (OSError, subprocess.SubprocessError, ValueError):
        return []
    if count <= 1:  # (the commit the template's copy began with)
        return []
    return [f"its repository's .github/ is the template's now, but {count - 1} later commit(s) changed it (git log -- "
            ".github/): its Classroom points may have come from an edited workflow"]
