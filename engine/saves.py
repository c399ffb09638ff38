"""Encounter save files: one readable TOML file, written atomically, loaded with checks.

Layout, in this order (DESIGN.md "Saves"):

- ``[flagbridge]``: format version, ruleset, name, created and updated times, seed;
- ``[setup]``: sides, the units of each kind (ships, people...) and options as they were at the start;
- ``[state]``: the current state, rewritten on every save from the log;
- ``[[events]]``: the log, one entry per event.

Reading uses toml-rs (``reading.parse_toml``: fast on a long log); the header keeps its
tomlkit document so a game master's comments and layout survive, the setup and
every event keep the exact text they were read from or first written as, and
only the state is generated anew (and only when the log changed). An autosave is
therefore kept texts (every ``LOG_BLOCK`` events already joined and encoded) plus
one state table, written as parts to a temporary file, then an atomic replace.
"""

from __future__ import annotations

import copy
import gc
import re
import shlex
import threading
import time
import unicodedata
from datetime import datetime, timezone
from itertools import groupby
from pathlib import Path
from typing import Any, Callable, Iterator

from . import inuse, replay_cache, toml_text
from .atomic import remove_stale_temps, write_atomic
from .reading import NotToml, control_fault, may_hold_controls, one_line, parse_toml, read_text, standard_times
from .corrections import value_said
from .encounter import KINDS, Encounter, Event, ReplayError, UnreadBlock, UnreadEvent, kept_notes
from .errors import (BadSave, BadTable, FlagbridgeError, IllegalAction, LogDoesNotReplay, StateBeyondLog,
                     UnknownRuleset)
from .ruleset import Ruleset, find_ruleset
from .setup import Setup
from .state import MISSING, check_plain, differences, get_path, path_text, plain_copy, thaw

FORMAT = 1
#: A save at least this long is written by ``save_soon`` on a thread of its own: writing and syncing
#: megabytes takes longer than a frame, the key that caused it should not wait for the disk.
BACKGROUND_BYTES = 1 << 20
HEADER_COMMENT = (
    "# Flagbridge encounter. Readable and hand-editable: [setup] is the start of the fight,\n"
    "# [state] is rewritten from the log on every save, [[events]] is the log itself.\n"
)

_EVENTS_LINE = re.compile(r"^[ \t]*\[\[[ \t]*events[ \t]*\]\][ \t]*(#.*)?$", re.M)
# The same header found from its brackets: a pattern that starts with text is searched for that text
# at C speed, where one that starts at each line's start is tried at every character (a tenth of a
# 50,000-event load went to that). ``_event_starts`` keeps the line-start rule.
_EVENTS_HEADER = re.compile(r"\[\[[ \t]*events[ \t]*\]\][ \t]*(?:#[^\n]*)?(?=\n|\Z)")
_SETUP_LINE = re.compile(r"^[ \t]*\[\[?[ \t]*setup[ \t]*[\].]", re.M)
_STATE_LINE = re.compile(r"^[ \t]*\[\[?[ \t]*state[ \t]*[\].]", re.M)


