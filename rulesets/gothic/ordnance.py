"""Ordnance: torpedo and boarding-torpedo salvos as markers, launched, moved, and their attack.

Source: ``gothic-boarding-teleport.ru.txt``, boarding torpedoes: they "may be
launched like ordinary torpedoes, but not together with them"; a boarding
torpedo "moves 30 cm each ordnance phase" and "may make one turn of up to 45°
(measured from the centre of the marker) at the start of each ordnance phase";
when they come into base contact "turrets may fire at them"; survivors "roll to
hit as ordinary torpedoes", but "each torpedo that hits makes a hit-and-run
attack instead of damage".

What the text leaves to the rest of the game, and our readings:

- Salvos are launched in the shooting phase from a ship whose tubes are loaded
  (a ship reloads with the Reload Ordnance special order); the strength is at
  most the tubes' strength. The game master enters the distance from the salvo
  to its target as placed.
- In the ordnance phase the game master moves each salvo once and enters its new
  distance to the target: it cannot close more than its move (30 cm for boarding
  torpedoes; ordinary torpedoes at the ``ordnance`` table's speed, and they do not
  turn). A salvo at 0 cm is in base contact and attacks at once.
- A move may instead end in base contact with another enemy stand the salvo
  meets on its way ("в базовый контакт с подставкой": any stand, ``may_meet``
  says why only an enemy's); it attacks that vessel as it would its target.
- In contact, each of the touched vessel's turrets rolls a D6 and destroys one
  torpedo on the ``ordnance`` table's number; each survivor rolls a D6 to hit,
  needing the number for that vessel's armour. An ordinary torpedo that hits
  knocks down a shield that is up, or else takes a hit; a boarding torpedo that
  hits makes a hit-and-run attack whatever the shields (the text names shields
  only for teleports). The salvo is spent by its attack.
"""

from __future__ import annotations

from engine.actions import Action, Choice, Param
from engine.rolls import Target
from engine.ruleset import RuleContext

from . import hitrun
from .catalogue import (CATALOGUE, TARGET_PARAM, chosen_vessel, vessel_choices, vessel_words, why_no_vessel,
                        why_phase)
from .tables import Tables
from .units import (MAX_CM, afloat, distance, lose_hits, note_distance_entered, salvo_spent_words, spend_salvo,
                    turrets_now, vessel, vessels)

#: "Управляемая торпеда проходит 30 см за каждую стадию ordnance"
BOARDING_MOVE_CM = 30
#: "могут совершить один поворот в 45°"
BOARDING_TURN_DEGREES = 45
KINDS = {"torpedoes": "Torpedoes", "boarding": "Boarding torpedoes"}


def move_cm(salvo: dict, tables: Tables) -> int:
    return BOARDING_MOVE_CM if salvo["kind"] == "boarding" else tables.torpedo_speed_cm


# --- launching -----------------------------------------------------------------------------------

def _launchers(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(uid, vessel_words(state, uid)) for uid, v in afloat(state).items() if v["torpedoes"]]


def _strengths(state: dict, args: dict, tables) -> list[str]:
    uid = args.get("vessel", "")
    if why_no_vessel(state, uid):
        return []
    return [str(n) for n in range(vessel(state, uid)["torpedoes"], 0, -1)]  # the full salvo first


def _kinds(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(k, _kind_words(state, args, tables, k)) for k in KINDS]


def _kind_words(state: dict, args: dict, tables, kind: str) -> str:
    return KINDS[kind]


