"""o3d10 in the shared combat tracker (``rules.tracker``): its hooks, as pure functions.

'Se tira Iniciativa +1o3d10 de cada personaje, actuando en cada ronda según lo que se ha
sacado. Lo que saquemos en iniciativa se usa para todo el combate. ... Una pifia en
iniciativa significa que no se actua en el primer turno, y se irá último en los siguientes.
En su turno, el jugador elige la acción que su personaje hará.'

- Round start: the round's bookkeeping (``o3d10_combat``) follows the tracker's round:
  actions spent, split actions and movement start afresh (``initiative.at_round``), once per
  round. The first round keeps initiative rolled before ``combat_start``.
- Initiative: every combatant without an initiative for this fight rolls it (once for the
  whole combat); every round the order is read again from the stored totals, so a fumble
  skips round 1 and goes last after, and an interrupt or a delay lasts one round only.
  Unconscious or dead combatants do not act (and do not roll).
- No declarations: the player chooses 'en su turno'. No rule at a turn's start or at a
  round's end (the next round's start resets the counts).
- End: the fight counts for catching one's breath; unused ambushes are forgotten.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.dice import DiceSource
from rules.model import Action, ActorChange, Card, Effect, Resolution, World, WorldChange, t
from rules.o3d10.initiative import COMBAT_KEY, at_round, combat_of, new_combat, turn_order
from rules.o3d10.turn_actions import cannot_act, end_of_combat, order_card, roll_one
from rules.tracker import Combat, Initiative, Slot

_ACTION = Action("combat", "", by_gm=True)


def round_start(world: World, combat: Combat) -> Resolution:
    """The o3d10 round follows the tracker's: counts reset ('Una sola acción por turno')."""
    bookkeeping = combat_of(world.data)
    if not bookkeeping["active"]:
        bookkeeping = new_combat()
    return Resolution(
        _ACTION, (), (WorldChange({COMBAT_KEY: at_round(bookkeeping, combat.round)}),)
    )


def _slot(actor_id: str, entry: dict[str, Any]) -> Slot:
    total, actions = int(entry["total"]), int(entry["actions"])
    fumble = bool(entry.get("fumble"))
    label = (
        t("slot.fumbled", total=total)
        if fumble
        else t("slot.initiative", total=total, actions=actions)
    )
    data = {
        "iniciativa": int(entry.get("base", 0)),
        "total": total,
        "actions": actions,
        "fumble": fumble,
    }
    return Slot((actor_id,), label, data)


def initiative(world: World, combat: Combat, dice: DiceSource) -> Initiative:
    """This round's order from the fight's initiative, rolling it for who has none yet."""
    bookkeeping = combat_of(world.data)
    entries: dict[str, dict[str, Any]] = bookkeeping["initiative"]
    hidden = {c.actor_id for c in combat.combatants if c.hidden}
    cards: list[Card] = []
    effects: list[Effect] = []
    down: list[str] = []
    for actor_id in combat.actor_ids:
        actor = world.actors.get(actor_id)
        if actor is None:
            continue
        if cannot_act(world, actor) is not None:
            down.append(actor_id)
            continue
        if actor_id in entries:
            continue
        card, entry, state = roll_one(world, actor, {}, dice, True)
        entries[actor_id] = entry
        cards.append(replace(card, visibility="gm") if actor_id in hidden else card)
        if state:
            effects.append(ActorChange(actor_id, state))
    able = {a: entries[a] for a in combat.actor_ids if a in entries and a not in down}
    order = turn_order(able, combat.round)
    cards.append(order_card(world, combat.round, able, order, hidden=hidden, down=down))
    effects.append(WorldChange({COMBAT_KEY: bookkeeping}))
    data = {
        "round": combat.round,
        "initiative": {a: dict(e) for a, e in able.items()},
        "lost_first_turn": [a for a in able if a not in order],
        "down": down,
    }
    return Initiative(
        tuple(_slot(a, able[a]) for a in order),
        tuple(cards),
        tuple(effects),
        data,
    )


def end(world: World) -> Resolution:
    card, change = end_of_combat(world)
    return Resolution(_ACTION, (card,), (change,))
