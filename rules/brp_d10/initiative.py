"""Timing inside a one-second round: the Agilidad each action happens at and its tenth.

Pure functions the combat tracker can call:

- :func:`weapon_agilities` -- the Agilidad of each action with a weapon of 1-3 actions a
  round (the text's table);
- :func:`firearm_agilities` -- each single shot or sustained-fire spray lowers Agilidad by 1;
- :func:`tenth` -- the tenth of the second an Agilidad acts in;
- :func:`plan_slots` / :func:`timeline` -- the declared actions of every actor in order.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.brp_d10.tables import ACTION_SPLIT, MAX_VALUE, TENTHS_IN_ROUND


def split_formula(agility: int, actions: int) -> tuple[int, ...]:
    """'dividir la Agilidad del personaje entre el número de acciones del arma redondeando
    hacia arriba; la segunda acción se hará con una Agilidad igual a restarle a la Agilidad del
    personaje el resultado de la división anterior, la tercera igual'. Values under 1 are cut."""
    step = -(-agility // actions)
    values = tuple(agility - step * index for index in range(actions))
    return tuple(value for value in values if value >= 1)


def weapon_agilities(agility: int, actions: int) -> tuple[int, ...] | None:
    """The Agilidad of each of ``actions`` actions with a weapon, or None when not possible.

    The text's table for Agilidad 1-10; the formula (values under 1 impossible) above it.
    """
    if actions < 1 or agility < 1:
        return None
    if actions > agility:
        return None
    if agility <= MAX_VALUE and actions in ACTION_SPLIT:
        return ACTION_SPLIT[actions][agility]
    values = split_formula(agility, actions)
    return values if len(values) == actions else None


def max_weapon_actions(agility: int, weapon_actions: int) -> int:
    """The most actions a round with a weapon allowing ``weapon_actions`` at this Agilidad."""
    for count in range(min(weapon_actions, agility), 0, -1):
        if weapon_agilities(agility, count) is not None:
            return count
    return 0


def firearm_agilities(agility: int, shots: int, start: int = 0) -> tuple[int, ...]:
    """'cada disparo por separado en el fuego tiro a tiro y cada rociada en el fuego sostenido
    bajan en 1 la Agilidad del personaje': shots ``start``.. ``start + shots - 1`` of the round."""
    return tuple(agility - index for index in range(start, start + shots))


def tenth(agility: int) -> int:
    """The tenth of the second (1-10) an action at this Agilidad happens in.

    'el caballero francés haría su primera acción en la cuarta décima' (Agilidad 7), 'el español
    ... en la sexta' (5), 'el francés su segunda acción en la octava' (3), 'el español su segunda
    acción en la novena' (2): tenth = 11 - Agilidad, clamped to the round.
    """
    return max(1, min(TENTHS_IN_ROUND, TENTHS_IN_ROUND + 1 - agility))


@dataclass(frozen=True)
class Slot:
    """One declared action placed in the round."""

    actor_id: str
    index: int
    kind: str
    weapon: str
    agility: int
    instant: bool = False
    """Parries are instantaneous: 'Las paradas se consideran automáticas en cuestión de
    velocidad'."""

    @property
    def tenth(self) -> int:
        return tenth(self.agility)


PLAN_KINDS: tuple[str, ...] = ("attack", "parry", "dodge", "shoot", "burst", "spray", "other")
"""What a declared step may be."""


def plan_agilities(agility: int, steps: tuple[tuple[str, str, bool], ...]) -> tuple[int, ...]:
    """Agilidad of each declared step ``(kind, weapon, firearm)``.

    Each weapon times its own actions ('todo esto afecta únicamente a un arma'): firearm
    shots and sprays lower Agilidad one by one, other weapons follow the split table for the
    number of actions declared with them. Steps with no weapon act at full Agilidad.
    """
    counts: dict[str, int] = {}
    for _, weapon, _ in steps:
        counts[weapon] = counts.get(weapon, 0) + 1
    seen: dict[str, int] = {}
    result: list[int] = []
    for kind, weapon, firearm in steps:
        index = seen.get(weapon, 0)
        seen[weapon] = index + 1
        if not weapon:
            result.append(agility)
        elif firearm and kind in ("shoot", "spray"):
            result.append(max(1, agility - index))
        elif kind == "burst":
            result.append(agility)
        else:
            split = weapon_agilities(agility, max(counts[weapon], 1))
            result.append(split[index] if split is not None else max(1, agility - index))
    return tuple(result)


def timeline(slots: tuple[Slot, ...]) -> tuple[tuple[int, tuple[Slot, ...]], ...]:
    """Slots grouped by tenth, earliest first: 'a igual Agilidad, se actúa al mismo tiempo'."""
    by_tenth: dict[int, list[Slot]] = {}
    for slot in slots:
        by_tenth.setdefault(slot.tenth, []).append(slot)
    return tuple(
        (when, tuple(sorted(group, key=lambda s: (s.actor_id, s.index))))
        for when, group in sorted(by_tenth.items())
    )


def order_by_agility(agilities: dict[str, int]) -> tuple[tuple[str, ...], ...]:
    """Actors in acting order, grouped when simultaneous (equal Agilidad)."""
    groups: dict[int, list[str]] = {}
    for actor_id, agility in agilities.items():
        groups.setdefault(agility, []).append(actor_id)
    return tuple(tuple(sorted(groups[a])) for a in sorted(groups, reverse=True))
