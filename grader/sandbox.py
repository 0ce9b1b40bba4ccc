"""The sandbox around each graded notebook's kernel: bubblewrap (`bwrap`, Linux).

`sandbox_available()` says whether bwrap can make a sandbox here ("" when it can, else why not, in one line);
`learner_view(dest)` copies what a learner has into `dest` once per class (what grader/export_template.py ships,
LEARNER_FILES less TEACHER_ONLY: no solutions, no .git, no tests, no teacher's docs, and of grader/, which the
template ships as well, only the judge's line the kernel answers on: grader/__init__.py, wire.py, defendant.py); `sandbox_argv(workdir, hide, view)` is bwrap's command line for one kernel: every
namespace new (no network, its own processes), no capabilities, the system and Python read-only, the learner's
view mounted read-only where the kit is (so `harness_lib.__file__` leads to the view, never to the teacher's
checkout), the notebook's own folder and /tmp writable (each a tmpfs of `disk` bytes: nothing written reaches the
host's disk), and the folders in `hide` that a read-only mount would still show replaced by empty ones.
`ipc_argv(folder)` adds the kernel's sockets: the folder of its connection file read-only, and a tmpfs of
IPC_BYTES at IPC where the kernel binds its sockets and the judge its own; `ipc_outside(info)` is that tmpfs as
the worker reaches it: through the `root` link procfs keeps for the sandbox's first process (its pid from bwrap's
`--info-fd`). So no folder of the host that the kernel can write to is shared with it.

`launch` (`python -I -S grader/sandbox.py --launch SPEC CONNECTION_FILE`, the kernel's command) starts bwrap
with its arguments passed through a pipe (`--args FD`) and an environment of ENV_KEPT only: the sandbox's pid 1 is
bwrap itself, and its command line (/proc/1/cmdline) and environment are all a notebook can read of how it was
made. Limits from the OS (`prlimit` on the kernel): its address space (`memory`), processes (`processes`) and the
size of any file it writes; its folder and /tmp are tmpfs of `disk` bytes each, /dev is read-only with /dev/shm a
tmpfs of at most SHM_BYTES (`dev_argv`), and where the worker could make one, the launcher enters the sandbox's own
cgroup first (grader/cgroups.py: all its memory, tmpfs files and inodes counted together).

`processes` is RLIMIT_NPROC. Since Linux 5.14 it counts the processes (and threads) of one user in one user
namespace, and every sandbox has a user namespace of its own: the limit is each notebook's own, however many kernels
run at once (measured: 98 children, then BlockingIOError, with a limit of 100; two sandboxes of one user at once, 48
each with a limit of 50). The OS does not hold root to it, so a grader running as root starts bwrap as another user,
`kernel_user()` (SANDBOX_USER, nobody), through util-linux's `setpriv` (no groups, no capabilities): bwrap makes its
user namespace as it does for any user, and the kernel's processes are that user's, not root's. That user must reach
what the sandbox mounts, whatever the folders above it allow (root's home folder, where Python may live, is 0700):
the launcher, still root, binds each source under a tmpfs over STAGE in a mount namespace of its own (`_staged`: the
host's mounts are unchanged), gives the connection file (jupyter_client writes it for root only) to that user and
lets it enter, not list, the file's folder. The worker, root, reaches the sandbox's IPC folder as before, and makes
the judge's socket there as that user (grader/judge.py: root can make no file in that tmpfs). Before grading,
`kernel_user_available` starts such a sandbox, this Python reading the kit in it; where that fails (no setpriv, no
user namespaces for that user), `--sandbox bwrap` refuses to grade and auto sandboxes as root, every row saying the
process limit did not hold (grader/gradebook.py). A grader that is not root runs none of this.

What it does NOT do: limit CPU time (the gradebook's per-cell and per-notebook timeouts stop a notebook); protect
anything on a machine where bwrap cannot run (the gradebook then grades UNSANDBOXED and says so in every row); keep
a root grader's sandboxes from SANDBOX_USER's other processes (that user owns their user namespaces: run no service
as nobody on a grading machine); grant more than the files' own modes (a kit or a Python that nobody cannot read,
e.g. installed with a umask of 077, fails kernel_user_available). Before Linux 5.14, RLIMIT_NPROC counts a user's
processes across namespaces: a root grader's kernels, all nobody's, would share one limit.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXERCISES = ROOT / "exercises"

SANDBOX_PROBE = ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--cap-drop", "ALL", "true"]

# What a learner's copy of the kit holds, and what stays with the teacher: the view a kernel sees is the first less
# the second. The template (grader/export_template.py) ships both lists' difference and the grader's own files too
# (Classroom grades in the learner's copy), which a graded kernel needs not and does not see, but the judge's line.
LEARNER_FILES = ("harness_lib/", "harness_kit/", "harness_ui/", "notebooks/", "exercises/", "workspace/", "requirements.txt", "pyproject.toml",
                 "kernel_config/", "runtime.txt", "LICENSE", "conftest.py", ".gitignore", "tests/sanitize.cfg", "docs/architecture.md",
                 ".github/workflows/classroom.yml",
                 "grader/__init__.py", "grader/wire.py", "grader/defendant.py")  # the kernel's side of the judge's line
TEACHER_ONLY = ("exercises/solutions/", "exercises/es/solutions/", "exercises/_grading_tmp_", "exercises/_browser_tmp_",
                "grader/export_template.py", "workspace/scratch/")
GRADER_FILES = ("grader/",)
SKIPPED = {".git", ".ipynb_checkpoints", "__pycache__", ".venv", "venv", ".test-output", "test-artifacts"}

# The kernel's environment: nothing else of the grader's passes into the sandbox (the kernel, and bwrap as its pid 1)
ENV_KEPT = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TZ", "HARNESS_OFFLINE",
            "HARNESS_GRADING", "HARNESS_AUTO_APPROVE", "PYTHON_DOTENV_DISABLED", "PYTHONDONTWRITEBYTECODE",
            "PYTHONNOUSERSITE")

# The limits' defaults (the gradebook's --memory, --processes, --disk change them)
MEMORY = 2 * 2 ** 30  # bytes of address space for each process of the kernel
PROCESSES = 256  # RLIMIT_NPROC for the kernel's processes (see the module's docstring)
DISK = 256 * 2 ** 20  # bytes of the notebook's folder, of its /tmp, and of any one file it writes
# The kernel's sockets (its ZeroMQ channels, the judge's line) live in the sandbox, in a tmpfs of IPC_BYTES at IPC:
# nothing the kernel writes there reaches the host's disk. The worker reaches them from outside through the
# sandbox's root, the `root` link procfs keeps for its first process (`ipc_outside`); the host folder of the
# connection file is mounted read-only.
IPC = "/ipc"
IPC_BYTES = 2 ** 20
START_WAIT = 60  # seconds ipc_outside waits for bwrap to say which process is the sandbox's first
SHM_BYTES = 64 * 2 ** 20  # the sandbox's /dev/shm (shared memory, POSIX semaphores); /dev itself is read-only
# A grader running as root starts bwrap as this user (`kernel_user`), so that the kernel's processes are not root's
# and RLIMIT_NPROC binds them (65534:65534 where the system has no such user). Before that, its launcher binds what
# the sandbox mounts under a tmpfs over STAGE, in a mount namespace of its own (`_staged`): STAGE is a folder every
# user may enter, which the sandbox never shows and neither the launcher, setpriv nor bwrap reads.
SANDBOX_USER = "nobody"
ROOT_SANDBOX = "bwrap (as root: no process limit)"  # the gradebook's sandbox column where it cannot (a kernel as root)
STAGE = "/sys"
# bwrap's options that sandbox_argv and ipc_argv write, and how many arguments each takes (`_staged` reads them)
BWRAP_ARITY = {"--unshare-all": 0, "--die-with-parent": 0, "--new-session": 0, "--cap-drop": 1, "--proc": 1,
               "--dev": 1, "--remount-ro": 1, "--size": 1, "--tmpfs": 1, "--symlink": 2, "--ro-bind": 2, "--chdir": 1, "--setenv": 2}


def sandbox_available() -> str:
    """"" when bubblewrap (`bwrap`, Linux) can make a sandbox here, else why not (one line)."""
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        run = subprocess.run(SANDBOX_PROBE, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as err:
        return f"bwrap does not run: {err}"
    return "" if run.returncode == 0 else f"bwrap cannot make a sandbox here: {run.stderr.strip()[:200]}"


def sandbox_user() -> tuple[str | None, str]:
    """For the gradebook: ("UID:GID", "") when this process is root and a kernel's sandbox starts as `kernel_user`
    here; (None, why not) when it cannot (the process limit would not hold); (None, "") when this process is not
    root."""
    user = kernel_user()
    why = kernel_user_available(user) if user else ""
    return (f"{user[0]}:{user[1]}" if user and not why else None), why


def kernel_user() -> tuple[int, int] | None:
    """(uid, gid) that a kernel's sandbox is started as when this process is root (SANDBOX_USER's); None when it is
    not root: bwrap then runs as this process's user, whom RLIMIT_NPROC binds already."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    import pwd

    try:
        entry = pwd.getpwnam(SANDBOX_USER)
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def kernel_user_available(user: tuple[int, int]) -> str:
    """"" when a sandbox made as a kernel's is (`exec_sandboxed`), started as `user`, runs this Python and reads the
    kit; else why not (one line). Run by a grader that is root, before it grades (about 0.1 s)."""
    if shutil.which("setpriv") is None:
        return (f"running as root, the sandbox must start as {SANDBOX_USER} (the OS does not hold root to the process "
                "limit), through util-linux's setpriv: not installed")
    try:
        # (not -S: the sandbox binds this Python's prefix, which is a venv's only once site has run, as in a worker)
        run = subprocess.run([sys.executable, "-I", str(Path(__file__).resolve()), "--probe", json.dumps(user)],
                             capture_output=True, text=True, timeout=20, cwd=ROOT)
    except (OSError, subprocess.SubprocessError) as err:
        return f"running as root, the sandbox could not start as {SANDBOX_USER}, which the process limit needs: {err}"
    if run.returncode == 0:
        return ""
    said = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
    return (f"running as root, the sandbox could not start as {SANDBOX_USER} (uid {user[0]}), which the process limit "
            f"needs: {said[:200]}")