class SaveFile:
    """An encounter bound to its file, with the texts that make saving cheap."""

    def __init__(self, path: Path | str, encounter: Encounter, header_text: str | None = None,
                 setup_text: str | None = None, code: bytes | None = None,
                 code_later: tuple | None = None) -> None:
        self.path = Path(path)
        self.encounter = encounter
        self._header_text = _checked_header(header_text) or _new_header(encounter)
        self._setup_text = setup_text if setup_text is not None else _setup_text(encounter.setup)
        self._swept = False
        self._state_text: tuple[tuple, bytes] | None = None  # (the log and state it was written from, text)
        self._blocks: list[tuple[int, Event, bytes]] = []  # (events up to, the last of them, their text)
        self._write_lock = threading.Lock()
        self._writer = _Writer(self._write)
        #: The replay cache: the stamp of the code, tables and setup the encounter was made with (None:
        #: no cache) and the events the cache on disk covers (their count and the last of them).
        #: ``code_later``: what a short save's stamp is made from, when its log first fills a block.
        self._code_later = code_later if code is None else None
        self._code: bytes | None = code if code is not None or code_later is not None else _code_stamp(
            encounter.setup, encounter.ruleset, self._setup_text, self.path.parent)
        self._cached: tuple[int, Event | None] = (0, None)
        self._on_disk: tuple | None = None  # ``_written_key`` of the text last written whole by this session
        self._setup_digest = setup_digest(self._setup_text)  # the text is never changed while the file is open
        self._held: inuse.Hold | None = None

    def hold(self) -> "SaveFile":
        """Lock the save for this process, as a console does (``load(hold=True)``); ``SaveInUse`` if another has it."""
        if self._held is None:
            self._held = inuse.hold(self.path)
        return self

    def release(self) -> None:
        """Let another console open the save (a process that ends lets it go in any case)."""
        held, self._held = self._held, None
        if held is not None:
            held.release()

    @property
    def on_write_error(self):
        return self._writer.on_error

    @on_write_error.setter
    def on_write_error(self, fn) -> None:
        """Called on the writer thread with the exception of a background write that failed."""
        self._writer.on_error = fn

    # --- writing -------------------------------------------------------------------

    def text(self) -> str:
        return b"".join(self._parts()).decode("utf-8")

    def _parts(self) -> list[bytes]:
        """The file as UTF-8 parts: header and setup, the state, then the log in kept blocks."""
        return _joined(self._head_part(), self._state_part(), self._log_parts())

    def _head_part(self) -> bytes:
        enc = self.encounter
        # a resumed fight with nothing played since keeps the header's time (its resume), not the setup's creation
        header = with_updated(self._header_text, enc.updated) if enc.events or enc.setup.start is None \
            else self._header_text
        self._header_text = _with_setup_digest(header, self._setup_digest)
        return (self._header_text.rstrip("\n") + "\n\n" + self._setup_text.rstrip("\n") + "\n\n").encode("utf-8")

    def _state_key(self) -> tuple:
        enc = self.encounter
        return len(enc.events), enc.events[-1] if enc.events else None, enc.state

    def _kept_state(self, key: tuple) -> bytes | None:
        """The [state] text last written, if the log has not changed since (the same events, the same state)."""
        kept = self._state_text
        if kept is None or kept[0][0] != key[0] or kept[0][1] is not key[1] or kept[0][2] is not key[2]:
            return None
        return kept[1]

    def _state_part(self) -> bytes:
        """The [state] table, written again only when the log has changed since the last save."""
        key = self._state_key()
        text = self._kept_state(key)
        if text is None:
            text = self._state_text_of(key, self.encounter.state)
        return text

    def _state_text_of(self, key: tuple, state: dict) -> bytes:
        try:
            text = (toml_text.table(["state"], state) + "\n").encode("utf-8")
        except TypeError:  # a value no save can hold: name where it is
            check_plain(state)
            raise
        self._state_text = (key, text)
        return text

    def _log_parts(self) -> list[bytes]:
        """Each event's text, written once; every ``LOG_BLOCK`` events are kept joined and encoded.

        The log only changes at its end, so a block whose last event is still in its place holds
        the same events as when it was joined; an undo past it drops it and it is joined anew.
        """
        events = self.encounter.events
        blocks = self._blocks
        while blocks and not (len(events) >= blocks[-1][0] and events[blocks[-1][0] - 1] is blocks[-1][1]):
            blocks.pop()
        done = blocks[-1][0] if blocks else 0
        while len(events) - done >= LOG_BLOCK:
            end = done + LOG_BLOCK
            blocks.append((end, events[end - 1], "".join(_event_text(ev) for ev in events[done:end]).encode("utf-8")))
            done = end
        tail = "".join(_event_text(ev) for ev in events[done:])
        return [b for _end, _last, b in blocks] + [tail.encode("utf-8")]

    def save(self) -> None:
        """Write the file atomically, keeping the previous version as ``NAME.bak``; a write still
        under way on the writer thread finishes first, and one waiting is replaced by this one."""
        self._writer.drop_waiting()
        parts = self._parts()
        self._write(parts, self._cache_job(), self._written_key(parts[0]), skip_if_on_disk=True)
        self._writer.error = None  # the file is current: an earlier background failure is mended

    def _written_key(self, head: bytes) -> tuple:
        """What a written file is made from: the log (its length and last event; the state is their product)
        and the header and setup as written. The last event by identity as well as by value: after an undo, a log
        as long as before may end in an equal event (times are kept to the second) while an earlier one differs,
        and the file once kept the old log. The key holds the event, so its id is no other object's meanwhile."""
        events = self.encounter.events
        last = events[-1] if events else None
        return len(events), id(last), last, head

    def _write(self, parts: list, cache: tuple | None = None, key: tuple | None = None,
               skip_if_on_disk: bool = False) -> None:
        """``key``: what the text is made from (``_written_key``); ``skip_if_on_disk`` leaves the file alone when it
        holds that text already (a ctrl+s or quit after the autosave), so ``NAME.bak`` keeps the version before."""
        if len(parts) > 1 and isinstance(parts[1], _LaterState):  # ``save_soon``: the state's text made here
            parts = _joined(parts[0], parts[1].text(), parts[2:])
        with self._write_lock:  # one write at a time, in the order they were asked for
            held = skip_if_on_disk and key is not None and key == self._on_disk and self.path.exists()
            if not self._swept:  # once a session: temps of a save (or its replay cache) killed mid-write
                remove_stale_temps(self.path)
                remove_stale_temps(replay_cache.cache_path(self.path))
                self._swept = True
            if not held:
                self._on_disk = None  # while the file is being replaced
                write_atomic(self.path, parts)
                self._on_disk = key
            if cache is not None:  # after the save it belongs to: a kill between leaves it behind, unused
                replay_cache.write(self.path, *cache)

    def _cache_job(self) -> tuple | None:
        """The replay cache to keep after this save, when the log's whole blocks are not the ones it
        holds (a block more, or an undo past its end): the stamp, the blocks' texts, their checkpoints."""
        blocks = self._blocks  # as ``_log_parts`` left them for this save
        if blocks and self._code_later is not None:
            self._code, self._code_later = _code_stamp(*self._code_later), None
        if not blocks or self._code is None:
            return None
        end, last, _text = blocks[-1]
        if self._cached[0] == end and self._cached[1] is last:
            return None
        self._cached = (end, last)
        events = self.encounter.events
        # the checkpoints at the blocks' ends only: a tenth of the size, and undo goes that far back seldom
        # (it replays from the nearest one before, as it does from any checkpoint)
        kept = {n: b for n, b in self.encounter.checkpoints_upto(end).items() if n % LOG_BLOCK == 0}
        heads = ("".join([ev.kind[0] for ev in events[:end]]), [ev.group for ev in events[:end]])
        return self._code, [b for _end, _last, b in blocks], kept, [kept_notes(ev) for ev in events[:end]], heads

    def save_soon(self) -> None:
        """Save now when the file is short; a long one's text is taken now and written on the writer
        thread, so the caller goes on at once. A newer text replaces one not yet written; either way
        the file on disk is always a whole save. ``on_write_error`` hears of a failed background write."""
        head, log = self._head_part(), self._log_parts()
        cache = self._cache_job()
        last = self._state_text[1] if self._state_text is not None else b""  # its size stands for the new one's
        if len(head) + sum(len(p) for p in log) + len(last) < BACKGROUND_BYTES:
            self._writer.drop_waiting()
            self._write(_joined(head, self._state_part(), log), cache, self._written_key(head))
            self._writer.error = None
        else:  # the state's text too is made on the writer thread, from a copy taken now (a fleet's takes 20 ms)
            key = self._state_key()
            state = self._kept_state(key)
            later = state if state is not None else _LaterState(self, key, self.encounter.frozen_state())
            self._writer.submit(([head, later, *log], cache, self._written_key(head)))

    def flush(self) -> None:
        """Wait until every save asked for is on disk; raise the error of the last one if it failed."""
        self._writer.flush()

    def autosave(self) -> "SaveFile":
        """Save after every change to the encounter (event, undo or redo)."""
        self.encounter.listeners.append(lambda _enc: self.save())
        return self

    # --- reading ------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path | str, keep_edits: bool = False, ruleset: Ruleset | None = None,
             cached_replay: bool = True, progress: Callable[[int, int], None] | None = None,
             hold: bool = False) -> "SaveFile":
        """Load and check a save; never writes. Every problem is one BadSave line.

        ``hold``: for a console, which writes the save after every event: the save is locked for this process
        before it is read (``engine.inuse``; ``release`` lets it go), and one another console holds is refused.

        ``cached_replay``: start the replay from the checkpoints kept beside the save for the part of
        the log it still holds unchanged (``engine.replay_cache``); False replays the whole log.
        ``progress(done, total)``: told of the events replayed, once the file is read and now and then after."""
        path = Path(path)
        held = inuse.hold(path) if hold else None
        try:
            save = cls._load(path, keep_edits, ruleset, cached_replay, progress)
        except BaseException:
            if held is not None:
                held.release()
            raise
        save._held = held
        return save

    @classmethod
    def _load(cls, path: Path, keep_edits: bool, ruleset: Ruleset | None, cached_replay: bool,
              progress: Callable[[int, int], None] | None) -> "SaveFile":
        began = time.time_ns()  # before the ruleset's code and the tables are read
        text = read_text(path)
        collecting = gc.isenabled()
        gc.disable()  # a long log is hundreds of thousands of new objects, none of them garbage yet:
        try:          # the collector's passes over them cost a third of the load
            starts = _event_starts(text)
            header_text, setup_text = kept_texts(text)
            suspect = may_hold_controls(text)  # read whole, every text of it looked at (``control_fault``)
            try:
                quick = _cached_read(path, text, starts, setup_text, ruleset) if cached_replay and not suspect else None
            except Exception:  # noqa: BLE001 (a quick read that cannot vouch leaves it to the whole file's)
                quick = None
            if quick is None:
                try:
                    doc = parse_toml(text)
                except NotToml as exc:
                    raise BadSave(f"{path}: {exc}") from None
            if suspect and (fault := control_fault(doc)):
                raise BadSave(f"{path}: {fault}")
            try:
                if quick is not None:  # the blocks the replay cache vouches for are left unread (``_cached_read``)
                    doc, setup, rs, events, code, resume, blocks = quick
                    later = None
                else:
                    blocks = []
                    setup, rs = read_setup(doc, ruleset)
                    events = _read_events(doc, text, starts)
                    if len(events) >= LOG_BLOCK:  # a cache may be read: stamped now, before the replay reads tables
                        code, later = _code_stamp(setup, rs, setup_text, path.parent), None
                    else:  # none can be: stamped when the log first fills a block, if nothing changed since now
                        code, later = None, (setup, rs, setup_text, path.parent, began)
                    resume = _kept_replay(path, code, events) if code is not None and cached_replay else None
                if progress is not None:
                    progress(resume[0] if resume is not None else 0, len(events))
                enc = _replay(setup, rs, events, text, path.parent, resume, progress)
                header_text, setup_text = writable_texts(doc, header_text, setup_text)
                head = doc.get("flagbridge", {})
                as_written = setup_text is not None and head.get("setup_digest") == setup_digest(setup_text)
                _check_state(doc, enc, keep_edits, as_written, path)
            except FlagbridgeError as exc:
                kind = next((k for k in (LogDoesNotReplay, StateBeyondLog) if isinstance(exc, k)), BadSave)
                raise kind(f"{path}: {one_line(exc)}") from None
            except Exception as exc:  # a value no check foresaw: still one line, and the file is untouched
                raise BadSave(f"{path}: cannot be read: {type(exc).__name__}: {one_line(exc)}") from None
        finally:
            if collecting:
                _made_old()
                gc.enable()
        save = cls(path, enc, header_text, setup_text, code, later if setup_text is not None else None)
        if len(enc.events) == len(events):  # nothing recorded while loading (kept edits are): the file is the fight
            save._on_disk = save._written_key(save._head_part())  # a quit with nothing new then writes nothing
        if resume is not None:  # the cache already holds these blocks: nothing to write until the log grows
            save._cached = (resume[0], events[resume[0] - 1])
            # and the file holds their text, joined and encoded as a save writes it: kept for the next save
            save._blocks = [(end, events[end - 1], block) for end, block in zip(range(LOG_BLOCK, resume[0] + 1,
                                                                                      LOG_BLOCK), blocks)]
        return save


