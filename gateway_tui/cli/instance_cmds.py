"""``instance show|delete|restart|logout|connect``, ``settings get|set`` and ``send-text``.

Each talks to the gateway once per step, writes once (never repeated), and says the gateway's
own words when it refuses. ``instance delete`` asks first (``--yes`` skips the question).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.commands import EXIT_OK, CommandError, _client, _emit, _gateway_error
from gateway_tui.core.text.i18n import _

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig


def _one(args: argparse.Namespace, row: dict[str, Any]) -> None:
    """One object: a JSON object, a CSV row, or ``field  value`` lines for people."""
    if args.json:
        from gateway_tui.cli.output import write
        from gateway_tui.core.text.sanitize import json_text

        write(json_text(row, indent=2) + "\n", flush=True)
        return
    if args.csv:
        _emit([row], tuple(row), args)
        return
    _emit([{"field": key, "value": value} for key, value in row.items()], ("field", "value"), args)


# --- instance --------------------------------------------------------------------------------


async def instance(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            return await _INSTANCE_VERBS[args.verb](client, args)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None


async def _show(client: Any, args: argparse.Namespace) -> int:
    found = [
        i for i in await client.instances.fetch(args.instance) if i.instance_name == args.instance
    ]
    if not found:
        raise CommandError(
            _("no instance is called {name} on this gateway").format(name=repr(args.instance))
        )
    item = found[0]
    _one(
        args,
        {
            "name": item.instance_name,
            "status": item.status,
            "owner": item.owner_number,
            "profile_name": item.profile_name,
            "id": item.instance_id,
            "integration": item.integration_name,
            "disconnection_reason": item.disconnection_reason_code,
            "disconnected_at": item.disconnection_at,
        },
    )
    return EXIT_OK


async def _delete(client: Any, args: argparse.Namespace) -> int:
    from gateway_tui.cli.prompt import confirm

    confirm(
        _("Delete instance {name}? Its session, chats and settings go with it.").format(
            name=args.instance
        ),
        yes=args.yes,
    )
    result = await client.instances.delete(args.instance)
    _one(args, {"instance": args.instance, "deleted": True, "message": result.message})
    return EXIT_OK


async def _restart(client: Any, args: argparse.Namespace) -> int:
    state = await client.instances.restart(args.instance)
    _one(args, {"instance": args.instance, "restarted": True, "state": state.state})
    return EXIT_OK


async def _logout(client: Any, args: argparse.Namespace) -> int:
    await client.instances.logout(args.instance)
    _one(args, {"instance": args.instance, "logged_out": True})
    return EXIT_OK


async def _connect(client: Any, args: argparse.Namespace) -> int:
    result = await client.instances.connect(args.instance, args.number)
    row = {
        "instance": args.instance,
        "state": result.state,
        "pairing_code": result.pairing_code,
        "qr_code": result.code,
        "explanation": result.explanation,
    }
    if args.json or args.csv or not result.code:
        _one(args, row)
        return EXIT_OK
    from gateway_tui.cli.output import say, write

    write(_qr_text(result.code))
    if result.pairing_code:
        say(
            _("pairing code: {code} (WhatsApp > Linked devices > link with number)").format(
                code=result.pairing_code
            )
        )
    say(
        _(
            "scan it with WhatsApp > Linked devices; it expires in about 40 s: run again for a "
            "new one"
        )
    )
    return EXIT_OK


def _qr_text(code: str) -> str:
    """The QR code in half blocks (two rows of modules a line), light on dark as a camera
    reads it on a terminal."""
    import segno

    qr = segno.make(code, error="L", micro=False)
    rows = [[bool(cell) for cell in row] for row in qr.matrix_iter(scale=1, border=2)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        chars = {(0, 0): "█", (1, 0): "▄", (0, 1): "▀", (1, 1): " "}
        lines.append("".join(chars[(a, b)] for a, b in zip(top, bottom, strict=True)))
    return "\n".join(lines) + "\n"


_INSTANCE_VERBS = {
    "show": _show,
    "delete": _delete,
    "restart": _restart,
    "logout": _logout,
    "connect": _connect,
}


# --- settings --------------------------------------------------------------------------------


def setting_assignment(text: str) -> tuple[str, Any]:
    """``reject_call=true`` (or ``rejectCall=true``, 2.x's name) → (our field, value)."""
    from gateway_tui.core.api.models import SETTING_LABELS

    name, sep, value = text.partition("=")
    if not sep:
        raise ValueError(
            _("{text}: write NAME=VALUE (e.g. reject_call=true)").format(text=repr(text))
        )
    field = _snake(name.strip())
    if field == "msg_call":
        return field, value
    if field not in SETTING_LABELS:
        names = ", ".join([*SETTING_LABELS, "msg_call"])
        raise ValueError(
            _("{name} is not a setting; the settings: {names}").format(
                name=repr(name.strip()), names=names
            )
        )
    lowered = value.strip().lower()
    if lowered in ("true", "on", "yes", "1"):
        return field, True
    if lowered in ("false", "off", "no", "0"):
        return field, False
    raise ValueError(
        _("{name}: {value} is not true or false").format(name=name.strip(), value=repr(value))
    )


def _snake(name: str) -> str:
    return "".join(f"_{ch.lower()}" if ch.isupper() else ch for ch in name).lstrip("_")


async def settings(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.errors import GatewayError

    if args.verb == "set" and not args.assignments:
        raise CommandError(_("nothing to set: give NAME=VALUE (e.g. reject_call=true)"))
    if args.verb == "get" and args.assignments:
        raise CommandError(_("settings get takes no NAME=VALUE (settings set does)"))
    async with _client(config) as client:
        try:
            current = await client.settings.find(args.instance)
            if args.verb == "set":
                changes = dict(args.assignments)
                # Read just now, written once: the server wants every setting in one body.
                current = current.model_copy(update=changes)
                result = await client.settings.set(args.instance, current)
                current = result.applied or current
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
    _one(args, current.to_json())
    return EXIT_OK


# --- send-text -------------------------------------------------------------------------------


async def send_text(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.cli.chat_cmds import send_target
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            target = await send_target(client, args.instance, args.number)
            sent = await client.messages.send_text(args.instance, target, args.text)
        except GatewayError as error:
            raise _gateway_error(error, config.url) from None
    key = sent.key
    _one(
        args,
        {
            "instance": args.instance,
            "to": key.remote_jid if key else args.number,
            "id": key.id if key else None,
            "status": sent.status,
        },
    )
    return EXIT_OK
