"""The command line in the run's language (issue 35): ``--help`` with argparse's own words,
errors, human output with the locale's numbers; ``--json`` the same bytes in every language."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from gateway_tui.cli import argparse_words
from gateway_tui.cli.output import warn
from gateway_tui.cli.send_list import _Printer
from gateway_tui.demo.server import DemoServer
from gateway_tui.main import main
from tests.support import PROCESS_LIMIT


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    """``gateway-tui ARGS`` in a process of its own, with ``env`` over a clean locale."""
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "gateway_tui", *args],
        env={**base, "COLUMNS": "100", **env},
        capture_output=True,
        text=True,
        timeout=PROCESS_LIMIT,
    )


def test_help_in_portuguese_with_argparse_headings() -> None:
    done = _run(["--lang", "pt_BR", "--help"])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("uso: gateway-tui")
    assert "argumentos posicionais:" in out and "\nopções:\n" in out
    assert "mostra esta ajuda e sai" in out
    assert "mostra a versão do programa e sai" in out
    assert "lista as instâncias do gateway" in out  # a subcommand's help
    # Never translated: command and option names, placeholders.
    assert "instances" in out and "--api-key KEY" in out and "COMMAND" in out
    assert "usage:" not in out and "options:" not in out


def test_a_subcommands_help_in_spanish_from_the_environment() -> None:
    done = _run(["instances", "--help"], LANG="es_ES.UTF-8")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("uso: gateway-tui instances")
    assert "\nopciones:\n" in out and "muestra esta ayuda y sale" in out
    assert "gateway (como en la app):" in out and "muestra CSV con una fila de cabecera" in out
    assert "ejemplos:\n  gateway-tui instances\n" in out  # the examples as typed
    assert "examples:" not in out and "options:" not in out


def test_english_help_keeps_its_words() -> None:
    done = _run(["instances", "--help"], LANG="C.UTF-8")
    assert done.stdout.startswith("usage: gateway-tui instances")
    assert "\noptions:\n" in done.stdout and "examples:" in done.stdout


def test_a_missing_argument_in_portuguese(capsys) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["--lang", "pt_BR", "chats"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("uso: gateway-tui chats")
    assert "gateway-tui chats: erro: os seguintes argumentos são obrigatórios: INSTANCE" in err


def test_an_unknown_option_and_a_bad_value_in_portuguese(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "pt_BR", "instances", "--limit", "x"])
    assert "gateway-tui: erro: argumentos não reconhecidos: --limit x" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--lang", "pt_BR", "demo-server", "--port", "x"])
    err = capsys.readouterr().err
    assert "erro: argumento --port: esperava um número inteiro de 1 a 65535, recebi 'x'" in err
    with pytest.raises(SystemExit):
        main(["--lang", "pt_BR", "completion", "tcsh"])
    assert "opção inválida: 'tcsh' (escolha entre 'bash', 'zsh', 'fish')" in capsys.readouterr().err


def test_a_check_of_main_in_spanish(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "es", "--demo-instances", "3"])
    assert "gateway-tui: error: --demo-instances necesita --demo" in capsys.readouterr().err


@pytest.fixture
def gateway_2x(monkeypatch):
    with DemoServer(api_version="2.3.6") as server:
        monkeypatch.setenv("GATEWAY_URL", server.url)
        monkeypatch.setenv("GATEWAY_API_KEY", server.api_key)
        yield server


@pytest.mark.parametrize(
    ("broken", "said"),
    [
        (1, "1 instancia listada por el gateway no se pudo leer"),
        (2, "2 instancias listadas por el gateway no se pudieron leer"),
    ],
)
def test_instances_table_and_count_in_spanish(gateway_2x, capsys, broken, said) -> None:
    for name in ("support", "sales-eu")[:broken]:
        gateway_2x.state.instances[name].profile_name = 12  # a row the client cannot read
    assert main(["--lang", "es", "instances", "--color", "never"]) == 0
    out, err = capsys.readouterr()
    header = out.splitlines()[0].split()
    assert header[:3] == ["NOMBRE", "ESTADO", "PROPIETARIO"]
    assert "NOMBRE DE PERFIL" in out.splitlines()[0] and "NAME" not in out
    assert said in err and "gateway-tui: aviso:" in err


def test_json_is_the_same_bytes_in_every_language(gateway_2x, capsys) -> None:
    outputs = []
    for language in ("en", "pt_BR", "es"):
        assert main(["--lang", language, "instances", "--json"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] == outputs[2]
    assert {"name", "status", "profile_name"} <= set(json.loads(outputs[0])[0])
    csvs = []
    for language in ("en", "es"):
        assert main(["--lang", language, "instances", "--csv"]) == 0
        csvs.append(capsys.readouterr().out)
    assert csvs[0] == csvs[1] and csvs[0].startswith("name,status,owner")


def test_campaign_progress_with_the_locales_numbers(language, capsys) -> None:
    language("es")
    printer = _Printer(as_json=False, clock=lambda: 100.0)
    progress = SimpleNamespace(done=1234, total=5000, sent=1200, failed=30, unknown=4)
    printer.progress(SimpleNamespace(**vars(progress), eta_seconds=None))
    assert capsys.readouterr().out == ("  1.234/5.000: enviados 1.200, fallidos 30, inciertos 4\n")
    language("pt_BR")
    printer = _Printer(as_json=False, clock=lambda: 100.0)
    printer.progress(SimpleNamespace(**vars(progress), eta_seconds=None))
    assert "1.234/5.000: enviadas 1.200" in capsys.readouterr().out


def test_the_kind_of_a_message_is_translated_and_keeps_its_colour(language, capsys) -> None:
    from gateway_tui.cli.output import set_color

    language("pt_BR")
    set_color("always")
    try:
        warn("sem gateway", "gateway-tui: error: ")
    finally:
        set_color("auto")
    assert capsys.readouterr().err == "gateway-tui: \x1b[1;31merro:\x1b[0m sem gateway\n"


def test_every_argparse_message_a_user_can_meet_is_in_the_catalogue() -> None:
    """On this Python, each message argparse marks for translation is either listed for our
    catalogue or one only a programmer building a parser meets."""
    from babel.messages.extract import extract_from_file

    marked = {
        message if isinstance(message, str) else message[0]
        for _line, message, _comments, _context in extract_from_file(
            "python", argparse.__file__, keywords={"_": None, "ngettext": (1, 2)}
        )
    }
    listed = set(argparse_words.ARGPARSE_MESSAGES) | {"expected %s argument"}
    assert marked - listed - set(argparse_words.PROGRAMMER_MESSAGES) == set()


def test_argparse_speaks_the_language_after_the_parser_is_built(language) -> None:
    from gateway_tui.cli.parser import build_parser

    language("pt_BR")
    assert argparse_words.expected_arguments(2) == "esperava 2 argumentos"
    assert "uso: gateway-tui" in build_parser().format_usage()
    language("en")
    assert build_parser().format_usage().startswith("usage: gateway-tui")


def test_the_pseudo_locale_keeps_argparses_placeholders(capsys) -> None:
    """qps accents every marked sentence but %(prog)s / %(default)s / %s (argparse fills them
    in after): help and errors are drawn, not a KeyError."""
    with pytest.raises(SystemExit):
        main(["--lang", "qps", "demo-server", "--help"])
    assert "(défáúlt: 8080)›" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--lang", "qps", "chats"])
    err = capsys.readouterr().err
    assert "gateway-tui chats: érrór:" in err and "réqúíréd: INSTANCE›" in err


class _Terminal:
    """A terminal's stdin that types ``answer``."""

    def __init__(self, answer: str) -> None:
        self.answer = answer

    def isatty(self) -> bool:
        return True

    def readline(self) -> str:
        return self.answer + "\n"


