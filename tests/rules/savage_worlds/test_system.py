"""The plugin as the bridge sees it: samples, buttons, catalogue, settings, statuses, robustness."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sw_helpers import make_world, run

from rules.dice import SeededDice
from rules.i18n import translate
from rules.model import Action, RulesError, TimeStep, World
from rules.savage_worlds import SYSTEM
from rules.statuses import CANONICAL_STATUSES

SOURCE = Path(__file__).parents[3] / "rules" / "savage_worlds"


def test_catalogue_has_the_same_keys_in_es_and_en() -> None:
    assert set(SYSTEM.messages["es"]) == set(SYSTEM.messages["en"])


def test_every_refusal_code_has_a_message() -> None:
    text = "".join(p.read_text() for p in SOURCE.glob("*.py"))
    codes = set(re.findall(r'refuse\(\s*"([a-z_]+)"', text))
    assert len(codes) > 40
    for code in codes:
        for locale in ("es", "en"):
            assert f"error.{code}" in SYSTEM.messages[locale], code


def test_action_and_setting_labels_translate() -> None:
    for spec in SYSTEM.actions.values():
        for locale in ("es", "en"):
            translate(spec.label, locale, SYSTEM.messages, strict=True)
            for param in spec.params:
                if param.label is not None:
                    translate(param.label, locale, SYSTEM.messages, strict=True)
    for param in SYSTEM.settings:
        assert param.label is not None
        translate(param.label, "en", SYSTEM.messages, strict=True)


def test_status_labels_use_the_texts_own_terms() -> None:
    assert translate(SYSTEM.status_label("stunned"), "es", SYSTEM.messages) == "Aturdido"
    assert translate(SYSTEM.status_label("stunned"), "en", SYSTEM.messages) == "Shaken"
    for status in CANONICAL_STATUSES:
        translate(SYSTEM.status_label(status), "es", SYSTEM.messages, strict=True)


def test_settings_defaults_and_refusal() -> None:
    defaults = SYSTEM.default_settings()
    assert defaults["variant"] == "core" and defaults["autofire"] == "extermination"
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_settings({"variant": "xcom2"})
    assert error.value.code == "invalid_param"


def test_sample_actors_validate_and_their_state_is_plain_json() -> None:
    actors = SYSTEM.sample_actors()
    assert len([a for a in actors if SYSTEM.validate_sheet(a.sheet)["side"] == "heroes"]) >= 2
    for actor in actors:
        assert SYSTEM.validate_sheet(actor.sheet) == actor.sheet
        assert json.loads(json.dumps(actor.state)) == actor.state


def test_token_numbers_show_wounds_bennies_and_ammo() -> None:
    agent = make_world().actors["agente"]
    numbers = SYSTEM.token_numbers(agent)
    assert numbers["wounds"] == 0 and numbers["bennies"] == 3 and numbers["ammo.subfusil"] == 30


def test_gm_setting_dead_stops_bleeding_and_removing_wounded_clears_wounds() -> None:
    (change,) = SYSTEM.set_status(make_world(), "barbara", frozenset({"dead"}), frozenset())
    assert "bleeding" in change.remove
    (change,) = SYSTEM.set_status(make_world(), "barbara", frozenset(), frozenset({"wounded"}))
    assert change.state == {"wounds": 0}


def test_unknown_action_is_refused() -> None:
    with pytest.raises(RulesError) as error:
        SYSTEM.resolve(make_world(), Action("fly", "agente"), SeededDice(1))
    assert error.value.code == "unknown_action"


def test_advance_time_with_nothing_to_do_returns_none() -> None:
    assert SYSTEM.advance_time(make_world(), TimeStep("minute", 5), SeededDice(1)) is None


def _press_everything(world: World, seed: int) -> int:
    resolved = 0
    for actor in world.actors.values():
        for button in SYSTEM.buttons(world, actor):
            for locale in ("es", "en"):
                translate(button.label, locale, SYSTEM.messages, strict=True)
            others = [a for a in world.actors if a != actor.id]
            targets = tuple(others[: button.min_targets])
            try:
                world, _ = run(
                    world, button.action, actor.id, dict(button.params), targets, SeededDice(seed)
                )
                resolved += 1
            except RulesError as error:
                translate(error.message, "es", SYSTEM.messages, strict=True)
                translate(error.message, "en", SYSTEM.messages, strict=True)
    json.dumps(dict(world.data))
    return resolved


@pytest.mark.parametrize("variant", ["core", "xcom"])
def test_every_button_of_every_sample_resolves_or_is_refused_cleanly(variant: str) -> None:
    world = make_world({"variant": variant})
    assert _press_everything(world, 3) > 30
    fighting, _ = run(world, "combat_start", "agente", {}, ())
    assert _press_everything(fighting, 4) > 20


def test_seeded_skirmish_never_raises_anything_but_rules_errors() -> None:
    for seed in range(6):
        dice = SeededDice(seed)
        world, _ = run(make_world(), "combat_start", "agente", {}, ())
        for step in range(25):
            pending = list(world.data.get("pending", {}).items())
            attacks = list(world.data.get("attacks", {}).items())
            try:
                if pending:
                    pid, hit = pending[0]
                    kind = "soak" if step % 2 else "damage_apply"
                    world, _ = run(world, kind, hit["target"], {"pending": pid}, (), dice)
                elif attacks:
                    aid, attack = attacks[0]
                    index = next(i for i, h in enumerate(attack["hits"]) if not h["done"])
                    world, _ = run(
                        world, "damage", attack["attacker"], {"attack": aid, "hit": index}, (), dice
                    )
                else:
                    shooter, target = ("agente", "ogro") if step % 3 else ("ogro", "barbara")
                    weapon: dict[str, Any] = (
                        {"weapon": "subfusil", "rof": 3}
                        if shooter == "agente"
                        else {"weapon": "garrote"}
                    )
                    world, _ = run(world, "attack", shooter, weapon, (target,), dice)
            except RulesError:
                resolution = SYSTEM.advance_time(world, TimeStep("round"), dice)
                if resolution is not None:
                    world = SYSTEM.apply(world, resolution)
        assert json.loads(json.dumps(dict(world.data))) == dict(world.data)
