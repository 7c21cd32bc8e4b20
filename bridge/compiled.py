"""Load the mypyc-compiled modules built out of the source tree, never a stale one.

``python -m bridge.compiled_build`` (run by ``make setup``) compiles the rules core into
``build/compiled/`` and writes ``manifest.json`` last: every compiled module's binary and
the SHA-256 of every source the build depended on. A ``.pth`` file in the virtualenv calls
:func:`install` when Python starts; it puts a finder first on ``sys.meta_path`` that serves
the compiled binaries for exactly the modules the manifest names. The first time one of
them is imported the finder hashes the sources again: if any differs from the manifest (a
``.py`` edited since the build), or the build was made for another Python or mypy, nothing
compiled is used (the compiled modules call each other natively, so one stale module
spoils them all) and every module runs as pure Python, with one warning on stderr; under
``CI=true`` (or ``VTT_COMPILED=require``) the import fails instead. ``VTT_PURE=1`` turns the
finder off; ``VTT_COMPILED_DIR`` loads another build directory than ``build/compiled``.
Docs: docs/performance-compiled.md.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

# Imported by a .pth at every start of this virtualenv's Python: only cheap imports here
# (hashlib and json when a build is found; typing, ~10 ms, only for the type checker).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# VTT_COMPILED_DIR names another build (e.g. to compare two sets in alternated runs;
# the bench's server processes inherit it).
BUILD_DIR = Path(os.environ.get("VTT_COMPILED_DIR") or ROOT / "build" / "compiled")
MANIFEST = "manifest.json"
FORMAT = 1


class StaleBuildError(ImportError):
    """The compiled build does not match the sources (or this Python) and pure Python is refused."""


def ext_suffix() -> str:
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return suffix if isinstance(suffix, str) else ".so"


def mypy_version() -> str:
    try:
        from importlib.metadata import version

        return version("mypy")
    except Exception:  # pragma: no cover - mypy missing: the build cannot exist either
        return "none"


def file_hash(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def pure_requested() -> bool:
    return os.environ.get("VTT_PURE", "") not in ("", "0")


def strict_requested() -> bool:
    return os.environ.get("CI", "") == "true" or os.environ.get("VTT_COMPILED", "") == "require"


def stale_reasons(manifest: dict[str, Any], root: Path) -> list[str]:
    """Why this build may not be used with the sources under ``root`` (empty: it may)."""
    reasons: list[str] = []
    if manifest.get("format") != FORMAT:
        reasons.append(f"manifest format {manifest.get('format')!r}, expected {FORMAT}")
    if manifest.get("ext_suffix") != ext_suffix():
        reasons.append(f"built for {manifest.get('ext_suffix')!r}, this Python is {ext_suffix()!r}")
    if manifest.get("mypy") != mypy_version():
        reasons.append(f"built with mypy {manifest.get('mypy')!r}, installed {mypy_version()!r}")
    sources: dict[str, str] = manifest.get("sources", {})
    for rel, digest in sorted(sources.items()):
        path = root / rel
        if not path.is_file():
            reasons.append(f"{rel} is gone")
        elif file_hash(path) != digest:
            reasons.append(f"{rel} changed since the build")
    current = {
        p.relative_to(root).as_posix()
        for pkg in manifest.get("packages", [])
        for p in (root / pkg).rglob("*.py")
    }
    for rel in sorted(current - set(sources)):
        reasons.append(f"{rel} is new since the build")
    return reasons


class Status:
    """What :func:`install` decided, for the benches and the CLI to print."""

    __slots__ = ("detail", "mode", "modules")

    def __init__(self, mode: str, detail: str, modules: int = 0) -> None:
        self.mode = mode  # "compiled" or "pure" (no build, VTT_PURE=1, or a stale build)
        self.detail = detail
        self.modules = modules

    def __repr__(self) -> str:
        return f"Status({self.mode!r}, {self.detail!r}, {self.modules})"


class CompiledFinder:
    """Serves the manifest's binaries once the sources are checked against it."""

    def __init__(self, build_dir: Path, manifest: dict[str, Any], root: Path) -> None:
        self.build_dir = build_dir
        self.manifest = manifest
        self.root = root
        self.binaries: dict[str, str] = {**manifest.get("modules", {}), **manifest.get("libs", {})}
        self.checked: bool | None = None
        self.status = Status("compiled", "not imported yet", len(manifest.get("modules", {})))

    def check(self) -> bool:
        if self.checked is None:
            reasons = stale_reasons(self.manifest, self.root)
            self.checked = not reasons
            if reasons:
                shown = "; ".join(reasons[:5]) + (
                    f"; and {len(reasons) - 5} more" if len(reasons) > 5 else ""
                )
                message = (
                    f"vtt-bridge: the compiled build in {self.build_dir} is stale ({shown}): "
                    "running pure Python. Rebuild it with `make setup`."
                )
                self.status = Status("pure", f"stale build: {shown}")
                if strict_requested():
                    raise StaleBuildError(message + " (CI=true / VTT_COMPILED=require: refused)")
                print(message, file=sys.stderr)
            else:
                self.status = Status(
                    "compiled",
                    f"set {self.manifest.get('set', '?')}, mypyc build "
                    f"{self.manifest.get('built', '?')}",
                    len(self.manifest.get("modules", {})),
                )
        return self.checked

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        binary = self.binaries.get(fullname)
        if binary is None or not self.check():
            return None
        location = str(self.build_dir / binary)
        loader = importlib.machinery.ExtensionFileLoader(fullname, location)
        return importlib.util.spec_from_file_location(fullname, location, loader=loader)


