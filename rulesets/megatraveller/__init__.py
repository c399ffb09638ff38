"""megatraveller: MegaTraveller High Guard-style sensors and fire, from ``rules/megatraveller-sensors-fire.txt``.

Sides of one or more ships fight round by round: step 1 Sensors (detect,
locate, lock, shared across a side), step 2 Fire (battery by battery: to hit,
penetration of each defence, damage rolls, criticals), step 3 End of round.
The procedures live in ``sensors``, ``fire`` and ``damage``; the round, range
in squares and line of sight in ``turn``; the tables the text names but does
not print are TOML files in ``tables/`` (shipped defaults a game master may
replace through ``setup.options.tables``); ships are TOML files in ``ships/``.

Options (``setup.options``): ``range`` (starting squares between every pair of
enemies, default 10), ``visual_same_square`` (the errata reading: Visual is
the same square), ``tables`` (replacement table files by name). A side may
carry ``tactics_pool`` (the fleet's tactics points).
"""

from __future__ import annotations

from pathlib import Path

from engine.errors import BadTable, IllegalAction
from engine.rolls import RollResult
from engine.ruleset import ActionSpec, Param, RuleContext, Ruleset, StepView
from engine.tables import table_files

from . import damage, fire, sensors, turn
from .ships import SHIP_FIELDS, check_ship, ship_state
from .tables import TABLE_SET, load_tables


