"""Action cards: the 54-card deck, Fisher-Yates shuffles through the dice, dealing and the count.

Pure functions for the combat tracker:

- :func:`new_deck` -> the 54 cards (``"AS"`` ace of spades ... ``"2C"``, ``"JK1"``, ``"JK2"``);
- :func:`shuffle` (cards, dice) -> (shuffled cards, the dice rolled);
- :func:`card_value` / :func:`turn_order` (cards by unit) -> units from first to last;
- :func:`units_for` (participants) -> which actors act on which card;
- :func:`deal` (deck, units, ...) -> a :class:`Deal` (new deck, cards by unit, dice).

The deck lives in ``world.data["deck"]`` as ``{"draw": [...], "discard": [...]}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules.dice import DiceSource, Die
from rules.savage_worlds.sheet import Sheet
from rules.savage_worlds.tables import JOKERS, QUICK_REDRAW_AT_MOST, RANKS, SUITS


def new_deck() -> list[str]:
    return [rank + suit for suit in SUITS for rank in RANKS] + list(JOKERS)


def shuffle(cards: Sequence[str], dice: DiceSource) -> tuple[list[str], tuple[Die, ...]]:
    """Fisher-Yates from the top: position i swaps with one of 0..i (a d(i+1); no d1)."""
    out = list(cards)
    rolled: list[Die] = []
    for i in range(len(out) - 1, 0, -1):
        face = dice.roll(i + 1)
        rolled.append(Die(i + 1, (face,), "shuffle"))
        j = face - 1
        out[i], out[j] = out[j], out[i]
    return out, tuple(rolled)


def is_joker(card: str) -> bool:
    return card in JOKERS


def rank_of(card: str) -> int:
    """2..14 (ace high); a Joker is 15."""
    if is_joker(card):
        return 15
    return RANKS.index(card[:-1]) + 2


def card_value(card: str) -> tuple[int, int]:
    """Higher acts first: rank, then suit (spades, hearts, diamonds, clubs)."""
    if is_joker(card):
        return (15, 5 - JOKERS.index(card))
    return (rank_of(card), len(SUITS) - SUITS.index(card[-1]))


def turn_order(cards: Mapping[str, str]) -> list[str]:
    """Units from the first to act to the last: the count from Ace down to 2, Jokers first."""
    return sorted(cards, key=lambda unit: card_value(cards[unit]), reverse=True)


def unit_of(actor_id: str, sheet: Sheet, mode: str, participants: Iterable[str]) -> str:
    """Which card an actor acts on.

    'Cada Comodín recibe una única carta ... Los aliados ... actuarán en esta misma
    carta'; 'Cada grupo distinto de Extras ... comparte una carta'; with
    ``per_side`` one card per side.
    """
    if mode == "per_side":
        return f"side:{sheet.side}"
    if sheet.leader is not None and sheet.leader in set(participants):
        return sheet.leader
    if sheet.wild_card or sheet.group is None:
        return actor_id
    return f"group:{sheet.group}"


def units_for(sheets: Mapping[str, Sheet], mode: str) -> dict[str, list[str]]:
    units: dict[str, list[str]] = {}
    for actor_id, sheet in sheets.items():
        units.setdefault(unit_of(actor_id, sheet, mode, sheets), []).append(actor_id)
    # A leader who is out of the fight leaves its allies on their own card.
    return units


@dataclass
class Deal:
    draw: list[str]
    discard: list[str]
    cards: dict[str, str] = field(default_factory=dict)
    dice: list[Die] = field(default_factory=list)
    shuffled: int = 0
    redrawn: dict[str, list[str]] = field(default_factory=dict)

    def _take(self, dice: DiceSource) -> str:
        if not self.draw:
            # Ruling: an empty deck mid-deal reshuffles the discards.
            self.draw, rolled = shuffle(self.discard, dice)
            self.discard = []
            self.dice.extend(rolled)
            self.shuffled += 1
        return self.draw.pop(0)

    @property
    def joker_dealt(self) -> bool:
        return any(is_joker(card) for card in self.cards.values())


def deal(
    draw: Sequence[str],
    discard: Sequence[str],
    units: Iterable[str],
    dice: DiceSource,
    *,
    reshuffle: bool = False,
    level_headed: Iterable[str] = (),
    quick: Iterable[str] = (),
) -> Deal:
    """Deal one card to each unit (in the order given).

    ``reshuffle`` puts the discards back and shuffles first ('barajarlos de nuevo
    ... cada vez que se reparta un comodín', done before the next deal).
    ``level_headed`` units (Temple) draw two and keep the better; ``quick`` units
    (Rápido) redraw a card of 5 or lower (once each, also per side).
    """
    state = Deal(list(draw), list(discard))
    if reshuffle or not state.draw:
        state.draw, rolled = shuffle([*state.draw, *state.discard], dice)
        state.discard = []
        state.dice.extend(rolled)
        state.shuffled += 1
    level_headed, quick = set(level_headed), set(quick)
    for unit in units:
        card = state._take(dice)
        seen = [card]
        if unit in level_headed:
            other = state._take(dice)
            seen.append(other)
            best = max(card, other, key=card_value)
            state.discard.append(other if best == card else card)
            card = best
        if unit in quick:
            while not is_joker(card) and rank_of(card) <= QUICK_REDRAW_AT_MOST:
                state.discard.append(card)
                card = state._take(dice)
                seen.append(card)
        if len(seen) > 1:
            state.redrawn[unit] = seen
        state.cards[unit] = card
    return state
