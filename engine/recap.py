"""The log told back: one entry per action, with its rolls and effects beneath it.

Used by ``flagbridge log`` (as rich text or Markdown for a campaign journal)
and by the console's Log panel.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

from .corrections import value_text
from .encounter import Encounter, states_before


@dataclass
class Entry:
    """One group of the log: what the game master did and what followed."""

    group: int
    time: str
    kind: str
    headline: str
    details: list[str] = field(default_factory=list)


def entries(enc: Encounter, start: int = 0) -> list[Entry]:
    """Entries for the events from ``start`` on (the first may continue an earlier group)."""
    out: list[Entry] = []
    for ev in enc.events[start:]:
        line = enc.describe(ev)
        if out and out[-1].group == ev.group:
            out[-1].details.append(line)
        else:
            out.append(Entry(ev.group, ev.at.strftime("%Y-%m-%d %H:%M"), ev.kind, line))
        out[-1].details.extend(ev.notes)
    return out


def period(state: dict) -> str:
    """The turn (or round) a state is in, as the log's headings name it."""
    for key in ("turn", "round"):
        if isinstance(state.get(key), int):
            return f"{key.capitalize()} {state[key]}"
    return ""


def by_turn(enc: Encounter, first: int = 0) -> list[tuple[str, list[Entry]]]:
    """The log's entries under the turn each began in; a bare ``next`` (nothing followed) is left out.

    ``first``: the entries from that event on (it must begin a group)."""
    out: list[tuple[str, list[Entry]]] = []
    events = enc.events
    for i, before in states_before(enc, first):
        ev = events[i]
        if i == first or ev.group != events[i - 1].group:
            when = period(before)
            if not out or out[-1][0] != when:
                out.append((when, []))
            out[-1][1].append(Entry(ev.group, ev.at.strftime("%Y-%m-%d %H:%M"), ev.kind, enc.describe(ev)))
        else:
            out[-1][1][-1].details.append(enc.describe(ev))
        out[-1][1][-1].details.extend(ev.notes)
    return [(when, [e for e in items if not _bare_next(e)]) for when, items in out]


def this_turn(enc: Encounter) -> tuple[str, list[Entry]] | None:
    """``by_turn``'s last turn (None for an empty log), replayed only from a checkpoint before it began.

    The recap shows the turn under way; ``by_turn`` replays the whole log for it, seconds for a long fight.
    Here the log is walked back one checkpoint's stretch at a time, each replayed once, until a group is
    found that began under another turn: the turn under way began with the group after it."""
    events = enc.events
    if not events:
        return None
    starts = [0] + [i for i in range(1, len(events)) if events[i].group != events[i - 1].group]
    now, begins, stop = None, 0, len(events)
    for base in sorted(enc.checkpoints_upto(len(events)), reverse=True):
        wanted = starts[bisect_left(starts, base): bisect_left(starts, stop)]  # groups beginning in [base, stop)
        stop = base
        if not wanted:
            continue
        want = set(wanted)
        periods = {i: period(before) for i, before in states_before(enc, base, wanted[-1] + 1) if i in want}
        if now is None:
            now = periods[wanted[-1]]  # the turn the last group began in
        for i in reversed(wanted):
            if periods[i] != now:
                return by_turn(enc, begins)[-1]
            begins = i
    return by_turn(enc, begins)[-1]


def _bare_next(e: Entry) -> bool:
    return e.kind == "action" and e.headline == "next" and not e.details


def changes(enc: Encounter, before: dict, after: dict) -> list[str]:
    """What changed for each unit between two states: 'Swift Dolan: armor factor 4 -> 2, fuel 160 -> 120'."""
    lines = []
    ignored = set(getattr(enc.ruleset, "recap_ignores", ()))
    for kind in enc.ruleset.unit_kinds:
        then, now = before.get(kind.key, {}), after.get(kind.key, {})
        for uid, unit in now.items():
            old = then.get(uid, {})
            moved = []
            for name, value in unit.items():
                if name in ignored:
                    continue
                was = old.get(name)
                if isinstance(value, (int, float, str, bool)) and was is not None and was != value:
                    moved.append(f"{name.replace('_', ' ')} {_shown(was)} -> {_shown(value)}")
                elif isinstance(value, dict) and isinstance(was, dict):  # a table of counts: the crew by location
                    moved += [f"{name.replace('_', ' ')} {key.replace('_', ' ')} {_shown(was[key])} -> {_shown(v)}"
                              for key, v in value.items() if key not in ignored and isinstance(v, (int, float, str, bool))
                              and was.get(key) is not None and was[key] != v]
                elif isinstance(value, list) and isinstance(was, list) and all(isinstance(x, dict) for x in value):
                    if len(value) > len(was):
                        more, words = len(value) - len(was), name.replace('_', ' ')
                        moved.append(f"{more} new {words[:-1] if more == 1 and words.endswith('s') else words}")
                    elif len(value) == len(was):  # a turret, a tube, a battery: what changed in each
                        moved += _parts_changed(name, was, value, ignored)
            if moved:
                lines.append(f"{unit.get('name', uid)}: " + ", ".join(moved))
            elif uid not in then:
                lines.append(f"{unit.get('name', uid)}: came into play")
    return lines + enc.ruleset.recap_more(before, after)