def may_launch(state: dict, args: dict, tables: Tables) -> str:
    why, v = chosen_vessel(state, args, 2, "Torpedoes are launched")
    if why or v is None:
        return why
    if not v["torpedoes"]:
        return f"{v['name']} has no torpedo tubes"
    if v["launched"]:
        return f"{v['name']} has launched a salvo this turn"
    if not v["loaded"]:
        return f"{v['name']}'s tubes are empty (reload with the Reload Ordnance special order)"
    kinds = args.get("kinds")
    if kinds is not None:
        if not isinstance(kinds, list) or not kinds or any(k not in KINDS for k in kinds):
            return "choose torpedoes or boarding torpedoes"
        if len(kinds) > 1:
            return ("a salvo carries one kind of torpedo: boarding torpedoes are never launched in the same salvo as "
                    "ordinary torpedoes")
        if kinds == ["boarding"] and not v["boarding_torpedoes"]:
            return f"{v['name']} carries no boarding torpedoes"
    if "target" in args:
        why = why_no_vessel(state, args["target"])
        if why:
            return why
        if vessel(state, args["target"])["side"] == v["side"]:
            return f"{vessel(state, args['target'])['name']} is on {v['name']}'s own side"
    strength = args.get("strength")
    if strength is not None and not 1 <= strength <= v["torpedoes"]:
        return f"{v['name']}'s salvo strength is 1 to {v['torpedoes']}"
    if "target" in args and isinstance(args.get("distance"), int):
        # the salvo is placed touching the launching ship, so it starts no farther from the target than the ship
        apart = distance(state, args["vessel"], args["target"])
        if apart is not None and args["distance"] > max(apart, 1):  # in base contact: the form's least, 1 cm
            return (f"{vessel(state, args['target'])['name']} is {apart} cm from {v['name']}: a salvo launched at it "
                    f"starts at most {apart} cm away (d enters the distance again if they have moved)")
    return ""


