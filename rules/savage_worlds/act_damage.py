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
from typing import Any, Final

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Actor,
    Card,
    FollowUp,
    Line,
    Outcome,
    Resolution,
    Section,
    Text,
    World,
    t,
)
from rules.rolls import parse_expression
from rules.savage_worlds.cards import refuse
from rules.savage_worlds.health import apply_hit, compare, effective_toughness
from rules.savage_worlds.shared import (
    SHEET_TABLE_SIZE,
    line,
    remember,
    roll_ace,
    roll_aces,
    sheet_weapon,
)
from rules.savage_worlds.sheet import Sheet, parse_sheet
from rules.savage_worlds.state import OUT, Draft, benny_source, holds_any
from rules.savage_worlds.tables import (
    BLIND_STEALTH_PENALTY,
    BLIND_STEALTH_ROF,
    JOKER_BONUS,
    RAISE,
)
from rules.savage_worlds.traits import (
    Modifier,
    roll_trait_check,
    situation_modifiers,
    trait_die,
    trait_lines,
)


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
    """Refusals, the target the hit reaches now, the damage dice against Toughness, then
    :func:`settle`. Reads the world straight until the first change (the draft is empty)."""
    draft = Draft(world)
    data, actors = world.data, world.actors
    attack_id, index = str(action.params["attack"]), int(action.params["hit"])
    stored = data.get("attacks", {}).get(attack_id)
    if stored is None:
        raise refuse("unknown_attack", "params.attack", attack=attack_id[:40])
    if stored["attacker"] != action.actor_id:
        raise refuse("not_your_attack", "actor")
    if not 0 <= index < len(stored["hits"]):
        raise refuse("unknown_hit", "params.hit", hit=index)
    if stored["hits"][index]["done"]:
        raise refuse("hit_done", "params.hit", hit=index + 1)
    pending = data.get("pending", {})
    if pending and pending_of(draft, "attack", attack_id) is not None:
        raise refuse("hit_pending", "params.hit")
    attacker = draft.actor(action.actor_id)
    sheet = parse_sheet(attacker.sheet)
    weapon = sheet_weapon(sheet, str(stored["weapon"]))
    if weapon is None:
        raise refuse(
            "unknown_weapon", "params.attack", actor=attacker.name, weapon=stored["weapon"]
        )
    attack = _own_copy(stored)
    assert attack is not None
    hit = attack["hits"][index]
    hit["done"] = True
    lines: list[Line] = []
    rolled: list[Die] = []
    target = hit_target(attack, hit, actors)
    if target is not None and pending and pending_of(draft, "target", target) is not None:
        raise refuse("hit_pending", "params.hit")
    _store_attack(draft, attack_id, attack)
    victim = None if target is None else actors.get(target)
    if victim is None or not OUT.isdisjoint(victim.statuses):  # no draft status change yet
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
    assert target is not None
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
    # the damage roll (health.roll_damage), its dice drawn in the same order
    roll = dice.roll
    bonus = 0
    thrown: list[Die] = []
    if weapon.kind == "melee":
        thrown.append(roll_ace(roll, sheet.attributes["fuerza"], "strength"))
    if weapon.damage:
        expression = parse_expression(weapon.damage, explode=True)
        sides = expression.sides
        thrown += roll_aces(roll, sides, "damage", expression.count)
        bonus += expression.modifier
    if raise_:
        thrown.append(roll_ace(roll, 6, "raise"))
        lines.append(_RAISE_DAMAGE)
    if "joker" in attacker.statuses:
        bonus += JOKER_BONUS
    if bonus:
        lines.append(_bonus_line(bonus))
    damage = sum([sum(die.faces) for die in thrown]) + bonus
    rolled += thrown
    toughness = _toughness(parse_sheet(victim.sheet), weapon.ap)
    result = compare(damage, toughness, "stunned" in victim.statuses)
    found = _VERSUS.get((damage, victim.name, toughness))
    if found is None:
        found = remember(
            _VERSUS,
            (damage, victim.name, toughness),
            Line(t("line.damage_vs", damage=damage, target=victim.name, toughness=toughness)),
        )
    lines.append(found)
    return settle(
        action, draft, attacker.name, target, result, lines, rolled, dice, settings, attack_id
    )


_RAISE_DAMAGE: Final = Line(t("line.raise_damage"))
_VERSUS: Final[dict[tuple[int, str, int], Line]] = {}
_TOUGHNESS: Final[dict[tuple[int, int], tuple[Sheet, int]]] = {}


def _toughness(sheet: Sheet, ap: int) -> int:
    """``health.effective_toughness``, once per parsed sheet (held) and Armour Piercing."""
    found = _TOUGHNESS.get((id(sheet), ap))
    if found is None or found[0] is not sheet:
        found = remember(
            _TOUGHNESS, (id(sheet), ap), (sheet, effective_toughness(sheet, ap)), SHEET_TABLE_SIZE
        )
    return found[1]


_BONUS: Final[dict[int, Line]] = {}


