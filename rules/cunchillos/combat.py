"""The attack: the attacker's TA with every modifier, the defence, the result and what follows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.cunchillos.checks import Modifier, TaResult, make_ta, opposed_winner
from rules.cunchillos.common import (
    Fighter,
    change,
    check_can_act,
    fighter,
    refuse,
    ta_lines,
    use_actions,
    what_label,
)
from rules.cunchillos.damage import Hit, parry_strength
from rules.cunchillos.health import apply_hits, arm_state, hit_points, timers_of
from rules.cunchillos.initiative import declaration_of, entry_for, step_of_action
from rules.cunchillos.modifiers import (
    condition_modifiers,
    incapacitated,
    round_modifiers,
    scene_modifiers,
    weapon_modifiers,
    withdraw_modifier,
)
from rules.cunchillos.settings import Rules, rules_of
from rules.cunchillos.sheet import UNARMED, Weapon
from rules.cunchillos.tables import (
    AIMED_BLOW,
    ARM_OF_HAND,
    BLOCKED_RETREAT_DODGE,
    EXTRA_ATTACKER,
    LOCATION_BY_FACE,
    PISTOL_IN_MELEE,
    UNARMED_PARRY,
    fumble_outcome,
    unconscious_dodge,
)
from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Card,
    Effect,
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
from rules.rolls import roll_die

DEFENCES: tuple[str, ...] = ("declared", "none", "unconscious", "dodge", "parry")

CRITICAL_ASK: tuple[Param, ...] = (
    Param(
        "crit_choice", "choice", t("param.crit_choice"), default="max", choices=("max", "location")
    ),
    Param("location", "int", t("param.location"), minimum=1, maximum=10),
)


def hands_of(f: Fighter) -> dict[str, str | None]:
    raw = f.state.get("hands")
    if isinstance(raw, Mapping):
        return {hand: (value if isinstance(value, str) else None) for hand, value in raw.items()}
    return dict(f.sheet.in_hand)


def broken_of(f: Fighter) -> list[str]:
    raw = f.state.get("broken", [])
    return [str(key) for key in raw] if isinstance(raw, list) else []


def face_of(location: str, table: Mapping[int, str] = LOCATION_BY_FACE) -> int:
    """The first face of the location die that shows ``location``."""
    faces = [face for face, where in table.items() if where == location]
    return min(faces) if faces else face_of(location)


def wielded(f: Fighter, hand: str, unarmed: bool, field: str) -> Weapon:
    """The weapon in ``hand``: refused when that arm is useless or the weapon broken."""
    _, useless = arm_state(f.state, ARM_OF_HAND[hand])
    if useless:
        raise refuse("arm_useless", "arm_useless", field, actor=f.name)
    key = UNARMED if unarmed else hands_of(f).get(hand) or UNARMED
    if key in broken_of(f):
        raise refuse("weapon_broken", "weapon_broken", field, actor=f.name)
    return f.sheet.weapon(key)


def _defence_kind(dfn: Fighter, requested: str) -> str:
    if requested == "declared":
        declared = str(declaration_of(dfn.state).get("defence", "none"))
        requested = declared if declared in ("dodge", "parry") else "unconscious"
    helpless = (
        hit_points(dfn.state, dfn.sheet) <= 0
        or timers_of(dfn.state)["unconscious"] > 0
        or incapacitated(dfn.state)
        or bool(dfn.state.get("dead"))
    )
    if helpless and requested in ("dodge", "parry"):
        return "unconscious"
    return requested


def _dodge_level(dfn: Fighter, rules: Rules) -> int:
    if dfn.state.get("dead") or hit_points(dfn.state, dfn.sheet) <= 0:
        return 0
    return (
        dfn.sheet.level
        if rules.dodge_level_source == "nivel"
        else dfn.sheet.skill_value("esquivar")
    )


def _defender_weapon(dfn: Fighter) -> tuple[str, Weapon]:
    hands = hands_of(dfn)
    for hand in (dfn.sheet.main_hand, *(h for h in hands if h != dfn.sheet.main_hand)):
        key = hands.get(hand)
        usable = (
            key and key not in broken_of(dfn) and not arm_state(dfn.state, ARM_OF_HAND[hand])[1]
        )
        if usable and key:
            return hand, dfn.sheet.weapon(key)
    return dfn.sheet.main_hand, dfn.sheet.weapon(UNARMED)


def _defend(
    dice: DiceSource, kind: str, att_weapon: Weapon, dfn: Fighter, rules: Rules
) -> tuple[TaResult, Weapon, str]:
    mods = [
        *round_modifiers(dfn.sheet, dfn.state, rules),
        *condition_modifiers(dfn.state, True, rules),
    ]
    if kind == "dodge":
        if dfn.state.get("dodge_penalty") == "active":
            value = -BLOCKED_RETREAT_DODGE if not rules.literal_signs else BLOCKED_RETREAT_DODGE
            mods.append(Modifier("blocked_retreat", value))
        result = make_ta(
            dice, "esquivar", dfn.sheet.skill_value("esquivar"), mods, rules, role="defence"
        )
        return result, dfn.sheet.weapon(UNARMED), dfn.sheet.main_hand
    hand, weapon = _defender_weapon(dfn)
    mods.extend(weapon_modifiers(dfn.sheet, dfn.state, weapon, hand))
    if weapon.key == UNARMED and att_weapon.key != UNARMED:
        mods.append(Modifier("unarmed_parry", UNARMED_PARRY))
    value = dfn.sheet.skill_value(weapon.skill)
    return make_ta(dice, weapon.skill, value, mods, rules, role="defence"), weapon, hand


def resolve_attack(world: World, action: Action, dice: DiceSource) -> Resolution:
    rules = rules_of(world.settings)
    att = fighter(world, action.actor_id)
    if action.targets[0] == att.id:
        raise refuse("self_target", "self_target", "targets.0")
    dfn = fighter(world, action.targets[0], "targets.0")
    if dfn.state.get("dead"):
        raise refuse("target_dead", "target_dead", "targets.0", actor=dfn.name)
    check_can_act(att, physical=True)
    p = action.params
    hand = str(p.get("hand") or att.sheet.main_hand)
    weapon = wielded(att, hand, bool(p.get("unarmed", False)), "params.hand")
    ranged = p.get("range", "melee") == "ranged"
    if ranged and not weapon.pistol:
        raise refuse("not_a_firearm", "not_a_firearm", "params.range", weapon=weapon.label)
    declared, index = use_actions(att, world)
    first_round = int(dict(world.data.get("cunchillos", {}) or {}).get("round", 1) or 1) <= 1
    initiative = entry_for(att.id, att.name, att.sheet, att.state, first_round).primary
    step = step_of_action(initiative, index, bool(declared.get("two_weapons")))
    data = dict(world.data.get("cunchillos", {}) or {})
    engaged = {key: list(value) for key, value in dict(data.get("attackers", {}) or {}).items()}
    attackers = engaged.get(dfn.id, [])
    mods = [
        *round_modifiers(att.sheet, att.state, rules),
        *condition_modifiers(att.state, True, rules),
        *weapon_modifiers(att.sheet, att.state, weapon, hand),
        *scene_modifiers(p, attack=True),
        *withdraw_modifier(att.state),
    ]
    if not ranged:
        if att.id not in attackers:
            if len(attackers) >= rules.max_attackers:
                raise refuse(
                    "too_many_attackers",
                    "too_many_attackers",
                    "targets.0",
                    maximum=rules.max_attackers,
                )
            attackers = [*attackers, att.id]
        engaged[dfn.id] = attackers
        if attackers.index(att.id) > 0:
            mods.append(Modifier("extra_attacker", EXTRA_ATTACKER))
        if weapon.pistol:
            mods.append(Modifier("pistol_melee", PISTOL_IN_MELEE))
    aim = p.get("aim")
    if aim:
        mods.append(Modifier("aimed", AIMED_BLOW))
    defence = _defence_kind(dfn, str(p.get("defence", "declared")))
    if defence == "unconscious":
        level = _dodge_level(dfn, rules)
        mods.append(Modifier("unconscious_dodge", unconscious_dodge(level), str(level)))
    _, parry_weapon = _defender_weapon(dfn)
    if defence == "parry":
        mods.append(Modifier("parry_capacity", parry_weapon.parry - weapon.parry))
    value = att.sheet.skill_value(weapon.skill)
    ta = make_ta(dice, weapon.skill, value, mods, rules, with_location=True)
    assert ta.roll.location is not None
    lines: list[Line] = [
        Line(t("line.attack", actor=att.name, target=dfn.name, weapon=weapon.label)),
        Line(t("line.step", step=step, index=index + 1)),
        *ta_lines(att.name, ta, what_label(att.sheet, weapon.skill)),
    ]
    card_dice: list[Die] = list(ta.roll.dice)
    effects: list[Effect] = []
    att_state: dict[str, Any] = {"round": declared, "next_ta": 0}
    dfn_state: dict[str, Any] = {}
    defended = False
    if ta.success and defence in ("dodge", "parry"):
        defence_ta, dweapon, dhand = _defend(dice, defence, weapon, dfn, rules)
        card_dice.extend(defence_ta.roll.dice)
        defended = opposed_winner(defence_ta, ta, rules)
        lines.append(Line(t(f"line.defence_{defence}", actor=dfn.name)))
        lines.extend(ta_lines(dfn.name, defence_ta, what_label(dfn.sheet, defence_ta.what)))
        lines.append(Line(t("line.defended" if defended else "line.not_defended", actor=dfn.name)))
        dfn_state["next_ta"] = 0
        if defence == "parry" and (defended or rules.parry_strength_on == "always"):
            more = _parry_strength(att, hand, weapon, dfn, dhand, dweapon, rules, lines)
            for who, state in more:
                if who == att.id:
                    att_state.update(state)
                else:
                    dfn_state.update(state)
    hit = ta.success and not defended
    face = face_of(str(aim), rules.locations) if aim else ta.roll.location.first
    follow: list[FollowUp] = []
    if hit:
        params = {
            "source": att.id,
            "damage": weapon.damage,
            "high": ta.roll.high,
            "low": ta.roll.low,
            "face": face,
            "blunt": weapon.blunt,
            "critical": ta.level == "critical",
            "aimed": bool(aim),
            "weapon": weapon.label,
        }
        ask = CRITICAL_ASK if ta.level == "critical" else ()
        follow.append(
            FollowUp(
                "damage",
                t("follow.damage", target=dfn.name),
                "damage",
                att.id,
                params,
                (dfn.id,),
                "owner",
                True,
                ask,
            )
        )
        lines.append(Line(t("line.hit_at", location=t(f"loc.{rules.locations[face]}"), face=face)))
    elif declaration_of(dfn.state).get("withdraw"):
        lines.append(Line(t("line.withdraws", actor=dfn.name, meters=dfn.sheet.movement // 2)))
    if ta.level == "fumble":
        card_dice.extend(
            _fumble(dice, att, weapon, hand, ranged, ta, rules, att_state, lines, follow)
        )
    effects.append(change(att, att_state))
    if dfn_state:
        effects.append(change(dfn, dfn_state))
    if not ranged:
        effects.append(WorldChange({"cunchillos": {**data, "attackers": engaged}}))
    outcome = Outcome(ta.level, t(f"level.{ta.level}"), hit, ta.margin)
    card = Card(
        "attack",
        t("card.attack", actor=att.name, target=dfn.name),
        att.id,
        tuple(card_dice),
        outcome,
        (Section(None, tuple(lines)),),
        tuple(follow),
        target=dfn.id,
    )
    return Resolution(action, (card,), tuple(effects))


def _parry_strength(
    att: Fighter,
    att_hand: str,
    att_weapon: Weapon,
    dfn: Fighter,
    dfn_hand: str,
    dfn_weapon: Weapon,
    rules: Rules,
    lines: list[Line],
) -> list[tuple[str, dict[str, Any]]]:
    """'Fue (atacante) – Fue (defensor): la Fue mayor hace la ½ de la diferencia ...'."""
    if att.sheet.fue == dfn.sheet.fue:
        return []
    weaker, hand, weapon = (
        (dfn, dfn_hand, dfn_weapon)
        if att.sheet.fue > dfn.sheet.fue
        else (att, att_hand, att_weapon)
    )
    to_arm, to_weapon = parry_strength(
        max(att.sheet.fue, dfn.sheet.fue), min(att.sheet.fue, dfn.sheet.fue)
    )
    arm = ARM_OF_HAND[hand]
    state, _ = apply_hits(
        weaker.state,
        weaker.sheet,
        (Hit(face_of(arm), to_arm, arm),),
        blunt=True,
        low=0,
        rules=rules,
    )
    damage = dict(weaker.state.get("weapon_damage", {}) or {})
    if weapon.key != UNARMED:
        damage[weapon.key] = int(damage.get(weapon.key, 0)) + to_weapon
    state["weapon_damage"] = damage
    lines.append(
        Line(
            t(
                "line.parry_strength",
                actor=weaker.name,
                arm=to_arm,
                weapon=weapon.label,
                points=to_weapon,
            )
        )
    )
    limit = rules.weapon_breaks_at
    if weapon.key != UNARMED and limit and damage[weapon.key] >= limit:
        # Not in the text ('la otra ½ se le asigna al arma' gives no breaking point):
        # the world's ``weapon_breaks_at`` breaks it (RULES.md).
        state["broken"] = sorted({*broken_of(weaker), weapon.key})
        hands = dict(state.get("hands") or hands_of(weaker))
        hands[hand] = None
        state["hands"] = hands
        lines.append(Line(t("line.weapon_breaks", weapon=weapon.label, points=damage[weapon.key])))
    return [(weaker.id, state)]


def _fumble(
    dice: DiceSource,
    att: Fighter,
    weapon: Weapon,
    hand: str,
    ranged: bool,
    ta: TaResult,
    rules: Rules,
    state: dict[str, Any],
    lines: list[Line],
    follow: list[FollowUp],
) -> tuple[Die, ...]:
    """'Fallo alto (pifia): arma rota, caída o daño autoinfringido' (a d10 picks one by default)."""
    rolled: tuple[Die, ...] = ()
    if rules.fumble_table == "gm":
        lines.append(Line(t("line.fumble_gm")))
        return rolled
    die = roll_die(dice, 10, "fumble")
    rolled = (die,)
    outcome = fumble_outcome(die.first)
    if outcome == "broken" and weapon.key == UNARMED:
        outcome = "self"
    lines.append(
        Line(t(f"line.fumble_{outcome}", actor=att.name, weapon=weapon.label, face=die.first))
    )
    if outcome == "broken":
        state["broken"] = [*broken_of(att), weapon.key]
        hands = hands_of(att)
        hands[hand] = None
        state["hands"] = hands
    elif outcome == "fall":
        state["prone"] = True
    assert ta.roll.location is not None
    params = {
        "source": att.id,
        "damage": weapon.damage,
        "high": ta.roll.high,
        "low": ta.roll.low,
        "face": ta.roll.location.first,
        "blunt": weapon.blunt,
        "critical": False,
        "aimed": False,
        "weapon": weapon.label,
    }
    if weapon.pistol and not ranged:
        # 'Si el portador de una pistola en un C/C pifia, el daño lo recibirá un compañero cercano.'
        lines.append(Line(t("line.pistol_companion")))
        ask = (Param("victim", "str", t("param.victim"), required=True, max_length=100),)
        follow.append(
            FollowUp(
                "companion",
                t("follow.companion"),
                "damage",
                att.id,
                params,
                (att.id,),
                "gm",
                True,
                ask,
            )
        )
    elif outcome == "self":
        follow.append(
            FollowUp(
                "self_damage", t("follow.self_damage"), "damage", att.id, params, (att.id,), "gm"
            )
        )
    return rolled
