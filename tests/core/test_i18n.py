"""The language: how a run chooses it, and what it changes (core/text/i18n.py)."""

from __future__ import annotations

from datetime import datetime

import pytest

from gateway_tui.core.files import storage
from gateway_tui.core.files.config import load_config
from gateway_tui.core.files.language import option_language, start_language
from gateway_tui.core.text import i18n
from gateway_tui.core.text.i18n import (
    PSEUDO_CLOSE,
    PSEUDO_OPEN,
    _,
    choose_language,
    current_language,
    ngettext,
    normalize,
    number,
)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("pt_BR.UTF-8", "pt_BR"),
        ("pt-br", "pt_BR"),
        ("pt", "pt_BR"),
        ("pt_PT.UTF-8", "pt_BR"),
        ("es_ES.UTF-8", "es"),
        ("es_MX", "es"),
        ("es", "es"),
        ("en_GB.UTF-8", "en"),
        ("C.UTF-8", "en"),
        ("POSIX", "en"),
        ("qps", "qps"),
        ("fr_FR.UTF-8", None),
        ("", None),
        (None, None),
    ],
)
def test_a_code_names_one_of_our_languages_or_none(code, expected):
    assert normalize(code) == expected


def test_the_option_wins_then_the_config_then_the_environment_then_english():
    env = {"LANG": "es_ES.UTF-8"}
    assert choose_language("pt_BR", "es", env) == "pt_BR"
    assert choose_language(None, "pt_BR", env) == "pt_BR"
    assert choose_language(None, None, env) == "es"
    assert choose_language(None, None, {}) == "en"
    # An option or a setting naming no language we ship is passed over.
    assert choose_language("fr", "klingon", env) == "es"


def test_the_environment_is_read_as_the_c_library_reads_it():
    assert choose_language(None, None, {"LC_ALL": "pt_BR.UTF-8", "LANG": "es_ES"}) == "pt_BR"
    assert choose_language(None, None, {"LC_MESSAGES": "es_ES", "LANG": "pt_BR"}) == "es"
    # The first one set decides, even when it names a language we lack: the user asked for it.
    assert choose_language(None, None, {"LC_ALL": "de_DE.UTF-8", "LANG": "pt_BR"}) == "en"


def test_lang_is_found_before_argparse_reads_the_arguments():
    assert option_language(["--lang", "es", "instances"]) == "es"
    assert option_language(["instances", "--lang=pt_BR"]) == "pt_BR"
    assert option_language(["send-text", "--", "--lang", "es"]) is None
    assert option_language(["--lang"]) is None


def test_the_config_file_language_is_used_and_lang_beats_it():
    path = storage.config_dir() / storage.CONFIG_FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('language = "es"\n', encoding="utf-8")
    assert start_language([], environ={"LANG": "pt_BR.UTF-8"}) == "es"
    assert start_language(["--lang", "pt_BR"], environ={}) == "pt_BR"


def test_an_unknown_language_in_the_config_is_said_and_left_out():
    path = storage.config_dir() / storage.CONFIG_FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('language = "klingon"\n', encoding="utf-8")
    config = load_config(environ={})
    assert any("klingon" in warning for warning in config.warnings), config.warnings
    assert start_language([], environ={"LANG": "es_ES.UTF-8"}) == "es"


@pytest.mark.parametrize("code", ["pt_BR", "es"])
def test_each_shipped_language_has_its_catalogue(language, code):
    assert language(code) == code
    assert current_language() == code


def test_numbers_are_written_the_locale_way(language):
    assert number(1234567) == "1,234,567"
    language("pt_BR")
    assert number(1234567) == "1.234.567"
    language("es")
    assert number(1234567) == "1.234.567"


def test_dates_are_written_the_locale_way(language):
    moment = datetime(2026, 11, 27, 9, 5, 7)
    assert i18n.date_time(moment) == "2026-11-27 09:05"
    language("pt_BR")
    assert i18n.date_time(moment, seconds=True) == "27/11/2026 09:05:07"


def test_the_pseudo_locale_marks_every_sentence_and_keeps_its_placeholders(language):
    language("qps")
    said = _("Sent {count} of {total}").format(count=3, total=5)
    assert said.startswith(PSEUDO_OPEN) and said.endswith(PSEUDO_CLOSE)
    assert "3" in said and "5" in said
    plural = ngettext("{n} chat", "{n} chats", 2).format(n=2)
    assert plural.startswith(PSEUDO_OPEN) and "2" in plural


