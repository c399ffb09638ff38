"""What one side of a fight knows: the players' screen (``flagbridge watch``).

The console shows the referee everything: every ship's full state and the
referee's own rolls. The players may see their own units in full (as
``Ruleset.own_panels`` words them), the other sides' units only as far as the
rules let them (``Ruleset.side_view``), and the log with what they may not
know left out (``Ruleset.log_seen``, one tier per event). A ruleset without a ``sideview`` module gets the safe defaults here:
its own units, nothing of the others, no roll beyond what it was for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .encounter import Encounter, Event, note_sections
from .recap import Entry
from .rolls import RollRequest, RollResult
from .state import plain_copy, thaw

#: The players' screen shows the log of the last so many events.
LOG_EVENTS = 500

#: How much of a logged event a side sees.
FULL = "full"  # the line as the console logs it, and the effects noted after it
OUTCOME = "outcome"  # what it was and whether it made it (no dice, no modifiers), and the effects noted
TOTAL = "total"  # what it was and the total it came to, told aloud (no dice, no modifiers), and the effects noted
RESULT = "result"  # what it was and whether it made it, without the effects noted
BARE = "bare"  # what it was, nothing of its result
NOTES = "notes"  # only the effects noted after it (a secret roll whose outcome the side learns)
HIDDEN = "hidden"  # nothing at all
TIERS = (FULL, OUTCOME, TOTAL, RESULT, BARE, NOTES, HIDDEN)


@dataclass(frozen=True)
class Contact:
    """Another side's unit as this side knows it: its name and labelled facts, nothing more."""

    uid: str
    name: str
    known: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SideView:
    """One side's picture of the fight: its own units (shown in full), the contacts it has, and lines
    about the fight it may see (ranges, who has the initiative)."""

    side: str
    name: str
    own: tuple[str, ...]
    contacts: tuple[Contact, ...] = ()
    notes: tuple[str, ...] = ()
    unseen: str = ""  # what the list leaves out, in the rules' words ("2 undetected")


def side_name(state: dict, side: str) -> str:
    return str(state.get("side_names", {}).get(side, side))


def unit_side(ruleset: Any, state: dict, uid: str) -> str:
    """The side a unit fights for ("" for none, or no such unit)."""
    kind = ruleset.unit_kind_of(state, uid)
    unit = state.get(kind.key, {}).get(uid, {}) if kind else {}
    return str(unit.get("side", "")) if isinstance(unit, dict) else ""


def own_units(ruleset: Any, state: dict, side: str) -> tuple[str, ...]:
    return tuple(uid for _kind, uid, unit in ruleset.units(state)
                 if isinstance(unit, dict) and unit.get("side") == side)


def own_units_only(ruleset: Any, state: dict, side: str) -> SideView:
    """The safe default: the side's own units, and nothing of anyone else's."""
    return SideView(side, side_name(state, side), own_units(ruleset, state, side))


def default_seen(ruleset: Any, state: dict, side: str, kind: str, data: dict, request: RollRequest | None) -> str:
    """Actions are declared at the table (seen); a correction is seen when it is to the side's own unit;
    a roll shows only what it was for, and a secret one nothing."""
    if kind == "roll":
        return HIDDEN if request is None or request.secret or data.get("secret") is True else BARE
    if kind == "correction":
        path = data.get("path") or []
        return FULL if len(path) >= 2 and unit_side(ruleset, state, str(path[1])) == side else HIDDEN
    return FULL


def seen_in_the_open(ruleset: Any, state: dict, side: str, kind: str, data: dict,
                     request: RollRequest | None) -> str:
    """For rules played in the open (every action declared, every die rolled where all see it): the
    whole log, but a correction follows the default (seen only when it is to the side's own unit)."""
    if kind == "correction":
        return default_seen(ruleset, state, side, kind, data, request)
    return FULL


def checked_tier(tier: str) -> str:
    """A ruleset's answer, where a mistake hides rather than shows."""
    return tier if tier in TIERS else HIDDEN


def judged(answer: Any, purpose: str) -> tuple[str, str]:
    """``log_seen`` answers a tier, or a tier and the words to name the event by (when its purpose or
    arguments name something the side may not know); a mistake hides."""
    if isinstance(answer, tuple) and len(answer) == 2:
        return checked_tier(answer[0]), str(answer[1])
    return checked_tier(answer), purpose


