"""The plugin as the bridge sees it: specs, buttons, samples, texts, JSON-plain effects."""

from __future__ import annotations

from typing import Any

import pytest

from rules.dice import SeededDice
from rules.i18n import translate
from rules.model import Action, ActorChange, RulesError, WorldChange
from rules.o3d10 import SYSTEM
from rules.statuses import is_canonical

LOCALES = ("es", "en")


def _plain(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, bool) or value is None or isinstance(value, str | float):
        return True
    return isinstance(value, int) and abs(value) <= 2**53


def test_catalogues_hold_the_same_keys() -> None:
    assert set(SYSTEM.messages["es"]) == set(SYSTEM.messages["en"])


def test_every_action_and_param_label_translates() -> None:
    for spec in SYSTEM.actions.values():
        assert spec.event in {
            "roll",
            "attack",
            "damage_apply",
            "soak",
            "heal",
            "gm_action",
            "card_action",
        }
        for locale in LOCALES:
            translate(spec.label, locale, SYSTEM.messages, strict=True)
            for param in spec.params:
                if param.label is not None:
                    translate(param.label, locale, SYSTEM.messages, strict=True)


def test_spine_actions_stay_stable() -> None:
    skill = SYSTEM.actions["skill"]
    assert skill.event == "roll" and {"skill", "level"} <= {p.name for p in skill.params}
    assert SYSTEM.actions["attribute"].event == "roll"
    assert SYSTEM.actions["attack"].event == "attack"
    assert {k for k, s in SYSTEM.actions.items() if s.gm_only} == {
        "token_return",
        "damage_apply",
        "heal_wounds",
        "combat_start",
        "combat_end",
        "next_round",
    }


def _press(world: Any, button: Any, actor_id: str, seed: int) -> Any:
    targets = tuple(a for a in world.actors if a != actor_id)[: button.min_targets]
    action = Action(button.action, actor_id, dict(button.params), targets, by_gm=button.gm_only)
    checked = SYSTEM.check_action(world, action)
    return SYSTEM.resolve(world, checked, SeededDice(seed))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_sample_button_resolves_or_refuses_cleanly(kit: Any, seed: int) -> None:
    actors = SYSTEM.sample_actors()
    assert 2 <= len(actors) <= 4
    world = kit.make_world()
    kinds: set[str] = set()
    resolved = 0
    for actor in actors:
        SYSTEM.validate_sheet(actor.sheet)
        for button in SYSTEM.buttons(world, actor):
            kinds.add(button.action)
            for locale in LOCALES:
                translate(button.label, locale, SYSTEM.messages, strict=True)
            try:
                resolution = _press(world, button, actor.id, seed)
            except RulesError as error:
                for locale in LOCALES:
                    translate(error.message, locale, SYSTEM.messages, strict=True)
                continue
            resolved += 1
            kit.check_translates(resolution)
            for effect in resolution.effects:
                if isinstance(effect, ActorChange):
                    assert _plain(dict(effect.state))
                    assert all(is_canonical(s) for s in effect.add | effect.remove)
                else:
                    assert isinstance(effect, WorldChange) and _plain(dict(effect.data))
            for card in resolution.cards:
                for follow in card.actions:
                    assert _plain(dict(follow.params))
                    assert follow.action in SYSTEM.actions
            SYSTEM.apply(world, resolution)
    assert resolved > 20
    assert {
        "attribute",
        "skill",
        "initiative",
        "attack",
        "reload",
        "clear_jam",
        "catch_breath",
        "sleep",
    } <= kinds
    assert {"damage_apply", "heal_wounds", "token_return"} <= kinds


def test_status_labels_use_the_texts_terms() -> None:
    assert (
        translate(SYSTEM.status_label("wounded"), "es", SYSTEM.messages, strict=True) == "Malherido"
    )
    assert (
        translate(SYSTEM.status_label("unconscious"), "es", SYSTEM.messages, strict=True)
        == "Inconsciente"
    )
    assert (
        translate(SYSTEM.status_label("wounded"), "en", SYSTEM.messages, strict=True)
        == "Badly hurt"
    )


def test_unknown_action_is_refused() -> None:
    with pytest.raises(RulesError) as refused:
        SYSTEM.action_spec("volar")
    assert refused.value.code == "unknown_action"
