"""A campaign's settings and vocabulary: its errors, the recipients' statuses, the pace, and
the recipients as kept on disk (one offset per recipient in memory)."""

from __future__ import annotations

import hashlib
import json
import secrets
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from gateway_tui.core.campaign.lock import Holder
from gateway_tui.core.campaign.reasons import Reason
from gateway_tui.core.campaign.recipients import Recipient
from gateway_tui.core.files.storage import data_dir
from gateway_tui.core.text.i18n import _, decimal

FORMAT_VERSION = 2  # 2: the journal starts with a ``head`` line (1: no head line)


class JournalError(ValueError):
    """The campaign's files cannot be used; the message says which and why."""


class CampaignBusy(JournalError):
    """Another process (or another runner of this one) is sending this campaign."""

    def __init__(self, campaign_id: str, holder: Holder) -> None:
        self.campaign_id = campaign_id
        self.holder = holder
        super().__init__(
            _(
                "campaign {id} is being sent by {holder}; nothing was sent from here (one "
                "runner per campaign)"
            ).format(id=campaign_id, holder=holder.describe())
        )


class JournalRefused(JournalError):
    """The journal cannot tell what was sent: the campaign will not send."""


class JournalWriteError(JournalError):
    """An event could not be made durable (disk full, I/O error): stop sending."""


class Status(StrEnum):
    PENDING = "pending"  # not tried yet, or tried and refused before anything was sent
    SENT = "sent"
    FAILED = "failed"  # the gateway refused this recipient (its reason is kept)
    UNKNOWN = "unknown"  # tried, outcome unknown: held, never resent on its own
    SKIPPED = "skipped"  # a held recipient the user chose not to send to


# One byte per recipient in memory: the state of a 10,000-recipient campaign is 10 kB.
_CODES = {status: index for index, status in enumerate(Status)}
_STATUSES = list(Status)


def campaigns_dir() -> Path:
    return data_dir() / "campaigns"


@dataclass(slots=True)
class Outcome:
    status: Status
    at: float
    message_id: str = ""
    reason: Reason = field(default_factory=Reason)  # why it failed or is held

    @property
    def error(self) -> str:
        """The reason in words, in the current language ("" when there is none)."""
        return self.reason.render()


@dataclass
class Pace:
    """Messages per minute (0: as fast as the gateway answers), with random jitter (0-0.9)."""

    per_minute: float = 20.0
    jitter: float = 0.3

    def bounds(self) -> tuple[float, float]:
        """The shortest and longest gap between two sends, in seconds."""
        if self.per_minute <= 0:
            return 0.0, 0.0
        mean = 60.0 / self.per_minute
        return mean * (1 - self.jitter), mean * (1 + self.jitter)

    def to_json(self) -> dict[str, float]:
        return {"per_minute": self.per_minute, "jitter": self.jitter}

    @classmethod
    def from_json(cls, data: Any) -> Pace:
        data = data if isinstance(data, dict) else {}
        return cls(float(data.get("per_minute", 20.0)), float(data.get("jitter", 0.3)))

    def describe(self) -> str:
        if self.per_minute <= 0:
            return _("full speed (no pause between sends)")
        low, high = self.bounds()
        return _("{rate}/min, one every {low}–{high} s").format(
            rate=decimal(self.per_minute, 0 if self.per_minute == int(self.per_minute) else 1),
            low=decimal(low, 1),
            high=decimal(high, 1),
        )


class RecipientStore:
    """A campaign's recipients, read from recipients.jsonl when needed.

    Memory holds one file offset per recipient (8 bytes), so a long campaign's footprint does
    not grow with its recipients. Every line is checked when the store is opened.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offsets = array("q")
        offset = 0
        digest = hashlib.sha256()
        with path.open("rb") as file:
            for line_no, line in enumerate(file, start=1):
                digest.update(line)
                if line.strip():
                    try:
                        Recipient.from_json(json.loads(line))
                    except (ValueError, TypeError) as exc:
                        raise JournalError(
                            _("{path}, line {line}: damaged ({why})").format(
                                path=path, line=line_no, why=exc
                            )
                        ) from None
                    self._offsets.append(offset)
                offset += len(line)
        self.digest = "sha256:" + digest.hexdigest()

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, index: int) -> Recipient:
        with self.path.open("rb") as file:
            file.seek(self._offsets[index])
            return Recipient.from_json(json.loads(file.readline()))

    def __iter__(self) -> Iterator[Recipient]:
        with self.path.open("rb") as file:
            for line in file:
                if line.strip():
                    yield Recipient.from_json(json.loads(line))


def new_campaign_id(now: datetime) -> str:
    return f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__
