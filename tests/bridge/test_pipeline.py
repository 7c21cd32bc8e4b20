"""A world's requests in flight: worked out in turn, made durable together, pushed in order.

Real socket.io clients against the real server and store (tests/support/live.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

from support.live import Env, rid
from support.worlds import one_o3d10_world

ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}
MEMBERS = 5
ROLLS = 10


async def _members(env: Env) -> list[Any]:
    return [await env.join(user=f"dm{i}") for i in range(MEMBERS)]


async def test_a_worlds_members_share_commits_and_every_member_sees_every_push_in_order(
    env: object,
) -> None:
    assert isinstance(env, Env)
    members = await _members(env)
    commits: list[int] = []
    original = env.store.append_many

    def counting(items: list[Any]) -> list[Any]:
        commits.append(len(items))
        return original(items)  # type: ignore[arg-type]

    env.store.append_many = counting  # type: ignore[method-assign,assignment]

    async def rolls(member: Any) -> list[int]:
        seqs = []
        for _ in range(ROLLS):
            ack = await member.call("roll", {"id": rid(), **ROLL})
            assert ack["ok"], ack
            seqs.append(ack["seq"])
        return seqs

    acked = await asyncio.gather(*(rolls(m) for m in members))
    env.store.append_many = original  # type: ignore[method-assign]
    total = MEMBERS * ROLLS
    assert sorted(s for seqs in acked for s in seqs) == list(range(1, total + 1))
    assert env.seq() == total
    # One world, yet fewer transactions than events: requests of the same world were
    # written together (the lock no longer spans the sync to disk).
    assert sum(commits) == total and len(commits) < total
    for member in members:
        cards = [await member.next_push("chat_card") for _ in range(total)]
        assert [c["seq"] for c in cards] == list(range(1, total + 1))


async def test_requests_in_flight_when_the_store_fails_all_fail_and_change_nothing(
    env: object,
) -> None:
    from bridge.store import StoreError

    assert isinstance(env, Env)
    members = await _members(env)
    before = env.seq()
    original = env.store.append_many

    def failing(items: list[object]) -> list[object]:
        return [StoreError("disk I/O error (simulated)") for _ in items]

    env.store.append_many = failing  # type: ignore[method-assign,assignment]
    payloads = [{"id": rid(), **ROLL} for _ in members]
    acks = await asyncio.gather(
        *(m.call("roll", p) for m, p in zip(members, payloads, strict=True))
    )
    assert all(not a["ok"] and a["error"]["code"] == "store_error" for a in acks)
    env.store.append_many = original  # type: ignore[method-assign]
    assert env.seq() == before
    late = await env.join(user="late", last_seq=before)
    assert late.welcome is not None and late.welcome["seq"] == before
    retried = await asyncio.gather(
        *(m.call("roll", p) for m, p in zip(members, payloads, strict=True))
    )
    assert all(a["ok"] and not a["duplicate"] for a in retried)
    assert sorted(a["seq"] for a in retried) == list(range(before + 1, before + MEMBERS + 1))
    assert env.seq() == before + MEMBERS
    for member in members:  # nothing was pushed for the failed requests
        cards = [await member.next_push("chat_card") for _ in range(MEMBERS)]
        assert [c["seq"] for c in cards] == list(range(before + 1, before + MEMBERS + 1))


async def test_a_retry_sent_while_the_request_is_in_flight_applies_once(env: object) -> None:
    assert isinstance(env, Env)
    first, second = await env.join(user="a"), await env.join(user="b")
    payload = {"id": rid(), **ROLL}
    acks = await asyncio.gather(first.call("roll", payload), second.call("roll", payload))
    assert all(a["ok"] for a in acks)
    assert acks[0]["seq"] == acks[1]["seq"] == env.seq()
    assert sorted(a["duplicate"] for a in acks) == [False, True]
    assert acks[0]["cards"] == acks[1]["cards"]
    other = await first.call("roll", {**payload, "params": {"attribute": "agilidad"}})
    assert other["error"]["code"] == "id_reused"


async def test_a_retry_of_a_request_whose_write_failed_is_worked_out_afresh_once(
    env: object,
) -> None:
    from bridge.store import StoreError

    assert isinstance(env, Env)
    first, second = await env.join(user="a"), await env.join(user="b")
    before = env.seq()
    original = env.store.append_many
    failed: list[int] = []

    def failing_once(items: list[Any]) -> list[Any]:
        if not failed:
            failed.append(len(items))
            return [StoreError("disk I/O error (simulated)") for _ in items]
        return original(items)  # type: ignore[arg-type]

    env.store.append_many = failing_once  # type: ignore[method-assign,assignment]
    payload = {"id": rid(), **ROLL}
    acks = await asyncio.gather(first.call("roll", payload), second.call("roll", payload))
    env.store.append_many = original  # type: ignore[method-assign]
    assert failed
    codes = sorted("ok" if a["ok"] else a["error"]["code"] for a in acks)
    # The first write failed; the retry (waiting for it, or arriving after) was worked
    # out afresh and written once, not answered as a duplicate of nothing.
    assert codes == ["ok", "store_error"]
    (ok,) = [a for a in acks if a["ok"]]
    assert ok["seq"] == before + 1 and not ok["duplicate"]
    assert env.seq() == before + 1


async def test_request_ids_known_in_memory_answer_retries_across_a_restart(env: object) -> None:
    """The in-memory id filter (WorldRuntime.request_ids) is filled from the log when the
    world loads: a retry after a restart is a duplicate, a new id reads nothing, and an
    id that only collides in the filter is still looked up and applied as new."""
    from bridge.server import BRIDGE_KEY

    assert isinstance(env, Env)
    gm = await env.join()
    payload = {"id": rid(), **ROLL}
    first = await gm.call("roll", payload)
    assert first["ok"] and not first["duplicate"]
    await env.restart()
    gm = await env.join()
    bridge = env.app[BRIDGE_KEY]
    runtime = bridge.worlds[env.world.world_id]
    assert runtime.request_ids == {hash(payload["id"])}
    lookups: list[str] = []
    original = env.store.find_request_now

    def counting(world_id: str, request_id: str) -> Any:
        lookups.append(request_id)
        return original(world_id, request_id)

    env.store.find_request_now = counting  # type: ignore[method-assign]
    again = await gm.call("roll", payload)
    assert again["duplicate"] and again["seq"] == first["seq"]
    fresh = await gm.call("roll", {"id": rid(), **ROLL})
    assert fresh["ok"] and not fresh["duplicate"] and fresh["seq"] == first["seq"] + 1
    colliding = rid()
    runtime.request_ids.add(hash(colliding))  # as if another id had the same hash
    collided = await gm.call("roll", {"id": colliding, **ROLL})
    assert collided["ok"] and not collided["duplicate"] and collided["seq"] == fresh["seq"] + 1
    assert lookups == [payload["id"], colliding]
    env.store.find_request_now = original  # type: ignore[method-assign]
    # Its digest was not written: worked out from the stored payload when a retry asks.
    assert original(env.world.world_id, payload["id"]).payload_hash == ""
    changed = await gm.call("roll", {**payload, "params": {"attribute": "agilidad"}})
    assert changed["error"]["code"] == "id_reused" and env.seq() == collided["seq"]


async def test_a_request_cancelled_while_its_write_is_on_the_way_is_still_written_once(
    tmp_path: Any,
) -> None:
    """The request awaits a future of its own for the write: cancelling it (its client
    gone, a shutdown) leaves the write and the world's durable state alone, so the event
    stays written, nothing rolls back, the next request follows it and a retry of the
    cancelled id is answered as a duplicate."""
    import threading

    from bridge.bench.net import O3D10_ROLL
    from bridge.engine import Session
    from bridge.server import Bridge, Connection
    from bridge.store import AsyncStore

    sync, world_id, registry = one_o3d10_world(tmp_path)
    store = AsyncStore(sync)
    bridge = Bridge(store, registry)
    conn = Connection(world_id, Session("gm1", "gm", "es"), None)
    conn.welcomed.set()
    entered, release = threading.Event(), threading.Event()
    original = sync.append_many

    def held(items: Any) -> Any:
        entered.set()
        release.wait(10)
        return original(items)

    sync.append_many = held  # type: ignore[method-assign]
    first = {"id": rid(), **O3D10_ROLL}
    task = asyncio.ensure_future(bridge.handle(conn, "roll", (dict(first),), "es"))
    while not entered.is_set():
        await asyncio.sleep(0.005)
    task.cancel()
    await asyncio.sleep(0)
    release.set()
    sync.append_many = original  # type: ignore[method-assign]
    second = await bridge.handle(conn, "roll", ({"id": rid(), **O3D10_ROLL},), "es")
    assert task.cancelled()
    assert second["ok"] and second["seq"] == 2, second
    runtime = bridge.worlds[world_id]
    assert runtime.seq == 2 and bridge.pipe(runtime).rollbacks == 0
    retried = await bridge.handle(conn, "roll", (dict(first),), "es")
    assert retried["ok"] and retried["duplicate"] and retried["seq"] == 1, retried
    assert [e.seq for e in sync.events_after(world_id, 0)] == [1, 2]
    await store.close()
