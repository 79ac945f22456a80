"""``send-audio``, ``send-poll``, ``send-location``, ``send-contact``: one message of a kind
beyond text and lists, to one recipient, checked as the real server checks it before it is
sent (the reason is printed, nothing sent). Prints the sent message's id (``--json``: the
gateway's answer). ``poll-votes``: a poll's votes (2.4's getPollVote)."""

from __future__ import annotations

import argparse
import base64
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway_tui.cli.arguments import add_command, examples, instance_argument
from gateway_tui.cli.commands import EXIT_OK, CommandError, _client, _gateway_error
from gateway_tui.core.text.i18n import _, decimal, ngettext, number

if TYPE_CHECKING:
    from gateway_tui.core.files.config import ResolvedConfig

# A voice note's size limit: what WhatsApp carries for audio.
AUDIO_LIMIT = 16 * 1024 * 1024


def _common(parser: argparse.ArgumentParser) -> None:
    instance_argument(parser, _("the instance that sends"))
    parser.add_argument("to", metavar="NUMBER", help=_("the recipient: number or JID"))
    parser.add_argument("--delay", type=int, metavar="MS", help=_("the gateway waits this long"))
    parser.add_argument("--json", action="store_true", help=_("print the gateway's answer as JSON"))


# message_kinds.VOICE_FORMATS_TEXT (a test keeps them the same): importing core.api here would
# load the HTTP stack for --help.
VOICE_FORMATS_TEXT = "ogg/opus, mp3, m4a/aac, wav, amr or webm"


def _formats() -> str:
    """VOICE_FORMATS_TEXT with its "or" in the run's language."""
    some, _or, last = VOICE_FORMATS_TEXT.rpartition(" or ")
    return _("{some} or {last}").format(some=some, last=last)


