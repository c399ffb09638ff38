"""Game systems, one package each.

Other packages can add rulesets through the ``flagbridge.rulesets`` entry point
group; the ones shipped here are named below so that opening a save does not
have to scan every installed package first.
"""

from engine.ruleset import register_lazy

BUILTIN = {
    "classic-hg": "rulesets.classic_hg:RULESET",
    "megatraveller": "rulesets.megatraveller:RULESET",
}


def register_builtin() -> None:
    for ruleset_id, target in BUILTIN.items():
        register_lazy(ruleset_id, target)
