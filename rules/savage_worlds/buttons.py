"""The buttons a sheet shows: traits, weapons, the turn, health, and the GM's levers."""

from __future__ import annotations

from rules.model import Actor, World, t
from rules.params import Param
from rules.savage_worlds.actions import ACTIONS, MAX_TARGETS
from rules.savage_worlds.shared import BUTTONS_TABLE_SIZE, remember
from rules.savage_worlds.sheet import Sheet, Weapon, parse_sheet
from rules.savage_worlds.tables import ATTRIBUTES
from rules.system import Button


def _params(kind: str, *names: str) -> tuple[Param, ...]:
    return tuple(p for p in ACTIONS[kind].params if p.name in names)


TRAIT_ASK = _params("trait", "modifier", "tn", "free")


def _attack_button(weapon: Weapon, autofire: str, frenzy: bool) -> Button:
    names = ["cover", "lighting", "blind", "distance", "modifier"]
    if weapon.kind != "melee":
        names.append("range")
    if weapon.rof > 1:
        names.append("rof")
        if autofire == "assigned":
            names.append("spread")
    if weapon.pen_mov:
        names.append("moved")
    if frenzy and weapon.kind == "melee":
        names.append("frenzy")
    most = MAX_TARGETS if weapon.area or weapon.rof > 1 else 1
    if frenzy and weapon.kind == "melee":
        most = 2
    return Button(
        t("button.attack", weapon=weapon.name),
        "attack",
        "attack",
        {"weapon": weapon.id},
        t("group.weapons"),
        _params("attack", *names),
        1,
        most,
    )


_BUTTONS: dict[tuple[int, str, bool], tuple[Sheet, tuple[Button, ...]]] = {}


def sheet_buttons(world: World, actor: Actor) -> tuple[Button, ...]:
    """The buttons of ``actor``'s sheet: they depend only on the parsed sheet and two settings
    (autofire, variant), so they are built once per sheet (held: its id is not reused;
    sheets never change, a new one is a miss) and those two values; the records are frozen
    and shared."""
    sheet = parse_sheet(actor.sheet)
    autofire = str(world.settings.get("autofire", "extermination"))
    xcom = world.settings.get("variant", "core") == "xcom"
    found = _BUTTONS.get((id(sheet), autofire, xcom))
    if found is None or found[0] is not sheet:
        found = remember(
            _BUTTONS,
            (id(sheet), autofire, xcom),
            (sheet, _sheet_buttons(sheet, autofire, xcom)),
            BUTTONS_TABLE_SIZE,
        )
    return found[1]


def _sheet_buttons(sheet: Sheet, autofire: str, xcom_variant: bool) -> tuple[Button, ...]:
    out: list[Button] = []
    for key in ATTRIBUTES:
        out.append(
            Button(
                t(f"attr.{key}"), "roll", "trait", {"trait": key}, t("group.attributes"), TRAIT_ASK
            )
        )
    for key, skill in sheet.skills.items():
        out.append(
            Button(
                t("raw", text=skill.label),
                "roll",
                "trait",
                {"trait": key},
                t("group.skills"),
                TRAIT_ASK,
            )
        )
    for weapon in sheet.weapons:
        out.append(_attack_button(weapon, autofire, sheet.has_edge("frenesi")))
        if weapon.shots is not None:
            out.append(
                Button(
                    t("button.reload", weapon=weapon.name),
                    "roll",
                    "reload",
                    {"weapon": weapon.id},
                    t("group.weapons"),
                )
            )
        if weapon.bipod:
            out.append(
                Button(
                    t("button.bipod", weapon=weapon.name),
                    "roll",
                    "bipod",
                    {"weapon": weapon.id},
                    t("group.weapons"),
                )
            )
        out.append(
            Button(
                t("button.ready", weapon=weapon.name),
                "roll",
                "ready",
                {"weapon": weapon.id},
                t("group.weapons"),
                _params("ready", "source"),
            )
        )
    out.append(
        Button(
            t("button.unarmed"),
            "attack",
            "attack",
            {"weapon": "unarmed"},
            t("group.weapons"),
            _params("attack", "cover", "lighting", "modifier"),
            1,
            1,
        )
    )
    turn = t("group.turn")
    out += [
        Button(t("action.declare"), "roll", "declare", {}, turn, _params("declare", "count")),
        Button(t("action.start_turn"), "roll", "start_turn", {}, turn),
        Button(t("action.unshake"), "roll", "unshake", {}, turn),
        Button(t("action.hold"), "roll", "hold", {}, turn),
        Button(t("action.interrupt"), "roll", "interrupt", {}, turn, (), 1, 1),
        Button(t("action.free"), "roll", "free", {}, turn, _params("free", "what")),
        Button(t("action.overwatch"), "roll", "overwatch", {}, turn),
        Button(t("action.stabilise"), "heal", "stabilise", {}, t("group.health"), (), 1, 1),
        Button(t("action.treat"), "heal", "treat", {}, t("group.health"), (), 1, 1),
    ]
    gm = t("group.gm")
    out += [
        Button(
            t("action.hurt"),
            "damage_apply",
            "hurt",
            {},
            gm,
            _params("hurt", "damage", "ap"),
            gm_only=True,
        ),
        Button(
            t("action.gm_heal"),
            "heal",
            "gm_heal",
            {},
            gm,
            _params("gm_heal", "wounds"),
            gm_only=True,
        ),
        Button(
            t("action.benny"),
            "gm_action",
            "benny",
            {},
            gm,
            _params("benny", "count", "to_gm"),
            gm_only=True,
        ),
        Button(
            t("action.combat_start"),
            "gm_action",
            "combat_start",
            {},
            gm,
            _params("combat_start", "surprise"),
            0,
            100,
            True,
        ),
        Button(t("action.next_round"), "gm_action", "next_round", {}, gm, gm_only=True),
        Button(t("action.combat_end"), "gm_action", "combat_end", {}, gm, gm_only=True),
        Button(
            t("action.overwatch_fire"),
            "attack",
            "overwatch_fire",
            {},
            gm,
            _params("overwatch_fire", "range", "cover", "lighting", "modifier"),
            1,
            1,
            True,
        ),
    ]
    if xcom_variant:
        xcom = t("group.xcom")
        out += [
            Button(
                t("action.xcom_act"), "roll", "xcom_act", {}, xcom, _params("xcom_act", "stealth")
            ),
            Button(t("action.xcom_rescue"), "roll", "xcom_rescue", {}, xcom, (), 1, 1),
            Button(t("action.xcom_aliens"), "gm_action", "xcom_aliens", {}, xcom, gm_only=True),
            Button(
                t("action.xcom_end_turn"), "gm_action", "xcom_end_turn", {}, xcom, (), 0, 100, True
            ),
            Button(t("action.xcom_detect"), "gm_action", "xcom_detect", {}, xcom, (), 2, 100, True),
            Button(t("action.xcom_contact"), "gm_action", "xcom_contact", {}, xcom, gm_only=True),
        ]
    return tuple(out)