def _made_old() -> None:
    """The objects a load made while the collector was off, moved to its oldest generation without a pass.

    Left young, the first allocation once the collector is back on would start a pass over all of them (for
    50,000 events, 90 ms: a tenth of the load); they are the fight, alive as long as it is open. Freezing then
    unfreezing moves every tracked object to the oldest generation in one step, so an unrelated young cycle
    is only collected later. Not done when something is frozen already (the console freezes what it keeps
    for the session): unfreezing would hand that back to the collector."""
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


LOG_BLOCK = 1000  # events joined and encoded together, once


class _Writer:
    """Writes a save's newest text on a thread that lives only while there is something to write.

    The thread is not a daemon: an interpreter that exits waits for the write under way, so the
    last event asked for reaches the disk. Texts are whole files; a newer one replaces a waiting one.
    """

    def __init__(self, write) -> None:
        self._write = write
        self._cond = threading.Condition()
        self._waiting: tuple | None = None
        self._busy = False
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.on_error = None

    def submit(self, job: tuple) -> None:
        """``job``: what ``write`` is called with (the file's parts, and the replay cache to keep)."""
        with self._cond:
            if self._waiting is not None and self._waiting[1] is not None and job[1] is None:
                job = (job[0], self._waiting[1], *job[2:])  # a newer text does not drop the older one's cache
            self._waiting = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="flagbridge-save", daemon=False)
                self._thread.start()

    def drop_waiting(self) -> None:
        """A save written now makes the one waiting out of date (the write under way still ends first)."""
        with self._cond:
            self._waiting = None

    def flush(self) -> None:
        with self._cond:
            while self._waiting is not None or self._busy:
                self._cond.wait()
            error, self.error = self.error, None
        if error is not None:
            raise error

    def _run(self) -> None:
        while True:
            with self._cond:
                job, self._waiting = self._waiting, None
                if job is None:
                    self._thread = None
                    self._cond.notify_all()
                    return
                self._busy = True
            error: BaseException | None = None
            try:
                self._write(*job)
            except Exception as exc:  # reported, never lost with the thread
                error = exc
            with self._cond:
                self._busy = False
                if error is not None:
                    self.error = error
                self._cond.notify_all()
            if error is not None and self.on_error is not None:
                try:
                    self.on_error(error)
                except Exception:
                    pass


