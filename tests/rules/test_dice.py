from collections import Counter

import pytest

from rules.dice import (
    DiceError,
    DiceExhausted,
    DiceScriptMismatch,
    Die,
    Draw,
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
