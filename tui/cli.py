"""The ``flagbridge`` command line.

Every command that reads a file either succeeds or prints one line naming the
file and what is wrong, and exits 2; none prints a traceback, and only the
commands that say so write anything.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable

from engine import __version__
from engine.errors import FlagbridgeError

EXIT_BAD = 2
#: A reader that stopped reading (``flagbridge log SAVE | head``): the exit a shell gives a pipe's broken end.
EXIT_PIPE = 141


def _args_path(p: argparse.ArgumentParser, words: str = "the save file (.toml)") -> None:
    p.add_argument("path", type=Path, help=words)


def _args_check(p: argparse.ArgumentParser) -> None:
    _args_path(p, "a save, ship or table file (.toml)")


def _args_log(p: argparse.ArgumentParser) -> None:
    _args_path(p)
    p.add_argument("--markdown", action="store_true", help="a Markdown recap for a campaign journal")


def _args_ship(p: argparse.ArgumentParser) -> None:
    ship_sub = p.add_subparsers(dest="ship_command", metavar="SHIP_COMMAND", required=True)
    imp = ship_sub.add_parser("import-usp", help="turn a Universal Ship Profile line into a classic-hg ship file")
    p.commands = {"import-usp": imp}  # type: ignore[attr-defined]  (told of arguments it does not take: ``main``)
    imp.add_argument("line", help="e.g. 'BC-A2447G2-000510-50202-0'")
    imp.add_argument("--name", default="", help="the ship's name (default: from the type code)")
    imp.add_argument("--out", type=Path, help="the file to write (default: SAVE_DIR/ships/NAME.toml)")
    imp.add_argument("--force", action="store_true", help="replace an existing file")
    _args_save_dir(imp)


def _args_save_dir(p: argparse.ArgumentParser) -> None:
    """A command's own ``--save-dir``; without it, the one given before the command, else ``saves``."""
    p.add_argument("--save-dir", type=Path, default=None, help="the save folder (default: saves)")


def _args_forecast(p: argparse.ArgumentParser) -> None:
    _args_path(p)
    p.add_argument("--fights", type=int, default=1000, help="how many fights to simulate (default 1000)")
    p.add_argument("--seed", type=int, default=None, help="dice seed (default: the save's)")
    p.add_argument("--doctrine", action="append", default=[], metavar="SIDE=NAME",
                   help="a side's doctrine, by name or the path of a doctrine file (default: the ruleset's)")
    p.add_argument("--workers", type=int, default=None, help="processes to use (default: every core)")
    p.add_argument("--turns", type=int, default=None, help="turn cap: a fight still going then is unfinished")


def _args_demo(p: argparse.ArgumentParser) -> None:
    from rulesets import builtin  # the ids only: no ruleset is imported for a help text

    p.add_argument("ruleset", nargs="?", default="classic-hg",
                   help=f"whose demo: {', '.join(sorted(builtin()))} (default classic-hg)")
    _args_save_dir(p)


def _args_open(p: argparse.ArgumentParser) -> None:
    _args_path(p)
    p.add_argument("--keep-edits", action="store_true", help="keep hand edits of [state] as corrections")


def _args_new(p: argparse.ArgumentParser) -> None:
    _args_save_dir(p)


def _args_watch(p: argparse.ArgumentParser) -> None:
    _args_path(p)
    p.add_argument("--side", required=True, help="the side's id, as in the save's [[setup.sides]]")


def _args_serve(p: argparse.ArgumentParser) -> None:
    _args_watch(p)
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (0.0.0.0: every network)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default 8000)")


#: Every command: its help and what adds its arguments, in the order ``--help`` lists them.
_ARGUMENTS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None] | None]] = {
    "check": ("validate a save, ship or table file (never writes)", _args_check),
    "log": ("print an encounter's log as readable text", _args_log),
    "rulesets": ("list the installed rulesets (id and name)", None),
    "keep-edits": ("record hand edits of a save's [state] as correction events", _args_path),
    "resume": ("carry a fight on from its saved [state] when its log no longer replays or lost events "
               "(keeps a copy)", _args_path),
    "ship": ("ship files: import a High Guard USP line", _args_ship),
    "forecast": ("play the rest of a fight many times by each side's doctrine (never writes)", _args_forecast),
    "demo": ("open a fresh copy of a demo encounter in the console", _args_demo),
    "open": ("open a save in the console", _args_open),
    "new": ("set up a new encounter in the console", _args_new),
    "watch": ("one side's read-only view of a save, following the console's autosaves", _args_watch),
    "serve": ("the same view in a browser, behind a random token in the URL", _args_serve),
}


