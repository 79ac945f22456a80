"""A campaign's report.csv: one row per recipient, streamed from the journal.

The report is for people and for scripts. ``status`` and ``error_code`` are stable codes
(``sent``, ``failed``, …; ``not_on_whatsapp``, ``no_answer``, … — empty for no reason, or for
an old journal's record, which has none); ``error`` is the reason in words, in the language of
the run that writes the report, with the gateway's own words in it as it said them. A later run
in another language writes the report again in its own. ``error_code`` is the last column, so
the columns scripts read by position before it keep their places.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gateway_tui.core.campaign.lines import reason_of
from gateway_tui.core.campaign.model import Status
from gateway_tui.core.campaign.reasons import Reason
from gateway_tui.core.files.export import CsvWriter
from gateway_tui.core.files.storage import atomic_file

if TYPE_CHECKING:
    from gateway_tui.core.campaign.record import CampaignRecord

REPORT_COLUMNS = ("number", "name", "status", "message_id", "time", "error", "error_code")


def write_report(campaign: CampaignRecord) -> Path:
    """Write report.csv (atomically, streamed) and return its path.

    Rows come in the order recipients were settled (as the journal has them), then those
    without a recorded outcome (held or still pending).
    """
    written = bytearray(len(campaign.recipients))

    def row(index: int, at: float, message_id: str, reason: Reason) -> tuple[str, ...]:
        recipient = campaign.recipients[index]
        when = datetime.fromtimestamp(at).isoformat(timespec="seconds") if at else ""
        status = campaign.status(index).value
        error = reason.render()
        return (recipient.number, recipient.name, status, message_id, when, error, reason.code)

    with atomic_file(campaign.report_path) as out:
        writer = CsvWriter(out)  # every cell: formulas defused, controls cleaned
        writer.writerow(REPORT_COLUMNS)
        for event in campaign.events():
            if event["e"] != "done" or written[event["i"]]:
                continue
            index = event["i"]
            status = campaign.status(index)
            if status is Status.UNKNOWN or event.get("s") != status.value:
                continue  # held: its latest word is in campaign.unknown; or since superseded
            written[index] = 1
            writer.writerow(
                row(
                    index,
                    float(event["at"]),
                    str(event.get("id") or ""),
                    reason_of(event),
                )
            )
        for index in range(len(campaign.recipients)):
            if not written[index]:
                at, reason = campaign.unknown.get(index, (0.0, Reason()))
                writer.writerow(row(index, at, "", reason))
    return campaign.report_path
