"""Looking after weapons: reloading and clearing a jammed firearm."""

from __future__ import annotations

from rules.model import (
    Action,
    ActorChange,
    Card,
    Effect,
    Line,
    Resolution,
    Section,
    World,
    WorldChange,
    t,
)
from rules.o3d10.combat_actions import refuse, spend_action, weapon_of
from rules.o3d10.context import require_able
from rules.o3d10.initiative import COMBAT_KEY


def resolve_reload(world: World, action: Action) -> Resolution:
    actor = world.actor(action.actor_id)
    sheet = require_able(world, actor)
    weapon = weapon_of(world, actor, sheet, str(action.params["weapon"]), "params.weapon")
    if not weapon.capacity:
        raise refuse("not_reloadable", "params.weapon", weapon=weapon.label)
    ammo = dict(actor.state.get("ammo", {}))
    if int(ammo.get(weapon.key, weapon.capacity)) >= weapon.capacity:
        raise refuse("already_loaded", "params.weapon", weapon=weapon.label)
    ammo[weapon.key] = weapon.capacity
    card = Card(
        kind="reload",
        title=t("card.reload", actor=actor.name, weapon=weapon.label),
        speaker=actor.id,
        sections=(
            Section(None, (Line(t("line.ammo", left=weapon.capacity, capacity=weapon.capacity)),)),
        ),
    )
    return Resolution(action, (card,), (ActorChange(actor.id, {"ammo": ammo}),))


def resolve_clear_jam(world: World, action: Action) -> Resolution:
    """Clearing a jammed firearm takes a major action in combat (ruling)."""
    actor = world.actor(action.actor_id)
    sheet = require_able(world, actor)
    weapon = weapon_of(world, actor, sheet, str(action.params["weapon"]), "params.weapon")
    jammed = [k for k in actor.state.get("jammed", []) if k != weapon.key]
    if len(jammed) == len(actor.state.get("jammed", [])):
        raise refuse("not_jammed", "params.weapon", weapon=weapon.label)
    combat = spend_action(world, actor, False, False)
    effects: list[Effect] = [
        ActorChange(
            actor.id, {"jammed": jammed}, remove=frozenset() if jammed else frozenset({"jammed"})
        )
    ]
    if combat is not None:
        effects.append(WorldChange({COMBAT_KEY: combat}))
    card = Card(
        kind="clear_jam",
        title=t("card.clear_jam", actor=actor.name, weapon=weapon.label),
        speaker=actor.id,
    )
    return Resolution(action, (card,), tuple(effects))
