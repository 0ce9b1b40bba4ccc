"""Build the course as a JupyterLite site: every lesson and exercise in a browser tab, nothing to install.

    python -m lite.build     # from the repository root; writes build/lite/site/ (serve it as static files)

Any Python 3.11+ runs it (with Node.js 18+ on the PATH, the tab imports the SDK faster: lite/bytecode.py). What it
does, in order (docs/development.md, "The browser-tab site", says why):

1. a build venv, build/lite/cache/venv, from lite/requirements.txt (jupyterlite-core, the Pyodide kernel, ...);
2. Pyodide itself: the npm package pyodide@PYODIDE_VERSION, fetched from the npm registry as a tarball and
   checked against its sha256 (no npm needed);
3. the tab's wheels, pinned with hashes in lite/requirements-tab.txt (pip download for Pyodide's platform), the
   Pyodide kernel's own stub wheels, and a wheel of this repository's harness_lib; jedi's wheel without the type
   stubs of packages the tab cannot import (most of its size); the SDK's wheel byte-compiled by the tab's own
   Python, Pyodide run under Node (lite/bytecode.py; without Node it is served as source, and the build says so);
4. Pyodide's lock rewritten to name exactly those wheels (lite/lock.py), and a jupyter-lite.json that preloads
   the kit when the kernel starts (no install cell) and points the kernel at the site's own Pyodide;
5. the contents: notebooks/ and exercises/ (the starters, never the solutions), both editions, what the exercises'
   checks import, the workspace/ the tools read, and the welcome pages of lite/welcome/;
6. `jupyter lite build` into build/lite/site/, lite/index.html as the site's root (the welcome page in the browser's
   language), then a check that the kernel's Pyodide and every wheel its lock names are files of the site.

Downloads are kept in build/lite/cache/ (git-ignored), so a rebuild is quick and needs no network.

NOT handled: Pyodide's own compiled packages (numpy, matplotlib, ...): the npm package does not hold them and the
site does not serve them; live mode (a key in a web page, and the API's CORS opt-in); a base URL other than the
site's folder (GitHub Pages serves a project site from /NAME/, which works because every path is relative).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import venv
import zipfile
from pathlib import Path

from .bytecode import served_wheels

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Downloads and the built site go under build/ (git-ignored, and a folder the test run's clean-tree check skips).
CACHE = ROOT / "build" / "lite" / "cache"
SITE = ROOT / "build" / "lite" / "site"
BUILD_VENV = CACHE / "venv"

# Pyodide's version is the one jupyterlite-pyodide-kernel 0.8.6 is made for (its PYODIDE_VERSION).
PYODIDE_VERSION = "314.0.6"
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
PYODIDE_SHA256 = "d78ac549b28a2a58600cd06f44e017024151775f8c6b2d73fab1475400d38ea2"
# The runtime files of the npm package the site serves (not its source maps, .d.ts files or demo consoles).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide.js",
                 "package.json")
WHEEL_PLATFORM = ["--platform", "pyemscripten_2026_0_wasm32", "--python-version", "3.14", "--implementation", "cp"]
KERNEL_STUBS = ("pyodide_kernel-", "piplite-", "ipykernel-", "widgetsnbextension-4.")

# What the kernel loads before the first cell: the kernel's own packages (the Pyodide kernel installs any of these
# it does not find with piplite, one by one) and the kit. Their dependencies come with them (lite/lock.py).
PRELOAD = ["micropip", "piplite", "pyodide-kernel", "ipykernel", "comm", "ipython", "jedi", "widgetsnbextension",
           "harness-lib", "anthropic", "jsonschema", "ipywidgets", "python-dotenv"]
# The tab's environment: the tools' project root is the site's workspace/ folder (the kit is a wheel there, so
# harness_lib's default, next to its own files, does not exist).
TAB_ENV = {"HARNESS_TOOL_ROOT": "/drive/workspace"}  # (Pyodide sets HOME itself when env lacks it)


def run(*command: str | Path, **kwargs) -> None:
    print("+", " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True, **kwargs)


def digest(*paths: Path) -> str:
    """sha256 over files' names and bytes (folders: every file in them), to tell when a cached step is current."""
    h = hashlib.sha256()
    for path in paths:
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if path.is_dir() else [path]
        for f in files:
            h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()[:16]


