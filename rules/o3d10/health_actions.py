"""Damage taken, healing (catching one's breath, a night's sleep, the GM's hand) and days passing."""

from __future__ import annotations

from typing import Any

from rules.dice import DiceSource
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    Line,
    Resolution,
    RulesError,
    Section,
    World,
    t,
)
from rules.o3d10.context import in_combat, require_able, sheet_of
from rules.o3d10.health import change_wounds, max_hit_points, thresholds
from rules.o3d10.tables import CATCH_BREATH_DIE, CATCH_BREATH_MINUTES, SLEEP_HEALING
from rules.rolls import roll_die


def wound_change(world: World, actor: Actor, delta: int) -> tuple[ActorChange, tuple[Line, ...]]:
    """The effect of ``delta`` wounds (negative heals) and the card lines that tell it."""
    sheet = sheet_of(actor)
    change = change_wounds(sheet, actor.state, delta, world.settings)
    pv_max = max_hit_points(sheet, world.settings)
    wounded, down, dead = thresholds(sheet, world.settings)
    lines = [
        Line(t("line.wounds", before=change.before, after=change.after)),
        Line(t("line.hit_points", pv=pv_max - change.after, pv_max=pv_max)),
        Line(
            t(
                "line.bands",
                malherido=wounded,
                inconsciente=down,
                muerto=dead,
            )
        ),
        Line(t("line.health_state", state=t(f"health.{change.state_after}"))),
    ]
    if change.state_after != change.state_before:
        lines.append(
            Line(
                t(
                    "line.health_changed",
                    actor=actor.name,
                    before=t(f"health.{change.state_before}"),
                    after=t(f"health.{change.state_after}"),
                )
            )
        )
    effect = ActorChange(
        actor.id,
        {"heridas": change.after},
        add=change.add,
        remove=change.remove - change.add,
    )
    return effect, tuple(lines)


def resolve_damage_apply(world: World, action: Action) -> Resolution:
    """The GM applies damage: wounds grow, the health state and token statuses follow."""
    victim = world.actor(action.actor_id)
    amount = int(action.params["amount"])
    effect, lines = wound_change(world, victim, amount)
    card = Card(
        kind="damage_apply",
        title=t("card.damage_apply", actor=victim.name, amount=amount),
        speaker=None,
        sections=(Section(None, lines),),
        target=victim.id,
    )
    return Resolution(action, (card,), (effect,))


def resolve_heal_wounds(world: World, action: Action) -> Resolution:
    """The GM heals by hand (magic, a surgeon, a ruling): wounds go down by ``amount``."""
    actor = world.actor(action.actor_id)
    amount = int(action.params["amount"])
    effect, lines = wound_change(world, actor, -amount)
    card = Card(
        kind="heal_wounds",
        title=t("card.heal_wounds", actor=actor.name, amount=amount),
        speaker=None,
        sections=(Section(None, lines),),
        target=actor.id,
    )
    return Resolution(action, (card,), (effect,))


def _fights(world: World) -> int:
    return int(world.data.get("fights", 0))


def resolve_catch_breath(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'Tras un combate, los personajes pueden recuperar el aliento ... 5 minutos ... 1d6 PV'.

    Once after each fight (ruling): refused during a combat and a second time before the
    next fight ends.
    """
    actor = world.actor(action.actor_id)
    require_able(world, actor)
    if in_combat(world):
        raise RulesError("in_combat", t("error.in_combat"), "actor")
    if actor.state.get("breath_fight") == _fights(world):
        raise RulesError(
            "already_caught_breath", t("error.already_caught_breath", actor=actor.name), "actor"
        )
    die = roll_die(dice, CATCH_BREATH_DIE, "aliento")
    effect, lines = wound_change(world, actor, -die.total)
    state: dict[str, Any] = {**effect.state, "breath_fight": _fights(world)}
    card = Card(
        kind="catch_breath",
        title=t("card.catch_breath", actor=actor.name),
        speaker=actor.id,
        dice=(die,),
        sections=(
            Section(
                None,
                (
                    Line(t("line.catch_breath", minutes=CATCH_BREATH_MINUTES, healed=die.total)),
                    *lines,
                ),
            ),
        ),
    )
    return Resolution(action, (card,), (ActorChange(actor.id, state, effect.add, effect.remove),))


def resolve_sleep(world: World, action: Action) -> Resolution:
    """A night's sleep: 1 PV, 2 PV in full comfort; once per day (days pass with ``advance_time``)."""
    actor = world.actor(action.actor_id)
    sheet = sheet_of(actor)
    if (
        "dead" in actor.statuses
        or change_wounds(sheet, actor.state, 0, world.settings).state_after == "muerto"
    ):
        raise RulesError(
            "actor_down",
            t("error.actor_down", actor=actor.name, state=t("health.muerto")),
            "actor",
        )
    if in_combat(world):
        raise RulesError("in_combat", t("error.in_combat"), "actor")
    day = int(world.data.get("day", 0))
    if actor.state.get("slept_day") == day:
        raise RulesError("already_slept", t("error.already_slept", actor=actor.name), "actor")
    comfort = str(action.params.get("comfort", "normal"))
    healed = SLEEP_HEALING[comfort]
    effect, lines = wound_change(world, actor, -healed)
    card = Card(
        kind="sleep",
        title=t("card.sleep", actor=actor.name),
        speaker=actor.id,
        sections=(
            Section(
                None,
                (Line(t("line.sleep", comfort=t(f"comfort.{comfort}"), healed=healed)), *lines),
            ),
        ),
    )
    state = {**effect.state, "slept_day": day}
    return Resolution(action, (card,), (ActorChange(actor.id, state, effect.add, effect.remove),))
