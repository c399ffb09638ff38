"""Reading a file a game master handed us: bytes to text to TOML, every problem one line.

Kept free of the rest of the engine so that saves, tables and ship files can
all read through it without importing each other.
"""

from __future__ import annotations

import re
import stat
from datetime import timezone
from pathlib import Path
from typing import Any

from .errors import BadSave, BadTable, FlagbridgeError

#: A save larger than this is refused before it is read (a 50,000-event fight is a few MiB).
MAX_FILE_BYTES = 256 << 20


#: Control characters a message may quote from a file (an ESC would reach the terminal as an escape code).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def one_line(exc: BaseException | str) -> str:
    """A message on one line (a newline in a side id must not split it), never empty, and with any control
    character it quotes from a file written out (``\\x1b``), never sent to the terminal."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text) if _CONTROLS.search(text) else text


def read_text(path: Path) -> str:
    """The file as text, or a BadSave naming what is wrong with its bytes."""
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(st.st_mode):
            raise BadSave(f"{path}: not a regular file (a device or a pipe cannot be a save)")
        if st.st_size > MAX_FILE_BYTES:
            raise BadSave(f"{path}: {st.st_size} bytes is too large to be a save")
        data = path.read_bytes()
    except BadSave:
        raise
    except FileNotFoundError:
        raise BadSave(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadSave(f"{path}: is a folder, expected a .toml file") from None
    except OSError as exc:
        raise BadSave(f"{path}: cannot read ({exc.strerror})") from None
    except ValueError:  # a NUL byte in the path
        raise BadSave(f"{path!r}: not a usable file name") from None
    if not data.strip():
        raise BadSave(f"{path}: the file is empty")
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise BadSave(f"{path}: line {line}: NUL byte at offset {nul}; a save is plain text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BadSave(f"{path}: line {line}: bytes at offset {exc.start} are not UTF-8 text") from None


_TIMELIKE = re.compile(r"[0-9]:[0-9]")  # a TOML time or date-time has one; without it there is none
#: What rtoml reads as TOML 1.1 but TOML 1.0 refuses (control characters, a lone CR, the new escapes):
#: such a file goes to tomllib, which names the mistake.
_NOT_1_0 = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)|\\(?![btnfr\"\\uU\s])")


def read_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file (tables, ships, doctrines); bad bytes or syntax become one error naming the file.

    Read by rtoml, twelve times quicker than tomllib on the shipped tables (equal data for every one
    of them), which start-up reads; a file rtoml refuses, or with what only TOML 1.1 allows, is read
    by tomllib, whose message names the line and column. (rtoml also takes an inline table written
    over several lines, as TOML 1.1 does.) A text in it holding a control character is refused by its field
    (``control_fault``), as a save's is.
    """
    try:
        text = read_text(Path(path))
    except BadSave as exc:
        raise BadTable(str(exc)) from None
    doc = _read_toml_text(path, text)
    if may_hold_controls(text) and (fault := control_fault(doc)):
        raise BadTable(f"{path}: {fault}")
    return doc


def _read_toml_text(path: Path | str, text: str) -> dict[str, Any]:
    """``read_toml``'s reading of the text: rtoml, else tomllib for its message."""
    if not _NOT_1_0.search(text):
        import rtoml

        try:
            doc = rtoml.loads(text)
        except (rtoml.TomlParsingError, RecursionError, ValueError, OverflowError, MemoryError):
            pass  # tomllib says why, below
        else:
            return standard_times(doc) if _TIMELIKE.search(text) else doc
    if _keys_too_deep(text):  # tomllib takes minutes over a key of tens of thousands of parts
        raise BadTable(f"{path}: not a readable file: a key or table name of more than {MAX_KEY_PARTS} parts")
    import tomllib  # here: only for what rtoml refuses, so a start-up never loads it

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadTable(f"{path}: not valid TOML: {one_line(exc)}") from None
    except (RecursionError, ValueError, MemoryError) as exc:  # nesting too deep, a number too long
        raise BadTable(f"{path}: not a readable file: {type(exc).__name__}: {one_line(exc)}") from None




