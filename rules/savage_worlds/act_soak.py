"""Soak rolls with bennies, applying a pending hit, and the GM's direct damage."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.dice import DiceSource
from rules.model import Action, Card, FollowUp, Line, Outcome, Resolution, Section, Text, World, t
from rules.savage_worlds.act_damage import pending_buttons, pending_of, settle
from rules.savage_worlds.cards import card, refuse
from rules.savage_worlds.health import apply_hit, compare, effective_toughness, soak_roll, soaked_by
from rules.savage_worlds.shared import line, remember
from rules.savage_worlds.state import Draft, require_active, spend_benny
from rules.savage_worlds.traits import trait_lines


def _pending(draft: Draft, action: Action) -> tuple[str, dict[str, Any]]:
    pid = str(action.params["pending"])
    hit = draft.peek("pending", {}).get(pid)  # read only: the hit is copied below
    if hit is None:
        raise refuse("unknown_pending", "params.pending", pending=pid[:40])
    if hit["target"] != action.actor_id:
        raise refuse("not_your_hit", "actor")
    return pid, dict(hit)


def resolve_soak(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """'El éxito ... reduce la cantidad de heridas sufridas en una, más otra por cada aumento'.

    One soak per attack; another benny rerolls it and the best roll counts.
    """
    draft = Draft(world)
    pid, hit = _pending(draft, action)
    name = draft.actor(action.actor_id).name
    if hit["wounds"] <= 0:
        raise refuse("nothing_to_soak", "params.pending")
    if not draft.sheet(action.actor_id).wild_card and not settings.get("extras_soak", False):
        raise refuse("extras_cannot_soak", "actor", actor=name)
    source = spend_benny(draft, action.actor_id)
    roll = soak_roll(draft, action.actor_id, dice, settings)
    soaked = soaked_by(roll)
    best = max(int(hit["soaked"]), soaked)
    hit["soaked"], hit["soak_rolls"] = best, int(hit["soak_rolls"]) + 1
    lines = [
        Line(t("line.benny_spent", source=t(f"benny.{source}"))),
        *trait_lines(roll),
        Line(t("line.soaked", soaked=soaked, best=best, wounds=hit["wounds"])),
    ]
    if hit["soak_rolls"] > 1:
        lines.append(Line(t("line.soak_reroll")))
    pending = dict(draft.peek("pending", {}))  # a new mapping; the other hits stay shared
    rolled = list(roll.dice)
    follow: tuple[FollowUp, ...] = ()
    if best >= hit["wounds"]:
        pending.pop(pid)
        draft.set_data("pending", pending)
        applied = apply_hit(draft, action.actor_id, 0, False, True, dice, settings)
        lines += applied.lines
    else:
        pending[pid] = hit
        draft.set_data("pending", pending)
        left = int(hit["wounds"]) - best
        lines.append(Line(t("line.wounds_left", wounds=left)))
        follow = pending_buttons(pid, action.actor_id, left, name)
    outcome = Outcome(
        "soaked" if soaked else "failure",
        t("outcome.soaked", count=soaked) if soaked else t("outcome.failure"),
        soaked > 0,
        roll.total - roll.tn,
    )
    return Resolution(
        action,
        (
            card(
                "soak",
                t("card.soak", actor=name),
                action.actor_id,
                lines,
                dice=rolled,
                outcome=outcome,
                actions=follow,
            ),
        ),
        draft.effects(),
    )


def resolve_apply(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    draft = Draft(world)
    pid, hit = _pending(draft, action)
    pending = dict(draft.peek("pending", {}))  # a new mapping; the other hits stay shared
    pending.pop(pid)
    draft.set_data("pending", pending)
    wounds = max(0, int(hit["wounds"]) - int(hit["soaked"]))
    soaked_all = int(hit["wounds"]) > 0 and wounds == 0
    applied = apply_hit(
        draft, action.actor_id, wounds, bool(hit["shaken"]), soaked_all, dice, settings
    )
    name = draft.actor(action.actor_id).name
    lines = [
        line("line.applying", damage=hit["damage"], toughness=hit["toughness"]),
        *applied.lines,
    ]
    return Resolution(
        action,
        (
            Card(
                "damage_apply",
                _apply_title(name),
                action.actor_id,
                tuple(applied.dice),
                None,
                (Section(None, tuple(lines)),),
                (),
                "public",
                action.actor_id,
            ),
        ),
        draft.effects(),
    )


_TITLES: Final[dict[str, Text]] = {}


def _apply_title(name: str) -> Text:
    found = _TITLES.get(name)
    if found is None:
        found = remember(_TITLES, name, t("card.damage_apply", actor=name))
    return found


def resolve_hurt(
    world: World, action: Action, dice: DiceSource, settings: Mapping[str, Any]
) -> Resolution:
    """GM lever: damage from outside an attack (a fall, a trap) against Toughness."""
    draft = Draft(world)
    target = action.actor_id
    require_active(draft, target)
    if pending_of(draft, "target", target) is not None:
        raise refuse("hit_pending", "actor")
    toughness = effective_toughness(draft.sheet(target), int(action.params["ap"]))
    result = compare(int(action.params["damage"]), toughness, draft.has(target, "stunned"))
    name = draft.actor(target).name
    lines = [Line(t("line.damage_vs", damage=result.damage, target=name, toughness=toughness))]
    return settle(action, draft, name, target, result, lines, [], dice, settings, None)
