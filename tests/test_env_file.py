"""harness_lib.client reads a git-ignored .env file when it decides offline or live, and never overrides.

Each test works in its own temporary folder with its own .env; every variable the file could set is first set
and then deleted through monkeypatch, so whatever load_dotenv writes into os.environ is undone afterwards.
"""

import os
import subprocess
from pathlib import Path

import pytest

from harness_kit.env import load_env_file
from harness_lib.client import is_live, make_client, offline_api

ROOT = Path(__file__).resolve().parent.parent
FILE_VARIABLES = ("ANTHROPIC_API_KEY", "HARNESS_OFFLINE", "KIT_ENV_FILE_PROBE")


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project folder with a .env, the current folder set to its notebooks/ subfolder, a clean environment."""
    for name in FILE_VARIABLES:
        monkeypatch.setenv(name, "placeholder")  # recorded, so the teardown removes what the file adds
        monkeypatch.delenv(name)
    monkeypatch.delenv("PYTHON_DOTENV_DISABLED", raising=False)  # the repo's conftest.py sets it for the tests
    (tmp_path / "notebooks").mkdir()
    monkeypatch.chdir(tmp_path / "notebooks")
    return tmp_path


def test_a_key_in_the_env_file_one_folder_up_goes_live_and_nothing_else_is_read(project):
    """The file gives the key and nothing else: no other line becomes a variable (a file never switches the kit)."""
    (project / ".env").write_text("ANTHROPIC_API_KEY=key-from-the-file\nKIT_ENV_FILE_PROBE=read\n")
    assert is_live()
    assert os.environ["ANTHROPIC_API_KEY"] == "key-from-the-file"
    assert "KIT_ENV_FILE_PROBE" not in os.environ


def test_a_variable_already_set_wins_over_the_file(project, monkeypatch):
    (project / ".env").write_text("ANTHROPIC_API_KEY=key-from-the-file\nHARNESS_OFFLINE=0\n")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "key-from-the-environment")
    monkeypatch.setenv("HARNESS_OFFLINE", "1")
    assert not is_live()
    assert os.environ["ANTHROPIC_API_KEY"] == "key-from-the-environment"
    assert os.environ["HARNESS_OFFLINE"] == "1"
    client = make_client()  # offline: the offline transport answers, the file's key is not used
    assert offline_api(client).log == []


def test_no_env_file_stays_offline(project):
    load_env_file()
    assert "ANTHROPIC_API_KEY" not in os.environ
    assert not is_live()


def test_python_dotenv_disabled_ignores_the_file(project, monkeypatch):
    (project / ".env").write_text("ANTHROPIC_API_KEY=key-from-the-file\n")
    monkeypatch.setenv("PYTHON_DOTENV_DISABLED", "1")
    assert not is_live()
    assert "ANTHROPIC_API_KEY" not in os.environ


def test_the_repository_ignores_env_files():
    for path in (".env", "notebooks/.env"):
        try:
            result = subprocess.run(["git", "check-ignore", "--quiet", path], cwd=ROOT)
        except OSError as err:
            pytest.skip(f"git is not available: {err}")
        assert result.returncode == 0, f"{path} is not git-ignored: a key written there could be committed"
