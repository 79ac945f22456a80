"""The fleet: every instance of every gateway, judged from evidence (no Textual here).

- reasons.py: Baileys' disconnect reason codes in words; 2.x's disconnection fields read.
- verdict.py: Fact, InstanceEvidence, the verdicts (ok, connecting, closed, zombie, licence,
  unreachable, unauthorized) of an instance or a whole gateway.
- metrics.py: a gateway's Prometheus /metrics (prometheus_client's parser), its credentials.
- probe.py: one gateway's refresh (fetchInstances, /metrics, connectionState in turn).
- fleet.py: every gateway at once, trouble first; the rows `gateway-tui health` writes.
- alerts.py: one alert per event, flapping coalesced, a log with times.
- batch.py: restart / connect / log out / delete many, each once, a result per row.
- monitor.py: every profile's gateway read on its own schedule, alerts out, the rows kept for
  the next start's first frame.
"""
