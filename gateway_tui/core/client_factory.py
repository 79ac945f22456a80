"""The one place a GatewayClient is built: for the app, the command line and the connect screen's
"test connection". Every setting a profile has for the client (request timeout, largest answer,
API version pin) reaches every face the same way. No Textual here.

The key is also made a known secret (sanitize.add_secret): masked in anything written after.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gateway_tui.core.text.sanitize import add_secret

if TYPE_CHECKING:
    import httpx

    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.files.config import ResolvedConfig

MEGABYTE = 1024 * 1024


def client_for(
    config: ResolvedConfig | None,
    *,
    url: str | None = None,
    api_key: str | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    **options: Any,
) -> GatewayClient:
    """A client for ``config``'s gateway (or ``url`` / ``api_key`` with ``config``'s settings).

    ``options`` override what the config says (``timeout``, ``retry_delays``, ``api_version``).
    Raises the client's GatewayError for a key that cannot be sent (a newline in it, say).
    """
    from gateway_tui.core.api.client import GatewayClient
    from gateway_tui.core.files.config import DEFAULT_MAX_RESPONSE_MB, DEFAULT_REQUEST_TIMEOUT

    if url is None:
        url = (config.url if config else None) or ""
    if api_key is None:
        key = config.api_key if config else None
        api_key = key.get_secret_value() if key is not None else ""
    add_secret(api_key.strip())
    max_mb = config.max_response_mb if config else DEFAULT_MAX_RESPONSE_MB
    settings: dict[str, Any] = {
        "timeout": config.request_timeout if config else DEFAULT_REQUEST_TIMEOUT,
        "max_response_bytes": int(max_mb * MEGABYTE),
        "api_version": config.api_version if config else "auto",
        **options,
    }
    return GatewayClient(url, api_key, transport=transport or transport_for(url), **settings)


def transport_for(url: str) -> httpx.AsyncBaseTransport | None:
    """For a plain-HTTP gateway, a transport that skips loading the CA bundle (20-45 ms of
    start-up spent for TLS that never happens); None (httpx's default) for https.

    Its TLS context trusts no certificate at all, so it could never vouch for a server by
    mistake; and the client follows no redirects, so its requests never leave http://.
    """
    if not url.startswith("http://"):
        return None
    import ssl

    import httpx

    from gateway_tui.core.api.client import CONNECTION_LIMITS

    return httpx.AsyncHTTPTransport(
        verify=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT), limits=CONNECTION_LIMITS
    )
