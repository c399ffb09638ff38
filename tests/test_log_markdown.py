"""``flagbridge log --markdown``: a recap that reads right once a Markdown renderer has it, for every ruleset.

Found by a game master's drive: the line under the title named only ships, so a percentile fight read
"Swift Dolan's marines: ; Aracnian boarders: " and gothic's planetary defences were left out; names went into
the Markdown as they were, so a ship called ``*Red* Lantern`` came out in italics and ``<b>`` as HTML; and the
entries were an ordered list numbered by the log's groups (1, 4, 5, 7...), which a renderer numbers 1, 2, 3, 4,
so the numbers no longer matched the console's log.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from engine.encounter import Encounter
from engine.recap import markdown, md_text
from engine.saves import SaveFile
from tests.demos import shipped_demos
from tests.skirmish import SKIRMISH, first_shots, make_setup

#: markup a game master may type into a name without meaning any of it
MARKUP = "*Red* _Lantern_ <b>x</b> [site](http://x) `c` #1 \\o/ a|b ~~s~~ &amp;"


def rendered(text: str) -> str:
    return MarkdownIt("commonmark").enable("table").enable("strikethrough").render(text)


@pytest.mark.parametrize("ruleset", sorted(shipped_demos()))
def test_the_line_under_the_title_names_every_unit_of_every_side(ruleset: str) -> None:
    enc = SaveFile.load(shipped_demos()[ruleset]).encounter
    line = markdown(enc).splitlines()[2]
    for _kind, _uid, unit in enc.ruleset.units(enc.state):
        if unit.get("side"):
            assert md_text(unit["name"]) in line, (ruleset, unit["name"], line)
    assert ": ;" not in line and not line.endswith(": ")


def test_markup_in_names_is_shown_as_typed() -> None:
    setup = make_setup()
    setup.name = f"Duel {MARKUP}"
    setup.ships["arrow"]["name"] = f"Arrow {MARKUP}"
    enc = Encounter(setup, SKIRMISH)
    first_shots(enc)
    html = rendered(markdown(enc))
    for made in ("<em>Red", "<em>Lantern", "<strong>Red", "<a ", "<b>", "<code>", "<del>", "<s>", "<table"):
        assert made not in html, made
    shown = "*Red* _Lantern_ &lt;b&gt;x&lt;/b&gt; [site](http://x) `c` #1 \\o/ a|b ~~s~~ &amp;amp;"
    assert f"<h1>Duel {shown}</h1>" in html
    assert html.count(f"Arrow {shown}") == 2  # the sides' line and the fire entry


def test_each_entry_keeps_its_number_from_the_log_once_rendered() -> None:
    enc = Encounter(make_setup(), SKIRMISH)
    enc.act("initiative")
    enc.type_roll("2")
    enc.type_roll("6")
    enc.act("next")  # a bare next: left out, so the next entry is group 3
    enc.act("scan", side="blue", target="brute")
    enc.type_roll("6 6")
    text = markdown(enc)
    html = rendered(text)
    assert "<ol" not in html  # a renderer numbers an ordered list itself: 1, 2 where the log says 1, 3
    assert "<strong>1</strong> initiative" in html and "<strong>3</strong> scan" in html
    assert "<li>Initiative blue: 1D typed [2] +1 Tactics = 3</li>" in html  # the rolls nested under their entry


def test_a_detail_set_in_under_another_is_nested_under_it_when_rendered(tmp_path: Path) -> None:
    """The percentile wound descriptions, two spaces in under the damage line, are a list under it."""
    from tests.playouts import replay_record
    from engine.forecast import Playout, pick_doctrines

    path = tmp_path / "brawl.toml"
    path.write_bytes(shipped_demos()["percentile"].read_bytes())
    save = SaveFile.load(path)
    enc, rs = save.encounter, save.encounter.ruleset
    chosen = pick_doctrines(rs, rs.side_ids(enc.state), {})
    play = Playout(rs, enc.state, 7, record=True)
    play.run(rs.commander({s: settings for s, (_, settings) in chosen.items()}), 1)
    replay_record(enc, play.record)
    text = markdown(enc)
    indented = [line for line in text.splitlines() if line.startswith("    - ")]
    assert indented, "no description under a wound"
    assert not [line for line in text.splitlines() if line.startswith("  -   ")]  # the spaces became nesting
    assert "<ul>\n<li>" in rendered(text).split("points to the", 1)[1][:400]
