"""Weapons in hand: reloading, readying, bipods; first aid (stopping Bleeding Out) and GM healing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource
from rules.model import Action, Line, Resolution, World, t
from rules.savage_worlds.act_attack import require_can_act, weapon_of
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.health import heal_all_wounds_clears
from rules.savage_worlds.state import Draft, in_combat, require_active
from rules.savage_worlds.tables import HOLSTER_READY_FREE
from rules.savage_worlds.traits import (
    outcome,
    roll_trait_check,
    situation_modifiers,
    trait_die,
    trait_lines,
    use_action,
)


def _done(action: Action, draft: Draft, kind: str, lines: list[Line], **extra: Any) -> Resolution:
    name = draft.actor(action.actor_id).name
    return Resolution(
        action,
        (card(kind, t(f"card.{kind}", actor=name), action.actor_id, lines, **extra),),
        draft.effects(),
    )


def full_round(draft: Draft, actor_id: str, settings: Mapping[str, Any]) -> None:
    """A full-round action ('acción de asalto completo') takes the whole turn: nothing before or after."""
    if not in_combat(draft) or not settings.get("track_actions", True):
        return
    if int(draft.get(actor_id, "used", 0)) > 0 or draft.get(actor_id, "full_round", False):
        raise refuse("full_round_action", "actor", actor=draft.actor(actor_id).name)
    draft.put(actor_id, full_round=True, used=max(1, int(draft.get(actor_id, "declared", 0))))


def resolve_reload(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Recargar un arma con un cargador ... es una acción'; a missile or a belt, a full round."""
    draft = Draft(world)
    actor_id = action.actor_id
    require_can_act(draft, actor_id)
    sheet = draft.sheet(actor_id)
    weapon = weapon_of(sheet, str(action.params["weapon"]), draft.actor(actor_id).name)
    if weapon.shots is None:
        raise refuse("no_reload_needed", "params.weapon", weapon=weapon.name)
    ammo = dict(draft.get(actor_id, "ammo", {}))
    if int(ammo.get(weapon.id, 0)) >= weapon.shots:
        raise refuse("already_loaded", "params.weapon", weapon=weapon.name)
    magazines = dict(draft.get(actor_id, "magazines", {}))
    if weapon.magazines is not None:
        left = int(magazines.get(weapon.id, 0))
        if left <= 0:
            raise refuse("no_magazines", "params.weapon", weapon=weapon.name)
        magazines[weapon.id] = left - 1
        draft.put(actor_id, magazines=magazines)
    if weapon.reload in ("belt", "missile"):
        full_round(draft, actor_id, settings)
        cost = t("line.cost_full_round")
    else:
        use_action(draft, actor_id, settings, "actor")
        cost = t("line.cost_action")
    ammo[weapon.id] = weapon.shots
    draft.put(actor_id, ammo=ammo)
    draft.remove(actor_id, "jammed")
    lines = [Line(t("line.reloaded", weapon=weapon.name, shots=weapon.shots), cost)]
    if weapon.magazines is not None:
        lines.append(Line(t("line.magazines_left", count=magazines[weapon.id])))
    return _done(action, draft, "reload", lines)


def resolve_ready(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Puedes preparar hasta dos armas de fundas por turno' free; from the ground or heavy: an action."""
    draft = Draft(world)
    actor_id = action.actor_id
    require_active(draft, actor_id)
    weapon = weapon_of(
        draft.sheet(actor_id), str(action.params["weapon"]), draft.actor(actor_id).name
    )
    from_ground = action.params["source"] == "ground"
    readied = int(draft.get(actor_id, "readied", 0))
    if from_ground or weapon.heavy or readied >= HOLSTER_READY_FREE:
        require_can_act(draft, actor_id)
        use_action(draft, actor_id, settings, "actor")
        cost = t("line.cost_action")
    else:
        draft.put(actor_id, readied=readied + 1)
        cost = t("line.cost_free")
    in_hand = [w for w in draft.get(actor_id, "in_hand", []) if w != weapon.id]
    draft.put(actor_id, in_hand=[weapon.id, *in_hand][:2])
    return _done(action, draft, "ready", [Line(t("line.readied", weapon=weapon.name), cost)])


def resolve_bipod(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'plantarlo y preparar/cargar el arma lleva un asalto completo'; then no minimum Strength, no recoil."""
    draft = Draft(world)
    actor_id = action.actor_id
    require_can_act(draft, actor_id)
    weapon = weapon_of(
        draft.sheet(actor_id), str(action.params["weapon"]), draft.actor(actor_id).name
    )
    if not weapon.bipod:
        raise refuse("no_bipod", "params.weapon", weapon=weapon.name)
    if weapon.id in draft.get(actor_id, "bipod", []):
        raise refuse("bipod_already_set", "params.weapon", weapon=weapon.name)
    full_round(draft, actor_id, settings)
    draft.put(actor_id, bipod=[*draft.get(actor_id, "bipod", []), weapon.id])
    return _done(
        action,
        draft,
        "bipod",
        [Line(t("line.bipod_set", weapon=weapon.name), t("line.cost_full_round"))],
    )


def resolve_stabilise(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Otros personajes pueden detener un desangramiento realizando ... una tirada de Sanar'."""
    draft = Draft(world)
    healer, patient = action.actor_id, action.targets[0]
    if healer == patient:
        raise refuse("self_heal", "targets.0")
    require_can_act(draft, healer)
    if not draft.has(patient, "bleeding") or draft.has(patient, "dead"):
        raise refuse("not_bleeding", "targets.0", actor=draft.actor(patient).name)
    multi = use_action(draft, healer, settings, "actor")
    sheet = draft.sheet(healer)
    healing = trait_die(sheet, draft.state(healer), "sanar", settings, "actor")
    roll = roll_trait_check(
        dice,
        healing,
        wild_card=sheet.wild_card,
        modifiers=situation_modifiers(draft, healer, sheet, multi=multi),
        role="healing",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    lines = list(trait_lines(roll))
    name = draft.actor(patient).name
    if roll.success:
        draft.remove(patient, "bleeding")
        lines.append(Line(t("line.stabilised", actor=name)))
    else:
        lines.append(Line(t("line.still_bleeding", actor=name)))
    return _done(
        action, draft, "stabilise", lines, dice=roll.dice, outcome=outcome(roll), target=patient
    )


def resolve_gm_heal(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """GM lever (the text has no natural healing): remove wounds; the last one lifts incapacitation."""
    draft = Draft(world)
    actor_id = action.actor_id
    if draft.has(actor_id, "dead"):
        raise refuse("actor_out", "actor", actor=draft.actor(actor_id).name)
    wounds = int(draft.get(actor_id, "wounds", 0))
    healed = min(wounds, int(action.params["wounds"]))
    if healed == 0 and not draft.has(actor_id, "incapacitated"):
        raise refuse("no_wounds", "params.wounds", actor=draft.actor(actor_id).name)
    left = wounds - healed
    draft.put(actor_id, wounds=left)
    lines = [Line(t("line.healed", actor=draft.actor(actor_id).name, healed=healed, wounds=left))]
    if left == 0:
        draft.remove(actor_id, "wounded", "incapacitated", "bleeding")
        heal_all_wounds_clears(draft, actor_id)
    return _done(action, draft, "gm_heal", lines)
