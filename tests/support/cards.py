"""Every piece of text a card carries, for tests that check each translates in es and en."""

from __future__ import annotations

from rules.model import Card, Text
from rules.params import Param


def texts_of(card: Card) -> list[Text]:
    found: list[Text] = [card.title]
    if card.outcome is not None:
        found.append(card.outcome.label)
    for section in card.sections:
        if section.title is not None:
            found.append(section.title)
        for line in section.lines:
            found.append(line.label)
            if isinstance(line.value, Text):
                found.append(line.value)
    for follow in card.actions:
        found.append(follow.label)
        found.extend(p.label for p in follow.ask if isinstance(p, Param) and p.label is not None)
    return found
