"""The gaps closed after the first pass: the round's order, weapons breaking, the location table."""

from typing import Any

import pytest

from rules.cunchillos import SYSTEM
from rules.cunchillos.damage import damage_hits
from rules.cunchillos.settings import parse_location_table, rules_of
from rules.model import RulesError, TimeStep

REVERSED = (
    "pierna_izquierda,pierna_derecha,abdomen,abdomen,pecho,pecho,pecho,"
    "brazo_izquierdo,brazo_derecho,cabeza"
)


def refused(h: Any, code: str, *args: Any, **params: Any) -> None:
    with pytest.raises(RulesError) as error:
        h.run(*args, **params)
    assert error.value.code == code


def test_actions_follow_the_initiative_order_while_a_round_runs(h: Any) -> None:
    _, w = h.run(h.world(), "initiative", "")
    # Inés 16, Bruno 12, Matón 10: Bruno cannot strike before Inés.
    refused(h, "out_of_order", w, "attack", "bruno", [4, 1, 2], ("maton",))
    refused(h, "out_of_order", w, "act", "maton", what="other")
    _, w = h.run(w, "attack", "ines", [4, 1, 2], ("maton",))
    _, w = h.run(w, "attack", "bruno", [4, 1, 2], ("maton",))
    _, w = h.run(w, "attack", "maton", [4, 1, 2], ("ines",))


def test_a_second_action_waits_for_the_lower_initiatives_first(h: Any) -> None:
    _, w = h.run(h.world(), "initiative", "")
    for actor, actions in (("maton", 1), ("bruno", 1), ("ines", 2)):
        _, w = h.run(w, "declare", actor, actions=actions)
    _, w = h.run(w, "attack", "ines", [4, 1, 2], ("maton",))
    # Inés' second action comes at 11: Bruno's (12) goes first.
    refused(h, "out_of_order", w, "attack", "ines", [4, 1, 2], ("maton",))
    _, w = h.run(w, "attack", "bruno", [4, 1, 2], ("maton",))
    res, w = h.run(w, "attack", "ines", [4, 1, 2], ("maton",))
    assert "Acción 2, en Iniciativa 11" in h.all_texts(res)


def test_passing_lets_the_round_move_on(h: Any) -> None:
    _, w = h.run(h.world(), "initiative", "")
    res, w = h.run(w, "act", "ines", what="pass")
    assert "Inés pasa el resto del asalto" in h.all_texts(res)
    refused(h, "no_actions_left", w, "attack", "ines", [4, 1, 2], ("maton",))
    _, w = h.run(w, "attack", "bruno", [4, 1, 2], ("maton",))


def test_the_helpless_do_not_hold_up_the_round(h: Any) -> None:
    w = h.world(ines={"pv": 0, "golpes": 30})
    _, w = h.run(w, "initiative", "")
    _, w = h.run(w, "attack", "bruno", [4, 1, 2], ("maton",))


def test_time_ends_the_running_round(h: Any) -> None:
    _, w = h.run(h.world(), "initiative", "")
    res = SYSTEM.advance_time(w, TimeStep("round"), None)  # type: ignore[arg-type]
    assert res is not None
    w = SYSTEM.apply(w, res)
    _, w = h.run(w, "attack", "maton", [4, 1, 2], ("ines",))


def test_order_not_enforced_when_the_world_says_so(h: Any) -> None:
    _, w = h.run(h.world({"enforce_order": False}), "initiative", "")
    _, w = h.run(w, "attack", "maton", [4, 1, 2], ("ines",))


def test_declarations_go_from_the_lowest_initiative_up(h: Any) -> None:
    _, w = h.run(h.world(), "initiative", "")
    refused(h, "out_of_order", w, "declare", "ines", actions=1)
    refused(h, "out_of_order", w, "declare", "bruno", actions=1)
    _, w = h.run(w, "declare", "maton", actions=1)
    refused(h, "out_of_order", w, "declare", "ines", actions=1)
    _, w = h.run(w, "declare", "bruno", actions=1)
    res, w = h.run(w, "declare", "ines", actions=1)
    assert "Inés: 1 acciones" in h.all_texts(res)
    # Before the GM starts a round, anyone declares at any time.
    _, _ = h.run(h.world(), "declare", "ines", actions=1)


def test_a_weapon_breaks_at_the_worlds_limit(h: Any) -> None:
    w = h.world({"weapon_breaks_at": 2})
    _, w = h.run(w, "declare", "maton", actions=1, defence="parry")
    # Matón (Fue 12) parries Inés (Fue 10): 1 point to her arm, 1 to the sword.
    res, w = h.run(w, "attack", "ines", [4, 3, 5, 1, 1], ("maton",))
    assert "se rompe" not in h.all_texts(res)
    res = SYSTEM.advance_time(w, TimeStep("round"), None)  # type: ignore[arg-type]
    assert res is not None
    w = SYSTEM.apply(w, res)
    _, w = h.run(w, "declare", "maton", actions=1, defence="parry")
    res, w = h.run(w, "attack", "ines", [4, 3, 5, 1, 1], ("maton",))
    assert "¡Espada se rompe! (2 puntos de daño)" in h.all_texts(res)
    ines = w.actors["ines"].state
    assert ines["broken"] == ["espada"] and ines["hands"]["derecha"] is None
    res = SYSTEM.advance_time(w, TimeStep("round"), None)  # type: ignore[arg-type]
    assert res is not None
    w = SYSTEM.apply(w, res)
    refused(h, "weapon_broken", w, "act", "ines", what="draw", weapon="espada")


def test_weapons_never_break_by_default(h: Any) -> None:
    w = h.world({}, ines={"weapon_damage": {"espada": 99}})
    _, w = h.run(w, "declare", "maton", actions=1, defence="parry")
    _, w = h.run(w, "attack", "ines", [4, 3, 5, 1, 1], ("maton",))
    assert w.actors["ines"].state["weapon_damage"] == {"espada": 100}
    assert w.actors["ines"].state["broken"] == []


def test_a_world_location_table(h: Any) -> None:
    w = h.world({"location_table": REVERSED})
    res, w = h.run(w, "attack", "ines", [1, 3, 5], ("maton",))
    assert "Acierta en Pierna izquierda (1)" in h.all_texts(res)
    follow = res.cards[0].actions[0]
    res, w = h.run(w, "damage", "ines", [], follow.targets, **dict(follow.params))
    assert w.actors["maton"].state["heridas"][0]["loc"] == "pierna_izquierda"
    # An aimed blow finds the location on the world's die.
    w = h.world({"location_table": REVERSED})
    res, _ = h.run(w, "attack", "ines", [4, 1, 2], ("maton",), aim="cabeza")
    assert "Acierta en Cabeza (10)" in h.all_texts(res)
    # Type IV walks the faces of the world's die.
    table = rules_of({"location_table": REVERSED}).locations
    assert [x.location for x in damage_hits("IV", 5, 3, 2, table)] == [
        "pierna_derecha",
        "pierna_izquierda",
        "abdomen",
    ]


def test_a_bad_location_table_is_refused() -> None:
    assert parse_location_table("") is None
    assert parse_location_table("cabeza," * 9 + "cabeza") is None
    assert parse_location_table(REVERSED) is not None
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_settings({"location_table": "cabeza,pecho"})
    assert error.value.code == "invalid_param"
    assert SYSTEM.validate_settings({"location_table": REVERSED})["location_table"] == REVERSED
