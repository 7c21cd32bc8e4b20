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
from typing import Any, Final

from rules.dice import DiceSource, Die
from rules.jsondata import copy_json
from rules.model import Action, Actor, ActorChange, Card, Line, Resolution, Section, WorldChange, t
from rules.savage_worlds import act_soak
from rules.savage_worlds.health import injury_table, roll_injury
from rules.savage_worlds.shared import SHEET_TABLE_SIZE, line, remember
from rules.savage_worlds.sheet import Sheet
from rules.savage_worlds.state import wound_penalty
from rules.savage_worlds.tables import DEATH_AT_MOST, MAX_WOUNDS, TEMPORARY_INJURY_HOURS
from rules.savage_worlds.traits import Modifier, TraitDie, roll_trait_check, trait_die


def covers(sheet: Sheet, state: Mapping[str, Any], wounds: int) -> bool:
    """Whether ``wounds`` (after the soak) take this victim out: a Wild Card past three."""
    return sheet.wild_card and wounds > 0 and int(state.get("wounds", 0)) + wounds > MAX_WOUNDS


def _add(current: Set[str], *statuses: str) -> set[str]:
    return set(current).union(statuses)  # as Draft.add: a new set from the current one


def _remove(current: Set[str], *statuses: str) -> set[str]:
    return set(current).difference(statuses)  # as Draft.remove


class IncapPlan:
    """The dice-free part of taking one Wild Card out: its Vigor die (with or without an
    injury's step down), the wounds' penalty, the rules the settings choose, and the lines that
    name it (those per Vigor total and per injury are remembered as they come)."""

    __slots__ = (
        "bleeding",
        "critical_rule",
        "dies",
        "injuries",
        "modifiers",
        "rolls",
        "settings",
        "table",
        "vigor",
        "wounds_now",
    )

    def __init__(
        self, vigor: TraitDie, sheet: Sheet, name: str, settings: Mapping[str, Any]
    ) -> None:
        self.vigor = vigor
        self.settings = settings
        self.modifiers = (Modifier("wounds", wound_penalty(sheet, {"wounds": MAX_WOUNDS})),)
        self.critical_rule = bool(settings.get("critical_failure", True))
        self.table = injury_table(settings)
        self.wounds_now = line("line.wounds_now", actor=name, wounds=MAX_WOUNDS)
        self.dies = Line(t("line.dies", actor=name))
        self.bleeding = Line(t("line.bleeding_starts", actor=name))
        self.rolls: dict[int, Line] = {}
        self.injuries: dict[tuple[str, str], Line] = {}


PLANS_SIZE: Final = SHEET_TABLE_SIZE
"""Plans remembered (the table starts again when full); each holds a sheet's Vigor die and a
settings object, so their ids are not reused while it lives."""
SHOWN_SIZE: Final = 64
"""Vigor-total and injury lines a plan remembers (each table starts again when full)."""
_PLANS: Final[dict[tuple[int, str, int], IncapPlan]] = {}


def _plan(vigor: TraitDie, sheet: Sheet, name: str, settings: Mapping[str, Any]) -> IncapPlan:
    key = (id(vigor), name, id(settings))
    plan = _PLANS.get(key)
    if plan is None or plan.vigor is not vigor or plan.settings is not settings:
        plan = remember(_PLANS, key, IncapPlan(vigor, sheet, name, settings), PLANS_SIZE)
    return plan


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
    # apply_hit: Shaken, the wounds (three: past three, as covers says), the line saying them
    statuses = _add(before, "stunned")
    change: dict[str, Any] = {"wounds": MAX_WOUNDS}
    statuses = _add(statuses, "wounded")
    # incapacitate: out, no longer on hold, the Vigor roll with the wounds' penalty
    statuses = _add(statuses, "incapacitated")
    statuses = _remove(statuses, "on_hold", "overwatch")
    plan = _plan(trait_die(sheet, state, "vigor", settings, "actor"), sheet, name, settings)
    lines: list[Line] = [
        line("line.applying", damage=hit["damage"], toughness=hit["toughness"]),
        plan.wounds_now,
    ]
    roll = roll_trait_check(
        dice,
        plan.vigor,
        wild_card=True,
        modifiers=plan.modifiers,
        role="vigor",
        critical_failure_rule=plan.critical_rule,
    )
    rolled: list[Die] = list(roll.dice)
    total = roll.total
    shown = plan.rolls.get(total)
    if shown is None:
        if len(plan.rolls) >= SHOWN_SIZE:
            plan.rolls.clear()
        shown = plan.rolls[total] = Line(t("line.incap_roll", actor=name, total=total))
    lines.append(shown)
    if total <= DEATH_AT_MOST:
        statuses = _add(statuses, "dead")
        statuses = _remove(statuses, "bleeding")
        lines.append(plan.dies)
    else:
        key, injury_dice = roll_injury(dice, plan.table)
        rolled.extend(injury_dice)
        extra: int | None = None
        if not roll.success:
            lasting = "permanent"
            statuses = _add(statuses, "bleeding")
            lines.append(plan.bleeding)
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
        said = plan.injuries.get((key, lasting))
        if said is None:
            if len(plan.injuries) >= SHOWN_SIZE:
                plan.injuries.clear()
            said = plan.injuries[(key, lasting)] = Line(
                t("line.injury", injury=t(f"injury.{key}"), lasting=t(f"lasting.{lasting}"))
            )
        lines.append(said)
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
