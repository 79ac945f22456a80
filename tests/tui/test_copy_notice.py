"""Copying: the notice says how the text was sent to the clipboard, never claims more."""

from __future__ import annotations

import pytest

from tests.support import notices, wait_for

SIZE = (140, 40)


@pytest.mark.in_process
async def test_copying_says_how_it_was_sent_instead_of_claiming_copied(app_for, monkeypatch):
    monkeypatch.setenv("TMUX", "/tmp/tmux-1000/default,1,0")
    app = app_for()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        said = "\n".join(notices(app))
        assert "Copied" not in said
        assert "OSC 52" in said and "set-clipboard on" in said
        assert app.clipboard == app.screen.table.cursor_row.instance_name


async def test_the_copy_notice_gives_the_tmux_advice_only_when_tmux_holds_it_back(
    app_for, tmp_path, monkeypatch
):
    from gateway_tui.tui.screens import base
    from tests.support import notices, wait_for

    fake = tmp_path / "bin" / "tmux"
    fake.parent.mkdir()
    monkeypatch.setenv("PATH", f"{fake.parent}:/usr/bin:/bin")
    monkeypatch.setenv("TMUX", "/tmp/tmux-1000/default,1,0")
    app = app_for()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.state.instances.value))
        for setting, advised in (("on", False), ("off", True)):
            fake.write_text(f"#!/bin/sh\necho {setting}\n")
            fake.chmod(0o755)
            base.tmux_passes_clipboard.cache_clear()
            app.clear_notifications()
            app.screen.copy("sales-eu", "Instance name")
            await pilot.pause()
            said = " ".join(notices(app))
            assert "Instance name: sales-eu" in said
            assert ("set-clipboard on" in said) is advised, said
