"""Dice sources and die records.

Every random number in the rules core comes from a :class:`DiceSource`. Three
sources exist: :class:`SystemDice` (the OS CSPRNG, production),
:class:`SeededDice` (tests, soak replays) and :class:`ScriptedDice` (a list of
faces: worked examples and exact replays). :class:`RecordingDice` wraps any
source and keeps what it served, so the bridge can store the dice a request
consumed and the harness can serve them again.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol, final

from rules.records import native_record

MAX_SIDES: Final = 1000
"""The largest die any system rolls (d100 is read from two d10, so this is generous)."""


class DiceError(Exception):
    """A dice problem. ``code`` is stable and goes on the wire."""

    code: ClassVar[str] = "dice_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class DiceExhausted(DiceError):
    """A scripted source was asked for more dice than it was given (the script's fault)."""

    code: ClassVar[str] = "dice_exhausted"


class DiceScriptMismatch(DiceError):
    """A scripted face does not fit the die asked for (the script's fault)."""

    code: ClassVar[str] = "dice_script_mismatch"


class DiceLimitExceeded(DiceError):
    """A roll needed more dice than its explicit limit allows (explosions, huge pools)."""

    code: ClassVar[str] = "dice_limit"


class DiceSource(Protocol):
    """Something that rolls one die with ``sides`` faces and returns 1..sides."""

    def roll(self, sides: int) -> int: ...


def _check_sides(sides: int) -> None:
    if not 2 <= sides <= MAX_SIDES:
        raise DiceError(f"a die must have 2 to {MAX_SIDES} sides, not {sides}")


ENTROPY_BLOCK = 4096
"""Bytes drawn from the OS CSPRNG at a time by :class:`EntropyPool` (one syscall per block)."""


def _acceptance_limits() -> tuple[int, ...]:
    """For each die size, the count of leading byte values that map onto its faces evenly.

    A d``sides`` of at most 256 faces reads one byte ``b`` (0-255) and shows
    ``b % sides + 1`` when ``b`` is below ``256 - 256 % sides``; larger dice read
    two bytes (0-65535) the same way. Values at or above the limit are drawn
    again (rejection sampling), so every face is exactly equally likely.
    """
    limits = [0, 0]
    for sides in range(2, MAX_SIDES + 1):
        span = 256 if sides <= 256 else 65536
        limits.append(span - span % sides)
    return tuple(limits)


_LIMITS: Final = _acceptance_limits()


def _byte_faces() -> tuple[tuple[int, ...], ...]:
    """For each die of 2 to 256 faces, the face each byte value shows (``b % sides + 1``),
    or 0 for a byte at or above the acceptance limit (drawn again): the same mapping as
    :func:`_acceptance_limits` describes, looked up instead of worked out per die."""
    tables: list[tuple[int, ...]] = [(), ()]
    for sides in range(2, 257):
        limit = _LIMITS[sides]
        tables.append(tuple(b % sides + 1 if b < limit else 0 for b in range(256)))
    return tuple(tables)


_BYTE_FACES: Final = _byte_faces()


class EntropyPool:
    """Bytes of the OS CSPRNG, drawn one block at a time and each served exactly once.

    ``next`` on a bytes iterator is a single step under the GIL, so two threads
    never get the same byte; a refill racing another only drops the rest of a
    block. A forked child starts with an empty pool (see ``SHARED_POOL``), so parent
    and child never serve the same bytes.
    """

    def __init__(self, source: Callable[[int], bytes] = os.urandom, block: int = ENTROPY_BLOCK):
        self._source = source
        self._block = block
        self.bytes: Iterator[int] = iter(b"")

    def clear(self) -> None:
        self.bytes = iter(b"")

    def refill(self) -> None:
        self.bytes = iter(self._source(self._block))


SHARED_POOL = EntropyPool()
os.register_at_fork(after_in_child=SHARED_POOL.clear)


class SystemDice:
    """Production dice: the operating system's CSPRNG (os.urandom), read through a pool.

    Every instance shares one process-wide :class:`EntropyPool` unless given
    its own (tests pass a pool with known bytes).
    """

    def __init__(self, pool: EntropyPool | None = None) -> None:
        self._pool = SHARED_POOL if pool is None else pool

    def roll(self, sides: int) -> int:
        # The pool's bytes are read with for loops over its iterator (PyIter_Next, a
        # primitive in compiled code, where next() is a generic call of the builtin): leaving
        # a loop by return leaves the rest of the block in the pool; a loop that runs out of
        # bytes refills it and reads on.
        pool = self._pool
        if 2 <= sides <= 256:  # one byte a try, its face looked up (0: drawn again)
            faces = _BYTE_FACES[sides]
            while True:
                for value in pool.bytes:
                    face = faces[value]
                    if face:
                        return face
                pool.refill()
        if not 2 <= sides <= MAX_SIDES:
            _check_sides(sides)
        limit = _LIMITS[sides]
        while True:  # more than 256 faces: two bytes a try (a high byte met at a refill: dropped)
            high = -1
            for low in pool.bytes:
                if high < 0:
                    high = low
                    continue
                value = high << 8 | low
                high = -1
                if value < limit:
                    return value % sides + 1
            pool.refill()


class SeededDice:
    """Repeatable dice for tests and soak runs."""

    def __init__(self, seed: int | str) -> None:
        self._rng = random.Random(seed)

    def roll(self, sides: int) -> int:
        _check_sides(sides)
        return self._rng.randint(1, sides)


@final
@dataclass(frozen=True)
class Draw:
    """One die served by a source: its number of sides and the face that came up."""

    sides: int
    face: int

    def __init__(self, sides: int, face: int) -> None:
        self.sides = sides  # type: ignore[misc]
        self.face = face  # type: ignore[misc]


native_record(Draw)


class ScriptedDice:
    """Serves the given faces in order.

    Items are either a bare face (fits any die with at least that many sides) or
    a :class:`Draw` / ``(sides, face)`` pair, which must match the die asked for:
    exact replays use pairs so a rules change that rolls other dice is caught.
    """

    def __init__(self, faces: Iterable[int | Draw | tuple[int, int]]) -> None:
        # Pairs are kept as given (a replay serves a few per event): roll reads them.
        self._script: list[int | Draw | tuple[int, int]] = list(faces)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._script) - self._next

    def roll(self, sides: int) -> int:
        _check_sides(sides)
        if self._next >= len(self._script):
            raise DiceExhausted(
                f"the dice script ran out after {len(self._script)} dice (a d{sides} was asked for)"
            )
        item = self._script[self._next]
        position = self._next + 1
        self._next += 1
        if isinstance(item, tuple):
            drawn, face = item
        elif isinstance(item, Draw):
            drawn, face = item.sides, item.face
        else:
            drawn, face = sides, item
        if drawn != sides:
            raise DiceScriptMismatch(
                f"die {position} of the script is a d{drawn}, but a d{sides} was rolled"
            )
        if not 1 <= face <= sides:
            raise DiceScriptMismatch(
                f"die {position} of the script shows {face}, not on a d{sides}"
            )
        return face


