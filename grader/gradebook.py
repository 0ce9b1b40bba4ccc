"""The teacher's gradebook: grade a folder of submitted exercise notebooks, one CSV row each.

    python -m grader.gradebook SUBMISSIONS/ --out grades.csv      (from the repository root)

For every `*.ipynb` under SUBMISSIONS/ it (1-3: grader/submissions.py; 4-6: grader/worker.py, one process each)
1. reads it, never through a symbolic link (a link, to a notebook or a folder, is an ERROR row saying where it
   points; a learner folder with no notebook gets a row too), checks it against nbformat's schema (a file that is
   not a valid notebook gets an ERROR row saying why) and decides which exercise it is by its cells (the ids of the
   grader's 🔒/🔍 cells listed in exercises/checks.lock), not by its file name;
2. refuses it, as the learner's own grade would, when a 🔍 CHECK or 🔒 cell was changed or it holds something
   shaped like an API key (exercises/lock.py's `refusal`, with the kit's pristine lock and grading.py);
3. builds the notebook that is graded: the kit's own starter, with the submission's ✏️ EXERCISE cells and the
   cells the learner added. Every other cell (setup, the given loop, the grader's cells) comes from the kit, so
   code in a submission runs only from the cells the learner was asked to write;
4. runs it in a fresh kernel, cell by cell, with a per-cell timeout, a per-cell output cap, no API key
   (ANTHROPIC_* removed) and HARNESS_OFFLINE=1, its working folder a temporary copy inside the kit
   (exercises/_grading_tmp_*/);
5. runs every 🔍 CHECK in its own worker process, not in the kernel (grader/judge.py): the kernel only answers
   the judge's questions (the values of its names, calls of its functions), and everything a verdict rests on —
   the offline model's log, the tools that ran, the approver's questions, the files written, the values returned —
   is observed in the worker, where no learner code runs. A check passes when it printed no ✗ and raised nothing
   there. What the kernel prints is never read as a verdict;
6. as evidence for a person, before any cell runs and again after every check, a fresh snippet fingerprints the
   grader's objects in the kernel (grading, harness_lib, asyncio, the SDK, builtins, trace hooks): one that changed
   means code in the notebook tampered with them: NOT GRADED, with what changed. And it scans the learner's cells
   (their syntax tree) for code that reaches for grader internals (grading, sys.modules, builtins, __code__,
   get_ipython, os.environ, the offline API, writing to the kit's files, ...): NOT GRADED, "flagged for review",
   for a person to look at.
What a notebook sends is bounded in every process outside the sandbox (grader/limits.py: the worker's output
messages, the judge's line, the cells this process parses), and each kernel gets a cgroup of its own where the OS
lets one be made (grader/cgroups.py); a row over a limit says which. Beside a verdict, notes for a person decided
from the notebook's file: functions the exercise asks for that no cell defines, a lesson's cell or library function
pasted with its names changed, learners whose answers are alike (grader/similarity.py).
It never changes the submitted files, checks that the kit's files and the submissions are unchanged afterwards,
and writes a Markdown summary next to the CSV (per exercise: the pass rate and the mistakes most often made).
A submission that trips the grader costs its own row; what a submission named reaches the CSV, the summary and
the feedback inert (grader/report.py). --merge replaces only the (learner, exercise) pairs it grades again.
--shard K/N grades one shard of a class and --gather writes the class's files from them (grader/shards.py).

Learner code is arbitrary Python. On Linux each kernel runs in a bubblewrap sandbox (grader/sandbox.py: no network,
its own processes, the kit as a learner has it read-only (no solutions, no .git), the class and the CSV out of
sight, limits on memory, processes and disk; its view is the kit's list, git's tracked files); where bwrap cannot
run, the rows say
UNSANDBOXED and the code runs with your user's rights (docs/teaching.md: a container instead). What the judge does
NOT do: tell a right answer the learner wrote from one computed some other way (the library's own function, a
lesson's cell: flagged for a person), or protect the worker from a kernel outside the sandbox.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import json
import os
import shutil
import sys
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from exercises import lock as kit_lock

from . import cgroups, shards, similarity, workers
from .learners import learner_folders, learner_of, shared_prefix, workflow_notes
from .progress import Progress
from .report import (FEEDBACK, JUDGED, LISTED, feedback, feedback_paths, few, merged, shown,  # noqa: F401
                     shown_name, summary, through_link, write_csv)
from .report import md as md_text
from .sandbox import DISK, MEMORY, PROCESSES, ROOT_SANDBOX, learner_view, sandbox_available, sandbox_user
from .slots import Slots
from .submissions import LINK_CAUSE, TMP_PREFIX, borrowed, lesson_cells, prepare, walk
from .unchanged import changed, kit_files, snapshot  # noqa: F401 - kit_files: export_template
from .verdict import check_column, judge
from .worker import RESULT_MARK

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXERCISES = ROOT / "exercises"  # the starters, their checks and the learner's conftest
VERDICTS = ("PASS", "FAIL", "NOT STARTED", "NOT GRADED", "ERROR")  # NOT STARTED: the starter as shipped
COLUMNS = ["learner", "file", "exercise", "verdict", "points", "checks_passed", "checks_total", "failed_criteria",
           "reason", "cause", "sandbox"]  # then one column per check: "01:check-policy" = 1 (every criterion ✓) or 0
# Why a row is NOT GRADED or ERROR, in one word a spreadsheet can filter on (the reason says it in full).
CAUSES = ("not-a-notebook", "not-an-exercise", "another-exercise", "grader-edited", "api-key", "grader-changed-in-run",
          "flagged", "other-edition-passed", "timeout", "grader-failed", LINK_CAUSE, "no-notebook")


# ---- the rows --------------------------------------------------------------------------------------------

@dataclass
class Job:
    path: Path
    learner: str
    file: str
    exercise: str = ""
    verdict: str = ""
    reason: str = ""
    passed: int | None = None
    total: int | None = None
    failed: list = field(default_factory=list)
    causes: list = field(default_factory=list)  # the ✗ criteria that are causes, not knock-ons of an earlier ✗
    scenarios: dict = field(default_factory=dict)  # "05:check-loop:s3" -> 1 / 0: a keyed criterion's own column
    flags: list = field(default_factory=list)
    graded: dict | None = None
    checks: dict = field(default_factory=dict)  # check id -> 1 (passed) or 0
    notes: list = field(default_factory=list)  # for a person to look at; they do not change the verdict
    feedback: list = field(default_factory=list)  # (check id, what the check printed)
    lang: str = "en"  # the edition graded: "es" for exercises/es/
    sandbox: str = ""  # "bwrap" when its kernel ran in the sandbox, "UNSANDBOXED" when it ran without one, ROOT_SANDBOX
    untouched: bool = False  # the starter as shipped: nothing written yet
    written: set = field(default_factory=set)  # the functions the exercise asks the learner to write
    cause: str = ""  # one of CAUSES, for a NOT GRADED or ERROR row
    shape: str = ""  # the shape of what the learner wrote (grader/similarity.py), to find answers alike
    pasted: tuple | None = None  # (a place among its notes, the learner's cells): compared with the lessons' later

    def points(self, most: float, all_or_nothing: bool = False) -> float:
        """PASS: all of them; FAIL: a share by checks passed (0 when all or nothing); NOT STARTED, NOT GRADED and
        ERROR: 0."""
        if self.verdict == "PASS":
            return most
        if self.verdict != "FAIL" or all_or_nothing or not self.total:
            return 0
        return round(most * (self.passed or 0) / self.total, 1)

    def row(self, most: float = 10, all_or_nothing: bool = False) -> dict:
        row = {"learner": self.learner, "file": self.file, "exercise": self.exercise, "verdict": self.verdict,
               "points": f"{self.points(most, all_or_nothing):g}",
               "checks_passed": "" if self.passed is None else self.passed,
               "checks_total": "" if self.total is None else self.total,
               "failed_criteria": few(self.failed, " | "),  # (each field: at most FIELD_CHARS, grader/report.py)
               "reason": "; ".join(filter(None, [self.reason, few(f"to look at: {n}" for n in self.notes)])),
               "cause": self.cause, "sandbox": self.sandbox}
        if self.verdict in JUDGED:  # what a NOT GRADED run printed is no evidence: left blank
            row.update({check_column(self.exercise, check): v for check, v in self.checks.items()})
            row.update(self.scenarios)
        return row


# ---- the run ----------------------------------------------------------------------------------------------

def run_one(job: Job, args, tmp_root: Path, checks: list[str], warm=None) -> Job:
    """Grade `job` in a worker of its own (grader/workers.py): forked from `warm`, or a `python -I` subprocess."""
    job.sandbox = "UNSANDBOXED" if args.sandbox != "bwrap" else ROOT_SANDBOX if args.as_root else "bwrap"
    workdir = tmp_root / uuid.uuid4().hex[:12]
    workdir.mkdir(parents=True)
    options = (["--worker", "--cell-timeout", str(args.cell_timeout), "--output-cap", str(args.output_cap),
                "--sandbox", args.sandbox, "--lang", job.lang, "--memory", str(args.memory), "--processes",
                str(args.processes), "--disk", str(args.disk)] + [f"--hide={h}" for h in args.hide]
               + ([f"--view={args.view}"] if args.view else []) + ([f"--user={args.user}"] if args.user else []))
    try:
        try:
            status, out = (warm or workers).run(workdir, options, json.dumps(job.graded), args.timeout)
        except TimeoutError:
            job.verdict, job.cause, job.reason = "ERROR", "timeout", f"grading took longer than {args.timeout:g} s: stopped"
            return job
        line = next((ln for ln in reversed(out.splitlines()) if ln.startswith(RESULT_MARK)), None)
        if line is None:
            job.verdict, job.cause = "ERROR", "grader-failed"
            job.reason = f"the grading process failed (exit status {status})"
            return job
        judge(job, json.loads(line[len(RESULT_MARK):]), checks)
        return job
    except Exception as err:  # noqa: BLE001 - one notebook's failure costs its own row, not the class's CSV
        job.verdict, job.cause, job.reason = "ERROR", "grader-failed", f"the grader failed: {type(err).__name__}: {err}"
        return job
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def note_alike(jobs: list[Job]) -> None:
    """For a person: learners of one exercise whose answers have the same shape, or almost (grader/similarity.py),
    a note on each of their rows naming the others. Never a verdict."""
    by_exercise = defaultdict(dict)
    for j in jobs:
        if j.exercise and j.shape:
            by_exercise[j.exercise].setdefault(j.learner, j.shape)
    for exercise, answers in by_exercise.items():
        for learners, how in similarity.alike(answers):
            for j in jobs:
                if j.exercise == exercise and j.learner in learners:
                    others = few([w for w in learners if w != j.learner], ", ")
                    j.notes.append(f"{how} answer as {others}, once names, comments and spacing are set aside")


def discover(folder: Path, exercise: str | None = None) -> list[Job]:
    """One job per notebook under `folder` (or `folder` itself); the learner is `learner_of` its path. With `exercise` (one learner's copy of the
    kit, e.g. a Classroom repository): only the notebooks of that file name, and they are all one learner's,
    named after the folder."""
    found = [(folder, None)] if not folder.is_dir() else walk(folder)  # a link is a row of its own, never followed
    if exercise and folder.is_dir():  # FOLDER/NAME and FOLDER/<edition>/NAME (es/), never a solutions/ folder
        found = [(p, link) for p, link in found if p.name == exercise and len(p.relative_to(folder).parts) <= 2
                 and p.parent.name != "solutions" and not p.relative_to(folder).parts[0].startswith("_")]
    jobs = []
    rels = [p.relative_to(folder) if folder.is_dir() else Path(p.name) for p, _ in found]
    folders = [] if exercise or not folder.is_dir() else learner_folders(folder)
    prefix = shared_prefix(sorted({r.parts[0] for r in rels if len(r.parts) > 1}))  # (a stray folder changes no id)
    for (p, link), rel in zip(found, rels):
        folder_link = link is not None and len(rel.parts) == 1 and not rel.name.endswith(".ipynb")
        learner = learner_of(rel / "-" if folder_link else rel, prefix)  # a learner's folder that is a link
        if exercise:
            learner = folder.name if folder.is_dir() else folder.parent.name
        job = Job(path=p, learner=learner, file=rel.as_posix(), notes=[] if link else workflow_notes(p, folder))
        if link is not None:
            job.verdict, job.cause = "ERROR", LINK_CAUSE
            job.reason = f"a symlink to {link}: never followed, not graded (submit the notebook itself)"
        jobs.append(job)
    seen = {r.parts[0] for r in rels}
    for name in folders:  # every learner folder gets a row: one with no notebook in it too
        if name not in seen:
            jobs.append(Job(path=folder / name, learner=learner_of(Path(name, "-"), prefix), file=f"{name}/",
                            verdict="NOT GRADED", cause="no-notebook", reason="no notebook in this folder"))
    return jobs


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m grader.gradebook", description=__doc__.split("\n\n")[0])
    p.add_argument("submissions", nargs="?", type=Path, help="a folder of submitted notebooks (or one notebook)")
    p.add_argument("--out", type=Path, default=Path("grades.csv"), help="the CSV to write (default: grades.csv)")
    p.add_argument("--summary", type=Path, help="the Markdown summary (default: the CSV's name with .md)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks graded at once "
                   "(default: the CPU count); one still running after 30 s lends its place, 2 × N at most")
    p.add_argument("--cell-timeout", type=float, default=120, help="seconds per cell (default 120)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per notebook (default 600)")
    p.add_argument("--output-cap", type=int, default=1_000_000, help="bytes of output kept per cell (default 1 MB)")
    p.add_argument("--points", type=float, default=10, help="the points of a PASS (default 10): a FAIL gets its "
                   "share by checks passed, NOT GRADED and ERROR get 0 (the CSV's points column)")
    p.add_argument("--all-or-nothing", action="store_true", help="a FAIL gets 0 points, not a share")
    p.add_argument("--feedback", type=Path, metavar="DIR", help="also write one Markdown file per learner and "
                   "notebook: DIR/<learner>/<exercise>.md, each ✗ with its hint, in the notebook's language")
    p.add_argument("--merge", action="store_true", help="keep the rows of --out except the (learner, exercise) pairs "
                   "graded now (re-grade one learner, or one late file, into a class's CSV)")
    p.add_argument("--excel", action="store_true", help="write the CSV as UTF-8 with a BOM, so Excel reads its "
                   "accents right")
    p.add_argument("--require-pass", action="store_true",
                   help="exit status 1 unless every notebook is PASS (for GitHub Classroom's command grader)")
    p.add_argument("--exercise", metavar="NAME", help="grade one learner's NAME (e.g. 01_tiered_policy.ipynb): "
                   "the notebooks of that file name in SUBMISSIONS and its edition folders (exercises/NAME, "
                   "exercises/es/NAME), one after the other until one is PASS; an edition left as shipped is not "
                   "run (FAIL, 'nothing written yet', when no edition was written in); a notebook of another "
                   "exercise saved under NAME is NOT GRADED. With --require-pass: exit status 0 when an edition is PASS")
    p.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default="auto", help="run each notebook's "
                   "kernel in a bubblewrap sandbox (Linux): auto (default) uses it where it works, else grades "
                   "UNSANDBOXED (the CSV and stderr say so); bwrap refuses without it, or, as root, its process limit")
    p.add_argument("--memory", type=int, default=MEMORY // 2 ** 20, metavar="MB", help="sandboxed: MB of address "
                   f"space for each process of a kernel (default {MEMORY // 2 ** 20})")
    p.add_argument("--processes", type=int, default=PROCESSES, metavar="N", help="sandboxed: the kernel's limit of "
                   f"processes (RLIMIT_NPROC, default {PROCESSES})")
    p.add_argument("--disk", type=int, default=DISK // 2 ** 20, metavar="MB", help="sandboxed: MB of a notebook's "
                   f"folder, of its /tmp, and of any one file it writes (default {DISK // 2 ** 20})")
    p.add_argument("--shard", metavar="K/N", help="grade only shard K of N (grader/shards.py: by learner and file) "
                   "and write --out as the shard's results (JSON), for --gather")
    p.add_argument("--gather", nargs="+", type=Path, metavar="RESULTS", help="write the CSV, summary and feedback "
                   "of a class graded in shards, from every shard's results file, as one run would")
    return p


def main(argv=None) -> int:
    """parse → plan → run → report: the command, in four steps."""
    p = parser()
    args = parse(p, argv)
    if args.gather:
        return shards.gather(args, Job, finish, lock_checks(kit_lock.load_lock()))
    plan = make_plan(args, p)
    problems = run(plan, args)
    if args.shard:  # the class-wide steps wait for --gather
        return shards.save(args, plan.jobs, problems, plan.progress.started)
    return finish(plan.jobs, args, plan.checks, problems, plan.left_out)


def parse(p: argparse.ArgumentParser, argv=None) -> argparse.Namespace:
    """The options, checked; for a run that grades, also where its kernels run (args.sandbox, args.user,
    args.as_root), said on stderr when it is not a sandbox."""
    args = p.parse_args(argv)
    if args.gather or args.shard:
        shards.options(p, args)
    if args.gather:
        return args
    if args.submissions is None or not args.submissions.exists():
        p.error("give a folder of submitted notebooks (or one notebook) that exists")
    if args.jobs < 1:
        p.error("-j must be 1 or more")
    linked = through_link(args.out, args.summary, args.feedback)  # (a learner's repository may commit a link)
    if linked:
        p.error(linked)
    unsandboxed = sandbox_available() if args.sandbox != "none" else "--sandbox none"
    args.user, args.as_root = sandbox_user() if not unsandboxed else (None, "")  # (root: grader/sandbox.py)
    if (unsandboxed or args.as_root) and args.sandbox == "bwrap":
        p.error(f"--sandbox bwrap: {unsandboxed or args.as_root}")
    args.sandbox = "none" if unsandboxed else "bwrap"
    if unsandboxed:
        print(f"warning: grading UNSANDBOXED ({unsandboxed}): the learners' code runs with your rights and can "
              "change files, the CSV and other grades; see docs/teaching.md", file=sys.stderr)
    if args.as_root:  # (and every row says ROOT_SANDBOX)
        print(f"warning: {args.as_root}; each kernel is sandboxed as root, without the process limit", file=sys.stderr)
    return args


@dataclass
class Plan:
    """What a run grades, decided before any kernel runs."""
    jobs: list  # every row: the ones to run, and the ones decided already (a link, a refusal, ...)
    todo: list  # the jobs a kernel runs for
    checks: dict  # exercise -> its 🔍 check ids
    tmp_root: Path  # this run's folder inside the kit (exercises/_grading_tmp_gradebook_<pid>_*), deleted afterwards
    kit_before: dict  # the kit's files, and the submitted ones, as they were (checked unchanged afterwards)
    submitted_before: dict
    left_out: list = field(default_factory=list)  # --exercise: the editions left as shipped, not run
    progress: Progress | None = None


def make_plan(args, p: argparse.ArgumentParser) -> Plan:
    """Read the kit's lock and starters and every submission: each job prepared (grader/submissions.py) or decided,
    the sandbox's view of the kit made; nothing of a learner's has run."""
    folder = args.submissions.resolve()
    tmp_prefix = f"{TMP_PREFIX}{os.getpid()}_"  # (a folder of this run's, told apart from another run's by the pid)
    lock = kit_lock.load_lock()
    starters = {name: [json.loads(p.read_text(encoding="utf-8")) for p in (EXERCISES / name, *sorted(EXERCISES.glob(f"*/{name}")))
                       if p.is_file() and p.parent.name not in ("solutions",) and not p.parent.name.startswith("_")]
                for name in lock["notebooks"]}
    kit_before = snapshot(kit_files())
    submitted = sorted(Path(d, f) for d, _, fs in os.walk(folder) for f in fs) if folder.is_dir() else [folder]
    if args.exercise is not None and args.exercise not in lock["notebooks"]:
        p.error(f"--exercise: not an exercise of this kit: {args.exercise} (one of: {', '.join(lock['notebooks'])})")
    plan = Plan(jobs=discover(folder, args.exercise), todo=[], checks=lock_checks(lock),
                tmp_root=EXERCISES / f"{tmp_prefix}{uuid.uuid4().hex[:12]}", kit_before=kit_before,
                submitted_before=snapshot(submitted))
    if args.shard:  # only this shard's notebooks are read and graded
        plan.jobs, args.listing = shards.select(plan.jobs, args.shard)
    for job in plan.jobs:
        if job.verdict:  # a link, a folder with no notebook: its row is written already
            continue
        try:  # a submission that trips the grader costs its own row, never the class's CSV
            prepare(job, lock, starters, args.exercise, tmp_prefix)
        except Exception as err:  # noqa: BLE001
            job.graded, job.verdict, job.cause = None, "ERROR", "grader-failed"
            job.reason = f"the grader could not read it: {type(err).__name__}: {str(err)[:160]}"
    note_alike(plan.jobs)
    args.hide = [str(p) for p in (folder if folder.is_dir() else folder.parent, args.out.resolve().parent,
                                  args.feedback.resolve() if args.feedback else None, plan.tmp_root) if p]
    plan.todo = [j for j in plan.jobs if j.graded is not None]
    # sandboxed, each kernel sees the kit as a learner has it (grader/sandbox.py): no solutions, no .git
    # (the kit's list, as export_template ships it: not a class folder or a teacher's file put inside the kit)
    kit_list = [p.relative_to(ROOT).as_posix() for p in kit_before]
    args.view = str(learner_view(plan.tmp_root / "view", kit_list)) if args.sandbox == "bwrap" and plan.todo else None
    if args.exercise and plan.todo:
        editions_to_run(plan)
    plan.progress = Progress(len(plan.jobs), len(plan.jobs) - len(plan.todo))  # the progress line, the time left
    return plan


def editions_to_run(plan: Plan) -> None:
    """--exercise, one learner's editions: an edition left as shipped is not run; when no edition was written in,
    the first one is graded without a kernel, as what it is (NOT STARTED)."""
    worked = [j for j in plan.todo if not j.untouched]
    plan.left_out = [j for j in plan.todo if j.untouched] if worked else plan.todo[1:]
    if not worked:
        first = plan.todo[0]
        first.verdict, first.passed, first.total = "NOT STARTED", 0, len(plan.checks[first.exercise])
        first.reason = "nothing written yet: the ✏️ cells are the starter's"
        first.checks = {check: 0 for check in plan.checks[first.exercise]}
    plan.jobs = [j for j in plan.jobs if j not in plan.left_out]
    plan.todo = worked


def run(plan: Plan, args) -> list[str]:
    """Grade every job of the plan, each in a worker of its own; -> the problems found afterwards (the kit's files
    or the submitted ones changed while grading)."""
    try:
        if args.exercise:  # one learner's editions of one exercise: the first PASS is the grade
            note_pasted(plan.todo)
            for j in plan.todo:
                if any(other.verdict == "PASS" for other in plan.jobs):
                    j.verdict, j.cause, j.reason = "NOT GRADED", "other-edition-passed", "another edition of this exercise is PASS"
                else:
                    run_one(j, args, plan.tmp_root, plan.checks[j.exercise])
        else:
            run_class(plan, args)
    finally:
        shutil.rmtree(plan.tmp_root, ignore_errors=True)
        cgroups.sweep(f"kit-{plan.tmp_root.name}-")  # the sandboxes' cgroups their workers left (grader/cgroups.py)
    plan.progress.end()
    problems = []
    touched = changed(plan.kit_before)  # reported, never written back: a person may be editing the kit meanwhile
    if touched:
        problems.append("the kit's files changed while grading (check them with `git status`): "
                        + ", ".join(p.relative_to(ROOT).as_posix() for p in touched))
    moved = changed(plan.submitted_before)
    if moved:
        problems.append("submitted files changed while grading: " + ", ".join(str(p) for p in moved))
    return problems


def note_pasted(jobs: list) -> None:
    """Each graded notebook's cells compared with the lessons' (submissions.py's `borrowed`), the lines put where
    `prepare` kept their place: once the first kernels start, so the lessons' index is not on their way (~0.2 s)."""
    lessons = functools.cache(lesson_cells)
    for j in jobs:
        if j.pasted:
            at, cells = j.pasted
            try:  # a line for a person, never the verdict: a comparison that fails says so in its place
                j.notes[at:at] = borrowed(cells, lessons())
            except Exception as err:  # noqa: BLE001
                j.notes.insert(at, f"not compared with the lessons: {type(err).__name__}")
            j.pasted = None


def run_class(plan: Plan, args) -> None:
    """The notebooks of a class, -j N at a time; two or more: their workers forked from one warm process
    (grader/workers.py), started here, before any thread."""
    warm = workers.WarmWorkers() if len(plan.todo) > 1 and workers.available() else None
    slots = Slots(args.jobs)  # -j N; a notebook still running after 30 s lends its slot (grader/slots.py)
    with concurrent.futures.ThreadPoolExecutor(max_workers=slots.most) as pool:
        futures = [pool.submit(slots.run, run_one, j, args, plan.tmp_root, plan.checks[j.exercise], warm)
                   for j in plan.todo]
        note_pasted(plan.todo)  # while the first kernels start
        for _ in concurrent.futures.as_completed(futures):
            plan.progress.step()
    for f in futures:
        f.result()


def lock_checks(lock: dict) -> dict:
    """exercise -> the ids of its 🔍 check cells, from the lock."""
    return {name: [e["id"] for e in entries if e["tag"] == "check"] for name, entries in lock["notebooks"].items()}


def finish(jobs: list, args, checks: dict, problems: list[str], left_out=()) -> int:
    """The class-wide steps, after grading (one run, or --gather of shards): each duplicate submission said, the
    CSV, the feedback files, the summary, what is printed and the exit status (`left_out`: --exercise's editions
    left as shipped)."""
    note_duplicates(jobs, args)
    md = write_files(jobs, args, checks, problems)
    return say(jobs, args, md, problems, left_out)


def note_duplicates(jobs: list, args) -> None:
    """Each of a learner's submissions of one exercise says which files are theirs (not for --exercise's editions)."""
    same = defaultdict(list)  # (learner, exercise) -> the files
    for j in jobs:
        if j.exercise and not args.exercise:
            same[(j.learner, j.exercise)].append(j.file)
    for j in jobs:
        files = same.get((j.learner, j.exercise), [])
        if len(files) > 1:
            j.reason = "; ".join(filter(None, [j.reason, f"one of {len(files)} submissions of this exercise by "
                                                         f"{j.learner}: {', '.join(files)}"]))


def write_files(jobs: list, args, checks: dict, problems: list[str]) -> Path:
    """The CSV (--merge: only the pairs graded now replaced), the feedback files, the summary. -> the summary's path."""
    args.out.parent.mkdir(parents=True, exist_ok=True)
    found = {j.exercise for j in jobs if j.exercise}
    per_check = [check_column(name, check) for name in sorted(found) for check in checks[name]]
    per_check += sorted({k for j in jobs for k in j.scenarios}, key=lambda k: (k.rsplit(":", 1)[0], len(k), k))  # s2 < s10
    rows = [j.row(args.points, args.all_or_nothing) for j in jobs]
    if args.merge:  # only the (learner, exercise) pairs graded now are replaced
        before, rows = merged(args.out, rows)
        per_check = sorted({c for c in before + per_check if c not in COLUMNS})
    write_csv(args.out, COLUMNS + per_check, rows, args.excel)  # every text field inert (grader/report.py)
    if args.feedback:
        paths = feedback_paths(jobs, args.feedback)  # one file per job: names that collide get distinct paths
        for j in jobs:
            where = paths[id(j)]
            where.parent.mkdir(parents=True, exist_ok=True)
            where.write_text(feedback(j, args.points, args.all_or_nothing), encoding="utf-8")
    md = args.summary or args.out.with_suffix(".md")
    md.write_text(summary(jobs) + "".join(f"\n**Warning:** {md_text(p)}\n" for p in problems), encoding="utf-8")
    return md


def say(jobs: list, args, md: Path, problems: list[str], left_out=()) -> int:
    """What the terminal shows (every line through the one rule), and the exit status."""
    n = Counter(j.verdict for j in jobs)
    print(f"{len(jobs)} notebook(s): " + ", ".join(f"{n[v]} {v}" for v in VERDICTS if n[v])
          + f" → {args.out} and {md}")
    for j in jobs:
        if args.require_pass or len(jobs) == 1:
            print(shown_name(j.file) + shown(f": {j.verdict}" + (f" — {j.passed} of {j.total} checks pass" if j.total
                                                                 else "") + (f" ({j.reason})" if j.reason else "")))
            for c in j.failed[:LISTED]:
                print(shown(f"  ✗ {c}"))
            if len(j.failed) > LISTED:
                print(f"  … and {len(j.failed) - LISTED} more")
    for j in left_out:
        print(f"{shown_name(j.file)}: not graded — the starter as shipped, nothing written in this edition")
    if args.exercise:
        best = next((j for j in jobs if j.verdict == "PASS"), jobs[0] if jobs else None)
        print(f"{args.exercise}: " + (f"{best.verdict} ({shown_name(best.file)})" if best else "no notebook of that name found"))
    for problem in problems:
        print(f"warning: {shown(problem)}", file=sys.stderr)
    if args.require_pass:
        passed = [j.verdict == "PASS" for j in jobs]
        if not jobs or not (any(passed) if args.exercise else all(passed)):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
