"""The rule-system plugin interface.

A system is an object with an id, names, the actions it offers (declared as
data), world settings with defaults, a message catalogue, and pure functions:

- ``validate_sheet``: a raw actor sheet in, the normalized sheet out, or a RulesError;
- ``initial_state``: the per-actor state a new actor starts with (hit points, ammo...);
- ``buttons``: what a sheet shows an actor can do; a function of the actor, the world's
  settings and the world's data only (never its other actors, name or id, a clock or
  dice), so the bridge may remember the rendered buttons while those three are unchanged;
- ``resolve``: ``(world, action, dice) -> Resolution``;
- ``apply``: ``(world, resolution) -> world`` (by default, the resolution's effects);
- ``set_status``: what a GM's status change does to an actor (by default, just that);
- ``advance_time``: timed rules (bleeding, healing) when rounds, minutes or days pass.

The bridge knows nothing else about a system.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.dice import DiceSource
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Effect,
    JsonMap,
    Resolution,
    RulesError,
    Text,
    TimeStep,
    World,
    t,
)
from rules.params import Param, check_params, validate_params
from rules.system_core import apply_effects as apply_effects  # compiled; given here too
from rules.system_core import check_remembered
from rules.system_core import sets_nothing_new as sets_nothing_new
from rules.tracker import Combat, Initiative, Slot, default_initiative


@dataclass(frozen=True)
class ActionSpec:
    """An action a system offers: the client event that carries it, its parameters and targets."""

    kind: str
    event: str
    label: Text
    params: tuple[Param, ...] = ()
    gm_only: bool = False
    min_targets: int = 0
    max_targets: int = 0


@dataclass(frozen=True)
class Button:
    """A sheet button: pressing it sends ``event`` with ``action`` and ``params``.

    ``ask`` lists parameters a front end should ask for before sending (a
    difficulty, a range); ``targets`` says how many targets to pick.
    """

    label: Text
    event: str
    action: str
    params: JsonMap
    group: Text | None = None
    ask: tuple[Param, ...] = ()
    min_targets: int = 0
    max_targets: int = 0
    gm_only: bool = False


CHECKED_ACTIONS_SIZE = 4096
"""How many checked actions ``RuleSystem.check_action`` remembers (oldest dropped first)."""

_CHECKED_ACTIONS: dict[tuple[Any, ...], tuple[RuleSystem, Action]] = {}


class RuleSystem(ABC):
    id: ClassVar[str]
    names: ClassVar[Mapping[str, str]]
    actions: ClassVar[Mapping[str, ActionSpec]]
    settings: ClassVar[tuple[Param, ...]] = ()
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    # -- sheets -----------------------------------------------------------
    @abstractmethod
    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        """Check a raw sheet; return it normalized. Raise RulesError naming the bad field."""

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        return {}

    def validate_state(self, sheet: JsonMap, raw: JsonMap) -> JsonMap:
        """A GM-supplied state for an actor, merged over the initial state."""
        return {**self.initial_state(sheet), **raw}

    @abstractmethod
    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        """The buttons ``actor``'s sheet shows.

        Promise: the result depends only on ``actor``, ``world.settings`` and
        ``world.data`` (and the system's own constants); not on ``world.data`` at all
        when :attr:`buttons_read_data` is False. The bridge remembers an actor's
        rendered view keyed by those three (two) and re-renders only when one of them
        changes; reading other actors, the world's name or id, a clock or dice here
        would show stale buttons.
        """

    buttons_read_data: bool = True
    """Whether :meth:`buttons` reads ``world.data``. A system whose buttons never do says
    False, and an actor's rendered view is then kept while the world's data changes (a
    pending hit, the initiative deck, a counter): otherwise every such change renders
    every actor's view again."""

    def sample_actors(self) -> tuple[Actor, ...]:
        """Characters for a demo world."""
        return ()

    def token_numbers(self, actor: Actor) -> Mapping[str, int]:
        """The numbers a token shows (wounds, hit points, ammo), for status pushes."""
        return {}

    def status_label(self, status: str) -> Text:
        return t(f"status.{status}")

    # -- settings -----------------------------------------------------------
    def default_settings(self) -> dict[str, Any]:
        return {param.name: param.default for param in self.settings}

    def validate_settings(self, raw: JsonMap) -> dict[str, Any]:
        return {**self.default_settings(), **validate_params(self.settings, raw, "settings")}

    # -- actions --------------------------------------------------------------
    def action_spec(self, kind: str) -> ActionSpec:
        try:
            return self.actions[kind]
        except KeyError:
            raise RulesError(
                "unknown_action", t("error.unknown_action", action=kind[:100]), "action"
            ) from None

    def check_action(self, world: World, action: Action) -> Action:
        """Validate parameters and targets against the action's declaration.

        The checked action's ``params`` is a read-only :class:`rules.params.CheckedParams`
        shared by every request with the same values (``dict(params)`` to change a copy).
        A request equal to one already checked (same system, kind, actor, targets, GM or
        not, user, parameter values and their types) gets the same checked action back (a
        frozen value), its targets looked up again in this world; refusals are worked out
        each time.
        """
        # The look-up, its key and the targets' check are compiled
        # (rules.system_core.check_remembered); the table and bound are read here each call.
        return check_remembered(self, world, action, _CHECKED_ACTIONS, CHECKED_ACTIONS_SIZE)

    def _check_action(self, world: World, action: Action) -> Action:
        spec = self.actions.get(action.kind)
        if spec is None:
            spec = self.action_spec(action.kind)  # raises unknown_action
        params = check_params(spec.params, action.params)  # shared, read-only
        targets = action.targets
        if targets or spec.min_targets:
            if not spec.min_targets <= len(targets) <= spec.max_targets:
                raise RulesError(
                    "invalid_targets",
                    t("error.targets", minimum=spec.min_targets, maximum=spec.max_targets),
                    "targets",
                )
            for index, target in enumerate(targets):
                world.actor(target, f"targets.{index}")
        return Action(action.kind, action.actor_id, params, targets, action.by_gm, action.user)

    @abstractmethod
    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution: ...

    def apply(self, world: World, resolution: Resolution) -> World:
        return apply_effects(world, resolution.effects)

    def set_status(
        self, world: World, actor_id: str, add: frozenset[str], remove: frozenset[str]
    ) -> tuple[Effect, ...]:
        return (ActorChange(actor_id, add=add, remove=remove),)

    def advance_time(self, world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
        return None

    # -- combat tracker hooks (rules.tracker calls these) ----------------------------------
    initiative_each_round: ClassVar[bool] = True
    """Whether initiative is rolled (dealt, ordered) again every round."""

    def combat_initiative(self, world: World, combat: Combat, dice: DiceSource) -> Initiative:
        """The order of this round (``combat.round``), its cards and the system's data."""
        return default_initiative(combat)

    def combat_round_start(
        self, world: World, combat: Combat, dice: DiceSource
    ) -> Resolution | None:
        """Before initiative: what happens as a round begins (Bleeding Out before the deal)."""
        return None

    def combat_turn_start(
        self, world: World, combat: Combat, slot: Slot, dice: DiceSource
    ) -> Resolution | None:
        """When ``slot``'s actors get their turn (a Shaken recovery roll)."""
        return None

    def combat_round_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        """When a round is over: by default one round of time passes."""
        return self.advance_time(world, TimeStep("round"), dice)

    def combat_declare(
        self, world: World, combat: Combat, actor_id: str, params: JsonMap, dice: DiceSource
    ) -> Resolution | None:
        """Check (and record the effects of) a declaration made before the round's actions."""
        return None

    def combat_interrupt(
        self, world: World, combat: Combat, actor_id: str, dice: DiceSource
    ) -> Resolution | None:
        """A held actor interrupts (an opposed roll where the system wants one)."""
        return None

    def combat_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return None
