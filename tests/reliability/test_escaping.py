"""Every string a player or GM types (actor names, sheet labels, text parameters such as
modifiers' labels, user names) is escaped in every card's html, in every system."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bridge.engine import Accepted, Session, process
from bridge.render import Renderer
from protocol.v1.parse import ParseError, parse_request
from rules.dice import SeededDice
from rules.model import World
from rules.registry import default_registry

EVIL = '<img src=x onerror="alert(1)">'
EVIL2 = '"><svg onload=alert(2)>'
RAW = re.compile(r"<(img|svg|script)\b", re.IGNORECASE)


def _relabel(value: Any) -> Any:
    """Every ``label``/``name``/``nombre`` text in a sheet, with markup in it."""
    if isinstance(value, dict):
        return {
            k: (
                f"{EVIL2}{v}"
                if k in ("label", "name", "nombre") and isinstance(v, str)
                else _relabel(v)
            )
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_relabel(v) for v in value]
    return value


def test_every_card_of_every_system_escapes_what_players_typed() -> None:
    registry = default_registry()
    cards = 0
    shown = 0
    for system_id, system in sorted(registry.systems.items()):
        renderer = Renderer(system)
        world = World("w", "Mesa", system_id, system.validate_settings({}))
        for actor in system.sample_actors():
            sheet = _relabel(dict(actor.sheet))
            try:
                sheet = system.validate_sheet(sheet)
            except Exception:
                sheet = actor.sheet
            world = world.with_actor(replace(actor, name=f"{EVIL}{actor.name}", sheet=sheet))
        seed = 0
        for actor in list(world.actors.values()):
            for button in system.buttons(world, actor):
                params = dict(button.params)
                for ask in button.ask:
                    if ask.kind == "str":
                        params[ask.name] = EVIL[: ask.max_length]
                others = [a for a in world.actors if a != actor.id][: button.min_targets]
                payload = {
                    "id": f"req{seed:08d}",
                    "actor": actor.id,
                    "action": button.action,
                    "params": params,
                    "targets": others,
                }
                request = parse_request(button.event, (payload,))
                if isinstance(request, ParseError):
                    continue
                seed += 1
                for user in (EVIL, "ana"):
                    outcome = process(
                        registry,
                        world,
                        Session(user, "gm", "es", name=EVIL2),
                        button.event,
                        request,
                        SeededDice(seed),
                    )
                    if not isinstance(outcome, Accepted):
                        continue
                    for role in ("gm", "player"):
                        for name, body in renderer.pushes(
                            outcome.world, seed, outcome.pushes, role, "es"
                        ):
                            if name != "chat_card":
                                continue
                            cards += 1
                            found = RAW.search(body["html"])
                            assert found is None, (system_id, button.action, body["html"])
                            shown += "&lt;img src=x" in body["html"] or "&lt;svg" in body["html"]
    assert cards > 100, cards
    assert shown > cards // 2, (shown, cards)  # the markup was there, escaped
