"""The sheet buttons a front end shows for a cunchillos actor."""

from __future__ import annotations

from rules.cunchillos.sheet import parse_sheet
from rules.model import Actor, t
from rules.system import Button


def sheet_buttons(actor: Actor) -> tuple[Button, ...]:
    from rules.cunchillos.system import ACTIONS

    sheet = parse_sheet(actor.sheet)
    spec = ACTIONS
    ask_of = {kind: tuple(p for p in s.params if p.label is not None) for kind, s in spec.items()}
    combat = t("group.combat")
    buttons: list[Button] = [
        Button(t("action.declare"), "roll", "declare", {}, t("group.round"), ask_of["declare"]),
        Button(t("action.ambush"), "roll", "ambush", {}, t("group.round")),
        Button(
            t("action.attack"),
            "attack",
            "attack",
            {},
            combat,
            tuple(p for p in ask_of["attack"]),
            1,
            1,
        ),
    ]
    for mode in ("grapple", "hold", "knockdown", "release"):
        ask = tuple(p for p in ask_of["manoeuvre"] if p.name != "mode")
        if mode != "hold":
            ask = tuple(p for p in ask if p.name != "location")
        buttons.append(
            Button(t(f"mode.{mode}"), "attack", "manoeuvre", {"mode": mode}, combat, ask, 1, 1)
        )
    buttons.append(Button(t("action.escape"), "roll", "escape", {}, combat))
    for what in ("stand", "fast_move", "other", "pass"):
        buttons.append(Button(t(f"act.button.{what}"), "roll", "act", {"what": what}, combat))
    for key, weapon in sheet.weapons.items():
        buttons.append(
            Button(
                t("act.button.draw_weapon", weapon=weapon.label),
                "roll",
                "act",
                {"what": "draw", "weapon": key},
                combat,
                tuple(p for p in ask_of["act"] if p.name == "hand"),
            )
        )
    for key, skill in sheet.skills.items():
        buttons.append(
            Button(
                t("raw", text=skill.label),
                "roll",
                "ta",
                {"skill": key},
                t("group.skills"),
                ask_of["ta"][2:],
            )
        )
    for key in sheet.characteristics:
        buttons.append(
            Button(
                t(f"char.{key}") if key in ("fue", "coo", "res") else t("raw", text=key),
                "roll",
                "ta",
                {"characteristic": key},
                t("group.characteristics"),
                ask_of["ta"][2:],
            )
        )
    gm = t("group.director")
    buttons.extend(
        (
            Button(t("action.initiative"), "gm_action", "initiative", {}, gm, (), 0, 50, True),
            Button(
                t("action.damage_apply"),
                "damage_apply",
                "damage_apply",
                {},
                gm,
                ask_of["damage_apply"],
                1,
                1,
                True,
            ),
            Button(t("action.heal"), "heal", "heal", {}, gm, ask_of["heal"], 1, 1, True),
        )
    )
    return tuple(buttons)
