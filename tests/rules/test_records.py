import copy
import pickle
from dataclasses import (
    MISSING,
    FrozenInstanceError,
    asdict,
    dataclass,
    field,
    fields,
    is_dataclass,
    replace,
)
from typing import Any

import pytest

from rules import dice, model
from rules.records import fast_init, is_native
from support.compiled import is_compiled


@fast_init
@dataclass(frozen=True)
class Sample:
    name: str
    tags: tuple[str, ...] = ()
    data: dict[str, int] = field(default_factory=dict)
    seen: list[str] = field(default_factory=list, compare=False)


def test_a_fast_record_builds_like_the_dataclass() -> None:
    record = Sample("a", ("x",), {"n": 1})
    assert record == Sample("a", ("x",), {"n": 1})
    assert record != Sample("b")
    assert repr(record) == "Sample(name='a', tags=('x',), data={'n': 1}, seen=[])"
    assert replace(record, name="b") == Sample("b", ("x",), {"n": 1})
    assert Sample(name="a", data={"n": 1}, tags=("x",)) == record


def test_default_factories_give_each_record_its_own_value() -> None:
    first, second = Sample("a"), Sample("a")
    assert first.data == {} and first.data is not second.data


def test_a_fast_record_stays_frozen() -> None:
    record = Sample("a")
    with pytest.raises(FrozenInstanceError):
        record.name = "b"  # type: ignore[misc]


def test_missing_arguments_are_refused() -> None:
    with pytest.raises(TypeError):
        Sample()  # type: ignore[call-arg]


def test_only_frozen_dataclasses_are_accepted() -> None:
    @dataclass
    class Mutable:
        value: int

    with pytest.raises(TypeError, match="frozen"):
        fast_init(Mutable)

    @dataclass(frozen=True)
    class Computed:
        value: int
        twice: int = field(init=False, default=0)

    with pytest.raises(TypeError, match="init=False"):
        fast_init(Computed)


# The records that write their own ``__init__`` (native classes when compiled).
NATIVE = [
    model.Text,
    model.Actor,
    model.World,
    model.Action,
    model.ActorChange,
    model.WorldChange,
    model.Outcome,
    model.Line,
    model.Section,
    model.FollowUp,
    model.Card,
    model.Resolution,
    model.TimeStep,
    dice.Draw,
    dice.Die,
]


@pytest.mark.parametrize("cls", NATIVE, ids=lambda cls: cls.__name__)
def test_a_native_record_stores_every_field_it_is_given(cls: type) -> None:
    # The written __init__ (compiled) and @fast_init's (pure) store each argument as
    # it is, by keyword and by position in the fields' order (values of each field's
    # own type, taken from a real record: a native class checks the types).
    given = _sample(cls)
    values = {item.name: getattr(given, item.name) for item in fields(cls)}
    by_name = cls(**values)
    by_place = cls(*values.values())
    for item in fields(cls):
        assert getattr(by_name, item.name) is values[item.name]
        assert getattr(by_place, item.name) is values[item.name]
    assert by_name == by_place == given and hash_or_none(by_name) == hash_or_none(given)


@pytest.mark.parametrize("cls", NATIVE, ids=lambda cls: cls.__name__)
def test_a_native_record_defaults_as_its_dataclass_fields_say(cls: type) -> None:
    given = _sample(cls)
    required = {
        item.name: getattr(given, item.name)
        for item in fields(cls)
        if item.default is MISSING and item.default_factory is MISSING
    }
    first, second = cls(**required), cls(**required)
    for item in fields(cls):
        if item.name in required:
            continue
        value = getattr(first, item.name)
        if item.default_factory is not MISSING:
            assert value == item.default_factory() and type(value) is dict
            assert value is not getattr(second, item.name)  # each its own, as the factory
        else:
            assert value is item.default or value == item.default


@pytest.mark.parametrize("cls", NATIVE, ids=lambda cls: cls.__name__)
def test_a_native_record_behaves_as_a_frozen_dataclass(cls: type) -> None:
    record = _sample(cls)
    first = fields(cls)[0]
    with pytest.raises(FrozenInstanceError):
        setattr(record, first.name, getattr(record, first.name))
    with pytest.raises((FrozenInstanceError, AttributeError)):
        record.not_a_field = 1
    assert is_dataclass(cls) and getattr(cls, "__dataclass_params__").frozen  # noqa: B009
    assert cls.__match_args__ == tuple(item.name for item in fields(cls))  # type: ignore[attr-defined]
    assert replace(record) == record and replace(record) is not record
    assert repr(record).startswith(f"{cls.__name__}({first.name}=")
    assert copy.copy(record) == record and copy.deepcopy(record) == record
    assert pickle.loads(pickle.dumps(record)) == record
    assert asdict(record) == asdict(replace(record))


def test_native_record_is_what_the_build_made_of_the_class() -> None:
    # Compiled: a native class (no instance __dict__); pure: @fast_init's __init__.
    compiled = is_compiled(model)
    for cls in NATIVE:
        assert is_native(cls) is compiled
        assert not compiled or "__dict__" not in dir(_sample(cls))


def test_an_explicit_value_is_stored_even_where_the_default_is_a_factory() -> None:
    mapping: dict[str, Any] = {}
    assert model.Action("k", "a", mapping).params is mapping
    world = model.World("w", "W", "s", {}, mapping, mapping)
    assert world.actors is mapping and world.data is mapping


ACTOR = model.Actor("a", "Ana", "u", {"s": 1}, {"w": 1}, frozenset({"shaken"}), "t", True)


def hash_or_none(record: object) -> int | None:
    try:
        return hash(record)
    except TypeError:  # a record holding a dict (Text's params, an Actor's sheet)
        return None


def _sample(cls: type) -> Any:
    title = model.Text("title", {"n": 1})
    die = dice.Die(6, (6, 2), "trait", False, 1)
    line = model.Line(title, 3)
    action = model.Action("attack", "a", {"weapon": "w"}, ("b",), True, "gm")
    follow = model.FollowUp("f1", title, "damage", "a", {"hit": "h"}, ("b",), "gm", False, (), "g")
    card = model.Card(
        "attack",
        title,
        "a",
        (die,),
        model.Outcome("hit", title, True, 2),
        (model.Section(title, (line,)),),
        (follow,),
        "gm",
        "b",
    )
    samples: dict[type, Any] = {
        model.Text: title,
        model.Actor: ACTOR,
        model.World: model.World("w", "W", "s", {"x": 1}, {"a": ACTOR}, {"d": 1}),
        model.Action: action,
        model.ActorChange: model.ActorChange("a", {"w": 2}, frozenset({"x"}), frozenset({"y"})),
        model.WorldChange: model.WorldChange({"d": 2}),
        model.Outcome: model.Outcome("hit", title, True, 2),
        model.Line: line,
        model.Section: model.Section(None, (line,)),
        model.FollowUp: follow,
        model.Card: card,
        model.Resolution: model.Resolution(action, (card,), (model.WorldChange({"d": 2}),)),
        model.TimeStep: model.TimeStep("hour", 2, False),
        dice.Draw: dice.Draw(6, 4),
        dice.Die: die,
    }
    return samples[cls]
