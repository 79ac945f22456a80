"""Everything the app does to a gateway: call the client, then update the state."""

from gateway_tui.actions.chats import ChatStoreActions
from gateway_tui.actions.groups import GroupActions
from gateway_tui.actions.instances import InstanceActions
from gateway_tui.actions.messages import MessageActions


class Actions(InstanceActions, GroupActions, MessageActions, ChatStoreActions):
    """All actions, one object the screens reach as ``app.actions``."""


__all__ = ["Actions"]
