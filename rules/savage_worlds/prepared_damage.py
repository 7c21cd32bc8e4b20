"""Damage rolls and applied hits: plans and remembered outcomes.

A damage roll has a dice-free part that depends only on who fires what at whom: the dice
(strength die, damage dice, raise die), the bonus, the victim's Toughness against the
weapon's AP, the card's title. A :class:`DamagePlan` holds it per (attacker id, name and
parsed sheet, weapon, Joker, raise, victim id, name and parsed sheet, settings object), with
the head lines (raise, bonus, damage against Toughness) per damage total.

What the hit then does to its victim (the result lines, whether the hit waits for a soak, the
victim's new wounds and statuses) depends only on plain values: the victim's id, name, owner,
statuses, wounds and bennies, its sheet's Wild Card and side, the GM's bennies, the settings object, and
the comparison's result (wounds, Shaken, from Shaken). Those values key an :data:`_OUTCOMES`
entry shared by every attacker; the first roll with that key fills it from the whole way
(:func:`rules.savage_worlds.act_damage.resolve_damage` run with the very dice this roll drew),
and every later one builds its card and effects from it and the world's ids and mappings.
Applying a pending hit (:func:`rules.savage_worlds.act_soak.resolve_apply`) is remembered
the same way (its lines after the one naming the damage and Toughness), keyed by the
victim's values and the hit's wounds, soaked wounds and Shaken.

Key spaces are small (a victim has a few wound and Shaken states; a result is no effect,
Shaken, or one to a few wounds): in play the same victims come back to the same states, as in
a benchmark. A key holds nothing but plain values and the identity of sheets and settings the
entry holds (so their ids are never reused while it lives); a change of any value the outcome
depends on is a new key.

Covered: no shared tracker running; for damage, no pending hit in the world, an attack fired
in the open (not blind), a victim standing and reached; an outcome that rolls no dice of its
own (an incapacitation rolls Vigor: never remembered, always the whole way). Everything else
goes the whole way; refusals are never remembered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.dice import DiceSource, Die
from rules.memo import forget_oldest
from rules.model import (
    Action,
    Actor,
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
from rules.savage_worlds import act_damage, act_soak, prepared_incap
from rules.savage_worlds.act_damage import (
    _RAISE_DAMAGE,
    _VERSUS,
    _bonus_line,
    _outcome,
    _toughness,
    pending_buttons,
)
from rules.savage_worlds.shared import (
    SHEET_TABLE_SIZE,
    faces_total,
    line,
    remember,
    roll_ace,
    roll_aces,
    sheet_weapon,
)
from rules.savage_worlds.sheet import Sheet, Weapon, parse_sheet
from rules.savage_worlds.state import OUT, TRACKER, holds_any
from rules.savage_worlds.tables import JOKER_BONUS, RAISE

OUTCOMES_SIZE: Final = 2048
"""Remembered outcomes (oldest dropped first); each is a few shared lines and a small change."""

Change = ActorChange | None
Shown = dict[tuple[Any, ...], tuple[Card, ...]]
Remembered = tuple[tuple[Line, ...], Outcome | None, bool, Change, Mapping[str, Any], Shown]
"""The lines after the line naming the damage, the outcome, whether the hit waits, the
victim's change (the whole way's own record: the victim is part of the key; ``apply`` copies
what it sets), the settings object the key names by identity (held, so its id is not reused),
and, for an applied hit, its cards per damage and Toughness shown (a frozen card is the same
value for every hit with those numbers: shared, at most :data:`SHOWN_SIZE`)."""

_OUTCOMES: Final[dict[tuple[Any, ...], Remembered | None]] = {}


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
            change = effect
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
    if (
        type(data) is not dict  # plain dicts (dict calls) only
        or type(actors) is not dict
        or data.get(TRACKER)
        or data.get("pending")
    ):
        return act_damage.resolve_damage(world, action, dice, settings)
    attack_id, index = str(params["attack"]), int(params["hit"])
    attacks = data.get("attacks")
    if type(attacks) is not dict:
        return act_damage.resolve_damage(world, action, dice, settings)  # refused there
    stored = attacks.get(attack_id)
    if (
        type(stored) is not dict
        or stored["attacker"] != action.actor_id
        or not 0 <= index < len(stored["hits"])
        or stored["hits"][index]["done"]
        or stored["blind"]
    ):
        return act_damage.resolve_damage(world, action, dice, settings)  # refused there
    attacker: Actor | None = actors.get(action.actor_id)  # typed: native reads
    if attacker is None:
        return act_damage.resolve_damage(world, action, dice, settings)
    sheet = parse_sheet(attacker.sheet)
    weapon = sheet_weapon(sheet, str(stored["weapon"]))
    if weapon is None:
        return act_damage.resolve_damage(world, action, dice, settings)
    hit = stored["hits"][index]
    target = act_damage.hit_target(stored, hit, actors)
    victim: Actor | None = None if target is None else actors.get(target)
    if target is None or victim is None or holds_any(victim.statuses, OUT):
        return act_damage.resolve_damage(world, action, dice, settings)  # nobody left
    thresholds = stored["thresholds"]
    threshold = int(thresholds.get(target, thresholds[stored["queue"][0]]))
    total = int(hit["total"])
    if total < threshold:
        return act_damage.resolve_damage(world, action, dice, settings)
    raise_ = total >= threshold + RAISE
    vsheet = parse_sheet(victim.sheet)
    try:  # the dice-free part: who fires what at whom (not the victim's state)
        key = (
            action.actor_id,
            attacker.name,
            id(sheet),
            stored["weapon"],
            "joker" in attacker.statuses,
            raise_,
            target,
            victim.name,
            id(vsheet),
            id(settings),
        )
        plan = _DAMAGE.get(key)
    except TypeError:  # an unhashable value: the whole way
        return act_damage.resolve_damage(world, action, dice, settings)
    if (
        plan is None
        or plan.sheet is not sheet
        or plan.victim_sheet is not vsheet
        or plan.settings is not settings
    ):
        plan = _damage_plan(sheet, weapon, attacker.statuses, attacker.name, vsheet, settings)
        if key not in _DAMAGE and len(_DAMAGE) >= PLANS_SIZE:
            forget_oldest(_DAMAGE)
        _DAMAGE[key] = plan
    # the damage roll, its dice drawn in the same order as the whole way
    roll = dice.roll
    thrown: list[Die] = []
    if plan.strength:
        thrown.append(roll_ace(roll, plan.strength, "strength"))
    if plan.count:
        thrown += roll_aces(roll, plan.sides, "damage", plan.count)
    if raise_:
        thrown.append(roll_ace(roll, 6, "raise"))
    damage = plan.bonus
    for die in thrown:
        damage += faces_total(die)
    toughness = plan.toughness
    head = plan.heads.get(damage)
    if head is None:
        head = _head(plan, raise_, damage, victim.name)
    # the comparison (health.compare, inline)
    margin = damage - toughness
    statuses = victim.statuses
    if margin < 0:
        wounds, shaken, from_shaken = 0, False, False
    elif margin >= RAISE:
        wounds, shaken, from_shaken = margin // RAISE, True, False
    elif "stunned" in statuses:
        wounds, shaken, from_shaken = 1, True, True
    else:
        wounds, shaken, from_shaken = 0, True, False
    # what the hit does to the victim: its state and the result (shared by every attacker)
    state = victim.state
    outcome_key = (
        target,
        victim.name,
        victim.owner,
        statuses,
        state.get("wounds", 0),
        state.get("bennies", 0),
        vsheet.wild_card,
        vsheet.side,
        data.get("gm_bennies", 0),
        id(settings),
        wounds,
        shaken,
        from_shaken,
    )
    try:
        found = _OUTCOMES.get(outcome_key)
        known = found is not None or outcome_key in _OUTCOMES
    except TypeError:  # an unhashable value: the whole way, never remembered
        found, known = None, True
    if found is not None and found[4] is not settings:
        known = False
    if not known:
        resolution = act_damage.resolve_damage(
            world, action, _Replay(_faces(thrown), dice), settings
        )
        _remember(outcome_key, _tail(resolution, target, len(thrown), len(head), settings))
        return resolution
    if found is None:  # not covered (it rolls dice of its own): the whole way
        return act_damage.resolve_damage(world, action, _Replay(_faces(thrown), dice), settings)
    tail, _, waits, change, _, _ = found
    section = _section(plan, damage, head, tail)
    outcome = _outcome(wounds, shaken, margin)
    # the attack's hit is done: a new mapping for it, its attack and the hit list; the other
    # hits and values stay shared (world data is never changed in place: the whole way
    # changes its own deep copy)
    hits = list(stored["hits"])
    hits[index] = {**hits[index], "done": True}
    attack = {**stored, "hits": hits}
    attacks = dict(attacks)
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
                "wounds": wounds,
                "shaken": shaken,
                "soaked": 0,
                "soak_rolls": 0,
            }
        }
        follow = pending_buttons(pid, target, wounds, victim.name)
    effects: tuple[Effect, ...]
    effects = (WorldChange(changed),) if change is None else (change, WorldChange(changed))
    return Resolution(
        action,
        (
            Card(
                "damage",
                plan.title,
                action.actor_id,
                tuple(thrown),
                outcome,
                section,
                follow,
                "public",
                target,
            ),
        ),
        effects,
    )


def _section(
    plan: DamagePlan, damage: int, head: tuple[Line, ...], tail: tuple[Line, ...]
) -> tuple[Section, ...]:
    """A damage card's sections: its head lines (per damage total) and a remembered outcome's
    tail, one shared frozen record per plan, damage total and tail (held, so its identity
    is not reused while the entry lives)."""
    sections = plan.sections
    found = sections.get((damage, id(tail)))
    if found is not None and found[0] is tail:
        return found[1]
    if len(sections) >= SECTIONS_SIZE:
        sections.clear()
    made = (Section(None, head + tail),)
    sections[(damage, id(tail))] = (tail, made)
    return made


PLANS_SIZE: Final = SHEET_TABLE_SIZE
"""Damage plans remembered (oldest dropped first); each holds two sheets and at most
:data:`SHOWN_SIZE` outcomes."""
SHOWN_SIZE: Final = 64
"""Head lines a damage plan remembers (raise, bonus and damage lines, one per damage total;
it starts again when full); also the cards an applied hit's outcome remembers."""
SECTIONS_SIZE: Final = 256
"""Card sections a damage plan remembers (damage total x remembered outcome; it starts again
when full)."""


