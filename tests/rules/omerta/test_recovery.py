"""Recovery: the seed's Jimmy Brincos example, First Aid, bleeding, extraction, medical care,
the CON rolls of an unextracted bullet and natural recovery."""

from __future__ import annotations

from typing import Any

import pytest

from rules.model import RulesError, World
from rules.omerta.state import unextracted
from rules.omerta.timeflow import bullet_check_hours


def jimmy_shot(kit: Any) -> World:
    # Two bullet wounds (5 and 8) and a kick in the mouth (3 contusion): 16 HP lost of 18.
    world = kit.make_world()
    _, world = kit.run(
        world, "gm_damage", "tony", {"amount": 5, "bullet": True}, ("jimmy",), by_gm=True
    )
    _, world = kit.run(
        world, "gm_damage", "tony", {"amount": 8, "bullet": True}, ("jimmy",), by_gm=True
    )
    _, world = kit.run(
        world, "gm_damage", "tony", {"amount": 3, "kind": "contusion"}, ("jimmy",), by_gm=True
    )
    return world


def test_jimmy_brincos_worked_example(kit: Any) -> None:
    world = jimmy_shot(kit)
    jimmy = world.actors["jimmy"]
    assert jimmy.state["hp"] == 2 and "unconscious" not in jimmy.statuses
    assert len(unextracted(jimmy)) == 2
    # Dr. Sanderson, Medicina 80 %, rolls 12: the first bullet comes out.
    first, world = kit.run(world, "extract_bullet", "sanderson", {}, ("jimmy",), kit.pct(12))
    assert first.cards[0].outcome.key == "success"
    assert len(unextracted(world.actors["jimmy"])) == 1
    # 86: the second resists and Brincos loses 1 hit point.
    second, world = kit.run(world, "extract_bullet", "sanderson", {}, ("jimmy",), kit.pct(86))
    assert second.cards[0].outcome.key == "failure"
    assert world.actors["jimmy"].state["hp"] == 1
    assert second.cards[0].actions[0].action == "extract_bullet"
    # 47: the second bullet is out.
    third, world = kit.run(world, "extract_bullet", "sanderson", {}, ("jimmy",), kit.pct(47))
    assert unextracted(world.actors["jimmy"]) == []
    assert third.cards[0].actions[0].action == "first_aid"
    # Up to two First Aid rolls, one per bullet wound (rolls 20 and 30, 1D4 3 and 2).
    bullets = [w["id"] for w in world.actors["jimmy"].state["wounds"] if w["kind"] == "bullet"]
    assert len(bullets) == 2
    _, world = kit.run(
        world, "first_aid", "sanderson", {"wound": bullets[0]}, ("jimmy",), [*kit.pct(20), 3]
    )
    _, world = kit.run(
        world, "first_aid", "sanderson", {"wound": bullets[1]}, ("jimmy",), [*kit.pct(30), 2]
    )
    assert world.actors["jimmy"].state["hp"] == 6
    with pytest.raises(RulesError) as error:
        kit.run(world, "first_aid", "jimmy", {"wound": bullets[0]}, ("jimmy",), kit.pct(20))
    assert error.value.code == "wound_treated_today"
    # Next day the wound may be treated again.
    later = kit.advance(world, "day", 1)
    _, healed = kit.run(
        later, "first_aid", "sanderson", {"wound": bullets[0]}, ("jimmy",), [*kit.pct(20), 1]
    )
    assert healed.actors["jimmy"].state["hp"] == later.actors["jimmy"].state["hp"] + 1


def test_first_aid_refuses_a_bullet_still_inside(kit: Any) -> None:
    world = jimmy_shot(kit)
    bullet = world.actors["jimmy"].state["wounds"][0]["id"]
    with pytest.raises(RulesError) as error:
        kit.run(world, "first_aid", "sanderson", {"wound": bullet}, ("jimmy",), kit.pct(20))
    assert error.value.code == "bullet_not_extracted"
    with pytest.raises(RulesError) as unknown:
        kit.run(world, "first_aid", "sanderson", {"wound": 99}, ("jimmy",), kit.pct(20))
    assert unknown.value.code == "unknown_wound"
    with pytest.raises(RulesError) as none:
        kit.run(kit.make_world(), "first_aid", "sanderson", {}, ("jimmy",), kit.pct(20))
    assert none.value.code == "no_wound_to_treat"


