"""The engine's result records: native records (rules.records.native_record) that still
behave as the frozen dataclasses they were."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, fields, replace

import pytest

from bridge import engine
from bridge.engine import Accepted, Rejected
from rules.model import World, t
from rules.records import is_native
from support.compiled import is_compiled

WORLD = World("w-1", "Mesa", "o3d10", {})


def test_results_are_native_records_when_compiled_and_frozen_either_way() -> None:
    compiled = is_compiled(engine)
    accepted = Accepted(WORLD, [{"type": "chat_card"}], None)
    rejected = Rejected("gm_only", "action", t("error.gm_only"))
    for record in (accepted, rejected):
        assert is_native(type(record)) is compiled
        with pytest.raises(FrozenInstanceError):
            record.code = "x"  # type: ignore[union-attr]
        assert replace(record) == record and replace(record) is not record
        assert copy.copy(record) == record
    assert pickle.loads(pickle.dumps(rejected)) == rejected
    assert [f.name for f in fields(Accepted)] == [
        "world",
        "pushes",
        "undo",
        "used_follow_ups",
        "released_follow_ups",
    ]
    assert accepted.used_follow_ups == () and accepted.released_follow_ups == ()
    marked = replace(accepted, pushes=[], used_follow_ups=(("1.0", "soak"),))
    assert marked.pushes == [] and marked.world is WORLD and marked.undo is None
    assert marked.used_follow_ups == (("1.0", "soak"),)


def test_a_refusal_gets_its_own_detail_unless_one_is_given() -> None:
    first, second = Rejected("gm_only"), Rejected("gm_only")
    assert first.detail == {} and first.detail is not second.detail
    given = {"event": "attack"}
    assert Rejected("wrong_event", "action", detail=given).detail is given
    assert first == second and repr(first).startswith("Rejected(code='gm_only'")
