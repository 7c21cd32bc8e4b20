"""Trait rolls: the trait die (plus the wild die for Wild Cards), its modifiers and the outcome.

Every modifier is kept with its key (its label is ``mod.<key>`` in the
catalogue) so a card can show each one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, final

from rules.dice import DiceSource, Die
from rules.model import Line, Outcome, RulesError, Text, t
from rules.records import native_record
from rules.savage_worlds.shared import SHEET_TABLE_SIZE, remember, roll_ace, set_aside
from rules.savage_worlds.sheet import Sheet
from rules.savage_worlds.state import Draft, in_combat, wound_penalty
from rules.savage_worlds.tables import (
    ATTRIBUTES,
    INJURY_ATTRIBUTE,
    JOKER_BONUS,
    MAX_ACTIONS,
    MULTI_ACTION_PENALTY,
    RAISE,
    TARGET_NUMBER,
    TRAIT_DICE,
    UNSKILLED_DIE,
    UNSKILLED_MODIFIER,
    WILD_DIE,
)


@final
@dataclass(frozen=True)
class Modifier:
    key: str
    value: int

    def __init__(self, key: str, value: int) -> None:
        self.key = key  # type: ignore[misc]
        self.value = value  # type: ignore[misc]


native_record(Modifier)


@final
@dataclass(frozen=True)
class TraitDie:
    """Which die a trait rolls and the modifiers the sheet itself brings."""

    key: str
    label: Text
    die: int
    modifiers: tuple[Modifier, ...]
    unskilled: bool = False

    def __init__(
        self,
        key: str,
        label: Text,
        die: int,
        modifiers: tuple[Modifier, ...],
        unskilled: bool = False,
    ) -> None:
        self.key = key  # type: ignore[misc]
        self.label = label  # type: ignore[misc]
        self.die = die  # type: ignore[misc]
        self.modifiers = modifiers  # type: ignore[misc]
        self.unskilled = unskilled  # type: ignore[misc]


native_record(TraitDie)


def trait_label(key: str) -> Text:
    if key in ATTRIBUTES:
        return t(f"attr.{key}")
    return t(f"skill.{key}") if f"skill.{key}" in _SKILL_KEYS else t("raw", text=key)


_SKILL_KEYS: Final = frozenset(
    f"skill.{k}" for k in ("pelear", "disparar", "lanzar", "atletismo", "notar", "sigilo", "sanar")
)


def injured_attributes(state: Mapping[str, Any]) -> set[str]:
    injuries = state.get("injuries", [])
    out: set[str] = set()
    if isinstance(injuries, list):
        for injury in injuries:
            if isinstance(injury, Mapping) and injury.get("key") in INJURY_ATTRIBUTE:
                out.add(INJURY_ATTRIBUTE[str(injury["key"])])
    return out


def step_down(die: int) -> int:
    index = TRAIT_DICE.index(die)
    return TRAIT_DICE[max(0, index - 1)]


_TRAITS: Final[dict[tuple[int, str, bool], tuple[Sheet, TraitDie]]] = {}


def trait_die(
    sheet: Sheet, state: Mapping[str, Any], key: str, settings: Mapping[str, Any], field: str
) -> TraitDie:
    """The die for an attribute or skill; a missing skill is rolled unskilled (setting).

    Worked out once per parsed sheet (held, so its id is not reused; sheets never change),
    trait and whether an injury steps the attribute down; a refusal is never remembered."""
    if (
        key not in ATTRIBUTES
        and key not in sheet.skills
        and settings.get("unskilled", "d4-2") == "refuse"
    ):
        raise RulesError("unskilled_refused", t("error.unskilled", skill=key[:40]), field)
    stepped = key in ATTRIBUTES and bool(state.get("injuries")) and key in injured_attributes(state)
    found = _TRAITS.get((id(sheet), key, stepped))
    if found is not None and found[0] is sheet:
        return found[1]
    made = _trait_die(sheet, key, stepped)
    remember(_TRAITS, (id(sheet), key, stepped), (sheet, made), SHEET_TABLE_SIZE)
    return made


def _trait_die(sheet: Sheet, key: str, stepped: bool) -> TraitDie:
    if key in ATTRIBUTES:
        die = sheet.attributes[key]
        if stepped:
            die = step_down(die)
        return TraitDie(key, t(f"attr.{key}"), die, ())
    skill = sheet.skills.get(key)
    if skill is not None:
        mods = (Modifier("skill", skill.modifier),) if skill.modifier else ()
        return TraitDie(key, t("raw", text=skill.label), skill.die, mods)
    return TraitDie(
        key,
        trait_label(key),
        UNSKILLED_DIE,
        (Modifier("unskilled", UNSKILLED_MODIFIER),),
        unskilled=True,
    )


def situation_modifiers(
    draft: Draft, actor_id: str, sheet: Sheet, *, multi: int = 1, joker: bool = True
) -> tuple[Modifier, ...]:
    """Wounds, the Joker's +2 and the multi-action penalty, applied automatically."""
    mods: list[Modifier] = []
    wound = wound_penalty(sheet, draft.state(actor_id))
    if wound:
        mods.append(Modifier("wounds", wound))
    if joker and draft.has(actor_id, "joker"):
        mods.append(Modifier("joker", JOKER_BONUS))
    if multi > 1:
        mods.append(Modifier("multi", -MULTI_ACTION_PENALTY * (multi - 1)))
    return tuple(mods)


