"""The sheet buttons a front end shows for an Omertà character."""

from __future__ import annotations

from rules.model import Actor, World, t
from rules.omerta.combat import tracker_running
from rules.omerta.sheet import parse_sheet
from rules.omerta.skills import CHARACTERISTICS
from rules.omerta.specs import (
    AUTOMATIC,
    BLIND,
    BLIND_IDEA,
    COMBAT_ACTION,
    EXTRACTION_FLAGS,
    GAPS,
    LOCATION,
    METRES,
    MODIFIER,
    PRECISE,
    PRECISE_AREA,
    RANGE,
    TARGET_FAST,
    UNAWARE,
    WOUND,
)
from rules.params import Param
from rules.system import Button

# The parameters the buttons ask for, built once: a button set is built for every actor
# view, and the renderer remembers each parameter's view by its identity (a new Param per
# call filled that memo with entries never found again: docs/reliability.md, item 10).
_USING = Param(
    "using", "choice", t("param.using"), default="weapon", choices=("weapon", "mecanica")
)
_AMOUNT = Param("amount", "int", t("param.amount"), required=True, minimum=0, maximum=1000)
_KIND = Param("kind", "choice", t("param.kind"), default="lethal", choices=("lethal", "contusion"))
_BULLET = Param("bullet", "bool", t("param.bullet"), default=False)
_CHANGE = Param(
    "change",
    "choice",
    t("param.change"),
    required=True,
    choices=("wake", "stabilize", "not_resting", "resting", "clear_jams", "new_round_state"),
)


def sheet_buttons(world: World, actor: Actor) -> tuple[Button, ...]:
    sheet = parse_sheet(actor.sheet)
    skills_group, chars_group = t("group.skills"), t("group.characteristics")
    combat, care, don = t("group.combat"), t("group.care"), t("group.don")
    found: list[Button] = []
    for key, skill in sheet.skills.items():
        found.append(
            Button(
                t("raw", text=skill.label),
                "roll",
                "roll",
                {"skill": key},
                skills_group,
                (MODIFIER, AUTOMATIC, COMBAT_ACTION),
                0,
                1,
            )
        )
    for key in sheet.characteristics:
        label = t(f"char.{key}") if key in CHARACTERISTICS else t("raw", text=key)
        found.append(
            Button(
                label, "roll", "roll", {"characteristic": key}, chars_group, (MODIFIER, AUTOMATIC)
            )
        )
    tracked = tracker_running(world)  # the tracker rolls initiative and ends the fight
    if not tracked:
        found.append(Button(t("action.initiative"), "roll", "initiative", {}, combat))
    jams = actor.state.get("jams", {})
    for key, weapon in sheet.weapons.items():
        label = t("raw", text=weapon.label)
        if weapon.thompson:
            for mode in ("concentrated", "short_burst", "empty", "long_burst"):
                many = mode in ("empty", "long_burst")
                ask: tuple[Param, ...] = (
                    MODIFIER,
                    TARGET_FAST,
                    UNAWARE,
                    *((GAPS,) if many else ()),
                )
                found.append(
                    Button(
                        t("button.attack_mode", weapon=label, mode=t(f"mode.{mode}")),
                        "attack",
                        "attack",
                        {"weapon": key, "mode": mode},
                        combat,
                        ask,
                        1,
                        8 if many else 1,
                    )
                )
        else:
            ask = (MODIFIER, UNAWARE)
            if weapon.firearm:
                ask = (MODIFIER, PRECISE, PRECISE_AREA, BLIND, BLIND_IDEA, TARGET_FAST, UNAWARE)
                if weapon.shotgun:
                    ask = (RANGE, *ask)
                if weapon.type == "rifle":
                    ask = (*ask, LOCATION)
            elif weapon.kind == "thrown":
                ask = (MODIFIER, TARGET_FAST, UNAWARE)
            found.append(
                Button(
                    t("button.attack", weapon=label),
                    "attack",
                    "attack",
                    {"weapon": key},
                    combat,
                    ask,
                    1,
                    1,
                )
            )
        if weapon.firearm and not weapon.thompson:
            found.append(
                Button(
                    t("button.aim", weapon=label),
                    "attack",
                    "aim",
                    {"weapon": key},
                    combat,
                    (),
                    1,
                    1,
                )
            )
        if weapon.counted:
            found.append(
                Button(t("button.reload", weapon=label), "roll", "reload", {"weapon": key}, combat)
            )
        if weapon.firearm and isinstance(jams, dict) and key in jams:
            found.append(
                Button(
                    t("button.clear_jam", weapon=label),
                    "roll",
                    "clear_jam",
                    {"weapon": key},
                    combat,
                    (_USING, MODIFIER),
                )
            )
    found.append(Button(t("action.dodge"), "roll", "dodge", {}, combat, (MODIFIER,)))
    found.append(Button(t("action.move"), "roll", "move", {}, combat, (METRES,)))
    if "primeros_auxilios" in sheet.skills:
        found.append(
            Button(t("action.first_aid"), "heal", "first_aid", {}, care, (WOUND, MODIFIER), 1, 1)
        )
    if "medicina" in sheet.skills:
        found.append(
            Button(
                t("action.extract_bullet"),
                "heal",
                "extract_bullet",
                {},
                care,
                (WOUND, MODIFIER, *EXTRACTION_FLAGS),
                1,
                1,
            )
        )
        found.append(
            Button(t("action.medical_care"), "heal", "medical_care", {}, care, (MODIFIER,), 1, 1)
        )
    found.extend(
        (
            Button(
                t("action.gm_damage"),
                "damage_apply",
                "gm_damage",
                {},
                don,
                (_AMOUNT, _KIND, _BULLET, LOCATION),
                1,
                20,
                True,
            ),
            Button(t("action.gm_heal"), "heal", "gm_heal", {}, don, (_AMOUNT,), 1, 20, True),
            Button(
                t("action.gm_condition"),
                "gm_action",
                "gm_condition",
                {},
                don,
                (_CHANGE,),
                1,
                20,
                True,
            ),
        )
    )
    if not tracked:
        found.append(
            Button(t("action.combat_end"), "gm_action", "combat_end", {}, don, (), 0, 0, True)
        )
    return tuple(found)
