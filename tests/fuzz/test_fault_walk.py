"""The app under fire: a seeded random walk over every screen's keys, plus the write flows, against
a demo gateway that fails every way it can, then the app's state checked against the gateway's.

The gateway adds latency, answers 5xx (JSON and HTML pages), malformed JSON, drops connections,
stalls for 30 s (the app's ``request_timeout`` is 3 s, so a stall ends as a timeout) and refuses
the key in the middle of the session. Phase by phase, the walk presses keys the current screen
binds (printable characters when a text field has focus) and runs the flows a user runs: delete,
revoke, send a list message, edit, archive, change a subject, send an invite.

How failures are counted, and how an announcement is recognised (the accounting must be honest,
or "every failed call is announced" proves nothing):

* A *failed call* is a request id whose last attempt failed in the app's request log
  (``app.state.calls``; a GET that failed in transport is retried under the same id, and only
  its last attempt counts). A call the user abandoned (its screen was left while a GET waited to
  retry, so the worker was cancelled) has nobody waiting for it and is counted apart.
* The client is wrapped so that every ``GatewayError`` it raises carries the request id of the
  call that failed; announcements are then matched to failed calls by id, never by count.
* A failure is *announced* when its error reached one of:
  1. ``app.report_error`` (the "… failed" notification);
  2. a screen's ``on_error`` handler that says it told the user itself (returns True), and then,
     checked right after the handler ran: it raised a notification, or pushed a dialog (the "log
     out first" offer), or it wrote an error mark (✕ / ⚠) into a visible widget of its screen
     (the dialogs' notes, the composer's status line, the profile card), or the app state holds
     that very error object (a ``Loadable``'s or an invite's error, which the screens draw as
     stale banners and error panels) and the screen shows an error mark (✕, ⚠, an error panel).
* A write whose outcome is unknown (timeout, broken connection) must say so: its announcement
  names the outcome as unknown.

Afterwards the app's state is compared with the gateway's for everything the app shows
(instances and their status, settings, group subjects, participants, invite codes, archived flags,
edited texts). Exempt are entities a write of unknown outcome touched and data the app marks as
stale (its last refresh failed); both are checked to be marked. Write calls are never repeated:
every request id reached the gateway once, and there were no more writes than write actions the
user confirmed (each confirmed action calls one write action; the wrappers count them).

Keys are answered while a request stalls: a list message is sent with a delay into a 30 s stall;
while it is pending, keys change the preview, open the request log and the help, and each effect
is asserted on screen while the call is still pending (structural, no timed assertion). The
key→frame latency (from the key press to the first frame painted with its effect) is recorded and
printed with the summary line.
"""

from __future__ import annotations

import contextvars
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static, TextArea

from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.errors import GatewayError
from gateway_tui.core.api.events import CallEvent
from gateway_tui.core.api.resources.base import Resource
from gateway_tui.core.draft import Draft, DraftRow, DraftSection
from gateway_tui.core.files.drafts import ComposeStore
from gateway_tui.core.services.messages import chat_jid
from gateway_tui.tui.app import GatewayApp
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.screens.chat_modals import EditMessageScreen
from gateway_tui.tui.screens.chats import ChatsScreen
from gateway_tui.tui.screens.composer import ComposerScreen
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.connect import ConnectScreen
from gateway_tui.tui.screens.group_modals import ExportScreen, InviteScreen, SubjectScreen
from gateway_tui.tui.screens.groups import GroupPickerScreen
from gateway_tui.tui.screens.instances import InstancesScreen
from gateway_tui.tui.screens.messages import MessagesScreen
from gateway_tui.tui.screens.participants import ParticipantsScreen
from gateway_tui.tui.screens.request_log import RequestLogScreen
from gateway_tui.tui.textual_private import crash_printed, unhandled_exception
from gateway_tui.tui.widgets.list_preview import PreviewMode
from gateway_tui.tui.widgets.status_panel import StatusPanel
from tests.support import make_app, make_config, screen_text, wait_for

SEED = 20240607
SIZE = (140, 40)
INSTANCE = "sales-eu"  # open, superadmin of BIG: the flows' instance (the walk never deletes it)
BIG = "120363012345678901@g.us"
# Valid numbers (phonenumbers): the invite dialog refuses the others (issue 22).
RECIPIENTS = ("4915112340001", "4915112340002", "5511912345678")
DELETABLE = ("onboarding", "hr-internal")  # closed: a gateway deletes them without a logout
# Never pressed: quitting ends the session, and the palette is a different walk.
NEVER = frozenset({"q", "ctrl+q", "ctrl+c", "ctrl+p"})
# Binding ids never pressed: connecting to another gateway throws the session away (like quit).
NEVER_IDS = frozenset({"connect.connect"})
# The stalled send's delay: the gateway stalls as long, then holds the answer for the delay, so
# the send is pending until the app's own deadline (request_timeout + delay).
STALLED_DELAY_MS = 45_000
# Worker groups that follow a stream for as long as their screen is open (the event monitor's
# socket and its webhook receiver): no call a user waits for, ended when the screen goes.
STREAMS = frozenset({"events", "receiver"})
# What is typed into a focused text field: letters, digits, punctuation, a few non-ASCII letters.
# No "/" or "~": a CSV export path must stay in the working directory.
PRINTABLE = tuple("abcxyzAZ0123456789 -_.,:;!@#+()é中ß") + ("space",)
ERROR_MARKS = ("✕", "⚠", "answered 404")
WRITE_ACTIONS = (
    "delete_instance",
    "logout_instance",
    "save_settings",
    "revoke_invite_code",
    "update_group_subject",
    "send_group_invite",
    "send_list",
    "archive_chat",
    "edit_message",
    "fetch_profile",  # a read, but a POST: the gateway counts it as a write
    "create_instance",
    "restart_instance",
    "save_webhook",
    "save_websocket",
)

