"""The tab's pure-Python wheels that pay for it, served byte-compiled for the tab's own Python (`.pyc` files only).

PyPI's pure-Python wheels carry no bytecode, and Pyodide's file system is in memory: every kernel start compiled
the SDK from source again (`import anthropic` is ~2,900 modules). Pyodide's own distribution ships its packages
byte-compiled for this reason, and so does the site for the wheels in BYTE_COMPILED:

    wheels = served_wheels(wheels, pyodide_folder, cache)   # lite/build.py, before the lock is written

The compiler is the tab's own Python (CPython 3.14 in WebAssembly: a `.pyc` is only read by the Python that made
it), run under Node, with the wheel's `.py` files in a host folder it mounts. Each `.pyc` takes its module's place
in the wheel (sourceless, as Pyodide does: the source would more than double the SDK's download, and the site's
budget is 35 MB), and the wheel's RECORD names the new files with their sha256, so it stays a valid wheel. The
`.pyc` files are hash-based and unchecked (there is no source to check them against), which makes them the same
bytes on every build: a timestamp-based `.pyc` would hold the time of the build's temporary copy. Each module's
file name in its code (tracebacks) is where the tab installs it, with `.py`: the tab's traceback names the file
and line of each SDK frame as on a desktop, without the line's text. The kit's own wheel is never byte-compiled:
learners read its source in the tab.

Where no Node 18+ is found (or Pyodide fails under it) the wheels are served as they are, and the build says so in
one line: the site works, the first import of each kernel is slower. Compiled wheels are kept in the cache (a rebuild
does not need Node).
"""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

# The distributions served byte-compiled. The SDK: its compiling was 1.3 of the 5.5 CPU-seconds of `import
# anthropic` in Pyodide, in every kernel that imports the kit, for +1.8 MB of the site's 35 MB budget
# (docs/development.md, "The browser-tab site", has the figures and what else was weighed).
BYTE_COMPILED = ("anthropic",)
NODE_MINIMUM = 18  # Pyodide's package.json: "node": ">=18"
AS_SOURCE = ("the tab's wheels are served as source (a slower first import: each kernel compiles the SDK's "
             "~2,900 modules again)")

# Run by `node --input-type=module -e`: Pyodide's own Python, the folder given mounted at /wheels, every .py file
# in each of its folders compiled into a .pyc beside it, named by where the tab installs it.
COMPILE = """
import { pathToFileURL } from "node:url";
const [pyodide, folder] = process.argv.slice(-2);
const { loadPyodide } = await import(pathToFileURL(pyodide + "/pyodide.mjs").href);
const py = await loadPyodide({ indexURL: pyodide + "/", env: { PYTHONHASHSEED: "0" } });
py.FS.mkdirTree("/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/wheels");
py.runPython(`
import pathlib, py_compile, site
installed = pathlib.Path(site.getsitepackages()[0])
for wheel in sorted(pathlib.Path("/wheels").iterdir()):
    for source in sorted(wheel.rglob("*.py")):
        py_compile.compile(str(source), cfile=str(source.with_suffix(".pyc")),
                           dfile=str(installed / source.relative_to(wheel)), doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`);
"""


def distribution(wheel: Path) -> str:
    return re.sub(r"[-_.]+", "-", wheel.name.split("-")[0]).lower()


def node() -> str | None:
    """Node.js 18 or later, or None."""
    found = shutil.which("node")
    if found is None:
        return None
    try:
        version = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    major = re.match(r"v(\d+)\.", version)
    return found if major and int(major[1]) >= NODE_MINIMUM else None


def record_line(name: str, data: bytes) -> bytes:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n".encode()


def sourceless(wheel: Path, compiled: Path, out: Path) -> None:
    """`wheel` with each .py replaced by its .pyc from the folder `compiled` (the wheel unpacked), RECORD updated."""
    partial = out.with_suffix(".tmp")
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as target:
        record, lines = None, []
        for info in source.infolist():
            if info.filename.endswith(".dist-info/RECORD"):
                record = info
                continue
            data = source.read(info)
            if info.filename.endswith(".py"):
                info = zipfile.ZipInfo(info.filename + "c", info.date_time)
                info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
                data = (compiled / info.filename).read_bytes()
            target.writestr(info, data)
            if not info.is_dir():
                lines.append(record_line(info.filename, data))
        lines.append(f"{record.filename},,\n".encode())
        target.writestr(record, b"".join(lines))
    partial.replace(out)


def served_wheels(wheels: list[Path], pyodide: Path, cache: Path) -> list[Path]:
    """`wheels`, those of BYTE_COMPILED byte-compiled for the tab's Python (kept in `cache`), when Node is here."""
    key = hashlib.sha256(COMPILE.encode() + Path(__file__).read_bytes()
                         + (pyodide / "package.json").read_bytes()).hexdigest()[:16]
    todo = {w: cache / key / hashlib.sha256(w.read_bytes()).hexdigest()[:16] / w.name
            for w in wheels if distribution(w) in BYTE_COMPILED}
    missing = {w: out for w, out in todo.items() if not out.is_file()}
    if missing:
        runner = node()
        if runner is None:
            print(f"no Node.js {NODE_MINIMUM}+ found: {AS_SOURCE}; install Node.js and build again", flush=True)
            return wheels
        with tempfile.TemporaryDirectory() as tmp:
            for i, wheel in enumerate(missing):
                with zipfile.ZipFile(wheel) as source:
                    source.extractall(Path(tmp) / str(i), [n for n in source.namelist() if n.endswith(".py")])
            print(f"+ byte-compile {', '.join(w.name for w in missing)} with the tab's Python (Pyodide, Node)",
                  flush=True)
            if subprocess.run([runner, "--input-type=module", "-e", COMPILE, str(pyodide), tmp]).returncode:
                print(f"Pyodide under {runner} did not compile them (above): {AS_SOURCE}", flush=True)
                return wheels
            for i, (wheel, out) in enumerate(missing.items()):
                out.parent.mkdir(parents=True, exist_ok=True)
                sourceless(wheel, Path(tmp) / str(i), out)
    return [todo.get(w, w) for w in wheels]