#: Parts a dotted key or table name may have for tomllib to be asked (its time grows with the square of them);
#: no file of ours has more than a handful.
MAX_KEY_PARTS = 1000


#: ``_keys_too_deep``'s weighing of a byte: a dot stays, what a key's part is made of (letters, digits, _ and -,
#: quotes, spaces, and every byte of a letter outside ASCII: a quoted "кессель") goes, anything else ends a run
#: of dots (a comma between numbers, a bracket, a line end).
_KEY_PARTS = bytes(c if c == ord(".") else ord(" ") if c >= 0x80 or chr(c).isalnum() or c in b"_-\"' \t"
                   else ord("|") for c in range(256))


def _keys_too_deep(text: str) -> bool:
    """Whether ``MAX_KEY_PARTS`` dots follow each other with only names between them: one key of that many
    parts, or a run a string happens to hold (cautious: such a file is refused, never read for minutes)."""
    marks = text.encode("utf-8", "surrogatepass").translate(_KEY_PARTS).translate(None, b" ")
    return b"." * MAX_KEY_PARTS in marks


class NotToml(FlagbridgeError):
    """Text a TOML reader refused, with its reason on one line."""


#: How deep arrays and inline tables may nest for toml-rs to read a save: it crashes the interpreter
#: (a stack overflow, not an error) somewhere between 1,000 and 10,000 levels; a save nests about 4.
FAST_READER_DEPTH = 64
#: Each byte of a text as ``fast_readable`` weighs it: a hex digit or ``_`` (part of a number) ``x``, the
#: brackets, dots and line ends as they are, anything else a space.
_MARKS = bytes(ord("x") if c in b"0123456789abcdefABCDEF_" else c if c in b"[]{}.\n" else 32 for c in range(256))


def fast_readable(text: str, depth: int = FAST_READER_DEPTH) -> bool:
    """Whether toml-rs may read ``text``: arrays and inline tables nest about ``depth`` levels of each kind
    at most, no key has more than 16 parts, and no number runs past 19 digits (toml-rs reads whole numbers
    of any length, and keys dotted thousands deep, where rtoml refuses them: a save never holds them).

    Cautious, never wrong the other way: a bracket, dot or digits inside a string count too, and a text
    refused here is read by rtoml. Three passes of ``bytes.translate`` at C speed (~2 ms a MB); the
    nesting is then taken apart innermost pair by pair, a round for each level of each kind."""
    marks = text.encode("utf-8", "surrogatepass").translate(_MARKS)
    if b"xxxxxxxxxxxxxxxxxxxx" in marks or b"................" in marks.translate(None, b" x[]{}"):
        return False
    nests = marks.translate(None, b" x.\n")
    for _ in range(depth):
        if not nests:
            return True
        fewer = nests.replace(b"[]", b"").replace(b"{}", b"")
        if len(fewer) == len(nests):
            return False
        nests = fewer
    return not nests


def parse_toml(text: str) -> dict[str, Any]:
    """A save's text as data: read by toml-rs when it nests shallowly (every save Flagbridge writes),
    else by rtoml.

    Measured on a 50-a-side fleet fight of 10,000 events (3.7 MB): tomllib ~1 s, rtoml 120 ms,
    toml-rs 70 ms. toml-rs crashes the interpreter on nesting thousands deep, which only a damaged or
    hostile file holds (``fast_readable`` checks in ~2 ms a MB); rtoml refuses deep nesting with an error.
    toml-rs gives standard ``datetime.timezone`` zones; rtoml's own zone class cannot be pickled
    (``standard_time``). Every refusal is a ``NotToml`` on one line.
    """
    fast = fast_readable(text)
    if fast:
        import toml_rs  # here, not at the top: the console's start-up does not need it

        reader, refused = toml_rs.loads, toml_rs.TOMLDecodeError
    else:
        import rtoml

        reader, refused = rtoml.loads, rtoml.TomlParsingError
    try:
        doc = reader(text)
    except refused as exc:
        raise NotToml(f"not valid TOML: {one_line(exc)}") from None
    except (RecursionError, ValueError, OverflowError, MemoryError) as exc:
        raise NotToml(f"not a readable file: {type(exc).__name__}: {one_line(exc)}") from None
    # rtoml's times carry its own zone class: made standard, as toml-rs gives them, so a file reads the same
    # whichever reader its text sends it to (a save read whole by rtoml, or in parts by toml-rs)
    if fast or not _TIMELIKE.search(text):
        return doc
    try:
        return standard_times(doc)
    except RecursionError:
        raise NotToml("not a readable file: RecursionError: nested too deep") from None


