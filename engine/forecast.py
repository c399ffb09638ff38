"""Forecast: the rest of a fight played out many times by each side's doctrine, by the fight's own rules.

A game master asks, before the players commit, how a fight is likely to go.
Each simulated fight starts from a copy of the saved state and is played by the
ruleset's ``Commander`` (its doctrine module) through the same contract the
console uses: ``check_action`` and ``apply_action`` for every decision (a
commander whose values come from the rules' own offers, ``offers_checked``, has
them judged by the action's ``may`` alone), the seeded dice layer for every roll
and ``resolve_roll`` for what follows. No rule is copied here; the engine only keeps the order rolls are answered in, as the
``Encounter`` does (an action's rolls wait in turn; the rolls a result asks for
come first).

Reproducible whatever the core count: fight ``i`` of a forecast with seed ``S``
rolls dice seeded from ``(S, i)`` alone, and results are gathered by index, so
one worker and many give the same numbers. The save is never written: the
forecast works on a copy of its state.
"""

from __future__ import annotations

import gc
import hashlib
import multiprocessing
import os
import random
import sys
import threading
import tomllib
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .actions import filled_args
from .errors import BadTable, IllegalAction
from .rolls import RollRequest, RollResult
from .ruleset import Outcome, RuleContext, Ruleset, _LAZY, find_ruleset, register_lazy
from .state import freeze, plain_copy, thaw

#: Turns a simulated fight may last past the saved one (that turn counts as the first); a fight
#: still going then is counted as unfinished, a draw.
TURN_CAP = 30
#: Decisions one simulated turn may take before the fight is called stuck (a doctrine that loops).
DECISIONS_PER_TURN = 2_000
MAX_FIGHTS = 1_000_000

Progress = Callable[[int, int], None]


