"""One test per ruling of RULES.md (R1-R40) where it is cheap, named after the ruling."""

from __future__ import annotations

from typing import Any

import pytest
from brp_d10_helpers import (
    SAMPLES,
    find_follow,
    follow,
    make_actor,
    make_world,
    next_round,
    render,
    run,
    sample_world,
    state,
    wounds,
)

from rules.brp_d10 import SYSTEM
from rules.brp_d10.checks import sustained_bullets
from rules.brp_d10.initiative import tenth, weapon_agilities
from rules.brp_d10.tables import DAMAGE_BONUS_BY_FUERZA, HIT_LOCATION_D10
from rules.brp_d10.wounds import wound_level
from rules.dice import ScriptedDice
from rules.model import RulesError, TimeStep, World


def refused(code: str, world: World, kind: str, actor: str, *args: Any, **params: Any) -> None:
    with pytest.raises(RulesError) as error:
        run(world, kind, actor, *args, **params)
    assert error.value.code == code, error.value


def advance(world: World, unit: str, count: int = 1) -> World:
    resolution = SYSTEM.advance_time(world, TimeStep(unit, count), ScriptedDice([]))  # type: ignore[arg-type]
    assert resolution is not None
    return SYSTEM.apply(world, resolution)


def master(value: int = 10, **extra: Any) -> dict[str, Any]:
    return {
        "characteristics": {"fuerza": 5, "agilidad": 6, "resistencia": 5, "tamano": 5},
        "skills": {"mecanica": {"value": value}, "espadas": {"value": value}},
        "weapons": {"espada": {"kind": "melee", "skill": "espadas", "damage": "1d8"}},
        **extra,
    }


def test_r01_certain_checks_skip_the_die_attacks_never() -> None:
    world = make_world(make_actor("m", master()), make_actor("x", master(3)))
    res, _ = run(world, "check", "m", [], skill="mecanica")
    assert res.cards[0].dice == () and res.cards[0].outcome.success
    res, _ = run(world, "attack", "m", [10], ("x",), weapon="espada")
    assert res.cards[0].dice[0].faces == (10,)
    world = make_world(make_actor("m", master()), settings={"skip_certain_rolls": False})
    res, _ = run(world, "check", "m", [10], skill="mecanica")
    assert res.cards[0].outcome.success


def test_r02_skill_at_zero_cannot_be_used() -> None:
    refused("skill_unusable", sample_world(), "check", "frances", skill="medicina")
    with pytest.raises(RulesError):
        SYSTEM.validate_sheet(master(0))  # innate skills are at least 1


def test_r03_mechanic_example_computes_with_plus_three() -> None:
    world = make_world(make_actor("m", master(7)))
    res, _ = run(world, "check", "m", [2], skill="mecanica", difficulty=3)
    assert res.cards[0].outcome.success  # 2 + 3 = 5 <= 7
    res, _ = run(world, "check", "m", [6], skill="mecanica", difficulty=3)
    assert not res.cards[0].outcome.success  # 6 + 3 = 9 > 7


def test_r04_a_one_that_misses_is_not_confirmed() -> None:
    world = sample_world()
    res, _ = run(world, "attack", "frances", [1], ("espanol",), weapon="espada", difficulty=3)
    assert res.cards[0].outcome.key == "failure" and len(res.cards[0].dice) == 1
    world = sample_world({"critical_needs_hit": False})
    res, _ = run(world, "attack", "frances", [1, 2], ("espanol",), weapon="espada", difficulty=3)
    assert len(res.cards[0].dice) == 2 and res.cards[0].outcome.key == "failure"


def test_r05_opposed_tie_setting() -> None:
    for setting, winner in (("tie", "tie"), ("defender", "success")):
        world = sample_world({"opposed_tie": setting})
        res, world = run(
            world, "check", "frances", [1], ("espanol",), skill="espadas", opposed_skill="espadas"
        )
        res, _ = follow(world, res, "oppose", [3])  # both at level 2
        assert res.cards[0].outcome.key == winner


def test_r06_table_wins_over_the_formula() -> None:
    assert weapon_agilities(4, 3) == (4, 2, 1)
    assert weapon_agilities(2, 3) is None and weapon_agilities(1, 2) is None


