"""The gothic catalogue: the unit kinds (ships, defences, ordnance) and the parameters most actions ask.

Each rules module declares its own actions and roll continuations here
(``turn``: orders, distances, shields, hits and the next phase; ``ordnance``:
launch and move, and a salvo's attack; ``teleport``; ``hitrun``: the
hit-and-run attack, criticals and repair). The package's ``__init__`` imports
them in the order the console lists the actions, then seals the catalogue.

Ships and defences are different kinds of unit but the same to most rules (a
defence may be teleported or torpedoed like a ship), so the parameters that
name either are choices listing both.
"""

from __future__ import annotations

from engine.actions import Catalogue, Choice, Param, UnitKind

from .units import CLASS_WORDS, DEFENCE_FIELDS, SHIP_FIELDS, afloat, distance

SHIP = UnitKind("ship", "Ship", "Ships", "ships", fields=SHIP_FIELDS)
DEFENCE = UnitKind("defence", "Defence", "Defences", "defences", fields=DEFENCE_FIELDS)
ORDNANCE = UnitKind("ordnance", "Salvo", "Ordnance", "ordnance", in_setup=False)
CATALOGUE = Catalogue("gothic", (SHIP, DEFENCE, ORDNANCE))

PHASES = ((1, "Movement"), (2, "Shooting"), (3, "Ordnance"), (4, "End phase"))
PHASE_WORDS = dict(PHASES)
#: How a refusal names a phase: "in the ordnance phase".
PHASE_NAMES = {1: "movement phase", 2: "shooting phase", 3: "ordnance phase", 4: "end phase"}


def vessel_words(state: dict, uid: str) -> str:
    v = afloat(state)[uid]
    return f"{v['name']} ({CLASS_WORDS[v['class']]}, {v['hits']}/{v['hits_start']} hits)"


def vessel_choices(state: dict, args: dict, tables) -> list[Choice]:
    """Every ship and defence afloat, as most questions list them (a rule's ``may`` leaves out those it refuses)."""
    return [Choice(uid, vessel_words(state, uid)) for uid in afloat(state)]


def _enemies(of: str):
    """The afloat enemies of the vessel chosen as ``of``, each with the distance to it."""
    def options(state: dict, args: dict, tables) -> list[Choice]:
        me = afloat(state).get(args.get(of, ""))
        if me is None:
            return []
        out = []
        for uid, v in afloat(state).items():
            if v["side"] != me["side"]:
                cm = distance(state, args[of], uid)
                shown = "distance not entered" if cm is None else f"{cm} cm"
                out.append(Choice(uid, f"{vessel_words(state, uid)}, {shown}"))
        return out
    return options


VESSEL_PARAM = Param("vessel", "Ship or defence", "choice", options=vessel_choices)
TARGET_PARAM = Param("target", "Target", "choice", options=_enemies("vessel"))


def why_phase(state: dict, phase: int, what: str) -> str:
    """The start of a ``may``: the action belongs to one phase of the turn."""
    if state["phase"] == phase:
        return ""
    return f"{what} in the {PHASE_NAMES[phase]} (now: the {PHASE_NAMES[state['phase']]})"


def why_no_vessel(state: dict, uid) -> str:
    if not isinstance(uid, str) or uid not in afloat(state):
        return f"no ship or defence {uid!r} afloat"
    return ""


def chosen_vessel(state: dict, args: dict, phase: int = 0, what: str = "") -> tuple[str, dict | None]:
    """The start of most ``may`` checks: the phase the action belongs to (when ``phase`` is given), then
    the vessel chosen. A reason to refuse, or "" and the vessel (None while none is chosen yet)."""
    why = why_phase(state, phase, what) if phase else ""
    if why or "vessel" not in args:
        return why, None
    why = why_no_vessel(state, args["vessel"])
    return (why, None) if why else ("", afloat(state)[args["vessel"]])
