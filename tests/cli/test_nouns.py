"""Every operation on the command line, nouns and verbs, against the demo on both lines."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator

import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.main import main
from tests.support import run_cli_without_textual

ALL_HANDS = "120363012345678901@g.us"  # sales-eu created it (superadmin)
WAR_ROOM = "120363023456789012@g.us"  # sales-eu is an admin
NEWCOMER = "4915112349999"
LID = "205641847891234@lid"  # on support: Marina Costa, number known on 2.x
HIDDEN = "118822334455667@lid"  # on support: Theo Baker, never shared a number


@pytest.fixture(scope="module", params=["1.7.1", "2.3.7"])
def line_server(request: pytest.FixtureRequest) -> Iterator[DemoServer]:
    with DemoServer(api_version=request.param) as server:
        yield server


@pytest.fixture
def gw(line_server: DemoServer, monkeypatch: pytest.MonkeyPatch) -> DemoServer:
    line_server.reset()
    monkeypatch.setenv("GATEWAY_URL", line_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", line_server.api_key)
    return line_server


def _json(capsys: pytest.CaptureFixture[str], argv: list[str], status: int = 0):
    code = main([*argv, "--json"])
    out, err = capsys.readouterr()
    assert code == status, err
    return json.loads(out) if out.strip() else None


def _writes(server: DemoServer) -> list[str]:
    return [f"{w.method} {w.path}" for w in server.state.writes]


def test_groups_lists_jids_and_subjects(gw: DemoServer, capsys) -> None:
    rows = _json(capsys, ["groups", "sales-eu"])
    subjects = {row["jid"]: row["subject"] for row in rows}
    assert subjects[ALL_HANDS] == gw.state.instances["sales-eu"].groups[ALL_HANDS].subject


def test_a_group_is_named_by_its_subject_and_participants_stays_an_alias(gw, capsys) -> None:
    subject = gw.state.instances["sales-eu"].groups[WAR_ROOM].subject
    by_subject = _json(capsys, ["group", "participants", "sales-eu", subject])
    by_alias = _json(capsys, ["participants", "sales-eu", WAR_ROOM])
    assert by_subject == by_alias
    assert len(by_subject) == len(gw.state.instances["sales-eu"].groups[WAR_ROOM].participants)


def test_an_ambiguous_subject_is_refused_with_the_candidates(gw, capsys) -> None:
    groups = gw.state.instances["sales-eu"].groups
    groups[WAR_ROOM].subject = groups[ALL_HANDS].subject = "Team"
    assert main(["group", "participants", "sales-eu", "Team"]) == 1
    err = capsys.readouterr().err
    assert ALL_HANDS in err and WAR_ROOM in err


def test_add_says_each_numbers_result_and_exits_3_when_some_were_not_done(gw, capsys) -> None:
    member = gw.state.instances["sales-eu"].groups[WAR_ROOM].participants[1]["id"]
    rows = _json(
        capsys,
        ["group", "add", "sales-eu", WAR_ROOM, "+49 151 12349999", "0049 15112349999", "12"],
    )
    assert rows == [{"number": NEWCOMER, "done": True, "result": "done"}]
    assert any(p["id"] == f"{NEWCOMER}@s.whatsapp.net" for p in _members(gw, WAR_ROOM))
    # A member given again is said and left out; one WhatsApp refuses makes the exit 3.
    gw.state.not_on_whatsapp.add("4915112348888")
    rows = _json(
        capsys,
        ["group", "add", "sales-eu", WAR_ROOM, member.split("@")[0], "4915112348888"],
        status=3,
    )
    assert rows == [{"number": "4915112348888", "done": False, "result": rows[0]["result"]}]
    assert "not allowed" in rows[0]["result"]


def _members(gw: DemoServer, group: str) -> list[dict]:
    return gw.state.instances["sales-eu"].groups[group].participants


def test_promote_then_demote_then_remove(gw, capsys) -> None:
    _json(capsys, ["group", "add", "sales-eu", WAR_ROOM, NEWCOMER])
    jid = f"{NEWCOMER}@s.whatsapp.net"
    for verb, check in (
        ("promote", lambda p: p["admin"] == "admin"),
        ("demote", lambda p: not p["admin"]),
    ):
        (row,) = _json(capsys, ["group", verb, "sales-eu", WAR_ROOM, NEWCOMER])
        assert row["done"], row
        assert check(next(p for p in _members(gw, WAR_ROOM) if p["id"] == jid))
    _json(capsys, ["group", "remove", "sales-eu", WAR_ROOM, NEWCOMER])
    assert all(p["id"] != jid for p in _members(gw, WAR_ROOM))


def test_group_create_promote_makes_the_listed_participants_admins_each_said(gw, capsys) -> None:
    other = "5511987650001"
    before = len(gw.state.writes)
    made = _json(
        capsys,
        ["group-create", "sales-eu", "Leads", other, NEWCOMER, "--promote", "+49 151 12349999"],
    )
    assert made["promoted"] == [{"number": NEWCOMER, "promoted": True, "result": "done"}]
    members = gw.state.instances["sales-eu"].groups[made["group"]].participants
    admins = {p["id"] for p in members if p["admin"]}
    assert f"{NEWCOMER}@s.whatsapp.net" in admins
    assert f"{other}@s.whatsapp.net" not in admins
    # One create, one promote: each write once.
    assert [w.path.split("/")[2] for w in gw.state.writes[before:]] == [
        "create",
        "updateParticipant",
    ]


def test_group_create_promote_refuses_a_stranger_before_writing(gw, capsys) -> None:
    before = len(gw.state.writes)
    assert main(["group-create", "sales-eu", "Leads", NEWCOMER, "--promote", "5511987650001"]) == 1
    assert "not among the group's participants" in capsys.readouterr().err
    assert len(gw.state.writes) == before


def test_a_failed_promotion_says_the_group_exists_and_is_not_retried(gw, capsys) -> None:
    gw.state.not_on_whatsapp.add("4915112348888")
    before = len(gw.state.writes)
    made = _json(
        capsys,
        ["group-create", "sales-eu", "Leads", NEWCOMER, "4915112348888"]
        + ["--promote", "4915112348888"],
        status=3,
    )
    (row,) = made["promoted"]
    assert row["number"] == "4915112348888" and row["promoted"] is False
    assert len(gw.state.writes) - before == 2  # the create and one promote, never again


def test_settings_change_once_each_and_read_back(gw, capsys) -> None:
    before = len(gw.state.writes)
    shown = _json(
        capsys, ["group", "settings", "sales-eu", WAR_ROOM, "announcement", "disappearing=7d"]
    )
    assert shown["only_admins_send"] is True
    # The demo's findGroupInfos leaves ephemeralDuration out (a real Baileys gives it once
    # set): the change is checked on the demo's side.
    assert gw.state.instances["sales-eu"].groups[WAR_ROOM].ephemeral == 604800
    assert len(gw.state.writes) - before == 2  # one write per change, none repeated


def test_member_add_mode_is_refused_before_2_4_without_a_call(gw, capsys) -> None:
    before = len(gw.state.writes)
    assert main(["group", "settings", "sales-eu", WAR_ROOM, "member-add=all_member_add"]) == 1
    assert "2.4" in capsys.readouterr().err
    assert len(gw.state.writes) == before


def test_leave_asks_and_is_refused_without_a_terminal(gw, capsys) -> None:
    assert main(["group", "leave", "sales-eu", WAR_ROOM]) == 1
    assert "--yes" in capsys.readouterr().err
    assert WAR_ROOM in gw.state.instances["sales-eu"].groups
    left = _json(capsys, ["group", "leave", "sales-eu", WAR_ROOM, "--yes"])
    assert left["left"] is True
    assert WAR_ROOM not in gw.state.instances["sales-eu"].groups


def test_instance_show_restart_and_delete_that_asks(gw, capsys) -> None:
    shown = _json(capsys, ["instance", "show", "sales-eu"])
    assert shown["name"] == "sales-eu" and shown["status"] == "open"
    assert main(["instance", "delete", "onboarding"]) == 1
    assert "--yes" in capsys.readouterr().err
    assert "onboarding" in gw.state.instances
    assert _json(capsys, ["instance", "restart", "sales-eu"])["restarted"] is True


def test_settings_set_takes_the_interfaces_names_on_both_lines(gw, capsys) -> None:
    before = len(gw.state.writes)
    shown = _json(capsys, ["settings", "set", "sales-eu", "reject_call=true", "msg_call=Busy"])
    assert shown["reject_call"] is True and shown["msg_call"] == "Busy"
    assert len(gw.state.writes) - before == 1
    assert _json(capsys, ["settings", "get", "sales-eu"])["reject_call"] is True


def test_settings_set_refuses_an_unknown_name_before_any_call(gw, capsys) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["settings", "set", "sales-eu", "reject_calls=true"])
    assert exited.value.code == 2
    assert "not a setting" in capsys.readouterr().err


def test_labels_list_names_and_colours(gw, capsys) -> None:
    rows = _json(capsys, ["labels", "sales-eu"])
    assert {"id": "1", "name": "New customer"}.items() <= rows[0].items()
    assert rows[0]["colour"] == 1


def test_contacts_search_by_name_number_or_lid(gw, capsys) -> None:
    rows = _json(capsys, ["contacts", "support", "--search", "marina"])
    assert [row["jid"] for row in rows] == [LID]
    assert _json(capsys, ["contacts", "support", "--search", "205641847891234"]) == rows
    if gw.api_version.startswith("2"):  # 2.x gives the number beside the LID
        assert rows[0]["number"] == "5511987001234"
        assert _json(capsys, ["contacts", "support", "--search", "+55 11 98700"]) == rows


def test_send_text_to_a_lid_goes_where_the_line_can_deliver(gw, capsys) -> None:
    if gw.api_version.startswith("2"):
        sent = _json(capsys, ["send-text", "support", LID, "hello"])
        assert sent["to"] == "5511987001234@s.whatsapp.net"  # 2.3.7: its number, not the LID
    assert main(["send-text", "support", HIDDEN, "hello"]) == 1
    assert "hides this contact's number" in capsys.readouterr().err
    assert not [w for w in _writes(gw) if "sendText" in w and HIDDEN in w]


def test_chat_archive_and_profile(gw, capsys) -> None:
    chat = "4915112340001@s.whatsapp.net"
    assert _json(capsys, ["chat", "archive", "sales-eu", chat])["archived"] is True
    assert _json(capsys, ["chat", "profile", "sales-eu", "4915112340001"])["number"]


@pytest.mark.parametrize(
    "command", ["group", "instance", "contacts", "labels", "chat", "settings", "send-text"]
)
def test_each_help_has_an_example(command, capsys) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert f"gateway-tui {command} " in capsys.readouterr().out.split("examples:", 1)[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["groups", "sales-eu", "--json"],
        ["group", "settings", "sales-eu", WAR_ROOM],
        ["contacts", "support", "--search", "marina"],
        ["labels", "sales-eu", "--csv"],
        ["instance", "show", "sales-eu"],
    ],
)
def test_the_commands_run_without_textual(argv, gw, tmp_path) -> None:
    result = run_cli_without_textual(argv, gw, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_settings_set_without_a_change_writes_nothing(gw, capsys) -> None:
    before = len(gw.state.writes)
    assert main(["settings", "set", "sales-eu"]) == 1
    assert "nothing to set" in capsys.readouterr().err
    assert len(gw.state.writes) == before


def test_instance_connect_draws_a_qr_code_for_a_closed_instance(gw, capsys) -> None:
    assert main(["instance", "connect", "onboarding"]) == 0
    out = capsys.readouterr().out
    assert "▀" in out or "▄" in out
    assert "Linked devices" in out


def _lid_list(gw: DemoServer, tmp_path, *lids: str) -> list[str]:
    from gateway_tui.core.files.drafts import ComposeStore
    from tests.data import CAMPAIGN_DRAFT

    draft = dataclasses.replace(CAMPAIGN_DRAFT, footer="Acme")  # 2.x lists need one
    ComposeStore(gw.url, "support").save_template("Weekly menu", draft)
    to = tmp_path / "to.csv"
    to.write_text("number,name\n" + "".join(f"{lid},P\n" for lid in lids))
    return ["send-list", "--instance", "support", "--draft", "Weekly menu", "--to", str(to)]


def test_send_list_to_a_lid_takes_its_number_or_refuses_it_before_sending(
    gw, capsys, tmp_path, isolated_home
) -> None:
    """The @lid rule (core/identity.py) as the app applies it: before 2.4.0-rc2 a LID goes to
    its number where findContacts / findChats tell it; one without is refused, said, unsent."""
    argv = _lid_list(gw, tmp_path, LID, HIDDEN)
    assert main([*argv, "--rate", "max"]) == 1
    err = capsys.readouterr().err
    assert "hides this contact's number" in err and "line 3" in err
    assert not [w for w in _writes(gw) if "sendList" in w]
    if gw.api_version.startswith("2"):
        code = main([*argv, "--rate", "max", "--skip-invalid", "--json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert len([w for w in _writes(gw) if "sendList" in w]) == 1
        assert "5511987001234" in out and LID not in out and HIDDEN not in out
