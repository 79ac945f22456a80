"""Differential: the demo gateway against the recordings of real servers.

Every folder of ../shared/recordings is replayed in its recorded order against a fresh demo of
the release its recordings say answered (tests/recorded/gateway.py: the ``GET /`` answer's
version, else an event stream's header; a 2.4 whose ``/license/status`` said inactive is
replayed on a demo without a licence), with no instances and the recordings' global key, so
the demo goes through the same history (creates, settings, deletes) as the real server did.
Where the recorder restarted the server with other settings (a note "server started with
PROMETHEUS_METRICS=true …"), the replay starts a demo with those settings from there on.

For every exchange, what must agree: the HTTP status, the body's shape (keys and value types;
a list by its first item) and, for an error, its words (the server's own URL and UUIDs aside).
Each difference kept on purpose is listed with its reason, per line (``2.x/…``: every release
of the line that recorded that file) or per release (``2.3.7/…``), and routes the demo does not
have per line; a listed difference that no longer differs fails, so the tables stay true.
Where they differ for no good reason, the real server wins and the demo changes. A folder
added later joins with no change here.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from gateway_tui.demo.server import DemoServer
from gateway_tui.demo.versions import RELEASES
from tests.recorded.gateway import (
    GLOBAL_KEY,
    Recording,
    folder_licence,
    folder_release,
    folders,
    load_folder,
)
from tests.recorded.operations import route_of

FOLDERS = folders()


def shape(value: Any) -> Any:
    """Keys and value types, recursively; a list by its first item."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in sorted(value.items())}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return (
        "number"
        if isinstance(value, int | float) and not isinstance(value, bool)
        else (type(value).__name__)
    )


_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_ORIGIN = re.compile(r"https?://[^/\s\"]+")


def compared(status: int, body: Any, origin: str) -> dict[str, Any]:
    if 200 <= status < 300:
        return {"status": status, "shape": shape(body), "text": None}
    text = json.dumps(body, sort_keys=True)
    if origin:  # the server's own URL (a 2.4's register_url) and ids are its own
        text = text.replace(origin, "<server>")
    text = _UUID.sub("<uuid>", text)
    return {"status": status, "shape": shape(body), "text": text}


def _replay(demo: DemoServer, rec: Recording, client: httpx.Client) -> tuple[int, Any]:
    headers = dict(rec.request_headers)
    headers.setdefault("Content-Type", "application/json")
    if rec.raw_body is not None:
        content = rec.raw_body
    elif rec.request_body is not None:
        content = json.dumps(rec.request_body).encode()
    else:
        content = None
    response = client.request(
        rec.method, rec.path, params=rec.query or None, content=content, headers=headers
    )
    try:
        # An empty body is recorded as "" (JSON null as None).
        return response.status_code, response.json() if response.content else ""
    except ValueError:
        return response.status_code, response.text


def _parts(release: str) -> tuple[int, ...]:
    return tuple(int(part) for part in release.split("."))


def demo_release(release: str) -> str:
    """The release the demo speaks for a recorded one: itself, or for one the demo does not
    know yet (a folder added later) the newest it knows of that line that is not newer, so
    the folder is compared at once and its differences show."""
    known = sorted(set(RELEASES.values()), key=_parts)
    line = [r for r in known if r.split(".")[0] == release.split(".")[0]]
    older = [r for r in line if _parts(r) <= _parts(release)]
    return (older or line[:1] or [release])[-1]


def demo_options(folder: str, rec: Recording) -> dict[str, Any]:
    """The demo that stands in for the server that answered ``rec``."""
    options: dict[str, Any] = {"api_version": demo_release(folder_release(folder))}
    if folder_licence(folder) == "inactive":
        options["licence"] = "inactive"
    env = rec.server_env
    if env.get("PROMETHEUS_METRICS") == "true":
        options["metrics"] = True
        if env.get("METRICS_AUTH_REQUIRED") == "true":
            options["metrics_auth"] = (env["METRICS_USER"], env["METRICS_PASSWORD"])
    return options


def _origin(url: str) -> str:
    found = _ORIGIN.match(url)
    return found.group(0) if found else ""


