"""Damage rolls per hit, soak rolls with bennies, and applying a hit (Shaken, Wounds, incapacitation).

Flow: ``damage`` rolls one hit against the target it reaches now and leaves a
*pending hit* in ``world.data["pending"]`` when the victim can still soak;
``soak`` (the victim, a benny) lowers its wounds; ``damage_apply`` (the
victim's owner or the GM) folds it in. With ``auto_apply`` a hit nobody can
soak is applied at once. 'Resuelve cada tirada de daño por separado ... antes de
pasar a la siguiente': a new damage roll on an attack or a victim with a
pending hit is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Action, FollowUp, Line, Outcome, Resolution, World, t
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.health import (
    apply_hit,
    compare,
    effective_toughness,
    roll_damage,
)
from rules.savage_worlds.state import Draft, benny_source
from rules.savage_worlds.tables import BLIND_STEALTH_PENALTY, BLIND_STEALTH_ROF, RAISE
from rules.savage_worlds.traits import (
    Modifier,
    roll_trait_check,
    situation_modifiers,
    trait_die,
    trait_lines,
)


def _standing(draft: Draft, actor_id: str) -> bool:
    return actor_id in draft.world.actors and not draft.is_out(actor_id)


def pending_of(draft: Draft, key: str, value: str) -> str | None:
    for pid, hit in draft.peek("pending", {}).items():
        if hit.get(key) == value:
            return str(pid)
    return None


def can_soak(draft: Draft, victim: str, wounds: int, settings: Mapping[str, Any]) -> bool:
    if wounds <= 0 or benny_source(draft, victim) is None:
        return False
    return draft.sheet(victim).wild_card or bool(settings.get("extras_soak", False))


def resolve_damage(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    draft = Draft(world)
    attack_id, index = str(action.params["attack"]), int(action.params["hit"])
    attack = _own_copy(draft.peek("attacks", {}).get(attack_id))
    if attack is None:
        raise refuse("unknown_attack", "params.attack", attack=attack_id[:40])
    if attack["attacker"] != action.actor_id:
        raise refuse("not_your_attack", "actor")
    if not 0 <= index < len(attack["hits"]):
        raise refuse("unknown_hit", "params.hit", hit=index)
    hit = attack["hits"][index]
    if hit["done"]:
        raise refuse("hit_done", "params.hit", hit=index + 1)
    if pending_of(draft, "attack", attack_id) is not None:
        raise refuse("hit_pending", "params.hit")
    attacker = draft.actor(action.actor_id)
    sheet = draft.sheet(action.actor_id)
    weapon = sheet.weapon(str(attack["weapon"]))
    if weapon is None:
        raise refuse(
            "unknown_weapon", "params.attack", actor=attacker.name, weapon=attack["weapon"]
        )
    hit["done"] = True
    lines: list[Line] = []
    rolled: list[Die] = []
    target = hit["target"]
    if attack["mode"] == "extermination":
        # 'los impactos ... irán en orden a los enemigos ... en cuanto uno muera o caiga, seguirán'.
        target = next((tg for tg in attack["queue"] if _standing(draft, tg)), None)
    if target is not None and pending_of(draft, "target", target) is not None:
        raise refuse("hit_pending", "params.hit")
    _store_attack(draft, attack_id, attack)
    if target is None or not _standing(draft, target):
        lines.append(Line(t("line.no_target_left")))
        return _card(
            action,
            draft,
            attacker.name,
            None,
            lines,
            rolled,
            Outcome("wasted", t("outcome.wasted"), False),
            (),
        )
    victim = draft.actor(target)
    threshold = int(attack["thresholds"].get(target, attack["thresholds"][attack["queue"][0]]))
    total = int(hit["total"])
    if total < threshold:
        lines.append(Line(t("line.hit_misses_next", target=victim.name, total=total, tn=threshold)))
        return _card(
            action,
            draft,
            attacker.name,
            target,
            lines,
            rolled,
            Outcome("failure", t("outcome.failure"), False),
            (),
        )
    if attack["blind"]:
        evaded, evade_dice, evade_lines = _blind_evade(
            draft, target, int(attack["rof"]), dice, settings
        )
        rolled += evade_dice
        lines += evade_lines
        if evaded:
            return _card(
                action,
                draft,
                attacker.name,
                target,
                lines,
                rolled,
                Outcome("evaded", t("outcome.evaded"), False),
                (),
            )
    raise_ = total >= threshold + RAISE
    damage = roll_damage(
        dice,
        weapon,
        sheet.attributes["fuerza"],
        raise_=raise_,
        joker=draft.has(action.actor_id, "joker"),
    )
    rolled += damage.dice
    if raise_:
        lines.append(Line(t("line.raise_damage")))
    if damage.bonus:
        lines.append(Line(t("mod.damage_bonus"), f"{damage.bonus:+d}"))
    toughness = effective_toughness(draft.sheet(target), weapon.ap)
    result = compare(damage.total, toughness, draft.has(target, "stunned"))
    lines.append(
        Line(t("line.damage_vs", damage=damage.total, target=victim.name, toughness=toughness))
    )
    return settle(
        action, draft, attacker.name, target, result, lines, rolled, dice, settings, attack_id
    )


def _own_copy(attack: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The attack record with its own hits, the one part a damage roll changes (a hit is marked
    done); its other values (queue, thresholds) are read only and stay shared."""
    if attack is None:
        return None
    return {**attack, "hits": [dict(hit) for hit in attack["hits"]]}


