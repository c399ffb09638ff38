"""``flagbridge watch`` (issue 15): one side's read-only screen, following the save as the console writes it.

Each test plays the console's part from outside the app: it loads the same
save, takes actions and types dice through the engine, and autosaves after
every event exactly as the console does (temporary file, then replace). The
watch app must notice the new file through its folder, redraw, and show what
its side knows and nothing more.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.saves import SaveFile
from tests.rulesets.scripted import answer
from tui.cli import main
from tui.screens.watch import WatchScreen
from tui.watch import WatchApp

ROOT = Path(__file__).resolve().parents[2]
MT_DEMO = ROOT / "saves" / "demo-megatraveller.toml"
CHG_DEMO = ROOT / "saves" / "demo-classic-hg.toml"


def copy(demo: Path, tmp_path: Path) -> Path:
    path = tmp_path / "fight.toml"
    shutil.copyfile(demo, path)
    return path


def console(path: Path) -> SaveFile:
    """The game master's side: the save loaded, autosaving after every event like the console."""
    return SaveFile.load(path).autosave()


def shown(app: WatchApp) -> str:
    assert isinstance(app.screen, WatchScreen)
    return app.screen.shown()


def laser_hit_on_red_lantern(enc) -> None:
    """The classic-hg demo's turn 1 to its first hit, typed: the Imperials take the initiative (6 against 1,
    the Corsairs surprised) and Swift Dolan's beam lasers hit Red Lantern with a 12."""
    enc.act("roll_initiative")
    answer(enc, "Initiative: Imperial Navy", "6")
    answer(enc, "Initiative: Corsairs", "1")
    enc.act("next")
    enc.act("next")
    enc.act("fire", ship="swift-dolan", turrets=["T3"], target="red-lantern")
    answer(enc, "To hit: Swift Dolan T3", "12")


def fuel_hit_recorded(enc) -> None:
    """On to the damage step, and the hit recorded at 7 then 7 on the location tables (a fuel hit)."""
    enc.act("next")
    enc.act("next")
    enc.act("resolve_damage")
    answer(enc, "General location: A1", "7")
    answer(enc, "Specific location: A1", "7")


async def until(pilot, app: WatchApp, *expected: str, gone: tuple[str, ...] = ()) -> str:
    """Wait (file notification is asynchronous) until the view shows every ``expected`` and no ``gone``.

    The bound is generous so a loaded machine does not fail it; the test measures no time.
    """
    for _ in range(400):
        await pilot.pause(0.05)
        text = shown(app)
        if all(e in text for e in expected) and not any(g in text for g in gone):
            return text
    raise AssertionError(f"the view never showed {expected} without {gone}:\n{shown(app)}")


# --- megatraveller ------------------------------------------------------------------------------

async def test_megatraveller_side_sees_its_sensor_picture_and_never_the_referee_roll(tmp_path: Path) -> None:
    """megatraveller-sensors-fire.txt, "States of Detection": detection tells "nothing other than
    'There is something roughly there'"; a lock is "two rolls, yours and the GM's": "If one of the two
    succeeds, you get power and tonnage, but NOT type nor other data. If both succeed, you get type
    code". The Imperial screen follows a locate and a lock on Red Lantern (AV 30, type P corsair) as
    the console autosaves them: the state and what the lock revealed show, the armor and the GM's roll
    never do; an undo takes the lock back off the screen."""
    path = copy(MT_DEMO, tmp_path)
    app = WatchApp(path, "imperial")
    async with app.run_test(size=(160, 48)) as pilot:
        text = shown(app)
        assert "Vigilance 400t comp 3 AV 40" in text  # our own ship in full
        assert "Red Lantern" in text and "detected (roughly there)" in text
        assert "AV 30" not in text and "Type P corsair" not in text and "Power plant" not in text

        gm = console(path)
        enc = gm.encounter
        enc.act("set_range", ship="patrol", target="corsair", squares=2)
        enc.act("locate", ship="patrol", target="corsair")
        answer(enc, "Locate: Vigilance", "10")  # 10 + 3 computer - 2 squares = 11 against 7+: made by 4
        text = await until(pilot, app, "Sensors: located", "Locate: Vigilance PassObjScan")
        assert "AV 30" not in text

        enc.act("lock", ship="patrol", target="corsair", spend="B1-1")
        answer(enc, "Lock (player's roll)", "10")  # 11 against Difficult 11+: the player's half made
        text = await until(pilot, app, "waiting for the referee")
        assert "referee's roll" not in text
        answer(enc, "Lock (referee's roll)", "10")  # the GM's half made too: the type code
        text = await until(pilot, app, "Sensors: locked", "Type: Type P corsair (type code P)", "Power plant: 3",
                           "Imperial Navy locks Red Lantern")
        assert "referee's roll" not in text and "AV 30" not in text
        assert "Lock (player's roll): Vigilance" in text  # our own half shows in full

        enc.undo()  # the lock, both rolls with it
        text = await until(pilot, app, "Sensors: located", gone=("Sensors: locked", "Type P corsair"))
        assert "Lock (player's roll)" not in text