def current(stamp: Path, key: str) -> bool:
    return stamp.is_file() and stamp.read_text() == key


# --- 1. the build venv ------------------------------------------------------------------------------------------


def build_python() -> Path:
    python = BUILD_VENV / "bin" / "python"
    stamp = BUILD_VENV / "requirements.sha256"
    key = digest(HERE / "requirements.txt")
    if not current(stamp, key):
        venv.create(BUILD_VENV, with_pip=True, clear=True)
        run(python, "-m", "pip", "install", "-q", "-r", HERE / "requirements.txt")
        stamp.write_text(key)
    return python


# --- 2. Pyodide ----------------------------------------------------------------------------------------------------


def pyodide_package() -> Path:
    """The npm package's folder (unpacked into the cache), after checking the tarball's sha256."""
    tarball = CACHE / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.is_file():
        print("+ fetch", PYODIDE_TARBALL, flush=True)
        with urllib.request.urlopen(PYODIDE_TARBALL, timeout=120) as response:
            data = response.read()
        if hashlib.sha256(data).hexdigest() != PYODIDE_SHA256:
            raise SystemExit(f"{PYODIDE_TARBALL}: sha256 is not the pinned {PYODIDE_SHA256}")
        tarball.write_bytes(data)
    unpacked = CACHE / f"pyodide-{PYODIDE_VERSION}"
    if not (unpacked / "package" / "pyodide-lock.json").is_file():
        if hashlib.sha256(tarball.read_bytes()).hexdigest() != PYODIDE_SHA256:
            raise SystemExit(f"{tarball}: sha256 is not the pinned {PYODIDE_SHA256}; delete it and build again")
        with tarfile.open(tarball) as tar:  # checked above against its pinned sha256
            options = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}  # (Python 3.11.4 and later)
            tar.extractall(unpacked, **options)
    return unpacked / "package"


# --- 3. wheels -----------------------------------------------------------------------------------------------------


def tab_wheels(python: Path) -> list[Path]:
    """The pinned wheels (downloaded once), the kernel's stub wheels and the kit's own wheel."""
    folder = CACHE / "wheels"
    stamp = folder / "requirements-tab.sha256"
    key = digest(HERE / "requirements-tab.txt")
    if not current(stamp, key):
        shutil.rmtree(folder, ignore_errors=True)
        run(python, "-m", "pip", "download", "-q", "--no-deps", "--require-hashes", "--only-binary=:all:",
            *WHEEL_PLATFORM, "-d", folder, "-r", HERE / "requirements-tab.txt")
        stamp.write_text(key)
    stubs = BUILD_VENV / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    kernel = sorted(p for p in stubs.glob("*.whl") if p.name.startswith(KERNEL_STUBS))
    wheels = sorted(folder.glob("*.whl")) + kernel + [kit_wheel(python)]
    return [jedi_for_the_tab(w, wheels) if w.name.startswith("jedi-") else w for w in wheels]


