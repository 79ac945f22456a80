"""Everything the app does to a gateway: call the client, then update the state."""

from gateway_tui.actions.groups import GroupActions
from gateway_tui.actions.instances import InstanceActions


class Actions(InstanceActions, GroupActions):
    """All actions, one object the screens reach as ``app.actions``."""


__all__ = ["Actions"]
