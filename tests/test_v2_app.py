"""The app on the 2.x line: the profile's pin, what the screens show of 2.x fields."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gateway_tui.config import Profile
from gateway_tui.formatting import disconnect_reason, disconnect_text


@pytest.mark.parametrize(
    ("given", "kept"), [("2", "2"), ("2.3.6", "2"), ("1", "1"), ("1.7.1", "1"), ("auto", "auto")]
)
def test_a_profile_pins_the_line(given: str, kept: str) -> None:
    assert Profile(url="https://gw.example.com", api_version=given).api_version == kept


def test_a_profile_refuses_an_unknown_line() -> None:
    with pytest.raises(ValidationError, match="api_version"):
        Profile(url="https://gw.example.com", api_version="3")


def test_disconnect_reason_in_words() -> None:
    assert disconnect_reason("401") == "401 logged out"
    assert disconnect_reason("999") == "999"
    assert disconnect_reason(None) == ""
    text = disconnect_text("401", "2026-11-24T16:10:00.000Z")
    assert text.startswith("401 logged out · 2026-11-2")
    assert disconnect_text(None, None) == ""
    assert disconnect_text(None, "not a time") == "not a time"
