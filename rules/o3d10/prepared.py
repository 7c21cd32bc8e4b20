"""Prepared checks: the part of an attribute or skill roll that does not depend on the dice,
worked out once and remembered.

A roll of the same actor object, under the same settings object, with the same checked
parameters (the read-only :class:`rules.params.CheckedParams` that ``check_action`` shares
between requests with equal values), the same kind, GM or not, and the same answer to 'is a
combat running' needs the
same validation, skill value, circumstances, kept rank, difficulty, card title and constant
card lines every time; only the three dice differ. A :class:`PreparedCheck` holds all of it,
so a roll draws its three dice, looks the throw up among the 1,000 finished throws of its
rank (shared frozen records, :func:`rules.rolls.keep_throws`), looks the card's lines and
outcome up by what the throw decides (the kept face, and whether a natural 1 is a fumble)
and builds its card and resolution. A kept 10 (explosion) goes the whole way each time.

Never stale: actors, settings, sheets and checked parameters are immutable (every change
makes a new object), an entry is found only for the very same actor, parameters and
settings objects (it holds them, so their ids are not reused), and the world data a roll reads (whether a combat runs) is part
of the key. Refusals are never remembered: they are worked out again each time. Rolls the
cache does not cover (targets: an opposed roll; spells, which spend a combat action;
parameters that did not come from ``check_action``) go
through :func:`rules.o3d10.roll_actions.resolve_check` as before.

The result is the same record for record as that function's (the tests compare both on
every throw), dice are drawn in the same order, and every card is built anew per roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import DiceSource
from rules.memo import forget_oldest
from rules.model import Action, Actor, ActorChange, Card, Outcome, Resolution, Section, Text, World
from rules.o3d10.cards import outcome_of
from rules.o3d10.context import require_able
from rules.o3d10.initiative import COMBAT_KEY
from rules.o3d10.roll_actions import (
    Plan,
    checked,
    difficulty_of,
    plan_what,
    resolve_check,
    roll_lines,
    what_of,
)
from rules.o3d10.sheet import Sheet
from rules.o3d10.tables import FUMBLE_ABOVE_MAX
from rules.params import CheckedParams
from rules.rolls import KeepRoll, Rank, keep_throws, roll_kept_ten

Shown = tuple[tuple[Section, ...], Outcome]
"""A card's sections and outcome."""

Throws = Mapping[tuple[int, int, int], tuple[KeepRoll, int] | None]

_THROWS: dict[Rank, Throws] = {}

PREPARED_SIZE = 2048
"""How many prepared checks are remembered (oldest dropped first); each holds at most 20
shown variants."""

_PREPARED: dict[tuple[Any, ...], PreparedCheck] = {}


def _throws(rank: Rank) -> Throws:
    """Each first throw at ``rank``: its finished roll and what it decides for a card (the kept
    face and whether a natural 1 fumbles), or None when a kept 10 goes on."""
    table = _THROWS.get(rank)
    if table is None:
        table = {
            faces: None
            if roll is None
            else (
                roll,
                roll.kept_faces[0] * 2
                + (roll.kept_faces[0] == 1 and roll.above <= FUMBLE_ABOVE_MAX),
            )
            for faces, roll in keep_throws(rank).items()
        }
        _THROWS[rank] = table
    return table


class PreparedCheck:
    """One remembered attribute or skill roll (see the module's text)."""

    __slots__ = (
        "actor",
        "kind",
        "params",
        "plan",
        "settings",
        "sheet",
        "shown",
        "speaker",
        "state",
        "throws",
        "title",
        "what",
    )

    def __init__(
        self,
        actor: Actor,
        params: CheckedParams,
        settings: Mapping[str, Any],
        sheet: Sheet,
        what: Any,
        plan: Plan,
        kind: str,
        title: Text,
    ) -> None:
        self.actor = actor
        self.params = params
        self.settings = settings
        self.sheet = sheet
        self.what = what
        self.plan = plan
        self.kind = kind
        self.title = title
        self.speaker = actor.id
        self.state = plan.state
        self.throws = _throws(plan.rank)
        self.shown: dict[int, Shown] = {}

    def show(self, roll: KeepRoll) -> Shown:
        """The sections and outcome of the card of ``roll`` (worked out in full)."""
        rolled = checked(self.plan, roll)
        sections = (Section(None, roll_lines(self.sheet, self.what, rolled)),)
        return sections, outcome_of(rolled.result)


def prepare(
    world: World, actor: Actor, action: Action, params: CheckedParams
) -> PreparedCheck | None:
    """Work out a roll's dice-free part (``params`` are the action's), refusing exactly as
    :func:`resolve_check` would; None for a roll this module does not cover (a spell)."""
    sheet = require_able(world, actor)
    what = what_of(actor, sheet, action.kind, str(params[action.kind]), f"params.{action.kind}")
    if params.get("ambush"):
        return None  # refused by resolve_check (an ambush needs a target)
    difficulty = difficulty_of(what.kind, params)
    if what.kind == "skill" and sheet.skills[what.key].spell:
        return None
    plan = plan_what(world, actor, sheet, what, params, difficulty, action.by_gm)
    return PreparedCheck(
        actor, params, world.settings, sheet, what, plan, action.kind, what.title(sheet)
    )


def resolve_prepared_check(world: World, action: Action, dice: DiceSource) -> Resolution:
    """``attribute`` / ``skill``: as :func:`resolve_check`, through a prepared check when one
    applies (the action as ``check_action`` returns it, without targets)."""
    params = action.params
    actor = world.actors.get(action.actor_id)
    if type(params) is not CheckedParams or actor is None or action.targets:
        return resolve_check(world, action, dice)  # not checked, an unknown actor, opposed
    combat = world.data.get(COMBAT_KEY)
    fighting = combat is not None and (
        isinstance(combat, Mapping) and bool(combat.get("active", False))
    )
    key = (id(params), id(actor), action.kind, action.by_gm, fighting)
    prepared = _PREPARED.get(key)
    if (
        prepared is None
        or prepared.params is not params
        or prepared.actor is not actor
        or prepared.settings is not world.settings
    ):
        prepared = prepare(world, actor, action, params)
        if prepared is None:
            return resolve_check(world, action, dice)
        if key not in _PREPARED and len(_PREPARED) >= PREPARED_SIZE:
            forget_oldest(_PREPARED)
        _PREPARED[key] = prepared
    # The dice: one throw looked up among the 1,000 of the rank (PreparedCheck.resolve, inlined).
    roll = dice.roll
    faces = (roll(10), roll(10), roll(10))
    hit = prepared.throws[faces]
    if hit is None:  # a kept 10: it adds and throws again
        keep = roll_kept_ten(dice, prepared.plan.rank, faces)
        sections, outcome = prepared.show(keep)
    else:
        keep, variant = hit
        shown = prepared.shown.get(variant)
        if shown is None:
            shown = prepared.shown[variant] = prepared.show(keep)
        sections, outcome = shown
    card = Card(
        prepared.kind,
        prepared.title,
        prepared.speaker,
        keep.dice,
        outcome,
        sections,
        (),
        "public",
        None,
    )
    state = prepared.state
    if state:
        return Resolution(action, (card,), (ActorChange(prepared.speaker, dict(state)),))
    return Resolution(action, (card,), ())
