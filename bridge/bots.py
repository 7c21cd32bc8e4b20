"""Headless bots: a GM and N players driving a live server with plausible requests.

Players press random sheet buttons of the actors the GM gave them (the
buttons the server lists are exactly what the world's system offers), with
random targets; the GM now and then sets a status or lets a round pass. Every
run is bounded by a request count and a time limit and stops by itself.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import socketio

NS = "/vtt"


@dataclass
class BotStats:
    sent: int = 0
    ok: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)

    def as_json(self, elapsed: float) -> dict[str, Any]:
        ordered = sorted(self.latencies)

        def pct(p: float) -> float:
            if not ordered:
                return 0.0
            return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 2)

        return {
            "requests": self.sent,
            "ok": self.ok,
            "refused": dict(sorted(self.refused.items())),
            "seconds": round(elapsed, 2),
            "requests_per_second": round(self.sent / elapsed, 1) if elapsed else 0.0,
            "p50_ms": pct(0.5),
            "p99_ms": pct(0.99),
        }


class Bot:
    def __init__(self, url: str, token: str, user: str, rng: random.Random) -> None:
        self.url = url
        self.token = token
        self.user = user
        self.rng = rng
        self.sio = socketio.AsyncClient(serializer="msgpack", reconnection=False)
        self.welcome: dict[str, Any] = {}
        self.actors: dict[str, dict[str, Any]] = {}
        self._welcomed = asyncio.Event()
        self.sio.on("welcome", self._on_welcome, namespace=NS)
        self.sio.on("actor_update", self._on_actor, namespace=NS)

    async def _on_welcome(self, data: dict[str, Any]) -> None:
        self.welcome = data
        self.actors = {a["id"]: a for a in data["actors"]}
        self._welcomed.set()

    async def _on_actor(self, data: dict[str, Any]) -> None:
        if data.get("actor"):
            self.actors[data["actor"]["id"]] = data["actor"]
        elif data.get("removed"):
            self.actors.pop(data["removed"], None)

    async def connect(self) -> None:
        auth = {"token": self.token, "user": self.user, "name": self.user, "protocol": 1}
        await self.sio.connect(
            self.url, namespaces=[NS], auth=auth, transports=["websocket"], wait_timeout=15
        )
        await asyncio.wait_for(self._welcomed.wait(), 10)

    async def request(self, stats: BotStats, event: str, payload: dict[str, Any]) -> Any:
        payload = {"id": uuid.uuid4().hex, **payload}
        started = time.perf_counter()
        stats.sent += 1
        try:
            ack = await self.sio.call(event, payload, namespace=NS, timeout=10)
        except socketio.exceptions.TimeoutError:
            stats.refused["client_timeout"] += 1
            return None
        stats.latencies.append(time.perf_counter() - started)
        if isinstance(ack, dict) and ack.get("ok"):
            stats.ok += 1
        else:
            code = ack.get("error", {}).get("code", "?") if isinstance(ack, dict) else "?"
            stats.refused[str(code)] += 1
        return ack

    def own_actors(self) -> list[dict[str, Any]]:
        if self.welcome.get("role") == "gm":
            return list(self.actors.values())
        return [a for a in self.actors.values() if a.get("owner") == self.user]

    async def press_random_button(self, stats: BotStats) -> None:
        mine = self.own_actors()
        if not mine:
            return
        actor = self.rng.choice(mine)
        buttons = [b for b in actor["buttons"] if not b["gm_only"] or self.welcome["role"] == "gm"]
        if not buttons:
            return
        button = self.rng.choice(buttons)
        others = [a for a in self.actors if a != actor["id"]]
        count = min(len(others), max(button["min_targets"], min(1, button["max_targets"])))
        params = dict(button["params"])
        for ask in button["ask"]:
            if ask["kind"] == "choice" and ask["choices"] and self.rng.random() < 0.5:
                params[ask["name"]] = self.rng.choice(ask["choices"])
        ack = await self.request(
            stats,
            button["event"],
            {
                "actor": actor["id"],
                "action": button["action"],
                "params": params,
                "targets": self.rng.sample(others, count),
            },
        )
        if isinstance(ack, dict) and ack.get("ok") and ack["cards"] and self.rng.random() < 0.7:
            card = ack["cards"][-1]
            if card["actions"]:
                follow = self.rng.choice(card["actions"])
                await self.request(
                    stats,
                    "card_action",
                    {"card": card["card_id"], "action": follow["id"]},
                )

    async def close(self) -> None:
        await self.sio.disconnect()


async def run_bots(
    url: str,
    gm_token: str,
    player_token: str | None,
    *,
    players: int = 4,
    requests: int = 200,
    seconds: float = 30.0,
    seed: int = 0,
) -> dict[str, Any]:
    rng = random.Random(seed)
    stats = BotStats()
    gm = Bot(url, gm_token, "bot-gm", random.Random(rng.random()))
    await gm.connect()
    bots = [gm]
    if player_token is not None and players > 0:
        actor_ids = sorted(gm.actors)
        for index, actor_id in enumerate(actor_ids):
            actor = gm.actors[actor_id]
            owner = f"bot-{index % players + 1}"
            await gm.request(
                stats,
                "actor_upsert",
                {
                    "actor": {
                        "id": actor_id,
                        "name": actor["name"],
                        "owner": owner,
                        "sheet": actor["sheet"],
                    }
                },
            )
        for number in range(1, players + 1):
            bot = Bot(url, player_token, f"bot-{number}", random.Random(rng.random()))
            await bot.connect()
            bots.append(bot)
    started = time.perf_counter()
    deadline = started + seconds
    budget = [requests]

    async def drive(bot: Bot) -> None:
        while budget[0] > 0 and time.perf_counter() < deadline:
            budget[0] -= 1
            if bot is gm and bot.rng.random() < 0.15 and bot.actors:
                actor = bot.rng.choice(sorted(bot.actors))
                status = bot.rng.choice(["stunned", "prone", "bleeding"])
                key = "add" if bot.rng.random() < 0.6 else "remove"
                await bot.request(stats, "status_set", {"actor": actor, key: [status]})
            elif bot is gm and bot.rng.random() < 0.05:
                await bot.request(stats, "time_advance", {"unit": "round"})
            else:
                await bot.press_random_button(stats)

    try:
        await asyncio.gather(*(drive(bot) for bot in bots))
    finally:
        for bot in bots:
            await bot.close()
    return stats.as_json(time.perf_counter() - started)
