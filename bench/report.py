"""Figures, floors, ratios and targets: the printed table and bench/RESULTS.md."""

from __future__ import annotations

import math
import os
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from importlib.metadata import version
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Figure:
    """One measured quantity: its samples and how to summarise them (median unless told)."""

    label: str
    samples: list[float]
    unit: str = "ms"
    summary: Callable[[Sequence[float]], float] = median

    @property
    def value(self) -> float:
        return self.summary(self.samples)

    def text(self) -> str:
        value = self.value
        if self.unit == "MiB":
            return f"{value:.1f} MiB"
        if self.unit == "/s":
            return f"{value:,.0f}/s"
        if self.unit == "count":
            return f"{value:,.0f}"
        if self.unit == "B":
            return f"{value:,.0f} B"
        if self.unit == "/min":
            return f"{value:,.1f}/min"
        if value < 10:
            return f"{value:.2f} ms"
        return f"{value:.1f} ms"


@dataclass
class Row:
    """A figure beside its floor, with the product's target for it (if it has one)."""

    section: str
    figure: Figure
    floor: Figure | None = None
    target: str = ""
    # Whether the target is met, given (figure, floor); None when the row has no target.
    check: Callable[[float, float | None], bool] | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.floor is None or not self.floor.value:
            return None
        return self.figure.value / self.floor.value

    @property
    def verdict(self) -> str:
        if self.check is None:
            return ""
        floor = self.floor.value if self.floor is not None else None
        return "met" if self.check(self.figure.value, floor) else "MISSED"


def at_most_ms(limit: float) -> Callable[[float, float | None], bool]:
    return lambda value, _floor: value <= limit


def at_most_ratio(limit: float) -> Callable[[float, float | None], bool]:
    return lambda value, floor: floor is not None and value <= limit * floor


@dataclass
class Report:
    started: datetime = field(default_factory=datetime.now)
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    load_before: tuple[float, float, float] = field(default_factory=os.getloadavg)

    def add(self, row: Row) -> None:
        self.rows.append(row)
        print(format_row(row), flush=True)

    def table(self) -> str:
        header = (
            "| Benchmark | Figure | Floor | Ratio | Target | Result |\n|---|---|---|---|---|---|\n"
        )
        lines = []
        section = None
        for row in self.rows:
            if row.section != section:
                section = row.section
                lines.append(f"| **{section}** | | | | | |")
            floor = f"{row.floor.text()} ({row.floor.label})" if row.floor else "—"
            ratio = f"{row.ratio:.2f}×" if row.ratio is not None else "—"
            label = row.figure.label + (f" ({row.note})" if row.note else "")
            lines.append(
                f"| {label} | {row.figure.text()} | {floor} | {ratio} | {row.target or '—'} "
                f"| {row.verdict or '—'} |"
            )
        return header + "\n".join(lines) + "\n"

    def write(self, runs: int) -> None:
        load_after = os.getloadavg()
        text = f"""# Benchmark results

Written by `make bench` (`python -m bench`); the previous run is overwritten. Method and floors:
see the docstring of `bench/__main__.py`.

- Date: {self.started:%Y-%m-%d %H:%M}
- Machine: {machine()}
- Load average (1, 5, 15 min): {_load(self.load_before)} before, {_load(load_after)} after
- Versions: {versions()}
- Runs: medians of {runs} runs per figure (start: {2 * runs}; keystrokes, scrolls and client
  calls: of every sample over those runs); a ratio divides a figure by its floor from the same
  run.

{self.table()}"""
        if self.notes:
            text += "\n" + "\n".join(f"- {note}" for note in self.notes) + "\n"
        RESULTS.write_text(text)
        print(f"\nWrote {RESULTS}")


def format_row(row: Row) -> str:
    floor = f"{row.floor.text():>10} {row.floor.label}" if row.floor else ""
    ratio = f"{row.ratio:6.2f}×" if row.ratio is not None else "       "
    label = row.figure.label + (f" ({row.note})" if row.note else "")
    verdict = f"  {row.target} → {row.verdict}" if row.check else ""
    return f"  {label:<52} {row.figure.text():>10} | floor {floor:<44} {ratio}{verdict}"


def _load(values: tuple[float, float, float]) -> str:
    return ", ".join(f"{value:.2f}" for value in values)


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f", {int(line.split()[1]) / 1024 / 1024:.1f} GiB RAM"
                break
    except OSError:
        pass
    cores = os.cpu_count()
    return f"{cores} cores{f' ({model})' if model else ''}{memory}, {platform.platform()}"


def versions() -> str:
    python = platform.python_version()
    packages = ", ".join(
        f"{name} {version(name)}" for name in ("textual", "httpx", "pydantic", "rich")
    )
    return f"Python {python} ({sys.implementation.name}), {packages}"
