"""Attacks, damage and the weapons' special cases, through check_action/resolve/apply."""

from __future__ import annotations

from typing import Any

import pytest

from rules.o3d10.combat import defense
from rules.o3d10.sheet import parse_sheet


def _follow(resolution: Any, index: int = 0) -> Any:
    return resolution.cards[index].actions[0]


def test_derived_defense(kit: Any) -> None:
    world = kit.make_world()
    settings = world.settings
    assert defense(parse_sheet(world.actors["bruno"].sheet), settings) == 5 + 7 + 2
    assert defense(parse_sheet(world.actors["aldara"].sheet), settings) == 5 + 6 + 4 + 2
    assert defense(parse_sheet(world.actors["bandido"].sheet), settings) == 5 + 5 + 3 + 1
    own = kit.actor("x", {"fisico": 5}, combat={"defensa": 21})
    assert defense(parse_sheet(own.sheet), settings) == 21
    based = kit.make_world(settings={"defense_base": 0})
    assert defense(parse_sheet(based.actors["bruno"].sheet), based.settings) == 9


def test_melee_hit_damage_explodes_and_the_gm_applies_it(kit: Any) -> None:
    world = kit.make_world()
    attack, world = kit.run(
        world, "attack", "aldara", {"weapon": "espada"}, ("bandido",), [5, 3, 9]
    )
    card = attack.cards[0]
    assert card.outcome.success and card.outcome.margin == 8 + 4 + 5 - 14
    follow = _follow(attack)
    assert follow.action == "damage" and follow.params == {
        "weapon": "espada",
        "improvised": False,
        "extra": 0,
    }
    kit.check_translates(attack)
    # 'Ejemplo: 2d6, 4,6 = 10 y tiramos 1 dado de nuevo, si sale 6 de nuevo, se suma (16) y se sigue tirando.'
    damage, world = kit.run(
        world, "damage", "aldara", dict(follow.params), follow.targets, [4, 6, 6, 1]
    )
    assert damage.cards[0].dice[1].faces == (6, 6, 1)
    assert [d.role for d in damage.cards[0].dice] == ["dano", "dano"]
    apply = _follow(damage)
    assert apply.allowed == "gm" and apply.params == {"amount": 17}
    kit.check_translates(damage)
    applied, world = kit.run(world, apply.action, apply.actor_id, dict(apply.params), by_gm=True)
    assert world.actors["bandido"].state["heridas"] == 17
    kit.check_translates(applied)


def test_miss_has_no_damage_button(kit: Any) -> None:
    world = kit.make_world()
    attack, _ = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("aldara",), [4, 4, 2])
    assert attack.cards[0].outcome.success is False and attack.cards[0].actions == ()
    assert "No impacta" in kit.render(attack.cards[0])


def test_natural_one_misses_whatever_the_total(kit: Any) -> None:
    world = kit.make_world()
    attack, _ = kit.run(
        world, "attack", "aldara", {"weapon": "espada", "modifier": 50}, ("bandido",), [1, 1, 9]
    )
    assert attack.cards[0].outcome.key == "failure" and attack.cards[0].actions == ()


def test_each_full_ten_over_defense_adds_an_exploding_d6(kit: Any) -> None:
    world = kit.make_world()
    # 12 + (10 + 5) = 27 against 14: beats it by 13, one extra d6; a critical too.
    attack, world = kit.run(
        world, "attack", "aldara", {"weapon": "espada"}, ("bandido",), [10, 7, 10, 5, 5, 5]
    )
    assert attack.cards[0].outcome.key == "critical"
    follow = _follow(attack)
    assert follow.params["extra"] == 1
    damage, _ = kit.run(
        world, "damage", "aldara", dict(follow.params), follow.targets, [1, 1, 6, 2]
    )
    assert [d.role for d in damage.cards[0].dice] == ["dano", "dano", "dano.margen"]
    assert _follow(damage).params["amount"] == 1 + 1 + 6 + 2
    # 23 against 14 is only 9 over: no extra die.
    attack, _ = kit.run(
        kit.make_world(),
        "attack",
        "aldara",
        {"weapon": "espada", "modifier": 2},
        ("bandido",),
        [9, 9, 9],
    )
    assert _follow(attack).params["extra"] == 0


def test_behind_and_flanking_add_to_the_attack(kit: Any) -> None:
    world = kit.make_world()
    attack, _ = kit.run(
        world,
        "attack",
        "bruno",
        {"weapon": "daga", "behind": True, "flanking": True},
        ("bandido",),
        [4, 4, 2],
    )
    card = attack.cards[0]
    assert card.outcome.margin == 6 + 2 + 4 + 4 + 2 - 14
    values = [line.value for line in card.sections[0].lines if line.value is not None]
    assert values == ["+4", "+2"]
    text = kit.render(card)
    assert "Por la espalda" in text and "Flanqueando" in text