@final
@dataclass(frozen=True)
class TraitResult:
    """A trait roll. Everything after ``critical_failure_rule`` is read off the dice once, by
    :func:`roll_trait_check` (cards and effects read each of them several times)."""

    trait: TraitDie
    die: Die
    wild: Die | None
    modifiers: tuple[Modifier, ...]
    tn: int
    critical_failure_rule: bool
    modifier: int = field(compare=False, repr=False)
    kept_total: int = field(compare=False, repr=False)
    total: int = field(compare=False, repr=False)
    critical_failure: bool = field(compare=False, repr=False)
    """Both dice show a natural 1 (Wild Cards only)."""
    success: bool = field(compare=False, repr=False)
    raises: int = field(compare=False, repr=False)

    def __init__(
        self,
        trait: TraitDie,
        die: Die,
        wild: Die | None,
        modifiers: tuple[Modifier, ...],
        tn: int,
        critical_failure_rule: bool,
        modifier: int,
        kept_total: int,
        total: int,
        critical_failure: bool,
        success: bool,
        raises: int,
    ) -> None:
        self.trait = trait  # type: ignore[misc]
        self.die = die  # type: ignore[misc]
        self.wild = wild  # type: ignore[misc]
        self.modifiers = modifiers  # type: ignore[misc]
        self.tn = tn  # type: ignore[misc]
        self.critical_failure_rule = critical_failure_rule  # type: ignore[misc]
        self.modifier = modifier  # type: ignore[misc]
        self.kept_total = kept_total  # type: ignore[misc]
        self.total = total  # type: ignore[misc]
        self.critical_failure = critical_failure  # type: ignore[misc]
        self.success = success  # type: ignore[misc]
        self.raises = raises  # type: ignore[misc]

    @property
    def dice(self) -> tuple[Die, ...]:
        if self.wild is None:
            return (self.die,)
        if sum(self.wild.faces) > sum(self.die.faces):  # the wild die counts
            return (set_aside(self.die), self.wild)
        return (self.die, set_aside(self.wild))


native_record(TraitResult)


def roll_trait_check(
    dice: DiceSource,
    trait: TraitDie,
    *,
    wild_card: bool,
    modifiers: tuple[Modifier, ...],
    tn: int = TARGET_NUMBER,
    role: str = "trait",
    critical_failure_rule: bool = True,
) -> TraitResult:
    roll = dice.roll
    die = roll_ace(roll, trait.die, role)
    wild = roll_ace(roll, WILD_DIE, "wild") if wild_card else None
    mods = (*trait.modifiers, *modifiers)
    modifier = 0
    zero = False
    for each in mods:
        if each.value:
            modifier += each.value
        else:
            zero = True
    if zero:  # zero modifiers are not shown
        mods = tuple([m for m in mods if m.value])
    kept_total = sum(die.faces)
    if wild is not None:
        wild_total = sum(wild.faces)
        if wild_total > kept_total:
            kept_total = wild_total
    total = kept_total + modifier
    critical = (
        critical_failure_rule and wild is not None and die.faces[0] == 1 and wild.faces[0] == 1
    )
    success = not critical and total >= tn
    raises = (total - tn) // RAISE if success else 0
    return TraitResult(
        trait,
        die,
        wild,
        mods,
        tn,
        critical_failure_rule,
        modifier,
        kept_total,
        total,
        critical,
        success,
        raises,
    )


