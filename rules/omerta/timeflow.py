"""What happens as time passes: the round ends, the knocked-out wake, the bleeding die, an
unextracted bullet asks for CON rolls, jams finish clearing, and each day the body recovers.

'A partir de la sexta hora, deberá tirarse cada hora.' 'pasadas 24 horas de reposo, se
recuperarán TODOS los puntos de vida perdidos por [contusión]' 'El Daño Letal ... uno o dos
puntos de vida según el valor de CON'.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from rules.dice import DiceSource, Die
from rules.model import (
    Action,
    Actor,
    ActorChange,
    Card,
    Effect,
    Line,
    Resolution,
    Section,
    TimeStep,
    World,
    WorldChange,
    t,
)
from rules.omerta.checks import roll_check
from rules.omerta.sheet import Sheet, parse_sheet
from rules.omerta.state import (
    DATA_KEY,
    SECONDS_PER_DAY,
    Clock,
    clock,
    hp,
    unextracted,
    world_data,
)
from rules.omerta.tables import (
    BLEED_GRACE_ROUNDS,
    BULLET_CHECK_EVERY_H,
    BULLET_CHECK_MODIFIERS,
    BULLET_CHECK_MULTIPLIER,
    BULLET_FIRST_CHECK_H,
    BULLET_HOURLY_FROM_H,
    LOW_CON_MAX,
    LOW_CON_MULTIPLIER,
    NO_REST_MULTIPLIER,
    con_recovery,
)

UNIT_SECONDS = {"minute": 60, "hour": 3600, "day": SECONDS_PER_DAY}
MAX_CHECKS = 2000
MAX_DAYS = 366


def step_seconds(step: TimeStep, now: Clock) -> int:
    if step.unit == "round":
        return now.round_seconds * max(0, step.count)
    return UNIT_SECONDS[step.unit] * max(0, step.count)


def bullet_check_hours() -> Iterator[int]:
    """2, 4, 6, then every hour: 7, 8, 9..."""
    hour = BULLET_FIRST_CHECK_H
    while True:
        yield hour
        hour += BULLET_CHECK_EVERY_H if hour < BULLET_HOURLY_FROM_H else 1


class _Actor:
    """An actor being walked through a stretch of time (state folded as events happen)."""

    def __init__(self, actor: Actor) -> None:
        self.actor = actor
        self.sheet: Sheet = parse_sheet(actor.sheet)
        self.state: dict[str, Any] = {}
        self.add: set[str] = set()
        self.remove: set[str] = set()
        self.lines: list[Line] = []

    def get(self, key: str, default: Any = None) -> Any:
        return self.state.get(key, self.actor.state.get(key, default))

    @property
    def statuses(self) -> set[str]:
        return (set(self.actor.statuses) - self.remove) | self.add

    def set_status(self, add: Iterable[str] = (), remove: Iterable[str] = ()) -> None:
        self.add = (self.add - set(remove)) | set(add)
        self.remove = (self.remove - set(add)) | set(remove)

    def die(self, reason: str) -> None:
        self.state.update(bleeding_since=None, unconscious_until=None)
        self.set_status({"dead"}, {"bleeding", "unconscious", "dodging", "aiming"})
        self.lines.append(Line(t(f"line.death_{reason}", actor=self.actor.name)))

    def change(self) -> ActorChange | None:
        if not (self.state or self.add or self.remove):
            return None
        return ActorChange(
            self.actor.id, dict(self.state), frozenset(self.add), frozenset(self.remove)
        )


def advance(world: World, step: TimeStep, dice: DiceSource) -> Resolution:
    before = clock(world)
    after = replace(before, time=before.time + step_seconds(step, before))
    rolled: list[Die] = []
    effects: list[Effect] = []
    lines: list[Line] = [Line(t(f"line.time_{step.unit}", count=step.count))]
    for actor_id in sorted(world.actors):
        walker = _Actor(world.actors[actor_id])
        if "dead" not in walker.statuses:
            _round_end(walker, before, after)
            _wake(walker, world, after)
            _bleed(walker, world, before, after)
            rolled.extend(_bullets(walker, before, after, dice))
            rolled.extend(_days(walker, before, after, dice, step.rest))
            _jams(walker, after)
        change = walker.change()
        if change is not None:
            effects.append(change)
        lines.extend(walker.lines)
    data = {**world_data(world), "time": after.time}
    effects.append(WorldChange({DATA_KEY: data}))
    card = Card(
        kind="time",
        title=t("card.time"),
        speaker=None,
        dice=tuple(rolled),
        sections=(Section(None, tuple(lines)),),
    )
    action = Action("advance_time", "", {"unit": step.unit, "count": step.count}, by_gm=True)
    return Resolution(action, (card,), tuple(effects))


def _round_end(walker: _Actor, before: Clock, after: Clock) -> None:
    if after.round != before.round and "dodging" in walker.statuses:
        walker.set_status(remove={"dodging"})
        walker.lines.append(Line(t("line.dodge_over", actor=walker.actor.name)))


def _wake(walker: _Actor, world: World, after: Clock) -> None:
    until = walker.get("unconscious_until")
    if until is None or "bleeding" in walker.statuses or after.time < int(until):
        return
    walker.state["unconscious_until"] = None
    walker.set_status(remove={"unconscious"})
    if str(world.settings.get("contusion_wake", "unchanged")) == "one_hp" and hp(walker.actor) < 1:
        walker.state["hp"] = 1
    walker.lines.append(Line(t("line.wakes", actor=walker.actor.name)))


def _bleed(walker: _Actor, world: World, before: Clock, after: Clock) -> None:
    """Death after ``bleed_out_rounds``; until then, First Aid's 5-round window counts down
    (one line a round while it is open, one when it closes)."""
    since = walker.get("bleeding_since")
    if since is None or "bleeding" not in walker.statuses:
        return
    rounds = (after.time - int(since)) // after.round_seconds
    if rounds >= int(world.settings.get("bleed_out_rounds", 15)):
        walker.die("bled_out")
        return
    if after.round == before.round:
        return
    earlier = max(0, (before.time - int(since)) // before.round_seconds)
    name = walker.actor.name
    if rounds < BLEED_GRACE_ROUNDS:
        left = BLEED_GRACE_ROUNDS - rounds
        walker.lines.append(Line(t("line.first_aid_window", actor=name, rounds=left)))
    elif earlier < BLEED_GRACE_ROUNDS:
        walker.lines.append(Line(t("line.first_aid_late", actor=name)))


def _bullets(walker: _Actor, before: Clock, after: Clock, dice: DiceSource) -> list[Die]:
    """'El herido deberá de tirar cada dos horas por CON ... Fallar ... la muerte del PJ'."""
    pending = unextracted(walker.actor)
    if not pending or "dead" in walker.statuses:
        return []
    start = min(int(w.get("at", 0)) for w in pending)
    rolled: list[Die] = []
    checks = 0
    for hour in bullet_check_hours():
        moment = start + hour * 3600
        if moment > after.time or checks >= MAX_CHECKS:
            break
        if moment <= before.time:
            continue
        checks += 1
        mods = 0
        mods += BULLET_CHECK_MODIFIERS["per_extra_bullet"] * (len(pending) - 1)
        if int(walker.get("hp", 0)) <= 0:
            mods += BULLET_CHECK_MODIFIERS["at_zero_hp"]
        if hour > BULLET_HOURLY_FROM_H:
            mods += BULLET_CHECK_MODIFIERS["after_sixth_hour"]
        check = roll_check(
            dice, walker.sheet.char("con") * BULLET_CHECK_MULTIPLIER, mods, role=f"con.h{hour}"
        )
        rolled.extend(check.dice)
        walker.lines.append(
            Line(
                t("line.bullet_check", actor=walker.actor.name, hour=hour, chance=check.chance),
                t(f"outcome.{check.grade}"),
            )
        )
        if not check.success:
            walker.die("bullet")
            break
    return rolled


def _days(
    walker: _Actor, before: Clock, after: Clock, dice: DiceSource, rest: bool = True
) -> list[Die]:
    rolled: list[Die] = []
    for ended in range(before.day, min(after.day, before.day + MAX_DAYS)):
        if "dead" in walker.statuses or "bleeding" in walker.statuses:
            break
        rolled.extend(_recover_day(walker, ended, dice, rest))
    return rolled


def _recover_day(walker: _Actor, day: int, dice: DiceSource, rest: bool = True) -> list[Die]:
    """Natural recovery at the end of ``day`` (``rest`` False: the GM said nobody rested)."""
    name = walker.actor.name
    resting = rest and walker.get("active_day") != day
    care = walker.get("medicine_day") == day
    maximum = walker.sheet.hp
    current = int(walker.get("hp", maximum))
    contusion = int(walker.get("contusion", 0))
    rolled: list[Die] = []
    if contusion and resting:
        current = min(maximum, current + contusion)
        walker.state["contusion"] = 0
        walker.lines.append(Line(t("line.contusion_recovered", actor=name, amount=contusion)))
    if current >= maximum:
        walker.state["hp"] = current
        return rolled
    if unextracted(walker.actor):
        walker.state["hp"] = current
        walker.lines.append(Line(t("line.no_healing_bullets", actor=name)))
        return rolled
    con = walker.sheet.char("con")
    factor = 2 if care else 1
    if resting and con > LOW_CON_MAX:
        gain = con_recovery(con) * factor
    else:
        multiplier = LOW_CON_MULTIPLIER if resting else NO_REST_MULTIPLIER
        check = roll_check(dice, con * multiplier, role="con.recovery")
        rolled.extend(check.dice)
        walker.lines.append(
            Line(
                t("line.recovery_check", actor=name, chance=check.chance),
                t(f"outcome.{check.grade}"),
            )
        )
        # CON 2-5 at rest, or any CON without rest: one point; a failure loses one.
        gain = factor if check.success else (0 if care else -1)
    current = min(maximum, current + gain)
    walker.state["hp"] = current
    walker.lines.append(
        Line(
            t(
                "line.recovered" if gain >= 0 else "line.worsened",
                actor=name,
                amount=abs(gain),
                hp=current,
            )
        )
    )
    if care:
        walker.lines.append(Line(t("line.care_applied", actor=name)))
    if current <= 0 and gain < 0:
        walker.state["bleeding_since"] = None
        walker.set_status({"unconscious"})
    return rolled


def _jams(walker: _Actor, after: Clock) -> None:
    jams = dict(walker.get("jams", {}) or {})
    cleared = [
        key
        for key, jam in jams.items()
        if isinstance(jam, dict)
        and jam.get("ready_at") is not None
        and int(jam["ready_at"]) <= after.time
    ]
    if not cleared:
        return
    for key in cleared:
        del jams[key]
        walker.lines.append(Line(t("line.jam_cleared", actor=walker.actor.name, weapon=key)))
    walker.state["jams"] = jams
    if not jams:
        walker.set_status(remove={"jammed"})