_status = Status(
    "pure", "the compiled finder is not installed (VTT_PURE or not started by the .pth)"
)
_finder: CompiledFinder | None = None


def read_manifest(build_dir: Path) -> dict[str, Any] | None:
    import json

    try:
        data = json.loads((build_dir / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return data if isinstance(data, dict) else None


def install(build_dir: Path | None = None, root: Path | None = None) -> Status:
    """Put the compiled finder first on ``sys.meta_path`` (no-op under ``VTT_PURE=1``)."""
    global _finder, _status
    if pure_requested():
        _status = Status("pure", "VTT_PURE=1")
        return _status
    build = build_dir or BUILD_DIR
    manifest = read_manifest(build)
    if manifest is None:
        _status = Status("pure", f"no compiled build in {build} (make setup builds it)")
        if strict_requested() and os.environ.get("VTT_COMPILED", "") == "require":
            raise StaleBuildError(_status.detail)
        return _status
    if _finder is not None and _finder in sys.meta_path:
        sys.meta_path.remove(_finder)
    _finder = CompiledFinder(build, manifest, root or ROOT)
    sys.meta_path.insert(0, _finder)
    _status = _finder.status
    return _status


def status() -> Status:
    """Which code runs: compiled when ``rules.model`` came from the build, else pure Python."""
    module = sys.modules.get("rules.model")
    if _finder is not None:
        if module is not None and str(getattr(module, "__file__", "")).endswith(ext_suffix()):
            return Status("compiled", _finder.status.detail, _finder.status.modules)
        if _finder.checked is False:
            return _finder.status
    if module is not None and str(getattr(module, "__file__", "")).endswith(ext_suffix()):
        return Status("compiled", "loaded from a binary", 0)
    return _status if _finder is None else Status("pure", _finder.status.detail)


def describe() -> str:
    """One line saying which code ran, e.g. for the benchmarks' headers."""
    current = status()
    if current.mode == "compiled":
        return f"rules core: compiled with mypyc ({current.modules} modules; {current.detail})"
    return f"rules core: pure Python ({current.detail})"


PTH_NAME = "vtt_bridge_compiled.pth"


def install_pth() -> Path:
    """Write the virtualenv's ``.pth`` that calls :func:`install` at every start."""
    target = Path(sysconfig.get_paths()["purelib"]) / PTH_NAME
    target.write_text("import bridge.compiled; bridge.compiled.install()\n", encoding="utf-8")
    return target


def describe_build() -> str:
    """Whether this virtualenv would run compiled, and why not."""
    manifest = read_manifest(BUILD_DIR)
    if pure_requested():
        return "pure Python: VTT_PURE=1"
    if manifest is None:
        return f"pure Python: no compiled build in {BUILD_DIR} (make setup builds it)"
    reasons = stale_reasons(manifest, ROOT)
    if reasons:
        return f"pure Python: the build is stale ({'; '.join(reasons)})"
    return f"compiled: {len(manifest.get('modules', {}))} modules, built {manifest.get('built')}"