def _joined(head: bytes, state: bytes, log: list[bytes]) -> list[bytes]:
    parts = [p for p in (head, state, *log) if p]
    parts[-1] = parts[-1].rstrip(b"\n") + b"\n"  # the file ends in one newline
    return parts


class _LaterState:
    """The [state] of a save written on the writer thread: a frozen copy of the state, written out there."""

    def __init__(self, save: SaveFile, key: tuple, frozen: bytes) -> None:
        self.save, self.key, self.frozen = save, key, frozen

    def text(self) -> bytes:
        return self.save._state_text_of(self.key, thaw(self.frozen))


def _event_text(ev: Event) -> str:
    if ev.text is None:
        ev.text = toml_text.event(ev.plain())
    return ev.text


def _header_line(key: str) -> re.Pattern:
    """The header's ``key = value`` line: (up to the value, the value, any comment after it)."""
    return re.compile(rf"^([ \t]*{key}[ \t]*=[ \t]*)([^#\n]*?)([ \t]*(?:#[^\n]*)?)$", re.M)


_UPDATED = _header_line("updated")


def _checked_header(header_text: str | None) -> str | None:
    """The header as the game master left it, if it holds the [flagbridge] table alone."""
    if header_text is None:
        return None
    try:
        doc = parse_toml(header_text)  # as the whole file was just read (tomllib is not loaded at start-up)
    except NotToml:
        return None
    if set(doc) != {"flagbridge"} or not _UPDATED.search(header_text):
        return None
    return header_text


def with_updated(header_text: str, when: datetime) -> str:
    """Only the ``updated`` value changes on a save; comments and layout stay as they are."""
    return _UPDATED.sub(lambda m: m.group(1) + toml_text.value(when) + m.group(3), header_text, count=1)


_SETUP_DIGEST = _header_line("setup_digest")


def setup_digest(setup_text: str) -> str:
    """A short digest of the [setup] text as a file holds it (``_check_state``: was [setup] edited by hand?).

    A CRC-32 and the length: it tells an edit from none (no one forges it: a mismatch only makes the load read
    [state] copies of setup values as the setup's), and zlib spares a start-up hashlib's OpenSSL."""
    import zlib

    data = setup_text.strip().encode("utf-8")
    return f"{zlib.crc32(data):08x}-{len(data)}"


def _with_setup_digest(header_text: str, digest: str) -> str:
    """The header's ``setup_digest`` set to ``digest``: its value replaced, or the line added after ``updated``."""
    line = f'"{digest}"'
    if _SETUP_DIGEST.search(header_text):
        return _SETUP_DIGEST.sub(lambda m: m.group(1) + line + m.group(3), header_text, count=1)
    return _UPDATED.sub(lambda m: m.group(0) + f"\nsetup_digest = {line}", header_text, count=1)


def _new_header(enc: Encounter) -> str:
    import tomlkit  # only for a new file: loading and autosaving never need it

    doc = tomlkit.document()
    for line in HEADER_COMMENT.strip().splitlines():
        doc.add(tomlkit.comment(line.lstrip("# ")))
    head = tomlkit.table()
    head["format"] = FORMAT
    head["ruleset"] = enc.setup.ruleset
    head["name"] = enc.setup.name
    head["created"] = enc.setup.created
    head["updated"] = enc.updated
    head["seed"] = enc.setup.seed
    doc["flagbridge"] = head
    return tomlkit.dumps(doc)


def _setup_text(setup: Setup) -> str:
    import tomlkit

    text = tomlkit.dumps({"setup": setup.body()})
    if setup.start is not None:  # a whole state: written as [state] is, not through tomlkit (slow for a fleet's)
        text = text.rstrip("\n") + "\n\n" + toml_text.table(["setup", "start"], setup.start)
    return text


