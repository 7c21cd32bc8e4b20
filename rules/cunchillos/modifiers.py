"""The modifiers a TA collects from the round, the fighter's wounds, weapon and scene.

Positive is harder ('penaliza con +5'), negative easier. Each function returns
labelled :class:`Modifier` records so a card can show every one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.cunchillos.checks import Modifier
from rules.cunchillos.health import arm_state, physical_penalty, timers_of, wounds_of
from rules.cunchillos.initiative import declaration_of
from rules.cunchillos.settings import Rules
from rules.cunchillos.sheet import Sheet, Weapon
from rules.cunchillos.tables import (
    ARM_OF_HAND,
    CHANGE_ACTION_TA,
    INCAPACITATED_MENTAL,
    LOCATION_GROUP,
    MULTI_ACTION_STEP,
    OFF_HAND,
    STUNNED_TA,
    VISIBILITY,
    WITHDRAW_TA,
)


def multi_action_penalty(actions: int, coo: int, rules: Rules) -> int:
    """'Hacer más de una acción: (+5/acción)-Coo Pj, (mínimo +1)' on every TA of the round."""
    if actions <= 1:
        return 0
    counted = actions - 1 if rules.multi_action_count == "extra" else actions
    return max(1, MULTI_ACTION_STEP * counted - coo)


def round_modifiers(sheet: Sheet, state: Mapping[str, Any], rules: Rules) -> list[Modifier]:
    """What the declaration costs every TA of the round, plus a stun and a one-shot modifier."""
    declared = declaration_of(state)
    actions = int(declared.get("actions", 1) or 1)
    mods = [
        Modifier("multiple_actions", multi_action_penalty(actions, sheet.coo, rules), str(actions)),
        Modifier("raise_initiative", int(declared.get("raise", 0) or 0)),
    ]
    if declared.get("changed"):
        mods.append(Modifier("changed_action", CHANGE_ACTION_TA))
    if timers_of(state)["stunned"] > 0:
        mods.append(Modifier("stunned", STUNNED_TA))
    next_ta = state.get("next_ta", 0)
    if isinstance(next_ta, int) and not isinstance(next_ta, bool) and next_ta:
        mods.append(Modifier("next_ta", next_ta))
    return mods


def incapacitated(state: Mapping[str, Any]) -> bool:
    """No physical actions: serious abdomen/leg wound, knockdown, or surrendered."""
    if timers_of(state)["incapacitated"] > 0:
        return True
    grapple = state.get("grapple")
    if isinstance(grapple, Mapping) and grapple.get("surrendered"):
        return True
    return any(
        w.get("severity") in ("serious", "amputation")
        and LOCATION_GROUP.get(str(w.get("loc"))) in ("abdomen", "pierna")
        for w in wounds_of(state)
    )


def condition_modifiers(state: Mapping[str, Any], physical: bool, rules: Rules) -> list[Modifier]:
    """Wound penalties to physical TA; '+10 a TA mentales' while incapacitated."""
    if physical:
        return [Modifier("wounds", physical_penalty(state))]
    if not incapacitated(state):
        return []
    literal = rules.literal_signs and bool(state.get("knocked"))
    # 'cae al suelo y 5 asaltos Incapacitado (... -10 TA mentales)' read as +10 (RULES.md).
    return [
        Modifier("incapacitated_mental", -INCAPACITATED_MENTAL if literal else INCAPACITATED_MENTAL)
    ]


def weapon_modifiers(
    sheet: Sheet, state: Mapping[str, Any], weapon: Weapon, hand: str
) -> list[Modifier]:
    """Strength below the weapon's minimum, the off hand, a lightly wounded arm."""
    mods = [Modifier("strength", max(0, weapon.fue_min - sheet.fue), str(weapon.fue_min))]
    if hand != sheet.main_hand and not weapon.two_handed:
        mods.append(Modifier("off_hand", OFF_HAND))
    light, _ = arm_state(state, ARM_OF_HAND[hand])
    mods.append(Modifier("arm_wound", 5 * light))
    return mods


def scene_modifiers(params: Mapping[str, Any], *, attack: bool) -> list[Modifier]:
    """Height (only for an attack: 'no aplicable en parada ni esquivar') and visibility."""
    mods: list[Modifier] = []
    height = str(params.get("height", "level"))
    if attack and height == "higher":
        mods.append(Modifier("higher_ground", -5))
    elif attack and height == "lower":
        mods.append(Modifier("lower_ground", 5))
    visibility = int(params.get("visibility", 0) or 0)
    if visibility in VISIBILITY:
        mods.append(Modifier("visibility", visibility))
    extra = int(params.get("modifier", 0) or 0)
    mods.append(Modifier("gm", extra))
    return mods


def withdraw_modifier(state: Mapping[str, Any]) -> list[Modifier]:
    """'Retirarse del combate: ... tendrá un +5 a su TA de golpear'."""
    return [Modifier("withdrawing", WITHDRAW_TA)] if declaration_of(state).get("withdraw") else []
