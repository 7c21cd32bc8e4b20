"""Shared records and remembered values of the Savage Worlds hot paths: the same draws and the
same records as the plain functions, and never a stale answer for a new sheet or setting."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sw_helpers import make_world, run, with_state

from rules.dice import DiceLimitExceeded, Die, ScriptedDice, SeededDice
from rules.model import Action, ActorChange, Resolution, RulesError
from rules.params import validate_params
from rules.rolls import roll_die
from rules.savage_worlds import SYSTEM
from rules.savage_worlds.actions import ACTIONS
from rules.savage_worlds.buttons import _sheet_buttons, sheet_buttons
from rules.savage_worlds.shared import line, roll_ace, roll_aces, set_aside, sheet_weapon
from rules.savage_worlds.sheet import parse_sheet
from rules.savage_worlds.system import _COMPILED, _as_is, _quick
from rules.savage_worlds.traits import trait_die
from rules.system import apply_effects


@pytest.mark.parametrize("faces", [[3], [6, 2], [6, 6, 1], [1]])
def test_roll_ace_draws_and_records_like_roll_die(faces: list[int]) -> None:
    plain = roll_die(ScriptedDice(faces), 6, "trait", explode=True)
    script = ScriptedDice(faces)
    shared = roll_ace(script.roll, 6, "trait")
    assert shared == plain and script.remaining == 0


def test_roll_aces_is_roll_ace_in_turn_and_shares_unaced_dice() -> None:
    faces = [8, 3, 5, 8, 8, 2, 5]
    plain = [roll_die(d, 8, "damage", explode=True) for d in [ScriptedDice(faces)] for _ in "xyzw"]
    shared = roll_aces(ScriptedDice(faces).roll, 8, "damage", 4)
    assert shared == plain
    assert shared[1] is shared[3]  # two unaced 5s: one frozen record
    assert [d.faces for d in shared] == [(8, 3), (5,), (8, 8, 2), (5,)]


def test_an_ace_past_the_limit_is_refused_as_roll_die_does() -> None:
    with pytest.raises(DiceLimitExceeded) as plain:
        roll_die(ScriptedDice([4] * 60), 4, "trait", explode=True)
    with pytest.raises(DiceLimitExceeded) as shared:
        roll_ace(ScriptedDice([4] * 60).roll, 4, "trait")
    assert str(shared.value) == str(plain.value)


def test_set_aside_is_as_kept_false() -> None:
    for die in (Die(6, (4,), "wild"), Die(6, (6, 2), "wild"), Die(6, (3,), "wild", False)):
        assert set_aside(die) == die.as_kept(False)
    assert set_aside(Die(8, (2,), "trait")) is set_aside(Die(8, (2,), "trait"))


def test_lines_are_shared_for_equal_words_and_apart_for_1_and_true() -> None:
    assert line("line.no_effect", actor="Ogro") is line("line.no_effect", actor="Ogro")
    one, true = line("line.wounds_now", wounds=1), line("line.wounds_now", wounds=True)
    assert one.label.params["wounds"] is not True and true.label.params["wounds"] is True


def test_a_new_sheet_is_a_new_lookup_never_a_stale_one() -> None:
    world = make_world()
    raw = world.actors["agente"].sheet
    sheet = parse_sheet(raw)
    assert sheet_weapon(sheet, "subfusil") == sheet.weapon("subfusil")
    weapons = [dict(w, name="Otro") if w["id"] == "subfusil" else w for w in raw["weapons"]]
    other = parse_sheet(SYSTEM.validate_sheet({**raw, "weapons": weapons}))
    found = sheet_weapon(other, "subfusil")
    assert found is not None and found.name == "Otro"


def test_trait_die_refuses_unskilled_under_refuse_even_after_a_d4_roll() -> None:
    sheet = parse_sheet(make_world().actors["agente"].sheet)
    assert trait_die(sheet, {}, "nadar", {"unskilled": "d4-2"}, "t").die == 4
    with pytest.raises(RulesError) as refused:
        trait_die(sheet, {}, "nadar", {"unskilled": "refuse"}, "t")
    assert refused.value.code == "unskilled_refused"


def test_trait_die_steps_down_an_injured_attribute_each_time() -> None:
    sheet = parse_sheet(make_world().actors["agente"].sheet)
    injured = {"injuries": [{"key": "guts_broken", "lasting": "permanent"}]}
    whole = trait_die(sheet, {}, "agilidad", {}, "t")
    assert trait_die(sheet, injured, "agilidad", {}, "t").die == whole.die - 2
    assert trait_die(sheet, {}, "agilidad", {}, "t") is whole


def test_buttons_are_the_fresh_ones_and_follow_the_settings() -> None:
    world = make_world()
    actor = world.actors["agente"]
    sheet = parse_sheet(actor.sheet)
    assert sheet_buttons(world, actor) == _sheet_buttons(sheet, "extermination", False)
    assert sheet_buttons(world, actor) is sheet_buttons(world, replace(actor, state={}))
    xcom = replace(world, settings={**world.settings, "variant": "xcom", "autofire": "assigned"})
    assert sheet_buttons(xcom, actor) == _sheet_buttons(sheet, "assigned", True)
    assert len(sheet_buttons(xcom, actor)) > len(sheet_buttons(world, actor))


def test_remembered_checks_share_read_only_parameters() -> None:
    world = make_world()
    attack = Action("attack", "agente", {"weapon": "subfusil", "rof": 3}, ("ogro",))
    first = SYSTEM.check_action(world, attack)
    with pytest.raises(TypeError):
        first.params["rof"] = 1  # type: ignore[index]  # shared: nobody can change them
    copy = dict(first.params)
    copy["rof"] = 1  # a copy is the caller's own
    again = SYSTEM.check_action(world, attack)
    assert again.params is first.params
    assert again.params["rof"] == 3 and again.params["range"] == "short"


def test_remembered_checks_keep_1_and_true_apart_and_refuse_every_time() -> None:
    world = make_world()
    good = Action("attack", "agente", {"weapon": "subfusil", "rof": 1}, ("ogro",))
    assert SYSTEM.check_action(world, good).params["rof"] == 1
    for _ in range(2):
        with pytest.raises(RulesError) as refused:
            SYSTEM.check_action(world, replace(good, params={"weapon": "subfusil", "rof": True}))
        assert refused.value.code == "invalid_param"
    with pytest.raises(RulesError) as missing:
        SYSTEM.check_action(world, replace(good, targets=("nadie",)))
    assert (missing.value.code, missing.value.field) == ("unknown_actor", "targets.0")
    with pytest.raises(RulesError) as too_few:
        SYSTEM.check_action(world, replace(good, targets=()))
    assert too_few.value.code == "invalid_targets"
    listed = replace(good, params={"weapon": ["subfusil"], "rof": 1})
    with pytest.raises(RulesError) as unhashable:
        SYSTEM.check_action(world, listed)
    assert unhashable.value.code == "invalid_param"


def test_apply_is_the_default_fold_of_the_effects() -> None:
    world = with_state(make_world(auto_apply=False), "ogro", ["on_hold"])
    dice = SeededDice(7)
    for _ in range(30):
        action = SYSTEM.check_action(
            world, Action("attack", "agente", {"weapon": "subfusil", "rof": 3}, ("ogro", "barbara"))
        )
        resolution = SYSTEM.resolve(world, action, dice)
        assert SYSTEM.apply(world, resolution) == apply_effects(world, resolution.effects)
        world = SYSTEM.apply(world, resolution)
        if not world.actors["agente"].state["ammo"]["subfusil"]:
            break


def test_an_attack_reads_the_world_it_is_given_not_a_remembered_one() -> None:
    """The same attack again, the target now out: refused (statuses are read every time)."""
    world = make_world()
    params = {"weapon": "subfusil", "rof": 3}
    faces = [8, 1, 8, 1, 8, 1, 6, 1]  # every trait die aces to 9 (7 with recoil): three hits
    world, attack = run(world, "attack", "agente", params, ("ogro",), dice=faces)
    assert len(attack.cards[0].actions) == 3
    out = with_state(world, "ogro", ["incapacitated"])
    with pytest.raises(RulesError) as refused:
        run(out, "attack", "agente", params, ("ogro",), dice=faces)
    assert (refused.value.code, refused.value.field) == ("actor_out", "targets.0")


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-30, max_value=200),
    st.text(max_size=45),
    st.sampled_from(["short", "dark", "none", "holster", "atk1", "hit2", "subfusil"]),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=2),
)
_NAMES = st.sampled_from(
    (
        *("attack", "hit", "pending", "weapon", "rof", "source", "count", "to_gm", "damage"),
        *("ap", "wounds", "modifier", "what", "surprise", "stealth", "range", "cover", "bogus"),
    )
)


@settings(max_examples=400, deadline=None)
@given(kind=st.sampled_from(sorted(ACTIONS)), raw=st.dictionaries(_NAMES, _VALUES, max_size=4))
@example(kind="treat", raw={"modifier": None})  # a default filled in: not "as it is"
def test_quick_validation_accepts_only_what_the_shared_one_accepts_the_same(
    kind: str, raw: dict[str, Any]
) -> None:
    rows, known, _, _ = _COMPILED[kind]
    quick = _quick(rows, known, raw)
    try:
        shared = validate_params(ACTIONS[kind].params, raw)
    except RulesError:
        assert quick is None
    else:
        assert quick is None or (quick == shared and list(quick) == list(shared))
    # as it is (every declared name given, in order): only when the quick pass gives the very
    # same names, order and values, and always then when every declared name is given
    same = (
        quick is not None
        and list(quick) == list(raw)
        and all(type(quick[k]) is type(raw[k]) and quick[k] == raw[k] for k in raw)
    )
    every = [row[0] for row in rows] == list(raw)
    assert _as_is(rows, raw) == (same and every)


def test_apply_keeps_the_world_when_an_effect_sets_nothing_new() -> None:
    world = make_world()
    action = Action("hurt", "ogro", {"damage": 0})
    same = Resolution(action, (), (ActorChange("ogro", {"wounds": 0}),))
    assert SYSTEM.apply(world, same) is world
    changed = SYSTEM.apply(world, Resolution(action, (), (ActorChange("ogro", {"wounds": 1}),)))
    assert changed.actors["ogro"].state["wounds"] == 1
    assert changed.actors["agente"] is world.actors["agente"]
