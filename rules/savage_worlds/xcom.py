"""The XCOM variant (world setting ``variant: xcom``): turns out of combat, stealth, civilians, Overwatch.

World data ``xcom``: ``{"turn", "phase": "players"|"aliens", "acted", "lost", "rescued"}``.
Sides come from the sheet: ``heroes`` (the squad), ``villains`` (aliens), ``civilians``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import Action, FollowUp, Line, Resolution, World, t
from rules.savage_worlds.act_attack import resolve_attack
from rules.savage_worlds.act_rounds import new_round
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.state import COMBAT, Draft, in_combat, require_active
from rules.savage_worlds.traits import TraitResult, roll_trait_check, situation_modifiers, trait_die


def _xcom(draft: Draft, settings: Mapping[str, Any]) -> dict[str, Any]:
    if settings.get("variant", "core") != "xcom":
        raise refuse("not_xcom", "action")
    value = draft.data("xcom", None)
    if not isinstance(value, dict):
        value = {"turn": 1, "phase": "players", "acted": [], "lost": [], "rescued": []}
    return value


def _done(action: Action, draft: Draft, kind: str, lines: list[Line], **extra: Any) -> Resolution:
    name = draft.actor(action.actor_id).name if action.actor_id in draft.world.actors else ""
    return Resolution(
        action,
        (card(kind, t(f"card.{kind}", actor=name), action.actor_id or None, lines, **extra),),
        draft.effects(),
    )


def _roll(
    draft: Draft,
    actor_id: str,
    skill: str,
    role: str,
    dice: DiceSource,
    settings: Mapping[str, Any],
) -> TraitResult:
    sheet = draft.sheet(actor_id)
    trait = trait_die(sheet, draft.state(actor_id), skill, settings, "targets")
    return roll_trait_check(
        dice,
        trait,
        wild_card=sheet.wild_card,
        modifiers=situation_modifiers(draft, actor_id, sheet),
        role=role,
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )


def resolve_act(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Durante los Turnos en que no haya combate, podréis actuar todos una vez. Da igual el orden'."""
    draft = Draft(world)
    xcom = _xcom(draft, settings)
    actor_id = action.actor_id
    require_active(draft, actor_id)
    if in_combat(draft):
        raise refuse("in_combat", "action")
    if xcom["phase"] != "players":
        raise refuse("aliens_phase", "action")
    if actor_id in xcom["acted"]:
        raise refuse("already_acted", "actor", actor=draft.actor(actor_id).name)
    xcom["acted"] = [*xcom["acted"], actor_id]
    draft.set_data("xcom", xcom)
    hidden = bool(action.params["stealth"])
    draft.put(actor_id, hidden=hidden)
    key = "line.acts_hidden" if hidden else "line.acts_seen"
    return _done(action, draft, "xcom_act", [Line(t(key, actor=draft.actor(actor_id).name))])