_OUTCOMES: Final[dict[tuple[bool, bool, int, int], Outcome]] = {}


def outcome(result: TraitResult) -> Outcome:
    """The roll's outcome (shared for equal values)."""
    key = (result.critical_failure, result.success, result.raises, result.total - result.tn)
    found = _OUTCOMES.get(key)
    if found is None:
        found = remember(_OUTCOMES, key, _outcome(*key))
    return found


def _outcome(critical: bool, success: bool, raises: int, margin: int) -> Outcome:
    if critical:
        return Outcome("fumble", t("outcome.fumble"), False, margin)
    if not success:
        return Outcome("failure", t("outcome.failure"), False, margin)
    if raises:
        return Outcome("raise", t("outcome.raise", count=raises), True, margin)
    return Outcome("success", t("outcome.success"), True, margin)


def modifier_lines(modifiers: tuple[Modifier, ...]) -> tuple[Line, ...]:
    return tuple(Line(t(f"mod.{m.key}"), f"{m.value:+d}") for m in modifiers if m.value)


_DIE_LINES: Final[dict[int, tuple[TraitDie, Line]]] = {}
_TOTALS: Final[dict[tuple[int, int], Line]] = {}
_ACES: Final = Line(t("line.aces"))
_CRITICAL_FAILURE: Final = Line(t("line.critical_failure"))


def die_line(trait: TraitDie) -> Line:
    """'<trait> d<die>', once per trait die record (held: its id is not reused)."""
    found = _DIE_LINES.get(id(trait))
    if found is None or found[0] is not trait:
        line = Line(t("line.trait_die", trait=trait.label, die=trait.die))
        found = remember(_DIE_LINES, id(trait), (trait, line), SHEET_TABLE_SIZE)
    return found[1]


def trait_lines(result: TraitResult) -> tuple[Line, ...]:
    lines = [die_line(result.trait)]
    if len(result.die.faces) > 1 or (result.wild is not None and len(result.wild.faces) > 1):
        lines.append(_ACES)
    if result.modifiers:
        lines.extend(modifier_lines(result.modifiers))
    total = _TOTALS.get((result.total, result.tn))
    if total is None:
        total = remember(
            _TOTALS,
            (result.total, result.tn),
            Line(t("line.total_vs", total=result.total, tn=result.tn)),
        )
    lines.append(total)
    if result.critical_failure:
        lines.append(_CRITICAL_FAILURE)
    return tuple(lines)


# -- actions per turn ------------------------------------------------------------
def multi_count(draft: Draft, actor_id: str) -> int:
    """How many actions the actor declared this turn (1 when none or out of combat)."""
    if not in_combat(draft):
        return 1
    return max(1, int(draft.get(actor_id, "declared", 0)))


def use_action(draft: Draft, actor_id: str, settings: Mapping[str, Any], field: str) -> int:
    """Spend one declared action in combat; returns the multi-action count for the penalty.

    'asegúrate de que el jugador declare todas las acciones ... antes de comenzar a
    resolver ninguna': with ``track_actions`` an action beyond those declared (one
    when none were declared) is refused.
    """
    if not in_combat(draft) or not settings.get("track_actions", True):
        return multi_count(draft, actor_id)
    if bool(draft.get(actor_id, "full_round", False)):
        raise RulesError(
            "full_round_action",
            t("error.full_round_done", actor=draft.actor(actor_id).name),
            field,
        )
    declared = max(1, int(draft.get(actor_id, "declared", 0)))
    used = int(draft.get(actor_id, "used", 0))
    if used >= declared:
        raise RulesError(
            "not_enough_actions",
            t("error.not_enough_actions", actor=draft.actor(actor_id).name, declared=declared),
            field,
        )
    draft.put(actor_id, used=used + 1, declared=declared)
    return declared


def check_declare(count: int) -> None:
    if not 1 <= count <= MAX_ACTIONS:
        raise RulesError(
            "too_many_actions", t("error.too_many_actions", maximum=MAX_ACTIONS), "params.count"
        )
