"""percentile: personal combat for crews and boarders, from ``rules/percentile-personal-combat.txt``.

People (one unit kind) fight round by round through the text's steps: check
for surprise, primary attack, players' action in sub-turns, percent to hit and
damage; the game master picks one procedure of each step for the encounter
(``setup.options``, see ``catalogue.OPTIONS``). The round is in ``turn``,
attacks and damage in ``combat``, what damage does to a body part in
``wounds``, characters in ``people``, the rise in alertness an attack owes and
who sleeps in ``alertness``, and the procedure ship rulesets call for
their crew hits in ``crew``. The tables the text names but does not print are
TOML files in ``tables/`` (shipped defaults a game master may replace through
``setup.options.tables``); characters are TOML files in ``people/``.

A side may carry ``alertness`` (its Alertness Percentage, surprise procedure
2) and ``joins_later = true`` (it comes into the fight with ``j``); a person
may carry ``asleep = true`` (woken with ``z``).
"""

from __future__ import annotations

from engine.errors import BadTable
from engine.ruleset import Param, Ruleset, StepView, UnitKind
from engine.tables import table_files

from . import turn, combat, crew  # noqa: F401  (they register their actions and procedures)
from .catalogue import CATALOGUE, read_options
from .corrections import RULES as CORRECTION_RULES
from .people import check_person, person_state
from .tables import TABLE_SET, load_tables
from .corrected import Reading, play_out


