"""Medicine, recovery and time: treating, the death clocks, rest, and the GM's levers on wounds."""

from __future__ import annotations

from dataclasses import replace

from rules.brp_d10.actions_damage import drop_lines
from rules.brp_d10.cards import (
    can_act,
    check_line,
    check_outcome,
    location_text,
    read_actor,
    wound_text,
)
from rules.brp_d10.checks import roll_check
from rules.brp_d10.combat import check_round, get_weapon, refuse, usable_skill
from rules.brp_d10.plans import advance_plan, follow_plan
from rules.brp_d10.state import ActorState, RoundUse, Timer, Wound, characteristic
from rules.brp_d10.tables import DAY, INJURY_LOSS, RECOVERY, SECONDS
from rules.brp_d10.wounds import dropped_weapons, receive, total_penalty, useless_hands
from rules.dice import DiceSource
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    Effect,
    Line,
    Resolution,
    Section,
    TimeStep,
    World,
    WorldChange,
    t,
)
from rules.tracker import combat_of

CLOCK_KEY = "brp_d10_clock"
BLOWS_KEY = "brp_d10_blows"
PLANS_KEY = "brp_d10_plans"


def today(world: World) -> int:
    return int(world.data.get(CLOCK_KEY, 0)) // DAY


def resolve_treat(world: World, action: Action, dice: DiceSource) -> Resolution:
    """Medicine: stop the death clocks ('Si no recibe una tirada de Medicina con éxito ...
    morirá') or shorten a serious or incapacitating wound's rest."""
    medic = world.actor(action.actor_id)
    can_act(medic)
    patient = world.actor(action.targets[0], "targets.0") if action.targets else medic
    m_sheet, m_state = read_actor(medic)
    p_sheet, p_state = read_actor(patient)
    if "dead" in patient.statuses:
        raise refuse("patient_dead", "targets.0", actor=patient.name)
    key = str(world.settings.get("medicine_skill", "medicina"))
    if key not in m_sheet.skills:
        raise refuse("no_medicine_skill", "actor", skill=key)
    skill = usable_skill(m_sheet, key)
    purpose = str(action.params.get("purpose", "bleeding"))
    difficulty = int(action.params.get("difficulty", 0)) + total_penalty(m_state)
    skip = bool(world.settings.get("skip_certain_rolls", True))
    lines: list[Line] = []
    remove: frozenset[str] = frozenset()
    if purpose == "bleeding":
        if not p_state.timers:
            raise refuse("nothing_to_treat", "params.purpose", actor=patient.name)
        check = roll_check(dice, skill.value, difficulty, role="medicine", skip_certain=skip)
        new_state = p_state
        if check.success:
            new_state = replace(p_state, timers=())
            remove = frozenset({"bleeding"})
            lines.append(Line(t("line.bleeding_stopped")))
        else:
            lines.append(Line(t("line.still_bleeding")))
    else:
        wound_id = int(action.params.get("wound", 0))
        wound = next((w for w in p_state.wounds if w.id == wound_id), None)
        if wound is None or wound.level not in (2, 3):
            raise refuse("wound_not_treatable", "params.wound", wound=wound_id)
        if wound.medicine:
            raise refuse("already_treated", "params.wound")
        day = today(world)
        if wound.treat_day == day:
            raise refuse("already_treated_today", "params.wound")
        check = roll_check(dice, skill.value, difficulty, role="medicine", skip_certain=skip)
        updated = replace(wound, treat_day=day, medicine=check.success)
        new_state = replace(
            p_state, wounds=tuple(updated if w.id == wound_id else w for w in p_state.wounds)
        )
        lines.append(
            Line(
                t("line.wound"),
                t(
                    "line.wound_at",
                    level=wound_text(wound.level),
                    location=location_text(wound.location),
                ),
            )
        )
        lines.append(Line(t("line.rest_shortened") if check.success else t("line.rest_unchanged")))
    lines.insert(0, check_line(t("line.medicine_roll", skill=skill.label), check))
    card = Card(
        "treat",
        t("card.treat", medic=medic.name, patient=patient.name),
        medic.id,
        check.dice,
        check_outcome(check),
        (Section(None, tuple(lines)),),
        target=patient.id,
    )
    del p_sheet
    return Resolution(
        action, (card,), (ActorChange(patient.id, new_state.to_json(), remove=remove),)
    )


