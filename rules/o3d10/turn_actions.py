"""Initiative and the combat's rounds through the bridge, and time passing (rounds, days)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from rules import tracker
from rules.dice import DiceSource
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    Effect,
    Line,
    Outcome,
    Resolution,
    RulesError,
    Section,
    Text,
    TimeStep,
    World,
    WorldChange,
    t,
)
from rules.o3d10.cards import kept_line, signed
from rules.o3d10.context import roll_context, sheet_of
from rules.o3d10.health import health_band, is_down
from rules.o3d10.initiative import (
    COMBAT_KEY,
    InitiativeResult,
    combat_of,
    new_combat,
    next_round,
    roll_initiative,
    turn_order,
)
from rules.o3d10.tables import MAX_MOVE_METRES, ROUND_SECONDS


def _initiative_card(
    world: World, actor: Actor, rolled: InitiativeResult, context_lines: tuple[Line, ...]
) -> Card:
    check = rolled.check
    lines = [
        *context_lines,
        Line(t("line.initiative_sum", base=check.base, die=check.roll.total)),
    ]
    if rolled.encumbrance:
        lines.append(Line(t("line.encumbrance", value=-rolled.encumbrance)))
    extra = check.modifier + rolled.encumbrance
    if extra:
        lines.append(Line(t("line.modifier", modifier=signed(extra))))
    lines.append(Line(t("line.total", total=rolled.total)))
    if rolled.fumble:
        lines.append(Line(t("line.initiative_fumble", actor=actor.name)))
    else:
        lines.append(Line(t("line.initiative_actions", count=rolled.actions)))
    lines.append(Line(t("line.turn_limits", seconds=ROUND_SECONDS, metres=MAX_MOVE_METRES)))
    outcome = (
        Outcome("fumble", t("outcome.fumble"), False)
        if rolled.fumble
        else Outcome("rolled", t("outcome.rolled"), None)
    )
    return Card(
        kind="initiative",
        title=t("card.initiative", actor=actor.name),
        speaker=actor.id,
        dice=check.roll.dice,
        outcome=outcome,
        sections=(Section(None, tuple(lines)),),
    )


def roll_one(
    world: World, actor: Actor, params: dict[str, Any], dice: DiceSource, by_gm: bool
) -> tuple[Card, dict[str, Any], dict[str, Any]]:
    """One actor's initiative: its card, its bookkeeping entry and the actor state it changes."""
    sheet = sheet_of(actor)
    context = roll_context(world, actor, sheet, params, by_gm=by_gm)
    rolled = roll_initiative(dice, sheet, context.rank, int(params.get("modifier", 0)))
    card = _initiative_card(world, actor, rolled, (kept_line(rolled.check, context.circumstances),))
    return card, rolled.entry(), context.state


