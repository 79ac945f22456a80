"""The parsers of the noun-and-verb commands (``instance``, ``settings``, ``groups``,
``group``, ``labels``, ``label``, ``contacts``, ``chat``, ``send-text``), listed in
cli/parser.py's SUBCOMMANDS. Their runners: cli/instance_cmds.py, cli/groups.py,
cli/chat_cmds.py. Only argparse here (and the runners' modules, which import nothing more at
their top)."""

from __future__ import annotations

import argparse
from typing import Any

from gateway_tui.cli import chat_cmds, groups, instance_cmds
from gateway_tui.cli.arguments import (
    add_command,
    argument_type,
    examples,
    instance_argument,
    json_or_csv,
)
from gateway_tui.core.text.i18n import _


def _noun(
    subcommands: Any,
    gateway: argparse.ArgumentParser,
    name: str,
    run: Any,
    help_text: str,
    epilog: str,
    verbs: tuple[str, ...] = (),
) -> argparse.ArgumentParser:
    """A noun's parser: the gateway options, VERB (when it has verbs), INSTANCE and its runner.
    The caller adds what follows INSTANCE, then :func:`json_or_csv`."""
    parser = add_command(subcommands, name, help_text, gateway=gateway, epilog=epilog, run=run)
    if verbs:
        parser.add_argument("verb", choices=verbs)
    instance_argument(parser)
    return parser


def _yes(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--yes", action="store_true", help=_("do not ask (needed without a terminal)")
    )


def add_instance(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "instance",
        instance_cmds.instance,
        _("show, delete, restart, log out or connect one instance"),
        examples(
            "gateway-tui instance show sales-eu --json",
            "gateway-tui instance restart sales-eu",
            ("gateway-tui instance connect sales-eu               ", _("a QR code to scan")),
            (
                "gateway-tui instance connect sales-eu --number 5511987650001   ",
                _("a pairing code"),
            ),
            "gateway-tui instance delete old-test --yes",
        ),
        verbs=("show", "delete", "restart", "logout", "connect"),
    )
    parser.add_argument("--number", help=_("connect: pair with a code typed on this phone"))
    _yes(parser)
    json_or_csv(parser)


def add_settings(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "settings",
        instance_cmds.settings,
        _("read or change an instance's settings"),
        _(
            "settings: reject_call, msg_call, groups_ignore, always_online, read_messages,\n"
            "read_status, sync_full_history (2.x's camelCase names are taken too)."
        )
        + "\n\n"
        + examples(
            "gateway-tui settings get sales-eu",
            "gateway-tui settings set sales-eu reject_call=true 'msg_call=Busy, call later'",
        ),
        verbs=("get", "set"),
    )
    parser.add_argument(
        "assignments",
        nargs="*",
        metavar="NAME=VALUE",
        type=argument_type(instance_cmds.setting_assignment),
    )
    json_or_csv(parser)


def add_send_text(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "send-text",
        instance_cmds.send_text,
        _("send one text message"),
        _("NUMBER: international digits, a JID, or an @lid (sent to its number before 2.4).")
        + "\n\n"
        + examples(
            "gateway-tui send-text sales-eu 5511987650001 'Your order shipped'",
            "gateway-tui send-text sales-eu 120363012345678901@g.us 'Meeting at 10' --json",
        ),
    )
    parser.add_argument("number", metavar="NUMBER")
    parser.add_argument("text", metavar="TEXT")
    json_or_csv(parser)


def add_groups(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "groups",
        groups.groups,
        _("list an instance's groups (JIDs and subjects)"),
        examples("gateway-tui groups sales-eu", "gateway-tui groups sales-eu --csv"),
    )
    json_or_csv(parser)


