"""classic-hg: Classic Traveller High Guard-style ship combat, from ``rules/classic-hg-combat.txt``.

A fight is between two sides of one or more ships, walked through the text's
nine steps each turn. The procedures live in ``turn`` (steps, initiative,
range), ``fire`` (offensive and defensive fire, torpedoes, break-off, ramming)
and ``damage`` (armor, locations, effects); the numbers the text names but does
not print are TOML tables in ``tables/`` (shipped defaults a game master may
replace, see ``TABLES.md``); ships are TOML files in ``ships/``.
"""

from __future__ import annotations

from pathlib import Path

from engine.errors import BadTable, IllegalAction
from engine.rolls import RollResult
from engine.ruleset import ActionSpec, Param, RuleContext, Ruleset, StepView
from engine.tables import table_files

from . import damage, fire, turn
from .construction import check_ship as check_construction
from .ships import SHIP_FIELDS, TURRET_FIELDS, ship_state
from .tables import TABLE_SET, Tables, load_tables


class ClassicHG(Ruleset):
    id = "classic-hg"
    name = "Classic Traveller High Guard-style combat"
    ship_fields = SHIP_FIELDS
    package_dir = Path(__file__).parent
    table_set = TABLE_SET
    views_module = "rulesets.classic_hg.views"

    # --- setup and tables -----------------------------------------------------------

    def check_ship(self, ship: dict, where: str) -> None:
        from engine.schema import validate

        ship["turrets"] = [validate(t, TURRET_FIELDS, f"{where}.turrets[{i}]")
                           for i, t in enumerate(ship["turrets"])]
        check_construction(ship, load_tables(), where)

    def new_state(self, setup) -> dict:
        if len(setup.sides) != 2:
            raise BadTable(f"setup.sides: a classic-hg fight is between two sides, got {len(setup.sides)}")
        files = table_files(setup.options)
        tables = load_tables(files or None)
        ships = {}
        for sid, ship in setup.ships.items():
            self.check_ship(ship, f"setup.ships.{sid}")
            s = ship_state(ship, ship["side"])
            s["storage"] = ship["computer_storage"] or int(tables.computers[ship["computer_model"]]["storage"])
            s["library"] = sorted(set(ship["program_library"]) | set(ship["programs"]))
            s["fired"] = False
            s["rammed"] = False
            ships[sid] = s
        return {
            "turn": 1,
            "step": 1,
            "range": "long",  # "Initial encounters always take place at long range."
            "range_set": False,
            "side_order": [s["id"] for s in setup.sides],
            "side_names": {s["id"]: s["name"] for s in setup.sides},
            "initiative": {},
            "attacker": "",
            "defender": "",
            "simultaneous": False,
            "surprised": "",
            "ships": ships,
            "attacks": [],
            "next_attack": 1,
            "damage_queue": [],
            "over": "",
            "table_files": dict(files),
        }

    # --- reading the state -----------------------------------------------------------

    def checklist(self, state: dict) -> list[StepView]:
        return turn.checklist(state)

    def header(self, state: dict) -> str:
        label = dict(turn.STEPS)[state["step"]]
        text = f"Turn {state['turn']} · step {state['step']}/9 {label} · range: {state['range']}"
        return text + (f" · {state['over']}" if state["over"] else "")

    def legal_actions(self, state: dict) -> list[ActionSpec]:
        if state["over"]:
            return []
        step = state["step"]
        acts: list[ActionSpec] = []
        ship = Param("ship", "Ship", "ship")
        target = Param("target", "Target", "ship")
        if step == 1 and len(state["initiative"]) < 2:
            acts.append(ActionSpec("roll_initiative", "Roll initiative", key="i"))
        if step == 2 and state["turn"] > 1 and not state["range_set"]:
            acts.append(ActionSpec("set_range", "Choose the range",
                                   (Param("range", "Range", "choice", turn.range_choices(state)),), key="r"))
        if step in (3, 6):
            acts.append(ActionSpec("fire", "Fire turrets", (ship, Param("turrets", "Turrets", "multi"), target,
                                   Param("warhead", "Warhead", "choice", ("he", "nuclear")),
                                   Param("location", "Selective location", "text")), key="f"))
            acts.append(ActionSpec("launch_torpedo", "Launch a torpedo", (ship, target, Param(
                "warhead", "Warhead", "choice", ("he", "nuclear"))), key="t"))
            if state["range"] == "close":
                acts.append(ActionSpec("ram", "Ram", (ship, target), key="m"))
            if state["range"] == "long":
                acts.append(ActionSpec("break_off", "Break off", (ship,), key="b"))
        if step in (4, 7) and fire.incoming(state):
            acts.append(ActionSpec("defend", "Intercept an attack", (
                ship, Param("turret", "Turret", "text"), Param("attack", "Attack", "text"),
                Param("defence", "Defence", "text")), key="d"))
        if step in (5, 8) and turn.damage_attacks(state):
            acts.append(ActionSpec("resolve_damage", "Resolve damage", key="g"))
        if step == 9:
            acts.append(ActionSpec("load_programs", "Reprogram a computer", (
                ship, Param("programs", "Programs", "multi")), key="p"))
        acts.append(ActionSpec("withdraw", "Withdraw a ship", (
            ship, Param("reason", "Why", "choice", turn.OUT_REASONS)), key="x"))
        acts.append(ActionSpec("next", "Next step", key="n"))  # refused with what the step still needs
        return acts

    # --- changing it -------------------------------------------------------------------

    def apply_action(self, state: dict, name: str, args: dict, ctx: RuleContext) -> None:
        tables = self.tables_for(state)
        if name == "roll_initiative":
            turn.roll_initiative(state, ctx)
        elif name == "set_range":
            turn.set_range(state, args.get("range", ""), ctx)
        elif name == "fire":
            fire.fire(state, args, tables, ctx)
        elif name == "launch_torpedo":
            fire.launch_torpedo(state, args, tables, ctx)
        elif name == "ram":
            fire.ram(state, args, tables, ctx)
        elif name == "break_off":
            fire.break_off(state, args, ctx)
        elif name == "withdraw":
            turn.withdraw(state, args, ctx)
        elif name == "defend":
            fire.defend(state, args, tables, ctx)
        elif name == "resolve_damage":
            damage.start_damage(state, tables, ctx)
        elif name == "load_programs":
            self._load_programs(state, args, tables, ctx)
        elif name == "next":
            self._next(state, tables, ctx)
        else:
            raise IllegalAction(f"classic-hg has no action {name!r}")

    def resolve_roll(self, state: dict, result: RollResult, ctx: RuleContext) -> None:
        then = result.request.then
        c = result.request.context
        tables = self.tables_for(state)
        if then == "initiative":
            turn.record_initiative(state, c["side"], result.total, ctx)
        elif then == "to_hit":
            fire.resolve_to_hit(state, bool(result.success), c, tables, ctx)
        elif then == "intercept":
            fire.resolve_intercept(state, bool(result.success), c, tables, ctx)
        elif then == "ram":
            fire.resolve_ram(state, bool(result.success), c, tables, ctx)
        elif then in damage.CHAIN:
            damage.resolve(state, then, result, tables, ctx)
        else:
            super().resolve_roll(state, result, ctx)

    def _next(self, state: dict, tables: Tables, ctx: RuleContext) -> None:
        needs = turn.step_needs(state)
        if needs:
            raise IllegalAction(f"step {state['step']} still needs: {needs}")
        if state["step"] in (4, 7):
            fire.request_field_rolls(state, tables, ctx)
        for ship in state["ships"].values():
            ship["fired"] = False
        if state["step"] == 9:
            turn.new_turn(state, ctx)
            for ship in state["ships"].values():
                ship["rammed"] = False
        else:
            state["step"] += 1

    def _load_programs(self, state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
        """Step 9: "alter any programs in their respective computers"; they must fit in storage."""
        if state["step"] != 9:
            raise IllegalAction("programs change only in step 9, computer reprogramming")
        ship = state["ships"].get(args.get("ship", ""))
        if ship is None:
            raise IllegalAction(f"no ship {args.get('ship')!r}")
        programs = args.get("programs", [])
        if isinstance(programs, str):
            programs = [p.strip() for p in programs.split(",") if p.strip()]
        unknown = [p for p in programs if p not in ship["library"]]
        if unknown:
            raise IllegalAction(f"{ship['name']} carries no program {unknown[0]!r} "
                                f"(on board: {', '.join(ship['library'])})")
        size = sum(int(tables.programs[p]["storage"]) for p in programs)
        if size > ship["storage"]:
            raise IllegalAction(f"{', '.join(programs)} need {size} spaces; {ship['name']}'s computer holds "
                                f"{ship['storage']}")
        ship["programs"] = list(programs)
        ctx.note(f"{ship['name']} loads {', '.join(programs) or 'nothing'} ({size}/{ship['storage']} spaces)")


RULESET = ClassicHG()
