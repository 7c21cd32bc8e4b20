"""Record, export, replay: a played session replays with no divergence; an edited die shows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bridge.replay import first_difference, replay
from bridge.sessions import export_lines, load_session
from rules.registry import default_registry
from support.live import Env, give, rid

REGISTRY = default_registry()


async def _play(env: Env) -> None:
    gm = await env.join()
    await give(gm, "aldara", "ana", gm.welcome or {})
    ana = await env.join("player", "ana")
    await give(gm, "bruno", "beto", gm.welcome or {})
    beto = await env.join("player", "beto")
    for _ in range(3):
        ack = await ana.call(
            "roll",
            {
                "id": rid(),
                "actor": "aldara",
                "action": "skill",
                "params": {"skill": "sigilo", "level": "normal"},
            },
        )
        assert ack["ok"]
    opposed = await ana.call(
        "roll",
        {
            "id": rid(),
            "actor": "aldara",
            "action": "skill",
            "targets": ["bruno"],
            "params": {"skill": "sigilo", "opposed_skill": "advertir_notar"},
        },
    )
    card = opposed["cards"][0]
    answer = await beto.call(
        "card_action", {"id": rid(), "card": card["card_id"], "action": card["actions"][0]["id"]}
    )
    assert answer["ok"]
    status = await gm.call("status_set", {"id": rid(), "actor": "bruno", "add": ["stunned"]})
    assert (await gm.call("undo", {"id": rid(), "seq": status["seq"]}))["ok"]
    assert (await gm.call("time_advance", {"id": rid(), "unit": "day"}))["ok"]


async def test_a_played_session_replays_without_divergence(env: Env) -> None:
    await _play(env)
    lines = list(export_lines(env.store, env.world.world_id))
    header = json.loads(lines[0])
    assert header["type"] == "session" and header["protocol"] == 1
    assert [json.loads(line)["seq"] for line in lines[1:]] == list(range(1, env.seq() + 1))
    session = load_session(lines, REGISTRY)
    report = replay(session, REGISTRY)
    assert report.divergences == []
    assert report.events == env.seq() and report.cards >= 6
    again = replay(load_session(lines, REGISTRY), REGISTRY)
    assert again.summary() == report.summary()


async def test_an_edited_die_is_reported_with_its_event_and_field(env: Env) -> None:
    await _play(env)
    lines = list(export_lines(env.store, env.world.world_id))
    target = next(i for i, line in enumerate(lines[1:], 1) if json.loads(line).get("dice"))
    event = json.loads(lines[target])
    sides, face = event["dice"][1]
    event["dice"][1] = [sides, face % sides + 1]
    lines[target] = json.dumps(event)
    report = replay(load_session(lines, REGISTRY), REGISTRY, first_only=True)
    (divergence,) = report.divergences
    assert divergence.seq == event["seq"]
    assert divergence.field == "pushes.0.card.dice.1.faces.0"
    assert (divergence.expected, divergence.got) == (face, face % sides + 1)
    assert "field:    pushes.0.card.dice.1.faces.0" in divergence.describe()


def test_scenario_expectations_and_errors_are_checked() -> None:
    header = json.dumps({"type": "session", "world": {"system": "o3d10"}})
    roll = {
        "id": "scenario-1",
        "actor": "aldara",
        "action": "skill",
        "params": {"skill": "sigilo", "level": "normal"},
    }
    good = json.dumps(
        {
            "type": "event",
            "event": "roll",
            "request": roll,
            "dice": [5, 3, 9],
            "expect": {"cards.0.outcome.key": "failure"},
        }
    )
    wrong = json.dumps(
        {
            "type": "event",
            "event": "roll",
            "request": {**roll, "id": "scenario-2"},
            "dice": [5, 3, 9],
            "expect": {"cards.0.outcome.key": "success"},
        }
    )
    extra = json.dumps(
        {
            "type": "event",
            "event": "roll",
            "request": {**roll, "id": "scenario-3"},
            "dice": [5, 3, 9, 1],
        }
    )
    refused = json.dumps(
        {
            "type": "event",
            "event": "roll",
            "request": {**roll, "id": "scenario-4", "actor": "ghost"},
            "expect_error": "no_such_actor",
        }
    )
    report = replay(load_session([header, good, wrong, extra, refused], REGISTRY), REGISTRY)
    assert [(d.index, d.field, d.expected, d.got) for d in report.divergences] == [
        (2, "ack.cards.0.outcome.key", "success", "failure"),
        (3, "dice", "4 dice used", "1 left unused"),
        (4, "ok", "no_such_actor", "unknown_actor"),
    ]


def test_first_difference() -> None:
    assert first_difference({"a": [1, 2]}, {"a": [1, 2]}) is None
    assert first_difference({"a": [1, 2]}, {"a": [1, 3]}) == ("a.1", 2, 3)
    assert first_difference({"a": 1}, {"a": 1, "b": 2})[0] == "b"  # type: ignore[index]
    assert first_difference(True, 1) == ("(value)", True, 1)


async def test_export_and_replay_commands(env: Env, tmp_path: Path) -> None:
    await _play(env)
    session_file = tmp_path / "session.jsonl"
    session_file.write_text("\n".join(export_lines(env.store, env.world.world_id)) + "\n", "utf-8")
    run = [sys.executable, "-m", "bridge", "replay", str(session_file)]
    first = subprocess.run(run, capture_output=True, text=True, timeout=60)
    second = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert first.returncode == 0, first.stdout + first.stderr
    assert first.stdout == second.stdout, "replay output must be the same byte for byte"
    assert "divergences 0" in first.stdout
    lines = session_file.read_text("utf-8").splitlines()
    target = next(i for i, line in enumerate(lines[1:], 1) if json.loads(line).get("dice"))
    event = json.loads(lines[target])
    event["dice"][0][1] = event["dice"][0][1] % 10 + 1
    lines[target] = json.dumps(event)
    session_file.write_text("\n".join(lines) + "\n", "utf-8")
    edited = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert edited.returncode == 1
    assert f"divergence at event {target} (seq {target}), roll by ana" in edited.stdout


async def test_live_replay_over_socketio(env: Env, tmp_path: Path) -> None:
    from bridge.replay_live import replay_live
    from bridge.worlds import create_world

    await _play(env)
    session = load_session(list(export_lines(env.store, env.world.world_id)), REGISTRY)
    fresh = create_world(env.store, REGISTRY, "Copia", "o3d10")
    report = await replay_live(session, env.url, fresh.gm_token, fresh.player_token)
    assert report.events == env.seq()
    # The live server rolls its own dice: only the opposed answer could differ, never crash.
    assert report.accepted >= report.events - 1, report.divergences


def test_paths_with_dotted_keys() -> None:
    from bridge.replay import lookup

    ack = {"tokens": [{"numbers": {"ammo.subfusil": 20}}]}
    assert lookup(ack, "/tokens/0/numbers/ammo.subfusil") == 20
    assert lookup(ack, "tokens.0.numbers") == {"ammo.subfusil": 20}


def test_same_json_tells_json_types_apart() -> None:
    from bridge.replay import same_json

    assert same_json({"a": [1, "x", None], "b": True}, {"b": True, "a": [1, "x", None]})
    assert same_json([1, 2], (1, 2))  # a tuple is a JSON array too
    assert not same_json({"a": 1}, {"a": True})  # Python's == says equal
    assert not same_json({"a": 0}, {"a": 0.0})
    assert not same_json({"a": 1}, {"a": 1, "b": None})
    assert same_json({"a": 2**70}, {"a": 2**70})  # past orjson's range: the standard encoder
    assert not same_json({"a": 2**70}, {"a": 2**70 + 1})


def _long_session(events: int) -> list[str]:
    from bridge.bench.storage import session_lines

    return session_lines(events)


def test_a_recorded_value_of_another_json_type_is_a_divergence() -> None:
    lines = _long_session(12)
    assert replay(load_session(lines, REGISTRY), REGISTRY).divergences == []
    target = next(i for i, line in enumerate(lines[1:], 1) if json.loads(line)["pushes"])
    event = json.loads(lines[target])
    success = event["pushes"][0]["card"]["outcome"]["success"]
    assert isinstance(success, bool)
    event["pushes"][0]["card"]["outcome"]["success"] = int(success)  # 1 == True in Python
    lines[target] = json.dumps(event)
    (divergence,) = replay(load_session(lines, REGISTRY), REGISTRY).divergences
    assert divergence.field == "pushes.0.card.outcome.success"
    assert (divergence.expected, divergence.got) == (int(success), success)


def test_a_rule_whose_result_changes_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The recording was made by today's rules; a rule giving another margin must show."""
    from dataclasses import replace

    lines = _long_session(12)
    system = REGISTRY.get("o3d10")
    resolve = system.resolve

    def changed(world: Any, action: Any, dice: Any) -> Any:
        result = resolve(world, action, dice)
        cards = tuple(
            replace(c, outcome=replace(c.outcome, margin=(c.outcome.margin or 0) + 1))
            if c.outcome is not None
            else c
            for c in result.cards
        )
        return replace(result, cards=cards)

    monkeypatch.setattr(system, "resolve", changed)
    report = replay(load_session(lines, REGISTRY), REGISTRY)
    assert report.events == len(lines) - 1
    assert len(report.divergences) == report.events
    assert {d.field for d in report.divergences} == {"pushes.0.card.outcome.margin"}


