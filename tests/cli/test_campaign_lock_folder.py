"""A campaign whose `lock` is a folder (issue 29): a plain message, nothing sent, no traceback —
on the command line and in the app."""

from __future__ import annotations

import pytest

from gateway_tui.core.campaign.journal import JournalError, open_campaign
from gateway_tui.main import main
from tests.support import new_campaign


def _with_a_folder_lock(server):
    campaign = new_campaign(server, count=2)
    campaign.unlock()
    lock = campaign.dir / "lock"
    if lock.exists():
        lock.unlink()
    lock.mkdir()
    return campaign


def test_the_campaign_says_its_lock_cannot_be_used(demo_server) -> None:
    campaign = _with_a_folder_lock(demo_server)
    with pytest.raises(JournalError, match="lock file .* cannot be used .*nothing was sent"):
        open_campaign(campaign.id).lock()


def test_send_list_says_so_and_sends_nothing(gateway, capsys) -> None:
    campaign = _with_a_folder_lock(gateway)
    status = main(["send-list", "--resume", campaign.id, "--rate", "max"])
    said = capsys.readouterr()
    assert status == 1
    assert "lock file" in said.err and "move it away" in said.err
    assert "Traceback" not in said.err + said.out
    assert sum(gateway.state.sends_by_number.values()) == 0
