"""classic-hg: Classic Traveller High Guard-style ship combat, from ``rules/classic-hg-combat.txt``.

A fight is between two sides of one or more ships, walked through the text's
nine steps each turn. Every action is declared once in ``actions``; the
procedures live in ``turn`` (steps, initiative, range), ``fire`` (offensive
and defensive fire, torpedoes, break-off, ramming), ``damage`` (armor,
locations, effects) and ``phases`` (moving on, reprogramming); the numbers the text names but does
not print are TOML tables in ``tables/`` (shipped defaults a game master may
replace, see ``TABLES.md``); ships are TOML files in ``ships/``.
"""

from __future__ import annotations


from engine.actions import Param
from engine.ruleset import Ruleset, StepView, find_ruleset
from engine.tables import table_files

from . import actions, damage, turn  # noqa: F401  (actions fills the catalogue)
from .catalogue import CATALOGUE
from .fire import attack_fault, use_corrected
from .corrections import RULES as CORRECTION_RULES, crew_rules
from .construction import check_ship as check_construction
from .ships import SPENT, TURRET_FIELDS, ship_state
from .tables import TABLE_SET, load_tables



class CorrectionRules:
    """``Ruleset.correction_rules`` for classic-hg: the ship values' limits, then the crew's, percentile's, put
    together when first asked (``corrections.crew_rules``: the console opens without loading percentile)."""

    rules: tuple | None = None

    def __get__(self, obj, owner=None) -> tuple:
        if CorrectionRules.rules is None:
            CorrectionRules.rules = CORRECTION_RULES + crew_rules()
        return CorrectionRules.rules


class ClassicHG(Ruleset):
    id = "classic-hg"
    name = "Classic Traveller High Guard-style combat"
    catalogue = CATALOGUE
    table_set = TABLE_SET
    correction_rules = CorrectionRules()
    recap_ignores = ("used", SPENT)  # a turret's use this turn, and the energy it spent
    sides_allowed = (2, 2)
    #: crew hits may be resolved by personal combat (``damage.crew_combat_state``)
    uses = ("percentile",)

    #: What a correction plays out (``after_correction``); the earlier readings turn it off.
    plays_out_crew = True
    rereads_crew_wounds = True  # a crew member's corrected damage reads the wounds again
    crew_parts_follow_wounds = True  # a crew member's corrected wound is the damage of its part
    crew_reads_slight_wounds = True  # a crew member's wound hit or read again under the first band reads that band
    crew_moves_wounds = True  # a crew member's wound corrected to another part takes its points there
    crew_keeps_percent_by_hand = True  # a crew member's wound percentage typed by hand stands

    def after_correction(self, state: dict, path: tuple, ctx=None, was=None) -> None:
        """A corrected value of the crew personal combat met (``people``) plays out as it does in a percentile
        fight, by the shipped tables that combat reads (a chest corrected to no function kills, a wound says what
        its corrected damage does). A turret's use corrected takes the energy it spent with it (``fire.use_corrected``)."""
        if path and path[0] == "people" and self.plays_out_crew:
            guest = find_ruleset("percentile")
            guest.person_corrected(state, path, guest.guest_tables(), ctx, self.people_reading(), was=was)
        elif len(path) == 5 and path[0] == "ships" and path[2] == "turrets" and path[4] == "used":
            use_corrected(state["ships"][path[1]]["turrets"][path[3]], self.tables_for(state))

    def people_reading(self):
        """How this fight reads the crew its personal combat meets, corrected or hit (percentile's
        ``corrected.Reading``, which percentile's rules ask of the fight that calls them): by today's rules, or as an
        earlier version did for a save it wrote (``earlier_readings``)."""
        from rulesets.percentile.corrected import Reading

        return Reading(rereads_wounds=self.rereads_crew_wounds, parts_follow_wounds=self.crew_parts_follow_wounds,
                       reads_slight_wounds=self.crew_reads_slight_wounds, moves_wounds=self.crew_moves_wounds,
                       keeps_percent_by_hand=self.crew_keeps_percent_by_hand)

    def earlier_readings(self) -> tuple[Ruleset, ...]:
        """Saves written before a crew member's wound under the first band, hit or corrected, read that band, one
        moved to another part took its points there and a percentage typed by hand stood, before that before a crew
        member's part followed the wounds corrected, before that before a crew member's corrected damage read the
        wounds again, and before that before a crew member's correction played out at all, hold the older results;
        newest first."""
        return (_Reading(True, True, True), _Reading(True, True), _Reading(True), _Reading(False))

    def recap_more(self, before: dict, after: dict) -> list[str]:
        """The crew personal combat killed, wounded or took attributes from (``damage.casualties``); their
        attributes are the whole-number fields the people's own ruleset declares for a person."""
        if not after.get("people"):
            return []
        return damage.casualties(before, after, damage.person_attributes())

    # --- setup and tables -----------------------------------------------------------

    def setup_options(self) -> tuple[Param, ...]:
        """A new encounter resolves crew hits by personal combat unless the game master keeps them as
        records (a fight saved without the option keeps records, as it was played)."""
        return (Param("crew_combat", "Crew hits", "choice", choices=(damage.PERSONAL, damage.RECORDS)),)

    def check_ship(self, ship: dict, where: str, tables=None) -> None:
        """A ship file against the shipped tables; a fight's ship against the fight's own (a house weapons table
        with another tray or weapon is the one it is built and fought by)."""
        from engine.schema import validate

        ship["turrets"] = [validate(t, TURRET_FIELDS, f"{where}.turrets[{i}]")
                           for i, t in enumerate(ship["turrets"])]
        check_construction(ship, tables if tables is not None else load_tables(), where)

    def new_state(self, setup) -> dict:
        files = table_files(setup.options)
        tables = load_tables(files or None)
        ships = {}
        for sid, ship in setup.ships.items():
            self.check_ship(ship, f"setup.ships.{sid}", tables)
            s = ship_state(ship, ship["side"], tables.torpedo_tube["tray"])
            s["storage"] = ship["computer_storage"] or int(tables.computers[ship["computer_model"]]["storage"])
            s["library"] = sorted(set(ship["program_library"]) | set(ship["programs"]))
            s["fired"] = False
            s["rammed"] = False
            ships[sid] = s
        return damage.crew_combat_state(setup) | {
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

    def start_fault(self, state: dict) -> str:
        return attack_fault(state)

    def checklist(self, state: dict) -> list[StepView]:
        return turn.checklist(state)

    def header(self, state: dict) -> str:
        label = dict(turn.STEPS)[state["step"]]
        text = f"Turn {state['turn']} · step {state['step']}/9 {label} · range: {state['range']}"
        return text + (f" · {state['over']}" if state["over"] else "")


class _Reading(ClassicHG):
    """classic-hg as an earlier version read a log: only for a loaded save's [state] (``Ruleset.earlier_readings``).
    No earlier version read a crew member's wound under the first band (hit or corrected), moved a wound's points
    with it, kept its percentage typed by hand or kept the values a table corrected whole gives
    (``Ruleset.keeps_given_values``)."""

    crew_reads_slight_wounds = crew_moves_wounds = crew_keeps_percent_by_hand = keeps_given_values = False

    def __init__(self, plays_out_crew: bool, rereads_crew_wounds: bool = False,
                 crew_parts_follow_wounds: bool = False) -> None:
        self.plays_out_crew = plays_out_crew
        self.rereads_crew_wounds = rereads_crew_wounds
        self.crew_parts_follow_wounds = crew_parts_follow_wounds


RULESET = ClassicHG()
