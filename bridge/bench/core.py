"""Benchmarks without I/O: the rules core per system, replay, and the store alone.

Each figure is a rate measured for a fixed time budget after a warm-up,
on one core (this process). Baselines measured in the same run make ratios:
the rules core is measured with the production dice source (the OS CSPRNG,
:class:`rules.dice.SystemDice`) against the d20 library's kept-median roll.

``python -m bridge.bench.core [--quick]`` runs the rules core alone and prints
each rate with its ratio to the d20 baseline of the same run.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.dice import DiceSource, SeededDice, SystemDice
from rules.model import Action, RulesError, World
from rules.registry import Registry, default_registry
from rules.rolls import Rank, roll_keep_of_3d10
from rules.savage_worlds.tables import ROF_AMMO


@dataclass(frozen=True)
class Rate:
    name: str
    per_second: float
    count: int
    seconds: float


def measure(
    name: str,
    step: Callable[[], object],
    seconds: float,
    clock: Callable[[], float] = time.perf_counter,
) -> Rate:
    """Run ``step`` for ``seconds`` of ``clock`` after a warm-up; the rate per second of it.

    The rules core is timed with ``time.thread_time`` (the CPU time of this
    thread: one core's work, not the time another process held the core on a
    shared machine); anything that waits on I/O keeps wall-clock time.
    """
    for _ in range(50):
        step()
    count = 0
    started = clock()
    deadline = started + seconds
    while True:
        for _ in range(100):
            step()
        count += 100
        now = clock()
        if now >= deadline:
            return Rate(name, count / (now - started), count, now - started)


def measure_cpu(name: str, step: Callable[[], object], seconds: float) -> Rate:
    return measure(name, step, seconds, time.thread_time)


def _world(registry: Registry, system_id: str) -> World:
    system = registry.get(system_id)
    world = World("bench", "Bench", system_id, system.default_settings())
    for actor in system.sample_actors():
        world = world.with_actor(actor)
    return world


D20_EXPRESSION = "(1d10e10,1d10e10,1d10e10)kh2ph1"
"""The d20 library's spelling of 1o3d10 kept median with a kept 10 rolling on (the baseline)."""


def rules_rates(seconds: float, dice: DiceSource | None = None, rounds: int = 5) -> dict[str, Rate]:
    """Every rules-core rate and the d20 baseline, each measured for ``seconds`` in this run.

    ``dice`` defaults to the production source (:class:`SystemDice`), so the
    figures include drawing from the OS CSPRNG. The benchmarks take turns in
    ``rounds`` slices (d20, o3d10, ..., d20, o3d10, ...), so the baseline is
    measured through the same moments of a shared machine as what it is
    compared with; each rate is its total count over its total CPU time.
    """
    steps = rules_steps(dice)
    totals = {name: [0, 0.0] for name in steps}
    for _ in range(max(1, rounds)):
        for name, step in steps.items():
            rate = measure_cpu(name, step, seconds / max(1, rounds))
            totals[name][0] += rate.count
            totals[name][1] += rate.seconds
    return {
        name: Rate(name, int(count) / elapsed, int(count), elapsed)
        for name, (count, elapsed) in totals.items()
    }


def rules_steps(dice: DiceSource | None = None) -> dict[str, Callable[[], object]]:
    """One step of each rules-core benchmark (and of the d20 baseline when installed)."""
    registry = default_registry()
    source = SystemDice() if dice is None else dice
    steps: dict[str, Callable[[], object]] = {}
    try:
        import d20  # type: ignore[import-untyped]
    except ImportError:  # the dev extra is not installed: the comparison is left out, said so
        print("  (the d20 library is not installed: no baseline, no ratios)")
    else:

        def d20_median() -> object:
            return d20.roll(D20_EXPRESSION).total

        steps["d20 library median"] = d20_median

    o3d10 = registry.get("o3d10")
    world = _world(registry, "o3d10")
    skill_params = {"skill": "sigilo", "level": "normal"}
    current = [world]

    def o3d10_skill() -> object:
        # A fresh Action from plain values, as the bridge builds one from each request
        # (bridge/engine.py: ``_action``), so nothing is reused across steps that a request
        # would not reuse; the next step gets the world this step's apply made, as the
        # bridge keeps it (a skill roll without the token has no effect: the same world).
        skill = Action("skill", "aldara", dict(skill_params), (), by_gm=True, user="gm")
        now = current[0]
        checked = o3d10.check_action(now, skill)
        resolution = o3d10.resolve(now, checked, source)
        assert resolution.cards  # the card is part of the work (the bridge shows every roll)
        current[0] = o3d10.apply(now, resolution)
        return current[0]

    steps["o3d10 skill roll"] = o3d10_skill

    def keep_median() -> object:
        return roll_keep_of_3d10(source, Rank.MEDIAN).total

    steps["1o3d10 kept median"] = keep_median
    sw = registry.get("savage_worlds")
    steps["savage_worlds RoF 3 attack + damage"] = _sw_attack(
        sw, _world(registry, "savage_worlds"), source
    )
    for system_id, (kind, param) in SKILL_ROLLS.items():
        steps[f"{system_id} skill roll"] = _skill_roll(registry, system_id, kind, param, source)
    return steps