def _probe(user: tuple[int, int]) -> None:
    """`kernel_user_available`'s sandbox (this process becomes it): the kit itself read-only, as a kernel's view is,
    and this Python reading a file of it, as `user`."""
    argv = sandbox_argv(Path(os.sep, "kit-probe"), [])
    check = f"open({str(ROOT / 'harness_lib' / '__init__.py')!r}, 'rb').close()"
    exec_sandboxed({"bwrap": argv, "limits": {"memory": MEMORY, "processes": PROCESSES, "disk": DISK},
                    "user": list(user)}, [sys.executable, "-I", "-S", "-c", check])


def learner_view(dest: Path, files: list[str] | None = None) -> Path:
    """Copy what a learner has of the kit into `dest` (which must not exist): LEARNER_FILES less TEACHER_ONLY of
    `files`, the kit's list (relative paths: git's tracked files, as grader/export_template.py ships them; not what
    else is on the disk: a class folder, a teacher's solved copy or an old CSV put inside the kit), their content read
    from the disk (a module being written is a module the kernel imports), with each kept module's bytecode (its
    __pycache__ entry) so kernels do not compile the kit again. Without `files`, every file on the disk under
    LEARNER_FILES. Links are not copied. -> dest."""
    def kept(rel: str) -> bool:
        return rel.startswith(LEARNER_FILES) and not rel.startswith(TEACHER_ONLY)

    dest.mkdir(parents=True)
    if files is not None:
        return _listed_view(dest, [f for f in files if kept(f)])
    for top in LEARNER_FILES:
        source = ROOT / top
        if source.is_file() and not source.is_symlink() and kept(top):
            (dest / top).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / top)
            continue
        for folder, subfolders, files in os.walk(source):
            here = Path(folder)
            rel_folder = here.relative_to(ROOT).as_posix() + "/"
            subfolders[:] = [d for d in subfolders if d not in SKIPPED and kept(f"{rel_folder}{d}/")
                             and not (here / d).is_symlink()] + (["__pycache__"] if "__pycache__" in subfolders else [])
            for name in files:
                path = here / name
                if here.name == "__pycache__":  # a module's bytecode, when its module is kept
                    module = name.split(".")[0] + ".py"
                    rel = here.parent.relative_to(ROOT).as_posix() + "/" + module
                    if not (name.endswith(".pyc") and kept(rel) and (here.parent / module).is_file()):
                        continue
                else:
                    rel = rel_folder + name
                    if not kept(rel):
                        continue
                if path.is_symlink() or not path.is_file():
                    continue
                target = dest / path.relative_to(ROOT)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)  # (with its time: the bytecode's check compares it)
    (dest / "workspace" / "scratch").mkdir(parents=True, exist_ok=True)
    return dest


