"""GitHub Classroom: the workflow is valid YAML, uses only the documented inputs of Classroom's two actions, never
runs where grade.yml runs, and its grading commands — read from the file and run exactly as written, in a student
template made by the export command — give the solutions full marks and the starters zero. The export holds no
solution.

Documented inputs (classroom-resources/autograding-command-grader@v1): test-name, setup-command, command,
timeout (minutes), max-score; the reporter (autograding-grading-reporter@v1) reads <ID>_RESULTS from env and
`runners`, the step ids, comma-separated.
"""

import csv
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
GRADER_INPUTS = {"test-name", "setup-command", "command", "timeout", "max-score"}
EXERCISE_NAMES = sorted(p.name for p in (ROOT / "exercises").glob("[0-9]*.ipynb"))


def workflow(name):
    return yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))


def steps():
    (job,) = workflow("classroom.yml")["jobs"].values()
    return job["steps"]


def graders():
    return [s for s in steps() if s.get("uses") == GRADER]


def test_the_workflow_uses_only_the_documented_inputs():
    found = graders()
    assert len(found) == 5
    commands = [s["with"]["command"] for s in found]
    for notebook in EXERCISE_NAMES:  # one graded step per exercise
        assert sum(f"submitted --exercise {notebook} " in c for c in commands) == 1, notebook
    for step in found:
        assert set(step["with"]) <= GRADER_INPUTS and {"test-name", "command", "max-score"} <= set(step["with"])
        assert isinstance(step["with"]["max-score"], int) and step["with"]["max-score"] > 0
        assert isinstance(step["with"]["timeout"], int) and 1 <= step["with"]["timeout"] <= 360
    (reporter,) = [s for s in steps() if s.get("uses") == REPORTER]
    ids = [s["id"] for s in found]
    assert set(reporter["with"]) == {"runners"} and reporter["with"]["runners"] == ",".join(ids)
    assert reporter["env"] == {f"{i.upper()}_RESULTS": f"${{{{ steps.{i}.outputs.result }}}}" for i in ids}


def test_classroom_grades_sandboxed_or_not_at_all():
    """Every grading step asks for bubblewrap (`--sandbox bwrap`: the gradebook refuses to grade without it, never an
    unsandboxed score); a step before them installs it and fails unless a sandbox starts (turning the AppArmor
    switch of Ubuntu 24.04 runners only when bwrap cannot start without it). Its probe is a real bwrap command."""
    names = [s.get("name") for s in steps()]
    sandbox = steps()[names.index("Sandbox (bubblewrap)")]
    assert names.index("Sandbox (bubblewrap)") < min(names.index(s["name"]) for s in graders())
    assert all(s["with"]["command"].split()[-2:] == ["--sandbox", "bwrap"] for s in graders())
    script = sandbox["run"]
    assert "apt-get install -y -qq bubblewrap" in script and "exit 1" in script
    assert script.index("if ! probe; then\n  sudo sysctl") < script.rindex("if ! probe; then")
    probe = script.split("probe() { ", 1)[1].split("; }", 1)[0]
    if shutil.which("bwrap"):
        assert subprocess.run(shlex.split(probe), capture_output=True, timeout=60).returncode == 0, probe


def test_both_workflows_grade_every_exercise_once():
    """A new exercise (or a deleted step) shows up here: each workflow has one step per exercise of the kit."""
    assert len(EXERCISE_NAMES) == 5
    (fork_job,) = workflow("grade.yml")["jobs"].values()
    for name, commands in (("classroom.yml", [s["with"]["command"] for s in graders()]),
                           ("grade.yml", [s["run"] for s in fork_job["steps"] if "grader.gradebook" in s.get("run", "")])):
        graded = [c.split("--exercise ")[1].split()[0] for c in commands]
        assert sorted(graded) == EXERCISE_NAMES, (name, graded)
        assert all("--require-pass" in c for c in commands), name
    fork_steps = [s for s in fork_job["steps"] if "grader.gradebook" in s.get("run", "")]
    assert all(s.get("if") == "success() || failure()" for s in fork_steps)  # a red exercise does not hide the rest


