"""Damage against Toughness (the ogre), Shaken, Wounds, soak, incapacitation and Bleeding Out."""

from __future__ import annotations

import pytest
from sw_helpers import make_world, run, with_state

from rules.dice import ScriptedDice
from rules.model import RulesError, TimeStep, World
from rules.savage_worlds import SYSTEM
from rules.savage_worlds.health import compare


@pytest.mark.parametrize(
    ("damage", "already", "wounds", "shaken"),
    [
        (10, False, 0, False),
        (10, True, 0, False),
        (11, False, 0, True),
        (14, False, 0, True),
        (11, True, 1, True),
        (14, True, 1, True),
        (15, True, 1, True),
        (15, False, 1, True),
        (18, True, 1, True),
        (19, False, 2, True),
    ],
)
def test_ogre_of_toughness_11(damage: int, already: bool, wounds: int, shaken: bool) -> None:
    """'Si el daño ... está entre 11 y 14, será un éxito simple ... como este ya lo estaba, sufrirá
    una herida ... Si el daño causado es de 15 o más ... directamente causará heridas'."""
    result = compare(damage, 11, already)
    assert (result.wounds, result.shaken) == (wounds, shaken)
    assert result.from_shaken == (already and 11 <= damage <= 14)


def _ogre_hit(world: World, faces: list[int]) -> tuple[World, object]:
    """The barbarian hits the ogre (no raise) and rolls the given damage faces."""
    world, _ = run(world, "attack", "barbara", {"weapon": "espada_larga"}, ("ogro",), [6, 2])
    return run(world, "damage", "barbara", {"attack": "atk1", "hit": 0}, (), faces)


def test_ogre_worked_example_through_the_actions() -> None:
    # The rogue's Test left the ogre Shaken; 12 + 1 = 13 damage: one wound, still Shaken.
    world = with_state(make_world(data={"gm_bennies": 0}), "ogro", ["stunned"], bennies=0)
    world, damage = _ogre_hit(world, [12, 1, 1])
    card = damage.cards[0]
    assert card.outcome is not None and card.outcome.key == "wounds"
    assert [line.label.key for line in card.sections[0].lines][1] == "line.from_shaken"
    assert world.actors["ogro"].state["wounds"] == 1
    assert {"stunned", "wounded"} <= world.actors["ogro"].statuses


def test_ogre_not_shaken_simple_success_only_shakes() -> None:
    world = with_state(make_world(data={"gm_bennies": 0}), "ogro", bennies=0)
    world, _ = _ogre_hit(world, [12, 1, 1])
    assert world.actors["ogro"].state["wounds"] == 0
    assert "stunned" in world.actors["ogro"].statuses


def test_wild_card_can_soak_before_the_wounds_apply() -> None:
    world = make_world()  # the ogre has one benny
    world, damage = _ogre_hit(world, [12, 5, 1])  # 18: one wound
    follows = {f.action: f for f in damage.cards[0].actions}
    assert set(follows) == {"soak", "damage_apply"}
    assert follows["soak"].actor_id == "ogro"
    pending = follows["soak"].params["pending"]
    # Vigor d12: 5 -> success: soaks the wound and the Shaken with it.
    world, soak = run(world, "soak", "ogro", {"pending": pending}, (), [5, 3])
    assert world.actors["ogro"].state["wounds"] == 0
    assert world.actors["ogro"].state["bennies"] == 0
    assert "stunned" not in world.actors["ogro"].statuses
    assert pending not in world.data["pending"]
    assert soak.cards[0].dice[0].role == "soak"


def test_soak_reroll_keeps_the_best_and_apply_folds_the_rest() -> None:
    world = with_state(make_world(), "barbara", bennies=2)
    world, _ = run(world, "attack", "ogro", {"weapon": "garrote"}, ("barbara",), [8, 3, 6, 2])
    # raise: Str d12 12+5, d8 8+6, raise d6 3: 34 against 8: six wounds.
    world, damage = run(world, "damage", "ogro", {"attack": "atk1", "hit": 0}, (), [12, 5, 8, 6, 3])
    pending = damage.cards[0].actions[0].params["pending"]
    world, _ = run(world, "soak", "barbara", {"pending": pending}, (), [6, 2])  # 1
    world, _ = run(world, "soak", "barbara", {"pending": pending}, (), [10, 3, 1])  # 13: 3
    world, _ = (
        run(world, "soak", "barbara", {"pending": pending}, (), [2, 1]) if False else (world, None)
    )
    assert world.data["pending"][pending]["soaked"] == 3
    with pytest.raises(RulesError) as error:
        run(world, "soak", "barbara", {"pending": pending})
    assert error.value.code == "no_bennies"
    # 3 wounds left: exactly three, not incapacitated.
    world, _applied = run(world, "damage_apply", "barbara", {"pending": pending})
    assert world.actors["barbara"].state["wounds"] == 3
    assert "incapacitated" not in world.actors["barbara"].statuses


