"""Game systems, one package each: a package here is a ruleset, with nothing else to list.

A package's folder name is its ruleset id with ``-`` written ``_``
(``classic_hg`` is ``classic-hg``), and it exposes ``RULESET``. They are found
by looking at this folder, not by scanning every installed package (which is
slow to import), so adding a ruleset is adding its package. Rulesets from other
distributions come in through the ``flagbridge.rulesets`` entry point group.
"""

import pkgutil

from engine.ruleset import register_lazy


def builtin() -> dict[str, str]:
    """Ruleset id -> where its ``RULESET`` lives, for every package in this folder."""
    return {m.name.replace("_", "-"): f"{__name__}.{m.name}:RULESET"
            for m in pkgutil.iter_modules(__path__) if m.ispkg}


def register_builtin() -> None:
    for ruleset_id, target in builtin().items():
        register_lazy(ruleset_id, target)
