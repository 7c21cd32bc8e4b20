"""The Omertà rule system: the plugin the bridge loads (seed 000_8a0a6b1f7ace6aa3.txt)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
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
    TimeStep,
    World,
    t,
)
from rules.omerta import defence, gm, recovery, single, skills, tactics, tracker_hooks
from rules.omerta.buttons import sheet_buttons
from rules.omerta.messages import MESSAGES
from rules.omerta.samples import SAMPLE_SHEETS
from rules.omerta.sheet import parse_sheet, sheet_to_json
from rules.omerta.specs import ACTIONS, SETTINGS
from rules.omerta.state import check_state, clock, initial_state, unextracted, wounded
from rules.omerta.timeflow import advance
from rules.params import Param
from rules.system import ActionSpec, Button, RuleSystem, apply_effects
from rules.tracker import Combat, Initiative

Resolver = Callable[[World, Action, DiceSource], Resolution]

RESOLVERS: Mapping[str, Resolver] = {
    "roll": skills.resolve_roll,
    "oppose": skills.resolve_oppose,
    "initiative": gm.resolve_initiative,
    "attack": single.resolve_attack,
    "defend": defence.resolve_defend,
    "spread": defence.resolve_spread,
    "dodge": defence.resolve_dodge,
    "move": tactics.resolve_move,
    "aim": tactics.resolve_aim,
    "reload": tactics.resolve_reload,
    "clear_jam": tactics.resolve_clear_jam,
    "first_aid": recovery.resolve_first_aid,
    "extract_bullet": recovery.resolve_extraction,
    "medical_care": recovery.resolve_medical_care,
    "gm_damage": gm.resolve_gm_damage,
    "gm_heal": gm.resolve_gm_heal,
    "gm_condition": gm.resolve_gm_condition,
    "combat_end": gm.resolve_combat_end,
}


class Omerta(RuleSystem):
    id: ClassVar[str] = "omerta"
    names: ClassVar[Mapping[str, str]] = {"es": "Omertà", "en": "Omertà"}
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = MESSAGES
    settings: ClassVar[tuple[Param, ...]] = SETTINGS
    actions: ClassVar[Mapping[str, ActionSpec]] = ACTIONS

    # -- sheets ---------------------------------------------------------------
    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        return sheet_to_json(parse_sheet(raw))

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        return initial_state(parse_sheet(sheet))

    def validate_state(self, sheet: JsonMap, raw: JsonMap) -> JsonMap:
        """A state the Don supplies, checked key by key so no action later trips over it."""
        return check_state(parse_sheet(sheet), {**initial_state(parse_sheet(sheet)), **raw})

    def token_numbers(self, actor: Actor) -> Mapping[str, int]:
        sheet = parse_sheet(actor.sheet)
        numbers = {
            "hp": int(actor.state.get("hp", sheet.hp)),
            "hp_max": sheet.hp,
            "bullets_in": len(unextracted(actor)),
        }
        for key, weapon in sheet.weapons.items():
            if weapon.counted:
                numbers[f"ammo.{key}"] = int(actor.state.get("ammo", {}).get(key, 0))
        return numbers

    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        return sheet_buttons(world, actor)

    def sample_actors(self) -> tuple[Actor, ...]:
        actors = []
        for actor_id, name, raw in SAMPLE_SHEETS:
            sheet = self.validate_sheet(raw)
            owner = None if not raw.get("pc", True) else f"player-{actor_id}"
            actors.append(Actor(actor_id, name, owner, sheet, self.initial_state(sheet)))
        return tuple(actors)

    # -- resolution -----------------------------------------------------------
    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        resolver = RESOLVERS.get(action.kind)
        if resolver is None:
            self.action_spec(action.kind)
            raise RulesError(
                "unknown_action", t("error.unknown_action", action=action.kind[:100]), "action"
            )
        return resolver(world, action, dice)

    def apply(self, world: World, resolution: Resolution) -> World:
        """The effects, then the canonical ``wounded`` status kept in step with hit points."""
        changed = apply_effects(world, resolution.effects)
        touched = {e.actor_id for e in resolution.effects if isinstance(e, ActorChange)}
        for actor_id in sorted(touched):
            actor = changed.actors.get(actor_id)
            if actor is None:
                continue
            statuses = set(actor.statuses)
            if wounded(actor):
                statuses.add("wounded")
            else:
                statuses.discard("wounded")
            if statuses != set(actor.statuses):
                changed = changed.with_actor(replace(actor, statuses=frozenset(statuses)))
        return changed

    def set_status(
        self, world: World, actor_id: str, add: frozenset[str], remove: frozenset[str]
    ) -> tuple[Effect, ...]:
        """The Don's hand: keep the timers in step with the statuses set."""
        now = clock(world)
        state: dict[str, Any] = {}
        if "bleeding" in remove or "dead" in add:
            state["bleeding_since"] = None
        if "unconscious" in remove or "dead" in add:
            state["unconscious_until"] = None
        if "bleeding" in add:
            state["bleeding_since"] = now.time
        if "jammed" in remove:
            state["jams"] = {}
        if "aiming" in remove:
            state["aim"] = None
        return (ActorChange(actor_id, state, add, remove),)

    def advance_time(self, world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
        if step.count <= 0:
            return None
        return advance(world, step, dice)

    # -- the shared combat tracker (rules.tracker) ------------------------------
    initiative_each_round: ClassVar[bool] = True
    """'Antes de empezar una ronda de combate ... una tirada de Iniciativa': every round."""

    def combat_initiative(self, world: World, combat: Combat, dice: DiceSource) -> Initiative:
        return tracker_hooks.round_initiative(world, combat, dice)

    def combat_round_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.round_end(world, dice)

    def combat_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.end_combat(world, dice)
