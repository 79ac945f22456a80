"""2.4's interactive messages, one composer per kind of button: reply buttons, URL / call /
copy buttons (call-to-action), PIX, and carousels. Opened beside the list composer (the
instance view and the palette) and from a conversation (``B``: reply buttons, ``K``: a
carousel). A form beside its preview, the exact JSON and the curl that would send it. 2.4's
rules are checked as the form changes (at most 2 call-to-action buttons; not mixed with reply
or PIX; PIX alone, one); before 2.4 nothing is sent, and the screen says why and which version
the gateway is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Input, Label, Static, TextArea

from gateway_tui.core.api import message_kinds as kinds
from gateway_tui.core.api.capabilities import unsupported
from gateway_tui.core.api.errors import Problem
from gateway_tui.core.api.events import curl_command
from gateway_tui.core.chat_book import printable
from gateway_tui.core.interactive_form import parse_buttons, parse_cards
from gateway_tui.core.text.i18n import N_, _
from gateway_tui.tui.screens.base import GatewayScreen
from gateway_tui.tui.widgets.gateway_bar import GatewayBar
from gateway_tui.tui.widgets.text_input import TextInput

# The forms' examples (in English; ``_()`` where shown: the words change, the button types and
# the "image:" / "footer:" heads are the form's syntax and stay as they are).
BUTTONS_EXAMPLE = N_("reply: Yes, please = yes\nreply: No, thanks = no")
CTA_EXAMPLE = N_("url: Our site = https://example.com\ncall: Call us = +55 11 4000-0000")
PIX_EXAMPLE = N_("pix: Loja Exemplo | email | pix@example.com")
CARDS_EXAMPLE = N_(
    "Basic plan, 10 users\nimage: https://example.com/basic.png\nurl: See it = "
    "https://example.com/basic\n\nPro plan, 50 users\nurl: See it = https://example.com/pro"
)


@dataclass(frozen=True)
class ComposerKind:
    title: str  # in English, as ``example`` and ``writes``: ``_()`` where shown
    example: str
    types: tuple[str, ...]  # the button types this composer writes (() for a carousel)
    writes: str  # what it writes, in a sentence


KINDS = {
    "reply": ComposerKind(N_("Reply buttons"), BUTTONS_EXAMPLE, ("reply",), N_("reply buttons")),
    "cta": ComposerKind(
        N_("URL, call and copy buttons"),
        CTA_EXAMPLE,
        ("url", "call", "copy"),
        N_("URL/call/copy buttons"),
    ),
    "pix": ComposerKind(N_("PIX payment button"), PIX_EXAMPLE, ("pix",), N_("one PIX button")),
    "carousel": ComposerKind(N_("Carousel"), "", (), N_("carousels")),
}
HELP = {
    "reply": N_("One button a line, at most 3: reply: text = id"),
    "cta": N_(
        "One button a line, at most 2: url: text = https://… · call: text = +phone · "
        "copy: text = code"
    ),
    "pix": N_("One line: pix: name | key type (cpf, cnpj, email, phone, random) | key"),
    "carousel": N_(
        "One card a paragraph: its text, then image: URL, footer: …, and its buttons "
        "(reply / url / call / copy, one a line, at most 3)"
    ),
}
_ICONS = {"reply": "↩", "url": "🔗", "call": "📞", "copy": "⧉", "pix": "PIX"}


def button_label(button: kinds.Button) -> str:
    text = button.name if button.type == "pix" else button.display_text
    return f"[ {_ICONS[button.type]} {printable(text)} ]"


class InteractiveComposerScreen(GatewayScreen):
    HELP_TITLE = N_("Buttons and carousels (Evolution API 2.4)")
    BINDINGS = [
        Binding("ctrl+s", "send", "Send", id="interactive.send", priority=True),
        Binding("escape", "back", "Back", id="interactive.back"),
    ]

    def __init__(self, instance: str, kind: str, recipient: str = "") -> None:
        super().__init__()
        self.instance = instance
        self.kind = kind  # a KINDS key: "reply", "cta", "pix" or "carousel"
        self.recipient = recipient
        self.sending = False

    @property
    def buttons(self) -> bool:
        return self.kind != "carousel"

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        with Horizontal(id="interactive-body"):
            with VerticalScroll(id="interactive-form"):
                title = _("{kind} from {instance}").format(
                    kind=_(KINDS[self.kind].title), instance=self.instance
                )
                yield Static(Text(title, style="bold"), classes="title")
                yield Static(id="interactive-version")
                yield Label(_("To"))
                yield TextInput(self.recipient, placeholder="5511999999999", id="i-to")
                if self.buttons:
                    yield Label(_("Title"))
                    yield TextInput(placeholder=_("Menu"), id="i-title")
                    yield Label(_("Description (optional)"))
                    yield TextInput(id="i-description")
                    yield Label(_("Footer (optional)"))
                    yield TextInput(id="i-footer")
                else:
                    yield Label(_("Text above the cards"))
                    yield TextInput(placeholder=_("Our plans"), id="i-body")
                yield Static(Text(_(HELP[self.kind]), style="dim"))
                example = KINDS[self.kind].example if self.buttons else CARDS_EXAMPLE
                yield TextArea(_(example), id="i-lines", soft_wrap=False)
            with VerticalScroll(id="interactive-preview"):
                yield Static(id="i-problems")
                yield Static(id="i-preview")
                yield Static(id="i-json")
                yield Static(id="i-curl")
        yield Static(id="interactive-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#i-to", Input).focus()
        self._redraw()
        # Opened before anything told the gateway's version (the instance view): ask it, so
        # 2.4's rules or the refusal name the version, not the line.
        self.call(
            self.actions.kinds.version(),
            what=_("Reading the gateway's version"),
            on_done=lambda _version: self._redraw(),  # a failure: said (the refusal: unknown)
            group="interactive-version",
        )

    @on(Input.Changed)
    @on(TextArea.Changed)
    def _changed(self) -> None:
        self._redraw()

    def _value(self, field: str) -> str:
        found = self.query(f"#i-{field}")
        return found.first(Input).value if found else ""

    def message(self) -> tuple[Any, list[Problem]]:
        """What the form says, and every problem of it (the version's, the form's, 2.4's)."""
        text = self.query_one("#i-lines", TextArea).text
        if self.buttons:
            buttons, problems = parse_buttons(text)
            message: Any = kinds.Buttons(
                self._value("title"), self._value("description"), self._value("footer"), buttons
            )
            kind = KINDS[self.kind]
            for other in sorted({b.type for b in buttons if b.type not in kind.types}):
                said = _("{type} buttons: this composer writes {kind}").format(
                    type=other, kind=_(kind.writes)
                )
                problems.append(Problem("buttons", said))
        else:
            cards, problems = parse_cards(text)
            message = kinds.Carousel(self._value("body"), cards)
        problems = problems + message.problems()
        from gateway_tui.core.api.validation import check_recipient

        problems += check_recipient(self._value("to"))
        feature = "buttons" if self.buttons else "carousel"
        if why := unsupported(feature, self.gateway_app.gateway_version):
            problems.insert(0, Problem("", why))
        return message, problems

    def body(self, message: Any) -> dict[str, Any]:
        from gateway_tui.core.api import dialects

        return dialects.V2.kind_body(self._value("to").strip(), message)

    def _redraw(self) -> None:
        message, problems = self.message()
        version = self.gateway_app.gateway_version or _("not known yet")
        self.query_one("#interactive-version", Static).update(
            Text(_("This gateway: {version}").format(version=version), style="dim")
        )
        said = Text()
        for problem in problems:
            said.append(f"✕ {printable(str(problem))}\n", style="red")
        if not problems:
            ready = _("ready to send ({send})").format(send="ctrl+s")
            said.append(f"✓ {ready}", style="green")
        self.query_one("#i-problems", Static).update(said)
        self.query_one("#i-preview", Static).update(self._preview(message))
        body = self.body(message)
        self.query_one("#i-json", Static).update(
            Text(json.dumps(body, indent=2, ensure_ascii=False), style="cyan")
        )
        route = "sendButtons" if self.buttons else "sendCarousel"
        url = f"{self.gateway_app.client.base_url}/message/{route}/{quote(self.instance, safe='')}"
        self.query_one("#i-curl", Static).update(Text(curl_command("POST", url, body), style="dim"))

    def _preview(self, message: Any) -> Text:
        shown = Text(_("Preview") + "\n", style="bold underline")
        if self.buttons:
            if message.title:
                shown.append(printable(message.title) + "\n", style="bold")
            if message.description:
                shown.append(printable(message.description) + "\n")
            if message.footer:
                shown.append(printable(message.footer) + "\n", style="dim")
            shown.append("  ".join(button_label(b) for b in message.buttons))
            return shown
        shown.append(printable(message.body) + "\n")
        for number, card in enumerate(message.cards, start=1):
            shown.append("\n┌ " + _("card {n}").format(n=number), style="dim")
            if card.image_url:
                shown.append(f"  🖼 {printable(card.image_url)}", style="dim")
            shown.append("\n│ " + printable(card.body))
            if card.footer:
                shown.append("\n│ " + printable(card.footer), style="dim")
            shown.append("\n└ " + "  ".join(button_label(b) for b in card.buttons))
        return shown

    def action_send(self) -> None:
        if self.sending:
            self.notify(_("Already sending: waiting for the gateway's answer."), markup=False)
            return
        message, problems = self.message()
        if problems:
            self.query_one("#interactive-status", Static).update(
                Text(
                    _("✕ Not sent: {reason}").format(reason=printable(str(problems[0]))),
                    style="red",
                )
            )
            return
        self.sending = True
        method = "send_buttons" if self.buttons else "send_carousel"
        to = self._value("to").strip()
        jid = to if "@" in to else f"{to}@s.whatsapp.net"

        async def send() -> object:
            try:
                return await self.actions.kinds.send(method, self.instance, jid, message)
            finally:
                self.sending = False

        def sent(_result: object) -> None:
            self.query_one("#interactive-status", Static).update(Text(_("✓ Sent"), style="green"))

        self.call(send(), what=_("Sending the message"), on_done=sent, group="send-interactive")

    def action_back(self) -> None:
        self.app.pop_screen()
