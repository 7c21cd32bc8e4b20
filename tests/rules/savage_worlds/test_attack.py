"""Attacks: the agent's SMG worked example, autofire, modifiers, ammunition and refusals."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from sw_helpers import make_world, run, with_state

from rules.dice import Die
from rules.model import Resolution, RulesError, World
from rules.probability import distribution
from rules.rolls import roll_die
from rules.savage_worlds.attacks import place_wild, shots


def _mods(resolution: Resolution) -> dict[str, Any]:
    return {
        line.label.key: line.value
        for line in resolution.cards[0].sections[0].lines
        if line.label.key.startswith("mod.")
    }


def _shots(resolution: Resolution) -> list[tuple[str, Any]]:
    return [
        (line.label.key, line.label.params["total"])
        for line in resolution.cards[0].sections[0].lines
        if line.label.key in ("line.shot_hit", "line.shot_miss")
    ]


def test_worked_example_smg_rof3_on_two_terrorists_wild_replaces_failed_die() -> None:
    """'dispara un subfusil (CdF 3) sobre dos terroristas ... Disparar d8 ... 3d8 más un dado
    salvaje ... los dos primeros disparos irán hacia el terrorista más cercano ... el tercero
    ... al más alejado ... falla con el tercero, pero ... el dado salvaje ... reemplaza'."""
    world = make_world({"autofire": "assigned"})
    # recoil -2 applies at RoF 3: d8 7 and 6 hit (5, 4), the third d8 shows 2 (0): a miss;
    # the wild die aces 6+3 = 9 (7): it replaces the third die. Three hits = RoF.
    world, resolution = run(
        world,
        "attack",
        "agente",
        {"weapon": "subfusil", "rof": 3, "spread": "2,1"},
        ("terrorista1", "terrorista2"),
        [7, 6, 2, 6, 3],
    )
    card = resolution.cards[0]
    assert card.outcome is not None and card.outcome.key == "hits"
    assert card.outcome.label.params == {"hits": 3, "dice": 3}
    assert [d.role for d in card.dice] == ["trait", "trait", "trait", "wild"]
    assert [d.kept for d in card.dice] == [True, True, False, True]
    targets = [f.targets or f.label.params.get("target") for f in card.actions]
    assert targets == ["Terrorista 1", "Terrorista 1", "Terrorista 2"]
    assert world.actors["agente"].state["ammo"]["subfusil"] == 20
    assert _mods(resolution) == {"mod.recoil": "-2"}


def test_extermination_order_moves_hits_to_the_next_target_when_one_falls() -> None:
    world = make_world()
    world, resolution = run(
        world,
        "attack",
        "agente",
        {"weapon": "subfusil", "rof": 3},
        ("terrorista1", "terrorista2"),
        [7, 6, 2, 6, 3],
    )
    assert len(resolution.cards[0].actions) == 3
    # First hit: 2d6 = 3 against Toughness 5: no effect, terrorist 1 still stands.
    world, first = run(world, "damage", "agente", {"attack": "atk1", "hit": 0}, (), [1, 2])
    assert first.cards[0].target == "terrorista1"
    # Second hit: 13, a wound: the Extra is out.
    world, _second = run(world, "damage", "agente", {"attack": "atk1", "hit": 1}, (), [6, 3, 4])
    assert "incapacitated" in world.actors["terrorista1"].statuses
    # Third hit goes on to terrorist 2.
    world, third = run(world, "damage", "agente", {"attack": "atk1", "hit": 2}, (), [2, 2])
    assert third.cards[0].target == "terrorista2"
    assert "atk1" not in world.data["attacks"]


def test_a_hit_with_no_target_left_is_wasted() -> None:
    world = make_world()
    world, _ = run(
        world, "attack", "agente", {"weapon": "subfusil", "rof": 2}, ("terrorista1",), [7, 6, 2]
    )
    world, _ = run(world, "damage", "agente", {"attack": "atk1", "hit": 0}, (), [6, 3, 4])
    after, last = run(world, "damage", "agente", {"attack": "atk1", "hit": 1}, ())
    assert last.cards[0].outcome is not None and last.cards[0].outcome.key == "wasted"
    assert "atk1" not in after.data["attacks"]


