"""A helpful panel for the states that are not a table: loading, empty, refused, unreachable."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from gateway_tui.core.api.errors import (
    CertificateRejected,
    Forbidden,
    GatewayError,
    GatewayTimeout,
    GatewayUnreachable,
    NotFound,
    TLSHandshakeFailed,
    Unauthorized,
)
from gateway_tui.core.text.urls import without_path


def error_advice(
    error: GatewayError, url: str | None = None, *, retry_key: str | None = None
) -> tuple[str, str]:
    """A title and one plain-words suggestion for an error that left nothing to show.

    ``retry_key``: the key that tries again where the advice is shown (None: no key does).
    """
    again = f"press {retry_key} to try again" if retry_key else "try again"
    if isinstance(error, Unauthorized | Forbidden):
        return (
            "The gateway refused the API key",
            f"Check your API key (--api-key, GATEWAY_API_KEY or the profile), then {again}.",
        )
    if isinstance(error, CertificateRejected):
        return (
            error.title,
            "A self-signed or private certificate is trusted once its CA file is named in"
            f" SSL_CERT_FILE; https:// to a plain http port fails the same way. Then {again}.",
        )
    if isinstance(error, TLSHandshakeFailed):
        return (
            error.title,
            f"Does the URL's scheme match the port (https:// or http://)? Then {again}.",
        )
    if isinstance(error, NotFound) and error.no_gateway_api:
        return ("No gateway API at this URL", f"Check the URL{without_path(url)}, then {again}.")
    if isinstance(error, GatewayUnreachable):
        where = url or "the gateway"
        return (
            f"Cannot reach {where}",
            f"Is the gateway running and the URL right? Then {again}.",
        )
    if isinstance(error, GatewayTimeout):
        return ("The gateway did not answer in time", f"It may be overloaded: {again}.")
    return (error.title, error.hint or f"{again[0].upper()}{again[1:]}.")


class StatusPanel(Static):
    """Centered message: a title, a line of advice, and optionally the server's lines."""

    DEFAULT_CSS = """
    StatusPanel {
        width: 1fr;
        height: auto;
        padding: 1 2;
        margin: 1 2;
        border: round $primary;
        content-align: center middle;
    }
    StatusPanel.-error { border: round $error; }
    """

    def show_message(self, title: str, advice: str = "", lines: list[str] | None = None) -> None:
        text = Text(title, style="bold")
        if advice:
            text.append("\n")
            text.append(advice)
        for line in lines or ():
            text.append("\n")
            text.append(line, style="dim")
        self.remove_class("-error")
        self.update(text)

    def show_error(self, error: GatewayError, url: str | None, *, retry_key: str | None) -> None:
        """``retry_key``: the key that tries again on this screen, asked of its bindings
        (``GatewayScreen.key_for``); None when no key does."""
        title, advice = error_advice(error, url, retry_key=retry_key)
        self.show_message(title, advice, error.messages[:5])
        self.add_class("-error")
