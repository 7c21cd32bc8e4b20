"""Replay a session file against a live server over Socket.IO, one client per recorded user.

The live world must have been created for the same system. The recorded
actors are upserted first (with their state and statuses), then every request
is sent as its user sent it, with card and event references mapped to the live
``seq``. A live server rolls its own dice, so outcomes may differ; what is
compared is whether each request is still accepted (a refusal names its code).
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Any

import socketio

from bridge.serialize import actor_to_json
from bridge.sessions import SessionFile

NS = "/vtt"


@dataclass
class LiveReport:
    events: int = 0
    accepted: int = 0
    divergences: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"summary: events {self.events}, accepted {self.accepted},"
            f" divergences {len(self.divergences)}"
        )


async def _client(url: str, token: str, user: str) -> socketio.AsyncClient:
    client = socketio.AsyncClient(serializer="msgpack", reconnection=False)
    welcomed = asyncio.Event()

    async def on_welcome(data: dict[str, Any]) -> None:
        welcomed.set()

    client.on("welcome", on_welcome, namespace=NS)
    auth = {"token": token, "user": user, "name": user, "protocol": 1}
    await client.connect(url, namespaces=[NS], auth=auth, transports=["websocket"])
    await asyncio.wait_for(welcomed.wait(), 10)
    return client


async def replay_live(
    session: SessionFile,
    url: str,
    gm_token: str,
    player_token: str | None,
    *,
    stop_at: int | None = None,
) -> LiveReport:
    report = LiveReport()
    clients: dict[tuple[str, str], socketio.AsyncClient] = {}

    async def client_for(user: str, role: str) -> socketio.AsyncClient:
        key = (user, role)
        if key not in clients:
            token = gm_token if role == "gm" else player_token
            if token is None:
                raise SystemExit("the session has player requests: give --player-token")
            clients[key] = await _client(url, token, user)
        return clients[key]

    async def call(client: socketio.AsyncClient, event: str, payload: dict[str, Any]) -> Any:
        return await client.call(event, payload, namespace=NS, timeout=15)

    try:
        gm = await client_for("replay-gm", "gm")
        for actor in session.world.actors.values():
            data = actor_to_json(actor)
            ack = await call(
                gm,
                "actor_upsert",
                {
                    "id": uuid.uuid4().hex,
                    "actor": {
                        "id": data["id"],
                        "name": data["name"],
                        "owner": data["owner"],
                        "token": data["token"],
                        "sheet": data["sheet"],
                        "state": data["state"],
                    },
                },
            )
            if not ack.get("ok"):
                report.divergences.append(f"setup: actor {actor.id} refused: {ack['error']}")
            if actor.statuses:
                await call(
                    gm,
                    "status_set",
                    {"id": uuid.uuid4().hex, "actor": actor.id, "add": sorted(actor.statuses)},
                )
        live_seq: dict[int, int] = {}
        for index, line in enumerate(session.events, start=1):
            recorded = line.seq or index
            if stop_at is not None and recorded > stop_at:
                break
            report.events += 1
            payload = dict(line.request)
            payload["id"] = f"{payload.get('id', 'r')}-{uuid.uuid4().hex[:8]}"[:64]
            if line.event == "card_action" and "card" in payload:
                seq, _, card_index = str(payload["card"]).partition(".")
                if int(seq) in live_seq:
                    payload["card"] = f"{live_seq[int(seq)]}.{card_index}"
            if line.event == "undo" and int(payload.get("seq", 0)) in live_seq:
                payload["seq"] = live_seq[int(payload["seq"])]
            client = await client_for(line.user, line.role)
            ack = await call(client, line.event, payload)
            if isinstance(ack, dict) and ack.get("ok"):
                report.accepted += 1
                live_seq[recorded] = int(ack["seq"])
            else:
                error = ack.get("error", {}) if isinstance(ack, dict) else {}
                report.divergences.append(
                    f"event {index} ({line.event} by {line.user}): recorded accepted,"
                    f" live refused {error.get('code')}: {error.get('message')}"
                )
    finally:
        for client in clients.values():
            await client.disconnect()
    return report
