"""Every shipped ruleset's demo, found from the rulesets themselves.

The fuzz, kill and random-key tests run over all of them, so a new ruleset
package is exercised without a change to any test.
"""

from __future__ import annotations

from pathlib import Path

from engine.ruleset import available, find_ruleset


def shipped_demos() -> dict[str, Path]:
    """Ruleset id -> its shipped demo save, in id order (test rulesets left out)."""
    from rulesets import register_builtin

    register_builtin()
    found = {rid: find_ruleset(rid).demo_save() for rid in available() if not rid.startswith("test-")}
    return {rid: path for rid, path in sorted(found.items()) if path is not None}