def _listed_view(dest: Path, files: list[str]) -> Path:
    """learner_view of the kit's list `files` (already filtered): each regular file, and each module's bytecode."""
    for rel in files:
        path = ROOT / rel
        if path.is_symlink() or not path.is_file() or any(part in SKIPPED for part in Path(rel).parts):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)  # (with its time: the bytecode's check compares it)
        if rel.endswith(".py"):
            for pyc in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
                if pyc.is_file() and not pyc.is_symlink():
                    (target.parent / "__pycache__").mkdir(exist_ok=True)
                    shutil.copy2(pyc, target.parent / "__pycache__" / pyc.name)
    (dest / "workspace" / "scratch").mkdir(parents=True, exist_ok=True)
    return dest


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def sandbox_argv(workdir: Path, hide: list[str], view: Path | None = None, *, disk: int = DISK) -> list[str]:
    """bwrap's arguments for one kernel (up to the command): every namespace new (no network, its own processes,
    which all die with the notebook), no capabilities; the system and Python read-only; the kit as the learner
    has it (`view`, mounted where the kit is) or, without a view, the kit itself, read-only; writable only its own
    folder and /tmp (tmpfs of `disk` bytes each) and a private workspace/scratch; the folders in `hide` replaced by
    empty ones where a read-only mount would show them. With a view, every mount point below the kit is made in
    the view first (a read-only mount takes no new folder)."""
    real = os.path.realpath
    root = real(ROOT)
    system = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"]
    python = [sys.base_prefix, sys.prefix, str(Path(sys.executable).resolve().parent.parent)]
    argv = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
            "--proc", "/proc", *dev_argv(disk), "--size", str(disk), "--tmpfs", "/tmp"]
    binds = {}  # where -> what, read-only; parents first
    for path in dict.fromkeys(system + python):
        if os.path.islink(path) and path.count("/") == 1:  # /bin -> usr/bin on a merged-/usr system
            argv += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            binds[real(path)] = real(path)
    binds[root] = real(view) if view else root
    workdir = real(workdir)
    below_root = [p for p in binds if p != root and _inside(p, root)] + [workdir]
    if view:
        for p in below_root:  # a mount point in the read-only view must be there before it is mounted
            Path(view, os.path.relpath(p, root)).mkdir(parents=True, exist_ok=True)
    for where in sorted(binds, key=lambda p: (p.count("/"), p)):
        argv += ["--ro-bind", binds[where], where]
    shown = [p for p in binds if not (view and p == root)]  # what a read-only mount shows as the host has it
    hidden = [real(p) for p in hide] + ([] if view else [real(ROOT / "workspace" / "scratch")])
    for path in dict.fromkeys(hidden):
        if (os.path.isdir(path) and any(_inside(path, b) for b in shown) and not _inside(real(EXERCISES), path)
                and not _inside(workdir, path)):
            argv += ["--tmpfs", path]  # (never the exercises' folder, nor the notebook's)
    if view:
        argv += ["--tmpfs", str(ROOT / "workspace" / "scratch")]
    return argv + ["--size", str(disk), "--tmpfs", workdir, "--chdir", workdir, "--setenv", "HOME", "/tmp"]


