"""cunchillos in the shared combat tracker (issue 8; RULES.md 42-46).

- Initiative every round ("1º Determinar el orden de iniciativa" opens each round): the
  same card and round data as the GM's ``initiative`` action; one slot per fighter
  (public data: primary, secondary), GM-only data: every fighter's modifiers.
- Declarations ("2º ... de menor iniciativa a mayor") through ``combat_declare``, checked
  and recorded exactly like the ``declare`` action; the last one turns the order into the
  schedule of actions ("3º ... La 1ª acción en su Iniciativa, la segunda en su Inic -5").
- Round end (and ``combat_end``, which closes the round that was running): one round of
  time, exactly like ``advance_time(round)``: bleeding, the 0-PV loss, timers, then the
  round's declarations, damage, ambush and attackers per target are cleared.
"""

from __future__ import annotations

from rules.cunchillos.common import first_round_of
from rules.cunchillos.order import (
    act_order,
    declarers,
    initiative_slots,
    store_order,
)
from rules.cunchillos.rounds import advance, open_round, resolve_declare
from rules.model import Action, Card, JsonMap, Line, Resolution, Section, TimeStep, World, t
from rules.params import validate_params
from rules.system import ActionSpec, apply_effects
from rules.tracker import Combat, Initiative


def initiative(world: World, combat: Combat) -> Initiative:
    order, card, data = open_round(world, combat.actor_ids, combat.round)
    gm_data: JsonMap = {
        "round": combat.round,
        "modifiers": {
            e.actor_id: [{"key": m.key, "value": m.value} for m in e.modifiers]
            for e in order
            if e.modifiers
        },
        "base": {e.actor_id: e.base for e in order},
    }
    return Initiative(
        initiative_slots(order),
        (card,),
        (data,),
        gm_data,
        declarers(world, order),
    )


def declare(
    world: World, combat: Combat, actor_id: str, params: JsonMap, spec: ActionSpec
) -> Resolution:
    """A declaration in the tracker's order; the last one schedules the round's actions."""
    checked = validate_params(spec.params, params)
    action = Action("declare", actor_id, checked)
    resolution = resolve_declare(world, action, by_tracker=True)
    pending = [a for a in combat.declare_order if a not in combat.declared and a != actor_id]
    if pending:
        return resolution
    after = apply_effects(world, resolution.effects)
    order = act_order(after, combat, first_round_of(after))
    names = {a: after.actor(a).name for a in combat.actor_ids}
    lines = tuple(
        Line(t("line.slot", initiative=slot.data["initiative"], actor=names[a], index=n))
        for slot in order
        for a, numbers in slot.data["actions"].items()
        for n in numbers
    )
    card = Card(
        "schedule",
        t("card.schedule", round=combat.round),
        None,
        sections=(Section(None, lines),),
    )
    return Resolution(
        action, (*resolution.cards, card), (*resolution.effects, store_order(combat, order))
    )


def round_end(world: World) -> Resolution | None:
    return advance(world, TimeStep("round"))
