"""Every shipped ruleset's demo, found from the rulesets themselves.

The fuzz, kill and random-key tests run over all of them, so a new ruleset
package is exercised without a change to any test.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.encounter import Encounter
from engine.ruleset import available, find_ruleset
from engine.saves import SaveFile


def shipped_demos() -> dict[str, Path]:
    """Ruleset id -> its shipped demo save, in id order (test rulesets left out)."""
    from rulesets import register_builtin

    register_builtin()
    found = {rid: find_ruleset(rid).demo_save() for rid in available() if not rid.startswith("test-")}
    return {rid: path for rid, path in sorted(found.items()) if path is not None}


def classic_hg_at_offensive_fire(path: Path) -> Encounter:
    """The classic-hg demo copied to ``path`` and opened: initiative rolled (6 and 1, the Imperials attack) and two
    steps on, so the attacker's offensive fire is the step; many tests start from the first shot of that fight."""
    shutil.copyfile(shipped_demos()["classic-hg"], path)
    enc = SaveFile.load(path).encounter
    enc.act("roll_initiative")
    enc.type_roll("6")
    enc.type_roll("1")
    enc.act("next")
    enc.act("next")
    return enc


def demo_with_ids(ruleset: str, ids: dict[str, str]) -> str:
    """A shipped demo's text as a game master would write it with other side and unit ids (his own letters): each
    such key quoted (a key of letters outside ASCII is not bare in TOML), and each pair of units ("a|b") in the
    order the rules keep it."""
    import json
    import re

    text = shipped_demos()[ruleset].read_text(encoding="utf-8")
    for old, new in ids.items():
        key = json.dumps(new, ensure_ascii=False)
        header = re.compile(rf"^(\[+[^\]\n]*\.){old}(?=[\].])", re.M)
        while header.search(text):  # a header may name two: [state.knowledge.imperial.corsair]
            text = header.sub(lambda m: m.group(1) + key, text)
        text = re.sub(rf"(?:^|(?<=[{{,] )){old}(?= = )", key, text, flags=re.M)  # a bare key, inline too
        text = re.sub(rf'(?<=["|]){old}(?=["|])', new, text)  # a string, or half of a pair

    def in_order(m: re.Match) -> str:
        return '"' + "|".join(sorted((m.group(1), m.group(2)))) + '"'

    text = re.sub(r'"([^"|\n]+)\|([^"|\n]+)"', in_order, text)
    left = [old for old in ids if re.search(rf"(?<![\w-]){old}(?![\w-])", text)]
    assert not left, f"{ruleset}: {left} still in the demo"
    return text