def test_a_question_asks_and_understands_the_language(language, monkeypatch, capsys) -> None:
    from gateway_tui.cli.commands import CommandError
    from gateway_tui.cli.prompt import confirm

    language("pt_BR")
    monkeypatch.setattr(sys, "stdin", _Terminal("sim"))
    confirm("Sair do grupo?", yes=False)  # "sim" is yes in Portuguese
    assert capsys.readouterr().err == "Sair do grupo? [s/N] "
    monkeypatch.setattr(sys, "stdin", _Terminal("n"))
    with pytest.raises(CommandError, match="não feito: não confirmado"):
        confirm("Sair do grupo?", yes=False)
    language("es")
    monkeypatch.setattr(sys, "stdin", _Terminal("sí"))
    confirm("¿Salir del grupo?", yes=False)


def test_a_tables_yes_and_no_are_words_of_the_language(language, capsys) -> None:
    from gateway_tui.cli.output import emit

    rows = [{"jid": "5511987650001@s.whatsapp.net", "archived": True, "sent_here": 1234}]
    language("es")
    emit(rows, ("jid", "archived", "sent_here"), as_json=False, as_csv=False)
    table = capsys.readouterr().out.splitlines()
    assert table[0].split() == ["JID", "ARCHIVADO", "ENVIADOS", "DESDE", "AQUÍ"]
    assert table[1].split()[:2] == ["5511987650001@s.whatsapp.net", "sí"]
    emit(rows, ("jid", "archived"), as_json=False, as_csv=True)  # CSV: for programs
    assert capsys.readouterr().out.splitlines() == [
        "jid,archived",
        "5511987650001@s.whatsapp.net,True",
    ]
    emit(rows, ("jid", "archived"), as_json=True, as_csv=False)
    assert json.loads(capsys.readouterr().out)[0]["archived"] is True
