"""Damage through the bridge: the damage follow-up and the Resistencia roll against pain."""

from __future__ import annotations

from dataclasses import replace

from rules.brp_d10.actions_combat import check_blow, move_blow
from rules.brp_d10.cards import (
    check_line,
    check_outcome,
    location_text,
    read_actor,
    wound_text,
)
from rules.brp_d10.checks import roll_check
from rules.brp_d10.combat import get_weapon, refuse
from rules.brp_d10.damage import roll_hit
from rules.brp_d10.sheet import Sheet
from rules.brp_d10.state import characteristic
from rules.brp_d10.tables import LOCATIONS
from rules.brp_d10.wounds import dropped_weapons, receive, total_penalty, wound_penalty
from rules.dice import DiceSource
from rules.model import (
    Action,
    ActorChange,
    Card,
    FollowUp,
    Line,
    Outcome,
    Resolution,
    Section,
    World,
    t,
)


def resolve_damage(world: World, action: Action, dice: DiceSource) -> Resolution:
    attacker = world.actor(action.actor_id)
    target = world.actor(action.targets[0], "targets.0")
    a_sheet, a_state = read_actor(attacker)
    t_sheet, t_state = read_actor(target)
    weapon = get_weapon(a_sheet, str(action.params.get("weapon", "")))
    blow = check_blow(world, action.params, str(action.params.get("blow_stage", "open")))
    location = str(action.params.get("location", "")) or None
    if location is not None and location not in LOCATIONS:
        raise refuse("no_such_location", "params.location", location=location)
    resistencia = characteristic(t_sheet, t_state, "resistencia")
    fuerza = characteristic(a_sheet, a_state, "fuerza")
    critical = bool(action.params.get("critical", False))
    hits = [
        roll_hit(
            dice,
            weapon,
            fuerza,
            t_sheet,
            resistencia,
            location=location,
            critical=critical,
            settings=world.settings,
        )
        for _ in range(int(action.params.get("hits", 1)))
    ]
    received = receive(
        t_state,
        tuple((h.location, h.level, weapon.injury) for h in hits),
        resistencia,
        world.settings,
    )
    dropped = dropped_weapons(
        {k: w.hand for k, w in t_sheet.weapons.items()}, received, received.state.dropped
    )
    received = replace(received, state=replace(received.state, dropped=dropped))
    sections: list[Section] = []
    for index, hit in enumerate(hits):
        lines = [Line(t("line.location"), location_text(hit.location))]
        if hit.location_die is not None:
            lines.append(Line(t("line.location_die"), hit.location_die.first))
        lines.append(
            Line(
                t("line.damage_max")
                if hit.critical
                else t("line.damage_roll", expression=str(weapon.damage)),
                hit.rolled,
            )
        )
        if hit.bonus:
            lines.append(Line(t("line.damage_bonus"), f"{hit.bonus:+d}"))
        if hit.armour:
            lines.append(
                Line(
                    t("line.armour_ignored") if hit.critical else t("line.armour"),
                    -hit.armour if not hit.critical else 0,
                )
            )
        lines.append(Line(t("line.damage_total"), hit.damage))
        lines.append(Line(t("line.wound"), wound_text(hit.level) if hit.level else t("wound.none")))
        sections.append(Section(t("section.hit", n=index + 1), tuple(lines)))
    effects_lines = [
        Line(t(key, location=location_text(loc)), wound_text(level))
        for key, loc, level in received.lines
    ]
    if received.shock:
        effects_lines.append(Line(t("wound.effect.shock", resistencia=resistencia)))
    effects_lines.extend(drop_lines(t_sheet, t_state.dropped, dropped))
    penalty = total_penalty(received.state)
    effects_lines.append(Line(t("line.total_penalty"), f"+{penalty}"))
    sections.append(Section(t("section.effects"), tuple(effects_lines)))
    follow: list[FollowUp] = []
    if not received.dead:
        new_ids = {w.id for w in received.state.wounds} - {w.id for w in t_state.wounds}
        for wound in received.state.wounds:
            if wound.id in new_ids and wound.level == 1:
                follow.append(
                    FollowUp(
                        f"endure_{wound.id}",
                        t("follow.endure", location=location_text(wound.location)),
                        "endure",
                        target.id,
                        {"wound": wound.id},
                        (),
                        "owner",
                    )
                )
    worst = max((h.level for h in hits), default=0)
    outcome = Outcome(
        f"wound_{worst}", wound_text(worst) if worst else t("wound.none"), None, worst
    )
    card = Card(
        kind="damage",
        title=t("card.damage", target=target.name, weapon=weapon.label),
        speaker=attacker.id,
        dice=tuple(d for h in hits for d in h.dice),
        outcome=outcome,
        sections=tuple(sections),
        actions=tuple(follow),
        target=target.id,
    )
    remove = frozenset({"bleeding", "unconscious"}) if received.dead else frozenset()
    return Resolution(
        action,
        (card,),
        (
            ActorChange(target.id, received.state.to_json(), add=received.add, remove=remove),
            *move_blow(world, blow, None),
        ),
    )


def drop_lines(sheet: Sheet, before: tuple[str, ...], after: tuple[str, ...]) -> list[Line]:
    new = [sheet.weapons[key].label for key in after if key not in before and key in sheet.weapons]
    if not new:
        return []
    return [Line(t("line.dropped", weapons=", ".join(new)))]


def resolve_endure(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'Una tirada exitosa contra su característica de Resistencia le evitaría este modificador
    ... durante el combate.' The roll bears the other wounds' difficulty, not this one's."""
    actor = world.actor(action.actor_id)
    sheet, state = read_actor(actor)
    wound_id = int(action.params.get("wound", 0))
    wound = next((w for w in state.wounds if w.id == wound_id), None)
    if wound is None or wound.level != 1:
        raise refuse("no_light_wound", "params.wound", wound=wound_id)
    if wound.ignored:
        raise refuse("already_endured", "params.wound")
    difficulty = total_penalty(state) - wound_penalty(wound)
    resistencia = characteristic(sheet, state, "resistencia")
    check = roll_check(
        dice,
        resistencia,
        difficulty,
        role="resistencia",
        skip_certain=bool(world.settings.get("skip_certain_rolls", True)),
    )
    wounds = tuple(
        replace(w, ignored=True) if w.id == wound_id and check.success else w for w in state.wounds
    )
    lines = [
        check_line(t("line.resistencia_roll"), check),
        Line(t("line.pain_ignored") if check.success else t("line.pain_felt")),
    ]
    card = Card(
        "endure",
        t("card.endure", actor=actor.name, location=location_text(wound.location)),
        actor.id,
        check.dice,
        check_outcome(check),
        (Section(None, tuple(lines)),),
    )
    return Resolution(
        action, (card,), (ActorChange(actor.id, {"wounds": [w.to_json() for w in wounds]}),)
    )
