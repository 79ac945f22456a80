"""Everything the app does to a gateway: call the client, then update the state."""

from gateway_tui.core.services.chats import ChatStoreActions
from gateway_tui.core.services.groups import GroupActions
from gateway_tui.core.services.instances import InstanceActions
from gateway_tui.core.services.lifecycle import LifecycleActions
from gateway_tui.core.services.messages import MessageActions


class Actions(InstanceActions, LifecycleActions, GroupActions, MessageActions, ChatStoreActions):
    """All actions, one object the screens reach as ``app.actions``."""


__all__ = ["Actions"]
