"""brp_d10 checks: 1d10 + difficulty <= skill, the success level, criticals, opposed checks.

'hay que tirar 1d10, sumarle la dificultad ... y el resultado de esa suma debe ser igual o
menor a la habilidad'. 'se toma el nivel de éxito de la acción restando de la habilidad el
resultado de la tirada (esta vez sin tener en cuenta para nada la dificultad)'.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import DiceSource, Die
from rules.rolls import roll_die

DIE = 10


@dataclass(frozen=True)
class Check:
    """One check: the score rolled against, the summed difficulty and the d10 (None: automatic)."""

    value: int
    difficulty: int
    die: Die | None

    @property
    def automatic(self) -> bool:
        return self.die is None

    @property
    def face(self) -> int | None:
        return None if self.die is None else self.die.first

    @property
    def total(self) -> int | None:
        return None if self.die is None else self.die.first + self.difficulty

    @property
    def success(self) -> bool:
        return self.die is None or self.die.first + self.difficulty <= self.value

    @property
    def level(self) -> int | None:
        """The success level (skill minus the die, difficulty ignored), for a success."""
        if self.die is None or not self.success:
            return None
        return self.value - self.die.first

    @property
    def dice(self) -> tuple[Die, ...]:
        return () if self.die is None else (self.die,)


def is_certain(value: int, difficulty: int) -> bool:
    """True when even a 10 succeeds: 'con un valor de 10 se tendría un 100% ... y tendría éxito
    de forma automática sin necesidad de tirar'."""
    return DIE + difficulty <= value


def roll_check(
    dice: DiceSource,
    value: int,
    difficulty: int,
    *,
    role: str = "check",
    skip_certain: bool = True,
) -> Check:
    if skip_certain and is_certain(value, difficulty):
        return Check(value, difficulty, None)
    return Check(value, difficulty, roll_die(dice, DIE, role))


def success_chance(value: int, difficulty: int) -> tuple[int, int]:
    """The chance of a check as (favourable faces, 10), closed form."""
    return max(0, min(DIE, value - difficulty)), DIE


@dataclass(frozen=True)
class AttackCheck:
    """A combat roll: the check and, on a 1, the confirmation die of the critical.

    'sólo existe el crítico en las tiradas de combate, en las cuales si se saca un 1 en el dado,
    habría que volver a tirar y se confirmaría el crítico sacando el valor de la habilidad o
    menos, sin dificultad aplicable'.
    """

    check: Check
    confirm: Die | None = None

    @property
    def hit(self) -> bool:
        return self.check.success

    @property
    def critical(self) -> bool:
        return self.confirm is not None and self.confirm.first <= self.check.value

    @property
    def dice(self) -> tuple[Die, ...]:
        return self.check.dice + (() if self.confirm is None else (self.confirm,))


def roll_attack(
    dice: DiceSource,
    value: int,
    difficulty: int,
    *,
    critical_needs_hit: bool = True,
    role: str = "attack",
) -> AttackCheck:
    """Attacks are always rolled (the die gives the success level and the critical)."""
    check = roll_check(dice, value, difficulty, role=role, skip_certain=False)
    confirm = None
    if check.face == 1 and (check.success or not critical_needs_hit):
        confirm = roll_die(dice, DIE, "critical_confirm")
    return AttackCheck(check, confirm)


def burst_hits(value: int, difficulty: int, face: int, bullets: int) -> tuple[bool, ...]:
    """'cada bala tendrá una dificultad distinta para esa misma tirada; la primera tendrá la
    dificultad normal, la segunda un +1 a la dificultad, la tercera un +2, y así...'."""
    return tuple(face + difficulty + index <= value for index in range(bullets))


def sustained_bullets(face: int, spray: int) -> int:
    """'se tira 1d10 y se divide el resultado entre dos (redondeando hacia arriba)' -- never more
    than the spray fired (ruling)."""
    return min(spray, (face + 1) // 2)


def opposed_winner(first: Check, second: Check, tie_rule: str = "tie") -> int:
    """0 when ``first`` wins, 1 when ``second`` wins, -1 for a tie (or nobody).

    'La mayoría de las tiradas enfrentadas ... comparar el nivel de éxito de cada uno de los
    contendientes, siempre que ambos hayan tenido éxito'. A lone success wins; two failures
    and equal levels are a tie, or go to the second (the one answering) under ``defender``.
    """
    if first.success != second.success:
        return 0 if first.success else 1
    if not first.success:
        return -1
    first_level = first.level if first.level is not None else first.value - 1
    second_level = second.level if second.level is not None else second.value - 1
    if first_level != second_level:
        return 0 if first_level > second_level else 1
    return 1 if tie_rule == "defender" else -1
