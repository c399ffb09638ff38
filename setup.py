"""The build's one extra step: the modules ``[tool.flagbridge] compiled`` lists (pyproject.toml) are compiled
by Cython from their own source, so a forecast's simulated fights run the very rules code of real play, about
1.5 times as fast (tests/bench/bench_forecast.py).

Everything else is in pyproject.toml. The compiled modules are optional: without Cython or a C compiler, or
with ``FLAGBRIDGE_PURE=1`` set, the install goes on and every module runs from its source. Each module built
is written with the digest of the source it came from (``engine/compiled_from.toml``), and ``engine.compiled``
imports it only while that source is unchanged: an edit since the build runs as edited. ``pip install -e .``
again compiles the edited modules.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _compiled_module():
    """``engine/compiled.py`` read by its path: it needs only the standard library, and the build cannot
    import the engine package (its dependencies are not installed yet)."""
    spec = importlib.util.spec_from_file_location("_flagbridge_compiled", HERE / "engine" / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED = _compiled_module()  # the digest and the manifest, as the engine reads them

#: Cython held to Python's own meaning of the code: annotations are not C types (a ``float`` argument
#: stays what it was given), functions bind and introspect as Python's do.
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False}


def source_of(name: str) -> Path:
    """A module's source file, from its dotted name (``engine.rolls``: ``engine/rolls.py``)."""
    return Path(*name.split(".")).with_suffix(".py")


def listed() -> list[str]:
    with open(HERE / "pyproject.toml", "rb") as fh:
        return list(tomllib.load(fh).get("tool", {}).get("flagbridge", {}).get("compiled", []))


class BuildCompiled(build_ext):
    """Builds on every core, records each module that built with its source's digest, and lets a module
    that fails to build (``optional``) fall back to its source rather than fail the install."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1
        self.built: dict[str, str] = {}
        self.failed: set[str] = set()

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # any failure (setuptools' own ``optional`` misses a compiler that will not run)
            print(f"flagbridge: {ext.name} not compiled ({exc}); it runs from its source", file=sys.stderr)
            self.failed.add(ext.name)
            return
        self.built[ext.name] = TRANSLATED[ext.name]

    def _without_failed(self, step):
        """``step`` run over the extensions that built (setuptools copies and lists every one it was given)."""
        kept = self.extensions
        self.extensions = [e for e in kept if e.name not in self.failed]
        try:
            return step()
        finally:
            self.extensions = kept

    def copy_extensions_to_source(self) -> None:
        self._without_failed(super().copy_extensions_to_source)

    def get_outputs(self) -> list[str]:
        return self._without_failed(super().get_outputs)

    def get_output_mapping(self) -> dict[str, str]:
        return self._without_failed(super().get_output_mapping)

    def run(self) -> None:
        super().run()
        root = HERE if self.inplace else Path(self.build_lib)
        target = root / "engine" / COMPILED.MANIFEST.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(COMPILED.manifest_text(self.built), encoding="utf-8")


#: Each module's digest as Cython read it: what the build records of a module it compiled (a source edited while
#: the build ran is then run from source, never taken for the one compiled).
TRANSLATED: dict[str, str] = {}


def extensions() -> list:
    if os.environ.get("FLAGBRIDGE_PURE"):
        return []
    try:
        from Cython.Build import cythonize
        from setuptools import Extension
    except ImportError as exc:
        print(f"flagbridge: Cython is not available ({exc}); every module runs from its source", file=sys.stderr)
        return []
    # -O2 and no debug data: the install's build in under a minute on two cores (Python's default -O3 -g took
    # minutes); -O1 built no quicker to notice and ran 2% more instructions a fight (callgrind)
    flags = [] if sys.platform == "win32" else ["-O2", "-g0"]
    exts = [Extension(name, [str(source_of(name))], optional=True, extra_compile_args=flags) for name in listed()]
    TRANSLATED.update({name: COMPILED.source_digest(HERE / source_of(name)) for name in listed()})
    try:
        # force: every module translated afresh, never judged up to date by file times (a source put back with
        # an old time would leave an old translation, recorded under the new source's digest)
        return cythonize(exts, compiler_directives=DIRECTIVES, build_dir="build/cython", quiet=True,
                         nthreads=os.cpu_count() or 1, force=True)
    except Exception as exc:  # a module Cython cannot read: the whole install goes on pure
        print(f"flagbridge: Cython could not compile the modules ({exc}); every module runs from its source",
              file=sys.stderr)
        return []


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildCompiled})
