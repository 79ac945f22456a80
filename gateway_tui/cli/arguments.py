"""Argument types of the command line: each turns a plain ValueError into argparse's message."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def argument_type(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """Make ``convert``'s ValueError message argparse's error message, instead of argparse's
    generic "invalid value" (which would also echo the input)."""

    def argument(text: str) -> Any:
        try:
            return convert(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    argument.__name__ = convert.__name__
    return argument


def whole_number(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type for a whole number from ``minimum`` (to ``maximum``)."""

    def whole_number(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            number = minimum - 1
        if number < minimum or (maximum is not None and number > maximum):
            upper = f" to {maximum}" if maximum is not None else " or more"
            raise ValueError(f"expected a whole number from {minimum}{upper}, got {text!r}")
        return number

    return argument_type(whole_number)


def fraction(maximum: float) -> Callable[[str], float]:
    """A parser of a fraction from 0 to ``maximum`` (ValueError with a plain message)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= maximum:
            raise ValueError(f"expected a fraction from 0 to {maximum:g}, got {text!r}")
        return value

    return parse


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"not a number of seconds: {text!r}") from None
    if not 0.05 <= value <= 86_400:
        raise ValueError("give between 0.05 and 86400 seconds")
    return value
