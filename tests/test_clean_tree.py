"""A test run leaves the work tree as it found it (tests/clean_tree.py, used by tests/conftest.py's session hooks):
what it notes, what it deletes, what it reports, on a git repository made for the test."""

import shutil
import subprocess
from pathlib import Path

import pytest

import clean_tree

REPO = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def kit(tmp_path):
    """A small clone: a tracked README, workspace/scratch/ ignored but for its .gitkeep, .test-output/ ignored."""
    (tmp_path / "workspace" / "scratch").mkdir(parents=True)
    (tmp_path / "workspace" / "scratch" / ".gitkeep").write_text("")
    (tmp_path / "README.md").write_text("kit\n")
    (tmp_path / ".gitignore").write_text("workspace/scratch/*\n!workspace/scratch/.gitkeep\n.test-output/\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "kit")
    return tmp_path


def test_a_run_that_writes_only_its_own_folder_and_scratch_leaves_nothing(kit):
    (kit / "workspace" / "scratch" / "mine.txt").write_text("a learner's file, there before the run")
    before = clean_tree.state(kit)
    (kit / "workspace" / "scratch" / "policy-demo.txt").write_text("draft")  # the tools' file
    (kit / "workspace" / "scratch" / "sub").mkdir()
    (kit / ".test-output" / "screenshots").mkdir(parents=True)
    (kit / ".test-output" / "screenshots" / "a.png").write_bytes(b"png")
    (kit / "workspace" / "__pycache__").mkdir()  # next to a module of the kit
    (kit / "workspace" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"")
    assert clean_tree.forget_new_scratch(kit, before[1]) == ["policy-demo.txt", "sub"]
    assert sorted(p.name for p in (kit / "workspace" / "scratch").iterdir()) == [".gitkeep", "mine.txt"]
    assert clean_tree.left_behind(before[0], clean_tree.state(kit)[0]) == []


def test_anything_else_new_changed_or_gone_is_reported(kit):
    (kit / "notes.md").write_text("tracked")
    git(kit, "add", "notes.md")
    git(kit, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "notes")
    before = clean_tree.state(kit)
    (kit / "test-artifacts").mkdir()
    (kit / "test-artifacts" / "shot.png").write_bytes(b"png")  # untracked
    (kit / "README.md").write_text("changed\n")  # modified
    (kit / "notes.md").unlink()  # gone
    assert clean_tree.left_behind(before[0], clean_tree.state(kit)[0]) == [" D notes.md", " M README.md",
                                                                          "?? test-artifacts/"]


def test_ignored_files_count_too(kit):
    (kit / ".gitignore").write_text((kit / ".gitignore").read_text() + ".hypothesis/\n")
    before = clean_tree.state(kit)
    (kit / ".hypothesis").mkdir()
    (kit / ".hypothesis" / "db").write_text("x")
    assert clean_tree.left_behind(before[0], clean_tree.state(kit)[0]) == ["!! .hypothesis/"]


def test_outside_a_git_clone_nothing_is_checked(tmp_path):
    assert clean_tree.state(tmp_path) is None


def test_the_kit_ignores_its_test_output_folder():
    if not (REPO / ".git").exists():
        pytest.skip("not a git clone")
    ignored = subprocess.run(["git", "check-ignore", "-q", f"{clean_tree.OUTPUT}/screenshots/a.png"], cwd=REPO)
    assert ignored.returncode == 0
