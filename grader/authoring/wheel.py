"""The kit's own wheel, built byte for byte the same every time, for the student zip and Gradescope.

A wheel is a zip of the package plus a `.dist-info` folder (PEP 427/PEP 376); writing it here
rather than through a build backend keeps it deterministic (sorted entries, fixed timestamps,
no build isolation, no network) and fast. The package is the `grader` that is running, so the
checker a student installs is the code that grades them. Metadata comes from the kit's
pyproject.toml when it sits next to the package (a source checkout), else from the installed
distribution.
"""
from __future__ import annotations

import base64
import hashlib
import importlib.metadata
from dataclasses import dataclass
from pathlib import Path

import grader
from grader.bundle import folder_files, write_zip
from grader.errors import ReleaseError

DIST = "lrkit"


@dataclass(frozen=True)
class KitMetadata:
    name: str
    version: str
    summary: str
    requires_python: str
    dependencies: tuple[str, ...]
    scripts: tuple[tuple[str, str], ...]


def kit_package() -> Path:
    return Path(grader.__file__).resolve().parent


def kit_metadata() -> KitMetadata:
    pyproject = kit_package().parent / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == DIST:
            return KitMetadata(DIST, project["version"], project.get("description", ""),
                               project.get("requires-python", ""), tuple(project.get("dependencies", ())),
                               tuple(sorted(project.get("scripts", {}).items())))
    try:
        meta = importlib.metadata.metadata(DIST)
        dist = importlib.metadata.distribution(DIST)
    except importlib.metadata.PackageNotFoundError:
        raise ReleaseError("cannot find the kit's metadata (no pyproject.toml beside the grader package and no "
                           "installed lrkit); release from a checkout of the kit") from None
    requires = tuple(r for r in (dist.requires or ()) if "extra ==" not in r)
    scripts = tuple(sorted((e.name, e.value) for e in dist.entry_points if e.group == "console_scripts"))
    return KitMetadata(DIST, meta["Version"], meta.get("Summary", ""), meta.get("Requires-Python", ""),
                       requires, scripts)


def wheel_name(meta: KitMetadata) -> str:
    return f"{meta.name}-{meta.version}-py3-none-any.whl"


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel_entries(meta: KitMetadata) -> list[tuple[str, bytes]]:
    """Every file of the wheel: the package (no caches) and its .dist-info, RECORD last."""
    package = kit_package()
    files = [(f"grader/{rel}", data) for rel, data in folder_files(package) if not rel.endswith((".pyc", ".pyo"))]
    info = f"{meta.name}-{meta.version}.dist-info"
    lines = ["Metadata-Version: 2.1", f"Name: {meta.name}", f"Version: {meta.version}"]
    lines += [f"Summary: {meta.summary}"] if meta.summary else []
    lines += [f"Requires-Python: {meta.requires_python}"] if meta.requires_python else []
    lines += [f"Requires-Dist: {dep}" for dep in meta.dependencies]
    files.append((f"{info}/METADATA", ("\n".join(lines) + "\n").encode()))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: lrkit release\nRoot-Is-Purelib: true\n"
                                   b"Tag: py3-none-any\n"))
    if meta.scripts:
        scripts = "".join(f"{name} = {target}\n" for name, target in meta.scripts)
        files.append((f"{info}/entry_points.txt", f"[console_scripts]\n{scripts}".encode()))
    files.append((f"{info}/top_level.txt", b"grader\n"))
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in sorted(files))
    files.append((f"{info}/RECORD", (record + f"{info}/RECORD,,\n").encode()))
    return files


def build_wheel(dest: Path) -> Path:
    """Write the kit's wheel into ``dest``; the same sources give the same bytes."""
    meta = kit_metadata()
    path = Path(dest) / wheel_name(meta)
    write_zip(path, wheel_entries(meta), manifest=False)
    return path


def wheel_bytes() -> tuple[str, bytes]:
    """(file name, bytes) of the kit's wheel, built in memory."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="lrkit-wheel-") as tmp:
        path = build_wheel(Path(tmp))
        return path.name, path.read_bytes()
