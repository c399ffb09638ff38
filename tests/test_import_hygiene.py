"""The engine and the rulesets never import the user interface (DESIGN.md "Layers").

Each headless package is imported in a fresh interpreter and ``sys.modules`` is
checked, so an indirect import is caught too (STYLE.md: harlequin's test).
"""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEADLESS = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for pkg in ("engine", "rulesets")
    for p in (ROOT / pkg).rglob("*.py")
    if p.name != "__init__.py"
) + ["engine", "rulesets"]


@pytest.mark.parametrize("module", HEADLESS)
def test_headless_module_imports_no_ui(module: str) -> None:
    code = (
        f"import sys, {module}; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'tui')]; "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_engine_imports_no_ruleset() -> None:
    code = "import sys, engine.saves, engine.files, engine.recap; print([m for m in sys.modules if m.startswith('rulesets')])"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_command_line_check_loads_no_textual() -> None:
    code = "import sys; from tui import cli; print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
