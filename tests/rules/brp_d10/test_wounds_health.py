"""Wounds by location, shock, the death clocks, Medicine, rest and recovery, endurance."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from brp_d10_helpers import make_actor, make_world, run, sample_world, wounds

from rules.brp_d10 import SYSTEM
from rules.brp_d10.damage import damage_bonus, roll_hit
from rules.brp_d10.sheet import parse_sheet
from rules.brp_d10.tables import DAMAGE_BONUS_BY_FUERZA, HIT_LOCATION_D10, LOCATIONS
from rules.brp_d10.wounds import consequence, wound_level
from rules.dice import ScriptedDice
from rules.model import RulesError, TimeStep, World


def _code(call) -> str:
    with pytest.raises(RulesError) as error:
        call()
    return error.value.code


def _advance(world: World, unit: str, count: int) -> World:
    res = SYSTEM.advance_time(world, TimeStep(unit, count), ScriptedDice([]))
    assert res is not None
    return SYSTEM.apply(world, res)


def test_tables_cover_every_face() -> None:
    assert sorted(HIT_LOCATION_D10) == list(range(1, 11))
    assert set(HIT_LOCATION_D10.values()) == set(LOCATIONS)
    assert sorted(DAMAGE_BONUS_BY_FUERZA) == list(range(1, 11))
    assert damage_bonus(5) == 0 and damage_bonus(7) == 1


@pytest.mark.parametrize(
    ("damage", "levels"),
    [
        (0, (0, 0, 0)),
        (1, (1, 1, 1)),
        (3, (1, 2, 2)),
        (5, (2, 2, 2)),
        (6, (2, 3, 3)),
        (10, (3, 4, 4)),
        (15, (4, 4, 4)),
    ],
)
def test_wound_level_settings(damage: int, levels: tuple[int, int, int]) -> None:
    got = tuple(
        wound_level(damage, 5, {"wound_step": mode, "wound_step_fixed": 3})
        for mode in ("resistencia", "half_resistencia", "fixed")
    )
    assert got == levels


def test_consequences_by_location() -> None:
    assert consequence("cabeza", 3).dead and consequence("pecho", 3).dead
    assert consequence("abdomen", 3).clock == "abdomen"
    assert "incapacitated" in consequence("abdomen", 3).add
    assert {"prone", "impaired"} <= consequence("pierna_derecha", 3).add
    assert not consequence("brazo_izquierdo", 3).dead
    assert consequence("brazo_derecho", 4).clock == "amputation"
    assert "unconscious" in consequence("pierna_izquierda", 4).add
    assert consequence("abdomen", 4).dead


def test_critical_ignores_armour_and_rolls_no_damage_die() -> None:
    agent = parse_sheet(
        make_actor(
            "agente",
            {
                "characteristics": {"fuerza": 5, "agilidad": 5, "resistencia": 5, "tamano": 5},
                "armour": {"pecho": 3},
            },
        ).sheet
    )
    knight = parse_sheet(
        make_actor(
            "k",
            {
                "characteristics": {"fuerza": 7, "agilidad": 5, "resistencia": 5, "tamano": 5},
                "skills": {"espadas": 5},
                "weapons": {"espada": {"skill": "espadas", "damage": "1d8+1"}},
            },
        ).sheet
    )
    weapon = knight.weapons["espada"]
    hit = roll_hit(
        ScriptedDice([6]), weapon, 7, agent, 5, location=None, critical=True, settings={}
    )
    assert (hit.location, hit.rolled, hit.bonus, hit.damage, hit.level) == ("pecho", 9, 1, 10, 3)
    plain = roll_hit(
        ScriptedDice([8]), weapon, 7, agent, 5, location="pecho", critical=False, settings={}
    )
    assert (plain.rolled, plain.damage, plain.level) == (9, 7, 2)  # 8+1 +1 -3 armour


def test_abdomen_clock_and_medicine() -> None:
    world = sample_world()
    _, world = run(world, "wound", "frances", by_gm=True, location="abdomen", level=3)
    assert {"incapacitated", "bleeding", "prone"} <= world.actors["frances"].statuses
    assert (
        _code(lambda: run(world, "attack", "frances", [5], ("espanol",), weapon="espada"))
        == "cannot_act"
    )
    # 'Si no recibe una tirada de Medicina con éxito en un número de horas igual a su Resistencia'
    later = _advance(world, "hour", 4)
    assert "dead" not in later.actors["frances"].statuses
    _, saved = run(later, "treat", "agente", [3], ("frances",), purpose="bleeding")
    assert "bleeding" not in saved.actors["frances"].statuses
    assert "dead" not in _advance(saved, "hour", 2).actors["frances"].statuses
    dead = _advance(later, "hour", 1)
    assert "dead" in dead.actors["frances"].statuses
    assert _code(lambda: run(dead, "treat", "agente", [3], ("frances",))) == "patient_dead"


def test_severed_limb_bleeds_out_in_rounds() -> None:
    world = sample_world()
    _, world = run(world, "wound", "guardaespaldas", by_gm=True, location="brazo_derecho", level=4)
    assert {"unconscious", "bleeding"} <= world.actors["guardaespaldas"].statuses
    assert (
        _code(lambda: run(world, "check", "guardaespaldas", [5], characteristic="fuerza"))
        == "cannot_act"
    )
    after = _advance(world, "round", 4)
    assert "dead" not in after.actors["guardaespaldas"].statuses
    _, failed = run(after, "treat", "agente", [9], ("guardaespaldas",))
    assert "bleeding" in failed.actors["guardaespaldas"].statuses
    assert "dead" in _advance(failed, "round", 1).actors["guardaespaldas"].statuses


def test_hypovolemic_shock() -> None:
    # 'si la dificultad acumulada de todas las heridas ... supera ... su Resistencia'
    world = sample_world()
    for location, level in (("pierna_derecha", 2), ("brazo_izquierdo", 2), ("pierna_izquierda", 1)):
        _, world = run(world, "wound", "espanol", by_gm=True, location=location, level=level)
    assert "unconscious" not in world.actors["espanol"].statuses  # 5, not over 5
    res, world = run(world, "wound", "espanol", by_gm=True, location="brazo_derecho", level=1)
    assert {"unconscious", "bleeding"} <= world.actors["espanol"].statuses
    assert any(line.label.key == "wound.effect.shock" for line in res.cards[0].sections[0].lines)
    assert [t["kind"] for t in world.actors["espanol"].state["timers"]] == ["shock"]
    assert "dead" in _advance(world, "minute", 5).actors["espanol"].statuses


def test_light_wound_endured_and_healed() -> None:
    world = sample_world()
    _, world = run(world, "wound", "agente", by_gm=True, location="pecho", level=1)
    res, world = run(world, "check", "agente", [5], skill="fusiles_automaticos")
    assert res.cards[0].outcome.success is False  # 5 + 1 > 5
    _, world = run(world, "endure", "agente", [6], wound=1)
    res, world = run(world, "check", "agente", [5], skill="fusiles_automaticos")
    assert res.cards[0].outcome.success is True
    assert _code(lambda: run(world, "endure", "agente", [6], wound=1)) == "already_endured"
    assert _code(lambda: run(world, "endure", "agente", [6], wound=7)) == "no_light_wound"
    _, ended = run(world, "end_combat", "agente", by_gm=True)
    assert ended.actors["agente"].state["wounds"][0]["ignored"] is False
    healed = _advance(world, "minute", 10)
    assert wounds(healed, "agente") == []
    assert "wounded" not in healed.actors["agente"].statuses


def test_serious_wound_recovery_with_and_without_medicine() -> None:
    world = sample_world()
    _, world = run(world, "wound", "frances", by_gm=True, location="pecho", level=2)
    _, world = run(world, "wound", "espanol", by_gm=True, location="pecho", level=2)
    _, world = run(world, "treat", "agente", [2], ("espanol",), purpose="wound", wound=1)
    assert (
        _code(lambda: run(world, "treat", "agente", [2], ("espanol",), purpose="wound", wound=1))
        == "already_treated"
    )
    _, tried = run(world, "treat", "agente", [9], ("frances",), purpose="wound", wound=1)
    assert (
        _code(lambda: run(tried, "treat", "agente", [2], ("frances",), purpose="wound", wound=1))
        == "already_treated_today"
    )
    week = _advance(tried, "day", 7)
    assert SYSTEM.token_numbers(week.actors["espanol"])["penalty"] == 0  # +2 only the first week
    assert SYSTEM.token_numbers(week.actors["frances"])["penalty"] == 2
    two = _advance(week, "day", 7)
    assert wounds(two, "espanol") == []
    assert SYSTEM.token_numbers(two.actors["frances"])["penalty"] == 0
    _, reopened = run(two, "interrupt_rest", "frances", by_gm=True)
    assert wounds(_advance(reopened, "day", 20), "frances") == [("pecho", 2)]
    assert wounds(_advance(two, "day", 7), "frances") == []


def test_incapacitated_heals_badly_without_medicine() -> None:
    world = sample_world()
    _, world = run(
        world, "wound", "frances", by_gm=True, location="brazo_derecho", level=3, injury="bone"
    )
    _, world = run(
        world, "wound", "espanol", by_gm=True, location="brazo_derecho", level=3, injury="organ"
    )
    assert (
        _code(lambda: run(world, "treat", "agente", [9], ("frances",), purpose="wound", wound=9))
        == "wound_not_treatable"
    )
    healed = _advance(world, "day", 60)
    assert healed.actors["frances"].state["losses"] == {"agilidad": 1}
    assert healed.actors["espanol"].state["losses"] == {"resistencia": 1}
    by_location = _advance(
        replace(world, settings={**world.settings, "injury_by": "location"}),
        "day",
        60,
    )
    assert by_location.actors["espanol"].state["losses"] == {"agilidad": 1}


def test_escalating_wounds_setting() -> None:
    world = sample_world({"wound_stacking": "escalate"})
    _, world = run(world, "wound", "espanol", by_gm=True, location="cabeza", level=2)
    _, world = run(world, "wound", "espanol", by_gm=True, location="cabeza", level=1)
    assert wounds(world, "espanol") == [("cabeza", 3)]
    assert "dead" in world.actors["espanol"].statuses


def test_gm_levers_and_refusals() -> None:
    world = sample_world()
    _, world = run(world, "wound", "frances", by_gm=True, location="pecho", level=1)
    assert (
        _code(lambda: run(world, "wound_remove", "frances", by_gm=True, wound=5)) == "no_such_wound"
    )
    _, world = run(world, "wound_remove", "frances", by_gm=True, wound=1)
    assert "wounded" not in world.actors["frances"].statuses
    assert _code(lambda: run(world, "treat", "frances", [1], ("espanol",))) == "skill_unusable"
    assert (
        _code(lambda: run(world, "treat", "guardaespaldas", [1], ("espanol",)))
        == "no_medicine_skill"
    )
    assert _code(lambda: run(world, "treat", "agente", [1], ("espanol",))) == "nothing_to_treat"


def test_dodge() -> None:
    world = sample_world()
    res, world = run(world, "attack", "espanol", [5], ("frances",), weapon="espada")
    from brp_d10_helpers import follow

    dodged, _ = follow(world, res, "dodge", [3])
    assert dodged.cards[0].outcome.success is True  # 3 <= 3 (level 0)
    failed, _ = follow(world, res, "dodge", [4])
    assert [b.id for b in failed.cards[0].actions] == ["damage"]
    nobody: dict[str, Any] = {
        "characteristics": {"fuerza": 5, "agilidad": 5, "resistencia": 5, "tamano": 5}
    }
    w2 = make_world(make_actor("x", nobody), *sample_world().actors.values())
    assert _code(lambda: run(w2, "dodge", "x", [3], ("espanol",))) == "no_dodge_skill"
