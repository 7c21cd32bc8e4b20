"""The attack action: trait dice and the wild die against one or several targets, ammunition."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Card,
    FollowUp,
    Line,
    Outcome,
    Resolution,
    RulesError,
    Section,
    Text,
    World,
    t,
)
from rules.savage_worlds.attacks import (
    prone_extra,
    recoil_applies,
    spread_dice,
    strength_shortfall,
)
from rules.savage_worlds.cards import refuse
from rules.savage_worlds.shared import (
    SHEET_TABLE_SIZE,
    faces_total,
    remember,
    roll_ace,
    roll_aces,
    set_aside,
)
from rules.savage_worlds.sheet import Sheet, Weapon, parse_sheet
from rules.savage_worlds.state import (
    COMBAT,
    OUT,
    TRACKER,
    Draft,
    drop_hold,
    require_active,
)
from rules.savage_worlds.tables import (
    BLIND_FIRE_PENALTY,
    COVER_MODIFIER,
    DARK_SIGHT_LIMIT,
    JOKER_BONUS,
    LIGHTING_MODIFIER,
    MIN_STRENGTH_STEP_PENALTY,
    MOVING_FIRE_PENALTY,
    MULTI_ACTION_PENALTY,
    RAISE,
    RANGE_MODIFIER,
    RECOIL_PENALTY,
    ROF_AMMO,
    TARGET_NUMBER,
    WILD_DIE,
)
from rules.savage_worlds.traits import (
    Modifier,
    TraitDie,
    modifier_lines,
    trait_die,
    use_action,
)


def weapon_of(sheet: Sheet, weapon_id: str, name: str) -> Weapon:
    weapon = sheet.weapon(weapon_id)
    if weapon is None:
        raise refuse("unknown_weapon", "params.weapon", actor=name, weapon=weapon_id[:40])
    return weapon


def require_can_act(draft: Draft, actor_id: str) -> None:
    require_active(draft, actor_id)
    if draft.has(actor_id, "stunned"):
        # 'Fallo: El personaje sigue aturdido. Durante su turno, solo podrá hacer acciones gratuitas'.
        raise refuse("shaken", "actor", actor=draft.actor(actor_id).name)


def _attack_pairs(
    weapon: Weapon,
    params: Mapping[str, Any],
    rof: int,
    bipod_set: bool,
    moved_before: bool,
    sheet: Sheet,
) -> list[tuple[str, int]]:
    pairs: list[tuple[str, int]] = []
    if weapon.kind != "melee":
        pairs.append(("range", RANGE_MODIFIER[str(params["range"])]))
    pairs.append(("cover", COVER_MODIFIER[str(params["cover"])]))
    if params["blind"]:
        pairs.append(("blind", BLIND_FIRE_PENALTY))
    else:
        pairs.append(("lighting", LIGHTING_MODIFIER[str(params["lighting"])]))
    if recoil_applies(weapon, rof, bipod_set, sheet.has_edge("sin_retroceso")):
        pairs.append(("recoil", -RECOIL_PENALTY))
    if weapon.pen_mov and (params["moved"] or moved_before):
        pairs.append(("pen_mov", MOVING_FIRE_PENALTY))
    short = strength_shortfall(weapon, sheet.attributes["fuerza"], bipod_set)
    if short:
        pairs.append(("min_str", MIN_STRENGTH_STEP_PENALTY * short))
    pairs.append(("modifier", int(params["modifier"])))
    return [pair for pair in pairs if pair[1]]


WeaponPlan = tuple[Sheet, Weapon | None, TraitDie | None, tuple[tuple[str, int], ...], Line | None]
_PLANS: Final[dict[tuple[int, str, Any], WeaponPlan]] = {}


def _weapon_plan(sheet: Sheet, weapon_id: str, unskilled: Any) -> WeaponPlan:
    """A sheet's weapon, the trait die its skill rolls (None: refused unskilled), the die's own
    modifiers and the card's weapon line: worked out once per parsed sheet (sheets are never
    changed: a new sheet is a new object, a miss) and weapon, keyed by identity with the sheet
    held, so an id is never reused while its entry lives."""
    key = (id(sheet), weapon_id, unskilled)
    plan = _PLANS.get(key)
    if plan is not None and plan[0] is sheet:
        return plan
    weapon = sheet.weapon(weapon_id)
    trait: TraitDie | None = None
    weapon_line: Line | None = None
    if weapon is not None:
        try:  # a weapon skill is never an attribute: the actor's state does not count
            trait = trait_die(sheet, {}, weapon.skill, {"unskilled": unskilled}, "params.weapon")
        except RulesError:
            trait = None
        else:
            weapon_line = Line(
                t("line.weapon", weapon=weapon.name, skill=trait.label, die=trait.die)
            )
    pairs = tuple((m.key, m.value) for m in trait.modifiers) if trait is not None else ()
    return remember(_PLANS, key, (sheet, weapon, trait, pairs, weapon_line), SHEET_TABLE_SIZE)


_SITUATIONS: Final[dict[tuple[Any, ...], tuple[Sheet, tuple[tuple[str, int], ...]]]] = {}
"""The attack's own modifiers per sheet (held: its id is not reused), weapon, the situation
the attacker chose (range, cover, lighting...) and whether a bipod is set or they moved."""
_MODS: Final[dict[tuple[tuple[str, int], ...], tuple[tuple[Line, ...], int]]] = {}


def _mod_lines(pairs: tuple[tuple[str, int], ...]) -> tuple[tuple[Line, ...], int]:
    """The card lines of the modifiers (key, value) in order, and their sum (shared)."""
    found = _MODS.get(pairs)
    if found is None:
        found = remember(
            _MODS,
            pairs,
            (modifier_lines(tuple(Modifier(k, v) for k, v in pairs)), sum(v for _, v in pairs)),
        )
    return found


def _standing_or_refuse(world: World, targets: list[str]) -> None:
    actors = world.actors
    for index, target in enumerate(targets):
        other = actors.get(target)
        if other is None or not OUT.isdisjoint(other.statuses):
            require_active(Draft(world), target, f"targets.{index}")


def resolve_attack(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """Refusals first (in a fixed order), then the dice, the shots, the hits and the card.

    Read straight from the world until the first change (the draft is empty until then);
    per sheet and weapon the trait die and its line come from :func:`_weapon_plan`."""
    actor_id, params, targets = action.actor_id, action.params, list(action.targets)
    actors = world.actors
    actor = actors.get(actor_id)
    if actor is None:
        actor = world.actor(actor_id)  # refused there
    sheet = parse_sheet(actor.sheet)
    statuses = actor.statuses
    if not OUT.isdisjoint(statuses):
        raise refuse("actor_out", "actor", actor=actor.name)
    if "stunned" in statuses:
        # 'Fallo: El personaje sigue aturdido. Durante su turno, solo podrá hacer acciones gratuitas'.
        raise refuse("shaken", "actor", actor=actor.name)
    weapon_id = str(params["weapon"])
    _, weapon, trait, trait_pairs, weapon_line = _weapon_plan(
        sheet, weapon_id, settings.get("unskilled", "d4-2")
    )
    if weapon is None:
        raise refuse("unknown_weapon", "params.weapon", actor=actor.name, weapon=weapon_id[:40])
    if actor_id in targets:
        raise refuse("self_target", "targets")
    if len(set(targets)) != len(targets):
        raise refuse("duplicate_target", "targets")
    for target in targets:
        other = actors.get(target)
        if other is None or not OUT.isdisjoint(other.statuses):
            _standing_or_refuse(world, targets)
    rof = int(params["rof"])
    if rof > weapon.rof or (rof > 1 and weapon.kind == "melee"):
        raise refuse("rof_not_available", "params.rof", weapon=weapon.name, rof=weapon.rof)
    frenzy = bool(params["frenzy"])
    if frenzy and (weapon.kind != "melee" or not sheet.has_edge("frenesi")):
        raise refuse("no_frenzy", "params.frenzy", actor=actor.name)
    if params["lighting"] == "dark" and int(params["distance"]) > DARK_SIGHT_LIMIT:
        raise refuse("not_visible", "params.distance", limit=DARK_SIGHT_LIMIT)
    count = 1 if weapon.area else (2 if frenzy else rof)
    mode = str(settings.get("autofire", "extermination"))
    if weapon.area:
        mode = "area"
    elif count == 1:
        mode = "single"
        if len(targets) > 1:
            raise refuse("too_many_targets", "targets", maximum=1)
    elif mode == "assigned" and len(targets) > count:
        raise refuse("too_many_targets", "targets", maximum=count)
    state = actor.state
    need = 0
    if weapon.shots is not None:
        need = ROF_AMMO[rof]
        have = int(state.get("ammo", {}).get(weapon.id, 0))
        if have <= 0:
            raise refuse("no_ammo", "params.weapon", weapon=weapon.name)
        if have < need:
            raise refuse("not_enough_ammo", "params.rof", weapon=weapon.name, need=need, have=have)
    draft = Draft(world)
    data = world.data
    fight = data.get(COMBAT)
    if fight and isinstance(fight, Mapping) and fight.get("active", False):
        multi = use_action(draft, actor_id, settings, "actor")
    else:
        multi = 1  # out of combat: one action, nothing counted
    if "on_hold" in statuses or "overwatch" in statuses or data.get(TRACKER):
        drop_hold(draft, actor_id)
    if trait is None:  # refused unskilled: trait_die says so
        trait = trait_die(sheet, draft.state(actor_id), weapon.skill, settings, "params.weapon")

    pairs = list(trait_pairs)
    if sheet.wild_card:
        wound = -min(int(state.get("wounds", 0)), 3)
        if wound:
            pairs.append(("wounds", wound))
    if "joker" in statuses:
        pairs.append(("joker", JOKER_BONUS))
    if multi > 1:
        pairs.append(("multi", -MULTI_ACTION_PENALTY * (multi - 1)))
    bipod_set = weapon.id in state.get("bipod", [])
    moved_before = bool(state.get("moved", False))
    situation = (
        id(sheet),
        weapon.id,
        rof,
        params["range"],
        params["cover"],
        params["blind"],
        params["lighting"],
        params["moved"],
        params["modifier"],
        bipod_set,
        moved_before,
    )
    found = _SITUATIONS.get(situation)
    if found is None or found[0] is not sheet:
        found = remember(
            _SITUATIONS,
            situation,
            (sheet, tuple(_attack_pairs(weapon, params, rof, bipod_set, moved_before, sheet))),
            SHEET_TABLE_SIZE,
        )
    pairs += found[1]
    mod_lines, modifier = _mod_lines(tuple(pairs))

    ranged = weapon.kind != "melee"
    thresholds: dict[str, int] = {}
    prone = 0 if weapon.area or not ranged else prone_extra(str(params["cover"]), True, True)
    for target in targets:
        other = actors[target]
        if ranged:
            thresholds[target] = (
                TARGET_NUMBER - prone if "prone" in other.statuses else TARGET_NUMBER
            )
        else:
            thresholds[target] = parse_sheet(other.sheet).parry
    die_targets: list[str | None]
    if mode == "assigned":
        split = spread_dice(count, len(targets), params.get("spread"))
        if split is None:
            raise refuse("bad_spread", "params.spread", count=count, targets=len(targets))
        die_targets = [tg for tg, n in zip(targets, split, strict=True) for _ in range(n)]
    elif mode == "single":
        die_targets = [targets[0]]
    else:
        die_targets = [None] * count
    first = thresholds[targets[0]]
    die_thresholds = [first if tg is None else thresholds[tg] for tg in die_targets]

    trait_dice, wild, totals, replaced, fumble = throw_attack(
        dice.roll,
        trait.die,
        sheet.wild_card,
        count,
        modifier,
        die_thresholds,
        bool(settings.get("critical_failure", True)),
    )

    if need:
        ammo = dict(state.get("ammo", {}))  # a new mapping of whole numbers
        left = ammo[weapon.id] = int(ammo.get(weapon.id, 0)) - need
        draft.put(actor_id, ammo=ammo)
    if params["moved"]:
        draft.put(actor_id, moved=True, bipod=[])

    lines: list[Line] = [weapon_line, *mod_lines]  # type: ignore[list-item]  # set with trait
    hits: list[int] = []  # indexes of the dice that hit
    for i in range(count):
        total = totals[i] + modifier
        hit = total >= die_thresholds[i]
        if hit:
            hits.append(i)
        lines.append(
            _shot_line(
                hit,
                i + 1,
                total,
                die_thresholds[i],
                None if die_targets[i] is None else actors[die_targets[i]].name,  # type: ignore[index]
                replaced == i,
            )
        )
    if mode == "extermination" and count > 1:
        lines.append(_EXTERMINATION)
    if fumble:
        hits = []
    records: list[dict[str, Any]]
    if weapon.area and hits:
        total = totals[hits[0]] + modifier
        records = [{"total": total, "target": tg, "done": False} for tg in targets]
    else:
        records = [
            {"total": totals[i] + modifier, "target": die_targets[i], "done": False} for i in hits
        ]
    follow: list[FollowUp] = []
    if records:
        attack_id = draft.next_id("atk")
        attacks = dict(data.get("attacks", {}))  # a new mapping; the others stay shared
        attacks[attack_id] = {
            "attacker": actor_id,
            "weapon": weapon.id,
            "mode": mode,
            "queue": targets,
            "thresholds": thresholds,
            "hits": records,
            "blind": bool(params["blind"]),
            "rof": rof,
        }
        draft.set_data("attacks", attacks)
        for index, record in enumerate(records):
            who = record["target"]
            follow.append(
                FollowUp(
                    f"damage-{index}",
                    _damage_label(index + 1, actors[who].name if who else None),
                    "damage",
                    actor_id,
                    {"attack": attack_id, "hit": index},
                )
            )
    outcome, rolled = close_attack(
        lines,
        _ammo_line(need, left) if need else None,
        weapon.area,
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
                _attack_title(actor.name, weapon.name),
                actor_id,
                tuple(rolled),
                outcome,
                (Section(None, tuple(lines)),),
                tuple(follow),
                "public",
                targets[0],
            ),
        ),
        draft.effects(),
    )


_FUMBLE: Final = Outcome("fumble", t("outcome.fumble"), False)
_FAILURE: Final = Outcome("failure", t("outcome.failure"), False)
_OUTCOMES: Final[dict[tuple[int, int], Outcome]] = {}
_SINGLE: Final[dict[tuple[bool, int], Outcome]] = {}  # apart: (True, 4) == (1, 4)
_LABELS: Final[dict[tuple[int, str | None], Text]] = {}
_SHOTS: Final[dict[tuple[Any, ...], Line]] = {}
_AREA_HIT: Final = Line(t("line.area_hit"))
_AREA_MISS: Final = Line(t("line.area_miss"))
_CRITICAL_FAILURE: Final = Line(t("line.critical_failure"))


_AMMO: Final[dict[tuple[int, int], Line]] = {}
_TITLES: Final[dict[tuple[str, str], Text]] = {}


def throw_attack(
    roll: Callable[[int], int],
    sides: int,
    wild_card: bool,
    count: int,
    modifier: int,
    die_thresholds: Sequence[int],
    fumble_rule: bool,
) -> tuple[list[Die], Die | None, list[int], int | None, bool]:
    """An attack's dice: ``count`` trait dice and a Wild Card's wild die, their totals with
    the wild die in place of the trait die it replaces (attacks.place_wild), which one it
    replaced, and whether the attack is a critical failure ('both 1s; with several trait
    dice, the wild die and half or more of them'): shared by the whole way and the planned
    attack (``prepared_attack``)."""
    trait_dice = roll_aces(roll, sides, "trait", count)
    wild = roll_ace(roll, WILD_DIE, "wild") if wild_card else None
    totals = [faces_total(die) for die in trait_dice]
    replaced = None
    if wild is not None:
        wild_total = faces_total(wild)
        if count == 1:
            replaced = 0 if wild_total > totals[0] else None
        else:
            for i in range(count):
                if totals[i] + modifier < die_thresholds[i] <= wild_total + modifier:
                    replaced = i
                    break
        if replaced is not None:
            totals[replaced] = wild_total
    fumble = (
        fumble_rule
        and wild is not None
        and wild.faces[0] == 1
        and [die.faces[0] for die in trait_dice].count(1) * 2 >= count
    )
    return trait_dice, wild, totals, replaced, fumble


def close_attack(
    lines: list[Line],
    ammo: Line | None,
    area: bool,
    hits: list[int],
    fumble: bool,
    count: int,
    first_margin: int,
    trait_dice: list[Die],
    replaced: int | None,
    wild: Die | None,
) -> tuple[Outcome, list[Die]]:
    """The card's closing lines (ammunition, area, critical failure), its outcome and the
    dice as shown (the wild die set aside unless it replaced a trait die, which is then
    set aside): shared by the whole way and the planned attack (``prepared_attack``)."""
    if ammo is not None:
        lines.append(ammo)
    if area:
        lines.append(_AREA_HIT if hits else _AREA_MISS)
    if fumble:
        lines.append(_CRITICAL_FAILURE)
    if fumble:
        outcome = _FUMBLE
    elif not hits:
        outcome = _FAILURE
    elif count > 1:
        outcome = _hits_outcome(len(hits), count)
    else:
        outcome = _single_outcome(first_margin >= RAISE, first_margin)
    rolled = trait_dice
    if replaced is not None:
        rolled[replaced] = set_aside(rolled[replaced])
    if wild is not None:
        rolled.append(wild if replaced is not None else set_aside(wild))
    return outcome, rolled


def _ammo_line(spent: int, left: int) -> Line:
    found = _AMMO.get((spent, left))
    if found is None:
        found = remember(_AMMO, (spent, left), Line(t("line.ammo_spent", spent=spent, left=left)))
    return found


def _attack_title(actor: str, weapon: str) -> Text:
    found = _TITLES.get((actor, weapon))
    if found is None:
        found = remember(_TITLES, (actor, weapon), t("card.attack", actor=actor, weapon=weapon))
    return found


def _hits_outcome(hits: int, count: int) -> Outcome:
    found = _OUTCOMES.get((hits, count))
    if found is None:
        found = remember(
            _OUTCOMES,
            (hits, count),
            Outcome("hits", t("outcome.hits", hits=hits, dice=count), True),
        )
    return found


def _single_outcome(raise_: bool, margin: int) -> Outcome:
    found = _SINGLE.get((raise_, margin))
    if found is None:
        if raise_:
            made = Outcome("raise", t("outcome.raise", count=1), True, margin)
        else:
            made = Outcome("success", t("outcome.success"), True, margin)
        found = remember(_SINGLE, (raise_, margin), made)
    return found


def _damage_label(n: int, target: str | None) -> Text:
    found = _LABELS.get((n, target))
    if found is None:
        label = t("follow.damage_on", n=n, target=target) if target else t("follow.damage", n=n)
        found = remember(_LABELS, (n, target), label)
    return found


def _shot_line(hit: bool, n: int, total: int, tn: int, target: str | None, by_wild: bool) -> Line:
    key = (hit, n, total, tn, target, by_wild)
    found = _SHOTS.get(key)
    if found is None:
        text = t(
            "line.shot_hit" if hit else "line.shot_miss",
            n=n,
            total=total,
            tn=tn,
            target=_NEXT_IN_ORDER if target is None else target,
        )
        found = remember(_SHOTS, key, Line(text, _BY_WILD if by_wild else None))
    return found


_NEXT_IN_ORDER: Final = t("line.next_in_order")
_BY_WILD: Final = t("line.by_wild")
_EXTERMINATION: Final = Line(t("line.extermination"))
