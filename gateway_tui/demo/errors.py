"""The error body every 1.7.1 gateway error uses, and the exception that produces it."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any


def error_body(status: int, message: Any, *, error: str | None = None) -> dict[str, Any]:
    """``{"status", "error", "response": {"message"}}``; ``message`` keeps whatever shape it has."""
    return {
        "status": status,
        "error": error or HTTPStatus(status).phrase,
        "response": {"message": message},
    }


class GatewayError(Exception):
    """Answer the request with the gateway error body (HTTP status == ``status``)."""

    def __init__(self, status: int, message: Any, *, error: str | None = None) -> None:
        super().__init__(status, message)
        self.status = status
        self.body = error_body(status, message, error=error)


def unauthorized() -> GatewayError:
    return GatewayError(401, "Unauthorized")


def not_connected_text(client_method: str) -> str:
    """How a real gateway's internals fail when a disconnected instance is asked to act."""
    return f"TypeError: Cannot read properties of undefined (reading '{client_method}')"