def test_r07_tenth_is_eleven_minus_agilidad() -> None:
    assert [tenth(a) for a in (7, 5, 3, 2, 10)] == [4, 6, 8, 9, 1]


def test_r08_agilidad_and_weapon_limits() -> None:
    world = sample_world()
    for die in (9, 9):
        _, world = run(world, "attack", "frances", [die], ("espanol",), weapon="espada")
    refused("too_many_actions", world, "attack", "frances", [], ("espanol",), weapon="espada")


def test_r09_named_accumulation_moves_the_plus_one() -> None:
    world = sample_world()
    _, world = run(world, "attack", "espanol", [9], ("frances",), weapon="espada")
    res, _ = run(world, "attack", "espanol", [5], ("frances",), weapon="espada", accumulation=0)
    assert res.cards[0].outcome.success  # 5 + 0 <= 5: the +1 went to the simultaneous action


def test_r10_sprays_carry_no_accumulation_between_them() -> None:
    world = sample_world()
    res, _ = run(
        world,
        "attack",
        "agente",
        [9, 9],
        ("espanol",),
        weapon="subfusil",
        mode="sustained",
        range="short",
    )
    text = render(res.cards[0])
    assert "Acumulación" not in text


def test_r11_sustained_range_add_setting() -> None:
    world = sample_world({"sustained_range": "add"})
    res, _ = run(
        world,
        "attack",
        "agente",
        [8, 3],
        ("espanol",),
        weapon="subfusil",
        mode="sustained",
        range="short",
        bullets=5,
    )
    assert res.cards[0].outcome.success  # 8 - 3 (short range) = 5 <= 5
    assert "Blanco a distancia corta: -3" in render(res.cards[0])


def test_r12_a_spray_never_lands_more_than_it_fired() -> None:
    assert sustained_bullets(10, 3) == 3 and sustained_bullets(10, 5) == 5
    assert sustained_bullets(6, 5) == 3


def test_r14_a_short_magazine_fires_what_is_left() -> None:
    world = sample_world()
    agent = world.actors["agente"]
    world = world.with_actor(
        type(agent)(
            agent.id, agent.name, None, agent.sheet, {**agent.state, "ammo": {"subfusil": 2}}
        )
    )
    _, world = run(world, "attack", "agente", [1, 9], ("espanol",), weapon="subfusil", mode="burst")
    assert state(world, "agente")["ammo"] == {"subfusil": 0}
    refused("no_ammo", next_round(world), "attack", "agente", [], ("espanol",), weapon="subfusil")


def test_r15_reload_spends_the_round() -> None:
    world = sample_world()
    _, world = run(world, "attack", "agente", [9], ("espanol",), weapon="subfusil")
    refused("round_spent", world, "reload", "agente", weapon="subfusil")
    _, world = run(next_round(world), "reload", "agente", weapon="subfusil", one=True)
    assert state(world, "agente")["ammo"] == {"subfusil": 30}


def test_r16_aim_is_at_most_minus_two() -> None:
    world = sample_world()
    for _ in range(3):
        _, world = run(world, "aim", "guardaespaldas", weapon="pistola")
        world = next_round(world)
    res, _ = run(world, "attack", "guardaespaldas", [6], ("espanol",), weapon="pistola")
    assert "Apuntar: -2" in render(res.cards[0]) and res.cards[0].outcome.success


def test_r17_no_scope_on_a_pistol_no_laser_at_long_range() -> None:
    sheet = {**SAMPLES["guardaespaldas"]}
    sheet["weapons"] = {
        **sheet["weapons"],
        "pistola": {**sheet["weapons"]["pistola"], "scope": True, "laser": True},
    }
    world = make_world(make_actor("g", sheet), make_actor("x", master(3)))
    res, _ = run(world, "attack", "g", [1, 9], ("x",), weapon="pistola", range="long")
    text = render(res.cards[0])
    assert "Mira telescópica" not in text and "Guía láser" not in text
    res, _ = run(world, "attack", "g", [5], ("x",), weapon="pistola", range="medium")
    assert "Guía láser: -2" in render(res.cards[0])


def test_r18_prone_and_height_do_not_add() -> None:
    world = sample_world()
    res, _ = run(
        world,
        "attack",
        "guardaespaldas",
        [2],
        ("espanol",),
        weapon="pistola",
        target_prone=True,
        target_height=1,
    )
    text = render(res.cards[0])
    assert "Blanco con cobertura parcial: +2" in text and "total" not in text


