"""The few errors the engine raises.

Each message shows the bad input and what was expected, so the console and the
command line can print it as it is (STYLE.md: python-chess error types).
"""


class FlagbridgeError(ValueError):
    """Base of every error a game master can cause and read."""


class BadDiceValue(FlagbridgeError):
    """A typed roll the dice cannot produce, or text that is not a roll."""


class BadDiceExpression(FlagbridgeError):
    """A dice notation the engine does not understand."""


class IllegalAction(FlagbridgeError):
    """An action that the rules or the current step do not allow now."""


class BadSave(FlagbridgeError):
    """A save file that cannot be loaded; the message names file and field."""


class LogDoesNotReplay(BadSave):
    """A save whose log today's rules no longer replay (a rules fix since it was written): ``flagbridge resume``
    can carry the fight on from its saved state. Its message holds ``WORDS``."""

    WORDS = "the log does not replay"


class StateBeyondLog(BadSave):
    """A save whose [state] holds values its replayed log does not have at all: the sign of a log cut short (or a
    [state] from a later point of the fight). ``keep-edits`` cannot record such values (a correction changes a
    value that is there); ``flagbridge resume`` carries the fight on from the [state]. Its message holds
    ``WORDS``."""

    WORDS = "the log never made"


class BadTable(FlagbridgeError):
    """A table or ship file that fails validation; names file and entry."""


class UnknownRuleset(FlagbridgeError):
    """A ruleset id that no installed ruleset answers to."""


class SaveInUse(FlagbridgeError):
    """A save a console already has open in another process: a second console on it would write over the
    first's events (``engine.inuse``). Its message holds ``WORDS``."""

    WORDS = "open in another Flagbridge console"
