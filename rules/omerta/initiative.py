"""Initiative: 1D10 + AGI, highest first; ties by AGI, then PJ before PNJ, tied PJs at once.

'La tirada consiste en 1D10+AGI ... En caso de empate irá en primer lugar el que tenga mayor
puntuación en el valor de AGI. Si aún existe un empate, actuará primero el PJ antes que el PNJ.
Si hay empate entre PJ's sus acciones ocurren al unísono.'

Pure functions for the combat tracker: :func:`roll_initiative` for one combatant and
:func:`initiative_order` to sort any set of results into slots (each slot acts at once).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rules.dice import DiceSource, Die
from rules.rolls import roll_die

INITIATIVE_DIE = 10
NpcTies = Literal["simultaneous", "listed"]


@dataclass(frozen=True)
class Initiative:
    actor_id: str
    agi: int
    pc: bool
    die: Die

    @property
    def total(self) -> int:
        return self.die.total + self.agi

    def to_json(self) -> dict[str, int | bool | str]:
        return {"actor": self.actor_id, "agi": self.agi, "pc": self.pc, "die": self.die.total}


def roll_initiative(dice: DiceSource, actor_id: str, agi: int, pc: bool) -> Initiative:
    return Initiative(actor_id, agi, pc, roll_die(dice, INITIATIVE_DIE, "initiative"))


def _key(entry: Initiative) -> tuple[int, int, int]:
    return (-entry.total, -entry.agi, 0 if entry.pc else 1)


def initiative_order(
    entries: Iterable[Initiative], npc_ties: NpcTies = "simultaneous"
) -> tuple[tuple[str, ...], ...]:
    """Slots in acting order; the actors of one slot act at once.

    Entries equal on total, AGI and side share a slot: always for PJs (the text), for PNJs
    only when ``npc_ties`` is ``simultaneous`` (the default ruling; ``listed`` keeps the
    order they were given in).
    """
    ordered = sorted(entries, key=_key)
    slots: list[list[Initiative]] = []
    for entry in ordered:
        if slots:
            last = slots[-1][-1]
            same = _key(last) == _key(entry)
            if same and (entry.pc or npc_ties == "simultaneous"):
                slots[-1].append(entry)
                continue
        slots.append([entry])
    return tuple(tuple(e.actor_id for e in slot) for slot in slots)
