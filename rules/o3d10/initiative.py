"""o3d10 initiative, as pure functions a combat tracker can call.

'Se tira Iniciativa +1o3d10 de cada personaje ... Lo que saquemos en iniciativa se usa para
todo el combate. Si se saca 20 o más, se tienen 2 acciones, 30 o más, 3 acciones ...
Una pifia en iniciativa significa que no se actua en el primer turno, y se irá último en
los siguientes.'

The combat bookkeeping lives in ``world.data["o3d10_combat"]`` (:data:`COMBAT_KEY`; the
shared combat tracker owns ``world.data["combat"]``) as plain JSON::

    {"active": true, "round": 1,
     "initiative": {actor_id: {"total": 23, "base": 11, "actions": 2, "fumble": false}},
     "used": {actor_id: 1}, "split": {actor_id: 1}, "moved": {actor_id: 9}}

``fights`` (a counter of finished combats) and ``ambush`` ({attacker: [targets]}) sit
beside it in ``world.data``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.dice import DiceSource
from rules.o3d10.checks import CheckResult, roll_check
from rules.o3d10.sheet import Sheet
from rules.o3d10.tables import ACTIONS_STEP, INITIATIVE_ATTRIBUTES
from rules.rolls import Rank

COMBAT_KEY = "o3d10_combat"
"""This system's round bookkeeping in ``world.data`` (not the tracker's ``combat``)."""


def initiative_base(sheet: Sheet) -> int:
    """Iniciativa: the sheet's own value, else Destreza + Percepción (RULES.md)."""
    if "iniciativa" in sheet.combat:
        return sheet.combat["iniciativa"]
    return sum(sheet.attribute(key) for key in INITIATIVE_ATTRIBUTES)


def actions_for(total: int) -> int:
    """1 action below 20, 2 from 20, 3 from 30, 4 from 40 ..."""
    return max(1, total // ACTIONS_STEP)


@dataclass(frozen=True)
class InitiativeResult:
    check: CheckResult
    encumbrance: int

    @property
    def total(self) -> int:
        return self.check.total

    @property
    def fumble(self) -> bool:
        return self.check.fumble

    @property
    def actions(self) -> int:
        return actions_for(self.total)

    def entry(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "base": self.check.base,
            "actions": self.actions,
            "fumble": self.fumble,
        }


def roll_initiative(
    dice: DiceSource, sheet: Sheet, rank: Rank = Rank.MEDIAN, modifier: int = 0
) -> InitiativeResult:
    """Iniciativa + 1o3d10 - estorbo ('Estorbo ... Se aplica a iniciativa')."""
    encumbrance = sheet.total_encumbrance
    check = roll_check(
        dice,
        "attribute",
        initiative_base(sheet),
        rank,
        modifier=modifier - encumbrance,
        natural_one_fails=False,
    )
    return InitiativeResult(check, encumbrance)


def turn_order(initiative: Mapping[str, Mapping[str, Any]], round_no: int) -> tuple[str, ...]:
    """Who acts, in order, in round ``round_no`` (1 = the first).

    Higher total first; ties by the higher Iniciativa, then by id. A fumbled
    initiative skips round 1 and goes last in every later round.
    """

    def key(actor_id: str) -> tuple[int, int, int, str]:
        entry = initiative[actor_id]
        return (
            1 if entry.get("fumble") else 0,
            -int(entry.get("total", 0)),
            -int(entry.get("base", 0)),
            actor_id,
        )

    ordered = sorted(initiative, key=key)
    if round_no <= 1:
        return tuple(a for a in ordered if not initiative[a].get("fumble"))
    return tuple(ordered)


def combat_of(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of the world's combat bookkeeping (an inactive one when there is none)."""
    combat = data.get(COMBAT_KEY)
    if not isinstance(combat, Mapping):
        return {
            "active": False,
            "round": 0,
            "initiative": {},
            "used": {},
            "split": {},
            "moved": {},
        }
    return {
        "active": bool(combat.get("active", False)),
        "round": int(combat.get("round", 0)),
        "initiative": {k: dict(v) for k, v in dict(combat.get("initiative", {})).items()},
        "used": dict(combat.get("used", {})),
        "split": dict(combat.get("split", {})),
        "moved": dict(combat.get("moved", {})),
    }


def new_combat() -> dict[str, Any]:
    return {"active": True, "round": 1, "initiative": {}, "used": {}, "split": {}, "moved": {}}


def at_round(combat: Mapping[str, Any], round_no: int) -> dict[str, Any]:
    """The bookkeeping of round ``round_no``: actions spent, split turns and movement reset.

    The one place a round's counts start afresh, for the system's own ``next_round`` and
    ``advance_time`` and for the shared tracker's round start (``tracker_hooks``).
    """
    return {**combat, "round": round_no, "used": {}, "split": {}, "moved": {}}


def next_round(combat: Mapping[str, Any]) -> dict[str, Any]:
    """The bookkeeping of the following round."""
    return at_round(combat, int(combat.get("round", 0)) + 1)


def actions_allowed(combat: Mapping[str, Any], actor_id: str) -> int:
    """Actions this round: the initiative's, plus one when the actor splits ('Dividir Acciones')."""
    entry = combat.get("initiative", {}).get(actor_id)
    if entry is None:
        return 0
    split = combat.get("split", {}).get(actor_id) == combat.get("round")
    return int(entry.get("actions", 1)) + (1 if split else 0)


def actions_left(combat: Mapping[str, Any], actor_id: str) -> int:
    return actions_allowed(combat, actor_id) - int(combat.get("used", {}).get(actor_id, 0))
