import os
from collections import Counter

import pytest

from rules.dice import (
    SHARED_POOL,
    DiceError,
    DiceExhausted,
    DiceScriptMismatch,
    Die,
    Draw,
    EntropyPool,
    RecordingDice,
    ScriptedDice,
    SeededDice,
    SystemDice,
    faces_of,
)


def test_scripted_dice_serve_faces_in_order_then_refuse() -> None:
    dice = ScriptedDice([3, 6])
    assert dice.roll(6) == 3
    assert dice.remaining == 1
    assert dice.roll(6) == 6
    with pytest.raises(DiceExhausted, match="ran out after 2 dice"):
        dice.roll(6)


def test_scripted_face_must_fit_the_die() -> None:
    with pytest.raises(DiceScriptMismatch, match="shows 7, not on a d6"):
        ScriptedDice([7]).roll(6)


def test_scripted_draws_check_the_sides() -> None:
    dice = ScriptedDice([Draw(10, 4), (6, 2)])
    assert dice.roll(10) == 4
    with pytest.raises(DiceScriptMismatch, match="is a d6, but a d8 was rolled"):
        dice.roll(8)


@pytest.mark.parametrize("sides", [0, 1, 1001])
def test_impossible_dice_are_refused(sides: int) -> None:
    for source in (SystemDice(), SeededDice(1), ScriptedDice([1])):
        with pytest.raises(DiceError):
            source.roll(sides)


def test_seeded_dice_repeat_and_cover_every_face() -> None:
    first = [SeededDice("mesa").roll(6) for _ in range(3)]
    again = [SeededDice("mesa").roll(6) for _ in range(3)]
    assert first == again
    seeded = SeededDice(7)
    counts = Counter(seeded.roll(6) for _ in range(600))
    assert set(counts) == {1, 2, 3, 4, 5, 6}


def test_system_dice_stay_on_the_die() -> None:
    dice = SystemDice()
    faces = {dice.roll(4) for _ in range(400)}
    assert faces == {1, 2, 3, 4}


def test_recording_dice_keep_every_draw() -> None:
    recording = RecordingDice(ScriptedDice([2, 10]))
    recording.roll(4)
    recording.roll(10)
    assert recording.draws == [Draw(4, 2), Draw(10, 10)]
    replay = ScriptedDice([(d.sides, d.face) for d in recording.draws])
    assert [replay.roll(4), replay.roll(10)] == [2, 10]


def test_die_record() -> None:
    die = Die(6, (6, 6, 2), "damage")
    assert die.total == 14 and die.first == 6 and die.exploded
    assert not die.as_kept(False).kept
    assert faces_of([die, Die(4, (1,), "trait")]) == [6, 6, 2, 1]


def _pool_of(data: bytes, block: int = 1 << 20) -> EntropyPool:
    served = [data]

    def source(size: int) -> bytes:
        assert size == block
        if not served:
            raise AssertionError("the pool asked the OS for more bytes than the test gave")
        return served.pop(0)

    return EntropyPool(source, block)


def test_system_dice_reject_the_bytes_that_would_bias_a_face() -> None:
    # d10: bytes 250-255 would favour faces 1-6, so they are drawn again.
    dice = SystemDice(_pool_of(bytes([250, 255, 9, 0, 249])))
    assert [dice.roll(10), dice.roll(10), dice.roll(10)] == [10, 1, 10]
    # d1000 reads two bytes: 65000-65535 are drawn again.
    big = SystemDice(_pool_of(bytes([0xFF, 0xFF, 0xFD, 0xE8, 0x00, 0x05])))
    assert big.roll(1000) == 6


@pytest.mark.parametrize("sides", [2, 3, 4, 6, 7, 8, 10, 12, 20, 100, 255, 256])
def test_system_dice_map_the_accepted_bytes_evenly(sides: int) -> None:
    dice = SystemDice(_pool_of(bytes(range(256))))
    accepted = 256 - 256 % sides
    counts = Counter(dice.roll(sides) for _ in range(accepted // sides * sides))
    assert counts == {face: accepted // sides for face in range(1, sides + 1)}


@pytest.mark.parametrize("sides", [257, 1000])
def test_system_dice_map_two_byte_values_evenly(sides: int) -> None:
    everything = b"".join(value.to_bytes(2, "big") for value in range(65536))
    dice = SystemDice(_pool_of(everything, len(everything)))
    accepted = 65536 - 65536 % sides
    counts = Counter(dice.roll(sides) for _ in range(accepted))
    assert counts == {face: accepted // sides for face in range(1, sides + 1)}


def test_entropy_pool_refills_by_block_and_serves_each_byte_once() -> None:
    blocks = [bytes([1, 2]), bytes([3, 4])]
    pool = EntropyPool(lambda size: blocks.pop(0), 2)
    dice = SystemDice(pool)
    assert [dice.roll(6) for _ in range(4)] == [2, 3, 4, 5]
    assert blocks == []


def test_a_forked_child_does_not_serve_its_parents_bytes() -> None:
    SystemDice().roll(6)  # the shared pool now holds the rest of a block
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.close(read)
        emptied = next(SHARED_POOL.bytes, -1) == -1
        os.write(write, b"1" if emptied else b"0")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 1)
    os.close(read)
    os.waitpid(child, 0)
    assert answer == b"1"


def test_system_dice_show_each_accepted_byte_as_its_remainder_plus_one_in_order() -> None:
    for sides in range(2, 257):
        accepted = [b for b in range(256) if b < 256 - 256 % sides]
        dice = SystemDice(_pool_of(bytes(range(256)), 256))
        assert [dice.roll(sides) for _ in accepted] == [b % sides + 1 for b in accepted], sides
