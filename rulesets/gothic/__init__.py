"""gothic: Battlefleet Gothic boarding torpedoes, teleport attacks, hit-and-run attacks and planetary
defences, from ``rules/gothic-boarding-teleport.ru.txt`` (the Russian is the source; an English
rendering is beside it).

Sides of capital ships, escorts and planetary defences fight turn by turn:
1 Movement (special orders declared), 2 Shooting, 3 Ordnance, 4 End phase. The
text's rules live in ``ordnance`` (salvos launched, moved 30 cm and turned up
to 45°, turret fire and the to-hit roll in base contact), ``teleport`` (the
end-phase attack and every reason it is refused) and ``hitrun`` (the D6, the
critical hits table, an escort destroyed by a critical, repair); ``turn`` keeps
the phases and what the game master enters from the table (special orders,
distances in cm, shields, hits from shooting). ``units`` holds what is read of
ships and defences (hits, crippled, shields). The numbers the text refers to
but does not give are shipped default TOML tables in ``tables/`` (see
``TABLES.md``), replaceable through ``setup.options.tables``.

Options (``setup.options``): ``distance`` (cm between every pair of enemies at
the start, default 60), ``distances`` (cm for named pairs, ``"a|b" = 8``),
``tables`` (replacement table files by name).
"""

from __future__ import annotations

from engine.errors import BadTable
from engine.ruleset import Param, Ruleset, StepView, UnitKind
from engine.tables import table_files

from . import hitrun, ordnance, teleport, turn  # noqa: F401  (they register their actions)
from .catalogue import CATALOGUE, PHASE_WORDS, PHASES
from .corrections import RULES as CORRECTION_RULES
from .tables import TABLE_SET, load_tables
from .units import (DEFAULT_DISTANCE, MAX_CM, defence_profile, defence_state, destroy, moot_rolls_dropped, pair,
                    vessel_state, why_defence_fielded, why_defence_side)


#: The order the console lists the actions in: the turn's own order, the next phase last.
ACTION_ORDER = ("special_orders", "set_distance", "salvo_distance", "shields", "record_hits", "launch", "move_salvo",
                "meet_stand", "teleport", "repair", "next")
assert sorted(ACTION_ORDER) == sorted(CATALOGUE.actions)
CATALOGUE.actions = {name: CATALOGUE.actions[name] for name in ACTION_ORDER}