class _Parser(argparse.ArgumentParser):
    """argparse, with a mistake on the command line told in one line, as every other refusal is."""

    def __init__(self, *args, **kwargs) -> None:
        #: The long options added to this parser (``--help`` among them, added by argparse's own ``__init__``), so a
        #: mistyped one is matched without reading argparse's private list of actions. The parsers of the commands
        #: are this class too (``add_subparsers`` makes its parsers of the parent's class); no option here is
        #: added through an argument group, whose ``add_argument`` would not pass this way.
        self.long_options: list[str] = []
        super().__init__(*args, **kwargs)

    def add_argument(self, *names, **kwargs):  # type: ignore[override]
        action = super().add_argument(*names, **kwargs)  # refused (a name twice): nothing recorded
        self.long_options.extend(n for n in names if isinstance(n, str) and n.startswith("--"))
        return action

    def error(self, message: str):  # type: ignore[override]
        self.exit(EXIT_BAD, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def unrecognized(self, extra: list[str]) -> None:
        """Arguments this command does not take, with the option a mistyped one was most likely meant to be."""
        import difflib

        known = self.long_options
        guesses = [g for a in extra if a.startswith("-") for g in difflib.get_close_matches(a.split("=")[0], known, 1)]
        self.error(f"unrecognized arguments: {' '.join(extra)}"
                   + (f" (did you mean {' or '.join(dict.fromkeys(guesses))}?)" if guesses else ""))


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line's parser; with ``command`` (a command's name), only that command's parser is
    built (argparse takes about half a millisecond for each, a fair part of a start-up for a dozen): its help,
    usage and errors read the same."""
    p = _Parser(
        prog="flagbridge",
        description="Flagbridge: a keyboard-driven referee console for tabletop starship combat.",
    )
    p.add_argument("--version", action="version", version=f"flagbridge {__version__}")
    p.add_argument("--save-dir", type=Path, default=None, dest="home_dir", metavar="SAVE_DIR",
                   help="the save folder (default: saves): the start screen lists and creates saves in it, "
                        "new and demo too, and ship import-usp writes to its ships/")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    p.commands = {}  # type: ignore[attr-defined]
    for name, (words, arguments) in _ARGUMENTS.items():
        if command is None or name == command:
            built = p.commands[name] = sub.add_parser(name, help=words)  # type: ignore[attr-defined]
            if arguments is not None:
                arguments(built)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = _parser(argv[0] if argv and argv[0] in _COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra:  # told by the command they were given to, whose help lists what it takes
        told = parser.commands.get(args.command, parser)
        told = getattr(told, "commands", {}).get(getattr(args, "ship_command", None), told)  # ship's own
        (told.unrecognized if isinstance(told, _Parser) else parser.unrecognized)(extra)
    from rulesets import register_builtin

    register_builtin()
    if args.command is None:  # no command: the start screen (new, demo, recent saves)
        from .launch import run

        try:
            save_dir = save_folder(args)
        except FlagbridgeError as exc:
            print(f"flagbridge: {exc}", file=sys.stderr)
            return EXIT_BAD
        return run("start", save_dir=save_dir)
    try:
        code = _COMMANDS[args.command](args)
        sys.stdout.flush()  # what is still buffered meets a reader that has gone here, not at exit
        return code
    except FlagbridgeError as exc:
        print(f"flagbridge {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # not a fault: nothing more to say, and nothing left to write at exit
        _stdout_to_nowhere()
        return EXIT_PIPE
    except Exception as exc:  # a bug: still one line, never a traceback, never a write
        print(f"flagbridge {args.command}: unexpected error, please report it: "
              f"{type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_BAD


def _text_out():
    """A rich console on stdout whose broken pipe goes to ``main``'s, as every other command's does: rich's own
    answer to one (``Console.on_broken_pipe``) ends the program with exit 1."""
    from rich.console import Console

    class PipedConsole(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError

    return PipedConsole(highlight=False)


def _stdout_to_nowhere() -> None:
    """Output still buffered for a reader that has gone would fail again when Python flushes it at exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # a stdout with no descriptor (a test's capture)
        pass


