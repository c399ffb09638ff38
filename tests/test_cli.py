"""The command line: version, rulesets, check, log, keep-edits, ship import and opening the console."""

from pathlib import Path

import pytest

from engine import __version__
from engine.encounter import Encounter
from engine.saves import create
from tests.skirmish import SKIRMISH, make_setup
from tui.cli import main


def _save(tmp_path: Path) -> Path:
    enc = Encounter(make_setup(), SKIRMISH)
    enc.act("initiative")
    enc.type_roll("2")
    enc.type_roll("6")
    enc.correct("ships.brute.hull", "28", note="old damage")
    path = tmp_path / "duel.toml"
    create(path, enc)
    return path


def test_version(capsys) -> None:
    try:
        main(["--version"])
    except SystemExit as exc:
        assert exc.code == 0
    assert capsys.readouterr().out.strip() == f"flagbridge {__version__}"


def test_rulesets_lists_id_and_name(capsys) -> None:
    assert main(["rulesets"]) == 0
    assert "test-skirmish\tTest skirmish (engine tests only)" in capsys.readouterr().out


def test_log_reads_as_text(tmp_path: Path, capsys) -> None:
    assert main(["log", str(_save(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert "Initiative blue: 1D typed [2] +1 Tactics = 3" in out
    assert "correction: ships.brute.hull 30 -> 28 (old damage)" in out


def test_log_names_a_renamed_ship_as_it_was_called_in_each_event(tmp_path: Path, capsys) -> None:
    """A fire action's headline read "target=Blood Lantern" over its roll "at Red Lantern" once the ship was renamed
    (tests/engine/test_log_names.py)."""
    from tests.engine.test_log_names import FIRE, WITHDRAW, renamed_mid_fight

    assert main(["log", str(renamed_mid_fight(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert f"   4 {FIRE}\n       To hit: Swift Dolan T3 Beam laser x3 at Red Lantern" in out
    renamed = out.index("correction: ships.red-lantern.name")  # its line folds at 80 columns
    after = out.index("\n  10 ")  # the group after the rename
    assert "Blood Lantern" not in out[:renamed] and "Red Lantern" not in out[after:]
    assert f"  11 {WITHDRAW}\n" in out


def test_log_markdown_recap(tmp_path: Path, capsys) -> None:
    assert main(["log", "--markdown", str(_save(tmp_path))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Test duel\n")
    assert "Blue: Arrow, Lance; Red: Brute, Vask" in out  # people too (test_log_markdown.py)
    assert "- **1** initiative\n  - Initiative blue: 1D typed [2] +1 Tactics = 3" in out


def test_keep_edits_records_corrections(tmp_path: Path, capsys) -> None:
    path = _save(tmp_path)
    path.write_text(path.read_text().replace("attacker = \"red\"", "attacker = \"blue\""))
    assert main(["check", str(path)]) == 2
    assert "--keep-edits" in capsys.readouterr().err
    assert main(["keep-edits", str(path)]) == 0
    assert main(["check", str(path)]) == 0


def test_open_of_a_missing_file_opens_no_console(tmp_path: Path, console_opened: dict) -> None:
    """``open`` of a bad save shows the load-error screen; here we only check it never writes."""
    import tui.launch as launch

    missing = tmp_path / "nope.toml"
    assert launch.run("open", path=missing) == 2  # nothing opened: the exit says so, as check's does
    assert "no such file" in console_opened["load_error"] and not missing.exists()


def test_ship_import_usp_writes_a_ship_file_that_checks(tmp_path: Path, capsys) -> None:
    out = tmp_path / "kinunir.toml"
    assert main(["ship", "import-usp", "BC-A2447G2-000510-50202-0", "--name", "Kinunir", "--out", str(out)]) == 0
    assert "written to" in capsys.readouterr().out
    assert out.read_text().startswith("# classic-hg ship from USP BC-A2447G2-000510-50202-0")
    assert main(["check", str(out)]) == 0
    assert capsys.readouterr().out.strip() == "ok: ship 'Kinunir' (classic-hg)"
    assert main(["ship", "import-usp", "BC-A2447G2-000510-50202-0", "--out", str(out)]) == 2
    assert "exists; use --force" in capsys.readouterr().err


def test_ship_import_usp_refuses_a_malformed_line_in_one_line(tmp_path: Path, capsys) -> None:
    out = tmp_path / "bad.toml"
    assert main(["ship", "import-usp", "BC-A2447G2-00051-50202-0", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "group 3 '00051' has 5 characters, expected 6" in err
    assert not out.exists()


def test_installed_rulesets_include_classic_hg(capsys) -> None:
    assert main(["rulesets"]) == 0
    assert "classic-hg\tClassic Traveller High Guard-style combat" in capsys.readouterr().out


def test_a_console_that_crashed_exits_with_its_code(monkeypatch, tmp_path) -> None:
    """Issue 14: after a crash the process exited 0, because the app's return code was ignored."""
    from tui import launch

    class CrashedApp:
        save = None
        return_code = 1

        def __init__(self, *a, **k):
            pass

        def run(self):
            return None

    monkeypatch.setattr("tui.app.FlagbridgeApp", CrashedApp)
    assert launch.run("start", save_dir=tmp_path) == 1


def test_a_long_save_opens_with_a_bar_of_the_events_replayed(tmp_path: Path, monkeypatch, capsys) -> None:
    """DESIGN.md "The console": loading a long log shows progress. On a terminal, a save past the size opens
    with a bar of the replay (gone once the console opens); piped or short, it loads as it always did."""
    import io

    from engine.saves import SaveFile
    from tests.bench.bench_engine import play
    from tui import launch

    path = tmp_path / "long.toml"
    create(path, play(Encounter(make_setup(), SKIRMISH), 2500))
    monkeypatch.setattr(launch, "PROGRESS_FROM_BYTES", 0)
    heard: list[tuple] = []
    real = SaveFile.load

    def load(*args, **kwargs):
        heard.append(kwargs.get("progress"))
        return real(*args, **kwargs)

    monkeypatch.setattr(SaveFile, "load", load)
    piped = launch.load_showing_progress(path)
    assert heard == [None]
    piped.release()  # a console's save is held: the second load below is another console's
    terminal = io.StringIO()
    terminal.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stdout", terminal)
    shown = launch.load_showing_progress(path)
    assert heard[-1] is not None and shown.encounter.state == piped.encounter.state
    assert "opening long.toml" in terminal.getvalue()


def test_a_mistake_on_the_command_line_is_one_line(capsys) -> None:
    """Found by a game master's drive: "--fights x" printed argparse's four-line usage block; every other refusal
    is one line. The mistake, and where the help is, exit 2."""
    import pytest

    for argv, says in ((["forecast", "x.toml", "--fights", "x"], "argument --fights: invalid int value: 'x'"),
                       (["check"], "the following arguments are required: path")):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err and "--help" in err


def test_check_names_the_line_of_a_save_cut_short_as_log_does(tmp_path: Path, capsys) -> None:
    """Found by a game master's drive: ``check`` said only "at end of document" for a save cut short, where
    ``open`` and ``log`` name the line; the load-error screen sends the game master to ``check``."""
    demo = Path(__file__).resolve().parents[1] / "saves" / "demo-classic-hg.toml"
    path = tmp_path / "cut.toml"
    path.write_bytes(demo.read_bytes()[:6000])
    before = path.read_bytes()
    assert main(["check", str(path)]) == 2
    said = capsys.readouterr().err
    assert main(["log", str(path)]) == 2
    assert said == capsys.readouterr().err.replace("flagbridge log:", "flagbridge check:") and "line" in said
    assert path.read_bytes() == before


#: ``flagbridge`` in a process of its own, with the test-only ruleset installed as the tests install it
CHILD = ("import sys; from engine.ruleset import register; from tests.skirmish import SKIRMISH; register(SKIRMISH); "
         "from tui.cli import main; sys.exit(main(sys.argv[1:]))")


def test_check_names_the_same_field_on_every_run(tmp_path: Path) -> None:
    """Found by a game master's drive: ``check`` of one unchanged save whose [state] differs from its log in
    several places named a different field from one run to the next (the differences were walked in the order of
    a set of keys, which the string hash decides anew in each process). Runs with different hash seeds say the
    same line."""
    import os
    import subprocess
    import sys

    from tests.skirmish import played_duel

    path = tmp_path / "duel.toml"
    create(path, played_duel("4 5"))
    text = path.read_text()
    path.write_text(text[: text.index("\n[[events]]\n") + 1])  # the whole log gone, [state] as it was
    root = Path(__file__).resolve().parents[1]
    said = set()
    for seed in ("0", "1", "2", "3", "4", "5", "6", "7"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(root)}
        run = subprocess.run([sys.executable, "-c", CHILD, "check", str(path)], cwd=root, env=env,
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 2, run.stderr
        said.add(run.stderr)
    assert len(said) == 1, said
    assert next(iter(said)).count("\n") == 1


KINUNIR = "BC-A2447G2-000510-50202-0"


def test_import_usp_refuses_a_folder_as_its_file_and_writes_nothing(tmp_path: Path, capsys) -> None:
    """Found by a game master's drive: ``--out`` naming an existing folder, with ``--force``, ended in
    "unexpected error, please report it: IsADirectoryError". It is refused in one line, as ``watch`` refuses one,
    and nothing is written beside it."""
    folder = tmp_path / "ships"
    folder.mkdir()
    assert main(["ship", "import-usp", KINUNIR, "--out", str(folder), "--force"]) == 2
    err = capsys.readouterr().err
    assert err == f"flagbridge ship: {folder}: is a folder, expected a .toml file\n"
    assert list(tmp_path.iterdir()) == [folder] and list(folder.iterdir()) == []
    afile = tmp_path / "afile"
    afile.write_text("")
    assert main(["ship", "import-usp", KINUNIR, "--out", str(afile / "k.toml")]) == 2
    assert capsys.readouterr().err == f"flagbridge ship: {afile / 'k.toml'}: {afile} is a file, expected a folder\n"


def test_import_usp_writes_into_the_save_folder_s_ships(tmp_path: Path, monkeypatch, capsys) -> None:
    """Found by a game master's drive: ``flagbridge --save-dir X ship import-usp`` wrote to ./saves/ships; a ship
    goes to the save folder's ships/, where ``flagbridge new`` lists a game master's own ships (README, "Opening a
    fight"). The command's own ``--save-dir`` is taken too, and ``--out`` wins over both."""
    monkeypatch.chdir(tmp_path)
    assert main(["--save-dir", "campaign", "ship", "import-usp", KINUNIR, "--name", "Kinunir"]) == 0
    assert (tmp_path / "campaign" / "ships" / "Kinunir.toml").is_file()
    assert main(["ship", "import-usp", KINUNIR, "--name", "Kinunir", "--save-dir", "other"]) == 0
    assert (tmp_path / "other" / "ships" / "Kinunir.toml").is_file()
    assert main(["--save-dir", "campaign", "ship", "import-usp", KINUNIR, "--out", "k.toml"]) == 0
    assert (tmp_path / "k.toml").is_file() and not (tmp_path / "saves").exists()
    from engine.ruleset import find_ruleset

    # the folder ``new`` reads a game master's own units of a kind from: SAVE_DIR/<the kind's key>/
    assert [k.key for k in find_ruleset("classic-hg").unit_kinds if k.id == "ship"] == ["ships"]


def test_import_usp_says_what_it_did_not_carry_over(tmp_path: Path, capsys) -> None:
    """Found by a game master's drive: the parts a classic-hg ship has no place for were only comments in the
    file; the import prints them too, one line each."""
    out = tmp_path / "k.toml"
    assert main(["ship", "import-usp", "CS-K2244C3-C33010-20A05-2", "--out", str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    dropped = [line.strip() for line in said if "not carried over" in line]
    assert dropped == ["not carried over: spinal mount A (particle accelerator)",
                       "not carried over: meson screen factor 3", "not carried over: force field factor 1",
                       "not carried over: 2 fighter squadron(s)", "not carried over: crew code 3 (100-999 crew)"]
    assert all(f"# {line}" in out.read_text() for line in dropped)


def test_a_save_folder_that_is_a_file_is_refused_before_the_console_opens(tmp_path: Path, monkeypatch,
                                                                          capsys) -> None:
    """Found by a game master's drive: ``flagbridge new --save-dir FILE`` asked every question and then showed
    "[Errno 17] File exists". It is refused at once, in one line naming the path; so are ``demo`` and the start
    screen. ``--save-dir`` before the command is the save folder of ``new`` and ``demo`` too."""
    import tui.launch as launch

    opened = []
    monkeypatch.setattr(launch, "run", lambda command, **kw: opened.append((command, kw)) or 0)
    afile = tmp_path / "afile"
    afile.write_text("x")
    for argv, who in ((["new", "--save-dir", str(afile)], "flagbridge new"),
                      (["--save-dir", str(afile), "demo"], "flagbridge demo"),
                      (["--save-dir", str(afile)], "flagbridge")):
        assert main(argv) == 2
        assert capsys.readouterr().err == f"{who}: --save-dir {afile}: is a file, expected a folder\n"
    assert main(["new", "--save-dir", str(afile / "sub")]) == 2
    assert capsys.readouterr().err == f"flagbridge new: --save-dir {afile / 'sub'}: {afile} is a file, expected a folder\n"
    assert opened == [] and afile.read_text() == "x"
    assert main(["--save-dir", str(tmp_path / "campaign"), "new"]) == 0
    assert opened == [("new", {"save_dir": tmp_path / "campaign"})]


def test_a_save_whose_log_lost_events_is_not_sent_to_keep_edits(tmp_path: Path, capsys) -> None:
    """Found by a game master's drive: ``check`` of a save cut short after its [state] advised --keep-edits, which
    then failed ("was added by hand"). Both say, in one line, that the log may have lost events, and name the
    command that carries the fight on, which does."""
    from tests.skirmish import played_duel
    from tests.engine.test_resume import cut_short

    path = tmp_path / "cut duel.toml"
    create(path, played_duel("4 5"))
    cut_short(path, 4)
    before = path.read_bytes()
    for command in ("check", "keep-edits"):
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--keep-edits" not in err and "the log may have lost events" in err
        assert f"flagbridge resume '{path}' carries the fight on from [state]" in err
    assert path.read_bytes() == before
    assert main(["resume", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {path} resumes from its saved state (its [state] holds values "
                                              "its log of 5 event(s) never made); undo stops at this point")
    assert main(["check", str(path)]) == 0


@pytest.mark.parametrize("buffered", [False, True], ids=["unbuffered", "buffered"])
@pytest.mark.parametrize("command", [["rulesets"], ["log", "DEMO"], ["log", "--markdown", "DEMO"]],
                         ids=["rulesets", "log", "log-markdown"])
def test_output_cut_short_by_a_closed_pipe_is_no_error_to_report(tmp_path: Path, command: list[str],
                                                                 buffered: bool) -> None:
    """Found by a game master's drive: ``flagbridge rulesets | head -1`` (or a pager quit early) printed
    "unexpected error, please report it: BrokenPipeError" and exited 2. A reader that stops reading is not a
    fault: nothing more is said, and the exit is the one a pipe's end gives. ``flagbridge log SAVE | head -1``
    exited 1 (the text's printer ended the program itself), and with Python's usual buffered output every
    command exited 120 with "Exception ignored ... BrokenPipeError" when what was left was written at exit."""
    import os
    import shutil
    import subprocess
    import sys

    demo = tmp_path / "demo.toml"
    shutil.copyfile(Path(__file__).parent.parent / "saves" / "demo-percentile.toml", demo)
    env = {k: v for k, v in os.environ.items() if not (buffered and k == "PYTHONUNBUFFERED")}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        done = subprocess.run([sys.executable, "-m", "tui.cli", *[str(demo) if w == "DEMO" else w for w in command]],
                              stdout=write, stderr=subprocess.PIPE, cwd=Path(__file__).parent.parent, env=env,
                              timeout=60)
    finally:
        os.close(write)
    assert (done.stderr, done.returncode) == (b"", 141)


def test_a_save_that_cannot_be_written_is_said_in_one_line_and_left_as_it_was(tmp_path: Path, monkeypatch,
                                                                              capsys) -> None:
    """Found by a game master's drive: keep-edits in a read-only folder said "unexpected error, please report
    it: PermissionError: ... '.duel.toml.x1y2.tmp'" (a file he never named)."""
    path = _save(tmp_path)
    path.write_text(path.read_text().replace("attacker = \"red\"", "attacker = \"blue\""))
    before = path.read_bytes()

    def refused(*args, **kwargs):
        raise PermissionError(13, "Permission denied", str(tmp_path / ".duel.toml.x1y2.tmp"))

    monkeypatch.setattr("engine.saves.write_atomic", refused)
    assert main(["keep-edits", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"flagbridge keep-edits: {path}: cannot be written (Permission denied); nothing was recorded\n"
    assert path.read_bytes() == before


def test_a_demo_that_cannot_be_copied_into_the_save_folder_is_said_in_one_line(tmp_path: Path, monkeypatch,
                                                                                capsys) -> None:
    """Found by a game master's drive: ``flagbridge demo --save-dir`` a read-only folder said "unexpected error,
    please report it: PermissionError"."""
    import shutil

    def refused(src, dst, *args, **kwargs):
        raise PermissionError(13, "Permission denied", str(dst))

    monkeypatch.setattr(shutil, "copyfile", refused)
    assert main(["demo", "--save-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"flagbridge demo: {tmp_path}: cannot copy the demo into this folder "
                                       "(Permission denied)\n")


def test_an_option_mistyped_after_a_command_is_told_by_that_command(capsys) -> None:
    """Found by a game master's drive: ``forecast SAVE --fihgts 3`` said "flagbridge: unrecognized arguments"
    and sent him to the top help, which does not list forecast's options. The command says it, with the option
    it was most likely meant to be."""
    import pytest

    with pytest.raises(SystemExit) as done:
        main(["forecast", "x.toml", "--fihgts", "3"])
    assert done.value.code == 2
    assert capsys.readouterr().err == ("flagbridge forecast: unrecognized arguments: --fihgts 3 (did you mean "
                                       "--fights?) (see flagbridge forecast --help)\n")
    with pytest.raises(SystemExit) as done:  # a command of ship's: told by import-usp itself
        main(["ship", "import-usp", "S-A211221-030000-00000-0", "--nmae", "Bad"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("flagbridge ship import-usp: unrecognized arguments: --nmae Bad (did you mean --name?)"), err


def test_a_mistyped_option_is_matched_against_the_options_each_parser_was_given() -> None:
    """``_Parser.unrecognized`` guessed from argparse's private ``_actions``, which a new Python may rename or
    reshape. Each parser keeps its own record of the long options added to it: every one its help lists (``--help``
    and ``--version`` too), no other, and the parser reads nothing private of argparse's."""
    import re

    from tui.cli import _ARGUMENTS, _parser

    top = _parser()
    for parser in [top, *top.commands.values(), *top.commands["ship"].commands.values()]:
        listed = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", parser.format_help()))
        assert set(parser.long_options) == listed, parser.prog
    assert set(top.commands) == set(_ARGUMENTS)
    source = (Path(__file__).resolve().parents[1] / "tui" / "cli.py").read_text(encoding="utf-8")
    assert "._actions" not in source


def test_help_names_every_argument_as_the_game_master_types_it(capsys, monkeypatch) -> None:
    """Found by a game master's drive: the top help read "--save-dir HOME_DIR" (an internal name), and each
    command's PATH, demo's RULESET and serve's --port had no word of help. Every parser is walked by its own
    record of its commands (``commands``), which must be the commands its help lists, and each argument and
    command its help lists must have words after it: read from the help as printed, nothing private of argparse's."""
    import pytest

    from tui.cli import _ARGUMENTS, _parser

    with pytest.raises(SystemExit):
        main(["--help"])
    top = capsys.readouterr().out
    assert "--save-dir SAVE_DIR" in top and "HOME_DIR" not in top

    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps its help to the terminal's width
    walked = []

    def walk(parser) -> None:
        walked.append(parser.prog)
        commands = getattr(parser, "commands", {})
        assert listed_without_words(parser.format_help()) == {"commands": sorted(commands), "bare": []}, parser.prog
        for sub in commands.values():
            walk(sub)

    walk(_parser())
    assert len(walked) == 1 + len(_ARGUMENTS) + 1  # the top, each command, ship's import-usp
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "classic-hg, gothic, megatraveller, percentile" in " ".join(capsys.readouterr().out.split())
    assert set(_ARGUMENTS) >= {"check", "log", "demo", "open", "forecast"}


def listed_without_words(help_text: str) -> dict[str, list[str]]:
    """What an argparse help lists under its arguments and options: the names of the commands listed (under the
    commands' own entry, which has no words of its own) and any argument or command listed with no words after
    it ("bare"). An entry starts two spaces in (a command four); its words follow it on its line, after two spaces
    or more, or on the lines below it, further in than a command is."""
    lines = help_text.splitlines()
    out: dict[str, list[str]] = {"commands": [], "bare": []}
    listing = False
    for i, line in enumerate(lines):
        if line and not line[0].isspace():
            listing = line in ("positional arguments:", "options:")
            continue
        indent = len(line) - len(line.lstrip(" "))
        if not listing or indent not in (2, 4):
            continue  # a blank line, or words continued from the entry above
        name, _, words = line.strip().partition("  ")
        below = lines[i + 1] if i + 1 < len(lines) else ""
        below_indent = len(below) - len(below.lstrip(" "))
        if indent == 4:
            out["commands"].append(name)
        if words.strip() or (below.strip() and below_indent > 4):
            continue
        if not (indent == 2 and below.strip() and below_indent == 4):  # not the commands' own entry
            out["bare"].append(name)
    out["commands"].sort()
    return out


def test_forecast_counts_are_checked_by_the_option_s_name_before_the_save_is_read(tmp_path: Path, monkeypatch,
                                                                                 capsys) -> None:
    """Found by a game master's drive: "--fights 0" was refused as "fights: expected ..." and "--turns 0" as
    "turn cap: ...", names he never typed, and only after the whole save had been read and replayed."""
    from engine.saves import SaveFile

    path = _save(tmp_path)

    def not_read(*args, **kwargs):
        raise AssertionError("the save was read")

    monkeypatch.setattr(SaveFile, "load", not_read)
    for option, value, says in (("--fights", "0", "--fights: expected 1 to 1000000, got 0"),
                                ("--fights", "-5", "--fights: expected 1 to 1000000, got -5"),
                                ("--fights", "99999999999", "--fights: expected 1 to 1000000, got 99999999999"),
                                ("--turns", "0", "--turns: expected 1 or more, got 0")):
        assert main(["forecast", str(path), option, value]) == 2
        assert capsys.readouterr().err == f"flagbridge forecast: {says}\n"


def test_forecast_starts_no_more_processes_than_there_are_cores(tmp_path: Path, monkeypatch) -> None:
    """Found by a game master's drive: "--workers 9999" started a thousand processes on a two-core machine (one
    a fight, up to the number of fights), twice as slow as the default and heavy on memory. More than one a core
    only waits its turn; the answer is the same whatever the number (README "Forecast")."""
    import engine.forecast as fc
    from engine.saves import SaveFile
    from tests.demos import shipped_demos

    path = tmp_path / "demo.toml"
    path.write_bytes(shipped_demos()["classic-hg"].read_bytes())
    started = []

    class Pool:
        def __init__(self, workers, **kwargs):
            started.append(workers)
            raise RuntimeError("enough")

    monkeypatch.setattr(fc, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(fc.os, "cpu_count", lambda: 2)
    enc = SaveFile.load(path).encounter
    try:
        fc.forecast(enc, 100, 5, workers=9999)
    except RuntimeError:
        pass
    assert started == [2]