def fight_seed(seed: int, index: int) -> int:
    """The dice seed of fight ``index``: from the forecast's seed and the index alone, never worker order."""
    digest = hashlib.blake2b(f"flagbridge-forecast:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


# --- doctrines ----------------------------------------------------------------------------------

def load_doctrine(ruleset: Ruleset, name: str) -> tuple[str, dict]:
    """A doctrine by name (``doctrines/NAME.toml`` of the ruleset) or by the path of a game master's own
    file: (its name, its checked settings). Raises BadTable naming the file and the entry at fault."""
    known = ruleset.doctrines()
    path = known.get(name)
    if path is None:
        if not name.endswith(".toml"):
            listed = ", ".join(sorted(known)) or "none"
            raise BadTable(f"doctrine {name!r}: {ruleset.id} has no such doctrine (known: {listed})")
        path = Path(name)
    try:
        with open(path, "rb") as fh:
            doc = tomllib.load(fh)
    except OSError as exc:
        raise BadTable(f"{path}: cannot read the doctrine ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise BadTable(f"{path}: not TOML ({exc})") from None
    header = doc.get("doctrine")
    if not isinstance(header, dict) or header.get("ruleset") != ruleset.id:
        raise BadTable(f"{path}: doctrine.ruleset: expected {ruleset.id!r}, got "
                       f"{header.get('ruleset') if isinstance(header, dict) else None!r}")
    return str(header.get("name") or path.stem), ruleset.check_doctrine(doc, str(path))


def pick_doctrines(ruleset: Ruleset, sides: list[str], picked: dict[str, str]) -> dict[str, tuple[str, dict]]:
    """Each side's doctrine: the one the game master picked for it, else the ruleset's default."""
    unknown = [s for s in picked if s not in sides]
    if unknown:
        raise BadTable(f"--doctrine {unknown[0]}: no such side (sides: {', '.join(sides)})")
    default = ruleset.default_doctrine()
    if not default:
        raise BadTable(f"{ruleset.id} has no forecast doctrines")
    return {side: load_doctrine(ruleset, picked.get(side) or default) for side in sides}


# --- one simulated fight ---------------------------------------------------------------------------

@dataclass(frozen=True)
class FightResult:
    """How one simulated fight ended: its winner ("" for none), the turns it took, who was still in it."""

    index: int
    winner: str
    finished: bool
    turns: int
    survived: tuple[str, ...]


class FightRoller:
    """The built-in dice of one simulated fight: one stream seeded by the fight's own seed.

    The console's ``SeededRoller`` seeds a generator per roll (so undo cannot fish for better dice),
    which costs more than the rule a roll resolves; a simulated fight is never undone, so its rolls
    come from one stream, still the same faces every time for the same fight seed.
    """

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed).random
        self.dice: dict = {}  # parsed dice by notation: a fight rolls a handful of notations hundreds of times

    def answer(self, request: RollRequest, index: int) -> RollResult:
        found = self.dice.get(request.dice)
        if found is None:
            dice = request.parsed
            plus = dice.plus if dice.scale == 1 else None  # unscaled: the value is the natural total plus it
            found = self.dice[request.dice] = (dice, dice.sides, dice.count, plus)
        dice, sides, count, plus = found
        draw = self.random
        if count == 1:  # the usual dice, drawn without a generator (the same draws in the same order)
            natural = 1 + int(draw() * sides)
            faces: tuple[int, ...] = (natural,)
        elif count == 2:
            faces = (1 + int(draw() * sides), 1 + int(draw() * sides))
            natural = faces[0] + faces[1]
        else:
            faces = tuple(1 + int(draw() * sides) for _ in range(count))
            natural = sum(faces)
        # the total kept as ``RollResult.total`` works it out (the dice's value plus ``modifier_total``, its
        # modifiers added in a plain loop here), with the dice already parsed: rules read it often
        total = natural + plus if plus is not None else dice.value(natural)
        for m in request.modifiers:
            total += m.value
        return RollResult.with_total(request, natural, faces, "roller", total)


class Playout:
    """One simulated fight: the ruleset's contract applied to a copy of the state, rolls by seeded dice.

    ``record`` keeps each decision and roll (``("action", name, args)`` / ``("roll", faces)``), so a test
    can feed them to a real ``Encounter`` and see the same fight. ``frozen``: ``state`` as ``engine.state.freeze``
    keeps it, when the caller has it (a forecast freezes its saved state once for all its fights, and each
    fight thaws its own copy: the same copy ``plain_copy`` makes, for half its cost).
    """

    def __init__(self, ruleset: Ruleset, state: dict, seed: int, record: bool = False,
                 held: dict | None = None, frozen: bytes | None = None) -> None:
        self.ruleset = ruleset
        self.state = plain_copy(state) if frozen is None else thaw(frozen)
        self.roller = FightRoller(seed)
        self.rolls = 0
        self.group = 0
        self.record: list[tuple] | None = [] if record else None
        #: Set by ``run`` from the commander's ``offers_checked``: a doctrine that builds every value from
        #: the rule's own offers, in their checked form, has its choices judged by ``may`` alone (the kind
        #: checks would find every value among the offers it was taken from).
        self.offers_checked = False
        #: Set by ``run``: the commander, when it says which of its choices ``may`` has already passed
        #: (its ``vouched``: the very arguments object it asked about, on this state); such a choice is
        #: not judged a second time.
        self.voucher = None
        # The fight's tables, looked up once (they cannot change within it); fights of one forecast share them.
        self.held: dict = {} if held is None else held
        # The pending rolls as requests, beside their plain form in the state (which rules may read):
        # each request is built once, not read back from its plain form when its turn comes.
        self.queue = [RollRequest.from_plain(p) for p in self.state["pending"]]
        self.resumptions: dict[str, tuple] = {}  # then -> (rule, owner, its tables): ``Ruleset.resumption``

    def act(self, name: str, args: dict) -> None:
        state, rs = self.state, self.ruleset
        ctx = RuleContext(self.group + 1, [], [], rs, "", "", state, self.held)  # ``RuleContext.fresh``, one call less
        if self.offers_checked:  # the values came from the rule's own offers: its ``may`` alone judges them
            action = rs.catalogue.get(name)
            checked = filled_args(action, args)
            vouched = self.voucher is not None and self.voucher.vouched is args and checked == args
            why = "" if vouched else action.may(state, checked, ctx.tables_of(rs, False))
            if why:
                raise IllegalAction(why)
        else:
            checked = rs.check_action(state, name, args)  # refused here, with the rule's reason
        self.group += 1
        rs.apply_action(state, name, args, ctx, checked=checked)
        if ctx.requests:
            state["pending"].extend([r.to_plain() for r in ctx.requests])
            self.queue.extend(ctx.requests)
        if self.record is not None:
            self.record.append(("action", name, dict(args)))

    def roll(self) -> None:
        """Answer the first pending roll and resume its rule, as ``Ruleset.resolve_roll`` does, with the rule
        its ``then`` names looked up once a fight and its context made for the rule's owner at once."""
        state = self.state
        request = self.queue.pop(0)
        result = self.roller.answer(request, self.rolls)
        self.rolls += 1
        pending = state["pending"]
        del pending[0]
        then = request.then
        reply_to = str(request.context.get("reply_to", ""))
        found = self.resumptions.get(then)
        if found is None:
            owner_rs, fn, owner = self.ruleset.resumption(then)
            ctx = RuleContext.fresh(request.group, self.ruleset, state, self.held, owner, reply_to)
            # the tables are the fight's (held for all of it): looked up with the rule
            found = self.resumptions[then] = (fn, owner, ctx.tables_of(owner_rs, bool(owner)))
        fn, owner, tables = found
        ctx = RuleContext(request.group, [], [], self.ruleset, owner, reply_to, state, self.held)  # as ``fresh``
        fn(state, result, tables, ctx)
        requests = ctx.requests
        if requests:  # a result's own rolls come first
            pending[0:0] = [r.to_plain() for r in requests]
            self.queue[0:0] = requests
        if self.record is not None:
            self.record.append(("roll", result.faces))

    def run(self, commander, turn_cap: int = TURN_CAP) -> tuple[bool, int]:
        """Play until the fight is over or past the cap: (finished, turns fought from the saved turn)."""
        rs, state = self.ruleset, self.state
        self.offers_checked = bool(getattr(commander, "offers_checked", False))
        self.voucher = commander if self.offers_checked and hasattr(commander, "vouched") else None
        module = rs._doctrine()
        # over and turn, before every decision: the doctrine's quick answer, or the outcome's
        progress = getattr(module, "progress", None) or rs.progress
        first = progress(state)[1]
        last = first + turn_cap - 1
        decisions, turn_now = 0, first
        while True:
            if state["pending"]:
                self.roll()
                continue
            over, turn = progress(state)
            if over:
                return True, turn - first + 1
            if turn > last:
                return False, turn_cap
            if turn != turn_now:
                turn_now, decisions = turn, 0
            decisions += 1
            choice = commander.decide(state) if decisions <= DECISIONS_PER_TURN else None
            if choice is None:  # nothing left to decide, or a doctrine going round in circles
                return False, turn - first + 1
            self.act(*choice)


# --- a forecast: many fights ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Scenario:
    """What every worker needs to play fights from a saved state (plain, so it crosses to processes)."""

    ruleset_id: str
    state: dict
    tables: dict
    folder: str | None
    doctrines: dict[str, dict]
    registry: dict[str, str] = field(default_factory=dict)

    def prepare(self) -> Ruleset:
        """The ruleset, found and with the fight's tables pinned, in a worker process (read from the
        table files as they are now: a file edited since the save was opened is read as edited)."""
        for rid, target in self.registry.items():
            register_lazy(rid, target)
        rs = find_ruleset(self.ruleset_id)
        if rs.table_set is not None:
            rs.table_set.pin(self.tables or None, Path(self.folder) if self.folder else None)
        load_guests(rs)
        return rs


def load_guests(rs: Ruleset) -> None:
    """The rulesets whose procedures the fight calls (``uses``), imported and their tables read now rather
    than in the middle of a worker's first fight; done before the workers fork, they find them loaded."""
    for rid in rs.uses:
        find_ruleset(rid).guest_tables()


def play_fights(scenario: Scenario, start: int, stop: int, seed: int, turn_cap: int = TURN_CAP,
                prepared: Ruleset | None = None) -> list[FightResult]:
    """Fights ``start`` to ``stop - 1`` of a forecast with ``seed`` (a fresh commander for each: a
    doctrine may remember what it did earlier in its own fight)."""
    rs = prepared or scenario.prepare()
    out = []
    held: dict = {}
    frozen = freeze(scenario.state)  # copied for each fight from here
    for i in range(start, stop):
        play = Playout(rs, scenario.state, fight_seed(seed, i), held=held, frozen=frozen)
        finished, turns = play.run(rs.commander(scenario.doctrines), turn_cap)
        end = rs.outcome(play.state)
        out.append(FightResult(i, end.winner if finished else "", finished, turns,
                               tuple(u for u, alive in end.survived.items() if alive)))
    return out


_PREPARED: dict[int, tuple[Scenario, Ruleset]] = {}


def _worker_init(scenario: Scenario) -> None:
    """A worker's ruleset: a forked one finds its parent's, tables and all (the very scenario object came
    with the fork); a spawned one prepares it afresh. What the worker holds now lives as long as it does:
    frozen, the collector never walks it again (nor copies the parent's pages to count it)."""
    if _PREPARED.get(0, (None,))[0] is not scenario:
        _PREPARED[0] = (scenario, scenario.prepare())
    gc.freeze()


def fight_spans(fights: int, workers: int) -> list[tuple[int, int]]:
    """The fights cut into spans for the workers: large while many are left (fewer hand-offs), smaller
    towards the end, so that no worker is left with a long span while the others wait."""
    spans, start = [], 0
    while start < fights:
        size = max(2, min(50, (fights - start) // (workers * 4)))
        spans.append((start, min(start + size, fights)))
        start = spans[-1][1]
    return spans


def _worker_chunk(start: int, stop: int, seed: int, turn_cap: int) -> list[FightResult]:
    scenario, prepared = _PREPARED[0]
    return play_fights(scenario, start, stop, seed, turn_cap, prepared)


@dataclass
class Forecast:
    """The fights of one forecast and what they say: chances of winning, turns, each unit's survival."""

    ruleset_id: str
    seed: int
    turn_cap: int
    sides: dict[str, str]  # id -> name
    doctrines: dict[str, str]  # side id -> doctrine name
    units: dict[str, tuple[str, str]]  # unit id -> (name, side id)
    fights: list[FightResult]
    #: What the ruleset calls one of the fight's turns (its doctrine module's ``TURN_WORD``): "round" in percentile.
    turn_word: str = "turn"
    #: How the fight had already ended when the forecast was asked (``already_over``): then no fight was played.
    ended: Outcome | None = None

    @property
    def count(self) -> int:
        return len(self.fights)

    def win_chance(self, side: str) -> float:
        return sum(1 for f in self.fights if f.winner == side) / self.count if self.fights else 0.0

    def draw_chance(self) -> float:
        """Fights no side won: unfinished at the turn cap, or ended with no winner."""
        return sum(1 for f in self.fights if not f.winner) / self.count if self.fights else 0.0

    def expected_turns(self) -> float:
        return sum(f.turns for f in self.fights) / self.count if self.fights else 0.0

    def survival(self, unit: str) -> float:
        return sum(1 for f in self.fights if unit in f.survived) / self.count if self.fights else 0.0

    def lengths(self) -> dict[int, int]:
        """Fights by the turns they lasted (the cap holds the unfinished ones too), shortest first."""
        return dict(sorted(Counter(f.turns for f in self.fights).items()))

    def ended_words(self) -> str:
        """What a forecast of a fight already over says: that it is over, and who won."""
        if self.ended is None:
            return ""
        winner = self.sides.get(self.ended.winner, self.ended.winner)
        return (f"the fight is already over: {f'{winner} won' if winner else 'no side won'} "
                "(every fight from here ends the same; none was simulated)")

    def lines(self) -> list[str]:
        """The forecast in words, for the command line."""
        if self.ended is not None:
            return [self.ended_words()]
        turns = f"{self.turn_word}s"
        out = [f"{self.count} simulated fights, seed {self.seed}, at most {self.turn_cap} {turns} each"]
        for side, name in self.sides.items():
            out.append(f"{name}: wins {self.win_chance(side):.1%} (doctrine {self.doctrines.get(side, '?')})")
        unfinished = sum(1 for f in self.fights if not f.finished)
        out.append(f"no winner: {self.draw_chance():.1%} ({unfinished} unfinished at the {self.turn_word} cap or stuck)")
        out.append(f"expected {turns}: {self.expected_turns():.2f} (the saved {self.turn_word} counts as the first; "
                   f"an unfinished fight counts {self.turn_cap})")
        for side, name in self.sides.items():
            for uid, (uname, uside) in self.units.items():
                if uside == side:
                    out.append(f"  {uname} ({name}): survives {self.survival(uid):.1%}")
        return out


def scenario_of(encounter, picked: dict[str, str] | None = None) -> tuple[Scenario, dict[str, str]]:
    """A scenario from an open encounter (never changed) and the doctrine names used per side. A roll the
    save waits for is rolled in each fight like any other."""
    rs = encounter.ruleset
    if rs.outcome(encounter.state) is None:
        raise BadTable(f"{rs.id} has no forecast (no doctrine module)")
    chosen = pick_doctrines(rs, rs.side_ids(encounter.state), picked or {})
    from .tables import table_files

    folder = encounter.folder
    scenario = Scenario(rs.id, plain_copy(encounter.state), dict(table_files(encounter.setup.options)),
                        str(folder) if folder is not None else None,
                        {side: settings for side, (_, settings) in chosen.items()}, dict(_LAZY))
    return scenario, {side: name for side, (name, _) in chosen.items()}


def _context():
    """Fork while this process runs one thread (quick); spawn when it runs more (the console's
    worker thread): forking a threaded process may copy a lock another thread holds, so workers start afresh."""
    if threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    _start_resource_tracker()
    return multiprocessing.get_context("spawn")


def _start_resource_tracker() -> None:
    """Spawned workers need multiprocessing's resource tracker, which hands it this process's stderr.
    A terminal app replaces ``sys.stderr`` with a capture that has no file descriptor (Textual's gives
    -1, which the tracker cannot pass on), so it is started with the real one."""
    from multiprocessing import resource_tracker

    try:
        usable = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if usable or sys.__stderr__ is None:
        resource_tracker.ensure_running()
        return
    kept, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = kept


def count_problem(fights: int, turn_cap: int, words: tuple[str, str] = ("fights", "turn cap")) -> str:
    """Why a forecast cannot play ``fights`` fights of at most ``turn_cap`` turns ("" when it can), each named by
    ``words`` (the command line names its options)."""
    if not 1 <= fights <= MAX_FIGHTS:
        return f"{words[0]}: expected 1 to {MAX_FIGHTS}, got {fights}"
    if turn_cap < 1:
        return f"{words[1]}: expected 1 or more, got {turn_cap}"
    return ""


def already_over(encounter) -> Outcome | None:
    """How the encounter's fight ended, when it is over and no roll is left to answer (None otherwise, and for a
    ruleset with no forecast): every fight played from there would end as it stands, so none need be."""
    end = encounter.ruleset.outcome(encounter.state)
    return end if end is not None and end.over and not encounter.state.get("pending") else None


def forecast(encounter, fights: int, seed: int, picked: dict[str, str] | None = None,
             workers: int | None = None, turn_cap: int = TURN_CAP, progress: Progress | None = None,
             cancelled: Callable[[], bool] | None = None) -> Forecast:
    """Play ``fights`` fights from the encounter's state on ``workers`` processes (default: every core)."""
    why = count_problem(fights, turn_cap)
    if why:
        raise BadTable(why)
    scenario, names = scenario_of(encounter, picked)
    rs = encounter.ruleset
    state = encounter.state
    units = {uid: (str(u.get("name", uid)), str(u.get("side", ""))) for _, uid, u in rs.units(state)}
    units = {uid: units[uid] for uid in rs.outcome(state).survived}
    result = Forecast(rs.id, seed, turn_cap, {s: state.get("side_names", {}).get(s, s) for s in rs.side_ids(state)},
                      names, units, [], rs.turn_word(), already_over(encounter))
    if result.ended is not None:  # said at once: no worker started, no fight played
        return result
    cores = os.cpu_count() or 1
    workers = max(1, min(workers or cores, cores, fights))  # more than a core each only wait their turn
    spans = fight_spans(fights, workers)
    done: list[FightResult] = []
    if workers == 1:
        prepared = rs  # this process already holds the fight's tables, pinned when the save was opened
        for a, b in spans:
            if cancelled is not None and cancelled():
                break
            done += play_fights(scenario, a, b, seed, turn_cap, prepared)
            if progress is not None:
                progress(len(done), fights)
    else:
        load_guests(rs)
        context = _context()
        if context.get_start_method() == "fork":  # the workers start with this process's ruleset, prepared
            _PREPARED[0] = (scenario, rs)
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_init,
                                 initargs=(scenario,)) as pool:
            futures = [pool.submit(_worker_chunk, a, b, seed, turn_cap) for a, b in spans]
            try:
                for fut in as_completed(futures):
                    done += fut.result()
                    if progress is not None:
                        progress(len(done), fights)
                    if cancelled is not None and cancelled():
                        break
            finally:
                for fut in futures:
                    fut.cancel()
                _PREPARED.clear()
    result.fights = sorted(done, key=lambda f: f.index)
    return result
