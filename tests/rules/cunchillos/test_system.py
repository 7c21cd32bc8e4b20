from typing import Any

import pytest

from rules.cunchillos import SYSTEM
from rules.dice import SeededDice
from rules.i18n import translate
from rules.model import Action, RulesError, TimeStep
from rules.params import validate_params

GOOD = {
    "caracteristicas": {"fue": 10, "coo": 5, "res": 6},
    "pv": 20,
    "habilidades": {"espada": {"label": "Espada", "value": 14}},
    "armas": {"espada": {"skill": "espada", "damage": "II"}},
    "en_mano": {"derecha": "espada"},
}


def test_good_sheet_is_normalized() -> None:
    sheet = SYSTEM.validate_sheet(GOOD)
    assert sheet["armas"]["espada"]["label"] == "espada"
    assert sheet["mano_habil"] == "derecha" and sheet["en_mano"]["izquierda"] is None
    assert SYSTEM.validate_sheet(sheet) == sheet


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        ({"caracteristicas": {"fue": 10, "coo": 5}}, "sheet.caracteristicas.res"),
        ({"pv": 0}, "sheet.pv"),
        ({"pv": True}, "sheet.pv"),
        ({"armas": {"espada": {"skill": "espada", "damage": "VI"}}}, "sheet.armas.espada.damage"),
        ({"en_mano": {"derecha": "lanza"}}, "sheet.en_mano.derecha"),
        ({"en_mano": {"pie": None}}, "sheet.en_mano.pie"),
        ({"habilidades": {"Espada": {"value": 3}}}, "sheet.habilidades.Espada"),
        (
            {"habilidades": {"espada": {"value": 3, "tipo": "magica"}}},
            "sheet.habilidades.espada.tipo",
        ),
        ({"mano_habil": "ambas"}, "sheet.mano_habil"),
    ],
)
def test_bad_sheets_name_the_field(patch: dict[str, Any], field: str) -> None:
    with pytest.raises(RulesError) as error:
        SYSTEM.validate_sheet({**GOOD, **patch})
    assert error.value.code == "invalid_sheet" and error.value.field == field
    translate(error.value.message, "es", SYSTEM.messages, strict=True)


def test_settings_defaults_and_validation() -> None:
    settings = SYSTEM.default_settings()
    assert settings["critical_rule"] == "doubles" and settings["rounds_per_minute"] == 10
    with pytest.raises(RulesError):
        SYSTEM.validate_settings({"critical_rule": "dice"})
    for param in SYSTEM.settings:
        assert param.label is not None
        for locale in ("es", "en"):
            translate(param.label, locale, SYSTEM.messages, strict=True)


def test_sample_actors_validate_and_every_button_resolves(h: Any) -> None:
    w = h.world()
    assert 2 <= len(w.actors) <= 4
    for actor in w.actors.values():
        assert SYSTEM.validate_sheet(actor.sheet) == actor.sheet
        assert SYSTEM.token_numbers(actor)["pv"] > 0
        for index, button in enumerate(SYSTEM.buttons(w, actor)):
            for locale in ("es", "en"):
                translate(button.label, locale, SYSTEM.messages, strict=True)
                for param in button.ask:
                    translate(param.label, locale, SYSTEM.messages, strict=True)
            others = [a for a in w.actors if a != actor.id]
            targets = tuple(others[: max(button.min_targets, 0)])
            params = dict(button.params)
            if button.action == "damage_apply":
                params.update(amount=5, location="pecho")
            try:
                action = SYSTEM.check_action(
                    w, Action(button.action, actor.id, params, targets, by_gm=True)
                )
                res = SYSTEM.resolve(w, action, SeededDice(f"{actor.id}-{index}"))
            except RulesError as error:
                assert error.code and translate(error.message, "es", SYSTEM.messages, strict=True)
                continue
            for card in res.cards:
                h.texts(card, "es")
                h.texts(card, "en")
            SYSTEM.apply(w, res)


def test_every_action_spec_label_translates() -> None:
    for spec in SYSTEM.actions.values():
        for locale in ("es", "en"):
            translate(spec.label, locale, SYSTEM.messages, strict=True)
        validate_params(spec.params, {}) if not any(p.required for p in spec.params) else None


def test_unknown_action_and_skill() -> None:
    w = __import__("rules.model", fromlist=["World"]).World(
        "w", "w", "cunchillos", SYSTEM.default_settings(), {a.id: a for a in SYSTEM.sample_actors()}
    )
    with pytest.raises(RulesError) as error:
        SYSTEM.check_action(w, Action("teleport", "ines"))
    assert error.value.code == "unknown_action"
    for params, code in (
        ({"skill": "volar"}, "no_such_skill"),
        ({}, "skill_or_characteristic"),
        ({"characteristic": "mag"}, "no_such_characteristic"),
    ):
        with pytest.raises(RulesError) as error:
            SYSTEM.resolve(w, SYSTEM.check_action(w, Action("ta", "ines", params)), SeededDice(1))
        assert error.value.code == code
        translate(error.value.message, "en", SYSTEM.messages, strict=True)


def test_dice_script_running_out_is_a_clean_error(h: Any) -> None:
    with pytest.raises(RulesError) as error:
        h.run(h.world(), "attack", "ines", [4], ("maton",))
    assert error.value.code == "dice_exhausted"


def test_gm_levers(h: Any) -> None:
    assert SYSTEM.actions["damage_apply"].gm_only and SYSTEM.actions["heal"].gm_only
    res, w = h.run(
        h.world(),
        "damage_apply",
        "ines",
        [],
        ("maton",),
        amount=11,
        location="pierna_derecha",
        low=4,
    )
    assert w.actors["maton"].state["pv"] == 13 and "incapacitated" in w.actors["maton"].statuses
    with pytest.raises(RulesError) as error:
        h.run(w, "attack", "maton", [4, 3, 5], ("ines",))
    assert error.value.code == "actor_incapacitated"
    res, w = h.run(w, "heal", "ines", [], ("maton",), amount=5, stop_bleeding=True)
    assert w.actors["maton"].state["pv"] == 18 and "bleeding" not in w.actors["maton"].statuses
    h.all_texts(res)
    _, w = h.run(h.world(), "retreat_blocked", "maton")
    _, same_round = h.run(w, "declare", "maton", actions=1, defence="dodge")
    res, _ = h.run(same_round, "attack", "ines", [4, 3, 5, 9, 8], ("maton",))
    assert "No pudo retroceder" not in h.all_texts(res)
    w = SYSTEM.apply(w, SYSTEM.advance_time(w, TimeStep("round"), SeededDice(0)))  # type: ignore[arg-type]
    _, w = h.run(w, "declare", "maton", actions=1, defence="dodge")
    res, _ = h.run(w, "attack", "ines", [4, 3, 5, 9, 8], ("maton",))
    assert "No pudo retroceder" in h.all_texts(res)
    assert (
        next(
            line.value
            for line in res.cards[0].sections[0].lines
            if "blocked" in line.label.key or line.label.key == "mod.blocked_retreat"
        )
        == "+5"
    )


def test_error_messages_translate_for_every_refusal_code() -> None:
    from rules.cunchillos.messages import MESSAGES

    assert set(MESSAGES["es"]) == set(MESSAGES["en"])
