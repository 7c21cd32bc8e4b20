"""Attacks: a pistol shot with location and damage, the firearm options, jams, ammunition,
shotguns by range, and the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from rules.model import RulesError


def values(res: Any) -> list[Any]:
    return [line.value for card in res.cards for section in card.sections for line in section.lines]


def test_pistol_shot_hits_with_location_and_damage(kit: Any) -> None:
    res, world = kit.run(
        kit.make_world(), "attack", "jimmy", {"weapon": "colt"}, ("tony",), [*kit.pct(30), 12, 6]
    )
    card = res.cards[0]
    assert card.outcome.key == "success"
    assert [d.role for d in card.dice] == ["attack.tens", "attack.units", "location", "damage"]
    tony = world.actors["tony"]
    assert tony.state["hp"] == 14 - 8
    assert (
        tony.state["wounds"][0]["location"] == "chest"
        and tony.state["wounds"][0]["kind"] == "bullet"
    )
    jimmy = world.actors["jimmy"]
    assert jimmy.state["ammo"]["colt"] == 6 and jimmy.state["actions"] == 1


def test_critical_firearm_does_maximum_damage(kit: Any) -> None:
    res, world = kit.run(
        kit.make_world(), "attack", "jimmy", {"weapon": "colt"}, ("tony",), [*kit.pct(3), 12]
    )
    assert res.cards[0].outcome.key == "critical"
    assert world.actors["tony"].state["hp"] == 14 - 12


def test_fumble_jams_until_cleared(kit: Any) -> None:
    res, world = kit.run(
        kit.make_world(), "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(97)
    )
    assert res.cards[0].outcome.key == "fumble"
    assert "jammed" in world.actors["jimmy"].statuses
    with pytest.raises(RulesError) as error:
        kit.run(world, "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(10))
    assert error.value.code == "weapon_jammed"
    # Half of 60 at -20 for the second action: 10 is under 10 -> success, two rounds to clear.
    res, cleared = kit.run(world, "clear_jam", "jimmy", {"weapon": "colt"}, (), kit.pct(10))
    assert res.cards[0].outcome.success
    with pytest.raises(RulesError) as busy:
        kit.run(cleared, "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(10))
    assert busy.value.code == "jam_clearing"
    ready = kit.advance(cleared, "round", 2)
    assert "jammed" not in ready.actors["jimmy"].statuses
    kit.run(ready, "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(90))
    with pytest.raises(RulesError) as not_jammed:
        kit.run(ready, "clear_jam", "jimmy", {"weapon": "colt"}, (), kit.pct(10))
    assert not_jammed.value.code == "not_jammed"


def test_extra_action_and_target_change_penalties(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(90))
    res, world = kit.run(world, "attack", "jimmy", {"weapon": "colt"}, ("frank",), kit.pct(90))
    assert "-20" in values(res) and res.cards[0].sections[0].lines[-3].value == "20%"
    res, _ = kit.run(world, "attack", "jimmy", {"weapon": "colt"}, ("frank",), kit.pct(90))
    assert "-40" in values(res)
    with pytest.raises(RulesError) as error:
        kit.run(_, "attack", "jimmy", {"weapon": "colt"}, ("frank",), kit.pct(90))
    assert error.value.code == "shot_limit"


def test_aimed_shot_bonus_and_rifle_location(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "aim", "tony", {"weapon": "springfield"}, ("jimmy",))
    assert "aiming" in world.actors["tony"].statuses
    with pytest.raises(RulesError) as early:
        kit.run(
            kit.advance(world, "round", 1),
            "attack",
            "tony",
            {"weapon": "springfield", "location": "head"},
            ("jimmy",),
            kit.pct(10),
        )
    assert early.value.code == "location_needs_aimed_rifle"
    two = kit.advance(world, "round", 2)
    res, after = kit.run(
        two,
        "attack",
        "tony",
        {"weapon": "springfield", "location": "head"},
        ("jimmy",),
        [*kit.pct(60), 3, 3],
    )
    assert "+15" in values(res) and res.cards[0].outcome.key == "success"  # 55 + 15 = 70
    assert after.actors["jimmy"].state["wounds"][0]["location"] == "head"
    assert after.actors["tony"].state["aim"] is None
    three = kit.advance(world, "round", 5)
    res, _ = kit.run(three, "attack", "tony", {"weapon": "springfield"}, ("jimmy",), kit.pct(99))
    assert "+30" in values(res)


def test_blind_fire_and_precise_knee(kit: Any) -> None:
    world = kit.make_world()
    res, _ = kit.run(
        world, "attack", "jimmy", {"weapon": "colt", "blind": True, "blind_idea": False}, ("tony",)
    )
    assert res.cards[0].outcome.key == "failure" and res.cards[0].dice == ()
    res, after = kit.run(
        world,
        "attack",
        "jimmy",
        {"weapon": "colt", "precise": 30, "precise_area": "knee"},
        ("tony",),
        [*kit.pct(20), 4],
    )
    assert "-30" in values(res)
    tony = after.actors["tony"]
    assert "impaired" in tony.statuses and tony.state["disabled"] == ["knee"]
    assert tony.state["wounds"][0]["location"] == "right_leg"
    with pytest.raises(RulesError) as error:
        kit.run(after, "move", "tony", {"metres": 10})
    assert error.value.code == "cannot_sprint_impaired"


def test_dodging_and_fast_targets(kit: Any) -> None:
    world = kit.make_world()
    res, world = kit.run(world, "dodge", "tony", {}, (), kit.pct(20))
    assert "dodging" in world.actors["tony"].statuses
    with pytest.raises(RulesError) as twice:
        kit.run(world, "dodge", "tony", {}, (), kit.pct(20))
    assert twice.value.code == "already_dodged"
    res, _ = kit.run(
        world, "attack", "jimmy", {"weapon": "colt", "target_fast": True}, ("tony",), kit.pct(90)
    )
    assert "-25" in values(res) and "-15" in values(res)
    # The dodger: -20 % to the next action, no reloading.
    res, _ = kit.run(world, "attack", "tony", {"weapon": "springfield"}, ("jimmy",), kit.pct(90))
    assert "-20" in values(res)
    with pytest.raises(RulesError) as delicate:
        kit.run(world, "reload", "tony", {"weapon": "springfield"})
    assert delicate.value.code == "no_delicate_after_dodge"
    later = kit.advance(world, "round", 1)
    assert "dodging" not in later.actors["tony"].statuses


def test_sprint(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "move", "frank", {"metres": 15})
    res, _ = kit.run(world, "attack", "jimmy", {"weapon": "colt"}, ("frank",), kit.pct(90))
    assert "-15" in values(res)
    res, _ = kit.run(
        world, "attack", "frank", {"weapon": "lupara", "range_m": 3}, ("jimmy",), kit.pct(90)
    )
    assert "-20" in values(res)
    with pytest.raises(RulesError) as error:
        kit.run(world, "reload", "frank", {"weapon": "lupara"})
    assert error.value.code == "sprint_only_weapon"
    with pytest.raises(RulesError) as roll:
        kit.run(
            world, "roll", "frank", {"skill": "mecanica", "combat_action": True}, (), kit.pct(10)
        )
    assert roll.value.code == "sprint_only_weapon"


def test_shotgun_damage_by_range(kit: Any) -> None:
    world = kit.make_world()
    res, after = kit.run(
        world,
        "attack",
        "tony",
        {"weapon": "escopeta", "range_m": 15},
        ("jimmy",),
        [*kit.pct(20), 12, 3, 4],
    )
    assert [d.role for d in res.cards[0].dice][-2:] == ["damage", "damage"]  # 2D6 at 10-18 m
    assert after.actors["jimmy"].state["hp"] == 18 - 7
    with pytest.raises(RulesError) as far:
        kit.run(
            world, "attack", "frank", {"weapon": "lupara", "range_m": 12}, ("jimmy",), kit.pct(20)
        )
    assert far.value.code == "out_of_range"
    with pytest.raises(RulesError) as none:
        kit.run(world, "attack", "frank", {"weapon": "lupara"}, ("jimmy",), kit.pct(20))
    assert none.value.code == "range_needed"


def test_ammunition_runs_out_and_reloads(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "frank", ammo={"thompson": 50, "lupara": 0})
    with pytest.raises(RulesError) as error:
        kit.run(
            world, "attack", "frank", {"weapon": "lupara", "range_m": 3}, ("jimmy",), kit.pct(20)
        )
    assert error.value.code == "no_ammo"
    _, reloaded = kit.run(world, "reload", "frank", {"weapon": "lupara"})
    assert reloaded.actors["frank"].state["ammo"]["lupara"] == 2


@pytest.mark.parametrize(
    ("actor", "params", "targets", "code"),
    [
        ("jimmy", {"weapon": "bazooka"}, ("tony",), "unknown_weapon"),
        ("jimmy", {"weapon": "colt"}, ("jimmy",), "self_target"),
        ("jimmy", {"weapon": "colt"}, ("tony", "frank"), "one_target_only"),
        ("jimmy", {"weapon": "colt", "mode": "concentrated"}, ("tony",), "mode_not_available"),
        ("jimmy", {"weapon": "navaja", "precise": 30}, ("tony",), "precise_firearm_only"),
        ("jimmy", {"weapon": "colt", "precise": 10}, ("tony",), "precise_too_small"),
        ("jimmy", {"weapon": "navaja", "blind": True}, ("tony",), "blind_firearm_only"),
        ("frank", {"weapon": "thompson"}, ("tony",), "thompson_mode_required"),
        (
            "frank",
            {"weapon": "thompson", "mode": "concentrated", "precise": 30},
            ("tony",),
            "thompson_no_precise",
        ),
    ],
)
def test_attack_refusals(
    kit: Any, actor: str, params: dict[str, Any], targets: tuple[str, ...], code: str
) -> None:
    with pytest.raises(RulesError) as error:
        kit.run(kit.make_world(), "attack", actor, params, targets, kit.pct(10))
    assert error.value.code == code


def test_dead_and_unconscious_cannot_act_or_be_shot(kit: Any) -> None:
    world = kit.with_statuses(kit.make_world(), "tony", "dead")
    with pytest.raises(RulesError) as dead:
        kit.run(world, "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(10))
    assert dead.value.code == "target_dead"
    with pytest.raises(RulesError) as actor:
        kit.run(world, "attack", "tony", {"weapon": "navaja"}, ("jimmy",), kit.pct(10))
    assert actor.value.code == "actor_dead"
    out = kit.with_statuses(kit.make_world(), "tony", "unconscious")
    with pytest.raises(RulesError) as ko:
        kit.run(out, "dodge", "tony", {}, (), kit.pct(10))
    assert ko.value.code == "actor_unconscious"
    res, killed = kit.run(out, "attack", "jimmy", {"weapon": "colt"}, ("tony",), [])
    assert "dead" in killed.actors["tony"].statuses and res.cards[0].dice == ()
    hit_only = kit.with_statuses(
        kit.make_world(settings={"unconscious_attack": "hit"}), "tony", "unconscious"
    )
    _, missed = kit.run(hit_only, "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(90))
    assert "dead" not in missed.actors["tony"].statuses