def test_exported_lines_are_compared_as_text_and_other_layouts_as_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bridge.replay as replay_module

    lines = _long_session(12)
    compared: list[int] = []
    same_json = replay_module.same_json

    def counting(expected: Any, got: Any) -> bool:
        compared.append(1)
        return same_json(expected, got)

    monkeypatch.setattr(replay_module, "same_json", counting)
    assert replay(load_session(lines, REGISTRY), REGISTRY).divergences == []
    assert compared == []  # every exported line held its pushes' text
    spaced = [lines[0]] + [json.dumps(json.loads(line)) for line in lines[1:]]
    assert replay(load_session(spaced, REGISTRY), REGISTRY).divergences == []
    assert len(compared) == len(lines) - 1  # another layout: compared as values
    target = next(i for i, line in enumerate(lines[1:], 1) if json.loads(line)["pushes"])
    event = json.loads(lines[target])
    event["pushes"][0]["card"]["outcome"]["margin"] += 1
    edited = list(lines)
    edited[target] = json.dumps(event, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    (divergence,) = replay(load_session(edited, REGISTRY), REGISTRY).divergences
    assert divergence.field == "pushes.0.card.outcome.margin"


def test_a_second_pushes_key_is_not_taken_for_the_line_s_own() -> None:
    """JSON keeps the last of two equal keys: a line whose first ``pushes`` is the produced
    text but whose last one differs diverges."""
    lines = _long_session(6)
    target = next(i for i, line in enumerate(lines[1:], 1) if json.loads(line)["pushes"])
    event = json.loads(lines[target])
    changed = json.loads(json.dumps(event["pushes"]))
    changed[0]["card"]["outcome"]["margin"] += 1
    tail = json.dumps(changed, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    edited = list(lines)
    edited[target] = lines[target][:-1] + ',"pushes":' + tail + "}"
    assert json.loads(edited[target])["pushes"] == changed
    (divergence,) = replay(load_session(edited, REGISTRY), REGISTRY).divergences
    assert divergence.field == "pushes.0.card.outcome.margin"