def test_soak_ignores_the_pending_wounds_penalty_but_counts_current_ones() -> None:
    world = with_state(make_world(), "barbara", ["wounded"], wounds=1)
    world = world.with_actor(world.actors["barbara"])
    world, _ = run(world, "hurt", "barbara", {"damage": 20})  # 20 vs 8: 3 wounds
    pending = next(iter(world.data["pending"]))
    _, soak = run(world, "soak", "barbara", {"pending": pending}, (), [4, 1])
    mods = {line.label.key: line.value for line in soak.cards[0].sections[0].lines}
    assert mods["mod.wounds"] == "-1"


def test_more_than_three_wounds_incapacitates_and_rolls_vigor() -> None:
    world = with_state(make_world(), "barbara", bennies=0)
    # 25 vs 8: 4 wounds -> 3 and Incapacitated; Vigor d10 -3: 9 (6): success ->
    # Injury 2d6 = 3 + 3 = guts, d6 1: broken, until healed.
    world, hurt = run(world, "hurt", "barbara", {"damage": 25}, (), [9, 2, 3, 3, 1])
    barbara = world.actors["barbara"]
    assert barbara.state["wounds"] == 3
    assert "incapacitated" in barbara.statuses and "bleeding" not in barbara.statuses
    assert barbara.state["injuries"] == [{"key": "guts_broken", "lasting": "until_healed"}]
    roles = [d.role for d in hurt.cards[0].dice]
    assert roles == ["vigor", "wild", "injury", "injury", "injury_detail"]


@pytest.mark.parametrize(
    ("faces", "dead", "bleeding", "lasting"),
    [
        ([2, 1], True, False, None),  # 2 - 3 = -1: dies
        ([5, 2, 1, 2], False, True, "permanent"),  # 5 - 3 = 2: failure: arm, bleeding
        ([10, 4, 2, 6, 6, 1], False, False, "24h"),  # 14 - 3 = 11: raise: head, scar
    ],
)
def test_incapacitation_vigor_outcomes(
    faces: list[int], dead: bool, bleeding: bool, lasting: str | None
) -> None:
    world = with_state(make_world(), "barbara", bennies=0, wounds=3)
    world, _ = run(world, "hurt", "barbara", {"damage": 12}, (), faces)
    barbara = world.actors["barbara"]
    assert ("dead" in barbara.statuses) == dead
    assert ("bleeding" in barbara.statuses) == bleeding
    injuries = barbara.state["injuries"]
    assert (injuries[0]["lasting"] if injuries else None) == lasting


def test_extras_are_out_with_any_wound_and_cannot_soak() -> None:
    world = make_world()
    world, _ = run(world, "hurt", "terrorista1", {"damage": 9})
    assert world.actors["terrorista1"].statuses == {"incapacitated"}
    soakers = make_world({"extras_soak": True, "auto_apply": False})
    soakers, _ = run(soakers, "hurt", "terrorista2", {"damage": 9})
    pending = next(iter(soakers.data["pending"]))
    soakers, _soak = run(soakers, "soak", "terrorista2", {"pending": pending}, (), [5])
    assert soakers.data["gm_bennies"] == 1
    assert "incapacitated" not in soakers.actors["terrorista2"].statuses


def test_gm_pool_pays_for_gm_actors() -> None:
    world = with_state(make_world(), "ogro", bennies=0)
    world, _ = run(world, "hurt", "ogro", {"damage": 15})
    pending = next(iter(world.data["pending"]))
    world, soak = run(world, "soak", "ogro", {"pending": pending}, (), [1, 1])
    assert world.data["gm_bennies"] == 1
    assert soak.cards[0].sections[0].lines[0].label.params["source"].key == "benny.gm"


def test_held_character_who_becomes_shaken_loses_the_hold() -> None:
    world = with_state(make_world(), "agente", ["on_hold"], bennies=0)
    world, hurt = run(world, "hurt", "agente", {"damage": 7})
    assert "on_hold" not in world.actors["agente"].statuses
    keys = [line.label.key for line in hurt.cards[0].sections[0].lines]
    assert "line.hold_lost" in keys


