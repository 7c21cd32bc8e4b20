"""Damage rolls and applied hits through remembered outcomes.

What a damage roll does to its victim once the damage is known (the result lines, the outcome,
whether the hit waits for a soak, the victim's new wounds and statuses) depends only on plain
values: the victim's id, name, owner, statuses, wounds and bennies, its parsed sheet, the GM's
bennies, the settings object, and the comparison (wounds, Shaken, from Shaken, margin). The
same holds for applying a pending hit (its wounds, soaked wounds, Shaken, damage and
Toughness). Those values are the key of an :data:`_OUTCOMES` entry, which the first roll with
that key fills from the whole way (:mod:`rules.savage_worlds.act_damage`,
:func:`rules.savage_worlds.act_soak.resolve_apply`, run with the very dice this roll drew), so
every later one builds its card and effects straight from it and the world's ids and
mappings. The key space is small (a victim has a few wound and Shaken states; margins span a
few dozen values): in play the same victims come back to the same states as in a benchmark.

Covered: no shared tracker running; for damage, no pending hit in the world, an attack fired
in the open (not blind), a victim standing and reached; an outcome that rolls no dice of its
own (an incapacitation rolls Vigor: never remembered, always the whole way). Everything else
goes the whole way; refusals are never remembered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource, Die
from rules.memo import forget_oldest
from rules.model import (
    Action,
    ActorChange,
    Card,
    Effect,
    FollowUp,
    Line,
    Outcome,
    Resolution,
    Section,
    Text,
    World,
    WorldChange,
    t,
)
from rules.rolls import parse_expression
from rules.savage_worlds import act_damage, act_soak
from rules.savage_worlds.act_damage import (
    _RAISE_DAMAGE,
    _VERSUS,
    _bonus_line,
    _toughness,
    pending_buttons,
)
from rules.savage_worlds.health import compare
from rules.savage_worlds.shared import remember, roll_ace, roll_aces, sheet_weapon
from rules.savage_worlds.sheet import parse_sheet
from rules.savage_worlds.state import OUT, TRACKER
from rules.savage_worlds.tables import JOKER_BONUS, RAISE

OUTCOMES_SIZE = 4096
"""Remembered outcomes (oldest dropped first); each is a few shared lines and a small change."""

Change = tuple[dict[str, Any], frozenset[str], frozenset[str]] | None
Remembered = tuple[tuple[Line, ...], Outcome | None, bool, Change, tuple[Any, ...]]
"""The lines after the damage line, the outcome, whether the hit waits, the victim's change
(state, statuses added, removed), and what the key holds alive (sheet, settings)."""

_OUTCOMES: dict[tuple[Any, ...], Remembered | None] = {}


class _Replay:
    """The dice this roll already drew, then the dice source itself."""

    __slots__ = ("dice", "faces")

    def __init__(self, faces: list[int], dice: DiceSource) -> None:
        self.faces = faces
        self.dice = dice

    def roll(self, sides: int) -> int:
        if self.faces:
            return self.faces.pop(0)
        return self.dice.roll(sides)


def _faces(dice: list[Die]) -> list[int]:
    return [face for die in dice for face in die.faces]


def _remember(key: tuple[Any, ...], value: Remembered | None) -> None:
    if key not in _OUTCOMES and len(_OUTCOMES) >= OUTCOMES_SIZE:
        forget_oldest(_OUTCOMES)
    _OUTCOMES[key] = value


def _victim_change(
    resolution: Resolution, victim: str, data_keys: tuple[str, ...]
) -> tuple[bool, Change]:
    """The victim's change among the whole way's effects; False when anything else changed
    (another actor, world data beyond ``data_keys``)."""
    change: Change = None
    keys: tuple[str, ...] = ()
    for effect in resolution.effects:
        if isinstance(effect, ActorChange):
            if effect.actor_id != victim or keys:
                return False, None
            change = (dict(effect.state), effect.add, effect.remove)
        else:
            assert isinstance(effect, WorldChange)
            keys = tuple(effect.data)
    return keys == data_keys, change


def resolve_damage(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """``damage``: as :func:`act_damage.resolve_damage`, its ending remembered by value."""
    data, actors = world.data, world.actors
    params = action.params
    if data.get(TRACKER) or data.get("pending"):
        return act_damage.resolve_damage(world, action, dice, settings)
    attack_id, index = str(params["attack"]), int(params["hit"])
    stored = data.get("attacks", {}).get(attack_id)
    if (
        stored is None
        or stored["attacker"] != action.actor_id
        or not 0 <= index < len(stored["hits"])
        or stored["hits"][index]["done"]
        or stored["blind"]
    ):
        return act_damage.resolve_damage(world, action, dice, settings)  # refused there
    attacker = actors.get(action.actor_id)
    if attacker is None:
        return act_damage.resolve_damage(world, action, dice, settings)
    sheet = parse_sheet(attacker.sheet)
    weapon = sheet_weapon(sheet, str(stored["weapon"]))
    if weapon is None:
        return act_damage.resolve_damage(world, action, dice, settings)
    hit = stored["hits"][index]
    target = hit["target"]
    if stored["mode"] == "extermination":
        target = None
        for queued in stored["queue"]:
            other = actors.get(queued)
            if other is not None and OUT.isdisjoint(other.statuses):
                target = queued
                break
    victim = None if target is None else actors.get(target)
    if victim is None or not OUT.isdisjoint(victim.statuses):
        return act_damage.resolve_damage(world, action, dice, settings)  # nobody left
    thresholds = stored["thresholds"]
    threshold = int(thresholds.get(target, thresholds[stored["queue"][0]]))
    total = int(hit["total"])
    if total < threshold:
        return act_damage.resolve_damage(world, action, dice, settings)
    raise_ = total >= threshold + RAISE
    # the damage roll, its dice drawn in the same order as the whole way
    roll = dice.roll
    bonus = 0
    thrown: list[Die] = []
    if weapon.kind == "melee":
        thrown.append(roll_ace(roll, sheet.attributes["fuerza"], "strength"))
    if weapon.damage:
        expression = parse_expression(weapon.damage, explode=True)
        thrown += roll_aces(roll, expression.sides, "damage", expression.count)
        bonus += expression.modifier
    if "joker" in attacker.statuses:
        bonus += JOKER_BONUS
    if raise_:
        thrown.append(roll_ace(roll, 6, "raise"))
    damage = sum([sum(die.faces) for die in thrown]) + bonus
    vsheet = parse_sheet(victim.sheet)
    toughness = _toughness(vsheet, weapon.ap)
    statuses = victim.statuses
    result = compare(damage, toughness, "stunned" in statuses)
    state = victim.state
    try:
        key = (
            "damage",
            target,
            victim.name,
            victim.owner,
            statuses,
            state.get("wounds", 0),
            state.get("bennies", 0),
            id(vsheet),
            data.get("gm_bennies", 0),
            id(settings),
            result.wounds,
            result.shaken,
            result.from_shaken,
            damage - toughness,
        )
        found = _OUTCOMES.get(key)
        known = found is not None or key in _OUTCOMES
    except TypeError:  # an unhashable value: the whole way
        return act_damage.resolve_damage(world, action, _Replay(_faces(thrown), dice), settings)
    if found is not None and (found[4][0] is not vsheet or found[4][1] is not settings):
        known = False
    if not known:
        resolution = act_damage.resolve_damage(
            world, action, _Replay(_faces(thrown), dice), settings
        )
        card = resolution.cards[0]
        waits = bool(card.actions)
        ok, change = _victim_change(
            resolution, target, ("attacks", "next_id", "pending") if waits else ("attacks",)
        )
        if ok and len(card.dice) == len(thrown):  # no dice of its own (no incapacitation)
            skip = 1 + raise_ + bool(bonus)
            _remember(
                key,
                (
                    card.sections[0].lines[skip:],
                    card.outcome,
                    waits,
                    change,
                    (vsheet, settings),
                ),
            )
        else:
            _remember(key, None)
        return resolution
    if found is None:  # not covered (it rolls dice of its own): the whole way
        return act_damage.resolve_damage(world, action, _Replay(_faces(thrown), dice), settings)
    tail, outcome, waits, change, _ = found
    lines: list[Line] = []
    if raise_:
        lines.append(_RAISE_DAMAGE)
    if bonus:
        lines.append(_bonus_line(bonus))
    versus = _VERSUS.get((damage, victim.name, toughness))
    if versus is None:
        versus = remember(
            _VERSUS,
            (damage, victim.name, toughness),
            Line(t("line.damage_vs", damage=damage, target=victim.name, toughness=toughness)),
        )
    lines.append(versus)
    lines += tail
    # the attack's hit is done (its own copy; the other hits and values stay shared)
    attack = {**stored, "hits": [dict(each) for each in stored["hits"]]}
    attack["hits"][index]["done"] = True
    attacks = dict(data.get("attacks", {}))
    for each in attack["hits"]:
        if not each["done"]:
            attacks[attack_id] = attack
            break
    else:
        attacks.pop(attack_id, None)
    changed: dict[str, Any] = {"attacks": attacks}
    follow: tuple[FollowUp, ...] = ()
    if waits:
        number = int(data.get("next_id", 0)) + 1
        pid = f"hit{number}"
        changed["next_id"] = number
        changed["pending"] = {
            pid: {
                "target": target,
                "attack": attack_id,
                "damage": damage,
                "toughness": toughness,
                "wounds": result.wounds,
                "shaken": result.shaken,
                "soaked": 0,
                "soak_rolls": 0,
            }
        }
        follow = pending_buttons(pid, target, result.wounds, victim.name)
    effects: tuple[Effect, ...]
    if change is None:
        effects = (WorldChange(changed),)
    else:
        effects = (ActorChange(target, dict(change[0]), change[1], change[2]), WorldChange(changed))
    return Resolution(
        action,
        (
            Card(
                "damage",
                _title("damage", attacker.name),
                action.actor_id,
                tuple(thrown),
                outcome,
                (Section(None, tuple(lines)),),
                follow,
                "public",
                target,
            ),
        ),
        effects,
    )


def _title(kind: str, name: str) -> Text:
    """``act_damage._card``'s title (the same shared record)."""
    found = act_damage._TITLES.get((kind, name))
    if found is None:
        found = remember(act_damage._TITLES, (kind, name), t(f"card.{kind}", actor=name))
    return found


