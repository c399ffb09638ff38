"""engine.sideview: the safe defaults a ruleset without a ``sideview`` module gets, and the log tiers.

The test ruleset ``tests.skirmish`` has no side view of its own, so it shows
what the contract promises by default (issue 15): a side's own units and
nothing of anyone else's, actions as declared, rolls only by what they were for,
corrections only to its own units, and a roll marked secret not at all.
"""

from __future__ import annotations

from engine.encounter import Encounter
from engine.ruleset import RuleContext
from engine.rolls import RollRequest
from engine.sideview import BARE, FULL, HIDDEN, NOTES, OUTCOME, RESULT, judged, picture, side_log
from tests.skirmish import SKIRMISH, make_setup


def test_default_view_is_the_sides_own_units_and_nothing_of_the_others() -> None:
    enc = Encounter(make_setup(), SKIRMISH)
    blue = SKIRMISH.side_view(enc.state, "blue")
    assert (blue.side, blue.own, blue.contacts) == ("blue", ("arrow", "lance"), ())
    red = SKIRMISH.side_view(enc.state, "red")
    assert (red.own, red.contacts) == (("brute", "vask"), ())
    shown = picture(enc, "blue")
    assert [line for _uid, line, _panels in shown.own] == ["Arrow", "Lance"]


def test_default_log_shows_actions_and_what_each_roll_was_for_only() -> None:
    enc = Encounter(make_setup(), SKIRMISH)
    enc.act("initiative")
    enc.type_roll("6")  # blue: 6 + 1 tactics
    enc.type_roll("2")
    enc.correct("ships.brute.hull", 25, note="red's own record")
    enc.correct("ships.arrow.hull", 18)
    blue = side_log(enc, "blue")
    assert [e.headline for e in blue] == ["initiative", "correction: ships.arrow.hull 20 -> 18"]
    assert blue[0].details == ["Initiative blue: rolled", "Initiative red: rolled"]
    assert [e.headline for e in side_log(enc, "red")][-1] == "correction: ships.brute.hull 30 -> 25 (red's own record)"


def test_a_secret_roll_is_left_out_and_marked_in_the_saved_event() -> None:
    """RuleContext.request_roll(secret=True) marks the request; the mark is saved with the roll
    (``secret = true``), and the default leaves such a roll out of every side's log and its prompt."""
    ctx = RuleContext(3)
    ctx.request_roll("The referee's roll", "2D", secret=True)
    ctx.request_roll("An open roll", "2D")
    secret, open_roll = ctx.requests
    assert secret.secret and not open_roll.secret
    assert secret.to_plain()["secret"] is True and "secret" not in open_roll.to_plain()
    assert RollRequest.from_plain(secret.to_plain()) == secret
    state = {"ships": {}}
    assert SKIRMISH.log_seen(state, "blue", "roll", {}, secret) == HIDDEN
    assert SKIRMISH.log_seen(state, "blue", "roll", {}, open_roll) == BARE


def test_a_tier_a_ruleset_gets_wrong_hides() -> None:
    """A ruleset answering something that is no tier must not show more than it meant to."""
    assert judged("everything", "Lock") == (HIDDEN, "Lock")
    assert judged((RESULT, "Penetrate sand"), "Penetrate sand-2") == (RESULT, "Penetrate sand")
    assert {FULL, OUTCOME, RESULT, BARE, NOTES, HIDDEN} == {judged(t, "")[0] for t in
                                                           (FULL, OUTCOME, RESULT, BARE, NOTES, HIDDEN)}


def flat(entries) -> list[str]:
    return [line for e in entries for line in (e.headline, *e.details)]


def test_the_last_events_of_a_long_log_read_as_in_the_whole_log() -> None:
    """The players' screen reads only the last events, replayed from the encounter's nearest checkpoint:
    they must come out exactly as the same events do in the whole log."""
    from tests.bench.bench_engine import play

    enc = play(Encounter(make_setup(), SKIRMISH), 260)  # past two checkpoints (every 100 events)
    whole = flat(side_log(enc, "blue"))
    for last in (1, 37, 160, 260, 999):
        tail = flat(side_log(enc, "blue", last))
        assert tail and tail == whole[len(whole) - len(tail):]
    assert len(flat(side_log(enc, "blue", 999))) == len(whole)


def test_notes_set_apart_follow_the_events_own_and_are_read_as_their_subject_says() -> None:
    """``RuleContext.about``: notes made inside are the subject's, wherever the rule was when it made them (a
    context made for another ruleset's procedure shares them); those made after it are the event's own again.
    The log lists the event's own first; a ruleset without ``notes_about`` shows them to no side."""
    from engine.encounter import Event, note_sections, set_apart

    ctx = RuleContext(1, asides=[])  # as real play makes it (a forecast's, with none, sets nothing apart)
    ctx.note("own 1")
    with ctx.about({"attack": "A2"}):
        ctx.note("A2 begins")
        ctx.acting_as("guest").note("A2's guest note")
        with ctx.about({"attack": "A3"}):
            ctx.note("A3 begins")
    with ctx.about({"attack": "A4"}):
        pass  # nothing noted: nothing set apart
    ctx.note("own 2")
    notes, about = set_apart(ctx.notes, ctx.asides)
    assert notes == ["own 1", "own 2", "A2 begins", "A2's guest note", "A3 begins"]
    ev = Event("roll", 1, None, {}, notes=notes, about=about)
    assert note_sections(ev) == (["own 1", "own 2"], [({"attack": "A2"}, ["A2 begins", "A2's guest note"]),
                                                       ({"attack": "A3"}, ["A3 begins"])])
    assert SKIRMISH.notes_about({}, "blue", {"attack": "A2"}, ["A2 begins"]) == []
    quiet = RuleContext(1)
    with quiet.about({"attack": "A2"}):
        quiet.note("A2 begins")
    assert quiet.notes == ["A2 begins"] and quiet.asides is None


def test_a_total_told_aloud_and_a_full_roll_under_the_rulesets_words(monkeypatch) -> None:
    """``TOTAL``: a roll whose result is told aloud (classic-hg's initiative) reads as what it was and the total it
    came to, never its dice or modifiers, with its notes; a ``FULL`` roll named by the ruleset's words reads in full
    under those words (a crew hit whose purpose named the enemy's weapon)."""
    from engine.sideview import TOTAL

    def told(state, side, kind, data, request):
        if kind != "roll":
            return FULL
        if request.context.get("side") == "blue":
            return FULL, "Initiative: the blue fleet"
        return TOTAL, "Initiative: the red fleet"

    monkeypatch.setattr(SKIRMISH, "log_seen", told)
    enc = Encounter(make_setup(), SKIRMISH)
    enc.act("initiative")
    enc.type_roll("6")  # blue: 6 + 1 tactics
    enc.type_roll("2")
    assert side_log(enc, "blue")[0].details == ["Initiative: the blue fleet: 1D typed [6] +1 Tactics = 7",
                                                "Initiative: the red fleet: 2"]
    assert picture(enc, "blue").own and SKIRMISH.own_panels(enc.state, "blue", SKIRMISH.unit_kind_of(
        enc.state, "arrow"), "arrow") == SKIRMISH.unit_panels(enc.state, SKIRMISH.unit_kind_of(enc.state, "arrow"),
                                                              "arrow")  # a ruleset's own panels by default