SKILL_ROLLS: dict[str, tuple[str, str]] = {
    "brp_d10": ("check", "skill"),
    "cunchillos": ("ta", "skill"),
    "omerta": ("roll", "skill"),
    "savage_worlds": ("trait", "trait"),
}
"""Each other system's skill roll: the action and the parameter naming the skill (the first
sample actor's first such sheet button is pressed)."""


def _skill_roll(
    registry: Registry, system_id: str, kind: str, param: str, dice: DiceSource
) -> Callable[[], object]:
    system = registry.get(system_id)
    world = _world(registry, system_id)
    actor = next(iter(world.actors.values()))
    button = next(b for b in system.buttons(world, actor) if b.action == kind and param in b.params)
    params = dict(button.params)
    current = [world]

    def step() -> object:
        # A fresh Action from plain values, as the bridge builds one per request; the next
        # step gets the world this step's apply made, as the bridge keeps it (a cunchillos
        # TA records ``next_ta``: a new, equal actor each roll; the others change nothing).
        action = Action(kind, actor.id, dict(params), (), by_gm=True, user="gm")
        now = current[0]
        resolution = system.resolve(now, system.check_action(now, action), dice)
        assert resolution.cards
        current[0] = system.apply(now, resolution)
        return current[0]

    return step


SW_PRESSED = ("damage", "damage_apply")
"""The follow-up buttons the Savage Worlds benchmark presses: each damage roll, and taking a
hit the victim could soak (so every Shaken and Wound is applied, none left pending)."""


SW_OUT = frozenset({"incapacitated", "dead"})
"""Statuses of a target that no longer stands (the benchmark sends a fresh one in)."""


def _sw_attack(system: Any, world: World, dice: DiceSource) -> Callable[[], object]:
    """An automatic weapon at RoF 3 on three targets, then every damage roll, applied.

    The attack card's damage buttons are pressed in order and, depth first, the
    'take the hit' button of a damage card that left a hit pending (a Wild
    Card could soak it), so the next damage roll of the attack is not refused.
    A refusal (a hit whose target already fell) moves on to the next button.

    The world is fed forward from burst to burst, as a fight goes on: the targets keep
    their Shaken and Wounds (so what is remembered by a target's state meets the states
    play meets), the world's ids go on (a new attack and hit id each burst). Between
    bursts, as a table would between fights: a target that fell is replaced by a fresh
    one (its starting actor), and a shooter left without a full burst of ammunition gets
    its starting magazine back.
    """
    shooter, weapon, targets = _sw_burst_setup(system, world)
    start = {actor_id: world.actors[actor_id] for actor_id in (shooter, *targets)}
    burst = ROF_AMMO[3]  # the rounds a RoF 3 burst spends
    current = [world]
    check, resolve, apply = system.check_action, system.resolve, system.apply

    def press(current: World, cards: tuple[Any, ...]) -> World:
        for card in cards:
            for follow in card.actions:
                kind = follow.action
                if kind not in SW_PRESSED:
                    continue
                # a fresh Action from the follow-up's plain values, as the bridge builds one
                action = Action(kind, follow.actor_id, dict(follow.params), follow.targets, True)
                try:
                    result = resolve(current, check(current, action), dice)
                except RulesError:
                    continue
                current = press(apply(current, result), result.cards)
        return current

    def step() -> object:
        now = current[0]
        actors = now.actors
        for target in targets:
            if not SW_OUT.isdisjoint(actors[target].statuses):
                now = now.with_actor(start[target])
        ammo = now.actors[shooter].state.get("ammo", {})
        if int(ammo.get(weapon, 0)) < burst:
            now = now.with_actor(start[shooter])
        attack = Action("attack", shooter, {"weapon": weapon, "rof": 3}, targets, True)
        resolution = resolve(now, check(now, attack), dice)
        current[0] = press(apply(now, resolution), resolution.cards)
        return current[0]

    return step


