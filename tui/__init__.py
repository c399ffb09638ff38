"""Flagbridge's terminal side: the command line and (later) the Textual console.

Importing this package loads no Textual; the console is imported only when a
command opens it, so ``flagbridge check`` stays quick.
"""
