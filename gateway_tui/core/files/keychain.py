"""A profile's key in the OS keychain (macOS Keychain, Windows Credential Locker, the Secret
Service of GNOME/KDE), through ``keyring``: for a profile with ``keychain = true``.

Stored under the service "gateway-tui", the profile's name as the user name. keyring is imported
only when a profile asks for it (it takes about 100 ms and looks for backends). Where no backend
exists (a server, a container, SSH without a session bus), :func:`unavailable` says so plainly
and nothing is stored.
"""

from __future__ import annotations

from gateway_tui.core.text.i18n import _

SERVICE = "gateway-tui"


class KeychainError(Exception):
    """The keychain cannot be used; the message says why, in plain words."""


def _keyring():
    import keyring

    return keyring


def unavailable() -> str | None:
    """Why there is no usable keychain here, or None when there is one."""
    try:
        keyring = _keyring()
        from keyring.backends import fail

        backend = keyring.get_keyring()
    except Exception as exc:  # noqa: BLE001 - a broken backend plug-in is "no keychain"
        return _("the keychain cannot be opened ({error})").format(error=type(exc).__name__)
    if isinstance(backend, fail.Keyring):
        return _(
            "no OS keychain on this machine (no Secret Service, macOS Keychain or Windows "
            "Credential Locker): keep the key in an environment variable (api_key_env)"
        )
    return None


def get_key(profile: str) -> str | None:
    """The key kept for ``profile``; None when there is none. Raises KeychainError."""
    try:
        return _keyring().get_password(SERVICE, profile)
    except Exception as exc:  # noqa: BLE001 - keyring's errors, and its backends'
        raise KeychainError(_why(exc)) from None


def set_key(profile: str, key: str) -> None:
    """Keep ``key`` for ``profile``. Raises KeychainError."""
    reason = unavailable()
    if reason:
        raise KeychainError(reason)
    try:
        _keyring().set_password(SERVICE, profile, key)
    except Exception as exc:  # noqa: BLE001
        raise KeychainError(_why(exc)) from None


def _why(exc: Exception) -> str:
    # The class name and keyring's own words; never the key (keyring never puts it in them).
    said = f"{type(exc).__name__}: {exc}".rstrip(": ")
    return _("the keychain refused: {error}").format(error=said)
