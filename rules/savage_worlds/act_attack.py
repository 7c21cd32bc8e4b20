"""The attack action: trait dice and the wild die against one or several targets, ammunition."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Action, FollowUp, Line, Outcome, Resolution, World, t
from rules.rolls import roll_die
from rules.savage_worlds.attacks import (
    Shot,
    ammo_for,
    critical_failure,
    prone_extra,
    recoil_applies,
    shots,
    spread_dice,
    strength_shortfall,
)
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.sheet import Sheet, Weapon
from rules.savage_worlds.state import Draft, drop_hold, require_active
from rules.savage_worlds.tables import (
    BLIND_FIRE_PENALTY,
    COVER_MODIFIER,
    DARK_SIGHT_LIMIT,
    LIGHTING_MODIFIER,
    MIN_STRENGTH_STEP_PENALTY,
    MOVING_FIRE_PENALTY,
    RANGE_MODIFIER,
    RECOIL_PENALTY,
    TARGET_NUMBER,
    WILD_DIE,
)
from rules.savage_worlds.traits import (
    Modifier,
    modifier_lines,
    situation_modifiers,
    trait_die,
    use_action,
)


def weapon_of(sheet: Sheet, weapon_id: str, name: str) -> Weapon:
    weapon = sheet.weapon(weapon_id)
    if weapon is None:
        raise refuse("unknown_weapon", "params.weapon", actor=name, weapon=weapon_id[:40])
    return weapon


def require_can_act(draft: Draft, actor_id: str) -> None:
    require_active(draft, actor_id)
    if draft.has(actor_id, "stunned"):
        # 'Fallo: El personaje sigue aturdido. Durante su turno, solo podrá hacer acciones gratuitas'.
        raise refuse("shaken", "actor", actor=draft.actor(actor_id).name)


def _check_ammo(draft: Draft, actor_id: str, weapon: Weapon, rof: int) -> int:
    if weapon.shots is None:
        return 0
    need = ammo_for(rof)
    have = int(draft.read(actor_id, "ammo", {}).get(weapon.id, 0))
    if have <= 0:
        raise refuse("no_ammo", "params.weapon", weapon=weapon.name)
    if have < need:
        raise refuse("not_enough_ammo", "params.rof", weapon=weapon.name, need=need, have=have)
    return need


def _attack_modifiers(
    draft: Draft, actor_id: str, sheet: Sheet, weapon: Weapon, params: Mapping[str, Any], rof: int
) -> list[Modifier]:
    mods: list[Modifier] = []
    ranged = weapon.kind != "melee"
    if ranged:
        mods.append(Modifier("range", RANGE_MODIFIER[str(params["range"])]))
    mods.append(Modifier("cover", COVER_MODIFIER[str(params["cover"])]))
    if params["blind"]:
        mods.append(Modifier("blind", BLIND_FIRE_PENALTY))
    else:
        mods.append(Modifier("lighting", LIGHTING_MODIFIER[str(params["lighting"])]))
    bipod_set = weapon.id in draft.read(actor_id, "bipod", [])
    if recoil_applies(weapon, rof, bipod_set, sheet.has_edge("sin_retroceso")):
        mods.append(Modifier("recoil", -RECOIL_PENALTY))
    if weapon.pen_mov and (params["moved"] or draft.read(actor_id, "moved", False)):
        mods.append(Modifier("pen_mov", MOVING_FIRE_PENALTY))
    short = strength_shortfall(weapon, sheet.attributes["fuerza"], bipod_set)
    if short:
        mods.append(Modifier("min_str", MIN_STRENGTH_STEP_PENALTY * short))
    mods.append(Modifier("modifier", int(params["modifier"])))
    return [m for m in mods if m.value]


def resolve_attack(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    draft = Draft(world)
    actor_id, params, targets = action.actor_id, action.params, list(action.targets)
    actor = draft.actor(actor_id)
    sheet = draft.sheet(actor_id)
    require_can_act(draft, actor_id)
    weapon = weapon_of(sheet, str(params["weapon"]), actor.name)
    if actor_id in targets:
        raise refuse("self_target", "targets")
    if len(set(targets)) != len(targets):
        raise refuse("duplicate_target", "targets")
    for index, target in enumerate(targets):
        require_active(draft, target, f"targets.{index}")
    rof = int(params["rof"])
    if rof > weapon.rof or (rof > 1 and weapon.kind == "melee"):
        raise refuse("rof_not_available", "params.rof", weapon=weapon.name, rof=weapon.rof)
    frenzy = bool(params["frenzy"])
    if frenzy and (weapon.kind != "melee" or not sheet.has_edge("frenesi")):
        raise refuse("no_frenzy", "params.frenzy", actor=actor.name)
    if params["lighting"] == "dark" and int(params["distance"]) > DARK_SIGHT_LIMIT:
        raise refuse("not_visible", "params.distance", limit=DARK_SIGHT_LIMIT)
    count = 1 if weapon.area else (2 if frenzy else rof)
    mode = str(settings.get("autofire", "extermination"))
    if weapon.area:
        mode = "area"
    elif count == 1:
        mode = "single"
        if len(targets) > 1:
            raise refuse("too_many_targets", "targets", maximum=1)
    elif mode == "assigned" and len(targets) > count:
        raise refuse("too_many_targets", "targets", maximum=count)
    need = _check_ammo(draft, actor_id, weapon, rof)
    multi = use_action(draft, actor_id, settings, "actor")
    drop_hold(draft, actor_id)

    trait = trait_die(sheet, draft.state(actor_id), weapon.skill, settings, "params.weapon")
    mods = [*trait.modifiers, *situation_modifiers(draft, actor_id, sheet, multi=multi)]
    mods += _attack_modifiers(draft, actor_id, sheet, weapon, params, rof)
    modifier = sum(m.value for m in mods)

    ranged = weapon.kind != "melee"
    thresholds: dict[str, int] = {}
    for target in targets:
        target_sheet = draft.sheet(target)
        base = target_sheet.parry if not ranged else TARGET_NUMBER
        extra = (
            0
            if weapon.area
            else prone_extra(str(params["cover"]), ranged, draft.has(target, "prone"))
        )
        thresholds[target] = base - extra
    die_targets: list[str | None]
    if mode == "assigned":
        split = spread_dice(count, len(targets), params.get("spread"))
        if split is None:
            raise refuse("bad_spread", "params.spread", count=count, targets=len(targets))
        die_targets = [tg for tg, n in zip(targets, split, strict=True) for _ in range(n)]
    elif mode == "single":
        die_targets = [targets[0]]
    else:
        die_targets = [None] * count
    first = thresholds[targets[0]]
    die_thresholds = [first if tg is None else thresholds[tg] for tg in die_targets]

    trait_dice = tuple(roll_die(dice, trait.die, "trait", explode=True) for _ in range(count))
    wild = roll_die(dice, WILD_DIE, "wild", explode=True) if sheet.wild_card else None
    fumble = bool(settings.get("critical_failure", True)) and critical_failure(trait_dice, wild)
    result = shots(trait_dice, wild, modifier, die_targets, die_thresholds)

    if need:
        ammo = dict(draft.read(actor_id, "ammo", {}))  # a new mapping of whole numbers
        ammo[weapon.id] = int(ammo.get(weapon.id, 0)) - need
        draft.put(actor_id, ammo=ammo)
    if params["moved"]:
        draft.put(actor_id, moved=True, bipod=[])

    hits = [] if fumble else [s for s in result if s.hit]
    records: list[dict[str, Any]] = []
    if weapon.area and hits:
        records = [{"total": hits[0].total, "target": tg, "done": False} for tg in targets]
    else:
        records = [{"total": s.total, "target": s.target, "done": False} for s in hits]
    follow: list[FollowUp] = []
    attack_id = None
    if records:
        attack_id = draft.next_id("atk")
        attacks = dict(draft.peek("attacks", {}))  # a new mapping; the others stay shared
        attacks[attack_id] = {
            "attacker": actor_id,
            "weapon": weapon.id,
            "mode": mode,
            "queue": targets,
            "thresholds": thresholds,
            "hits": records,
            "blind": bool(params["blind"]),
            "rof": rof,
        }
        draft.set_data("attacks", attacks)
        for index, record in enumerate(records):
            who = record["target"]
            label = (
                t("follow.damage_on", n=index + 1, target=draft.actor(who).name)
                if who
                else t("follow.damage", n=index + 1)
            )
            follow.append(
                FollowUp(
                    f"damage-{index}",
                    label,
                    "damage",
                    actor_id,
                    {"attack": attack_id, "hit": index},
                )
            )
    lines = [
        Line(t("line.weapon", weapon=weapon.name, skill=trait.label, die=trait.die)),
        *modifier_lines(tuple(mods)),
        *_shot_lines(draft, result, mode),
    ]
    if need:
        lines.append(
            Line(t("line.ammo_spent", spent=need, left=draft.read(actor_id, "ammo")[weapon.id]))
        )
    if weapon.area:
        lines.append(Line(t("line.area_hit" if hits else "line.area_miss")))
    if fumble:
        lines.append(Line(t("line.critical_failure")))
    outcome = _attack_outcome(fumble, hits, count)
    rolled: list[Die] = [d.as_kept(not result[i].by_wild) for i, d in enumerate(trait_dice)]
    if wild is not None:
        rolled.append(wild.as_kept(any(s.by_wild for s in result)))
    return Resolution(
        action,
        (
            card(
                "attack",
                t("card.attack", actor=actor.name, weapon=weapon.name),
                actor_id,
                lines,
                dice=rolled,
                outcome=outcome,
                actions=follow,
                target=targets[0],
            ),
        ),
        draft.effects(),
    )


def _attack_outcome(fumble: bool, hits: list[Shot], count: int) -> Outcome:
    if fumble:
        return Outcome("fumble", t("outcome.fumble"), False)
    if not hits:
        return Outcome("failure", t("outcome.failure"), False)
    if count > 1:
        return Outcome("hits", t("outcome.hits", hits=len(hits), dice=count), True)
    if hits[0].raise_:
        return Outcome(
            "raise", t("outcome.raise", count=1), True, hits[0].total - hits[0].threshold
        )
    return Outcome("success", t("outcome.success"), True, hits[0].total - hits[0].threshold)


_NEXT_IN_ORDER = t("line.next_in_order")
_BY_WILD = t("line.by_wild")
_EXTERMINATION = Line(t("line.extermination"))


def _shot_lines(draft: Draft, result: tuple[Shot, ...], mode: str) -> list[Line]:
    lines = []
    for shot in result:
        key = "line.shot_hit" if shot.hit else "line.shot_miss"
        target = draft.actor(shot.target).name if shot.target else _NEXT_IN_ORDER
        lines.append(
            Line(
                t(key, n=shot.index + 1, total=shot.total, tn=shot.threshold, target=target),
                _BY_WILD if shot.by_wild else None,
            )
        )
    if mode == "extermination" and len(result) > 1:
        lines.append(_EXTERMINATION)
    return lines
