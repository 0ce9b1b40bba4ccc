"""A class graded in shards (`--shard K/N`, then `--gather`: grader/shards.py) writes exactly what one gradebook
run over the whole class writes: the CSV, the summary and every feedback file, byte for byte. The shards are
graded by the commands of the teacher's workflow (.github/workflows/grade-class.yml), read from the file and run
as written (its "Collect the class" in folder mode, "Plan the shards", each shard's "Grade this shard", "Gather
the shards"), in a folder of their own standing for the runner's checkout (the kit is found on PYTHONPATH, so
nothing is written into the kit). The whole run and the two shards run at once: two kernels in all (one notebook,
graded whole and in its shard), sandboxed as the workflow grades.

The class: bo's Spanish wrong answer (FAIL: the one kernel; its feedback in Spanish, its checks' columns and the
summary's mistakes); ana's two files of one exercise, in different shards, each refused before any kernel (a check
edited; an API key), so the "one of 2 submissions" note can only come from the gather; a broken file; a learner
folder with no notebook; a symlink to ana's notebook.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_gradebook import APPROVE, DENIED, EX1, FAKE_KEY, bwrap_or_skip, edit, load, solution  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "grade-class.yml"
sys.path.insert(0, str(ROOT))
from grader import shards  # noqa: E402
from grader.gradebook import Job, discover  # noqa: E402


def steps(job):
    return {s["name"]: s for s in yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"][job]["steps"]
            if "name" in s}


def where(learner, file, n=2):
    return shards.shard_of(Job(path=Path(file), learner=learner, file=file), n)


def second_file():
    """A name for ana's second file that lands in the other shard than her first (found, not assumed)."""
    first = where("ana", f"ana/{EX1}")
    return next(f"ana/copy-{i}.ipynb" for i in range(100) if where("ana", f"ana/copy-{i}.ipynb") != first)


def make_class(folder: Path) -> None:
    folder.mkdir(parents=True)
    wrong = edit(edit(load(ROOT / "exercises" / "es" / "solutions" / EX1), "run-tool-uses", APPROVE,
                      APPROVE.replace("approve is not None and", "approve is None or")),
                 "run-tool-uses", DENIED, 'DENIED = "The person declined {name}."')
    files = {f"ana/{EX1}": edit(solution(EX1), "policy", prepend=f"KEY = {FAKE_KEY!r}\n"),
             second_file(): edit(solution(EX1), "check-deny", prepend="# ok\n"),
             f"bo/{EX1}": wrong, "cy/homework.ipynb": b"{ not json"}
    for rel, content in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode("utf-8"))
    (folder / "dee").mkdir()
    (folder / "eve").mkdir()
    os.symlink(f"../ana/{EX1}", folder / "eve" / EX1)


