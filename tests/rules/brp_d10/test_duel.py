"""The French and Spanish knights' duel of the seed, both rounds, roll by roll, through the
system's actions and follow-ups."""

from __future__ import annotations

import pytest
from brp_d10_helpers import find_follow, follow, follow_ids, next_round, run, sample_world, wounds

from rules.model import RulesError


def _timing(resolution):  # the (agility, tenth) of each roll of an attack card
    card = resolution.cards[0]
    found = []
    for section in card.sections[1:]:
        params = section.lines[0].value.params
        found.append((params["agility"], params["tenth"]))
    return found


def test_round_one() -> None:
    world = sample_world()
    # 'el francés procede a atacar y el dado marca un 8. Ha fallado su primer ataque'
    res, world = run(world, "attack", "frances", [8], ("espanol",), weapon="espada")
    assert res.cards[0].outcome.success is False
    assert _timing(res) == [
        (7, 4)
    ]  # 'el caballero francés haría su primera acción en la cuarta décima'
    # 'es el turno del español, que saca un 5 y acierta'
    res, world = run(world, "attack", "espanol", [5], ("frances",), weapon="espada")
    assert res.cards[0].outcome.success is True
    assert _timing(res) == [(5, 6)]  # '... el español haría su primera acción en la sexta'
    assert follow_ids(res) == ["parry", "dodge", "take"]
    # '... causando a su enemigo una herida leve en la pierna': location 3, 1d8+1 = 2+1, Fuerza 7 +1
    res, world = follow(world, res, "take", [3, 2])
    assert wounds(world, "frances") == [("pierna_izquierda", 1)]
    assert "wounded" in world.actors["frances"].statuses
    # '(pongamos que el francés pasa su tirada de Resistencia y aguanta el dolor ...)'
    res, world = follow(world, res, "endure_1", [4])
    assert res.cards[0].outcome.success is True
    assert world.actors["frances"].state["wounds"][0]["ignored"] is True
    # 'primero tira el español, sacando un 4, lo que supone un nivel de éxito de 1'
    res, world = run(world, "attack", "espanol", [4], ("frances",), weapon="espada")
    attack = res.cards[0]
    assert attack.outcome.success is True
    assert _timing(res) == [(2, 9)]  # '... y finalmente el español su segunda acción en la novena'
    parry = find_follow(res, "parry")
    assert parry.params["against_level"] == 1
    # '+2 a la dificultad en la parada del otro ... El francés saca un 1, con lo que consigue
    # milagrosamente detener el ataque.'
    res, world = follow(world, res, "parry", [1], weapon="espada")
    card = res.cards[0]
    assert card.outcome.success is True
    check_line = next(
        line
        for line in card.sections[0].lines
        if line.value is not None and hasattr(line.value, "params") and "total" in line.value.params
    )
    assert check_line.value.params["difficulty"] == "+2"
    assert follow_ids(res) == []
    assert world.actors["frances"].state["round"]["weapons"] == {"espada": 2}


def test_round_two_kills_the_french_knight() -> None:
    world = sample_world()
    _, world = run(world, "attack", "frances", [8], ("espanol",), weapon="espada")
    res, world = run(world, "attack", "espanol", [5], ("frances",), weapon="espada")
    res, world = follow(world, res, "take", [3, 2])
    res, world = follow(world, res, "endure_1", [4])
    res, world = run(world, "attack", "espanol", [4], ("frances",), weapon="espada")
    _, world = follow(world, res, "parry", [1], weapon="espada")
    world = next_round(world)
    assert world.actors["frances"].state["round"]["actions"] == 0
    # 'El francés tira con un +1 a la dificultad por el golpe de precisión y saca un 2, con lo
    # que logra su objetivo hiriendo gravemente a su adversario en la cabeza'
    res, world = run(
        world, "attack", "frances", [2], ("espanol",), weapon="espada", location="cabeza"
    )
    assert res.cards[0].outcome.success is True
    res, world = follow(world, res, "take", [4])  # aimed: no location die; 1d8+1 = 5
    assert wounds(world, "espanol") == [("cabeza", 2)]
    assert "dead" not in world.actors["espanol"].statuses
    # 'El español falla su ataque.' (now at +2 for the serious wound)
    res, world = run(world, "attack", "espanol", [7], ("frances",), weapon="espada")
    assert res.cards[0].outcome.success is False
    # 'el francés actuará en primer lugar como siempre, sin embargo saca un 9 y falla'
    res, world = run(world, "attack", "frances", [9], ("espanol",), weapon="espada")
    assert res.cards[0].outcome.success is False
    assert _timing(res) == [(3, 8)]
    # 'el español saca un 1 y lleva a cabo un ataque que ... acaba con su adversario': a 1 with
    # +1 accumulation and +2 wound hits (4 <= 5), the reroll 3 <= 5 confirms the critical
    res, world = run(world, "attack", "espanol", [1, 3], ("frances",), weapon="espada")
    assert res.cards[0].outcome.key == "critical"
    # the French knight spent both his actions attacking: he cannot parry now
    parry = find_follow(res, "parry")
    with pytest.raises(RulesError) as error:
        follow(world, res, "parry", [5], weapon="espada")
    assert error.value.code == "too_many_actions"
    assert parry.actor_id == "frances"
    # critical: maximum damage 9 + 1 (Fuerza 7) = 10, two steps of Resistencia 5: the chest is
    # incapacitated, and 'si se trata de la cabeza o el pecho, ocurre la muerte'
    res, world = follow(world, res, "take", [6])
    assert wounds(world, "frances")[-1] == ("pecho", 3)
    assert "dead" in world.actors["frances"].statuses
    assert res.cards[0].dice[0].role == "location"
