"""Game systems, one package each; installed ones are found through the
``flagbridge.rulesets`` entry point group (see pyproject.toml)."""