POST_READS = (
    "find_contacts",
    "find_messages",
    "find_last_messages",
    "find_chat_messages",
    "find_chat_page",  # 2.x: a page; 1.7.1: find_chat_messages (counted twice: the check is <=)
    "find_status_messages",
    "find_message_json",
)
# Where each counted name lives since the client went by resource and the actions by area.
ACTION_AREAS = {
    "delete_instance": "instances",
    "logout_instance": "instances",
    "save_settings": "instances",
    "revoke_invite_code": "groups",
    "update_group_subject": "groups",
    "send_group_invite": "groups",
    "send_list": "messages",
    "edit_message": "messages",
    "fetch_profile": "messages",
    "archive_chat": "chats",
    "create_instance": "lifecycle",
    "restart_instance": "lifecycle",
    "save_webhook": "lifecycle",
    "save_websocket": "lifecycle",
}
CLIENT_PATHS = {
    "find_contacts": ("contacts", "find"),
    "find_messages": ("chats", "find_messages"),
    "find_last_messages": ("chats", "last_messages"),
    "find_chat_messages": ("chats", "chat_messages"),
    "find_chat_page": ("chats", "chat_page"),
    "find_status_messages": ("chats", "statuses"),
    "find_message_json": ("chats", "message_json"),
}

# The request log of the call being made in this task: the client emits each attempt's event
# before it raises, in the same task, so the wrapper can tag the error with its request id.
_current_call: contextvars.ContextVar[list[CallEvent] | None] = contextvars.ContextVar(
    "fault_walk_current_call", default=None
)
# Static.update calls made while an on_error handler runs (what the handler drew).
_drawn: contextvars.ContextVar[list[tuple[Static, str]] | None] = contextvars.ContextVar(
    "fault_walk_drawn", default=None
)


def plain(content: Any) -> str:
    return content.plain if hasattr(content, "plain") else str(content)


def shown(widget: Static) -> bool:
    """Displayed, and so are all its ancestors up to its screen."""
    node: Any = widget
    while node is not None and not isinstance(node, Screen):
        if not node.display:
            return False
        node = node.parent
    return True


def error_marks(screen: Screen) -> list[str]:
    """The texts of visible widgets of ``screen`` that carry an error mark."""
    marked = []
    for widget in screen.query(Static):
        if not shown(widget):
            continue
        text = plain(widget.render())
        if any(mark in text for mark in ERROR_MARKS) or (
            isinstance(widget, StatusPanel) and widget.has_class("-error")
        ):
            marked.append(text)
    return marked


def state_holds(app: GatewayApp, error: GatewayError) -> bool:
    """The app state keeps this very error object (the screens draw it as stale or failed)."""
    state = app.state
    loadables = [
        state.instances,
        *state.settings.values(),
        *state.groups.values(),
        *state.participants.values(),
        *state.profiles.values(),
        *state.chat_books.values(),
        *state.messages.values(),
        *state.contacts.values(),
        *state.labels.values(),
    ]
    return any(item.error is error for item in loadables) or any(
        invite.error is error for invite in state.invites.values()
    )


@dataclass
class Ledger:
    """What the app announced, by request id, and what else the walk recorded."""

    announced: dict[str, str] = field(default_factory=dict)  # request id -> how (and the text)
    unverified: list[str] = field(default_factory=list)  # handled "in place" but nothing shown
    unexpected: list[str] = field(default_factory=list)
    swallowed: list[str] = field(default_factory=list)  # exceptions in redraws
    notifications: list[tuple[str, str]] = field(default_factory=list)  # (title, message)
    abandoned_reads: set[str] = field(default_factory=set)
    write_actions: Counter[str] = field(default_factory=Counter)
    unknown: set[tuple[str, ...]] = field(default_factory=set)  # entities of unknown writes
    abandoned_writes: list[tuple[str, ...]] = field(default_factory=list)
    pending: dict[int, str] = field(default_factory=dict)  # in-place checks not yet made

    def announce(self, error: GatewayError, how: str) -> None:
        request_id = getattr(error, "request_id", None)
        if request_id:
            self.announced.setdefault(request_id, how)


