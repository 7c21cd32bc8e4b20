"""The plugin surface: sheets, settings, catalogue, sample actors and every sheet button."""

from __future__ import annotations

import string
from dataclasses import replace
from typing import Any

import pytest
from brp_d10_helpers import SAMPLES, make_actor, render, sample_world

from rules.brp_d10 import SYSTEM
from rules.dice import SeededDice
from rules.model import Action, RulesError, TimeStep
from rules.statuses import is_canonical

GOOD: dict[str, Any] = {
    "characteristics": {"fuerza": 4, "agilidad": 6, "resistencia": 5, "tamano": 4},
    "skills": {
        "pistolas": {"label": "Pistolas", "base": ["agilidad"], "points": 2},
        "atletismo": {"base": ["fuerza", "agilidad"], "points": 1},
        "medicina": {"kind": "knowledge", "value": 0},
    },
    "weapons": {
        "pistola": {"kind": "ranged", "skill": "pistolas", "damage": "1d8", "automatic": True}
    },
}


def test_good_sheet_and_skill_bases() -> None:
    sheet = SYSTEM.validate_sheet(GOOD)
    # 'la mitad de una característica redondeando hacia abajo' / 'una media entre varias'
    assert sheet["skills"]["pistolas"]["value"] == 3 + 2
    assert sheet["skills"]["atletismo"]["value"] == 5 + 1
    assert SYSTEM.validate_sheet(sheet) == sheet


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda s: s["characteristics"].pop("tamano"), "sheet.characteristics.tamano"),
        (lambda s: s["characteristics"].update(fuerza=11), "sheet.characteristics.fuerza"),
        (
            lambda s: s["characteristics"].update(inteligencia=5),
            "sheet.characteristics.inteligencia",
        ),
        (lambda s: s["skills"].update(correr={"value": 0}), "sheet.skills.correr.value"),
        (lambda s: s["skills"].update(correr={"value": 11}), "sheet.skills.correr.value"),
        (lambda s: s["weapons"]["pistola"].update(skill="nada"), "sheet.weapons.pistola.skill"),
        (lambda s: s["weapons"]["pistola"].update(damage="mucho"), "sheet.weapons.pistola.damage"),
        (
            lambda s: s["weapons"]["pistola"].update(automatic=False, modes=["burst"]),
            "sheet.weapons.pistola",
        ),
        (lambda s: s["weapons"]["pistola"].update(actions=4), "sheet.weapons.pistola.actions"),
        (lambda s: s.update(armour={"cola": 2}), "sheet.armour.cola"),
        (lambda s: s.update(poderes={}), "sheet.poderes"),
        (lambda s: s.update(skills={"Mal Nombre": 3}), "sheet.skills.Mal Nombre"),
    ],
)
def test_bad_sheets(change: Any, field: str) -> None:
    import copy

    raw = copy.deepcopy(GOOD)
    change(raw)
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_sheet(raw)
    assert error.value.code == "invalid_sheet"
    assert error.value.field == field


def test_catalogue_is_complete_in_both_locales() -> None:
    es, en = SYSTEM.messages["es"], SYSTEM.messages["en"]
    assert set(es) == set(en)
    for key in es:
        fields_es = {f for _, f, _, _ in string.Formatter().parse(es[key]) if f}
        fields_en = {f for _, f, _, _ in string.Formatter().parse(en[key]) if f}
        assert fields_es == fields_en, key


def test_settings_and_statuses() -> None:
    defaults = SYSTEM.default_settings()
    assert SYSTEM.validate_settings({}) == defaults
    assert defaults["wound_step"] == "resistencia"
    with pytest.raises(RulesError):
        SYSTEM.validate_settings({"wound_step": "dados"})
    for status in (
        "wounded",
        "prone",
        "impaired",
        "incapacitated",
        "unconscious",
        "bleeding",
        "dead",
        "aiming",
    ):
        assert is_canonical(status)


def test_samples_validate_and_every_button_resolves() -> None:
    world = sample_world()
    assert 2 <= len(world.actors) <= 4
    for actor in SYSTEM.sample_actors():
        assert SYSTEM.validate_sheet(actor.sheet) == actor.sheet
        assert actor.sheet == SYSTEM.validate_sheet(SAMPLES[actor.id])
        for index, button in enumerate(SYSTEM.buttons(world, actor)):
            targets = tuple(a for a in world.actors if a != actor.id)[: max(button.min_targets, 0)]
            params = dict(button.params)
            for param in button.ask:
                if param.required and param.name not in params:
                    params[param.name] = (
                        param.choices[0] if param.choices else max(1, param.minimum)
                    )
            action = Action(button.action, actor.id, params, targets, button.gm_only)
            try:
                checked = SYSTEM.check_action(world, action)
                resolution = SYSTEM.resolve(world, checked, SeededDice(f"{actor.id}-{index}"))
            except RulesError as error:
                assert error.code in {"already_loaded", "nothing_to_treat", "no_such_wound"}, (
                    error.code
                )
                continue
            for card in resolution.cards:
                render(card, "es")
            SYSTEM.apply(world, resolution)
        assert SYSTEM.token_numbers(actor)["wounds"] == 0


def test_time_passes_for_an_empty_world() -> None:
    world = sample_world()
    res = SYSTEM.advance_time(world, TimeStep("day", 1), SeededDice(1))
    assert res is not None
    new = SYSTEM.apply(world, res)
    assert new.data["brp_d10_clock"] == 86400
    render(res.cards[0])


def test_unknown_and_malformed_requests() -> None:
    world = sample_world()
    with pytest.raises(RulesError) as error:
        SYSTEM.check_action(world, Action("fly", "frances"))
    assert error.value.code == "unknown_action"
    with pytest.raises(RulesError) as error:
        SYSTEM.check_action(world, Action("attack", "frances", {"weapon": "espada"}))
    assert error.value.code == "invalid_targets"
    broken = world.with_actor(
        replace(make_actor("roto", GOOD), state={"wounds": "x", "round": {"actions": "many"}})
    )
    with pytest.raises(RulesError) as error:
        SYSTEM.resolve(
            broken, Action("attack", "roto", {"weapon": "pistola"}, ("frances",)), SeededDice(3)
        )
    assert error.value.code == "invalid_request"
    with pytest.raises(RulesError) as error:
        SYSTEM.resolve(world, Action("check", "frances", {"skill": "medicina"}), SeededDice(3))
    assert error.value.code == "skill_unusable"
    with pytest.raises(RulesError) as error:
        SYSTEM.resolve(world, Action("check", "frances", {}), SeededDice(3))
    assert error.value.code == "skill_or_characteristic"