#: C0 controls but the line ends and the tab, DEL and the C1 controls: shown as written, an ESC or a CSI would
#: reach the terminal as an escape code (a line end and a tab are laid out as text: a table's note has them).
_CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
#: Where one can stand in a TOML text: written as an escape, or raw where a reader takes it (TOML 1.1's readers
#: do). A text with neither holds none, and is not walked (``control_fault``).
_MAY_HOLD_CONTROLS = re.compile(r"[\\\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


#: The bytes of an ASCII text that ``_MAY_HOLD_CONTROLS`` finds: its controls but a line end or tab, DEL, a backslash.
_CONTROL_BYTES = bytes([*range(0x09), 0x0b, 0x0c, *range(0x0e, 0x20), 0x7f]) + b"\\"


def may_hold_controls(text: str) -> bool:
    """Whether ``text`` may hold a control character in a value (cautious: any backslash counts, one in a comment
    too). An ASCII text (the usual save) is looked at as bytes, three times quicker than the pattern over a long
    log (12 ms against 36 for 50,000 events); any other by the pattern."""
    if text.isascii():
        raw = text.encode("ascii")
        return len(raw.translate(None, _CONTROL_BYTES)) != len(raw)
    return _MAY_HOLD_CONTROLS.search(text) is not None


def control_fault(doc: Any) -> str:
    """Where the file's data holds a control character, in one line ("setup.ships.arrow.name: holds a control
    character ('\\x1b') ..."), or "" when it holds none. Every text of a save, ship or table is shown on the
    screen, in ``flagbridge log`` or on the players' screen as written (never as markup), so the file may not
    carry an escape code to the terminal; refused where it is read, it never reaches one. Keys are left to the
    checks of ids and field names, which say what one may be. Walked without recursion: a damaged file may nest
    deep."""
    todo: list[tuple[str, Any]] = [("", doc)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, str):
            if _CONTROL_CHARACTER.search(value):
                return holds_control(where or "the file", value)
        elif isinstance(value, dict):
            todo += [(f"{where}.{key}" if where else str(key), inner) for key, inner in reversed(value.items())]
        elif isinstance(value, list):
            todo += [(f"{where}[{i}]", inner) for i, inner in reversed(list(enumerate(value)))]
    return ""


def holds_control(where: str, text: str) -> str:
    """Why ``text`` may not be shown as written, naming ``where`` ("" when it may): what a game master types is
    held to the rule a file is (``control_fault``), so that nothing recorded makes the save unreadable."""
    found = _CONTROL_CHARACTER.search(text)
    if found is None:
        return ""
    return (f"{where}: holds a control character ('\\x{ord(found.group()):02x}'), which the screen would not show "
            "as text; take it out")


_ZONES: dict[Any, Any] = {}


def standard_time(value: Any) -> Any:
    """A datetime or time with ``datetime.timezone`` for its zone (anything else as it is)."""
    tz = getattr(value, "tzinfo", None)
    if tz is None or type(tz) is timezone:
        return value
    offset = value.utcoffset()
    zone = _ZONES.get(offset)
    if zone is None:
        zone = _ZONES[offset] = timezone.utc if not offset else timezone(offset)
    return value.replace(tzinfo=zone)


def standard_times(value: Any) -> Any:
    """Every datetime in nested data made ``standard_time`` (for the small parts of a save)."""
    if isinstance(value, dict):
        return {k: standard_times(v) for k, v in value.items()}
    if isinstance(value, list):
        return [standard_times(v) for v in value]
    return standard_time(value)
