"""Attribute, skill and opposed rolls, the token, and the ambush they can set up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.dice import DiceSource
from rules.memo import by_identity
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
    RulesError,
    Section,
    Text,
    World,
    WorldChange,
    t,
)
from rules.o3d10.cards import attribute_label, die_lines, kept_line, outcome_of, signed
from rules.o3d10.checks import CheckResult, Circumstances, RollKind, check_of, opposed_winner
from rules.o3d10.combat_actions import spend_action
from rules.o3d10.context import encumbrance_for_skill, require_able, roll_context, sheet_of
from rules.o3d10.initiative import COMBAT_KEY
from rules.o3d10.sheet import Sheet
from rules.o3d10.specs import OPPOSE_ASK
from rules.o3d10.tables import ATTRIBUTE_DIFFICULTY, SKILL_DIFFICULTY
from rules.records import fast_init
from rules.rolls import KeepRoll, Rank, roll_keep_of_3d10


@fast_init
@dataclass(frozen=True)
class What:
    """What an actor rolls: an attribute, or a skill with its attribute."""

    kind: str
    key: str

    def label(self, sheet: Sheet) -> Text:
        if self.kind == "skill":
            return _skill_texts(sheet)[self.key][0]
        return attribute_label(self.key)

    def title(self, sheet: Sheet) -> Text:
        """The card's title: 'Tirada de <skill or attribute>'."""
        if self.kind == "skill":
            return _skill_texts(sheet)[self.key][1]
        return t("card.attribute", attribute=attribute_label(self.key))


@by_identity()
def _skill_texts(sheet: Sheet) -> Mapping[str, tuple[Text, Text]]:
    """Each skill's name and card title, built once per (memoized, never mutated) sheet."""
    texts: dict[str, tuple[Text, Text]] = {}
    for key, skill in sheet.skills.items():
        label = t("raw", text=skill.label)
        texts[key] = (label, t("card.skill", skill=label))
    return texts


def what_of(actor: Actor, sheet: Sheet, kind: str, key: str, field: str) -> What:
    if kind == "skill":
        if key not in sheet.skills:
            raise RulesError(
                "no_such_skill", t("error.no_skill", actor=actor.name, skill=key), field
            )
    elif key not in sheet.attributes:
        raise RulesError(
            "no_such_attribute", t("error.no_attribute", actor=actor.name, attribute=key), field
        )
    return What(kind, key)


@fast_init
@dataclass(frozen=True)
class Rolled:
    result: CheckResult
    circumstances: Circumstances
    state: dict[str, Any]
    encumbrance: int


@fast_init
@dataclass(frozen=True)
class Plan:
    """Everything a roll of ``what`` depends on but the dice (see :func:`plan_what`)."""

    kind: RollKind
    base: int
    rank: Rank
    modifier: int
    difficulty: int | None
    natural_one_fails: bool
    circumstances: Circumstances
    state: dict[str, Any]
    encumbrance: int


def plan_what(
    world: World,
    actor: Actor,
    sheet: Sheet,
    what: What,
    params: Mapping[str, Any],
    difficulty: int | None,
    by_gm: bool,
) -> Plan:
    """The base, kept rank, modifier and circumstances of a roll: no die is drawn here."""
    skill_value = sheet.skills[what.key].value if what.kind == "skill" else 0
    context = roll_context(
        world,
        actor,
        sheet,
        params,
        unknown_skill=what.kind == "skill" and skill_value == 0,
        by_gm=by_gm,
    )
    attribute = sheet.skills[what.key].attribute if what.kind == "skill" else what.key
    encumbrance = encumbrance_for_skill(world, sheet, what.key) if what.kind == "skill" else 0
    kind: RollKind = "skill" if what.kind == "skill" else "attribute"
    return Plan(
        kind,
        sheet.attributes[attribute] + skill_value,
        context.rank,
        int(params.get("modifier", 0)) - encumbrance,
        difficulty,
        kind == "skill" or bool(world.settings.get("natural_one_attribute")),
        context.circumstances,
        context.state,
        encumbrance,
    )


def checked(plan: Plan, roll: KeepRoll) -> Rolled:
    """The check ``roll`` makes under ``plan``."""
    result = check_of(
        plan.kind, roll, plan.base, plan.modifier, plan.difficulty, plan.natural_one_fails
    )
    return Rolled(result, plan.circumstances, plan.state, plan.encumbrance)


