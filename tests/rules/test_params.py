import pytest

from rules.model import RulesError, t
from rules.params import Param, validate_params

DECLARED = (
    Param("skill", "str", t("x"), required=True, max_length=5),
    Param("n", "int", minimum=0, maximum=10, default=3),
    Param("flag", "bool", default=False),
    Param("mode", "choice", choices=("a", "b")),
)


def test_defaults_fill_in() -> None:
    assert validate_params(DECLARED, {"skill": "abc"}) == {"skill": "abc", "n": 3, "flag": False}


@pytest.mark.parametrize(
    ("raw", "field", "key"),
    [
        ({}, "params.skill", "error.param.missing"),
        ({"skill": "abcdef"}, "params.skill", "error.param.too_long"),
        ({"skill": 3}, "params.skill", "error.param.not_str"),
        ({"skill": "a", "n": 11}, "params.n", "error.param.range"),
        ({"skill": "a", "n": True}, "params.n", "error.param.not_int"),
        ({"skill": "a", "flag": 1}, "params.flag", "error.param.not_bool"),
        ({"skill": "a", "mode": "c"}, "params.mode", "error.param.choice"),
        ({"skill": "a", "other": 1}, "params.other", "error.param.unknown"),
    ],
)
def test_refusals_name_the_field(raw: dict[str, object], field: str, key: str) -> None:
    with pytest.raises(RulesError) as caught:
        validate_params(DECLARED, raw)
    assert caught.value.code == "invalid_param"
    assert caught.value.field == field
    assert caught.value.message.key == key


def test_checked_params_are_shared_read_only_and_tell_true_from_one() -> None:
    from rules.params import CheckedParams, check_params

    declared = (Param("n", "int"), Param("flag", "bool", default=False))
    first = check_params(declared, {"n": 1})
    assert first == {"n": 1, "flag": False} and type(first) is CheckedParams
    assert check_params(declared, {"n": 1}) is first  # equal values: the same object
    with pytest.raises(TypeError):
        first["n"] = 2
    with pytest.raises(TypeError):
        first.update(n=2)
    assert first == {"n": 1, "flag": False}
    with pytest.raises(RulesError) as refused:
        check_params(declared, {"n": True})  # equal to 1 and hashed alike, but a bool
    assert refused.value.field == "params.n"
    with pytest.raises(RulesError):
        check_params(declared, {"flag": 1})
    assert check_params(declared, {"flag": True}) == {"flag": True}
    mine = validate_params(declared, {"n": 1})
    mine["n"] = 5  # validate_params hands out a copy to change
    assert type(mine) is dict and check_params(declared, {"n": 1})["n"] == 1
    other = (Param("n", "int", maximum=0),)  # another declaration: its own entries
    with pytest.raises(RulesError):
        check_params(other, {"n": 1})
    assert check_params(declared, {"n": 3}) == {"n": 3, "flag": False}
    import copy
    import pickle

    assert copy.deepcopy(first) == first and pickle.loads(pickle.dumps(first)) == first


def test_unhashable_values_are_checked_every_time() -> None:
    from rules.params import check_params

    declared = (Param("s", "str"),)
    with pytest.raises(RulesError):
        check_params(declared, {"s": ["a"]})
    with pytest.raises(RulesError):
        check_params(declared, {"s": ["a"]})