def resolve_initiative(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'Se tira Iniciativa +1o3d10 ... Lo que saquemos en iniciativa se usa para todo el combate'.

    Rolling initiative when no combat runs starts one (round 1).
    """
    actor = world.actor(action.actor_id)
    sheet = sheet_of(actor)
    if is_down(sheet, actor.state, world.settings):
        raise RulesError(
            "actor_down",
            t("error.actor_down", actor=actor.name, state=t("health.inconsciente")),
            "actor",
        )
    combat = combat_of(world.data)
    if not combat["active"]:
        combat = new_combat()
    if actor.id in combat["initiative"]:
        raise RulesError(
            "initiative_already_rolled",
            t("error.initiative_already_rolled", actor=actor.name),
            "actor",
        )
    card, entry, state = roll_one(world, actor, dict(action.params), dice, action.by_gm)
    combat["initiative"][actor.id] = entry
    effects: list[Effect] = [WorldChange({COMBAT_KEY: combat})]
    if state:
        effects.append(ActorChange(actor.id, state))
    return Resolution(action, (card,), tuple(effects))


def cannot_act(world: World, actor: Actor) -> Text | None:
    """Why an actor cannot take a turn (unconscious, dead), or None when it can."""
    if "dead" in actor.statuses:
        return t("health.muerto")
    if is_down(sheet_of(actor), actor.state, world.settings):
        return t(f"health.{health_band(sheet_of(actor), actor.state, world.settings)}")
    return None


def order_card(
    world: World,
    round_no: int,
    initiative: Mapping[str, Mapping[str, Any]],
    order: Sequence[str],
    *,
    hidden: Collection[str] = (),
    down: Sequence[str] = (),
) -> Card:
    """'Turno N': who acts in which order, who loses this round (a fumble) and who cannot act.

    ``hidden`` combatants show as the tracker's "Desconocido" (the card is public)."""

    def name(actor_id: str) -> str | Text:
        if actor_id in hidden:
            return t("tracker.hidden")
        return world.actors[actor_id].name if actor_id in world.actors else actor_id

    lines = [
        Line(
            t(
                "line.order_entry",
                position=index + 1,
                actor=name(actor_id),
                total=initiative[actor_id]["total"],
                actions=initiative[actor_id]["actions"],
            )
        )
        for index, actor_id in enumerate(order)
    ]
    lines.extend(
        Line(t("line.order_skipped", actor=name(a)))
        for a in initiative
        if a not in order and a not in down
    )
    for actor_id in down:
        why = cannot_act(world, world.actors[actor_id]) if actor_id in world.actors else None
        lines.append(
            Line(t("line.order_down", actor=name(actor_id), state=why or t("health.inconsciente")))
        )
    return Card(
        kind="combat_round",
        title=t("card.round", round=round_no),
        speaker=None,
        sections=(Section(t("section.order"), tuple(lines)),),
    )


def _order_card(world: World, combat: dict[str, Any]) -> Card:
    order = turn_order(combat["initiative"], combat["round"])
    return order_card(world, combat["round"], combat["initiative"], order)


def refuse_if_tracked(world: World, event: str) -> None:
    """The system's own round actions would double the tracker's timed rules: refused while
    the shared tracker runs a combat (RULES.md 29)."""
    if tracker.combat_of(world) is not None:
        raise RulesError("tracker_running", t("error.tracker_running", event=event), "action")


def resolve_combat_start(world: World, action: Action, dice: DiceSource) -> Resolution:
    """A new combat: round 1, and initiative for every actor able to act (``roll_all``)."""
    refuse_if_tracked(world, "combat_start")
    combat = new_combat()
    cards: list[Card] = []
    effects: list[Effect] = []
    if action.params.get("roll_all", True):
        for actor in world.actors.values():
            if is_down(sheet_of(actor), actor.state, world.settings) or "dead" in actor.statuses:
                continue
            card, entry, state = roll_one(world, actor, {}, dice, True)
            combat["initiative"][actor.id] = entry
            cards.append(card)
            if state:
                effects.append(ActorChange(actor.id, state))
        cards.append(_order_card(world, combat))
    else:
        cards.append(Card(kind="combat_start", title=t("card.combat_start"), speaker=None))
    # Ambushes won before the fight survive its start ('el primer ataque es gratuito');
    # combat_end forgets the ones left unused.
    effects.append(WorldChange({COMBAT_KEY: combat}))
    return Resolution(action, tuple(cards), tuple(effects))


def resolve_combat_end(world: World, action: Action) -> Resolution:
    refuse_if_tracked(world, "combat_end")
    combat = combat_of(world.data)
    if not combat["active"]:
        raise RulesError("no_combat", t("error.no_combat"), "action")
    card, change = end_of_combat(world)
    return Resolution(action, (card,), (change,))


def end_of_combat(world: World) -> tuple[Card, WorldChange]:
    """A fight is over: the bookkeeping stops, one more fight counts for catching one's
    breath, and the ambushes left unused are forgotten."""
    combat = combat_of(world.data)
    fights = int(world.data.get("fights", 0)) + 1
    card = Card(
        kind="combat_end",
        title=t("card.combat_end"),
        speaker=None,
        sections=(Section(None, (Line(t("line.catch_breath_hint")),)),),
    )
    return card, WorldChange(
        {COMBAT_KEY: {**combat, "active": False}, "fights": fights, "ambush": {}}
    )


def round_step(world: World, count: int) -> tuple[Card, WorldChange] | None:
    """Rounds passing in a running combat: actions spent reset, the order is shown."""
    combat = combat_of(world.data)
    if not combat["active"] or count <= 0:
        return None
    for _ in range(count):
        combat = next_round(combat)
    return _order_card(world, combat), WorldChange({COMBAT_KEY: combat})


def resolve_next_round(world: World, action: Action) -> Resolution:
    refuse_if_tracked(world, "combat_next_round")
    step = round_step(world, 1)
    if step is None:
        raise RulesError("no_combat", t("error.no_combat"), "action")
    card, change = step
    return Resolution(action, (card,), (change,))


def advance(world: World, step: TimeStep) -> Resolution | None:
    """``advance_time``: rounds move the combat on; days let everyone sleep again.

    Minutes and hours change nothing by themselves (catching one's breath is an action).
    """
    action = Action("time", "", {"unit": step.unit, "count": step.count}, by_gm=True)
    if step.unit == "round":
        if step.count > 0:
            refuse_if_tracked(world, "combat_next_round")
        rounds = round_step(world, step.count)
        if rounds is None:
            return None
        return Resolution(action, (rounds[0],), (rounds[1],))
    if step.unit == "day" and step.count > 0:
        day = int(world.data.get("day", 0)) + step.count
        card = Card(
            kind="time",
            title=t("card.days", count=step.count),
            speaker=None,
            sections=(Section(None, (Line(t("line.sleep_hint")),)),),
        )
        return Resolution(action, (card,), (WorldChange({"day": day}),))
    return None
