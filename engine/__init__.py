"""Flagbridge engine: dice, the event-logged encounter, saves and tables.

Pure Python; imports no user interface and no game system.
"""

__version__ = "0.1.0"
