"""Every private Textual name the app (its tests and bench) relies on, in one place.

Textual promises nothing about a name that starts with ``_``: an upgrade may move or rename
it. So nothing else in the package reads one; it calls the small functions below, and
``PRIVATE_NAMES`` lists each name with where it lives and what it is, for a test
(tests/tui/test_textual_private.py) that fails on the installed Textual the day one goes away.
``OVERRIDDEN`` lists the private methods our subclasses override (those cannot be wrapped:
Textual calls them by name), checked the same way.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.dom import DOMNode
    from textual.message_pump import MessagePump
    from textual.notifications import Notification
    from textual.widgets import Footer, TextArea


Kind = Literal["class", "function", "method", "attribute"]


@dataclass(frozen=True)
class PrivateName:
    """``name`` on ``owner`` ("module:Class" or "module"), which must be of ``kind``:
    "attribute" names are set by the owner's ``__init__`` (checked on an instance)."""

    owner: str
    name: str
    kind: Kind
    why: str


PRIVATE_NAMES: tuple[PrivateName, ...] = (
    PrivateName("textual.widgets._footer", "FooterKey", "class", "our footer sorts its keys"),
    PrivateName("textual.widgets._select", "SelectOverlay", "class", "its key's words marked"),
    PrivateName("textual.keys", "_character_to_key", "function", "tests type keys by name"),
    PrivateName("textual.dom:DOMNode", "_bindings", "attribute", "hints ask the bindings"),
    PrivateName("textual.app:App", "_keymap", "attribute", "a [keys] remap, for hints"),
    PrivateName("textual.app:App", "_notifications", "attribute", "tests read the toasts"),
    PrivateName("textual.app:App", "_batch_count", "attribute", "is a frame written now"),
    PrivateName("textual.app:App", "_thread_id", "attribute", "notify from another thread"),
    PrivateName("textual.app:App", "_exit_renderables", "attribute", "our crash report"),
    PrivateName("textual.app:App", "_close_messages_no_wait", "method", "exit after a crash"),
    PrivateName("textual.app:App", "_exception", "attribute", "tests: did the app crash"),
    PrivateName("textual.app:App", "_background_screens", "attribute", "screen text (tests)"),
    PrivateName("textual.app:App", "_running", "attribute", "bench: is a frame written"),
    PrivateName("textual.app:App", "_closed", "attribute", "bench: is a frame written"),
    PrivateName("textual.app:App", "_driver", "attribute", "bench: is a frame written"),
    PrivateName("textual.screen:Screen", "_compositor", "attribute", "screen text (tests)"),
    PrivateName("textual.message_pump:MessagePump", "_parent", "attribute", "type-ahead walk"),
    PrivateName(
        "textual.message_pump:MessagePump", "_message_queue", "attribute", "type-ahead walk"
    ),
    PrivateName("textual.widgets:Footer", "_bindings_ready", "attribute", "footer compose"),
    PrivateName("textual.widgets:TextArea", "_replace_via_keyboard", "method", "message line"),
)

# Private methods our classes override; Textual calls them by these names.
OVERRIDDEN: tuple[PrivateName, ...] = (
    PrivateName("textual.app:App", "_display", "method", "the first frame starts the rest"),
    PrivateName("textual.app:App", "_handle_exception", "method", "our crash report"),
    PrivateName("textual.app:App", "_fatal_error", "method", "no locals (the key) shown"),
    PrivateName("textual.widgets:TextArea", "_on_key", "method", "enter sends the message"),
    PrivateName("textual.widget:Widget", "_on_click", "method", "a click on the table"),
    PrivateName("textual.widgets:Input", "_on_focus", "method", "a field keeps its text"),
    PrivateName("textual.widgets:Input", "_watch_value", "method", "undo: a new value"),
)


def bindings_of(node: DOMNode) -> BindingsMap:
    """The bindings a node has now (keymap remaps applied)."""
    return node._bindings


def keymap_of(app: App) -> dict[str, str]:
    """The app's keymap: binding id → keys, as set with ``App.set_keymap``."""
    return app._keymap


def notifications_of(app: App) -> list[Notification]:
    """The notifications (toasts) still shown."""
    return list(app._notifications)


def in_update_batch(app: App) -> bool:
    """Whether the app is inside a batch update (a frame drawn now is not written)."""
    return bool(app._batch_count)


def on_app_thread(app: App) -> bool:
    return app._thread_id == threading.get_ident()


def exit_with(app: App, renderable: RenderableType) -> None:
    """Print ``renderable`` after the app's exit and close it at once (after a crash)."""
    app._exit_renderables.append(renderable)
    app._close_messages_no_wait()


def write_to_terminal(app: App, sequence: str) -> bool:
    """Write an escape sequence to the terminal (a desktop notification, OSC 9 / 777), as
    Textual's own copy_to_clipboard writes OSC 52; False when there is no terminal (tests)."""
    driver = app._driver
    if driver is None or driver.is_headless:
        return False
    driver.write(sequence)
    return True


def parent_of(node: MessagePump) -> MessagePump | None:
    """The node's parent, also after it was removed (``parent`` then answers None)."""
    return node._parent


def queue_busy(node: MessagePump) -> bool:
    """Whether ``node`` has messages still waiting in its queue."""
    queue = getattr(node, "_message_queue", None)
    return queue is not None and not queue.empty()


def frame_is_written(app: App, renderable: object) -> bool:
    """Whether ``App._display`` writes this frame to the terminal (its own conditions)."""
    return (
        renderable is not None
        and not app._batch_count
        and app._running
        and not app._closed
        and not app.is_headless
        and app._driver is not None
    )


def unhandled_exception(app: App) -> BaseException | None:
    """The exception that ended the app, if one did (tests)."""
    return app._exception


def crash_printed(app: App) -> bool:
    """Whether the app has something (a traceback, our report) to print at exit (tests)."""
    return bool(app._exit_renderables)


def rendered_screen(app: App) -> Any:
    """The whole screen as one renderable, background screens included (tests)."""
    return app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)


def character_to_key(character: str) -> str:
    """The key name Textual gives a character ("/" → "slash")."""
    from textual.keys import _character_to_key

    return _character_to_key(character)


def select_overlay_class() -> type[DOMNode]:
    """The menu a Select opens (it has keys of its own: help shows them, tui/textual_words.py)."""
    from textual.widgets._select import SelectOverlay

    return SelectOverlay


def footer_bindings_ready(footer: Footer) -> bool:
    return footer._bindings_ready


def replace_via_keyboard(text_area: TextArea, text: str, start: Any, end: Any) -> None:
    """Insert ``text`` as typing would (undo, read-only and the change events included)."""
    text_area._replace_via_keyboard(text, start, end)


__all__ = [
    "OVERRIDDEN",
    "PRIVATE_NAMES",
    "FooterKey",
    "PrivateName",
    "bindings_of",
    "character_to_key",
    "crash_printed",
    "frame_is_written",
    "rendered_screen",
    "unhandled_exception",
    "exit_with",
    "footer_bindings_ready",
    "in_update_batch",
    "keymap_of",
    "notifications_of",
    "on_app_thread",
    "parent_of",
    "queue_busy",
    "replace_via_keyboard",
    "select_overlay_class",
]
