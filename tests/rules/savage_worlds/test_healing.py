"""Gaps closed after the first pass: Healing rolls that treat wounds, a world's own Injury Table."""

from __future__ import annotations

import pytest
from sw_helpers import make_world, run, with_state

from rules.dice import ScriptedDice
from rules.model import RulesError, TimeStep
from rules.savage_worlds import SYSTEM
from rules.savage_worlds.act_heal import healed_by
from rules.savage_worlds.tables import INJURY_TABLE, parse_injury_table


@pytest.mark.parametrize(
    ("success", "raises", "wounds", "healed"),
    [(False, 0, 2, 0), (True, 0, 2, 1), (True, 1, 2, 2), (True, 3, 2, 2), (True, 1, 1, 1)],
)
def test_each_success_and_raise_heals_one_wound(
    success: bool, raises: int, wounds: int, healed: int
) -> None:
    assert healed_by(success, raises, wounds) == healed


def test_treatment_rolls_healing_with_the_patients_wound_penalty() -> None:
    world = with_state(make_world(), "barbara", ["wounded", "stunned"], wounds=2)
    # The agent's Healing d4: 4 aces 4+3 = 7, wild 2; patient's wounds -2: 5, a success.
    world, result = run(world, "treat", "agente", {}, ("barbara",), [4, 3, 2])
    card = result.cards[0]
    assert card.outcome is not None and card.outcome.key == "success"
    mods = {line.label.key: line.value for line in card.sections[0].lines}
    assert mods["mod.patient_wounds"] == "-2"
    assert world.actors["barbara"].state["wounds"] == 1
    assert world.actors["barbara"].state["treated_hours"] == 24
    assert "wounded" in world.actors["barbara"].statuses


def test_the_last_wound_healed_lifts_wounded_and_incapacitated() -> None:
    world = with_state(make_world(), "barbara", ["wounded", "incapacitated"], wounds=1)
    world, _ = run(world, "treat", "agente", {"modifier": 2}, ("barbara",), [3, 1])
    barbara = world.actors["barbara"]
    assert barbara.state["wounds"] == 0
    assert not {"wounded", "incapacitated"} & barbara.statuses


def test_a_patient_is_treated_once_a_day() -> None:
    """The issue's 'treating a wound twice in a day' is refused."""
    world = with_state(make_world(), "barbara", ["wounded"], wounds=3)
    world, _ = run(world, "treat", "agente", {}, ("barbara",), [1, 2])  # a failure still counts
    assert world.actors["barbara"].state["wounds"] == 3
    with pytest.raises(RulesError) as error:
        run(world, "treat", "ogro", {}, ("barbara",), [3, 3])
    assert error.value.code == "already_treated"
    later = SYSTEM.advance_time(world, TimeStep("hour", 23), ScriptedDice([]))
    assert later is not None
    world = SYSTEM.apply(world, later)
    with pytest.raises(RulesError) as error:
        run(world, "treat", "ogro", {}, ("barbara",), [3, 3])
    assert error.value.code == "already_treated"
    tomorrow = SYSTEM.advance_time(world, TimeStep("hour", 1), ScriptedDice([]))
    assert tomorrow is not None
    world = SYSTEM.apply(world, tomorrow)
    world, _ = run(world, "treat", "agente", {}, ("barbara",), [3, 1])  # 3 - 3 = 0: failure
    assert world.actors["barbara"].state["treated_hours"] == 24


@pytest.mark.parametrize(
    ("state", "statuses", "settings", "code"),
    [
        ({"wounds": 0}, [], {}, "no_wounds"),
        ({"wounds": 3}, ["bleeding", "incapacitated"], {}, "bleeding_first"),
        ({"wounds": 3}, ["dead"], {}, "actor_out"),
        ({"wounds": 1}, [], {"healing_rolls": False}, "healing_off"),
    ],
)
def test_treatment_refusals(
    state: dict[str, int], statuses: list[str], settings: dict[str, bool], code: str
) -> None:
    world = with_state(make_world(settings), "barbara", statuses, **state)
    with pytest.raises(RulesError) as error:
        run(world, "treat", "agente", {}, ("barbara",), [4, 1])
    assert error.value.code == code


def test_a_shaken_healer_cannot_treat() -> None:
    world = with_state(make_world(), "barbara", ["wounded"], wounds=1)
    world = with_state(world, "agente", ["stunned"])
    with pytest.raises(RulesError) as error:
        run(world, "treat", "agente", {}, ("barbara",), [4, 1])
    assert error.value.code == "shaken"


# -- a world's own Injury Table -------------------------------------------------------------
def test_default_injury_table_parses_back_from_its_text_form() -> None:
    text = "2:unmentionables;3-4:arm;5-9:guts;10:leg;11-12:head"
    assert parse_injury_table(text) == INJURY_TABLE


@pytest.mark.parametrize(
    "text",
    [
        "2-12:guts;7:leg",  # overlap
        "2-11:arm",  # 12 missing
        "2-12:elbow",  # unknown key
        "2-x:arm",
        "12-2:arm",
        "2-12 arm",
    ],
)
def test_a_malformed_injury_table_is_refused_with_the_settings(text: str) -> None:
    assert parse_injury_table(text) is None
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_settings({"injury_table": text})
    assert (error.value.code, error.value.field) == ("invalid_param", "settings.injury_table")


def test_a_world_injury_table_replaces_the_default() -> None:
    """A world whose table makes every total a leg: the incapacitation's injury reads from it."""
    world = make_world({"injury_table": "2-12:leg"}, data={"gm_bennies": 0})
    world = with_state(world, "barbara", bennies=0)
    # hurt 30 on Brunhilda: five wounds, no benny: applied at once; Vigor d10 5 - 3 = 2 (failure),
    # then 2d6 1+1 = 2: 'unmentionables' by default, 'leg' here (no detail die).
    world, result = run(world, "hurt", "barbara", {"damage": 30}, (), [5, 2, 1, 1])
    injuries = world.actors["barbara"].state["injuries"]
    assert injuries == [{"key": "leg", "lasting": "permanent"}]
    assert [d.role for d in result.cards[0].dice] == ["vigor", "wild", "injury", "injury"]
    named = make_world({"injury_table": "2-4:head_blinded;5-12:guts_battered"})
    named = with_state(named, "barbara", bennies=0)
    named, _ = run(named, "hurt", "barbara", {"damage": 30}, (), [5, 2, 3, 3])
    assert named.actors["barbara"].state["injuries"][0]["key"] == "guts_battered"