def writable_texts(doc: dict, header_text: str | None, setup_text: str | None) -> tuple[str | None, str | None]:
    """The kept header and setup texts, or (None, None) to write both anew: a save rewrites ``setup_digest`` by
    its line in the header, so one held another way (a ``[flagbridge.setup_digest]`` table, a dotted key, in the
    header or among the setup's tables) would get a second line beside it, and the file written would not open."""
    head = doc.get("flagbridge")
    digest = head.get("setup_digest") if isinstance(head, dict) else None
    if digest is not None and not (isinstance(digest, str) and header_text is not None
                                   and _SETUP_DIGEST.search(header_text)):
        return None, None
    return header_text, setup_text


def kept_texts(text: str) -> tuple[str | None, str | None]:
    """The header and setup texts as written, when the sections come in the usual order."""
    m_setup = _SETUP_LINE.search(text)
    m_state = _STATE_LINE.search(text)
    m_events = _EVENTS_LINE.search(text)
    if not m_setup:
        return None, None
    end = m_state.start() if m_state else (m_events.start() if m_events else len(text))
    if end < m_setup.start() or (m_events and m_events.start() < m_setup.start()):
        return None, None
    return text[: m_setup.start()], text[m_setup.start(): end]


# --- checks ------------------------------------------------------------------------

def _want(table: dict, key: str, kind: type | tuple, where: str, words: str) -> Any:
    if key not in table:
        raise BadSave(f"{where}: missing {key} ({words})")
    v = table[key]
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise BadSave(f"{where}.{key}: expected {words}, got {v!r}")
    return v


def read_setup(doc: dict, ruleset: Ruleset | None) -> tuple[Setup, Ruleset]:
    extra = sorted(set(doc) - {"flagbridge", "setup", "state", "events"})
    if extra:
        raise BadSave(f"unknown top-level table [{extra[0]}] (expected flagbridge, setup, state, events)")
    head = _want(doc, "flagbridge", dict, "file", "the [flagbridge] header table")
    fmt = _want(head, "format", int, "flagbridge", "a whole number")
    if fmt != FORMAT:
        raise BadSave(f"flagbridge.format: unknown format version {fmt} (this Flagbridge reads {FORMAT})")
    head = standard_times(head)
    rid = _want(head, "ruleset", str, "flagbridge", "a ruleset id")
    name = _want(head, "name", str, "flagbridge", "text")
    created = _want(head, "created", datetime, "flagbridge", "a date and time")
    _want(head, "updated", datetime, "flagbridge", "a date and time")
    seed = _want(head, "seed", int, "flagbridge", "a whole number")
    try:
        rs = ruleset or find_ruleset(rid)
    except UnknownRuleset as exc:
        raise BadSave(f"flagbridge.ruleset: {exc}") from None
    if rs.id != rid:
        raise BadSave(f"flagbridge.ruleset: {rid!r} does not match ruleset {rs.id!r}")
    body = standard_times(_want(doc, "setup", dict, "file", "the [setup] table"))
    sides = _want(body, "sides", list, "setup", "a list of sides")
    keys = [k.key for k in rs.unit_kinds if k.in_setup]
    allowed = ["sides", *keys, *(["people"] if "people" not in keys else []), "options", "start"]
    units = {}
    for key in keys:
        if key == "ships" or key in body:
            units[key] = _want(body, key, dict, "setup", f"a table of {key}")
    if "people" in body and "people" not in units:
        units["people"] = _want(body, "people", dict, "setup", "a table of people")
    options = body.get("options", {})
    extra = [k for k in body if k not in allowed]
    if extra:
        raise BadSave(f"setup.{extra[0]}: unknown field (expected {', '.join(allowed)})")
    if created.tzinfo is None:
        created = created.replace(tzinfo=timezone.utc)
    start = body.get("start")
    if start is not None and not isinstance(start, dict):
        raise BadSave("setup.start: expected the table of the state the fight resumes from")
    setup = Setup(rid, name, sides, units, options, seed, created, start)
    return setup, rs


_KIND_LETTERS = {kind[0]: kind for kind in KINDS}


def _cached_read(path: Path, text: str, starts: list[int], setup_text: str | None, ruleset: Ruleset | None):
    """The save read with the blocks of its log that its replay cache vouches for left unread: (doc, setup,
    ruleset, events, code stamp, resume, the blocks' texts) or None, when no cache serves (the whole file is
    then read as before).

    The text before the first ``[[events]]`` line and the text from the first block the cache does not hold
    are parsed apart; together they read as the whole file would when the first defines no ``events`` and
    the second nothing but ``[[events]]`` tables. Anything else, a mistake included, is left to the reading
    of the whole file, whose messages name its lines. The blocks in between are the very text the cache was
    made from (their digests say so), already read then: their events are ``UnreadEvent``s."""
    if len(starts) < LOG_BLOCK or setup_text is None or not replay_cache.cache_path(path).exists():
        return None
    try:
        doc = parse_toml(text[:starts[0]])
        if "events" in doc:
            return None
        setup, rs = read_setup(doc, ruleset)
    except FlagbridgeError:
        return None
    code = _code_stamp(setup, rs, setup_text, path.parent)
    if code is None:
        return None
    chunks = _chunks(text, starts)
    compared: list[bytes] = []  # the blocks as the cache compares them, kept for the next save

    def kept(blocks: Iterator[bytes]) -> Iterator[bytes]:
        for block in blocks:
            compared.append(block)
            yield block

    found = replay_cache.read(path, code, kept(_log_blocks(chunks)))
    if found is None or found[3] is None:
        return None
    same, checkpoints, notes, (kinds, groups) = found
    n = same * LOG_BLOCK
    if len(kinds) < n or len(groups) < n or not all([type(g) is int for g in groups[:n]]):
        return None
    try:
        rest = parse_toml(text[starts[n]:]) if n < len(starts) else {}
    except NotToml:
        return None
    if set(rest) - {"events"}:
        return None
    doc["events"] = rest.get("events", [])
    events: list[Event] = []
    for first in range(0, n, LOG_BLOCK):
        block = UnreadBlock()
        for i in range(first, first + LOG_BLOCK):
            kind = _KIND_LETTERS.get(kinds[i])
            if kind is None:
                return None
            block.events.append(UnreadEvent(kind, groups[i], chunks[i], block))
        events += block.events
    try:
        events += _read_events(doc, text, starts, n, groups[n - 1])
    except FlagbridgeError:
        return None
    return doc, setup, rs, events, code, (n, checkpoints, notes), compared[:same]


