"""Every recorded exchange with a real server is a test case of the client.

Every folder of ../shared/recordings is read; the release that answered comes from its
recordings (tests/recorded/gateway.py), and the client speaks that release's line. A case's id
names its folder and file (``v2.3.7/025-sendList-valid-disconnected``). The
recorded request is made through ``GatewayClient`` against a gateway that holds that recording
alone, and must reach it (the same verb and path, the recorded query and body); the recorded
answer must become the right model with the recorded values, or the right typed error with the
server's text and the right "instance not connected" flag. A request the server refused (400)
that the client refuses before sending is checked too: nothing may reach the gateway.

A recording the client has no method for (``NO_METHOD``, by route), or cannot send as it was
sent (``CANNOT_SEND``, by line and file: ``2.x/024-…`` holds for every 2.x folder that recorded
that file; ``2.3.7/921-…`` for one release), is listed with the reason: never silently skipped.
A folder added later joins with no change here. A table line that no longer holds
(the client can now send it) fails, so the table stays true.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

from gateway_tui.core.api import GatewayClient, GatewayError
from gateway_tui.core.api.errors import (
    BadRequest,
    Forbidden,
    InvalidRequest,
    LicenseRequired,
    NameTaken,
    NotFound,
    RefusedIn200,
    ServerError,
    Unauthorized,
)
from tests.recorded.gateway import RecordedGateway, Recording, all_recordings, folders, releases
from tests.recorded.operations import NotExpressible, operation_for, route_of

ERROR_BY_STATUS = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    500: ServerError,
    503: LicenseRequired,
}

# Routes the client has no method for: every recording of the route is listed by this.
NO_METHOD = {
    "GET /": "the server's welcome page (name and version): the client reads no version yet",
    "GET /nope": "an unknown route: the recording shows the server's 404 (the recorded "
    "gateway's own 404 is tested against it in test_recorded_gateway.py)",
    "GET /nope/route": "as GET /nope",
    "GET /store/auth": "a static file of the server's store, not an interface route",
    "PUT /group/updateGroupPicture": "the app does not change group pictures",
    "POST /group/updateGroupPicture": "as PUT /group/updateGroupPicture",
    "POST /chat/fetchProfilePictureUrl": "the profile view does not show the picture",
    "POST /chat/fetchBusinessProfile": "the profile view uses fetchProfile",
    # Recorded on 2.3.7 (900-964) and 2.4.0-rc2; the client has no method for them yet.
    "GET /metrics": "no client method yet: the fleet view reads /metrics (issue 30)",
    "GET /license/status": "no client method yet: the fleet view reads a 2.4's licence (issue 30)",
    "GET /license/activate": "activation happens in the server's manager, not in the client",
    "GET /health": "not a route of the server (its own 404)",
}

_V1_SHAPE = "the 1.7.1 body on 2.x (what a 1.7.1-only client sends): on 2.x the client sends 2.x's"
_V1_VERB = (
    "the 1.7.1 verb, which 2.x no longer has (404 'Cannot PUT …'): on 2.x the client uses POST"
)
_SENT_BY_CLIENT_ONLY_AS_JSON = "its body is not JSON: the client only sends JSON it built itself"

# Recordings of a route the client has, sent in a way the client never sends it.
CANNOT_SEND = {
    # --- line 1 (1.7.1) ---------------------------------------------------------------------
    "1.x/010-create-no-instanceName": "no instanceName: the client's request requires one",
    "1.x/079-sendWhatsAppAudio-disconnected": "no options: the client always sends them on "
    "1.7.1, as this 500 (\"setting 'encoding'\", before anything else) shows it must",
    "1.x/017-fetchInstances-by-instance_name-ignored": "the client asks by instanceName only",
    "1.x/018-fetchInstances-by-instanceId": "the client asks by instanceName only",
    "1.x/019-fetchInstances-by-number": "the client asks by instanceName only",
    "1.x/033-settings-set-a-partial": "the client always sends every setting",
    "1.x/034-settings-set-a-wrong-type": "a string for a flag: the client's flags are booleans",
    "1.x/041-sendList-empty-body": "the client always sends number and listMessage",
    "1.x/042-sendList-missing-listMessage": "the client always sends listMessage",
    "1.x/043-sendList-number-not-string": "a number that is not a string",
    "1.x/044-sendList-missing-fields": "the client always sends description, buttonText "
    "and sections",
    "1.x/047-sendList-row-missing-rowId": "the client always sends a rowId",
    "1.x/053-sendList-delay-not-integer": "a delay that is not an integer",
    "1.x/054-sendList-delay-float": "a delay that is not an integer",
    "1.x/055-sendList-bad-presence": "a presence outside the client's enum",
    "1.x/056-sendList-malformed-json": _SENT_BY_CLIENT_ONLY_AS_JSON,
    "1.x/057-archiveChat-by-chat": "archives by chat: the client names the chat by its "
    "last message",
    "1.x/059-archiveChat-missing-archive": "the client always says archive or unarchive",
    "1.x/060-archiveChat-archive-not-bool": "archive is a boolean in the client",
    "1.x/061-archiveChat-only-archive": "the client always sends the last message's key",
    "1.x/062-archiveChat-lastMessage-key-incomplete": "the client always sends a whole key",
    "1.x/064-updateMessage-empty-body": "the client always sends number, text and key",
    "1.x/065-updateMessage-key-missing-fields": "the client always sends a whole key",
    "1.x/067-fetchProfile-no-number": "the client always sends a number",
    "1.x/068-fetchProfile-number-not-string": "a number that is not a string",
    "1.x/070-sendInvite-missing-numbers": "the client always sends numbers",
    "1.x/072-sendInvite-groupJid-in-query-only": "the client names the group in the body",
    "1.x/074-updateGroupSubject-body-groupJid": "groupJid in the body: the client names the "
    "group in the query",
    "1.x/076-updateGroupSubject-missing-groupJid": "groupJid in the body: the client names "
    "the group in the query",
    "1.x/077-updateGroupSubject-missing-subject": "the client always sends a subject",
    "1.x/080-participants-missing-groupJid": "no groupJid: the client always names the group",
    "1.x/084-inviteCode-missing-groupJid": "no groupJid: the client always names the group",
    "1.x/086-revokeInviteCode-missing-groupJid": "no groupJid: the client always names the group",
    "1.x/088-fetchInstances-name-in-path": "the instance name in the path: the client asks "
    "with ?instanceName=",
    "1.x/097-fetchInstances-empty-instanceName": "an empty instanceName: the client then "
    "sends no instanceName",
    "1.x/098-settings-set-extra-query-param": "the client sends no foo in the query",
    "1.x/058-archiveChat-by-lastMessage": "lastMessage.messageTimestamp: the client names "
    "the message by its key alone",
    "1.x/075-updateGroupSubject-no-suffix": "a bare group id: the client adds @g.us",
    "1.x/082-participants-no-suffix": "a bare group id: the client adds @g.us",
    "1.x/091-updateGroupSubject-body-and-query": "groupJid in the body: the client names "
    "the group in the query",
    "1.x/018-restart-lc1-POST-v2-verb": "the 2.x verb: on 1.7.1 the client restarts "
    "with PUT (recording 014)",
    "1.x/038-webhook-set-a-missing-url": "the client always sends url, enabled and events",
    "1.x/039-webhook-set-a-v2-shape": "the 2.x body ({webhook: {…}}) on 1.7.1",
    "1.x/040-webhook-set-a-enabled-false": "no events: the client always sends them "
    "(an enabled webhook without them is a 500)",
    "1.x/047-websocket-set-a-disable": "no events: the client always sends them",
    "1.x/064-settings-set-a-missing-required": "the client always sends every setting",
    "1.x/065-settings-set-a-v2-camelCase": "the 2.x camelCase settings on 1.7.1",
    "1.x/078-sendList-v2-flat-shape": "the 2.x flat sendList on 1.7.1",
    "1.x/089-findChats-POST-v2-verb": "the 2.x verb and filter: on 1.7.1 the client "
    "asks with GET (recording 088)",
    "1.x/092-findMessages-a-by-remoteJid-limit-2": "limit: the client sends no limit "
    "(the file store applies it before its broken sort) and bounds the list itself",
    "1.x/093-findMessages-a-by-remoteJid-page-offset": "page and offset: 1.7.1 has no paging",
    "1.x/095-findMessages-a-empty-remoteJid": "an empty chat: the client leaves the "
    "filter out instead",
    "1.x/100-findStatusMessage-a-by-remoteJid": "where.remoteJid: the client filters "
    "by chat itself (the store ignores it)",
    "1.x/108-fetchAllGroups-missing-getParticipants": "the client always asks with "
    "getParticipants=false",
    "1.x/067-sendText-missing-text": "the client always sends textMessage.text",
    "1.x/068-sendText-missing-textMessage": "the client always sends textMessage",
    "1.x/070-sendText-empty-text": "an empty text: the client refuses it before sending",
    "1.x/071-sendText-v2-flat-shape": "the 2.x flat sendText on 1.7.1",
    "1.x/074-sendMedia-missing-mediatype": "the client always sends mediatype",
    "1.x/076-sendReaction-missing-key": "the client always sends the message's key",
    "1.x/082-markMessageAsRead-POST-v2-verb": "the 2.x verb: on 1.7.1 the client marks "
    "read with PUT (recording 081)",
    "1.x/083-markMessageAsRead-v2-camelCase-body": "the 2.x readMessages on 1.7.1",
    "1.x/105-getBase64FromMediaMessage-full-message": "the whole stored message: the "
    "client names the message by its id (recording 104)",
    "1.x/106-getBase64FromMediaMessage-unknown-id": "no convertToMp4: the client "
    "always says false (it saves the file as it was sent)",
    "1.x/110-findGroupInfos-missing-groupJid": "no groupJid: the client always names the group",
    "1.x/112-group-create-missing-participants": "the client always sends participants",
    "1.x/116-updateSetting-bad-action": "an action outside the client's enum (the server's)",
    "1.x/138-wsserver-websocket-set-missing-enabled": "the client always sends enabled and events",
    "1.x/139-wsserver-websocket-set-disabled": "no events: the client always sends them",
    # --- line 2 (2.3.6, 2.3.7, 2.4) -------------------------------------------------------
    "2.x/014-fetchInstances-by-instanceId": "the client asks by instanceName only",
    "2.x/024-settings-set-a-1.7.1-shape": _V1_SHAPE,
    "2.x/027-sendList-1.7.1-shape": _V1_SHAPE,
    "2.x/032-sendList-empty-body": "the client always sends number, title, buttonText, "
    "footerText and sections",
    "2.x/034-sendList-row-missing-rowId": "the client always sends a rowId",
    "2.x/035-sendList-malformed-json": "its body is not JSON",
    "2.x/037-participants-missing-groupJid": "no groupJid: the client always names the group",
    "2.x/038-participants-no-suffix": "a bare group id: the client adds @g.us",
    "2.x/041-revokeInviteCode-PUT-1.7.1-verb": _V1_VERB,
    "2.x/043-updateGroupSubject-PUT-1.7.1-verb": _V1_VERB,
    "2.x/045-archiveChat-POST-disconnected": "archives by chat: the client names the chat "
    "by its last message (2.x takes either; 047 is the client's body)",
    "2.x/046-archiveChat-PUT-1.7.1-verb": _V1_VERB,
    "2.x/049-updateMessage-PUT-1.7.1-verb": _V1_VERB,
    "2.x/059-archiveChat-by-chat-planted": "as 045: archives by chat",
    "2.x/018-restart-lc1-PUT-1.7.1-verb": _V1_VERB,
    "2.x/038-webhook-set-a-missing-url": "the client always sends url, enabled and events",
    "2.x/039-webhook-set-a-1.7.1-shape": _V1_SHAPE,
    "2.x/040-webhook-set-a-enabled-false": "no events: the client always sends a webhook's events",
    "2.x/047-websocket-set-a-1.7.1-shape": _V1_SHAPE,
    "2.x/065-settings-set-a-missing-required": "the client always sends every setting",
    "2.x/066-settings-set-a-1.7.1-snake_case": _V1_SHAPE,
    "2.x/078-sendList-1.7.1-nested-shape": _V1_SHAPE,
    "2.x/090-findChats-a-where-remoteJid": "a filter: the client reads every chat "
    "(a 1.7.1 store ignores filters; one path for both)",
    "2.x/091-findChats-a-where-remoteJid-number-only": "as 090: a filter",
    "2.x/092-findChats-a-where-unknown-remoteJid": "as 090: a filter",
    "2.x/093-findChats-a-take-1-skip-0": "take/skip: the client reads every chat",
    "2.x/094-findChats-a-take-1-skip-1": "take/skip: the client reads every chat",
    "2.x/095-findChats-GET-1.7.1-verb": _V1_VERB,
    "2.x/098-findMessages-a-by-remoteJid-page1-offset2": "pages of 2: the client asks "
    "for pages of 1,000",
    "2.x/099-findMessages-a-by-remoteJid-page2-offset2": "pages of 2: the client asks "
    "for pages of 1,000",
    "2.x/100-findMessages-a-by-remoteJid-limit-1.7.1": "limit: the client sends no "
    "limit (it bounds the list itself)",
    "2.x/102-findMessages-a-empty-remoteJid": "an empty chat: the client leaves the "
    "filter out instead",
    "2.x/105-findContacts-a-where-id-1.7.1": "where.id, the 1.7.1 filter: on 2.x the "
    "client asks by where.remoteJid (104)",
    "2.x/107-findStatusMessage-a-by-remoteJid": "where.remoteJid: the client filters "
    "by chat itself",
    "2.x/116-fetchAllGroups-missing-getParticipants": "the client always asks with "
    "getParticipants=false",
    "2.x/118-findGroupInfos-missing-groupJid": "no groupJid: the client always names the group",
    "2.x/120-group-create-missing-participants": "the client always sends participants",
    "2.x/124-updateSetting-bad-action": "an action outside the client's enum (the server's)",
    "2.x/914-x-updateParticipant-bad-action": "an action outside the client's enum",
    "2.x/915-x-updateParticipant-missing-groupJid": "no groupJid: the client always names "
    "the group",
    "2.x/917-x-updateSetting-missing-action": "the client always sends an action",
    "2.x/919-x-toggleEphemeral-string-expiration": "a string expiration: the client's is a "
    "number of seconds",
    "2.x/927-x-handleLabel-bad-action": "an action outside the client's enum (add, remove)",
    "2.x/146-wsserver-websocket-set-missing-enabled": "the client always sends enabled",
    "2.x/147-wsserver-websocket-set-1.7.1-flat-shape": _V1_SHAPE,
    "2.x/068-sendText-missing-text": "the client always sends text",
    "2.x/070-sendText-empty-text": "an empty text: the client refuses it before sending",
    "2.x/071-sendText-1.7.1-nested-shape": _V1_SHAPE,
    "2.x/074-sendMedia-missing-mediatype": "the client always sends mediatype",
    "2.x/076-sendReaction-missing-key": "the client always sends the message's key",
    "2.x/082-markMessageAsRead-PUT-1.7.1-verb": _V1_VERB,
    "2.x/083-markMessageAsRead-1.7.1-snake-body": _V1_SHAPE,
    "2.x/113-getBase64FromMediaMessage-full-message": "the whole stored message: the "
    "client names the message by its id (recording 112)",
    "2.x/114-getBase64FromMediaMessage-unknown-id": "no convertToMp4: the client "
    "always says false (it saves the file as it was sent)",
    "2.x/920-x-findContacts-where-pushName": "where.pushName (2.3.7): the client asks by "
    "where.remoteJid",
    "2.x/921-x-findContacts-where-id": "where.id (2.3.7: the contact row's id): the client "
    "asks by where.remoteJid",
    "2.x/923-x-findContacts-where-unknown-pushName": "as 920: where.pushName",
    "2.x/013-sendText-malformed-json": "its body is not JSON",
    "1.x/087-sendPresence-v2-flat-shape": "the 2.x flat sendPresence on 1.7.1",
    "2.x/087-sendPresence-1.7.1-nested-shape": _V1_SHAPE,
    "2.3.7/931-x-sendLocation-missing-address": "the client always sends name and address "
    "(empty when not given)",
    "2.3.7/937-x-sendPresence-missing-delay": "the client always sends presence and delay",
    "2.3.7/939-x-markChatUnread-chat-only": "the client names the chat by its last message",
    "2.3.7/940-x-markChatUnread-malformed-json": _SENT_BY_CLIENT_ONLY_AS_JSON,
    "2.x/014-options-preflight-fetchInstances": "a browser's CORS preflight (OPTIONS): the "
    "client is no browser",
}


def listed_in(table: dict[str, str], rec: Recording) -> str | None:
    """A table's reason for a recording: keyed by its release and file (``2.3.7/921-…``), or
    by its line and file (``2.x/024-…``: every release of the line that recorded that file)."""
    return table.get(f"{rec.release}/{rec.stem}") or table.get(f"{rec.line}.x/{rec.stem}")


def _reason_listed(rec: Recording) -> str | None:
    return listed_in(CANNOT_SEND, rec) or NO_METHOD.get(route_of(rec))


CASES = all_recordings()


def test_every_folder_is_in_the_suite_with_its_release_read_from_its_recordings() -> None:
    """Every folder of ../shared/recordings is a source of cases (without it the suite would
    check nothing), and each says which release answered: both lines are there."""
    found = folders()
    assert len(found) >= 7, found
    in_cases = {rec.folder for rec in CASES}
    assert in_cases == set(found)
    by_line = {line: sum(1 for r in CASES if r.line == line) for line in ("1", "2")}
    assert by_line["1"] >= 250 and by_line["2"] >= 500, by_line
    assert {"1.7.1", "2.3.6", "2.3.7", "2.4.0"} <= set(releases())


def test_every_listed_case_names_a_recording() -> None:
    """A table line whose file no folder of its line or release has is a typo or a stale line."""
    known = {f"{r.release}/{r.stem}" for r in CASES} | {f"{r.line}.x/{r.stem}" for r in CASES}
    for table in (CANNOT_SEND, REFUSED_BEFORE_SENDING, NOT_CONNECTED_UNSAID):
        assert set(table) <= known, sorted(set(table) - known)


def _string_leaves(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [s for item in value for s in _string_leaves(item)]
    if isinstance(value, dict):
        return [s for k, v in value.items() if k != "property" for s in _string_leaves(v)]
    return []


# The forms a real server uses for "this instance has no live session" (recording notes and
# the spec): checked against the recordings' own names, not the client's pattern.
_NOT_CONNECTED_TEXT = re.compile(
    r"Cannot read properties of undefined \(reading '(?!includes'|length')"
    r"|Connection Closed|is not connected|App state key not present"
)


def _is_not_connected(rec: Recording) -> bool:
    return any(_NOT_CONNECTED_TEXT.search(s) for s in _string_leaves(rec.messages))


def _no_empty(body: Any) -> Any:
    return None if body in ({}, None) else body


def client_for(rec: Recording, gateway: RecordedGateway) -> GatewayClient:
    return GatewayClient(
        "http://gateway.test",
        rec.api_key or "",
        transport=gateway.transport(),
        retry_delays=(),
        api_version=rec.line,  # the recording's line
    )


@pytest.mark.parametrize("rec", CASES, ids=[r.id for r in CASES])
async def test_recording(rec: Recording) -> None:
    listed = _reason_listed(rec)
    operation = operation_for(rec)
    if operation is None:
        assert listed, f"the client has no method for {route_of(rec)}: list it"
        return
    try:
        call = operation.build(rec, operation.pattern.match(rec.path))
    except (NotExpressible, ValidationError) as reason:
        assert listed, f"not expressible ({reason}) and not listed in CANNOT_SEND"
        return
    gateway = RecordedGateway((rec,))
    async with client_for(rec, gateway) as client:
        try:
            result = await call.run(client)
            error = None
        except GatewayError as exc:
            result, error = None, exc

    if isinstance(error, InvalidRequest):
        # Refused before sending: right only where the server refused it too.
        assert not gateway.log, "refused, yet something was sent"
        assert rec.status == 400 or listed_in(REFUSED_BEFORE_SENDING, rec), (
            f"the client refuses what the server answered {rec.status}: {error.messages}"
        )
        assert not listed, "the client refuses it before sending: remove it from the table"
        return

    assert len(gateway.log) == 1, gateway.answered_by()
    sent = gateway.log[0]
    body_sent = sent.body
    if call.added:
        body_sent = {k: v for k, v in sent.body.items() if k not in call.added}
    same_request = (
        sent.recording is rec
        and sent.query == rec.query
        and _no_empty(body_sent) == _no_empty(rec.request_body)
    )
    if not same_request:
        # Another verb, path, query or body than the recording's: a request it never sends.
        assert listed, (
            f"the client sent {sent.method} {sent.path} {sent.query} {sent.body!r}; recorded: "
            f"{rec.method} {rec.path} {rec.query} {rec.request_body!r}: list why"
        )
        return
    assert not listed, "the client sends this request: remove it from the table"

    if 200 <= rec.status < 300 and isinstance(error, RefusedIn200):
        # A refusal the server swallowed into a 200 ({"error": true, …}): read as the refusal.
        body = rec.response_body
        assert isinstance(body, dict) and body.get("error") is True, repr(error)
        return
    if 200 <= rec.status < 300:
        assert error is None, f"a {rec.status} read as {error!r}: {error.messages}"
        call.check(result, rec)
        return
    assert error is not None, f"a {rec.status} answered, the client returned {result!r}"
    if isinstance(error, NameTaken):
        # The 403 a taken name gets is its own error, not a key problem.
        assert rec.status == 403 and "already in use" in str(rec.response_body), repr(error)
        return
    assert type(error) is ERROR_BY_STATUS[rec.status], repr(error)
    assert error.status == rec.status
    lines = " ".join(" | ".join(error.messages).split())
    for text in _string_leaves(rec.messages):
        assert " ".join(text.split()) in lines, (text, error.messages)
    expected = _is_not_connected(rec) and not listed_in(NOT_CONNECTED_UNSAID, rec)
    assert error.instance_not_connected is expected, error.messages


# Refused before sending although the server did not answer 400: the server's answer shows
# the same mistake another way.
REFUSED_BEFORE_SENDING = {
    "1.x/011-create-empty-instanceName": "403 'This name \"\" is already in use': an empty "
    "name is refused here",
    "1.x/089-sendList-to-group-jid": "500 reading 'id': a list cannot go to a group",
    "1.x/090-fetchProfile-group-jid": "500 reading 'id': a group has no profile",
    "1.x/049-sendList-empty-list-title": "the server's schema lets an empty list title "
    "through (then fails on the session); the composer requires every text WhatsApp shows",
    "1.x/050-sendList-empty-section-title": "as 049, for a section's title",
    "1.x/069-sendText-number-with-letters": "500 reading 'onWhatsApp' (the server "
    "lets letters through, then fails on the session); the client refuses a number with letters",
    "2.x/069-sendText-number-with-letters": "as v1.7.1-more/069",
    "1.x/092-sendInvite-groupJid-not-validated": "the server does not check sendInvite's "
    "groupJid (404 'No send invite'); the client refuses a JID that is no group's",
    "2.3.7/935-x-deleteMessageForEveryone-empty-remoteJid": "500 reading 'sendMessage' (the "
    "server lets an empty chat through, then fails on the session); the client refuses it",
    "2.x/035-webhook-set-a-invalid-url": "2.x stores any url (201 for 'not a url': a "
    "webhook that can never be called); the client asks for an http(s) URL",
}

# Not-connected answers whose text does not say so: the screens use the instance's known
# status instead (the groups screen, the composer).
NOT_CONNECTED_UNSAID: dict[str, str] = {}
