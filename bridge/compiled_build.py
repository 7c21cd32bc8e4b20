"""Compile the rules core (and the loop's pure modules) with mypyc into ``build/compiled/`` (``python -m bridge.compiled_build``).

The sources stay as they are (pure Python, mypy strict); mypyc turns the listed modules
into one C extension group (one C file a module, compiled two at a time), placed OUT of the
source tree. ``manifest.json`` is written last, only after a successful build, with the
SHA-256 of every ``.py`` of the compiled packages: :mod:`bridge.compiled` loads the
binaries only while those hashes still match. Object files are cached by the hash of
their C source and headers, so editing one module recompiles that module's C file only.
Docs: docs/performance-compiled.md.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import hashlib
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bridge.compiled import (
    BUILD_DIR,
    FORMAT,
    MANIFEST,
    ROOT,
    describe_build,
    ext_suffix,
    file_hash,
    install_pth,
    mypy_version,
)

GROUP = "vtt_compiled"

# Left pure: mypyc cannot compile the first two as they are (a KeyError subclass; a
# dict subclass with multiple assignment in its class body) and neither is hot.
# rules/system.py holds the plugin interface (RuleSystem): a system written in plain
# Python (the tests' tiny system, a third party's) subclasses it, and an interpreted
# class cannot inherit from a compiled one; the compiled systems inherit from it fine.
LEFT_PURE = {"rules/i18n.py", "rules/params.py", "rules/system.py"}

CORE = [
    "rules/model.py",
    "rules/dice.py",
    "rules/rolls.py",
    "rules/records.py",
    "rules/memo.py",
    "rules/system_core.py",
    "rules/o3d10",
    "rules/savage_worlds",
]
RULES = ["rules"]
BRIDGE = [
    "protocol/v1/lean.py",
    "protocol/v1/digest.py",
    "bridge/serialize.py",
    "bridge/render.py",
]
# The loop's pure modules beyond the four above, on every roll request's path (the rate
# limits too: plain arithmetic on their own classes, -1.3 % of the loop thread's
# instructions a roll compiled; docs/performance-served.md, "Tenth pass").
LOOP = ["bridge/engine.py", "protocol/v1/parse.py", "protocol/v1/limits.py", "bridge/limits.py"]
# The loop's plumbing (async aiohttp/socketio code; measured, see the docs).
SERVER = [
    "bridge/server.py",
    "bridge/pipeline.py",
    "bridge/recent.py",
    "bridge/worlds.py",
]
SETS: dict[str, list[str]] = {
    "core": CORE,
    "rules": RULES,
    "core+bridge": CORE + BRIDGE,
    "core+loop": CORE + BRIDGE + LOOP,
    "core+server": CORE + BRIDGE + LOOP + SERVER,
    "rules+bridge": RULES + BRIDGE,
}
# Shipped: the rules core and the loop's pure modules (docs/performance-compiled.md,
# "Sixth pass": ~10-12 % of a Savage Worlds roll's CPU in process, replay +25 %).
DEFAULT_SET = "core+loop"

# Every .py of these packages is watched, new files included: compiled code depends on
# the rules package throughout (systems register by import). Outside them only the
# compiled modules and what they import, transitively, are watched (an edit to the
# server or the bench does not make the build stale).
WHOLE_PACKAGES = ("rules",)


def module_files(entries: Sequence[str], root: Path) -> list[str]:
    """The ``.py`` files an entry list names (packages expand; ``__init__`` stays pure)."""
    files: list[str] = []
    for entry in entries:
        path = root / entry
        found = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in found:
            rel = file.relative_to(root).as_posix()
            if file.name != "__init__.py" and rel not in LEFT_PURE and rel not in files:
                files.append(rel)
    return files


def module_name(rel: str) -> str:
    return rel.removesuffix(".py").replace("/", ".")


def source_hashes(packages: Sequence[str], root: Path, extra: Sequence[str] = ()) -> dict[str, str]:
    """SHA-256 of every ``.py`` of ``packages`` and of the ``extra`` files."""
    files = {p.relative_to(root).as_posix() for pkg in packages for p in (root / pkg).rglob("*.py")}
    return {rel: file_hash(root / rel) for rel in sorted(files | set(extra))}


def _module_source(module: str, root: Path) -> str | None:
    base = module.replace(".", "/")
    for rel in (f"{base}.py", f"{base}/__init__.py"):
        if (root / rel).is_file():
            return rel
    return None


def imported_sources(files: Sequence[str], root: Path, packages: Sequence[str]) -> list[str]:
    """``files`` and every source of ``packages`` they import, transitively (each package
    ``__init__`` on the way included; imports under ``TYPE_CHECKING`` count too)."""
    seen: set[str] = set()
    todo = list(files)
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        names: list[str] = []
        for node in ast.walk(ast.parse((root / rel).read_bytes(), rel)):
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                package = rel.split("/")[:-1]  # a relative import starts from the file's package
                base = ".".join(
                    [
                        *package[: len(package) - node.level + 1],
                        *([node.module] if node.module else []),
                    ]
                    if node.level
                    else [node.module or ""]
                )
                names += [base] + [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] not in packages:
                continue
            for end in range(1, len(parts) + 1):
                found = _module_source(".".join(parts[:end]), root)
                if found is not None and found not in seen:
                    todo.append(found)
    return sorted(seen)


def watched(files: Sequence[str], root: Path) -> tuple[list[str], dict[str, str]]:
    """The packages watched whole and the hash of every source the build depends on."""
    ours = sorted(p.parent.name for p in root.glob("*/__init__.py"))
    closure = imported_sources(files, root, ours)
    whole = [pkg for pkg in WHOLE_PACKAGES if any(rel.startswith(f"{pkg}/") for rel in closure)]
    others = [rel for rel in closure if rel.split("/")[0] not in whole]
    return whole, source_hashes(whole, root, others)


def parallel_compile(
    compile_one: Callable[..., list[str]], cache: Path, jobs: int
) -> Callable[..., list[str]]:
    """Wrap a distutils ``compile``: one source per job, objects reused by C-content hash."""

    def compile_all(sources: list[str], output_dir: str | None = None, **kwargs: Any) -> list[str]:
        headers = b"".join(
            p.read_bytes() for d in {Path(s).parent for s in sources} for p in sorted(d.glob("*.h"))
        )
        flags = repr(sorted((k, repr(v)) for k, v in kwargs.items())).encode()

        def one(source: str) -> str:
            key = hashlib.sha256(Path(source).read_bytes() + headers + flags).hexdigest()
            cached = cache / f"{key}.o"
            [obj] = (
                compile_one([source], output_dir=output_dir, **kwargs)
                if not cached.exists()
                else [""]
            )
            if obj:
                shutil.copyfile(obj, cached)
                return obj
            # A cache hit: put the object where the linker expects it.
            target = compile_one.__self__.object_filenames([source], output_dir=output_dir)[0]  # type: ignore[attr-defined]
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(cached, target)
            return str(target)

        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, sources))

    return compile_all


def build(
    entries: Sequence[str], out: Path, root: Path, opt_level: str, jobs: int
) -> dict[str, Any]:
    """Generate C with mypyc, compile it, then write the manifest (last)."""
    from mypyc.build import mypycify
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    files = module_files(entries, root)
    packages, before = watched(files, root)
    out.mkdir(parents=True, exist_ok=True)
    (out / MANIFEST).unlink(missing_ok=True)
    lib, temp, csrc, cache = out / "lib", out / "temp", out / "c", out / "objcache"
    cache.mkdir(exist_ok=True)
    started = time.monotonic()
    cwd = os.getcwd()
    os.chdir(root)
    try:
        extensions = mypycify(
            files, opt_level=opt_level, multi_file=True, target_dir=str(csrc), group_name=GROUP
        )
        generated = time.monotonic()

        class BuildExt(build_ext):  # type: ignore[misc]
            def build_extension(self, ext: Any) -> None:
                self.compiler.compile = parallel_compile(self.compiler.compile, cache, jobs)
                super().build_extension(ext)

        dist = Distribution(
            {"name": "vtt-compiled", "ext_modules": extensions, "cmdclass": {"build_ext": BuildExt}}
        )
        dist.script_name = "bridge.compiled_build"
        dist.script_args = ["-q", "build_ext", "--build-lib", str(lib), "--build-temp", str(temp)]
        dist.parse_command_line()
        dist.run_commands()
    finally:
        os.chdir(cwd)
    after = watched(files, root)[1]
    if after != before:
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        raise SystemExit(f"sources changed during the build ({', '.join(changed)}): not using it")
    suffix = ext_suffix()
    modules = {module_name(rel): f"lib/{rel.removesuffix('.py')}{suffix}" for rel in files}
    libs = {f"{GROUP}__mypyc": f"lib/{GROUP}__mypyc{suffix}"}
    for binary in [*modules.values(), *libs.values()]:
        if not (out / binary).is_file():
            raise SystemExit(f"the build did not produce {binary}")
    manifest = {
        "format": FORMAT,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "ext_suffix": suffix,
        "mypy": mypy_version(),
        "opt_level": opt_level,
        "entries": list(entries),
        "set": next((name for name, listed in SETS.items() if listed == list(entries)), "custom"),
        "packages": packages,
        "modules": modules,
        "libs": libs,
        "sources": before,
        "seconds": {
            "mypyc": round(generated - started, 1),
            "cc": round(time.monotonic() - generated, 1),
        },
        "bytes": sum((out / b).stat().st_size for b in [*modules.values(), *libs.values()]),
    }
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    tmp.replace(out / MANIFEST)
    return manifest


def up_to_date(out: Path, root: Path, entries: Sequence[str], opt_level: str) -> bool:
    from bridge.compiled import read_manifest, stale_reasons

    manifest = read_manifest(out)
    return (
        manifest is not None
        and manifest.get("entries") == list(entries)
        and manifest.get("opt_level") == opt_level
        and not stale_reasons(manifest, root)
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bridge.compiled_build", description=__doc__)
    parser.add_argument(
        "--set", choices=sorted(SETS), default=os.environ.get("VTT_COMPILE_SET", DEFAULT_SET)
    )
    parser.add_argument("--out", type=Path, default=BUILD_DIR)
    parser.add_argument("--root", type=Path, default=ROOT)
    parser.add_argument(
        "--opt", default=os.environ.get("VTT_COMPILE_OPT", "3"), choices=["0", "1", "2", "3"]
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    parser.add_argument(
        "--install-pth",
        action="store_true",
        help="only write the virtualenv's .pth loading the build",
    )
    parser.add_argument(
        "--status", action="store_true", help="only say whether this virtualenv runs compiled"
    )
    args = parser.parse_args(argv)
    if args.install_pth:
        print(f"wrote {install_pth()}")
        return 0
    if args.status:
        print(describe_build())
        return 0
    entries = SETS[args.set]
    if not args.force and up_to_date(args.out, args.root, entries, args.opt):
        # Touched, so that make's rule (every source is a prerequisite) stays quiet.
        os.utime(args.out / MANIFEST)
        print(f"compiled build in {args.out} is up to date")
        return 0
    started = time.monotonic()
    manifest = build(entries, args.out.resolve(), args.root.resolve(), args.opt, args.jobs)
    print(
        f"compiled {len(manifest['modules'])} modules ({args.set}, -O{args.opt}) into {args.out} "
        f"in {time.monotonic() - started:.0f} s (mypyc {manifest['seconds']['mypyc']} s, "
        f"C {manifest['seconds']['cc']} s), {manifest['bytes'] / 1e6:.1f} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