def test_the_limits_leave_time_for_the_reporter():
    """Every grading step ends within its own timeout (two editions at most, each bounded by --timeout), and the
    steps together, after an install, within the job's: a step cut short scores 0 but the reporter still runs; a
    job cut short reports nothing."""
    (job,) = workflow("classroom.yml")["jobs"].values()
    install_allowance = 8  # minutes: setup-python, `pip install -r requirements.txt`, the sandbox's apt-get
    total = 0
    for step in graders():
        argv = step["with"]["command"].split()
        per_notebook = float(argv[argv.index("--timeout") + 1])
        assert float(argv[argv.index("--cell-timeout") + 1]) <= per_notebook
        assert 2 * per_notebook + 60 <= step["with"]["timeout"] * 60, step["with"]["test-name"]  # + start-up
        total += step["with"]["timeout"]
    assert total + install_allowance <= job["timeout-minutes"], (total, job["timeout-minutes"])
    (fork_job,) = workflow("grade.yml")["jobs"].values()
    fork_steps = [s["run"].split() for s in fork_job["steps"] if "grader.gradebook" in s.get("run", "")]
    assert sum(2 * float(a[a.index("--timeout") + 1]) for a in fork_steps) / 60 + install_allowance <= fork_job["timeout-minutes"]


def test_in_a_fork_the_exercise_mode_finds_both_editions_and_never_a_solution():
    """grade.yml runs `gradebook exercises --exercise NAME` in a fork, where exercises/solutions/ exists too."""
    sys.path.insert(0, str(ROOT))
    from grader.gradebook import discover

    for name in EXERCISE_NAMES:
        found = [j.file for j in discover(ROOT / "exercises", name)]
        assert found == [name, f"es/{name}"], found


def test_it_never_grades_where_the_fork_workflow_grades():
    (job,) = workflow("classroom.yml")["jobs"].values()
    assert "!github.event.repository.fork" in job["if"] and "!github.event.repository.is_template" in job["if"]
    fork = workflow("grade.yml")
    (fork_job,) = fork["jobs"].values()
    assert fork_job["if"].startswith("github.event.repository.fork")
    assert "workflow_dispatch" in fork_job["if"]  # by hand only otherwise: a push to a non-fork is never graded


