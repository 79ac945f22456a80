"""Everything the app does to a gateway: call the client, then update the state."""

from gateway_tui.actions.chats import ChatStoreActions
from gateway_tui.actions.groups import GroupActions
from gateway_tui.actions.instances import InstanceActions
from gateway_tui.actions.lifecycle import LifecycleActions
from gateway_tui.actions.messages import MessageActions


class Actions(InstanceActions, LifecycleActions, GroupActions, MessageActions, ChatStoreActions):
    """All actions, one object the screens reach as ``app.actions``."""


__all__ = ["Actions"]
