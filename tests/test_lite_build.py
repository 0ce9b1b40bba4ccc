"""The browser-tab site's build and settings, read from the repository (no browser, no site needed).

tests/test_lite.py opens the built site in Chromium; these check what a teacher runs to publish it and the settings
the tab shares with the desktop.
"""

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from lite.build import SITE  # noqa: E402  (lite/ is a folder of the repository, not installed)


def test_the_pages_workflow_builds_with_the_documented_command_and_publishes_the_site():
    """.github/workflows/pages.yml (docs/teaching.md): run by hand, it builds with `python -m lite.build` on a plain
    Python and publishes the folder that command writes, with the permissions GitHub Pages asks for."""
    import yaml

    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    assert set(workflow[True]) == {"workflow_dispatch"}  # YAML 1.1 reads the key `on` as True; runs when asked
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    (job,) = workflow["jobs"].values()
    assert job["environment"]["name"] == "github-pages"
    steps = job["steps"]
    assert [s.get("run") for s in steps if "run" in s] == ["python -m lite.build"]
    uses = [s.get("uses", "").split("@")[0] for s in steps]
    assert uses == ["actions/checkout", "actions/setup-python", "", "actions/upload-pages-artifact",
                    "actions/deploy-pages"]
    python = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))["with"]["python-version"]
    assert tuple(int(n) for n in str(python).split(".")) >= (3, 11)
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"] == SITE.relative_to(REPO).as_posix()
    assert "python -m lite.build" in (REPO / "docs" / "teaching.md").read_text(encoding="utf-8")


def test_the_desktop_jupyterlab_has_no_news_pop_up_as_the_tab():
    """kernel_config/ (installed by requirements.txt, not editable) puts overrides.json into the venv's JupyterLab
    settings (share/jupyter/lab/settings/): the "Jupyter news" pop-up and the update check are off, as in the tab."""
    import tomllib

    desktop = json.loads((REPO / "kernel_config" / "overrides.json").read_text(encoding="utf-8"))
    tab = json.loads((REPO / "lite" / "overrides.json").read_text(encoding="utf-8"))
    notification = "@jupyterlab/apputils-extension:notification"
    assert desktop[notification] == tab[notification] == {"fetchNews": "false", "checkForUpdates": False}
    project = tomllib.loads((REPO / "kernel_config" / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["setuptools"]["data-files"]["share/jupyter/lab/settings"] == ["overrides.json"]
    assert "./kernel_config" in (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines()