def dev_argv(disk: int = DISK) -> list[str]:
    """bwrap's /dev: its device nodes, and then read-only (bwrap's /dev is a tmpfs as big as half the machine's memory,
    which nothing else bounds), with /dev/shm a tmpfs of its own of at most SHM_BYTES (and of `disk`)."""
    return ["--dev", "/dev", "--size", str(min(SHM_BYTES, disk)), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]


def ipc_argv(connection_folder: str) -> list[str]:
    """bwrap's arguments for the kernel's sockets: the folder of its connection file read-only, a small tmpfs at IPC
    for the sockets it binds (the judge's too)."""
    return ["--ro-bind", connection_folder, connection_folder, "--size", str(IPC_BYTES), "--tmpfs", IPC]


def ipc_outside(info_file: Path) -> str:
    """The sandbox's IPC folder as this side reaches it: IPC under the `root` link procfs keeps for the sandbox's
    first process, whose pid bwrap wrote to `info_file` (`--info-fd`). Waits for bwrap to write it (up to
    START_WAIT s); TimeoutError else."""
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        try:
            pid = int(json.loads(info_file.read_text())["child-pid"])
            return os.path.join("/proc", str(pid), "root") + IPC
        except (OSError, ValueError, KeyError, TypeError):
            time.sleep(0.02)
    raise TimeoutError(f"the sandbox did not start within {START_WAIT} s")


