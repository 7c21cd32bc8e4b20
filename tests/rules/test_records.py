from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest

from rules.records import fast_init


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
