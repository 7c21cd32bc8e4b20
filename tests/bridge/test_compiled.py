"""The compiled build's guard (bridge/compiled.py): an edited source never runs stale code."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bridge import compiled
from bridge.compiled_build import (
    DEFAULT_SET,
    LEFT_PURE,
    SETS,
    imported_sources,
    module_files,
    module_name,
    source_hashes,
    watched,
)
from support.services import missing

ROOT = compiled.ROOT


def manifest_for(root: Path, packages: list[str], modules: dict[str, str]) -> dict[str, Any]:
    return {
        "format": compiled.FORMAT,
        "ext_suffix": compiled.ext_suffix(),
        "mypy": compiled.mypy_version(),
        "packages": packages,
        "modules": modules,
        "libs": {},
        "sources": source_hashes(packages, root),
    }


def copy_rules(tmp_path: Path, manifest: dict[str, Any] | None = None) -> Path:
    """A copy of ``rules/`` (and of every other source ``manifest`` watches: a build with
    bridge modules watches them and what they import)."""
    root = tmp_path / "tree"
    shutil.copytree(ROOT / "rules", root / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    for rel in (manifest or {}).get("sources", {}):
        if not (root / rel).exists():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / rel, root / rel)
    return root


def test_stale_reasons_name_each_edited_new_or_removed_source_and_a_foreign_build(
    tmp_path: Path,
) -> None:
    root = copy_rules(tmp_path)
    manifest = manifest_for(root, ["rules"], {})
    assert compiled.stale_reasons(manifest, root) == []
    dice = root / "rules" / "dice.py"
    dice.write_text(dice.read_text("utf-8") + "\n# edited\n", "utf-8")
    (root / "rules" / "extra.py").write_text("X = 1\n", "utf-8")
    (root / "rules" / "memo.py").unlink()
    assert compiled.stale_reasons(manifest, root) == [
        "rules/dice.py changed since the build",
        "rules/memo.py is gone",
        "rules/extra.py is new since the build",
    ]
    other = {**manifest_for(root, ["rules"], {}), "mypy": "0.1", "ext_suffix": ".cpython-99.so"}
    assert compiled.stale_reasons(other, root) == [
        f"built for '.cpython-99.so', this Python is {compiled.ext_suffix()!r}",
        f"built with mypy '0.1', installed {compiled.mypy_version()!r}",
    ]


def test_a_stale_build_falls_back_to_pure_python_with_one_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("VTT_COMPILED", raising=False)
    root = copy_rules(tmp_path)
    manifest = manifest_for(root, ["rules"], {"rules.dice": "lib/rules/dice.so"})
    finder = compiled.CompiledFinder(tmp_path / "build", manifest, root)
    spec = finder.find_spec("rules.dice", None)
    assert spec is not None and spec.origin == str(tmp_path / "build" / "lib/rules/dice.so")
    assert finder.find_spec("rules.i18n", None) is None  # not in the build: the usual finders
    (root / "rules" / "dice.py").write_text("# edited\n", "utf-8")
    fresh = compiled.CompiledFinder(tmp_path / "build", manifest, root)
    assert fresh.find_spec("rules.dice", None) is None
    assert fresh.find_spec("rules.dice", None) is None
    err = capsys.readouterr().err
    assert err.count("is stale (rules/dice.py changed since the build)") == 1
    assert "running pure Python" in err and "make setup" in err
    assert fresh.status.mode == "pure"


def test_a_stale_build_is_refused_under_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_rules(tmp_path)
    manifest = manifest_for(root, ["rules"], {"rules.dice": "lib/rules/dice.so"})
    (root / "rules" / "dice.py").write_text("# edited\n", "utf-8")
    for name, value in (("CI", "true"), ("VTT_COMPILED", "require")):
        monkeypatch.delenv("CI", raising=False)
        monkeypatch.delenv("VTT_COMPILED", raising=False)
        monkeypatch.setenv(name, value)
        finder = compiled.CompiledFinder(tmp_path / "build", manifest, root)
        with pytest.raises(compiled.StaleBuildError, match=r"rules/dice.py changed.*refused"):
            finder.find_spec("rules.dice", None)


def test_the_build_compiles_every_rules_module_but_those_left_pure() -> None:
    files = module_files(["rules"], ROOT)
    assert "rules/savage_worlds/act_attack.py" in files and "rules/model.py" in files
    assert not LEFT_PURE & set(files)
    assert "rules/system.py" in LEFT_PURE  # the plugin interface: plain-Python systems subclass it
    assert not [f for f in files if f.endswith("__init__.py")]


def test_a_bridge_build_watches_its_modules_and_what_they_import_not_the_rest(
    tmp_path: Path,
) -> None:
    files = module_files(SETS["core+loop"], ROOT)
    assert {"bridge/serialize.py", "bridge/render.py", "protocol/v1/lean.py"} <= set(files)
    packages, hashes = watched(files, ROOT)
    assert packages == ["rules"]  # watched whole: a new rules module makes the build stale
    assert "rules/i18n.py" in hashes and "rules/omerta/system.py" in hashes
    # what the compiled bridge modules import (their types are checked by compiled code)
    assert {"protocol/v1/requests.py", "bridge/store.py", "bridge/__init__.py"} <= set(hashes)
    # the rest of the bridge is not: an edit to the server leaves the build in use
    assert not {"bridge/server.py", "bridge/bench/net.py", "bridge/compiled.py"} & set(hashes)
    root = tmp_path / "tree"
    for rel in hashes:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / rel, root / rel)
    manifest = {**manifest_for(root, packages, {}), "sources": hashes}
    assert compiled.stale_reasons(manifest, root) == []
    (root / "bridge" / "server.py").write_text("X = 1\n", "utf-8")
    (root / "bridge" / "extra.py").write_text("X = 1\n", "utf-8")
    assert compiled.stale_reasons(manifest, root) == []
    for rel in ("bridge/serialize.py", "protocol/v1/requests.py"):
        (root / rel).write_text((root / rel).read_text("utf-8") + "\n# edited\n", "utf-8")
    assert compiled.stale_reasons(manifest, root) == [
        "bridge/serialize.py changed since the build",
        "protocol/v1/requests.py changed since the build",
    ]


def test_imports_are_followed_absolute_and_relative_within_our_packages(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "",
        "pkg/sub/a.py": "import json\nfrom . import b\nfrom ..c import X\nfrom .d import Y\n",
        "pkg/sub/b.py": "from pkg.e import Z\n",
        "pkg/c.py": "X = 1\n",
        "pkg/sub/d.py": "Y = 1\n",
        "pkg/e.py": "Z = 1\n",
        "pkg/unused.py": "W = 1\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, "utf-8")
    assert imported_sources(["pkg/sub/a.py"], tmp_path, ["pkg"]) == sorted(
        set(files) - {"pkg/unused.py"}
    )


PROBE = """
import sys
from pathlib import Path
from bridge import compiled
sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, compiled.CompiledFinder)]
sys.path.insert(0, sys.argv[2])
compiled.install(Path(sys.argv[1]), Path(sys.argv[2]))
import rules.dice, rules.savage_worlds.act_attack
from rules.dice import SeededDice
print(rules.dice.__file__)
print(rules.savage_worlds.act_attack.__file__)
print(SeededDice(7).roll(10))
print(compiled.describe())
"""


def probe(build: Path, root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("CI", "VTT_COMPILED", "VTT_PURE")}
    return subprocess.run(
        [sys.executable, "-c", PROBE, str(build), str(root)],
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("edited", ["rules/dice.py", "bridge/serialize.py"])
def test_the_real_build_runs_compiled_and_an_edited_copy_runs_its_own_source(
    tmp_path: Path, edited: str
) -> None:
    real = compiled.read_manifest(compiled.BUILD_DIR)
    if real is None:
        missing(f"no compiled build in {compiled.BUILD_DIR} (make setup builds it)")
    assert real is not None
    if edited not in real["sources"]:
        assert module_name(edited) not in [
            module_name(f) for f in module_files(SETS[DEFAULT_SET], ROOT)
        ]
        return  # a build of a set without the bridge modules (the default holds them)
    root = copy_rules(tmp_path, real)
    fresh = probe(compiled.BUILD_DIR, root)
    assert fresh.returncode == 0, fresh.stderr
    dice_file, attack_file, roll, described = fresh.stdout.splitlines()
    assert dice_file.endswith(compiled.ext_suffix()) and attack_file.endswith(compiled.ext_suffix())
    assert described.startswith("rules core: compiled with mypyc")
    assert fresh.stderr == ""
    source = root / edited
    source.write_text(source.read_text("utf-8") + "\nEDITED = True\n", "utf-8")
    stale = probe(compiled.BUILD_DIR, root)
    assert stale.returncode == 0, stale.stderr
    dice = root / "rules" / "dice.py"
    assert stale.stdout.splitlines() == [
        str(dice),
        str(root / "rules" / "savage_worlds" / "act_attack.py"),
        roll,
        f"rules core: pure Python (stale build: {edited} changed since the build)",
    ]
    assert stale.stderr.count(f"{edited} changed since the build") == 1
    refused = probe(compiled.BUILD_DIR, root, CI="true")
    assert refused.returncode != 0 and "StaleBuildError" in refused.stderr
    pure = probe(compiled.BUILD_DIR, root, VTT_PURE="1")
    assert pure.returncode == 0 and pure.stdout.splitlines()[0] == str(dice)


def test_the_suite_runs_what_make_asked_for() -> None:
    """`make test` runs the suite with VTT_COMPILED=require, then the rules tests with
    VTT_PURE=1: this test proves which code each run exercised."""
    import rules.model

    manifest = (
        json.loads((compiled.BUILD_DIR / compiled.MANIFEST).read_text("utf-8"))
        if (compiled.BUILD_DIR / compiled.MANIFEST).exists()
        else None
    )
    if compiled.pure_requested():
        assert rules.model.__file__ is not None and rules.model.__file__.endswith(".py")
        assert compiled.status().mode == "pure"
    elif os.environ.get("VTT_COMPILED") == "require":
        assert manifest is not None, "VTT_COMPILED=require but no build"
        assert rules.model.__file__ is not None
        assert rules.model.__file__.endswith(compiled.ext_suffix()), rules.model.__file__
        assert compiled.status().mode == "compiled"
        for name in manifest["modules"]:  # the bridge's compiled modules too
            module = importlib.import_module(name)
            assert str(module.__file__).endswith(compiled.ext_suffix()), module.__file__
    else:
        compiled_now = str(rules.model.__file__).endswith(compiled.ext_suffix())
        assert compiled.status().mode == ("compiled" if compiled_now else "pure")
