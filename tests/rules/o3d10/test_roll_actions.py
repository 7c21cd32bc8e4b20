"""The spine's actions through the system: attribute, skill, oppose, token_return."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules.model import RulesError


def test_skill_roll_against_a_level(kit: Any) -> None:
    world = kit.make_world()
    resolution, _ = kit.run(
        world, "skill", "aldara", {"skill": "cuerpo_a_cuerpo", "level": "normal"}, dice=[5, 3, 9]
    )
    card = resolution.cards[0]
    assert card.outcome.key == "success" and card.outcome.margin == 2  # 8 + 4 + 5 = 17 vs 15
    assert [d.first for d in card.dice] == [5, 3, 9]
    assert "Cuerpo a Cuerpo" in kit.render(card, "es")
    kit.check_translates(resolution)


def test_attribute_roll_with_exact_difficulty_and_modifier(kit: Any) -> None:
    world = kit.make_world()
    resolution, _ = kit.run(
        world,
        "attribute",
        "aldara",
        {"attribute": "fisico", "difficulty": 12, "modifier": -2},
        dice=[4, 4, 2],
    )
    card = resolution.cards[0]
    assert card.outcome.key == "failure" and card.outcome.margin == -2  # 8 - 2 + 4 = 10 vs 12
    text = kit.render(card, "en")
    assert "Physique" in text and "Modifier -2" in text
    kit.check_translates(resolution)


def test_attribute_difficulty_level_uses_the_attribute_ladder(kit: Any) -> None:
    world = kit.make_world()
    resolution, _ = kit.run(
        world, "attribute", "aldara", {"attribute": "fisico", "level": "facil"}, dice=[1, 2, 3]
    )
    assert resolution.cards[0].outcome.margin == 8 + 2 - 9


def test_unknown_skill_keeps_the_lowest(kit: Any) -> None:
    world = kit.make_world()
    resolution, _ = kit.run(
        world, "skill", "aldara", {"skill": "advertir_notar", "level": "facil"}, dice=[5, 3, 9]
    )
    card = resolution.cards[0]
    assert [d.kept for d in card.dice] == [False, True, False]
    assert "habilidad desconocida" in kit.render(card, "es")


def test_badly_hurt_keeps_the_lowest(kit: Any) -> None:
    world = kit.make_world()
    aldara = world.actors["aldara"]
    world = world.with_actor(replace(aldara, state={**aldara.state, "heridas": 24}))  # Físico 8 x3
    resolution, _ = kit.run(world, "skill", "aldara", {"skill": "sigilo"}, dice=[5, 3, 9])
    assert resolution.cards[0].dice[1].kept
    assert "malherido" in kit.render(resolution.cards[0], "es")
    world = world.with_actor(replace(aldara, state={**aldara.state, "heridas": 23}))
    resolution, _ = kit.run(world, "skill", "aldara", {"skill": "sigilo"}, dice=[5, 3, 9])
    assert resolution.cards[0].dice[0].kept


def test_token_given_keeps_the_highest_then_returned_forces_the_lowest(kit: Any) -> None:
    world = kit.make_world()
    resolution, world = kit.run(
        world, "skill", "aldara", {"skill": "sigilo", "give_token": True}, dice=[5, 3, 9]
    )
    assert resolution.cards[0].dice[2].kept
    assert world.actors["aldara"].state["token"] == "gm"
    with pytest.raises(RulesError) as held:
        kit.run(world, "skill", "aldara", {"skill": "sigilo", "give_token": True}, dice=[5, 3, 9])
    assert held.value.code == "token_not_held"
    resolution, world = kit.run(world, "token_return", "aldara", by_gm=True)
    assert world.actors["aldara"].state["token"] == "returned"
    kit.check_translates(resolution)
    resolution, world = kit.run(world, "skill", "aldara", {"skill": "sigilo"}, dice=[5, 3, 9])
    assert resolution.cards[0].dice[1].kept  # the lowest, once
    assert world.actors["aldara"].state["token"] == "player"
    with pytest.raises(RulesError) as not_with_gm:
        kit.run(world, "token_return", "aldara", by_gm=True)
    assert not_with_gm.value.code == "token_not_with_gm"


def test_split_actions_keep_the_lowest(kit: Any) -> None:
    world = kit.make_world()
    resolution, _ = kit.run(
        world, "skill", "aldara", {"skill": "sigilo", "split": True}, dice=[5, 3, 9]
    )
    assert resolution.cards[0].dice[1].kept
    assert "acciones divididas" in kit.render(resolution.cards[0], "es")


def test_gm_may_force_the_kept_die_but_a_player_may_not(kit: Any) -> None:
    world = kit.make_world()
    resolution, _ = kit.run(
        world, "skill", "aldara", {"skill": "sigilo", "keep": "highest"}, dice=[5, 3, 9], by_gm=True
    )
    assert resolution.cards[0].dice[2].kept
    with pytest.raises(RulesError) as refused:
        kit.run(world, "skill", "aldara", {"skill": "sigilo", "keep": "highest"}, dice=[5, 3, 9])
    assert refused.value.code == "keep_is_gm_only"


def test_opposed_roll_flow_and_tie(kit: Any) -> None:
    world = kit.make_world()
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar"}
    resolution, world = kit.run(world, "skill", "aldara", params, ("bruno",), dice=[5, 3, 9])
    card = resolution.cards[0]
    assert card.outcome is None
    (follow,) = card.actions
    assert follow.action == "oppose" and follow.actor_id == "bruno"
    assert follow.params["against"] == 6 + 2 + 5
    kit.check_translates(resolution)
    # Bruno: Percepción 6 + Advertir 3 + 4 = 13: a tie, to be repeated.
    tie, _ = kit.run(world, "oppose", "bruno", dict(follow.params), follow.targets, dice=[4, 4, 2])
    assert tie.cards[0].outcome.key == "tie"
    kit.check_translates(tie)
    win, _ = kit.run(world, "oppose", "bruno", dict(follow.params), follow.targets, dice=[8, 6, 1])
    assert win.cards[0].outcome.key == "success" and win.cards[0].outcome.margin == 2
    assert "Gana Bruno" in kit.render(win.cards[0], "es")
    lose, _ = kit.run(world, "oppose", "bruno", dict(follow.params), follow.targets, dice=[1, 2, 3])
    assert lose.cards[0].outcome.key == "failure"


def test_opposed_tie_to_the_defender_setting(kit: Any) -> None:
    world = kit.make_world(settings={"opposed_tie": "defender"})
    params = {"against": 13, "skill": "advertir_notar"}
    resolution, _ = kit.run(world, "oppose", "bruno", params, ("aldara",), dice=[4, 4, 2])
    assert resolution.cards[0].outcome.key == "success"


@pytest.mark.parametrize(
    ("kind", "params", "targets", "code"),
    [
        ("skill", {"skill": "volar"}, (), "no_such_skill"),
        ("attribute", {"attribute": "suerte"}, (), "no_such_attribute"),
        ("skill", {"skill": "sigilo", "level": "facil", "difficulty": 10}, (), "invalid_param"),
        ("skill", {"skill": "sigilo", "level": "imposible"}, (), "invalid_param"),
        ("skill", {"skill": "sigilo"}, ("bruno",), "invalid_param"),
        ("skill", {"skill": "sigilo", "opposed_skill": "volar"}, ("bruno",), "no_such_skill"),
        ("skill", {"skill": "sigilo"}, ("nadie",), "unknown_actor"),
        ("skill", {"skill": "sigilo"}, ("bruno", "aldara"), "invalid_targets"),
        ("oppose", {"against": 10}, ("bruno",), "invalid_param"),
        ("volar", {}, (), "unknown_action"),
        ("skill", {}, (), "invalid_param"),
    ],
)
def test_refusals(
    kit: Any, kind: str, params: dict[str, Any], targets: tuple[str, ...], code: str
) -> None:
    world = kit.make_world()
    with pytest.raises(RulesError) as refused:
        kit.run(world, kind, "aldara", params, targets, dice=[5, 5, 5])
    assert refused.value.code == code
    for locale in ("es", "en"):
        from rules.i18n import translate

        translate(refused.value.message, locale, kit.system.messages, strict=True)


def test_encumbrance_hits_dexterity_skills_out_of_combat_and_spells_always(kit: Any) -> None:
    world = kit.make_world()
    # Casilda: estorbo 1. Armas a Distancia (Destreza) out of combat: 7 + 5 + 5 - 1.
    rolled, _ = kit.run(world, "skill", "casilda", {"skill": "armas_a_distancia"}, dice=[5, 5, 5])
    assert rolled.cards[0].outcome.key == "rolled"
    assert "Estorbo -1" in kit.render(rolled.cards[0])
    assert "Total 16" in kit.render(rolled.cards[0])
    notice, _ = kit.run(world, "skill", "casilda", {"skill": "advertir_notar"}, dice=[5, 5, 5])
    assert "Total 16" in kit.render(notice.cards[0]) and "Estorbo" not in kit.render(
        notice.cards[0]
    )
    _, fighting = kit.run(world, "combat_start", "casilda", {"roll_all": False}, by_gm=True)
    _, fighting = kit.run(fighting, "initiative", "casilda", dice=[5, 5, 5])
    rolled, _ = kit.run(
        fighting, "skill", "casilda", {"skill": "armas_a_distancia"}, dice=[5, 5, 5]
    )
    assert "Total 17" in kit.render(rolled.cards[0])
    spell, _ = kit.run(fighting, "skill", "casilda", {"skill": "conjurar"}, dice=[5, 5, 5])
    assert "Total 13" in kit.render(spell.cards[0])  # 6 + 3 + 5 - 1


def test_natural_one_on_attribute_rolls_is_a_setting(kit: Any) -> None:
    params = {"attribute": "fisico", "level": "facil"}
    plain, _ = kit.run(kit.make_world(), "attribute", "aldara", params, dice=[1, 1, 7])
    assert plain.cards[0].outcome.key == "success"
    strict = kit.make_world(settings={"natural_one_attribute": True})
    failed, _ = kit.run(strict, "attribute", "aldara", params, dice=[1, 1, 7])
    assert failed.cards[0].outcome.key == "failure"
    kit.check_translates(failed)


def test_rank_stacking_setting_through_the_system(kit: Any) -> None:
    hurt = {"heridas": 24}
    steps = kit.with_state(kit.make_world(), "aldara", **hurt)
    rolled, _ = kit.run(
        steps, "skill", "aldara", {"skill": "sigilo", "give_token": True}, dice=[5, 3, 9]
    )
    assert rolled.cards[0].dice[0].kept  # badly hurt and token cancel: the median
    wins = kit.with_state(
        kit.make_world(settings={"rank_stacking": "lowest_wins"}), "aldara", **hurt
    )
    rolled, _ = kit.run(
        wins, "skill", "aldara", {"skill": "sigilo", "give_token": True}, dice=[5, 3, 9]
    )
    assert rolled.cards[0].dice[1].kept