def test_unarmed_damage_is_1d6_and_1d4_in_the_first_version(kit: Any) -> None:
    for settings, sides in (({}, 6), ({"version": "primera"}, 4)):
        world = kit.make_world(settings=settings)
        attack, world = kit.run(
            world, "attack", "bruno", {"weapon": "unarmed"}, ("bandido",), [9, 9, 9]
        )
        damage, _ = kit.run(
            world, "damage", "bruno", dict(_follow(attack).params), ("bandido",), [2]
        )
        assert damage.cards[0].dice[0].sides == sides
        kit.check_translates(damage)


def test_two_light_weapons_give_plus_three_and_the_better_damage(kit: Any) -> None:
    world = kit.make_world()
    params = {"weapon": "daga", "offhand": "espada_corta"}
    attack, _ = kit.run(world, "attack", "bruno", params, ("bandido",), [4, 4, 2])
    assert attack.cards[0].outcome.margin == 6 + 2 + 4 + 3 - 14
    assert _follow(attack).params["weapon"] == "espada_corta"  # 1d6+3 beats 1d6+1
    kit.check_translates(attack)


def test_two_weapons_need_light_weapons_and_light_armour(kit: Any) -> None:
    world = kit.make_world()
    heavy = kit.actor(
        "tank",
        {"fisico": 6},
        weapons={
            "daga": {"dano": "1d6+1", "ligera": True},
            "espada_corta": {"dano": "1d6+3", "ligera": True},
            "hacha": {"dano": "1d8"},
            "arco": {"tipo": "distancia", "dano": "1d8"},
        },
        armour={"tipo": "media"},
    )
    world = world.with_actor(heavy)
    assert (
        kit.refused(
            world, "attack", "tank", {"weapon": "daga", "offhand": "espada_corta"}, ("bruno",)
        )
        == "armour_too_heavy"
    )
    assert (
        kit.refused(world, "attack", "tank", {"weapon": "daga", "offhand": "hacha"}, ("bruno",))
        == "two_weapons_not_light"
    )
    assert (
        kit.refused(world, "attack", "tank", {"weapon": "daga", "offhand": "daga"}, ("bruno",))
        == "same_weapon_twice"
    )
    assert (
        kit.refused(world, "attack", "tank", {"weapon": "daga", "offhand": "arco"}, ("bruno",))
        == "two_weapons_melee_only"
    )
    assert (
        kit.refused(world, "attack", "tank", {"weapon": "daga", "offhand": "lanza"}, ("bruno",))
        == "no_such_weapon"
    )


def test_two_weapons_in_the_first_version_roll_twice_at_minus_two_and_minus_four(kit: Any) -> None:
    world = kit.make_world(settings={"version": "primera"})
    params = {"weapon": "espada_corta", "offhand": "daga", "modifier": 2}
    attack, _ = kit.run(world, "attack", "bruno", params, ("bandido",), [9, 9, 9, 9, 9, 9])
    first, second = attack.cards
    assert first.outcome.margin == 6 + 2 + 9 + 2 - 2 - 14
    assert second.outcome.margin == 6 + 2 + 9 + 2 - 4 - 14
    assert _follow(attack, 0).params["weapon"] == "espada_corta"
    assert _follow(attack, 1).params["weapon"] == "daga"
    assert "mano hábil" in kit.render(first) and "la otra mano" in kit.render(second)


@pytest.mark.parametrize(
    ("settings", "distance", "difficulty"),
    [
        ({}, "bocajarro", 10),
        ({}, "corta", 15),
        ({}, "media", 20),
        ({}, "larga", 25),
        ({"version": "primera"}, "bocajarro", 15),
        ({"version": "primera"}, "corta", 18),
        ({"version": "primera"}, "media", 20),
        ({"version": "primera"}, "larga", 25),
    ],
)
def test_range_difficulties(
    kit: Any, settings: dict[str, Any], distance: str, difficulty: int
) -> None:
    world = kit.make_world(settings=settings)
    attack, _ = kit.run(
        world,
        "attack",
        "aldara",
        {"weapon": "ballesta", "range": distance},
        ("bandido",),
        [5, 5, 5],
    )
    assert attack.cards[0].outcome.margin == 6 + 3 + 5 - difficulty


