"""The brp_d10 rule system: declarations of actions and settings, and the dispatch to them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rules.brp_d10 import (
    actions_checks,
    actions_combat,
    actions_damage,
    actions_health,
    tracker_hooks,
)
from rules.brp_d10.cards import read_actor
from rules.brp_d10.combat import refuse
from rules.brp_d10.messages import MESSAGES
from rules.brp_d10.samples import SAMPLE_SHEETS
from rules.brp_d10.sheet import parse_sheet, sheet_to_json
from rules.brp_d10.state import initial_state, read_state
from rules.brp_d10.tables import CHARACTERISTICS, LOCATIONS
from rules.brp_d10.wounds import total_penalty
from rules.dice import DiceError, DiceSource
from rules.model import Action, Actor, JsonMap, Resolution, RulesError, TimeStep, World, t
from rules.params import Param
from rules.system import ActionSpec, Button, RuleSystem
from rules.tracker import Combat, Initiative, combat_of

Resolver = Callable[[World, Action, DiceSource], Resolution]

_DIFFICULTY = Param("difficulty", "int", t("param.difficulty"), default=0, minimum=-20, maximum=20)
_ACCUMULATION = Param("accumulation", "int", t("param.accumulation"), minimum=0, maximum=20)
_LOCATION = Param("location", "choice", t("param.location"), choices=LOCATIONS)

ATTACK_PARAMS: tuple[Param, ...] = (
    Param("weapon", "str", t("param.weapon"), required=True, max_length=40),
    Param(
        "mode",
        "choice",
        t("param.mode"),
        default="single",
        choices=("single", "burst", "sustained"),
    ),
    Param("shots", "int", t("param.shots"), default=1, minimum=1, maximum=10),
    Param("bullets", "int", t("param.bullets"), default=0, minimum=0, maximum=100),
    _LOCATION,
    Param(
        "range", "choice", t("param.range"), default="medium", choices=("short", "medium", "long")
    ),
    Param(
        "cover", "choice", t("param.cover"), default="none", choices=("none", "partial", "total")
    ),
    Param("target_height", "int", t("param.target_height"), default=0, minimum=0, maximum=10),
    *(
        Param(name, "bool", t(f"mod.{name}"), default=False)
        for name in (
            "target_prone",
            "target_moving",
            "shooter_moving",
            "off_hand",
            "blind",
            "drawn",
            "mounted",
            "mounted_vs_foot",
            "ideal",
            "surprise",
        )
    ),
    Param("laser", "bool", t("mod.laser"), default=True),
    Param("scope", "bool", t("mod.scope"), default=True),
    _DIFFICULTY,
    _ACCUMULATION,
)

_DEFENCE_CARRY: tuple[Param, ...] = (
    Param("attack_weapon", "str", max_length=40),
    Param("against_level", "int", default=0, minimum=0, maximum=10),
    Param("critical", "bool", default=False),
    Param("location", "str", default="", max_length=40),
    Param("attack_class", "choice", default="melee", choices=("melee", "missile", "gun")),
    _DIFFICULTY,
    _ACCUMULATION,
    Param("blow", "int", default=0, minimum=0, maximum=1_000_000_000),
)

_CHECK_WHAT: tuple[Param, ...] = (
    Param("skill", "str", t("param.skill"), max_length=40),
    Param("characteristic", "choice", t("param.characteristic"), choices=CHARACTERISTICS),
)

ACTIONS: Mapping[str, ActionSpec] = {
    "check": ActionSpec(
        "check",
        "roll",
        t("action.check"),
        (
            *_CHECK_WHAT,
            _DIFFICULTY,
            Param("combat_action", "bool", t("param.combat_action"), default=False),
            Param("opposed_skill", "str", max_length=40),
            Param("opposed_characteristic", "choice", choices=CHARACTERISTICS),
        ),
        max_targets=1,
    ),
    "oppose": ActionSpec(
        "oppose",
        "card_action",
        t("action.oppose"),
        (
            *_CHECK_WHAT,
            _DIFFICULTY,
            Param("against_success", "bool", default=False),
            Param("against_level", "int", default=-1, minimum=-1, maximum=10),
        ),
        min_targets=1,
        max_targets=1,
    ),
    "initiative": ActionSpec(
        "initiative",
        "roll",
        t("action.initiative"),
        (
            Param("plan", "str", t("param.plan"), default="", max_length=300),
            Param("declare", "bool", t("param.declare"), default=False),
        ),
    ),
    "attack": ActionSpec(
        "attack", "attack", t("action.attack"), ATTACK_PARAMS, min_targets=1, max_targets=1
    ),
    "parry": ActionSpec(
        "parry",
        "card_action",
        t("action.parry"),
        (Param("weapon", "str", t("param.weapon"), required=True, max_length=40), *_DEFENCE_CARRY),
        min_targets=1,
        max_targets=1,
    ),
    "dodge": ActionSpec(
        "dodge", "card_action", t("action.dodge"), _DEFENCE_CARRY, min_targets=1, max_targets=1
    ),
    "damage": ActionSpec(
        "damage",
        "card_action",
        t("action.damage"),
        (
            Param("weapon", "str", t("param.weapon"), required=True, max_length=40),
            Param("hits", "int", default=1, minimum=1, maximum=50),
            Param("critical", "bool", default=False),
            Param("location", "str", default="", max_length=40),
            Param("blow", "int", default=0, minimum=0, maximum=1_000_000_000),
            Param("blow_stage", "choice", default="open", choices=("open", "hit")),
        ),
        min_targets=1,
        max_targets=1,
    ),
    "endure": ActionSpec(
        "endure",
        "card_action",
        t("action.endure"),
        (Param("wound", "int", required=True, minimum=1, maximum=1_000_000),),
    ),
    "aim": ActionSpec(
        "aim",
        "roll",
        t("action.aim"),
        (Param("weapon", "str", t("param.weapon"), required=True, max_length=40),),
    ),
    "reload": ActionSpec(
        "reload",
        "roll",
        t("action.reload"),
        (
            Param("weapon", "str", t("param.weapon"), required=True, max_length=40),
            Param("one", "bool", t("param.one"), default=False),
        ),
    ),
    "treat": ActionSpec(
        "treat",
        "heal",
        t("action.treat"),
        (
            Param(
                "purpose",
                "choice",
                t("param.purpose"),
                default="bleeding",
                choices=("bleeding", "wound"),
            ),
            Param("wound", "int", t("param.wound"), default=0, minimum=0, maximum=1_000_000),
            _DIFFICULTY,
        ),
        max_targets=1,
    ),
    "wound": ActionSpec(
        "wound",
        "damage_apply",
        t("action.wound"),
        (
            Param("location", "choice", t("param.location"), required=True, choices=LOCATIONS),
            Param("level", "int", t("param.level"), required=True, minimum=1, maximum=4),
            Param(
                "injury", "choice", t("param.injury"), default="organ", choices=("bone", "organ")
            ),
        ),
        gm_only=True,
    ),
    "wound_remove": ActionSpec(
        "wound_remove",
        "gm_action",
        t("action.wound_remove"),
        (Param("wound", "int", t("param.wound"), required=True, minimum=1, maximum=1_000_000),),
        gm_only=True,
    ),
    "interrupt_rest": ActionSpec(
        "interrupt_rest", "gm_action", t("action.interrupt_rest"), gm_only=True
    ),
    "pick_up": ActionSpec(
        "pick_up",
        "roll",
        t("action.pick_up"),
        (Param("weapon", "str", t("param.weapon"), required=True, max_length=40),),
    ),
    "end_combat": ActionSpec("end_combat", "gm_action", t("action.end_combat"), gm_only=True),
    "round_order": ActionSpec("round_order", "gm_action", t("action.round_order"), gm_only=True),
}

RESOLVERS: Mapping[str, Resolver] = {
    "check": actions_checks.resolve_check,
    "oppose": actions_checks.resolve_oppose,
    "initiative": actions_checks.resolve_initiative,
    "round_order": actions_checks.resolve_round_order,
    "attack": actions_combat.resolve_attack_action,
    "parry": actions_combat.resolve_defence,
    "dodge": actions_combat.resolve_defence,
    "damage": actions_damage.resolve_damage,
    "endure": actions_damage.resolve_endure,
    "aim": actions_combat.resolve_aim,
    "reload": actions_combat.resolve_reload,
    "treat": actions_health.resolve_treat,
    "wound": actions_health.resolve_wound,
    "wound_remove": actions_health.resolve_wound_remove,
    "interrupt_rest": actions_health.resolve_interrupt_rest,
    "pick_up": actions_health.resolve_pick_up,
    "end_combat": actions_health.resolve_end_combat,
}

SETTINGS: tuple[Param, ...] = (
    Param(
        "wound_step",
        "choice",
        default="resistencia",
        choices=("resistencia", "half_resistencia", "fixed"),
    ),
    Param("wound_step_fixed", "int", default=3, minimum=1, maximum=20),
    Param("wound_stacking", "choice", default="sum", choices=("sum", "escalate")),
    Param("shock_counts_ignored", "bool", default=True),
    Param("critical_needs_hit", "bool", default=True),
    Param("skip_certain_rolls", "bool", default=True),
    Param("sustained_range", "choice", default="replace", choices=("replace", "add")),
    Param("damage_bonus_thrown", "bool", default=False),
    Param("injury_by", "choice", default="weapon", choices=("weapon", "location")),
    Param("light_wound_minutes", "int", default=10, minimum=0, maximum=1440),
    Param("opposed_tie", "choice", default="tie", choices=("tie", "defender")),
    Param("dodge_skill", "str", default="esquivar", max_length=40),
    Param("medicine_skill", "str", default="medicina", max_length=40),
    Param("hit_locations", "str", default="", max_length=400),
    Param("damage_bonus", "str", default="", max_length=100),
)


class BrpD10(RuleSystem):
    id: ClassVar[str] = "brp_d10"
    names: ClassVar[Mapping[str, str]] = {
        "es": "BRP d10 por localización",
        "en": "BRP d10 hit locations",
    }
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = MESSAGES
    settings: ClassVar[tuple[Param, ...]] = SETTINGS
    actions: ClassVar[Mapping[str, ActionSpec]] = ACTIONS

    def validate_settings(self, raw: JsonMap) -> dict[str, Any]:
        from rules.brp_d10.damage import damage_bonus_table, hit_location_table

        settings = super().validate_settings(raw)
        hit_location_table(settings)
        damage_bonus_table(settings)
        return settings

    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        return sheet_to_json(parse_sheet(raw))

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        return initial_state(parse_sheet(sheet)).to_json()

    def validate_state(self, sheet: JsonMap, raw: JsonMap) -> JsonMap:
        merged = {**self.initial_state(sheet), **raw}
        try:
            return read_state(merged).to_json()
        except (TypeError, ValueError, AttributeError):
            raise RulesError("invalid_state", t("error.invalid_state"), "state") from None

    def token_numbers(self, actor: Actor) -> Mapping[str, int]:
        _, state = read_actor(actor)
        numbers = {"wounds": len(state.wounds), "penalty": total_penalty(state)}
        numbers.update({f"ammo.{key}": value for key, value in state.ammo.items()})
        return numbers

    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        from rules.brp_d10.buttons import sheet_buttons

        return sheet_buttons(world, actor)

    def sample_actors(self) -> tuple[Actor, ...]:
        return tuple(
            Actor(
                actor_id, name, None, sheet_to_json(parse_sheet(sheet)), self.initial_state(sheet)
            )
            for actor_id, name, sheet in SAMPLE_SHEETS
        )

    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        resolver = RESOLVERS.get(action.kind)
        if resolver is None:
            raise RulesError(
                "unknown_action", t("error.unknown_action", action=action.kind[:100]), "action"
            )
        try:
            return resolver(world, action, dice)
        except DiceError as error:
            raise RulesError(error.code, t("error.dice", problem=error.message), "dice") from error
        except (KeyError, ValueError, TypeError) as bad:
            # Malformed stored state or parameters that slipped past validation: a clean refusal.
            raise RulesError(
                "invalid_request", t("error.invalid_request", problem=str(bad)[:100])
            ) from bad

    def advance_time(self, world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
        if step.unit == "round" and combat_of(world) is not None:
            # the tracker's next round runs the round's time: a second one would tick twice
            raise refuse("use_combat_next_round", "unit")
        return actions_health.advance(world, step, dice)

    # -- the combat tracker (tracker_hooks.py) ----------------------------------------------
    initiative_each_round: ClassVar[bool] = True
    """Every round: the Agilidad order is rebuilt into the tenths of the round's declarations."""

    def combat_initiative(self, world: World, combat: Combat, dice: DiceSource) -> Initiative:
        return tracker_hooks.initiative(world, combat, dice)

    def combat_round_start(
        self, world: World, combat: Combat, dice: DiceSource
    ) -> Resolution | None:
        return tracker_hooks.round_start(world, combat, dice)

    def combat_declare(
        self, world: World, combat: Combat, actor_id: str, params: JsonMap, dice: DiceSource
    ) -> Resolution | None:
        return tracker_hooks.declare(world, combat, actor_id, params, dice)

    def combat_round_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.round_end(world, combat, dice)

    def combat_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.end(world, combat, dice)
