"""Pyodide's lock file, rewritten for the site: every package the tab loads, from the site's own wheels.

Pyodide's npm package ships its lock (pyodide-lock.json: each package's wheel file, sha256 and dependencies) but
none of the wheels it lists. This module writes a lock that names only the wheels the build put next to it:

    lock = site_lock(npm_lock, wheels, preload=PRELOAD)   # then json.dump(lock, ...)

Each wheel becomes one entry: its canonical name, version, file name, sha256, top-level imports, and its
dependencies read from its metadata with the markers evaluated for Pyodide (sys_platform "emscripten"), so an
emscripten-only dependency (httpx2-jsfetch) is kept and a desktop-only one (pexpect) is dropped. Then the lock is cut
down to what the preloaded packages need: a package the site does not serve is not in the lock, so `import numpy`
in the tab fails with ModuleNotFoundError at once instead of asking a CDN.

Why not the pyodide-lock package: its 0.1.2 (the newest) cannot read Pyodide 314's lock (no `info.version`) and
rejects the pyemscripten_2026_0 wheel tag of pydantic-core and jiter.

NOT handled: extras (no preloaded package asks for one); a dependency that no wheel provides raises
(SystemExit, with the package that asked for it), it is never looked up anywhere else.
"""

from __future__ import annotations

import hashlib
import zipfile
from email.parser import Parser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

__all__ = ["site_lock", "wheel_entry"]


def marker_environment(info: dict) -> dict[str, str]:
    """PEP 508 marker values of the Pyodide the lock describes (its `info`: python "3.14.2", platform, arch)."""
    python = info["python"]
    return {
        "implementation_name": "cpython", "implementation_version": python, "os_name": "posix",
        "platform_machine": info.get("arch", "wasm32"), "platform_python_implementation": "CPython",
        "platform_release": info["platform"].partition("_")[2].replace("_", "."), "platform_system": "Emscripten",
        "platform_version": "", "python_full_version": python,
        "python_version": ".".join(python.split(".")[:2]), "sys_platform": "emscripten", "extra": "",
    }


def _metadata(wheel: zipfile.ZipFile) -> tuple[dict, list[str]]:
    name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1)
    message = Parser().parsestr(wheel.read(name).decode("utf-8"))
    return message, message.get_all("Requires-Dist") or []


def _imports(wheel: zipfile.ZipFile) -> list[str]:
    """The wheel's top-level importable names: its packages (folders with .py files) and top-level modules."""
    names = set()
    for entry in wheel.namelist():
        top, _, rest = entry.partition("/")
        if top.endswith((".dist-info", ".data")):
            continue
        if rest and rest.endswith(".py") or not rest and top.endswith((".py", ".so")):
            names.add(top.split(".")[0] if not rest else top)
    return sorted(names)


def wheel_entry(path: Path, environment: dict[str, str]) -> dict:
    """The lock entry of one wheel; `depends` holds every dependency whose marker holds under Pyodide."""
    name, version, _, _ = parse_wheel_filename(path.name)
    with zipfile.ZipFile(path) as wheel:
        _, requires = _metadata(wheel)
        imports = _imports(wheel)
    depends = []
    for line in requires:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            depends.append(canonicalize_name(requirement.name))
    return {
        "name": str(name), "version": str(version), "file_name": path.name,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "install_dir": "site",
        "package_type": "package", "imports": imports, "depends": sorted(set(depends)), "unvendored_tests": False,
    }


def site_lock(npm_lock: dict, wheels: list[Path], preload: list[str]) -> dict:
    """npm's lock with its packages replaced by the site's wheels, cut down to what `preload` needs."""
    environment = marker_environment(npm_lock["info"])
    entries = {}
    for path in wheels:
        entry = wheel_entry(path, environment)
        if entry["name"] in entries:
            raise SystemExit(f"two wheels of {entry['name']}: {entries[entry['name']]['file_name']}, {path.name}")
        entries[entry["name"]] = entry
    needed, todo, asked_by = set(), [canonicalize_name(n) for n in preload], {}
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        if name not in entries:
            raise SystemExit(f"no wheel of {name} (needed by {asked_by.get(name, 'the preload list')}): "
                             "pin it in lite/requirements-tab.txt")
        needed.add(name)
        for dep in entries[name]["depends"]:
            asked_by.setdefault(dep, name)
            todo.append(dep)
    unused = sorted(set(entries) - needed)
    if unused:
        raise SystemExit(f"wheels no preloaded package needs: {', '.join(unused)} (remove their pins)")
    return {"info": npm_lock["info"], "packages": {name: entries[name] for name in sorted(needed)}}
