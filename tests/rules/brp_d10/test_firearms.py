"""Firearms: the special-forces burst and sustained fire, the bodyguard and the hitman, ammunition,
reloading, aiming, and the refusals."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from brp_d10_helpers import follow, follow_ids, make_actor, next_round, run, sample_world

from rules.brp_d10.actions_checks import plan_slots
from rules.brp_d10.initiative import timeline
from rules.model import RulesError

THUG: dict[str, Any] = {
    "characteristics": {"fuerza": 5, "agilidad": 4, "resistencia": 5, "tamano": 5},
    "skills": {"pistolas": {"label": "Revólver", "value": 4}},
    "weapons": {
        "revolver": {
            "label": "Revólver",
            "kind": "ranged",
            "skill": "pistolas",
            "damage": "1d8",
            "automatic": True,
            "magazine": 6,
            "pistol": True,
        }
    },
}

ARCHER: dict[str, Any] = {
    "characteristics": {"fuerza": 5, "agilidad": 6, "resistencia": 5, "tamano": 5},
    "skills": {"arco": {"label": "Arco", "value": 6}},
    "weapons": {
        "arco": {
            "label": "Arco largo",
            "kind": "ranged",
            "skill": "arco",
            "damage": "1d8",
            "magazine": 1,
            "draw_and_use": False,
        }
    },
}


def _world(**settings: Any):
    return sample_world(settings, make_actor("maton", THUG), make_actor("arquero", ARCHER))


def _code(call) -> str:
    with pytest.raises(RulesError) as error:
        call()
    return error.value.code


def test_burst_example() -> None:
    # 'tiene un 5 en Fusiles automáticos, y su arma dispara tres balas por ráfaga ... Tira el dado y
    # saca un 4. Eso significa que las dos primeras balas impactan pero la última [no]'
    world = _world()
    res, world = run(world, "attack", "agente", [4], ("maton",), weapon="subfusil", mode="burst")
    assert res.cards[0].outcome.margin == 2
    burst_line = res.cards[0].sections[1].lines[-1]
    keys = [item.key for item in burst_line.value.params["items"]]
    assert keys == ["line.bullet_hit", "line.bullet_hit", "line.bullet_miss"]
    assert world.actors["agente"].state["ammo"]["subfusil"] == 27
    assert follow_ids(res) == ["damage"]
    # one burst a round
    assert (
        _code(
            lambda: run(world, "attack", "agente", [4], ("maton",), weapon="subfusil", mode="burst")
        )
        == "one_burst_per_round"
    )
    # two bullets, two locations and two damage rolls
    res, world = follow(world, res, "damage", [1, 2, 5, 2])
    assert len(world.actors["maton"].state["wounds"]) == 2


def test_sustained_fire_example() -> None:
    # 'Tira el dado y saca un 9, con lo que falla su primera rociada ... en esta ocasión con un -2 a
    # la dificultad (el objetivo está a distancia corta). Saca un 6 y acierta (6-2=4) ... saca otro
    # 6 y el delincuente se lleva tres balazos.'
    world = _world()
    res, world = run(
        world,
        "attack",
        "agente",
        [9, 6, 6],
        ("maton",),
        weapon="subfusil",
        mode="sustained",
        range="short",
    )
    card = res.cards[0]
    assert card.outcome.margin == 3
    assert [s.title.key for s in card.sections[1:]] == ["section.sustained", "section.sustained"]
    second = card.sections[2]
    assert any(line.label.key == "mod.spray_short" and line.value == "-2" for line in second.lines)
    assert not any(line.label.key == "mod.accumulation" for s in card.sections for line in s.lines)
    # each spray lowers Agilidad by 1 for timing
    assert [s.lines[0].value.params["agility"] for s in card.sections[1:]] == [6, 5]
    assert world.actors["agente"].state["ammo"]["subfusil"] == 20
    assert [d.role for d in card.dice] == ["attack", "attack", "spray_hits"]
    res, world = follow(world, res, "damage", [1, 1, 3, 1, 5, 1])
    assert len(world.actors["maton"].state["wounds"]) == 3


def test_sustained_fire_with_ordinary_range_modifiers_too() -> None:
    world = _world(sustained_range="add")
    res, _ = run(
        world,
        "attack",
        "agente",
        [9, 6, 6],
        ("maton",),
        weapon="subfusil",
        mode="sustained",
        range="short",
    )
    first = res.cards[0].sections[1]
    assert any(line.label.key == "mod.range_short" for line in first.lines)
    assert res.cards[0].outcome.margin == 3


def test_changing_target_in_sustained_fire_wastes_a_bullet() -> None:
    world = _world()
    _, world = run(
        world, "attack", "agente", [9], ("maton",), weapon="subfusil", mode="sustained", bullets=5
    )
    res, world = run(
        world, "attack", "agente", [9], ("arquero",), weapon="subfusil", mode="sustained", bullets=5
    )
    assert any(line.label.key == "line.wasted_bullet" for line in res.cards[0].sections[0].lines)
    assert world.actors["agente"].state["ammo"]["subfusil"] == 20
    assert res.cards[0].sections[1].lines[-1].value == 4  # a spray of 4 after the wasted bullet


def test_bodyguard_and_hitman() -> None:
    # 'Decide hacer tres disparos; tira el dado y saca en primer lugar un 2 ... Saca un 3, lo que es
    # otro éxito. El tercer disparo ... con un +2 a la dificultad. Saca un 6, un fallo.'
    world = _world()
    res, world = run(
        world, "attack", "guardaespaldas", [2, 3, 6], ("maton",), weapon="pistola", shots=3
    )
    card = res.cards[0]
    assert card.outcome.margin == 2
    timings = [s.lines[0].value.params for s in card.sections[1:]]
    assert [(p["agility"], p["tenth"]) for p in timings] == [(5, 6), (4, 7), (3, 8)]
    difficulties = [
        next(
            line.value.params["difficulty"]
            for line in s.lines
            if line.label.key == "line.attack_roll"
        )
        for s in card.sections[1:]
    ]
    assert difficulties == ["+0", "+1", "+2"]
    # the hitman (Agilidad 4) fires at the same time as the second shot, before the third
    slots = plan_slots(
        world, "guardaespaldas", "shoot:pistola,shoot:pistola,shoot:pistola"
    ) + plan_slots(world, "maton", "shoot:revolver")
    order = [(when, [(s.actor_id, s.index) for s in group]) for when, group in timeline(slots)]
    assert order == [
        (6, [("guardaespaldas", 0)]),
        (7, [("guardaespaldas", 1), ("maton", 0)]),
        (8, [("guardaespaldas", 2)]),
    ]
    # 'El guardaespaldas, por su Agilidad y las características de su pistola puede hacer un
    # máximo de cinco disparos'
    fresh = _world()
    assert (
        _code(
            lambda: run(
                fresh, "attack", "guardaespaldas", [1] * 6, ("maton",), weapon="pistola", shots=6
            )
        )
        == "too_many_actions_agility"
    )
    _, used = run(fresh, "attack", "guardaespaldas", [9] * 5, ("maton",), weapon="pistola", shots=5)
    assert used.actors["guardaespaldas"].state["ammo"]["pistola"] == 10


def test_gunfire_cannot_be_parried_or_dodged() -> None:
    world = _world()
    res, world = run(world, "attack", "maton", [1, 9], ("espanol",), weapon="revolver")
    assert follow_ids(res) == ["damage"]
    assert any(line.label.key == "line.no_defence_gun" for line in res.cards[0].sections[0].lines)
    assert (
        _code(
            lambda: run(
                world, "parry", "espanol", [1], ("maton",), weapon="rodela", attack_class="gun"
            )
        )
        == "cannot_parry_missile"
    )
    assert (
        _code(lambda: run(world, "dodge", "espanol", [1], ("maton",), attack_class="gun"))
        == "cannot_dodge_missile"
    )


def test_arrows_are_stopped_by_a_shield_only() -> None:
    world = _world()
    res, world = run(world, "attack", "arquero", [3], ("espanol",), weapon="arco")
    assert follow_ids(res) == ["parry", "take"]
    assert (
        _code(lambda: follow(world, res, "parry", [1], weapon="espada")) == "cannot_parry_missile"
    )
    blocked, _ = follow(world, res, "parry", [1], weapon="rodela")
    assert blocked.cards[0].outcome.success is True
    res2, _ = run(_world(), "attack", "arquero", [3], ("frances",), weapon="arco")
    assert follow_ids(res2) == ["damage"]


def test_ammunition_and_reloading() -> None:
    world = _world()
    # the bow holds one arrow: shoot, then a round to nock another
    _, world = run(world, "attack", "arquero", [9], ("frances",), weapon="arco")
    assert world.actors["arquero"].state["ammo"]["arco"] == 0
    assert _code(lambda: run(world, "reload", "arquero", weapon="arco")) == "round_spent"
    world = next_round(world)
    assert (
        _code(lambda: run(world, "attack", "arquero", [5], ("frances",), weapon="arco"))
        == "no_ammo"
    )
    _, world = run(world, "reload", "arquero", weapon="arco")
    assert world.actors["arquero"].state["ammo"]["arco"] == 1
    assert (
        _code(lambda: run(world, "attack", "arquero", [5], ("frances",), weapon="arco"))
        == "round_spent"
    )
    world = next_round(world)
    assert _code(lambda: run(world, "reload", "arquero", weapon="arco")) == "already_loaded"
    assert _code(lambda: run(world, "reload", "espanol", weapon="espada")) == "no_magazine"
    # a revolver loaded one round at a time
    _, world = run(world, "attack", "maton", [9, 9], ("frances",), weapon="revolver", shots=2)
    world = next_round(world)
    _, world = run(world, "reload", "maton", weapon="revolver", one=True)
    assert world.actors["maton"].state["ammo"]["revolver"] == 5
    assert (
        _code(
            lambda: run(world, "attack", "maton", [9] * 6, ("frances",), weapon="revolver", shots=4)
        )
        == "round_spent"
    )
    world = next_round(world)
    assert (
        _code(
            lambda: run(world, "attack", "maton", [9] * 5, ("frances",), weapon="revolver", shots=5)
        )
        == "too_many_actions_agility"
    )
    _, world = run(world, "attack", "maton", [9] * 4, ("frances",), weapon="revolver", shots=4)
    assert world.actors["maton"].state["ammo"]["revolver"] == 1


def test_refusals_of_fire() -> None:
    world = _world()
    assert (
        _code(
            lambda: run(
                world, "attack", "guardaespaldas", [5], ("maton",), weapon="pistola", mode="burst"
            )
        )
        == "fire_mode_unavailable"
    )
    assert (
        _code(lambda: run(world, "attack", "arquero", [5], ("maton",), weapon="arco", drawn=True))
        == "cannot_draw_and_use"
    )
    assert (
        _code(lambda: run(world, "attack", "guardaespaldas", [5], ("maton",), weapon="bazooka"))
        == "no_such_weapon"
    )
    assert (
        _code(
            lambda: run(
                world,
                "attack",
                "agente",
                [5],
                ("maton",),
                weapon="subfusil",
                mode="sustained",
                bullets=11,
            )
        )
        == "too_many_bullets"
    )
    assert (
        _code(
            lambda: run(
                world, "attack", "guardaespaldas", [5], ("maton",), weapon="pistola", surprise=True
            )
        )
        == "surprise_melee_only"
    )
    maton = world.actors["maton"]
    empty = world.with_actor(replace(maton, state={**maton.state, "ammo": {"revolver": 2}}))
    assert (
        _code(
            lambda: run(
                empty, "attack", "maton", [5, 5, 5], ("frances",), weapon="revolver", shots=3
            )
        )
        == "not_enough_ammo"
    )


def test_aiming_before_shooting() -> None:
    world = _world()
    _, world = run(world, "aim", "guardaespaldas", weapon="pistola")
    assert "aiming" in world.actors["guardaespaldas"].statuses
    assert (
        _code(lambda: run(world, "attack", "guardaespaldas", [5], ("maton",), weapon="pistola"))
        == "round_spent"
    )
    for _ in range(2):
        world = next_round(world)
        _, world = run(world, "aim", "guardaespaldas", weapon="pistola")
    world = next_round(world)
    res, world = run(world, "attack", "guardaespaldas", [6], ("maton",), weapon="pistola")
    # three rounds aimed, but 'no se puede acumular más de un -2'
    mods = {line.label.key: line.value for line in res.cards[0].sections[1].lines}
    assert mods["mod.aim"] == "-2"
    assert res.cards[0].outcome.success is True  # 6 - 2 = 4 <= 4
    assert "aiming" not in world.actors["guardaespaldas"].statuses
    assert world.actors["guardaespaldas"].state["aim"]["rounds"] == 0
    assert _code(lambda: run(world, "aim", "espanol", weapon="espada")) == "cannot_aim_melee"