def _chunks(text: str, starts: list[int], first: int = 0) -> list[str]:
    """Each event's text from ``starts[first]`` on, as a save keeps it (the last one ends in a blank line)."""
    bounds = starts + [len(text)]
    chunks = [text[bounds[i]: bounds[i + 1]] for i in range(first, len(starts))]
    if chunks:
        chunks[-1] = chunks[-1].rstrip("\n") + "\n\n"
    return chunks


def _read_events(doc: dict, text: str, starts: list[int], first: int = 0, last_group: int | None = None) -> list[Event]:
    """The log's events, checked; each event's table of ``doc`` becomes its data (taken, not copied).

    ``first``: the events of ``doc`` are the file's from this one on (the ones before are read from the replay
    cache), the last of those in ``last_group``."""
    raw = doc.get("events", [])
    if not isinstance(raw, list):
        raise BadSave("events: expected [[events]] entries")
    chunks: list[str | None]
    if len(starts) - first == len(raw):
        chunks = _chunks(text, starts, first)
    else:
        chunks = [None] * len(raw)  # unusual layout: events are written afresh
    events = []
    append = events.append
    for i, (d, chunk) in enumerate(zip(raw, chunks), first):
        # the usual event in one test of exact types; anything else is checked field by field
        kind = d.get("kind") if type(d) is dict else None
        if not (kind is not None and type(d.get("group")) is int and isinstance(d.get("at"), datetime)
                and (type(d.get("name")) is str and type(d.get("args", _EMPTY)) is dict if kind == "action"
                     else _looks_right(kind, d))):  # an action, the usual event, tested here without a call
            _check_event(d, f"events[{i}]" + (f" (line {text.count(chr(10), 0, starts[i]) + 1})"
                                              if chunk is not None else ""))
        group = d.pop("group")
        if last_group is not None and group < last_group:
            raise BadSave(f"events[{i}].group: groups must not go down (got {group} after {last_group})")
        last_group = group
        del d["kind"]
        append(Event(kind, group, d.pop("at"), d, chunk))  # the reader's zone kept: see Encounter.updated
    return events


def _event_starts(text: str) -> list[int]:
    """Where each ``[[events]]`` line starts (the lines ``_EVENTS_LINE`` matches, found faster)."""
    starts = []
    for m in _EVENTS_HEADER.finditer(text):
        i = m.start()
        if i and text[i - 1] != "\n":  # only spaces and tabs may come before it on its line
            line = text.rfind("\n", 0, i) + 1
            if text[line:i].strip(" \t"):
                continue
            i = line
        starts.append(i)
    return starts


def _looks_right(kind: Any, d: dict) -> bool:
    """The fields every event of its kind needs, of the right types (the quick test)."""
    if kind == "action":
        return type(d.get("name")) is str and type(d.get("args", _EMPTY)) is dict
    if kind == "roll":
        return (type(d.get("purpose")) is str and type(d.get("dice")) is str and type(d.get("natural")) is int
                and type(d.get("source")) is str)
    return kind == "correction" and type(d.get("path")) is list


_EMPTY: dict = {}


def _check_event(d: Any, where: str) -> None:
    """The field-by-field check of one event, raising BadSave on the first problem."""
    if not isinstance(d, dict):
        raise BadSave(f"{where}: expected a table")
    kind = _want(d, "kind", str, where, "action, roll or correction")
    if kind not in KINDS:
        raise BadSave(f"{where}.kind: unknown event kind {kind!r} (expected {', '.join(KINDS)})")
    _want(d, "group", int, where, "a whole number")
    _want(d, "at", datetime, where, "a date and time")
    if kind == "action":
        _want(d, "name", str, where, "the action's name")
        if "args" in d and not isinstance(d["args"], dict):
            raise BadSave(f"{where}.args: expected a table, got {d['args']!r}")
    elif kind == "roll":
        _want(d, "purpose", str, where, "text")
        _want(d, "dice", str, where, "a dice expression")
        _want(d, "natural", int, where, "a whole number")
        _want(d, "source", str, where, "roller or typed")
    else:
        _want(d, "path", list, where, "a list of keys")


