"""The Thompson's fire modes: concentrated fire, emptying the magazine, short and long bursts.

'hay un tope máximo de balas que pueden impactar en un objetivo: DES/2+FUE/2 ... debe
ignorarse la tabla de localizaciones' (except for short bursts).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Effect,
    FollowUp,
    Line,
    Resolution,
    RulesError,
    Section,
    t,
)
from rules.omerta.attacks import (
    attack_card,
    attack_check,
    attacker_state,
    loaded_of,
    target_modifiers,
)
from rules.omerta.checks import Check, grade_roll
from rules.omerta.combat import Ctx, action_modifiers, total
from rules.omerta.hits import bullets_hit, deliver
from rules.omerta.sheet import Weapon
from rules.omerta.tables import (
    BURST_SPREAD,
    CATEGORY_PER_BULLET,
    CHAIN_MAX_M,
    CONCENTRATED_DIE,
    EMPTY_BONUS_PER_BULLET,
    LONG_BURST_HITS_DIE,
    LONG_BURST_LOST_PER_M,
    SHORT_BURST_BULLETS,
    SHORT_BURST_HITS_DIE,
)
from rules.params import Param
from rules.rolls import roll_die


def parse_numbers(raw: object, field: str, count: int) -> tuple[int, ...]:
    """'1,2' -> (1, 2): ``count`` whole numbers of 0 or more, comma separated."""
    text = str(raw or "").strip()
    parts = [p.strip() for p in text.split(",")] if text else []
    if len(parts) != count or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise RulesError("invalid_list", t("error.invalid_list", count=count), field)
    return tuple(int(p) for p in parts)


def apportion(total_items: int, weights: Sequence[int]) -> tuple[int, ...]:
    """Share ``total_items`` in proportion to ``weights`` (largest remainder, ties to the first)."""
    whole = sum(weights)
    if whole <= 0:
        return tuple(0 for _ in weights)
    shares = [total_items * w // whole for w in weights]
    rest = sorted(range(len(weights)), key=lambda i: (-(total_items * weights[i] % whole), i))
    for i in rest[: total_items - sum(shares)]:
        shares[i] += 1
    return tuple(shares)


def resolve_thompson(
    ctx: Ctx,
    action: Action,
    weapon: Weapon,
    mode: str,
    targets: tuple[Actor, ...],
    dice: DiceSource,
) -> Resolution:
    params = action.params
    first = targets[0]
    gaps: tuple[int, ...] = ()
    if mode in ("empty", "long_burst") and len(targets) > 1:
        gaps = parse_numbers(params.get("gaps"), "params.gaps", len(targets) - 1)
        if mode == "empty" and any(g > CHAIN_MAX_M for g in gaps):
            raise RulesError(
                "chain_too_far", t("error.chain_too_far", maximum=CHAIN_MAX_M), "params.gaps"
            )
    mods = (
        *action_modifiers(ctx, int(params.get("modifier", 0))),
        *target_modifiers(ctx, weapon, first, params),
    )
    check = attack_check(ctx, weapon, mods, dice, params)
    loaded = loaded_of(ctx, weapon)
    cap = ctx.sheet.hit_cap
    rolled: list[Die] = []
    lines: list[Line] = [Line(t("line.hit_cap"), cap)]
    effects: list[Effect] = []
    follow: tuple[FollowUp, ...] = ()
    if check.fumble:
        spent = 1
    elif mode == "concentrated":
        bullets = roll_die(dice, CONCENTRATED_DIE, "bullets")
        rolled.append(bullets)
        spent = min(bullets.total, loaded)
        lines.append(Line(t("line.bullets_fired"), spent))
        if check.success:
            hits = min(spent, 1 + max(0, check.category) // CATEGORY_PER_BULLET, cap)
            lines.append(Line(t("line.bullets_hit"), hits))
            done = bullets_hit(
                ctx.world, ctx.now, weapon, first, dice, hits, critical=check.critical
            )
            rolled.extend(done.dice)
            lines.extend(done.lines)
            effects.append(done.outcome.change)
        else:
            lines.append(Line(t("line.bullets_lost"), spent))
    elif mode == "short_burst":
        spent = SHORT_BURST_BULLETS
        if check.success:
            count = roll_die(dice, SHORT_BURST_HITS_DIE, "hits")
            rolled.append(count)
            hits = min(count.total, cap)
            lines.append(Line(t("line.bullets_hit"), hits))
            spread = tuple(BURST_SPREAD[i % len(BURST_SPREAD)] for i in range(hits - 1))
            done = bullets_hit(
                ctx.world,
                ctx.now,
                weapon,
                first,
                dice,
                hits,
                critical=check.critical,
                locations=spread,
                first_location_rolled=True,
            )
            rolled.extend(done.dice)
            lines.extend(done.lines)
            effects.append(done.outcome.change)
    elif mode == "empty":
        spent = loaded
        lines.append(Line(t("line.bullets_fired"), spent))
        if check.success:
            hits = _empty_hits(ctx, check, loaded, cap)
            lines.append(Line(t("line.bullets_hit"), hits))
            bonus = EMPTY_BONUS_PER_BULLET * hits
            if len(targets) == 1:
                done = deliver(
                    ctx.world,
                    ctx.now,
                    weapon,
                    first,
                    dice,
                    critical=check.critical,
                    roll_for_location=False,
                    bonus=bonus,
                )
                rolled.extend(done.dice)
                lines.extend(done.lines)
                effects.append(_as_bullets(done.outcome.change, hits))
            else:
                from rules.omerta.combat import roll_damage
                from rules.omerta.hits import maximum_on_critical

                maximum = maximum_on_critical(ctx.world, weapon, check.critical)
                amount, damage_dice = roll_damage(dice, str(weapon.damage), maximum)
                rolled.extend(damage_dice)
                whole = amount + bonus
                lines.append(Line(t("line.spray_total"), whole))
                lines.append(Line(t("line.spread_pending")))
                follow = (
                    FollowUp(
                        "spread",
                        t("follow.spread"),
                        "spread",
                        ctx.actor.id,
                        {"total": whole, "bullets": hits, "weapon": weapon.key},
                        tuple(a.id for a in targets),
                        ask=(
                            Param("split", "str", t("param.split"), required=True, max_length=200),
                        ),
                    ),
                )
    else:
        lost = LONG_BURST_LOST_PER_M * sum(gaps)
        spent = min(loaded, SHORT_BURST_BULLETS * len(targets) + lost)
        lines.append(Line(t("line.bullets_lost_between"), lost))
        left = max(0, loaded - lost)
        for index, target in enumerate(targets):
            chance = check.chance if index == 0 else _chance_for(ctx, weapon, target, params)
            grade = (
                check.grade if index == 0 or check.roll is None else grade_roll(check.roll, chance)
            )
            lines.append(Line(t("line.sweep_target", actor=target.name), t(f"outcome.{grade}")))
            if grade not in ("critical", "success") or left <= 0:
                continue
            count = roll_die(dice, LONG_BURST_HITS_DIE, f"hits.{index + 1}")
            rolled.append(count)
            hits = min(count.total, cap, left)
            left -= hits
            done = bullets_hit(
                ctx.world, ctx.now, weapon, target, dice, hits, critical=grade == "critical"
            )
            rolled.extend(done.dice)
            lines.extend(done.lines)
            effects.append(done.outcome.change)
    last = targets[-1].id if mode == "long_burst" else first.id
    state, add, remove, ammo_lines = attacker_state(ctx, weapon, check, last, spent)
    if not check.success and mode not in ("concentrated", "long_burst"):
        lines.append(Line(t("line.miss")))
    effects.insert(0, ActorChange(ctx.actor.id, state, add, remove))
    card = attack_card(
        ctx,
        weapon,
        check,
        mods,
        tuple(rolled),
        (Section(t("section.effects"), (*lines, *ammo_lines)),),
        target=first.id,
        actions=follow,
        mode=mode,
    )
    return Resolution(action, (card,), tuple(effects))


def _empty_hits(ctx: Ctx, check: Check, loaded: int, cap: int) -> int:
    if str(ctx.settings.get("empty_hits", "cap")) == "category":
        return min(loaded, cap, 1 + max(0, check.category) // CATEGORY_PER_BULLET)
    return min(loaded, cap)


def _chance_for(ctx: Ctx, weapon: Weapon, target: Actor, params: object) -> int:
    """A long burst's one roll, read against each further target's own defences."""
    from collections.abc import Mapping

    given = params if isinstance(params, Mapping) else {}
    mods = (
        *action_modifiers(ctx, int(given.get("modifier", 0))),
        *target_modifiers(
            ctx, weapon, target, {k: v for k, v in given.items() if k != "target_fast"}, first=False
        ),
    )
    return ctx.sheet.skill(weapon.skill) + total(mods)


def _as_bullets(change: ActorChange, bullets: int) -> ActorChange:
    """One lump of spray damage recorded as ``bullets`` bullet wounds (for extraction)."""
    return ActorChange(
        change.actor_id, split_wound(dict(change.state), bullets), change.add, change.remove
    )


def split_wound(state: dict[str, object], bullets: int) -> dict[str, object]:
    wounds = list(state.get("wounds", []))  # type: ignore[call-overload]
    if not wounds or bullets <= 1:
        return state
    last = dict(wounds[-1])
    if last.get("kind") != "bullet":
        return state
    shares = apportion(int(last["damage"]), [1] * bullets)
    next_id = int(last["id"])
    parts = []
    for share in shares:
        parts.append({**last, "id": next_id, "damage": share})
        next_id += 1
    return {**state, "wounds": [*wounds[:-1], *parts], "next_wound": next_id}
