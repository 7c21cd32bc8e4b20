"""World settings and the 'primera' preset (the text's first version)."""

from __future__ import annotations

import pytest

from rules.i18n import translate
from rules.model import RulesError
from rules.o3d10 import SYSTEM
from rules.o3d10.settings import PRESETS


def test_defaults_are_the_full_second_version() -> None:
    settings = SYSTEM.validate_settings({})
    assert settings["version"] == "completa"
    assert settings["health_model"] == "bands"
    assert settings["unarmed_damage"] == "completa"
    assert settings["range_table"] == "completa"
    assert settings["two_weapons"] == "bonus"


def test_primera_preset_fills_every_difference_and_explicit_settings_win() -> None:
    first = SYSTEM.validate_settings({"version": "primera"})
    for key, value in PRESETS["primera"].items():
        assert first[key] == value
    mixed = SYSTEM.validate_settings({"version": "primera", "unarmed_damage": "completa"})
    assert mixed["unarmed_damage"] == "completa" and mixed["range_table"] == "primera"


@pytest.mark.parametrize("raw", [{"version": "tercera"}, {"defense_base": 99}, {"colour": "red"}])
def test_bad_settings_are_refused(raw: dict[str, object]) -> None:
    with pytest.raises(RulesError) as refused:
        SYSTEM.validate_settings(raw)
    assert refused.value.code == "invalid_param"


def test_setting_labels_translate() -> None:
    for param in SYSTEM.settings:
        assert param.label is not None
        for locale in ("es", "en"):
            translate(param.label, locale, SYSTEM.messages, strict=True)
