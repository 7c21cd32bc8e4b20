"""Declared actions: 'hay que declarar lo que se va a hacer antes del asalto de combate, y una vez
declarado, no puede cambiarse'. When an actor declared a plan for the round, each action must be
its next declared step (ruling R22)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from rules.brp_d10.combat import refuse
from rules.brp_d10.state import ActorState
from rules.model import World, t

PLANS_KEY = "brp_d10_plans"

ACCEPTS: Mapping[str, frozenset[str]] = {
    # what an action is -> the declared kinds it fulfils
    "attack": frozenset({"attack"}),
    "shoot": frozenset({"shoot", "attack"}),
    "burst": frozenset({"burst", "attack"}),
    "spray": frozenset({"spray", "attack"}),
    "parry": frozenset({"parry"}),
    "dodge": frozenset({"dodge"}),
    "other": frozenset({"other"}),
}


def declared(world: World, actor_id: str) -> tuple[tuple[str, str], ...] | None:
    """The actor's declared steps ``(kind, weapon)`` this round, or None without a plan."""
    plans = world.data.get(PLANS_KEY, {})
    plan = plans.get(actor_id) if isinstance(plans, Mapping) else None
    if not plan:
        return None
    steps = []
    for part in str(plan).split(","):
        if part.strip():
            kind, _, weapon = part.strip().partition(":")
            steps.append((kind, weapon))
    return tuple(steps)


def _fits(step: tuple[str, str], kind: str, weapon: str) -> bool:
    return step[0] in ACCEPTS[kind] and (not step[1] or step[1] == weapon)


def follow_plan(
    world: World, actor_id: str, state: ActorState, kind: str, weapon: str, count: int = 1
) -> int:
    """Check that the next ``count`` declared steps are ``kind`` with ``weapon``; returns how many
    steps the action uses (0 without a plan). A sustained-fire attack (``spray``) uses its
    declared sprays (at least one, at most ``count``)."""
    steps = declared(world, actor_id)
    if steps is None:
        return 0
    done = state.round.planned
    if done >= len(steps):
        raise refuse("plan_done", "action")
    if kind == "spray":
        used = 0
        while used < count and done + used < len(steps) and _fits(steps[done + used], kind, weapon):
            used += 1
        count = max(1, used)
    for index in range(done, done + count):
        if index >= len(steps):
            raise refuse("plan_done", "action")
        if not _fits(steps[index], kind, weapon):
            expected = steps[index]
            raise refuse("not_declared", "action", expected=t(f"plan.{expected[0]}"))
    return count


def advance_plan(state: ActorState, used: int) -> ActorState:
    if not used:
        return state
    return replace(state, round=replace(state.round, planned=state.round.planned + used))
