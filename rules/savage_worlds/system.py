"""The Savage Worlds rule system (seed 004_bafd3d4b8a0f1c8d.txt), with this table's house rules
and the ``xcom`` variant. The bridge sees only this class; each action lives in an ``act_*`` module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

from rules.dice import DiceError, DiceSource
from rules.memo import remember_by_identity
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
from rules.params import CheckedParams, Param, validate_params
from rules.savage_worlds import (
    act_gear,
    act_heal,
    act_rounds,
    act_soak,
    act_turn,
    prepared_attack,
    prepared_damage,
    tracker_hooks,
    xcom,
)
from rules.savage_worlds.actions import ACTIONS, ATTACK_PARAMS, TRAIT_PARAMS
from rules.savage_worlds.buttons import sheet_buttons
from rules.savage_worlds.messages import MESSAGES
from rules.savage_worlds.samples import sample_actors
from rules.savage_worlds.shared import remember
from rules.savage_worlds.sheet import parse_sheet, sheet_to_json
from rules.savage_worlds.state import initial_state
from rules.savage_worlds.tables import INJURY_KEYS, parse_injury_table
from rules.system import ActionSpec, Button, RuleSystem
from rules.system_core import apply_effects
from rules.tracker import Combat, Initiative, Slot

Handler = Callable[[World, Action, DiceSource, Mapping[str, Any]], Resolution]

HANDLERS: Final[dict[str, Handler]] = {
    "trait": act_turn.resolve_trait,
    "declare": act_turn.resolve_declare,
    "free": act_turn.resolve_free,
    "start_turn": act_turn.resolve_start_turn,
    "unshake": act_turn.resolve_unshake,
    "hold": act_turn.resolve_hold,
    "interrupt": act_turn.resolve_interrupt,
    "benny": act_turn.resolve_benny,
    "attack": prepared_attack.resolve_attack,
    "damage": prepared_damage.resolve_damage,
    "soak": act_soak.resolve_soak,
    "damage_apply": prepared_damage.resolve_apply,
    "hurt": act_soak.resolve_hurt,
    "reload": act_gear.resolve_reload,
    "ready": act_gear.resolve_ready,
    "bipod": act_gear.resolve_bipod,
    "stabilise": act_gear.resolve_stabilise,
    "gm_heal": act_gear.resolve_gm_heal,
    "treat": act_heal.resolve_treat,
    "combat_start": act_rounds.resolve_combat_start,
    "next_round": act_rounds.resolve_next_round,
    "combat_end": act_rounds.resolve_combat_end,
    "overwatch": xcom.resolve_overwatch,
    "overwatch_fire": xcom.resolve_overwatch_fire,
    "xcom_act": xcom.resolve_act,
    "xcom_rescue": xcom.resolve_rescue,
    "xcom_aliens": xcom.resolve_aliens_turn,
    "xcom_end_turn": xcom.resolve_end_turn,
    "xcom_detect": xcom.resolve_detect,
    "xcom_contact": xcom.resolve_contact,
}

SETTINGS: Final[tuple[Param, ...]] = (
    Param("variant", "choice", t("setting.variant"), default="core", choices=("core", "xcom")),
    Param(
        "unskilled", "choice", t("setting.unskilled"), default="d4-2", choices=("d4-2", "refuse")
    ),
    Param("critical_failure", "bool", t("setting.critical_failure"), default=True),
    Param(
        "initiative",
        "choice",
        t("setting.initiative"),
        default="individual",
        choices=("individual", "per_side"),
    ),
    Param(
        "autofire",
        "choice",
        t("setting.autofire"),
        default="extermination",
        choices=("extermination", "assigned"),
    ),
    Param("track_actions", "bool", t("setting.track_actions"), default=True),
    Param("auto_apply", "bool", t("setting.auto_apply"), default=True),
    Param("extras_soak", "bool", t("setting.extras_soak"), default=False),
    Param("healing_rolls", "bool", t("setting.healing_rolls"), default=True),
    Param("injury_table", "str", t("setting.injury_table"), default="", max_length=200),
)


_MERGED: Final[dict[int, tuple[Any, Mapping[str, Any]]]] = {}
"""Merged settings by the identity of the world's settings (held): ``by_identity``'s rule."""


def _with_defaults(settings: JsonMap) -> Mapping[str, Any]:
    """A world's settings over the defaults, merged once per settings object (read only;
    :func:`rules.memo.by_identity`'s memo written out, so compiled callers call it natively)."""
    hit = _MERGED.get(id(settings))
    if hit is not None and hit[0] is settings:
        return hit[1]
    merged = MappingProxyType({**{param.name: param.default for param in SETTINGS}, **settings})
    return remember_by_identity(_MERGED, settings, merged, 256)


