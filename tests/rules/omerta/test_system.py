"""The plugin as the bridge sees it: samples, buttons, every action through check/resolve/apply,
translations, token numbers, statuses set by hand, settings and time."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rules.dice import DiceError, SeededDice
from rules.i18n import translate
from rules.model import Action, RulesError, TimeStep
from rules.omerta import SYSTEM
from rules.omerta.messages import MESSAGES
from rules.statuses import is_canonical

SOURCE = Path(__file__).parents[3] / "rules" / "omerta"


def _params_for(button: Any) -> dict[str, Any]:
    params = dict(button.params)
    for ask in button.ask:
        if ask.required and ask.name not in params:
            params[ask.name] = (
                ask.minimum if ask.kind == "int" else (ask.choices[0] if ask.choices else "1")
            )
    return params


@pytest.mark.parametrize("seed", range(4))
def test_every_button_of_every_sample_resolves_or_refuses_cleanly(kit: Any, seed: int) -> None:
    world = kit.make_world()
    dice = SeededDice(seed)
    for actor in world.actors.values():
        for button in SYSTEM.buttons(world, actor):
            translate(button.label, "es", SYSTEM.messages, strict=True)
            translate(button.label, "en", SYSTEM.messages, strict=True)
            others = tuple(a for a in world.actors if a != actor.id)
            targets = others[: max(button.min_targets, min(1, button.max_targets))]
            action = Action(
                button.action, actor.id, _params_for(button), targets, by_gm=button.gm_only
            )
            try:
                checked = SYSTEM.check_action(world, action)
                resolution = SYSTEM.resolve(world, checked, dice)
            except RulesError as error:
                assert re.fullmatch(r"[a-z_]+", error.code)
                for locale in ("es", "en"):
                    translate(error.message, locale, SYSTEM.messages, strict=True)
                continue
            kit.check_translates(resolution)
            world = SYSTEM.apply(world, resolution)
            for changed in world.actors.values():
                assert all(is_canonical(s) for s in changed.statuses)


def test_every_error_and_text_key_in_the_code_is_in_both_catalogues() -> None:
    keys: set[str] = set()
    for path in SOURCE.glob("*.py"):
        keys.update(re.findall(r'(?:t|_refuse)\("([a-z_]+(?:\.[a-z_0-9]+)+)"', path.read_text()))
        keys.update(
            "error." + code for code in re.findall(r'_refuse\(\s*"([a-z_]+)"', path.read_text())
        )
    keys = {k for k in keys if "." in k}
    for locale in ("es", "en"):
        missing = {k for k in keys if k not in MESSAGES[locale]}
        common = {
            k
            for k in missing
            if k.startswith(("error.param", "error.unknown_action", "error.sheet"))
        }
        assert missing - common == set(), locale


def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    assert MESSAGES["es"].keys() == MESSAGES["en"].keys()
    for key, template in MESSAGES["es"].items():
        fields = set(re.findall(r"{(\w+)}", template))
        assert fields == set(re.findall(r"{(\w+)}", MESSAGES["en"][key])), key


def test_token_numbers_and_initial_state(kit: Any) -> None:
    frank = kit.make_world().actors["frank"]
    numbers = SYSTEM.token_numbers(frank)
    assert numbers["hp"] == 15 and numbers["hp_max"] == 15 and numbers["ammo.thompson"] == 50
    assert numbers["bullets_in"] == 0


def test_set_status_keeps_timers_in_step(kit: Any) -> None:
    world = kit.make_world()
    (change,) = SYSTEM.set_status(world, "frank", frozenset({"bleeding"}), frozenset())
    assert change.state["bleeding_since"] == 0
    (change,) = SYSTEM.set_status(world, "frank", frozenset(), frozenset({"jammed", "unconscious"}))
    assert change.state["jams"] == {} and change.state["unconscious_until"] is None


def test_settings_defaults_and_refusal() -> None:
    settings = SYSTEM.validate_settings({})
    assert settings["round_seconds"] == 12 and settings["location_table"] == "split"
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_settings({"empty_hits": "all"})
    assert error.value.code == "invalid_param"


def test_unknown_action_and_bad_params(kit: Any) -> None:
    world = kit.make_world()
    with pytest.raises(RulesError) as unknown:
        SYSTEM.check_action(world, Action("fly", "jimmy"))
    assert unknown.value.code == "unknown_action"
    with pytest.raises(RulesError) as far:
        SYSTEM.check_action(world, Action("move", "jimmy", {"metres": 16}))
    assert far.value.code == "invalid_param"
    with pytest.raises(RulesError) as skill:
        kit.run(world, "roll", "jimmy", {"skill": "volar"}, (), kit.pct(10))
    assert skill.value.code == "unknown_skill"
    with pytest.raises(RulesError) as both:
        kit.run(world, "roll", "jimmy", {}, (), kit.pct(10))
    assert both.value.code == "skill_or_characteristic"


def test_time_passes_and_round_state_resets(kit: Any) -> None:
    world = kit.make_world()
    _, world = kit.run(world, "attack", "jimmy", {"weapon": "colt"}, ("tony",), kit.pct(90))
    assert SYSTEM.advance_time(world, TimeStep("round", 0), SeededDice(1)) is None
    later = kit.advance(world, "round", 1)
    assert later.data["omerta"]["time"] == 12
    res, _ = kit.run(later, "attack", "jimmy", {"weapon": "colt"}, ("frank",), kit.pct(90))
    values = [line.value for s in res.cards[0].sections for line in s.lines]
    assert "-20" not in values  # a new round: no extra-action or target-change penalty


def test_scripted_dice_shortfall_is_a_dice_error(kit: Any) -> None:
    with pytest.raises(DiceError):
        kit.run(kit.make_world(), "attack", "jimmy", {"weapon": "colt"}, ("tony",), [1])


@pytest.mark.parametrize(
    ("state", "field"),
    [
        ({"hp": "x"}, "state.hp"),
        ({"ammo": {"colt": 99}}, "state.ammo.colt"),
        ({"ammo": {"bazooka": 1}}, "state.ammo.bazooka"),
        ({"jams": {"colt": {"ready_at": "soon"}}}, "state.jams.colt.ready_at"),
        ({"wounds": [{"id": 1, "kind": "bite", "damage": 2}]}, "state.wounds.0.kind"),
        ({"aim": {"target": "tony", "weapon": "colt"}}, "state.aim.since"),
        ({"mood": "grim"}, "state.mood"),
        ({"dodging": 1}, "state.dodging"),
    ],
)
def test_a_supplied_state_is_checked_key_by_key(state: dict[str, Any], field: str) -> None:
    """No stray KeyError/TypeError later: a state the Don supplies is refused up front."""
    jimmy = next(a for a in SYSTEM.sample_actors() if a.id == "jimmy")
    with pytest.raises(RulesError) as refused:
        SYSTEM.validate_state(jimmy.sheet, state)
    assert (refused.value.code, refused.value.field) == ("invalid_state", field)
    good = SYSTEM.validate_state(jimmy.sheet, {"hp": 3, "ammo": {"colt": 2}})
    assert good["hp"] == 3 and good["ammo"]["colt"] == 2 and good["wounds"] == []
