"""The bench floor walks through the operations recorded from the bridge (bridge/bench/floor.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import socketio
from aiohttp import web

from bridge.bench.floor import NOTHING, Recorded, create_floor


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


async def test_the_floor_served_acks_and_pushes_the_recorded_bytes_to_the_room() -> None:
    """Served on 127.0.0.1 with real socket.io clients: each member of the sender's room
    gets the recorded pushes (through the bridge's own room push), the sender its ack,
    and a connection of another room nothing."""
    captured = {"roll": {"operations": [[_step("roll", 1, pushes=2)]]}}
    runner = web.AppRunner(create_floor(captured))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    clients: list[socketio.AsyncClient] = []
    got: list[list[Any]] = [[], [], []]
    try:
        for i, room in enumerate(("roll|w1", "roll|w1", "roll|w2")):
            client = socketio.AsyncClient(serializer="msgpack", reconnection=False)

            async def on_card(body: Any, i: int = i) -> None:
                got[i].append(body)

            client.on("card", on_card, namespace="/vtt")
            await client.connect(
                f"http://127.0.0.1:{port}",
                namespaces=["/vtt"],
                transports=["websocket"],
                auth={"token": room},
            )
            clients.append(client)
        ack = await clients[0].call("roll", {"id": "r1"}, namespace="/vtt", timeout=10)
        assert ack == {"ok": True, "seq": 1}
        for _ in range(200):
            if len(got[0]) == 2 and len(got[1]) == 2:
                break
            await asyncio.sleep(0.01)
        assert got[0] == got[1] == [{"n": 1}, {"n": 1}]
        assert got[2] == []
    finally:
        for client in clients:
            await client.disconnect()
        await runner.cleanup()
