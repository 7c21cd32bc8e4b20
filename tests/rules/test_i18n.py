import pytest

from rules.i18n import MissingMessage, translate
from rules.model import t

CATALOGUE = {
    "es": {"card.hit": "{actor} impacta a {target}", "w": "herida", "x": "{a} y {b}"},
    "en": {"card.hit": "{actor} hits {target}", "w": "wound"},
}


def test_system_catalogue_then_common() -> None:
    assert translate(t("card.hit", actor="Ana", target="Beto"), "es", CATALOGUE) == (
        "Ana impacta a Beto"
    )
    assert translate(t("status.stunned"), "en", CATALOGUE) == "Stunned"
    assert translate(t("status.bleeding"), "es", CATALOGUE) == "Desangrándose"


def test_nested_texts_and_lists() -> None:
    text = t("x", a=t("w"), b=(t("w"), t("status.dead")))
    assert translate(text, "es", CATALOGUE) == "herida y herida, Muerto"


def test_parameters_are_escaped_but_templates_are_not() -> None:
    import html

    text = t("card.hit", actor="<script>alert(1)</script>", target="{target}")
    shown = translate(text, "es", CATALOGUE, escape=html.escape)
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert shown.endswith("{target}")


def test_strict_mode_finds_missing_keys_and_params() -> None:
    with pytest.raises(MissingMessage):
        translate(t("nope"), "es", CATALOGUE, strict=True)
    with pytest.raises(MissingMessage):
        translate(t("card.hit", actor="Ana"), "es", CATALOGUE, strict=True)
    assert translate(t("nope"), "es", CATALOGUE) == "nope"
