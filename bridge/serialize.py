"""Rules records to plain JSON and back, for the store, the event log and the wire.

Only data crosses: a :class:`rules.model.Text` becomes ``{"key", "params"}``, a
card keeps every die and follow-up, a world keeps its actors and data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.dice import Die
from rules.model import Actor, Card, FollowUp, Section, Text, TextParam, World
from rules.params import Param


def text_to_json(text: Text) -> dict[str, Any]:
    return {"key": text.key, "params": {k: _param_to_json(v) for k, v in text.params.items()}}


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


def card_to_json(card: Card) -> dict[str, Any]:
    outcome = card.outcome
    return {
        "kind": card.kind,
        "title": text_to_json(card.title),
        "speaker": card.speaker,
        "target": card.target,
        "visibility": card.visibility,
        "dice": [die_to_json(d) for d in card.dice],
        "outcome": None
        if outcome is None
        else {
            "key": outcome.key,
            "label": text_to_json(outcome.label),
            "success": outcome.success,
            "margin": outcome.margin,
        },
        "sections": [_section_to_json(s) for s in card.sections],
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