def add_group(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "group",
        groups.group,
        _("one group: participants, invite code, subject, members, settings, leave"),
        _(
            "GROUP: a JID or the group's exact subject (an ambiguous subject is refused with\n"
            "the candidates). add/remove/promote/demote say each number's result and exit 3\n"
            "when some were not done. revoke and leave ask first (--yes skips the question).\n"
            "settings: announcement, not_announcement, locked, unlocked, disappearing=off|24h|\n"
            "7d|90d, member-add=admin_add|all_member_add (2.4); none: the settings are shown."
        )
        + "\n\n"
        + examples(
            "gateway-tui group participants sales-eu 'EU Sales' --csv",
            "gateway-tui group add sales-eu 'EU Sales' +4915112340077 5511987650002",
            "gateway-tui group promote sales-eu 120363012345678901@g.us 5511987650002",
            "gateway-tui group settings sales-eu 'EU Sales' announcement disappearing=7d",
            "gateway-tui group subject sales-eu 'EU Sales' 'EU Sales 2027'",
            "gateway-tui group invite sales-eu 'EU Sales' 5511987650003 --text 'Join us'",
            "gateway-tui group leave sales-eu 'Old team' --yes",
        ),
        verbs=groups.GROUP_VERBS,
    )
    parser.add_argument("group", metavar="GROUP")
    parser.add_argument("values", nargs="*", metavar="VALUE", help=_("numbers, a text, settings"))
    parser.add_argument("--text", help=_("invite: the words sent with the link"))
    _yes(parser)
    json_or_csv(parser)


def add_group_create(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "group-create",
        groups.create_group,
        _("create a group with a subject and participants"),
        examples(
            "gateway-tui group-create sales-eu 'EU Sales' 5511987650001 +4915112340077",
            "gateway-tui group-create sales-eu 'Launch' 5511987650001 --description 'Q3' --json",
            "gateway-tui group-create sales-eu 'Leads' 5511987650001 4915112340077 "
            "--promote 4915112340077",
        ),
    )
    parser.add_argument("subject", metavar="SUBJECT")
    parser.add_argument("numbers", nargs="+", metavar="NUMBER")
    parser.add_argument("--description", help=_("the group's description"))
    parser.add_argument(
        "--promote",
        nargs="+",
        action="extend",
        metavar="NUMBER",
        help=_(
            "make these participants admins once the group is made (each number's outcome "
            "is said; exit 3 when some were not)"
        ),
    )
    json_or_csv(parser)


def add_participants(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "participants",
        groups.participants,
        _("list the participants of a group (same as: group participants)"),
        examples(
            "gateway-tui participants sales-eu 120363012345678901@g.us",
            "gateway-tui participants sales-eu 'EU Sales' --csv > members.csv",
        ),
    )
    parser.add_argument("group", metavar="GROUP")
    json_or_csv(parser)


def add_labels(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "labels",
        chat_cmds.labels,
        _("list an instance's labels (WhatsApp Business)"),
        examples("gateway-tui labels sales-eu", "gateway-tui labels sales-eu --json"),
    )
    json_or_csv(parser)


def add_label(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "label",
        chat_cmds.label,
        _("put a label on a chat, or take it off"),
        _("LABEL: its id or its exact name.")
        + "\n\n"
        + examples(
            "gateway-tui label add sales-eu 'New customer' 5511987650001",
            "gateway-tui label remove sales-eu 1 5511987650001 --json",
        ),
        verbs=("add", "remove"),
    )
    parser.add_argument("label", metavar="LABEL")
    parser.add_argument("chat", metavar="CHAT")
    json_or_csv(parser)


def add_contacts(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "contacts",
        chat_cmds.contacts,
        _("list an instance's contacts, with the number beside each @lid when known"),
        examples(
            "gateway-tui contacts support",
            "gateway-tui contacts support --search marina",
            "gateway-tui contacts support --search '+55 11 98700' --json",
        ),
    )
    parser.add_argument("--search", metavar="TEXT", help=_("by name, number or LID (a part)"))
    json_or_csv(parser)


def add_chat(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = _noun(
        subcommands,
        gateway,
        "chat",
        chat_cmds.chat,
        _("archive or unarchive a chat, edit your last text, read a business profile"),
        examples(
            "gateway-tui chat archive sales-eu 5511987650001@s.whatsapp.net",
            "gateway-tui chat edit sales-eu 5511987650001@s.whatsapp.net 'Fixed: 10:30'",
            "gateway-tui chat edit sales-eu 5511987650001@s.whatsapp.net 'Fixed' --id BAE5…",
            "gateway-tui chat profile sales-eu 5511987650001 --json",
        ),
        verbs=chat_cmds.CHAT_VERBS,
    )
    parser.add_argument("chat", metavar="CHAT")
    parser.add_argument("text", nargs="?", metavar="TEXT", help=_("edit: the new text"))
    parser.add_argument("--id", help=_("edit: this message (default: your last text there)"))
    json_or_csv(parser)


NOUNS = (
    add_instance,
    add_settings,
    add_groups,
    add_group,
    add_group_create,
    add_participants,
    add_labels,
    add_label,
    add_contacts,
    add_chat,
    add_send_text,
)