def _bonus_line(bonus: int) -> Line:
    found = _BONUS.get(bonus)
    if found is None:
        found = remember(_BONUS, bonus, Line(t("mod.damage_bonus"), f"{bonus:+d}"))
    return found


def _own_copy(attack: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The attack record with its own hits, the one part a damage roll changes (a hit is marked
    done); its other values (queue, thresholds) are read only and stay shared."""
    if attack is None:
        return None
    return {**attack, "hits": [dict(hit) for hit in attack["hits"]]}


def _store_attack(draft: Draft, attack_id: str, attack: dict[str, Any]) -> None:
    attacks = dict(draft.peek("attacks", {}))  # a new mapping; the other attacks unchanged
    for hit in attack["hits"]:
        if not hit["done"]:
            attacks[attack_id] = attack
            break
    else:  # every hit done: the attack is over
        attacks.pop(attack_id, None)
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
    wounds, shaken = result.wounds, result.shaken
    if wounds:
        key = "line.from_shaken" if result.from_shaken else "line.wounds_result"
        lines.append(line(key, actor=victim.name, wounds=wounds))
    elif shaken:
        lines.append(line("line.shaken_result", actor=victim.name))
    else:
        lines.append(line("line.no_effect", actor=victim.name))
    outcome = _outcome(wounds, shaken, result.margin)
    follow: tuple[FollowUp, ...] = ()
    manual = settings.get("auto_apply", True) is False
    if (wounds or shaken) and (manual or can_soak(draft, target, wounds, settings)):
        pid = draft.next_id("hit")
        pending = dict(draft.peek("pending", {}))  # a new mapping; the others stay shared
        pending[pid] = {
            "target": target,
            "attack": attack_id,
            "damage": result.damage,
            "toughness": result.toughness,
            "wounds": wounds,
            "shaken": shaken,
            "soaked": 0,
            "soak_rolls": 0,
        }
        draft.set_data("pending", pending)
        follow = pending_buttons(pid, target, wounds, victim.name)
        lines.append(line("line.pending", actor=victim.name))
    elif wounds or shaken:
        applied = apply_hit(draft, target, wounds, shaken, False, dice, settings)
        rolled += applied.dice
        # The result line already says "queda aturdido"; keep the rest (hold lost, Extra out).
        lines += [each for each in applied.lines if each.label.key != "line.now_shaken"]
    return _card(action, draft, speaker_name, target, lines, rolled, outcome, follow)


_OUTCOMES: Final[dict[tuple[int, bool, int], Outcome]] = {}


def _outcome(wounds: int, shaken: bool, margin: int) -> Outcome:
    """The damage card's outcome (shared for equal values)."""
    key = (wounds, shaken, margin)
    found = _OUTCOMES.get(key)
    if found is None:
        if wounds:
            made = Outcome("wounds", t("outcome.wounds", count=wounds), True, margin)
        elif shaken:
            made = Outcome("shaken", t("outcome.shaken"), True, margin)
        else:
            made = Outcome("no_effect", t("outcome.no_effect"), False, margin)
        found = remember(_OUTCOMES, key, made)
    return found


_SOAK_LABEL: Final = t("follow.soak")
_APPLY_LABELS: Final[dict[str, Text]] = {}


def pending_buttons(pid: str, target: str, wounds: int, name: str) -> tuple[FollowUp, ...]:
    label = _APPLY_LABELS.get(name)
    if label is None:
        label = remember(_APPLY_LABELS, name, t("follow.apply", actor=name))
    apply = FollowUp(f"apply-{pid}", label, "damage_apply", target, {"pending": pid})
    if not wounds:
        return (apply,)
    soak = FollowUp(
        f"soak-{pid}", _SOAK_LABEL, "soak", target, {"pending": pid}, (), "owner", False
    )
    return (soak, apply)


_TITLES: Final[dict[tuple[str, str], Text]] = {}


def _card(
    action: Action,
    draft: Draft,
    speaker_name: str,
    target: str | None,
    lines: list[Line],
    rolled: list[Die],
    outcome: Outcome | None,
    follow: tuple[FollowUp, ...],
    kind: str = "damage",
) -> Resolution:
    title = _TITLES.get((kind, speaker_name))
    if title is None:
        title = remember(_TITLES, (kind, speaker_name), t(f"card.{kind}", actor=speaker_name))
    return Resolution(
        action,
        (
            Card(
                kind,
                title,
                action.actor_id,
                tuple(rolled),
                outcome,
                (Section(None, tuple(lines)),),
                follow,
                "public",
                target,
            ),
        ),
        draft.effects(),
    )


def hit_target(
    attack: Mapping[str, Any], hit: Mapping[str, Any], actors: Mapping[str, Actor]
) -> str | None:
    """Who a hit lands on: its own target, or in extermination the first queued enemy still
    standing ('los impactos ... irán en orden a los enemigos ... en cuanto uno muera o caiga,
    seguirán'); None when nobody is left."""
    if attack["mode"] != "extermination":
        own: str | None = hit["target"]
        return own
    for queued in attack["queue"]:
        other = actors.get(queued)
        if other is not None and not holds_any(other.statuses, OUT):
            found: str = queued
            return found
    return None
