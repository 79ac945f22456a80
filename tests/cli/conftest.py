"""Fixtures of the command-line tests."""

from __future__ import annotations

import pytest

from gateway_tui.core.files.drafts import ComposeStore
from tests.data import CAMPAIGN_DRAFT


@pytest.fixture
def gateway(demo_server, monkeypatch):
    """The demo gateway in the environment the command line reads, with the template
    "Weekly menu" (CAMPAIGN_DRAFT) saved for sales-eu."""
    monkeypatch.setenv("GATEWAY_URL", demo_server.url)
    monkeypatch.setenv("GATEWAY_API_KEY", demo_server.api_key)
    ComposeStore(demo_server.url, "sales-eu").save_template("Weekly menu", CAMPAIGN_DRAFT)
    return demo_server