def _parts_changed(name: str, was: list, now: list, ignored: set) -> list[str]:
    """'turrets T4 destroyed 0 -> 2': each part of a list (named by its id or name, else its place) whose plain
    values changed (a weapon lost, a tube destroyed; found missing from the recap by a game master's drive)."""
    out = []
    for i, (a, b) in enumerate(zip(was, now)):
        if not isinstance(a, dict):
            continue
        label = b.get("id") or b.get("name") or str(i + 1)
        for key, value in b.items():
            old = a.get(key)
            if key not in ignored and isinstance(value, (int, float, str, bool)) and old is not None and old != value:
                out.append(f"{name.replace('_', ' ')} {label} {key.replace('_', ' ')} {_shown(old)} -> {_shown(value)}")
    return out


def _shown(v: object) -> str:
    """A value as the recap says it: true/false as yes/no, an empty text as "(empty)" as the log words it
    (``value_text``), not in Python's quotes."""
    return ("yes" if v else "no") if isinstance(v, bool) else value_text(v, inside=True)


def summary(enc: Encounter) -> list[str]:
    """The fight so far against its start: every unit that took damage, spent ordnance or left."""
    start = enc.start_state()
    return changes(enc, start, enc.state) or ["nothing has changed since the start"]


def markdown(enc: Encounter) -> str:
    """A recap to paste into a campaign journal: a heading per turn, then the fight's summary.

    Every text is escaped (``md_text``): names are the game master's, and a ``*`` or ``<b>`` in one is part of
    the name. Entries are bullets led by their group's number: an ordered list would be numbered afresh by
    the renderer (1, 2, 3 where the log says 1, 4, 5)."""
    s = enc.setup
    sides = "; ".join(f"{md_text(side['name'])}: " + (", ".join(md_text(name) for name in _names_of(enc, side["id"]))
                                                       or "none")
                      for side in s.sides)
    lines = [f"# {md_text(s.name)}", "", f"*{md_text(enc.ruleset.name)}* · {sides}", ""]
    where = enc.ruleset.header(enc.state)
    if where:
        lines += [f"Now: {md_text(where)}", ""]
    if not enc.events:
        return "\n".join(lines + ["(no events yet)"]) + "\n"
    for when, items in by_turn(enc):
        lines += [f"## {md_text(when or 'Log')}", ""]
        for e in items:
            lines.append(f"- **{e.group}** {md_text(e.headline)}")
            lines += [_md_detail(d) for d in e.details]
        lines.append("")
    lines += ["## Summary", ""] + [f"- {md_text(line)}" for line in summary(enc)]
    return "\n".join(lines) + "\n"


def _names_of(enc: Encounter, side: str) -> list[str]:
    """The names of a side's units at the start, of every kind the ruleset has (people, defences, not ships
    alone)."""
    return [str(u.get("name", uid)) for kind in enc.ruleset.unit_kinds
            for uid, u in enc.setup.units.get(kind.key, {}).items() if u.get("side") == side]


def _md_detail(detail: str) -> str:
    """A detail as a bullet under its entry; one set in further (a wound's descriptions under the wound) one
    level further in."""
    text = detail.lstrip(" ")
    depth = 1 + (len(detail) - len(text)) // 2
    return "  " * depth + f"- {md_text(text)}"


#: What Markdown reads as markup in a line: emphasis, code, escapes, strikethrough, table cells and a heading's
#: closing marks wherever they are; an HTML tag, an entity or a link only in the shapes that make one, so the
#: log's "typed [4 1]" and "30 -> 26" stay as they read.
_MD_MARKUP = re.compile(r"[\\`*_~|#]|<(?=[A-Za-z/!?])|&(?=#?\w+;)|\](?=[(\[:])|^\[")
#: What starts a list, a quote or a rule when it begins a line's text.
_MD_LEADING = re.compile(r"^(\d+)([.)])(?=\s|$)|^([-+=>])(?=\s|$)")


def md_text(text: str) -> str:
    """Plain text that a Markdown renderer shows as it is: markup characters escaped, and a start that would
    make a list, a quote or a rule ("1. ", "- ", "> ") taken as text."""
    text = _MD_MARKUP.sub(lambda m: "\\" + m.group(0), text)
    return _MD_LEADING.sub(lambda m: f"{m.group(1)}\\{m.group(2)}" if m.group(1) else f"\\{m.group(3)}", text)
