"""Rules records to plain JSON and back, for the store, the event log and the wire.

Only data crosses: a :class:`rules.model.Text` becomes ``{"key", "params"}``, a
card keeps every die and follow-up, a world keeps its actors and data.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, final

from rules.dice import Die
from rules.memo import forget_unheld
from rules.model import Actor, Card, FollowUp, Outcome, Section, Text, TextParam, World
from rules.params import Param
from rules.records import native_record


@final
@dataclass(frozen=True)
class NewEvent:
    """An accepted event as the bridge hands it to the store (never changed after): the
    columns of its row. ``bridge.store.NewEvent`` is this class.

    A native record (``rules.records.native_record``), defined here so that the engine's
    compiled step builds it natively (its own ``__init__`` storing into the instance's
    struct; ~2.5k instructions of the loop a request as the plain dataclass it was, whose
    generated ``__init__`` ran as plain Python); pure, the record's ``__init__`` fills its
    ``__dict__``. Frozen: nothing assigns to a record's fields once made."""

    seq: int
    request_id: str
    event: str
    user: str
    role: str
    payload: dict[str, Any]
    payload_hash: str
    draws: list[list[int]]
    pushes: list[dict[str, Any]]
    undo: dict[str, Any] | None
    created_at: str
    used_follow_ups: tuple[tuple[str, str], ...] = ()
    released_follow_ups: tuple[tuple[str, str], ...] = ()

    def __init__(
        self,
        seq: int,
        request_id: str,
        event: str,
        user: str,
        role: str,
        payload: dict[str, Any],
        payload_hash: str,
        draws: list[list[int]],
        pushes: list[dict[str, Any]],
        undo: dict[str, Any] | None,
        created_at: str,
        used_follow_ups: tuple[tuple[str, str], ...] = (),
        released_follow_ups: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.seq = seq  # type: ignore[misc]
        self.request_id = request_id  # type: ignore[misc]
        self.event = event  # type: ignore[misc]
        self.user = user  # type: ignore[misc]
        self.role = role  # type: ignore[misc]
        self.payload = payload  # type: ignore[misc]
        self.payload_hash = payload_hash  # type: ignore[misc]
        self.draws = draws  # type: ignore[misc]
        self.pushes = pushes  # type: ignore[misc]
        self.undo = undo  # type: ignore[misc]
        self.created_at = created_at  # type: ignore[misc]
        self.used_follow_ups = used_follow_ups  # type: ignore[misc]
        self.released_follow_ups = released_follow_ups  # type: ignore[misc]


native_record(NewEvent)


_MILLIS: Final = tuple(f".{m:03d}+00:00" for m in range(1000))
"""A millisecond's tail of the text, as ``isoformat(timespec="milliseconds")`` writes it
for a UTC time."""


class _Clock:
    """The last millisecond and second :func:`now` formatted, and their texts."""

    def __init__(self) -> None:
        self.ms = -1
        self.text = ""
        self.second = -1
        self.head = ""


_CLOCK: Final = _Clock()


def now() -> str:
    """The time as the store records it (UTC, ISO 8601, milliseconds:
    ``2026-11-30T17:06:01.123+00:00``), the text ``datetime.isoformat`` gives.

    Every accepted event records it (its ``created_at``). The text is made once a
    millisecond: the date and time up to the second once a second (``datetime``'s own
    formatting), the millisecond's tail taken from a table; within the same millisecond the
    same text object comes back. Compiled (it was plain Python in ``bridge.worlds``, ~50
    bytecodes a request: engine9, docs/performance-engine.md "Ninth pass")."""
    ms = time.time_ns() // 1_000_000
    clock = _CLOCK
    if ms != clock.ms:
        seconds = ms // 1000
        if seconds != clock.second:
            moment = datetime.fromtimestamp(seconds, UTC)
            clock.second, clock.head = seconds, moment.isoformat(timespec="seconds")[:-6]
        clock.ms, clock.text = ms, clock.head + _MILLIS[ms - seconds * 1000]
    return clock.text


_TEXT_JSON: OrderedDict[int, tuple[Text, dict[str, Any]]] = OrderedDict()
_TEXT_JSON_SIZE = 1024


def text_to_json(text: Text) -> dict[str, Any]:
    """A text's JSON form, remembered by the text's identity: the rules share frozen
    texts (ranks, outcomes, skill names, card lines) between results, and the JSON is
    only ever read or encoded, never changed. The entry holds the text, so its ``id``
    is not reused while the entry lives; at the bound the entries of texts nothing else
    holds go first, then the oldest (``rules.memo.forget_unheld``)."""
    key = id(text)
    hit = _TEXT_JSON.get(key)
    if hit is not None and hit[0] is text:
        return hit[1]
    raw = {"key": text.key, "params": {k: _param_to_json(v) for k, v in text.params.items()}}
    _TEXT_JSON[key] = (text, raw)
    if len(_TEXT_JSON) > _TEXT_JSON_SIZE:
        forget_unheld(_TEXT_JSON, _TEXT_JSON_SIZE)
    return raw


def _param_to_json(value: TextParam) -> Any:
    if isinstance(value, Text):
        return {"text": text_to_json(value)}
    if isinstance(value, tuple):
        return {"texts": [text_to_json(item) for item in value]}
    return value


def text_from_json(raw: Mapping[str, Any]) -> Text:
    return Text(str(raw["key"]), {k: _param_from_json(v) for k, v in raw["params"].items()})


def _param_from_json(value: Any) -> TextParam:
    if isinstance(value, dict):
        if "text" in value:
            return text_from_json(value["text"])
        return tuple(text_from_json(item) for item in value["texts"])
    if isinstance(value, str | int | float | bool):
        return value
    return str(value)


def die_to_json(die: Die) -> dict[str, Any]:
    return {
        "sides": die.sides,
        "faces": list(die.faces),
        "role": die.role,
        "kept": die.kept,
        "group": die.group,
    }


def param_to_json(param: Param) -> dict[str, Any]:
    return {
        "name": param.name,
        "kind": param.kind,
        "label": text_to_json(param.label) if param.label else None,
        "required": param.required,
        "default": param.default,
        "minimum": param.minimum,
        "maximum": param.maximum,
        "choices": list(param.choices),
    }


def follow_up_to_json(follow: FollowUp) -> dict[str, Any]:
    return {
        "id": follow.id,
        "label": text_to_json(follow.label),
        "action": follow.action,
        "actor": follow.actor_id,
        "params": dict(follow.params),
        "targets": list(follow.targets),
        "allowed": follow.allowed,
        "once": follow.once,
        "ask": [param_to_json(p) for p in follow.ask if isinstance(p, Param)],
        "group": follow.group,
    }


def _section_to_json(section: Section) -> dict[str, Any]:
    return {
        "title": text_to_json(section.title) if section.title else None,
        "lines": [
            {
                "label": text_to_json(line.label),
                "value": text_to_json(line.value) if isinstance(line.value, Text) else line.value,
            }
            for line in section.lines
        ],
    }


PART_MEMO_SIZE = 1024
"""Card parts (dice, sections) remembered by the identities of their members: the rules
share such frozen records between results (the o3d10 rules keep every die they threw and
the lines each kept face shows), and their JSON is only ever read or encoded, never
changed. Emptied at the bound."""
VALUE_MEMO_SIZE = 512
"""Card parts remembered by their values (dice) or their texts' identity (sections),
emptied at the bound: ~1-4 kB an entry (docs/reliability.md, item 10)."""


_Parts = tuple[Any, list[dict[str, Any]]]
_DIE_BY_ID: dict[int, tuple[Die, dict[str, Any]]] = {}
_DIE_BY_VALUE: dict[tuple[Any, ...], tuple[Die, dict[str, Any]]] = {}
_DICE_BY_JSONS: dict[tuple[int, ...], _Parts] = {}
_DICE_BY_MEMBERS: dict[tuple[int, ...], _Parts] = {}
_DICE_BY_TUPLE: dict[int, _Parts] = {}
_SECTIONS_BY_TEXTS: dict[tuple[Any, ...], _Parts] = {}
_SECTIONS_BY_MEMBERS: dict[tuple[int, ...], _Parts] = {}
_SECTIONS_BY_TUPLE: dict[int, _Parts] = {}


def _members(part: tuple[Any, ...]) -> tuple[int, ...]:
    """The identities of a tuple's members: the key of a part whose members the rules
    share (the o3d10 rules keep every die and section they built: ~40 distinct dice
    objects in 2,000 skill rolls), whatever tuple holds them this time."""
    return tuple([id(member) for member in part])


def _remember(
    by_members: dict[Any, _Parts],
    key: Any,
    part: tuple[Any, ...],
    made: list[dict[str, Any]],
) -> None:
    """``made`` (the JSON of ``part``) remembered by its members' identities; the entry
    holds the part, which holds its members, so their ids are not reused while it lives.
    Emptied at the bound, never swept: an insert is all a part built for one roll costs."""
    if len(by_members) >= PART_MEMO_SIZE:
        by_members.clear()
    by_members[key] = (part, made)


def _die_value(die: Die) -> tuple[Any, ...] | None:
    """A die's values as a key, for the usual die (an int ``sides`` and ``group``, a str
    ``role``, a bool ``kept``, int faces): equal keys have equal JSON, key order and types
    included. None for any other die (its JSON is made for it alone)."""
    sides: Any = die.sides
    role: Any = die.role
    kept: Any = die.kept
    group: Any = die.group
    faces: Any = die.faces  # its items read as objects: a float face is told apart, not unboxed
    if type(sides) is not int or type(role) is not str or type(kept) is not bool:
        return None
    if type(group) is not int or type(faces) is not tuple:
        return None
    for face in faces:
        if type(face) is not int:
            return None
    return (sides, role, kept, group, faces)


def _die_json(die: Die) -> dict[str, Any]:
    """One die's JSON (``die_to_json``), the same object for every die of equal values:
    found by the die's identity (the o3d10 rules keep every die they threw: a few dozen
    objects), else by its values (Savage Worlds throws new dice each roll, of a few dozen
    values). A die is entered by its identity when it comes again (the value entry holds
    the first die of its values): Savage Worlds' dice, never met twice, are not. Each
    table is emptied at its bound; an identity entry holds its die, so the id is not
    reused while it lives."""
    hit = _DIE_BY_ID.get(id(die))
    if hit is not None and hit[0] is die:
        return hit[1]
    key = _die_value(die)
    if key is None:
        return die_to_json(die)
    found = _DIE_BY_VALUE.get(key)
    if found is None:
        if len(_DIE_BY_VALUE) >= VALUE_MEMO_SIZE:
            _DIE_BY_VALUE.clear()
        made = die_to_json(die)
        _DIE_BY_VALUE[key] = (die, made)
        return made
    if found[0] is die:  # a die the rules keep: found by its own identity next time
        if len(_DIE_BY_ID) >= PART_MEMO_SIZE:
            _DIE_BY_ID.clear()
        _DIE_BY_ID[id(die)] = found
    return found[1]


def _dice_to_json(dice: tuple[Die, ...]) -> list[dict[str, Any]]:
    """The dice's JSON, one list object for every throw of equal dice: the very tuple found
    by its identity (the o3d10 rules keep their throws), else by the identities of its
    dice (Savage Worlds shares its dice in a new tuple each roll), else the list of its
    dice's JSON (``_die_json``: one object a die value) found by those objects'
    identities, which equal throws share whatever their tuple and dice objects (o3d10's
    thousand throws of a few dozen dice: a throw not seen before costs a lookup a die, not
    its values' key). The same JSON object lets every later memo keyed by it (the
    renderer's parts) hit at once; it is only ever read or encoded. An entry holds the
    first tuple met (which holds its dice) and the list (which holds its dice's JSON), so
    the ids of its key are not reused while it lives."""
    whole = _DICE_BY_TUPLE.get(id(dice))
    if whole is not None and whole[0] is dice:  # this very tuple (o3d10 keeps its throws)
        return whole[1]
    members = _members(dice)
    hit = _DICE_BY_MEMBERS.get(members)
    if hit is not None:  # the entry holds those very dice: the ids are theirs
        if hit[0] is dice:  # a tuple the rules keep: found by its own identity next time
            _remember(_DICE_BY_TUPLE, id(dice), dice, hit[1])
        return hit[1]
    made = [_die_json(d) for d in dice]
    key = tuple([id(m) for m in made])
    found = _DICE_BY_JSONS.get(key)
    if found is None:
        _remember(_DICE_BY_JSONS, key, dice, made)
    else:
        made = found[1]
    _remember(_DICE_BY_MEMBERS, members, dice, made)
    return made


def _sections_to_json(sections: tuple[Section, ...]) -> list[dict[str, Any]]:
    """The sections' JSON, remembered by the identities of the sections (as dice) and by
    the identity of their texts (which the rules share, see ``text_to_json``) and their
    plain values. A texts entry holds the first tuple that had them, which holds those
    texts, so their ids are not reused while it lives."""
    whole = _SECTIONS_BY_TUPLE.get(id(sections))
    if whole is not None and whole[0] is sections:  # this very tuple
        return whole[1]
    members = _members(sections)
    hit = _SECTIONS_BY_MEMBERS.get(members)
    if hit is not None:
        if hit[0] is sections:  # a tuple the rules keep (as dice)
            _remember(_SECTIONS_BY_TUPLE, id(sections), sections, hit[1])
        return hit[1]
    try:
        key = tuple(
            (
                id(section.title),
                tuple(
                    (
                        id(line.label),
                        id(line.value)
                        if isinstance(line.value, Text)
                        else (line.value, type(line.value)),
                    )
                    for line in section.lines
                ),
            )
            for section in sections
        )
        found = _SECTIONS_BY_TEXTS.get(key)
    except TypeError:
        return [_section_to_json(s) for s in sections]
    if found is None:
        found = (sections, [_section_to_json(s) for s in sections])
        if len(_SECTIONS_BY_TEXTS) >= VALUE_MEMO_SIZE:
            _SECTIONS_BY_TEXTS.clear()
        _SECTIONS_BY_TEXTS[key] = found
    _remember(_SECTIONS_BY_MEMBERS, members, sections, found[1])
    return found[1]


_OUTCOME_JSON: dict[int, tuple[Outcome, dict[str, Any]]] = {}


def _outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    return {
        "key": outcome.key,
        "label": text_to_json(outcome.label),
        "success": outcome.success,
        "margin": outcome.margin,
    }


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The outcome's JSON, remembered by its identity (the rules share their outcomes: in
    ``handle_cpu`` every roll but the first few of each kind finds its outcome here). Was
    ``rules.memo.by_identity``: the same table, looked up here instead of through the
    wrapper's call. The entry holds the outcome, so its ``id`` is not reused while it
    lives; at the bound, ``forget_unheld``."""
    hit = _OUTCOME_JSON.get(id(outcome))
    if hit is not None and hit[0] is outcome:
        return hit[1]
    made = _outcome_to_json(outcome)
    _OUTCOME_JSON[id(outcome)] = (outcome, made)
    if len(_OUTCOME_JSON) > VALUE_MEMO_SIZE:
        forget_unheld(_OUTCOME_JSON, VALUE_MEMO_SIZE)
    return made


def card_to_json(card: Card) -> dict[str, Any]:
    outcome = card.outcome
    return {
        "kind": card.kind,
        "title": text_to_json(card.title),
        "speaker": card.speaker,
        "target": card.target,
        "visibility": card.visibility,
        "dice": _dice_to_json(card.dice),
        "outcome": None if outcome is None else _outcome_json(outcome),
        "sections": _sections_to_json(card.sections),
        "actions": [follow_up_to_json(f) for f in card.actions],
    }


def actor_to_json(actor: Actor) -> dict[str, Any]:
    return {
        "id": actor.id,
        "name": actor.name,
        "owner": actor.owner,
        "token": actor.token,
        "sheet": dict(actor.sheet),
        "state": dict(actor.state),
        "statuses": sorted(actor.statuses),
        "hidden": actor.hidden,
    }


def actor_from_json(raw: Mapping[str, Any]) -> Actor:
    return Actor(
        id=raw["id"],
        name=raw["name"],
        owner=raw["owner"],
        sheet=raw["sheet"],
        state=raw["state"],
        statuses=frozenset(raw["statuses"]),
        token=raw.get("token"),
        hidden=bool(raw.get("hidden", False)),
    )


def world_to_json(world: World) -> dict[str, Any]:
    return {
        "id": world.id,
        "name": world.name,
        "system": world.system,
        "settings": dict(world.settings),
        "actors": {key: actor_to_json(a) for key, a in world.actors.items()},
        "data": dict(world.data),
    }


def world_from_json(raw: Mapping[str, Any]) -> World:
    return World(
        id=raw["id"],
        name=raw["name"],
        system=raw["system"],
        settings=raw["settings"],
        actors={key: actor_from_json(a) for key, a in raw["actors"].items()},
        data=raw["data"],
    )


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def dumps(value: Any) -> str:
    """The JSON text the store writes: compact, UTF-8 as it is, no NaN (one encoder for
    every call: ``json.dumps`` with options builds a new one each time)."""
    return _ENCODER.encode(value)


_ACTOR_TEXTS: OrderedDict[tuple[int, bool], tuple[Actor, str]] = OrderedDict()
_ACTOR_TEXTS_SIZE = 1024


def _actor_text(actor: Actor, *, keyed: bool = False) -> str:
    """``dumps(actor_to_json(actor))`` (``keyed``: preceded by ``"<id>":``), remembered
    by the actor's identity.

    Actors are frozen and every change makes a new one, so most actors of a world
    are the very objects of its previous state. The entry holds the actor, so its
    ``id`` is not reused while the entry lives; at the bound the actors nothing else
    holds go first, then the oldest.
    """
    key = (id(actor), keyed)
    hit = _ACTOR_TEXTS.get(key)
    if hit is not None and hit[0] is actor:
        return hit[1]
    # The keyed text is the plain one behind its key: one encoding serves both.
    text = f"{dumps(actor.id)}:{_actor_text(actor)}" if keyed else dumps(actor_to_json(actor))
    _remember_actor_text(key, actor, text)
    return text


def _remember_actor_text(key: tuple[int, bool], actor: Actor, text: str) -> None:
    _ACTOR_TEXTS[key] = (actor, text)
    if len(_ACTOR_TEXTS) > _ACTOR_TEXTS_SIZE:
        forget_unheld(_ACTOR_TEXTS, _ACTOR_TEXTS_SIZE)


_JSON_TEXTS: OrderedDict[int, tuple[Mapping[str, Any], str]] = OrderedDict()
_JSON_TEXTS_SIZE = 256
"""Changed actors' JSON values whose text is known, until their pushes are rendered
(a few milliseconds later): a bound well above the requests in flight at once."""


def actor_json(actor: Actor) -> dict[str, Any]:
    """``actor_to_json(actor)`` for a push (an ``actor_update``): its text is encoded once
    and known both for the actor (:func:`actor_text`, the world's state text) and for the
    returned value (:func:`json_text`, the push's rendering), instead of once for each."""
    value = actor_to_json(actor)
    text = dumps(value)
    _remember_actor_text((id(actor), False), actor, text)
    _JSON_TEXTS[id(value)] = (value, text)
    if len(_JSON_TEXTS) > _JSON_TEXTS_SIZE:
        forget_unheld(_JSON_TEXTS, _JSON_TEXTS_SIZE)
    return value


def json_text(value: Mapping[str, Any]) -> str:
    """``dumps(value)``: known already when ``value`` came from :func:`actor_json` (the
    entry holds the value, so its ``id`` is not reused while it lives)."""
    hit = _JSON_TEXTS.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    return dumps(value)


_MAPPING_TEXTS: OrderedDict[int, tuple[Mapping[str, Any], str]] = OrderedDict()
_MAPPING_TEXTS_SIZE = 256  # a world's settings and data: most entries are old versions


def _mapping_text(value: Mapping[str, Any]) -> str:
    """``dumps(dict(value))`` remembered by identity, like actors: a world's settings
    and data are kept as they are by every event that does not change them."""
    key = id(value)
    hit = _MAPPING_TEXTS.get(key)
    if hit is not None and hit[0] is value:
        return hit[1]
    text = dumps(dict(value))
    _MAPPING_TEXTS[key] = (value, text)
    if len(_MAPPING_TEXTS) > _MAPPING_TEXTS_SIZE:
        forget_unheld(_MAPPING_TEXTS, _MAPPING_TEXTS_SIZE)
    return text


def actor_text(actor: Actor) -> str:
    """``dumps(actor_to_json(actor))``, remembered by the actor's identity."""
    return _actor_text(actor)


def mapping_text(value: Mapping[str, Any]) -> str:
    """``dumps(dict(value))``, remembered by the mapping's identity."""
    return _mapping_text(value)


_WORLD_TEXTS: OrderedDict[str, tuple[World, str]] = OrderedDict()


def world_json_text(world: World) -> str:
    """``dumps(world_to_json(world))`` (same JSON value), re-encoding only changed actors:
    the state snapshot written with every event was the store's largest CPU item.

    The last text of each world id is remembered with its World (frozen; most rolls
    leave the world as it was, the very same object): the same text object comes back,
    which also lets the store see at once that the state did not change."""
    hit = _WORLD_TEXTS.get(world.id)
    if hit is not None and hit[0] is world:
        return hit[1]
    text = _world_json_text(world)
    _WORLD_TEXTS[world.id] = (world, text)
    if len(_WORLD_TEXTS) > _ACTOR_TEXTS_SIZE:
        _WORLD_TEXTS.popitem(last=False)
    return text


def _world_json_text(world: World) -> str:
    actors = ",".join(
        f"{dumps(key)}:{_actor_text(a)}" if key != a.id else _actor_text(a, keyed=True)
        for key, a in world.actors.items()
    )
    return (
        f'{{"id":{dumps(world.id)},"name":{dumps(world.name)},"system":{dumps(world.system)},'
        f'"settings":{_mapping_text(world.settings)},"actors":{{{actors}}},'
        f'"data":{_mapping_text(world.data)}}}'
    )
