"""Every way a test takes the app to a screen, one helper per screen.

Each helper goes the way a user does where it can (the instance view, then a key) and returns
once the screen shows what it loads. Test modules import these from here, never from each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.data import BIG, INSTANCE, SETUP_DRAFT, store_for
from tests.support import wait_for

if TYPE_CHECKING:
    from gateway_tui.core.draft import Draft
    from gateway_tui.tui.app import GatewayApp
    from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen
    from gateway_tui.tui.screens.chats import ChatsScreen
    from gateway_tui.tui.screens.composer import ComposerScreen
    from gateway_tui.tui.screens.groups import GroupPickerScreen
    from gateway_tui.tui.screens.instance import InstanceScreen
    from gateway_tui.tui.screens.messages import MessagesScreen
    from gateway_tui.tui.screens.participants import ParticipantsScreen
    from gateway_tui.tui.screens.request_log import RequestLogScreen
    from tests.terminal import Terminal


async def instances_loaded(app: GatewayApp, pilot: Any) -> None:
    """The gateway's instances have loaded (most screens need them first)."""
    await wait_for(pilot, lambda: bool(app.state.instances.value))


async def open_instance(app: GatewayApp, pilot: Any, instance: str = INSTANCE) -> InstanceScreen:
    """The instance view of ``instance``."""
    from gateway_tui.tui.screens.instance import InstanceScreen

    await instances_loaded(app, pilot)
    app.open_instance(instance)
    await wait_for(pilot, lambda: isinstance(app.screen, InstanceScreen))
    return app.screen  # type: ignore[return-value]


async def open_composer(app: GatewayApp, pilot: Any, instance: str = INSTANCE) -> ComposerScreen:
    """The composer of ``instance`` the way a user gets there: the instance view, then m."""
    from gateway_tui.tui.screens.composer import ComposerScreen

    await open_instance(app, pilot, instance)
    await pilot.press("m")
    await wait_for(pilot, lambda: isinstance(app.screen, ComposerScreen))
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def open_composer_with(
    app: GatewayApp, pilot: Any, server: Any, draft: Draft, instance: str = INSTANCE
) -> ComposerScreen:
    """The composer of ``instance`` on a saved ``draft`` (restored as the user left it)."""
    from gateway_tui.tui.screens.composer import ComposerScreen

    store_for(server, instance).save_draft(draft)
    await instances_loaded(app, pilot)
    screen = ComposerScreen(instance)
    app.push_screen(screen)
    await pilot.pause()
    assert screen.restored
    return screen


async def open_campaign_setup(
    app: GatewayApp, pilot: Any, server: Any, draft: Draft = SETUP_DRAFT
) -> CampaignSetupScreen:
    """The campaign set-up of a saved ``draft``: the composer, then f5."""
    from gateway_tui.tui.screens.campaign_setup import CampaignSetupScreen

    await open_composer_with(app, pilot, server, draft)
    await pilot.press("f5")
    await wait_for(pilot, lambda: isinstance(app.screen, CampaignSetupScreen))
    return app.screen  # type: ignore[return-value]


async def open_conversation(
    app: GatewayApp, pilot: Any, jid: str, instance: str = INSTANCE
) -> MessagesScreen:
    """The conversation screen of ``jid`` once its messages have loaded."""
    from gateway_tui.tui.screens.messages import MessagesScreen

    await instances_loaded(app, pilot)
    screen = MessagesScreen(instance, jid)
    app.push_screen(screen)
    await pilot.pause()
    loadable = app.actions.chats.messages_of(instance, jid)
    await wait_for(pilot, lambda: loadable.value is not None and not loadable.loading)
    await pilot.pause()
    return screen


async def select_message(pilot: Any, screen: MessagesScreen, message_id: str) -> None:
    """Put the conversation's cursor on the message ``message_id``."""
    index = next(i for i, m in enumerate(screen.view.messages) if m.id == message_id)
    screen.view.select(index)
    await pilot.pause()


