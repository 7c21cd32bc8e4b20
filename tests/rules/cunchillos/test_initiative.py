from typing import Any

import pytest

from rules.cunchillos.initiative import (
    InitiativeEntry,
    action_steps,
    declaration_order,
    initiative_order,
    schedule,
)
from rules.model import RulesError


def test_primary_then_secondary_and_declarations_reversed() -> None:
    entries = [
        InitiativeEntry("a", "A", 12, 3),
        InitiativeEntry("b", "B", 15, 1),
        InitiativeEntry("c", "C", 12, 8),
    ]
    order = initiative_order(entries)
    assert [e.actor_id for e in order] == ["b", "c", "a"]
    assert [e.actor_id for e in declaration_order(order)] == ["a", "c", "b"]


def test_action_steps_and_two_weapons() -> None:
    assert action_steps(16, 3) == (16, 11, 6)
    assert action_steps(16, 3, two_weapons=True) == (16, 16, 11)


def test_schedule_interleaves_actions() -> None:
    order = initiative_order([InitiativeEntry("a", "A", 16, 1), InitiativeEntry("b", "B", 12, 1)])
    slots = schedule(order, {"a": 2, "b": 1})
    assert [(s.actor_id, s.initiative) for s in slots] == [("a", 16), ("b", 12), ("a", 11)]


def test_initiative_action_orders_the_table_with_its_modifiers(h: Any) -> None:
    w = h.world(bruno={"ambushed": True})
    _, w = h.run(w, "declare", "ines", actions=2, **{"raise": "10"})
    res, w2 = h.run(w, "initiative", "ines")
    text = h.all_texts(res)
    # Inés 16 + 10 = 26; Bruno 12 - 5 (ambush) = 7; Matón 10.
    assert (
        text.index("Inés: Iniciativa 26")
        < text.index("Matón: Iniciativa 10")
        < text.index("Bruno: Iniciativa 7")
    )
    assert "Declaran (de menor a mayor): Bruno, Matón, Inés" in text
    assert "Iniciativa 21: Inés, acción 2" in text
    assert w2.data["cunchillos"]["order"] == ["ines", "maton", "bruno"]
    # A raise costs +10 on every TA of the round.
    res, _ = h.run(w, "ta", "ines", [1, 2], skill="espada")
    assert "Mejorar la Iniciativa" in h.all_texts(res)


def test_changing_the_declaration_costs_and_is_refused_after_a_ta(h: Any) -> None:
    _, w = h.run(h.world(), "declare", "ines", actions=1)
    res, w = h.run(w, "declare", "ines", actions=2)
    assert w.actors["ines"].state["round"]["changed"]
    res, _ = h.run(w, "initiative", "ines")
    assert "Inés: Iniciativa 11" in h.all_texts(res)
    _, w = h.run(w, "attack", "ines", [4, 3, 5], ("maton",))
    with pytest.raises(RulesError) as error:
        h.run(w, "declare", "ines", actions=3)
    assert error.value.code == "already_acted"


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"actions": 1, "movement": "sprint"}, "sprint_no_actions"),
        ({"actions": 0}, "invalid_actions"),
        ({"actions": 1, "two_weapons": True}, "two_weapons_two_actions"),
        ({"actions": 1, "movement": "fast", "defence": "dodge"}, "not_enough_actions"),
    ],
)
def test_declaration_refusals(h: Any, params: dict[str, Any], code: str) -> None:
    with pytest.raises(RulesError) as error:
        h.run(h.world(), "declare", "ines", **params)
    assert error.value.code == code


def test_ambush_failure_costs_initiative(h: Any) -> None:
    _, w = h.run(h.world(), "ambush", "bruno", [9, 8])
    assert w.actors["bruno"].state["ambushed"]
    _, w = h.run(h.world(), "ambush", "bruno", [1, 2])
    assert not w.actors["bruno"].state.get("ambushed")
