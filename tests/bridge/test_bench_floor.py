"""The bench floor walks through the operations recorded from the bridge (bridge/bench/floor.py)."""

from __future__ import annotations

from typing import Any

from bridge.bench.floor import NOTHING, Recorded


def _step(event: str, seq: int, pushes: int = 1) -> list[Any]:
    return [event, {"ok": True, "seq": seq}, [["card", {"n": seq}]] * pushes]


MISS = [_step("attack", 1), _step("undo", 2)]
HITS = [_step("attack", 3), _step("card_action", 4), _step("card_action", 5)]
HITS += [_step("undo", 6), _step("undo", 7), _step("undo", 8)]


def _walk(recorded: Recorded, place: list[int], events: list[str]) -> list[int]:
    return [recorded.answer(place, event)[1].get("seq", 0) for event in events]


def test_each_connection_walks_the_operations_in_turn_from_its_own_start() -> None:
    recorded = Recorded([MISS, HITS])
    first, second = recorded.cursor(), recorded.cursor()
    assert first != second  # connections start at different operations
    place = [0, 0]
    events = ["attack", "undo", "attack", "card_action", "card_action", "undo", "undo", "undo"]
    assert _walk(recorded, place, events) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert place == [0, 0]  # round again: the miss, then the hits
    assert _walk(recorded, place, ["attack", "undo"]) == [1, 2]
    assert place == [1, 0]


def test_a_request_the_recording_does_not_have_next_gets_that_event_or_unknown() -> None:
    recorded = Recorded([MISS, HITS])
    place = [0, 0]
    assert recorded.answer(place, "card_action")[1]["seq"] == 4  # the first one recorded
    assert place == [0, 0]  # and the walk did not move
    assert recorded.answer(place, "roll") is NOTHING
    assert Recorded([]).answer([0, 0], "attack") is NOTHING
