"""Which of the project's modules run compiled: a module Cython built at install time (setup.py) is imported
only while its source is the one it was built from; otherwise the source itself is.

The compiled module is the same code as its source, run faster (a forecast's fights take about two thirds of
the time). A module edited since the build must never run as it was, so each build records the digest of every
source it compiled (``compiled_from.toml``, beside this file), and the finder installed here compares it with
the source as it is now. ``FLAGBRIDGE_PURE=1`` runs every module from its source (for a profile: cProfile sees
no function inside a compiled module).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import zlib
from pathlib import Path

MANIFEST = Path(__file__).with_name("compiled_from.toml")
PURE_ENV = "FLAGBRIDGE_PURE"
#: The packages whose modules may be compiled: a stray extension module of theirs never runs unchecked.
PACKAGES = ("engine", "rulesets")


def source_digest(path: Path | str) -> str:
    """What the build records of a source file (setup.py calls this very function): its length and two checksums
    of its bytes. It tells an edited source from the one compiled; zlib, not hashlib or tomllib, because the
    console imports this before its first frame and those two take longer to import than all of this."""
    data = Path(path).read_bytes()
    return f"{len(data)}-{zlib.crc32(data):08x}-{zlib.adler32(data):08x}"


def manifest_text(built: dict[str, str]) -> str:
    """The manifest as the build writes it (setup.py calls this): one ``"name" = "digest"`` line a module, TOML
    that ``read_manifest`` reads back without a TOML parser."""
    lines = ["# Written by setup.py: each module compiled, with the digest of the source it was compiled",
             "# from (engine/compiled.py runs the source instead once the two differ).", ""]
    return "\n".join(lines + [f'"{name}" = "{digest}"' for name, digest in sorted(built.items())]) + "\n"


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    """Module name -> digest of the source it was compiled from; empty when nothing was built. A line of another
    shape than ``manifest_text`` writes is passed over, and its module runs from its source, which is always right."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    built = {}
    for line in text.splitlines():
        name, eq, digest = line.partition(" = ")
        if eq and len(name) > 2 and name[0] == name[-1] == '"' and len(digest) > 2 and digest[0] == digest[-1] == '"':
            built[name[1:-1]] = digest[1:-1]
    return built


class CompiledFinder:
    """A meta path finder for ``PACKAGES``: it finds a module as Python's own path finder does, and when that
    is an extension module, keeps it only if the build compiled it from the source that sits beside it now."""

    def __init__(self, built: dict[str, str], pure: bool = False, packages: tuple[str, ...] = PACKAGES) -> None:
        self.built = built
        self.pure = pure
        self.prefixes = tuple(p + "." for p in packages)
        #: The modules imported compiled so far (``compiled_now``).
        self.compiled: set[str] = set()

    def find_spec(self, name: str, path=None, target=None):
        if not name.startswith(self.prefixes):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        origin = spec.origin if spec is not None else None
        if not origin or not origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            return spec
        source = source_beside(origin)
        if source is None:
            return spec  # installed compiled alone: nothing else to run
        if not self.pure and self.built.get(name) == source_digest(source):
            self.compiled.add(name)
            return spec
        return importlib.util.spec_from_file_location(name, source)


def source_beside(extension: str) -> Path | None:
    """The ``.py`` an extension module was built from (``rolls.cpython-311-x86_64-linux-gnu.so``: ``rolls.py``)."""
    path = Path(extension)
    for suffix in sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True):
        if path.name.endswith(suffix):
            source = path.with_name(path.name[: -len(suffix)] + ".py")
            return source if source.is_file() else None
    return None


def install() -> CompiledFinder:
    """The finder, first on ``sys.meta_path`` (once: the engine package installs it as it is imported)."""
    for finder in sys.meta_path:
        if isinstance(finder, CompiledFinder):
            return finder
    finder = CompiledFinder(read_manifest(), pure=bool(os.environ.get(PURE_ENV)))
    sys.meta_path.insert(0, finder)
    return finder


def compiled_now() -> list[str]:
    """The modules running compiled in this process, by name."""
    return sorted(install().compiled)
