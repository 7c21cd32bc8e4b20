"""Play a browser scenario file (``js-shim/test/scenarios/<system>.json``) through the protocol.

The same file drives the table page in headless Chromium; this runner checks,
over real Socket.IO, that the steps are valid and reach the expected status.

Format::

    {"system": "omerta",
     "steps": [
       {"actor": "jimmy", "action": "attack", "params": {"weapon": "colt"},
        "ask": {"mode": "single"}, "targets": ["tony"]},
       {"follow": "defend"}, {"follow": "damage"}],
     "until_status": {"actor": "tony", "any_of": ["wounded", "unconscious", "dead"]},
     "max_rounds": 30}

A step with ``actor`` presses that actor's sheet button whose ``action`` matches
and whose ``params`` contain the given ones, answering its ``ask`` fields and
picking ``targets``. A step with ``follow`` presses, on the newest card that
has one, the first follow-up button whose id starts with that text (skipped
when no card has one). Rounds repeat until an ``until_status`` status shows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.live import Client, rid

SCENARIOS = Path(__file__).resolve().parents[2] / "js-shim" / "test" / "scenarios"


def load(system_id: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / f"{system_id}.json").read_text("utf-8"))  # type: ignore[no-any-return]


def _button(welcome_actors: list[dict[str, Any]], step: dict[str, Any]) -> dict[str, Any]:
    actor = next(a for a in welcome_actors if a["id"] == step["actor"])
    for button in actor["buttons"]:
        wanted = step.get("params", {})
        if button["action"] == step["action"] and all(
            button["params"].get(k) == v for k, v in wanted.items()
        ):
            return button
    raise AssertionError(f"{step['actor']} has no button {step['action']} {step.get('params')}")


async def play(gm: Client, scenario: dict[str, Any]) -> int:
    """Returns the number of rounds it took; fails if the status never shows."""
    assert gm.welcome is not None
    actors = {a["id"]: a for a in gm.welcome["actors"]}
    goal = scenario["until_status"]
    statuses: set[str] = set(actors[goal["actor"]]["statuses"])
    cards: list[dict[str, Any]] = []
    for round_number in range(1, scenario.get("max_rounds", 30) + 1):
        for step in scenario["steps"]:
            if "actor" in step:
                button = _button(list(actors.values()), step)
                payload = {
                    "id": rid(),
                    "actor": step["actor"],
                    "action": button["action"],
                    "params": {**button["params"], **step.get("ask", {})},
                    "targets": step.get("targets", []),
                }
                ack = await gm.call(button["event"], payload)
            else:
                found = None
                for card in reversed(cards):
                    for follow in card["actions"]:
                        if follow["id"].startswith(step["follow"]) and not follow["used"]:
                            found = (card, follow)
                            break
                    if found:
                        break
                if found is None:
                    continue
                card, follow = found
                follow["used"] = True
                ack = await gm.call(
                    "card_action",
                    {
                        "id": rid(),
                        "card": card["card_id"],
                        "action": follow["id"],
                        "params": step.get("ask", {}),
                    },
                )
            assert ack["ok"] or ack["error"]["code"] != "internal_error", ack
            if not ack["ok"]:
                continue
            cards.extend(ack["cards"])
            for token in ack["tokens"]:
                if token["actor"] == goal["actor"]:
                    statuses = set(token["statuses"])
            if statuses & set(goal["any_of"]):
                return round_number
    raise AssertionError(f"{goal['actor']} never got any of {goal['any_of']}")