def test_hits_resolve_one_at_a_time_and_never_twice() -> None:
    world = make_world()
    world, _ = run(
        world, "attack", "agente", {"weapon": "subfusil", "rof": 2}, ("ogro",), [7, 6, 2]
    )
    # 2d6 = 12 +1d6? no raise (total 5 vs 4): 12 against Toughness 11: Shaken; the ogre has a benny
    # but nothing to soak, so it applies at once.
    world, _hit = run(world, "damage", "agente", {"attack": "atk1", "hit": 0}, (), [6, 5, 1])
    assert "stunned" in world.actors["ogro"].statuses
    with pytest.raises(RulesError) as error:
        run(world, "damage", "agente", {"attack": "atk1", "hit": 0})
    assert error.value.code == "hit_done"


def test_single_shot_raise_adds_an_exploding_d6() -> None:
    world = make_world()
    world, _ = run(world, "attack", "agente", {"weapon": "subfusil"}, ("terrorista1",), [8, 2, 1])
    world, damage = run(world, "damage", "agente", {"attack": "atk1", "hit": 0}, (), [1, 1, 6, 2])
    roles = [(d.role, d.faces) for d in damage.cards[0].dice]
    assert roles == [("damage", (1,)), ("damage", (1,)), ("raise", (6, 2))]


def test_melee_damage_is_strength_plus_weapon_and_against_parry() -> None:
    world = make_world()
    # Ogre Parry 2 + 8/2 = 6... the barbarian's Fighting d10 vs the ogre's Parry 6.
    world, attack = run(world, "attack", "barbara", {"weapon": "espada_larga"}, ("ogro",), [6, 2])
    assert attack.cards[0].sections[0].lines[1].label.params["tn"] == 6
    world, damage = run(world, "damage", "barbara", {"attack": "atk1", "hit": 0}, (), [5, 4])
    assert [d.role for d in damage.cards[0].dice] == ["strength", "damage"]
    assert damage.cards[0].dice[0].sides == 12 and damage.cards[0].dice[1].sides == 8


def test_unarmed_damage_is_strength_only() -> None:
    world = make_world()
    world, _ = run(world, "attack", "barbara", {"weapon": "unarmed"}, ("terrorista1",), [9, 2])
    world, damage = run(world, "damage", "barbara", {"attack": "atk1", "hit": 0}, (), [3, 1])
    assert [d.role for d in damage.cards[0].dice] == ["strength", "raise"]


def test_joker_adds_two_to_attack_and_damage() -> None:
    world = with_state(make_world(), "barbara", ["joker"])
    world, attack = run(
        world, "attack", "barbara", {"weapon": "espada_larga"}, ("terrorista1",), [3, 2]
    )
    assert _mods(attack)["mod.joker"] == "+2"
    world, damage = run(world, "damage", "barbara", {"attack": "atk1", "hit": 0}, (), [1, 1])
    assert any(line.label.key == "mod.damage_bonus" for line in damage.cards[0].sections[0].lines)


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"range": "medium"}, {"mod.range": "-2"}),
        ({"range": "long", "cover": "light"}, {"mod.range": "-4", "mod.cover": "-1"}),
        ({"cover": "heavy", "lighting": "dim"}, {"mod.cover": "-4", "mod.lighting": "-1"}),
        ({"cover": "near_total", "lighting": "dark"}, {"mod.cover": "-6", "mod.lighting": "-2"}),
        ({"lighting": "pitch"}, {"mod.lighting": "-4"}),
        ({"blind": True, "lighting": "dim"}, {"mod.blind": "-4"}),
        ({"modifier": 1}, {"mod.modifier": "+1"}),
    ],
)
def test_situational_modifiers(params: dict[str, Any], expected: dict[str, str]) -> None:
    world = make_world()
    _, resolution = run(
        world, "attack", "agente", {"weapon": "subfusil", **params}, ("terrorista1",), [1, 2]
    )
    assert _mods(resolution) == expected


