"""The Thompson's modes, and melee blows answered by parry, dodge or nothing."""

from __future__ import annotations

from typing import Any

import pytest

from rules.model import RulesError

# Frank: Metralleta 55, DES 13, FUE 14 -> hit cap 6 + 7 = 13; Thompson 1d10+2, 50 rounds.


def test_concentrated_fire_hits_one_plus_one_per_5_percent(kit: Any) -> None:
    # Roll 30 at 55: category 25 -> 1 + 5 = 6 bullets; 1D20 = 15 fired.
    faces = [*kit.pct(30), 15, 1, 1, 1, 1, 1, 1]
    _, world = kit.run(
        kit.make_world(),
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "concentrated"},
        ("jimmy",),
        faces,
    )
    assert world.actors["jimmy"].state["hp"] == 18 - 6 * 3
    assert world.actors["frank"].state["ammo"]["thompson"] == 35
    assert len([w for w in world.actors["jimmy"].state["wounds"] if w["kind"] == "bullet"]) == 6
    assert all(w["location"] is None for w in world.actors["jimmy"].state["wounds"])
    # A miss loses 1D20 bullets.
    _res, missed = kit.run(
        kit.make_world(),
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "concentrated"},
        ("jimmy",),
        [*kit.pct(80), 7],
    )
    assert missed.actors["frank"].state["ammo"]["thompson"] == 43


def test_concentrated_fire_capped_by_the_d20_and_the_hit_cap(kit: Any) -> None:
    world = kit.edit_sheet(
        kit.make_world(), "frank", characteristics={"fue": 4, "con": 14, "des": 4, "agi": 12}
    )
    # Critical 03: category 52 -> 11 bullets, but only 4 hit (DES/2 + FUE/2), each at maximum.
    _res, after = kit.run(
        world,
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "concentrated"},
        ("tony",),
        [*kit.pct(3), 20],
    )
    assert after.actors["tony"].state["hp"] == 14 - 4 * 12
    assert (
        "dead" not in after.actors["tony"].statuses and "bleeding" in after.actors["tony"].statuses
    )
    # Only 2 bullets fired on the d20: 2 hit.
    _, few = kit.run(
        kit.make_world(),
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "concentrated"},
        ("tony",),
        [*kit.pct(3), 2],
    )
    assert few.actors["tony"].state["hp"] == 14 - 2 * 12


def test_empty_the_magazine(kit: Any) -> None:
    # Success: hits = min(loaded 50, cap 13) = 13; damage 1d10+2 (5) + 5 x 13.
    _res, world = kit.run(
        kit.make_world(),
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "empty"},
        ("tony",),
        [*kit.pct(40), 3],
    )
    assert world.actors["tony"].state["hp"] == 14 - (5 + 65)
    assert world.actors["frank"].state["ammo"]["thompson"] == 0
    assert len(world.actors["tony"].state["wounds"]) == 13
    low = kit.with_state(kit.make_world(), "frank", ammo={"thompson": 24, "lupara": 2})
    with pytest.raises(RulesError) as error:
        kit.run(
            low, "attack", "frank", {"weapon": "thompson", "mode": "empty"}, ("tony",), kit.pct(40)
        )
    assert error.value.code == "magazine_below_half"


def test_empty_the_magazine_over_chained_targets(kit: Any) -> None:
    world = kit.make_world()
    with pytest.raises(RulesError) as far:
        kit.run(
            world,
            "attack",
            "frank",
            {"weapon": "thompson", "mode": "empty", "gaps": "3"},
            ("tony", "jimmy"),
            kit.pct(40),
        )
    assert far.value.code == "chain_too_far"
    res, world = kit.run(
        world,
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "empty", "gaps": "2"},
        ("tony", "jimmy"),
        [*kit.pct(40), 3],
    )
    follow = res.cards[0].actions[0]
    assert follow.action == "spread" and follow.params["total"] == 70
    with pytest.raises(RulesError) as bad:
        kit.run(world, "spread", "frank", {**follow.params, "split": "10,10"}, follow.targets)
    assert bad.value.code == "split_mismatch"
    _, spread = kit.run(
        world, "spread", "frank", {**follow.params, "split": "60,10"}, follow.targets
    )
    assert spread.actors["tony"].state["hp"] == 14 - 60
    assert spread.actors["jimmy"].state["hp"] == 18 - 10


def test_short_burst(kit: Any) -> None:
    # 1D3 = 3 hits: first located on the d20 (20 = head), then chest and abdomen.
    _res, world = kit.run(
        kit.make_world(),
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "short_burst"},
        ("tony",),
        [*kit.pct(40), 3, 20, 1, 2, 3],
    )
    wounds = world.actors["tony"].state["wounds"]
    assert [w["location"] for w in wounds] == ["head", "chest", "abdomen"]
    assert world.actors["tony"].state["hp"] == 14 - (3 + 4 + 5)
    assert world.actors["frank"].state["ammo"]["thompson"] == 47
    few = kit.with_state(kit.make_world(), "frank", ammo={"thompson": 2, "lupara": 2})
    with pytest.raises(RulesError) as error:
        kit.run(
            few,
            "attack",
            "frank",
            {"weapon": "thompson", "mode": "short_burst"},
            ("tony",),
            kit.pct(40),
        )
    assert error.value.code == "not_enough_ammo"