def test_r19_surprise_is_an_automatic_melee_hit_without_defence() -> None:
    world = sample_world()
    res, _ = run(world, "attack", "espanol", [], ("frances",), weapon="espada", surprise=True)
    assert res.cards[0].outcome.success and [b.id for b in res.cards[0].actions] == ["damage"]
    refused(
        "surprise_melee_only",
        world,
        "attack",
        "agente",
        [],
        ("espanol",),
        weapon="subfusil",
        surprise=True,
    )


def test_r20_negative_success_level_adds_nothing_to_a_parry() -> None:
    world = sample_world()
    # ideal conditions -5: a 7 hits Espadas 5 with a success level of -2
    res, world = run(world, "attack", "espanol", [7], ("frances",), weapon="espada", ideal=True)
    assert find_follow(res, "parry").params["against_level"] == 0
    res, _ = follow(world, res, "parry", [3], weapon="espada")
    assert res.cards[0].outcome.success  # 3 + 0 <= 3


def test_r22_attacks_must_follow_the_declaration() -> None:
    world = sample_world()
    _, world = run(world, "initiative", "espanol", plan="attack:espada,attack:espada", declare=True)
    res, world = run(world, "attack", "frances", [2], ("espanol",), weapon="espada")
    with pytest.raises(RulesError) as error:
        follow(world, res, "parry", [1], weapon="espada")
    assert error.value.code == "not_declared"
    _, world = run(world, "attack", "espanol", [9], ("frances",), weapon="espada")
    _, world = run(world, "attack", "espanol", [9], ("frances",), weapon="espada")
    # the plan is spent; a GM may change it, a player may not
    refused("plan_done", world, "check", "espanol", [], skill="esquivar", combat_action=True)
    refused("already_declared", world, "initiative", "espanol", plan="dodge", declare=True)
    _, changed = run(world, "initiative", "espanol", by_gm=True, plan="dodge", declare=True)
    assert changed.data["brp_d10_plans"]["espanol"] == "dodge"
    # the next round has no plan: anything goes
    _, world = run(next_round(world), "check", "espanol", [1], skill="esquivar", combat_action=True)


def test_r23_r24_default_tables() -> None:
    assert HIT_LOCATION_D10[5] == "abdomen" and HIT_LOCATION_D10[10] == "cabeza"
    assert DAMAGE_BONUS_BY_FUERZA[9] == 2 and DAMAGE_BONUS_BY_FUERZA[5] == 0


def test_r25_wound_level_steps() -> None:
    settings: dict[str, Any] = {}
    assert [wound_level(d, 5, settings) for d in (0, 4, 5, 9, 10, 15)] == [0, 1, 2, 2, 3, 4]


def test_r27_destroyed_limb_is_permanent() -> None:
    world = sample_world()
    _, world = run(world, "wound", "espanol", by_gm=True, location="brazo_izquierdo", level=4)
    _, world = run(world, "treat", "agente", [1], ("espanol",))
    world = advance(world, "day", 90)
    assert wounds(world, "espanol") == [("brazo_izquierdo", 4)]


def test_r28_endured_pain_returns_after_the_fight() -> None:
    world = sample_world()
    _, world = run(world, "wound", "frances", by_gm=True, location="pecho", level=1)
    _, world = run(world, "endure", "frances", [1], wound=1)
    assert SYSTEM.token_numbers(world.actors["frances"])["penalty"] == 0
    _, world = run(world, "end_combat", "frances", by_gm=True)
    assert SYSTEM.token_numbers(world.actors["frances"])["penalty"] == 1


def test_r29_shock_counts_ignored_setting() -> None:
    for counts, shocked in ((True, True), (False, False)):
        world = sample_world({"shock_counts_ignored": counts})
        _, world = run(world, "wound", "frances", by_gm=True, location="pierna_derecha", level=1)
        _, world = run(world, "endure", "frances", [1], wound=1)
        for location in ("pecho", "abdomen"):
            _, world = run(world, "wound", "frances", by_gm=True, location=location, level=2)
        _, world = run(world, "wound", "frances", by_gm=True, location="cabeza", level=1)
        assert ("unconscious" in world.actors["frances"].statuses) is shocked