def test_prone_target_counts_as_medium_cover_not_stacked() -> None:
    world = with_state(make_world(), "terrorista1", ["prone"])
    _, plain = run(world, "attack", "agente", {"weapon": "subfusil"}, ("terrorista1",), [5, 2])
    assert plain.cards[0].sections[0].lines[1].label.params["tn"] == 6
    _, heavy = run(
        world,
        "attack",
        "agente",
        {"weapon": "subfusil", "cover": "heavy"},
        ("terrorista1",),
        [5, 2],
    )
    assert heavy.cards[0].sections[0].lines[2].label.params["tn"] == 4


def test_no_sight_beyond_ten_paces_in_darkness() -> None:
    with pytest.raises(RulesError) as error:
        run(
            make_world(),
            "attack",
            "agente",
            {"weapon": "subfusil", "lighting": "dark", "distance": 11},
            ("terrorista1",),
        )
    assert error.value.code == "not_visible"


def test_blind_fire_lets_the_target_evade_with_stealth_minus_two_at_rof_3() -> None:
    world = make_world()
    world, _ = run(
        world,
        "attack",
        "agente",
        {"weapon": "subfusil", "rof": 3, "blind": True},
        ("terrorista1",),
        [8, 2, 8, 2, 2, 1],
    )
    # terrorist Stealth d4 (Extra): 4+4+1 = 9 - 2 = 7: evades.
    world, evaded = run(world, "damage", "agente", {"attack": "atk1", "hit": 0}, (), [4, 4, 1])
    assert evaded.cards[0].outcome is not None and evaded.cards[0].outcome.key == "evaded"
    assert evaded.cards[0].dice[0].role == "stealth"
    assert any(line.label.key == "mod.blind_rof" for line in evaded.cards[0].sections[0].lines)


def test_area_weapon_rolls_damage_separately_for_every_target() -> None:
    world = make_world()
    world, attack = run(
        world,
        "attack",
        "barbara",
        {"weapon": "granada"},
        ("terrorista1", "terrorista2", "ogro"),
        [5, 2],
    )
    assert [f.params["hit"] for f in attack.cards[0].actions] == [0, 1, 2]
    assert world.actors["barbara"].state["ammo"]["granada"] == 1
    world, one = run(world, "damage", "barbara", {"attack": "atk1", "hit": 0}, (), [3, 3, 3])
    world, two = run(world, "damage", "barbara", {"attack": "atk1", "hit": 1}, (), [1, 1, 1])
    assert one.cards[0].target == "terrorista1" and two.cards[0].target == "terrorista2"


def test_bipod_removes_recoil_and_minimum_strength_pen_mov_adds_minus_two() -> None:
    world = make_world()
    _, loose = run(
        world,
        "attack",
        "agente",
        {"weapon": "ametralladora", "rof": 2},
        ("terrorista1",),
        [1, 1, 2],
    )
    assert _mods(loose) == {"mod.recoil": "-2", "mod.min_str": "-1"}
    set_up = with_state(world, "agente", bipod=["ametralladora"])
    _, steady = run(
        set_up,
        "attack",
        "agente",
        {"weapon": "ametralladora", "rof": 2},
        ("terrorista1",),
        [1, 1, 2],
    )
    assert _mods(steady) == {}
    _, moving = run(
        world,
        "attack",
        "agente",
        {"weapon": "ametralladora", "moved": True},
        ("terrorista1",),
        [1, 2],
    )
    assert _mods(moving) == {"mod.pen_mov": "-2", "mod.min_str": "-1"}


@pytest.mark.parametrize(("rof", "spent"), [(1, 1), (2, 5), (3, 10), (4, 20)])
def test_ammunition_by_rate_of_fire(rof: int, spent: int) -> None:
    world = make_world()
    dice = [1] * rof + [2]
    after, _ = run(
        world, "attack", "agente", {"weapon": "ametralladora", "rof": rof}, ("terrorista1",), dice
    )
    assert 100 - after.actors["agente"].state["ammo"]["ametralladora"] == spent


def test_critical_failure_on_autofire_misses_everything() -> None:
    world = make_world()
    _, resolution = run(
        world,
        "attack",
        "agente",
        {"weapon": "subfusil", "rof": 3},
        ("terrorista1",),
        [1, 1, 8, 3, 1],
    )
    assert resolution.cards[0].outcome is not None
    assert resolution.cards[0].outcome.key == "fumble"
    assert resolution.cards[0].actions == ()


