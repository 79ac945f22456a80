"""``gateway-tui config path | show | validate | schema`` (their parsers: cli/parser.py).

No gateway is asked: these read the config file, the environment and the flags only.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gateway_tui.core.text.i18n import _

EXIT_OK = 0
EXIT_PROBLEMS = 1


def path(args: argparse.Namespace, config: Any) -> int:
    from gateway_tui.cli.output import say
    from gateway_tui.core.files.config import config_path

    say(config_path())
    return EXIT_OK


def show(args: argparse.Namespace, config: Any) -> int:
    """The merged settings, where each came from, the key masked; then the problems."""
    from gateway_tui.cli.output import emit, warn
    from gateway_tui.core.files.config_check import show as merged

    rows, problems = merged(url=args.url, api_key=args.api_key, profile=args.profile)
    machine = args.json or args.csv
    emit(
        [
            # --json and --csv keep the English source scripts read; the table says it.
            {"setting": r.name, "value": r.value, "source": r.source if machine else r.said}
            for r in rows
        ],
        ("setting", "value", "source"),
        as_json=args.json,
        as_csv=args.csv,
    )
    for problem in problems:
        warn(problem, "gateway-tui: warning: ")
    return EXIT_OK


def validate(args: argparse.Namespace, config: Any) -> int:
    """Every problem of the file, one a line; exit 1 when there is any."""
    from gateway_tui.cli.output import say
    from gateway_tui.core.files.config import config_path
    from gateway_tui.core.files.config_check import validate as problems_of

    file = Path(args.file).expanduser() if args.file else config_path()
    problems = problems_of(file)
    for problem in problems:
        say(problem)
    if not problems:
        said = (
            _("{file}: no problems") if file.exists() else _("{file}: no file (defaults are used)")
        )
        say(said.format(file=file))
    return EXIT_PROBLEMS if problems else EXIT_OK


def schema(args: argparse.Namespace, config: Any) -> int:
    from gateway_tui.cli.output import write
    from gateway_tui.core.files.config_check import schema as config_schema

    write(schema_text(config_schema()), flush=True)
    return EXIT_OK


def schema_text(document: dict[str, Any]) -> str:
    """The schema as committed in config.schema.json."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
