"""What a value typed in the unit editor of ``flagbridge new`` reads as (``tui.screens.unit_edit.parse_value``).

Values are typed as TOML writes them, and a bare word is text. Found by a game master's drive: a ship renamed
"[i]Dolan[/i]" was refused as "not a TOML value (check the brackets and quotes)", where the console's ``c`` takes
any text for a name; a text field now takes what was typed as the text whenever TOML would read it as something
else or not at all.
"""

from __future__ import annotations

import pytest

from tui.screens.unit_edit import parse_value


@pytest.mark.parametrize("typed, value", [
    ('"Swift Dolan"', "Swift Dolan"),        # as the field shows the old value
    ("Swift Dolan", "Swift Dolan"),
    ("[i]Dolan[/i]", "[i]Dolan[/i]"),        # markup-like text is text
    ("'Lucky' Jim", "'Lucky' Jim"),
    ("{Kestrel}", "{Kestrel}"),
    ("1999", "1999"),                        # a ship may be named for a year
    ("true", "true"),
    ("[1, 2]", "[1, 2]"),
])
def test_a_text_field_takes_what_was_typed(typed: str, value: str) -> None:
    assert parse_value(typed, "str") == value


@pytest.mark.parametrize("typed, kind, value", [
    ("30", "int", 30),
    ("true", "bool", True),
    ('["TARGET", "LAUNCH"]', "names", ["TARGET", "LAUNCH"]),
    ("{ bridge = 3 }", "table", {"bridge": 3}),
    ("lots", "int", "lots"),                 # a bare word stays text: the field's check then refuses it by name
])
def test_other_fields_read_toml(typed: str, kind: str, value: object) -> None:
    assert parse_value(typed, kind) == value


@pytest.mark.parametrize("typed", ['["TARGET", "LAUNCH"', "{ bridge = 3", '"Anna'])
def test_a_broken_list_table_or_quote_is_still_refused_outside_a_text_field(typed: str) -> None:
    with pytest.raises(ValueError, match="not a TOML value"):
        parse_value(typed, "names")