def test_first_aid_critical_fumble_and_once_per_healer(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "gm_damage", "tony", {"amount": 6}, ("frank",), by_gm=True)
    _, after = kit.run(world, "first_aid", "sanderson", {}, ("frank",), kit.pct(1))
    assert after.actors["frank"].state["hp"] == 13  # 9 + 4 on a critical
    res, after = kit.run(world, "first_aid", "sanderson", {}, ("frank",), [*kit.pct(100), 3])
    assert res.cards[0].outcome.key == "fumble"
    assert after.actors["frank"].state["hp"] == 6
    _, after = kit.run(world, "first_aid", "sanderson", {}, ("frank",), kit.pct(75))
    assert after.actors["frank"].state["hp"] == 9
    with pytest.raises(RulesError) as error:
        kit.run(after, "first_aid", "sanderson", {}, ("frank",), kit.pct(10))
    assert error.value.code == "already_tried_today"
    # Another person may still try the same wound that day (Jimmy, 35 %: 10 succeeds).
    _, again = kit.run(after, "first_aid", "jimmy", {}, ("frank",), [*kit.pct(10), 4])
    assert again.actors["frank"].state["hp"] == 13


def test_lethal_zero_bleeds_and_first_aid_saves_with_late_penalty(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "gm_damage", "tony", {"amount": 20}, ("frank",), by_gm=True)
    assert {"unconscious", "bleeding"} <= world.actors["frank"].statuses
    # Seven rounds later: -10 % per round after the fifth -> -30 %.
    late = kit.advance(world, "round", 7)
    res, saved = kit.run(late, "first_aid", "sanderson", {}, ("frank",), [*kit.pct(35), 2])
    values = [line.value for section in res.cards[0].sections for line in section.lines]
    assert "-30" in values
    assert saved.actors["frank"].state["hp"] == 2
    assert not ({"unconscious", "bleeding"} & saved.actors["frank"].statuses)
    # Within five rounds there is no penalty: 69 fails at 70-30=40 but not at 70.
    early = kit.advance(world, "round", 4)
    res, _ = kit.run(early, "first_aid", "sanderson", {}, ("frank",), [*kit.pct(69), 1])
    assert res.cards[0].outcome.key == "success"


def test_attack_on_the_unconscious_kills(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "gm_damage", "tony", {"amount": 20}, ("frank",), by_gm=True)
    _, world = kit.run(
        world, "gm_damage", "tony", {"amount": 1, "attack": True}, ("frank",), by_gm=True
    )
    assert "dead" in world.actors["frank"].statuses


