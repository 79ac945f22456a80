"""The header: which gateway, the masked key, connection health and the selected instance."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual.widget import Widget

from gateway_tui.core.state import Health, Topic
from gateway_tui.core.text.i18n import N_, _

if TYPE_CHECKING:
    from gateway_tui.tui.host import AppHost

HEALTH_MARK = {
    Health.UNKNOWN: ("○", "dim", N_("not checked yet")),
    Health.OK: ("●", "green", N_("ok")),
    Health.FAILING: ("●", "yellow", N_("failing")),
    Health.UNREACHABLE: ("●", "red", N_("unreachable")),
}


def _around(sentence: str, placeholder: str) -> tuple[str, str]:
    """The words of a translated ``sentence`` before and after its one ``{placeholder}``:
    the bar styles them apart from the data."""
    before, _mark, after = sentence.partition("{" + placeholder + "}")
    return before, after


class GatewayBar(Widget):
    """One line, docked at the top. Built from Text, never markup: URLs and names are data."""

    DEFAULT_CSS = """
    GatewayBar {
        dock: top;
        height: 1;
        background: $panel;
        color: $text;
    }
    """

    def __init__(self) -> None:
        super().__init__(id="gateway-bar")
        self._text = Text("gateway-tui")
        self._parts: list[tuple[int, str, str]] = []

    def on_mount(self) -> None:
        app: AppHost = self.app  # type: ignore[assignment]
        app.state_changed.subscribe(self, self._state_changed)
        self.update_from_app()

    def _state_changed(self, topic: Topic) -> None:
        if topic in (Topic.CALLS, Topic.SELECTED, Topic.INSTANCES, Topic.LIVE):
            self.update_from_app()

    def update_from_app(self) -> None:
        from gateway_tui.core.files.config import insecure_url_warning

        app: AppHost = self.app  # type: ignore[assignment]
        url = app.gateway_url
        self.show(
            url=url,
            masked_key=app.masked_key,
            version=app.gateway_version,
            health=app.state.health,
            selected=app.state.selected,
            profile=app.config.profile,
            insecure=bool(url and insecure_url_warning(url)),
            live=app.state.live,
            partial=bool(app.state.selected) and app.live_partial_for(app.state.selected or ""),
        )

    def show(
        self,
        *,
        url: str | None,
        masked_key: str,
        health: Health,
        version: str | None = None,
        selected: str | None,
        profile: str | None,
        insecure: bool,
        live: bool | None = None,
        partial: bool = False,
    ) -> None:
        from gateway_tui.core.text.sanitize import mask_secrets

        # What the server said (an instance name, its version) may echo a key: never shown.
        url, selected, version = (mask_secrets(v) if v else v for v in (url, selected, version))
        mark, style, words = HEALTH_MARK[health]
        # (drop rank, text, style) in the order shown: on a narrow terminal the highest rank
        # goes first, so the instance name and the warning outlast the version and the key.
        parts: list[tuple[int, str, str]] = [(5, " gateway-tui ", "bold reverse"), (0, " ", "")]
        parts.append((SHORTENED, url or _("not connected"), "bold"))
        if profile:
            parts.append((7, f" ({profile})", "dim"))
        before, after = _around(_("key {key}"), "key")
        parts += [(6, f"  {before}", "dim"), (6, masked_key, "")]
        if after:
            parts.append((6, after, "dim"))
        parts.append((0, "  ", ""))
        parts.append((0, f"{mark} {_(words)}", style))
        if live is not None:  # once live events were tried: live, or polling as before
            parts.append((4, "  ", ""))
            # Live, but the selected instance's websocket leaves out events: "partial".
            if not live:
                parts.append((4, _("⟳ polling"), "yellow"))
            elif partial:
                parts.append((4, _("⚡ partial"), "yellow"))
            else:
                parts.append((4, _("⚡ live"), "green"))
        if selected:
            before, after = _around(_("instance {instance}"), "instance")
            parts += [(0, f"  {before}", "dim"), (0, selected, "bold")]
            if after:
                parts.append((0, after, "dim"))
        if insecure:
            parts.append((1, "  " + _("⚠ key sent in clear (http)"), "bold red"))
        if version:  # the first thing a narrow terminal loses
            before, after = _around(_("Evolution API {version}"), "version")
            parts += [(8, f"  {before}", "dim"), (8, version, "")]
            if after:
                parts.append((8, after, "dim"))
        self._parts = parts
        self._text = _fitted(parts, None)
        self.refresh()

    def render(self) -> Text:
        return _fitted(self._parts, self.size.width) if self._parts else self._text


SHORTENED = -1  # the URL's rank: never dropped, cut short in the middle when nothing else helps
MIN_URL = 20


def _fitted(parts: list[tuple[int, str, str]], width: int | None) -> Text:
    """The parts that fit in ``width`` cells, dropping the highest ranks first; the URL, the
    health and the instance name stay. A long URL is cut in the middle before the (http)
    warning goes, so the name and the warning still show."""
    kept = list(parts)
    if width:
        for rank in sorted({rank for rank, _text, _style in parts if rank > 0}, reverse=True):
            if rank <= 2:
                kept = _shortened(kept, width)
            if _cells(kept) <= width:
                break
            kept = [part for part in kept if part[0] != rank]
        kept = _shortened(kept, width)
    text = Text()
    for _rank, part, style in kept:
        text.append(part, style=style)
    return text


def _cells(parts: list[tuple[int, str, str]]) -> int:
    return sum(cell_len(text) for _rank, text, _style in parts)


def _shortened(parts: list[tuple[int, str, str]], width: int) -> list[tuple[int, str, str]]:
    """The URL cut in the middle ("https://gate…/evolution") by what does not fit, down to
    MIN_URL cells."""
    over = _cells(parts) - width
    shown = []
    for rank, part, style in parts:
        if rank == SHORTENED and over > 0 and len(part) > MIN_URL:
            keep = max(MIN_URL, len(part) - over - 1)
            head = (keep + 1) // 2
            part = part[:head] + "…" + part[len(part) - (keep - head) :]
        shown.append((rank, part, style))
    return shown
