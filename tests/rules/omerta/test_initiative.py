"""Initiative: 1D10 + AGI, ties by AGI, then PJ before PNJ, tied PJs act at once."""

from __future__ import annotations

from typing import Any

from rules.dice import Die, ScriptedDice
from rules.omerta.initiative import Initiative, initiative_order, roll_initiative


def _entry(actor: str, die: int, agi: int, pc: bool) -> Initiative:
    return Initiative(actor, agi, pc, Die(10, (die,), "initiative"))


def test_roll_is_d10_plus_agi() -> None:
    entry = roll_initiative(ScriptedDice([7]), "a", 12, True)
    assert entry.total == 19 and entry.die.role == "initiative"


def test_order_ties_by_agi_then_pc_then_together() -> None:
    entries = [
        _entry("npc_low_agi", 9, 10, False),  # 19, AGI 10
        _entry("npc", 7, 12, False),  # 19, AGI 12
        _entry("pc1", 7, 12, True),  # 19, AGI 12, PJ
        _entry("pc2", 7, 12, True),  # same as pc1: at once
        _entry("fast", 10, 14, False),  # 24
    ]
    assert initiative_order(entries) == (("fast",), ("pc1", "pc2"), ("npc",), ("npc_low_agi",))


def test_npc_ties_setting() -> None:
    entries = [_entry("a", 5, 10, False), _entry("b", 5, 10, False)]
    assert initiative_order(entries) == (("a", "b"),)
    assert initiative_order(entries, "listed") == (("a",), ("b",))


def test_initiative_action_stores_the_order(kit: Any) -> None:
    world = kit.make_world()
    res, after = kit.run(world, "initiative", "jimmy", {}, ("frank", "tony"), [3, 9, 1], by_gm=True)
    assert [d.total for d in res.cards[0].dice] == [3, 9, 1]
    # Jimmy 17, Frank 21, Tony 14.
    assert after.data["omerta"]["order"] == [["frank"], ["jimmy"], ["tony"]]
    _, later = kit.run(after, "initiative", "sanderson", {}, (), [10])
    assert later.data["omerta"]["order"] == [["frank"], ["sanderson"], ["jimmy"], ["tony"]]
    _, ended = kit.run(later, "combat_end", "jimmy", {}, (), [], by_gm=True)
    assert "order" not in ended.data["omerta"]


def test_players_roll_only_their_own(kit: Any) -> None:
    import pytest

    from rules.model import RulesError

    with pytest.raises(RulesError) as error:
        kit.run(kit.make_world(), "initiative", "jimmy", {}, ("tony",), [3, 4])
    assert error.value.code == "gm_only"