class DamagePlan:
    """The dice-free part of one damage roll (see the module's text)."""

    __slots__ = (
        "bonus",
        "count",
        "heads",
        "sections",
        "settings",
        "sheet",
        "sides",
        "strength",
        "title",
        "toughness",
        "victim_sheet",
    )

    def __init__(
        self,
        sheet: Sheet,
        victim_sheet: Sheet,
        settings: Mapping[str, Any],
        strength: int,
        count: int,
        sides: int,
        bonus: int,
        toughness: int,
        title: Text,
    ) -> None:
        self.sheet = sheet
        self.victim_sheet = victim_sheet
        self.settings = settings
        self.strength = strength
        self.count = count
        self.sides = sides
        self.bonus = bonus
        self.toughness = toughness
        self.title = title
        self.heads: dict[int, tuple[Line, ...]] = {}
        self.sections: dict[tuple[int, int], tuple[tuple[Line, ...], tuple[Section, ...]]] = {}


_DAMAGE: Final[dict[tuple[Any, ...], DamagePlan]] = {}


def _damage_plan(
    sheet: Sheet,
    weapon: Weapon,
    statuses: frozenset[str],
    name: str,
    victim_sheet: Sheet,
    settings: Mapping[str, Any],
) -> DamagePlan:
    count = sides = bonus = 0
    if weapon.damage:
        expression = parse_expression(weapon.damage, explode=True)
        count, sides, bonus = expression.count, expression.sides, expression.modifier
    if "joker" in statuses:
        bonus += JOKER_BONUS
    return DamagePlan(
        sheet,
        victim_sheet,
        settings,
        sheet.attributes["fuerza"] if weapon.kind == "melee" else 0,
        count,
        sides,
        bonus,
        _toughness(victim_sheet, weapon.ap),
        _title("damage", name),
    )


