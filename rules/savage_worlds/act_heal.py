"""Treating wounds with the Healing skill (setting ``healing_rolls``): core Savage Worlds, not
the seed text, which only uses Healing to stop Bleeding Out (``stabilise`` in ``act_gear``).

Ruling: the healer rolls Healing (an action) with the patient's wound penalty; a
success heals one wound, each raise one more. One treatment per patient a day: the
patient keeps ``treated_hours`` (24) and ``time_advance`` of hours or days counts it
down. A patient who is Bleeding Out must be stabilised first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource
from rules.model import Action, Line, Resolution, World, t
from rules.savage_worlds.act_attack import require_can_act
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.health import heal_all_wounds_clears
from rules.savage_worlds.state import Draft, wound_penalty
from rules.savage_worlds.tables import TREATMENT_HOURS
from rules.savage_worlds.traits import (
    Modifier,
    outcome,
    roll_trait_check,
    situation_modifiers,
    trait_die,
    trait_lines,
    use_action,
)


def healed_by(success: bool, raises: int, wounds: int) -> int:
    """'Each success and raise heals one wound' (core rules), never more than there are."""
    return min(wounds, 1 + raises) if success else 0


def resolve_treat(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    draft = Draft(world)
    healer, patient = action.actor_id, action.targets[0]
    if not settings.get("healing_rolls", True):
        raise refuse("healing_off", "action")
    name = draft.actor(patient).name
    if draft.has(patient, "dead"):
        raise refuse("actor_out", "targets.0", actor=name)
    wounds = int(draft.get(patient, "wounds", 0))
    if wounds <= 0:
        raise refuse("no_wounds", "targets.0", actor=name)
    if draft.has(patient, "bleeding"):
        raise refuse("bleeding_first", "targets.0", actor=name)
    if int(draft.get(patient, "treated_hours", 0)) > 0:
        raise refuse("already_treated", "targets.0", actor=name)
    require_can_act(draft, healer)
    multi = use_action(draft, healer, settings, "actor")
    sheet = draft.sheet(healer)
    healing = trait_die(sheet, draft.state(healer), "sanar", settings, "actor")
    patient_penalty = wound_penalty(draft.sheet(patient), draft.state(patient))
    mods = [*situation_modifiers(draft, healer, sheet, multi=multi)]
    if patient_penalty:
        mods.append(Modifier("patient_wounds", patient_penalty))
    mods.append(Modifier("modifier", int(action.params.get("modifier", 0))))
    roll = roll_trait_check(
        dice,
        healing,
        wild_card=sheet.wild_card,
        modifiers=tuple(mods),
        role="healing",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    healed = healed_by(roll.success, roll.raises, wounds)
    left = wounds - healed
    draft.put(patient, wounds=left, treated_hours=TREATMENT_HOURS)
    lines = [*trait_lines(roll), Line(t("line.healed", actor=name, healed=healed, wounds=left))]
    if healed and left == 0:
        draft.remove(patient, "wounded", "incapacitated")
        heal_all_wounds_clears(draft, patient)
    return Resolution(
        action,
        (
            card(
                "treat",
                t("card.treat", actor=draft.actor(healer).name, patient=name),
                healer,
                lines,
                dice=roll.dice,
                outcome=outcome(roll),
                target=patient,
            ),
        ),
        draft.effects(),
    )
