"""What the forecast tests of every ruleset share: a playout's record fed to a real encounter, and a
commander's choice held to the rules' own argument check."""

from __future__ import annotations

from engine.actions import filled_args
from engine.encounter import Encounter
from engine.forecast import Playout


def replay_record(encounter: Encounter, record: list[tuple]) -> Encounter:
    """Each recorded decision taken and each roll's faces typed, as a game master would at the table."""
    for entry in record:
        if entry[0] == "action":
            encounter.act(entry[1], **entry[2])
        else:
            encounter.type_roll(" ".join(map(str, entry[1])))
    return encounter


def accepted_as_given(ruleset, state: dict, name: str, args: dict) -> None:
    """The rules accept the choice as it stands, and their check returns it in the form it was given
    (the forecast leaves such a choice to the action's ``may`` alone)."""
    assert ruleset.check_action(state, name, args) == filled_args(ruleset.catalogue.get(name), args), (name, args)


class CheckedPlayout(Playout):
    """A playout whose every decision is first held to ``accepted_as_given``; the names chosen are kept in
    ``chosen`` (shared by the playouts made with the same set)."""

    def __init__(self, *args, chosen: set[str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.chosen = set() if chosen is None else chosen

    def act(self, name: str, args: dict) -> None:
        accepted_as_given(self.ruleset, self.state, name, args)
        self.chosen.add(name)
        super().act(name, args)


def forecast_twice(main, path, capsys, fights: int = 200, seed: int = 5) -> str:
    """``flagbridge forecast PATH`` run twice with one seed: the two outputs must be the same, and the
    save must be left as it was. Returns the output."""
    before = path.read_bytes()
    outputs = []
    for _ in range(2):
        assert main(["forecast", str(path), "--fights", str(fights), "--seed", str(seed)]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert path.read_bytes() == before
    return outputs[0]