def test_damage_refusals() -> None:
    world = make_world()
    world, _ = run(
        world, "attack", "agente", {"weapon": "subfusil", "rof": 2}, ("ogro",), [7, 6, 2]
    )
    with pytest.raises(RulesError) as error:
        run(world, "damage", "barbara", {"attack": "atk1", "hit": 0})
    assert error.value.code == "not_your_attack"
    for params, code in (
        ({"attack": "atk9", "hit": 0}, "unknown_attack"),
        ({"attack": "atk1", "hit": 5}, "unknown_hit"),
    ):
        with pytest.raises(RulesError) as error:
            run(world, "damage", "agente", params)
        assert error.value.code == code
    world, _first = run(
        world, "damage", "agente", {"attack": "atk1", "hit": 0}, (), [6, 6, 6, 2, 1]
    )
    assert world.data["pending"]
    with pytest.raises(RulesError) as error:
        run(world, "damage", "agente", {"attack": "atk1", "hit": 1})
    assert error.value.code == "hit_pending"
    pending = next(iter(world.data["pending"]))
    with pytest.raises(RulesError) as error:
        run(world, "soak", "agente", {"pending": pending})
    assert error.value.code == "not_your_hit"
    with pytest.raises(RulesError) as error:
        run(world, "damage_apply", "ogro", {"pending": "hit99"})
    assert error.value.code == "unknown_pending"


def test_nothing_to_soak_when_only_shaken() -> None:
    world = make_world({"auto_apply": False})
    world, _ = run(world, "hurt", "agente", {"damage": 7})
    pending = next(iter(world.data["pending"]))
    with pytest.raises(RulesError) as error:
        run(world, "soak", "agente", {"pending": pending})
    assert error.value.code == "nothing_to_soak"


# -- Bleeding Out -------------------------------------------------------------------
def _bleeding(world: World) -> World:
    return with_state(world, "barbara", ["incapacitated", "bleeding"], wounds=3)


@pytest.mark.parametrize(
    ("faces", "dead", "bleeding"),
    [([3, 2], True, False), ([8, 1], False, True), ([10, 2, 1], False, False)],
)
def test_bleeding_out_each_round(faces: list[int], dead: bool, bleeding: bool) -> None:
    world = _bleeding(make_world())
    resolution = SYSTEM.advance_time(world, TimeStep("round"), ScriptedDice(faces))
    assert resolution is not None
    world = SYSTEM.apply(world, resolution)
    assert ("dead" in world.actors["barbara"].statuses) == dead
    assert ("bleeding" in world.actors["barbara"].statuses) == bleeding


def test_bleeding_out_rolls_before_the_cards_are_dealt() -> None:
    world, _ = run(make_world(), "combat_start", "agente", {}, ("agente", "barbara", "ogro"))
    world = _bleeding(world)
    resolution = SYSTEM.advance_time(world, TimeStep("round"), ScriptedDice([3, 2]))
    assert resolution is not None
    keys = [line.label.key for line in resolution.cards[0].sections[0].lines]
    assert keys[0] == "line.bleed_dies" and keys[1] == "line.round"
    world = SYSTEM.apply(world, resolution)
    assert "barbara" not in world.data["sw_combat"]["cards"]


def test_bleeding_out_out_of_combat_rolls_every_minute_until_settled() -> None:
    world = _bleeding(make_world())
    resolution = SYSTEM.advance_time(world, TimeStep("hour"), ScriptedDice([8, 1, 8, 1, 10, 2, 1]))
    assert resolution is not None
    keys = [line.label.key for line in resolution.cards[0].sections[0].lines]
    assert keys == ["line.bleed_continues", "line.bleed_continues", "line.bleed_stable"]


def test_healing_roll_by_someone_else_stabilises() -> None:
    world = _bleeding(make_world())
    with pytest.raises(RulesError) as error:
        run(world, "stabilise", "barbara", {}, ("barbara",))
    assert error.value.code == "self_heal"
    with pytest.raises(RulesError) as error:
        run(world, "stabilise", "agente", {}, ("ogro",))
    assert error.value.code == "not_bleeding"
    world, heal = run(world, "stabilise", "agente", {}, ("barbara",), [3, 5])
    assert "bleeding" not in world.actors["barbara"].statuses
    assert heal.cards[0].dice[0].role == "healing"


def test_24h_injury_wears_off_after_a_day_and_gm_heal_clears_temporary_ones() -> None:
    injuries = [
        {"key": "head_scar", "lasting": "24h", "hours_left": 24},
        {"key": "arm", "lasting": "until_healed"},
        {"key": "leg", "lasting": "permanent"},
    ]
    world = with_state(make_world(), "barbara", ["wounded"], wounds=2, injuries=injuries)
    resolution = SYSTEM.advance_time(world, TimeStep("day"), ScriptedDice([]))
    assert resolution is not None
    world = SYSTEM.apply(world, resolution)
    assert [i["key"] for i in world.actors["barbara"].state["injuries"]] == ["arm", "leg"]
    world, _ = run(world, "gm_heal", "barbara", {"wounds": 3})
    assert world.actors["barbara"].state["injuries"] == [{"key": "leg", "lasting": "permanent"}]
    assert "wounded" not in world.actors["barbara"].statuses
    with pytest.raises(RulesError) as error:
        run(world, "gm_heal", "barbara", {"wounds": 1})
    assert error.value.code == "no_wounds"