def test_a_config_problem_reads_in_the_language(language):
    path = storage.config_dir() / storage.CONFIG_FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("refresh_interval = 'often'\nnot_a_setting = 1\n", encoding="utf-8")
    language("pt_BR")
    problems = load_config(environ={}).problems
    assert any("esperava um número" in p and "ignorado" in p for p in problems), problems
    assert any("configuração desconhecida" in p for p in problems), problems
    language("es")
    problems = load_config(environ={}).problems
    assert any("ajuste desconocido; se ignora" in p for p in problems), problems


def test_a_url_is_refused_in_the_language(language):
    from gateway_tui.core.text.urls import insecure_url_warning, validate_gateway_url

    language("es")
    with pytest.raises(ValueError, match="La URL debe empezar por http:// o https://"):
        validate_gateway_url("ftp://gw.example.com")
    assert "viaja en claro" in insecure_url_warning("http://gw.example.com")


def test_a_file_too_big_to_send_says_its_size_the_locale_way(language, tmp_path):
    from gateway_tui.core.files.media_files import MediaFileProblem, read_for_upload

    big = tmp_path / "photo.jpg"
    with big.open("wb") as file:
        file.truncate(17 * 2**20 + 2**19)
    language("pt_BR")
    with pytest.raises(MediaFileProblem, match=r"tem 17,5 MB: o WhatsApp aceita no máximo 16 MB"):
        read_for_upload(str(big))


def test_config_show_says_sources_in_the_language_and_keeps_them_english_for_scripts(language):
    from gateway_tui.core.files.config_check import show

    language("pt_BR")
    rows, _problems = show(environ={})
    profile = next(row for row in rows if row.name == "refresh_interval")
    assert (profile.source, profile.said) == ("default", "padrão")


def test_a_gateway_error_reads_in_the_language_and_keeps_the_gateway_words(language):
    from gateway_tui.core.api.errors import error_for_response

    body = {"status": 401, "error": "Unauthorized", "response": {"message": "Unauthorized"}}
    language("pt_BR")
    error = error_for_response(401, body, method="GET", path="/instance/fetchInstances")
    assert error.title == "A chave da API não foi aceita — confira sua chave da API"
    assert error.messages == ["Unauthorized"]  # what the gateway said stays as it said it
    closed = {"response": {"message": ["Connection Closed"]}}
    language("es")
    error = error_for_response(400, closed, method="POST", path="/message/sendText/x")
    assert error.hint == "Probablemente la instancia no está conectada (su estado no es open)."


def test_a_read_that_timed_out_says_it_is_safe_to_retry_in_the_language(language):
    import httpx

    from gateway_tui.core.api.transport import _transport_error

    language("pt_BR")
    error = _transport_error(httpx.ReadTimeout("slow"), "GET", "/x", is_write=False)
    assert "nada foi alterado, pode tentar de novo" in error.title
    error = _transport_error(httpx.ReadTimeout("slow"), "POST", "/x", is_write=True)
    assert "resultado desconhecido" in error.title


def test_what_needs_24_is_one_sentence_per_feature(language):
    from gateway_tui.core.api.capabilities import unsupported

    language("es")
    said = unsupported("carousel", "2.3.7")
    assert said == "Hace falta Evolution API 2.4 o posterior para carruseles: este gateway es 2.3.7"


def test_a_number_is_said_invalid_in_the_language_and_the_cache_keeps_languages_apart(language):
    from gateway_tui.core.text.formatting import format_number

    assert format_number("341785919681") == "+34 1785919681 (invalid)"
    language("es")
    assert format_number("341785919681") == "+34 1785919681 (no válido)"
    language("en")
    assert format_number("341785919681") == "+34 1785919681 (invalid)"


def test_placeholders_left_unfilled_are_counted_by_the_language_plural(language):
    from gateway_tui.core.text.placeholders import unfilled_problem

    language("pt_BR")
    assert unfilled_problem(["{nome}"]).startswith("{nome} é um marcador")
    assert unfilled_problem(["{a} {b}"]).startswith("{a}, {b} são marcadores")


def test_serve_hands_lang_to_each_tab_s_app(monkeypatch):
    """`gateway-tui --lang es serve`: the app textual-serve starts per tab speaks Spanish."""
    import textual_serve.server

    from gateway_tui.main import main

    started = []

    class Recorder:
        def __init__(self, command, **options):
            started.append(command)

        def serve(self):
            return None

    monkeypatch.setattr(textual_serve.server, "Server", Recorder)
    assert main(["--lang", "es", "serve", "--port", "8999"]) == 0
    assert started and "--lang es" in started[0]
