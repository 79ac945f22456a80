"""What the app sets up once its config is loaded, beside the screens: the themes, and the
instance names kept for shell completion (core/files/known_instances.py).

One call from the app (``apply_preferences``), so the app module stays about its screens.
"""

from __future__ import annotations

from typing import Any

from gateway_tui.tui.themes import install_themes


def apply_preferences(app: Any) -> None:
    """``app`` is the GatewayApp, running, with its config loaded."""
    install_themes(app)
    _keep_instance_names(app)


def _keep_instance_names(app: Any) -> None:
    from gateway_tui.core.state import Topic

    kept: dict[str, list[str]] = {}

    def changed(topic: Topic) -> None:
        config = app.config
        instances = app.state.instances.value
        if topic != Topic.INSTANCES or instances is None or config.demo:
            return
        gateway = config.gateway_identity
        names = sorted(instance.instance_name for instance in instances)
        if not gateway or kept.get(gateway) == names:
            return
        kept[gateway] = names
        app.run_worker(
            lambda: _remember(gateway, names),
            thread=True,  # an fsync'd write: off the event loop
            group="known-instances",
            exit_on_error=False,
        )

    app.state_changed.subscribe(app, changed)
    changed(Topic.INSTANCES)  # the first list may be in already (asked for before home)


def _remember(gateway: str, names: list[str]) -> None:
    from gateway_tui.core.files.known_instances import remember_instances

    remember_instances(gateway, names)
