"""The XCOM variant: turns out of combat, stealth and contact, civilians, Overwatch."""

from __future__ import annotations

import pytest
from sw_helpers import make_world, run, with_state

from rules.model import RulesError, World


def _xcom() -> World:
    return make_world(
        {"variant": "xcom"},
        data={"deck": {"draw": ["KS", "QS", "JS", "10S", "9S", "8S", "7S"], "discard": []}},
    )


def test_xcom_actions_need_the_variant() -> None:
    with pytest.raises(RulesError) as error:
        run(make_world(), "xcom_act", "agente")
    assert error.value.code == "not_xcom"


def test_every_player_acts_once_in_any_order_then_the_aliens() -> None:
    world = _xcom()
    world, _ = run(world, "xcom_act", "barbara")
    world, _ = run(world, "xcom_act", "agente", {"stealth": True})
    assert world.actors["agente"].state["hidden"] is True
    with pytest.raises(RulesError) as error:
        run(world, "xcom_act", "agente")
    assert error.value.code == "already_acted"
    world, _ = run(world, "xcom_aliens", "agente")
    with pytest.raises(RulesError) as error:
        run(world, "xcom_act", "barbara")
    assert error.value.code == "aliens_phase"


def test_rescue_by_standing_next_to_a_civilian_and_never_hidden() -> None:
    world = with_state(_xcom(), "agente", hidden=True)
    world, _card = run(world, "xcom_rescue", "agente", {}, ("civil",))
    assert world.data["xcom"]["rescued"] == ["civil"]
    assert world.actors["agente"].state["hidden"] is False
    with pytest.raises(RulesError) as error:
        run(world, "xcom_rescue", "agente", {}, ("civil",))
    assert error.value.code == "already_rescued"
    with pytest.raises(RulesError) as error:
        run(world, "xcom_rescue", "agente", {}, ("ogro",))
    assert error.value.code == "not_a_civilian"


def test_end_of_turn_stealth_of_civilians_against_notice_of_nearby_aliens() -> None:
    world = _xcom()
    # Sectoid Notice d8 (Extra): 6. Civilian Stealth d6: 3 -> spotted; the GM gets an attack button.
    world, end = run(world, "xcom_end_turn", "agente", {}, ("civil", "sectoide"), [6, 3])
    card = end.cards[0]
    assert [d.role for d in card.dice] == ["notice", "stealth"]
    (attack,) = card.actions
    assert (attack.action, attack.actor_id, attack.targets, attack.allowed) == (
        "attack",
        "sectoide",
        ("civil",),
        "gm",
    )
    assert world.data["xcom"]["turn"] == 2
    world, _ = run(world, "attack", "sectoide", attack.params, attack.targets, [5])
    world, _ = run(world, "damage", "sectoide", {"attack": "atk1", "hit": 0}, (), [8, 1, 1])
    assert "incapacitated" in world.actors["civil"].statuses
    world, end = run(world, "xcom_end_turn", "agente", {}, ("sectoide",), [2])
    tally = [
        line.label for line in end.cards[0].sections[0].lines if line.label.key == "line.tally"
    ]
    assert tally[0].params == {"rescued": 0, "dead": 1}


def test_civilian_stays_hidden_when_stealth_beats_notice() -> None:
    world = _xcom()
    _, end = run(world, "xcom_end_turn", "agente", {}, ("civil", "sectoide"), [4, 5])
    assert end.cards[0].actions == ()


def test_detection_opposed_stealth_vs_notice_triggers_contact_and_lost_turns() -> None:
    world = _xcom()
    world, _ = run(world, "xcom_act", "agente", {"stealth": True})
    # Sectoid Notice 7; the hidden agent's Stealth d6 5/2 -> seen; the barbarian was not hidden.
    world, detect = run(
        world, "xcom_detect", "agente", {}, ("agente", "barbara", "sectoide"), [7, 5, 2]
    )
    keys = [line.label.key for line in detect.cards[0].sections[0].lines]
    assert "line.contact" in keys and "line.turn_lost" in keys
    assert world.data["sw_combat"]["active"] is True
    assert world.data["xcom"]["lost"] == ["barbara"]
    assert "civil" not in world.data["sw_combat"]["participants"]
    with pytest.raises(RulesError) as error:
        run(world, "xcom_act", "barbara")
    assert error.value.code == "in_combat"


def test_unseen_squad_stays_out_of_combat() -> None:
    world = with_state(_xcom(), "agente", hidden=True)
    world, _detect = run(world, "xcom_detect", "agente", {}, ("agente", "sectoide"), [3, 5, 2])
    assert "sw_combat" not in world.data
    with pytest.raises(RulesError) as error:
        run(world, "xcom_detect", "agente", {}, ("agente", "barbara"))
    assert error.value.code == "detect_needs_both"


def test_contact_by_hand_deals_cards() -> None:
    world, _ = run(_xcom(), "xcom_contact", "agente")
    assert world.data["sw_combat"]["active"] is True


def test_overwatch_single_reaction_shot_without_burst() -> None:
    world = _xcom()
    world, _ = run(world, "overwatch", "agente", {"weapon": "subfusil"})
    assert {"overwatch", "on_hold"} <= world.actors["agente"].statuses
    world, shot = run(world, "overwatch_fire", "agente", {}, ("sectoide",), [6, 2])
    assert [d.role for d in shot.cards[0].dice] == ["trait", "wild"]
    assert world.actors["agente"].state["ammo"]["subfusil"] == 29
    assert "overwatch" not in world.actors["agente"].statuses
    with pytest.raises(RulesError) as error:
        run(world, "overwatch_fire", "agente", {}, ("sectoide",))
    assert error.value.code == "not_on_overwatch"
    with pytest.raises(RulesError) as error:
        run(world, "overwatch", "civil")
    assert error.value.code == "no_ranged_weapon"
