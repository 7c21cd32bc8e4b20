"""Damage landing on a body: the damage follow-up, the GM's direct damage, treatment."""

from __future__ import annotations

from typing import Any

from rules.cunchillos.combat import face_of
from rules.cunchillos.common import Fighter, change, fighter, refuse
from rules.cunchillos.damage import Hit, critical_hits, damage_hits
from rules.cunchillos.health import WoundReport, apply_hits, hit_points, wounds_of
from rules.cunchillos.settings import Rules, rules_of
from rules.cunchillos.tables import ARM_OF_HAND
from rules.model import Action, Card, Effect, FollowUp, Line, Resolution, Section, Text, World, t


def _round_damage(f: Fighter) -> int:
    value = f.state.get("round_damage", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _wound_lines(victim: Fighter, reports: tuple[WoundReport, ...]) -> list[Line]:
    lines: list[Line] = []
    for report in reports:
        lines.append(
            Line(
                t(
                    "line.wound",
                    location=t(f"loc.{report.location}"),
                    amount=report.amount,
                    severity=t(f"severity.{report.severity}"),
                )
            )
        )
        lines.extend(Line(t(f"effect.{effect}", actor=victim.name)) for effect in report.effects)
    return lines


def land(
    world: World,
    action: Action,
    victim: Fighter,
    hits: tuple[Hit, ...],
    *,
    blunt: bool,
    low: int,
    rules: Rules,
    source: Fighter | None,
    title: Text,
    aimed: bool = False,
) -> Resolution:
    """Apply hits to the victim, report wounds, hit points, statuses and forced movement."""
    if victim.state.get("dead"):
        raise refuse("target_dead", "target_dead", "targets.0", actor=victim.name)
    state, reports = apply_hits(victim.state, victim.sheet, hits, blunt=blunt, low=low, rules=rules)
    lines = _wound_lines(victim, reports)
    if aimed:
        # 'si apunta a una mano y el daño es mayor a la Res, el defensor tira lo que lleve.'
        hands = dict(state["hands"])
        for hand, arm in ARM_OF_HAND.items():
            if any(h.location == arm and h.amount > victim.sheet.res for h in hits) and hands.get(
                hand
            ):
                hands[hand] = None
                state["hands"] = hands
                lines.append(Line(t("effect.drops", actor=victim.name)))
    total = sum(h.amount for h in hits)
    state["round_damage"] = _round_damage(victim) + total
    pv = int(state["pv"])
    lines.append(
        Line(t("line.hit_points", actor=victim.name, pv=pv, maximum=victim.sheet.hit_points))
    )
    if "limite" in state:
        lines.append(Line(t("line.mortal_limit", limit=state["limite"])))
    if state.get("dead"):
        lines.append(Line(t("line.dies", actor=victim.name)))
    elif pv <= 0 < hit_points(victim.state, victim.sheet):
        blows = int(state.get("golpes", 0)) >= victim.sheet.hit_points and blunt
        lines.append(
            Line(
                t(
                    "line.knocked_out_blows" if blows else "line.falls_unconscious",
                    actor=victim.name,
                )
            )
        )
    follow: list[FollowUp] = []
    effects: list[Effect] = [change(victim, state)]
    if source is not None and source.id != victim.id:
        # 'El Personaje que haya recibido más daño se retirará 1 ó 2 metros'
        difference = state["round_damage"] - _round_damage(source)
        if difference > 0 and not state.get("dead"):
            meters = 1 if difference <= rules.forced_move_step else 2
            lines.append(Line(t("line.forced_move", actor=victim.name, meters=meters)))
            follow.append(
                FollowUp("blocked", t("follow.blocked"), "retreat_blocked", victim.id, {}, (), "gm")
            )
    card = Card(
        "damage",
        title,
        source.id if source is not None else None,
        (),
        None,
        (Section(None, tuple(lines)),),
        tuple(follow),
        target=victim.id,
    )
    return Resolution(action, (card,), tuple(effects))


def resolve_damage(world: World, action: Action) -> Resolution:
    rules = rules_of(world.settings)
    p = action.params
    victim_id = str(p.get("victim") or action.targets[0])
    victim = fighter(world, victim_id, "params.victim" if p.get("victim") else "targets.0")
    source_id = str(p.get("source") or action.actor_id)
    source = fighter(world, source_id, "params.source") if source_id in world.actors else None
    kind, high, low, face = str(p["damage"]), int(p["high"]), int(p["low"]), int(p["face"])
    if low > high:
        raise refuse("invalid_dice", "invalid_dice", "params.low")
    if p.get("critical"):
        chosen = p.get("location")
        if p.get("crit_choice") == "location" and chosen is None:
            raise refuse("location_needed", "location_needed", "params.location")
        hits = critical_hits(
            kind, high, low, face, str(p.get("crit_choice", "max")), chosen, rules.locations
        )
    else:
        hits = damage_hits(kind, high, low, face, rules.locations)
    title = t("card.damage", actor=victim.name, weapon=str(p.get("weapon", "")))
    return land(
        world,
        action,
        victim,
        hits,
        blunt=bool(p.get("blunt")),
        low=low,
        rules=rules,
        source=source,
        title=title,
        aimed=bool(p.get("aimed")),
    )


def resolve_damage_apply(world: World, action: Action) -> Resolution:
    """The GM's lever: ``amount`` points at a location (a wound, or blows)."""
    rules = rules_of(world.settings)
    p = action.params
    victim = fighter(world, action.targets[0], "targets.0")
    location = str(p["location"])
    face = face_of(location, rules.locations)
    hits = (Hit(face, int(p["amount"]), location),)
    title = t("card.damage_apply", actor=victim.name)
    return land(
        world,
        action,
        victim,
        hits,
        blunt=bool(p.get("blunt")),
        low=int(p.get("low", 0)),
        rules=rules,
        source=None,
        title=title,
    )


def resolve_heal(world: World, action: Action) -> Resolution:
    """Not in the text: the GM restores PV, stops bleeding, lets conditions go (RULES.md)."""
    victim = fighter(world, action.targets[0] if action.targets else action.actor_id, "targets.0")
    p = action.params
    if victim.state.get("dead"):
        raise refuse("target_dead", "target_dead", "targets.0", actor=victim.name)
    amount = int(p.get("amount", 0))
    pv = min(victim.sheet.hit_points, hit_points(victim.state, victim.sheet) + amount)
    golpes = max(0, int(victim.state.get("golpes", 0) or 0) - amount)
    state: dict[str, Any] = {"pv": pv, "golpes": golpes}
    wounds = wounds_of(victim.state)
    if p.get("stop_bleeding"):
        for wound in wounds:
            wound["bleeds"] = False
    if p.get("clear_wounds"):
        wounds = []
    state["heridas"] = wounds
    if pv >= 0:
        state["limite"] = None
    lines = [
        Line(t("line.healed", actor=victim.name, amount=amount)),
        Line(t("line.hit_points", actor=victim.name, pv=pv, maximum=victim.sheet.hit_points)),
    ]
    if p.get("stop_bleeding"):
        lines.append(Line(t("line.bleeding_stopped", actor=victim.name)))
    card = Card(
        "heal",
        t("card.heal", actor=victim.name),
        None,
        sections=(Section(None, tuple(lines)),),
        target=victim.id,
    )
    return Resolution(action, (card,), (change(victim, state),))


def resolve_retreat_blocked(world: World, action: Action) -> Resolution:
    """'Si no lo puede hacer, tiene -5 a TA esquivar en el próximo asalto.'"""
    victim = fighter(world, action.actor_id)
    card = Card(
        "retreat_blocked",
        t("card.retreat_blocked", actor=victim.name),
        None,
        sections=(Section(None, (Line(t("line.retreat_blocked", actor=victim.name)),)),),
        target=victim.id,
    )
    return Resolution(action, (card,), (change(victim, {"dodge_penalty": "pending"}),))