@final
class RecordingDice:
    """Wraps a source and records every die it serves, in order.

    Made for every request the bridge works out: a plain class with its own ``__init__``
    (a native class compiled: ~0.1 us, where the dataclass ``__init__`` it was ran as
    plain Python, with a call of the ``draws`` default factory)."""

    def __init__(self, inner: DiceSource, draws: list[Draw] | None = None) -> None:
        self.inner = inner
        self.draws: list[Draw] = [] if draws is None else draws

    def __repr__(self) -> str:
        return f"RecordingDice(inner={self.inner!r}, draws={self.draws!r})"

    def roll(self, sides: int) -> int:
        face = self.inner.roll(sides)
        self.draws.append(Draw(sides, face))
        return face


@final
@dataclass(frozen=True)
class Die:
    """One physical die as it was rolled.

    ``faces`` holds the first face and then every explosion (ace) in order, so
    ``total`` is their sum. ``role`` says what the die was for (``trait``,
    ``wild``, ``location``, ``damage``, ``objetivo``...). ``kept`` is False for
    dice that were rolled but did not count (the lower of trait and wild die,
    the dice 1o3d10 set aside). ``group`` numbers the throws of one roll (the
    1o3d10 rerolls after a kept 10).
    """

    sides: int
    faces: tuple[int, ...]
    role: str
    kept: bool = True
    group: int = 0

    def __init__(
        self, sides: int, faces: tuple[int, ...], role: str, kept: bool = True, group: int = 0
    ) -> None:
        self.sides = sides  # type: ignore[misc]
        self.faces = faces  # type: ignore[misc]
        self.role = role  # type: ignore[misc]
        self.kept = kept  # type: ignore[misc]
        self.group = group  # type: ignore[misc]

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def first(self) -> int:
        return self.faces[0]

    @property
    def exploded(self) -> bool:
        return len(self.faces) > 1

    def as_kept(self, kept: bool) -> Die:
        if kept == self.kept:
            return self  # a frozen value: the same die serves
        return Die(self.sides, self.faces, self.role, kept, self.group)


native_record(Die)


def faces_of(dice: Sequence[Die]) -> list[int]:
    """Every face of ``dice`` in the order they were rolled (for scripts and tests)."""
    return [face for die in dice for face in die.faces]