def resolve_rescue(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'poneros a su lado, y estos automáticamente saldrán corriendo ... Civil Salvado'."""
    draft = Draft(world)
    xcom = _xcom(draft, settings)
    actor_id, civilian = action.actor_id, action.targets[0]
    require_active(draft, actor_id)
    if draft.sheet(civilian).side != "civilians":
        raise refuse("not_a_civilian", "targets.0", actor=draft.actor(civilian).name)
    require_active(draft, civilian, "targets.0")
    if civilian in xcom["rescued"]:
        raise refuse("already_rescued", "targets.0", actor=draft.actor(civilian).name)
    xcom["rescued"] = [*xcom["rescued"], civilian]
    draft.set_data("xcom", xcom)
    draft.put(civilian, rescued=True)
    # 'Salvo si os acercáis a un civil para rescatarlo, en ese momento no podéis [ir ocultos]'.
    draft.put(actor_id, hidden=False)
    lines = [
        Line(
            t("line.rescued", actor=draft.actor(civilian).name, rescuer=draft.actor(actor_id).name)
        )
    ]
    return _done(action, draft, "xcom_rescue", lines, target=civilian)


def resolve_aliens_turn(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    draft = Draft(world)
    xcom = _xcom(draft, settings)
    if xcom["phase"] != "players":
        raise refuse("aliens_phase", "action")
    xcom["phase"] = "aliens"
    draft.set_data("xcom", xcom)
    return _done(action, draft, "xcom_aliens", [Line(t("line.aliens_act"))])


def _split(draft: Draft, targets: tuple[str, ...], side: str) -> tuple[list[str], list[str]]:
    aliens = [a for a in targets if draft.sheet(a).side == "villains" and not draft.is_out(a)]
    others = [a for a in targets if draft.sheet(a).side == side and not draft.is_out(a)]
    return others, aliens


def resolve_end_turn(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Al final de cada uno de los turnos ... sigilo de los civiles y el notar de los aliens'."""
    draft = Draft(world)
    xcom = _xcom(draft, settings)
    civilians, aliens = _split(draft, action.targets, "civilians")
    civilians = [c for c in civilians if c not in xcom["rescued"]]
    lines: list[Line] = []
    rolled: list[Die] = []
    follow: list[FollowUp] = []
    notices = {a: _roll(draft, a, "notar", "notice", dice, settings) for a in aliens}
    for a, roll in notices.items():
        rolled += roll.dice
        lines.append(Line(t("line.notice_of", actor=draft.actor(a).name), roll.total))
    for c in civilians:
        roll = _roll(draft, c, "sigilo", "stealth", dice, settings)
        rolled += roll.dice
        spotter = _spotter(notices, roll.total)
        name = draft.actor(c).name
        if spotter is None:
            lines.append(Line(t("line.civilian_hidden", actor=name), roll.total))
            continue
        lines.append(
            Line(t("line.civilian_seen", actor=name, alien=draft.actor(spotter).name), roll.total)
        )
        weapons = draft.sheet(spotter).weapons
        params = {"weapon": weapons[0].id if weapons else "unarmed"}
        follow.append(
            FollowUp(
                f"attack-{c}",
                t("follow.alien_attack", alien=draft.actor(spotter).name, actor=name),
                "attack",
                spotter,
                params,
                (c,),
                allowed="gm",
            )
        )
    dead = [
        a for a in sorted(world.actors) if draft.sheet(a).side == "civilians" and draft.is_out(a)
    ]
    lines.append(Line(t("line.tally", rescued=len(xcom["rescued"]), dead=len(dead))))
    xcom.update(turn=int(xcom["turn"]) + 1, phase="players", acted=[], lost=[])
    draft.set_data("xcom", xcom)
    lines.append(Line(t("line.new_turn", turn=xcom["turn"])))
    return _done(action, draft, "xcom_end_turn", lines, dice=rolled, actions=follow)


def _spotter(notices: Mapping[str, TraitResult], stealth: int) -> str | None:
    """Ruling: an alien notices when its Notice succeeds and ties or beats the Stealth total."""
    best = [(r.total, a) for a, r in notices.items() if r.success and r.total >= stealth]
    return max(best)[1] if best else None


def resolve_detect(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'haré una tirada enfrentada de Sigilo Vs Notar y si os ven se sacan cartas de iniciativas'."""
    draft = Draft(world)
    _xcom(draft, settings)
    if in_combat(draft):
        raise refuse("in_combat", "action")
    squad, aliens = _split(draft, action.targets, "heroes")
    if not squad or not aliens:
        raise refuse("detect_needs_both", "targets")
    notices = {a: _roll(draft, a, "notar", "notice", dice, settings) for a in aliens}
    rolled: list[Die] = [d for r in notices.values() for d in r.dice]
    lines = [
        Line(t("line.notice_of", actor=draft.actor(a).name), r.total) for a, r in notices.items()
    ]
    seen = False
    for s in squad:
        name = draft.actor(s).name
        if not draft.get(s, "hidden", False):
            lines.append(Line(t("line.not_hidden", actor=name)))
            seen = True
            continue
        roll = _roll(draft, s, "sigilo", "stealth", dice, settings)
        rolled += roll.dice
        spotter = _spotter(notices, roll.total)
        lines.append(
            Line(t("line.squad_seen" if spotter else "line.squad_hidden", actor=name), roll.total)
        )
        seen = seen or spotter is not None
    if seen:
        more, more_dice = _contact(draft, dice, settings)
        lines += more
        rolled += more_dice
    kind = "xcom_detect"
    return Resolution(
        action, (card(kind, t(f"card.{kind}"), None, lines, dice=rolled),), draft.effects()
    )


def _contact(
    draft: Draft, dice: DiceSource, settings: Mapping[str, Any]
) -> tuple[list[Line], list[Die]]:
    """'detener el turno, los jugadores que no hayan actuado ... tendrán que perderlo, y sacamos ... cartas'."""
    xcom = _xcom(draft, settings)
    world = draft.world
    squad = [
        a for a in sorted(world.actors) if draft.sheet(a).side == "heroes" and not draft.is_out(a)
    ]
    lost = [a for a in squad if a not in xcom["acted"]]
    xcom.update(lost=lost, phase="players", acted=[])
    draft.set_data("xcom", xcom)
    lines = [Line(t("line.contact"))]
    lines += [Line(t("line.turn_lost", actor=draft.actor(a).name)) for a in lost]
    fighters = [a for a in sorted(world.actors) if draft.sheet(a).side != "civilians"]
    draft.set_data(
        COMBAT,
        {
            "active": True,
            "round": 0,
            "participants": fighters,
            "no_card": [],
            "cards": {},
            "joker_dealt": False,
        },
    )
    more, rolled = new_round(draft, dice, settings, first=True)
    return lines + more, rolled


def resolve_contact(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    draft = Draft(world)
    _xcom(draft, settings)
    if in_combat(draft):
        raise refuse("in_combat", "action")
    lines, rolled = _contact(draft, dice, settings)
    kind = "xcom_contact"
    return Resolution(
        action,
        (
            card(
                kind,
                t(f"card.{kind}"),
                None,
                lines,
                dice=[d for d in rolled if d.role != "shuffle"],
            ),
        ),
        draft.effects(),
    )


def resolve_overwatch(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Acción de Guardia: Ponerte en Espera para Disparar' with the weapon in hand."""
    from rules.savage_worlds.act_attack import require_can_act, weapon_of

    draft = Draft(world)
    actor_id = action.actor_id
    require_can_act(draft, actor_id)
    sheet = draft.sheet(actor_id)
    in_hand = draft.get(actor_id, "in_hand", [])
    chosen = action.params.get("weapon") or (in_hand[0] if in_hand else None)
    ranged = [w for w in sheet.weapons if w.kind != "melee"]
    if chosen is None:
        if not ranged:
            raise refuse("no_ranged_weapon", "params.weapon", actor=draft.actor(actor_id).name)
        chosen = ranged[0].id
    weapon = weapon_of(sheet, str(chosen), draft.actor(actor_id).name)
    if weapon.kind == "melee":
        raise refuse("no_ranged_weapon", "params.weapon", actor=draft.actor(actor_id).name)
    draft.add(actor_id, "overwatch", "on_hold")
    draft.put(actor_id, overwatch_weapon=weapon.id)
    return _done(
        action,
        draft,
        "overwatch",
        [Line(t("line.overwatch", actor=draft.actor(actor_id).name, weapon=weapon.name))],
    )


def resolve_overwatch_fire(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """The GM's reaction shot at the first alien in sight: a single shot, no burst."""
    if not world.actor(action.actor_id).statuses & {"overwatch"}:
        raise refuse("not_on_overwatch", "actor", actor=world.actor(action.actor_id).name)
    weapon = str(world.actor(action.actor_id).state.get("overwatch_weapon", ""))
    params = {**action.params, "weapon": weapon, "rof": 1, "frenzy": False, "spread": None}
    shot = replace(action, kind="attack", params=params)
    relaxed = {**settings, "track_actions": False}
    # Shaken watchers have already lost the hold (and Overwatch) when they became Shaken.
    result = resolve_attack(world, shot, dice, relaxed)
    return replace(result, action=action)