def _tail(
    resolution: Resolution,
    target: str,
    thrown: int,
    skip: int,
    settings: Mapping[str, Any],
) -> Remembered | None:
    """What a damage card of the whole way shows after its damage line, to build the next ones
    with the same victim and margin; None when it rolled dice of its own (an incapacitation)
    or changed more than expected."""
    card = resolution.cards[0]
    waits = bool(card.actions)
    ok, change = _victim_change(
        resolution, target, ("attacks", "next_id", "pending") if waits else ("attacks",)
    )
    if not ok or len(card.dice) != thrown:
        return None
    return (card.sections[0].lines[skip:], card.outcome, waits, change, settings, {})


def _head(plan: DamagePlan, raise_: bool, damage: int, name: str) -> tuple[Line, ...]:
    """The damage card's lines before the result: the raise, the bonus, the damage against
    Toughness (shared records), remembered per plan and damage total."""
    head: list[Line] = []
    if raise_:
        head.append(_RAISE_DAMAGE)
    if plan.bonus:
        head.append(_bonus_line(plan.bonus))
    versus = _VERSUS.get((damage, name, plan.toughness))
    if versus is None:
        versus = remember(
            _VERSUS,
            (damage, name, plan.toughness),
            Line(t("line.damage_vs", damage=damage, target=name, toughness=plan.toughness)),
        )
    head.append(versus)
    heads = plan.heads
    if len(heads) >= SHOWN_SIZE:
        heads.clear()
    made = heads[damage] = tuple(head)
    return made


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
    if type(data) is not dict or type(actors) is not dict or data.get(TRACKER):
        return act_soak.resolve_apply(world, action, dice, settings)
    pid = str(action.params["pending"])
    pending = data.get("pending")
    if type(pending) is not dict:
        return act_soak.resolve_apply(world, action, dice, settings)  # refused there
    hit = pending.get(pid)
    victim: Actor | None = actors.get(action.actor_id)  # typed: native reads
    if type(hit) is not dict or victim is None or hit["target"] != action.actor_id:
        return act_soak.resolve_apply(world, action, dice, settings)  # refused there
    state = victim.state
    vsheet = parse_sheet(victim.sheet)
    taken = max(0, int(hit["wounds"]) - int(hit["soaked"]))
    if prepared_incap.covers(vsheet, state, taken):  # its dice decide: worked out each time
        left = dict(pending)
        left.pop(pid)
        return prepared_incap.apply_incapacitating(
            action, victim, vsheet, hit, taken, left, dice, settings
        )
    try:
        key = (
            "apply",
            action.actor_id,
            victim.name,
            victim.owner,
            victim.statuses,
            state.get("wounds", 0),
            vsheet.wild_card,
            vsheet.side,
            id(settings),
            hit["wounds"],
            hit["soaked"],
            hit["shaken"],
            *map(type, (hit["wounds"], hit["soaked"], hit["shaken"])),
        )
        found = _OUTCOMES.get(key)
        known = found is not None or key in _OUTCOMES
    except TypeError:
        return act_soak.resolve_apply(world, action, dice, settings)
    if found is not None and found[4] is not settings:
        known = False
    if not known:
        resolution = act_soak.resolve_apply(world, action, dice, settings)
        card = resolution.cards[0]
        ok, change = _victim_change(resolution, action.actor_id, ("pending",))
        if ok and not card.dice:
            tail = card.sections[0].lines[1:]  # after the line of the damage applied
            _remember(key, (tail, card.outcome, False, change, settings, {}))
        else:
            _remember(key, None)
        return resolution
    if found is None:
        return act_soak.resolve_apply(world, action, dice, settings)
    tail, outcome, _, change, _, shown = found
    damage, toughness = hit["damage"], hit["toughness"]
    numbers = (damage, toughness, type(damage), type(toughness))  # 1 and True stay apart
    cards = shown.get(numbers)
    if cards is None:
        lines = (line("line.applying", damage=damage, toughness=toughness), *tail)
        cards = (
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
        )
        if len(shown) >= SHOWN_SIZE:
            shown.clear()
        shown[numbers] = cards
    left = dict(pending)
    left.pop(pid)
    world_change = WorldChange({"pending": left})
    effects: tuple[Effect, ...]
    effects = (world_change,) if change is None else (change, world_change)
    return Resolution(action, cards, effects)
