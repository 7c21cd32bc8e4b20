import pytest

from rules.cunchillos.damage import (
    MAX_FIRST,
    critical_hits,
    damage_hits,
    knockdown_band,
    ladder,
    parry_strength,
    severity,
)


@pytest.mark.parametrize(
    ("kind", "expected"),
    [("0", [(5, 3)]), ("I", [(5, 8)]), ("II", [(5, 11)]), ("III", [(5, 22)])],
)
def test_types_0_to_III_at_the_dE(kind: str, expected: list[tuple[int, int]]) -> None:
    hits = damage_hits(kind, 8, 3, 5)
    assert [(h.face, h.amount) for h in hits] == expected


def test_type_IV_spreads_over_d_minus_locations_alternating_up_and_down() -> None:
    hits = damage_hits("IV", 7, 5, 5)
    # 'el número de localizaciones afectadas es el d-': 5 faces from 5: 5, 4, 6, 3, 7
    assert [h.face for h in hits] == [5, 4, 6, 3, 7]
    # '(d- + d+) en la primera, (d+) en la segunda y tercera y (d-) en el resto'
    assert [h.amount for h in hits] == [12, 7, 7, 5, 5]


def test_type_IV_at_the_head_only_walks_down() -> None:
    assert ladder(1, 4) == (1, 2, 3, 4)
    assert ladder(10, 3) == (10, 9, 8)
    assert ladder(5, 10) == (5, 4, 6, 3, 7, 2, 8, 1, 9, 10)


def test_type_V_hits_the_three_locations_the_dice_show() -> None:
    hits = damage_hits("V", 9, 2, 6)
    assert [(h.face, h.amount) for h in hits] == [(6, 11), (9, 11), (2, 11)]


def test_critical_max_or_chosen_location() -> None:
    assert [(h.face, h.amount) for h in critical_hits("II", 4, 3, 7, "max", None)] == [(7, 20)]
    assert [(h.face, h.amount) for h in critical_hits("II", 4, 3, 7, "location", 1)] == [(1, 7)]
    assert MAX_FIRST["III"] == 40


@pytest.mark.parametrize(
    ("damage", "grade"),
    [(5, "minor"), (6, "light"), (11, "light"), (12, "serious"), (19, "serious")],
)
def test_severity_against_res_6(damage: int, grade: str) -> None:
    assert severity(damage, 6, amputation=False) == grade


def test_amputation_only_with_the_optional_rule() -> None:
    assert severity(19, 6, amputation=True) == "amputation"
    assert severity(18, 6, amputation=True) == "serious"


def test_knockdown_bands() -> None:
    assert knockdown_band(5, 6) == "under_res"
    assert knockdown_band(11, 6) == "under_2res"
    assert knockdown_band(12, 6) == "over_2res"


def test_parry_strength_halves() -> None:
    assert parry_strength(14, 9) == (2, 3)
    assert parry_strength(9, 14) == (0, 0)
