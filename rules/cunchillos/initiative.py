"""Initiative and the order of a round, as pure functions for the combat tracker.

'1º Determinar el orden de iniciativa en función de su valor primario. En caso de
empate comparar el secundario. 2º Decir qué se va a hacer en ese asalto en orden
contrario a su iniciativa ... 3º Realizar las acciones siguiendo el orden de la iniciativa.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.cunchillos.checks import Modifier
from rules.cunchillos.health import timers_of
from rules.cunchillos.sheet import Sheet
from rules.cunchillos.tables import (
    AMBUSH_INITIATIVE,
    CHANGE_ACTION_INITIATIVE,
    INITIATIVE_STEP,
    STUNNED_INITIATIVE,
)


@dataclass(frozen=True)
class InitiativeEntry:
    actor_id: str
    name: str
    primary: int
    secondary: int
    modifiers: tuple[Modifier, ...] = ()

    @property
    def base(self) -> int:
        return self.primary - sum(m.value for m in self.modifiers)


def declaration_of(state: Mapping[str, Any]) -> Mapping[str, Any]:
    raw = state.get("round")
    return raw if isinstance(raw, Mapping) else {}


def initiative_modifiers(
    state: Mapping[str, Any], first_round: bool = True
) -> tuple[Modifier, ...]:
    """Raised initiative, a changed declaration, a failed ambush roll, being stunned."""
    declared = declaration_of(state)
    mods = [Modifier("raise_initiative", int(declared.get("raise", 0) or 0))]
    if declared.get("changed"):
        mods.append(Modifier("changed_action", CHANGE_ACTION_INITIATIVE))
    if state.get("ambushed") and first_round:
        mods.append(Modifier("ambushed", AMBUSH_INITIATIVE))
    if timers_of(state)["stunned"] > 0:
        mods.append(Modifier("stunned", STUNNED_INITIATIVE))
    return tuple(m for m in mods if m.value)


def entry_for(
    actor_id: str, name: str, sheet: Sheet, state: Mapping[str, Any], first_round: bool = True
) -> InitiativeEntry:
    mods = initiative_modifiers(state, first_round)
    primary = sheet.initiative[0] + sum(m.value for m in mods)
    return InitiativeEntry(actor_id, name, primary, sheet.initiative[1], mods)


def initiative_order(entries: Iterable[InitiativeEntry]) -> tuple[InitiativeEntry, ...]:
    """Highest primary first, ties by the secondary; full ties keep a stable order by id."""
    return tuple(sorted(entries, key=lambda e: (-e.primary, -e.secondary, e.actor_id)))


def tied(a: InitiativeEntry, b: InitiativeEntry) -> bool:
    """Two entries the text cannot order (same primary and secondary): they act at once."""
    return (a.primary, a.secondary) == (b.primary, b.secondary)


def declaration_order(order: Sequence[InitiativeEntry]) -> tuple[InitiativeEntry, ...]:
    """'de menor iniciativa a mayor'."""
    return tuple(reversed(order))


def action_steps(initiative: int, actions: int, two_weapons: bool = False) -> tuple[int, ...]:
    """'La 1ª acción ... en su Iniciativa, la segunda en su Inic -5, la tercera en Inic -10'.

    With two weapons 'dos de los ataques se hacen en su primer turno de Iniciativa'.
    """
    steps = [initiative - INITIATIVE_STEP * index for index in range(actions)]
    if two_weapons and actions >= 2:
        steps = [initiative, *(initiative - INITIATIVE_STEP * i for i in range(actions - 1))]
    return tuple(steps)


def step_of_action(initiative: int, index: int, two_weapons: bool = False) -> int:
    """The initiative at which the action numbered ``index`` (0 = first) happens."""
    return action_steps(initiative, index + 1, two_weapons)[index]


@dataclass(frozen=True)
class Slot:
    initiative: int
    secondary: int
    actor_id: str
    index: int


def schedule(
    order: Sequence[InitiativeEntry],
    actions: Mapping[str, int],
    two_weapons: Mapping[str, bool] | None = None,
) -> tuple[Slot, ...]:
    """Every declared action of the round in the order it happens."""
    two = two_weapons or {}
    slots = [
        Slot(step, entry.secondary, entry.actor_id, index)
        for entry in order
        for index, step in enumerate(
            action_steps(
                entry.primary,
                max(1, actions.get(entry.actor_id, 1)),
                two.get(entry.actor_id, False),
            )
        )
    ]
    return tuple(sorted(slots, key=lambda s: (-s.initiative, -s.secondary, s.actor_id, s.index)))
