"""Shared frozen records for the hot paths of Savage Worlds (attacks, damage, soak).

Records are never mutated, so equal values may share one record: a die that did
not ace, a card line with the same words, a label. Each table here is keyed by
plain hashable values (never by an object's identity), holds a bounded number
of entries and forgets them all when full (a new table starts: never stale).
The dice helpers draw from the :class:`DiceSource` in exactly the order
:func:`rules.rolls.roll_die` does, so scripted dice and replays are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

from rules.dice import DiceLimitExceeded, Die
from rules.model import Line, Text
from rules.rolls import DEFAULT_EXPLOSION_LIMIT
from rules.savage_worlds.sheet import Sheet, Weapon

K = TypeVar("K")
V = TypeVar("V")

TABLE_SIZE: Final = 1024
"""Entries a table holds before it starts again (each entry is a few small records; the
value spaces are small: faces, totals, names; the sheet-keyed tables hold their sheets)."""

_DICE: Final[dict[tuple[int, int, str], Die]] = {}


def roll_ace(roll: Callable[[int], int], sides: int, role: str) -> Die:
    """One die that aces (``roll_die(dice, sides, role, explode=True)``): the same draws and
    the same record, shared when it did not ace."""
    face = roll(sides)
    if face != sides:
        die = _DICE.get((sides, face, role))
        if die is None:
            if len(_DICE) >= TABLE_SIZE:
                _DICE.clear()
            die = _DICE[(sides, face, role)] = Die(sides, (face,), role, True, 0)
        return die
    faces = [face]
    while faces[-1] == sides:
        if len(faces) > DEFAULT_EXPLOSION_LIMIT:
            raise DiceLimitExceeded(
                f"a d{sides} exploded more than {DEFAULT_EXPLOSION_LIMIT} times"
            )
        faces.append(roll(sides))
    return Die(sides, tuple(faces), role, True, 0)


def faces_total(die: Die) -> int:
    """``sum(die.faces)``, added up in native code when compiled (the builtin ``sum`` is a
    generic call there, dearer than the loop for one to a few faces)."""
    total = 0
    for face in die.faces:
        total += face
    return total


_SET_ASIDE: Final[dict[tuple[int, int, str], Die]] = {}


def set_aside(die: Die) -> Die:
    """``die.as_kept(False)``: a die that did not count (shared when it did not ace)."""
    faces = die.faces
    if len(faces) != 1 or not die.kept or die.group:
        return die.as_kept(False)
    found = _SET_ASIDE.get((die.sides, faces[0], die.role))
    if found is None:
        found = remember(
            _SET_ASIDE, (die.sides, faces[0], die.role), Die(die.sides, faces, die.role, False, 0)
        )
    return found


def roll_aces(roll: Callable[[int], int], sides: int, role: str, count: int) -> list[Die]:
    """``count`` dice that ace, one after the other (as :func:`roll_ace` each)."""
    out: list[Die] = []
    for _ in range(count):
        face = roll(sides)
        if face != sides:
            die = _DICE.get((sides, face, role))
            if die is None:
                if len(_DICE) >= TABLE_SIZE:
                    _DICE.clear()
                die = _DICE[(sides, face, role)] = Die(sides, (face,), role, True, 0)
            out.append(die)
            continue
        faces = [face]
        while faces[-1] == sides:
            if len(faces) > DEFAULT_EXPLOSION_LIMIT:
                raise DiceLimitExceeded(
                    f"a d{sides} exploded more than {DEFAULT_EXPLOSION_LIMIT} times"
                )
            faces.append(roll(sides))
        out.append(Die(sides, tuple(faces), role, True, 0))
    return out


SHEET_TABLE_SIZE: Final = 512
"""Entries of a table keyed by a parsed sheet (it holds the sheet, ~6 kB): as many as
``parse_sheet`` itself remembers, so these tables keep alive hardly any sheet it forgot."""
BUTTONS_TABLE_SIZE: Final = 128
"""Button sets remembered (~20 kB each), as many as the bridge's rendered actor views."""


def remember(table: dict[K, V], key: K, value: V, size: int = TABLE_SIZE) -> V:
    """Put ``value`` under ``key`` in a table of at most ``size`` entries; the value."""
    if len(table) >= size:
        table.clear()
    table[key] = value
    return value


_LINES: Final[dict[tuple[Any, ...], Line]] = {}


def line(key: str, **params: Any) -> Line:
    """A card line of one text without a value, shared for equal words (scalar parameters)."""
    lookup = (key, *params.items(), *map(type, params.values()))  # 1 and True stay apart
    found = _LINES.get(lookup)
    if found is None:
        found = remember(_LINES, lookup, Line(Text(key, params), None))
    return found


_WEAPONS: Final[dict[tuple[int, str], tuple[Sheet, Weapon | None]]] = {}


def sheet_weapon(sheet: Sheet, weapon_id: str) -> Weapon | None:
    """``sheet.weapon(weapon_id)``, looked up once per parsed sheet (keyed by its identity,
    the sheet held so the id is not reused while the entry lives; sheets never change)."""
    found = _WEAPONS.get((id(sheet), weapon_id))
    if found is None or found[0] is not sheet:
        found = remember(
            _WEAPONS, (id(sheet), weapon_id), (sheet, sheet.weapon(weapon_id)), SHEET_TABLE_SIZE
        )
    return found[1]