def resolve_wound(world: World, action: Action, dice: DiceSource) -> Resolution:
    """The GM applies a wound by hand (falls, poison, a blow the table resolved itself)."""
    del dice
    actor = world.actor(action.actor_id)
    sheet, state = read_actor(actor)
    resistencia = characteristic(sheet, state, "resistencia")
    location = str(action.params["location"])
    level = int(action.params["level"])
    injury = str(action.params.get("injury", "organ"))
    received = receive(state, ((location, level, injury),), resistencia, world.settings)
    dropped = dropped_weapons(
        {k: w.hand for k, w in sheet.weapons.items()}, received, received.state.dropped
    )
    received = replace(received, state=replace(received.state, dropped=dropped))
    lines = [
        Line(t(key, location=location_text(loc)), wound_text(lvl))
        for key, loc, lvl in received.lines
    ]
    if received.shock:
        lines.append(Line(t("wound.effect.shock", resistencia=resistencia)))
    lines.extend(drop_lines(sheet, state.dropped, dropped))
    lines.append(Line(t("line.total_penalty"), f"+{total_penalty(received.state)}"))
    card = Card(
        "wound",
        t("card.wound", actor=actor.name),
        None,
        sections=(Section(None, tuple(lines)),),
        target=actor.id,
    )
    remove = frozenset({"bleeding", "unconscious"}) if received.dead else frozenset()
    return Resolution(
        action,
        (card,),
        (ActorChange(actor.id, received.state.to_json(), add=received.add, remove=remove),),
    )


def resolve_wound_remove(world: World, action: Action, dice: DiceSource) -> Resolution:
    del dice
    actor = world.actor(action.actor_id)
    _, state = read_actor(actor)
    wound_id = int(action.params["wound"])
    wound = next((w for w in state.wounds if w.id == wound_id), None)
    if wound is None:
        raise refuse("no_such_wound", "params.wound", wound=wound_id)
    wounds = tuple(w for w in state.wounds if w.id != wound_id)
    remove = frozenset({"wounded"}) if not wounds else frozenset()
    card = Card(
        "wound_remove",
        t("card.wound_remove", actor=actor.name),
        None,
        sections=(
            Section(
                None,
                (
                    Line(
                        t(
                            "line.wound_at",
                            level=wound_text(wound.level),
                            location=location_text(wound.location),
                        )
                    ),
                ),
            ),
        ),
        target=actor.id,
    )
    return Resolution(
        action,
        (card,),
        (ActorChange(actor.id, {"wounds": [w.to_json() for w in wounds]}, remove=remove),),
    )


def resolve_pick_up(world: World, action: Action, dice: DiceSource) -> Resolution:
    """Pick a dropped weapon up again: an action of the round, with a hand that still works."""
    del dice
    actor = world.actor(action.actor_id)
    can_act(actor)
    sheet, state = read_actor(actor)
    weapon = get_weapon(sheet, str(action.params.get("weapon", "")))
    if weapon.key not in state.dropped:
        raise refuse("nothing_dropped", "params.weapon")
    useless = useless_hands(state)
    # a one-handed weapon may go to the other hand (the off hand's +4 is the attack's `off_hand`)
    if (weapon.hand == "both" and useless) or len(useless) == 2:
        raise refuse("hand_useless", "params.weapon", weapon=weapon.label)
    agility = characteristic(sheet, state, "agilidad")
    check_round(state, agility, 1)
    planned = follow_plan(world, actor.id, state, "other", "")
    new_state = advance_plan(
        replace(
            state,
            dropped=tuple(k for k in state.dropped if k != weapon.key),
            round=state.round.used(""),
        ),
        planned,
    )
    card = Card(
        "pick_up",
        t("card.pick_up", actor=actor.name),
        actor.id,
        sections=(Section(None, (Line(t("line.picked_up", weapon=weapon.label)),)),),
    )
    return Resolution(action, (card,), (ActorChange(actor.id, new_state.to_json()),))