REMEMBERED_CHECKS: Final = frozenset({"attack", "trait"})
"""Actions whose validated parameters are remembered by value: their parameters are a sheet's
choices (a weapon, a rate of fire, a trait, the situation), which a table sends again and
again. Follow-ups (damage, soak, damage_apply) carry a new attack or hit id each time, so
remembering them would only serve a benchmark that starts from the same world."""
_CHECKED: Final[dict[tuple[Any, ...], Action]] = {}
"""Checked actions of :data:`REMEMBERED_CHECKS` by kind, actor, targets, GM or not, user and
parameter values and types."""
_PARAMS: Final[dict[tuple[Any, ...], CheckedParams]] = {}
"""Their checked parameters by kind and parameter values and types: one shared object for
every actor and target pressing the same sheet button (a plan's key holds its identity)."""


def _known_targets(world: World, targets: tuple[str, ...]) -> None:
    """Refuse a target this world does not hold (``unknown_actor``, field ``targets.N``)."""
    actors = world.actors
    for index, target in enumerate(targets):
        if target not in actors:
            world.actor(target, f"targets.{index}")  # refused there


def _as_is(rows: tuple[tuple[Any, ...], ...], raw: JsonMap) -> bool:
    """Whether ``raw`` already is what :func:`_quick` would make of it, in one pass and
    without building it: a plain dict holding every declared parameter in the declared order
    (so nothing to fill in), each a plain value :func:`_quick` accepts as it is."""
    if type(raw) is not dict or len(raw) != len(rows):
        return False
    for index, name in enumerate(raw):  # (not zip(strict=True): a generic call under mypyc)
        row = rows[index]
        if name != row[0]:
            return False
        value = raw[name]
        cls = type(value)
        kind = row[1]
        if kind == "int":
            if cls is not int or not row[4] <= value <= row[5]:
                return False
        elif kind == "str":
            if cls is not str or len(value) > row[7]:
                return False
        elif kind == "bool":
            if cls is not bool:
                return False
        elif kind == "choice":
            if cls is not str or value not in row[6]:
                return False
        elif value is None:
            return False
    return True


Compiled = tuple[tuple[tuple[Any, ...], ...], frozenset[str], int, int]


def _compile(spec: ActionSpec) -> Compiled:
    rows = tuple(
        (p.name, p.kind, p.required, p.default, p.minimum, p.maximum, p.choices, p.max_length)
        for p in spec.params
    )
    return rows, frozenset(p.name for p in spec.params), spec.min_targets, spec.max_targets


_COMPILED: Final[dict[str, Compiled]] = {kind: _compile(spec) for kind, spec in ACTIONS.items()}


def _quick(
    rows: tuple[tuple[Any, ...], ...], known: frozenset[str], raw: JsonMap
) -> dict[str, Any] | None:
    """``rules.params.validate_params`` for parameters it accepts as they are (plain ints,
    bools and strings within their limits): the same values with the defaults filled in.
    None for anything else, which the shared validation then accepts or refuses."""
    for name in raw:
        if name not in known:
            return None
    values: dict[str, Any] = {}
    for name, kind, required, default, low, high, choices, longest in rows:
        value = raw.get(name)
        if value is None:
            if required:
                return None
            if default is not None:
                values[name] = default
            continue
        cls = type(value)
        if kind == "int":
            if cls is not int or not low <= value <= high:
                return None
        elif kind == "str":
            if cls is not str or len(value) > longest:
                return None
        elif kind == "bool":
            if cls is not bool:
                return None
        elif kind == "choice" and (cls is not str or value not in choices):
            return None
        values[name] = value
    return values