def kernel_spec(spec_dir: Path, argv: list[str], *, memory: int = MEMORY, processes: int = PROCESSES,
                disk: int = DISK, info: Path | None = None, user: tuple[int, int] | None = None,
                groups: list[str] = ()) -> list[str]:
    """Write the launch spec (bwrap's arguments, the limits, where bwrap writes its info, the user bwrap starts as
    when not this process's: `kernel_user`) into `spec_dir`, a folder no sandbox shows; -> the kernel's command for
    jupyter_client's kernel.json."""
    spec = spec_dir / "launch.json"
    spec.write_text(json.dumps({"bwrap": argv, "limits": {"memory": memory, "processes": processes, "disk": disk},
                                "info": str(info) if info else None, "user": list(user) if user else None,
                                "cgroups": list(groups)}))
    return [sys.executable, "-I", "-S", str(Path(__file__).resolve()), "--launch", str(spec), "{connection_file}"]


def launch(spec_file: str, connection_file: str, *extra: str) -> None:
    """The kernel's command (jupyter_client's kernel.json): become the sandboxed ipykernel of `spec_file`."""
    spec = json.loads(Path(spec_file).read_text())
    for folder in spec.get("cgroups") or ():  # the sandbox's own cgroups (grader/cgroups.py, `enter`): bwrap and
        Path(folder, "cgroup.procs").write_text(str(os.getpid()))  # all it starts are in them
    if spec.get("user"):  # the kernel, started as that user, reads its connection file (jupyter_client writes it for
        os.chown(connection_file, *spec["user"])  # this process's user only), and enters its folder: nothing more
        os.chmod(os.path.dirname(os.path.abspath(connection_file)), 0o711)
    exec_sandboxed(spec, [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file, *extra])