def bash(script, cwd, **env):
    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded whole (as docs/teaching.md says, with the workflow's limits) and by the workflow's steps."""
    bwrap_or_skip()  # the workflow grades in bubblewrap (under CI=true, a machine without it fails here)
    work = tmp_path_factory.mktemp("runner")  # the runner's checkout, for the workflow's relative paths
    make_class(work / "submissions")
    collect, grade, gather = steps("collect"), steps("grade"), steps("gather")
    out = bash(collect["Collect the class"]["run"], work, FOLDER="submissions", REPOSITORIES="", TOKEN="")
    assert out.returncode == 0, out.stderr
    plan = bash(collect["Plan the shards"]["run"], work, SHARDS="2", GITHUB_OUTPUT=str(work / "outputs"))
    assert plan.returncode == 0, plan.stderr
    outputs = dict(line.split("=", 1) for line in (work / "outputs").read_text().splitlines())
    whole = work / "whole"
    shutil.copytree(work / "submissions", whole / "class", symlinks=True)
    argv = grade["Grade this shard"]["run"].splitlines()[1].split("--out ")[1].split(None, 1)[1]  # its limits
    runs = [subprocess.Popen(f"{sys.executable} -m grader.gradebook class --out grades/grades.csv "
                             f"--feedback grades/feedback {argv}", shell=True, cwd=whole, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})]
    script = grade["Grade this shard"]["run"].replace("python -m", f"{sys.executable} -m")
    for k in json.loads(outputs["shards"]):  # each on a runner of its own, handed the class's artifact
        (work / f"runner-{k}").mkdir()
        shutil.copy(work / "class.tar", work / f"runner-{k}")
        runs.append(subprocess.Popen(["bash", "-e", "-c", script], cwd=work / f"runner-{k}", text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     env={**os.environ, "PYTHONPATH": str(ROOT), "SHARD": str(k), "SHARDS": "2",
                                          "STARTED": str(int(time.time()))}))
    logs = [r.communicate(timeout=600)[0] for r in runs]
    assert [r.returncode for r in runs] == [0, 0, 0], logs
    (work / "results").mkdir()  # the gather's download of every shard's artifact
    for k in json.loads(outputs["shards"]):
        shutil.copytree(work / f"runner-{k}" / "results", work / "results", dirs_exist_ok=True)
    joined = bash(gather["Gather the shards"]["run"].replace("python -m", f"{sys.executable} -m"), work)
    yield {"work": work, "whole": whole / "grades", "gathered": work / "grades", "outputs": outputs, "logs": logs,
           "gather": joined}


def tree(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_shards_gathered_write_what_one_run_writes_byte_for_byte(graded):
    assert graded["gather"].returncode == 0, graded["gather"].stderr
    assert graded["outputs"] == {"count": "5", "shards": "[1,2]"}  # the symlink is a notebook's name too
    whole, gathered = tree(graded["whole"]), tree(graded["gathered"])
    # ana's second file of exercise 1 gets a feedback file of its own (report.feedback_paths: a digest of its name)
    assert sorted(whole) == sorted(gathered) == ["feedback/ana/01_tiered_policy-2c363949.md",
                                                 "feedback/ana/01_tiered_policy.md", "feedback/bo/01_tiered_policy.md",
                                                 "feedback/cy/homework.md", "feedback/dee/dee.md",
                                                 "feedback/eve/01_tiered_policy.md", "grades.csv", "grades.md"]
    for name in whole:
        assert gathered[name] == whole[name], name
    rows = whole["grades.csv"].decode("utf-8")
    assert ",FAIL," in rows and "api-key" in rows and "grader-edited" in rows and "no-notebook" in rows
    assert f"one of 2 submissions of this exercise by ana: ana/{EX1}, {second_file()}" in rows  # across shards
    assert "Comentarios" in whole["feedback/bo/01_tiered_policy.md"].decode("utf-8")


def test_each_shard_grades_its_own_and_says_how_long_it_took(graded):
    results = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((graded["work"] / "results").glob("*.json"))]
    assert [r["shard"] for r in results] == ["1/2", "2/2"]
    mine = [{row["file"] for row in r["rows"]} for r in results]
    assert mine[0] and mine[1] and not mine[0] & mine[1] and len(mine[0] | mine[1]) == len(results[0]["class"]) == 6
    for k, log in ((1, graded["logs"][1]), (2, graded["logs"][2])):
        assert f"shard {k}/2: " in log and " s a notebook run) → results/shard-" in log, log
        assert f"timing: shard {k}/2 job took " in log, log


def test_a_gather_short_of_a_shard_writes_nothing_and_says_which_to_run(graded, tmp_path, capsys):
    """(The command's own process: its exit status is main's return value, `sys.exit(main())`.)"""
    from grader.gradebook import main

    first = graded["work"] / "results" / "shard-1.json"
    assert main(["--gather", str(first), "--out", str(tmp_path / "g.csv")]) == 2
    err = capsys.readouterr().err
    assert "run shard(s) 2/2 (again)" in err, err
    assert not list(tmp_path.iterdir())
    other = json.loads(first.read_text(encoding="utf-8"))
    other["settings"]["cell_timeout"] = 5
    (tmp_path / "other.json").write_text(json.dumps(other), encoding="utf-8")
    assert main(["--gather", str(tmp_path / "other.json"), str(graded["work"] / "results" / "shard-2.json"),
                 "--out", str(tmp_path / "g.csv")]) == 2
    assert "other settings" in capsys.readouterr().err and not (tmp_path / "g.csv").exists()


def test_a_shard_run_again_replaces_its_older_results_and_a_late_file_needs_its_shard(graded, tmp_path, capsys):
    """The newest shard's view of the class is the class: a shard graded again (here: cy's file, now a notebook of
    no exercise) replaces what it graded before; a file only the newest shard saw, graded by no shard, refuses."""
    from grader.gradebook import main

    results = {k: json.loads((graded["work"] / "results" / f"shard-{k}.json").read_text(encoding="utf-8"))
               for k in (1, 2)}
    k = next(k for k in (1, 2) if any(r["file"] == "cy/homework.ipynb" for r in results[k]["rows"]))
    again = json.loads(json.dumps(results[k]))
    again["saved"] += 60
    row = next(r for r in again["rows"] if r["file"] == "cy/homework.ipynb")
    row.update(verdict="NOT GRADED", cause="not-an-exercise", reason="not one of the exercises")
    for name, data in (("old-1", results[1]), ("old-2", results[2]), ("again", again)):
        (tmp_path / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    assert main(["--gather", *(str(tmp_path / f"{n}.json") for n in ("old-1", "old-2", "again")),
                 "--out", str(tmp_path / "g.csv")]) == 0
    rows = (tmp_path / "g.csv").read_text(encoding="utf-8")
    assert "cy,cy/homework.ipynb,,NOT GRADED,0,,,,not one of the exercises,not-an-exercise" in rows
    assert rows.count("\n") == 7  # the header and the class's six rows, none twice
    late = json.loads(json.dumps(again))
    late["class"].append(["zed", "zed/late.ipynb"])
    (tmp_path / "late.json").write_text(json.dumps(late), encoding="utf-8")
    (tmp_path / "g.csv").unlink()
    assert main(["--gather", str(tmp_path / "old-1.json"), str(tmp_path / "old-2.json"), str(tmp_path / "late.json"),
                 "--out", str(tmp_path / "g.csv")]) == 2
    err = capsys.readouterr().err
    assert "1 notebook(s) of the class graded by no shard given (first: zed/late.ipynb)" in err, err
    assert f"run shard(s) {where('zed', 'zed/late.ipynb')}/2 (again)" in err and not (tmp_path / "g.csv").exists()


def test_a_notebooks_shard_depends_on_its_learner_and_file_only(tmp_path):
    """Stable under re-runs, on any machine, and under a late file added for another learner; and every shard gets
    some of a class."""
    for who in ("ana", "bo", "cy", "dee"):
        for name in (EX1, "02_missing_guards.ipynb"):
            (tmp_path / who / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / who / name).write_text("{}", encoding="utf-8")
    before = {(j.learner, j.file): shards.shard_of(j, 3) for j in discover(tmp_path)}
    (tmp_path / "bo" / "late.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / "zed").mkdir()
    after = {(j.learner, j.file): shards.shard_of(j, 3) for j in discover(tmp_path)}
    assert {k: after[k] for k in before} == before and set(before.values()) == {1, 2, 3}
    assert shards.shard_of(Job(path=Path("x"), learner="ana", file=f"ana/{EX1}"), 3) == before[("ana", f"ana/{EX1}")]
    chosen = [shards.select(discover(tmp_path), f"{k}/3")[0] for k in (1, 2, 3)]
    assert sorted(j.file for js in chosen for j in js) == sorted(j.file for j in discover(tmp_path))
    for bad in ("0/3", "4/3", "3", "a/b", ""):
        with pytest.raises(ValueError):
            shards.parse(bad)


@pytest.mark.parametrize("argv, says", [
    (["--shard", "2/1"], "K/N with 1 <= K <= N"),
    (["--shard", "1/2", "--feedback", "fb"], "--feedback: not with --shard"),
    (["--shard", "1/2", "--exercise", EX1], "--exercise"),
    (["--gather", "x.json", "--shard", "1/2"], "one at a time"),
])
def test_shard_and_gather_refuse_what_they_cannot_do(argv, says, tmp_path, capsys):
    from grader.gradebook import main

    with pytest.raises(SystemExit):
        main([str(tmp_path), "--out", str(tmp_path / "s.json")] + argv if "--gather" not in argv else argv)
    assert says in capsys.readouterr().err


def test_the_workflow_is_dispatched_by_hand_and_grades_sandboxed_in_a_matrix():
    flow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert list(flow[True]) == ["workflow_dispatch"]  # (YAML reads the key `on` as True)
    assert set(flow[True]["workflow_dispatch"]["inputs"]) == {"repositories", "folder", "shards"}
    jobs = flow["jobs"]
    assert jobs["grade"]["needs"] == "collect" and jobs["gather"]["needs"] == "grade"
    assert jobs["gather"]["if"] == "${{ !cancelled() }}" and jobs["grade"]["strategy"]["fail-fast"] is False
    assert jobs["grade"]["strategy"]["matrix"]["shard"] == "${{ fromJSON(needs.collect.outputs.shards) }}"
    grade = steps("grade")["Grade this shard"]["run"]
    assert "--sandbox bwrap" in grade and '--shard "$SHARD/$SHARDS"' in grade
    for job in jobs.values():  # an input reaches a script through the environment, never spliced into its text
        assert all("inputs." not in s.get("run", "") for s in job["steps"])
    uploads = [s["with"]["name"] for job in jobs.values() for s in job["steps"]
               if s.get("uses", "").startswith("actions/upload-artifact")]
    assert uploads == ["class", "results-${{ matrix.shard }}", "grades"]


def test_the_progress_line_estimates_the_time_left_from_the_notebooks_graded_so_far(monkeypatch):
    """Rows decided before any kernel (a broken file, a link) count as done and take no time."""
    import io
    import sys

    from grader.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    monkeypatch.setattr(sys, "stderr", out)  # the gradebook's terminal
    progress = Progress(total=62, done=2)
    assert progress.line() == "graded 2 of 62"  # nothing graded yet: no estimate
    progress.step()
    progress.step()
    start = progress.started
    assert progress.line(now=start + 10) == "graded 4 of 62 · about 5 min left"  # 5 s a notebook, 58 to go
    assert progress.line(now=start + 2) == "graded 4 of 62 · about 58 s left"
    progress.done = 62
    assert progress.line(now=start + 100) == "graded 62 of 62"
    progress.end()
    assert out.getvalue().startswith("\rgraded 3 of 62") and out.getvalue().endswith("\n")
    quiet = io.StringIO()  # not a terminal (a CI log): no progress line
    monkeypatch.setattr(sys, "stderr", quiet)
    Progress(total=3, done=0).step()
    assert quiet.getvalue() == ""


def test_the_workflow_collects_the_exercises_and_github_folder_of_each_repository(tmp_path):
    """The collect step in repositories mode, its clone pointed at local repositories (file://, no network): each
    learner's folder holds the exercise notebooks of both editions (a symlink kept a symlink) and .github/, never
    the lessons; the learners are named as the gradebook names cloned repositories."""
    for who in ("hx-ana", "hx-bo"):
        repo = tmp_path / "origin" / "teacher" / f"{who}.git"  # (a working tree, named as a remote is)
        (repo / "exercises" / "es").mkdir(parents=True)
        (repo / "notebooks").mkdir()
        (repo / ".github" / "workflows").mkdir(parents=True)
        (repo / "exercises" / EX1).write_text("{}", encoding="utf-8")
        (repo / "exercises" / "es" / EX1).write_text("{}", encoding="utf-8")
        (repo / "notebooks" / "01_lesson.ipynb").write_text("{}", encoding="utf-8")
        (repo / ".github" / "workflows" / "classroom.yml").write_text("x", encoding="utf-8")
        if who == "hx-bo":
            (repo / "exercises" / "02_missing_guards.ipynb").symlink_to("/etc/hostname")
        for argv in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
            subprocess.run(["git", *argv], cwd=repo, check=True, capture_output=True)
    work = tmp_path / "runner"
    work.mkdir()
    script = steps("collect")["Collect the class"]["run"].replace("https://github.com/", f"file://{tmp_path}/origin/")
    assert "file://" in script
    run = bash(script, work, REPOSITORIES="teacher/hx-ana\nteacher/hx-bo", FOLDER="", TOKEN="x")
    assert run.returncode == 0, run.stderr
    found = sorted(p.relative_to(work / "class").as_posix() for p in (work / "class").rglob("*") if not p.is_dir()
                   or p.is_symlink())
    assert found == sorted([f"{who}/{rel}" for who in ("hx-ana", "hx-bo") for rel in (
        ".github/workflows/classroom.yml", f"exercises/{EX1}", f"exercises/es/{EX1}")]
        + ["hx-bo/exercises/02_missing_guards.ipynb"]), found
    assert (work / "class" / "hx-bo" / "exercises" / "02_missing_guards.ipynb").is_symlink()
    assert sorted({j.learner for j in discover(work / "class")}) == ["ana", "bo"]
    refused = bash(steps("collect")["Collect the class"]["run"], work / "class", REPOSITORIES="a/b;rm -rf x", FOLDER="")
    assert refused.returncode != 0 and "not a repository" in refused.stderr


def test_a_notebook_still_running_lends_its_slot_and_gets_it_back_once():
    """-j 1: the second notebook starts while the first still runs once the first has run `lend_after` s (here the
    first ends only after the second ran: without lending it would wait forever); every slot is back at the end.
    And before `lend_after`, a slot is not lent: the second waits for the first."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from grader.slots import Slots

    slots, second_ran, order = Slots(1), threading.Event(), []
    slots.lend_after = 0.05
    with ThreadPoolExecutor(max_workers=slots.most) as pool:
        first = pool.submit(slots.run, lambda: second_ran.wait(60))
        second = pool.submit(slots.run, second_ran.set)
        assert first.result(timeout=90) is True and second.result(timeout=90) is None
    assert slots._free.acquire(blocking=False) and not slots._free.acquire(blocking=False)  # one slot, not two
    slots, order = Slots(1), []
    slots.lend_after = 60
    with ThreadPoolExecutor(max_workers=slots.most) as pool:
        first = pool.submit(slots.run, lambda: (second_ran.clear(), second_ran.wait(0.3), order.append("first")))
        second = pool.submit(slots.run, lambda: (second_ran.set(), order.append("second")))
        first.result(timeout=90), second.result(timeout=90)
    assert order == ["first", "second"]
