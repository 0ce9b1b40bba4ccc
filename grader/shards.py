"""Shards: one class graded by N gradebooks at once (N machines, or N jobs of a GitHub Actions matrix), then
gathered into exactly what one gradebook run over the whole class writes.

    python -m grader.gradebook SUBMISSIONS --shard 1/4 --out results/shard-1.json     (and 2/4, 3/4, 4/4)
    python -m grader.gradebook --gather results/*.json --out grades.csv --feedback feedback/

- Which shard grades a notebook: the SHA-256 of its learner (as the gradebook names them: `discover`, through
  `learner_of`) and its file, so the same notebook lands in the same shard on every run and on every machine,
  and a late file added for one learner moves no other notebook to another shard. Every shard walks the whole
  class (a listing: no notebook is read) and grades only its own.
- What a shard writes (`--out`, a JSON file): its rows as the gradebook has them before the class-wide steps,
  the class as it saw it (every learner and file, in the gradebook's order), the settings that decide a verdict
  (timeouts, limits, the sandbox), the kit's lock, and the warnings of its run. No CSV, summary or feedback: those
  depend on the whole class (a learner's two submissions of one exercise may be graded in two shards).
- `--gather`: the class is the one the most recent shard saw. Every notebook of it must be graded by a shard
  (a shard run again replaces its older result), with the same settings and the same kit; otherwise nothing is
  written and it says which shard to run (again). Then the gradebook's own class-wide steps (`finish`: the
  duplicates, the columns, the CSV, the summary, the feedback files) run over the rows in the class's order: the
  same code over the same rows, so the same bytes as one run. `--points`, `--all-or-nothing`, `--excel`,
  `--merge` and `--require-pass` apply at the gather, as they do to one run.

What it does NOT do: grade anything itself (each shard is an ordinary gradebook run, sandboxed), or trust a
results file further than the teacher's own machines and workflow artifacts: it is the teacher's data, not a
learner's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import sys
import time
from pathlib import Path

FORMAT = 1  # the results file's format: a gather refuses another
KEYS = {"format", "shard", "saved", "class", "settings", "lock", "problems", "rows"}  # a results file's
SETTINGS = ("cell_timeout", "timeout", "output_cap", "memory", "processes", "disk", "sandbox")  # decide a verdict


def parse(text: str) -> tuple[int, int]:
    """"2/4" -> (2, 4); ValueError unless 1 <= K <= N."""
    found = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not found or not 1 <= int(found[1]) <= int(found[2]):
        raise ValueError(f"--shard wants K/N with 1 <= K <= N (e.g. 2/4), not {text!r}")
    return int(found[1]), int(found[2])


def key(job) -> list[str]:
    """What names a notebook across runs: (learner, file), as the gradebook computed them."""
    return [job.learner, job.file]


def shard_of(job, n: int) -> int:
    """The shard (1..n) that grades `job`: from its learner and file only."""
    digest = hashlib.sha256("\0".join(key(job)).encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % n + 1


def select(jobs: list, shard: str) -> tuple[list, list]:
    """(this shard's jobs, the class: every job's key in the gradebook's order)."""
    k, n = parse(shard)
    return [j for j in jobs if shard_of(j, n) == k], [key(j) for j in jobs]


def options(p, args) -> None:
    """--shard and --gather: the options they cannot go with."""
    if args.shard and args.gather:
        p.error("--shard grades, --gather writes the class's files: one at a time")
    if args.shard:
        try:
            parse(args.shard)
        except ValueError as err:
            p.error(str(err))
    clash = [o for o, on in (("--exercise", args.exercise), ("--merge", args.merge and args.shard),
                             ("--feedback", args.feedback and args.shard), ("--summary", args.summary and args.shard),
                             ("SUBMISSIONS", args.submissions and args.gather)) if on]
    if clash:
        p.error(f"{' and '.join(clash)}: not with --shard or --gather (the gather writes the class's files)")


def lock_digest() -> str:
    from .submissions import EXERCISES

    return hashlib.sha256((EXERCISES / "checks.lock").read_bytes()).hexdigest()


def save(args, jobs: list, problems: list[str], started: float) -> int:
    """Write this shard's results file (args.out) and say what it graded, and in how long (the workflow's timing
    line)."""
    rows = [{f.name: getattr(job, f.name) for f in dataclasses.fields(job) if f.name not in ("graded", "path")}
            for job in jobs]  # (not the notebook graded, nor where its file was on this machine)
    results = {"format": FORMAT, "shard": args.shard, "saved": time.time(), "class": args.listing,
               "settings": {s: getattr(args, s) for s in SETTINGS}, "lock": lock_digest(), "problems": problems,
               "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1, default=plain) + "\n", encoding="utf-8")
    run = sum(1 for j in jobs if j.sandbox)  # the ones a kernel ran for
    seconds = time.monotonic() - started
    print(f"shard {args.shard}: {len(jobs)} of the class's {len(args.listing)} notebook(s), {run} run in a kernel, "
          f"in {seconds:.1f} s ({seconds / max(run, 1):.1f} s a notebook run) → {args.out}")
    return 0


def gather(args, job_type, finish, checks: dict) -> int:
    """Read the shards' results files (args.gather), check they make one whole class, and write what one run over
    it writes (`finish`, the gradebook's class-wide steps). Exit status 2, nothing written, when they do not."""
    found = []
    for path in args.gather:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            return refuse(f"{path}: not a shard's results file ({type(err).__name__}: {err})")
        if not isinstance(data, dict) or data.get("format") != FORMAT or not KEYS <= set(data):
            return refuse(f"{path}: not a shard's results file of this gradebook (format {FORMAT})")
        found.append((data["saved"], str(path), data))
    if not found:
        return refuse("no results file given")
    found.sort(key=lambda f: (f[0], f[1]))
    newest = found[-1][2]
    for _, path, data in found:
        for what in ("settings", "lock"):
            if data[what] != newest[what]:
                return refuse(f"{path} was graded with other {what} than {found[-1][1]}: "
                              f"{data[what]} against {newest[what]}; grade every shard the same way")
    rows = {}
    for _, path, data in found:  # oldest first: a shard run again replaces what it graded before
        for row in data["rows"]:
            rows[(row["learner"], row["file"])] = row
    class_keys = [tuple(k) for k in newest["class"]]
    missing = [k for k in class_keys if k not in rows]
    if missing:
        n = parse(newest["shard"])[1]
        shards = sorted({shard_of(job_type(path=Path(), learner=k[0], file=k[1]), n) for k in missing})
        return refuse(f"{len(missing)} notebook(s) of the class graded by no shard given (first: {missing[0][1]}): "
                      f"run shard(s) {', '.join(f'{s}/{n}' for s in shards)} (again) and gather all of them")
    stale = [k for k in rows if k not in set(class_keys)]
    if stale:
        print(f"warning: left out {len(stale)} row(s) for files no longer in the class as the newest shard saw it "
              f"(first: {stale[0][1]})", file=sys.stderr)
    fields = {f.name: f for f in dataclasses.fields(job_type)}
    jobs = []
    for k in class_keys:  # each field as the Job has it: a set back from the list it was saved as
        row = {f: set(v) if fields[f].default_factory is set else v for f, v in rows[k].items() if f in fields}
        jobs.append(job_type(path=Path(k[1]), **row))
    problems = list(dict.fromkeys(p for _, _, data in found for p in data["problems"]))
    return finish(jobs, args, checks, problems)


def plain(value):
    """A Job's field in JSON: a set as its sorted list (read back as a set), anything else as its text."""
    return sorted(value) if isinstance(value, (set, frozenset)) else str(value)


def refuse(why: str) -> int:
    print(f"--gather: {why}; nothing written", file=sys.stderr)
    return 2
