"""A notebook's verdict, from its worker's report (grader/worker.py): each check passes only if the judge's verdict
(data) holds no ✗, it raised nothing, and the seal still held after it; what a person reads beside it (where a
function was defined, output capped, a sandbox's limit reached, the cells that stopped).

What it does NOT do: read a submission (grader/submissions.py) or run one (grader/worker.py); what a kernel printed
is never read as a verdict.
"""

from __future__ import annotations

from collections import defaultdict

from .report import few
from .submissions import not_written
from .worker import seal_diff


def check_column(exercise: str, check: str) -> str:
    """The CSV column of one check: "01:check-policy" (the exercise's number, the check cell's id)."""
    return f"{exercise[:2]}:{check}"


def _missed(cell: dict) -> list[dict]:
    """The ✗ criteria of a judged check cell, from the verdicts the judge collected as data (never from what was
    printed): [{"criterion", "hint", "follows"}, ...]."""
    return [c for v in cell.get("verdicts") or [] for c in v.get("criteria", []) if not c.get("passed")]


def _held(cell: dict | None) -> bool:
    """A check holds when the judge ran it to its end (status ok), it handed on a verdict, and no criterion failed.
    A check that gave no verdict (a check cell run in the kernel, not by the judge; a check that stopped early)
    does not hold."""
    return bool(cell and cell["status"] == "ok" and cell.get("verdicts") and not _missed(cell))


def judge(job, report: dict, checks: list[str]) -> None:
    """Verdict from the worker's report: each check passes only if its verdict (data, from the judge) holds no ✗,
    it raised nothing, and the seal still held after it."""
    seals = report.get("seals", [])
    first = seals[0]["seal"] if seals else None
    broken = []
    if not first:
        broken.append("the seal could not be taken before the notebook ran")
    first_seen = {}  # what changed -> the check cell after which it was first seen changed
    for s in seals[1:]:
        if s["seal"] is None:
            broken.append(f"no seal after '{s['after']}'")
        elif first:
            for k in seal_diff(first, s["seal"]):
                first_seen.setdefault(k, s["after"])
    broken += [f"{k} (first seen after '{after}')" for k, after in first_seen.items()]
    by_id = {c["id"]: c for c in report.get("cells", []) if c["kind"] == "check"}
    passed = 0
    for check in checks:
        cell = by_id.get(check)
        job.checks[check] = int(_held(cell))
        for c in [c for v in (cell or {}).get("verdicts") or [] for c in v.get("criteria", []) if c.get("key")]:
            job.scenarios[f"{check_column(job.exercise, check)}:{c['key']}"] = int(bool(c.get("passed")))
        missed = _missed(cell) if cell is not None else []
        if cell is not None:
            said = cell.get("ename") and not missed  # a failed check's AssertionError only repeats its ✗ lines
            job.feedback.append((check, cell.get("text", "") + (f"\n{cell['ename']}: {cell['evalue']}" if said
                                                                 else "")))
        if cell is None:
            job.failed.append(f"{check}: not run")
        elif cell["status"] in ("not run", "timeout", "died"):
            job.failed.append(f"{check}: not run ({cell['why']})")
        elif _held(cell):
            passed += 1
        elif missed:
            job.failed += [f"{check}: ✗ {c['criterion']}" for c in missed]
            job.causes += [f"{check}: ✗ {c['criterion']}" for c in missed if not c.get("follows")]
        elif cell.get("ename"):
            job.failed.append(f"{check}: raised {cell['ename']}: {(cell['evalue'].splitlines() or [''])[0][:160]}")
        else:
            job.failed.append(f"{check}: gave no verdict")
    job.passed, job.total = passed, len(checks)
    origins = {}
    for cell in report.get("cells", []):
        origins.update(cell.get("origins") or {})
    job.notes += not_written(origins, job.written)  # an answer taken from the library, by any route
    stops = [c["why"] for c in report.get("cells", []) if c["status"] in ("timeout", "died")]
    notes = stops + capped_notes(report) + limits_hit(report)
    flags = [few(job.flags)] if job.flags else []  # a count and the first few: 20,000 flagged cells made a 2 MB field
    if broken:
        job.verdict, job.cause = "NOT GRADED", "grader-changed-in-run"
        job.reason = "; ".join(["the grader's objects were changed while it ran: " + ", ".join(
            dict.fromkeys(broken))[:600]] + flags + notes)
    elif job.flags:
        job.verdict, job.cause = "NOT GRADED", "flagged"
        job.reason = "; ".join(["flagged for review"] + flags + notes)
    elif job.untouched and passed < len(checks):  # told apart from a wrong attempt: nothing was written
        job.verdict = "NOT STARTED"
        job.reason = "; ".join(["nothing written yet: the ✏️ cells are the starter's"] + notes)
    else:
        job.verdict = "PASS" if passed == len(checks) and checks else "FAIL"
        job.reason = "; ".join(notes)


def capped_notes(report: dict) -> list[str]:
    """"output capped in cell(s) 'a', 'b' (the limit)", one note per limit reached (grader/limits.py)."""
    by_limit = defaultdict(list)
    for c in report.get("cells", []):
        if c.get("capped"):  # (True from an older worker: the per-cell cap)
            by_limit[c["capped"] if isinstance(c["capped"], str) else "--output-cap"].append(c["id"])
    return [f"output capped in cell(s) {', '.join(map(repr, ids))} ({why})" for why, ids in by_limit.items()]


# What a sandbox's limit (grader/sandbox.py) looks like from inside: the error a cell then raises
LIMITS = (("MemoryError", "", "the memory limit (--memory)"), ("", "No space left on device", "the disk limit (--disk)"),
          ("", "File too large", "the disk limit (--disk: one file)"),
          ("BlockingIOError", "Resource temporarily unavailable", "the process limit (--processes)"),
          ("", "can't start new thread", "the process limit (--processes)"),
          ("", "(the grader's limit)", "the grader's limit on what a notebook sends its judge (grader/limits.py)"))


def limits_hit(report: dict) -> list[str]:
    """"cell 'x' was stopped by the memory limit (--memory)", for each cell whose error is a sandbox's limit."""
    found = []
    for c in report.get("cells", []):
        text = f"{c.get('ename', '')}: {c.get('evalue', '')}"
        for ename, words, limit in LIMITS:
            if c.get("status") == "error" and (ename and c.get("ename") == ename or words and words in text):
                found.append(f"cell '{c.get('id')}' was stopped by {limit}")
                break
    return found
