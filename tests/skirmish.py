"""A minimal test-only ruleset that exercises every part of the engine's machinery.

It is not a game system: it has just enough to prove the engine on the shapes
all four systems need: actions declared once in a catalogue, rolls with named
modifiers and targets, rolls that ask for more rolls, knowledge held per side
(a sensor lock), an object that lives a turn (a salvo), units of two kinds
(ships and people with body parts), and a procedure of another ruleset
(``tests.melee``) called inside the same fight for a boarder's wound.
"""

from __future__ import annotations

from engine.actions import Action, Catalogue, Param, UnitKind
from engine.rolls import Modifier, Target
from engine.ruleset import Ruleset, StepView, register_lazy
from engine.schema import Field
from engine.state import add_object, expire_objects, knowledge, set_knowledge

STEPS = ("initiative", "fire", "end")
SHIP = UnitKind("ship", "Ship", "Ships", "ships", fields=(
    Field("hull", "int", minimum=1),
    Field("gun", "int", default=1, minimum=0),
    Field("tactics", "int", default=0, minimum=0, maximum=6),
))
PERSON = UnitKind("person", "Person", "People", "people")
CATALOGUE = Catalogue("test-skirmish", (SHIP, PERSON))


def _step(state: dict) -> str:
    return STEPS[state["step"]]


def _in_step(name: str):
    def may(state: dict, args: dict, tables) -> str:
        return "" if _step(state) == name else f"only in the {name} step (now: {_step(state)})"
    return may


# --- actions -------------------------------------------------------------------------

def next_step(state: dict, args: dict, tables, ctx) -> None:
    state["step"] += 1
    if state["step"] == len(STEPS):
        state["step"] = 0
        state["turn"] += 1
        state["attacker"] = ""
        state["initiative"] = {}
        for oid in expire_objects(state, state["turn"]):
            ctx.note(f"{oid} is spent")


def may_initiative(state: dict, args: dict, tables) -> str:
    if _step(state) != "initiative":
        return "initiative is rolled in the initiative step"
    return "initiative is already rolled this turn" if state["attacker"] else ""


def initiative(state: dict, args: dict, tables, ctx) -> None:
    ships = state["ships"]
    for side in sorted({s["side"] for s in ships.values()}):
        best = max(s["tactics"] for s in ships.values() if s["side"] == side)
        ctx.request_roll(f"Initiative {side}", "1D", [Modifier("Tactics", best)] if best else [],
                         then="initiative", context={"side": side})


def scan(state: dict, args: dict, tables, ctx) -> None:
    ctx.request_roll("Scan", "2D", [], Target(8), then="scan", context={"side": args["side"], "target": args["target"]})


def may_shoot(state: dict, args: dict, tables) -> str:
    if _step(state) != "fire":
        return "ships fire in the fire step"
    if "ship" in args and "target" in args:
        side = state["ships"][args["ship"]]["side"]
        if knowledge(state, side, args["target"], "undetected") != "locked":
            return f"{side} has no lock on {args['target']}"
    return ""


def fire(state: dict, args: dict, tables, ctx) -> None:
    ctx.request_roll("To hit", "2D", [Modifier("Gun", state["ships"][args["ship"]]["gun"])], Target(8),
                     then="hit", context={"ship": args["ship"], "target": args["target"]})


def launch(state: dict, args: dict, tables, ctx) -> None:
    oid = add_object(state, "salvo", state["turn"] + 1, ship=args["ship"], target=args["target"])
    ctx.note(f"{oid} launched at {args['target']}")


def _parts(state: dict, args: dict, tables) -> list[str]:
    return list(state["people"].get(args.get("person", ""), {}).get("body", {}))


def board(state: dict, args: dict, tables, ctx) -> None:
    """A boarder's wound is the melee system's to resolve, inside this fight."""
    ctx.call("test-melee", "wound", {"person": args["person"], "part": args["part"]}, reply="boarded")


for _action in (
    Action("next", "Next step", next_step, key="n"),
    Action("initiative", "Roll initiative", initiative, key="i", may=may_initiative),
    Action("scan", "Scan", scan, key="s", may=_in_step("fire"), params=(
        Param("side", "Side", "side"), Param("target", "Target", "unit", unit="ship"))),
    Action("fire", "Fire", fire, key="f", may=may_shoot, params=(
        Param("ship", "Ship", "unit", unit="ship"), Param("target", "Target", "unit", unit="ship", enemy_of="ship"))),
    Action("launch", "Launch salvo", launch, key="l", may=may_shoot, params=(
        Param("ship", "Ship", "unit", unit="ship"), Param("target", "Target", "unit", unit="ship", enemy_of="ship"))),
    Action("board", "Boarder hit", board, key="b", may=_in_step("fire"), params=(
        Param("person", "Person", "unit", unit="person"), Param("part", "Part", "choice", options=_parts))),
):
    CATALOGUE.add(_action)


