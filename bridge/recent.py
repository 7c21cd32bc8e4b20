"""The events this process made durable last, so a card action or an undo of a recent
event reads it from memory instead of the store.

A card action reads its card's event and the follow-ups already used on that card; an
undo reads the event it undoes. Almost always they name an event of the last few
seconds (a damage button pressed on the attack card just shown, an undo of the last
step), which this process itself made durable a moment ago. Reading it back from
SQLite cost a thread hop and its wake-ups and the decoding of the event's JSON (in the
served RoF 3 attack, a card action or an undo nearly every request).

What is remembered is exactly what is on disk, so nothing can read differently:

* an event is remembered once its transaction is on disk (never one in flight, never
  one that failed), and an event on disk never changes (the log is append-only);
* a row handed out is made as the store makes it, from the same JSON encoding read
  back (:func:`bridge.store.event_row`), so a card action or undo sees the same
  values, types and fresh objects as from the store;
* the follow-ups used on a card are worked out from memory only when every event from
  the card's own to the world's head is remembered: another process writing the same
  world (cluster mode), an event written some other way, or one that fell out of the
  memory leave a gap, and the store is read as before.

The memory is bounded across all worlds (:data:`RECENT_EVENTS`, oldest out first);
worlds are never unloaded, so nothing else has to leave it.
"""

from __future__ import annotations

from collections import OrderedDict

from bridge.store import EventRow, NewEvent, event_row

RECENT_EVENTS = 512
"""Events remembered across all worlds: the last seconds of a busy server (an attack's
event with its card is a few tens of kB in memory; a roll's a few kB)."""


class RecentEvents:
    """The last :data:`RECENT_EVENTS` events made durable, by (world, seq)."""

    def __init__(self, limit: int = RECENT_EVENTS) -> None:
        self.limit = limit
        self._events: OrderedDict[tuple[str, int], NewEvent] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._events)

    def remember(self, world_id: str, event: NewEvent) -> None:
        """``event`` is on disk (call it only then)."""
        events = self._events
        events[(world_id, event.seq)] = event
        if len(events) > self.limit:
            events.popitem(last=False)

    def row(self, world_id: str, seq: int) -> EventRow | None:
        """The event at ``seq`` as the store reads it, or None when not remembered."""
        event = self._events.get((world_id, seq))
        if event is None:
            self.misses += 1
            return None
        self.hits += 1
        return event_row(world_id, event)

    def used(self, world_id: str, card: str, head: int) -> set[tuple[str, str]] | None:
        """The follow-ups of ``card`` (``"<seq>.<index>"``) used so far, as the store's
        ``used_follow_ups`` says once every event up to ``head`` is on disk; None when an
        event from the card's own to ``head`` is not remembered."""
        card_seq = int(card.split(".")[0])
        if not 0 < card_seq <= head or head - card_seq >= self.limit:
            return None
        events = self._events
        used: set[tuple[str, str]] = set()
        for seq in range(card_seq, head + 1):
            event = events.get((world_id, seq))
            if event is None:
                return None
            # In the store's order: an event's marks are inserted, then its releases deleted.
            used.update(mark for mark in event.used_follow_ups if mark[0] == card)
            used.difference_update(mark for mark in event.released_follow_ups if mark[0] == card)
        return used