def save_folder(args: argparse.Namespace) -> Path:
    """The save folder a command was given (its own ``--save-dir``, else the one before the command, else
    ``saves``), refused at once when a file stands where it or a folder above it should be: the console would
    meet it only when it first writes, at the end of a new encounter's questions."""
    folder = getattr(args, "save_dir", None) or args.home_dir or Path("saves")
    there, what = _in_the_way(folder)
    if what:
        raise FlagbridgeError(f"--save-dir {folder}: {'' if there == folder else f'{there} '}{what}, "
                              "expected a folder")
    return folder


def _in_the_way(folder: Path) -> tuple[Path, str]:
    """What stands where ``folder`` or a folder above it should be, and what it is ("a file"); "" when nothing
    does (``mkdir(parents=True)`` would make it)."""
    for there in (folder, *folder.parents):
        if there.is_dir():
            break
        if there.exists() or there.is_symlink():
            return there, "is a file" if there.is_file() else "is not a folder"
    return folder, ""


def _check(args: argparse.Namespace) -> int:
    from engine.files import kind_of, load_table, load_unit
    from engine.saves import SaveFile

    kind = kind_of(args.path)
    if kind == "save":
        enc = SaveFile.load(args.path, cached_replay=False).encounter  # a check replays the whole log
        where = enc.ruleset.header(enc.state)
        print(f"ok: save {enc.setup.name!r} ({enc.ruleset.id}), {len(enc.events)} events"
              + (f", {where}" if where else ""))
    elif kind == "table":
        rs, name, data = load_table(args.path)
        print(f"ok: table {name!r} ({rs.id})")
    else:
        rs, unit_kind, unit = load_unit(args.path)
        print(f"ok: {unit_kind.id} {unit['name']!r} ({rs.id})")
    return 0


def _log(args: argparse.Namespace) -> int:
    from engine.recap import entries, markdown
    from engine.saves import SaveFile

    enc = SaveFile.load(args.path).encounter
    if args.markdown:
        sys.stdout.write(markdown(enc))
        return 0
    from rich.text import Text

    out = _text_out()
    out.print(Text(enc.setup.name, style="bold"), Text(f" · {enc.ruleset.name}", style="dim"))
    for e in entries(enc):
        line = Text(f"{e.group:>4} ", style="dim")
        line.append(e.headline, style="bold" if e.kind == "action" else ("yellow" if e.kind == "correction" else ""))
        out.print(line)
        for d in e.details:
            out.print(Text(f"       {d}"))
    if not enc.events:
        out.print(Text("(no events yet)", style="dim"))
    return 0


def _rulesets(args: argparse.Namespace) -> int:
    from engine.ruleset import available

    for rid, name in available().items():
        print(f"{rid}\t{name}")
    return 0


def _keep_edits(args: argparse.Namespace) -> int:
    from engine.saves import SaveFile

    sf = SaveFile.load(args.path, keep_edits=True, hold=True)  # a console on it would write its own over them
    try:
        n = sum(1 for e in sf.encounter.events if e.kind == "correction" and e.text is None)
        if n:
            try:
                sf.save()
            except OSError as exc:  # not the temporary file's name: the one the game master gave
                raise FlagbridgeError(f"{args.path}: cannot be written ({exc.strerror or exc}); nothing was "
                                      "recorded") from None
    finally:
        sf.release()
    print(f"ok: {n} hand edit(s) recorded as corrections in {args.path}")
    return 0


def _resume(args: argparse.Namespace) -> int:
    from engine.errors import StateBeyondLog
    from engine.inuse import hold
    from engine.resume import resume

    held = hold(args.path)  # a console on it would write its own fight over the resumed one
    try:
        kept, events, why = resume(args.path)
    finally:
        held.release()
    if isinstance(why, StateBeyondLog):
        because = f"its [state] holds values its log of {events} event(s) never made"
    else:
        because = f"its log of {events} event(s) stopped replaying: {str(why).split(': ', 1)[-1]}"
    print(f"ok: {args.path} resumes from its saved state ({because}); undo stops at this point; the file as it "
          f"was is kept in {kept}")
    return 0


