"""Moving in combat: 'El movimiento máximo es 9 metros independientemente de que se saque
crítico en iniciativa y se puedan hacer varias acciones por turno.'

Ruling (RULES.md 21b): the first movement of a round spends one of the actor's actions
('con dos acciones por turno ... podemos mover 9 metros y realizar un ataque con la espada
sin penalización': with one action, moving and attacking needs a split); further movement
that round is free while the round's total stays within 9 m. Outside a combat movement is
not counted.
"""

from __future__ import annotations

from rules.model import (
    Action,
    Card,
    Effect,
    Line,
    Resolution,
    RulesError,
    Section,
    World,
    WorldChange,
    t,
)
from rules.o3d10.combat_actions import spend_action
from rules.o3d10.context import require_able
from rules.o3d10.initiative import COMBAT_KEY, combat_of
from rules.o3d10.tables import MAX_MOVE_METRES


def resolve_move(world: World, action: Action) -> Resolution:
    actor = world.actor(action.actor_id)
    require_able(world, actor)
    metres = int(action.params.get("metres", MAX_MOVE_METRES))
    lines = [Line(t("line.move", metres=metres))]
    effects: list[Effect] = []
    combat = combat_of(world.data)
    if combat["active"]:
        moved = int(combat["moved"].get(actor.id, 0))
        if moved + metres > MAX_MOVE_METRES:
            raise RulesError(
                "move_limit",
                t(
                    "error.move_limit",
                    actor=actor.name,
                    left=MAX_MOVE_METRES - moved,
                    limit=MAX_MOVE_METRES,
                ),
                "params.metres",
            )
        if moved == 0:
            spent = spend_action(world, actor, bool(action.params.get("split", False)), False)
            if spent is not None:
                combat = spent
                lines.append(Line(t("line.move_action")))
        combat["moved"][actor.id] = moved + metres
        lines.append(Line(t("line.move_turn", moved=moved + metres, limit=MAX_MOVE_METRES)))
        effects.append(WorldChange({COMBAT_KEY: combat}))
    card = Card(
        kind="move",
        title=t("card.move", actor=actor.name),
        speaker=actor.id,
        sections=(Section(None, tuple(lines)),),
    )
    return Resolution(action, (card,), tuple(effects))
