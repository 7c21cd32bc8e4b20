from typing import Any

import pytest

from rules.model import RulesError


def test_grapple_then_escape_at_plus_five_then_plus_ten_then_surrender(h: Any) -> None:
    # Bruno (Pelea 15) grapples Inés: 3+4 = 7 success.
    res, w = h.run(h.world(), "manoeuvre", "bruno", [3, 4], ("ines",), mode="grapple")
    assert "grappled" in w.actors["ines"].statuses
    h.all_texts(res)
    # Inés Fue 10: 4+5 = 9 success margin 1; Bruno Fue 14: 1+2 = 3 margin 11 -> holds.
    res, w = h.run(w, "escape", "ines", [4, 5, 1, 2])
    assert w.actors["ines"].state["grapple"]["losses"] == 1
    res, w = h.run(w, "escape", "ines", [4, 5, 1, 2])
    assert "Liberarse de un apresamiento (intentos fallidos: 1)" in h.all_texts(res)
    assert next(line.value for line in res.cards[0].sections[0].lines if line.value) == "+5"
    res, w = h.run(w, "escape", "ines", [1, 2, 1, 3])
    assert "+10" in [line.value for line in res.cards[0].sections[0].lines]
    assert w.actors["ines"].state["grapple"]["surrendered"]
    assert "incapacitated" in w.actors["ines"].statuses
    with pytest.raises(RulesError) as error:
        h.run(w, "escape", "ines", [1, 2, 1, 3])
    assert error.value.code == "surrendered"


def test_hold_is_plus_ten_and_escape_gets_easier(h: Any) -> None:
    res, w = h.run(
        h.world(), "manoeuvre", "bruno", [1, 2], ("ines",), mode="hold", location="brazo_derecho"
    )
    assert "Sujetar" in h.all_texts(res)
    _, w = h.run(w, "escape", "ines", [4, 5, 1, 2])
    res, w = h.run(w, "escape", "ines", [3, 2, 1, 2])
    assert "-5" in [line.value for line in res.cards[0].sections[0].lines]
    with pytest.raises(RulesError) as error:
        h.run(h.world(), "manoeuvre", "bruno", [1, 2], ("ines",), mode="hold")
    assert error.value.code == "location_needed"


def test_failed_grapple_gives_the_rival_minus_five_next_ta(h: Any) -> None:
    _, w = h.run(h.world(), "manoeuvre", "bruno", [9, 8], ("ines",), mode="grapple", modifier=10)
    assert w.actors["ines"].state["next_ta"] == -5
    res, w = h.run(w, "ta", "ines", [3, 4], skill="espada")
    assert "Efecto de la maniobra anterior" in h.all_texts(res)
    assert w.actors["ines"].state["next_ta"] == 0


@pytest.mark.parametrize(
    ("faces", "stunned", "incapacitated", "prone"),
    [
        # Impact type II = d+ + d- against Inés' Res 6.
        ([4, 1, 2], 1, 0, False),
        ([4, 3, 4], 3, 0, False),
        ([4, 5, 7], 0, 5, True),
    ],
)
def test_knockdown_results(
    h: Any, faces: list[int], stunned: int, incapacitated: int, prone: bool
) -> None:
    _, w = h.run(h.world(), "manoeuvre", "bruno", faces, ("ines",), mode="knockdown", modifier=-10)
    state = w.actors["ines"].state
    assert state["timers"]["stunned"] == stunned
    assert state["timers"]["incapacitated"] == incapacitated
    assert bool(state.get("prone")) is prone
    assert state["pv"] == 30


def test_knockdown_can_hurt_by_setting(h: Any) -> None:
    res, w = h.run(
        h.world({"knockdown_hurts": True}),
        "manoeuvre",
        "bruno",
        [4, 5, 7],
        ("ines",),
        mode="knockdown",
        modifier=-10,
    )
    assert w.actors["ines"].state["pv"] == 18 and len(res.cards) == 2
    assert w.actors["ines"].state["prone"]


def test_knocked_down_fighter_stands_up_with_an_action(h: Any) -> None:
    w = h.world(ines={"prone": True})
    _, w = h.run(w, "act", "ines", what="stand")
    assert not w.actors["ines"].state["prone"]
    with pytest.raises(RulesError) as error:
        h.run(h.world(), "act", "ines", what="stand")
    assert error.value.code == "not_prone"


def test_release_and_refusals(h: Any) -> None:
    _, w = h.run(h.world(), "manoeuvre", "bruno", [3, 4], ("ines",), mode="grapple")
    with pytest.raises(RulesError) as error:
        h.run(w, "manoeuvre", "maton", [], ("ines",), mode="release")
    assert error.value.code == "not_holding"
    _, w = h.run(w, "manoeuvre", "bruno", [], ("ines",), mode="release")
    assert "grappled" not in w.actors["ines"].statuses
    with pytest.raises(RulesError) as error:
        h.run(w, "escape", "ines", [])
    assert error.value.code == "not_grappled"


def test_held_pistol_fumble_discharges_at_the_fumbler(h: Any) -> None:
    w = h.world(
        bruno={
            "grapple": {
                "by": "ines",
                "kind": "hold",
                "location": "brazo_izquierdo",
                "losses": 0,
                "surrendered": False,
            }
        }
    )
    # Bruno: dE 4, 9-9 fumble; Inés: dE 5, 1-2.
    res, w = h.run(w, "escape", "bruno", [4, 9, 9, 5, 1, 2])
    assert len(res.cards) == 2
    assert w.actors["bruno"].state["pv"] == 36 - 36
