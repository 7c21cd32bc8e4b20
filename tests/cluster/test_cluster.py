"""Three bridge processes on one PostgreSQL and one Redis: one order, exactly once."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import socketio

from support.cluster import ROLL, Cluster, collect
from support.live import Client, connect, rid


async def roll(client: Client, payload: dict[str, Any] | None = None) -> dict[str, Any]:
    ack = await client.call("roll", payload or {"id": rid(), **ROLL})
    assert ack["ok"], ack
    return ack


async def test_cards_reach_the_clients_of_every_process_in_seq_order(cluster: Cluster) -> None:
    gms = [
        await connect(node.url, cluster.auth("gm", f"dm{i}"))
        for i, node in enumerate(cluster.nodes)
    ]
    ana = await connect(cluster.nodes[1].url, cluster.auth("player", "ana"))
    beto = await connect(cluster.nodes[2].url, cluster.auth("player", "beto", locale="en"))
    try:

        async def play(gm: Client) -> list[dict[str, Any]]:
            return [await roll(gm) for _ in range(10)]

        acks = [a for batch in await asyncio.gather(*(play(gm) for gm in gms)) for a in batch]
        assert sorted(a["seq"] for a in acks) == list(range(1, 31))
        for client in [*gms, ana, beto]:
            assert await collect(client, 30) == list(range(1, 31))
        # The same event, rendered by each process for its own clients.
        late = await connect(cluster.nodes[0].url, cluster.auth("player", "ana", last_seq=0))
        backlog = [await late.next_push("chat_card") for _ in range(30)]
        by_seq = {a["seq"]: a["cards"][0]["dice"] for a in acks}
        assert all(card["dice"] == by_seq[card["seq"]] for card in backlog)
        await late.close()
    finally:
        for client in [*gms, ana, beto]:
            await client.close()


async def test_the_same_request_sent_to_three_processes_makes_one_event(cluster: Cluster) -> None:
    gms = [await connect(node.url, cluster.auth("gm", "dm")) for node in cluster.nodes]
    try:
        for expected_seq in range(1, 9):
            payload = {"id": rid(), **ROLL}
            acks = await asyncio.gather(*(roll(gm, payload) for gm in gms))
            assert {a["seq"] for a in acks} == {expected_seq}
            assert sorted(a["duplicate"] for a in acks) == [False, True, True]
            assert len({str(a["cards"][0]["dice"]) for a in acks}) == 1
    finally:
        for gm in gms:
            await gm.close()
    store = cluster.store()
    try:
        assert [e.seq for e in store.events_after(cluster.world.world_id, 0)] == list(range(1, 9))
    finally:
        store.close()


async def test_a_client_reconnects_to_another_process_and_misses_nothing(
    cluster: Cluster,
) -> None:
    gm = await connect(cluster.nodes[1].url, cluster.auth())
    ana = await connect(cluster.nodes[0].url, cluster.auth("player", "ana"))
    try:
        for _ in range(3):
            await roll(gm)
        assert await collect(ana, 3) == [1, 2, 3]
        await ana.close()
        for _ in range(3):
            await roll(gm)
        ana = await connect(cluster.nodes[2].url, cluster.auth("player", "ana", last_seq=3))
        assert ana.welcome is not None and ana.welcome["seq"] == 6
        for _ in range(3):
            await roll(gm)
        assert await collect(ana, 6) == [4, 5, 6, 7, 8, 9]
        await asyncio.sleep(0.5)
        assert [name for name, _ in ana.drain() if name == "chat_card"] == []
    finally:
        await gm.close()
        await ana.close()


async def test_kill_9_of_a_process_under_load_loses_and_duplicates_nothing(
    cluster: Cluster,
) -> None:
    per_client = 25
    acked: dict[str, tuple[int, Any]] = {}
    seen: list[list[int]] = [[], [], []]
    total = asyncio.Event()
    clients: list[Client] = []
    transient: list[str] = []

    async def player(index: int) -> None:
        node = cluster.nodes[index]
        # last_seq 0: the others may have played already when this client joins.
        client = await connect(node.url, cluster.auth("gm", f"dm{index}", last_seq=0))
        clients.append(client)
        for _ in range(per_client):
            payload = {"id": rid(), **ROLL}
            while True:
                try:
                    ack = await client.call("roll", payload, timeout=5)
                    if ack.get("error", {}).get("code") == "store_error":
                        # Transient by protocol (nothing applied): a real client (the JS
                        # one) sends the same request again, and so does this one.
                        transient.append(payload["id"])
                        assert len(transient) <= 10, transient
                        continue
                    break
                except (TimeoutError, socketio.exceptions.SocketIOError):
                    # Our process died: go to another with the last seq we saw, and send
                    # the same request again (it may or may not have been written).
                    seen[index] += [
                        s for n, b in client.drain() if n == "chat_card" for s in [b["seq"]]
                    ]
                    await client.close()
                    node = next(n for n in cluster.nodes if n.process.poll() is None)
                    last = seen[index][-1] if seen[index] else 0
                    client = await connect(
                        node.url, cluster.auth("gm", f"dm{index}", last_seq=last)
                    )
                    clients.append(client)
            assert ack["ok"], ack
            acked[payload["id"]] = (ack["seq"], ack["cards"][0]["dice"])
            if len(acked) >= 20:
                total.set()
        # Until every event is seen (the others may still be playing): a bound, not a pause.
        seen[index] += await collect(client, 3 * per_client - len(seen[index]), timeout=60)

    async def killer() -> None:
        await total.wait()
        cluster.nodes[1].kill9()

    await asyncio.gather(killer(), *(player(i) for i in range(3)))
    try:
        store = cluster.store()
        events = store.events_after(cluster.world.world_id, 0)
        store.close()
        assert [e.seq for e in events] == list(range(1, 3 * per_client + 1))
        written = {e.request_id: e.seq for e in events}
        assert len(written) == len(events) == len(acked)  # nothing twice, nothing extra
        assert {rid_: seq for rid_, (seq, _) in acked.items()} == written
        for index in range(3):
            assert seen[index] == list(range(1, 3 * per_client + 1)), index
    finally:
        for client in clients:
            await client.close()


async def test_a_whisper_reaches_its_player_on_another_process_only(cluster: Cluster) -> None:
    gm = await connect(cluster.nodes[0].url, cluster.auth())
    ana = await connect(cluster.nodes[1].url, cluster.auth("player", "ana"))
    beto = await connect(cluster.nodes[2].url, cluster.auth("player", "beto"))
    try:
        secret = await roll(gm, {"id": rid(), **ROLL, "whisper": ["ana"]})
        public = await roll(gm)
        assert await collect(ana, 2) == [secret["seq"], public["seq"]]
        assert await collect(beto, 1) == [public["seq"]]  # never the whisper
        assert [name for name, _ in beto.drain() if name == "chat_card"] == []
        async with aiohttp.ClientSession() as session:
            deadline = asyncio.get_running_loop().time() + 20  # a bound for a loaded machine
            while True:  # the count moves once Redis has answered node 0
                async with session.get(cluster.nodes[0].url + "healthz") as response:
                    health = (await response.json())["cluster"]
                if health["published"] >= 2 or asyncio.get_running_loop().time() > deadline:
                    break
                await asyncio.sleep(0.05)
        assert health["redis"] is True and health["published"] == 2
    finally:
        for client in (gm, ana, beto):
            await client.close()


async def test_joining_while_another_process_writes_gives_each_push_once(
    cluster: Cluster,
) -> None:
    gm = await connect(cluster.nodes[0].url, cluster.auth())

    async def writer() -> None:
        for _ in range(40):
            await roll(gm)

    writing = asyncio.create_task(writer())
    try:
        while not writing.done():
            ana = await connect(cluster.nodes[1].url, cluster.auth("player", "ana", last_seq=0))
            await asyncio.sleep(0.05)
            await ana.close()
            seqs = [body["seq"] for name, body in ana.drain() if name == "chat_card"]
            assert seqs == list(range(1, len(seqs) + 1))  # backlog then live: no dup, no gap
    finally:
        await writing
        await gm.close()
