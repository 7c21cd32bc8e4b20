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
