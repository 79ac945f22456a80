"""A journal of gigabytes is read a line at a time, each line at most 1 MB (issue 29: a 2 GB
journal was read whole, 4.3 GB of memory). The files here are sparse: 512 MB in no time."""

from __future__ import annotations

import tracemalloc

from gateway_tui.core.campaign.journal import MAX_LINE, Status, open_campaign
from tests.support import new_campaign

HUGE = 512 << 20  # 512 MB: the old reader held it all; this one at most MAX_LINE
BOUND = 32 << 20  # what reading it may take, at most (one line is at most 1 MB)


def _write_a_huge_line(campaign, start: bytes) -> None:
    """A line of 512 MB (NUL bytes after ``start``, a hole in the file) and its newline."""
    with campaign.journal_path.open("r+b") as file:
        end = file.seek(0, 2)
        file.write(start)
        file.seek(end + HUGE)
        file.write(b"\n")


def test_a_half_gigabyte_line_is_skipped_within_a_bounded_memory(demo_server) -> None:
    campaign = new_campaign(demo_server, count=3)
    campaign.record_try(0, at=10.0, planned=10.0, gap=0.0)
    campaign.record_done(0, Status.SENT, at=11.0, message_id="A")
    _write_a_huge_line(campaign, b'{"e":"try","i":2,"at":12.0,"pad":"')
    campaign.record_try(1, at=13.0, planned=13.0, gap=0.0)
    campaign.record_done(1, Status.SENT, at=14.0, message_id="B")
    campaign.unlock()
    assert campaign.journal_path.stat().st_size > HUGE

    tracemalloc.start()
    try:
        again = open_campaign(campaign.id)
        report_lines = sum(1 for _ in again.sent())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert peak < BOUND, f"reading the journal took {peak / 2**20:.0f} MB"
    # The lines after the huge one were read; the huge one holds the recipient it names.
    assert (again.status(0), again.status(1)) == (Status.SENT, Status.SENT)
    assert again.status(2) is Status.UNKNOWN
    assert any(f"longer than {MAX_LINE // (1024 * 1024)} MiB" in p for p in again.problems)
    assert report_lines == 2


def test_a_huge_torn_last_line_is_left_out_within_a_bounded_memory(demo_server) -> None:
    campaign = new_campaign(demo_server, count=2)
    campaign.record_try(0, at=10.0, planned=10.0, gap=0.0)
    campaign.record_done(0, Status.SENT, at=11.0, message_id="A")
    with campaign.journal_path.open("r+b") as file:
        file.truncate(file.seek(0, 2) + HUGE)  # 512 MB of NUL bytes, no newline at the end
    campaign.unlock()
    tracemalloc.start()
    try:
        again = open_campaign(campaign.id)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < BOUND, f"reading the journal took {peak / 2**20:.0f} MB"
    assert again.status(0) is Status.SENT and again.status(1) is Status.PENDING
