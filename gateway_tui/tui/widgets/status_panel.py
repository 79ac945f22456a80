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
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.core.text.urls import api_root


def error_advice(
    error: GatewayError, url: str | None = None, *, retry_key: str | None = None
) -> tuple[str, str]:
    """A title and one plain-words suggestion for an error that left nothing to show.

    ``retry_key``: the key that tries again where the advice is shown (None: no key does).
    Each suggestion is a whole sentence in two forms: with the key, and without.
    """

    def advice(with_key: str, without_key: str, **values: str) -> str:
        sentence = _(with_key) if retry_key else _(without_key)
        return sentence.format(key=retry_key or "", **values)

    if isinstance(error, Unauthorized | Forbidden):
        return (
            _("The gateway refused the API key"),
            advice(
                N_(
                    "Check your API key (--api-key, GATEWAY_API_KEY or the profile), then press "
                    "{key} to try again."
                ),
                N_(
                    "Check your API key (--api-key, GATEWAY_API_KEY or the profile), then try"
                    " again."
                ),
            ),
        )
    if isinstance(error, CertificateRejected):
        return (
            error.title,
            advice(
                N_(
                    "A self-signed or private certificate is trusted once its CA file is named in"
                    " SSL_CERT_FILE; https:// to a plain http port fails the same way. Then press"
                    " {key} to try again."
                ),
                N_(
                    "A self-signed or private certificate is trusted once its CA file is named in"
                    " SSL_CERT_FILE; https:// to a plain http port fails the same way. Then try"
                    " again."
                ),
            ),
        )
    if isinstance(error, TLSHandshakeFailed):
        return (
            error.title,
            advice(
                N_(
                    "Does the URL's scheme match the port (https:// or http://)? Then press {key} "
                    "to try again."
                ),
                N_("Does the URL's scheme match the port (https:// or http://)? Then try again."),
            ),
        )
    if isinstance(error, NotFound) and error.no_gateway_api:
        if split := api_root(url):
            said = advice(
                N_("Check the URL: try {root} without {path}, then press {key} to try again."),
                N_("Check the URL: try {root} without {path}, then try again."),
                root=split[0],
                path=split[1],
            )
        else:
            said = advice(
                N_("Check the URL, then press {key} to try again."),
                N_("Check the URL, then try again."),
            )
        return (_("No gateway API at this URL"), said)
    if isinstance(error, GatewayUnreachable):
        return (
            _("Cannot reach {url}").format(url=url) if url else _("Cannot reach the gateway"),
            advice(
                N_("Is the gateway running and the URL right? Then press {key} to try again."),
                N_("Is the gateway running and the URL right? Then try again."),
            ),
        )
    if isinstance(error, GatewayTimeout):
        return (
            _("The gateway did not answer in time"),
            advice(
                N_("It may be overloaded: press {key} to try again."),
                N_("It may be overloaded: try again."),
            ),
        )
    return (error.title, error.hint or advice(N_("Press {key} to try again."), N_("Try again.")))


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