def distribution(name: str) -> str:
    """A distribution's name as PEP 503 compares them (Pygments, pygments, python_dotenv -> python-dotenv)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def jedi_for_the_tab(wheel: Path, wheels: list[Path]) -> Path:
    """jedi's wheel without the type stubs of packages the tab cannot import.

    jedi (the kernel's completion: the Pyodide kernel turns it on, and installs it if it is not preloaded) ships
    typeshed's stubs of ~200 third-party distributions and django's: 3.8 of its 4.9 MB, 4,739 of its 5,626 files,
    which every kernel start unpacks. The tab can import only the site's own wheels (PyPI is off), so only their
    stubs are kept (Pygments, decorator, jsonschema); jedi's code and the standard library's stubs are untouched.
    The wheel's RECORD lists what it holds.
    """
    served = {distribution(w.name.split("-")[0]) for w in wheels}
    stubs = "jedi/third_party/typeshed/stubs/"

    def kept(name: str) -> bool:
        if name.startswith("jedi/third_party/django-stubs/"):
            return "django" in served
        return not name.startswith(stubs) or distribution(name[len(stubs):].split("/")[0]) in served

    out = CACHE / "jedi" / digest(wheel) / wheel.name
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".tmp")
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as trimmed:
        for info in source.infolist():
            if not kept(info.filename):
                continue
            data = source.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                data = b"".join(line for line in data.splitlines(keepends=True)
                                if kept(line.decode().partition(",")[0]))
            trimmed.writestr(info, data)
    partial.rename(out)
    return out


def kit_wheel(python: Path) -> Path:
    """harness_lib (with harness_kit and harness_ui) as a wheel, built by pip from a copy of the files the package needs (the tree is not touched)."""
    sources = [ROOT / "pyproject.toml", ROOT / "README.md", ROOT / "LICENSE", ROOT / "harness_lib", ROOT / "harness_kit", ROOT / "harness_ui"]
    folder = CACHE / "kit" / digest(*sources)
    wheels = sorted(folder.glob("harness_lib-*.whl"))
    if wheels:
        return wheels[0]
    with tempfile.TemporaryDirectory() as tmp:
        for source in sources:
            target = Path(tmp) / source.name
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(source, target)
        run(python, "-m", "pip", "wheel", "-q", "--no-deps", "-w", folder, tmp)
    return next(folder.glob("harness_lib-*.whl"))


# --- 4. the lite folder: Pyodide, its lock, the config -------------------------------------------------------------


def lite_folder(python: Path, package: Path, wheels: list[Path]) -> Path:
    lite = CACHE / "lite"
    shutil.rmtree(lite, ignore_errors=True)
    static = lite / "static" / "pyodide"  # the "well-known" folder: the build copies it and points the kernel at it
    static.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(package / name, static / name)
    for wheel in wheels:
        shutil.copy2(wheel, static / wheel.name)
    # lite/lock.py needs `packaging`, which the build venv has: run it there.
    script = ("import json, sys; from pathlib import Path; from lite.lock import site_lock; "
              "npm = json.loads(Path(sys.argv[1]).read_text()); "
              "lock = site_lock(npm, [Path(p) for p in sys.argv[4:]], json.loads(sys.argv[3])); "
              "Path(sys.argv[2]).write_text(json.dumps(lock, indent=1, sort_keys=True) + '\\n')")
    subprocess.run([str(python), "-c", script, str(package / "pyodide-lock.json"), str(static / "pyodide-lock.json"),
                    json.dumps(PRELOAD), *map(str, wheels)], check=True, cwd=ROOT)
    config = json.loads((HERE / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    kernel["loadPyodideOptions"] = {"packages": PRELOAD, "env": TAB_ENV}
    (lite / "jupyter-lite.json").write_text(json.dumps(config, indent=2) + "\n")
    shutil.copy2(HERE / "overrides.json", lite / "overrides.json")
    return lite


# --- 5. the contents -----------------------------------------------------------------------------------------------


def contents() -> Path:
    """What the learner's file browser shows: lessons, exercises (starters), the workspace, the welcome pages."""
    out = CACHE / "contents"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for folder in ("notebooks", "notebooks/es", "exercises", "exercises/es"):
        (out / folder).mkdir(parents=True, exist_ok=True)
        for notebook in sorted((ROOT / folder).glob("*.ipynb")):
            shutil.copy2(notebook, out / folder / notebook.name)
    for name in ("exercises/README.md", "exercises/es/README.md", "exercises/grading.py"):
        shutil.copy2(ROOT / name, out / name)
    shutil.copytree(ROOT / "exercises" / "checks", out / "exercises" / "checks",
                    ignore=shutil.ignore_patterns("__pycache__"))
    # The workspace as the repository holds it: a learner's own files in scratch/ are not published.
    shutil.copytree(ROOT / "workspace", out / "workspace",
                    ignore=lambda folder, names: [n for n in names if Path(folder).name == "scratch"
                                                  and n != ".gitkeep"])
    for page in sorted((HERE / "welcome").iterdir()):
        shutil.copy2(page, out / page.name)
    return out


# --- 6. jupyter lite build -----------------------------------------------------------------------------------------


def sources_digest() -> str:
    """A digest of everything the site is built from, to tell whether build/lite/site/ is current (tests/test_lite.py)."""
    workspace = [p for p in (ROOT / "workspace").rglob("*") if p.is_file() and "scratch" not in p.parts]
    return digest(ROOT / "pyproject.toml", ROOT / "harness_lib", ROOT / "harness_kit", ROOT / "harness_ui", ROOT / "notebooks", ROOT / "exercises" / "checks",
                  ROOT / "exercises" / "grading.py", ROOT / "exercises" / "README.md",
                  ROOT / "exercises" / "es" / "README.md", *sorted((ROOT / "exercises").glob("*.ipynb")),
                  *sorted((ROOT / "exercises" / "es").glob("*.ipynb")), *workspace,
                  *sorted(p for p in HERE.iterdir() if p.is_file() or p.name == "welcome"))


def build() -> Path:
    CACHE.mkdir(parents=True, exist_ok=True)
    sources = sources_digest()
    python = build_python()
    package = pyodide_package()
    wheels = served_wheels(tab_wheels(python), package, CACHE / "bytecode")
    lite = lite_folder(python, package, wheels)
    files = contents()
    shutil.rmtree(SITE, ignore_errors=True)
    jupyter = BUILD_VENV / "bin" / "jupyter"
    run(jupyter, "lite", "build", "--lite-dir", lite, "--contents", files, "--output-dir", SITE,
        "--no-sourcemaps", "--no-unused-shared-packages", cwd=lite)
    # The root address opens the welcome page (in the browser's language), not a bare launcher.
    shutil.copy2(HERE / "index.html", SITE / "index.html")
    offline_service_worker(SITE)
    problems = outside_urls(SITE)
    if problems:
        raise SystemExit("the site would fetch files from outside itself:\n  " + "\n  ".join(problems))
    (CACHE / "site.sha256").write_text(sources)
    size = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file())
    print(f"built {SITE.relative_to(ROOT)}/: {size / 1e6:.0f} MB; serve it with "
          f"`python -m http.server --directory {SITE.relative_to(ROOT)}` and open http://127.0.0.1:8000/")
    return SITE