def resolve_apply(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """``damage_apply``: as :func:`act_soak.resolve_apply`, its ending remembered by value."""
    data, actors = world.data, world.actors
    if data.get(TRACKER):
        return act_soak.resolve_apply(world, action, dice, settings)
    pid = str(action.params["pending"])
    pending = data.get("pending", {})
    hit = pending.get(pid)
    victim = actors.get(action.actor_id)
    if hit is None or victim is None or hit["target"] != action.actor_id:
        return act_soak.resolve_apply(world, action, dice, settings)  # refused there
    state = victim.state
    vsheet = parse_sheet(victim.sheet)
    try:
        key = (
            "apply",
            action.actor_id,
            victim.name,
            victim.owner,
            victim.statuses,
            state.get("wounds", 0),
            id(vsheet),
            id(settings),
            hit["wounds"],
            hit["soaked"],
            hit["shaken"],
            hit["damage"],
            hit["toughness"],
            *map(type, (hit["wounds"], hit["soaked"], hit["shaken"])),
            type(hit["damage"]),
            type(hit["toughness"]),
        )
        found = _OUTCOMES.get(key)
        known = found is not None or key in _OUTCOMES
    except TypeError:
        return act_soak.resolve_apply(world, action, dice, settings)
    if found is not None and (found[4][0] is not vsheet or found[4][1] is not settings):
        known = False
    if not known:
        resolution = act_soak.resolve_apply(world, action, dice, settings)
        card = resolution.cards[0]
        ok, change = _victim_change(resolution, action.actor_id, ("pending",))
        if ok and not card.dice:
            lines = card.sections[0].lines
            _remember(key, (lines, card.outcome, False, change, (vsheet, settings)))
        else:
            _remember(key, None)
        return resolution
    if found is None:
        return act_soak.resolve_apply(world, action, dice, settings)
    lines, outcome, _, change, _ = found
    left = dict(pending)
    left.pop(pid)
    world_change = WorldChange({"pending": left})
    effects: tuple[Effect, ...]
    if change is None:
        effects = (world_change,)
    else:
        effects = (
            ActorChange(action.actor_id, dict(change[0]), change[1], change[2]),
            world_change,
        )
    return Resolution(
        action,
        (
            Card(
                "damage_apply",
                act_soak._apply_title(victim.name),
                action.actor_id,
                (),
                outcome,
                (Section(None, lines),),
                (),
                "public",
                action.actor_id,
            ),
        ),
        effects,
    )
