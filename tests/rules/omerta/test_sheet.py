"""Sheets: good ones normalize, bad ones are refused naming the field."""

from __future__ import annotations

from typing import Any

import pytest

from rules.model import RulesError
from rules.omerta import SYSTEM
from rules.omerta.samples import SAMPLE_SHEETS
from rules.omerta.sheet import parse_sheet

GOOD: dict[str, Any] = {
    "hp": 12,
    "characteristics": {"fue": 10, "con": 10, "des": 12, "agi": 11},
    "skills": {"arma_corta": 50, "pelea": {"label": "Pelea", "value": 40}},
    "weapons": {
        "colt": {
            "kind": "firearm",
            "type": "pistol",
            "skill": "arma_corta",
            "damage": "1d10+2",
            "capacity": 7,
        },
        "punos": {"kind": "natural", "skill": "pelea", "damage": "1d3"},
    },
}


def test_good_sheet_normalizes() -> None:
    sheet = SYSTEM.validate_sheet(GOOD)
    assert sheet["skills"]["arma_corta"] == {"label": "arma_corta", "value": 50}
    assert sheet["weapons"]["punos"]["damage_type"] == "contusion"
    assert sheet["weapons"]["colt"]["shots"] == 1
    assert parse_sheet(sheet).hit_cap == 11
    assert SYSTEM.validate_sheet(sheet) == sheet


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"hp": 0}, "sheet.hp"),
        ({"characteristics": {"fue": 10, "con": 10, "des": 12}}, "sheet.characteristics.agi"),
        ({"skills": {"Arma": 10}}, "sheet.skills.Arma"),
        ({"skills": {"pelea": 300}}, "sheet.skills.pelea"),
        ({"weapons": {"x": {"kind": "laser", "skill": "pelea"}}}, "sheet.weapons.x.kind"),
        (
            {"weapons": {"x": {"kind": "melee", "skill": "arma_corta", "damage": "1d4"}}},
            "sheet.weapons.x.skill",
        ),
        (
            {"weapons": {"x": {"kind": "melee", "skill": "pelea", "damage": "mucho"}}},
            "sheet.weapons.x.damage",
        ),
        (
            {
                "weapons": {
                    "x": {
                        "kind": "firearm",
                        "type": "pistol",
                        "skill": "arma_corta",
                        "damage": "1d6",
                    }
                }
            },
            "sheet.weapons.x.capacity",
        ),
        (
            {"weapons": {"x": {"kind": "firearm", "type": "laser", "skill": "arma_corta"}}},
            "sheet.weapons.x.type",
        ),
        ({"pc": "yes"}, "sheet.pc"),
    ],
)
def test_bad_sheets(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_sheet({**GOOD, **change})
    assert error.value.code == "invalid_sheet"
    assert error.value.field == field


def test_shotguns_need_no_damage_expression() -> None:
    raw = {
        **GOOD,
        "skills": {"escopeta": 40},
        "weapons": {"l": {"kind": "firearm", "type": "lupara", "skill": "escopeta", "capacity": 2}},
    }
    assert "damage" not in SYSTEM.validate_sheet(raw)["weapons"]["l"]


def test_samples_validate() -> None:
    for _, _, raw in SAMPLE_SHEETS:
        SYSTEM.validate_sheet(raw)
    assert len(SYSTEM.sample_actors()) == 4