class SavageWorlds(RuleSystem):
    id: ClassVar[str] = "savage_worlds"
    names: ClassVar[Mapping[str, str]] = {"es": "Savage Worlds", "en": "Savage Worlds"}
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = MESSAGES
    settings: ClassVar[tuple[Param, ...]] = SETTINGS
    actions: ClassVar[Mapping[str, ActionSpec]] = ACTIONS

    def validate_settings(self, raw: JsonMap) -> dict[str, Any]:
        settings = super().validate_settings(raw)
        table = str(settings.get("injury_table", "") or "")
        if table and parse_injury_table(table) is None:
            raise RulesError(
                "invalid_param",
                t("error.injury_table", keys=", ".join(INJURY_KEYS)),
                "settings.injury_table",
            )
        return settings

    # -- sheets -----------------------------------------------------------------
    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        return sheet_to_json(parse_sheet(raw))

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        return initial_state(parse_sheet(sheet))

    def token_numbers(self, actor: Actor) -> Mapping[str, int]:
        numbers = {
            "wounds": int(actor.state.get("wounds", 0)),
            "bennies": int(actor.state.get("bennies", 0)),
        }
        ammo = actor.state.get("ammo", {})
        if isinstance(ammo, Mapping):
            numbers.update({f"ammo.{k}": int(v) for k, v in ammo.items()})
        return numbers

    def status_label(self, status: str) -> Text:
        return (
            t(f"status.savage_worlds.{status}")
            if f"status.savage_worlds.{status}" in MESSAGES["es"]
            else t(f"status.{status}")
        )

    buttons_read_data = False  # sheet_buttons: the parsed sheet and two settings

    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        return sheet_buttons(world, actor)

    def sample_actors(self) -> tuple[Actor, ...]:
        return sample_actors(self.validate_sheet, self.initial_state)

    # -- resolution ---------------------------------------------------------------
    def check_action(self, world: World, action: Action) -> Action:
        """:meth:`RuleSystem.check_action`; for :data:`REMEMBERED_CHECKS` the checked action is
        remembered by its values and types (kind, actor, targets, GM or not, user, every
        parameter; 1 and True stay apart), and every caller with the same values gets the same
        checked action, whose read-only :class:`CheckedParams` is shared (as the shared check
        gives; planned attacks are keyed by its identity); its targets are looked up again in
        this world each time. Another action whose parameters are already exactly what the
        validation gives (the same names in the same order, plain values within their limits,
        nothing to fill in: a follow-up's ``damage``, ``damage_apply``) is itself the checked
        action. Refusals are never remembered: they are checked again."""
        params = action.params
        targets = action.targets
        if action.kind not in REMEMBERED_CHECKS:
            compiled = _COMPILED.get(action.kind)
            if compiled is None:
                return super().check_action(world, action)  # refused there
            rows = compiled[0]
            same = type(action) is Action and _as_is(rows, params)
            quick = None if same else _quick(rows, compiled[1], params)
            if not same and quick is None:  # anything unusual (or refused): the shared check
                return super().check_action(world, action)
            low, high = compiled[2], compiled[3]
            if not low <= len(targets) <= high:
                raise RulesError(
                    "invalid_targets", t("error.targets", minimum=low, maximum=high), "targets"
                )
            _known_targets(world, targets)
            if quick is None:
                return action  # already what the check would make: a frozen value, kept
            return Action(action.kind, action.actor_id, quick, targets, action.by_gm, action.user)
        try:
            key: tuple[Any, ...]
            if type(params) is dict:  # a plain dict (the bridge's): read with dict primitives
                parts: list[Any] = [action.kind, action.actor_id, targets, action.by_gm]
                parts.append(action.user)
                for item in params.items():
                    parts.append(item)
                for value in params.values():
                    parts.append(type(value))
                key = tuple(parts)
            else:
                key = (
                    action.kind,
                    action.actor_id,
                    targets,
                    action.by_gm,
                    action.user,
                    *params.items(),
                    *map(type, params.values()),
                )
            found = _CHECKED.get(key)
        except TypeError:  # an unhashable value (a list, an object): the long way
            return super().check_action(world, action)
        if found is None:
            spec = self.action_spec(action.kind)
            named = (action.kind, *key[5:])
            shared = _PARAMS.get(named)
            if shared is None:  # refused there first, as the shared check refuses
                made = CheckedParams(validate_params(spec.params, params))
                shared = remember(_PARAMS, named, made)
            low, high = spec.min_targets, spec.max_targets
            if not low <= len(targets) <= high:
                raise RulesError(
                    "invalid_targets", t("error.targets", minimum=low, maximum=high), "targets"
                )
            _known_targets(world, targets)
            checked = Action(
                action.kind, action.actor_id, shared, targets, action.by_gm, action.user
            )
            return remember(_CHECKED, key, checked)
        _known_targets(world, targets)
        return found

    def apply(self, world: World, resolution: Resolution) -> World:
        return apply_effects(world, resolution.effects)

    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        kind = action.kind
        handler = None
        if kind != "damage" and kind != "attack" and kind != "damage_apply" and kind != "trait":
            handler = HANDLERS.get(kind)
            if handler is None:
                self.action_spec(kind)
                raise RulesError(
                    "unknown_action", t("error.unknown_action", action=kind[:100]), "action"
                )
        settings = _with_defaults(world.settings)
        try:
            if handler is not None:
                return handler(world, action, dice, settings)
            # the burst's own presses and the trait roll, called straight (natively when compiled)
            if kind == "damage":
                return prepared_damage.resolve_damage(world, action, dice, settings)
            if kind == "attack":
                return prepared_attack.resolve_attack(world, action, dice, settings)
            if kind == "trait":  # the skill roll
                return act_turn.resolve_trait(world, action, dice, settings)
            return prepared_damage.resolve_apply(world, action, dice, settings)
        except DiceError as problem:
            raise RulesError(
                problem.code, t("error.dice", problem=problem.message[:200]), "dice"
            ) from None

    def set_status(
        self, world: World, actor_id: str, add: frozenset[str], remove: frozenset[str]
    ) -> tuple[Effect, ...]:
        """A GM's hand: removing 'wounded' also clears the wound count; 'dead' stops bleeding."""

        state: dict[str, Any] = {}
        if "wounded" in remove:
            state["wounds"] = 0
        if "dead" in add:
            remove = remove | {"bleeding", "on_hold", "overwatch", "joker"}
        return (ActorChange(actor_id, state, add, remove),)

    def advance_time(self, world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
        settings = {**self.default_settings(), **world.settings}
        return act_rounds.advance_time(world, step, dice, settings)

    # -- the shared combat tracker (rules/tracker.py): tracker_hooks.py ------------------
    def _settings(self, world: World) -> dict[str, Any]:
        return {**self.default_settings(), **world.settings}

    initiative_each_round: ClassVar[bool] = True
    """A new deal every round (held units keep their card)."""

    def combat_round_start(
        self, world: World, combat: Combat, dice: DiceSource
    ) -> Resolution | None:
        return tracker_hooks.round_start(world, combat, dice, self._settings(world))

    def combat_initiative(self, world: World, combat: Combat, dice: DiceSource) -> Initiative:
        return tracker_hooks.initiative(world, combat, dice, self._settings(world))

    def combat_turn_start(
        self, world: World, combat: Combat, slot: Slot, dice: DiceSource
    ) -> Resolution | None:
        return tracker_hooks.turn_start(world, combat, slot, dice, self._settings(world))

    def combat_round_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        """Nothing: Bleeding Out and the deal belong to the next round's start."""
        return None

    def combat_interrupt(
        self, world: World, combat: Combat, actor_id: str, dice: DiceSource
    ) -> Resolution | None:
        return tracker_hooks.interrupt(world, combat, actor_id, dice, self._settings(world))

    def combat_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.end(world, combat, dice, self._settings(world))


__all__ = ["ATTACK_PARAMS", "TRAIT_PARAMS", "SavageWorlds"]
