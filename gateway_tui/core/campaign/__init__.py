"""Campaigns: one list message to many recipients, paced, resumable, never sent twice.

Plain Python, no Textual: the campaign screen and the ``gateway-tui send-list`` command line
share all of it.

- ``recipients``: read recipients from CSV or pasted lines, check and deduplicate the numbers,
  fill ``{name}``-style placeholders into the draft per recipient.
- ``journal``: the campaign's folder on disk, its append-only fsync'd journal, the final report.
- ``runner``: the paced send loop (pause, resume, cancel, auto-stop), driven by the journal.
"""
