"""What opening the demo loads before the console's first frame (DESIGN.md "Performance": import only what
the first screen needs). Each module named here was once loaded at start-up for a save that never used it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

OPEN_DEMO = """
import sys
from pathlib import Path
import tui.cli, tui.launch, tui.app, tui.screens.console
from rulesets import register_builtin
register_builtin()
from engine.saves import SaveFile
from tui.demos import fresh_demo_copy
save = SaveFile.load(fresh_demo_copy("classic-hg", Path(sys.argv[1])))
print(" ".join(sorted(sys.modules)))
"""


def test_opening_the_demo_loads_no_module_the_first_frame_does_not_need(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", OPEN_DEMO, str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    loaded = set(out.stdout.split())
    assert "engine.saves" in loaded and "rulesets.classic_hg" in loaded  # the script did open the demo
    unneeded = {
        "tomllib": "toml-rs and rtoml read the save and the tables; tomllib only names what rtoml refuses",
        "hashlib": "a replay cache is read or made only for a save of a block of events or more",
        "rulesets.percentile": "the ruleset classic-hg may call is loaded when a fight calls it",
        "json": "nothing is written before the first frame",
        "glob": "stale temporary files are swept at the first write",
    }
    assert {name: why for name, why in unneeded.items() if name in loaded} == {}