def resolve_interrupt_rest(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'Si en cualquier momento se interrumpe el reposo ... la herida se reabriría y habría que
    reiniciar la cuenta.'"""
    del dice
    actor = world.actor(action.actor_id)
    _, state = read_actor(actor)
    wounds = tuple(replace(w, rest=0) if w.level in (2, 3) else w for w in state.wounds)
    card = Card(
        "interrupt_rest",
        t("card.interrupt_rest", actor=actor.name),
        None,
        sections=(Section(None, (Line(t("line.rest_restarted")),)),),
        target=actor.id,
    )
    return Resolution(
        action, (card,), (ActorChange(actor.id, {"wounds": [w.to_json() for w in wounds]}),)
    )


def resolve_end_combat(world: World, action: Action, dice: DiceSource) -> Resolution:
    """The fight is over: round use cleared, endured light wounds hurt again, plans dropped.

    While the combat tracker runs, its ``combat_end`` does this (the same function)."""
    del dice
    if combat_of(world) is not None:
        raise refuse("use_combat_end", "action")
    return end_of_combat(world, action)


def end_of_combat(world: World, action: Action) -> Resolution:
    """What ending a fight does, for the ``end_combat`` action and the tracker's ``combat_end``."""
    effects: list[Effect] = [WorldChange({PLANS_KEY: {}, BLOWS_KEY: {}})]
    for actor in world.actors.values():
        _, state = read_actor(actor)
        wounds = [replace(w, ignored=False).to_json() for w in state.wounds]
        effects.append(
            ActorChange(
                actor.id,
                {
                    "wounds": wounds,
                    "round": RoundUse().to_json(),
                    "aim": {"weapon": "", "rounds": 0},
                },
                remove=frozenset({"aiming"}),
            )
        )
    card = Card("end_combat", t("card.end_combat"), None)
    return Resolution(action, (card,), tuple(effects))


def _heal(
    actor: Actor, state: ActorState, seconds: int, calm: bool, light_seconds: int, by_location: bool
) -> tuple[ActorState, list[Line], set[str]]:
    """Rest for ``seconds``; returns the new state, card lines and statuses to remove."""
    lines: list[Line] = []
    kept: list[Wound] = []
    losses = dict(state.losses)
    for w in state.wounds:
        rest = w.rest + (seconds if calm else 0)
        w = replace(w, rest=rest, ignored=w.ignored and not calm)
        if w.level == 1 and rest >= light_seconds:
            lines.append(Line(t("line.healed", location=location_text(w.location)), wound_text(1)))
            continue
        if w.level in (2, 3):
            key = ("grave" if w.level == 2 else "incapacitada") + (
                "_medicine" if w.medicine else ""
            )
            if rest >= RECOVERY[key]["rest"]:
                lines.append(
                    Line(t("line.healed", location=location_text(w.location)), wound_text(w.level))
                )
                if w.level == 3 and not w.medicine:
                    injury = w.injury
                    if by_location:
                        injury = "organ" if w.location in ("abdomen", "pecho", "cabeza") else "bone"
                    lost = INJURY_LOSS[injury]
                    losses[lost] = losses.get(lost, 0) + 1
                    lines.append(Line(t("line.point_lost", characteristic=t(f"char.{lost}"))))
                continue
        kept.append(w)
    del actor
    remove: set[str] = set()
    if not kept:
        remove.add("wounded")
    if not any(w.level == 3 and w.location in ("pierna_derecha", "pierna_izquierda") for w in kept):
        remove.add("impaired")
    return replace(state, wounds=tuple(kept), losses=losses), lines, remove


def advance(world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
    """Rounds end the round (its actions and the death clocks tick); minutes, hours and days also
    count as rest and calm (ruling), healing wounds and bleeding to death."""
    del dice
    seconds = SECONDS[step.unit] * max(0, step.count)
    calm = step.unit != "round" and step.rest
    light_seconds = int(world.settings.get("light_wound_minutes", 10)) * 60
    by_location = str(world.settings.get("injury_by", "weapon")) == "location"
    data: dict[str, object] = {
        CLOCK_KEY: int(world.data.get(CLOCK_KEY, 0)) + seconds,
        PLANS_KEY: {},
    }
    if calm:
        data[BLOWS_KEY] = {}  # minutes pass: the blows nobody answered are over
    effects: list[Effect] = [WorldChange(data)]
    sections: list[Section] = []
    for actor_id, actor in sorted(world.actors.items()):
        if "dead" in actor.statuses:
            continue
        sheet, state = read_actor(actor)
        add: set[str] = set()
        remove: set[str] = set()
        lines: list[Line] = []
        timers = tuple(Timer(x.kind, x.remaining - seconds) for x in state.timers)
        if any(x.remaining <= 0 for x in timers):
            # 'morirá desangrado'
            lines.append(Line(t("line.bled_out")))
            add.add("dead")
            remove |= {"bleeding", "unconscious"}
            timers = ()
        state = replace(state, timers=timers, round=RoundUse(), aim_rounds=state.aim_rounds)
        if calm and "dead" not in add:
            state, healed, removed = _heal(actor, state, seconds, calm, light_seconds, by_location)
            lines.extend(healed)
            remove |= removed
        if not state.timers and "dead" not in add:
            remove.add("bleeding")
        remove -= add
        remove &= set(actor.statuses)
        effects.append(ActorChange(actor_id, state.to_json(), frozenset(add), frozenset(remove)))
        if lines:
            sections.append(Section(t("raw", text=actor.name), tuple(lines)))
        del sheet
    card = Card(
        "time",
        t(f"card.time.{step.unit}", count=step.count),
        None,
        sections=tuple(sections),
        visibility="public",
    )
    return Resolution(
        Action("advance_time", "", {"unit": step.unit, "count": step.count}, by_gm=True),
        (card,),
        tuple(effects),
    )