def test_long_burst_sweeps_without_new_rolls(kit: Any) -> None:
    world = kit.make_world()
    faces = [*kit.pct(40), 2, 1, 1, 1, 1, 1]
    res, after = kit.run(
        world,
        "attack",
        "frank",
        {"weapon": "thompson", "mode": "long_burst", "gaps": "4"},
        ("tony", "jimmy"),
        faces,
    )
    assert len([d for d in res.cards[0].dice if d.role.startswith("attack")]) == 2
    assert after.actors["tony"].state["hp"] == 14 - 6
    assert after.actors["jimmy"].state["hp"] == 18 - 3
    # 3 + 3 bullets and 2 per metre between them.
    assert after.actors["frank"].state["ammo"]["thompson"] == 50 - 6 - 8


def test_thompson_cannot_aim(kit: Any) -> None:
    with pytest.raises(RulesError) as error:
        kit.run(kit.make_world(), "aim", "frank", {"weapon": "thompson"}, ("tony",))
    assert error.value.code == "thompson_no_aim"


def take_params(follows: dict[str, Any]) -> dict[str, Any]:
    return dict(follows["take"].params)


def test_melee_blow_then_parry_dodge_or_take(kit: Any) -> None:
    world = kit.make_world()
    res, world = kit.run(world, "attack", "tony", {"weapon": "navaja"}, ("jimmy",), kit.pct(20))
    follows = {f.id: f for f in res.cards[0].actions}
    assert set(follows) == {"parry", "dodge", "take"}
    parry = follows["parry"]
    # Parry with his own knife (Arma blanca 45): 30 succeeds, no damage.
    out, after = kit.run(
        world,
        "defend",
        "jimmy",
        {**parry.params, "parry_with": "navaja"},
        parry.targets,
        kit.pct(30),
    )
    assert after.actors["jimmy"].state["hp"] == 18
    # Unarmed parry of a knife: half damage (Pelea 50, roll 30; d20 location 5, 1d4+2 with 4 -> 6 -> 3).
    out, after = kit.run(
        world,
        "defend",
        "jimmy",
        {**parry.params, "parry_with": "unarmed"},
        parry.targets,
        [*kit.pct(30), 5, 4],
    )
    assert after.actors["jimmy"].state["hp"] == 15
    # A second parry in the round (of a second blow) is at -20 %: 40 fails at 45-20.
    _, parried = kit.run(
        world,
        "defend",
        "jimmy",
        {**parry.params, "parry_with": "navaja"},
        parry.targets,
        kit.pct(30),
    )
    with pytest.raises(RulesError) as answered:  # the blow's three buttons answer it once
        kit.run(parried, "defend", "jimmy", take_params(follows), parry.targets, [5, 1])
    assert answered.value.code == "blow_answered"
    res, parried = kit.run(parried, "attack", "tony", {"weapon": "navaja"}, ("jimmy",), kit.pct(20))
    second = next(f for f in res.cards[0].actions if f.id == "parry")
    assert second.params["blow"] != parry.params["blow"]
    out, after = kit.run(
        parried,
        "defend",
        "jimmy",
        {**second.params, "parry_with": "navaja"},
        second.targets,
        [*kit.pct(40), 5, 4],
    )
    assert "-20" in [line.value for s in out.cards[0].sections for line in s.lines]
    assert after.actors["jimmy"].state["hp"] == 12
    # Take it.
    take = follows["take"]
    _, took = kit.run(world, "defend", "jimmy", take.params, take.targets, [5, 1])
    assert took.actors["jimmy"].state["hp"] == 15


def test_melee_dodge_avoids_that_attacker_for_the_round(kit: Any) -> None:
    world = kit.make_world()
    res, world = kit.run(world, "attack", "tony", {"weapon": "navaja"}, ("jimmy",), kit.pct(20))
    dodge = next(f for f in res.cards[0].actions if f.id == "dodge")
    _, world = kit.run(world, "defend", "jimmy", dodge.params, dodge.targets, kit.pct(10))
    assert world.actors["jimmy"].state["hp"] == 18
    res, again = kit.run(world, "attack", "tony", {"weapon": "punos"}, ("jimmy",), [])
    assert res.cards[0].outcome is None and again.actors["jimmy"].state["hp"] == 18
    # one dodge a round: Frank's blow can no longer be dodged
    res, world = kit.run(world, "attack", "frank", {"weapon": "punos"}, ("jimmy",), kit.pct(20))
    other = next(f for f in res.cards[0].actions if f.id == "dodge")
    with pytest.raises(RulesError) as twice:
        kit.run(world, "defend", "jimmy", other.params, other.targets, kit.pct(10))
    assert twice.value.code == "already_dodged"


def test_natural_weapons_cannot_be_parried_with_a_weapon(kit: Any) -> None:
    world = kit.make_world()
    res, world = kit.run(world, "attack", "tony", {"weapon": "punos"}, ("jimmy",), kit.pct(20))
    parry = next(f for f in res.cards[0].actions if f.id == "parry")
    with pytest.raises(RulesError) as error:
        kit.run(
            world,
            "defend",
            "jimmy",
            {**parry.params, "parry_with": "navaja"},
            parry.targets,
            kit.pct(10),
        )
    assert error.value.code == "cannot_parry_natural"
    # Fists parried with the body: no damage at all.
    _, fine = kit.run(
        world,
        "defend",
        "jimmy",
        {**parry.params, "parry_with": "unarmed"},
        parry.targets,
        kit.pct(10),
    )
    assert fine.actors["jimmy"].state["hp"] == 18


def test_unaware_melee_cannot_be_defended(kit: Any) -> None:
    res, world = kit.run(
        kit.make_world(),
        "attack",
        "tony",
        {"weapon": "navaja", "unaware": True},
        ("jimmy",),
        [*kit.pct(20), 5, 2],
    )
    assert res.cards[0].actions == ()
    assert world.actors["jimmy"].state["hp"] == 14
