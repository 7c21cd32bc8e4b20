from rules.memo import by_identity, forget_unheld


def test_same_object_is_parsed_once_equal_copies_again() -> None:
    calls: list[int] = []  # what was parsed (not the objects: that would hold them)

    @by_identity(size=2)
    def parse(value: dict[str, int]) -> int:
        calls.append(value["x"])
        return value["x"] * 2

    sheet = {"x": 2}
    assert parse(sheet) == 4 and parse(sheet) == 4
    assert len(calls) == 1
    assert parse({"x": 2}) == 4 and len(calls) == 2, "an equal but new object is parsed"
    parse({"x": 3})
    parse({"x": 4})  # past the bound: the copies nobody holds go, the held sheet stays
    assert parse(sheet) == 4 and len(calls) == 4
    others = [{"x": n} for n in range(5, 8)]  # all held: now the oldest (the sheet) goes
    for other in others:
        parse(other)
    assert parse(sheet) == 4 and len(calls) == 8


def test_forget_unheld_drops_what_nothing_holds_then_the_oldest() -> None:
    held = [object() for _ in range(6)]
    table: dict[int, tuple[object, int]] = {}
    for n, item in enumerate(held):
        table[id(item)] = (item, n)
        lone = object()
        table[id(lone)] = (lone, 100 + n)
    del lone
    forget_unheld(table, 8)
    assert sorted(v[1] for v in table.values()) == [0, 1, 2, 3, 4, 5], "held ones kept"
    forget_unheld(table, 4)  # everything held: the oldest go, down to 7/8 of the bound
    assert sorted(v[1] for v in table.values()) == [2, 3, 4, 5]
