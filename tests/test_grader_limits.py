"""The grader's own limits (grader/limits.py): what a notebook's kernel sends can make no process outside the
sandbox keep more than its limits, and a row over one says which. Unit-level and cheap: the worker's output budget
on the message kinds the kernel can send (errors, display updates, comm and widget messages), the judge's quota on
its line (grader/wire.py's Quota), and the gradebook's bound on the cells it parses. The same limits in a real
sandboxed run: tests/test_gradebook.py's `sandboxed` class (mallory's flood)."""

import contextlib
import socket
import threading
import time
from pathlib import Path

import pytest

from grader import wire
from grader import limits
from grader.limits import OutputBudget


def message(kind, **content):
    return {"msg_type": kind, "content": content, "buffers": []}


def test_an_error_past_the_cap_keeps_its_name_and_the_start_of_its_message_only():
    """An error output was never capped: a 1.4 GB error message was kept whole. Past the cell's cap it keeps its
    name and ERROR_KEPT characters, once per cell, and the cell says which limit."""
    budget = OutputBudget(per_cell=1000)
    assert budget.admit(message("stream", name="stdout", text="x" * 900), 3)
    huge = message("error", ename="ValueError", evalue="e" * 3_000_000, traceback=["t" * 10_000] * 100)
    kept = budget.admit(huge, 3)
    assert kept["content"] == {"ename": "ValueError", "evalue": "e" * limits.ERROR_KEPT, "traceback": []}
    assert budget.admit(huge, 3) is None  # a second one is dropped
    assert "--output-cap" in budget.capped[3]


@pytest.mark.parametrize("kind", ["update_display_data", "comm_msg", "comm_open", "display_data", "clear_output"])
def test_every_kind_of_output_message_counts_against_the_cell_and_the_notebook(kind):
    """Display updates and comm (widget) messages went around the cap: 1.2 GB and 2.2 GB kept, a clean PASS. Every
    message but the kernel's status counts, by bytes and by number, per cell and per notebook."""
    budget = OutputBudget(per_cell=10 ** 6)
    budget.per_notebook, budget.messages = 3 * 10 ** 6, 50
    big = message(kind, data={"state": {"v": "w" * 400_000}}, comm_id="c")
    kept = [budget.admit(big, 1) is not None for _ in range(5)]
    assert kept == [True, True, False, False, False] and "bytes of output in the cell" in budget.capped[1]
    for cell in range(2, 10):
        for _ in range(2):
            budget.admit(big, cell)
    assert budget.total <= 3 * 10 ** 6 and "in the notebook" in budget.capped[9]
    small = [budget.admit(message(kind, data={}, comm_id="c"), 20) for _ in range(60)]
    assert sum(m is not None for m in small) == 50 and "more than 50 output messages" in budget.capped[20]
    assert budget.admit(message("status", execution_state="idle"), 20) is not None  # a cell still ends


def test_a_seal_cell_has_its_own_cap_outside_the_notebooks_total():
    budget = OutputBudget(per_cell=100)
    budget.per_notebook = 100
    assert budget.admit(message("stream", text="s" * 5000), 0, seal=True) is not None  # the seal prints a few KB
    assert budget.admit(message("stream", text="s" * limits.SEAL_OUTPUT), 0, seal=True) is None
    assert budget.total == 0


def test_the_worker_never_stores_widget_state():
    """nbclient keeps every widget's state to write it into the notebook; the worker writes no notebook back."""
    from pathlib import Path

    source = (Path(limits.__file__).parent / "worker.py").read_text(encoding="utf-8")
    assert "store_widget_state=False" in source and "self._budget.admit(" in source


def lines():
    a, b = socket.socketpair()
    return wire.Line(a, "judge"), wire.Line(b, "learner")


def test_the_judge_reads_at_most_its_quota_from_one_notebook_over_all_its_checks():
    """60 approver questions of 20 MB (1.35 GB) reached the judge: each message was under MAX_MESSAGE and nothing
    counted their sum. The judge's Quota counts bytes and messages over every line of one notebook."""
    quota = wire.Quota(size=3 * 2 ** 20, messages=10 ** 6)
    for check in range(3):  # one line per check, one quota
        judge, learner = lines()
        judge.quota, judge.deadline = quota, time.monotonic() + 10
        def send(learner=learner):
            with contextlib.suppress(wire.LineBroken):
                for _ in range(2):
                    learner.send({"op": "return", "value": "q" * 2 ** 20})

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        try:
            got = [judge.recv() for _ in range(2)]
            assert check < 1 and len(got) == 2
        except wire.LineBroken as err:
            assert check >= 1 and "more than 3145728 bytes (the grader's limit)" in str(err)
        judge.sock.close()
        sender.join()
        learner.sock.close()
    assert quota.left < 0


