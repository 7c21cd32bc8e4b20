"""The o3d10 rule system: attribute, skill and opposed rolls with 1o3d10, and the token.

Combat, damage, health and healing extend this module (issue: 1o3d10, complete).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.dice import DiceSource
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    FollowUp,
    JsonMap,
    Line,
    Outcome,
    Resolution,
    RulesError,
    Section,
    Text,
    World,
    t,
)
from rules.o3d10.checks import (
    CheckResult,
    Circumstances,
    kept_rank,
    opposed_winner,
    roll_check,
)
from rules.o3d10.health import is_badly_hurt
from rules.o3d10.messages import MESSAGES
from rules.o3d10.sheet import Sheet, parse_sheet, sheet_to_json
from rules.o3d10.tables import ATTRIBUTE_DIFFICULTY, LEVELS, SKILL_DIFFICULTY
from rules.params import Param
from rules.rolls import Rank
from rules.system import ActionSpec, Button, RuleSystem

KEEP_CHOICES = ("auto", "lowest", "median", "highest")
_FORCED = {"lowest": Rank.LOWEST, "median": Rank.MEDIAN, "highest": Rank.HIGHEST}

_ROLL_PARAMS: tuple[Param, ...] = (
    Param("level", "choice", t("param.level"), choices=LEVELS),
    Param("difficulty", "int", t("param.difficulty"), minimum=1, maximum=200),
    Param("modifier", "int", t("param.modifier"), default=0, minimum=-100, maximum=100),
    Param("keep", "choice", t("param.keep"), default="auto", choices=KEEP_CHOICES),
    Param("give_token", "bool", t("param.give_token"), default=False),
    Param("split", "bool", t("param.split"), default=False),
)
_ASK = tuple(p for p in _ROLL_PARAMS if p.name in ("level", "modifier", "give_token", "split"))
_OPPOSED_PARAMS: tuple[Param, ...] = (
    Param("opposed_skill", "str", max_length=40),
    Param("opposed_attribute", "str", max_length=40),
)


def _attribute_label(key: str) -> Text:
    known = MESSAGES["es"]
    return t(f"attr.{key}") if f"attr.{key}" in known else t("raw", text=key)


@dataclass(frozen=True)
class _What:
    """What an actor rolls: an attribute, or a skill with its attribute."""

    kind: str
    key: str

    def label(self, sheet: Sheet) -> Text:
        if self.kind == "skill":
            return t("raw", text=sheet.skills[self.key].label)
        return _attribute_label(self.key)


class O3d10(RuleSystem):
    id: ClassVar[str] = "o3d10"
    names: ClassVar[Mapping[str, str]] = {"es": "1o3d10", "en": "1o3d10"}
    messages: ClassVar[Mapping[str, Mapping[str, str]]] = MESSAGES
    settings: ClassVar[tuple[Param, ...]] = (
        Param("health_model", "choice", default="bands", choices=("bands", "hit_points")),
        Param("rank_stacking", "choice", default="steps", choices=("steps", "lowest_wins")),
        Param("opposed_tie", "choice", default="repeat", choices=("repeat", "defender")),
    )
    actions: ClassVar[Mapping[str, ActionSpec]] = {
        "attribute": ActionSpec(
            "attribute",
            "roll",
            t("action.attribute"),
            (
                Param("attribute", "str", required=True, max_length=40),
                *_ROLL_PARAMS,
                *_OPPOSED_PARAMS,
            ),
            max_targets=1,
        ),
        "skill": ActionSpec(
            "skill",
            "roll",
            t("action.skill"),
            (Param("skill", "str", required=True, max_length=40), *_ROLL_PARAMS, *_OPPOSED_PARAMS),
            max_targets=1,
        ),
        "oppose": ActionSpec(
            "oppose",
            "card_action",
            t("action.oppose"),
            (
                Param("skill", "str", max_length=40),
                Param("attribute", "str", max_length=40),
                Param("against", "int", required=True, minimum=-1000, maximum=100000),
                Param("against_fumble", "bool", default=False),
                Param("modifier", "int", default=0, minimum=-100, maximum=100),
                Param("keep", "choice", default="auto", choices=KEEP_CHOICES),
                Param("give_token", "bool", default=False),
            ),
            min_targets=1,
            max_targets=1,
        ),
        "token_return": ActionSpec("token_return", "roll", t("action.token_return"), gm_only=True),
    }

    # -- sheets ---------------------------------------------------------------
    def validate_sheet(self, raw: JsonMap) -> JsonMap:
        return sheet_to_json(parse_sheet(raw))

    def initial_state(self, sheet: JsonMap) -> JsonMap:
        return {"heridas": 0, "token": "player"}

    def token_numbers(self, actor: Actor) -> Mapping[str, int]:
        return {"heridas": int(actor.state.get("heridas", 0))}

    def buttons(self, world: World, actor: Actor) -> tuple[Button, ...]:
        sheet = parse_sheet(actor.sheet)
        attributes = tuple(
            Button(
                _attribute_label(key),
                "roll",
                "attribute",
                {"attribute": key},
                t("group.attributes"),
                _ASK,
            )
            for key in sheet.attributes
        )
        skills = tuple(
            Button(
                t("raw", text=skill.label), "roll", "skill", {"skill": key}, t("group.skills"), _ASK
            )
            for key, skill in sheet.skills.items()
        )
        gm = (
            Button(
                t("action.token_return"),
                "roll",
                "token_return",
                {},
                t("group.director"),
                gm_only=True,
            ),
        )
        return attributes + skills + gm

    def sample_actors(self) -> tuple[Actor, ...]:
        aldara = {
            "attributes": {
                "fisico": 8,
                "destreza": 6,
                "percepcion": 5,
                "inteligencia": 4,
                "carisma": 5,
            },
            "skills": {
                "cuerpo_a_cuerpo": {"label": "Cuerpo a Cuerpo", "value": 4, "attribute": "fisico"},
                "armas_a_distancia": {
                    "label": "Armas a Distancia",
                    "value": 3,
                    "attribute": "destreza",
                },
                "sigilo": {"label": "Sigilo", "value": 2, "attribute": "destreza"},
                "advertir_notar": {
                    "label": "Advertir/Notar",
                    "value": 0,
                    "attribute": "percepcion",
                },
            },
        }
        bruno = {
            "attributes": {
                "fisico": 6,
                "destreza": 7,
                "percepcion": 6,
                "inteligencia": 5,
                "carisma": 3,
            },
            "skills": {
                "cuerpo_a_cuerpo": {"label": "Cuerpo a Cuerpo", "value": 2, "attribute": "fisico"},
                "sigilo": {"label": "Sigilo", "value": 4, "attribute": "destreza"},
                "advertir_notar": {
                    "label": "Advertir/Notar",
                    "value": 3,
                    "attribute": "percepcion",
                },
            },
        }
        return tuple(
            Actor(actor_id, name, None, sheet, self.initial_state(sheet))
            for actor_id, name, sheet in (("aldara", "Aldara", aldara), ("bruno", "Bruno", bruno))
        )

    # -- resolution -----------------------------------------------------------
    def resolve(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        if action.kind == "token_return":
            return self._token_return(world, action)
        if action.kind == "oppose":
            return self._oppose(world, action, dice)
        return self._check(world, action, dice)

    def _what(self, actor: Actor, sheet: Sheet, kind: str, key: str, field: str) -> _What:
        if kind == "skill":
            if key not in sheet.skills:
                raise RulesError(
                    "no_such_skill", t("error.no_skill", actor=actor.name, skill=key), field
                )
        elif key not in sheet.attributes:
            raise RulesError(
                "no_such_attribute", t("error.no_attribute", actor=actor.name, attribute=key), field
            )
        return _What(kind, key)

    def _roll(
        self,
        world: World,
        actor: Actor,
        what: _What,
        params: Mapping[str, Any],
        dice: DiceSource,
        difficulty: int | None,
        by_gm: bool = False,
    ) -> tuple[CheckResult, Circumstances, dict[str, Any]]:
        sheet = parse_sheet(actor.sheet)
        token = str(actor.state.get("token", "player"))
        give = bool(params.get("give_token", False))
        if give and token != "player":
            raise RulesError(
                "token_not_held", t("error.token_not_held", actor=actor.name), "params.give_token"
            )
        skill_value = sheet.skills[what.key].value if what.kind == "skill" else 0
        keep = str(params.get("keep", "auto"))
        if keep != "auto" and not by_gm:
            raise RulesError("keep_is_gm_only", t("error.keep_is_gm_only"), "params.keep")
        circumstances = Circumstances(
            badly_hurt=is_badly_hurt(sheet, actor.state, world.settings),
            unknown_skill=what.kind == "skill" and skill_value == 0,
            token_given=give,
            token_returned=token == "returned",
            split_actions=bool(params.get("split", False)),
            forced=_FORCED.get(keep),
        )
        rank = kept_rank(circumstances, str(world.settings.get("rank_stacking", "steps")))
        attribute = sheet.skills[what.key].attribute if what.kind == "skill" else what.key
        base = sheet.attributes[attribute] + skill_value
        result = roll_check(
            dice,
            "skill" if what.kind == "skill" else "attribute",
            base,
            rank,
            modifier=int(params.get("modifier", 0)),
            difficulty=difficulty,
        )
        state_change: dict[str, Any] = {}
        if give:
            state_change["token"] = "gm"
        elif token == "returned":
            state_change["token"] = "player"
        return result, circumstances, state_change

    def _difficulty(self, kind: str, params: Mapping[str, Any]) -> int | None:
        level, exact = params.get("level"), params.get("difficulty")
        if level is not None and exact is not None:
            raise RulesError("invalid_param", t("error.level_and_difficulty"), "params.difficulty")
        if exact is not None:
            return int(exact)
        if level is None:
            return None
        table = SKILL_DIFFICULTY if kind == "skill" else ATTRIBUTE_DIFFICULTY
        return table[str(level)]

    def _check(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        actor = world.actor(action.actor_id)
        sheet = parse_sheet(actor.sheet)
        params = action.params
        what = self._what(
            actor, sheet, action.kind, str(params[action.kind]), f"params.{action.kind}"
        )
        opponent_what: _What | None = None
        if action.targets:
            opponent = world.actor(action.targets[0], "targets.0")
            opponent_sheet = parse_sheet(opponent.sheet)
            if params.get("opposed_skill"):
                opponent_what = self._what(
                    opponent,
                    opponent_sheet,
                    "skill",
                    str(params["opposed_skill"]),
                    "params.opposed_skill",
                )
            elif params.get("opposed_attribute"):
                opponent_what = self._what(
                    opponent,
                    opponent_sheet,
                    "attribute",
                    str(params["opposed_attribute"]),
                    "params.opposed_attribute",
                )
            else:
                raise RulesError(
                    "invalid_param", t("error.opposed_needs_what"), "params.opposed_skill"
                )
        difficulty = None if opponent_what else self._difficulty(what.kind, params)
        result, circumstances, state = self._roll(
            world, actor, what, params, dice, difficulty, action.by_gm
        )
        lines = list(_roll_lines(sheet, what, result, circumstances))
        follow: tuple[FollowUp, ...] = ()
        if opponent_what is not None:
            opponent = world.actor(action.targets[0])
            opponent_label = opponent_what.label(parse_sheet(opponent.sheet))
            lines.append(Line(t("line.opposed_pending", actor=opponent.name, what=opponent_label)))
            follow = (
                FollowUp(
                    "oppose",
                    t("follow.oppose", what=opponent_label),
                    "oppose",
                    opponent.id,
                    {
                        opponent_what.kind: opponent_what.key,
                        "against": result.total,
                        "against_fumble": result.fumble,
                    },
                    (actor.id,),
                ),
            )
        card = Card(
            kind=action.kind,
            title=t(f"card.{what.kind}", **{what.kind: what.label(sheet)}),
            speaker=actor.id,
            dice=result.roll.dice,
            outcome=None if opponent_what else _outcome(result),
            sections=(Section(None, tuple(lines)),),
            actions=follow,
            target=action.targets[0] if action.targets else None,
        )
        effects = (ActorChange(actor.id, state),) if state else ()
        return Resolution(action, (card,), effects)

    def _oppose(self, world: World, action: Action, dice: DiceSource) -> Resolution:
        actor = world.actor(action.actor_id)
        first = world.actor(action.targets[0], "targets.0")
        sheet = parse_sheet(actor.sheet)
        params = action.params
        if params.get("skill"):
            what = self._what(actor, sheet, "skill", str(params["skill"]), "params.skill")
        elif params.get("attribute"):
            what = self._what(
                actor, sheet, "attribute", str(params["attribute"]), "params.attribute"
            )
        else:
            raise RulesError("invalid_param", t("error.opposed_needs_what"), "params.skill")
        result, circumstances, state = self._roll(
            world, actor, what, params, dice, None, action.by_gm
        )
        lines = list(_roll_lines(sheet, what, result, circumstances))
        against = int(params["against"])
        winner = opposed_winner(
            (against, bool(params.get("against_fumble", False))),
            (result.total, result.fumble),
            str(world.settings.get("opposed_tie", "repeat")),
        )
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
                result.total - against,
            )
        card = Card(
            kind="oppose",
            title=t("card.oppose", first=first.name, second=actor.name),
            speaker=actor.id,
            dice=result.roll.dice,
            outcome=outcome,
            sections=(Section(None, tuple(lines)),),
            target=first.id,
        )
        effects = (ActorChange(actor.id, state),) if state else ()
        return Resolution(action, (card,), effects)

    def _token_return(self, world: World, action: Action) -> Resolution:
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


def _outcome(result: CheckResult) -> Outcome:
    key = result.outcome
    label = t("outcome.rolled") if key == "rolled" else t(f"outcome.{key}")
    margin = None if result.difficulty is None else result.total - result.difficulty
    return Outcome(key, label, result.success, margin)


def _roll_lines(
    sheet: Sheet, what: _What, result: CheckResult, circumstances: Circumstances
) -> tuple[Line, ...]:
    rank = t(f"rank.{result.roll.rank.value}")
    reasons = list(circumstances.reasons)
    if circumstances.forced is not None:
        reasons = ["forced"]
    kept = (
        t("line.kept_because", rank=rank, reasons=tuple(t(f"reason.{r}") for r in reasons))
        if reasons
        else t("line.kept", rank=rank)
    )
    lines = [Line(kept)]
    die = result.roll.total
    if what.kind == "skill":
        skill = sheet.skills[what.key]
        lines.append(
            Line(
                t(
                    "line.sum_skill",
                    attribute=_attribute_label(skill.attribute),
                    attr_value=sheet.attributes[skill.attribute],
                    skill=skill.label,
                    skill_value=skill.value,
                    die=die,
                )
            )
        )
    else:
        lines.append(
            Line(
                t(
                    "line.sum_attribute",
                    attribute=_attribute_label(what.key),
                    value=sheet.attributes[what.key],
                    die=die,
                )
            )
        )
    if result.roll.exploded:
        faces = " + ".join(str(f) for f in result.roll.kept_faces)
        lines.append(Line(t("line.exploded", faces=faces)))
    if result.modifier:
        lines.append(Line(t("line.modifier", modifier=f"{result.modifier:+d}")))
    lines.append(Line(t("line.total", total=result.total)))
    if result.difficulty is not None:
        lines.append(Line(t("line.difficulty", difficulty=result.difficulty)))
    if result.kind == "skill" and result.natural_one and not result.fumble:
        lines.append(Line(t("line.natural_one")))
    return tuple(lines)