def _lines(enc: Encounter, ev: Any, answer: Any, notes: list[str]) -> list[str]:
    """The event's lines at its tier; ``notes``: its notes as the side may read them (``Ruleset.notes_seen``)."""
    tier, purpose = judged(answer, str(ev.data.get("purpose", "")))
    if tier == HIDDEN:
        return []
    if tier == NOTES:
        return notes
    if ev.kind != "roll":
        head = [purpose if isinstance(answer, tuple) else enc.describe(ev)]
    elif tier == FULL:  # dice and modifiers in full, named by the ruleset's words when it gave them
        named = Event(ev.kind, ev.group, ev.at, {**ev.data, "purpose": purpose}) if isinstance(answer, tuple) else ev
        head = [enc.describe(named)]
    elif tier == TOTAL:
        head = [f"{purpose}: {_total(ev)}"]
    else:
        made = ev.data.get("success")
        result = "" if tier == BARE or not isinstance(made, bool) else (": success" if made else ": failure")
        head = [f"{purpose}{result}" if result else f"{purpose}: rolled"]
    return head + (notes if tier in (FULL, OUTCOME, TOTAL) else [])


def _total(ev: Any) -> int:
    """What a logged roll came to, modifiers included: as the roll event keeps it (``roll_event_data``), or
    worked out again for an event written before it kept its total."""
    total = ev.data.get("total")
    if type(total) is int:
        return total
    request = RollRequest.from_plain(ev.data)
    return RollResult(request, ev.data["natural"], tuple(ev.data.get("faces", ())), ev.data["source"]).total


def side_log(enc: Encounter, side: str, last: int | None = None) -> list[Entry]:
    """The log as ``side`` may read it: one entry per group, each event at the tier its ruleset allows, and the
    notes a rule set apart as about something else (``RuleContext.about``) as the ruleset's ``notes_about`` allows.

    ``last``: only the last so many events (replayed from the encounter's
    nearest checkpoint, so a long fight costs no more than a short one). A
    roll's secrecy is read from the request it answered as the rules ask it
    now, so a save written before a roll was marked secret still hides it.
    """
    out: list[Entry] = []
    rs = enc.ruleset
    first = 0 if last is None else max(0, len(enc.events) - last)
    base = max(n for n in enc._checkpoints if n <= first)
    kept = enc._checkpoints[base]  # kept frozen (pickled) by the encounter
    state = thaw(kept) if isinstance(kept, bytes) else plain_copy(kept)
    for i, ev in enumerate(enc.events[base:], base):
        replayed = Event(ev.kind, ev.group, ev.at, ev.data)
        if i >= first:
            request = RollRequest.from_plain(state["pending"][0]) if ev.kind == "roll" and state["pending"] else None
            own, asides = note_sections(ev)
            notes = rs.notes_seen(state, side, ev.data, request, list(own)) if own else []
            lines = _lines(enc, ev, rs.log_seen(state, side, ev.kind, ev.data, request), notes)
            for subject, said in asides:  # read as what they are about, whatever the side reads of the event
                lines += rs.notes_about(state, side, subject, list(said))
            if lines and out and out[-1].group == ev.group:
                out[-1].details.extend(lines)
            elif lines:
                out.append(Entry(ev.group, ev.at.strftime("%Y-%m-%d %H:%M"), ev.kind, lines[0], lines[1:]))
        enc._apply(state, replayed, check=False)  # the state before the next event
    return out


def waiting(enc: Encounter, side: str) -> str:
    """What the fight waits for, as ``side`` may know it."""
    request = enc.pending
    if request is None:
        return ""
    # a roll the side may not see reads as the referee's, whoever it is for: "another side" told the players
    # that an enemy was using its sensors (passive sensors give no sign of it)
    if request.secret:
        return "waiting for the referee"
    tier, purpose = judged(enc.ruleset.log_seen(enc.state, side, "roll", {}, request), request.purpose)
    if tier in (HIDDEN, NOTES):
        return "waiting for the referee"
    return f"waiting for a roll: {purpose}"


@dataclass
class Picture:
    """Everything the players' screen shows, worked out from one encounter for one side."""

    title: str
    where: str
    step: str
    waiting: str
    view: SideView
    own: list[tuple[str, str, dict[str, list[tuple[str, str]]]]] = field(default_factory=list)
    log: list[Entry] = field(default_factory=list)
    earlier: int = 0  # events before the log shown (the referee's count: shown to no side, hidden ones are in it)


def picture(enc: Encounter, side: str) -> Picture:
    """The side's view of ``enc`` now: header, current step, what it waits for, units, log."""
    rs, state = enc.ruleset, enc.state
    view = rs.side_view(state, side)
    current = next((s for s in enc.checklist() if s.status == "current"), None)
    step = f"step {current.number}: {current.label}" if current else ""
    where = rs.header(state)
    if current and current.label in where:  # the header already names the step
        step = ""
    own = []
    for uid in view.own:
        kind = rs.unit_kind_of(state, uid)
        if kind is None:
            continue
        line, _condition = rs.unit_line(state, kind, uid)
        own.append((uid, line, rs.own_panels(state, side, kind, uid)))
    return Picture(f"{enc.setup.name} · {rs.name}", where, step, waiting(enc, side), view, own,
                   side_log(enc, side, LOG_EVENTS), max(0, len(enc.events) - LOG_EVENTS))
