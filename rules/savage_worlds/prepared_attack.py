"""Planned attacks: the part of an attack that does not depend on the dice, worked out once.

An attack by the same shooter (id, name and parsed sheet object), under the same settings
object, with the same checked parameters (values and types), at the same targets (ids, names,
and whether each is prone), with the shooter's own situation unchanged (wounds, Joker, bipods
set, moved before) needs the same refusal checks, trait die, modifiers, card lines, target
numbers and title every time; only the dice, the ammunition left and the world's ids and
attacks differ. An :class:`AttackPlan` holds the dice-free part; an attack that finds one
draws its dice, works the shots out on totals and builds its card and effects directly.

The key is made of plain values (and the identity of a sheet and a settings object the plan
holds, so their ids are never reused while it lives), never of an actor or world object:
the shooter's ammunition and the targets' Shaken and Wounds change between bursts in play and
do not change the plan, so play finds a plan as a benchmark does while the same GM fires the
same weapon at the same targets; anything the plan depends on changing (a wound on the
shooter, a target going prone, a new sheet) is a new key.

Covered: an attack out of this system's combat and out of the shared tracker (no action
spent, no hold dropped), by a shooter neither out, stunned, on hold nor on overwatch, at
targets that are all present and standing, with a ranged weapon. Everything else, and the
first attack of each plan (which also says whether it is refused), goes the whole way
(:func:`rules.savage_worlds.act_attack.resolve_attack`); refusals are never remembered: an
attack without enough ammunition goes the whole way and is refused there.

The result is the same record for record as that function's (dice drawn in the same order;
tests and the differential harness compare both).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.dice import DiceSource
from rules.memo import forget_oldest
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    Effect,
    FollowUp,
    Line,
    Resolution,
    Section,
    Text,
    World,
    WorldChange,
)
from rules.params import CheckedParams
from rules.savage_worlds import act_attack
from rules.savage_worlds.act_attack import (
    _EXTERMINATION,
    _ammo_line,
    _attack_pairs,
    _attack_title,
    _damage_label,
    _mod_lines,
    _shot_line,
    _weapon_plan,
    close_attack,
    throw_attack,
)
from rules.savage_worlds.attacks import prone_extra
from rules.savage_worlds.shared import SHEET_TABLE_SIZE
from rules.savage_worlds.sheet import Sheet, Weapon, parse_sheet
from rules.savage_worlds.state import COMBAT, OUT, TRACKER, holds_any
from rules.savage_worlds.tables import (
    JOKER_BONUS,
    ROF_AMMO,
    TARGET_NUMBER,
)

PLANS_SIZE: Final = SHEET_TABLE_SIZE
"""Attack plans remembered (oldest dropped first); each holds a sheet and a few small records."""

_PLANS: Final[dict[tuple[Any, ...], AttackPlan | None]] = {}

_SLOW: Final = OUT | {"stunned", "on_hold", "overwatch"}
"""A shooter with any of these goes the whole way (refused, or a hold to drop)."""

_NONE: Final[frozenset[str]] = frozenset()


class AttackPlan:
    """One attack's dice-free part (see the module's text)."""

    __slots__ = (
        "area",
        "base_lines",
        "count",
        "die_names",
        "die_targets",
        "die_thresholds",
        "first",
        "fumble_rule",
        "mode",
        "modifier",
        "moved",
        "names",
        "need",
        "params",
        "settings",
        "sheet",
        "sides",
        "targets",
        "thresholds",
        "title",
        "weapon",
        "wild",
    )
    area: bool
    base_lines: tuple[Line, ...]
    count: int
    die_names: list[str | None]
    die_targets: list[str | None]
    die_thresholds: list[int]
    first: str
    fumble_rule: bool
    mode: str
    modifier: int
    moved: bool
    names: dict[str, str]
    need: int
    params: Mapping[str, Any]
    settings: Mapping[str, Any]
    sheet: Sheet
    sides: int
    targets: tuple[str, ...]
    thresholds: dict[str, int]
    title: Text
    weapon: Weapon
    wild: bool

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            setattr(self, name, value)


def _plan(
    world: World, action: Action, settings: Mapping[str, Any], sheet: Sheet
) -> AttackPlan | None:
    """The plan of an attack that the whole way just accepted (so no refusal is left but the
    ammunition, checked every time); None for what this module does not cover."""
    actor_id, params, targets = action.actor_id, action.params, list(action.targets)
    actors = world.actors
    actor = actors[actor_id]
    weapon_id = str(params["weapon"])
    _, weapon, trait, trait_pairs, weapon_line = _weapon_plan(
        sheet, weapon_id, settings.get("unskilled", "d4-2")
    )
    if weapon is None or trait is None or weapon.kind == "melee":
        return None
    rof = int(params["rof"])
    frenzy = bool(params["frenzy"])
    count = 1 if weapon.area else (2 if frenzy else rof)
    mode = str(settings.get("autofire", "extermination"))
    if weapon.area:
        mode = "area"
    elif count == 1:
        mode = "single"
    if mode == "assigned":
        return None  # the dice spread over the targets: the whole way
    state = actor.state
    need = ROF_AMMO[rof] if weapon.shots is not None else 0
    pairs = list(trait_pairs)
    if sheet.wild_card:
        wound = -min(int(state.get("wounds", 0)), 3)
        if wound:
            pairs.append(("wounds", wound))
    if "joker" in actor.statuses:
        pairs.append(("joker", JOKER_BONUS))
    bipod_set = weapon.id in state.get("bipod", [])
    moved_before = bool(state.get("moved", False))
    pairs += _attack_pairs(weapon, params, rof, bipod_set, moved_before, sheet)
    mod_lines, modifier = _mod_lines(tuple(pairs))
    prone = 0 if weapon.area else prone_extra(str(params["cover"]), True, True)
    thresholds = {
        target: TARGET_NUMBER - prone if "prone" in actors[target].statuses else TARGET_NUMBER
        for target in targets
    }
    die_targets: list[str | None] = [targets[0]] if mode == "single" else [None] * count
    first = thresholds[targets[0]]
    return AttackPlan(
        area=weapon.area,
        base_lines=(weapon_line, *mod_lines),
        count=count,
        die_names=[None if tg is None else actors[tg].name for tg in die_targets],
        die_targets=die_targets,
        die_thresholds=[first if tg is None else thresholds[tg] for tg in die_targets],
        first=targets[0],
        fumble_rule=bool(settings.get("critical_failure", True)),
        names={target: actors[target].name for target in targets},
        mode=mode,
        modifier=modifier,
        moved=bool(params["moved"]),
        need=need,
        params=params,
        settings=settings,
        sheet=sheet,
        sides=trait.die,
        targets=tuple(targets),
        thresholds=thresholds,
        title=_attack_title(actor.name, weapon.name),
        weapon=weapon,
        wild=sheet.wild_card,
    )


def resolve_attack(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """``attack``: as :func:`act_attack.resolve_attack`, through a plan when one applies."""
    data = world.data
    actors = world.actors
    if type(data) is not dict or type(actors) is not dict:  # plain dicts (dict calls) only
        return act_attack.resolve_attack(world, action, dice, settings)
    actor_id = action.actor_id
    actor: Actor | None = actors.get(actor_id)  # typed: native reads (the check made it Any)
    if actor is None or data.get(COMBAT) or data.get(TRACKER):
        return act_attack.resolve_attack(world, action, dice, settings)
    statuses = actor.statuses
    if holds_any(statuses, _SLOW):
        return act_attack.resolve_attack(world, action, dice, settings)
    targets = action.targets
    seen: list[Any] = []
    for target in targets:
        other: Actor | None = actors.get(target)
        if other is None or holds_any(other.statuses, OUT):
            return act_attack.resolve_attack(world, action, dice, settings)
        seen.append(other.name)
        seen.append("prone" in other.statuses)
    state = actor.state
    if type(state) is not dict:
        return act_attack.resolve_attack(world, action, dice, settings)
    params = action.params
    sheet = parse_sheet(actor.sheet)
    shared = type(params) is CheckedParams
    try:
        key = (
            id(params) if shared else None,
            actor_id,
            id(sheet),
            actor.name,
            "joker" in statuses,
            state.get("wounds", 0),
            tuple(state.get("bipod", ())),
            state.get("moved", False),
            id(settings),
            targets,
            *seen,
        )
        if not shared:
            key += (*params.items(), *map(type, params.values()))
        plan = _PLANS.get(key)
        known = plan is not None or key in _PLANS
    except TypeError:  # an unhashable value: the whole way
        return act_attack.resolve_attack(world, action, dice, settings)
    if not known or (
        plan is not None
        and (
            plan.sheet is not sheet
            or plan.settings is not settings
            or (shared and plan.params is not params)
        )
    ):
        resolution = act_attack.resolve_attack(world, action, dice, settings)  # refuses there
        if key not in _PLANS and len(_PLANS) >= PLANS_SIZE:
            forget_oldest(_PLANS)
        _PLANS[key] = _plan(world, action, settings, sheet)
        return resolution
    if plan is None:  # not covered: the whole way
        return act_attack.resolve_attack(world, action, dice, settings)
    weapon = plan.weapon
    need = plan.need
    if need:
        have = int(state.get("ammo", {}).get(weapon.id, 0))
        if have < need:
            return act_attack.resolve_attack(world, action, dice, settings)  # refused there
    return _fire(plan, data, action, dice, state, need)


def _fire(
    plan: AttackPlan,
    data: dict[str, Any],
    action: Action,
    dice: DiceSource,
    state: dict[str, Any],
    need: int,
) -> Resolution:
    """The dice of a planned attack, its shots, card and effects."""
    actor_id = action.actor_id
    weapon = plan.weapon
    count = plan.count
    modifier = plan.modifier
    die_thresholds = plan.die_thresholds
    trait_dice, wild, totals, replaced, fumble = throw_attack(
        dice.roll, plan.sides, plan.wild, count, modifier, die_thresholds, plan.fumble_rule
    )
    effect_state: dict[str, Any] = {}
    if need:
        ammo = dict(state.get("ammo", {}))
        left = ammo[weapon.id] = int(ammo.get(weapon.id, 0)) - need
        effect_state["ammo"] = ammo
    if plan.moved:
        effect_state["moved"] = True
        effect_state["bipod"] = []
    lines: list[Line] = list(plan.base_lines)
    hits: list[int] = []
    die_names = plan.die_names
    for i in range(count):
        total = totals[i] + modifier
        hit = total >= die_thresholds[i]
        if hit:
            hits.append(i)
        lines.append(_shot_line(hit, i + 1, total, die_thresholds[i], die_names[i], replaced == i))
    mode = plan.mode
    if mode == "extermination" and count > 1:
        lines.append(_EXTERMINATION)
    if fumble:
        hits = []
    targets = list(plan.targets)
    records: list[dict[str, Any]]
    if plan.area and hits:
        total = totals[hits[0]] + modifier
        records = [{"total": total, "target": tg, "done": False} for tg in targets]
    else:
        die_targets = plan.die_targets
        records = [
            {"total": totals[i] + modifier, "target": die_targets[i], "done": False} for i in hits
        ]
    effects: list[Effect] = []
    if effect_state:
        effects.append(ActorChange(actor_id, effect_state, _NONE, _NONE))
    follow: list[FollowUp] = []
    if records:
        number = int(data.get("next_id", 0)) + 1
        attack_id = f"atk{number}"
        attacks = dict(data.get("attacks", {}))
        attacks[attack_id] = {
            "attacker": actor_id,
            "weapon": weapon.id,
            "mode": mode,
            "queue": targets,
            "thresholds": dict(plan.thresholds),
            "hits": records,
            "blind": bool(action.params["blind"]),
            "rof": int(action.params["rof"]),
        }
        effects.append(WorldChange({"next_id": number, "attacks": attacks}))
        names = plan.names
        for index, record in enumerate(records):
            who = record["target"]
            follow.append(
                FollowUp(
                    f"damage-{index}",
                    _damage_label(index + 1, names[who] if who else None),
                    "damage",
                    actor_id,
                    {"attack": attack_id, "hit": index},
                )
            )
    outcome, rolled = close_attack(
        lines,
        _ammo_line(need, left) if need else None,
        plan.area,
        hits,
        fumble,
        count,
        totals[0] + modifier - die_thresholds[0],
        trait_dice,
        replaced,
        wild,
    )
    return Resolution(
        action,
        (
            Card(
                "attack",
                plan.title,
                actor_id,
                tuple(rolled),
                outcome,
                (Section(None, tuple(lines)),),
                tuple(follow),
                "public",
                plan.first,
            ),
        ),
        tuple(effects),
    )
