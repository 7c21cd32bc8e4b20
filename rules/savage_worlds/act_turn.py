"""Actions of a turn: trait rolls, declaring actions, free actions, Shaken recovery, bennies, hold."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.dice import DiceSource, Die
from rules.model import Action, Card, Line, Outcome, Resolution, Section, Text, World, t
from rules.savage_worlds.act_attack import require_can_act
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.shared import SHEET_TABLE_SIZE, remember
from rules.savage_worlds.sheet import parse_sheet
from rules.savage_worlds.state import (
    COMBAT,
    OUT,
    TRACKER,
    Draft,
    current_pace,
    drop_hold,
    in_combat,
    refuse_in_tracker,
    require_active,
    spend_benny,
)
from rules.savage_worlds.tables import JOKER_BONUS, MULTI_ACTION_PENALTY
from rules.savage_worlds.traits import (
    Modifier,
    TraitDie,
    TraitResult,
    check_declare,
    multi_count,
    outcome,
    roll_trait_check,
    situation_modifiers,
    trait_die,
    trait_lines,
    use_action,
)


def _done(action: Action, draft: Draft, kind: str, lines: list[Line], **extra: Any) -> Resolution:
    name = draft.actor(action.actor_id).name
    return Resolution(
        action,
        (card(kind, t(f"card.{kind}", actor=name), action.actor_id, lines, **extra),),
        draft.effects(),
    )


def resolve_trait(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """A trait roll against TN 4 (or another): free rolls (resisting) cost no action.

    Out of combat nothing is counted, so the actor is read straight from the world; the
    trait die, its line and the card's title are worked out once per sheet and trait."""
    draft = Draft(world)
    actor_id, params = action.actor_id, action.params
    actor = draft.actor(actor_id)
    sheet = parse_sheet(actor.sheet)
    statuses = actor.statuses
    free = bool(params["free"])
    fight = world.data.get(COMBAT)
    fighting = bool(fight) and isinstance(fight, Mapping) and bool(fight.get("active", False))
    if not OUT.isdisjoint(statuses):
        raise refuse("actor_out", "actor", actor=actor.name)
    if free:
        multi = multi_count(draft, actor_id) if fighting else 1
    else:
        if "stunned" in statuses:
            raise refuse("shaken", "actor", actor=actor.name)
        multi = use_action(draft, actor_id, settings, "actor") if fighting else 1
        if "on_hold" in statuses or "overwatch" in statuses or world.data.get(TRACKER):
            drop_hold(draft, actor_id)
    trait = trait_die(sheet, actor.state, str(params["trait"]), settings, "params.trait")
    mods: list[Modifier] = []
    if sheet.wild_card:
        wound = -min(int(actor.state.get("wounds", 0)), 3)
        if wound:
            mods.append(Modifier("wounds", wound))
    if "joker" in statuses:
        mods.append(Modifier("joker", JOKER_BONUS))
    if not free and multi > 1:
        mods.append(Modifier("multi", -MULTI_ACTION_PENALTY * (multi - 1)))
    modifier = int(params["modifier"])
    if modifier:
        mods.append(Modifier("modifier", modifier))
    roll = roll_trait_check(
        dice,
        trait,
        wild_card=sheet.wild_card,
        modifiers=tuple(mods),
        tn=int(params["tn"]),
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    return Resolution(
        action,
        (
            Card(
                "trait",
                _trait_title(actor.name, trait),
                actor_id,
                roll.dice,
                outcome(roll),
                _trait_sections(roll),
                (),
                "public",
                None,
            ),
        ),
        draft.effects(),
    )


_SECTIONS: Final[dict[tuple[int, ...], tuple[tuple[Line, ...], tuple[Section, ...]]]] = {}


def _trait_sections(roll: TraitResult) -> tuple[Section, ...]:
    """The card's one section of the roll's lines, shared by every roll that shows the very
    same lines (all of them shared records: the trait die's line, aces, the total against
    the TN, a critical failure; a roll with modifiers shows lines made for it and gets a
    section of its own). Frozen records, so the card's JSON and its renderings are found by
    the section tuple's identity instead of being keyed by its texts each roll. The entry
    holds the lines, so their ids are not reused while it lives."""
    lines = trait_lines(roll)
    if roll.modifiers:
        return (Section(None, lines),)
    key = tuple([id(line) for line in lines])
    found = _SECTIONS.get(key)
    if found is None:
        found = remember(_SECTIONS, key, (lines, (Section(None, lines),)), SHEET_TABLE_SIZE)
    return found[1]


_TITLES: Final[dict[tuple[str, int], tuple[TraitDie, Text]]] = {}


def _trait_title(name: str, trait: TraitDie) -> Text:
    """'<name> rolls <trait>', once per actor name and trait die record (held)."""
    found = _TITLES.get((name, id(trait)))
    if found is None or found[0] is not trait:
        title = t("card.trait", actor=name, trait=trait.label)
        found = remember(_TITLES, (name, id(trait)), (trait, title), SHEET_TABLE_SIZE)
    return found[1]


def resolve_declare(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'asegúrate de que el jugador declare todas las acciones ... antes de ... resolver ninguna'."""
    draft = Draft(world)
    count = int(action.params["count"])
    check_declare(count)
    require_active(draft, action.actor_id)
    if int(draft.get(action.actor_id, "used", 0)) > 0:
        raise refuse("actions_already_started", "params.count")
    draft.put(action.actor_id, declared=count, used=0)
    penalty = -2 * (count - 1)
    lines = [Line(t("line.declared", count=count), f"{penalty:+d}" if penalty else None)]
    return _done(action, draft, "declare", lines)


FREE_ACTIONS: Final = ("move", "prone", "stand", "jump", "speak", "drop")


def resolve_free(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Acciones gratuitas': moving up to Pace, dropping prone, standing up (2 squares), jumping."""
    draft = Draft(world)
    actor_id, what = action.actor_id, str(action.params["what"])
    require_active(draft, actor_id)
    sheet = draft.sheet(actor_id)
    lines = [Line(t(f"free.{what}", pace=current_pace(sheet, draft.state(actor_id))))]
    if what == "prone":
        draft.add(actor_id, "prone")
    elif what == "stand":
        if not draft.has(actor_id, "prone"):
            raise refuse("not_prone", "params.what", actor=draft.actor(actor_id).name)
        draft.remove(actor_id, "prone")
    elif what == "move":
        draft.put(actor_id, moved=True, bipod=[])
    return _done(action, draft, "free", lines)


def resolve_start_turn(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """The start of the character's turn: Shaken rolls Spirit; the turn's counters reset."""
    refuse_in_tracker(world)
    draft = Draft(world)
    actor_id = action.actor_id
    require_active(draft, actor_id)
    draft.put(actor_id, declared=0, used=0, full_round=False, moved=False, readied=0)
    lines, rolled, result_outcome = shaken_recovery(draft, actor_id, dice, settings)
    if not lines:
        lines.append(Line(t("line.turn_starts", actor=draft.actor(actor_id).name)))
    return _done(action, draft, "start_turn", lines, dice=rolled, outcome=result_outcome)


def shaken_recovery(
    draft: Draft, actor_id: str, dice: DiceSource, settings: Mapping[str, Any]
) -> tuple[list[Line], tuple[Die, ...], Outcome | None]:
    """'Al comienzo de su turno, un personaje aturdido hace una tirada de Espíritu': nothing when
    the actor is not Shaken."""
    if not draft.has(actor_id, "stunned"):
        return [], (), None
    sheet = draft.sheet(actor_id)
    spirit = trait_die(sheet, draft.state(actor_id), "espiritu", settings, "actor")
    roll = roll_trait_check(
        dice,
        spirit,
        wild_card=sheet.wild_card,
        modifiers=situation_modifiers(draft, actor_id, sheet),
        role="spirit",
        critical_failure_rule=bool(settings.get("critical_failure", True)),
    )
    lines = list(trait_lines(roll))
    if roll.success:
        draft.remove(actor_id, "stunned")
        lines.append(Line(t("line.unshaken", actor=draft.actor(actor_id).name)))
    else:
        lines.append(Line(t("line.still_shaken", actor=draft.actor(actor_id).name)))
    return lines, roll.dice, outcome(roll)


def resolve_unshake(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Un personaje puede gastar un beni en cualquier momento para eliminar el estado de aturdimiento'."""
    draft = Draft(world)
    actor_id = action.actor_id
    if not draft.has(actor_id, "stunned"):
        raise refuse("not_shaken", "actor", actor=draft.actor(actor_id).name)
    require_active(draft, actor_id)
    source = spend_benny(draft, actor_id)
    draft.remove(actor_id, "stunned")
    lines = [
        Line(t("line.benny_spent", source=t(f"benny.{source}"))),
        Line(t("line.unshaken", actor=draft.actor(actor_id).name)),
    ]
    return _done(action, draft, "unshake", lines)


def resolve_benny(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """GM lever: give (or take) bennies to an actor, or set the GM's pool (``to_gm``)."""
    draft = Draft(world)
    count = int(action.params["count"])
    if action.params["to_gm"]:
        total = max(0, int(draft.data("gm_bennies", 0)) + count)
        draft.set_data("gm_bennies", total)
        lines = [Line(t("line.gm_bennies", count=total))]
    else:
        total = max(0, int(draft.get(action.actor_id, "bennies", 0)) + count)
        draft.put(action.actor_id, bennies=total)
        lines = [Line(t("line.bennies", actor=draft.actor(action.actor_id).name, count=total))]
    return _done(action, draft, "benny", lines)


def resolve_hold(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'Espera': the card is kept into later rounds until the character acts."""
    refuse_in_tracker(world)
    draft = Draft(world)
    require_can_act(draft, action.actor_id)
    if not in_combat(draft):
        raise refuse("not_in_combat", "actor")
    if int(draft.get(action.actor_id, "used", 0)) > 0:
        raise refuse("actions_already_started", "actor")
    draft.add(action.actor_id, "on_hold")
    return _done(
        action, draft, "hold", [Line(t("line.on_hold", actor=draft.actor(action.actor_id).name))]
    )


def resolve_interrupt(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'tanto él como su contrincante hacen una tirada opuesta de Atletismo ... empate: simultáneas'."""
    refuse_in_tracker(world)
    draft = Draft(world)
    actor_id, other = action.actor_id, action.targets[0]
    if not draft.has(actor_id, "on_hold"):
        raise refuse("not_on_hold", "actor", actor=draft.actor(actor_id).name)
    require_active(draft, other, "targets.0")
    lines, rolled, result = opposed_athletics(draft, actor_id, other, dice, settings)
    draft.remove(actor_id, "on_hold")
    return _done(action, draft, "interrupt", lines, dice=rolled, outcome=result, target=other)


def opposed_athletics(
    draft: Draft, actor_id: str, other: str, dice: DiceSource, settings: Mapping[str, Any]
) -> tuple[list[Line], tuple[Die, ...], Outcome]:
    """The holder and the one interrupted roll Athletics: higher first, a tie is simultaneous."""
    rolls = []
    for who in (actor_id, other):
        sheet = draft.sheet(who)
        athletics = trait_die(sheet, draft.state(who), "atletismo", settings, "actor")
        rolls.append(
            roll_trait_check(
                dice,
                athletics,
                wild_card=sheet.wild_card,
                modifiers=situation_modifiers(draft, who, sheet),
                role="athletics",
                critical_failure_rule=bool(settings.get("critical_failure", True)),
            )
        )
    mine, theirs = rolls[0].total, rolls[1].total
    me, them = draft.actor(actor_id).name, draft.actor(other).name
    if mine > theirs:
        result = Outcome("success", t("outcome.success"), True, mine - theirs)
        verdict = t("line.interrupt_first", actor=me)
    elif mine < theirs:
        result = Outcome("failure", t("outcome.failure"), False, mine - theirs)
        verdict = t("line.interrupt_first", actor=them)
    else:
        result = Outcome("tie", t("outcome.tie"), None, 0)
        verdict = t("line.interrupt_tie")
    lines = [
        Line(t("line.opposed_side", actor=me), rolls[0].total),
        Line(t("line.opposed_side", actor=them), rolls[1].total),
        Line(verdict),
    ]
    return lines, (*rolls[0].dice, *rolls[1].dice), result
