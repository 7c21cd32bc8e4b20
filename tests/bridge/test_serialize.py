"""The world's state text, re-encoding only changed actors, is the state's JSON value."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bridge import serialize
from bridge.serialize import dumps, world_json_text, world_to_json
from rules.model import World, t
from rules.registry import default_registry
from support.compiled import pure_only

_LABEL, _TOTAL = t("line.trait"), t("line.total", total=7)


@pytest.mark.parametrize("system_id", sorted(default_registry().systems))
def test_world_json_text_is_world_to_json(system_id: str) -> None:
    system = default_registry().get(system_id)
    world = World("w-1", 'Mesa "<1>"', system_id, {**system.default_settings(), "locale": "es"})
    for actor in system.sample_actors():
        world = world.with_actor(actor)
    text = world_json_text(world)
    assert json.loads(text) == world_to_json(world)
    assert text == dumps(world_to_json(world))
    # A changed actor is a new object: its new JSON is written, not the remembered one.
    first = next(iter(world.actors.values()))
    changed = world.with_actor(replace(first, name="Otro nombre ñ", statuses=frozenset({"prone"})))
    assert json.loads(world_json_text(changed)) == world_to_json(changed)
    assert json.loads(world_json_text(world)) == world_to_json(world)


def test_card_parts_remembered_by_identity_are_the_parts_json() -> None:
    """Cards sharing their dice, outcome or sections (as the rules share finished throws and
    lines) get the JSON of those very parts; another part of equal value is its own entry."""
    from bridge.serialize import card_to_json
    from rules.dice import Die
    from rules.model import Card, Line, Outcome, Section, t

    dice = (Die(10, (7,), "objetivo", True, 0), Die(10, (10, 3), "objetivo", False, 0))
    outcome = Outcome("success", t("outcome.success"), True, 2)
    sections = (Section(None, (Line(t("line.total", total=15)),)),)
    first = card_to_json(Card("skill", t("card.skill"), "a", dice, outcome, sections))
    second = card_to_json(Card("skill", t("card.skill"), "b", dice, outcome, sections))
    assert first["dice"] is second["dice"] and first["sections"] is second["sections"]
    assert first["dice"] == [
        {"sides": 10, "faces": [7], "role": "objetivo", "kept": True, "group": 0},
        {"sides": 10, "faces": [10, 3], "role": "objetivo", "kept": False, "group": 0},
    ]
    assert first["outcome"] == {
        "key": "success",
        "label": {"key": "outcome.success", "params": {}},
        "success": True,
        "margin": 2,
    }
    other = (Die(10, (8,), "objetivo", True, 0),)
    third = card_to_json(Card("skill", t("card.skill"), "a", other, replace(outcome, margin=3)))
    assert third["dice"][0]["faces"] == [8] and third["outcome"]["margin"] == 3
    assert third["sections"] == [] and first["speaker"] == "a" and second["speaker"] == "b"


def _card(faces: tuple[int, ...], kept: bool, total: object, text: object = None) -> Any:
    from rules.dice import Die
    from rules.model import Card, Line, Section

    label, value = _LABEL, text if text is not None else _TOTAL
    dice = (Die(6, faces, "trait", kept, 0), Die(6, (2,), "wild", True, 0))
    sections = (Section(None, (Line(label, value), Line(label, total))),)  # type: ignore[arg-type]
    return Card("trait", t("card.trait"), "a", dice, None, sections)


def _made_equals_fresh(made: dict[str, Any], fresh: Any, first: dict[str, Any]) -> None:
    from bridge.serialize import _section_to_json, die_to_json

    assert made["dice"] is not first["dice"] or made["sections"] is not first["sections"]
    assert made["dice"] == [die_to_json(d) for d in fresh.dice]
    assert dumps(made["dice"]) == dumps([die_to_json(d) for d in fresh.dice])
    assert dumps(made["sections"]) == dumps([_section_to_json(s) for s in fresh.sections])


def test_card_parts_built_anew_are_remembered_by_value_and_shared_texts() -> None:
    """Dice of equal values (and types) built anew, and sections built anew from the same
    shared texts and equal plain values, give the same JSON object (the renderer's memo
    keyed by it then hits); another value, another type or another text object is its
    own entry, and every JSON equals the fresh encoding."""
    from bridge.serialize import card_to_json
    from rules.model import t

    first, second = card_to_json(_card((4,), True, 1)), card_to_json(_card((4,), True, 1))
    assert first["dice"] is second["dice"] and first["sections"] is second["sections"]
    for made, fresh in (
        (card_to_json(_card((4, 3), True, 1)), _card((4, 3), True, 1)),
        (card_to_json(_card((4,), True, True)), _card((4,), True, True)),
        (card_to_json(_card((4,), True, 1.0)), _card((4,), True, 1.0)),
        (card_to_json(_card((4,), True, 1, t("line.total", total=7))), _card((4,), True, 1)),
    ):
        _made_equals_fresh(made, fresh, first)


def test_parts_are_remembered_by_the_identities_of_their_members() -> None:
    """Dice or sections are found again by the identities of their members, whatever tuple
    holds them (the rules share dice and sections in new tuples), dice built anew by the
    identities of their dice's JSON (one object a die value), sections by value: every
    time the same JSON object; the tables are emptied at their bounds."""
    from bridge import serialize as s
    from bridge.serialize import card_to_json

    made = _card((5, 1), True, 3)
    first = card_to_json(made)
    die_ids, section_ids = tuple(map(id, first["dice"])), tuple(map(id, made.sections))
    assert s._DICE_BY_JSONS[die_ids] == (made.dice, first["dice"])
    assert s._DICE_BY_MEMBERS[tuple(map(id, made.dice))] == (made.dice, first["dice"])
    assert s._SECTIONS_BY_MEMBERS[section_ids] == (made.sections, first["sections"])
    for die, raw in zip(made.dice, first["dice"], strict=True):
        assert raw == s.die_to_json(die)
    anew = card_to_json(_card((5, 1), True, 3))  # equal values, new dice and sections
    assert anew["dice"] is first["dice"] and anew["sections"] is first["sections"]
    regrouped = replace(made, dice=tuple(list(made.dice)), sections=tuple(list(made.sections)))
    again = card_to_json(regrouped)  # the same members in other tuples
    assert again["dice"] is first["dice"] and again["sections"] is first["sections"]
    for index in range(s.PART_MEMO_SIZE + 2):
        card_to_json(_card((6, index), True, index))
    assert len(s._DICE_BY_JSONS) <= s.PART_MEMO_SIZE
    assert len(s._DICE_BY_MEMBERS) <= s.PART_MEMO_SIZE
    assert len(s._DIE_BY_ID) <= s.PART_MEMO_SIZE
    assert len(s._DIE_BY_VALUE) <= s.VALUE_MEMO_SIZE
    assert card_to_json(made)["dice"] == [s.die_to_json(d) for d in made.dice]


def test_a_throw_of_dice_seen_before_shares_their_json() -> None:
    """A throw not seen before, of dice seen before (o3d10's thousand throws of a few
    dozen kept dice), is a new list of the very die JSON objects already made; every die
    JSON equals a fresh encoding, and a die of unusual types (a float face) is its own."""
    from bridge import serialize as s
    from bridge.serialize import card_to_json
    from rules.dice import Die

    seven, three = Die(10, (7,), "objetivo", True, 9), Die(10, (3,), "objetivo", False, 9)
    first = s._dice_to_json((seven, three))
    for die, raw in ((seven, first[0]), (three, first[1])):
        assert s._DIE_BY_VALUE[s._die_value(die)] == (die, raw)  # type: ignore[index]
        assert raw == s.die_to_json(die) and id(die) not in s._DIE_BY_ID  # met once
    second = s._dice_to_json((three, seven))
    assert second is not first and second == [first[1], first[0]]
    assert second[0] is first[1] and second[1] is first[0]
    for die, raw in ((seven, first[0]), (three, first[1])):  # met again: by identity
        assert s._DIE_BY_ID[id(die)] == (die, raw)
    built = (replace(seven), replace(three))  # equal dice built anew: found by value
    assert s._dice_to_json(built) is first and id(built[0]) not in s._DIE_BY_ID
    floats = Die(10, (7.0,), "objetivo", True, 0)  # type: ignore[arg-type]
    made = s._dice_to_json((floats,))
    assert made[0] is not first[0] and s.dumps(made) == s.dumps([s.die_to_json(floats)])
    assert dumps(card_to_json(_card((4, 4), False, 2))["dice"]) == dumps(
        [s.die_to_json(d) for d in _card((4, 4), False, 2).dice]
    )


def test_a_kept_tuple_is_found_by_its_own_identity() -> None:
    """A dice or sections tuple met again (the o3d10 rules keep their throws) is entered by
    its own identity once its members are found with it, and found that way next time
    (one id, not its members'); a new tuple of the same members is not entered so (Savage
    Worlds builds a new tuple each roll), and every answer is the same JSON object."""
    from bridge import serialize as s
    from bridge.serialize import card_to_json

    made = _card((5, 2), True, 4)
    first = card_to_json(made)
    assert id(made.dice) not in s._DICE_BY_TUPLE  # met once: by its members only
    regrouped = replace(made, dice=tuple(list(made.dice)), sections=tuple(list(made.sections)))
    assert card_to_json(regrouped)["dice"] is first["dice"]
    assert id(regrouped.dice) not in s._DICE_BY_TUPLE
    assert id(regrouped.sections) not in s._SECTIONS_BY_TUPLE
    second = card_to_json(made)  # the same tuples again: entered by their identity
    assert s._DICE_BY_TUPLE[id(made.dice)] == (made.dice, first["dice"])
    assert s._SECTIONS_BY_TUPLE[id(made.sections)] == (made.sections, first["sections"])
    third = card_to_json(made)
    for again in (second, third):
        assert again["dice"] is first["dice"] and again["sections"] is first["sections"]
    for index in range(s.PART_MEMO_SIZE + 2):
        kept = _card((6, index), True, index)
        card_to_json(kept), card_to_json(kept)
    assert len(s._DICE_BY_TUPLE) <= s.PART_MEMO_SIZE


def test_outcomes_are_remembered_by_identity_and_bounded() -> None:
    """The outcome's JSON is the same object for the same outcome, a fresh encoding for an
    equal outcome built anew, and the table stays within its bound."""
    from bridge import serialize as s
    from rules.model import Outcome, t

    outcome = Outcome("success", t("outcome.success"), True, 2)
    first = s._outcome_json(outcome)
    assert s._outcome_json(outcome) is first
    anew = s._outcome_json(replace(outcome))
    assert anew == first == s._outcome_to_json(outcome) and anew is not first
    held = [Outcome("raise", t("outcome.raise"), True, n) for n in range(s.VALUE_MEMO_SIZE * 2)]
    for each in held:
        assert s._outcome_json(each)["margin"] == each.margin
    assert len(s._OUTCOME_JSON) <= s.VALUE_MEMO_SIZE


@pure_only(serialize)
def test_a_die_of_another_type_is_its_own_entry() -> None:
    """A die whose ``kept`` is ``1`` rather than ``True`` (ill-typed: compiled code refuses
    such a die with a TypeError, so this runs in the pure pass) is its own entry."""
    from bridge.serialize import card_to_json

    first = card_to_json(_card((4,), True, 1))
    made = card_to_json(_card((4,), 1, 1))  # type: ignore[arg-type]
    _made_equals_fresh(made, _card((4,), 1, 1), first)  # type: ignore[arg-type]


def test_an_actor_update_is_encoded_once_for_the_state_and_the_push() -> None:
    """``actor_json`` (the engine's actor_update value) makes its text known to the world's
    state text and to the push's rendering: both equal a fresh encoding, and only the very
    value (not an equal copy) is taken as known."""
    from bridge.serialize import (
        _JSON_TEXTS,
        _JSON_TEXTS_SIZE,
        actor_json,
        actor_text,
        actor_to_json,
        dumps,
        json_text,
    )
    from rules.registry import default_registry

    actors = default_registry().get("savage_worlds").sample_actors()
    for actor in actors:
        value = actor_json(actor)
        assert value == actor_to_json(actor)
        assert json_text(value) == dumps(value) == actor_text(actor)
        copy = dict(value)
        assert json_text(copy) == dumps(copy)
        assert _JSON_TEXTS[id(value)][0] is value and id(copy) not in _JSON_TEXTS
    held = actor_json(actors[0])
    for _ in range(_JSON_TEXTS_SIZE + 10):
        actor_json(actors[0])
    # Bounded; past the bound the values nothing holds go first (rules.memo.forget_unheld),
    # so a value still held (a push not rendered yet) keeps its text.
    assert 0 < len(_JSON_TEXTS) <= _JSON_TEXTS_SIZE
    assert _JSON_TEXTS[id(held)][0] is held