def test_contusion_knocks_out_a_minute_per_point_below_zero(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(
        world, "gm_damage", "tony", {"amount": 18, "kind": "contusion"}, ("frank",), by_gm=True
    )
    frank = world.actors["frank"]
    assert "unconscious" in frank.statuses and "bleeding" not in frank.statuses
    assert frank.state["unconscious_until"] == 3 * 60
    assert "unconscious" in kit.advance(world, "minute", 2).actors["frank"].statuses
    assert "unconscious" not in kit.advance(world, "minute", 3).actors["frank"].statuses
    _, minimum = kit.run(
        kit.make_world(),
        "gm_damage",
        "tony",
        {"amount": 15, "kind": "contusion"},
        ("frank",),
        by_gm=True,
    )
    assert minimum.actors["frank"].state["unconscious_until"] == 60


def test_bleeding_out_kills_after_the_setting_rounds(kit: Any) -> None:
    world = kit.make_world(settings={"bleed_out_rounds": 10})
    _, world = kit.run(world, "gm_damage", "tony", {"amount": 20}, ("frank",), by_gm=True)
    world = kit.advance(world, "round", 9)
    assert "dead" not in world.actors["frank"].statuses
    world = kit.advance(world, "round", 1)
    assert "dead" in world.actors["frank"].statuses


def test_extraction_fumble_loses_1d4_and_refuses_without_bullets(kit: Any) -> None:
    world = jimmy_shot(kit)
    res, after = kit.run(
        world,
        "extract_bullet",
        "sanderson",
        {"no_anaesthesia": True},
        ("jimmy",),
        [*kit.pct(100), 2],
    )
    assert res.cards[0].outcome.key == "fumble"
    assert after.actors["jimmy"].state["hp"] == 0
    assert "bleeding" in after.actors["jimmy"].statuses
    with pytest.raises(RulesError) as error:
        kit.run(kit.make_world(), "extract_bullet", "sanderson", {}, ("jimmy",), kit.pct(10))
    assert error.value.code == "no_bullet"


def test_unextracted_bullet_con_checks_at_2_4_6_then_hourly(kit: Any) -> None:
    hours = bullet_check_hours()
    assert [next(hours) for _ in range(6)] == [2, 4, 6, 7, 8, 9]
    world = jimmy_shot(kit)
    # Jimmy CON 13 -> 65 %, -10 for the second bullet = 55 %. Hours 2 and 4 pass, 6 fails.
    after = kit.advance(world, "hour", 6, [*kit.pct(30), *kit.pct(50), *kit.pct(90)])
    assert "dead" in after.actors["jimmy"].statuses
    survived = kit.advance(world, "hour", 5, [*kit.pct(30), *kit.pct(50)])
    assert "dead" not in survived.actors["jimmy"].statuses


def test_natural_recovery_rest_contusion_and_lethal_by_con(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(
        world, "gm_damage", "tony", {"amount": 4, "kind": "contusion"}, ("frank",), by_gm=True
    )
    _, world = kit.run(world, "gm_damage", "tony", {"amount": 3}, ("frank",), by_gm=True)
    after = kit.advance(world, "day", 1)
    # All contusion back, CON 14 -> 1 lethal point: 15 - 7 + 4 + 1.
    assert after.actors["frank"].state["hp"] == 13


def test_natural_recovery_without_rest_and_with_medicine(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "gm_damage", "tony", {"amount": 5}, ("frank",), by_gm=True)
    _, world = kit.run(
        world, "gm_condition", "tony", {"change": "not_resting"}, ("frank",), by_gm=True
    )
    failed = kit.advance(world, "day", 1, kit.pct(90))
    assert failed.actors["frank"].state["hp"] == 9  # CONx3 (42 %) failed: -1
    _, cared = kit.run(world, "medical_care", "sanderson", {}, ("frank",), kit.pct(40))
    kept = kit.advance(cared, "day", 1, kit.pct(90))
    assert kept.actors["frank"].state["hp"] == 10  # Medicine prevents the loss
    doubled = kit.advance(cared, "day", 1, kit.pct(10))
    assert doubled.actors["frank"].state["hp"] == 12  # +1 doubled


def test_low_con_needs_conx5(kit: Any) -> None:
    world = kit.make_world()
    frank = world.actors["frank"]
    world = kit.edit_sheet(
        world, "frank", characteristics={**frank.sheet["characteristics"], "con": 4}
    )
    _, world = kit.run(world, "gm_damage", "tony", {"amount": 5}, ("frank",), by_gm=True)
    worse = kit.advance(world, "day", 1, kit.pct(25))
    assert worse.actors["frank"].state["hp"] == 9
    better = kit.advance(world, "day", 1, kit.pct(15))
    assert better.actors["frank"].state["hp"] == 11


def test_no_natural_healing_while_a_bullet_is_inside(kit: Any) -> None:
    world = kit.make_world(settings={})
    _, world = kit.run(
        world, "gm_damage", "tony", {"amount": 3, "bullet": True}, ("frank",), by_gm=True
    )
    # Frank (CON 14, 70 %) passes every CON roll of a whole day and does not heal.
    after = kit.advance(world, "day", 1, kit.pct(5) * 40)
    assert after.actors["frank"].state["hp"] == 12
    assert "dead" not in after.actors["frank"].statuses
