"""What the load-error screen tells a game master to do, by what went wrong.

Found by a game master's drive: ``flagbridge open`` of a mistyped path said "nope.toml was not changed. Fix it by
hand, or run 'flagbridge check nope.toml'", of a file that is not there.
"""

from __future__ import annotations

from pathlib import Path

from tui.app import FlagbridgeApp


async def _help_of(reason: str, path: Path) -> str:
    app = FlagbridgeApp(load_error=reason, error_path=path)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        return str(app.screen.query_one("#error-help").render())


async def test_a_path_with_no_file_is_told_to_check_the_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    said = " ".join((await _help_of(f"{missing}: no such file", missing)).split())
    assert "was not changed" not in said and "Fix it by hand" not in said
    assert "Check the path, or run 'flagbridge' alone to pick a recent save from the list." in said


async def test_a_file_that_did_not_load_is_still_said_to_be_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("x")
    said = " ".join((await _help_of(f"{bad}: not valid TOML", bad)).split())
    assert f"{bad} was not changed" in said
