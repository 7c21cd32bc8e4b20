"""Attack rolls: one or more trait dice and one wild die, the wild die's replacement, hits.

The pure math, independent of cards: the modifiers of an attack, the number a
die must reach against each target (``threshold``: the target number minus the
modifiers that belong to that target), the autofire rules and ammunition.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import Die
from rules.records import fast_init
from rules.savage_worlds.sheet import Weapon
from rules.savage_worlds.tables import COVER_MODIFIER, PRONE_COVER, RAISE, ROF_AMMO


@fast_init
@dataclass(frozen=True)
class Shot:
    """One trait die of an attack (or the wild die that replaced it) and where it goes."""

    index: int
    die: Die
    total: int
    target: str | None
    threshold: int
    by_wild: bool = False

    @property
    def hit(self) -> bool:
        return self.total >= self.threshold

    @property
    def raise_(self) -> bool:
        return self.total >= self.threshold + RAISE


def prone_extra(cover: str, ranged: bool, prone: bool) -> int:
    """A prone target counts as medium cover for ranged attacks (not stacked with cover)."""
    if not ranged or not prone:
        return 0
    return min(0, COVER_MODIFIER[PRONE_COVER] - COVER_MODIFIER[cover])


def spread_dice(count: int, targets: int, spread: str | None) -> list[int] | None:
    """Dice per target for the 'assigned' mode: given as "2,1", else as even as possible."""
    if spread:
        try:
            parts = [int(p) for p in spread.split(",")]
        except ValueError:
            return None
        if len(parts) != targets or sum(parts) != count or min(parts) < 0:
            return None
        return parts
    base, extra = divmod(count, targets)
    return [base + (1 if i < extra else 0) for i in range(targets)]


def critical_failure(trait_dice: tuple[Die, ...], wild: Die | None) -> bool:
    """Both 1s; with several trait dice, the wild die and half or more of them (ruling)."""
    if wild is None or wild.first != 1:
        return False
    ones = sum(1 for d in trait_dice if d.first == 1)
    return ones * 2 >= len(trait_dice)


def place_wild(
    trait_dice: tuple[Die, ...],
    wild: Die | None,
    modifier: int,
    thresholds: list[int],
) -> int | None:
    """Which trait die the wild die replaces, or None.

    One die (the usual trait roll): the wild die replaces it when higher. Several
    dice (autofire, Frenesí), this table's rule: 'El dado salvaje sustituirá el
    primer dado que falle (si puede acertar)'.
    """
    if wild is None:
        return None
    if len(trait_dice) == 1:
        return 0 if wild.total > trait_dice[0].total else None
    for i, die in enumerate(trait_dice):
        if die.total + modifier < thresholds[i] <= wild.total + modifier:
            return i
    return None


def shots(
    trait_dice: tuple[Die, ...],
    wild: Die | None,
    modifier: int,
    targets: list[str | None],
    thresholds: list[int],
) -> tuple[Shot, ...]:
    replaced = place_wild(trait_dice, wild, modifier, thresholds)
    out = []
    for i, die in enumerate(trait_dice):
        use_wild = replaced == i and wild is not None
        shown = wild if use_wild and wild is not None else die
        out.append(Shot(i, shown, shown.total + modifier, targets[i], thresholds[i], use_wild))
    return tuple(out)


def ammo_for(rof: int) -> int:
    return ROF_AMMO[rof]


def recoil_applies(weapon: Weapon, rof: int, bipod_set: bool, ignores: bool) -> bool:
    """'Las armas con cadencia de fuego superior a 1 tienen Retroceso ... -2 ... salvo ... bípode'."""
    return weapon.kind == "ranged" and rof > 1 and not bipod_set and not ignores


def strength_shortfall(weapon: Weapon, strength: int, bipod_set: bool) -> int:
    """Die steps the wielder lacks for the weapon's minimum Strength (0 on a set bipod)."""
    if weapon.min_str is None or bipod_set or strength >= weapon.min_str:
        return 0
    return (weapon.min_str - strength) // 2