async def open_chats(app: GatewayApp, pilot: Any, *sent: tuple[str, str]) -> ChatsScreen:
    """Send list messages (number, title) through the actions, then `t` on the instance view,
    and wait for the gateway's chats."""
    from gateway_tui.tui.screens.chats import ChatsScreen
    from tests.data import send_list_request

    await instances_loaded(app, pilot)
    for number, title in sent:
        await app.actions.messages.send_list(INSTANCE, send_list_request(number, title))
    app.open_instance(INSTANCE)
    await pilot.pause()
    await pilot.press("t")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ChatsScreen)
    book = app.actions.chats.chat_book(INSTANCE)
    await wait_for(pilot, lambda: not book.loading and (book.value or book.error) is not None)
    await pilot.pause()
    return screen


async def open_groups(app: GatewayApp, pilot: Any, instance: str = INSTANCE) -> GroupPickerScreen:
    """The group picker of ``instance`` once the gateway answered (its groups or an error)."""
    await instances_loaded(app, pilot)
    app.open_groups(instance)
    await pilot.pause()
    groups = app.state.groups_of(instance)
    await wait_for(pilot, lambda: groups.value is not None or groups.error is not None)
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


def participants_loaded(app: GatewayApp, jid: str = BIG) -> bool:
    """The participants screen shows ``jid``'s members."""
    from gateway_tui.tui.screens.participants import ParticipantsScreen

    return isinstance(app.screen, ParticipantsScreen) and bool(
        app.state.participants_of(INSTANCE, jid).value
    )


async def open_participants(app: GatewayApp, pilot: Any, jid: str = BIG) -> ParticipantsScreen:
    """Instances → the instance view → its group picker → enter on ``jid``."""
    from gateway_tui.tui.widgets.record_table import RecordTable

    await open_instance(app, pilot)
    await open_groups(app, pilot)
    table = app.screen.query_one("#groups-table", RecordTable)
    assert table.move_cursor_to_key(jid)
    await pilot.press("enter")
    await wait_for(pilot, lambda: participants_loaded(app, jid))
    return app.screen  # type: ignore[return-value]


async def open_invite(app: GatewayApp, pilot: Any) -> None:
    """The invite dialog of the big group: its participants, then n."""
    from gateway_tui.tui.screens.group_modals import InviteScreen

    await open_participants(app, pilot)
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, InviteScreen))


async def open_request_log(app: GatewayApp, pilot: Any) -> RequestLogScreen:
    """The request log (f12) once the first instance list has been read."""
    from gateway_tui.tui.screens.request_log import RequestLogScreen

    await instances_loaded(app, pilot)
    await wait_for(pilot, lambda: not app.state.instances.loading)
    await pilot.press("f12")
    await wait_for(pilot, lambda: isinstance(app.screen, RequestLogScreen))
    await pilot.pause()
    return app.screen  # type: ignore[return-value]


async def open_pairing(app: GatewayApp, pilot: Any, instance: str = "onboarding") -> None:
    """The connect screen of ``instance`` once the gateway's first answer arrived."""
    await instances_loaded(app, pilot)
    app.open_pairing(instance)
    await pilot.pause()
    await wait_for(pilot, lambda: app.actions.lifecycle.pairing_of(instance).value is not None)
    await pilot.pause()


def open_composer_in_terminal(terminal: Terminal) -> None:
    """The real app on a terminal: instances → enter on sales-eu (the first row) → m."""
    terminal.wait_for_text("sales-eu")
    terminal.wait_for_text("Acme Sales EU")  # the list has loaded
    mark = terminal.seen()
    terminal.type("\r")
    terminal.wait_for_text("compose a list message", after=mark)
    mark = terminal.seen()
    terminal.type("m")
    terminal.wait_for_text("List message from", after=mark)


async def open_group_jid_entry(app: GatewayApp, pilot: Any) -> GroupPickerScreen:
    """The group picker with its "group JID" entry open (J)."""
    from gateway_tui.tui.screens.groups import GroupPickerScreen

    await open_instance(app, pilot)
    await open_groups(app, pilot)
    await pilot.press("J")
    screen = app.screen
    assert isinstance(screen, GroupPickerScreen)
    return screen
