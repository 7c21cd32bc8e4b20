"""Rulings added on top of the first cut: movement, spells as major actions, ambush before
the fight, the answering side's token, health thresholds by model, form labels."""

from __future__ import annotations

from typing import Any

from rules.i18n import lookup
from rules.o3d10.health import state_for_wounds, thresholds
from rules.o3d10.sheet import parse_sheet


def _fight(kit: Any, *rolls: tuple[str, list[int]], settings: Any = None) -> Any:
    world = kit.make_world(settings=settings)
    _, world = kit.run(world, "combat_start", "aldara", {"roll_all": False}, by_gm=True)
    for actor_id, faces in rolls:
        _, world = kit.run(world, "initiative", actor_id, dice=faces)
    return world


def test_moving_spends_an_action_and_at_most_9_metres_a_round(kit: Any) -> None:
    """'con dos acciones por turno ... podemos mover 9 metros y realizar un ataque con la espada
    sin penalización' and 'El movimiento máximo es 9 metros'."""
    world = _fight(kit, ("bruno", [7, 7, 7]))  # 13 + 7 = 20: two actions
    moved, world = kit.run(world, "move", "bruno", {"metres": 6})
    text = kit.render(moved.cards[0])
    assert "Se mueve 6 m" in text and "Movimiento en este turno: 6/9 m" in text
    assert "gasta una acción" in text
    assert world.data["o3d10_combat"]["used"] == {"bruno": 1}
    more, world = kit.run(world, "move", "bruno", {"metres": 3})
    assert "gasta una acción" not in kit.render(more.cards[0])
    assert world.data["o3d10_combat"]["used"] == {"bruno": 1}
    assert kit.refused(world, "move", "bruno", {"metres": 1}) == "move_limit"
    attack, world = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",), [5, 3, 9])
    assert "Dado objetivo: el medio" in kit.render(attack.cards[0])  # no penalty
    kit.check_translates(moved)
    # The next round: 9 m again.
    _, world = kit.run(world, "next_round", "aldara", by_gm=True)
    _, world = kit.run(world, "move", "bruno", {"metres": 9})


def test_with_one_action_moving_and_attacking_needs_a_split(kit: Any) -> None:
    world = _fight(kit, ("aldara", [5, 5, 5]))  # 11 + 5 = 16: one action
    _, moved = kit.run(world, "move", "aldara", {})
    assert kit.refused(moved, "attack", "aldara", {"weapon": "espada"}, ("bruno",)) == (
        "no_actions_left"
    )
    _, split = kit.run(world, "move", "aldara", {"split": True})
    attack, _ = kit.run(split, "attack", "aldara", {"weapon": "espada"}, ("bruno",), [5, 3, 9])
    assert "el menor (acciones divididas)" in kit.render(attack.cards[0])


def test_moving_outside_combat_is_not_counted(kit: Any) -> None:
    moved, world = kit.run(kit.make_world(), "move", "aldara", {"metres": 9})
    assert "o3d10_combat" not in world.data and "Movimiento" not in kit.render(moved.cards[0])
    # Without counting actions the 9 m still hold in a fight.
    world = _fight(kit, settings={"enforce_actions": False})
    _, world = kit.run(world, "move", "aldara", {"metres": 9})
    assert kit.refused(world, "move", "aldara", {"metres": 1}) == "move_limit"


def test_casting_a_spell_in_combat_is_a_major_action(kit: Any) -> None:
    """'Una acción mayor sería usar un conjuro o realizar un ataque.'"""
    world = _fight(kit, ("bruno", [5, 5, 5]))
    assert kit.refused(world, "skill", "casilda", {"skill": "conjurar"}) == "no_initiative"
    _, world = kit.run(world, "initiative", "casilda", dice=[5, 5, 5])  # 13 + 5: one action
    _, world = kit.run(world, "skill", "casilda", {"skill": "conjurar"}, dice=[5, 5, 5])
    assert world.data["o3d10_combat"]["used"] == {"casilda": 1}
    assert kit.refused(world, "skill", "casilda", {"skill": "conjurar"}) == "no_actions_left"
    # Other skills are the GM's call: not counted.
    _, world = kit.run(world, "skill", "casilda", {"skill": "advertir_notar"}, dice=[5, 5, 5])
    assert world.data["o3d10_combat"]["used"] == {"casilda": 1}