async def test_megatraveller_other_side_never_sees_the_imperial_sensor_work(tmp_path: Path) -> None:
    """The Corsairs' screen during the same lock: another side's sensor actions and rolls do not show
    (passive sensors give no sign), nor Vigilance's armor; the Corsairs' own ships show in full."""
    path = copy(MT_DEMO, tmp_path)
    app = WatchApp(path, "corsairs")
    async with app.run_test(size=(160, 48)) as pilot:
        gm = console(path)
        enc = gm.encounter
        enc.act("set_range", ship="patrol", target="corsair", squares=2)
        enc.act("locate", ship="patrol", target="corsair")
        answer(enc, "Locate: Vigilance", "10")
        enc.act("lock", ship="patrol", target="corsair", spend="B1-1")
        answer(enc, "Lock (player's roll)", "10")
        answer(enc, "Lock (referee's roll)", "10")
        enc.act("next")
        text = await until(pilot, app, "step 2/3")
        assert "Red Lantern 400t comp 2 AV 30" in text
        assert "Vigilance" in text and "AV 40" not in text
        for hidden in ("Locate:", "Lock", "locks Red Lantern", "referee"):
            assert hidden not in text, hidden


async def test_megatraveller_watch_survives_a_bad_save_and_the_console_reopening(tmp_path: Path) -> None:
    """A save that will not load keeps the last good picture up and says so; the console quitting and
    reopening the file (a new session writing it) is followed like any autosave."""
    path = copy(MT_DEMO, tmp_path)
    app = WatchApp(path, "imperial")
    async with app.run_test(size=(160, 48)) as pilot:
        good = path.read_text()
        broken = tmp_path / "broken.tmp"
        broken.write_text("this is [not a save")
        broken.replace(path)
        text = await until(pilot, app, "showing the last good save")
        assert "Vigilance 400t" in text
        path.write_text(good)
        gm = console(path)  # the console opened again on the repaired file
        gm.encounter.act("next")
        await until(pilot, app, "step 2/3", gone=("showing the last good save",))


async def test_watch_picks_the_save_up_again_when_its_folder_is_deleted_and_made_again(tmp_path: Path) -> None:
    """Found by a game master's drive: the save's folder deleted, made again and the save copied back in (a sync
    tool, a restore), and the view stayed on "showing the last good save: ...: no such file" for good (the
    folder's notifications came from the folder deleted). It says the folder is gone, keeps the last picture, and
    once the folder is back reads the save that is in it, and follows its autosaves again."""
    folder = tmp_path / "saves"
    folder.mkdir()
    path = copy(CHG_DEMO, folder)
    app = WatchApp(path, "imperial")
    async with app.run_test(size=(160, 48)) as pilot:
        enc = console(path).encounter
        enc.act("roll_initiative")
        answer(enc, "Initiative: Imperial Navy", "6")
        answer(enc, "Initiative: Corsairs", "1")
        await until(pilot, app, "Initiative: Imperial Navy 9, Corsairs 3")
        kept = tmp_path / "kept.toml"  # the console carries on in a copy while the folder is away
        shutil.copyfile(path, kept)
        console(kept).encounter.act("next")

        shutil.rmtree(folder)
        text = await until(pilot, app, "showing the last good save")
        assert "Initiative: Imperial Navy 9, Corsairs 3" in text  # the last picture stays up
        folder.mkdir()
        shutil.copyfile(kept, path)
        await until(pilot, app, "step 2/9", "following", gone=("the folder is gone", "showing the last good save"))

        console(path).encounter.act("next")  # and its autosaves are followed again
        await until(pilot, app, "step 3/9")


