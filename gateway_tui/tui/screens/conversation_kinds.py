"""The conversation's kinds beyond text and files, mixed into MessagesScreen: a voice note
from a file, a poll, a location, contact cards; delete for everyone (own messages,
confirmed); mark the chat unread; "typing…" while writing (opt-in, per conversation); and on
2.4, mark a voice note played.

One dialog, ``KindFormScreen``, asks for each kind's fields and checks them as the real server
does (``core/api/message_kinds.py``) before it closes; the screen makes the call.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label, Static

from gateway_tui.core.api import message_kinds as kinds
from gateway_tui.core.api.capabilities import keeps_poll_votes, unsupported
from gateway_tui.core.api.message_views import POLL_KINDS, PollVotes
from gateway_tui.core.chat_book import printable
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.confirm import ConfirmScreen
from gateway_tui.tui.screens.form_modal import FormModal
from gateway_tui.tui.widgets.text_input import TextInput

if TYPE_CHECKING:
    from gateway_tui.tui.screens.messages import MessagesScreen

    _Base = MessagesScreen
else:
    _Base = object

AUDIO_LIMIT = 16 * 1024 * 1024
# "typing…" is sent at most this often while writing (it lasts PRESENCE_DELAY_MS).
PRESENCE_EVERY_SECONDS = 10.0
# The newest polls whose votes are asked for (one getPollVote each, once per reading).
POLL_WINDOW = 50

# The conversation's keys beyond text and files, one row each: key, action, the word the help
# and the palette show (none of them in the footer), binding id, tooltip.
KIND_KEYS = (
    ("V", "send_kind('voice')", N_("Voice"), "messages.send_voice",
     N_("Send a voice note from an audio file")),
    ("P", "send_kind('poll')", N_("Poll"), "messages.send_poll",
     N_("Send a poll (2-10 options, one or several choices)")),
    ("L", "send_kind('location')", N_("Location"), "messages.send_location",
     N_("Send a location (latitude, longitude, name, address)")),
    ("C", "send_kind('contact')", N_("Contact"), "messages.send_contact",
     N_("Send one or several contact cards")),
    ("D", "delete_for_everyone", N_("Delete"), "messages.delete_everyone",
     N_("Delete your chosen message for everyone")),
    ("U", "mark_unread", N_("Unread"), "messages.mark_unread", N_("Mark the chat unread")),
    ("T", "toggle_typing", N_("Typing"), "messages.toggle_typing",
     N_("Show 'typing…' to the chat while you write (off by default)")),
    ("Z", "mark_played", N_("Played"), "messages.mark_played",
     N_("Mark the chosen voice note played (Evolution API 2.4)")),
    ("B", "interactive('reply')", N_("Buttons"), "messages.buttons",
     N_("Write a message with reply buttons (Evolution API 2.4)")),
    ("K", "interactive('carousel')", N_("Carousel"), "messages.carousel",
     N_("Write a carousel of cards (Evolution API 2.4)")),
)  # fmt: skip
KIND_BINDINGS = [
    Binding(key, action, word, show=False, id=binding_id, tooltip=tooltip)
    for key, action, word, binding_id, tooltip in KIND_KEYS
]


@dataclass(frozen=True)
class KindForm:
    """Every sentence N_-marked: translated where the form is drawn."""

    title: str  # what is being done ("Send a poll")
    heading: str  # the dialog's title, "{chat}" the chat's name
    done: str  # said once it is sent
    fields: tuple[tuple[str, str, str], ...]  # (id, label, placeholder)
    method: str  # the client's send method


FORMS = {
    "voice": KindForm(
        N_("Send a voice note"),
        N_("Send a voice note to {chat}"),
        N_("Sent a voice note"),
        (("path", N_("Audio file ({formats}, at most 16 MB)"), "~/memo.ogg"),),
        "send_voice_note",
    ),
    "poll": KindForm(
        N_("Send a poll"),
        N_("Send a poll to {chat}"),
        N_("Sent a poll"),
        (
            ("question", N_("Question"), N_("Lunch?")),
            ("options", N_("Options, separated by |  (2 to 10)"), N_("Pizza | Sushi | Salad")),
            ("several", N_("Several choices? (y/n)"), N_("n")),
        ),
        "send_poll",
    ),
    "location": KindForm(
        N_("Send a location"),
        N_("Send a location to {chat}"),
        N_("Sent a location"),
        (
            ("latitude", N_("Latitude"), "-23.5617"),
            ("longitude", N_("Longitude"), "-46.6559"),
            ("name", N_("Name (optional)"), N_("Office")),
            ("address", N_("Address (optional)"), N_("Av. Paulista, 1000")),
        ),
        "send_location",
    ),
    "contact": KindForm(
        N_("Send contact cards"),
        N_("Send contact cards to {chat}"),
        N_("Sent contact cards"),
        (
            (
                "cards",
                N_("Name=phone, separated by ;"),
                N_("Bob=+55 11 97777-6666; Ana=+4917612345678"),
            ),
        ),
        "send_contacts",
    ),
}


def _number(text: str, name: str) -> float:
    try:
        return float(text.strip().replace(",", "."))
    except ValueError:
        raise ValueError(
            _("{field}: a number, e.g. {example}").format(field=name, example="-23.5617")
        ) from None


def build_kind(kind: str, values: dict[str, str]) -> Any:
    """The kind the form describes; ValueError says what is wrong (before the server's rules,
    which ``problems()`` gives)."""
    if kind == "voice":
        path = Path(values["path"].strip()).expanduser()
        if not values["path"].strip():
            raise ValueError(_("give the path of an audio file"))
        try:
            if path.stat().st_size > AUDIO_LIMIT:
                raise ValueError(_("{file} is over 16 MB").format(file=path.name))
            content = path.read_bytes()
        except OSError as problem:
            raise ValueError(
                _("cannot read {path}: {problem}").format(
                    path=path, problem=problem.strerror or problem
                )
            ) from None
        return kinds.VoiceNote(base64.b64encode(content).decode("ascii"), path.name)
    if kind == "poll":
        options = tuple(o.strip() for o in values["options"].split("|") if o.strip())
        several = values["several"].strip().lower() in (
            "y",
            "yes",
            "s",
            "sim",
            "si",
            "sí",
            "j",
            "ja",
        )
        return kinds.Poll(values["question"].strip(), options, 0 if several else 1)
    if kind == "location":
        return kinds.Location(
            _number(values["latitude"], _("latitude")),
            _number(values["longitude"], _("longitude")),
            values["name"].strip(),
            values["address"].strip(),
        )
    cards = []
    for entry in values["cards"].split(";"):
        if not entry.strip():
            continue
        name, sep, phone = entry.rpartition("=")
        if not sep or not name.strip():
            raise ValueError(_("{entry}: write name=phone").format(entry=repr(entry.strip())))
        digits = "".join(ch for ch in phone if ch.isdigit())
        cards.append(kinds.ContactCard(name.strip(), phone.strip(), wuid=digits or None))
    return kinds.ContactCards(tuple(cards))


class KindFormScreen(FormModal[Any]):
    """The fields of one kind; enter moves on, the last enter (or ctrl+s) checks and closes
    with the kind to send."""

    HELP_TITLE = N_("Send a poll, location, contact or voice note")
    NOTE_ID = "kind-note"
    BINDINGS = [
        Binding("ctrl+s", "submit", "Send", id="kind_form.send", priority=True),
        Binding("escape", "cancel", "Cancel", id="kind_form.cancel"),
    ]

    def __init__(self, kind: str, chat_title: str) -> None:
        super().__init__()
        self.kind = kind
        self.form = FORMS[kind]
        self.chat_title = chat_title

    def compose(self) -> ComposeResult:
        with Vertical(id="kind-dialog", classes="dialog"):
            heading = _(self.form.heading).format(chat=printable(self.chat_title))
            yield Static(Text(heading, style="bold"), classes="dialog-title")
            for field_id, label, placeholder in self.form.fields:
                yield Label(_(label).format(formats=_(kinds.VOICE_FORMATS_TEXT)), markup=False)
                # Examples in words are N_-marked; a number or a path is the same everywhere.
                shown = _(placeholder) if placeholder[:1].isalpha() else placeholder
                yield TextInput(placeholder=shown, id=f"kind-{field_id}")
            yield Static(id="kind-note", classes="field-error")
            send, cancel = self.key_for("kind_form.send"), self.key_for("kind_form.cancel")
            said = _("{send} sends · {cancel} cancels").format(send=send, cancel=cancel)
            yield Static(Text(said, style="dim"))

    def on_mount(self) -> None:
        self.query(Input).first().focus()

    def field_submitted(self, field: Input) -> None:
        inputs = list(self.query(Input))
        index = inputs.index(field)
        if index + 1 < len(inputs):
            inputs[index + 1].focus()
        else:
            self.submit()

    def submit(self) -> None:
        values = {
            field_id: self.query_one(f"#kind-{field_id}", Input).value
            for field_id, _label, _placeholder in self.form.fields
        }
        try:
            kind = build_kind(self.kind, values)
        except ValueError as problem:
            self.say(Text(f"✕ {printable(str(problem))}", style="red"))
            return
        if problems := kind.problems():
            self.say(Text("✕ " + "; ".join(printable(str(p)) for p in problems), style="red"))
            return
        self.dismiss(kind)


class ConversationKinds(_Base):
    _typing_on = False
    _typing_sent_at = 0.0
    _votes_asked: set[str] | None = None

    def forget_poll_votes(self) -> None:
        """The next reading asks every poll's votes again (``r``, or back on screen)."""
        self._votes_asked = set()

    def read_poll_votes(self) -> None:
        """The newest polls' votes from 2.4's getPollVote, once per reading; on 2.3.7 counted
        from the votes the store keeps among the chat's messages; before, each poll says its
        votes are not available on this version."""
        view = self.view
        version = self.gateway_app.gateway_version
        if version is None:
            return  # not told yet: the next reading asks
        if unsupported("poll_votes", version):
            if keeps_poll_votes(version):
                view.set_poll_votes(stored=True)
            else:
                note = _("votes not available on {version}").format(version=version.strip())
                view.set_poll_votes(votes_note=note)
            return
        if self._votes_asked is None:
            self._votes_asked = set()
        for message in view.messages[-POLL_WINDOW:]:
            if message.kind not in POLL_KINDS or message.id in self._votes_asked:
                continue
            self._votes_asked.add(message.id)

            def read(votes: PollVotes | None, message_id: str = message.id) -> None:
                if votes is not None:
                    self.view.set_poll_votes({message_id: votes.counts})

            self.call(
                self.actions.kinds.poll_votes(self.instance, self.jid, message.id),
                what=_("Reading a poll's votes"),
                on_done=read,
                on_error=lambda _error: True,  # the poll stays drawn without votes
                group="poll-votes",
            )

    def action_send_kind(self, kind: str) -> None:
        form = FORMS[kind]

        def chosen(value: Any) -> None:
            if value is None:
                return
            self.call(
                self.actions.kinds.send(form.method, self.instance, self.jid, value),
                what=_(form.title),
                done=_(form.done),
                on_done=lambda _r: self._reload_messages(),
                group="send-kind",
            )

        self.app.push_screen(KindFormScreen(kind, self.chat_title), chosen)

    def action_interactive(self, kind: str) -> None:
        from gateway_tui.tui.screens.interactive_composer import InteractiveComposerScreen

        to = self.jid if self.jid.endswith("@g.us") else self.jid.split("@", 1)[0]
        self.app.push_screen(InteractiveComposerScreen(self.instance, kind, to))

    def action_delete_for_everyone(self) -> None:
        message = self._selected()
        if message is None:
            return
        if not message.from_me:
            self.notify(_("Only your own messages can be deleted for everyone."), markup=False)
            return
        key = message.key
        body = Text(_("Delete this message for everyone in the chat? It cannot be undone.") + "\n")
        body.append(printable(message.text[:200]), style="italic")

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.call(
                    self.actions.kinds.delete_for_everyone(self.instance, key),
                    what=_("Deleting the message for everyone"),
                    done=_("Deleted for everyone"),
                    on_done=lambda _r: self._reload_messages(),
                    group="delete-everyone",
                )

        self.app.push_screen(
            ConfirmScreen(_("Delete for everyone"), body, confirm_label=_("Delete")), confirmed
        )

    def action_mark_unread(self) -> None:
        messages = self.view.messages
        if not messages:
            self.notify(_("No message here."), markup=False)
            return
        last = messages[-1]
        self.call(
            self.actions.kinds.mark_unread(self.instance, last.key, last.timestamp),
            what=_("Marking the chat unread"),
            done=_("Marked unread"),
            group="mark-unread",
        )

    def action_mark_played(self) -> None:
        message = self._selected()
        if message is None:
            return
        if message.kind != "audioMessage" or message.from_me:
            self.notify(_("Choose a voice note you received."), markup=False)
            return
        self.call(
            self.actions.kinds.mark_played(self.instance, [message.key]),
            what=_("Marking the voice note played"),
            done=_("Marked played"),
            group="mark-played",
        )

    def action_toggle_typing(self) -> None:
        self._typing_on = not self._typing_on
        self.notify(
            _("While you write, the chat sees “typing…”.")
            if self._typing_on
            else _("Typing is no longer shown to the chat."),
            markup=False,
        )

    def typing_in_line(self) -> None:
        """The line changed: "typing…" for the chat, when asked for, at most every 10 s."""
        now = time.monotonic()
        if not self._typing_on or now - self._typing_sent_at < PRESENCE_EVERY_SECONDS:
            return
        self._typing_sent_at = now
        self.call(
            self.actions.kinds.send_presence(self.instance, self.jid, "composing"),
            what=_("Showing typing"),
            group="presence",
        )