def _code_stamp(setup: Setup, rs: Ruleset, setup_text: str | None, folder: Path,
                unchanged_since: int | None = None) -> bytes | None:
    """What a replay cache must have been made with (``replay_cache.stamp``): the code, the tables and
    the [setup] text as the file holds it. None (no cache) when the file's layout hides that text, or
    when a file it stamps changed at or after ``unchanged_since`` (``time.time_ns()``): a stamp taken
    after the load must be of the files the load read.

    A short save (under ``LOG_BLOCK`` events) has no cache to read, and its stamp is taken only when
    its log first fills a block: a start-up neither imports the rulesets it may call (``uses``) nor
    looks at every file of the code for a cache it may never write."""
    if setup_text is None:
        return None
    try:
        from .tables import table_files

        guests = [find_ruleset(rid) for rid in rs.uses]
        tables = [Path(p) if Path(p).is_absolute() else folder / p for p in table_files(setup.options).values()]
        return replay_cache.stamp(rs, guests, setup_text.strip(), tables, unchanged_since)
    except (FlagbridgeError, OSError, TypeError, ValueError):
        return None


def _log_blocks(texts: list[str | None]) -> Iterator[bytes]:
    """The events' texts in whole blocks of LOG_BLOCK, as a save writes them, one block at a time (a cache
    is compared block by block, and the first that differs ends it); none past an event whose text the
    file's layout did not give."""
    for start in range(0, len(texts) - LOG_BLOCK + 1, LOG_BLOCK):
        block = texts[start:start + LOG_BLOCK]
        if None in block:
            return
        yield "".join(block).encode("utf-8")


def _kept_replay(path: Path, code: bytes, events: list[Event]) -> tuple[int, dict[int, bytes], list] | None:
    if len(events) < LOG_BLOCK or not replay_cache.cache_path(path).exists():
        return None
    found = replay_cache.read(path, code, _log_blocks([ev.text for ev in events]))
    if found is None:
        return None
    same, checkpoints, notes, _heads = found
    return same * LOG_BLOCK, checkpoints, notes


def _replay(setup: Setup, rs: Ruleset, events: list[Event], text: str, folder: Path | None = None,
            resume: tuple[int, dict[int, bytes], list] | None = None,
            progress: Callable[[int, int], None] | None = None) -> Encounter:
    try:
        return Encounter(setup, rs, events, folder=folder, resume=resume, progress=progress)
    except BadTable as exc:
        other = _reads_as(setup, rs)
        hint = f" (the setup reads as a {other} fight: is flagbridge.ruleset {rs.id!r} right?)" if other else ""
        raise BadSave(f"{exc}{hint}") from None
    except ReplayError as exc:
        line = ""
        if exc.event.text is not None:
            pos = text.find(exc.event.text)
            line = f" (line {text.count(chr(10), 0, pos) + 1})" if pos >= 0 else ""
        raise LogDoesNotReplay(f"events[{exc.index}]{line}: {LogDoesNotReplay.WORDS}: {exc.reason}") from None


def _check_state(doc: dict, enc: Encounter, keep_edits: bool, setup_as_written: bool = False,
                 path: Path | None = None) -> None:
    """Compare the file's [state] with the replayed one; a hand edit becomes corrections or an error.

    A value the file holds and the log does not make at all is no edit a correction can record (a correction
    changes a value that is there): it is what a log cut short leaves (the [state] of a later point, above fewer
    events), so the message says so and points to ``resume`` (``path`` is named in it), never to keep-edits.

    ``setup_as_written``: the file's [setup] is the text its last save wrote (the header's ``setup_digest``), so
    a [state] value that differs from the setup's was edited by hand; otherwise a [state] copy of a setup value
    may be one an edit of [setup] left behind (a unit renamed), and the setup wins it (``_from_setup``)."""
    if "state" not in doc:
        return
    saved = doc["state"]
    if not isinstance(saved, dict):
        raise BadSave(f"state: expected a table, got {saved!r}")
    # A value the file does not hold is no hand edit: [state] is a readable copy, and a newer
    # Flagbridge may keep more in it than the version that wrote the file.
    def edits(state: dict) -> list[tuple]:
        return [d for d in differences(state, saved) if d[0] and d[0][0] != "pending" and d[2] is not MISSING
                and (setup_as_written or not _from_setup(enc, d[0], d[1]))]

    diffs = edits(enc.state)
    if not diffs:
        return
    diffs = _not_from_earlier_rules(enc, diffs, edits)
    if not diffs:
        return
    more = f" (and {len(diffs) - 1} more)" if len(diffs) > 1 else ""
    added = next((d for d in diffs if d[1] is MISSING), None)
    if added is not None:
        resume = f"flagbridge resume {shlex.quote(str(path))}" if path is not None else "flagbridge resume"
        raise StateBeyondLog(
            f"state.{path_text(added[0])} is {_show(added[2])} in the file but {StateBeyondLog.WORDS} it{more}: "
            f"the log may have lost events; {resume} carries the fight on from [state] (keeping the file as it "
            "is beside it), or taking [state] out opens the fight as its log has it"
        )
    if not keep_edits:
        at, live, edited = diffs[0]
        raise BadSave(
            f"state.{path_text(at)} is {_show(edited)} in the file but the log gives {_show(live)}{more}; "
            "open with --keep-edits to record the edit as a correction"
        )
    # One correction at a time, as the game master would type them; edits that hold each other's limits (points
    # spent and the borrowed points among them, both lowered) may need another order, so a refused one is tried
    # again after the rest, and only a round that takes none ends it. An edit an earlier one already made (the
    # other half of a swap in an order of sides) records nothing.
    waiting = diffs
    while waiting:
        refused: list[tuple[tuple, IllegalAction]] = []
        for d in waiting:
            at, _live, edited = d
            if get_path(enc.state, at) == edited:
                continue
            try:
                enc.correct(at, plain_copy(edited) if not isinstance(edited, str) else edited,
                            note="hand edit kept on load")
            except IllegalAction as exc:
                refused.append((d, exc))
        if len(refused) == len(waiting):
            raise refused[0][1]
        waiting = [d for d, _exc in refused]