def install_recorders(monkeypatch: pytest.MonkeyPatch, app: GatewayApp, ledger: Ledger) -> None:
    """Wrap the client, the screens' call helper, the reporting and the write actions."""
    original_call = GatewayClient._call

    async def tagged_call(self, *args: Any, **kwargs: Any) -> Any:
        events: list[CallEvent] = []
        token = _current_call.set(events)
        try:
            return await original_call(self, *args, **kwargs)
        except GatewayError as error:
            if events:
                error.request_id = events[-1].request_id  # type: ignore[attr-defined]
            raise
        except BaseException:
            if events:  # cancelled between attempts: nobody waits for this read any more
                ledger.abandoned_reads.add(events[-1].request_id)
            raise
        finally:
            _current_call.reset(token)

    monkeypatch.setattr(GatewayClient, "_call", tagged_call)
    # Each resource (client.groups, client.labels, ...) bound the client's ``_call`` when the
    # client was built, before the patch: point them at the tagged one, or their failures
    # would carry no request id and could never be matched to an announcement.
    for resource in vars(app.client).values():
        if isinstance(resource, Resource):
            monkeypatch.setattr(resource, "_call", app.client._call)

    def collect(event: CallEvent) -> None:
        box = _current_call.get()
        if box is not None:
            box.append(event)

    app.client.subscribe(collect)

    original_update = Static.update

    def recording_update(self: Static, content: Any = "", *args: Any, **kwargs: Any) -> None:
        box = _drawn.get()
        if box is not None:
            box.append((self, plain(content)))
        original_update(self, content, *args, **kwargs)

    monkeypatch.setattr(Static, "update", recording_update)

    original_screen_call = GatewayScreen.call

    def watched_call(self: GatewayScreen, work: Any, *, on_error=None, **kwargs: Any):
        def watched(error: GatewayError) -> bool:
            notes, stack = len(ledger.notifications), len(app.screen_stack)
            drawn: list[tuple[Static, str]] = []
            token = _drawn.set(drawn)
            try:
                handled = bool(on_error(error)) if on_error is not None else False
            finally:
                _drawn.reset(token)
            if not handled:
                return False  # the screen's helper calls app.report_error next
            if len(ledger.notifications) > notes:
                title, message = ledger.notifications[-1]
                ledger.announce(error, f"notification: {title}: {message}")
            elif len(app.screen_stack) > stack:
                ledger.announce(error, f"dialog: {type(app.screen_stack[-1]).__name__}")
            elif marked := [
                text
                for widget, text in drawn
                if widget.screen is self and shown(widget) and any(m in text for m in ERROR_MARKS)
            ]:
                ledger.announce(error, "in place: " + " / ".join(marked))
            else:
                # The screens redraw from the state on a signal whose callbacks are queued to
                # each screen: look once the screen has handled what is queued before this.
                ledger.pending[id(error)] = f"{type(self).__name__}: {error.summary}"
                self.call_next(verify_in_place, self, error, state_holds(app, error))
            return True

        return original_screen_call(self, work, on_error=watched, **kwargs)

    monkeypatch.setattr(GatewayScreen, "call", watched_call)

    def verify_in_place(screen: GatewayScreen, error: GatewayError, held: bool) -> None:
        what = ledger.pending.pop(id(error))
        if state_holds(app, error) and (marks := error_marks(screen)):
            ledger.announce(error, "state, shown: " + " / ".join(marks))
        elif held and not state_holds(app, error):
            # The state held it when the screen handled it, and a later read of the same data
            # (a poll, the recovery, r) has replaced it since: what it said is no longer so.
            ledger.announce(error, "state, superseded by a later read")
        else:
            on_top = type(app.screen).__name__
            held = "held" if state_holds(app, error) else "not held"
            ledger.unverified.append(f"{what} (on top: {on_top}; the state: {held})")

    original_state_changed = GatewayScreen._state_changed

    def guarded_state_changed(self: GatewayScreen, topic: Any) -> None:
        # A Textual signal logs and ignores a subscriber's exception: record it instead.
        try:
            original_state_changed(self, topic)
        except Exception as error:
            ledger.swallowed.append(f"{type(self).__name__}: {type(error).__name__}: {error}")
            raise

    monkeypatch.setattr(GatewayScreen, "_state_changed", guarded_state_changed)

    report_error, report_unexpected, notify = app.report_error, app.report_unexpected, app.notify

    def recording_report_error(error: GatewayError, what: str) -> None:
        ledger.announce(error, f"report_error: {what} failed: {error.summary}")
        report_error(error, what)

    def recording_report_unexpected(error: BaseException, what: str | None) -> None:
        ledger.unexpected.append(f"{what}: {type(error).__name__}: {error}")
        report_unexpected(error, what)

    def recording_notify(message: str, *, title: str = "", **kwargs: Any) -> None:
        ledger.notifications.append((title, str(message)))
        notify(message, title=title, **kwargs)

    app.report_error = recording_report_error  # type: ignore[method-assign]
    app.report_unexpected = recording_report_unexpected  # type: ignore[method-assign]
    app.notify = recording_notify  # type: ignore[method-assign]

    for name in WRITE_ACTIONS:
        area = getattr(app.actions, ACTION_AREAS[name])
        monkeypatch.setattr(area, name, _counted(getattr(area, name), name, ledger))
    # Reads of the chat store are POSTs too, which the gateway counts as writes.
    for name in POST_READS:
        resource_name, method = CLIENT_PATHS[name]
        resource = getattr(app.client, resource_name)
        monkeypatch.setattr(resource, method, _counted(getattr(resource, method), name, ledger))


def _entity(name: str, args: tuple) -> tuple[str, ...]:
    """What a write action touches, as the final comparison names it."""
    if name in ("delete_instance", "logout_instance", "restart_instance"):
        return ("instance", args[0])
    if name == "create_instance":
        return ("instance", args[0].instance_name)
    if name in ("save_webhook", "save_websocket"):
        return (name.removeprefix("save_"), args[0])
    if name == "save_settings":
        return ("settings", args[0])
    if name == "revoke_invite_code":
        return ("invite", args[0], args[1])
    if name == "update_group_subject":
        return ("subject", args[0], args[1])
    if name == "send_group_invite":
        return ("group-invite", args[0], args[1])
    if name == "send_list":
        return ("chat", args[0], chat_jid(args[1].number))
    if name == "archive_chat":
        return ("archived", args[0], args[1])
    if name == "edit_message":
        return ("message", args[0], args[1].id)
    if name in POST_READS:
        return ("store", args[0])
    return ("profile", args[0], args[1])


def _counted(method: Callable, name: str, ledger: Ledger) -> Callable:
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        ledger.write_actions[name] += 1
        entity = _entity(name, args)
        try:
            return await method(*args, **kwargs)
        except GatewayError as error:
            if error.outcome_unknown:
                ledger.unknown.add(entity)
            raise
        except BaseException:
            ledger.abandoned_writes.append(entity)
            raise

    return wrapper


