"""What compiled rule systems call of the plugin interface's defaults, compiled with them.

:mod:`rules.system` (``RuleSystem``) stays plain Python: a system written in plain Python
subclasses it, and an interpreted class cannot inherit from a compiled one. Its functions
that run on every press of a compiled system (folding effects into a world, telling an
actor change that sets nothing new) live here instead, in the compiled rules core
(``bridge/compiled_build.py``), so a compiled caller calls them natively; ``rules.system``
gives the very same functions under their old names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.memo import forget_oldest
from rules.model import Action, Actor, Effect, JsonMap, World, WorldChange

_SCALARS: Final = (str, int, float, bool, type(None))
_MISSING: Final = object()


def apply_effects(world: World, effects: tuple[Effect, ...]) -> World:
    """Fold declarative effects into a new world (the default ``apply``), in one pass: one
    new actor mapping and one new data mapping whatever the number of effects, and the
    very same world when no effect changes anything (an actor change that sets nothing
    new keeps its actor, so identity memos keep hitting)."""
    held: Mapping[str, Actor] = world.actors
    actors: dict[str, Actor] | None = None
    data: dict[str, Any] | None = None
    for effect in effects:
        if isinstance(effect, WorldChange):
            data = {**(world.data if data is None else data), **effect.data}
            continue
        actor = (held if actors is None else actors).get(effect.actor_id)
        if actor is None:
            world.actor(effect.actor_id)  # refused there (unknown_actor)
            raise AssertionError(effect.actor_id)
        add, remove = effect.add, effect.remove
        statuses = frozenset((actor.statuses - remove) | add) if add or remove else actor.statuses
        if statuses == actor.statuses and sets_nothing_new(actor.state, effect.state):
            continue
        if actors is None:
            actors = dict(held)
        actors[actor.id] = Actor(
            actor.id,
            actor.name,
            actor.owner,
            actor.sheet,
            {**actor.state, **effect.state},
            statuses,
            actor.token,
            actor.hidden,
        )
    if actors is None and data is None:
        return world
    return World(
        world.id,
        world.name,
        world.system,
        world.settings,
        held if actors is None else actors,
        world.data if data is None else data,
    )


def sets_nothing_new(state: JsonMap, changes: JsonMap) -> bool:
    """Whether every key of ``changes`` already holds that very value in ``state``: the same
    object, or a scalar of the same type and value (so ``0`` never stands for ``False``, and
    the state's JSON would come out byte for byte the same)."""
    for key, value in changes.items():
        old = state.get(key, _MISSING)
        if old is value:
            continue
        if type(old) is not type(value) or type(value) not in _SCALARS or old != value:
            return False
    return True


def check_remembered(
    system: Any, world: World, action: Action, table: dict[Any, Any], size: int
) -> Action:
    """``RuleSystem.check_action``: the checked action remembered in ``table`` (bounded by
    ``size``, oldest dropped first) by the system's identity and the request's values and
    types (kind, actor, targets, GM or not, user, every parameter and its type: 1 and True
    stay apart), checked in full by ``system._check_action`` on a miss; its targets looked
    up again in this world on a hit; refusals never remembered. Compiled (it ran as plain
    Python on every roll of a system that keeps the default: ~60 bytecodes and the key's
    star-unpacking)."""
    raw = action.params
    parts: list[Any] = [
        id(system),
        action.kind,
        action.actor_id,
        action.targets,
        action.by_gm,
        action.user,
    ]
    for item in raw.items():
        parts.append(item)
    for value in raw.values():
        parts.append(type(value))
    key = tuple(parts)
    try:
        hit = table.get(key)
    except TypeError:  # unhashable values: checked in full each time
        checked: Action = system._check_action(world, action)
        return checked
    if hit is None or hit[0] is not system:
        checked = system._check_action(world, action)
        if len(table) >= size:
            forget_oldest(table)
        table[key] = (system, checked)
        return checked
    found: Action = hit[1]
    targets = found.targets
    if targets:
        for index, target in enumerate(targets):
            world.actor(target, f"targets.{index}")
    return found
