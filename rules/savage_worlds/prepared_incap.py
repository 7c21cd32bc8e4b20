"""Applying a hit that takes a Wild Card out, without a draft.

:func:`rules.savage_worlds.act_soak.resolve_apply` applies a pending hit through a
:class:`~rules.savage_worlds.state.Draft` and :func:`rules.savage_worlds.health.apply_hit`;
when the hit's wounds take a Wild Card past three (``incapacitate``: a Vigor roll with the
wounds' penalty, then death or a roll on the Injury Table), its result depends on the dice, so
:mod:`rules.savage_worlds.prepared_damage` cannot remember it. This module does the same work
straight from the victim's actor: the same dice functions in the same order (so the same
dice records), the same lines, the same statuses worked out with the same set operations as the
draft, the same effects in the same order. Nothing is remembered here but shared lines.

Covered (:func:`covers`): no shared tracker running (checked by the caller), a Wild Card victim
whose wounds after the soak take it past :data:`~rules.savage_worlds.tables.MAX_WOUNDS`.
Everything else is the caller's (its remembered outcomes or the whole way).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from rules.dice import DiceSource, Die
from rules.jsondata import copy_json
from rules.model import Action, Actor, ActorChange, Card, Line, Resolution, Section, WorldChange, t
from rules.savage_worlds import act_soak
from rules.savage_worlds.health import injury_table, roll_injury
from rules.savage_worlds.shared import line
from rules.savage_worlds.sheet import Sheet
from rules.savage_worlds.state import wound_penalty
from rules.savage_worlds.tables import DEATH_AT_MOST, MAX_WOUNDS, TEMPORARY_INJURY_HOURS
from rules.savage_worlds.traits import Modifier, roll_trait_check, trait_die


def covers(sheet: Sheet, state: Mapping[str, Any], wounds: int) -> bool:
    """Whether ``wounds`` (after the soak) take this victim out: a Wild Card past three."""
    return sheet.wild_card and wounds > 0 and int(state.get("wounds", 0)) + wounds > MAX_WOUNDS


def _add(current: Set[str], *statuses: str) -> set[str]:
    return set(current).union(statuses)  # as Draft.add: a new set from the current one


def _remove(current: Set[str], *statuses: str) -> set[str]:
    return set(current).difference(statuses)  # as Draft.remove


def apply_incapacitating(
    action: Action,
    victim: Actor,
    sheet: Sheet,
    hit: Mapping[str, Any],
    wounds: int,
    left: dict[str, Any],
    dice: DiceSource,
    settings: Mapping[str, Any],
) -> Resolution:
    """``damage_apply`` of a hit :func:`covers` says takes the victim out (``left``: the
    world's pending hits without this one)."""
    name = victim.name
    before = victim.statuses
    state = victim.state
    # apply_hit: Shaken, the wounds (at most three), the line saying them
    statuses = _add(before, "stunned")
    total = int(state.get("wounds", 0)) + wounds
    kept = min(total, MAX_WOUNDS)
    change: dict[str, Any] = {"wounds": kept}
    statuses = _add(statuses, "wounded")
    lines: list[Line] = [
        line("line.applying", damage=hit["damage"], toughness=hit["toughness"]),
        line("line.wounds_now", actor=name, wounds=kept),
    ]
    # incapacitate: out, no longer on hold, the Vigor roll with the wounds' penalty
    statuses = _add(statuses, "incapacitated")
    statuses = _remove(statuses, "on_hold", "overwatch")
    after = {**state, **change}
    vigor = trait_die(sheet, after, "vigor", settings, "actor")
    roll = roll_trait_check(
        dice,
        vigor,
        wild_card=sheet.wild_card,
        modifiers=(Modifier("wounds", wound_penalty(sheet, after)),),
        role="vigor",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    rolled: list[Die] = list(roll.dice)
    lines.append(Line(t("line.incap_roll", actor=name, total=roll.total)))
    if roll.total <= DEATH_AT_MOST:
        statuses = _add(statuses, "dead")
        statuses = _remove(statuses, "bleeding")
        lines.append(Line(t("line.dies", actor=name)))
    else:
        key, injury_dice = roll_injury(dice, injury_table(settings))
        rolled.extend(injury_dice)
        extra: int | None = None
        if not roll.success:
            lasting = "permanent"
            statuses = _add(statuses, "bleeding")
            lines.append(Line(t("line.bleeding_starts", actor=name)))
        elif roll.raises:
            lasting, extra = "24h", TEMPORARY_INJURY_HOURS
        else:
            lasting = "until_healed"
        injuries = list(copy_json(state["injuries"])) if "injuries" in state else []
        injury: dict[str, Any] = {"key": key, "lasting": lasting}
        if extra is not None:
            injury["hours_left"] = extra
        injuries.append(injury)
        change["injuries"] = injuries
        lines.append(
            Line(t("line.injury", injury=t(f"injury.{key}"), lasting=t(f"lasting.{lasting}")))
        )
    actor_id = action.actor_id
    return Resolution(
        action,
        (
            Card(
                "damage_apply",
                act_soak._apply_title(name),
                actor_id,
                tuple(rolled),
                None,
                (Section(None, tuple(lines)),),
                (),
                "public",
                actor_id,
            ),
        ),
        (
            ActorChange(
                actor_id,
                change,
                frozenset(statuses.difference(before)),
                frozenset(before.difference(statuses)),
            ),
            WorldChange({"pending": left}),
        ),
    )