def _cm(value, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_CM:
        raise BadTable(f"{where}: expected centimetres (a whole number 0..{MAX_CM}), got {value!r}")
    return value


class Gothic(Ruleset):
    id = "gothic"
    name = "Battlefleet Gothic boarding, teleport and planetary defences"
    catalogue = CATALOGUE
    table_set = TABLE_SET
    correction_rules = CORRECTION_RULES
    sides_allowed = (2, None)
    #: What a correction plays out (``after_correction``); an earlier reading turns the later fixes off.
    destroys_at_no_hits = True   # since 8662736: hits corrected to 0 destroy the vessel
    rereads_criticals = True     # since then: a critical's corrected roll applies the corrected row
    drops_moot_rolls = True      # since session 28: rolls waiting on a vessel a correction destroyed are not asked
    follows_repairs = True       # since session 31: a repair die waiting follows its critical as corrected

    def check_unit(self, kind: UnitKind, unit: dict, where: str) -> None:
        if kind.id == "defence":
            defence_profile(unit, load_tables(), where)

    def why_not_fielded(self, kind: UnitKind, unit: dict, fielded: list, side_names: dict[str, str]) -> str:
        """A defence after another side's defences is refused as ``new_state`` refuses it (``units``)."""
        if kind.id != "defence":
            return ""
        defences = {str(i): u for i, (k, u) in enumerate(fielded) if k.id == "defence"}
        return why_defence_fielded(defences, unit["name"], unit["side"], side_names)

    def after_correction(self, state: dict, path: tuple, ctx=None, was=None) -> None:
        """Values that follow from a corrected one, as play would have made them: a ship or defence whose hits are
        corrected to 0 is destroyed, as losing its last hit destroys it (found by a drive: an escort at 0/1
        stayed in play); a critical whose roll is corrected takes back the old row and applies the new one
        (``hitrun.reread_critical``; a drive found the old row still in force); a repair die waiting follows its
        critical as corrected (``hitrun.repairs_follow_corrections``)."""
        note = ctx.note if ctx is not None else (lambda text: None)
        if len(path) == 3 and path[0] in ("ships", "defences") and path[2] == "hits" and self.destroys_at_no_hits:
            v = state[path[0]].get(path[1])
            if isinstance(v, dict) and v["hits"] == 0 and not v["destroyed"]:
                note(destroy(state, path[1], "no hits left"))
        elif (len(path) == 5 and path[0] in ("ships", "defences") and path[2] == "criticals" and path[4] == "roll"
              and path[1] in state[path[0]] and self.rereads_criticals):
            hitrun.reread_critical(state, path[1], path[3], self.tables_for(state), note)
        if self.drops_moot_rolls and state["pending"]:
            moot_rolls_dropped(state, note)
        if self.follows_repairs and state["pending"]:
            hitrun.repairs_follow_corrections(state, note)

    def earlier_readings(self) -> tuple[Ruleset, ...]:
        """Saves written before the corrections above played out, or before a table corrected whole played out the
        values inside it (``Ruleset.plays_out_inside_tables``), hold their older results; newest first (the first:
        everything but a repair die following its corrected critical)."""
        return (_Reading(True, True, True, inside_tables=True), _Reading(True, True, True), _Reading(True, False),
                _Reading(False, False))

    def new_state(self, setup) -> dict:
        files = table_files(setup.options)
        tables = load_tables(files or None)
        ships = {uid: vessel_state(s, s["class"]) for uid, s in setup.ships.items()}
        defences = {uid: defence_state(d, tables, f"setup.defences.{uid}")
                    for uid, d in setup.units.get("defences", {}).items()}
        earlier: dict = {}
        for uid, d in defences.items():  # the first defence listed names the defending side
            why = why_defence_side(earlier, uid, d["side"], {s["id"]: s["name"] for s in setup.sides})
            if why:
                raise BadTable(f"setup.defences.{uid}: {why}")
            earlier[uid] = d
        start = _cm(setup.options.get("distance", DEFAULT_DISTANCE), "setup.options.distance")
        everyone = {**ships, **defences}
        ids = list(everyone)
        distances = {pair(a, b): start for i, a in enumerate(ids) for b in ids[i + 1:]
                     if everyone[a]["side"] != everyone[b]["side"]}
        named = setup.options.get("distances", {})
        if not isinstance(named, dict):
            raise BadTable('setup.options.distances: expected a table of "a|b" = centimetres')
        for key, cm in named.items():
            a, _, b = str(key).partition("|")
            if a not in everyone or b not in everyone or everyone[a]["side"] == everyone[b]["side"]:
                raise BadTable(f"setup.options.distances.{key}: expected two enemy ids joined by |, as \"a|b\"")
            distances[pair(a, b)] = _cm(cm, f"setup.options.distances.{key}")
        return {
            "turn": 1, "phase": 1,
            "side_order": [s["id"] for s in setup.sides],
            "side_names": {s["id"]: s["name"] for s in setup.sides},
            "ships": ships, "defences": defences, "ordnance": {}, "next_salvo": 0,
            "spent_salvos": {},  # each spent salvo's name by id, for the log (``former_name``)
            "distances": distances,
            "distances_entered": [],  # vessels with a distance entered this turn (``units.note_distance_entered``)
            "table_files": dict(files),
        }

    def setup_options(self) -> tuple[Param, ...]:
        return (Param("distance", "Starting distance in cm between enemies", "int", minimum=0, maximum=MAX_CM),)

    # --- reading the state -----------------------------------------------------------

    def former_name(self, state: dict, uid: str) -> str:
        kept = state.get("spent_salvos")
        name = kept.get(uid, "") if isinstance(kept, dict) else ""
        return name if isinstance(name, str) else ""

    def checklist(self, state: dict) -> list[StepView]:
        return turn.checklist(state, self.tables_for(state))

    def header(self, state: dict) -> str:
        return f"Turn {state['turn']} · phase {state['phase']}/{len(PHASES)} {PHASE_WORDS[state['phase']]}"

    def unit_line(self, state: dict, kind: UnitKind, uid: str) -> tuple[str, float]:
        from . import views
        return views.unit_line(state, kind, uid, self.tables_for(state))

    def unit_panels(self, state: dict, kind: UnitKind, uid: str) -> dict[str, list[tuple[str, str]]]:
        from . import views
        return views.unit_panels(state, kind, uid, self.tables_for(state))

    def roll_help(self, state: dict, request) -> list[str]:
        from . import views
        return views.roll_help(state, request, self.tables_for(state))


class _Reading(Gothic):
    """Gothic as an earlier version read a log: only for a loaded save's [state] (``Ruleset.earlier_readings``).
    None let a waiting repair die follow its corrected critical or kept the values a table corrected whole gives
    (``Ruleset.keeps_given_values``); all but the latest (``inside_tables``) handed a table corrected whole to
    ``after_correction`` by its own path alone."""

    keeps_given_values = False

    def __init__(self, destroys_at_no_hits: bool, rereads_criticals: bool, drops_moot_rolls: bool = False,
                 inside_tables: bool = False) -> None:
        self.destroys_at_no_hits, self.rereads_criticals = destroys_at_no_hits, rereads_criticals
        self.drops_moot_rolls, self.plays_out_inside_tables = drops_moot_rolls, inside_tables
        self.follows_repairs = False


RULESET = Gothic()
