"""validate_sheet on good and bad sheets."""

from __future__ import annotations

from typing import Any

import pytest

from rules.model import RulesError
from rules.o3d10 import SYSTEM
from rules.o3d10.samples import SAMPLES

GOOD: dict[str, Any] = {
    "attributes": {"fisico": 6, "destreza": 5},
    "skills": {"cuerpo_a_cuerpo": {"value": 2, "attribute": "fisico"}},
    "weapons": {
        "mosquete": {
            "label": "Mosquete",
            "tipo": "fuego",
            "dano": "2d8",
            "clase": "mosquete",
            "capacidad": 1,
        }
    },
    "armour": {"tipo": "ligera", "defensa": 1, "estorbo": 1},
    "estorbo": 2,
    "combat": {"pv": 30},
}


def test_good_sheet_normalizes_and_is_stable() -> None:
    sheet = SYSTEM.validate_sheet(GOOD)
    assert sheet["skills"]["cuerpo_a_cuerpo"]["label"] == "cuerpo_a_cuerpo"
    assert sheet["weapons"]["mosquete"]["dano"] == "2d8"
    assert SYSTEM.validate_sheet(sheet) == sheet
    assert SYSTEM.initial_state(sheet) == {
        "heridas": 0,
        "token": "player",
        "ammo": {"mosquete": 1},
        "jammed": [],
    }


@pytest.mark.parametrize("actor_id", [actor_id for actor_id, _, _ in SAMPLES])
def test_samples_validate(actor_id: str) -> None:
    raw = next(sheet for key, _, sheet in SAMPLES if key == actor_id)
    assert SYSTEM.validate_sheet(raw)["attributes"] == raw["attributes"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"attributes": {}}, "sheet.attributes"),
        ({"attributes": {"fisico": 51}}, "sheet.attributes.fisico"),
        ({"attributes": {"fisico": True}}, "sheet.attributes.fisico"),
        ({"attributes": {"Físico": 5}}, "sheet.attributes.Físico"),
        ({"skills": {"x": {"value": 1, "attribute": "carisma"}}}, "sheet.skills.x"),
        ({"skills": {"x": 3}}, "sheet.skills.x"),
        ({"skills": {"x": {"value": 1, "attribute": "fisico", "conjuro": "si"}}}, "sheet.skills.x"),
        ({"weapons": {"w": {"dano": "muchos"}}}, "sheet.weapons.w.dano"),
        ({"weapons": {"w": {"dano": "40d6"}}}, "sheet.weapons.w.dano"),
        ({"weapons": {"w": {"dano": "1d6", "tipo": "laser"}}}, "sheet.weapons.w.tipo"),
        ({"weapons": {"w": {"dano": "1d6", "fiabilidad": 25}}}, "sheet.weapons.w.fiabilidad"),
        ({"weapons": {"w": {"dano": "1d6", "ligera": 1}}}, "sheet.weapons.w.ligera"),
        ({"weapons": {"w": {"dano": "1d6", "label": ""}}}, "sheet.weapons.w.label"),
        ({"weapons": {"w": "espada"}}, "sheet.weapons.w"),
        ({"armour": {"tipo": "mithril"}}, "sheet.armour.tipo"),
        ({"armour": []}, "sheet.armour"),
        ({"estorbo": 21}, "sheet.estorbo"),
        ({"combat": {"ataque": 3}}, "sheet.combat.ataque"),
        ({"hechizos": []}, "sheet.hechizos"),
    ],
)
def test_bad_sheets_name_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesError) as refused:
        SYSTEM.validate_sheet({**GOOD, **change})
    assert refused.value.code == "invalid_sheet"
    assert refused.value.field == field


def test_a_sheet_must_be_an_object() -> None:
    with pytest.raises(RulesError) as refused:
        SYSTEM.validate_sheet([])  # type: ignore[arg-type]
    assert refused.value.code == "invalid_sheet"
