"""megatraveller: MegaTraveller High Guard-style sensors and fire, from ``rules/megatraveller-sensors-fire.txt``.

Sides of one or more ships fight round by round: step 1 Sensors (detect,
locate, lock, shared across a side), step 2 Fire (battery by battery: to hit,
penetration of each defence, damage rolls, criticals), step 3 End of round.
Each module declares its own actions and roll continuations in the one
``catalogue``: the procedures live in ``sensors``, ``fire`` and ``damage``
(tactics points in ``tactics``; what a critical's shut-down takes away in
``systems``); range in squares, bands and line of sight in
``ranges``; the round and the game master's range and sight actions in
``turn``. The tables the text names but does not print are TOML files in
``tables/`` (shipped defaults a game master may replace through
``setup.options.tables``); ships are TOML files in ``ships/``.

Options (``setup.options``): ``range`` (starting squares between every pair of
enemies, default 10), ``visual_same_square`` (the errata reading: Visual is
the same square), ``tables`` (replacement table files by name). A side may
carry ``tactics_pool`` (the fleet's tactics points).
"""

from __future__ import annotations


from engine.errors import BadTable
from engine.ruleset import Param, Ruleset, StepView, UnitKind
from engine.tables import table_files

# Imported in the order the console lists their actions: locate, lock, fire, range, sight, next.
from . import sensors, fire, damage, turn  # noqa: F401  (they register their actions)
from .catalogue import CATALOGUE
from .corrections import RULES as CORRECTION_RULES
from .ranges import DEFAULT_RANGE, pair, unranged
from .ships import check_ship, sensors_check, set_factor, ship_state
from .tables import TABLE_SET, load_tables

#: A ship's values that decide what its sensors detect: their reach, and the systems shut down (sensors, power).
SEEING = ("sensors", "shut_down")



class MegaTraveller(Ruleset):
    id = "megatraveller"
    name = "MegaTraveller sensors and fire"
    catalogue = CATALOGUE
    table_set = TABLE_SET
    correction_rules = CORRECTION_RULES
    recap_ignores = ("used", "free_sensor_used")  # this round's battery and sensor use
    sides_allowed = (2, None)

    # --- setup and tables -----------------------------------------------------------

    def check_ship(self, ship: dict, where: str) -> None:
        check_ship(ship, load_tables(), where)

    def new_state(self, setup) -> dict:
        opts = setup.options
        files = table_files(setup.options)
        start = opts.get("range", DEFAULT_RANGE)
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
        squares = {pair(a, b): start for i, a in enumerate(ids) for b in ids[i + 1:]
                   if ships[a]["side"] != ships[b]["side"]}
        state = {
            "round": 1, "step": 1,
            "side_order": [s["id"] for s in setup.sides],
            "side_names": {s["id"]: s["name"] for s in setup.sides},
            "options": {"visual_same_square": same_square},
            "ships": ships, "ranges": squares, "blocked": [],
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
        return (Param("range", "Starting range in squares between enemy ships", "int", minimum=0,
                      maximum=turn.MAX_SQUARES),)

    def after_correction(self, state: dict, path: tuple, ctx=None, was=None) -> None:
        """"Anything within 100 spaces is pretty much detected": a range measured again, sensors put right or a
        ship moved to another side by hand detect as the range step does, and say so (detection never goes
        back). Only the pairs the corrected value touches are looked at, and any other correction leaves what
        the sides hold as it is, so a contact the game master hid stays hidden."""
        ships = state["ships"]
        if len(path) == 5 and path[0] == "ships" and path[1] in ships and path[2] == "batteries" \
                and path[4] == "factor":
            battery = ships[path[1]]["batteries"][path[3]]
            changed = set_factor(battery, battery["factor"])  # the mount follows the factor (corrections._mount)
            if changed and ctx is not None:
                ctx.note(f"{ships[path[1]]['name']} {battery['id']} is {changed}")
        if len(path) == 3 and path[0] == "ships" and path[1] in ships and path[2] == "side":
            turn.side_corrected(state, path[1], ctx)
        elif len(path) >= 3 and path[0] == "ships" and path[1] in ships and path[2] in SEEING:
            sensors.refresh_detection(state, ctx, sensors.pairs_seen_by(state, path[1]))
        elif len(path) == 2 and path[0] == "ranges":
            a, _, b = str(path[1]).partition("|")
            sensors.refresh_detection(state, ctx, sensors.pairs_across(a, b) if a in ships and b in ships else None)
        elif path in (("ranges",), ("ships",)) or len(path) == 2 and path[0] == "ships":  # a whole table or ship
            sensors.refresh_detection(state, ctx)

    def earlier_readings(self) -> tuple[Ruleset, ...]:
        """Saves written before a table corrected whole played out the values inside it
        (``Ruleset.plays_out_inside_tables``) hold the older results."""
        return (_Reading(),)

    def start_fault(self, state: dict) -> str:
        check = sensors_check(self.tables_for(state))
        for sid, ship in state["ships"].items():
            if isinstance(ship, dict):
                try:
                    check(ship.get("sensors"), f"ships.{sid}.sensors")
                except BadTable as exc:
                    return str(exc)
        return unranged(state)

    # --- reading the state -----------------------------------------------------------

    def checklist(self, state: dict) -> list[StepView]:
        return turn.checklist(state)

    def header(self, state: dict) -> str:
        label = dict(turn.STEPS)[state["step"]]
        return f"Round {state['round']} · step {state['step']}/{len(turn.STEPS)} {label}"

    # --- what the console shows (views.py): ships need the fight's tables for their weapons' names ---

    def unit_line(self, state: dict, kind: UnitKind, uid: str) -> tuple[str, float]:
        from . import views
        return views.ship_line(state, uid, self.tables_for(state))

    def unit_panels(self, state: dict, kind: UnitKind, uid: str) -> dict[str, list[tuple[str, str]]]:
        from . import views
        return views.ship_panels(state, uid, self.tables_for(state))

    def roll_help(self, state: dict, request) -> list[str]:
        from . import views
        return views.roll_help(state, request, self.tables_for(state))


class _Reading(MegaTraveller):
    """MegaTraveller as an earlier version read a log: only for a loaded save's [state]
    (``Ruleset.earlier_readings``). It handed a table corrected whole to ``after_correction`` by its own path
    alone."""

    plays_out_inside_tables = False


RULESET = MegaTraveller()
