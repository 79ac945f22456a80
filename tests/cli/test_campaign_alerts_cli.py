"""A command-line campaign raises the app's alert when it finishes or stops: a line on stderr
(never on stdout, so --json stays JSON); where stderr is a terminal the bell, and with
``desktop_notifications`` (opt-in) the terminal's desktop notification (OSC 9 / 777)."""

from __future__ import annotations

import io
import sys

import pytest

from gateway_tui.main import main
from tests.support import json_lines


def send(tmp_path, *more: str) -> list[str]:
    to = tmp_path / "to.csv"
    to.write_text("number,name\n" + "".join(f"49172{i:08d},P{i}\n" for i in range(5)))
    return [
        "send-list",
        "--instance",
        "sales-eu",
        "--draft",
        "Weekly menu",
        "--to",
        str(to),
        "--rate",
        "max",
        *more,
    ]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def desktop_on() -> None:
    from gateway_tui.core.files.config import config_path

    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("desktop_notifications = true\n", encoding="utf-8")
    path.chmod(0o600)


def test_a_finished_campaign_alerts_on_stderr_and_json_stays_json(gateway, tmp_path, capsys):
    assert main([*send(tmp_path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert [e["event"] for e in json_lines(out)][-1] == "end"  # every stdout line is JSON
    (alert,) = [line for line in err.splitlines() if "alert:" in line]
    assert "sales-eu" in alert and "finished" in alert and "5 sent" in alert
    assert "\a" not in err and "\x1b]" not in err  # not a terminal: no bell, no sequence


@pytest.mark.parametrize("desktop", [False, True])
def test_on_a_terminal_the_bell_and_opt_in_desktop_notification(
    gateway, tmp_path, monkeypatch, desktop
):
    if desktop:
        desktop_on()
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(send(tmp_path)) == 0
    err = terminal.getvalue()
    assert "\a" in err
    assert ("\x1b]9;gateway-tui: campaign finished:" in err) is desktop
    assert ("\x1b]777;notify;gateway-tui: campaign finished;" in err) is desktop


def test_a_stopped_campaign_alerts_as_stopped(gateway, tmp_path, capsys):
    gateway.faults.add("unauthorized", method="POST", path_prefix="/message/")
    assert main(send(tmp_path)) == 4
    err = capsys.readouterr().err
    (alert,) = [line for line in err.splitlines() if "alert:" in line]
    assert "stopped" in alert and "refused the API key" in alert
