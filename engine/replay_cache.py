"""Replay caches: a long fight opens without replaying again the part of its log it replayed before.

Opening a save replays its whole log through the rules (DESIGN.md "Saves"): that
proves the log and builds the checkpoints undo needs, and on a campaign of tens
of thousands of events it is half the load. Beside ``NAME.toml`` a save keeps
``.NAME.toml.replay``: the encounter's checkpoints at the end of each whole block
of ``LOG_BLOCK`` events (its state, frozen), the notes the rules made for each of
those events and each one's kind and group, with what made them:

- a stamp of the code and tables that replayed them (every file of the engine's,
  the ruleset's and its guests' packages, and the game master's own table
  files, by path, size and time of change), of the TOML reader and of the setup;
- the digest of each block's text, exactly as the file holds it.

A load whose file still holds the same setup and the same first blocks, read by
the same code and tables, starts from the checkpoint at the end of the last block
that matches and replays only what follows; the events of those blocks are read
from their text only when something asks for them (``engine.saves._cached_read``,
``engine.encounter.UnreadEvent``). Anything else (an event edited by
hand, a table changed, another Flagbridge) only means more of the log is
replayed, as before: the cache can make a load quicker, never different. The
file's ``[state]`` is still compared with the state the load arrives at.

The cache is signed (HMAC-SHA256) with a key of the user's own, kept in their
state folder; nothing in it is read as data before the signature holds, so a
cache that came with someone else's save is ignored and a save stays data only.
"""

from __future__ import annotations

import marshal
import os
import sys
from pathlib import Path
from typing import Iterable

from .atomic import remove_stale_temps, write_atomic

MAGIC = b"flagbridge-replay-cache 3\n"  # 3: checkpoints frozen by marshal
KEY_BYTES = 32
#: Where the signing key lives: $FLAGBRIDGE_STATE_DIR, else $XDG_STATE_HOME/flagbridge, else ~/.local/state/flagbridge.
KEY_NAME = "replay-cache.key"

_key: bytes | None = None


def cache_path(save: Path) -> Path:
    save = Path(save)
    return save.with_name(f".{save.name}.replay")


def state_folder() -> Path:
    own = os.environ.get("FLAGBRIDGE_STATE_DIR")
    if own:
        return Path(own)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "flagbridge"


def signing_key() -> bytes | None:
    """The user's key, made on first use; None where it can be neither read nor made (no cache then)."""
    global _key
    if _key is not None:
        return _key
    path = state_folder() / KEY_NAME
    try:
        data = path.read_bytes()
        if len(data) == KEY_BYTES:
            _key = data
            return _key
    except OSError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = os.urandom(KEY_BYTES)
        write_atomic(path, [key], backup=False, mode=0o600)  # the signing key stays the user's alone
        _key = key
        return key
    except OSError:
        return None


def forget_key() -> None:
    """Read the key again on next use (tests point FLAGBRIDGE_STATE_DIR elsewhere)."""
    global _key
    _key = None


#: A file changed this close before ``unchanged_since`` counts as changed after it (file systems keep
#: coarse times, some to the second or two).
CLOCK_SLACK_NS = 2_000_000_000


