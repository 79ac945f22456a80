"""send-list says the right thing (issue 29): an instance that does not exist is said as such,
not as "no saved draft"."""

from __future__ import annotations

from gateway_tui.main import main


def test_an_unknown_instance_is_said_before_its_missing_draft(gateway, tmp_path, capsys) -> None:
    to = tmp_path / "to.csv"
    to.write_text("number,name\n4917400000001,Ana\n")
    status = main(["send-list", "--instance", "nope", "--draft", "current", "--to", str(to)])
    said = capsys.readouterr().err
    assert status != 0
    assert "nope" in said and "no saved draft" not in said, said
    assert not gateway.state.sends_by_number


def test_a_known_instance_without_a_draft_still_says_no_saved_draft(gateway, tmp_path, capsys):
    to = tmp_path / "to.csv"
    to.write_text("number,name\n4917400000001,Ana\n")
    status = main(["send-list", "--instance", "support", "--draft", "current", "--to", str(to)])
    assert status != 0
    assert "instance support has no saved draft" in capsys.readouterr().err


def test_a_url_ending_in_api_gets_the_hint_the_app_gives(demo_server, monkeypatch, capsys):
    monkeypatch.setenv("GATEWAY_URL", demo_server.url + "/api")
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    assert main(["instances"]) != 0
    said = capsys.readouterr().err
    assert f"try {demo_server.url} without /api" in said, said