def _store_attack(draft: Draft, attack_id: str, attack: dict[str, Any]) -> None:
    attacks = dict(draft.peek("attacks", {}))  # a new mapping; the other attacks unchanged
    if all(h["done"] for h in attack["hits"]):
        attacks.pop(attack_id, None)
    else:
        attacks[attack_id] = attack
    draft.set_data("attacks", attacks)


def _blind_evade(
    draft: Draft, target: str, rof: int, dice: DiceSource, settings: Mapping[str, Any]
) -> tuple[bool, list[Die], list[Line]]:
    """'el blanco puede hacer una tirada de Sigilo para eludir el ataque ... -2 ... CdF de 3 o más'."""
    sheet = draft.sheet(target)
    stealth = trait_die(sheet, draft.state(target), "sigilo", settings, "targets")
    mods = list(situation_modifiers(draft, target, sheet))
    if rof >= BLIND_STEALTH_ROF:
        mods.append(Modifier("blind_rof", BLIND_STEALTH_PENALTY))
    roll = roll_trait_check(
        dice,
        stealth,
        wild_card=sheet.wild_card,
        modifiers=tuple(mods),
        role="stealth",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    key = "line.evaded" if roll.success else "line.not_evaded"
    return (
        roll.success,
        list(roll.dice),
        [*trait_lines(roll), Line(t(key, actor=draft.actor(target).name))],
    )


def settle(
    action: Action,
    draft: Draft,
    speaker_name: str,
    target: str,
    result: Any,
    lines: list[Line],
    rolled: list[Die],
    dice: DiceSource,
    settings: Mapping[str, Any],
    attack_id: str | None,
) -> Resolution:
    """Turn a damage result into a pending hit (soak possible) or apply it now."""
    victim = draft.actor(target)
    if result.wounds:
        key = "line.from_shaken" if result.from_shaken else "line.wounds_result"
        lines.append(Line(t(key, actor=victim.name, wounds=result.wounds)))
        outcome = Outcome("wounds", t("outcome.wounds", count=result.wounds), True, result.margin)
    elif result.shaken:
        lines.append(Line(t("line.shaken_result", actor=victim.name)))
        outcome = Outcome("shaken", t("outcome.shaken"), True, result.margin)
    else:
        lines.append(Line(t("line.no_effect", actor=victim.name)))
        outcome = Outcome("no_effect", t("outcome.no_effect"), False, result.margin)
    follow: tuple[FollowUp, ...] = ()
    manual = settings.get("auto_apply", True) is False
    if (result.wounds or result.shaken) and (
        manual or can_soak(draft, target, result.wounds, settings)
    ):
        pid = draft.next_id("hit")
        pending = dict(draft.peek("pending", {}))  # a new mapping; the others stay shared
        pending[pid] = {
            "target": target,
            "attack": attack_id,
            "damage": result.damage,
            "toughness": result.toughness,
            "wounds": result.wounds,
            "shaken": result.shaken,
            "soaked": 0,
            "soak_rolls": 0,
        }
        draft.set_data("pending", pending)
        follow = pending_buttons(pid, target, result.wounds, victim.name)
        lines.append(Line(t("line.pending", actor=victim.name)))
    elif result.wounds or result.shaken:
        applied = apply_hit(draft, target, result.wounds, result.shaken, False, dice, settings)
        rolled += applied.dice
        # The result line already says "queda aturdido"; keep the rest (hold lost, Extra out).
        lines += [line for line in applied.lines if line.label.key != "line.now_shaken"]
    return _card(action, draft, speaker_name, target, lines, rolled, outcome, follow)


def pending_buttons(pid: str, target: str, wounds: int, name: str) -> tuple[FollowUp, ...]:
    soak = FollowUp(
        f"soak-{pid}",
        t("follow.soak"),
        "soak",
        target,
        {"pending": pid},
        allowed="owner",
        once=False,
    )
    apply = FollowUp(
        f"apply-{pid}", t("follow.apply", actor=name), "damage_apply", target, {"pending": pid}
    )
    return (soak, apply) if wounds else (apply,)


def _card(
    action: Action,
    draft: Draft,
    speaker_name: str,
    target: str | None,
    lines: list[Line],
    rolled: list[Die],
    outcome: Outcome,
    follow: tuple[FollowUp, ...],
    kind: str = "damage",
) -> Resolution:
    title = t(f"card.{kind}", actor=speaker_name)
    return Resolution(
        action,
        (
            card(
                kind,
                title,
                action.actor_id,
                lines,
                dice=rolled,
                outcome=outcome,
                actions=follow,
                target=target,
            ),
        ),
        draft.effects(),
    )
