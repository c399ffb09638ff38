"""A minimal test-only ruleset that exercises every part of the engine's machinery.

It is not a game system: it has just enough to prove the engine on the shapes
all four systems need: rolls with named modifiers and targets, rolls that ask
for more rolls, knowledge held per side (a sensor lock), an object that lives a
turn (a salvo), and people with body parts (a boarder).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.rolls import Modifier, RollResult, Target
from engine.ruleset import ActionSpec, Param, RuleContext, Ruleset, StepView
from engine.schema import Field
from engine.state import add_object, expire_objects, knowledge, set_knowledge, wound

STEPS = ("initiative", "fire", "end")


class Skirmish(Ruleset):
    id = "test-skirmish"
    name = "Test skirmish (engine tests only)"
    ship_fields = (
        Field("hull", "int", minimum=1),
        Field("gun", "int", default=1, minimum=0),
        Field("tactics", "int", default=0, minimum=0, maximum=6),
    )

    def new_state(self, setup) -> dict:
        return {
            "turn": 1,
            "step": 0,
            "attacker": "",
            "initiative": {},
            "ships": {
                sid: {"side": s["side"], "hull": s["hull"], "gun": s["gun"], "tactics": s["tactics"]}
                for sid, s in setup.ships.items()
            },
            "people": {
                pid: {"side": p.get("side", ""), "body": {part: {"points": n, "taken": 0} for part, n in p.get("body", {}).items()}}
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

    def legal_actions(self, state: dict) -> list[ActionSpec]:
        step = STEPS[state["step"]]
        acts = [ActionSpec("next", "Next step")]
        if step == "initiative" and not state["attacker"]:
            acts.append(ActionSpec("initiative", "Roll initiative"))
        if step == "fire":
            acts += [
                ActionSpec("scan", "Scan", (Param("side", "Side", "side"), Param("target", "Target", "ship"))),
                ActionSpec("fire", "Fire", (Param("ship", "Ship", "ship"), Param("target", "Target", "ship"))),
                ActionSpec("launch", "Launch salvo", (Param("ship", "Ship", "ship"), Param("target", "Target", "ship"))),
                ActionSpec("board", "Boarder hit", (Param("person", "Person", "text"), Param("part", "Part", "text"))),
            ]
        return acts

    def apply_action(self, state: dict, name: str, args: dict, ctx: RuleContext) -> None:
        ships = state["ships"]
        if name == "next":
            state["step"] += 1
            if state["step"] == len(STEPS):
                state["step"] = 0
                state["turn"] += 1
                state["attacker"] = ""
                state["initiative"] = {}
                for oid in expire_objects(state, state["turn"]):
                    ctx.note(f"{oid} is spent")
        elif name == "initiative":
            sides = sorted({s["side"] for s in ships.values()})
            for side in sides:
                best = max(s["tactics"] for s in ships.values() if s["side"] == side)
                ctx.request_roll(f"Initiative {side}", "1D", [Modifier("Tactics", best)] if best else [],
                                 then="initiative", context={"side": side})
        elif name in ("scan", "fire", "launch"):
            target = args.get("target")
            if target not in ships:
                raise IllegalAction(f"{name}: no ship {target!r}")
            if name == "scan":
                ctx.request_roll("Scan", "2D", [], Target(8), then="scan", context={"side": args["side"], "target": target})
                return
            ship = args.get("ship")
            if ship not in ships:
                raise IllegalAction(f"{name}: no ship {ship!r}")
            side = ships[ship]["side"]
            if knowledge(state, side, target, "undetected") != "locked":
                raise IllegalAction(f"{name}: {side} has no lock on {target}")
            if name == "launch":
                oid = add_object(state, "salvo", state["turn"] + 1, ship=ship, target=target)
                ctx.note(f"{oid} launched at {target}")
                return
            ctx.request_roll("To hit", "2D", [Modifier("Gun", ships[ship]["gun"])], Target(8),
                             then="hit", context={"ship": ship, "target": target})
        elif name == "board":
            person, part = args.get("person"), args.get("part")
            if person not in state["people"] or part not in state["people"][person]["body"]:
                raise IllegalAction(f"board: no {person!r} with a {part!r}")
            ctx.request_roll("Boarder wound", "0.5:10sd+1", then="wound", context={"person": person, "part": part})
        else:
            raise IllegalAction(f"unknown action {name!r}")

    def resolve_roll(self, state: dict, result: RollResult, ctx: RuleContext) -> None:
        c = result.request.context
        then = result.request.then
        if then == "initiative":
            state["initiative"][c["side"]] = result.total
            if len(state["initiative"]) == len({s["side"] for s in state["ships"].values()}):
                ranked = sorted(state["initiative"].items(), key=lambda kv: (-kv[1], kv[0]))
                state["attacker"] = ranked[0][0]
        elif then == "scan":
            set_knowledge(state, c["side"], c["target"], "locked" if result.success else "detected")
        elif then == "hit":
            if result.success:
                ctx.request_roll("Damage", "1D", then="damage", context={"target": c["target"]})
        elif then == "damage":
            hull = state["ships"][c["target"]]
            hull["hull"] = max(0, hull["hull"] - result.total)
            ctx.note(f"{c['target']} takes {result.total}")
        elif then == "wound":
            wound(state, c["person"], c["part"], result.total)
        else:
            super().resolve_roll(state, result, ctx)

    def header(self, state: dict) -> str:
        return f"Turn {state['turn']} · {STEPS[state['step']]}"


SKIRMISH = Skirmish()


def make_setup(seed: int = 7):
    from datetime import datetime, timezone

    from engine.setup import Setup

    return Setup(
        ruleset="test-skirmish",
        name="Test duel",
        sides=[{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}],
        ships={
            "arrow": {"side": "blue", "name": "Arrow", "hull": 20, "gun": 2, "tactics": 1},
            "lance": {"side": "blue", "name": "Lance", "hull": 15},
            "brute": {"side": "red", "name": "Brute", "hull": 30, "gun": 1},
        },
        people={"vask": {"side": "red", "name": "Vask", "body": {"head": 8, "chest": 20}}},
        options={},
        seed=seed,
        created=datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc),
    )