def test_r31_a_leg_still_acts_the_abdomen_does_not() -> None:
    world = sample_world()
    _, world = run(world, "wound", "espanol", by_gm=True, location="pierna_derecha", level=3)
    assert {"prone", "impaired"} <= world.actors["espanol"].statuses
    res, world = run(world, "attack", "espanol", [1, 1], ("frances",), weapon="espada")
    assert "Heridas: +4" in render(res.cards[0])
    _, world = run(world, "wound", "frances", by_gm=True, location="abdomen", level=3)
    refused("cannot_act", world, "attack", "frances", [], ("espanol",), weapon="espada")


def test_r32_light_wound_minutes_setting_and_rounds_do_not_heal() -> None:
    world = sample_world({"light_wound_minutes": 3})
    _, world = run(world, "wound", "frances", by_gm=True, location="pecho", level=1)
    world = advance(world, "round", 600)
    assert wounds(world, "frances") == [("pecho", 1)]
    world = advance(world, "minute", 3)
    assert wounds(world, "frances") == []


def test_r33_only_serious_and_incapacitated_wounds_are_treated() -> None:
    world = sample_world()
    _, world = run(world, "wound", "frances", by_gm=True, location="pecho", level=1)
    refused(
        "wound_not_treatable", world, "treat", "espanol", [], ("frances",), purpose="wound", wound=1
    )


def test_r34_injury_by_location_setting() -> None:
    world = sample_world({"injury_by": "location"})
    _, world = run(
        world, "wound", "frances", by_gm=True, location="brazo_izquierdo", level=3, injury="organ"
    )
    world = advance(world, "day", 60)
    assert state(world, "frances")["losses"] == {"agilidad": 1}


def test_r35_wounds_burden_medicine_too() -> None:
    world = sample_world()
    _, world = run(world, "wound", "espanol", by_gm=True, location="pecho", level=2)
    _, world = run(world, "wound", "frances", by_gm=True, location="pecho", level=2)
    res, _ = run(world, "treat", "espanol", [2], ("frances",), purpose="wound", wound=1)
    assert not res.cards[0].outcome.success  # 2 + 2 > 3


def test_r36_drawing_costs_two_bows_never() -> None:
    world = sample_world()
    res, _ = run(world, "attack", "espanol", [3], ("frances",), weapon="espada", drawn=True)
    assert "Desenfundado en este asalto: +2" in render(res.cards[0])
    bow = {
        **master(6),
        "weapons": {
            "arco": {"kind": "ranged", "skill": "espadas", "damage": "1d8", "draw_and_use": False}
        },
    }
    world = make_world(make_actor("a", bow), make_actor("x", master(3)))
    refused("cannot_draw_and_use", world, "attack", "a", [], ("x",), weapon="arco", drawn=True)


# --- rulings added with the protocol work -----------------------------------------------------


def test_r37_a_blow_is_answered_once() -> None:
    world = sample_world()
    res, world = run(world, "attack", "espanol", [5], ("frances",), weapon="espada")
    parried, after = follow(world, res, "parry", [1], weapon="espada")
    assert parried.cards[0].outcome.success
    for follow_id, ask in (("take", {}), ("dodge", {})):
        with pytest.raises(RulesError) as error:
            follow(after, res, follow_id, [1, 1], **ask)
        assert error.value.code == "blow_resolved"
    # a failed dodge leaves only its own damage button
    res, world = run(next_round(after), "attack", "espanol", [2], ("frances",), weapon="espada")
    dodge, world = follow(world, res, "dodge", [9])
    with pytest.raises(RulesError):
        follow(world, res, "take", [1, 1])
    _, world = follow(world, dodge, "damage", [1, 1])
    assert len(wounds(world, "frances")) == 1
    _, world = run(world, "end_combat", "frances", by_gm=True)
    assert world.data["brp_d10_blows"] == {}


