from rules.memo import by_identity


def test_same_object_is_parsed_once_equal_copies_again() -> None:
    calls: list[object] = []

    @by_identity(size=2)
    def parse(value: dict[str, int]) -> int:
        calls.append(value)
        return value["x"] * 2

    sheet = {"x": 2}
    assert parse(sheet) == 4 and parse(sheet) == 4
    assert len(calls) == 1
    assert parse({"x": 2}) == 4 and len(calls) == 2, "an equal but new object is parsed"
    parse({"x": 3})
    parse({"x": 4})  # the cache holds two: the first sheet is forgotten
    assert parse(sheet) == 4 and len(calls) == 5
