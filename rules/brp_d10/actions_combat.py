"""Combat actions through the bridge: attack, parry, dodge, damage, endure, aim, reload."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.brp_d10.cards import (
    can_act,
    check_line,
    check_outcome,
    level_line,
    location_text,
    mod_lines,
    read_actor,
)
from rules.brp_d10.checks import roll_check
from rules.brp_d10.combat import (
    Attack,
    Roll,
    accumulation,
    check_round,
    get_weapon,
    refuse,
    resolve_attack,
    usable_skill,
    weapon_action_agility,
)
from rules.brp_d10.modifiers import Mod, common, total
from rules.brp_d10.plans import advance_plan, follow_plan
from rules.brp_d10.sheet import Weapon
from rules.brp_d10.state import ActorState, characteristic
from rules.brp_d10.tables import MAX_AIM_ROUNDS, SPRAY_SIZE
from rules.brp_d10.wounds import total_penalty
from rules.dice import DiceSource
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    FollowUp,
    Line,
    Outcome,
    Resolution,
    Section,
    World,
    WorldChange,
    t,
)
from rules.params import Param

BLOWS_KEY = "brp_d10_blows"
"""World data: blows that offered a defence, by id, with their stage: 'open' (parry, dodge or
take it) or 'hit' (the defence failed: only its damage button is left). Pressing one of a blow's
buttons closes the others, so a parried blow cannot also be taken."""
NEXT_BLOW_KEY = "brp_d10_next_blow"


def open_blow(world: World) -> tuple[int, WorldChange]:
    blow = int(world.data.get(NEXT_BLOW_KEY, 1))
    blows = dict(world.data.get(BLOWS_KEY, {}))
    blows[str(blow)] = "open"
    return blow, WorldChange({BLOWS_KEY: blows, NEXT_BLOW_KEY: blow + 1})


def check_blow(world: World, params: Mapping[str, Any], stage: str) -> int:
    """The blow a defence or damage button belongs to (0: untracked), refused unless it is at
    ``stage``."""
    blow = int(params.get("blow", 0))
    if blow and dict(world.data.get(BLOWS_KEY, {})).get(str(blow)) != stage:
        raise refuse("blow_resolved", "action")
    return blow


def move_blow(world: World, blow: int, then: str | None) -> tuple[WorldChange, ...]:
    """Move a blow to stage ``then`` (None: closed)."""
    if not blow:
        return ()
    blows = dict(world.data.get(BLOWS_KEY, {}))
    if then is None:
        del blows[str(blow)]
    else:
        blows[str(blow)] = then
    return (WorldChange({BLOWS_KEY: blows}),)


def attack_class(weapon: Weapon) -> str:
    """'melee', 'missile' (arrows, thrown: only a shield stops them) or 'gun' (nothing does)."""
    if weapon.kind in ("melee", "shield"):
        return "melee"
    return "gun" if weapon.gun else "missile"


def _roll_section(index: int, roll: Roll, attack: Attack) -> Section:
    lines: list[Line] = [
        Line(t("line.timing"), t("line.agility_tenth", agility=roll.agility, tenth=roll.tenth))
    ]
    lines.extend(mod_lines(roll.mods))
    if roll.attack is None:
        lines.append(Line(t("line.automatic_hit")))
    else:
        lines.append(check_line(t("line.attack_roll"), roll.attack.check))
        level = level_line(roll.attack.check)
        if level is not None:
            lines.append(level)
        if roll.attack.confirm is not None:
            verdict = (
                t("line.critical_confirmed")
                if roll.attack.critical
                else t("line.critical_not_confirmed")
            )
            lines.append(
                Line(
                    t(
                        "line.critical_roll",
                        die=roll.attack.confirm.first,
                        value=attack.skill.value,
                    ),
                    verdict,
                )
            )
    if roll.burst:
        marks = tuple(
            t(
                "line.bullet_hit" if hit else "line.bullet_miss",
                n=i + 1,
                difficulty=f"{roll.difficulty + i:+d}",
            )
            for i, hit in enumerate(roll.burst)
        )
        lines.append(Line(t("line.burst"), t("raw_list", items=marks)))
    if attack.mode == "sustained":
        lines.append(Line(t("line.spray_fired"), roll.fired))
        if roll.spray_die is not None:
            lines.append(Line(t("line.spray_hits", die=roll.spray_die.first), roll.hits))
    title = t(f"section.{attack.mode}", n=index + 1)
    return Section(title, tuple(lines))


def damage_follow_up(
    follow_id: str,
    attacker: str,
    target: str,
    weapon: str,
    hits: int,
    critical: bool,
    location: str,
    allowed: Any,
    blow: int = 0,
    stage: str = "open",
) -> FollowUp:
    params: dict[str, Any] = {
        "weapon": weapon,
        "hits": hits,
        "critical": critical,
        "location": location,
    }
    if blow:
        params.update(blow=blow, blow_stage=stage)
    return FollowUp(
        follow_id, t("follow.damage", hits=hits), "damage", attacker, params, (target,), allowed
    )


def resolve_attack_action(world: World, action: Action, dice: DiceSource) -> Resolution:
    actor = world.actor(action.actor_id)
    can_act(actor)
    target = world.actor(action.targets[0], "targets.0")
    sheet, state = read_actor(actor)
    weapon = get_weapon(sheet, str(action.params.get("weapon", "")))
    held(state, weapon)
    planned = follow_plan(world, actor.id, state, *_plan_step(weapon, action.params))
    result = resolve_attack(sheet, state, action.params, world.settings, target.id, dice)
    result = replace(result, state=advance_plan(result.state, planned))
    location = str(action.params.get("location", ""))
    sections = [_roll_section(i, roll, result) for i, roll in enumerate(result.rolls)]
    summary: list[Line] = [
        Line(t("line.weapon"), t("raw", text=result.weapon.label)),
        Line(t("line.skill", skill=result.skill.label), result.skill.value),
    ]
    if location:
        summary.append(Line(t("line.aimed_at"), location_text(location)))
    if result.wasted:
        summary.append(Line(t("line.wasted_bullet")))
    if result.ammo_left is not None:
        summary.append(Line(t("line.ammo_left"), result.ammo_left))
    kind = attack_class(result.weapon)
    follow: list[FollowUp] = []
    plain = [r for r in result.rolls if r.hits and not r.critical]
    crits = [r for r in result.rolls if r.critical]
    groups = [(sum(r.hits for r in plain), False), (sum(r.hits for r in crits), True)]
    world_changes: tuple[WorldChange, ...] = ()
    if kind == "melee" and result.rolls[0].attack is not None and result.hits:
        roll = result.rolls[0]
        blow, change = open_blow(world)
        world_changes = (change,)
        carry = {
            "attack_weapon": result.weapon.key,
            # a success level under 0 (a die over the skill that an easy difficulty let through)
            # adds nothing to the defence (ruling R20)
            "against_level": max(0, roll.level or 0),
            "critical": roll.critical,
            "location": location,
            "attack_class": kind,
            "blow": blow,
        }
        ask = (Param("weapon", "str", t("param.weapon"), required=True, max_length=40),)
        follow.append(
            FollowUp(
                "parry",
                t("follow.parry"),
                "parry",
                target.id,
                carry,
                (actor.id,),
                "owner",
                True,
                ask,
            )
        )
        follow.append(
            FollowUp("dodge", t("follow.dodge"), "dodge", target.id, carry, (actor.id,), "owner")
        )
        follow.append(
            damage_follow_up(
                "take",
                actor.id,
                target.id,
                result.weapon.key,
                1,
                roll.critical,
                location,
                "target_owner",
                blow,
            )
        )
    elif kind == "missile" and result.hits == 1 and _has_shield(target):
        # 'si tuviera un escudo, podría utilizarlo contra la flecha'
        roll = next(r for r in result.rolls if r.hits)
        blow, change = open_blow(world)
        world_changes = (change,)
        carry = {
            "attack_weapon": result.weapon.key,
            "against_level": max(0, roll.level or 0),
            "critical": roll.critical,
            "location": location,
            "attack_class": kind,
            "blow": blow,
        }
        ask = (Param("weapon", "str", t("param.weapon"), required=True, max_length=40),)
        follow.append(
            FollowUp(
                "parry",
                t("follow.parry_shield"),
                "parry",
                target.id,
                carry,
                (actor.id,),
                "owner",
                True,
                ask,
            )
        )
        follow.append(
            damage_follow_up(
                "take",
                actor.id,
                target.id,
                result.weapon.key,
                1,
                roll.critical,
                location,
                "target_owner",
                blow,
            )
        )
    else:
        for hits, critical in groups:
            if hits:
                follow.append(
                    damage_follow_up(
                        "damage_crit" if critical else "damage",
                        actor.id,
                        target.id,
                        result.weapon.key,
                        hits,
                        critical,
                        location,
                        "owner",
                    )
                )
    if result.hits and kind != "melee":
        summary.append(Line(t("line.no_defence_" + kind)))
    hit = result.hits > 0
    outcome = Outcome(
        "critical" if any(r.critical for r in result.rolls) else ("success" if hit else "failure"),
        t("outcome.critical")
        if any(r.critical for r in result.rolls)
        else t("outcome.hits", hits=result.hits)
        if hit
        else t("outcome.miss"),
        hit,
        result.hits,
    )
    card = Card(
        kind="attack",
        title=t("card.attack", actor=actor.name, target=target.name, mode=t(f"mode.{result.mode}")),
        speaker=actor.id,
        dice=result.dice,
        outcome=outcome,
        sections=(Section(None, tuple(summary)), *sections),
        actions=tuple(follow),
        target=target.id,
    )
    remove = frozenset({"aiming"}) if "aiming" in actor.statuses else frozenset()
    return Resolution(
        action,
        (card,),
        (ActorChange(actor.id, result.state.to_json(), remove=remove), *world_changes),
    )


def _plan_step(weapon: Weapon, params: Mapping[str, Any]) -> tuple[str, str, int]:
    """What an attack counts as against a declaration: (kind, weapon, steps)."""
    if weapon.kind in ("melee", "shield"):
        return "attack", weapon.key, 1
    mode = str(params.get("mode", "single"))
    if mode == "burst":
        return "burst", weapon.key, 1
    if mode == "sustained":
        bullets = int(params.get("bullets", 0)) or weapon.sustained
        return "spray", weapon.key, max(1, -(-bullets // SPRAY_SIZE))
    return "shoot", weapon.key, int(params.get("shots", 1))


def held(state: ActorState, weapon: Weapon) -> None:
    """'un brazo dejaría caer lo que llevase': a dropped weapon is unusable until picked up."""
    if weapon.key in state.dropped:
        raise refuse("weapon_dropped", "params.weapon", weapon=weapon.label)


def _has_shield(actor: Actor) -> bool:
    sheet, _ = read_actor(actor)
    return any(w.kind == "shield" for w in sheet.weapons.values())


def resolve_defence(world: World, action: Action, dice: DiceSource) -> Resolution:
    """Parry or dodge: 'el atacante hace su tirada y su nivel de éxito se suma a la dificultad de
    la tirada del personaje defensor ..., y si este pasa su tirada, bloquea con éxito el ataque'."""
    actor = world.actor(action.actor_id)
    can_act(actor)
    attacker = world.actor(action.targets[0], "targets.0")
    sheet, state = read_actor(actor)
    params = action.params
    kind = str(params.get("attack_class", "melee"))
    blow = check_blow(world, params, "open")
    agility = characteristic(sheet, state, "agilidad")
    check_round(state, agility, 1)
    weapon_key = ""
    if action.kind == "parry":
        weapon = get_weapon(sheet, str(params.get("weapon", "")))
        if kind == "gun" or (kind == "missile" and weapon.kind != "shield"):
            raise refuse("cannot_parry_missile", "params.weapon")
        if weapon.kind not in ("melee", "shield"):
            raise refuse("cannot_parry_with", "params.weapon", weapon=weapon.label)
        held(state, weapon)
        weapon_action_agility(agility, weapon, state.round.weapons.get(weapon.key, 0))
        skill = usable_skill(sheet, weapon.skill)
        weapon_key = weapon.key
    else:
        if kind != "melee":
            raise refuse("cannot_dodge_missile", "actor")
        key = str(world.settings.get("dodge_skill", "esquivar"))
        if key not in sheet.skills:
            raise refuse("no_dodge_skill", "actor", skill=key)
        skill = usable_skill(sheet, key)
    planned = follow_plan(world, actor.id, state, action.kind, weapon_key)
    chosen = params.get("accumulation")
    mods: tuple[Mod, ...] = (Mod("attack_level", int(params.get("against_level", 0))),)
    mods = mods + common(
        total_penalty(state),
        accumulation(state, 0, None if chosen is None else int(chosen)),
        int(params.get("difficulty", 0)),
    )
    check = roll_check(dice, skill.value, total(mods), role=action.kind, skip_certain=False)
    changes = move_blow(world, blow, None if check.success else "hit")
    new_state = advance_plan(replace(state, round=state.round.used(weapon_key)), planned)
    lines = [*mod_lines(mods), check_line(t(f"line.{action.kind}_roll"), check)]
    follow: tuple[FollowUp, ...] = ()
    if check.success:
        lines.append(Line(t("line.blocked")))
    else:
        follow = (
            damage_follow_up(
                "damage",
                attacker.id,
                actor.id,
                str(params.get("attack_weapon", "")),
                1,
                bool(params.get("critical", False)),
                str(params.get("location", "")),
                "owner",
                blow,
                "hit",
            ),
        )
    card = Card(
        kind=action.kind,
        title=t(f"card.{action.kind}", actor=actor.name, attacker=attacker.name),
        speaker=actor.id,
        dice=check.dice,
        outcome=check_outcome(check),
        sections=(Section(None, tuple(lines)),),
        actions=follow,
        target=attacker.id,
    )
    return Resolution(action, (card,), (ActorChange(actor.id, new_state.to_json()), *changes))