def _sw_burst_setup(system: Any, world: World) -> tuple[str, str, tuple[str, ...]]:
    for actor in world.actors.values():
        for weapon in (
            actor.sheet.get("weapons", []) if isinstance(actor.sheet.get("weapons"), list) else []
        ):
            if int(weapon.get("rof", 1)) >= 3:
                others = tuple(a for a in world.actors if a != actor.id)[:3]
                return actor.id, str(weapon.get("id") or weapon.get("name")), others
    raise RuntimeError("no Savage Worlds sample actor carries a RoF 3 weapon")


def replay_rate(seconds: float, events: int = 2000) -> Rate:
    """Replay a synthetic session of ``events`` o3d10 requests, in process."""
    from bridge.replay import replay
    from bridge.sessions import load_session

    registry = default_registry()
    session = load_session(_synthetic_session(events), registry)
    started = time.perf_counter()
    done = 0
    while time.perf_counter() - started < seconds or done == 0:
        report = replay(session, registry)
        assert not report.divergences, report.divergences[0].describe()
        done += report.events
    elapsed = time.perf_counter() - started
    return Rate("replay", done / elapsed, done, elapsed)


def _synthetic_session(events: int) -> list[str]:
    import json

    lines = [json.dumps({"type": "session", "world": {"system": "o3d10"}})]
    dice = SeededDice(7)
    skills = ["sigilo", "cuerpo_a_cuerpo", "armas_a_distancia"]
    for index in range(events):
        faces = [dice.roll(10) for _ in range(3)]
        while sorted(faces)[1] == 10:
            faces += [dice.roll(10) for _ in range(3)]
            if sorted(faces[-3:])[1] != 10:
                break
        request = {
            "id": f"bench-{index:08d}",
            "actor": "aldara",
            "action": "skill",
            "params": {"skill": skills[index % 3], "level": "normal"},
        }
        lines.append(json.dumps({"type": "event", "event": "roll", "request": request}))
    return lines


def store_rates(seconds: float) -> dict[str, Rate]:
    """Appending events: the durable SQLite store against SQLite in memory, same code."""
    from bridge.store import NewEvent, SQLiteStore

    rates: dict[str, Rate] = {}
    state = {"id": "w", "name": "w", "system": "o3d10", "settings": {}, "actors": {}, "data": {}}
    with tempfile.TemporaryDirectory() as folder:
        for label, path in (
            ("store durable", Path(folder) / "b.sqlite3"),
            ("store in memory", ":memory:"),
        ):
            store = SQLiteStore(path)
            store.create_world("w", "w", "o3d10", f"g{label}", f"p{label}", state, "now")
            seq = [0]

            def append(store: SQLiteStore = store, seq: list[int] = seq) -> None:
                seq[0] += 1
                store.append(
                    "w",
                    NewEvent(
                        seq[0], f"r{seq[0]}", "roll", "u", "gm", {}, "h", [[10, 5]], [], None, "now"
                    ),
                    state,
                )

            rates[label] = measure(label, append, seconds)
            store.close()
    return rates


def print_rules(rates: dict[str, Rate]) -> None:
    """Each rules-core rate with its ratio to the d20 baseline of the same run."""
    baseline = rates.get("d20 library median")
    print(f"  {'benchmark':40} {'per second':>12} {'x d20':>8}")
    for rate in rates.values():
        ratio = f"{rate.per_second / baseline.per_second:8.2f}" if baseline else f"{'-':>8}"
        print(f"  {rate.name:40} {rate.per_second:12.0f} {ratio}")


def main(argv: list[str]) -> int:
    """The rules core alone (no I/O, this process): a quick way to measure a change."""
    seconds = 0.3 if "--quick" in argv else 2.0
    from bridge.compiled import describe

    print_rules(rules_rates(seconds))
    print(describe())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