def test_the_judge_counts_messages_too():
    quota = wire.Quota(size=10 ** 9, messages=5)
    judge, learner = lines()
    judge.quota, judge.deadline = quota, time.monotonic() + 10
    for _ in range(6):
        learner.send({"op": "return", "value": 1})
    assert [judge.recv() for _ in range(5)]
    with pytest.raises(wire.LineBroken, match="more than 5 messages"):
        judge.recv()


def test_a_check_broken_by_the_quota_is_named_in_the_row():
    from grader.verdict import limits_hit

    cell = {"id": "check-ask", "status": "error", "ename": "NotAnswered",
            "evalue": "the notebook stopped answering the grader: the notebook sent the grader more than 16777216 "
                      "bytes (the grader's limit)"}
    assert limits_hit({"cells": [cell]}) == ["cell 'check-ask' was stopped by the grader's limit on what a notebook "
                                             "sends its judge (grader/limits.py)"]


def test_the_gradebook_parses_no_cell_over_its_bound():
    """One 8 MB cell took the gradebook's own process to 4 GB in ast.parse, before any grading. A cell over
    CELL_PARSED characters is not parsed: it is flagged for a person, at once."""
    from grader.submissions import scan

    cell = {"id": "big", "cell_type": "code", "source": "x = [" + "1, " * (limits.CELL_PARSED // 3 + 10) + "]\n"}
    started = time.process_time()
    found = scan([cell, {"id": "ok", "source": "x = 1\n"}])
    assert time.process_time() - started < 0.5  # (not a timing test: a parse of it takes seconds and 100s of MB)
    assert found == [f"cell 'big' is {len(cell['source']) - 1} characters long, more than the grader reads "
                     f"({limits.CELL_PARSED}): not inspected"]


def test_every_csv_field_and_summary_line_is_bounded_a_count_and_the_first_few():
    """20,000 flagged cells made a 2 MB reason (a spreadsheet holds 32,767 characters a cell). A list in a field is
    its first LISTED items and how many more; any field at most FIELD_CHARS characters; the summary's lines too."""
    from grader import report
    from grader.gradebook import Job
    from grader.verdict import judge

    job = Job(path=None, learner="ana", file="ana/01.ipynb", exercise="01_tiered_policy.ipynb",
              flags=[f"cell 'c{i}' touches grader internals: gc" for i in range(20_000)],
              notes=[f"note {i}" for i in range(5_000)])
    judge(job, {"seals": [], "cells": [{"id": f"check-{i}", "kind": "check", "status": "error", "ename": "X",
                                        "evalue": "y" * 1000, "text": ""} for i in range(300)]},
          [f"check-{i}" for i in range(300)])
    row = {k: report.csv_cell(v) for k, v in job.row().items()}
    assert all(len(v) <= report.FIELD_CHARS + 40 for v in row.values() if isinstance(v, str)), \
        {k: len(v) for k, v in row.items() if isinstance(v, str)}
    assert "… and 19990 more (20000 in all)" in row["reason"] or "characters in all" in row["reason"]
    assert "… and 290 more (300 in all)" in row["failed_criteria"]
    lines = report.summary([job]).splitlines()
    assert max(map(len, lines)) < 3 * report.FIELD_CHARS


def test_merge_reads_any_csv_the_gradebook_wrote(tmp_path):
    """An older gradebook wrote a 2 MB reason; every later --merge then crashed (`field larger than field limit`),
    losing the late learner's grade. The reader's limit is the file's size."""
    import csv

    from grader import report

    out = tmp_path / "grades.csv"
    with out.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["learner", "file", "exercise", "verdict", "reason"])
        writer.writeheader()
        writer.writerow({"learner": "ana", "file": "ana/01.ipynb", "exercise": "01", "verdict": "NOT GRADED",
                         "reason": "flagged; " * 250_000})
    columns, rows = report.merged(out, [{"learner": "bo", "file": "bo/01.ipynb", "exercise": "01", "verdict": "PASS"}])
    assert [r["learner"] for r in rows] == ["ana", "bo"] and "reason" in columns


# ---- one learner, one row, one feedback file ---------------------------------------------------------------

def test_two_learners_of_one_name_stay_two_and_canvas_names_come_first(tmp_path):
    """Moodle's folder names carry a student id: two "Ana Pérez" were one learner (one feedback file lost, and a
    --merge of one's late file deleted the other's PASS row). A Canvas file "ana_123_456_Final - 01....ipynb" was
    credited to "ana_123_456_Final"."""
    from grader import report
    from grader.gradebook import discover

    for rel in ("Ana Pérez_1111_assignsubmission_file_/01_tiered_policy.ipynb",
                "Ana Pérez_2222_assignsubmission_file_/01_tiered_policy.ipynb"):
        (tmp_path / "moodle" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "moodle" / rel).write_text("{}", encoding="utf-8")
    (tmp_path / "canvas").mkdir()
    (tmp_path / "canvas" / "ana_123_456_Final - 01_tiered_policy.ipynb").write_text("{}", encoding="utf-8")
    assert sorted(j.learner for j in discover(tmp_path / "moodle")) == ["Ana Pérez (1111)", "Ana Pérez (2222)"]
    assert [j.learner for j in discover(tmp_path / "canvas")] == ["ana (123)"]
    old = tmp_path / "grades.csv"
    row = {"exercise": "01_tiered_policy.ipynb", "file": "x/01_tiered_policy.ipynb"}
    report.write_csv(old, ["learner", "file", "exercise", "verdict"], [
        dict(row, learner="Ana Pérez (1111)", verdict="PASS"), dict(row, learner="Ana Pérez (2222)", verdict="FAIL")])
    _, rows = report.merged(old, [dict(row, learner="Ana Pérez (2222)", verdict="PASS")])
    assert sorted((r["learner"], r["verdict"]) for r in rows) == [("Ana Pérez (1111)", "PASS"),
                                                                   ("Ana Pérez (2222)", "PASS")]


def test_names_a_person_cannot_tell_apart_are_shown_apart_and_get_their_own_feedback_file(tmp_path):
    """"bo" and a Cyrillic "bо" read the same in the CSV; "!!!" and "???" shared one feedback folder; one learner's
    two files of one exercise shared one feedback file."""
    from types import SimpleNamespace

    from grader.report import feedback_paths, shown_name

    assert shown_name("bo") == "bo" and shown_name("b\u043e") == "b\\u043e"  # the one rule for names
    assert shown_name("Ana Pérez (1)") == "Ana Pérez (1)" and shown_name("Борис") == "Борис"
    jobs = [SimpleNamespace(learner=who, file=f"{who}/{name}", exercise="01_tiered_policy.ipynb")
            for who, name in (("!!!", "a.ipynb"), ("???", "a.ipynb"), ("Ana", "a.ipynb"), ("ana", "a.ipynb"),
                              ("mia", "a.ipynb"), ("mia", "b.ipynb"), ("bo", "a.ipynb"), ("b\u043e", "a.ipynb"))]
    paths = feedback_paths(jobs, tmp_path)
    assert len({p.as_posix().casefold() for p in paths.values()}) == len(jobs), paths
    assert paths[id(jobs[4])] == tmp_path / "mia" / "01_tiered_policy.md"  # a plain name keeps its plain path


def test_the_gradebook_never_writes_through_a_symlink(tmp_path, monkeypatch, capsys):
    """A learner's repository committed grades/01.csv -> ../grader/judge.py: the gradebook overwrote the runner's
    judge with its CSV. A link as the CSV, the summary or the feedback folder, or above them below the working
    folder, is refused before anything is graded."""
    from grader import gradebook

    monkeypatch.chdir(tmp_path)
    (tmp_path / "judge.py").write_text("the judge\n")
    (tmp_path / "grades").mkdir()
    (tmp_path / "grades" / "01.csv").symlink_to(Path("..", "judge.py"))
    (tmp_path / "linked").symlink_to(tmp_path / "grades")
    (tmp_path / "class").mkdir()
    for argv in (["--out", "grades/01.csv"], ["--out", "linked/02.csv"], ["--out", "ok.csv", "--summary", "grades/01.csv"]):
        with pytest.raises(SystemExit) as ended:
            gradebook.main(["class", *argv])
        assert ended.value.code == 2 and "is a symbolic link" in capsys.readouterr().err
    assert (tmp_path / "judge.py").read_text() == "the judge\n" and not (tmp_path / "grades" / "02.csv").exists()


# ---- the OS's accounting: a cgroup per sandbox ------------------------------------------------------------------

FILES = """
n = 0
try:
    while n < 2_000_000:
        open(f"/tmp/f{n}", "w").close()
        n += 1
except OSError as err:
    print("stopped", n, err)
print("made", n)
"""


def test_a_sandboxs_cgroup_bounds_the_kernel_memory_of_empty_files(tmp_path):
    """Empty files in a sandbox's tmpfs cost no bytes of its --disk, but each costs the host's kernel ~1 KB it cannot
    reclaim (a tmpfs takes ~3 million). In a cgroup of its own, as the worker makes one for each kernel where the OS
    lets it (grader/cgroups.py), they count against its memory: the OS stops them at the limit. Where no cgroup can
    be made (not root; cgroup v2 without the memory controller delegated), the test says so and skips."""
    import os
    import shutil
    import subprocess
    import sys
    import uuid

    from grader import cgroups

    if not shutil.which("bwrap"):
        pytest.skip("bwrap is not installed")
    made, why = cgroups.make(f"kit-test-{uuid.uuid4().hex[:8]}", memory=48 * 2 ** 20, processes=64)
    if not made:
        pytest.skip(why)
    try:
        enter = "import os, sys\nfor f in sys.argv[1:]:\n    open(os.path.join(f, 'cgroup.procs'), 'w').write(str(os.getpid()))\n"
        bwrap = ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--dev", "/dev",
                 "--size", str(2 ** 30), "--tmpfs", "/tmp", os.path.realpath(sys.executable), "-I", "-c", FILES]
        # (the interpreter itself, not the venv's link to it: the kit, and so its venv, may be in /tmp, hidden here)
        run = subprocess.run([sys.executable, "-I", "-c", enter + "os.execvp(%r, %r)" % (bwrap[0], bwrap), *made],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode != 0 and "made 2000000" not in run.stdout, (run.returncode, run.stdout, run.stderr)
        assert cgroups.oom_killed(made), (run.returncode, run.stdout[-2000:], run.stderr[-2000:])
    finally:
        cgroups.remove(made, wait=10)
    assert not any(Path(f).exists() for f in made)


# ---- the view is the kit's list, not the disk ------------------------------------------------------------------

def test_the_view_is_the_kits_list_not_what_else_is_on_the_disk(tmp_path):
    """A class folder placed under exercises/ was in every kernel's view (a classmate's cells ran and got PASS), and
    so were a teacher's untracked solved copy and an old CSV under notebooks/. The view is built from the kit's list
    (git's tracked files, what export_template ships), whatever else is on the disk."""
    import shutil
    import uuid

    from grader import gradebook
    from grader.sandbox import ROOT, learner_view

    tag = uuid.uuid4().hex[:8]
    planted = [ROOT / "exercises" / f"class-{tag}" / "ana" / "01_tiered_policy.ipynb",
               ROOT / "exercises" / f"01_tiered_policy-Copy{tag}.ipynb", ROOT / "notebooks" / f"grades-{tag}.csv"]
    try:
        for path in planted:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("{}", encoding="utf-8")
        kit = [p.relative_to(ROOT).as_posix() for p in gradebook.kit_files()]
        if any(p.name == planted[1].name for p in map(Path, kit)):
            pytest.skip("not a git checkout: the kit's list is the disk (docs/teaching.md)")
        view = learner_view(tmp_path / "view", kit)
        seen = {p.relative_to(view).as_posix() for p in view.rglob("*") if p.is_file()}
        assert not [p for p in planted if p.relative_to(ROOT).as_posix() in seen]
        assert {"exercises/grading.py", "harness_lib/loop.py", "exercises/01_tiered_policy.ipynb"} <= seen
        assert not [p for p in seen if "solutions/" in p or p.startswith("tests/test")]
        assert {p for p in seen if p.startswith("grader/") and "__pycache__" not in p} == {
            "grader/__init__.py", "grader/wire.py", "grader/defendant.py"}  # of the grader, the judge's line only
        assert any(p.startswith("harness_lib/__pycache__/") for p in seen) or not list(
            (ROOT / "harness_lib" / "__pycache__").glob("*.pyc"))  # (bytecode kept: kernels do not compile again)
    finally:
        shutil.rmtree(ROOT / "exercises" / f"class-{tag}", ignore_errors=True)
        for path in planted[1:]:
            path.unlink(missing_ok=True)


# ---- evidence from what the kernel cannot forge ---------------------------------------------------------------

LIBRARY_COPY = """\
import types, harness_lib.loop as _lib
_f = _lib.run_tool_uses
run_tool_uses = types.FunctionType(_f.__code__.replace(co_filename="/tmp/ipykernel_1/123.py"), _f.__globals__)
"""


@pytest.mark.parametrize("cells, expected", [
    (["def run_tool_uses(content):\n    return []\n"], []),
    (["from harness_lib.loop import run_tool_uses\n"],
     ["run_tool_uses is bound in cell 'c0' by an assignment or an import, not only by its def"]),
    ([LIBRARY_COPY], ["run_tool_uses is bound in cell 'c0' by an assignment or an import, not only by its def"]),
    (["def run_tool_uses(content):\n    return []\n", "import harness_lib.loop as l\nrun_tool_uses = l.run_tool_uses\n"],
     ["run_tool_uses is bound in cell 'c1' by an assignment or an import, not only by its def"]),
    (["x = 1\n"], ["run_tool_uses is not defined by a def in any of the notebook's cells"]),
])
def test_whether_a_function_was_written_in_a_cell_is_decided_from_the_notebooks_file(cells, expected):
    """A code object copied with co_filename set to a cell's file, a patched grader.defendant.origin, a __func__
    planted on a copy: each made the kernel say "written in a cell" (exercise 4, PASS 10, no note). The gradebook
    now reads that from the cells' source itself, which no kernel answers."""
    from grader.submissions import not_defined

    assert not_defined([{"id": f"c{i}", "source": s} for i, s in enumerate(cells)], {"run_tool_uses"}) == expected


def test_the_judge_answers_only_the_connection_that_brings_its_secret(tmp_path):
    """A thread of the notebook's connected to each /ipc/judge-* socket before serve() did, and answered the judge
    itself. The judge now takes the first connection whose first message is this check's token (serve() sends it;
    the serve cell is kept out of the kernel's history); the others are closed."""
    from grader import judge

    listener, address = judge.listen(str(tmp_path))
    rogue, silent, genuine = (socket.socket(socket.AF_UNIX) for _ in range(3))
    for sock in (rogue, silent, genuine):
        sock.connect(address)
    wire.Line(rogue, "learner").send({"op": "return", "value": "I am serve()"})
    silent.close()
    wire.Line(genuine, "learner").send({"op": "hello", "token": "s3cret"})
    got = judge._accept(listener, time.monotonic() + 10, threading.Event(), "s3cret")
    try:
        line = wire.Line(got, "judge")
        line.send({"op": "bye"})
        assert wire.Line(genuine, "learner").recv() == {"op": "bye"}
        rogue.settimeout(2)
        assert rogue.recv(10) == b""  # closed by the judge
    finally:
        for sock in (got, rogue, genuine, listener):
            sock.close()


def test_the_scan_flags_reading_the_running_cells_text():
    from grader.submissions import scan

    found = scan([{"id": "t", "source": "import sys\nframes = sys._current_frames()\nh = get_ipython().history_manager\n"}])
    assert found and "_current_frames" in found[0] and "history_manager" in found[0]


def test_a_lesson_cell_pasted_with_its_names_comments_and_spacing_changed_is_noticed():
    """Lesson 05's gate cell pasted with one comment word changed was not noticed (only exact pastes were). Its
    shape (grader/similarity.py: no comments, names renamed by order) is."""
    import json
    import re

    from grader.sandbox import ROOT
    from grader.submissions import borrowed, lesson_cells

    gate = next(c for c in json.loads((ROOT / "notebooks" / "05_human_in_the_loop.ipynb").read_text())["cells"]
                if c.get("id") == "gate")
    source = "".join(gate["source"])
    changed = re.sub(r"\bresults\b", "my_results", source).replace("#", "# mine:").replace("    ", "  ")
    assert changed != source
    found = borrowed([{"id": "mine", "source": changed}], lesson_cells())
    assert found == ["cell 'mine' is lesson 05_human_in_the_loop.ipynb, cell 'gate', with its names, comments or "
                     "spacing changed at most"], found


def test_answers_alike_between_learners_are_listed_for_a_person():
    """A classmate's answer copied in was never noticed. Learners of one exercise whose answers have one shape, or
    almost, get a note naming each other (never a verdict); answers written apart do not."""
    import json

    from grader.gradebook import Job, note_alike
    from grader.sandbox import ROOT
    from grader.similarity import answer_shape

    starter = json.loads((ROOT / "exercises" / "01_tiered_policy.ipynb").read_text())
    solution = json.loads((ROOT / "exercises" / "solutions" / "01_tiered_policy.ipynb").read_text())
    mine = [c for c in solution["cells"] if c.get("id") in ("policy", "run-tool-uses")]
    renamed = [dict(c, source="".join(c["source"]).replace("results", "answers").replace("#", "# copied")) for c in mine]
    own = [dict(mine[0]), {"id": "run-tool-uses", "source": "def run_tool_uses(content, tools=None, approve=None):\n"
                                                         "    out = []\n    for b in content:\n        out.append(b)\n"
                                                         "    return out\n"}]
    jobs = [Job(path=None, learner=who, file=f"{who}/x.ipynb", exercise="01_tiered_policy.ipynb",
                shape=answer_shape(cells, starter)) for who, cells in (("ana", mine), ("bo", renamed), ("cy", own))]
    note_alike(jobs)
    assert [len(j.notes) for j in jobs] == [1, 1, 0], [j.notes for j in jobs]
    assert jobs[0].notes[0].endswith("same answer as bo, once names, comments and spacing are set aside")
    assert jobs[1].notes[0].endswith("same answer as ana, once names, comments and spacing are set aside")
    jobs[1].shape = answer_shape([dict(c, source="".join(c["source"]).replace("#", "# copied")) for c in mine], starter)
    jobs[0].notes, jobs[1].notes = [], []
    note_alike(jobs)  # only comments changed: the same shape
    assert jobs[0].notes == ["the same answer as bo, once names, comments and spacing are set aside"]


def test_a_notebook_of_more_code_than_the_grader_runs_is_not_kept_nor_run(tmp_path):
    """A submission may be 64 MB: held for the whole class (its graded notebook) and run. One whose learner cells
    hold more than LEARNER_CODE characters is NOT GRADED, flagged, and neither kept nor run."""
    import json

    from grader.gradebook import Job
    from grader.sandbox import ROOT
    from exercises.lock import load_lock
    from grader.submissions import prepare

    nb = json.loads((ROOT / "exercises" / "solutions" / "01_tiered_policy.ipynb").read_text())
    cell = next(c for c in nb["cells"] if c.get("id") == "run-tool-uses")
    cell["source"] = "".join(cell["source"]) + f"\n_padding = {'x' * (limits.LEARNER_CODE + 10)!r}\n"
    (tmp_path / "big.ipynb").write_text(json.dumps(nb))
    lock = load_lock()
    job = Job(path=tmp_path / "big.ipynb", learner="ana", file="big.ipynb")
    prepare(job, lock, {"01_tiered_policy.ipynb": [json.loads((ROOT / "exercises" / "01_tiered_policy.ipynb").read_text())]})
    assert job.verdict == "NOT GRADED" and job.cause == "flagged" and job.graded is None, job
    assert f"more than the grader runs ({limits.LEARNER_CODE}): not run" in job.reason


def test_a_workflow_edit_reverted_with_skip_ci_is_noted_from_the_repositorys_history(tmp_path):
    """A pushed workflow edit followed by a `[skip ci]` revert left the teacher's .github/ note empty: the files are
    the template's again. The re-grade reads the cloned repository's history of .github/."""
    import shutil
    import subprocess

    from grader.learners import workflow_notes
    from grader.sandbox import ROOT

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "class" / "harness-ana"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "exercises").mkdir()
    (repo / "exercises" / "01_tiered_policy.ipynb").write_text("{}")
    workflow = repo / ".github" / "workflows" / "classroom.yml"
    shipped = (ROOT / ".github" / "workflows" / "classroom.yml").read_bytes()
    env = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@example.org", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@example.org", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}

    def commit(message):
        subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True, env=env)
        subprocess.run(["git", "-C", str(repo), "commit", "-qm", message], check=True, env=env)

    subprocess.run(["git", "-C", str(repo), "init", "-q"], check=True, env=env)
    workflow.write_bytes(shipped)
    commit("Initial commit")
    notebook = repo / "exercises" / "01_tiered_policy.ipynb"
    assert workflow_notes(notebook, tmp_path / "class") == []
    workflow.write_bytes(b"on: push\njobs: {}\n")
    commit("points")
    workflow.write_bytes(shipped)
    commit("back [skip ci]")
    (note,) = workflow_notes(notebook, tmp_path / "class")
    assert "is the template's now, but 2 later commit(s) changed it" in note