class Percentile(Ruleset):
    id = "percentile"
    name = "Percentile personal combat"
    catalogue = CATALOGUE
    table_set = TABLE_SET
    correction_rules = CORRECTION_RULES
    sides_allowed = (2, None)
    #: What a host's "attributes reduced to 0" may take of a person (``crew.ATTRIBUTES``): read by classic-hg.
    drained_attributes = crew.ATTRIBUTES
    #: What a correction plays out (``after_correction``); an earlier reading turns the later fixes off.
    rederives_race = True  # a corrected race brings its average Agility
    reorders_rolls = True  # a corrected order of sides takes the primary attack rolls with it
    rereads_wounds = True  # a body part's or a wound's corrected damage reads the wound again
    parts_follow_wounds = True  # a part's damage and points and its wounds' points follow each other (see above)
    reads_slight_wounds = True  # a wound hit or read again at a percentage that rounds to 0 reads its first band
    moves_wounds = True  # a wound corrected to another body part takes its points there
    keeps_percent_by_hand = True  # a wound's percentage typed by hand stands until the wound's own points change

    def check_unit(self, kind: UnitKind, unit: dict, where: str) -> None:
        check_person(unit, load_tables(), where)

    def new_state(self, setup) -> dict:
        files = table_files(setup.options)
        tables = load_tables(files or None)
        options = read_options(setup.options)
        people = {}
        for pid, person in setup.people.items():
            check_person(person, tables, f"setup.people.{pid}")
            people[pid] = person_state(person, tables)
        alertness, joined = {}, []
        for i, side in enumerate(setup.sides):
            a = side.get("alertness", 50)
            if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a <= 100:
                raise BadTable(f"setup.sides[{i}].alertness: expected a whole number 0..100, got {a!r}")
            later = side.get("joins_later", False)
            if not isinstance(later, bool):
                raise BadTable(f"setup.sides[{i}].joins_later: expected true or false, got {later!r}")
            alertness[side["id"]] = a
            if not later:
                joined.append(side["id"])
        if len(joined) < 2:
            raise BadTable("setup.sides: at least two sides must be in the fight from the start")
        return {
            "round": 1, "step": "surprise" if options["surprise"] else "primary",
            "subturn": 1, "acting": 0, "order": [], "round_order": [], "sole": "", "passed": False,
            "primary_rolls": {}, "primary_ties": {}, "primary_done": False,
            "surprise_rolls": {}, "surprise_side": "", "surprise_round": False, "quiet_rounds": 0,
            "contact_lost": False,
            "attacks_this_round": 0, "joined": joined, "alertness": alertness, "alert_owed": [],
            "side_order": [s["id"] for s in setup.sides],
            "side_names": {s["id"]: s["name"] for s in setup.sides},
            "options": options, "people": people, "table_files": dict(files),
        }

    def setup_options(self) -> tuple[Param, ...]:
        return (
            Param("surprise", "Surprise procedure (0 none, 1-3)", "int", minimum=0, maximum=3),
            Param("primary", "Primary attack procedure (1-3)", "int", minimum=1, maximum=3),
            Param("primary_each_round", "With primary attack 3, the procedure rolled each round", "choice",
                  choices=("1", "2"), default="1"),
            Param("action", "Action procedure (1: no Agility Points counted; 2: Agility Points by Table 3-6)",
                  "choice", choices=("1", "2"), default="2"),
            Param("to_hit", "Percent to hit procedure (1-3)", "int", minimum=1, maximum=3),
            Param("damage", "Damage procedure (1-3)", "int", minimum=1, maximum=3),
            Param("subturns", "Sub-turns a turn is cut into (1: none)", "int", minimum=1, maximum=20),
            Param("borrowing", "Agility Points may be borrowed from the next turn (3:1)", "choice",
                  choices=("yes", "no"), default="yes"),
            Param("grazing", "Grazing shots", "choice", choices=("yes", "no"), default="no"),
            Param("organs", "Organ system damage", "choice", choices=("yes", "no"), default="no"),
        )

    def setup_option_asked(self, name: str, options: dict) -> bool:
        """The procedure primary attack 3 rolls each round is asked only with primary attack 3, and borrowing only
        when Agility Points are counted (action procedure 2)."""
        if name == "primary_each_round":
            return options.get("primary") == 3
        if name == "borrowing":
            return options.get("action", 2) != 1
        return True

    def describe_action(self, name: str, args: dict) -> str:
        """Log lines in the game master's words for the actions taken most ("Marr attacks Skarr with ..."); the
        choices come named as the form named them (``Param.words``)."""
        if name == "attack":
            extra = f", adversity {', '.join(map(str, args['adversity']))}" if args.get("adversity") else ""
            near = args.get("with_target")  # a grenade's bystanders, caught by the blast too
            near = [str(n) for n in near] if isinstance(near, (list, tuple)) else []
            if near:
                names = near[0] if len(near) == 1 else f"{', '.join(near[:-1])} and {near[-1]}"
                extra = f", {names} standing with the target{extra}"
            return (f"attack: {args.get('person')} at {args.get('target')} with the {args.get('weapon')}, "
                    f"{args.get('range')} m, aimed at the {str(args.get('aim', '')).replace('_', ' ')}{extra}")
        if name == "move":
            times = f" x{args['times']}" if args.get("times", 1) != 1 else ""
            return f"move: {args.get('person')}, {args.get('what')}{times}"
        return super().describe_action(name, args)

    def after_correction(self, state: dict, path: tuple, ctx=None, was=None) -> None:
        """A corrected order of sides takes the primary attack rolls with it (``turn.order_corrected``); a
        corrected body part decides again whether its person is dead (a vital part without function), its
        corrected damage is its wounds' (``wounds.part_damage_corrected``: a new one of no stated type when it has
        none) and its corrected points say again what share of it each wound is (``wounds.part_points_corrected``);
        a wound's corrected damage reads it again (``wounds.reread_wound``) and its points are its part's damage
        (``wounds.part_follows_wounds``), played out as the part's own correction, and a wound moved to another part
        takes its points there (``wounds.wound_moved``); a corrected race brings its
        average Agility to a person whose file left the Agility to the race (``people.race_corrected``), and an
        Agility corrected by hand is the person's own from then on."""
        if len(path) == 2 and path[0] == "order" and self.reorders_rolls:
            said = turn.order_corrected(state)
            if said and ctx is not None:
                ctx.note(said)
        self.person_corrected(state, path, self.tables_for(state), ctx, self.people_reading(), was=was)

    def people_reading(self) -> Reading:
        """How this fight reads its people, corrected or hit (``corrected.Reading``): by today's rules, or as an
        earlier version did for a save it wrote (``earlier_readings``)."""
        return Reading(self.rereads_wounds, self.parts_follow_wounds, self.rederives_race, self.reads_slight_wounds,
                       self.moves_wounds, self.keeps_percent_by_hand)

    def person_corrected(self, state: dict, path: tuple, tables, ctx=None, reading: Reading = Reading(),
                         was=None) -> None:
        """What follows from a person's corrected value (``corrected.FOLLOWS``: a rule for each kind of path), with
        ``tables`` the people are read by: the fight's own, or the shipped ones for the crew of a ship fight that
        calls this ruleset (classic-hg), and the fight's ``reading`` of them (its ``people_reading``: saves of the
        versions before hold them as those read them). ``was``: the value the correction replaced."""
        play_out(state, path, tables, ctx, reading, was)

    def checklist(self, state: dict) -> list[StepView]:
        return turn.checklist(state)

    def header(self, state: dict) -> str:
        if state["step"] == "over":
            return f"Round {state['round']} · the fight is over"
        side = turn.acting_side(state)
        text = f"Round {state['round']} · {dict(turn.STEPS)[state['step']]}"
        if side:
            text += f" · sub-turn {state['subturn']}/{state['options']['subturns']} · {state['side_names'][side]}"
        return text

    def unit_line(self, state: dict, kind: UnitKind, uid: str) -> tuple[str, float]:
        from . import views
        return views.unit_line(state, kind, uid, self.tables_for(state))

    def unit_panels(self, state: dict, kind: UnitKind, uid: str) -> dict[str, list[tuple[str, str]]]:
        from . import views
        return views.unit_panels(state, kind, uid, self.tables_for(state))

    def roll_help(self, state: dict, request) -> list[str]:
        """Under the dice prompt; a roll of a procedure another ruleset's fight called reads the shipped tables
        (``guest_tables``), as the procedure did."""
        from . import views
        return views.roll_help(state, request, self.guest_tables() if ":" in request.then else self.tables_for(state))

    def earlier_readings(self) -> tuple[Ruleset, ...]:
        """Saves written before a wound of damage under the first band, hit or corrected, read that band, a wound
        moved to another part took its points there and a percentage typed by hand stood, before that before a
        part's damage followed its wounds' corrected points, before that before a corrected damage read the wounds
        again, before that before a table corrected whole played out the values inside it
        (``Ruleset.plays_out_inside_tables``), and before that before a corrected race brought its average Agility
        and a corrected order its rolls, hold the older results; newest first."""
        return (_Reading(True, True, True, True), _Reading(True, True, True), _Reading(True, True),
                _Reading(False, True), _Reading(False, False))


class _Reading(Percentile):
    """Percentile as an earlier version read a log: only for a loaded save's [state]
    (``Ruleset.earlier_readings``). No earlier version read a wound under the first band (hit or corrected), moved a
    wound's points with it, kept its percentage typed by hand or kept the values a table corrected whole gives
    (``Ruleset.keeps_given_values``)."""

    reads_slight_wounds = moves_wounds = keeps_percent_by_hand = keeps_given_values = False

    def __init__(self, plays_out_inside_tables: bool, plays_out_single_values: bool,
                 rereads_wounds: bool = False, parts_follow_wounds: bool = False) -> None:
        self.plays_out_inside_tables = plays_out_inside_tables
        self.rederives_race = self.reorders_rolls = plays_out_single_values
        self.rereads_wounds = rereads_wounds
        self.parts_follow_wounds = parts_follow_wounds


RULESET = Percentile()
