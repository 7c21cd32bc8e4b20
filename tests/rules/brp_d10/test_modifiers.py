"""Every line of the melee and ranged modifier lists, cover, scope and laser."""

from __future__ import annotations

from brp_d10_helpers import make_actor

from rules.brp_d10.modifiers import effective_cover, melee, ranged, total
from rules.brp_d10.sheet import parse_sheet


def _weapon(**extra: object):
    sheet = {
        "characteristics": {"fuerza": 5, "agilidad": 5, "resistencia": 5, "tamano": 5},
        "skills": {"fusil": 5},
        "weapons": {
            "w": {
                "kind": "ranged",
                "skill": "fusil",
                "damage": "2d6",
                "automatic": True,
                "modes": ["single", "sustained"],
                **extra,
            }
        },
    }
    return parse_sheet(make_actor("a", sheet).sheet).weapons["w"]


def test_melee_list() -> None:
    expected = {
        "blind": 2,
        "off_hand": 4,
        "drawn": 2,
        "target_prone": -4,
        "mounted": 2,
        "mounted_vs_foot": -2,
        "ideal": -5,
    }
    for key, value in expected.items():
        assert total(melee({key: True})) == value
    assert total(melee({"location": "cabeza"})) == 1
    # 'Ir montado +2 ... Atacar montado/adversario a pie -2 (se compensa con la anterior)'
    assert total(melee({"mounted": True, "mounted_vs_foot": True})) == 0


def test_ranged_list() -> None:
    w = _weapon()

    def mods(**params: object) -> int:
        return total(ranged(params, w, 0, sustained=False, sustained_range="replace"))

    assert mods() == 0
    assert mods(range="short") == -3 and mods(range="long") == 3
    assert mods(location="cabeza") == 1
    assert mods(cover="partial") == 2 and mods(cover="total") == 4
    for key, value in (("off_hand", 4), ("target_moving", 2), ("shooter_moving", 2), ("drawn", 2)):
        assert mods(**{key: True}) == value
    assert total(ranged({}, w, 1, sustained=False, sustained_range="replace")) == -1
    assert total(ranged({}, w, 5, sustained=False, sustained_range="replace")) == -2
    assert mods(range="short", target_moving=True, shooter_moving=True, cover="partial") == 3


def test_cover_from_prone_and_height() -> None:
    assert effective_cover({"target_prone": True}) == "partial"
    assert effective_cover({"target_height": 1}) == "partial"
    assert effective_cover({"target_height": 2}) == "total"
    assert effective_cover({"target_prone": True, "cover": "partial"}) == "partial"


def test_scope_and_laser() -> None:
    scoped = _weapon(scope=True)

    def mods(weapon, sustained: bool = False, **params: object) -> int:
        return total(ranged(params, weapon, 0, sustained=sustained, sustained_range="add"))

    assert mods(scoped, range="medium") == -3  # medium reads as short
    assert mods(scoped, range="long") == 0  # the +3 is cancelled
    assert mods(scoped, range="long", scope=False) == 3
    assert mods(scoped, True, range="medium") == 0  # not in sustained fire
    assert mods(_weapon(scope=True, pistol=True), range="medium") == 0  # not on a pistol
    laser = _weapon(laser=True)
    assert mods(laser, range="medium") == -2 and mods(laser, range="short") == -5
    assert mods(laser, range="long") == 3  # only up to medium range
    assert mods(laser, True, range="medium") == 0  # not in sustained fire