def test_target_circumstances_raise_the_ranged_difficulty(kit: Any) -> None:
    world = kit.make_world()
    params = {
        "weapon": "ballesta",
        "range": "media",
        "running": True,
        "prone": True,
        "cover": "grande",
        "crowd": True,
    }
    attack, _ = kit.run(world, "attack", "aldara", params, ("bandido",), [5, 5, 5])
    card = attack.cards[0]
    assert card.outcome.margin == 14 - (20 + 3 + 5 + 6 + 2)
    text = kit.render(card)
    for word in (
        "Corriendo",
        "Tumbado",
        "Cobertura grande",
        "Entre otra gente",
        "No se puede esquivar",
    ):
        assert word in text
    for cover, value in (("ligera", 2), ("media", 4)):
        attack, _ = kit.run(
            world,
            "attack",
            "aldara",
            {"weapon": "ballesta", "cover": cover},
            ("bandido",),
            [5, 5, 5],
        )
        assert attack.cards[0].outcome.margin == 14 - 15 - value


def test_margin_dice_are_melee_only_unless_set(kit: Any) -> None:
    params = {"weapon": "ballesta", "range": "bocajarro"}
    attack, _ = kit.run(kit.make_world(), "attack", "aldara", params, ("bandido",), [9, 9, 9])
    assert _follow(attack).params["extra"] == 0
    attack, _ = kit.run(
        kit.make_world(settings={"margin_dice_ranged": True}),
        "attack",
        "aldara",
        params,
        ("bandido",),
        [9, 9, 9],
    )
    assert _follow(attack).params["extra"] == 0  # 18 vs 10: 8 over
    attack, _ = kit.run(
        kit.make_world(settings={"margin_dice_ranged": True}),
        "attack",
        "aldara",
        {**params, "modifier": 3},
        ("bandido",),
        [9, 9, 9],
    )
    assert _follow(attack).params["extra"] == 1


def test_ranged_weapon_in_melee_is_a_melee_attack_with_improvised_damage(kit: Any) -> None:
    world = kit.make_world()
    attack, world = kit.run(
        world, "attack", "aldara", {"weapon": "ballesta", "in_melee": True}, ("bandido",), [5, 3, 9]
    )
    assert attack.cards[0].outcome.margin == 8 + 4 + 5 - 14
    follow = _follow(attack)
    assert follow.params["improvised"] is True
    assert world.actors["aldara"].state["ammo"]["ballesta"] == 1  # no bolt spent
    damage, _ = kit.run(world, "damage", "aldara", dict(follow.params), follow.targets, [3])
    assert _follow(damage).params["amount"] == 3 + 1


def test_modifiers_must_fit_the_attack(kit: Any) -> None:
    world = kit.make_world()
    assert (
        kit.refused(world, "attack", "aldara", {"weapon": "espada", "cover": "media"}, ("bandido",))
        == "modifier_not_for_mode"
    )
    assert (
        kit.refused(world, "attack", "aldara", {"weapon": "espada", "running": True}, ("bandido",))
        == "modifier_not_for_mode"
    )
    assert (
        kit.refused(world, "attack", "aldara", {"weapon": "ballesta", "behind": True}, ("bandido",))
        == "modifier_not_for_mode"
    )
    assert kit.refused(world, "attack", "aldara", {"weapon": "espada"}) == "invalid_targets"


def test_ammunition_and_reloading(kit: Any) -> None:
    world = kit.make_world()
    _attack, world = kit.run(
        world, "attack", "aldara", {"weapon": "ballesta"}, ("bandido",), [5, 5, 5]
    )
    assert world.actors["aldara"].state["ammo"]["ballesta"] == 0
    assert kit.system.token_numbers(world.actors["aldara"])["municion.ballesta"] == 0
    assert kit.refused(world, "attack", "aldara", {"weapon": "ballesta"}, ("bandido",)) == "no_ammo"
    reload, world = kit.run(world, "reload", "aldara", {"weapon": "ballesta"})
    assert world.actors["aldara"].state["ammo"]["ballesta"] == 1
    kit.check_translates(reload)
    assert kit.refused(world, "reload", "aldara", {"weapon": "ballesta"}) == "already_loaded"
    assert kit.refused(world, "reload", "aldara", {"weapon": "espada"}) == "not_reloadable"