def roll_what(
    world: World,
    actor: Actor,
    sheet: Sheet,
    what: What,
    params: Mapping[str, Any],
    dice: DiceSource,
    difficulty: int | None,
    by_gm: bool,
) -> Rolled:
    plan = plan_what(world, actor, sheet, what, params, difficulty, by_gm)
    return checked(plan, roll_keep_of_3d10(dice, plan.rank))


def difficulty_of(kind: str, params: Mapping[str, Any]) -> int | None:
    level, exact = params.get("level"), params.get("difficulty")
    if level is not None and exact is not None:
        raise RulesError("invalid_param", t("error.level_and_difficulty"), "params.difficulty")
    if exact is not None:
        return int(exact)
    if level is None:
        return None
    table = SKILL_DIFFICULTY if kind == "skill" else ATTRIBUTE_DIFFICULTY
    return table[str(level)]


@lru_cache(maxsize=4096)
def _sum_skill_line(
    attribute: str, attr_value: int, skill: str, skill_value: int, die: int
) -> Line:
    """Lines are frozen values: the same sum on the same sheet shares one."""
    return Line(
        t(
            "line.sum_skill",
            attribute=attribute_label(attribute),
            attr_value=attr_value,
            skill=skill,
            skill_value=skill_value,
            die=die,
        )
    )


@lru_cache(maxsize=4096)
def _sum_attribute_line(attribute: str, value: int, die: int) -> Line:
    return Line(t("line.sum_attribute", attribute=attribute_label(attribute), value=value, die=die))


@lru_cache(maxsize=4096)
def _figure_line(key: str, name: str, value: int) -> Line:
    """A line showing one whole number (the total, the difficulty)."""
    return Line(t(key, **{name: value}))


_NATURAL_ONE = Line(t("line.natural_one"))


def roll_lines(sheet: Sheet, what: What, rolled: Rolled) -> tuple[Line, ...]:
    result = rolled.result
    lines = [kept_line(result, rolled.circumstances)]
    die = result.roll.total
    if what.kind == "skill":
        skill = sheet.skills[what.key]
        lines.append(
            _sum_skill_line(
                skill.attribute, sheet.attributes[skill.attribute], skill.label, skill.value, die
            )
        )
    else:
        lines.append(_sum_attribute_line(what.key, sheet.attributes[what.key], die))
    lines.extend(die_lines(result))
    if rolled.encumbrance:
        lines.append(Line(t("line.encumbrance", value=-rolled.encumbrance)))
    if result.modifier + rolled.encumbrance:
        lines.append(
            Line(t("line.modifier", modifier=signed(result.modifier + rolled.encumbrance)))
        )
    lines.append(_figure_line("line.total", "total", result.total))
    if result.difficulty is not None:
        lines.append(_figure_line("line.difficulty", "difficulty", result.difficulty))
    if result.natural_one_fails and result.natural_one and not result.fumble:
        lines.append(_NATURAL_ONE)
    return tuple(lines)


def _opponent_what(world: World, action: Action) -> What | None:
    if not action.targets:
        return None
    opponent = world.actor(action.targets[0], "targets.0")
    sheet = sheet_of(opponent)
    params = action.params
    if params.get("opposed_skill"):
        return what_of(
            opponent, sheet, "skill", str(params["opposed_skill"]), "params.opposed_skill"
        )
    if params.get("opposed_attribute"):
        return what_of(
            opponent,
            sheet,
            "attribute",
            str(params["opposed_attribute"]),
            "params.opposed_attribute",
        )
    raise RulesError("invalid_param", t("error.opposed_needs_what"), "params.opposed_skill")