async def test_no_key_changes_the_fight_or_writes(tmp_path: Path) -> None:
    """Every key the console answers, pressed on the watch view: the save and its folder stay exactly
    as they were (no event, no autosave, no backup, no screenshot file), and the view still shows."""
    path = copy(MT_DEMO, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    app = WatchApp(path, "imperial")
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("s", "enter", "enter", "l", "f", "r", "b", "n", "u", "ctrl+r", "c", "ctrl+s",
                          "ctrl+p", "escape", "1", "0", "enter", "enter", "space", "tab", "?", "escape")
        await pilot.pause(0.3)
        assert "Vigilance 400t" in shown(app)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


# --- classic-hg ----------------------------------------------------------------------------------

def enemy_lines(path: Path, side: str) -> list[str]:
    """Every enemy ship's one-line summary as the referee's console shows it (armor factor included)."""
    enc = SaveFile.load(path).encounter
    rs = enc.ruleset
    return [rs.unit_line(enc.state, rs.unit_kind_of(enc.state, sid), sid)[0]
            for sid, s in enc.state["ships"].items() if s["side"] != side]


async def test_classic_hg_side_sees_the_fire_declared_not_the_enemy_armor_or_damage(tmp_path: Path) -> None:
    """classic-hg-combat.txt: both sides see each other and the range ("Determine Range"); each Captain
    rolls initiative; fire is declared and either hits or not; "The DEFENDER records damage", so the
    damage rolls on Red Lantern are the Corsairs' to read, and its armor factor (the "armor 1" the
    referee's fire form shows) never reaches the Imperial screen. Undo takes the fire back."""
    path = copy(CHG_DEMO, tmp_path)
    hidden = enemy_lines(path, "imperial")
    app = WatchApp(path, "imperial")
    async with app.run_test(size=(160, 48)) as pilot:
        text = shown(app)
        assert "Swift Dolan" in text and "Red Lantern" in text and "Range: long" in text
        assert not any(line in text for line in hidden)

        gm = console(path)
        enc = gm.encounter
        laser_hit_on_red_lantern(enc)
        text = await until(pilot, app, "To hit: Swift Dolan T3 Beam laser x3 at Red Lantern: success",
                           "Initiative: Imperial Navy 9, Corsairs 3")
        assert "Red Lantern AUTO EVADE" not in text  # the target's program, a DM of the to-hit roll
        fuel_hit_recorded(enc)
        text = await until(pilot, app, "resolve damage")
        await pilot.pause(0.3)
        text = shown(app)  # where the hit struck is the defender's record: not even the rolls show
        assert "General location" not in text and "Specific location" not in text
        assert "Red Lantern: fuel" not in text and "A1 strikes" not in text
        assert not any(line in text for line in enemy_lines(path, "imperial"))

        enc.undo()  # the damage resolution
        enc.undo()
        enc.undo()
        enc.undo()  # the fire
        await until(pilot, app, "Initiative:", gone=("To hit: Swift Dolan",))


async def test_classic_hg_target_side_reads_its_own_damage(tmp_path: Path) -> None:
    """The side whose ship is hit records the damage: the Corsairs' screen shows the location rolls in
    full and their effect on Red Lantern."""
    path = copy(CHG_DEMO, tmp_path)
    app = WatchApp(path, "corsairs")
    async with app.run_test(size=(160, 48)) as pilot:
        enc = console(path).encounter
        laser_hit_on_red_lantern(enc)
        fuel_hit_recorded(enc)
        await until(pilot, app, "General location: A1 on Red Lantern: 2D typed [7]",
                    "Red Lantern: fuel -5 tons")


# --- the command line ----------------------------------------------------------------------------

@pytest.mark.parametrize("args, words", [
    (["--side", "nobody"], "no side 'nobody' in this fight (sides: imperial, corsairs)"),
])
def test_watch_refuses_an_unknown_side_in_one_line(tmp_path: Path, capsys, args, words) -> None:
    path = copy(MT_DEMO, tmp_path)
    assert main(["watch", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and words in err


def test_watch_and_serve_refuse_a_save_that_does_not_load(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[flagbridge]\nformat = 99\n")
    for command in ("watch", "serve"):
        assert main([command, str(path), "--side", "imperial"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"flagbridge {command}: {path}")


def test_serve_says_in_one_line_why_it_cannot_listen(tmp_path: Path, capsys) -> None:
    """Found by a game master's drive: a taken port, a port past 65535 or an unknown host ended in "unexpected
    error, please report it". Each is one line naming what is wrong, exit 2."""
    import socket

    path = tmp_path / "fight.toml"
    shutil.copyfile(ROOT / "saves" / "demo-classic-hg.toml", path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for extra, says in ((["--host", "127.0.0.1", "--port", str(port)], f"cannot serve on 127.0.0.1, port {port}"),
                            (["--port", "70000"], "--port: expected 0 to 65535, got 70000")):
            assert main(["serve", str(path), "--side", "imperial", *extra]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and says in err and "unexpected" not in err


# --- ids in any script -----------------------------------------------------------------------------

async def test_a_side_and_ships_with_ids_in_cyrillic_are_watched_by_their_names(tmp_path: Path, capsys) -> None:
    """A gothic fight written by a Russian-speaking game master (ids and names in Cyrillic): his side's screen
    shows its ships by name and the correction he made to one of them; the other side's shows neither."""
    from tests.demos import demo_with_ids

    ids = {"hammer": "молот-тракии", "sword1": "меч-1", "sword2": "меч-2", "imperial": "империум",
           "rebels": "мятежники"}
    text = demo_with_ids("gothic", ids).replace('"Hammer of Thrace"', '"Молот Тракии"')
    path = tmp_path / "Блокада.toml"
    path.write_text(text, encoding="utf-8")
    ours, theirs = WatchApp(path, "империум"), WatchApp(path, "мятежники")
    async with ours.run_test(size=(160, 48)) as pilot:
        assert "Молот Тракии" in shown(ours) and "молот-тракии" not in shown(ours)
        console(path).encounter.correct("ships.молот-тракии.hits", "5", note="по таблице")
        await until(pilot, ours, "correction: ships.молот-тракии.hits 8 -> 5 (по таблице)")
    async with theirs.run_test(size=(160, 48)):
        assert "ships.молот-тракии.hits" not in shown(theirs)
    assert main(["watch", str(path), "--side", "никто"]) == 2
    assert "no side 'никто' in this fight (sides: империум, мятежники)" in capsys.readouterr().err


# --- long values ------------------------------------------------------------------------------------------

GOTHIC_DEMO = ROOT / "saves" / "demo-gothic.toml"


async def test_a_long_value_wraps_under_its_own_start(tmp_path: Path) -> None:
    """Found by a game master's drive: on a narrow screen a long value (an enemy's Distance list) wrapped to
    the pane's first column, under its label. Its further lines start where the value started."""
    app = WatchApp(copy(GOTHIC_DEMO, tmp_path), "rebels")
    async with app.run_test(size=(80, 48)):
        pane = app.screen.query_one("#others")
        lines = [pane.render_line(y).text.rstrip() for y in range(pane.size.height)]
        start = next(i for i, line in enumerate(lines) if line.startswith("  Distance: "))
        indent = len("  Distance: ")
        # the enemy's distances to our five vessels: more than a narrow pane holds on one line
        wrapped = lines[start + 1]
        assert wrapped.startswith(" " * indent) and wrapped[indent] != " ", lines[start:start + 3]
        assert "Distance: " in shown(app)  # the plain text a test reads still has label and value together


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
async def test_our_forces_wrap_each_long_value_under_its_own_start(tmp_path: Path, size: tuple[int, int]) -> None:
    """The own-forces pane at a narrow terminal, in every ruleset: each "label: value" row the picture holds is
    shown whole (nothing cut off), and a value too long for the pane goes on under its own start, never under
    its label or past the pane's edge, as the enemy pane's do (``test_a_long_value_wraps_under_its_own_start``)."""
    from tests.demos import shipped_demos

    for ruleset_id, demo in shipped_demos().items():
        folder = tmp_path / ruleset_id
        folder.mkdir()
        path = copy(demo, folder)
        side = SaveFile.load(path).encounter.state["side_order"][0]
        app = WatchApp(path, side)
        async with app.run_test(size=size):
            pane = app.screen.query_one("#own")
            width = pane.size.width
            lines = [pane.render_line(y).text.rstrip() for y in range(pane.size.height)]
            rows = [row for _uid, _line, panels in app.screen.picture.own for rs in panels.values() for row in rs]
            assert rows and width < 40, (ruleset_id, width)
            at, wrapped = 0, 0
            for label, value in rows:
                head = f"  {label}: "
                at = next(i for i in range(at, len(lines)) if lines[i].startswith(head))
                parts = [lines[at][len(head):]]
                while at + 1 < len(lines) and lines[at + 1].startswith(" " * len(head)):
                    at += 1
                    assert lines[at][len(head)] != " ", (ruleset_id, label, lines[at])
                    parts.append(lines[at][len(head):])
                wrapped += len(parts) > 1
                assert "".join("".join(parts).split()) == "".join(value.split()), (ruleset_id, label, parts)
                assert all(len(line) <= width for line in lines), ruleset_id
            assert wrapped, ruleset_id  # some value was too long for one line, and went on under its start