class FrameClock:
    """Times each frame the app paints; tells when the first frame with an effect came."""

    def __init__(self, app: GatewayApp) -> None:
        self._effect: Callable[[], bool] | None = None
        self.hit: float | None = None
        display = app._display

        def timed_display(screen: Screen, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None and self._effect is not None and self.hit is None:
                if self._effect():
                    self.hit = time.perf_counter()

        app._display = timed_display  # type: ignore[method-assign]

    def watch(self, effect: Callable[[], bool]) -> None:
        self._effect, self.hit = effect, None


def good_draft(recipient: str, title: str, *, delay: str = "") -> Draft:
    return Draft(
        recipient=recipient,
        title=title,
        description="Pick one",
        button_text="See the menu",
        delay=delay,
        sections=[DraftSection("Pizzas", [DraftRow("Margherita"), DraftRow("Funghi")])],
    )


class Walk:
    """The app, the gateway and the walk's bookkeeping."""

    def __init__(self, app: GatewayApp, pilot: Any, server: Any, ledger: Ledger) -> None:
        self.app, self.pilot, self.server, self.ledger = app, pilot, server, ledger
        self.rng = random.Random(SEED)
        self.actions = 0
        self.flows: Counter[str] = Counter()
        self.visited: Counter[str] = Counter()
        self.rules: list[Any] = []
        self.latencies: list[float] = []
        self.clock = FrameClock(app)
        self.deleted: list[str] = []
        self.sends = 0

    # --- keys --------------------------------------------------------------------------------

    async def press(self, *keys: str) -> None:
        for key in keys:
            pressed_on = type(self.app.screen).__name__
            await self.pilot.press(key)
            self.actions += 1
            # Both the screen the key was pressed on and the one it led to were visited.
            self.visited.update({pressed_on, type(self.app.screen).__name__})
            self.check_alive()

    def check_alive(self) -> None:
        app = self.app
        assert app.is_running and unhandled_exception(app) is None, unhandled_exception(app)
        assert not crash_printed(app), "the app showed a traceback"
        assert not self.ledger.unexpected, self.ledger.unexpected
        assert not any(t.startswith("Unexpected error") for t, _ in self.ledger.notifications)
        assert not self.ledger.swallowed, self.ledger.swallowed

    def keys_here(self) -> list[str]:
        screen = self.app.screen
        keys = []
        for key, active in screen.active_bindings.items():
            if active.enabled and key not in NEVER and active.binding.id not in NEVER_IDS:
                # A refresh calls the gateway (where the faults are): weigh it up.
                keys += [key] * (4 if active.binding.action == "refresh" else 1)
        if isinstance(screen, InstancesScreen) and screen.table.cursor_key == INSTANCE:
            keys = [key for key in keys if key != "ctrl+d"]  # keep the flows' instance
        if isinstance(screen, ConnectScreen) and getattr(self.app.focused, "id", "") == "connect":
            keys = [key for key in keys if key not in ("enter", "space")]  # as connect.connect
        return keys

    async def step(self, stuck: int) -> None:
        focused = self.app.focused
        keys = self.keys_here()
        if stuck > 25 or not keys:
            key = "escape"  # out of a dead end
        elif isinstance(focused, Input | TextArea) and self.rng.random() < 0.45:
            key = self.rng.choice(PRINTABLE)
        else:
            key = self.rng.choice(sorted(keys))
        await self.press(key)

    async def walk(self, steps: int, start: Callable[[], Any] | None = None) -> None:
        """Open a screen with ``start``, press ``steps`` keys, then go back where it began."""
        depth = len(self.app.screen_stack)
        if start is not None:
            start()
            await self.pilot.pause()
        last, stuck = None, 0
        for _ in range(steps):
            screen = self.app.screen
            stuck = stuck + 1 if screen is last else 0
            last = screen
            await self.step(stuck)
        await self.back_to(depth)

    async def back_to(self, depth: int) -> None:
        """Leave the screens above ``depth`` once their calls are over (a user would wait)."""
        app = self.app
        while len(app.screen_stack) > depth:
            screen = app.screen
            await self.workers_end(screen, lambda w: w.group not in STREAMS)
            if isinstance(screen, ComposerScreen):
                screen.save_draft_now()
            if app.screen is screen:
                app.pop_screen()
            await self.pilot.pause()
            if screen not in app.screen_stack:  # its streams end with it: none left behind
                await self.workers_end(screen, lambda w: True)

    async def workers_end(self, screen: Screen, which: Callable[[Any], bool]) -> None:
        """Wait for ``screen``'s workers that ``which`` picks to end; name them if they do not."""
        app = self.app

        def running() -> list[Any]:
            return [w for w in app.workers if w.node is screen and w.is_running and which(w)]

        try:
            await wait_for(self.pilot, lambda: not running())
        except TimeoutError:
            left = [f"{w.name!r} ({w.group}) {w.state.name}" for w in running()]
            stack = [type(s).__name__ for s in app.screen_stack]
            raise AssertionError(
                f"{type(screen).__name__}'s workers never ended: {left}; stack {stack}"
            ) from None

    # --- calls -------------------------------------------------------------------------------

    def finished(self, prefix: str, method: str | None = None) -> int:
        return sum(
            1
            for e in self.app.state.calls
            if e.path.startswith(prefix) and (method is None or e.method == method)
        )

    async def settle(self) -> None:
        await wait_for(self.pilot, lambda: not any(w.is_running for w in self.app.workers))

    async def after(self, prefix: str, method: str, *keys: str) -> None:
        """Press ``keys`` and wait for the write they start to end (answered or failed)."""
        before = self.finished(prefix, method)
        await self.press(*keys)
        if isinstance(self.app.screen, ConfirmScreen):  # "outcome unknown" / "send again": yes
            await self.press("y")
        await wait_for(self.pilot, lambda: self.finished(prefix, method) > before)

    # --- navigation --------------------------------------------------------------------------

    def listed(self) -> list[str]:
        return [i.instance_name for i in self.app.state.instances.value or ()]

    async def open_instance(self, name: str = INSTANCE) -> None:
        self.app.open_instance(name)
        await self.pilot.pause()

    async def open_participants(self, jid: str = BIG) -> ParticipantsScreen:
        app = self.app
        await self.open_instance()
        app.open_groups(INSTANCE)
        await self.pilot.pause()
        picker = app.screen
        assert isinstance(picker, GroupPickerScreen)
        await wait_for(self.pilot, lambda: not app.state.groups_of(INSTANCE).loading)
        if picker.table.display and picker.table.move_cursor_to_key(jid):
            await self.press("enter")
        else:  # no list (it failed to load): type the JID, as a user would
            await self.press("J", *jid.split("@")[0], "enter")
        screen = await self.opened(ParticipantsScreen)
        await wait_for(
            self.pilot,
            lambda: not app.state.participants_of(INSTANCE, jid).loading,
        )
        return screen

    # --- flows -------------------------------------------------------------------------------

    async def flow_delete(self) -> None:
        app, depth = self.app, 2
        await self.back_to(depth)  # the instances screen
        name = next((n for n in DELETABLE if n in self.listed() and n not in self.deleted), None)
        screen = app.screen
        if name is None or not isinstance(screen, InstancesScreen) or not screen.table.display:
            return
        if not screen.table.move_cursor_to_key(name):
            return
        self.deleted.append(name)
        await self.after("/instance/delete/", "DELETE", "ctrl+d", "y")
        self.flows["delete"] += 1
        await self.back_to(depth)

    # On the participants screen (``group_visit`` opens it once for several of these).

    async def flow_revoke(self) -> None:
        await self.after("/group/inviteCode/", "GET", "i")
        await self.after("/group/revokeInviteCode/", "PUT", "R", "y")
        self.flows["revoke"] += 1

    async def flow_subject(self) -> None:
        await self.press("s")
        assert isinstance(self.app.screen, SubjectScreen)
        subject = f"W{self.rng.randrange(1000)} Ü✓"
        await self.after("/group/updateGroupSubject/", "PUT", "ctrl+u", *subject, "enter")
        await self.leave_dialog()
        self.flows["subject"] += 1

    async def flow_invite(self) -> None:
        await self.press("n")
        assert isinstance(self.app.screen, InviteScreen)
        number = self.rng.choice(RECIPIENTS)
        await self.after("/group/sendInvite/", "POST", *number, "tab", *"Hi ✓", "ctrl+s")
        await self.leave_dialog()
        self.flows["invite"] += 1

    async def flow_export(self) -> None:
        screen = self.app.screen
        if isinstance(screen, ParticipantsScreen) and screen.table.display:
            await self.press("e")
            assert isinstance(self.app.screen, ExportScreen)
            await self.press("enter")
            if isinstance(self.app.screen, ConfirmScreen):  # exported before: replace it
                await self.press("y")
            await self.leave_dialog()
            self.flows["export"] += 1

    async def leave_dialog(self) -> None:
        """Close a dialog that stayed open (the gateway refused, or shows a result)."""
        await self.pilot.pause()
        if isinstance(self.app.screen, ModalScreen):
            await self.press("escape")

    async def group_visit(self, *flows: Callable[[], Any], walk: int = 0) -> None:
        depth = len(self.app.screen_stack)
        await self.open_participants()
        for flow in flows:
            await flow()
        if walk:
            await self.walk(walk)
        await self.back_to(depth)

    # In the composer.

    async def open_composer(self, draft: Draft) -> ComposerScreen:
        ComposeStore(self.app.gateway_url, INSTANCE).save_draft(draft)
        await self.open_instance()
        await self.press("m")
        screen = await self.opened(ComposerScreen)
        assert screen.restored
        return screen

    async def opened(self, kind: type[Screen]) -> Any:
        """The screen a key opens, once it is there: a key that opens a screen may still be on
        its way (the app holds the keys typed after it until the screen has mounted)."""
        await wait_for(self.pilot, lambda: isinstance(self.app.screen, kind))
        return self.app.screen

    async def flow_send(self, walk: int = 0) -> None:
        depth = len(self.app.screen_stack)
        self.sends += 1
        recipient = RECIPIENTS[self.sends % len(RECIPIENTS)]
        await self.open_composer(good_draft(recipient, f"Offer {self.sends}"))
        await self.after("/message/sendList/", "POST", "tab", "end", "!", "ctrl+s")
        self.flows["send list"] += 1
        if walk:
            await self.walk(walk)
        await self.back_to(depth)

    # On the chats screen (``chat_visit`` opens it once for several of these).

    async def flow_archive(self) -> None:
        await self.after("/chat/archiveChat/", "PUT", "a")
        self.flows["archive"] += 1

    async def flow_edit(self) -> None:
        chats = self.app.screen
        if isinstance(chats, ChatsScreen):  # a chat with the instance's own text messages
            chats.table.move_cursor_to_key("4915112340001@s.whatsapp.net")
            for _ in range(4):  # e reads the chat's messages first: again while that fails
                await self.press("e")
                await self.workers_end(chats, lambda w: w.group == "edit-last")
                await self.pilot.pause()
                if self.app.screen is not chats:
                    break
        else:
            await self.press("e")  # the conversation, its newest own text message chosen
        if isinstance(self.app.screen, MessagesScreen):
            screen = self.app.screen
            loadable = self.app.actions.chats.messages_of(screen.instance, screen.jid)
            for _ in range(4):  # as a user would: `r` again while the read fails
                await wait_for(
                    self.pilot,
                    lambda: (
                        not loadable.loading
                        and (loadable.value is not None or loadable.error is not None)
                    ),
                )
                if loadable.value is not None:
                    break
                await self.press("r")
            await self.press("e")
        if isinstance(self.app.screen, EditMessageScreen):
            text = f"E{self.rng.randrange(1000)} ✓"
            await self.after("/chat/updateMessage/", "PUT", "ctrl+u", *text, "enter")
            await self.leave_dialog()
            self.flows["edit"] += 1

    async def flow_profile(self) -> None:
        before = self.finished("/chat/fetchProfile/")
        await self.press("p")  # the chat's number is prefilled and fetched at once
        await wait_for(self.pilot, lambda: self.finished("/chat/fetchProfile/") > before)
        await self.back_to(len(self.app.screen_stack) - 1)
        self.flows["profile"] += 1

    async def chat_visit(self, *flows: Callable[[], Any], walk: int = 0) -> None:
        depth = len(self.app.screen_stack)
        await self.open_instance()
        await self.press("t")
        screen = await self.opened(ChatsScreen)
        book = self.app.actions.chats.chat_book(INSTANCE)
        for _ in range(4):  # the gateway's chats: `r` again while the read fails
            await wait_for(
                self.pilot,
                lambda: not book.loading and (book.value is not None or book.error is not None),
            )
            if book.value is not None:
                break
            await self.press("r")
        for flow in flows:
            if self.app.screen is screen and screen.table.cursor_row is not None:
                await flow()
        if walk:
            await self.walk(walk)
        await self.back_to(depth)

    # --- a stall ----------------------------------------------------------------------------

    async def stalled_send(self) -> ComposerScreen:
        """Send into a 30 s stall and press keys while it is pending: each one is answered."""
        app, pilot = self.app, self.pilot
        self.sends += 1
        # The send stays pending until the app's deadline, request_timeout + the delay (48 s):
        # the keys below have that long on a busy machine, not a stall that may end first.
        draft = good_draft(RECIPIENTS[0], "Stalled offer", delay=str(STALLED_DELAY_MS))
        composer = await self.open_composer(draft)
        rule = self.server.faults.add(
            "stall",
            method="POST",
            path_prefix="/message/sendList/",
            times=1,
            seconds=STALLED_DELAY_MS / 1000,
        )
        self.rules.append(rule)
        writes = len(self.server.state.writes)
        logged = self.finished("/message/sendList/")
        await self.press("ctrl+s")
        if isinstance(app.screen, ConfirmScreen):
            await self.press("y")
        await wait_for(pilot, lambda: len(self.server.state.writes) > writes)
        await wait_for(pilot, lambda: rule.hits == 1)
        assert composer.sending

        def pending() -> bool:
            return composer.sending and self.finished("/message/sendList/") == logged

        probes: list[tuple[str, Callable[[], bool], str]] = [
            ("f2", lambda: composer.mode == PreviewMode.JSON, '"buttonText"'),
            ("f3", lambda: composer.mode == PreviewMode.LIST, "after pressing the button"),
            ("f3", lambda: composer.mode == PreviewMode.MESSAGE, "See the menu"),
            ("tab", lambda: getattr(app.focused, "id", "") == "f-title", "the bold first line"),
            ("!", lambda: composer.draft.title == "Stalled offer!", "Stalled offer!"),
            ("f12", lambda: isinstance(app.screen, RequestLogScreen), "Copy as curl"),
            ("escape", lambda: app.screen is composer, "List message from"),
            ("tab", lambda: getattr(app.focused, "id", "") == "f-description", "under the title"),
            ("ctrl+n", lambda: composer.draft.row_count == 3, "Sending to"),
        ]
        for key, effect, text in probes:
            if key == "!":
                await self.press("end")  # the title was selected on focus
            assert pending(), "the stalled send ended before the keys were pressed"
            self.clock.watch(effect)
            started = time.perf_counter()
            await self.press(key)
            try:
                await wait_for(pilot, lambda e=effect: e() and self.clock.hit is not None)
            except TimeoutError:
                raise AssertionError(f"{key}: effect {effect()} frame {self.clock.hit}") from None
            self.latencies.append((self.clock.hit - started) * 1000)
            assert text in screen_text(app), f"{key}: {text!r} is not on screen"
            assert pending(), f"{key} was answered only after the stalled call ended"
        self.clock.watch(lambda: False)
        self.flows["send list"] += 1
        return composer

    # --- phases ------------------------------------------------------------------------------

    def faults(self, *rules: dict[str, Any]) -> None:
        """Retire the rules in force and add ``rules``. (Not ``clear()``: that restarts the
        injector's random numbers, and every phase would draw the same first few.)"""
        for rule in self.server.faults.rules:
            rule.times = 0
        for rule in rules:
            self.rules.append(self.server.faults.add(**rule))

    async def segment(self, where: str, steps: int) -> None:
        """``steps`` random keys starting on the screen ``where``."""
        app = self.app
        names = [n for n in self.listed() if n in self.server.state.instances] or [INSTANCE]
        instance = self.rng.choice(names)
        starts: dict[str, Callable[[], Any] | None] = {
            "instance": lambda: app.open_instance(instance),
            "groups": lambda: app.open_groups(INSTANCE),
            "composer": lambda: app.open_composer(INSTANCE),
            "log": app.action_request_log,
            "connect": app._open_connect,
        }
        await self.walk(steps, starts[where])


async def test_fault_walk(demo_server, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # a CSV export lands here
    monkeypatch.setenv("HOME", str(tmp_path))
    server = demo_server
    server.latency_ms = 5
    app = make_app(make_config(server, request_timeout=3.0))
    ledger = Ledger()
    install_recorders(monkeypatch, app, ledger)
    async with app.run_test(size=SIZE) as pilot:
        w = Walk(app, pilot, server, ledger)
        await wait_for(pilot, lambda: isinstance(app.screen, InstancesScreen))
        await wait_for(pilot, lambda: bool(app.state.instances.value))

        # 1. Added latency only: the flows lay down data the later phases work on.
        server.latency_ms = 25
        await w.flow_send()
        await w.flow_send()
        await w.chat_visit(w.flow_edit, w.flow_archive)
        await w.group_visit(w.flow_revoke, w.flow_subject)
        await w.flow_delete()
        await w.walk(10)
        server.latency_ms = 5

        # 2. 5xx with a JSON body.
        w.faults(
            {"kind": "status", "status": 500, "probability": 0.4},
            {"kind": "status", "status": 503, "probability": 0.3},
        )
        await w.group_visit(w.flow_revoke, walk=10)
        await w.chat_visit(w.flow_archive)
        await w.segment("instance", 10)

        # 3. HTML error pages (a proxy's 502, a 500 page).
        w.faults(
            {"kind": "status", "status": 500, "html": True, "probability": 0.4},
            {"kind": "html_error", "status": 502, "probability": 0.5},
        )
        await w.group_visit(w.flow_invite)
        await w.chat_visit(w.flow_edit, walk=10)
        await w.segment("groups", 10)

        # 4. Malformed JSON.
        w.faults({"kind": "malformed_json", "probability": 0.5})
        await w.flow_delete()
        await w.group_visit(w.flow_subject)
        await w.segment("composer", 14)
        await w.segment("log", 8)

        # 5. Dropped connections (GETs are retried; a write is "outcome unknown").
        w.faults({"kind": "drop_connection", "probability": 0.5})
        await w.flow_send()
        await w.chat_visit(w.flow_archive, walk=10)
        await w.group_visit(w.flow_export)
        await w.walk(10)

        # 6. A stalled send: keys are answered while it is pending; reads stall into timeouts.
        w.faults()
        composer = await w.stalled_send()
        w.faults(
            {"kind": "stall", "method": "PUT", "path_prefix": "/group/revoke", "times": 1},
            {"kind": "stall", "method": "GET", "probability": 0.3, "times": 3},
        )
        # On top of the composer that still waits: the revoke times out, and so do reads.
        await w.group_visit(w.flow_revoke, walk=14)
        await w.segment("instance", 14)
        await wait_for(pilot, lambda: not composer.sending, within=120)
        await w.back_to(2)

        # 7. The key is refused in the middle of the session, then accepted again.
        w.faults({"kind": "unauthorized", "times": 8})
        await w.chat_visit(w.flow_archive, w.flow_profile)
        await w.group_visit(w.flow_invite)
        await w.walk(10)
        await w.segment("connect", 8)

        # 8. Everything at once.
        w.faults(
            {"kind": "status", "status": 502, "probability": 0.08},
            {"kind": "html_error", "probability": 0.08},
            {"kind": "malformed_json", "probability": 0.08},
            {"kind": "drop_connection", "probability": 0.08},
            {"kind": "unauthorized", "probability": 0.05},
            {"kind": "stall", "probability": 0.05, "times": 2},
        )
        await w.group_visit(w.flow_revoke, w.flow_subject, walk=10)
        await w.flow_send(walk=10)
        await w.chat_visit(w.flow_edit, walk=10)
        await w.walk(12)

        await w.settle()
        server.faults.clear()
        w.check_alive()
        await check_accounting(w)
        await check_state(w)

    summary(w, capsys)


async def check_accounting(w: Walk) -> None:
    """Every failed call was announced; unknown outcomes say so; no write repeated."""
    app, ledger, server = w.app, w.ledger, w.server
    calls = list(app.state.calls)
    assert len(calls) < app.state.calls.maxlen, "the request log overflowed: count elsewhere"
    last: dict[str, CallEvent] = {}
    for event in calls:
        last[event.request_id] = event
    failed = {rid: e for rid, e in last.items() if not e.ok and rid not in ledger.abandoned_reads}
    missing = [
        f"{e.method} {e.path}: {e.error}"
        for rid, e in failed.items()
        if rid not in ledger.announced
    ]
    assert not ledger.unverified, f"handled 'in place' but nothing shown: {ledger.unverified}"
    assert not ledger.pending, f"left before an in-place failure was shown: {ledger.pending}"
    assert not missing, f"failed calls never announced: {missing}"
    unknown = [rid for rid, e in failed.items() if e.error and "outcome unknown" in e.error]
    for rid in unknown:
        assert "outcome unknown" in ledger.announced[rid], ledger.announced[rid]
    abandoned = ledger.abandoned_writes
    assert not abandoned, f"writes abandoned without an outcome: {abandoned}"

    counts = server.state.write_counts
    assert counts and all(count == 1 for count in counts.values()), counts
    writes = len(server.state.writes)
    assert writes <= sum(ledger.write_actions.values()), (writes, ledger.write_actions)
    w.failed, w.unknown_calls = failed, unknown  # type: ignore[attr-defined]


async def check_state(w: Walk) -> None:
    """What the app shows matches the gateway. Where it does not, the app must have said so:
    the data is marked stale (its last refresh failed, a banner says so) or a write to that
    entity ended "outcome unknown" (announced as such; checked in ``check_accounting``)."""
    app, demo, unknown = w.app, w.server.state, w.ledger.unknown
    exempt: list[str] = []

    compared = [0]

    def agree(what: str, shown: Any, truth: Any, *, stale: bool, entity: tuple) -> None:
        compared[0] += 1
        if shown == truth:
            return
        assert stale or entity in unknown, f"{what}: the app shows {shown!r}, the gateway {truth!r}"
        exempt.append(f"{what} ({'stale' if stale else 'outcome unknown'})")

    instances = app.state.instances
    listed = {i.instance_name: i for i in instances.value or ()}
    for name in set(listed) | set(demo.instances):
        here, there = listed.get(name), demo.instances.get(name)
        agree(
            f"instance {name}",
            here and here.status,
            there and there.status,
            stale=instances.stale,
            entity=("instance", name),
        )
    if instances.stale:
        await w.back_to(2)
        assert "refresh failed" in screen_text(app)  # the home screen says so

    for name, loadable in app.state.settings.items():
        if loadable.value is None or name not in demo.instances:
            continue
        for flag in ("reject_call", "groups_ignore", "always_online", "read_messages"):
            agree(
                f"setting {flag} of {name}",
                getattr(loadable.value, flag),
                demo.instances[name].settings[flag],
                stale=loadable.stale,
                entity=("settings", name),
            )

    for name, loadable in app.state.groups.items():
        if loadable.value is None or name not in demo.instances:
            continue
        for group in loadable.value:
            agree(
                f"subject of {group.id}",
                group.subject,
                demo.instances[name].groups[group.id].subject,
                stale=loadable.stale,
                entity=("subject", name, group.id),
            )
    for (name, jid), subject in app.state.group_subjects.items():
        if name in demo.instances:
            truth = demo.instances[name].groups[jid].subject
            agree(
                f"subject set for {jid}", subject, truth, stale=False, entity=("subject", name, jid)
            )

    for (name, jid), loadable in app.state.participants.items():
        if loadable.value is None or name not in demo.instances:
            continue
        wanted = [p["id"] for p in demo.instances[name].groups[jid].participants]
        shown = [p.id for p in loadable.value]
        agree(f"participants of {jid}", shown, wanted, stale=loadable.stale, entity=())

    for (name, jid), invite in app.state.invites.items():
        if invite.current is None or name not in demo.instances:
            continue
        agree(
            f"invite code of {jid}",
            invite.current.invite_code,
            demo.instances[name].groups[jid].invite_code,
            stale=invite.error is not None,  # the invite panel shows the error under the code
            entity=("invite", name, jid),
        )

    for name, chats in app.state.chats.items():
        if name not in demo.instances:
            continue
        for jid, chat in chats.items():
            there = demo.instances[name].chats.get(jid)
            assert there is not None, f"chat {jid} is unknown to the gateway"
            entity = ("archived", name, jid)
            agree(
                f"archived flag of {jid}", chat.archived, there.archived, stale=False, entity=entity
            )
            for message_id, text in chat.texts.items():
                message = there.find(message_id)
                assert message is not None, f"message {message_id} is unknown to the gateway"
                entity = ("message", name, message_id)
                agree(f"text of {message_id}", text, message.text, stale=False, entity=entity)
    w.exempt, w.compared = exempt, compared[0]  # type: ignore[attr-defined]


def summary(w: Walk, capsys: pytest.CaptureFixture) -> None:
    faults: Counter[str] = Counter()
    for rule in w.rules:
        kind = "status html" if rule.kind == "status" and rule.html else rule.kind
        faults[kind] += rule.hits
    failed = getattr(w, "failed", {})
    channels = Counter(how.split(":", 1)[0] for how in w.ledger.announced.values())
    latency = sorted(w.latencies)
    line = (
        f"fault walk: {w.actions} actions ({sum(w.flows.values())} flows: {dict(w.flows)}), "
        f"{len(w.visited)} screens; faults injected {dict(faults)} (total {sum(faults.values())}); "
        f"{len(failed)} failed calls all announced {dict(channels)}, "
        f"{len(getattr(w, 'unknown_calls', []))} of unknown outcome; "
        f"{len(w.server.state.writes)} writes for {sum(w.ledger.write_actions.values())} "
        f"write actions, each request id once; state compared on {getattr(w, 'compared', 0)} "
        f"items, {len(getattr(w, 'exempt', []))} differing and marked "
        f"{getattr(w, 'exempt', [])}; key→frame during a stall: "
        f"median {statistics.median(latency):.0f} ms, max {latency[-1]:.0f} ms "
        f"over {len(latency)} keys"
    )
    with capsys.disabled():
        print("\n" + line)
        print("  screens: " + ", ".join(f"{k} {v}" for k, v in sorted(w.visited.items())))
    required = {
        "InstancesScreen",
        "InstanceScreen",
        "GroupPickerScreen",
        "ParticipantsScreen",
        "ComposerScreen",
        "ChatsScreen",
        "RequestLogScreen",
        "HelpScreen",
        "ConfirmScreen",
        "SubjectScreen",
        "InviteScreen",
        "EditMessageScreen",
        "ExportScreen",
        "ProfileScreen",
        "ConnectScreen",
    }
    assert required <= set(w.visited), required - set(w.visited)
    assert w.actions >= 300
    assert all(w.flows[f] for f in ("delete", "revoke", "send list", "edit", "archive")), w.flows
    assert all(w.flows[f] for f in ("subject", "invite")), w.flows