@pytest.fixture(scope="module")
def replayed() -> Iterator[dict[str, tuple[dict[str, Any], dict[str, Any]]]]:
    """Every recording's (demo, real) comparison, each folder replayed in order."""
    results: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for folder in FOLDERS:
        recordings = sorted(load_folder(folder), key=lambda r: r.seq)
        runs: list[tuple[dict[str, Any], list[Recording]]] = []
        for rec in recordings:  # consecutive recordings made with the same server settings
            options = demo_options(folder, rec)
            if not runs or runs[-1][0] != options:
                runs.append((options, []))
            runs[-1][1].append(rec)
        for options, run in runs:
            with DemoServer(instances=0, api_key=GLOBAL_KEY, **options) as demo:
                demo.state.auto_scan_seconds = None  # nobody scans a QR code on a real server
                with httpx.Client(base_url=demo.url, timeout=120) as client:
                    for rec in run:
                        demo_side = compared(*_replay(demo, rec, client), demo.url)
                        real_side = compared(rec.status, rec.response_body, _origin(rec.url))
                        results[rec.id] = (demo_side, real_side)
    yield results


CASES = [rec for folder in FOLDERS for rec in load_folder(folder)]

# "<line>.x/<file>" or "<release>/<file>" (a glob; the release's first, then the first match)
# → (what differs: "text" | "shape" | "status"), why it is kept.
_PLANTED = (
    "shape",
    "the recorder planted evo-a's store by hand (an image, a list message, 5 contacts, 4 "
    "statuses); the demo's created evo-a has a store of its own",
)
_QR = (
    "shape",
    "offline, the real server never got a QR code ({count: 0}); the demo imitates a gateway "
    "that reaches WhatsApp, so pairing can be tried (base64 and code)",
)
_RECONNECTING = (
    "text",
    "'Connection Closed' is the flavour of an instance whose socket keeps failing (created "
    "with qrcode:true and no internet); the demo's closed instances have no socket (the "
    "'reading …' flavour). Both read as 'not connected' (test_recorded_cases.py)",
)
_TRIMMED = (
    "text",
    "the recording's Prisma error was trimmed (the server's code excerpt removed, its note "
    "says so); the demo says the same first line and error",
)
_LATER = (
    "shape",
    "read seconds after the deletes on the real server (2.x finishes a delete after its 200); "
    "the replay asks at once, while the demo still lists them (tests/demo/test_demo_v2.py waits)",
)
_WEBSOCKET_OFF = (
    "shape",
    "the recorded server ran with its websocket off (WEBSOCKET_ENABLED=false: empty answers); "
    "the demo's is on, as in the wsserver recordings (139-148), which agree",
)
DIFFERENCES: dict[str, tuple[str, str]] = {
    "1.x/010-create-no-instanceName": (
        "status",
        "the real server crashes (500 'path argument must be of type string'); the demo "
        "refuses at once (400). The client never sends it (a name is required)",
    ),
    "1.x/011-create-empty-instanceName": (
        "status",
        "the real 403 'This name \"\" is already in use.' is a quirk of its file store; the "
        "demo says the name is empty. The client refuses an empty name before sending",
    ),
    "1.x/056-sendList-malformed-json": (
        "text",
        "node's JSON.parse message, which depends on the node version and on where the body breaks",
    ),
    "1.x/057-archiveChat-by-chat": (
        "text",
        "'[object Object]' is a real server's unprintable error; the demo names the missing "
        "session. Both are 500 with archived false",
    ),
    "1.x/064-updateMessage-empty-body": (
        "shape",
        "a real 1.7.1's updateMessage schema requires nothing, so it fails later ('reading "
        "includes'); the demo asks for the fields at once. The client always sends them",
    ),
    "1.x/067-fetchProfile-no-number": (
        "text",
        "no number: the real server fails on number.includes; the demo on the session. The "
        "client always sends a number",
    ),
    "1.x/068-fetchProfile-number-not-string": (
        "status",
        "a number that is no string: the real server crashes (500); the demo refuses it (400). "
        "The client always sends a string",
    ),
    "1.x/089-sendList-to-group-jid": (
        "text",
        "to a group's JID the real server fails on the missing group ('reading id'), the demo "
        "on the session; the client refuses a list to a group before sending",
    ),
    "1.x/090-fetchProfile-group-jid": ("text", "as 089, for fetchProfile"),
    "1.x/091-updateGroupSubject-body-and-query": (
        "status",
        "a real 1.7.1 validates a groupJid in the body against its pattern only when the query "
        "has none; the demo always does. The client never sends groupJid in the body",
    ),
    "1.x/098-settings-set-extra-query-param": (
        "shape",
        "the real server copies the query's fields into its answer ('foo'); nothing reads them",
    ),
    "1.x/099-store-static-apikey-file-no-auth": (
        "status",
        "a real 1.7.1 serves its store folder without a key, instance keys included (a leak); "
        "the demo does not imitate that",
    ),
    "1.x/003-create-lc2-qrcode-true": _QR,
    "1.x/008-connect-lc1": _QR,
    "1.x/012-connect-lc2-again": _QR,
    "1.x/142-cc-create-evo-c-qrcode-true": _QR,
    "1.x/088-findChats-a-planted": _PLANTED,
    "1.x/09[0-4]-findMessages-*": _PLANTED,
    "1.x/09[67]-findContacts-*": _PLANTED,
    "1.x/099-findStatusMessage-a-by-id": _PLANTED,
    "1.x/10[45]-getBase64FromMediaMessage-*": (
        "text",
        "the recorder planted this image message in evo-a's store by hand; the demo's evo-a "
        "has no such message, so it says 'Message not found' (as recording 106) before it "
        "checks the session",
    ),
    # after the routes: the first match counts; 148 (sendPresence) says Connection Closed too
    "1.x/14[4-79]-cc-*": _RECONNECTING,
    # --- v2.3.6 ---------------------------------------------------------------------------
    "2.x/04[5]-archiveChat-POST-disconnected": _TRIMMED,
    "2.x/059-archiveChat-by-chat-planted": _TRIMMED,
    "2.x/058-updateMessage-planted-message": (
        "status",
        "the recorder planted a message in evo-a's store; the demo's evo-a has not got it, and "
        "says so ('Message not compatible') where the real one reached the session",
    ),
    "2.x/068-fetchInstances-after-delete-3s": _LATER,
    "2.x/029-fetchInstances-after-deletes-1500ms": _LATER,
    # 2.3.7 still listed them at once too (v2.3.7-vs-2.3.6.md row 7), as the demo does.
    "2.3.6/138-fetchInstances-after-cleanup": _LATER,
    "2.x/003-create-lc2-qrcode-true": _QR,
    "2.x/008-connect-lc1": _QR,
    "2.x/012-connect-lc2-again": _QR,
    "2.x/151-cc-create-evo-c-qrcode-true": _QR,
    "2.x/043-websocket-find-a-before-set": _WEBSOCKET_OFF,
    "2.x/044-websocket-set-a": _WEBSOCKET_OFF,
    "2.x/045-websocket-find-a-after-set": _WEBSOCKET_OFF,
    "2.x/047-websocket-set-a-1.7.1-shape": (
        "status",
        "the 1.7.1 flat body on a server with its websocket off: the real one stores nothing and "
        "answers 201 with an empty body; the demo refuses it (400 requires websocket)",
    ),
    "2.x/048-websocket-set-a-disable": _WEBSOCKET_OFF,
    "2.x/049-websocket-find-a-after-disable": _WEBSOCKET_OFF,
    "2.x/147-wsserver-websocket-set-1.7.1-flat-shape": (
        "status",
        "the 1.7.1 flat body: the real server crashes (500 'setting events'); the demo refuses "
        "it (400 requires websocket). The client sends the 2.x body",
    ),
    "2.x/088-findChats-a-all": _PLANTED,
    "2.x/089-findChats-a-no-body": _PLANTED,
    "2.x/090-findChats-a-where-remoteJid": _PLANTED,
    "2.x/091-findChats-a-where-remoteJid-number-only": _PLANTED,
    "2.x/093-findChats-a-take-1-skip-0": _PLANTED,
    "2.x/094-findChats-a-take-1-skip-1": _PLANTED,
    "2.x/096-findMessages-a-all": _PLANTED,
    "2.x/097-findMessages-a-by-remoteJid": _PLANTED,
    "2.x/098-findMessages-a-by-remoteJid-page1-offset2": _PLANTED,
    "2.x/099-findMessages-a-by-remoteJid-page2-offset2": _PLANTED,
    "2.x/100-findMessages-a-by-remoteJid-limit-1.7.1": _PLANTED,
    "2.x/101-findMessages-a-by-key-id": _PLANTED,
    "2.x/103-findContacts-a-all": _PLANTED,
    "2.x/104-findContacts-a-where-remoteJid": _PLANTED,
    # 2.3.6 ignores where.id (all of the planted contacts); 2.3.7 filters on it, and both
    # the real and the demo answer [] (v2.3.7-vs-2.3.6.md row 3).
    "2.3.6/105-findContacts-a-where-id-1.7.1": _PLANTED,
    "2.x/92[0-2]-x-findContacts-*": (
        "shape",
        "the recorder planted a contact in x-1's store by hand; the demo's created x-1 has none "
        "(923, a name nobody has, agrees: [])",
    ),
    "2.x/925-x-findLabels-planted": (
        "shape",
        "the recorder planted a label row in x-1's store by hand; the demo's created x-1 has none "
        "(924 and 963, none, agree: []); tests/demo/test_demo_labels.py checks a row's fields",
    ),
    "2.x/950-xcc-create-qrcode-true": _QR,
    "2.x/106-findStatusMessage-a-all": _PLANTED,
    "2.x/107-findStatusMessage-a-by-remoteJid": _PLANTED,
    "2.x/052-findChats-a-empty": _PLANTED,
    "2.x/053-findChats-a": _PLANTED,
    "2.x/054-findMessages-a": _PLANTED,
    "2.x/055-findMessages-a-all": _PLANTED,
    "2.x/056-findMessages-a-by-id": _PLANTED,
    "2.x/057-findContacts-a": _PLANTED,
    "2.x/153-cc-sendText-evo-c": _RECONNECTING,
    "2.x/073-sendMedia-image-url-disconnected": (
        "text",
        "a media URL: 2.x downloads it before it looks at the session (offline: ENOTFOUND); "
        "the demo looks at the session first",
    ),
    "2.x/156-cc-markMessageAsRead-evo-c": _RECONNECTING,
    "2.x/11[23]-getBase64FromMediaMessage-*": (
        "text",
        "as v1.7.1-more/104: an image the recorder planted (2.x fails fetching its fake URL); "
        "the demo's evo-a has no such message",
    ),
    "2.x/154-cc-sendList-evo-c": _RECONNECTING,
}