# JupyterLite's service worker (jupyterlite-core 0.8.6), with enableServiceWorkerCache on (lite/jupyter-lite.json),
# keeps a copy of every file the page fetched and serves it from there, so a reload works offline. Its changes,
# made by replacements in the minified file (the build stops if one no longer applies: a newer JupyterLite, look
# again):
# - it knows it should serve its copies from the moment it starts, not only when it is first activated (a browser
#   stops an idle worker and starts it again for the next request: the started copy served nothing from its cache);
# - the folder listings (api/contents/, plain files of the site) are served from its copy, not left to the network;
# - it stores the course's contents (the notebooks and their folder listings, ~1.8 MB) so that a notebook not
#   opened yet opens offline; not when it installs (that held up the first page until they were all fetched) but
#   once a kernel's file system first asks it something, when the kernel's own files are all loaded; once per
#   version of the worker (a marker in its cache, which a new version's install removes);
# - a file served from its copy is fetched again behind it, as before (how a published new version reaches a browser
#   that kept the old one), but its copy is rewritten only when the server's validators (ETag, Last-Modified,
#   Content-Length) differ from the copy's, and the body of an unchanged file is not read: a warm visit wrote all its
#   ~33 MB into the cache again, and that cost more CPU than the visit's own page;
# - a page's address with a query it has not seen (`lab/index.html?path=EMPEZAR.md`, a notebook's link) is served
#   offline from its copy of the same page: the query is read by the page's script, the page is the same (it matched
#   whole addresses only, so a link or the other language's welcome page never opened before failed offline).
SW_PATCHES = (
    ('let enableCache=!1;',
     'let enableCache="true"===new URL(location.href).searchParams.get("enableCache"),precaching=null;'),
    ('t.pathname.includes("/api/")}',
     't.pathname.includes("/api/")&&!/\\/api\\/(contents|translations)\\//.test(t.pathname)}'),
    ("function onInstall(e){self.skipWaiting(),e.waitUntil(cacheAll())}",
     "function onInstall(e){self.skipWaiting(),e.waitUntil(openCache().then(c=>c.delete(PRECACHED)))}"),
    ("shouldBroadcast(a)?n=broadcastOne(t,a):",
     "shouldBroadcast(a)?(n=broadcastOne(t,a),enableCache&&e.waitUntil(precaching??=cacheAll())):"),
    ("return a?e.waitUntil(refetch(t)):", "return a?e.waitUntil(refetch(t,a)):"),
    ("async function refetch(e){let t=await fetch(e);return await updateCache(e,t),t}",
     "async function refetch(e,c){let t=await fetch(e);return unchanged(c,t)?await t.body?.cancel():"
     "await updateCache(e,t),t}function unchanged(c,t){let k=h=>[h.get(\"etag\"),h.get(\"last-modified\"),"
     "h.get(\"content-length\")].join(\"|\");return t.ok&&!!(c.headers.get(\"etag\")||"
     "c.headers.get(\"last-modified\"))&&k(c.headers)===k(t.headers)}"),
    ("async function fromCache(e){let t=await openCache(),a=await t.match(e);",
     'async function fromCache(e){let t=await openCache(),a=await t.match(e)??("navigate"===e.mode?'
     "await t.match(e,{ignoreSearch:!0}):void 0);"),
    ("return await e.addAll([])",
     'await e.match(PRECACHED)||(await e.addAll(PRECACHE),await e.put(PRECACHED,new Response("")))'),
)


