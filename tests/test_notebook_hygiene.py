"""Committed notebooks are executed and clean: the kernel is python3, no widget-state noise, no machine paths
or secrets in outputs, every code cell of a lesson has run, and error outputs appear only where meant."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SOLUTIONS = sorted((ROOT / "exercises" / "solutions").glob("*.ipynb"))
STARTERS = sorted((ROOT / "exercises").glob("*.ipynb"))
ALL = LESSONS + SOLUTIONS + STARTERS


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_notebooks():
    assert LESSONS, "no lesson notebooks found"


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(ROOT)))
def test_metadata_is_clean(path):
    nb = load(path)
    assert nb["metadata"].get("kernelspec", {}).get("name") == "python3"
    assert "widgets" not in nb["metadata"], "saved widget state: clear it before committing"
    for cell in nb["cells"]:
        assert set(cell.get("metadata", {})) <= {"tags", "editable", "deletable", "jupyter", "collapsed"}, cell["metadata"]


@pytest.mark.parametrize("path", LESSONS + SOLUTIONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_committed_executed(path):
    code = [c for c in load(path)["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()]
    assert code and all(c.get("execution_count") for c in code), "run the notebook before committing it"


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(ROOT)))
def test_outputs_hold_no_machine_paths_secrets_or_unmeant_errors(path):
    for cell in load(path)["cells"]:
        if cell["cell_type"] != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        for out in cell.get("outputs", []):
            text = json.dumps(out)
            assert not re.search(r"/(work|root|tmp|home|Users)/", text), f"machine path in output: {text[:200]}"
            assert "sk-ant-" not in text
            if out["output_type"] == "error":
                assert "raises-exception" in tags, f"unexpected error output: {out.get('ename')}"