# Routes the demo does not have, per line: it answers its own 404 ("Cannot POST /x"), whatever
# the real answer. A route that the demo gains fails here until its line is removed.
NO_ROUTE: dict[str, dict[str, str]] = {
    "1.x": {
        "POST /chat/fetchProfilePictureUrl": "the profile view does not show the picture",
        "PUT /group/updateGroupPicture": "the app does not change group pictures",
    },
    "2.x": {
        "POST /chat/fetchProfilePictureUrl": "the profile view does not show the picture",
        "POST /chat/fetchBusinessProfile": "the profile view uses fetchProfile",
        "POST /group/updateGroupPicture": "the app does not change group pictures",
    },
}


def _keys(rec: Recording) -> tuple[str, str]:
    return f"{rec.release}/{rec.stem}", f"{rec.line}.x/{rec.stem}"


def _listed(rec: Recording) -> tuple[str, str] | None:
    for key in _keys(rec):
        for pattern, entry in DIFFERENCES.items():
            if fnmatch.fnmatchcase(key, pattern):
                return entry
    return None


def _no_route(rec: Recording) -> str | None:
    line = f"{rec.line}.x"
    route = route_of(rec)
    return NO_ROUTE.get(line, {}).get(route)


@pytest.mark.parametrize("rec", CASES, ids=[r.id for r in CASES])
def test_the_demo_answers_as_the_real_server(replayed, rec: Recording) -> None:
    demo, real = replayed[rec.id]
    if _no_route(rec):  # the demo has no such route: its own 404, whatever the real answer
        assert demo["status"] == 404 and '"Cannot ' in demo["text"], (
            f"{rec.id}: the demo has {route_of(rec)} now: remove it from NO_ROUTE"
        )
        return
    listed = _listed(rec)
    if listed is None:
        assert demo == real
        return
    what, _reason = listed
    assert demo[what] != real[what], f"{rec.id}: no longer differs, remove it from DIFFERENCES"
    agree = {"text": ("status", "shape"), "shape": ("status",), "status": ()}[what]
    assert [demo[part] for part in agree] == [real[part] for part in agree]


def test_a_release_the_demo_does_not_know_yet_is_compared_with_the_nearest_it_knows() -> None:
    assert demo_release("2.3.7") == "2.3.7"
    assert demo_release("2.3.9") == "2.3.7"
    assert demo_release("2.5.1") == "2.4.0"
    assert demo_release("1.8.2") == "1.7.1"
    assert demo_release("2.0.0") == "2.3.6"  # older than any 2.x it knows: its oldest


def test_every_listed_difference_names_a_recording() -> None:
    """A table line that matches no file of its line or release is a typo or a stale line."""
    keys = {key for rec in CASES for key in _keys(rec)}
    for pattern in DIFFERENCES:
        assert fnmatch.filter(keys, pattern), pattern