def resolve_aim(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'se apunta primero, durante uno o dos asaltos completos, y se dispara al siguiente asalto
    con el modificador'. Aiming spends the round."""
    del dice
    actor = world.actor(action.actor_id)
    can_act(actor)
    sheet, state = read_actor(actor)
    weapon = get_weapon(sheet, str(action.params.get("weapon", "")))
    if not weapon.ranged:
        raise refuse("cannot_aim_melee", "params.weapon", weapon=weapon.label)
    if state.round.actions or state.round.busy:
        raise refuse("round_spent", "actor")
    rounds = state.aim_rounds + 1 if state.aim_weapon == weapon.key else 1
    new_state = replace(
        state, aim_weapon=weapon.key, aim_rounds=rounds, round=replace(state.round, busy=True)
    )
    bonus = -min(rounds, MAX_AIM_ROUNDS)
    card = Card(
        "aim",
        t("card.aim", actor=actor.name, weapon=weapon.label),
        actor.id,
        sections=(
            Section(None, (Line(t("line.aim_rounds"), rounds), Line(t("mod.aim"), f"{bonus:+d}"))),
        ),
    )
    return Resolution(
        action, (card,), (ActorChange(actor.id, new_state.to_json(), add=frozenset({"aiming"})),)
    )


def resolve_reload(world: World, action: Action, dice: DiceSource) -> Resolution:
    """'Se tarda un asalto en cargar una bala en un cargador o en el tambor de un revólver; en
    meter un cargador ...; en calar una flecha en el arco'."""
    del dice
    actor = world.actor(action.actor_id)
    can_act(actor)
    sheet, state = read_actor(actor)
    weapon = get_weapon(sheet, str(action.params.get("weapon", "")))
    if not weapon.magazine:
        raise refuse("no_magazine", "params.weapon", weapon=weapon.label)
    loaded = state.ammo.get(weapon.key, 0)
    if loaded >= weapon.magazine:
        raise refuse("already_loaded", "params.weapon", weapon=weapon.label)
    if state.round.actions or state.round.busy:
        raise refuse("round_spent", "actor")
    held(state, weapon)
    one = bool(action.params.get("one"))
    spares = dict(state.spares)
    counted = not one and weapon.key in spares
    if counted:
        # 'meter un cargador en su pistola o fusil': one of the spare magazines the sheet counts
        if spares[weapon.key] <= 0:
            raise refuse("no_spare_magazine", "params.weapon", weapon=weapon.label)
        spares[weapon.key] -= 1
    new = loaded + 1 if one else weapon.magazine
    ammo = {**state.ammo, weapon.key: new}
    new_state = replace(
        state,
        ammo=ammo,
        spares=spares,
        round=replace(state.round, busy=True),
        aim_weapon="",
        aim_rounds=0,
    )
    lines = [Line(t("line.ammo_left"), new)]
    if counted:
        lines.append(Line(t("line.spares_left"), spares[weapon.key]))
    card = Card(
        "reload",
        t("card.reload", actor=actor.name, weapon=weapon.label),
        actor.id,
        sections=(Section(None, tuple(lines)),),
    )
    return Resolution(action, (card,), (ActorChange(actor.id, new_state.to_json()),))
