"""The one helper that styles data inside a translated sentence (it replaced four of a kind)."""

from __future__ import annotations

from rich.text import Text

from gateway_tui.tui.widgets.styled import stress, styled


def spans(text: Text) -> list[tuple[str, str]]:
    return [(text.plain[span.start : span.end], str(span.style)) for span in text.spans]


def test_each_value_in_its_own_style_the_words_in_the_sentences():
    text = styled("Delete {name}? It is {state}.", "dim", name=("x", "bold"), state="open")
    assert text.plain == "Delete x? It is open."
    # A value given alone takes the sentence's style and joins its neighbours' span.
    assert spans(text) == [("Delete ", "dim"), ("x", "bold"), ("? It is open.", "dim")]


def test_the_translation_decides_where_the_data_goes():
    english = styled("{n} rows of {group}", n="3", group=("Sales", "bold"))
    portuguese = styled("{group}: {n} linhas", n="3", group=("Sales", "bold"))
    assert spans(english)[-1] == ("Sales", "bold")
    assert spans(portuguese)[0] == ("Sales", "bold")


def test_the_lead_words_have_their_own_style():
    text = styled("Not ready: {problems}", lead_style="bold red", problems="no rows")
    assert spans(text) == [("Not ready: ", "bold red")]
    assert text.plain == "Not ready: no rows"
    alone = styled("Ready", lead_style="bold green")
    assert spans(alone) == [("Ready", "bold green")]


def test_a_text_value_is_kept_as_drawn():
    status = Text("open", style="green")
    text = styled("State: {status} · every {s} s", status=status, s="2")
    assert text.plain == "State: open · every 2 s"
    assert ("open", "green") in spans(text)


def test_data_is_never_markup_and_a_missing_value_stays_visible():
    text = styled("Delete {name}? {other}", name=("[b]x[/b]", "bold"))
    assert text.plain == "Delete [b]x[/b]? {other}"
    assert styled("{v!r}", v="a").plain == "'a'"


def test_stress_styles_a_heading_only_where_the_translation_has_it():
    text = stress(Text("Send to many from x"), "Send to many", "bold")
    assert spans(text) == [("Send to many", "bold")]
    assert spans(stress(Text("Enviar"), "Send to many", "bold")) == []
