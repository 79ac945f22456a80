"""The demo gateway's seeded world, without HTTP: determinism, scale and the curated facts
other tests and the screenshots rely on."""

from __future__ import annotations

import re
import uuid

import pytest

from gateway_tui.demo.data import (
    CURATED_INSTANCES,
    DEMO_API_KEY,
    build_state,
    is_on_whatsapp,
)
from gateway_tui.demo.validation import create_jid


def test_ten_thousand_instances_are_built() -> None:
    # How fast: bench/ measures it (a busy machine must not fail a test on time).
    state = build_state(10_000)
    assert len(state.instances) == 10_000
    assert len({instance.instance_id for instance in state.instances.values()}) == 10_000
    assert {instance.status for instance in state.instances.values()} == {
        "open",
        "connecting",
        "close",
        "refused",
    }


def _fingerprint(seed: int) -> list[tuple[str, str, str, str]]:
    state = build_state(50, seed=seed)
    return [(i.name, i.instance_id, i.apikey, i.status) for i in state.instances.values()]


def test_the_world_is_deterministic_per_seed() -> None:
    assert _fingerprint(7) == _fingerprint(7)
    assert _fingerprint(7) != _fingerprint(8)
    groups = [build_state(20).instances[name].groups for name in ("support", "sales-eu")]
    again = [build_state(20).instances[name].groups for name in ("support", "sales-eu")]
    assert groups == again


def test_curated_instances_come_first_with_their_statuses() -> None:
    state = build_state()
    assert [(i.name, i.status) for i in state.instances.values()] == [
        (spec.name, spec.status) for spec in CURATED_INSTANCES
    ]
    assert state.api_key == DEMO_API_KEY


def test_instance_records_are_believable() -> None:
    state = build_state(100)
    for instance in state.instances.values():
        assert uuid.UUID(instance.instance_id).version == 4
        assert re.fullmatch(r"[0-9A-F]{32}", instance.apikey)
        assert re.fullmatch(r"\d{10,15}@s\.whatsapp\.net", instance.owner)


def test_sales_eu_groups() -> None:
    instance = build_state().instances["sales-eu"]
    sizes = {jid: len(group.participants) for jid, group in instance.groups.items()}
    assert sizes["120363012345678901@g.us"] == 1024
    assert "5511999887766-1589000000@g.us" in sizes
    for group in instance.groups.values():
        assert re.fullmatch(r"\d+(-\d+)?@g\.us", group.jid)
        assert re.fullmatch(r"[0-9A-Za-z]{22}", group.invite_code)
        assert [p["admin"] for p in group.participants].count("superadmin") == 1


def test_generated_instances_have_groups_and_chats_with_real_keys() -> None:
    instance = build_state(30).instances["ops-alerts"]
    assert instance.groups and instance.chats
    for chat in instance.chats.values():
        for message in chat.messages:
            assert set(message.key) == {"remoteJid", "fromMe", "id"}
            assert message.key["remoteJid"] == chat.jid


@pytest.mark.parametrize(
    ("number", "jid"),
    [
        ("+49 (151) 1234-0001", "4915112340001@s.whatsapp.net"),
        ("4915112340001@s.whatsapp.net", "4915112340001@s.whatsapp.net"),
        ("120363012345678901@g.us", "120363012345678901@g.us"),
        ("123456789@lid", "123456789@lid"),
        ("status@broadcast", "status@broadcast"),
        ("5511999887766-1589000000", "5511999887766-1589000000@g.us"),
        ("120363012345678901", "120363012345678901@g.us"),
    ],
)
def test_create_jid(number: str, jid: str) -> None:
    assert create_jid(number) == jid


@pytest.mark.parametrize(
    ("number", "exists"),
    [
        ("4915112340001", True),
        ("5511912345678", True),
        ("9991234567890", False),
        ("4915100000000", False),
        ("123", False),
    ],
)
def test_who_is_on_whatsapp(number: str, exists: bool) -> None:
    assert is_on_whatsapp(number) is exists