def add_send_audio(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = add_command(
        subcommands,
        "send-audio",
        _("send a voice note from an audio file"),
        description=_(
            "Send an audio file as a voice note ({formats}, at most 16 MB): the\n"
            "gateway converts it to ogg/opus and WhatsApp shows it as recorded. A URL is\n"
            "passed to the gateway, which downloads it."
        ).format(formats=_formats()),
        epilog=examples("gateway-tui send-audio sales-eu 5511999999999 memo.ogg"),
        gateway=gateway,
        run=send_audio,
    )
    _common(parser)
    parser.add_argument("file", metavar="FILE_OR_URL")


def add_send_poll(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = add_command(
        subcommands,
        "send-poll",
        _("send a poll (a question and 2-10 options)"),
        epilog=examples(
            "gateway-tui send-poll sales-eu 5511999999999 'Lunch?' Pizza Sushi",
            "gateway-tui send-poll sales-eu 120363012345678901@g.us 'Which days?' Mon Tue "
            "Wed --several",
        ),
        gateway=gateway,
        run=send_poll,
    )
    _common(parser)
    parser.add_argument("question")
    parser.add_argument("options", nargs="+", metavar="OPTION")
    parser.add_argument("--several", action="store_true", help=_("voters may choose several"))


def add_send_location(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = add_command(
        subcommands,
        "send-location",
        _("send a location (latitude, longitude, name, address)"),
        epilog=examples(
            "gateway-tui send-location sales-eu 5511999999999 -23.5617 -46.6559 "
            "--name Office --address 'Av. Paulista, 1000'"
        ),
        gateway=gateway,
        run=send_location,
    )
    _common(parser)
    parser.add_argument("latitude", type=float)
    parser.add_argument("longitude", type=float)
    parser.add_argument("--name", default="")
    parser.add_argument("--address", default="")


def add_send_contact(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = add_command(
        subcommands,
        "send-contact",
        _("send one or several contact cards"),
        epilog=examples(
            "gateway-tui send-contact sales-eu 5511999999999 "
            "--contact 'Bob Example=+55 11 97777-6666'",
            "… --contact 'Bob=+5511977776666' --contact 'Ana=+4917612345678'",
        ),
        gateway=gateway,
        run=send_contact,
    )
    _common(parser)
    parser.add_argument(
        "--contact",
        action="append",
        required=True,
        metavar="NAME=PHONE",
        help=_("a card: the name, '=', the phone number with its country code (repeat it)"),
    )


def add_poll_votes(subcommands: Any, gateway: argparse.ArgumentParser) -> None:
    parser = add_command(
        subcommands,
        "poll-votes",
        _("a poll's votes, per option (Evolution API 2.3.7 and later)"),
        description=_(
            "The votes of a poll the instance sent or received, per option, with the voters.\n"
            "Evolution API 2.4 or later answers getPollVote; 2.3.7's are counted from the votes\n"
            "its store keeps; 2.3.6 and 1.7.1 drop votes on arrival and cannot tell them."
        ),
        epilog=examples("gateway-tui poll-votes sales-eu 5511999999999 3EB0C1A2B3C4D5E6"),
        gateway=gateway,
        run=poll_votes,
    )
    instance_argument(parser)
    parser.add_argument("chat", metavar="CHAT", help=_("the chat the poll is in: number or JID"))
    parser.add_argument("message_id", metavar="MESSAGE_ID", help=_("the poll's message id"))
    parser.add_argument("--json", action="store_true", help=_("print the votes as JSON"))


async def poll_votes(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.cli.output import json_line, say
    from gateway_tui.core.api.capabilities import keeps_poll_votes, unsupported
    from gateway_tui.core.api.errors import GatewayError
    from gateway_tui.core.api.message_views import stored_poll_votes

    chat = args.chat if "@" in args.chat else f"{args.chat}@s.whatsapp.net"
    async with _client(config) as client:
        try:
            version = client.server_version or (await client.fetch_server_info(quiet=True)).version
            if unsupported("poll_votes", version) and keeps_poll_votes(version):
                # 2.3.7 has no getPollVote but keeps each vote it receives in the store:
                # counted from the chat's messages, as the conversation counts them.
                messages = await client.chats.chat_messages(args.instance, chat)
                votes = stored_poll_votes(messages, args.message_id)
                if votes is None:
                    raise CommandError(
                        _("no poll {id} among the stored messages of {chat}").format(
                            id=args.message_id, chat=chat
                        )
                    )
            else:
                votes = await client.chats.get_poll_votes(args.instance, chat, args.message_id)
        except GatewayError as error:
            raise _gateway_error(error) from None
    if args.json:
        json_line(
            {
                "name": votes.name,
                "totalVotes": votes.total,
                "results": {
                    option: {"votes": count, "voters": list(votes.voters.get(option, ()))}
                    for option, count in votes.counts.items()
                },
            }
        )
        return EXIT_OK
    say(
        ngettext("{poll}: {n} voter", "{poll}: {n} voters", votes.total).format(
            poll=votes.name, n=number(votes.total)
        )
    )
    for option, count in votes.counts.items():
        who = ", ".join(votes.voters.get(option, ()))
        said = f"  {option}: {number(count)}"
        say(f"{said} ({who})" if who else said)
    return EXIT_OK


async def _send(config: ResolvedConfig, args: argparse.Namespace, method: str, kind: Any) -> int:
    from gateway_tui.cli.output import json_line, say
    from gateway_tui.core.api.errors import GatewayError

    async with _client(config) as client:
        try:
            result = await getattr(client.messages, method)(
                args.instance, args.to, kind, delay=args.delay
            )
        except GatewayError as error:
            raise _gateway_error(error) from None
    # Through cli/output.py: what the gateway echoes is data (escaped in JSON, printable in
    # text), and a reader that went away (``| head -0``) ends the command quietly.
    if args.json:
        json_line(result.model_dump(by_alias=True, mode="json"))
    else:
        say(result.key.id if result.key is not None else _("sent (the gateway gave no id)"))
    return EXIT_OK


def read_voice_note(source: str) -> Any:
    """A voice note from a file (base64) or a URL the gateway downloads."""
    from gateway_tui.core.api.message_kinds import VoiceNote

    if source.startswith(("http://", "https://")):
        return VoiceNote(source)
    path = Path(source).expanduser()
    try:
        size = path.stat().st_size
        if size > AUDIO_LIMIT:
            raise CommandError(
                _("{file} is {size} MB: at most 16 MB").format(
                    file=path.name, size=decimal(size / 2**20, 1)
                )
            )
        content = path.read_bytes()
    except OSError as error:
        raise CommandError(
            _("cannot read {file}: {error}").format(file=path, error=error.strerror or error)
        ) from None
    return VoiceNote(base64.b64encode(content).decode("ascii"), path.name)


async def send_audio(args: argparse.Namespace, config: ResolvedConfig) -> int:
    return await _send(config, args, "send_voice_note", read_voice_note(args.file))


async def send_poll(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.message_kinds import Poll

    poll = Poll(args.question, tuple(args.options), 0 if args.several else 1)
    return await _send(config, args, "send_poll", poll)


async def send_location(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.message_kinds import Location

    place = Location(args.latitude, args.longitude, args.name, args.address)
    return await _send(config, args, "send_location", place)


def parse_contact(text: str) -> Any:
    from gateway_tui.core.api.message_kinds import ContactCard
    from gateway_tui.core.text.phone import person_digits

    name, sep, phone = text.rpartition("=")
    if not sep or not name.strip() or not phone.strip():
        raise CommandError(_("--contact {text}: write NAME=PHONE").format(text=repr(text)))
    return ContactCard(name.strip(), phone.strip(), wuid=person_digits(phone) or None)


async def send_contact(args: argparse.Namespace, config: ResolvedConfig) -> int:
    from gateway_tui.core.api.message_kinds import ContactCards

    cards = ContactCards(tuple(parse_contact(text) for text in args.contact))
    return await _send(config, args, "send_contacts", cards)