def run_step(step, cwd):
    """A workflow step's command, run as written ("python" is this interpreter)."""
    command = step["with"]["command"] if "with" in step else step["run"]
    argv = shlex.split(command)
    if argv[0] == "python":
        argv[0] = sys.executable
    return subprocess.Popen(argv, cwd=cwd, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    out = tmp_path_factory.mktemp("export") / "class"
    run = subprocess.run([sys.executable, "-m", "grader.export_template", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    yield out
    shutil.rmtree(out, ignore_errors=True)


def test_the_export_has_no_solutions_and_is_a_classroom_template(template):
    assert not (template / "exercises" / "solutions").exists()
    assert (template / ".github" / "classroom-template").is_file()
    assert (template / ".github" / "workflows" / "classroom.yml").read_bytes() == (WORKFLOWS / "classroom.yml").read_bytes()
    assert not (template / ".github" / "workflows" / "grade.yml").exists()
    assert not (template / "docs" / "teaching.md").exists() and not (template / "tests" / "test_exercises.py").exists()
    assert "Every push is graded" in (template / "README.md").read_text(encoding="utf-8")
    # the starters and lessons no longer send the student to a solutions/ folder the template does not have
    pointing = [p.relative_to(template).as_posix() for p in template.rglob("*.ipynb")
                if "exercises/solutions/" in p.read_text(encoding="utf-8")
                or "exercises/es/solutions/" in p.read_text(encoding="utf-8")]
    assert not pointing, pointing
    assert "your teacher's copy of the kit" in (template / "exercises" / "01_tiered_policy.ipynb").read_text(encoding="utf-8")
    # no answer anywhere: the solutions' exercise cells appear in no exported file
    lessons = "\n".join(p.read_text(encoding="utf-8") for p in [*ROOT.glob("harness_lib/**/*.py"),
                                                                   *ROOT.glob("notebooks/*.ipynb"),
                                                                   ROOT / "exercises" / "grading.py",
                                                                   *ROOT.glob("exercises/checks/*.py"),
                                                                   ROOT / "exercises" / "README.md"])
    answers = []
    for solution in (ROOT / "exercises" / "solutions").glob("*.ipynb"):
        nb = json.loads(solution.read_text(encoding="utf-8"))
        given = lessons + "".join(p.read_text(encoding="utf-8") for p in (ROOT / "exercises").glob("*.ipynb"))
        for cell in nb["cells"]:
            if "exercise" in cell["metadata"].get("tags", []):
                answers += [line.strip() for line in "".join(cell["source"]).splitlines()
                            if len(line.strip()) > 30 and line.strip() not in given
                            and json.dumps(line.strip())[1:-1] not in given]
    assert len(answers) > 10
    exported = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in template.rglob("*") if p.is_file()
                         and p.suffix in (".ipynb", ".py", ".md", ".txt", ".toml", ".lock", ".yml", ".cfg", ""))
    leaked = [a for a in answers if a in exported]
    assert not leaked, leaked[:3]


@pytest.mark.slow
def test_the_workflow_commands_give_solutions_full_marks_and_starters_zero(template):
    """Four learners' repositories, graded by the workflow's own commands:
    - "solutions": every exercise solved, full marks: exercises 2, 3 and 5 in English, 1 and 4 in Spanish (the English
      starter, left as shipped, is not run); and a sitecustomize.py committed at the root, which no grading process
      may import;
    - "mixed": exercise 2's file holds exercise 3 (0, with the reason), exercise 3 left as the starter in both
      editions (0, no kernel runs, though a solution was committed in submitted/: the collect step starts from
      empty submitted/ and grades/, and grades/02.csv was committed as a link to the grader's judge.py), exercise 4's file a committed symlink to the teacher's solution on the grading
      machine (0: "a symlink to ...", never graded as its target; no kernel runs); graded by those three steps;
    - "edited-grader": the solutions with the checks' verdicts (exercises/checks/verdict.py) edited to pass everything: 0
      (refused before any kernel runs; shown by exercise 1's step);
    - "teacher-kit": the teacher's grader checked out in .kit (KIT_REPOSITORY), and a learner whose repository holds
      the solutions next to a kit edited to fail everything and a csv.py at the root (which `python -m` would
      import in place of Python's own): the teacher's grader grades exercise 1, full marks, and the csv.py never
      runs."""
    collect = next(s for s in steps() if s.get("name") == "Collect the submission")
    found = graders()
    scores, logs = {}, {}
    solutions = ROOT / "exercises" / "solutions"
    marker = template.parent / "sitecustomize-ran"
    for who in ("solutions", "mixed", "edited-grader", "teacher-kit"):
        work = template.parent / who
        shutil.copytree(template, work)
        if who == "teacher-kit":
            shutil.copytree(template, work / ".kit")  # the workflow's "Teacher's grader" checkout
            kit = work / "exercises" / "checks" / "verdict.py"  # the learner's copy: every criterion fails
            kit.write_text(kit.read_text(encoding="utf-8").replace(
                "        passed = bool(passed)", "        passed = False", 1), encoding="utf-8")
            assert "passed = False" in kit.read_text(encoding="utf-8")
            (work / "csv.py").write_text(f"open({str(marker)!r}, 'a').write('csv.py ran')\n", encoding="utf-8")
        if who in ("edited-grader", "teacher-kit"):
            for nb in solutions.glob("*.ipynb"):
                shutil.copy2(nb, work / "exercises" / nb.name)
        if who == "edited-grader":
            kit = work / "exercises" / "checks" / "verdict.py"  # Checks.ok: every criterion of every check passes
            kit.write_text(kit.read_text(encoding="utf-8").replace(
                "        passed = bool(passed)", "        passed = True", 1), encoding="utf-8")
            assert "passed = True" in kit.read_text(encoding="utf-8")
        if who == "solutions":
            for name in (EXERCISE_NAMES[0], EXERCISE_NAMES[3]):
                shutil.copy2(ROOT / "exercises" / "es" / "solutions" / name, work / "exercises" / "es" / name)
            for name in (EXERCISE_NAMES[1], EXERCISE_NAMES[2], EXERCISE_NAMES[4]):
                shutil.copy2(solutions / name, work / "exercises" / name)
            (work / "sitecustomize.py").write_text(f"open({str(marker)!r}, 'a').write('ran')\n", encoding="utf-8")
        if who == "mixed":
            shutil.copy2(solutions / EXERCISE_NAMES[2], work / "exercises" / EXERCISE_NAMES[1])
            (work / "exercises" / EXERCISE_NAMES[3]).unlink()
            (work / "exercises" / EXERCISE_NAMES[3]).symlink_to(solutions / EXERCISE_NAMES[3])
            # committed in the repository: a solved notebook in submitted/ (an "edition" the collect step once kept)
            # and grades/02.csv, a link to the runner's judge (the gradebook once overwrote it with its CSV)
            (work / "submitted" / "x").mkdir(parents=True)
            shutil.copy2(solutions / EXERCISE_NAMES[2], work / "submitted" / "x" / EXERCISE_NAMES[2])
            (work / "grades").mkdir()
            (work / "grades" / "02.csv").symlink_to(Path("..", "grader", "judge.py"))
            judge_before = (work / "grader" / "judge.py").read_bytes()
        assert subprocess.run(["bash", "-e", "-c", collect["run"]], cwd=work, env={**os.environ, "GITHUB_OUTPUT": os.devnull}).returncode == 0
        # the teacher's checkout, and the refusal of an edited grader, are shown by one exercise: each is decided
        # before any notebook runs, the same way for every step
        procs = [(step, run_step(step, work)) for step in {"teacher-kit": found[:1], "edited-grader": found[:1],
                                                            "mixed": found[1:4]}.get(who, found)]
        scores[who] = 0
        for step, proc in procs:
            out, _ = proc.communicate(timeout=900)
            if proc.returncode == 0:
                scores[who] += step["with"]["max-score"]
            assert proc.returncode in (0, 1), out[-3000:]
            logs[who, step["id"]] = out
            print(out[-1500:])
    points = [s["with"]["max-score"] for s in found]
    assert scores == {"solutions": sum(points), "mixed": 0, "edited-grader": 0, "teacher-kit": points[0]}
    assert not (template.parent / "teacher-kit" / "csv.py").exists()
    assert (template.parent / "mixed" / "grader" / "judge.py").read_bytes() == judge_before
    # exercise 5's CSV: one column per scenario of each check (s1, s2, ... in order), each 1 for the solution
    (row,) = csv.DictReader((template.parent / "solutions" / "grades" / "05.csv").open(encoding="utf-8"))
    scenarios = {k: v for k, v in row.items() if k.startswith("05:check-") and ":s" in k}
    assert len(scenarios) >= 30 and set(scenarios.values()) == {"1"}, scenarios
    assert {"05:check-loop:s1", "05:check-valves:s1", "05:check-gate:s13"} <= set(scenarios)
    for i in (0, 3):
        assert f"{EXERCISE_NAMES[i]}: PASS (es/{EXERCISE_NAMES[i]})" in logs["solutions", found[i]["id"]]
    assert (f"this file is graded as {EXERCISE_NAMES[1]}, but it holds exercise {EXERCISE_NAMES[2]}"
            in logs["mixed", found[1]["id"]])
    assert f"{EXERCISE_NAMES[2]}: NOT STARTED" in logs["mixed", found[2]["id"]]
    assert f"{EXERCISE_NAMES[3]}: ERROR (a symlink to {solutions / EXERCISE_NAMES[3]}" in logs["mixed", found[3]["id"]]
    assert "exercises/checks/verdict.py (the checks' code) was edited" in logs["edited-grader", found[0]["id"]]
    assert not marker.exists(), "a committed sitecustomize.py or csv.py was imported by a grading process"


def test_an_edition_left_as_shipped_is_told_apart_by_the_lock_not_by_the_files_on_disk():
    """`--exercise` runs no kernel for an edition nobody wrote in: its ✏️ cells are the lock's record of the
    starter and no code cell was added. A changed ✏️ cell or an added cell (an answer written below the starter's
    cell) is work, and is graded."""
    sys.path.insert(0, str(ROOT))
    from exercises.lock import load_lock
    from grader.submissions import untouched

    lock = load_lock()
    for name in EXERCISE_NAMES:
        for edition in (ROOT / "exercises" / name, ROOT / "exercises" / "es" / name):
            nb = json.loads(edition.read_text(encoding="utf-8"))
            assert untouched(nb, name, lock), edition
            solved = json.loads((edition.parent / "solutions" / name).read_text(encoding="utf-8"))
            assert not untouched(solved, name, lock), edition
            added = json.loads(edition.read_text(encoding="utf-8"))
            added["cells"].append({"cell_type": "code", "id": "mine", "metadata": {}, "outputs": [],
                                   "execution_count": None, "source": "POLICY = {'get_time': 'allow'}\n"})
            assert not untouched(added, name, lock), edition
            blank = json.loads(edition.read_text(encoding="utf-8"))
            blank["cells"].append({"cell_type": "code", "id": "empty", "metadata": {}, "outputs": [],
                                   "execution_count": None, "source": "\n"})
            assert untouched(blank, name, lock), edition  # an empty cell is no work
