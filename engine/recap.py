"""The log told back: one entry per action, with its rolls and effects beneath it.

Used by ``flagbridge log`` (as rich text or Markdown for a campaign journal)
and by the console's Log panel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .encounter import Encounter


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


def markdown(enc: Encounter) -> str:
    """A recap to paste into a campaign journal."""
    s = enc.setup
    sides = "; ".join(
        f"{side['name']}: " + ", ".join(s.ships[sid]["name"] for sid in s.ships_of(side["id"]))
        for side in s.sides
    )
    lines = [f"# {s.name}", "", f"*{enc.ruleset.name}* · {sides}", ""]
    where = enc.ruleset.header(enc.state)
    if where:
        lines += [f"Now: {where}", ""]
    lines += ["## Log", ""]
    for e in entries(enc):
        lines.append(f"{e.group}. {e.headline}")
        lines += [f"   - {d}" for d in e.details]
    if not enc.events:
        lines.append("(no events yet)")
    return "\n".join(lines) + "\n"
