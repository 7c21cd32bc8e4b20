"""The o3d10 rule system (1o3d10): the plugin the bridge calls.

Rolls live in roll_actions.py, attacks and damage in combat_actions.py, initiative and
rounds in turn_actions.py, wounds and healing in health_actions.py; this module wires
them to the plugin interface and lists the sheet buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rules.dice import DiceLimitExceeded, DiceSource
from rules.model import Action, Actor, JsonMap, Resolution, RulesError, Text, TimeStep, World, t
from rules.o3d10 import (
    combat_actions,
    health_actions,
    movement,
    prepared,
    roll_actions,
    tracker_hooks,
    turn_actions,
    weapon_actions,
)
from rules.o3d10.cards import attribute_label
from rules.o3d10.health import hit_points, max_hit_points
from rules.o3d10.messages import MESSAGES
from rules.o3d10.samples import SAMPLES
from rules.o3d10.settings import SETTINGS
from rules.o3d10.settings import validate_settings as _validate_settings
from rules.o3d10.sheet import parse_sheet, sheet_to_json
from rules.o3d10.specs import (
    ACTIONS,
    COMFORT,
    GIVE_TOKEN,
    MELEE_ASK,
    METRES,
    MODIFIER,
    RANGED_ASK,
    ROLL_ASK,
    SPLIT,
)
from rules.params import Param
from rules.system import ActionSpec, Button, RuleSystem
from rules.tracker import Combat, Initiative

Handler = Callable[[World, Action, DiceSource], Resolution]

_HANDLERS: Mapping[str, Handler] = {
    "attribute": prepared.resolve_prepared_check,
    "skill": prepared.resolve_prepared_check,
    "oppose": roll_actions.resolve_oppose,
    "token_return": lambda w, a, d: roll_actions.resolve_token_return(w, a),
    "initiative": turn_actions.resolve_initiative,
    "combat_start": turn_actions.resolve_combat_start,
    "combat_end": lambda w, a, d: turn_actions.resolve_combat_end(w, a),
    "next_round": lambda w, a, d: turn_actions.resolve_next_round(w, a),
    "attack": combat_actions.resolve_attack,
    "damage": combat_actions.resolve_damage,
    "move": lambda w, a, d: movement.resolve_move(w, a),
    "reload": lambda w, a, d: weapon_actions.resolve_reload(w, a),
    "clear_jam": lambda w, a, d: weapon_actions.resolve_clear_jam(w, a),
    "damage_apply": lambda w, a, d: health_actions.resolve_damage_apply(w, a),
    "heal_wounds": lambda w, a, d: health_actions.resolve_heal_wounds(w, a),
    "catch_breath": health_actions.resolve_catch_breath,
    "sleep": lambda w, a, d: health_actions.resolve_sleep(w, a),
}


class O3d10(RuleSystem):
    id: ClassVar[str] = "o3d10"
    names: ClassVar[Mapping[str, str]] = {"es": "1o3d10", "en": "1o3d10"}
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = MESSAGES
    settings: ClassVar[tuple[Param, ...]] = SETTINGS
    actions: ClassVar[Mapping[str, ActionSpec]] = ACTIONS

    # -- settings -------------------------------------------------------------
    def validate_settings(self, raw: JsonMap) -> dict[str, Any]:
        return _validate_settings(raw)

    # -- sheets ---------------------------------------------------------------
    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        return sheet_to_json(parse_sheet(raw))

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        parsed = parse_sheet(sheet)
        ammo = {key: w.capacity for key, w in parsed.weapons.items() if w.capacity}
        return {"heridas": 0, "token": "player", "ammo": ammo, "jammed": []}

    def token_numbers(self, actor: Actor) -> Mapping[str, int]:
        sheet = parse_sheet(actor.sheet)
        defaults = {"health_model": "bands"}
        numbers = {
            "heridas": int(actor.state.get("heridas", 0)),
            "pv": hit_points(sheet, actor.state, defaults),
            "pv_max": max_hit_points(sheet, defaults),
        }
        ammo = actor.state.get("ammo", {})
        for key, weapon in sheet.weapons.items():
            if weapon.capacity:
                numbers[f"municion.{key}"] = int(ammo.get(key, weapon.capacity))
        return numbers

    def status_label(self, status: str) -> Text:
        return t(f"status.{status}")

    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        sheet = parse_sheet(actor.sheet)
        buttons: list[Button] = [
            Button(_label, "roll", "attribute", {"attribute": key}, t("group.attributes"), ROLL_ASK)
            for key, _label in ((k, attribute_label(k)) for k in sheet.attributes)
        ]
        buttons.extend(
            Button(
                t("raw", text=skill.label),
                "roll",
                "skill",
                {"skill": key},
                t("group.skills"),
                ROLL_ASK,
            )
            for key, skill in sheet.skills.items()
        )
        combat = t("group.combat")
        buttons.append(
            Button(t("action.initiative"), "roll", "initiative", {}, combat, (MODIFIER, GIVE_TOKEN))
        )
        buttons.append(Button(t("action.move"), "roll", "move", {}, combat, (METRES, SPLIT)))
        attack_ask = (*MELEE_ASK, MODIFIER, GIVE_TOKEN, SPLIT)
        buttons.append(
            Button(
                t("weapon.unarmed"),
                "attack",
                "attack",
                {"weapon": "unarmed"},
                combat,
                attack_ask,
                1,
                1,
            )
        )
        for key, weapon in sheet.weapons.items():
            ask = (*RANGED_ASK, MODIFIER, GIVE_TOKEN, SPLIT) if weapon.ranged else attack_ask
            buttons.append(
                Button(
                    t("raw", text=weapon.label),
                    "attack",
                    "attack",
                    {"weapon": key},
                    combat,
                    ask,
                    1,
                    1,
                )
            )
            if weapon.ranged:
                buttons.append(
                    Button(
                        t("button.in_melee", weapon=weapon.label),
                        "attack",
                        "attack",
                        {"weapon": key, "in_melee": True},
                        combat,
                        attack_ask,
                        1,
                        1,
                    )
                )
            if weapon.capacity:
                buttons.append(
                    Button(
                        t("button.reload", weapon=weapon.label),
                        "roll",
                        "reload",
                        {"weapon": key},
                        combat,
                    )
                )
            if weapon.firearm:
                buttons.append(
                    Button(
                        t("button.clear_jam", weapon=weapon.label),
                        "roll",
                        "clear_jam",
                        {"weapon": key},
                        combat,
                    )
                )
        light = [key for key, w in sheet.weapons.items() if w.light and not w.ranged]
        if len(light) >= 2:
            buttons.append(
                Button(
                    t("button.two_weapons"),
                    "attack",
                    "attack",
                    {"weapon": light[0], "offhand": light[1]},
                    combat,
                    attack_ask,
                    1,
                    1,
                )
            )
        health = t("group.health")
        buttons.append(Button(t("action.catch_breath"), "heal", "catch_breath", {}, health))
        buttons.append(Button(t("action.sleep"), "heal", "sleep", {}, health, (COMFORT,)))
        gm = t("group.director")
        amount = tuple(p for p in ACTIONS["damage_apply"].params)
        buttons.extend(
            (
                Button(
                    t("action.damage_apply"),
                    "damage_apply",
                    "damage_apply",
                    {},
                    gm,
                    amount,
                    gm_only=True,
                ),
                Button(
                    t("action.heal_wounds"), "heal", "heal_wounds", {}, gm, amount, gm_only=True
                ),
                Button(t("action.token_return"), "roll", "token_return", {}, gm, gm_only=True),
            )
        )
        return tuple(buttons)

    def sample_actors(self) -> tuple[Actor, ...]:
        actors = []
        for actor_id, name, raw in SAMPLES:
            sheet = self.validate_sheet(raw)
            actors.append(Actor(actor_id, name, None, sheet, self.initial_state(sheet)))
        return tuple(actors)

    # -- resolution -----------------------------------------------------------
    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        handler = _HANDLERS.get(action.kind)
        if handler is None:
            self.action_spec(action.kind)  # raises unknown_action
            raise AssertionError(action.kind)  # pragma: no cover - every spec has a handler
        try:
            return handler(world, action, dice)
        except DiceLimitExceeded as error:
            raise RulesError(
                "dice_limit", t("error.dice_limit", problem=error.message), "dice"
            ) from None

    def advance_time(self, world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
        return turn_actions.advance(world, step)

    # -- the shared combat tracker (tracker_hooks.py, RULES.md 29) -----------------------
    initiative_each_round: ClassVar[bool] = True
    """Rolled once per fight, but the order is read again every round (a fumble goes last
    from round 2; an interrupt or a delay lasts one round)."""

    def combat_round_start(
        self, world: World, combat: Combat, dice: DiceSource
    ) -> Resolution | None:
        return tracker_hooks.round_start(world, combat)

    def combat_initiative(self, world: World, combat: Combat, dice: DiceSource) -> Initiative:
        try:
            return tracker_hooks.initiative(world, combat, dice)
        except DiceLimitExceeded as error:
            raise RulesError(
                "dice_limit", t("error.dice_limit", problem=error.message), "dice"
            ) from None

    def combat_round_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        """Nothing happens as a round ends: the next round's start resets its counts."""
        return None

    def combat_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.end(world)
