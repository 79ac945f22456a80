"""What the gateway emits, seen as it comes (no Textual): records of socket.io and webhook
events (record.py), a one-line summary of each (summary.py), the monitor's bounded ring
(ring.py), filters (filters.py), NDJSON export (export.py), asked-for-versus-arrived
(coverage.py), history sync progress (history.py), a raw socket.io subscription (stream.py),
the webhook receiver (receiver.py) and the one-way check between the two (crosscheck.py)."""