def _ship(args: argparse.Namespace) -> int:
    from engine.atomic import write_atomic
    from engine.errors import BadTable
    from engine.saves import save_path
    from rulesets.classic_hg.usp import (assumptions, listed_name, not_carried_over, parse_usp, ship_toml,
                                         usp_to_ship)

    profile = parse_usp(args.line)
    name = args.name.strip() or listed_name(profile) or f"{profile['type_code']} from USP"
    ship = usp_to_ship(args.line, name)
    out = args.out or save_path(save_folder(args) / "ships", name)  # where ``new`` lists a game master's ships
    if out.is_dir():
        raise BadTable(f"{out}: is a folder, expected a .toml file")
    if out.exists() and not args.force:
        raise BadTable(f"{out} exists; use --force to replace it")
    there, what = _in_the_way(out.parent)
    if what:
        raise BadTable(f"{out}: {there} {what}, expected a folder")
    text = ship_toml(ship)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(out, text, backup=False)
    except OSError as exc:
        raise BadTable(f"{out}: cannot be written: {exc.strerror or exc}") from None
    print(f"ok: ship {name!r} ({ship['tonnage']} tons) written to {out}")
    for line in assumptions(profile, ship):
        print(f"  assumed: {line}")
    for line in not_carried_over(profile):
        print(f"  not carried over: {line}")
    return 0


def _forecast(args: argparse.Namespace) -> int:
    """Simulate the rest of the fight from the save; the file is only read."""
    from engine.errors import BadTable
    from engine.forecast import TURN_CAP, already_over, count_problem, forecast
    from engine.saves import SaveFile

    picked = {}
    for item in args.doctrine:
        side, eq, name = item.partition("=")
        if not eq or not side.strip() or not name.strip():
            raise BadTable(f"--doctrine {item!r}: expected SIDE=NAME, e.g. corsairs=cautious")
        if side.strip() in picked:
            raise BadTable(f"--doctrine: {side.strip()} is given two doctrines ({picked[side.strip()]}, "
                           f"{name.strip()}): give one")
        picked[side.strip()] = name.strip()
    if args.workers is not None and args.workers < 1:
        raise FlagbridgeError(f"--workers: expected 1 or more, got {args.workers}")
    # by the option's name, and before a long save is read
    why = count_problem(args.fights, TURN_CAP if args.turns is None else args.turns, ("--fights", "--turns"))
    if why:
        raise FlagbridgeError(why)
    enc = SaveFile.load(args.path).encounter
    seed = enc.setup.seed if args.seed is None else args.seed
    from rich.console import Console

    err = Console(stderr=True, highlight=False)
    kwargs = dict(picked=picked, workers=args.workers, turn_cap=TURN_CAP if args.turns is None else args.turns)
    if err.is_terminal and already_over(enc) is None:  # a fight already over is said at once, with no bar
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(TextColumn("forecast"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=True) as bar:
            task = bar.add_task("fights", total=args.fights)
            result = forecast(enc, args.fights, seed, progress=lambda done, total: bar.update(task, completed=done),
                              **kwargs)
    else:
        result = forecast(enc, args.fights, seed, **kwargs)
    print(f"{enc.setup.name} ({enc.ruleset.id}): {enc.ruleset.header(enc.state)}")
    for line in result.lines():
        print(line)
    return 0


def _console(args: argparse.Namespace) -> int:
    from .launch import run

    if args.command == "open":
        return run("open", path=args.path, keep_edits=args.keep_edits)
    save_dir = save_folder(args)  # before the console opens: not after the last of a new encounter's questions
    if args.command == "demo":
        return run("demo", save_dir=save_dir, ruleset=args.ruleset)
    return run("new", save_dir=save_dir)


def _watch(args: argparse.Namespace) -> int:
    from .watch import run_watch

    return run_watch(args.path, args.side)


def _serve(args: argparse.Namespace) -> int:
    from .serve import run_serve

    return run_serve(args.path, args.side, args.host, args.port)


_COMMANDS = {
    "check": _check,
    "log": _log,
    "rulesets": _rulesets,
    "keep-edits": _keep_edits,
    "resume": _resume,
    "ship": _ship,
    "forecast": _forecast,
    "demo": _console,
    "open": _console,
    "new": _console,
    "watch": _watch,
    "serve": _serve,
}

if __name__ == "__main__":
    sys.exit(main())