class MegaTraveller(Ruleset):
    id = "megatraveller"
    name = "MegaTraveller sensors and fire"
    ship_fields = SHIP_FIELDS
    package_dir = Path(__file__).parent
    table_set = TABLE_SET

    # --- setup and tables -----------------------------------------------------------

    def check_ship(self, ship: dict, where: str) -> None:
        check_ship(ship, load_tables(), where)

    def new_state(self, setup) -> dict:
        if len(setup.sides) < 2:
            raise BadTable(f"setup.sides: a fight needs at least two sides, got {len(setup.sides)}")
        opts = setup.options
        files = table_files(setup.options)
        start = opts.get("range", turn.DEFAULT_RANGE)
        if not isinstance(start, int) or isinstance(start, bool) or start < 0:
            raise BadTable(f"setup.options.range: expected squares (a whole number 0 or more), got {start!r}")
        same_square = opts.get("visual_same_square", False)
        if not isinstance(same_square, bool):
            raise BadTable(f"setup.options.visual_same_square: expected true or false, got {same_square!r}")
        tables = load_tables(files or None)
        ships = {}
        for sid, ship in setup.ships.items():
            check_ship(ship, tables, f"setup.ships.{sid}")
            ships[sid] = ship_state(ship, ship["side"])
        fleet = {}
        for i, side in enumerate(setup.sides):
            pool = side.get("tactics_pool", 0)
            if not isinstance(pool, int) or isinstance(pool, bool) or pool < 0:
                raise BadTable(f"setup.sides[{i}].tactics_pool: expected a whole number 0 or more, got {pool!r}")
            fleet[side["id"]] = pool
        ids = list(ships)
        ranges = {turn.pair(a, b): start for i, a in enumerate(ids) for b in ids[i + 1:]
                  if ships[a]["side"] != ships[b]["side"]}
        state = {
            "round": 1, "step": 1,
            "side_order": [s["id"] for s in setup.sides],
            "side_names": {s["id"]: s["name"] for s in setup.sides},
            "options": {"visual_same_square": same_square},
            "ships": ships, "ranges": ranges, "blocked": [],
            "fleet_tactics": fleet, "knowledge": {s["id"]: {} for s in setup.sides},
            "table_files": dict(files),
        }
        for side in state["side_order"]:
            for tid, t in ships.items():
                if t["side"] != side:
                    state["knowledge"][side][tid] = {"state": sensors.UNDETECTED, "revealed": ""}
        sensors.refresh_detection(state)
        return state

    def setup_options(self) -> tuple[Param, ...]:
        return (Param("range", "Starting range in squares between enemy ships", "int"),)

    # --- reading the state -----------------------------------------------------------

    def checklist(self, state: dict) -> list[StepView]:
        return turn.checklist(state)

    def header(self, state: dict) -> str:
        label = dict(turn.STEPS)[state["step"]]
        return f"Round {state['round']} · step {state['step']}/{len(turn.STEPS)} {label}"

    def legal_actions(self, state: dict) -> list[ActionSpec]:
        ship = Param("ship", "Ship", "ship")
        target = Param("target", "Target", "ship")
        tactics = (Param("tactics", "Tactics points", "choice"), Param("pool", "Tactics pool", "choice",
                                                                      ("ship", "fleet")))
        acts: list[ActionSpec] = []
        if state["step"] == 1:
            sense = (ship, target, Param("mode", "Sensors", "choice", ("passive", "active")),
                     Param("spend", "Action spent", "choice")) + tactics
            acts.append(ActionSpec("locate", "Locate a detected target", sense, key="s"))
            acts.append(ActionSpec("lock", "Lock a located target", sense, key="l"))
        if state["step"] == 2:
            acts.append(ActionSpec("fire", "Fire batteries", (
                ship, target, Param("batteries", "Batteries", "multi"), Param("aim", "Pinpoint aim", "choice"),
            ) + tactics, key="f"))
        acts.append(ActionSpec("set_range", "Set the range between two ships",
                               (ship, target, Param("squares", "Range in squares", "int")), key="r"))
        acts.append(ActionSpec("set_sight", "Line of sight blocked or clear",
                               (ship, target, Param("sight", "Line of sight", "choice", ("blocked", "clear"))),
                               key="b"))
        acts.append(ActionSpec("next", "Next step", key="n"))
        return acts

    # --- changing it -------------------------------------------------------------------

    def apply_action(self, state: dict, name: str, args: dict, ctx: RuleContext) -> None:
        tables = self.tables_for(state)
        if name == "locate":
            sensors.locate(state, args, tables, ctx)
        elif name == "lock":
            sensors.lock(state, args, tables, ctx)
        elif name == "fire":
            fire.fire(state, args, tables, ctx)
        elif name == "set_range":
            turn.set_range(state, args, ctx)
        elif name == "set_sight":
            turn.set_sight(state, args, ctx)
        elif name == "next":
            turn.next_step(state, ctx)
        else:
            raise IllegalAction(f"megatraveller has no action {name!r}")

    def resolve_roll(self, state: dict, result: RollResult, ctx: RuleContext) -> None:
        then = result.request.then
        tables = self.tables_for(state)
        if then == "locate":
            sensors.resolve_locate(state, result, ctx)
        elif then == "lock_player":
            sensors.resolve_lock_player(state, result, ctx)
        elif then == "lock_referee":
            sensors.resolve_lock_referee(state, result, ctx)
        elif then == "to_hit":
            fire.resolve_to_hit(state, result, tables, ctx)
        elif then == "penetrate":
            fire.resolve_penetrate(state, result, tables, ctx)
        elif then == "damage":
            damage.resolve_damage(state, result, tables, ctx)
        elif then == "critical":
            damage.resolve_critical(state, result, tables, ctx)
        else:
            super().resolve_roll(state, result, ctx)

    # --- what the console shows (views.py) ---------------------------------------------

    def ship_line(self, state: dict, ship_id: str) -> tuple[str, float]:
        from . import views
        return views.ship_line(state, ship_id, self.tables_for(state))

    def ship_panels(self, state: dict, ship_id: str) -> dict[str, list[tuple[str, str]]]:
        from . import views
        return views.ship_panels(state, ship_id, self.tables_for(state))

    def checklist_notes(self, state: dict) -> list[str]:
        from . import views
        return views.checklist_notes(state)

    def sensors(self, state: dict) -> list[str] | None:
        from . import views
        return views.sensor_lines(state)

    def param_choices(self, state: dict, action: str, param: Param, args: dict) -> list | None:
        from . import views
        return views.param_choices(state, action, param, args, self.tables_for(state))


RULESET = MegaTraveller()