def stamp(ruleset, guests: Iterable, setup_text: str, table_paths: Iterable[Path],
          unchanged_since: int | None = None) -> bytes | None:
    """What the checkpoints depend on besides the log: the code, the tables and the setup.

    ``unchanged_since`` (``time.time_ns()``): None when a file stamped is missing or was changed (or
    renamed into place) at or after that time, so a stamp taken late still describes what was read then.
    """
    import hashlib  # here, not at import: a start-up with a short save never needs it (OpenSSL's load)

    from . import __file__ as engine_file

    import rtoml  # the readers of the texts a cached load leaves unread until asked (engine.encounter.UnreadEvent)
    import toml_rs

    h = hashlib.blake2b(digest_size=32)
    readers = f"{getattr(rtoml, '__version__', '?')}|{getattr(toml_rs, '__version__', '?')}"
    h.update(f"{sys.version_info[:2]}|{readers}|{ruleset.id}|".encode())
    files = []
    for where in [Path(engine_file)] + [_code_of(rs) for rs in (ruleset, *guests)]:
        if where is None:
            continue
        if where.name != "__init__.py":  # a ruleset in a module of its own: that file
            files.append(where)
            continue
        files += [path for path in sorted(where.parent.rglob("*"))  # a package: its code and its data files
                  if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts]
    files += sorted(Path(p) for p in table_paths)
    for path in files:
        try:
            st = path.stat()
        except OSError:
            if unchanged_since is not None:
                return None
            h.update(f"{path}|missing\n".encode())
            continue
        if unchanged_since is not None and max(st.st_mtime_ns, st.st_ctime_ns) >= unchanged_since - CLOCK_SLACK_NS:
            return None
        h.update(f"{path}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    h.update(setup_text.encode("utf-8"))
    return h.digest()


def _code_of(rs) -> Path | None:
    module = sys.modules.get(type(rs).__module__)
    file = getattr(module, "__file__", None)
    return Path(file) if file else None


def block_digests(blocks: Iterable[bytes]) -> list[bytes]:
    import hashlib

    return [hashlib.blake2b(b, digest_size=32).digest() for b in blocks]


def write(save: Path, code: bytes, blocks: list[bytes], checkpoints: dict[int, bytes],
          notes: list[list[str]], heads: tuple[str, list[int]] | None = None) -> None:
    """Keep the checkpoints up to the end of ``blocks`` (each LOG_BLOCK events' text, as in the file), and
    the notes the rules made for each of those events (the log shows them; a replay made them).
    ``heads``: each of those events' kind (its first letter) and group, so that a load can leave their
    text unread until something asks for it (``engine.encounter.UnreadEvent``).
    Never raises: a cache that cannot be written only means a slower load."""
    key = signing_key()
    if key is None or not blocks:
        return
    import hashlib
    import hmac

    try:
        kept = {"code": code, "blocks": block_digests(blocks), "notes": notes,
                "checkpoints": {int(n): bytes(b) for n, b in checkpoints.items()}}
        if heads is not None:
            kept["kinds"], kept["groups"] = str(heads[0]), [int(g) for g in heads[1]]
        payload = marshal.dumps(kept)
        mac = hmac.new(key, payload, hashlib.sha256).digest()
        remove_stale_temps(cache_path(save))  # of a cache write killed half way
        write_atomic(cache_path(save), [MAGIC, mac, payload], backup=False, mode=0o600)
    except (OSError, ValueError):
        pass


def read(save: Path, code: bytes, blocks: Iterable[bytes]) -> tuple[int, dict[int, bytes], list, tuple | None] | None:
    """(whole blocks that match, the checkpoints, the events' notes, their heads) from the cache beside ``save``,
    or None. The heads are (kinds, groups) as ``write`` was given them, or None when it was given none.

    ``blocks`` are the file's own blocks of events (made as they are compared); the result counts how
    many of the first ones hold the same text the cache was made from."""
    key = signing_key()
    if key is None:
        return None
    import hashlib
    import hmac

    try:
        data = cache_path(save).read_bytes()
    except OSError:
        return None
    head = len(MAGIC) + 32
    if not data.startswith(MAGIC) or len(data) < head:
        return None
    mac, payload = data[len(MAGIC):head], data[head:]
    if not hmac.compare_digest(mac, hmac.new(key, payload, hashlib.sha256).digest()):
        return None
    try:
        kept = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not isinstance(kept, dict) or kept.get("code") != code:
        return None
    same = 0
    for block, theirs in zip(blocks, kept.get("blocks", [])):
        if hashlib.blake2b(block, digest_size=32).digest() != theirs:
            break
        same += 1
    notes = kept.get("notes")
    if not same or not isinstance(notes, list):
        return None
    kinds, groups = kept.get("kinds"), kept.get("groups")
    heads = (kinds, groups) if isinstance(kinds, str) and isinstance(groups, list) else None
    return same, kept.get("checkpoints", {}), notes, heads
