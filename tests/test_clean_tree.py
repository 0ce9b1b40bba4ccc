"""A test run leaves the work tree as it found it (tests/clean_tree.py, used by tests/conftest.py's session hooks):
what it notes and what it reports, on a git repository made for the test."""

import os
import shutil
import subprocess
import sys
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


def test_a_run_that_writes_only_its_own_folder_leaves_nothing(kit):
    (kit / "workspace" / "scratch" / "mine.txt").write_text("a learner's file, there before the run")
    before = clean_tree.state(kit)
    assert "workspace/scratch/mine.txt" in before[1]  # a learner's file is noted, by its content
    (kit / ".test-output" / "screenshots").mkdir(parents=True)
    (kit / ".test-output" / "screenshots" / "a.png").write_bytes(b"png")
    (kit / "workspace" / "__pycache__").mkdir()  # next to a module of the kit
    (kit / "workspace" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"")
    assert clean_tree.left_behind(before, clean_tree.state(kit)) == []


def test_a_learners_file_changed_or_deleted_fails_the_run(kit):
    """A learner's files in workspace/scratch/ (git-ignored, so `git status` alone sees no change to them) must be
    byte-identical at the end: one rewritten, one deleted, one written anew by a tool are each reported."""
    scratch = kit / "workspace" / "scratch"
    (scratch / "answer.txt").write_text("the learner's own answer")
    (scratch / "policy-demo.txt").write_text("draft")
    (scratch / "sub").mkdir()
    (scratch / "sub" / "notes.txt").write_text("kept in a folder")
    before = clean_tree.state(kit)
    (scratch / "answer.txt").write_text("a tool's answer")
    (scratch / "policy-demo.txt").unlink()
    (scratch / "sub" / "notes.txt").write_text("")
    (scratch / "new.txt").write_text("written by a test")
    assert clean_tree.left_behind(before, clean_tree.state(kit)) == [
        "!! workspace/scratch/new.txt", "!! workspace/scratch/policy-demo.txt",
        "changed: workspace/scratch/answer.txt", "deleted: workspace/scratch/policy-demo.txt",
        "changed: workspace/scratch/sub/notes.txt"]


def test_anything_else_new_changed_or_gone_is_reported(kit):
    (kit / "notes.md").write_text("tracked")
    git(kit, "add", "notes.md")
    git(kit, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "notes")
    before = clean_tree.state(kit)
    (kit / "test-artifacts").mkdir()
    (kit / "test-artifacts" / "shot.png").write_bytes(b"png")  # untracked
    (kit / "README.md").write_text("changed\n")  # modified
    (kit / "notes.md").unlink()  # gone
    assert clean_tree.left_behind(before, clean_tree.state(kit)) == [" D notes.md", " M README.md",
                                                                    "?? test-artifacts/"]


def test_ignored_files_count_too(kit):
    (kit / ".gitignore").write_text((kit / ".gitignore").read_text() + ".hypothesis/\n")
    before = clean_tree.state(kit)
    (kit / ".hypothesis").mkdir()
    (kit / ".hypothesis" / "db").write_text("x")
    assert clean_tree.left_behind(before, clean_tree.state(kit)) == ["!! .hypothesis/"]


def test_outside_a_git_clone_nothing_is_checked(tmp_path):
    assert clean_tree.state(tmp_path) is None


def test_the_kit_ignores_its_test_output_folder():
    if not (REPO / ".git").exists():
        pytest.skip("not a git clone")
    ignored = subprocess.run(["git", "check-ignore", "-q", f"{clean_tree.OUTPUT}/screenshots/a.png"], cwd=REPO)
    assert ignored.returncode == 0


def test_the_runs_tools_see_a_copy_of_workspace_not_the_kits():
    """The whole run (this process, its kernels and subprocesses) has HARNESS_TOOL_ROOT pointing at a copy of
    workspace/, so a notebook's tools never write into the kit's workspace/scratch/ (a learner's files live there)."""
    from harness_lib.tools import DEFAULT_ROOT, make_tool_impls

    kit_workspace = REPO / "workspace"
    assert DEFAULT_ROOT.resolve() != kit_workspace.resolve()
    assert DEFAULT_ROOT.name == "workspace"  # the lessons print "<kit>/workspace"
    assert (DEFAULT_ROOT / "README.md").read_bytes() == (kit_workspace / "README.md").read_bytes()
    child = subprocess.run([sys.executable, "-c", "from harness_lib.tools import DEFAULT_ROOT; print(DEFAULT_ROOT)"],
                           capture_output=True, text=True, timeout=60, check=True)
    assert Path(child.stdout.strip()) == DEFAULT_ROOT
    impls = make_tool_impls()  # the default root
    assert impls["write_file"]({"path": "scratch/clean-tree-probe.txt", "content": "x"}).startswith("wrote")
    try:
        assert (DEFAULT_ROOT / "scratch" / "clean-tree-probe.txt").exists()
        assert not (kit_workspace / "scratch" / "clean-tree-probe.txt").exists()
    finally:
        (DEFAULT_ROOT / "scratch" / "clean-tree-probe.txt").unlink(missing_ok=True)


def test_without_harness_tool_root_the_tools_see_the_kits_workspace():
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_TOOL_ROOT"}
    child = subprocess.run([sys.executable, "-c", "from harness_lib.tools import DEFAULT_ROOT; print(DEFAULT_ROOT)"],
                           capture_output=True, text=True, timeout=60, check=True, env=env)
    assert Path(child.stdout.strip()) == REPO / "workspace"
