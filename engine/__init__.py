"""Flagbridge engine: dice, the event-logged encounter, saves and tables.

Pure Python; imports no user interface and no game system. Some of its modules, and of the rulesets', may run
compiled from their own source (``engine.compiled``), installed here before any of them is imported.
"""

from .compiled import install as _install_compiled

__version__ = "0.1.0"
_install_compiled()
