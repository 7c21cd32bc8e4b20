"""Replay a session or scenario file through a fresh in-process bridge and compare.

Each request goes through the same path as on the server (protocol parsing,
:func:`bridge.engine.process`, rendering), served the dice it had. The pushes
it produces are compared with the recorded ones; scenario lines compare their
``expect`` paths against the ack instead. Nothing here reads a clock: the
report is the same, byte for byte, every time the same file is replayed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from bridge.engine import Accepted, Session, process
from bridge.render import Renderer
from bridge.serialize import actor_from_json
from bridge.sessions import SessionFile, collector_paused
from bridge.store import EventRow
from protocol.v1.parse import ParseError, parse_request
from protocol.v1.session import SessionEvent
from rules.dice import DiceSource, ScriptedDice, SeededDice
from rules.model import World
from rules.registry import Registry

_MISSING = object()


@dataclass(frozen=True)
class Divergence:
    index: int
    seq: int | None
    event: str
    user: str
    field: str
    expected: Any
    got: Any

    def describe(self) -> str:
        where = f"event {self.index}" + (f" (seq {self.seq})" if self.seq is not None else "")
        return (
            f"divergence at {where}, {self.event} by {self.user}:\n"
            f"  field:    {self.field}\n"
            f"  expected: {_show(self.expected)}\n"
            f"  got:      {_show(self.got)}"
        )


def _show(value: Any) -> str:
    if value is _MISSING:
        return "(nothing)"
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@dataclass
class Report:
    events: int = 0
    cards: int = 0
    refused: int = 0
    divergences: list[Divergence] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"summary: events {self.events}, cards {self.cards}, refused {self.refused},"
            f" divergences {len(self.divergences)}"
        )


def first_difference(expected: Any, got: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first path where two JSON values differ, with both sides there."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got), key=str):
            sub = f"{path}.{key}" if path else str(key)
            found = first_difference(expected.get(key, _MISSING), got.get(key, _MISSING), sub)
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for index in range(max(len(expected), len(got))):
            sub = f"{path}.{index}" if path else str(index)
            left = expected[index] if index < len(expected) else _MISSING
            right = got[index] if index < len(got) else _MISSING
            found = first_difference(left, right, sub)
            if found:
                return found
        return None
    if expected is got or (type(expected) is type(got) and expected == got):
        return None
    numbers = (int, float)
    if (
        isinstance(expected, numbers)
        and isinstance(got, numbers)
        and not isinstance(expected, bool)
        and not isinstance(got, bool)
        and expected == got
    ):
        return None
    return (path or "(value)", expected, got)


_SORTED = orjson.OPT_SORT_KEYS


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def same_json(expected: Any, got: Any) -> bool:
    """Whether both are the same JSON value: encoded with their keys sorted, the same text.

    Equal texts mean the same value on the wire and in the store (``true`` is not ``1``,
    ``1`` is not ``1.0``, which Python's ``==`` would let through). orjson does it in one
    pass in C; a value it cannot encode (an integer past 64 bits, a key that is not text)
    is compared as the standard library would encode it. The walk of
    :func:`first_difference` (slow) is only needed to name a difference."""
    try:
        return orjson.dumps(expected, option=_SORTED) == orjson.dumps(got, option=_SORTED)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        try:
            return bool(_canonical(expected) == _canonical(got))
        except (TypeError, ValueError):
            return False


def _recorded_as(text: str, pushes: list[dict[str, Any]]) -> bool:
    """Whether the event's line holds exactly these pushes as text: the value of its
    ``"pushes":`` key is their sorted compact JSON, character for character (an exported
    line is written so). Equal texts are the same JSON value; any other spelling (a
    hand-written file, another float format) says False and the values are compared.

    The key found is the line's own: every other field of an event line (``expect`` is
    left to the value comparison) is a scalar, a list of dice, or the request, whose
    models refuse a ``pushes`` key and whose parameters are scalars; no JSON string
    holds ``"pushes":`` unescaped; a second ``pushes`` key (the last one counts when the
    line is read) sends the line to the value comparison too."""
    try:
        body = orjson.dumps(pushes, option=_SORTED).decode()
    except TypeError:
        return False
    start = text.find('"pushes":') + 9
    return (
        start > 8 and text.startswith(body, start) and text.find('"pushes":', start + len(body)) < 0
    )


def _faces(pushes: list[dict[str, Any]]) -> list[Any]:
    """The dice faces of every card, so a changed die is named before its consequences."""
    return [
        {"card": {"dice": [{"faces": d.get("faces")} for d in p["card"].get("dice", [])]}}
        if p.get("type") == "chat_card" and isinstance(p.get("card"), dict)
        else {}
        for p in pushes
    ]


def lookup(value: Any, path: str) -> Any:
    """A dotted path (``cards.0.outcome.key``), or a JSON-pointer-like path starting with
    ``/`` for keys that hold dots (``/tokens/0/numbers/ammo.subfusil``)."""
    parts = path[1:].split("/") if path.startswith("/") else path.split(".")
    for part in parts:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return _MISSING
    return value


def _dice_for(line: SessionEvent, reroll: bool, seed: int, index: int) -> DiceSource:
    if reroll or line.dice is None:
        return SeededDice(f"{seed}:{index}")
    # The session model gives pairs as tuples, which ScriptedDice takes as (sides, face).
    return ScriptedDice(line.dice)


def replay(
    session: SessionFile,
    registry: Registry,
    *,
    reroll: bool = False,
    seed: int = 0,
    stop_at: int | None = None,
    first_only: bool = False,
    on_event: Callable[[int, int], None] | None = None,
) -> Report:
    """Replay ``session`` through a fresh in-process bridge, comparing as it goes.

    The cyclic garbage collector is paused meanwhile (and any cycle made is collected
    when it resumes): replay keeps every accepted event's pushes for later card actions
    and undos, thousands of containers, and each few thousand kept would start a full
    collection walking the whole heap again (a third of a long replay's time)."""
    with collector_paused():
        return _replay(
            session,
            registry,
            reroll=reroll,
            seed=seed,
            stop_at=stop_at,
            first_only=first_only,
            on_event=on_event,
        )


def _replay(
    session: SessionFile,
    registry: Registry,
    *,
    reroll: bool = False,
    seed: int = 0,
    stop_at: int | None = None,
    first_only: bool = False,
    on_event: Callable[[int, int], None] | None = None,
) -> Report:
    world: World = session.world
    system = registry.get(world.system)
    renderer = Renderer(system)
    locale = str(world.settings.get("locale", "es"))
    produced: dict[int, _Made] = {}
    used: set[tuple[str, str]] = set()
    report = Report()
    divergences = report.divergences
    # One Session per (user, role): a frozen record that only names who asks.
    sessions: dict[tuple[str, str], Session] = {}
    seq = 0
    events = cards = refused = 0
    lines = session.lines
    total = len(lines)
    texts = session.texts if len(session.texts) == total else []
    in_text = session.pushes_in_text if len(session.pushes_in_text) == total else [False] * total
    for index, line in enumerate(lines, start=1):
        if stop_at is not None and (line.seq or index) > stop_at:
            break
        if on_event:
            on_event(index, total)
        events += 1
        event = line.event
        request = parse_request(event, (line.request,))
        outcome: Any
        code: str | None
        if isinstance(request, ParseError):
            outcome = request
            code = request.code
        else:
            dice = _dice_for(line, reroll, seed, index)
            referenced = None
            if event == "card_action":
                referenced = _event_row(
                    produced.get(int(str(line.request.get("card", "0.0")).split(".")[0]))
                )
            elif event == "undo":
                referenced = _event_row(produced.get(int(line.request.get("seq", 0))))
            who = (line.user, line.role)
            session_user = sessions.get(who)
            if session_user is None:
                session_user = sessions[who] = Session(line.user, line.role, locale)
            outcome = process(
                registry,
                world,
                session_user,
                event,
                request,
                dice,
                referenced=referenced,
                used=used,
            )
            code = None if isinstance(outcome, Accepted) else outcome.code
            if code is None and not reroll and isinstance(dice, ScriptedDice) and dice.remaining:
                _diverge(
                    divergences,
                    index,
                    line,
                    "dice",
                    f"{len(line.dice or [])} dice used",
                    f"{dice.remaining} left unused",
                )
        if line.expect_error is not None or code is not None:
            if code != line.expect_error and not reroll:
                _diverge(
                    divergences,
                    index,
                    line,
                    "ok",
                    line.expect_error or "accepted",
                    code or "accepted",
                )
            if code is not None:
                refused += 1
            if first_only and divergences:
                break
            continue
        assert isinstance(outcome, Accepted)
        seq += 1
        pushes = outcome.pushes
        gm = line.role == "gm"
        for p in pushes:
            if p["type"] == "chat_card" and (
                gm
                or (
                    p["card"]["visibility"] != "gm"
                    and (p.get("whisper") is None or line.user in p["whisper"])
                )
            ):
                cards += 1
        if not reroll:
            if line.seq is not None and line.seq != seq:
                _diverge(divergences, index, line, "seq", line.seq, seq)
            if (
                (in_text[index - 1] or line.pushes is not None)
                and not (texts and line.expect is None and _recorded_as(texts[index - 1], pushes))
                and not same_json(recorded := session.recorded_pushes(index - 1), pushes)
            ):
                assert recorded is not None
                found = first_difference(_faces(recorded), _faces(pushes)) or first_difference(
                    recorded, pushes
                )
                if found:
                    _diverge(divergences, index, line, f"pushes.{found[0]}", found[1], found[2])
            if line.expect:
                # Rendering is only needed where a line states what the ack must say.
                ack = renderer.ack(outcome.world, seq, pushes, line.role, locale, user=line.user)
                for path, expected in line.expect.items():
                    got = lookup(ack, path)
                    if first_difference(expected, got) is not None:
                        _diverge(divergences, index, line, f"ack.{path}", expected, got)
        world = outcome.world
        if not reroll and divergences and (in_text[index - 1] or line.pushes is not None):
            # Keep comparing later events against the recording: take the recorded actors.
            for push in session.recorded_pushes(index - 1) or []:
                if push.get("type") == "actor_update" and "actor" in push:
                    world = world.with_actor(actor_from_json(push["actor"]))
        if outcome.used_follow_ups:
            used.update(outcome.used_follow_ups)
        if outcome.released_follow_ups:
            used.difference_update(outcome.released_follow_ups)
        produced[seq] = (seq, line, pushes, outcome.undo)
        if first_only and divergences:
            break
    report.events, report.cards, report.refused = events, cards, refused
    return report


_Made = tuple[int, SessionEvent, list[dict[str, Any]], dict[str, Any] | None]
"""What an accepted line made: its seq, the line, its pushes and its undo record."""


def _event_row(made: _Made | None) -> EventRow | None:
    """The event an earlier line made, as the store would give it to a later card action
    or undo (only those read it, so it is built only for them)."""
    if made is None:
        return None
    seq, line, pushes, undo = made
    return EventRow(
        "replay",
        seq,
        str(line.request.get("id", "")),
        line.event,
        line.user,
        line.role,
        line.request,
        "",
        [],
        pushes,
        undo,
        "",
    )


def _diverge(
    divergences: list[Divergence],
    index: int,
    line: SessionEvent,
    field_name: str,
    expected: Any,
    got: Any,
) -> None:
    divergences.append(
        Divergence(index, line.seq, line.event, line.user, field_name, expected, got)
    )