def test_r39_an_arm_drops_what_it_holds() -> None:
    world = sample_world()
    res, world = run(world, "wound", "espanol", by_gm=True, location="brazo_izquierdo", level=3)
    assert "Rodela" in render(res.cards[0])
    assert state(world, "espanol")["dropped"] == ["rodela"]
    res, world = run(world, "attack", "frances", [2], ("espanol",), weapon="espada")
    with pytest.raises(RulesError) as error:
        follow(world, res, "parry", [1], weapon="rodela")
    assert error.value.code == "weapon_dropped"
    _, picked = run(world, "pick_up", "espanol", weapon="rodela")  # with the right hand
    assert state(picked, "espanol")["dropped"] == []
    refused("nothing_dropped", world, "pick_up", "espanol", weapon="espada")
    # the abdomen: 'el personaje suelta todo lo que llevara'; the agent's SMG is two-handed
    _, world = run(world, "wound", "agente", by_gm=True, location="brazo_derecho", level=3)
    assert state(world, "agente")["dropped"] == ["subfusil", "cuchillo"]
    refused("weapon_dropped", world, "attack", "agente", [], ("espanol",), weapon="subfusil")
    _, world = run(
        world, "wound", "guardaespaldas", by_gm=True, location="brazo_izquierdo", level=3
    )
    assert state(world, "guardaespaldas")["dropped"] == []
    _, world = run(world, "wound", "guardaespaldas", by_gm=True, location="abdomen", level=3)
    assert state(world, "guardaespaldas")["dropped"] == ["pistola", "punos"]


def test_r39_pick_up_with_a_working_hand() -> None:
    world = sample_world()
    _, world = run(world, "wound", "espanol", by_gm=True, location="abdomen", level=3)
    _, world = run(world, "treat", "agente", [1], ("espanol",))
    statuses = world.actors["espanol"].statuses - {"incapacitated"}
    espanol = world.actors["espanol"]
    world = world.with_actor(
        type(espanol)(espanol.id, espanol.name, None, espanol.sheet, espanol.state, statuses)
    )
    buttons = [
        b.params for b in SYSTEM.buttons(world, world.actors["espanol"]) if b.action == "pick_up"
    ]
    assert buttons == [{"weapon": "espada"}, {"weapon": "rodela"}]
    _, world = run(world, "pick_up", "espanol", weapon="espada")
    assert state(world, "espanol")["dropped"] == ["rodela"]
    assert state(world, "espanol")["round"]["actions"] == 1


def test_r40_spare_magazines_when_the_sheet_counts_them() -> None:
    sheet = {**SAMPLES["guardaespaldas"]}
    sheet["weapons"] = {
        **sheet["weapons"],
        "pistola": {**sheet["weapons"]["pistola"], "spare_magazines": 1},
    }
    world = make_world(make_actor("g", sheet), make_actor("x", master(3)))
    assert state(world, "g")["spares"] == {"pistola": 1}
    _, world = run(world, "attack", "g", [9], ("x",), weapon="pistola")
    world = next_round(world)
    res, world = run(world, "reload", "g", weapon="pistola")
    assert "Cargadores de repuesto: 0" in render(res.cards[0])
    _, world = run(next_round(world), "attack", "g", [9], ("x",), weapon="pistola")
    world = next_round(world)
    refused("no_spare_magazine", world, "reload", "g", weapon="pistola")
    _, world = run(world, "reload", "g", weapon="pistola", one=True)  # loose rounds by hand
    assert state(world, "g")["ammo"] == {"pistola": 15}


def test_r23_r24_tables_overridden_per_world() -> None:
    world = sample_world(
        {"hit_locations": ",".join(["cabeza"] * 10), "damage_bonus": "3," * 9 + "3"}
    )
    res, world = run(world, "attack", "guardaespaldas", [2], ("espanol",), weapon="pistola")
    _, world = follow(world, res, "damage", [3, 1])
    assert wounds(world, "espanol") == [("cabeza", 1)]  # a gun: no damage bonus
    res, world = run(world, "attack", "espanol", [2], ("frances",), weapon="espada")
    res, world = follow(world, res, "take", [7, 1])  # 1d8+1 = 2, +3 bonus = 5: serious
    assert (
        wounds(world, "frances") == [("cabeza", 2)]
        and "dead" not in world.actors["frances"].statuses
    )
    assert "Modificador al daño por Fuerza: +3" in render(res.cards[0])
    for bad in (
        {"hit_locations": "cabeza"},
        {"damage_bonus": "1,2"},
        {"damage_bonus": "x," * 9 + "x"},
    ):
        with pytest.raises(RulesError) as error:
            SYSTEM.validate_settings(bad)
        assert error.value.code == "bad_table"