def test_firearm_reliability_misfire_and_jam(kit: Any) -> None:
    world = kit.make_world()
    # Pistola de chispa: fails on 3 or less (our default table); a 1 jams.
    shot, after = kit.run(
        world, "attack", "casilda", {"weapon": "pistola"}, ("bandido",), [(20, 3)]
    )
    assert shot.cards[0].outcome.key == "misfire" and shot.cards[0].dice[0].role == "fiabilidad"
    assert after.actors["casilda"].state["ammo"]["pistola"] == 0
    kit.check_translates(shot)
    shot, jammed = kit.run(
        world, "attack", "casilda", {"weapon": "pistola"}, ("bandido",), [(20, 1)]
    )
    assert shot.cards[0].outcome.key == "jam"
    assert "jammed" in jammed.actors["casilda"].statuses
    jammed = kit.with_state(jammed, "casilda", ammo={"pistola": 1})
    assert (
        kit.refused(jammed, "attack", "casilda", {"weapon": "pistola"}, ("bandido",))
        == "weapon_jammed"
    )
    cleared, clear = kit.run(jammed, "clear_jam", "casilda", {"weapon": "pistola"})
    assert "jammed" not in clear.actors["casilda"].statuses
    kit.check_translates(cleared)
    assert kit.refused(clear, "clear_jam", "casilda", {"weapon": "pistola"}) == "not_jammed"
    shot, _ = kit.run(
        world, "attack", "casilda", {"weapon": "pistola"}, ("bandido",), [(20, 4), 5, 5, 5]
    )
    assert (
        shot.cards[0].outcome.success and next(d.role for d in shot.cards[0].dice) == "fiabilidad"
    )
    off = kit.make_world(settings={"firearm_reliability": False})
    shot, _ = kit.run(off, "attack", "casilda", {"weapon": "pistola"}, ("bandido",), [5, 5, 5])
    assert all(d.role == "objetivo" for d in shot.cards[0].dice)


def test_badly_hurt_attacker_keeps_the_lowest_and_a_fallen_one_cannot_attack(kit: Any) -> None:
    world = kit.with_state(kit.make_world(), "aldara", heridas=24)
    attack, _ = kit.run(world, "attack", "aldara", {"weapon": "espada"}, ("bandido",), [5, 3, 9])
    assert attack.cards[0].outcome.margin == 12 + 3 - 14
    down = kit.with_state(world, "aldara", heridas=32)
    assert kit.refused(down, "attack", "aldara", {"weapon": "espada"}, ("bandido",)) == "actor_down"
    assert kit.refused(down, "skill", "aldara", {"skill": "sigilo"}) == "actor_down"


def test_unknown_melee_skill_keeps_the_lowest(kit: Any) -> None:
    world = kit.make_world()
    world = world.with_actor(kit.actor("novato", {"fisico": 5}))
    attack, _ = kit.run(world, "attack", "novato", {}, ("bruno",), [5, 3, 9])
    assert attack.cards[0].outcome.margin == 5 + 3 - 14
    assert "habilidad desconocida" in kit.render(attack.cards[0])


def test_ambush_won_gives_a_free_first_attack(kit: Any) -> None:
    world = kit.make_world()
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar", "ambush": True}
    sneak, world = kit.run(world, "skill", "bruno", params, ("bandido",), [9, 9, 9])
    follow = _follow(sneak)
    answer, world = kit.run(
        world, "oppose", "bandido", dict(follow.params), follow.targets, [1, 2, 3]
    )
    assert world.data["ambush"] == {"bruno": ["bandido"]}
    kit.check_translates(answer)
    # The fight starts; Bruno has one action, but the ambush attack is free.
    world = kit.with_state(world, "bruno")
    _, world = kit.run(world, "initiative", "bruno", dice=[2, 2, 2])
    free, world = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",), [5, 5, 5])
    assert "gratuito" in kit.render(free.cards[0])
    assert world.data["ambush"] == {}
    assert world.data["o3d10_combat"]["used"] == {}
    _, world = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",), [5, 5, 5])
    assert (
        kit.refused(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",)) == "no_actions_left"
    )


def test_lost_ambush_sets_nothing(kit: Any) -> None:
    world = kit.make_world()
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar", "ambush": True}
    sneak, world = kit.run(world, "skill", "bruno", params, ("bandido",), [1, 2, 3])
    follow = _follow(sneak)
    _, world = kit.run(world, "oppose", "bandido", dict(follow.params), follow.targets, [9, 9, 9])
    assert "ambush" not in world.data
    assert (
        kit.refused(kit.make_world(), "skill", "bruno", {"skill": "sigilo", "ambush": True})
        == "ambush_needs_target"
    )


def test_auto_apply_damage_setting(kit: Any) -> None:
    world = kit.make_world(settings={"auto_apply_damage": True})
    params = {"weapon": "espada", "improvised": False, "extra": 0}
    damage, world = kit.run(world, "damage", "aldara", params, ("bruno",), [6, 6, 6, 2, 5])
    assert damage.cards[0].actions == ()
    assert world.actors["bruno"].state["heridas"] == 25  # Físico 6: inconsciente from 24
    assert world.actors["bruno"].statuses == {"unconscious"}
    kit.check_translates(damage)


def test_endless_explosions_are_refused_cleanly(kit: Any) -> None:
    world = kit.make_world()
    params = {"weapon": "espada", "improvised": False, "extra": 0}
    assert kit.refused(world, "damage", "aldara", params, ("bruno",), [6] * 60) == "dice_limit"