def launch(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    v, t = vessel(state, args["vessel"]), vessel(state, args["target"])
    kind = args["kinds"][0]
    state["next_salvo"] += 1
    taken = vessels(state)
    while f"salvo-{state['next_salvo']}" in taken:  # a ship named "Salvo 1" is salvo-1: the salvo takes the next
        state["next_salvo"] += 1
    sid = f"salvo-{state['next_salvo']}"
    state["ordnance"][sid] = {
        "side": v["side"], "name": f"{KINDS[kind]} {args['strength']} from {v['name']}", "kind": kind,
        "owner": args["vessel"], "strength": args["strength"], "target": args["target"],
        "distance": args["distance"], "moved": False, "turned": 0, "launched_turn": state["turn"],
    }
    v["launched"] = True
    v["loaded"] = False
    ctx.note(f"{v['name']} launches {KINDS[kind].lower()} (strength {args['strength']}) at {t['name']}, "
             f"{args['distance']} cm away")


CATALOGUE.add(Action("launch", "Launch torpedoes", launch, key="l", may=may_launch, params=(
    Param("vessel", "Launching ship or defence", "choice", options=_launchers, said="ship or defence"),
    # a list, as saves since the first keep it: the question asks for the load, and a mix is refused with why
    Param("kinds", "Load", "multi", options=_kinds, words=_kind_words),
    Param("strength", "Salvo strength", "int", options=_strengths, minimum=1, maximum=30),
    TARGET_PARAM,
    Param("distance", "Distance from the salvo to its target (cm)", "int", minimum=1, maximum=MAX_CM,
          said="distance {} cm"),
)))


# --- moving in the ordnance phase -------------------------------------------------------------------

def salvo_named(state: dict, sid: str) -> str:
    """A salvo as the reminders and the log name it: its name, and its target's too when another salvo in
    flight has the same name (a defence reloads each turn and launches "Torpedoes 4 from Kessel Platform" again).
    The name itself stays: older saves' salvos replay to theirs."""
    o = state["ordnance"][sid]
    twins = sum(1 for other in state["ordnance"].values() if other["name"] == o["name"])
    return f"{o['name']} -> {vessel(state, o['target'])['name']}" if twins > 1 else o["name"]


def _salvo_words(state: dict, args: dict, tables, sid: str) -> str:
    return salvo_named(state, sid)


def _salvos(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(sid, f"{o['name']} -> {vessel(state, o['target'])['name']}, {o['distance']} cm")
            for sid, o in state["ordnance"].items() if not o["moved"]]


def moving(state: dict, args: dict) -> tuple[str, dict | None]:
    """The start of every salvo move's ``may``, whatever the move ends on (a distance to its target, another
    stand): the ordnance phase, a salvo in flight not yet moved this phase, and its turn. A reason to refuse, or
    "" and the salvo (None while none is chosen yet)."""
    why = why_phase(state, 3, "Salvos move")
    if why:
        return why, None
    if not state["ordnance"]:
        return "no salvo in flight", None
    if "salvo" not in args:
        return "", None
    o = state["ordnance"].get(args["salvo"]) if isinstance(args["salvo"], str) else None
    if o is None:
        return f"no salvo {args['salvo']!r} in flight", None
    if o["moved"]:
        return f"{o['name']} has moved this ordnance phase", None
    turn = args.get("turn")
    if isinstance(turn, int):
        if o["kind"] != "boarding" and turn:
            return "ordinary torpedoes move straight: only boarding torpedoes may turn", None
        if turn > BOARDING_TURN_DEGREES:
            return f"a boarding torpedo turns at most {BOARDING_TURN_DEGREES}° at the start of the phase", None
    return "", o


def may_move(state: dict, args: dict, tables: Tables) -> str:
    why, o = moving(state, args)
    if why or o is None:
        return why
    after = args.get("distance")
    reach = move_cm(o, tables)
    if isinstance(after, int) and after < o["distance"] - reach:
        return (f"{o['name']} moves {reach} cm: from {o['distance']} cm it cannot come "
                f"closer than {o['distance'] - reach} cm")
    # "проходит 30 см за каждую стадию ordnance" (first paragraph) and no target moves in this phase: a salvo ends
    # its move no more than its move's length from where it was, nearer or farther
    if isinstance(after, int) and after > o["distance"] + reach:
        return (f"{o['name']} moves {reach} cm: from {o['distance']} cm it cannot end farther than "
                f"{o['distance'] + reach} cm")
    return ""


def move(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    o = state["ordnance"][args["salvo"]]
    o["moved"] = True
    o["turned"] = args["turn"]
    before, o["distance"] = o["distance"], args["distance"]
    ctx.note(moved_words(o["name"], args["turn"], before, o["distance"], vessel(state, o["target"])["name"]))
    if o["distance"] == 0:
        contact(state, args["salvo"], tables, ctx)


def moved_words(name: str, turn: int, before: int, after: int, target: str) -> str:
    """A salvo's move as the log says it: the distance it covered, not the most it may (a drive read "moves 30
    cm: 8 -> 0" for a salvo that went 8 cm); a target that drew away leaves the salvo farther."""
    turned = f" turns {turn}° and" if turn else ""
    if after == 0:
        return f"{name}{turned} closes {before} cm on {target} and reaches base contact"
    if after < before:
        return f"{name}{turned} closes {before - after} cm on {target}: {after} cm away now (was {before} cm)"
    if after == before:
        return f"{name}{turned} ends its move {after} cm from {target}, as far as before"
    return (f"{name}{turned} ends its move {after} cm from {target}, {after - before} cm farther than before "
            f"(was {before} cm)")


#: What every move of a salvo asks first, whatever it ends on (``moving`` judges both).
MOVING_PARAMS = (
    Param("salvo", "Salvo", "choice", options=_salvos, words=_salvo_words),
    # optional: only a boarding torpedo turns, so Enter (straight on) is the usual answer, and an ordinary salvo's
    Param("turn", "Turn first (degrees; Enter or 0 = straight, only boarding torpedoes turn)", "int", minimum=0,
          maximum=180, optional=True, default=0, said="turn first {}°"),
)
CATALOGUE.add(Action("move_salvo", "Move salvo", move, key="m", may=may_move, params=(
    *MOVING_PARAMS,
    Param("distance", "Distance to its target after the move (cm, 0 = base contact)", "int",
          minimum=0, maximum=MAX_CM, said="distance after the move {} cm"),
)))


# --- meeting another stand on the way ------------------------------------------------------------

def may_meet(state: dict, args: dict, tables: Tables) -> str:
    """A salvo's move ends in base contact with a stand other than its target's: "Если управляемые торпеды
    перемещаются в базовый контакт с подставкой, по ним могут произвести стрельбу турелли" (first paragraph) names
    any stand the torpedoes move into, not the one they were launched at, so a salvo passing over another vessel
    meets it. Only an enemy's: the text's assault teams, "после того, как торпеда пробьет корпус, высаживаются
    внутрь корабля противника", land in the enemy's ship, and a hit-and-run by one's own teams on one's own ship
    is nothing the text describes. Ordinary torpedoes, whose contact the boarding torpedo's copies ("всё как у
    обычных торпед"), meet the same stands: the text says nothing of them hitting their own side, and they are
    launched at enemies alone (``may_launch``). The move's limits are the move's (``moving``). How far the stand
    was from the salvo is known only on its first move, when the salvo still stands beside the ship that launched
    it (``may_launch`` places it there, and nothing moves between the shooting and the ordnance phase): a stand
    farther from that ship than the move is out of reach. Later the table sees it (only distances between enemy
    vessels are kept)."""
    why, o = moving(state, args)
    if why or o is None:
        return why
    if "stand" not in args:
        return _none_in_reach(state, args["salvo"], o, tables)
    why = why_no_vessel(state, args["stand"])
    if why:
        return why
    v = vessel(state, args["stand"])
    if args["stand"] == o["target"]:
        return f"{v['name']} is its target: move it to 0 cm (m)"
    if v["side"] == o["side"]:
        return (f"{v['name']} is on the salvo's own side: "
                + ("boarding teams land in an enemy's ship" if o["kind"] == "boarding"
                   else "a salvo meets the stands of the enemies it is launched at"))
    apart = _beyond_first_move(state, o, args["stand"], tables)
    if apart is not None:
        return (f"{v['name']} is {apart} cm from {vessel(state, o['owner'])['name']}, which launched {o['name']} this "
                f"turn: its {move_cm(o, tables)} cm move cannot reach it")
    return ""


def _beyond_first_move(state: dict, o: dict, uid: str, tables: Tables) -> int | None:
    """How far stand ``uid`` is from the ship that launched ``o`` this turn, when that is more than its move
    (``may_meet``); None when it is within reach, or the salvo has moved before and the table sees its reach."""
    if o.get("launched_turn") != state["turn"]:
        return None
    apart = distance(state, o["owner"], uid)
    return apart if apart is not None and apart > move_cm(o, tables) else None


def _none_in_reach(state: dict, sid: str, o: dict, tables: Tables) -> str:
    """A salvo on its first move with no enemy stand but its target in reach is refused as a whole, with why
    (the console said only "no salvo can be chosen now")."""
    stands = [uid for uid, v in afloat(state).items() if v["side"] != o["side"] and uid != o["target"]]
    if o.get("launched_turn") != state["turn"] or not stands \
            or any(_beyond_first_move(state, o, uid, tables) is None for uid in stands):
        return ""
    owner = vessel(state, o["owner"])["name"]
    return (f"{salvo_named(state, sid)} stands beside {owner} on its first move, and no enemy stand but its target "
            f"is within its {move_cm(o, tables)} cm move of it (d enters a distance)")


def meet_stand(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    o = state["ordnance"][args["salvo"]]
    turned = f" turns {args['turn']}° and" if args["turn"] else ""
    ctx.note(f"{o['name']}{turned} comes into base contact with {vessel(state, args['stand'])['name']} on its way to "
             f"{vessel(state, o['target'])['name']} ({o['distance']} cm from it before the move)")
    contact(state, args["salvo"], tables, ctx, args["stand"])


CATALOGUE.add(Action("meet_stand", "Salvo meets a stand", meet_stand, key="b", may=may_meet, params=(
    *MOVING_PARAMS,
    Param("stand", "Stand it comes into base contact with on its way (an enemy's)", "choice",
          options=vessel_choices, said="meets {}"),
)))


# --- a salvo's distance as its target moves ---------------------------------------------------------

def _in_flight(state: dict, args: dict, tables) -> list[Choice]:
    return [Choice(sid, f"{o['name']} -> {vessel(state, o['target'])['name']}, {o['distance']} cm")
            for sid, o in state["ordnance"].items()]


def may_salvo_distance(state: dict, args: dict, tables: Tables) -> str:
    """Only ships move in the movement phase, so only then does a salvo's distance change without its own move:
    in the ordnance phase the salvo closes by moving, at most 30 cm ("30 см за каждую стадию ordnance", first
    paragraph), and no one moves in the other phases (a distance measured wrong is a correction, c)."""
    if not state["ordnance"]:
        return "no salvo in flight"
    why = why_phase(state, 1, "A salvo's distance changes as its target moves")
    if why:
        return why + ("; a salvo closes by its own move (m)" if state["phase"] == 3 else "")
    sid = args.get("salvo")
    if sid is not None and (not isinstance(sid, str) or sid not in state["ordnance"]):
        return f"no salvo {sid!r} in flight"
    if sid is not None and args.get("distance") == state["ordnance"][sid]["distance"]:
        return f"{state['ordnance'][sid]['name']} is already {args['distance']} cm from its target"
    return ""


def salvo_distance(state: dict, args: dict, tables: Tables, ctx: RuleContext) -> None:
    """The target moved: the salvo's distance to it, 0 for contact."""
    o = state["ordnance"][args["salvo"]]
    before, o["distance"] = o["distance"], args["distance"]
    note_distance_entered(state, o["target"])
    target = vessel(state, o["target"])["name"]
    ctx.note(f"{o['name']} is now in base contact with {target} (was {before} cm away)" if not o["distance"]
             else f"{o['name']} is now {o['distance']} cm from {target} (was {before} cm)")
    if o["distance"] == 0:
        contact(state, args["salvo"], tables, ctx)


CATALOGUE.add(Action("salvo_distance", "Salvo distance", salvo_distance, key="a", may=may_salvo_distance, params=(
    Param("salvo", "Salvo", "choice", options=_in_flight, words=_salvo_words),
    Param("distance", "Distance to its target now (cm, 0 = base contact)", "int", minimum=0, maximum=MAX_CM,
          said="distance now {} cm"),
)))


# --- the attack in base contact ---------------------------------------------------------------------

def contact(state: dict, sid: str, tables: Tables, ctx: RuleContext, stand: str = "") -> None:
    """The salvo reaches a stand's base, its target's or (``stand``) another's its move met: that vessel's turrets
    fire, then survivors roll to hit it. The marker is spent. The attack names the vessel it is on as its
    ``target``, whichever stand it is, and marks a stand met (``units.salvo_spent_words`` names it)."""
    o = spend_salvo(state, sid)
    uid = stand or o["target"]
    t = vessel(state, uid)
    turrets = turrets_now(t)
    ctx.note(f"{o['name']} in base contact with {t['name']}: {turrets} turret{'s fire' if turrets != 1 else ' fires'} "
             f"at {o['strength']} torpedo{'es' if o['strength'] != 1 else ''}")
    attack = {"salvo": sid, "name": o["name"], "kind": o["kind"], "target": uid,
              "source": f"boarding torpedo from {vessel(state, o['owner'])['name']}",
              "turrets": turrets, "alive": o["strength"], "to_roll": 0 if turrets else o["strength"],
              "hits": 0}
    if stand:
        attack["met"] = True  # only then: the attacks of saves from before stands could be met read as they did
    proceed(state, attack, tables, ctx)


def proceed(state: dict, attack: dict, tables: Tables, ctx: RuleContext) -> None:
    """The next roll of a salvo's attack: a turret, then each surviving torpedo, until it is done."""
    t = vessel(state, attack["target"])
    if t["destroyed"]:
        ctx.note(salvo_spent_words(attack, t))
        return
    if attack["turrets"] and attack["alive"]:
        ctx.request_roll(f"Turret fire: {t['name']} at {attack['name']} "
                         f"({attack['turrets']} turret{'s' if attack['turrets'] != 1 else ''} to fire)",
                         "D6", target=Target(tables.turret_needs), then="turret_shot", context=attack)
        return
    if attack["to_roll"]:
        needs = tables.to_hit[t["armour"]]
        ctx.request_roll(f"Torpedo to hit {t['name']} (armour {t['armour']}, {attack['to_roll']} to roll)",
                         "D6", target=Target(needs), then="torpedo_hit", context=attack)
        return
    ctx.note(f"{attack['name']}: {attack['hits']} hit{'s' if attack['hits'] != 1 else ''} of "
             f"{attack['alive']} surviving the turrets")


def target_gone(state: dict, attack: dict, ctx: RuleContext) -> bool:
    """A roll of a salvo's attack asked before a correction destroyed its target (a critical's corrected row took
    its last hits, its hits corrected to 0): it finds nothing to hit, and the rest of the salvo is spent, as
    ``proceed`` says of a target destroyed by the attack itself."""
    t = vessel(state, attack["target"])
    if not t["destroyed"]:
        return False
    ctx.note(salvo_spent_words(attack, t))
    return True


@CATALOGUE.continuation("turret_shot")
def turret_shot(state: dict, result, tables: Tables, ctx: RuleContext) -> None:
    attack = dict(result.request.context)
    if target_gone(state, attack, ctx):
        return
    t = vessel(state, attack["target"])
    if not turrets_now(t):  # a critical corrected since the contact silences them: the rest of their fire is off
        silenced = next(c["name"] for c in t["criticals"] if c["effect"] == "turrets")
        ctx.note(f"{t['name']}'s turrets are silenced ({silenced}): the shot is not fired")
        attack["turrets"], attack["to_roll"] = 0, attack["alive"]
        return proceed(state, attack, tables, ctx)
    attack["turrets"] -= 1
    if result.success:
        attack["alive"] -= 1
        ctx.note(f"Turret destroys a torpedo: {attack['alive']} left")
    if not attack["turrets"] or not attack["alive"]:
        attack["to_roll"] = attack["alive"]
    proceed(state, attack, tables, ctx)


@CATALOGUE.continuation("torpedo_hit")
def torpedo_hit(state: dict, result, tables: Tables, ctx: RuleContext) -> None:
    attack = dict(result.request.context)
    if target_gone(state, attack, ctx):
        return
    attack["to_roll"] -= 1
    if not result.success:
        return proceed(state, attack, tables, ctx)
    attack["hits"] += 1
    t = vessel(state, attack["target"])
    if attack["kind"] == "boarding":
        ctx.note(f"A boarding torpedo hits {t['name']}: a hit-and-run attack instead of damage")
        return hitrun.start(state, ctx, attack)
    if t["shields_up"]:
        t["shields_up"] -= 1
        ctx.note(f"A torpedo hits {t['name']}'s shields: {t['shields_up']} of {t['shields']} up")
    else:
        for text in lose_hits(state, attack["target"], 1):
            ctx.note(text)
    proceed(state, attack, tables, ctx)


def reminders(state: dict, tables: Tables) -> list[str]:
    """What the ordnance phase still needs: each salvo not yet moved."""
    left = [sid for sid, o in state["ordnance"].items() if not o["moved"]]
    if state["phase"] != 3 or not left:
        return []
    return [f"move {salvo_named(state, sid)} {move_cm(state['ordnance'][sid], tables)} cm"
            + (f" (may first turn up to {BOARDING_TURN_DEGREES}° from the marker's centre)"
               if state["ordnance"][sid]["kind"] == "boarding" else "") for sid in left]

