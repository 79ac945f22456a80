"""The first frame: the header and an empty instances table saying "loading…".

Drawn from Textual alone (no httpx, no pydantic, no config): the app shows it the moment it
starts, then imports the rest and replaces it with the home screen (see app.py). Opening on
the fleet, it draws the rows the fleet kept at the last run instead (core/fleet/head.py: a
small file of the first rows, trouble first), dimmed and with their age: never as current.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer, Static

from gateway_tui.core.text.i18n import N_, _, ngettext, number

if TYPE_CHECKING:
    from gateway_tui.core.files.instances_head import InstancesHead
    from gateway_tui.core.fleet.head import Head

LOADING = N_("loading…")
# The instances table's header, as the home screen will draw it (no rows yet).
COLUMNS = (
    (N_("Name"), 13),
    (N_("Status"), 15),
    (N_("Owner"), 18),
    (N_("Profile name"), 15),
    (N_("Integration"), 0),
)


def empty_table() -> Text:
    header = "".join(_(label).ljust(width) for label, width in COLUMNS)
    text = Text(header, style="bold")
    text.append(f"\n{_(LOADING)}", style="dim italic")
    return text


# The fleet's columns as its screen draws them (screens/fleet.py), widest first allowed.
FLEET_COLUMNS = (
    (N_("Verdict"), 24),
    (N_("Gateway"), 20),
    (N_("Instance"), 28),
    (N_("State"), 10),
    (N_("Number"), 20),
    (N_("Version"), 14),
    (N_("Why"), 60),
)


def kept_table(columns: tuple[tuple[str, int], ...], cells: list[tuple[str, ...]]) -> Text:
    """A header and ``cells`` dimmed (rows kept at the last run, never current), each column
    as wide as its widest cell, at most its limit. The labels are N_-marked: shown translated."""
    labels = [_(label) for label, _limit in columns]
    widths = [
        min(limit, max([len(labels[i]), *(len(cell[i]) for cell in cells)]))
        for i, (_label, limit) in enumerate(columns)
    ]

    def line(values: tuple[str, ...] | list[str]) -> str:
        parts = []
        for value, width in zip(values, widths, strict=True):
            value = value if len(value) <= width else value[: width - 1] + "…"
            parts.append(value.ljust(width))
        return "  ".join(parts).rstrip()

    text = Text(line(labels), style="bold", no_wrap=True)
    for cell in cells:
        text.append("\n" + line(cell), style="dim")
    return text


INSTANCE_LIMITS = (
    (N_("Name"), 32),
    (N_("Status"), 14),
    (N_("Owner"), 22),
    (N_("Profile name"), 28),
    (N_("Integration"), 20),
)


def instances_table(head: InstancesHead, height: int) -> Text:
    return kept_table(INSTANCE_LIMITS, [tuple(row) for row in head.rows[: max(height, 1)]])


def instances_summary(head: InstancesHead) -> Text:
    from gateway_tui.core.fleet.head import age

    return Text(
        ngettext(
            "{n} instance of {gateway} from the last run ({age}), dimmed, until the gateway "
            "answers · loading…",
            "{n} instances of {gateway} from the last run ({age}), dimmed, until the gateway "
            "answers · loading…",
            head.total,
        ).format(n=number(head.total), gateway=head.label, age=age(head.at))
    )


def fleet_table(head: Head, height: int) -> Text:
    """The kept rows that fit ``height`` lines, dimmed, each verdict with its age (from the
    last run, not current)."""
    from gateway_tui.core.fleet.head import age

    cells = [
        (
            f"{row.verdict} ({age(row.at)})",
            row.gateway,
            row.instance or _("(gateway)"),
            row.status,
            row.number or "—",
            row.version or "?",
            row.reason,
        )
        for row in head.rows[: max(height, 1)]
    ]
    return kept_table(FLEET_COLUMNS, cells)


def fleet_summary(head: Head) -> Text:
    parts = [
        ngettext("{n} gateway", "{n} gateways", head.gateways).format(n=number(head.gateways)),
        ngettext("{n} instance", "{n} instances", head.instances).format(n=number(head.instances)),
    ]
    if head.not_ok:
        parts.append(_("{n} not ok").format(n=number(head.not_ok)))
    parts.append(
        ngettext(
            "{n} row from the last run, dimmed, until read again",
            "{n} rows from the last run, dimmed, until read again",
            head.total,
        ).format(n=number(head.total))
    )
    parts.append(_(LOADING))
    return Text(" · ".join(parts))


class StartingScreen(Screen):
    """Shown until the app has loaded its config and its HTTP stack. ``on_shown`` is called
    once the frame has been handed to the terminal (the app tells it: ``frame_drawn``)."""

    DEFAULT_CSS = """
    #starting-bar { height: 1; background: $panel; }
    #starting-table { height: 1fr; padding: 0 1; overflow: hidden; }
    #starting-summary { height: 1; padding: 0 1; }
    """

    def __init__(
        self,
        url: str | None,
        *,
        on_shown: Callable[[], None],
        head: Head | None = None,
        instances: InstancesHead | None = None,
    ) -> None:
        """``head``: the fleet's rows kept at the last run, drawn instead of the instances;
        ``instances``: the instance rows kept by the same launch at the last run."""
        super().__init__()
        self._url = url
        self._head = head
        self._instances = instances
        self._on_shown: Callable[[], None] | None = on_shown

    def compose(self) -> ComposeResult:
        bar = Text.assemble((" gateway-tui ", "bold reverse"))
        if self._url:
            bar.append(f"  {self._url}")
        yield Static(bar, id="starting-bar")
        if self._head is not None:
            yield Static(Text(_("Fleet"), style="bold"), classes="title")
            # The bar, the title, the header, the summary and the footer take 5 lines.
            table = fleet_table(self._head, self.app.size.height - 5)
            yield Static(table, id="starting-table")
            yield Static(fleet_summary(self._head), id="starting-summary")
        elif self._instances is not None:
            yield Static(Text(_("Instances"), style="bold"), classes="title")
            table = instances_table(self._instances, self.app.size.height - 5)
            yield Static(table, id="starting-table")
            yield Static(instances_summary(self._instances), id="starting-summary")
        else:
            yield Static(Text(_("Instances"), style="bold"), classes="title")
            yield Static(empty_table(), id="starting-table")
        yield Footer()

    def frame_drawn(self) -> None:
        if self._on_shown is not None and self.is_mounted:
            on_shown, self._on_shown = self._on_shown, None
            self.app.call_later(on_shown)
