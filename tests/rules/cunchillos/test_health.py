from typing import Any

from rules.cunchillos import SYSTEM
from rules.cunchillos.damage import Hit
from rules.cunchillos.health import apply_hits, derived_statuses, pass_rounds
from rules.cunchillos.settings import Rules, rules_of
from rules.cunchillos.sheet import parse_sheet
from rules.dice import ScriptedDice
from rules.model import TimeStep
from rules.system import apply_effects

SHEET = parse_sheet(
    {"caracteristicas": {"fue": 10, "coo": 5, "res": 6}, "pv": 20, "umbral_mortal": 5}
)
STATE = dict(
    SYSTEM.initial_state(
        SYSTEM.validate_sheet(
            {"caracteristicas": {"fue": 10, "coo": 5, "res": 6}, "pv": 20, "umbral_mortal": 5}
        )
    )
)


def test_light_head_wound_stuns_two_rounds() -> None:
    state, reports = apply_hits(STATE, SHEET, (Hit(1, 7),), blunt=False, low=3, rules=Rules())
    assert reports[0].severity == "light" and "stunned_head" in reports[0].effects
    assert state["timers"]["stunned"] == 2 and state["pv"] == 13
    later = pass_rounds(state, SHEET, 2, Rules())
    assert later["timers"]["stunned"] == 0


def test_serious_head_wound_unconscious_for_hours_of_damage() -> None:
    state, _ = apply_hits(STATE, SHEET, (Hit(1, 12),), blunt=False, low=3, rules=Rules())
    assert state["timers"]["unconscious"] == 12 * 60 * 10
    assert "unconscious" in derived_statuses(state, SHEET)


def test_light_bleeds_a_point_a_minute_serious_every_five_rounds() -> None:
    light, _ = apply_hits(STATE, SHEET, (Hit(4, 6),), blunt=False, low=1, rules=Rules())
    assert pass_rounds(light, SHEET, 9, Rules())["pv"] == 14
    assert pass_rounds(light, SHEET, 10, Rules())["pv"] == 13
    serious, _ = apply_hits(STATE, SHEET, (Hit(4, 12),), blunt=False, low=1, rules=Rules())
    assert pass_rounds(serious, SHEET, 10, Rules())["pv"] == 6


def test_at_zero_one_point_a_round_and_the_mortal_threshold() -> None:
    state, _ = apply_hits(STATE, SHEET, (Hit(4, 11), Hit(7, 11)), blunt=False, low=3, rules=Rules())
    # 20 - 22 = -2; limit = Umbral 5 + d- 3 = 8
    assert state["pv"] == -2 and state["limite"] == 8
    assert {"unconscious", "bleeding"} <= derived_statuses(state, SHEET)
    alive = pass_rounds(state, SHEET, 6, Rules())
    assert alive["pv"] == -8 and not alive.get("dead")
    dead = pass_rounds(state, SHEET, 7, Rules())
    assert dead["dead"] and derived_statuses(dead, SHEET) == {"dead"}


def test_zero_hp_bleeding_can_add_to_the_wounds() -> None:
    state = {
        **STATE,
        "pv": 0,
        "heridas": [
            {"loc": "pecho", "damage": 12, "severity": "serious", "bleeds": True, "age": 4}
        ],
    }
    assert pass_rounds(state, SHEET, 1, Rules())["pv"] == -1
    assert pass_rounds(state, SHEET, 1, rules_of({"zero_hp_bleeding": "add"}))["pv"] == -2


def test_blows_knock_out_and_the_excess_becomes_wound_points() -> None:
    state, reports = apply_hits(STATE, SHEET, (Hit(4, 20),), blunt=True, low=2, rules=Rules())
    assert reports[0].severity == "blow" and state["golpes"] == 20 and state["pv"] == 0
    assert derived_statuses(state, SHEET) == {"unconscious"}
    assert pass_rounds(state, SHEET, 5, Rules())["pv"] == 0
    more, _ = apply_hits(state, SHEET, (Hit(4, 3),), blunt=True, low=2, rules=Rules())
    assert more["pv"] == -3 and more["golpes"] == 20 and "bleeding" in derived_statuses(more, SHEET)
    as_wounds, _ = apply_hits(
        STATE, SHEET, (Hit(4, 20),), blunt=True, low=2, rules=rules_of({"blow_damage": "wounds"})
    )
    assert as_wounds["heridas"][0]["severity"] == "serious"


def test_amputation_is_optional() -> None:
    _, plain = apply_hits(STATE, SHEET, (Hit(2, 19),), blunt=False, low=9, rules=Rules())
    _, cut = apply_hits(
        STATE, SHEET, (Hit(2, 19),), blunt=False, low=9, rules=rules_of({"amputation": True})
    )
    assert plain[0].severity == "serious" and cut[0].severity == "amputation"
    assert "amputated" in cut[0].effects and "arm_useless" in cut[0].effects


def test_advance_time_ticks_every_actor_and_clears_the_round(h: Any) -> None:
    w = h.world(
        ines={
            "heridas": [
                {"loc": "pecho", "damage": 7, "severity": "light", "bleeds": True, "age": 0}
            ],
            "round": {"actions": 2, "used": 1},
        }
    )
    res = SYSTEM.advance_time(w, TimeStep("minute", 1), ScriptedDice([]))
    assert res is not None
    h.texts(res.cards[0], "es")
    h.texts(res.cards[0], "en")
    w2 = SYSTEM.apply(w, res)
    assert w2.actors["ines"].state["pv"] == 29 and w2.actors["ines"].state["round"] == {}
    assert "bleeding" in w2.actors["ines"].statuses


def test_set_status_by_hand_and_removing_clears_the_cause(h: Any) -> None:
    w = h.world(ines={"timers": {"stunned": 3, "incapacitated": 0, "unconscious": 0}})
    effects = SYSTEM.set_status(w, "ines", frozenset({"aiming"}), frozenset({"stunned"}))
    w2 = apply_effects(w, effects)
    ines = w2.actors["ines"]
    assert "aiming" in ines.statuses and "stunned" not in ines.statuses
    assert ines.state["timers"]["stunned"] == 0
