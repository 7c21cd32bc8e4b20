from __future__ import annotations

from typing import Any

import pytest

from rules.model import RulesError
from rules.savage_worlds import SYSTEM
from rules.savage_worlds.samples import SAMPLES
from rules.savage_worlds.sheet import parse_sheet

BASE: dict[str, Any] = {
    "attributes": {"agilidad": 6, "astucia": 6, "espiritu": 6, "fuerza": 6, "vigor": 8},
    "skills": {"pelear": 8, "disparar": {"die": 6, "modifier": 1}},
}


def test_samples_validate_and_round_trip() -> None:
    for _, _, sheet in SAMPLES:
        clean = SYSTEM.validate_sheet(sheet)
        assert SYSTEM.validate_sheet(clean) == clean


def test_parry_is_two_plus_half_fighting_and_two_without() -> None:
    sheet = parse_sheet(BASE)
    assert sheet.parry == 6
    assert parse_sheet({**BASE, "skills": {}}).parry == 2


def test_toughness_two_plus_half_vigor_plus_armour_or_given() -> None:
    assert parse_sheet(BASE).toughness == 6
    assert parse_sheet({**BASE, "armor": 2}).toughness == 8
    assert parse_sheet({**BASE, "toughness": 11}).toughness == 11


def test_wild_cards_start_with_three_bennies_extras_none() -> None:
    assert SYSTEM.initial_state(SYSTEM.validate_sheet(BASE))["bennies"] == 3
    extra = SYSTEM.validate_sheet({**BASE, "wild_card": False})
    assert SYSTEM.initial_state(extra)["bennies"] == 0


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"attributes": {"agilidad": 5}}, "sheet.attributes.agilidad"),
        ({"attributes": {**BASE["attributes"], "suerte": 6}}, "sheet.attributes.suerte"),
        ({"skills": {"pelear": 3}}, "sheet.skills.pelear"),
        ({"skills": {"Pelear": 6}}, "sheet.skills.Pelear"),
        ({"wild_card": "yes"}, "sheet.wild_card"),
        ({"side": "aliens"}, "sheet.side"),
        ({"weapons": [{"id": "x", "kind": "laser", "damage": "2d6"}]}, "sheet.weapons.0.kind"),
        ({"weapons": [{"id": "x", "kind": "ranged", "damage": "lots"}]}, "sheet.weapons.0"),
        (
            {"weapons": [{"id": "x", "kind": "ranged", "damage": "2d6", "rof": 7}]},
            "sheet.weapons.0.rof",
        ),
        ({"weapons": [{"id": "unarmed", "kind": "melee"}]}, "sheet.weapons.0.id"),
        (
            {"weapons": [{"id": "x", "kind": "melee"}, {"id": "x", "kind": "melee"}]},
            "sheet.weapons",
        ),
        ({"edges": ["suerte"]}, "sheet.edges.0"),
        ({"colour": "red"}, "sheet"),
        ({"pace": 0}, "sheet.pace"),
    ],
)
def test_bad_sheets_are_refused_naming_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_sheet({**BASE, **change})
    assert error.value.code == "invalid_sheet"
    assert error.value.field == field


def test_missing_attribute_is_refused() -> None:
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_sheet({"attributes": {"agilidad": 6}})
    assert error.value.field == "sheet.attributes.astucia"
