"""The cunchillos rule system: the actions it offers and how the bridge reaches them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rules.cunchillos import tracker_hooks
from rules.cunchillos.combat import DEFENCES, resolve_attack
from rules.cunchillos.common import Fighter, change
from rules.cunchillos.harm import (
    resolve_damage,
    resolve_damage_apply,
    resolve_heal,
    resolve_retreat_blocked,
)
from rules.cunchillos.health import hit_points
from rules.cunchillos.manoeuvres import MANOEUVRES, resolve_escape, resolve_manoeuvre
from rules.cunchillos.messages import MESSAGES
from rules.cunchillos.rounds import (
    advance,
    resolve_act,
    resolve_ambush,
    resolve_declare,
    resolve_initiative,
    resolve_ta,
)
from rules.cunchillos.samples import SAMPLE_SHEETS
from rules.cunchillos.settings import SETTINGS, parse_location_table
from rules.cunchillos.sheet import parse_sheet, sheet_to_json
from rules.cunchillos.tables import DAMAGE_TYPES, HANDS, LOCATION_KEYS
from rules.dice import DiceError, DiceSource
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
from rules.params import Param
from rules.system import ActionSpec, Button, RuleSystem
from rules.tracker import Combat, Initiative, combat_of

_SCENE: tuple[Param, ...] = (
    Param("visibility", "int", t("param.visibility"), default=0, minimum=0, maximum=10),
    Param("modifier", "int", t("param.modifier"), default=0, minimum=-50, maximum=50),
)
_HEIGHT = Param(
    "height", "choice", t("param.height"), default="level", choices=("level", "higher", "lower")
)
_HAND = Param("hand", "choice", t("param.hand"), choices=HANDS)
_ATTACK_PARAMS: tuple[Param, ...] = (
    _HAND,
    Param("unarmed", "bool", t("param.unarmed"), default=False),
    Param("range", "choice", t("param.range"), default="melee", choices=("melee", "ranged")),
    Param("aim", "choice", t("param.aim"), choices=LOCATION_KEYS),
    Param("defence", "choice", t("param.defence"), default="declared", choices=DEFENCES),
    _HEIGHT,
    *_SCENE,
)
_DAMAGE_PARAMS: tuple[Param, ...] = (
    Param("source", "str", max_length=100),
    Param("damage", "choice", required=True, choices=DAMAGE_TYPES),
    Param("high", "int", required=True, minimum=1, maximum=10),
    Param("low", "int", required=True, minimum=1, maximum=10),
    Param("face", "int", required=True, minimum=1, maximum=10),
    Param("blunt", "bool", default=False),
    Param("critical", "bool", default=False),
    Param("aimed", "bool", default=False),
    Param("weapon", "str", max_length=60),
    Param(
        "crit_choice", "choice", t("param.crit_choice"), default="max", choices=("max", "location")
    ),
    Param("location", "int", t("param.location"), minimum=1, maximum=10),
    Param("victim", "str", t("param.victim"), max_length=100),
)

ACTIONS: dict[str, ActionSpec] = {
    "ta": ActionSpec(
        "ta",
        "roll",
        t("action.ta"),
        (
            Param("skill", "str", t("param.skill"), max_length=40),
            Param("characteristic", "str", t("param.characteristic"), max_length=40),
            Param("counts_as_action", "bool", t("param.counts_as_action"), default=False),
            *_SCENE,
        ),
    ),
    "declare": ActionSpec(
        "declare",
        "roll",
        t("action.declare"),
        (
            Param("actions", "int", t("param.actions"), default=1, minimum=0, maximum=10),
            Param("raise", "choice", t("param.raise"), default="0", choices=("0", "5", "10")),
            Param(
                "defence",
                "choice",
                t("param.defence"),
                default="none",
                choices=("none", "dodge", "parry"),
            ),
            Param(
                "movement",
                "choice",
                t("param.movement"),
                default="walk",
                choices=("walk", "fast", "sprint"),
            ),
            Param("withdraw", "bool", t("param.withdraw"), default=False),
            Param("two_weapons", "bool", t("param.two_weapons"), default=False),
        ),
    ),
    "initiative": ActionSpec(
        "initiative", "gm_action", t("action.initiative"), gm_only=True, max_targets=50
    ),
    "attack": ActionSpec(
        "attack", "attack", t("action.attack"), _ATTACK_PARAMS, min_targets=1, max_targets=1
    ),
    "manoeuvre": ActionSpec(
        "manoeuvre",
        "attack",
        t("action.manoeuvre"),
        (
            Param("mode", "choice", t("param.mode"), required=True, choices=MANOEUVRES),
            Param("location", "choice", t("param.location"), choices=LOCATION_KEYS),
            _HEIGHT,
            *_SCENE,
        ),
        min_targets=1,
        max_targets=1,
    ),
    "escape": ActionSpec("escape", "roll", t("action.escape")),
    "act": ActionSpec(
        "act",
        "roll",
        t("action.act"),
        (
            Param(
                "what",
                "choice",
                t("param.what"),
                required=True,
                choices=("draw", "stand", "fast_move", "other", "pass"),
            ),
            Param("weapon", "str", t("param.weapon"), max_length=40),
            _HAND,
        ),
    ),
    "ambush": ActionSpec("ambush", "roll", t("action.ambush"), _SCENE),
    "damage": ActionSpec(
        "damage", "card_action", t("action.damage"), _DAMAGE_PARAMS, min_targets=1, max_targets=1
    ),
    "damage_apply": ActionSpec(
        "damage_apply",
        "damage_apply",
        t("action.damage_apply"),
        (
            Param("amount", "int", t("param.amount"), required=True, minimum=0, maximum=1000),
            Param("location", "choice", t("param.location"), required=True, choices=LOCATION_KEYS),
            Param("blunt", "bool", t("param.blunt"), default=False),
            Param("low", "int", t("param.low"), default=0, minimum=0, maximum=10),
        ),
        gm_only=True,
        min_targets=1,
        max_targets=1,
    ),
    "heal": ActionSpec(
        "heal",
        "heal",
        t("action.heal"),
        (
            Param("amount", "int", t("param.amount"), default=0, minimum=0, maximum=1000),
            Param("stop_bleeding", "bool", t("param.stop_bleeding"), default=False),
            Param("clear_wounds", "bool", t("param.clear_wounds"), default=False),
        ),
        gm_only=True,
        min_targets=1,
        max_targets=1,
    ),
    "retreat_blocked": ActionSpec(
        "retreat_blocked", "card_action", t("action.retreat_blocked"), gm_only=True
    ),
}


class Cunchillos(RuleSystem):
    id: ClassVar[str] = "cunchillos"
    names: ClassVar[Mapping[str, str]] = {"es": "Combate de Cunchillos", "en": "Cunchillos combat"}
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = MESSAGES
    settings: ClassVar[tuple[Param, ...]] = SETTINGS
    actions: ClassVar[Mapping[str, ActionSpec]] = ACTIONS

    def validate_settings(self, raw: JsonMap) -> dict[str, Any]:
        values = super().validate_settings(raw)
        table = str(values.get("location_table") or "")
        if table.strip() and parse_location_table(table) is None:
            raise RulesError("invalid_param", t("error.location_table"), "settings.location_table")
        return values

    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        return sheet_to_json(parse_sheet(raw))

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        parsed = parse_sheet(sheet)
        return {
            "pv": parsed.hit_points,
            "golpes": 0,
            "limite": None,
            "heridas": [],
            "timers": {"stunned": 0, "incapacitated": 0, "unconscious": 0},
            "hands": dict(parsed.in_hand),
            "broken": [],
            "weapon_damage": {},
            "round": {},
            "round_damage": 0,
            "next_ta": 0,
            "grapple": None,
            "prone": False,
            "dead": False,
            "manual": [],
        }

    def token_numbers(self, actor: Actor) -> Mapping[str, int]:
        sheet = parse_sheet(actor.sheet)
        wounds = actor.state.get("heridas", [])
        return {
            "pv": hit_points(actor.state, sheet),
            "heridas": len(wounds) if isinstance(wounds, list) else 0,
        }

    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        from rules.cunchillos.buttons import sheet_buttons

        return sheet_buttons(actor)

    def sample_actors(self) -> tuple[Actor, ...]:
        return tuple(
            Actor(
                actor_id, name, None, sheet_to_json(parse_sheet(sheet)), self.initial_state(sheet)
            )
            for actor_id, name, sheet in SAMPLE_SHEETS
        )

    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        return self._guard(lambda: self._resolve(world, action, dice))

    def _guard(self, run: Callable[[], Resolution]) -> Resolution:
        try:
            return run()
        except DiceError as error:
            raise RulesError(error.code, t("error.dice", problem=error.message), None) from error
        except (ValueError, TypeError, KeyError, AttributeError) as odd:
            # A hand-edited state or a follow-up with odd values: refuse, never crash.
            problem = type(odd).__name__
            raise RulesError(
                "invalid_state", t("error.invalid_state", problem=problem), None
            ) from odd

    def _resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        kind = action.kind
        if kind == "attack":
            return resolve_attack(world, action, dice)
        if kind == "manoeuvre":
            return resolve_manoeuvre(world, action, dice)
        if kind == "escape":
            return resolve_escape(world, action, dice)
        if kind == "ta":
            return resolve_ta(world, action, dice)
        if kind == "ambush":
            return resolve_ambush(world, action, dice)
        simple = {
            "declare": resolve_declare,
            "initiative": resolve_initiative,
            "act": resolve_act,
            "damage": resolve_damage,
            "damage_apply": resolve_damage_apply,
            "heal": resolve_heal,
            "retreat_blocked": resolve_retreat_blocked,
        }
        if kind not in simple:
            self.action_spec(kind)
        return simple[kind](world, action)

    def set_status(
        self, world: World, actor_id: str, add: frozenset[str], remove: frozenset[str]
    ) -> tuple[Effect, ...]:
        """A GM's hand: added statuses are kept; removing a state-driven one clears its cause."""
        actor = world.actor(actor_id)
        state: dict[str, Any] = {}
        manual = [
            m for m in actor.state.get("manual", []) if isinstance(m, str) and m not in remove
        ]
        state["manual"] = sorted(set(manual) | add)
        timers = dict(actor.state.get("timers", {}) or {})
        for status in remove & {"stunned", "incapacitated", "unconscious"}:
            timers[status] = 0
        state["timers"] = timers
        if "prone" in remove:
            state["prone"] = False
        if "grappled" in remove:
            state["grapple"] = None
        if "dead" in remove:
            state["dead"] = False
        if "bleeding" in remove:
            wounds = [dict(w) for w in actor.state.get("heridas", []) if isinstance(w, Mapping)]
            state["heridas"] = [{**w, "bleeds": False} for w in wounds]
        f = Fighter(actor, parse_sheet(actor.sheet), actor.state)
        derived = change(f, state)
        added = derived.add | add
        removed = (derived.remove | remove) - add
        return (ActorChange(actor_id, derived.state, frozenset(added), frozenset(removed)),)

    def advance_time(self, world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
        """Time passes (``time_advance``); while the combat tracker runs, its rounds do it
        (``combat_running``: a round would pass twice)."""
        if combat_of(world) is not None:
            raise RulesError("combat_running", t("error.combat_running"), None)
        return advance(world, step)

    # -- the combat tracker (tracker_hooks.py, RULES.md 42-46) -----------------------------
    initiative_each_round: ClassVar[bool] = True

    def combat_initiative(self, world: World, combat: Combat, dice: DiceSource) -> Initiative:
        return tracker_hooks.initiative(world, combat)

    def combat_declare(
        self, world: World, combat: Combat, actor_id: str, params: JsonMap, dice: DiceSource
    ) -> Resolution | None:
        return self._guard(
            lambda: tracker_hooks.declare(world, combat, actor_id, params, ACTIONS["declare"])
        )

    def combat_round_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.round_end(world)

    def combat_end(self, world: World, combat: Combat, dice: DiceSource) -> Resolution | None:
        return tracker_hooks.round_end(world)
