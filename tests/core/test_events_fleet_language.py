"""The events and fleet cores in the reader's language (issue 35): a verdict's reason said in
Portuguese while the English one (what ``health --json`` writes) stays; an alert's text,
plurals at one and two, numbers the locale's way."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta

from gateway_tui.core.events.coverage import Asked, coverage, headline
from gateway_tui.core.events.record import SOCKET, EventRecord
from gateway_tui.core.events.ring import EventRing
from gateway_tui.core.events.summary import summarize
from gateway_tui.core.fleet.alerts import AlertBook
from gateway_tui.core.fleet.batch import BatchAction, Target, confirmation
from gateway_tui.core.fleet.reasons import Disconnection
from gateway_tui.core.fleet.verdict import (
    Fact,
    InstanceEvidence,
    Verdict,
    judge_instance,
)

AT = datetime(2026, 11, 27, 3, 0, tzinfo=UTC)


def _zombie() -> InstanceEvidence:
    return InstanceEvidence(
        "lc-2",
        listed=Fact("fetchInstances", "open", AT),
        state=Fact("connectionState", "close", AT + timedelta(seconds=5)),
    )


def test_a_zombie_s_reason_in_portuguese_and_its_english_kept(language) -> None:
    language("pt_BR")
    judgement = judge_instance(_zombie())
    assert judgement.verdict is Verdict.ZOMBIE
    assert judgement.words.startswith("listada como open (fetchInstances disse open às ")
    assert ", mas connectionState disse close às " in judgement.words
    # what scripts read is the English sentence, whatever the language
    assert judgement.reason.startswith("listed open (fetchInstances said open at ")


def test_a_closed_instance_s_last_disconnection_in_spanish(language) -> None:
    language("es")
    evidence = InstanceEvidence(
        "lc-2",
        listed=Fact("fetchInstances", "close", AT),
        disconnection=Disconnection.of(401, "2026-11-27T02:00:00Z"),
    )
    judgement = judge_instance(evidence)
    assert judgement.words.startswith("última desconexión 401 sesión cerrada el 27/11/2026 ")
    assert judgement.reason.startswith("last disconnection 401 logged out at 2026-11-27 ")


def test_an_alert_s_text_in_portuguese_with_its_repeats_counted(language) -> None:
    language("pt_BR")
    book = AlertBook(flap_window=600)
    book.observe_instance("gw", "lc-2", Verdict.OK, AT)
    (alert,) = book.observe_instance("gw", "lc-2", Verdict.CLOSED, AT, "conexão fechada")
    assert alert.summary() == "gw / lc-2: deixou de estar aberta: conexão fechada"
    book.observe_instance("gw", "lc-2", Verdict.OK, AT + timedelta(minutes=1))
    again = book.observe_instance("gw", "lc-2", Verdict.CLOSED, AT + timedelta(minutes=2), "x")
    assert again == []  # coalesced into the first
    assert (
        alert.summary() == "gw / lc-2: deixou de estar aberta: conexão fechada (2 vezes em 2 min)"
    )
    assert book.flapping_said("gw", "lc-2", AT + timedelta(minutes=2)) == "3 mudanças em 10 min"
    assert book.flapping("gw", "lc-2", AT + timedelta(minutes=2)) == "3 changes in 10 min"


def test_unreachable_since_is_said_in_spanish(language) -> None:
    language("es")
    book = AlertBook(unreachable_after=0)
    (alert,) = book.observe_gateway("gw", Verdict.UNREACHABLE, AT, "caído: connection refused")
    assert alert.text.startswith("inaccesible desde ")
    assert alert.text.endswith(": caído: connection refused")


def test_batch_confirmation_one_and_two(language) -> None:
    language("pt_BR")
    one = [Target("gw", "a")]
    two = [Target("gw", "a"), Target("gw", "b")]
    assert confirmation(BatchAction.RESTART, one) == "Reiniciar 1 instância: gw / a?"
    assert confirmation(BatchAction.RESTART, two) == "Reiniciar 2 instâncias: gw / a, gw / b?"


def test_the_ring_and_coverage_with_plurals_and_the_locale_s_numbers(language) -> None:
    language("pt_BR")
    ring = EventRing(1234)
    assert ring.capacity_line() == "0 dos últimos 1.234 eventos guardados"
    assert EventRing(1).capacity_line() == "0 do último 1 evento guardado"
    websocket = Asked(enabled=True, events=frozenset({"CONNECTION_UPDATE"}))
    two = Asked(enabled=True, events=frozenset({"CONNECTION_UPDATE", "QRCODE_UPDATED"}))
    assert headline(websocket, None) == [
        "websocket: ligado, 1 evento marcado",
        "webhook: configurações não lidas",
    ]
    assert headline(two, None)[0] == "websocket: ligado, 2 eventos marcados"
    (row,) = coverage(Counter({("MESSAGES_UPSERT", SOCKET): 2}), websocket, None)[1:]
    assert row.said() == "visto no websocket, mas não marcado"
    assert row.verdict == "seen on the websocket but not ticked"


def _record(event: str, data: object) -> EventRecord:
    return EventRecord(event=event, instance="lc-2", data=data, time=0.0, via=SOCKET)


def test_event_summaries_in_spanish_with_plurals(language) -> None:
    language("es")
    one = _record("chats.upsert", [{"id": "4917@s.whatsapp.net"}])
    two = _record("chats.upsert", [{"id": "1@s.whatsapp.net"}, {"id": "2@s.whatsapp.net"}])
    assert summarize(one) == "1 chat: 4917@s.whatsapp.net"
    assert summarize(two).startswith("2 chats: ")
    history = _record("messaging-history.set", {"messageCount": 1234, "progress": 100})
    assert summarize(history) == "sincronización del historial: 1.234 mensajes · 100 %"
    qr = _record("qrcode.updated", {"qrcode": {"pairingCode": "ABCD1234"}})
    assert summarize(qr) == "un nuevo código QR para escanear (código de vinculación ABCD1234)"