def _not_from_earlier_rules(enc: Encounter, diffs: list[tuple], edits: Callable[[dict], list[tuple]]) -> list[tuple]:
    """The differences left once a save written by an earlier version of the rules is read as that version wrote it.

    The log is replayed with each of the ruleset's earlier readings (``Ruleset.earlier_readings``), after today's
    rules as the engine played them before (``_engine_before``); a reading that leaves fewer differences from the
    file than today's is taken for the version that wrote it, and only the values it does not give either are
    hand edits (reported, or kept, against today's state). Fewer, not as few: a file of today's rules with one
    value edited back to an older result is still an edit."""
    best = diffs
    for reading in (*_engine_before(enc), *enc.ruleset.earlier_readings()):
        try:
            then = Encounter(enc.setup, reading, [Event(e.kind, e.group, e.at, e.data) for e in enc.events],
                             folder=enc.folder).state
        except FlagbridgeError:  # a log only today's rules replay was not written by that version
            continue
        left = {d[0] for d in edits(then)}
        if len(left) < len(diffs):
            kept = [d for d in diffs if d[0] in left]
            if len(kept) < len(best):
                best = kept
    return best


def _engine_before(enc: Encounter) -> tuple[Ruleset, ...]:
    """Today's rules as the engine played a table corrected whole before each value it gives was kept for its own
    playing out (``Ruleset.keeps_given_values``): an engine change, which no ruleset's earlier readings name (theirs
    turn it off for the versions before). Only for a log that holds such a correction (no other replays otherwise);
    a copy, as the ruleset itself is shared by every fight."""
    if not any(e.kind == "correction" and isinstance(e.data.get("value"), (dict, list)) for e in enc.events):
        return ()
    before = copy.copy(enc.ruleset)
    before.keeps_given_values = False
    return (before,)


def _reads_as(setup: Setup, rs: Ruleset) -> str:
    """Another ruleset whose units the setup's units check out as, when its own do not."""
    from .ruleset import available
    from .setup import check_setup

    held = {key for key, table in setup.units.items() if table}  # the kinds of unit the setup names
    for rid in available():
        if rid == rs.id or rid.startswith("test-"):
            continue
        try:
            other = find_ruleset(rid)
            if not held or not held <= {k.key for k in other.unit_kinds if k.in_setup}:
                continue  # a ruleset with no such units (percentile has no ships) is not what the setup reads as
            trial = Setup(rid, setup.name, plain_copy(setup.sides), plain_copy(setup.units),
                          plain_copy(setup.options), setup.seed, setup.created)
            check_setup(trial, other.unit_kinds)
        except Exception:  # noqa: BLE001 (any failure means "not this one")
            continue
        return rid
    return ""


def _from_setup(enc: Encounter, path: tuple, live: Any) -> bool:
    """A [state] copy left behind by an edit of [setup] (a unit renamed, a value of a resumed fight's
    [setup.start]): the setup wins, no correction."""
    if enc.setup.start is not None:
        try:
            if get_path(enc.setup.start, path) == live:
                return True
        except FlagbridgeError:  # the start holds no such value
            pass
    if len(path) != 3:
        return False
    table = enc.setup.units.get(path[0])
    unit = table.get(path[1]) if isinstance(table, dict) else None
    return isinstance(unit, dict) and path[2] in unit and unit[path[2]] == live


def _show(v: Any) -> str:
    """A value of [state] in a message, as the log reads it (``value_said``)."""
    return "(missing)" if v is MISSING else value_said(v)


# --- convenience ----------------------------------------------------------------------

def create(path: Path | str, encounter: Encounter) -> SaveFile:
    """A new save file for a new encounter, written at once."""
    sf = SaveFile(path, encounter)
    sf.save()
    return sf


STEM_LETTERS = 80  # a save's file name keeps the first 80 letters of its name...
STEM_BYTES = 160  # ...and at most 160 bytes of them, so that NAME.toml, its .bak and its temporary file fit in 255


def _kept(c: str) -> bool:
    """A character a file name keeps: a letter, digit or mark of any script (a Devanagari vowel sign is a mark),
    and ``_ . -``; never a slash, a look-alike of one (a symbol), a space or an invisible control."""
    return c.isalnum() or unicodedata.category(c)[0] == "M" or c in "_.-"


def _stem(name: str) -> str:
    """An encounter name as a file name with no folder in it: each run of other characters becomes one "-",
    and dots and dashes at the ends go (so ``..`` and hidden files cannot be made)."""
    text = unicodedata.normalize("NFC", name.strip())  # é typed as one character or as e and an accent: one file
    stem = "".join("".join(run) if kept else "-" for kept, run in groupby(text, _kept)).strip(".-")
    # cut to the letters and bytes a file name may hold; a letter the byte limit splits goes whole
    cut = stem[:STEM_LETTERS].encode()[:STEM_BYTES].decode(errors="ignore")
    return cut.strip(".-") or "encounter"


def save_path(folder: Path | str, name: str) -> Path:
    """A file name from an encounter name that can only land inside ``folder``; letters of any script stay
    ("Засада у Кесселя" is saved as ``Засада-у-Кесселя.toml``)."""
    return Path(folder) / f"{_stem(name)}.toml"


def free_save_path(folder: Path | str, name: str) -> Path:
    """``save_path``, or when that file is there already, the first of ``NAME-2.toml``, ``NAME-3.toml``... that is
    not (the number after the name is cut to its first letters, so it always tells two apart)."""
    stem = _stem(name)
    path, n = Path(folder) / f"{stem}.toml", 2
    while path.exists():
        path, n = Path(folder) / f"{stem}-{n}.toml", n + 1
    return path