def resolve_check(world: World, action: Action, dice: DiceSource) -> Resolution:
    """``attribute`` / ``skill``: against a difficulty, freely, or opening an opposed roll."""
    actor = world.actor(action.actor_id)
    sheet = require_able(world, actor)
    params = action.params
    what = what_of(actor, sheet, action.kind, str(params[action.kind]), f"params.{action.kind}")
    opponent_what = _opponent_what(world, action)
    if params.get("ambush") and opponent_what is None:
        raise RulesError("ambush_needs_target", t("error.ambush_needs_target"), "targets")
    difficulty = None if opponent_what else difficulty_of(what.kind, params)
    # 'Una acción mayor sería usar un conjuro': casting (a skill marked ``conjuro``) in a
    # running combat spends an action like an attack.
    combat = None
    if what.kind == "skill" and sheet.skills[what.key].spell:
        combat = spend_action(world, actor, bool(params.get("split", False)), False)
    rolled = roll_what(world, actor, sheet, what, params, dice, difficulty, action.by_gm)
    lines = list(roll_lines(sheet, what, rolled))
    follow: tuple[FollowUp, ...] = ()
    if opponent_what is not None:
        opponent = world.actor(action.targets[0])
        opponent_label = opponent_what.label(sheet_of(opponent))
        lines.append(Line(t("line.opposed_pending", actor=opponent.name, what=opponent_label)))
        if params.get("ambush"):
            lines.append(Line(t("line.ambush_attempt")))
        follow = (
            FollowUp(
                "oppose",
                t("follow.oppose", what=opponent_label),
                "oppose",
                opponent.id,
                {
                    opponent_what.kind: opponent_what.key,
                    "against": rolled.result.total,
                    "against_fumble": rolled.result.fumble,
                    "ambush": bool(params.get("ambush", False)),
                },
                (actor.id,),
                ask=OPPOSE_ASK,
            ),
        )
    card = Card(
        kind=action.kind,
        title=what.title(sheet),
        speaker=actor.id,
        dice=rolled.result.roll.dice,
        outcome=None if opponent_what else outcome_of(rolled.result),
        sections=(Section(None, tuple(lines)),),
        actions=follow,
        target=action.targets[0] if action.targets else None,
    )
    effects: list[Effect] = [ActorChange(actor.id, rolled.state)] if rolled.state else []
    if combat is not None:
        effects.append(WorldChange({COMBAT_KEY: combat}))
    return Resolution(action, (card,), tuple(effects))


def resolve_oppose(world: World, action: Action, dice: DiceSource) -> Resolution:
    """The answer to an opposed roll: 'el que saque la tirada más alta gana'."""
    actor = world.actor(action.actor_id)
    first = world.actor(action.targets[0], "targets.0")
    sheet = sheet_of(actor)
    params = action.params
    if params.get("skill"):
        what = what_of(actor, sheet, "skill", str(params["skill"]), "params.skill")
    elif params.get("attribute"):
        what = what_of(actor, sheet, "attribute", str(params["attribute"]), "params.attribute")
    else:
        raise RulesError("invalid_param", t("error.opposed_needs_what"), "params.skill")
    rolled = roll_what(world, actor, sheet, what, params, dice, None, action.by_gm)
    lines = list(roll_lines(sheet, what, rolled))
    against = int(params["against"])
    winner = opposed_winner(
        (against, bool(params.get("against_fumble", False))),
        (rolled.result.total, rolled.result.fumble),
        str(world.settings.get("opposed_tie", "repeat")),
    )
    effects: list[Effect] = [ActorChange(actor.id, rolled.state)] if rolled.state else []
    if winner == -1:
        lines.append(Line(t("line.tie")))
        outcome = Outcome("tie", t("outcome.tie"), None, 0)
    else:
        winner_actor = first if winner == 0 else actor
        lines.append(Line(t("line.winner", actor=winner_actor.name)))
        outcome = Outcome(
            "success" if winner == 1 else "failure",
            t("outcome.success") if winner == 1 else t("outcome.failure"),
            winner == 1,
            rolled.result.total - against,
        )
        if winner == 0 and params.get("ambush"):
            # 'Cuando alguien hace una emboscada con éxito (sigilo vs advertir/notar) el primer
            #  ataque es gratuito.'
            ambush = {k: list(v) for k, v in dict(world.data.get("ambush", {})).items()}
            ambush[first.id] = sorted({*ambush.get(first.id, []), actor.id})
            effects.append(WorldChange({"ambush": ambush}))
            lines.append(Line(t("line.ambush_won", actor=first.name, target=actor.name)))
    card = Card(
        kind="oppose",
        title=t("card.oppose", first=first.name, second=actor.name),
        speaker=actor.id,
        dice=rolled.result.roll.dice,
        outcome=outcome,
        sections=(Section(None, tuple(lines)),),
        target=first.id,
    )
    return Resolution(action, (card,), tuple(effects))


def resolve_token_return(world: World, action: Action) -> Resolution:
    actor = world.actor(action.actor_id)
    if actor.state.get("token") != "gm":
        raise RulesError(
            "token_not_with_gm", t("error.token_not_with_gm", actor=actor.name), "actor"
        )
    card = Card(
        kind="token_return",
        title=t("card.token_return", actor=actor.name),
        speaker=None,
        sections=(Section(None, (Line(t("line.token_next_lowest", actor=actor.name)),)),),
    )
    return Resolution(action, (card,), (ActorChange(actor.id, {"token": "returned"}),))
