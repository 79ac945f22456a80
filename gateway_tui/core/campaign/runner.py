"""The send loop of a campaign: paced, pausable, and never sending anyone twice.

One send at a time. Each gap between two sends is drawn from the pace (with jitter) by an RNG
seeded with the campaign's seed and the recipient's index, so a resumed campaign keeps the
same schedule; the journal records every planned time and gap.

What happens to a recipient after its call:

- answered 2xx: sent;
- refused by the gateway for this recipient (not on WhatsApp, invalid): failed, with the reason;
- refused for everyone (key refused, instance not connected, gateway unreachable): nothing was
  sent, the recipient stays pending; after ``STOP_AFTER`` such calls in a row the campaign stops
  and says why;
- no answer (timeout, dropped connection, the process interrupted): unknown, held.

Before the first send the runner takes the campaign's lock (one runner per campaign: a second
one gets ``CampaignBusy``, naming the holder) and reads the journal again under it; a campaign
whose journal cannot tell what was sent refuses (``JournalRefused``). A journal that cannot be
written (a full disk) stops the campaign with recipients left: state STOPPED, never a send
without its ``try`` line.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum

from gateway_tui.core.api.capabilities import is_24_or_later
from gateway_tui.core.api.client import GatewayClient
from gateway_tui.core.api.errors import (
    Forbidden,
    GatewayError,
    GatewayUnreachable,
    InvalidRequest,
    InvalidResponse,
    Unauthorized,
)
from gateway_tui.core.campaign.journal import Campaign, JournalWriteError, Status
from gateway_tui.core.campaign.preflight import instance_problem
from gateway_tui.core.campaign.reasons import CANCELLED, INTERRUPTED, Reason, gateway_reason
from gateway_tui.core.campaign.recipients import MessageTemplate, Recipient
from gateway_tui.core.text.i18n import _, number

STOP_AFTER = 3  # calls in a row that fail for everyone the same way
STOP_AFTER_SAME_FAILURE = 10  # recipients in a row refused with the very same reason
STOP_AFTER_UNKNOWN = 5  # outcomes in a row unknown: the gateway is not answering
PASSES = 3  # rounds over the recipients still pending (refused for everyone, nothing sent)
RATE_WINDOW = 60.0  # seconds of history the rate is measured over
# Fewer sends than this in the window say nothing of the rate: two sends at a jittered pace of
# 20/min can be 2.1 s apart, which would read 28/min.
RATE_MIN_SENDS = 5


class RunState(StrEnum):
    READY = "ready"
    WAITING = "waiting"  # the pace's pause before the next send
    SENDING = "sending"
    PAUSED = "paused"
    STOPPED = "stopped"  # by the runner itself: every recent call failed the same way
    CANCELLED = "cancelled"
    FINISHED = "finished"


@dataclass
class Progress:
    """A snapshot for a screen or a progress line."""

    state: RunState
    total: int
    sent: int
    failed: int
    unknown: int
    skipped: int
    left: int
    current: Recipient | None = None
    last_error: str = ""
    stop_reason: str = ""
    rate_per_minute: float = 0.0
    eta_seconds: float | None = None
    next_at: float | None = None
    in_flight: int = 0  # the send under way (its outcome not known yet, not among "unknown")

    @property
    def done(self) -> int:
        return self.total - self.left - self.in_flight


@dataclass
class Attempt:
    """One call's outcome, as the runner reports it."""

    index: int
    recipient: Recipient
    status: Status
    message_id: str = ""
    reason: Reason = field(default_factory=Reason)  # why it failed or is held, as stored
    at: float = 0.0
    kind: str = ""  # for a refusal that hits everyone: "key", "not_connected", "unreachable"
    # For a refusal of this recipient: what makes two refusals "the same" ("" for a number
    # that is not on WhatsApp: a list may hold many, and that says nothing of the gateway).
    failure_key: str = ""

    @property
    def error(self) -> str:
        """The reason in words, in the current language ("" when there is none)."""
        return self.reason.render()