# --- roll continuations ------------------------------------------------------------------

@CATALOGUE.continuation("initiative")
def record_initiative(state: dict, result, tables, ctx) -> None:
    state["initiative"][result.request.context["side"]] = result.total
    if len(state["initiative"]) == len({s["side"] for s in state["ships"].values()}):
        ranked = sorted(state["initiative"].items(), key=lambda kv: (-kv[1], kv[0]))
        state["attacker"] = ranked[0][0]


@CATALOGUE.continuation("scan")
def record_scan(state: dict, result, tables, ctx) -> None:
    c = result.request.context
    set_knowledge(state, c["side"], c["target"], "locked" if result.success else "detected")


@CATALOGUE.continuation("hit")
def resolve_hit(state: dict, result, tables, ctx) -> None:
    if result.success:
        ctx.request_roll("Damage", "1D", then="damage", context={"target": result.request.context["target"]})


@CATALOGUE.continuation("damage")
def resolve_damage(state: dict, result, tables, ctx) -> None:
    target = result.request.context["target"]
    ship = state["ships"][target]
    ship["hull"] = max(0, ship["hull"] - result.total)
    ctx.note(f"{target} takes {result.total}")


@CATALOGUE.reply("boarded")
def boarded(state: dict, data: dict, tables, ctx) -> None:
    state.setdefault("boarding_wounds", []).append(f"{data['person']} {data['part']} {data['points']}")



class Skirmish(Ruleset):
    id = "test-skirmish"
    name = "Test skirmish (engine tests only)"
    catalogue = CATALOGUE
    uses = ("test-melee",)

    def new_state(self, setup) -> dict:
        return {
            "turn": 1,
            "step": 0,
            "attacker": "",
            "initiative": {},
            "side_order": setup.side_ids,
            "ships": {
                sid: {"side": s["side"], "name": s["name"], "hull": s["hull"], "gun": s["gun"], "tactics": s["tactics"]}
                for sid, s in setup.ships.items()
            },
            "people": {
                pid: {"side": p["side"], "name": p["name"],
                      "body": {part: {"points": n, "taken": 0} for part, n in p.get("body", {}).items()}}
                for pid, p in setup.people.items()
            },
            "knowledge": {},
            "objects": {},
        }

    def checklist(self, state: dict) -> list[StepView]:
        out = []
        for i, label in enumerate(STEPS):
            status = "done" if i < state["step"] else ("current" if i == state["step"] else "todo")
            out.append(StepView(i + 1, label, status))
        return out

    def header(self, state: dict) -> str:
        return f"Turn {state['turn']} · {STEPS[state['step']]}"


SKIRMISH = Skirmish()
register_lazy("test-melee", "tests.melee:MELEE")  # a test-only ruleset is installed nowhere


def make_setup(seed: int = 7):
    from datetime import datetime, timezone

    from engine.setup import Setup

    return Setup(
        ruleset="test-skirmish",
        name="Test duel",
        sides=[{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}],
        units={
            "ships": {
                "arrow": {"side": "blue", "name": "Arrow", "hull": 20, "gun": 2, "tactics": 1},
                "lance": {"side": "blue", "name": "Lance", "hull": 15},
                "brute": {"side": "red", "name": "Brute", "hull": 30, "gun": 1},
            },
            "people": {"vask": {"side": "red", "name": "Vask", "body": {"head": 8, "chest": 20}}},
        },
        options={},
        seed=seed,
        created=datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc),
    )


def played_duel(to_hit: str = "9"):
    """The test duel played a little way, dice typed: initiative 3 against 5, a scan, and Arrow firing at
    Brute with ``to_hit`` (a total, or faces such as "4 5") and then 4 for the damage."""
    from engine.encounter import Encounter

    enc = Encounter(make_setup(), SKIRMISH)
    enc.act("initiative")
    enc.type_roll("3")  # blue: 1D +1 Tactics
    enc.type_roll("5")
    enc.act("next")
    enc.act("scan", side="blue", target="brute")
    enc.type_roll("5 5")
    enc.act("fire", ship="arrow", target="brute")  # 2D +2 Gun vs 8+
    enc.type_roll(to_hit)
    enc.type_roll("4")
    return enc


def to_fire_step(enc: Encounter) -> None:
    """Turn 1 with typed dice: initiative (blue 2, red 6), then blue scans the Brute."""
    enc.act("initiative")
    enc.type_roll("2")
    enc.type_roll("6")
    enc.act("next")
    enc.act("scan", side="blue", target="brute")
    enc.type_roll("6 6")


def first_shots(enc: Encounter) -> None:
    """``to_fire_step``, and the Arrow hits the Brute for 4."""
    to_fire_step(enc)
    enc.act("fire", ship="arrow", target="brute")
    enc.type_roll("6 6")
    enc.type_roll("4")