def _staged(options: list[str]) -> list[str]:
    """(root, before bwrap starts as another user) bwrap's `options`, each --ro-bind's source replaced by a bind of
    it under a tmpfs over STAGE, made in a mount namespace of this process's own: that user reaches each source
    there whatever the folders above it allow (root's home folder is 0700, and Python may live in it). The host's
    mounts are unchanged; the sandbox shows what it showed, with the same modes."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]

    def check(result: int, what: str) -> None:
        if result != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"{what}: {os.strerror(errno)}")

    ms_nosuid, ms_nodev, ms_noexec, ms_bind, ms_rec, ms_private = 2, 4, 8, 0x1000, 0x4000, 0x40000
    check(libc.unshare(0x20000), "a mount namespace (unshare)")  # CLONE_NEWNS
    check(libc.mount(b"none", b"/", None, ms_rec | ms_private, None), "the mounts made private")
    check(libc.mount(b"tmpfs", STAGE.encode(), b"tmpfs", ms_nosuid | ms_nodev | ms_noexec, b"mode=0711,size=64k"),
          f"a tmpfs over {STAGE}")
    staged, i = [], 0
    while i < len(options):
        option = options[i]
        if option not in BWRAP_ARITY:
            raise ValueError(f"not an option the sandbox writes: {option}")
        args = options[i + 1:i + 1 + BWRAP_ARITY[option]]
        if option == "--ro-bind":
            source = os.path.realpath(args[0])
            if _inside(source, STAGE):
                raise ValueError(f"the sandbox cannot show {source}: {STAGE} is where its mounts are staged")
            where = f"{STAGE}/{len(staged)}"
            if os.path.isdir(source):
                os.mkdir(where, 0o711)
            else:
                os.close(os.open(where, os.O_CREAT | os.O_WRONLY, 0o600))
            check(libc.mount(source.encode(), where.encode(), None, ms_bind | ms_rec, None), f"a bind of {source}")
            args = [where, args[1]]
        staged += [option, *args]
        i += 1 + BWRAP_ARITY[option]
    return staged


def exec_sandboxed(spec: dict, command: list[str]) -> None:
    """Become bwrap (exec) running `command` under `prlimit` with the spec's limits: bwrap's options through a pipe
    (`--args FD`), not its command line; only ENV_KEPT in its environment (and so the command's)."""
    limits = spec["limits"]
    prlimit = shutil.which("prlimit")
    if prlimit:
        command = [prlimit, f"--as={limits['memory']}", f"--nproc={limits['processes']}",
                   f"--fsize={limits['disk']}", "--", *command]
    options = spec["bwrap"][1:]
    user = spec.get("user")
    if user:  # root: bwrap starts as `user` (kernel_user), reaching what it binds through the stage
        options = _staged(options)
    if spec.get("info"):  # bwrap writes the sandbox's first pid there (ipc_outside reads it)
        info = os.open(spec["info"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.set_inheritable(info, True)
        options = [*options, "--info-fd", str(info)]
    data = "".join(arg + "\0" for arg in options).encode()  # the options; the command stays in argv
    if len(data) > 60000:  # a pipe holds 64 KiB: more would block here, before bwrap reads it
        raise SystemExit("the sandbox's arguments are too long")
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    os.set_inheritable(read, True)
    env = {k: v for k, v in os.environ.items() if k in ENV_KEPT}
    env["HOME"] = "/tmp"
    bwrap = shutil.which("bwrap") or "/usr/bin/bwrap"
    if not user:
        os.execve(bwrap, ["bwrap", "--args", str(read), "--", *command], env)
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        raise SystemExit("the sandbox starts as another user through util-linux's setpriv, which is not installed")
    # setpriv execs bwrap: the sandbox's pid 1 is still bwrap, with the same options and environment
    os.execve(setpriv, ["setpriv", f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups", "--inh-caps=-all",
                        bwrap, "--args", str(read), "--", *command], env)


if __name__ == "__main__" and sys.argv[1:2] == ["--launch"]:
    launch(*sys.argv[2:])
elif __name__ == "__main__" and sys.argv[1:2] == ["--probe"]:
    _probe(tuple(json.loads(sys.argv[2])))
