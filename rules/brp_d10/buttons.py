"""The sheet buttons a front end shows for a brp_d10 actor."""

from __future__ import annotations

from rules.brp_d10.cards import read_actor
from rules.brp_d10.tables import CHARACTERISTICS
from rules.model import Actor, World, t
from rules.params import Param
from rules.system import Button


def _ask(kind: str, *names: str) -> tuple[Param, ...]:
    from rules.brp_d10.system import ACTIONS

    declared = {p.name: p for p in ACTIONS[kind].params}
    return tuple(declared[name] for name in names)


MELEE_ASK = (
    "location",
    "difficulty",
    "blind",
    "off_hand",
    "drawn",
    "target_prone",
    "mounted",
    "mounted_vs_foot",
    "ideal",
    "surprise",
    "accumulation",
)
RANGED_ASK = (
    "range",
    "cover",
    "location",
    "target_prone",
    "target_height",
    "target_moving",
    "shooter_moving",
    "off_hand",
    "drawn",
    "difficulty",
    "accumulation",
)


def sheet_buttons(world: World, actor: Actor) -> tuple[Button, ...]:
    sheet, state = read_actor(actor)
    buttons: list[Button] = []
    check_ask = _ask("check", "difficulty", "combat_action")
    for name in CHARACTERISTICS:
        buttons.append(
            Button(
                t(f"char.{name}"),
                "roll",
                "check",
                {"characteristic": name},
                t("group.characteristics"),
                check_ask,
                0,
                1,
            )
        )
    for key, skill in sheet.skills.items():
        if skill.value == 0:
            continue
        buttons.append(
            Button(
                t("raw", text=skill.label),
                "roll",
                "check",
                {"skill": key},
                t("group.skills"),
                check_ask,
                0,
                1,
            )
        )
    for key, weapon in sheet.weapons.items():
        group = t("raw", text=weapon.label)
        if weapon.kind in ("melee", "shield"):
            buttons.append(
                Button(
                    t("action.attack"),
                    "attack",
                    "attack",
                    {"weapon": key},
                    group,
                    _ask("attack", *MELEE_ASK),
                    1,
                    1,
                )
            )
            continue
        for mode in weapon.modes or ("single",):
            extra = ("shots",) if mode == "single" else ("bullets",) if mode == "sustained" else ()
            buttons.append(
                Button(
                    t(f"mode.{mode}"),
                    "attack",
                    "attack",
                    {"weapon": key, "mode": mode},
                    group,
                    _ask("attack", *extra, *RANGED_ASK),
                    1,
                    1,
                )
            )
        buttons.append(Button(t("action.aim"), "roll", "aim", {"weapon": key}, group))
        if weapon.magazine:
            buttons.append(
                Button(
                    t("action.reload"),
                    "roll",
                    "reload",
                    {"weapon": key},
                    group,
                    _ask("reload", "one"),
                )
            )
    for key in state.dropped:
        if key in sheet.weapons:
            buttons.append(
                Button(
                    t("action.pick_up"),
                    "roll",
                    "pick_up",
                    {"weapon": key},
                    t("raw", text=sheet.weapons[key].label),
                )
            )
    combat = t("group.combat")
    buttons.append(
        Button(
            t("action.initiative"),
            "roll",
            "initiative",
            {},
            combat,
            _ask("initiative", "plan", "declare"),
        )
    )
    if "medicina" in sheet.skills and sheet.skills["medicina"].value > 0:
        buttons.append(
            Button(
                t("action.treat"),
                "heal",
                "treat",
                {},
                t("group.health"),
                _ask("treat", "purpose", "wound", "difficulty"),
                0,
                1,
            )
        )
    gm = t("group.gm")
    buttons.append(
        Button(
            t("action.wound"),
            "damage_apply",
            "wound",
            {},
            gm,
            _ask("wound", "location", "level", "injury"),
            gm_only=True,
        )
    )
    buttons.append(
        Button(
            t("action.wound_remove"),
            "gm_action",
            "wound_remove",
            {},
            gm,
            _ask("wound_remove", "wound"),
            gm_only=True,
        )
    )
    buttons.append(
        Button(t("action.interrupt_rest"), "gm_action", "interrupt_rest", {}, gm, gm_only=True)
    )
    buttons.append(
        Button(t("action.round_order"), "gm_action", "round_order", {}, gm, gm_only=True)
    )
    buttons.append(Button(t("action.end_combat"), "gm_action", "end_combat", {}, gm, gm_only=True))
    del world
    return tuple(buttons)
