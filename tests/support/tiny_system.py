"""A tiny rule system for testing the bridge's generic machinery (the tracker, hooks).

Actors have an ``agilidad``; initiative orders by it (ties act together); with
the ``declare`` setting, everyone declares from the slowest to the fastest
first. Every hook leaves a trace in ``world.data["trace"]`` so tests can check
that each fires exactly once, at its moment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.dice import DiceSource
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    FollowUp,
    JsonMap,
    Resolution,
    RulesError,
    TimeStep,
    World,
    WorldChange,
    t,
)
from rules.params import Param
from rules.rolls import roll_die
from rules.system import ActionSpec, Button, RuleSystem
from rules.tracker import Combat, Initiative, Slot


def _trace(world: World, entry: str) -> WorldChange:
    return WorldChange({"trace": [*world.data.get("trace", []), entry]})


class Tiny(RuleSystem):
    id: ClassVar[str] = "tiny"
    names: ClassVar[Mapping[str, str]] = {"es": "Mínimo", "en": "Tiny"}
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "es": {"card.hit": "Golpe", "card.tick": "Pasa el tiempo"},
        "en": {"card.hit": "Hit", "card.tick": "Time passes"},
    }
    settings: ClassVar[tuple[Param, ...]] = (Param("declare", "bool", default=False),)
    actions: ClassVar[Mapping[str, ActionSpec]] = {
        "hit": ActionSpec("hit", "attack", t("card.hit"), min_targets=1, max_targets=1),
        "answer": ActionSpec(
            "answer", "card_action", t("card.hit"), (Param("how", "str", max_length=10),)
        ),
    }

    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        value = raw.get("agilidad")
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError("invalid_sheet", t("error.sheet", problem="agilidad"), "agilidad")
        return {"agilidad": value}

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        return {"hp": 3}

    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        return (Button(t("card.hit"), "attack", "hit", {}, None, (), 1, 1),)

    def sample_actors(self) -> tuple[Actor, ...]:
        return tuple(
            Actor(i, i.title(), None, {"agilidad": a}, {"hp": 3})
            for i, a in (("ana", 5), ("beto", 7), ("cris", 5), ("dani", 2))
        )

    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        if action.kind == "answer":
            change = ActorChange(action.actor_id, {"answered": action.params.get("how")})
            return Resolution(action, (Card("answer", t("card.hit"), action.actor_id),), (change,))
        target = world.actor(action.targets[0])
        die = roll_die(dice, 6, "damage")
        hp = int(target.state["hp"]) - (1 if die.total >= 4 else 0)
        add = frozenset({"dead"}) if hp <= 0 else frozenset()
        answers = tuple(
            FollowUp(
                how, t("card.hit"), "answer", target.id, {"how": how}, allowed="owner", group="blow"
            )
            for how in ("parry", "take")
        )
        card = Card(
            "hit", t("card.hit"), action.actor_id, (die,), actions=answers, target=target.id
        )
        return Resolution(action, (card,), (ActorChange(target.id, {"hp": hp}, add=add),))

    def advance_time(self, world: World, step: TimeStep, dice: DiceSource) -> Resolution | None:
        card = Card("tick", t("card.tick"), None)
        action = Action("time", "", by_gm=True)
        return Resolution(action, (card,), (_trace(world, f"{step.unit}x{step.count}"),))

    def combat_initiative(self, world: World, combat: Combat, dice: DiceSource) -> Initiative:
        by_agility: dict[int, list[str]] = {}
        for actor_id in combat.actor_ids:
            by_agility.setdefault(int(world.actor(actor_id).sheet["agilidad"]), []).append(actor_id)
        order = tuple(
            Slot(tuple(by_agility[a]), t("raw", text=str(a)), {"agilidad": a})
            for a in sorted(by_agility, reverse=True)
        )
        declare: tuple[str, ...] = ()
        if world.settings.get("declare"):
            declare = tuple(a for slot in reversed(order) for a in slot.actors)
        trace = _trace(world, f"initiative r{combat.round}")
        return Initiative(
            order, effects=(trace,), data={"round": combat.round}, declare_order=declare
        )

    def combat_round_start(self, world: World, combat: Combat, dice: DiceSource) -> Any:
        return Resolution(Action("combat", ""), (), (_trace(world, f"start r{combat.round}"),))

    def combat_turn_start(
        self, world: World, combat: Combat, slot: Slot, dice: DiceSource
    ) -> Resolution | None:
        entry = f"turn r{combat.round} {'+'.join(slot.actors)}"
        return Resolution(Action("combat", ""), (), (_trace(world, entry),))

    def combat_declare(
        self, world: World, combat: Combat, actor_id: str, params: JsonMap, dice: DiceSource
    ) -> Resolution | None:
        if params.get("acciones", 1) not in (1, 2):
            raise RulesError("too_many_actions", t("error.sheet", problem="acciones"), "params")
        return None
