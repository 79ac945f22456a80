"""Gateway URLs: checking one, and telling whether the key would cross a network in clear.

No pydantic here (unlike config.py): the command line checks ``--url`` before the first frame.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from gateway_tui.core.text.i18n import _

_HOST_NAME = re.compile(r"[\w-]+(\.[\w-]+)*\.?")  # lenient: allows docker-style "evolution_api"


def validate_gateway_url(text: str) -> str:
    """``text`` as a normalised ``http(s)://host[:port][/path]`` URL without a trailing slash.

    Raises ValueError with a plain reason otherwise. The reason never repeats the input, which
    may hold a pasted secret.
    """
    text = text.strip()
    if not text:
        raise ValueError(_("Enter the gateway URL, for example https://gw.example.com"))
    if any(char.isspace() for char in text):
        raise ValueError(_("The URL must not contain spaces"))
    try:
        parts = urlsplit(text)
    except ValueError:  # e.g. an unclosed "[" of an IPv6 address
        raise ValueError(_("The URL's host name is not valid")) from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ValueError(_("The URL must start with http:// or https://"))
    if "@" in parts.netloc:
        raise ValueError(_("The URL must not contain a user name or password; use the API key"))
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise ValueError(_("The URL must not contain '?' or '#'"))
    host = parts.hostname
    if not host:
        raise ValueError(_("The URL has no host name"))
    if not (_is_ip_address(host) or _HOST_NAME.fullmatch(host)):
        raise ValueError(_("The URL's host name is not valid"))
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port == 0 or (port is None and parts.netloc.endswith(":")):
        raise ValueError(_("The port must be a number from 1 to 65535"))
    normalised = f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}"
    if not host.isascii():
        # Agree with the HTTP client, which is stricter about such host names ("x²", full-width
        # letters fail IDNA): a URL it refuses must be refused here, with a reason, not in the
        # middle of a call. Only then is httpx imported: a plain URL is checked before the
        # first frame without the HTTP stack.
        import httpx

        try:
            httpx.URL(normalised)
        except (httpx.InvalidURL, ValueError):
            raise ValueError(_("The URL's host name is not valid")) from None
    return normalised


def _is_ip_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _is_loopback(host: str) -> bool:
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is loopback too
    return address.is_loopback or bool(mapped and mapped.is_loopback)


def _insecure_host(url: str | None) -> str | None:
    """The host that a plain http:// ``url`` would send the key to in clear, unless it is
    this machine; None otherwise."""
    if not url:
        return None
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
    except ValueError:  # not a URL at all; validate_gateway_url reports that
        return None
    if parts.scheme.lower() != "http" or _is_loopback(host):
        return None
    return host


def is_insecure_url(url: str | None) -> bool:
    """True for plain http:// to a host other than this machine: the key would cross a network
    in clear. https:// and anything that is not http:// are not "insecure" in this sense."""
    return _insecure_host(url) is not None


def insecure_url_warning(url: str | None) -> str | None:
    """A plain-words warning when ``url`` is insecure (see is_insecure_url), else None."""
    host = _insecure_host(url)
    if host is None:
        return None
    if not host:
        return _(
            "The connection to the gateway uses plain http://, so the API key travels "
            "unencrypted and anyone on the network path can read it. Use https:// unless you "
            "trust every network in between."
        )
    return _(
        "The connection to {host} uses plain http://, so the API key travels unencrypted "
        "and anyone on the network path can read it. Use https:// unless you trust every "
        "network in between."
    ).format(host=host)


def without_path(url: str | None) -> str:
    """ ": try http://host:port without /api" when the URL has a path, else nothing (the
    gateway's API is at its root: a path is the usual mistake behind "no gateway API")."""
    root_and_path = api_root(url)
    if root_and_path is None:
        return ""
    root, path = root_and_path
    return f": try {root} without {path}"


def api_root(url: str | None) -> tuple[str, str] | None:
    """(``http://host:port``, the path) when ``url`` has a path, else None: the pieces of the
    "try the URL without its path" hint, for a sentence in any language."""
    parts = urlsplit(url or "")
    path = parts.path.rstrip("/")
    if not (parts.scheme and parts.netloc and path):
        return None
    return f"{parts.scheme}://{parts.netloc}", path