def _kind(error: GatewayError) -> str | None:
    """The failures that hit every recipient alike (nothing is sent), else None."""
    if isinstance(error, Unauthorized | Forbidden):
        return "key"
    if error.instance_not_connected:
        return "not_connected"
    if isinstance(error, GatewayUnreachable) and not error.outcome_unknown:
        return "unreachable"
    return None


async def takes_message_id(client: GatewayClient) -> bool:
    """Whether the gateway takes a messageId chosen by the sender (2.4 and later): asked of
    GET / when nothing told its version yet. A 1.7.1 line never does."""
    if client.line_known and client.dialect.line == "1":
        return False
    if client.server_version is None:
        try:
            await client.fetch_server_info(quiet=True)
        except GatewayError:
            return False
    return is_24_or_later(client.server_version)


def duration_text(seconds: float) -> str:
    """A duration for people: 45 s, 12 min 5 s, 3 h 20 min."""
    seconds = int(seconds)
    if seconds < 60:
        return _("{s} s").format(s=number(seconds))
    if seconds < 3600:
        return _("{m} min {s} s").format(m=number(seconds // 60), s=number(seconds % 60))
    return _("{h} h {m} min").format(h=number(seconds // 3600), m=number(seconds % 3600 // 60))


def plain_error(error: GatewayError) -> str:
    """The error in one or two plain sentences."""
    text = error.summary
    if error.hint:
        text += f" — {error.hint}"
    return text


def _stop_reason(kind: str, instance: str, error: GatewayError, calls: int = STOP_AFTER) -> Reason:
    if kind == "key":
        return Reason("stop_key", {"calls": calls})
    if kind == "not_connected":
        return Reason("stop_not_connected", {"instance": instance, "calls": calls})
    said = gateway_reason(error)
    said = Reason(said.code, {k: v for k, v in said.params.items() if k != "not_connected"})
    return Reason("stop_unreachable", {"calls": calls, "error": said})


@dataclass
class CampaignRunner:
    campaign: Campaign
    client: GatewayClient
    on_progress: Callable[[Progress], None] | None = None
    on_attempt: Callable[[Attempt], None] | None = None
    # The wall clock: the journal's times and what is shown. Never the pacing: a wall clock
    # that goes back (or a journal written ahead of it) would hold the next send for as long.
    clock: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    # The pacing's clock: it never goes back. `next_at` and the rate are on it.
    monotonic: Callable[[], float] = time.monotonic
    check_instance: bool = True  # ask first whether the instance exists and is open
    state: RunState = RunState.READY
    last_error: str = ""
    stop_reason: str = ""
    current: Recipient | None = None
    next_at: float | None = None
    _resume: asyncio.Event = field(default_factory=asyncio.Event)
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _cancel: bool = False
    _cancel_reason: Reason = CANCELLED
    _recent: deque = field(default_factory=lambda: deque(maxlen=512))
    _call_seconds: deque = field(default_factory=lambda: deque(maxlen=20))

    def __post_init__(self) -> None:
        self._resume.set()
        self.template = MessageTemplate(self.campaign.draft)
        self._planned = self._gap = 0.0
        # When this runner last sent (on `monotonic`); None: nothing sent by it yet.
        self._last_sent: float | None = None
        self._pace_from: float | None = None  # a resumed campaign's first gap counts from here
        self._systemic_reason = Reason()
        self._stop_why = Reason()  # the stop, as the journal keeps it
        self._last_reason = Reason()
        self._in_flight = False  # between a `try` line and its outcome
        self._fixes_ids = False  # the gateway takes the sender's messageId (2.4)

    # --- control (from the screen or a signal handler) ---------------------------------------

    def pause(self) -> None:
        if self.state not in (RunState.FINISHED, RunState.STOPPED, RunState.CANCELLED):
            self._resume.clear()
            self._wake.set()
            self._notify()

    def resume(self) -> None:
        if self.paused:
            # The rate is measured again from the sends after the pause: the pause is no
            # slowness of the sending.
            self._recent.clear()
        self._resume.set()
        self._wake.set()

    @property
    def paused(self) -> bool:
        return not self._resume.is_set()

    def cancel(self, reason: Reason | str = CANCELLED) -> None:
        """Stop after the call in flight (its outcome is still recorded); ``reason`` goes to
        the journal (a code; words a caller gives are kept as they are)."""
        self._cancel_reason = reason if isinstance(reason, Reason) else Reason(text=reason)
        self._cancel = True
        self._resume.set()
        self._wake.set()

    # --- progress ------------------------------------------------------------------------------

    def progress(self) -> Progress:
        campaign = self.campaign
        left = campaign.count(Status.PENDING)
        now = self.monotonic()
        recent = [at for at in self._recent if now - at <= RATE_WINDOW]
        span = (now - recent[0]) if len(recent) >= RATE_MIN_SENDS else 0.0
        rate = (len(recent) - 1) * 60.0 / span if span > 0 else 0.0
        per_call = sum(self._call_seconds) / len(self._call_seconds) if self._call_seconds else 0
        pace_gap = 60.0 / campaign.pace.per_minute if campaign.pace.per_minute > 0 else 0.0
        eta = left * max(per_call, pace_gap) if left and max(per_call, pace_gap) else None
        if left == 0:
            eta = 0.0
        if self.state in (RunState.STOPPED, RunState.CANCELLED) or self.paused:
            rate, eta = 0.0, None  # nothing is being sent: no rate, no time left
        in_flight = 1 if self._in_flight else 0
        return Progress(
            state=self.state,
            total=len(campaign.recipients),
            sent=campaign.count(Status.SENT),
            failed=campaign.count(Status.FAILED),
            unknown=campaign.count(Status.UNKNOWN) - in_flight,
            skipped=campaign.count(Status.SKIPPED),
            left=left,
            in_flight=in_flight,
            current=self.current,
            last_error=self.last_error,
            stop_reason=self.stop_reason,
            rate_per_minute=rate,
            eta_seconds=eta,
            next_at=self.next_at,
        )

    def _notify(self) -> None:
        if self.on_progress is not None:
            self.on_progress(self.progress())

    # --- the loop ------------------------------------------------------------------------------

    def gap_before(self, index: int) -> float:
        """The pause before sending to ``index``: the same on every run of this campaign."""
        low, high = self.campaign.pace.bounds()
        if high <= 0:
            return 0.0
        return random.Random(f"{self.campaign.seed}:{index}").uniform(low, high)

    async def run(self) -> Progress:
        """Send to every pending recipient; returns the final progress.

        Raises CampaignBusy (another runner sends it) or JournalRefused (its journal cannot
        tell what was sent) before sending anything.
        """
        campaign = self.campaign
        took_lock = not campaign.locked
        campaign.lock()  # and read the journal again: another runner may have sent since
        try:
            campaign.check_can_send()
            return await self._run()
        finally:
            if took_lock:
                campaign.unlock()

    async def _run(self) -> Progress:
        campaign = self.campaign
        self._systemic: deque[str] = deque(maxlen=STOP_AFTER)
        self._same_failure: deque[str] = deque(maxlen=STOP_AFTER_SAME_FAILURE)
        self._unknown_in_row = 0
        self._start_pacing()
        if self.check_instance and not campaign.finished:
            problem = await instance_problem(self.client, campaign.instance)
            if problem:
                self.state = RunState.STOPPED
                self.stop_reason = _("Not started: {problem}.").format(problem=problem)
                self.last_error = problem
                self._notify()
                return self.progress()
        self._fixes_ids = not campaign.finished and await takes_message_id(self.client)
        try:
            try:
                await self._passes()
                self._settle()
                campaign.write_report()
            except (JournalWriteError, OSError) as error:
                # Nothing more can be recorded, so nothing more is sent; a send whose outcome
                # could not be written stays held (its `try` line is there).
                if self.state is not RunState.STOPPED or not self.stop_reason:
                    self.state = RunState.STOPPED
                    self.stop_reason = _(
                        "Stopped: the campaign's files could not be written ({error}). Nothing "
                        "more was sent; free some space, then resume."
                    ).format(error=error)
        finally:
            self.current = None
            self.next_at = None
            campaign.close()
        self._notify()
        return self.progress()

    def _settle(self) -> None:
        """The run's end, in the journal."""
        campaign = self.campaign
        if self.state is RunState.STOPPED:
            campaign.record_stop(self._stop_why or Reason(text=self.stop_reason), at=self.clock())
        elif self._cancel:
            self.state = RunState.CANCELLED
            campaign.record_stop(self._cancel_reason, at=self.clock())
        elif campaign.finished:
            self.state = RunState.FINISHED
        else:
            self._stop_with(Reason("stop_not_tried"))
            campaign.record_stop(self._stop_why, at=self.clock())

    def _start_pacing(self) -> None:
        """Pacing and rate on the monotonic clock. The journal's (wall) times only tell the
        rate of a resumed campaign, and only those of the last minute by this wall clock: a
        journal written ahead of it, or long ago, holds nothing up."""
        campaign = self.campaign
        now, wall = self.monotonic(), self.clock()
        tried_before = False
        for event in campaign.tries():
            tried_before = True
            age = wall - event["at"]
            if 0 <= age <= RATE_WINDOW:
                self._recent.append(now - age)
        if tried_before and self._last_sent is None:
            # Resumed: the first send waits its gap from now (never faster than the pace,
            # whatever the journal's times say).
            self._pace_from = now

    async def _passes(self) -> None:
        campaign = self.campaign
        # A recipient refused for everyone (nothing sent) stays pending: later passes try
        # it again, as long as the gateway does not keep refusing (then the runner stops).
        for _pass in range(PASSES):
            for index in campaign.pending():
                if not await self._wait_turn(index):
                    break
                attempt = await self._send(index, campaign.recipients[index])
                if self.on_attempt is not None:
                    self.on_attempt(attempt)
                if self._should_stop(attempt):
                    break
                self._notify()
            if self._cancel or self.state is RunState.STOPPED or campaign.finished:
                break
            if self._systemic and self._systemic[-1]:
                # The refusal that left recipients pending goes on: trying them again now
                # would call the same numbers again for nothing.
                kind, error = self._systemic_error
                trailing = (i for i, k in enumerate(reversed(self._systemic)) if k != kind)
                streak = next(trailing, len(self._systemic))
                self._stop_with(_stop_reason(kind, campaign.instance, error, streak))
                break

    def _should_stop(self, attempt: Attempt) -> bool:
        self._systemic.append(attempt.kind)
        self._same_failure.append(attempt.failure_key if attempt.status is Status.FAILED else "")
        self._unknown_in_row = self._unknown_in_row + 1 if attempt.status is Status.UNKNOWN else 0
        systemic, same_failure = self._systemic, self._same_failure
        if len(systemic) == STOP_AFTER and systemic[0] and len(set(systemic)) == 1:
            self._stop_with(self._systemic_reason)
        elif (
            len(same_failure) == STOP_AFTER_SAME_FAILURE
            and same_failure[0]
            and len(set(same_failure)) == 1
        ):
            why = {"n": STOP_AFTER_SAME_FAILURE, "error": self._last_reason}
            self._stop_with(Reason("stop_same_failure", why))
        elif self._unknown_in_row >= STOP_AFTER_UNKNOWN:
            self._stop_with(Reason("stop_no_answer", {"n": STOP_AFTER_UNKNOWN}))
        else:
            return False
        return True

    def _stop_with(self, reason: Reason) -> None:
        """Stopped by the runner: said now in words, kept in the journal as a code."""
        self.state = RunState.STOPPED
        self._stop_why = reason
        self.stop_reason = reason.render()

    async def _wait_turn(self, index: int) -> bool:
        """Wait out a pause and the pace; False when cancelled."""
        campaign = self.campaign
        gap = self.gap_before(index)
        while True:
            if self._cancel:
                return False
            if self.paused:
                self.state = RunState.PAUSED
                self.next_at = None
                self._notify()
                await self._resume.wait()
                continue
            now = self.monotonic()
            last = self._last_sent if self._last_sent is not None else self._pace_from
            planned = last + gap if last is not None else now
            if now >= planned:
                self._planned, self._gap = planned, gap
                return True
            self.state = RunState.WAITING
            self.next_at = planned
            self.current = campaign.recipients[index]
            self._notify()
            self._wake.clear()
            sleeper = asyncio.ensure_future(self.sleep(planned - now))
            waker = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (sleeper, waker):
                    task.cancel()

    async def _send(self, index: int, recipient: Recipient) -> Attempt:
        campaign = self.campaign
        request = self.template.request(recipient)
        # 2.4: the message's id is fixed in the journal before the call, and sent with it.
        message_id = campaign.message_id_for(index) if self._fixes_ids else ""
        if message_id:
            request = request.model_copy(update={"message_id": message_id})
        self.state = RunState.SENDING
        self.current = recipient
        self.next_at = None
        started = self.clock()
        # `planned`: when it was due, as a wall time (the journal's times are for reading).
        planned = started - max(0.0, self.monotonic() - self._planned)
        campaign.record_try(
            index, at=started, planned=planned, gap=self._gap, message_id=message_id
        )
        self._in_flight = True
        self._last_sent = self.monotonic()
        self._recent.append(self._last_sent)
        self._notify()
        t0 = time.perf_counter()
        try:
            result = await self.client.messages.send_list(campaign.instance, request)
        except asyncio.CancelledError:
            campaign.record_done(index, Status.UNKNOWN, at=self.clock(), reason=INTERRUPTED)
            raise
        except InvalidResponse as error:
            if error.status is not None and 200 <= error.status < 300:
                # Accepted (2xx), but the answer could not be read: sent, without an id.
                return self._done(index, recipient, Status.SENT, reason=gateway_reason(error))
            return self._done(index, recipient, Status.FAILED, reason=gateway_reason(error))
        except GatewayError as error:
            reason = self._last_reason = gateway_reason(error)
            self.last_error = reason.render()
            if error.outcome_unknown:
                return self._done(index, recipient, Status.UNKNOWN, reason=reason)
            kind = _kind(error)
            if kind is not None and not isinstance(error, InvalidRequest):
                self._systemic_reason = _stop_reason(kind, campaign.instance, error)
                self._systemic_error = (kind, error)
                attempt = self._done(index, recipient, Status.PENDING, reason=reason)
                attempt.kind = kind
                return attempt
            attempt = self._done(index, recipient, Status.FAILED, reason=reason)
            if not error.not_on_whatsapp:
                attempt.failure_key = reason.key()
            return attempt
        finally:
            self._in_flight = False
            self._call_seconds.append(time.perf_counter() - t0)
        message_id = result.key.id if result.key is not None else ""
        return self._done(index, recipient, Status.SENT, message_id=message_id)

    def _done(
        self,
        index: int,
        recipient: Recipient,
        status: Status,
        *,
        message_id: str = "",
        reason: Reason | None = None,
    ) -> Attempt:
        at = self.clock()
        reason = reason or Reason()
        self.campaign.record_done(index, status, at=at, message_id=message_id, reason=reason)
        return Attempt(index, recipient, status, message_id, reason, at)
