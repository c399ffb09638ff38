"""The compiled modules (setup.py, engine/compiled.py): an extension module runs only while its source is the
one it was built from, and a compiled fight is the very fight its source plays."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from engine import compiled
from engine.compiled import CompiledFinder, source_digest

ROOT = Path(__file__).resolve().parents[1]
EXT = importlib.machinery.EXTENSION_SUFFIXES[0]


def listed() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["tool"]["flagbridge"]["compiled"]


@pytest.fixture
def fake(tmp_path):
    """A package ``fbfake`` with a source module and a stand-in extension module beside it (never loaded:
    the finder only chooses which file a module is imported from)."""
    pkg = tmp_path / "fbfake"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("VALUE = 1\n")
    (pkg / f"mod{EXT}").write_bytes(b"not really compiled")
    return pkg


def test_the_extension_runs_while_its_source_is_the_one_it_was_built_from(fake):
    finder = CompiledFinder({"fbfake.mod": source_digest(fake / "mod.py")}, packages=("fbfake",))
    spec = finder.find_spec("fbfake.mod", [str(fake)])
    assert spec.origin == str(fake / f"mod{EXT}")
    assert finder.compiled == {"fbfake.mod"}


def test_a_source_edited_since_the_build_runs_as_edited(fake):
    finder = CompiledFinder({"fbfake.mod": source_digest(fake / "mod.py")}, packages=("fbfake",))
    (fake / "mod.py").write_text("VALUE = 2\n")
    spec = finder.find_spec("fbfake.mod", [str(fake)])
    assert spec.origin == str(fake / "mod.py")
    assert finder.compiled == set()


def test_an_extension_the_build_did_not_record_never_runs(fake):
    """A stray or left-over extension module (its module taken off the list, a build that failed for it)."""
    spec = CompiledFinder({}, packages=("fbfake",)).find_spec("fbfake.mod", [str(fake)])
    assert spec.origin == str(fake / "mod.py")


def test_pure_runs_every_module_from_its_source(fake):
    finder = CompiledFinder({"fbfake.mod": source_digest(fake / "mod.py")}, pure=True, packages=("fbfake",))
    assert finder.find_spec("fbfake.mod", [str(fake)]).origin == str(fake / "mod.py")


def test_a_source_module_alone_and_other_packages_are_found_as_python_finds_them(fake):
    (fake / f"mod{EXT}").unlink()
    finder = CompiledFinder({"fbfake.mod": "0" * 32}, packages=("fbfake",))
    assert finder.find_spec("fbfake.mod", [str(fake)]).origin == str(fake / "mod.py")
    assert finder.find_spec("json.decoder", None) is None  # not ours: left to the other finders


def test_an_extension_installed_without_its_source_runs(fake):
    (fake / "mod.py").unlink()
    spec = CompiledFinder({}, packages=("fbfake",)).find_spec("fbfake.mod", [str(fake)])
    assert spec.origin == str(fake / f"mod{EXT}")


def test_the_manifest_reads_as_empty_when_missing_or_broken(tmp_path):
    assert compiled.read_manifest(tmp_path / "none.toml") == {}
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe not text")
    assert compiled.read_manifest(bad) == {}
    mixed = tmp_path / "mixed.toml"
    mixed.write_text('# a comment\n\n"engine.rolls" = "12-ab-cd"\nstray = 3\n"engine.dice" = [unclosed\n"" = ""\n')
    assert compiled.read_manifest(mixed) == {"engine.rolls": "12-ab-cd"}


def test_the_manifest_setup_writes_is_toml_and_reads_back(tmp_path):
    """The build writes TOML (a reader may open it as such); the engine reads it with no TOML parser."""
    built = {"engine.rolls": "5-1-2", "rulesets.classic_hg.fire": "7-3-4"}
    path = tmp_path / "compiled_from.toml"
    path.write_text(compiled.manifest_text(built))
    assert compiled.read_manifest(path) == tomllib.loads(path.read_text()) == built
    path.write_text(compiled.manifest_text({}))
    assert compiled.read_manifest(path) == tomllib.loads(path.read_text()) == {}


def test_the_digest_tells_any_edit_from_the_source_compiled(tmp_path):
    f = tmp_path / "m.py"
    seen = set()
    for text in (b"x = 1\n", b"x = 2\n", b"x = 1 \n", b"y = 1\n", b"x = 1\n\n", b""):
        f.write_bytes(text)
        seen.add(source_digest(f))
    assert len(seen) == 6


def test_the_list_names_plain_modules_that_exist():
    """Each listed module has its source; none is a package or the finder itself (imported before it can act)."""
    names = listed()
    assert len(names) == len(set(names))
    for name in names:
        assert name.startswith(("engine.", "rulesets.")), name
        assert name != "engine.compiled", name
        assert (ROOT / Path(*name.split("."))).with_suffix(".py").is_file(), name


def test_the_listed_modules_run_compiled_where_they_were_built():
    """CI (``.ci/run`` sets FLAGBRIDGE_REQUIRE_COMPILED) runs the whole suite on the compiled modules; elsewhere
    a machine with no compiler runs them from source, and this says so."""
    if os.environ.get(compiled.PURE_ENV):
        pytest.skip("FLAGBRIDGE_PURE is set: every module runs from its source")
    if not compiled.read_manifest() and not os.environ.get("FLAGBRIDGE_REQUIRE_COMPILED"):
        pytest.skip("no module was compiled on this machine (no Cython or no C compiler at install)")
    for name in listed():
        module = importlib.import_module(name)
        assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), \
            f"{name} runs from {module.__file__}: reinstall (pip install -e .) to compile it"
    assert set(listed()) <= set(compiled.compiled_now())


DIGEST = """
import hashlib, sys
from engine.forecast import Playout, fight_seed, scenario_of
from engine.saves import SaveFile
from rulesets import register_builtin
register_builtin()
out = hashlib.blake2b()
for demo in sys.argv[1:]:
    enc = SaveFile.load(demo).encounter
    scenario, _ = scenario_of(enc)
    rs = scenario.prepare()
    for i in range(12):
        play = Playout(rs, scenario.state, fight_seed(7, i), record=True)
        play.run(rs.commander(scenario.doctrines))
        out.update(repr((play.record, rs.outcome(play.state))).encode())
from engine.compiled import compiled_now
print(out.hexdigest(), len(compiled_now()))
"""


def test_compiled_and_source_play_the_same_fights():
    """Every decision and roll of the fights of each shipped demo, compiled and from source, alike."""
    demos = sorted(str(p) for p in (ROOT / "saves").glob("demo-*.toml"))
    assert demos

    def digest(pure: bool) -> str:
        env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
        if pure:
            env[compiled.PURE_ENV] = "1"
        done = subprocess.run([sys.executable, "-c", DIGEST, *demos], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        fights, count = done.stdout.split()
        assert int(count) == 0 if pure else int(count) == len(compiled.read_manifest())
        return fights

    assert digest(pure=False) == digest(pure=True)
