"""cunchillos hooks of the shared combat tracker, as pure functions (RULES.md 42-46).

Sample initiative: Inés 16/8, Bruno 12/10, Matón 10/5.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rules import tracker
from rules.cunchillos import SYSTEM
from rules.dice import ScriptedDice
from rules.model import RulesError, TimeStep, World

DICE = ScriptedDice([])
ALL = tuple(tracker.Combatant(a) for a in ("ines", "bruno", "maton"))


def started(h: Any, w: World | None = None) -> World:
    return tracker.start(SYSTEM, w or h.world(), ALL, DICE).world


def declare(w: World, actor: str, **params: Any) -> World:
    return tracker.declare(SYSTEM, w, actor, params, DICE).world


def slots(w: World) -> list[tuple[tuple[str, ...], Any]]:
    return [(s.actors, s.data.get("actions")) for s in tracker.require_combat(w).order]


def code(h: Any, w: World, kind: str, actor: str, **params: Any) -> str:
    with pytest.raises(RulesError) as error:
        h.run(w, kind, actor, **params)
    return error.value.code


def test_a_full_tie_shares_a_slot_and_two_weapons_strike_twice_in_the_first(h: Any) -> None:
    w = h.world()
    sheet = {**w.actor("bruno").sheet, "iniciativa": {"primaria": 16, "secundaria": 8}}
    w = w.with_actor(replace(w.actor("bruno"), sheet=SYSTEM.validate_sheet(sheet)))
    w = started(h, w)
    assert slots(w) == [(("bruno", "ines"), None), (("maton",), None)]
    assert tracker.require_combat(w).declare_order == ("maton", "ines", "bruno")
    w = declare(w, "maton", actions=1)
    w = declare(w, "ines", actions=1)
    w = declare(w, "bruno", actions=2, two_weapons=True)
    assert slots(w) == [
        (("bruno", "ines"), {"bruno": [1, 2], "ines": [1]}),
        (("maton",), {"maton": [1]}),
    ]
    _, w = h.run(w, "act", "bruno", what="other")
    _, w = h.run(w, "act", "bruno", what="other")
    assert code(h, w, "act", "bruno", what="other") == "out_of_order"
    _, w = h.run(w, "act", "ines", what="other")
    assert code(h, w, "act", "maton", what="other") == "out_of_order"


def test_a_skipped_step_is_lost_and_a_declared_dodge_spends_the_first(h: Any) -> None:
    w = started(h)
    w = declare(w, "maton", actions=2, defence="dodge")  # the dodge is action 1
    w = declare(w, "bruno", actions=2)
    w = declare(w, "ines", actions=0, movement="sprint")
    # Inés sprints: no action, no slot; Matón's first action went on the dodge.
    assert slots(w) == [
        (("bruno",), {"bruno": [1]}),
        (("bruno",), {"bruno": [2]}),
        (("maton",), {"maton": [2]}),
    ]
    # The tracker moves past Bruno's first step: in the second he has one action left.
    w = tracker.next_turn(SYSTEM, w, DICE).world
    _, w = h.run(w, "act", "bruno", what="other")
    assert w.actor("bruno").state["round"]["used"] == 2
    assert code(h, w, "act", "bruno", what="other") == "out_of_order"


def test_the_unable_are_ordered_but_never_declare(h: Any) -> None:
    w = h.world(maton={"pv": 0, "golpes": 24})
    w = started(h, w)
    combat = tracker.require_combat(w)
    assert combat.declare_order == ("bruno", "ines") and combat.phase == "declare"
    w = declare(w, "bruno", actions=1)
    w = declare(w, "ines", actions=1)
    assert [s.actors for s in tracker.require_combat(w).order] == [("ines",), ("bruno",)]


def test_round_end_and_combat_end_pass_one_round_each(h: Any) -> None:
    wound = {"loc": "pecho", "damage": 26, "severity": "serious", "bleeds": True, "age": 0}
    w = h.world(maton={"pv": -2, "heridas": [wound], "limite": 9})
    w = started(h, w)
    w = declare(w, "bruno", actions=1)
    w = declare(w, "ines", actions=1)
    step = tracker.next_round(SYSTEM, w, DICE)
    assert [h.texts(c)[0] for c in step.cards] == [
        "Pasan 1 asaltos",
        "Asalto 2: orden de iniciativa",
    ]
    assert step.world.actor("maton").state["pv"] == -3
    assert step.world.actor("ines").state["round"] == {}
    assert step.world.data["cunchillos"]["attackers"] == {}
    done = tracker.end(SYSTEM, step.world, DICE)
    assert done.world.actor("maton").state["pv"] == -4
    assert done.world.data["tracker"] is None
    assert done.world.data["cunchillos"]["running"] is False


def test_the_gm_initiative_and_time_wait_for_the_tracker(h: Any) -> None:
    w = started(h)
    assert code(h, w, "initiative", "") == "combat_running"
    with pytest.raises(RulesError) as error:
        SYSTEM.advance_time(w, TimeStep("round"), DICE)
    assert error.value.code == "combat_running"
