"""Committed notebooks are executed and clean: the kernel is python3 (named as the kernel names itself), no
widget-state noise, no machine paths or API keys in sources or outputs, every code cell of a lesson has run, and error
outputs appear only where meant."""

import json
import re
from pathlib import Path

import pytest
from ipykernel.kernelspec import get_kernel_dict

ROOT = Path(__file__).resolve().parent.parent
# Both editions: the English notebooks and their Spanish twins one folder down (notebooks/es, exercises/es).
LESSONS = sorted([*(ROOT / "notebooks").glob("*.ipynb"), *(ROOT / "notebooks" / "es").glob("*.ipynb")])
SOLUTIONS = sorted([*(ROOT / "exercises" / "solutions").glob("*.ipynb"),
                    *(ROOT / "exercises" / "es" / "solutions").glob("*.ipynb")])
STARTERS = sorted([*(ROOT / "exercises").glob("*.ipynb"), *(ROOT / "exercises" / "es").glob("*.ipynb")])
ALL = LESSONS + SOLUTIONS + STARTERS


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


# Something shaped like an Anthropic API key: "sk-ant-" and at least 10 key characters (real keys look like
# sk-ant-api03-<about 95 of them>). The placeholder "sk-ant-..." in the lessons' prose does not match.
API_KEY = re.compile(r"sk-ant-[A-Za-z0-9_-]{10,}")


def key_findings(nb) -> list[str]:
    """Where a notebook holds something key-shaped: 'cell <id> source' / 'cell <id> output <n>' / 'metadata'."""
    found = []
    for number, cell in enumerate(nb["cells"], 1):
        where = f"cell {cell.get('id', '#' + str(number))}"
        if API_KEY.search("".join(cell.get("source", ""))):
            found.append(f"{where} source")
        for out_no, out in enumerate(cell.get("outputs", []), 1):
            if API_KEY.search(json.dumps(out)):
                found.append(f"{where} output {out_no}")
        if API_KEY.search(json.dumps({k: v for k, v in cell.items() if k not in ("source", "outputs")})):
            found.append(f"{where} metadata or attachments")
    if API_KEY.search(json.dumps(nb.get("metadata", {}))):
        found.append("notebook metadata")
    return found


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_api_key_in_sources_or_outputs(path):
    found = key_findings(load(path))
    assert not found, (f"{path.relative_to(ROOT)} holds something shaped like an API key in: {', '.join(found)}. "
                       "Remove it (and revoke the key); give keys through the environment or a git-ignored .env")


def test_the_key_check_finds_a_key_in_a_source_and_in_an_output():
    fake = "sk-ant-" + "api03-" + "x" * 40  # built here, so this file holds no key-shaped text
    nb = {"metadata": {}, "cells": [
        {"id": "prose", "cell_type": "markdown", "source": ["Set `ANTHROPIC_API_KEY=sk-ant-...` first.\n"]},
        {"id": "pasted", "cell_type": "code", "source": [f"os.environ['ANTHROPIC_API_KEY'] = '{fake}'\n"],
         "outputs": []},
        {"id": "printed", "cell_type": "code", "source": ["print(os.environ['ANTHROPIC_API_KEY'])\n"],
         "outputs": [{"output_type": "stream", "name": "stdout", "text": [f"{fake}\n"]}]},
    ]}
    assert key_findings(nb) == ["cell pasted source", "cell printed output 1"]


def test_there_are_notebooks():
    assert LESSONS, "no lesson notebooks found"


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(ROOT)))
def test_metadata_is_clean(path):
    nb = load(path)
    assert nb["metadata"].get("kernelspec", {}).get("name") == "python3"
    # the kernel's own name for itself: JupyterLab writes it into a notebook whose kernelspec says another, so the
    # lesson would open changed (● on its tab, "save your changes?", and autosave rewrites the committed file)
    assert nb["metadata"]["kernelspec"].get("display_name") == get_kernel_dict()["display_name"], (
        "kernelspec display_name: set it in the English source, then python -m editions")
    assert "widgets" not in nb["metadata"], "saved widget state: clear it before committing"
    for cell in nb["cells"]:
        assert set(cell.get("metadata", {})) <= {"tags", "editable", "deletable", "jupyter", "collapsed"}, cell["metadata"]


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_executed(path):
    code = [c for c in load(path)["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    assert code and all(c.get("execution_count") for c in code), "run the notebook before committing it"


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(ROOT)))
def test_outputs_hold_no_machine_paths_or_unmeant_errors(path):
    for cell in load(path)["cells"]:
        if cell["cell_type"] != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        for out in cell.get("outputs", []):
            text = json.dumps(out)
            assert not re.search(r"/(work|root|tmp|home|Users)/", text), f"machine path in output: {text[:200]}"
            if out["output_type"] == "error":
                assert "raises-exception" in tags, f"unexpected error output: {out.get('ename')}"


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_REPR = re.compile(r"^\s*[A-Z]\w*\((children|description|value)=")  # VBox(children=(HTML(…, Button(description=…


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_outputs_show_no_widget_repr_or_test_only_line(path):
    """What a learner reads in a lesson opened from disk (issue 36): JupyterLab draws no widget from a saved notebook and
    shows a widget output's text form instead, so that is never the widget's repr; and no line only a test run prints."""
    for cell in load(path)["cells"]:
        for out in cell.get("outputs", []):
            shown = "".join(out.get("data", {}).get("text/plain", "")) if WIDGET_VIEW in out.get("data", {}) else ""
            assert not WIDGET_REPR.match(shown), (
                f"cell {cell['id']}: a widget's repr in a committed output: {shown[:80]!r} (the approver shows a sentence; "
                "for a lesson's own widget, drop the output's text/plain before committing)")
            text = "".join(out.get("text", "")) + json.dumps(out.get("data", {}), ensure_ascii=False)
            assert not re.search(r"headless|sin interfaz", text), f"cell {cell['id']}: a test-only line: {text[:200]!r}"