def test_an_ambush_won_before_the_fight_survives_combat_start(kit: Any) -> None:
    world = kit.make_world()
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar", "ambush": True}
    sneak, world = kit.run(world, "skill", "bruno", params, ("bandido",), [9, 9, 9])
    follow = sneak.cards[0].actions[0]
    _, world = kit.run(world, "oppose", "bandido", dict(follow.params), follow.targets, [1, 2, 3])
    _, world = kit.run(world, "combat_start", "aldara", {"roll_all": False}, by_gm=True)
    assert world.data["ambush"] == {"bruno": ["bandido"]}
    # The free attack needs no initiative; the next one does.
    free, world = kit.run(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",), [5, 5, 5])
    assert "gratuito" in kit.render(free.cards[0])
    assert kit.refused(world, "attack", "bruno", {"weapon": "daga"}, ("bandido",)) == (
        "no_initiative"
    )
    _, world = kit.run(world, "combat_end", "aldara", by_gm=True)
    assert world.data["ambush"] == {}


def test_the_answering_side_may_give_its_token(kit: Any) -> None:
    """The token goes 'antes de una tirada de atributo o habilidad': answering one too."""
    world = kit.make_world()
    params = {"skill": "sigilo", "opposed_skill": "advertir_notar"}
    sneak, world = kit.run(world, "skill", "bruno", params, ("aldara",), [5, 5, 5])
    follow = sneak.cards[0].actions[0]
    assert [p.name for p in follow.ask] == ["modifier", "give_token"]
    answer, world = kit.run(
        world,
        "oppose",
        "aldara",
        {**follow.params, "give_token": True},
        follow.targets,
        [2, 3, 9],
    )
    # Unknown skill (down) and the token (up): the median.
    assert "el medio (habilidad desconocida, token entregado)" in kit.render(answer.cards[0])
    assert world.actors["aldara"].state["token"] == "gm"


def test_health_thresholds_follow_the_model(kit: Any) -> None:
    sheet = parse_sheet(
        kit.system.validate_sheet({"attributes": {"fisico": 4}, "combat": {"pv": 20}})
    )
    bands = {"health_model": "bands"}
    points = {"health_model": "hit_points"}
    assert thresholds(sheet, bands) == (12, 16, 24)
    # 'Malherido: Si los PVs ... son iguales a su físico, o inferior': 20 - 16 = 4 PV.
    assert thresholds(sheet, points) == (16, 20, 24)
    for settings in (bands, points):
        wounded, down, dead = thresholds(sheet, settings)
        assert state_for_wounds(sheet, wounded - 1, settings) == "normal"
        assert state_for_wounds(sheet, wounded, settings) == "malherido"
        assert state_for_wounds(sheet, down, settings) == "inconsciente"
        assert state_for_wounds(sheet, dead, settings) == "muerto"
    world = kit.make_world(settings={"version": "primera"})
    world = world.with_actor(kit.actor("fragil", {"fisico": 4}, combat={"pv": 20}))
    applied, _ = kit.run(world, "damage_apply", "fragil", {"amount": 16}, by_gm=True)
    assert "Malherido desde 16, inconsciente desde 20, muerto desde 24" in kit.render(
        applied.cards[0]
    )


def test_form_choices_and_dice_roles_have_labels(kit: Any) -> None:
    for spec in kit.system.actions.values():
        for param in spec.params:
            if param.kind != "choice" or param.name == "level":
                continue
            for choice in param.choices:
                for locale in ("es", "en"):
                    key = f"choice.{param.name}.{choice}"
                    assert lookup(key, locale, kit.system.messages), key
    for role in ("objetivo", "dano", "dano.margen", "fiabilidad", "aliento"):
        assert lookup(f"role.{role}", "en", kit.system.messages)