def offline_service_worker(site: Path) -> None:
    worker = site / "service-worker.js"
    text = worker.read_text(encoding="utf-8")
    for old, new in SW_PATCHES:
        if text.count(old) != 1:
            raise SystemExit(f"{worker}: {old!r} is not there once: JupyterLite's service worker changed")
        text = text.replace(old, new)
    precache = ["./", "index.html", "lab/index.html"]
    precache += sorted(p.relative_to(site).as_posix() for folder in ("files", "api") for p in (site / folder).rglob("*")
                       if p.is_file())
    strict = '"use strict";'
    head = strict if text.startswith(strict) else ""
    worker.write_text(f'{head}const PRECACHE={json.dumps(precache)},PRECACHED="precached-course";{text[len(head):]}',
                      encoding="utf-8")


def outside_urls(site: Path) -> list[str]:
    """The site's configuration must point the kernel at its own Pyodide, and its lock at its own wheels."""
    problems = []
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.mjs":
        problems.append(f"pyodideUrl is {kernel.get('pyodideUrl')!r}")
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text())
    for name, entry in lock["packages"].items():
        if "/" in entry["file_name"] or not (site / "static" / "pyodide" / entry["file_name"]).is_file():
            problems.append(f"{name}: {entry['file_name']} is not in static/pyodide/")
    return problems


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(prog="python -m lite.build", description=__doc__.split("\n")[0]).parse_args(argv)
    build()


if __name__ == "__main__":
    main()
