"""Bad input at every level: the auth payload, raw socket.io/engine.io packets and
websocket frames, dice that explode forever, a time_advance of years. Each gets a stable
error code or a correct result in bounded time, and the connection stays usable."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
import msgpack
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bridge.engine import Accepted, Rejected, Session, process
from protocol.v1.errors import ERRORS
from protocol.v1.parse import ParseError, parse_request
from rules.model import World
from rules.registry import default_registry
from support.live import Env, rid

from .rawsock import BINARY, TEXT, RawSocket
from .scale import pick

ROLL = {"actor": "bruno", "action": "attribute", "params": {"attribute": "fisico"}}
AUTH_CODES = {"bad_auth", "bad_token", "unsupported_protocol", "auth_throttled"}
FUZZ = settings(
    max_examples=pick(60, 1000),
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: bounded time
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers().map(  # past 64 bits too: msgpack cannot carry them, the test sends 2**64-1
        lambda n: max(min(n, 2**64 - 1), -(2**63))
    )
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
    # utf-8 only: a lone surrogate cannot be packed by a client at all; invalid UTF-8
    # inside a packet is sent as raw bytes by the frames test below.
    | st.text(alphabet=st.characters(codec="utf-8"), min_size=0, max_size=5).map(lambda s: s * 2000)
    | st.binary(max_size=20)
    | st.builds(msgpack.ExtType, st.integers(0, 127), st.binary(max_size=8))
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.text(max_size=12) | st.integers(0, 5), inner, max_size=6)
    ),
    max_leaves=40,
)


def deep(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"a": [value]}
    return value


@st.composite
def auths(draw: st.DrawFn) -> Any:
    """Auth payloads: anything at all, or the right shape with one field gone wrong."""
    if draw(st.booleans()):
        return draw(values)
    auth: dict[Any, Any] = {"token": "gm_x", "user": "dm", "protocol": 1}
    key = draw(st.sampled_from(["token", "user", "name", "protocol", "last_seq", "locale", "zz"]))
    auth[key] = draw(values | st.just(deep(200)) | st.just("𝔘" * 100_000) | st.just([0] * 50_000))
    return auth


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")  # big reprs
@FUZZ
@given(auth=auths())
async def test_the_auth_payload_fuzzed_at_the_socket_io_level(env: Env, auth: Any) -> None:
    raw = await RawSocket.open(env.url)
    try:
        await raw.connect_ns(auth)
        try:
            packet = await raw.recv_packet(timeout=10)
        except (ConnectionError, asyncio.IncompleteReadError, ConnectionResetError):
            # a packet socket.io cannot decode at all (an integer map key): closed at once
            with pytest.raises(ValueError):
                msgpack.unpackb(msgpack.packb({"type": 0, "nsp": "/vtt", "data": auth}))
            return
        assert packet["type"] == 4, packet  # CONNECT_ERROR, never a session
        body = packet["data"]["data"]
        assert body["code"] in AUTH_CODES, packet
        assert isinstance(body["message"], str) and body["message"]
        # The same engine.io connection can still open the namespace properly.
        await raw.connect_ns({"token": env.world.gm_token, "user": "dm", "protocol": 1})
        await raw.until(2, "synced")
        number = await raw.emit("roll", {"id": rid(), **ROLL})
        assert (await raw.ack(number))["ok"] is True
    finally:
        raw.close()


packets = st.one_of(
    st.binary(max_size=64).map(lambda b: (BINARY, b)),
    st.text(max_size=40).map(lambda t: (TEXT, t.encode("utf-8", "surrogatepass"))),
    st.sampled_from(
        [
            (TEXT, b"4"),
            (TEXT, b"6"),
            (TEXT, b"9junk"),
            (TEXT, b""),
            (TEXT, b"2probe"),
            (TEXT, b"5"),
            (BINARY, b""),
            (BINARY, b"\xc1"),  # never used in msgpack
            (BINARY, b"\xdd\xff\xff\xff\xff"),  # an array of 4 billion items, announced
            (BINARY, b"\xdb\xff\xff\xff\xff"),  # a 4 GB string, announced
            (  # an event whose argument is a string of invalid UTF-8 (a lone surrogate)
                BINARY,
                msgpack.packb(
                    {"type": 2, "data": ["roll", "X" * 11], "nsp": "/vtt", "id": 7}
                ).replace(b"X" * 11, b"\xed\xa0\x80" + b"X" * 8),
            ),
        ]
    ),
    st.builds(
        lambda kind, data, nsp, pid: (
            BINARY,
            msgpack.packb({"type": kind, "data": data, "nsp": nsp, "id": pid}),
        ),
        st.integers(-3, 9) | st.text(max_size=3),
        values,
        st.sampled_from(["/vtt", "/", "/other", "", None]) | st.text(max_size=5),
        st.none() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=5),
    ),
    st.builds(
        lambda event, args: (
            BINARY,
            msgpack.packb({"type": 2, "data": [event, *args], "nsp": "/vtt", "id": 7}),
        ),
        st.sampled_from(["roll", "undo", "connect", "x" * 5000]) | values,
        st.lists(values, max_size=3),
    ),
)


async def test_an_event_after_leaving_the_namespace_closes_the_connection(env: Env) -> None:
    # Found by make chaos: the event was dropped with no answer and the ack never came.
    raw = await RawSocket.open(env.url)
    try:
        await raw.connect_ns({"token": env.world.gm_token, "user": "dm", "protocol": 1})
        await raw.until(2, "synced")
        await raw.send_packet({"type": 1, "nsp": "/vtt"})  # DISCONNECT from /vtt
        number = await raw.emit("roll", {"id": rid(), **ROLL})
        with pytest.raises((ConnectionError, asyncio.IncompleteReadError, ConnectionResetError)):
            await raw.ack(number, timeout=10)
    finally:
        raw.close()


@pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")  # big reprs
@FUZZ
@given(frames=st.lists(packets, min_size=1, max_size=4))
async def test_raw_frames_and_packets_never_break_the_server(
    env: Env, frames: list[tuple[int, bytes]]
) -> None:
    if not env.clients:
        await env.join()
    witness = env.clients[0]
    raw = await RawSocket.open(env.url)
    try:
        await raw.connect_ns({"token": env.world.gm_token, "user": "dm", "protocol": 1})
        await raw.until(2, "synced")
        for opcode, data in frames:
            await raw.send_frame(opcode, data)
        # Either the connection still answers, or the server closed it: never a hang.
        try:
            number = await raw.emit("roll", {"id": rid(), **ROLL})
            ack = await raw.ack(number, timeout=10)
            assert ack["ok"] is True, ack
        except (ConnectionError, asyncio.IncompleteReadError, ConnectionResetError):
            pass
    finally:
        raw.close()
    ack = await witness.call("roll", {"id": rid(), **ROLL})  # everyone else is fine
    assert ack["ok"]


async def test_an_oversized_websocket_frame_is_refused_and_others_are_fine(env: Env) -> None:
    gm = await env.join()
    raw = await RawSocket.open(env.url)
    await raw.connect_ns({"token": env.world.gm_token, "user": "dm", "protocol": 1})
    await raw.until(2, "synced")
    try:
        await raw.send_frame(BINARY, msgpack.packb({"type": 2, "data": ["roll", "x" * 3_000_000]}))
        closed = False
        try:
            await raw.recv_packet(timeout=10)
        except (ConnectionError, asyncio.IncompleteReadError, ConnectionResetError):
            closed = True
        assert closed, "a 3 MB frame was accepted"
    finally:
        raw.close()
    assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]
    async with aiohttp.ClientSession() as http, http.get(env.url + "healthz") as response:
        assert (await response.json())["ok"] is True


class MaxDice:
    """Every die shows its highest face: every exploding die explodes, forever."""

    def __init__(self) -> None:
        self.draws = 0

    def roll(self, sides: int) -> int:
        self.draws += 1
        assert self.draws < 100_000, "a roll kept asking for dice"
        return sides


def _every_button() -> list[tuple[str, World, Any, Any]]:
    registry = default_registry()
    cases = []
    for system_id, system in sorted(registry.systems.items()):
        world = World("w", "Mesa", system_id, system.validate_settings({}))
        for actor in system.sample_actors():
            world = world.with_actor(actor)
        for actor in world.actors.values():
            for button in system.buttons(world, actor):
                others = [a for a in world.actors if a != actor.id][: max(button.min_targets, 0)]
                payload = {
                    "id": rid(),
                    "actor": actor.id,
                    "action": button.action,
                    "params": dict(button.params),
                    "targets": others,
                }
                cases.append((system_id, world, button.event, payload))
    return cases


def test_dice_that_explode_forever_end_in_a_result_or_dice_limit() -> None:
    registry = default_registry()
    gm = Session("dm", "gm", "es")
    seen: dict[str, int] = {"accepted": 0, "dice_limit": 0}
    for _, world, event, payload in _every_button():
        request = parse_request(event, (payload,))
        assert not isinstance(request, ParseError)
        dice = MaxDice()
        outcome = process(registry, world, gm, event, request, dice)
        if isinstance(outcome, Rejected):
            seen[outcome.code] = seen.get(outcome.code, 0) + 1
            assert outcome.code != "internal_error"
        else:
            assert isinstance(outcome, Accepted)
            seen["accepted"] += 1
    assert seen["dice_limit"] > 0, seen  # exploding dice were stopped, not rolled forever
    assert seen["accepted"] > 0, seen


async def test_an_explosion_through_the_socket_is_dice_limit_and_the_connection_lives(
    env: Env,
) -> None:
    gm = await env.join()
    before = env.seq()
    env.dice.script(*([10] * 5000))
    # o3d10 keeps the median of 3d10 and tens explode: every die a 10 never ends
    ack = await gm.call("roll", {"id": rid(), **ROLL}, timeout=20)
    assert ack["ok"] is False and ack["error"]["code"] == "dice_limit", ack
    assert env.seq() == before
    assert (await gm.call("roll", {"id": rid(), **ROLL}))["ok"]


async def test_a_time_advance_of_years_is_bounded_in_every_system(
    tmp_path: Any, aiohttp_server: Any
) -> None:
    from support.live import make_env

    registry = default_registry()
    for system_id in sorted(registry.systems):
        folder = tmp_path / system_id
        async for env in make_env(folder, aiohttp_server, system_id):
            gm = await env.join()
            actors = [a["id"] for a in (gm.welcome or {})["actors"]]
            for actor in actors:  # everyone bleeding, stunned and hurt: work for every day
                ack = await gm.call(
                    "status_set", {"id": rid(), "actor": actor, "add": ["bleeding", "stunned"]}
                )
                assert ack["ok"], ack
            started = time.monotonic()
            for rest in (True, False):
                ack = await gm.call(
                    "time_advance",
                    {"id": rid(), "unit": "day", "count": 1000, "rest": rest},
                    timeout=30,
                )
                assert ack["ok"] or ack["error"]["code"] != "internal_error", ack
            took = time.monotonic() - started
            assert took < 30, f"{system_id}: two times 1000 days took {took:.1f} s"
            for count in (1001, 10**9, 2**70 - 1 if False else 2**53):
                refused = await gm.call(
                    "time_advance", {"id": rid(), "unit": "day", "count": count}
                )
                assert refused["error"]["code"] in ("invalid_field",), refused
            assert (await gm.call("time_advance", {"id": rid(), "unit": "round"}))["ok"]


@pytest.mark.parametrize(
    ("opcode", "data"),
    [
        (TEXT, b"x"),  # no engine.io packet type
        (TEXT, b""),
        (TEXT, b"1"),  # engine.io CLOSE, then more talk
        (TEXT, b"9junk"),  # no such engine.io packet type
        (BINARY, msgpack.packb({"type": 2, "nsp": "/vtt", "data": ["roll", {1: 2}], "id": 3})),
        (BINARY, msgpack.packb({"type": 2, "nsp": "/vtt", "data": [{"a": 1}], "id": 3})),
        (BINARY, msgpack.packb({"type": 2, "nsp": "/vtt", "data": [], "id": 3})),
    ],
)
async def test_a_broken_packet_gets_an_answer_or_a_close_and_leaks_nothing(
    env: Env, opcode: int, data: bytes
) -> None:
    from bridge.server import BRIDGE_KEY

    bridge = env.app[BRIDGE_KEY]
    witness = await env.join()
    raw = await RawSocket.open(env.url)
    await raw.connect_ns({"token": env.world.gm_token, "user": "dm", "protocol": 1})
    await raw.until(2, "synced")
    assert len(bridge.connections) == 2
    await raw.send_frame(opcode, data)
    try:  # an ack (unknown_event) or the connection closed: never silence
        packet = await raw.recv_packet(timeout=5)
        assert packet["type"] == 3 and packet["data"][0]["error"]["code"] in ERRORS, packet
    except (ConnectionError, asyncio.IncompleteReadError, ConnectionResetError):
        pass
    raw.close()
    for _ in range(100):
        if len(bridge.connections) == 1 and len(bridge.sio.eio.sockets) == 1:
            break
        await asyncio.sleep(0.02)
    assert len(bridge.connections) == 1, "the broken connection is still counted"
    assert len(bridge.sio.eio.sockets) == 1, "the broken socket is still registered"
    assert (await witness.call("roll", {"id": rid(), **ROLL}))["ok"]