def _refusal(
    world: World,
    params: dict[str, Any],
    targets: tuple[str, ...] = ("terrorista1",),
    actor: str = "agente",
) -> str:
    with pytest.raises(RulesError) as error:
        run(world, "attack", actor, params, targets)
    return error.value.code


def test_attack_refusals() -> None:
    world = make_world()
    assert _refusal(world, {"weapon": "laser"}) == "unknown_weapon"
    assert _refusal(world, {"weapon": "subfusil", "rof": 4}) == "rof_not_available"
    assert _refusal(world, {"weapon": "cuchillo", "rof": 2}) == "rof_not_available"
    assert _refusal(world, {"weapon": "subfusil"}, ("agente",)) == "self_target"
    assert _refusal(world, {"weapon": "subfusil"}, ("ogro", "terrorista1")) == "too_many_targets"
    assert _refusal(world, {"weapon": "subfusil", "rof": 3}, ("ogro", "ogro")) == "duplicate_target"
    assert _refusal(world, {"weapon": "espada_larga", "frenzy": True}) == "unknown_weapon"
    assert _refusal(world, {"weapon": "cuchillo", "frenzy": True}) == "no_frenzy"
    empty = with_state(world, "agente", ammo={"subfusil": 0, "ametralladora": 100})
    assert _refusal(empty, {"weapon": "subfusil"}) == "no_ammo"
    low = with_state(world, "agente", ammo={"subfusil": 5, "ametralladora": 100})
    assert _refusal(low, {"weapon": "subfusil", "rof": 3}) == "not_enough_ammo"
    shaken = with_state(world, "agente", ["stunned"])
    assert _refusal(shaken, {"weapon": "subfusil"}) == "shaken"
    down = with_state(world, "terrorista1", ["incapacitated"])
    assert _refusal(down, {"weapon": "subfusil"}) == "actor_out"
    assigned = make_world({"autofire": "assigned"})
    assert (
        _refusal(
            assigned, {"weapon": "subfusil", "rof": 3, "spread": "1,1"}, ("ogro", "terrorista1")
        )
        == "bad_spread"
    )


def test_frenzy_rolls_two_fighting_dice_and_one_wild_die() -> None:
    world = make_world()
    _, resolution = run(
        world,
        "attack",
        "barbara",
        {"weapon": "espada_larga", "frenzy": True},
        ("ogro",),
        [2, 9, 6, 1],
    )
    assert [d.role for d in resolution.cards[0].dice] == ["trait", "trait", "wild"]
    assert [d.kept for d in resolution.cards[0].dice] == [False, True, True]


def _autofire_hits(dice: Any) -> int:
    trait = tuple(roll_die(dice, 6, "trait") for _ in range(2))
    wild = roll_die(dice, 6, "wild")
    return sum(1 for shot in shots(trait, wild, 0, [None, None], [4, 4]) if shot.hit)


def test_exact_hits_at_rof_2_with_the_wild_die_replacing_the_first_failure() -> None:
    """d6 against 4 is an even chance (aces cannot turn a miss into a hit): P(0, 1, 2 hits) =
    1/8, 3/8, 1/2 with the wild die replacing one failed die."""
    found = distribution(_autofire_hits)
    assert found.cut == 0
    assert found.outcomes == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(1, 2)}


def test_wild_die_replaces_only_the_first_failed_die_it_turns_into_a_hit() -> None:
    faces = [Die(8, (2,), "trait"), Die(8, (3,), "trait"), Die(8, (5,), "trait")]
    result = shots(tuple(faces), Die(6, (4,), "wild"), 0, [None] * 3, [4, 4, 4])
    assert [s.by_wild for s in result] == [True, False, False]
    # a wild die that would not hit replaces nothing
    assert place_wild(tuple(faces), Die(6, (3,), "wild"), 0, [4, 4, 4]) is None
    # per-target thresholds (assigned mode): it skips a failure it cannot fix
    assert place_wild(tuple(faces), Die(6, (5,), "wild"), 0, [6, 4, 4]) == 1
