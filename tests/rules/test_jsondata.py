from rules.jsondata import copy_json


def test_copies_share_no_mutable_part_with_the_original() -> None:
    original = {"ammo": {"m1": 3}, "bipod": ["m1"], "pair": ([1], "x"), "n": None, "f": 1.5}
    copied = copy_json(original)
    assert copied == original
    copied["ammo"]["m1"] = 0
    copied["bipod"].append("m2")
    copied["pair"][0].append(2)
    assert original == {"ammo": {"m1": 3}, "bipod": ["m1"], "pair": ([1], "x"), "n": None, "f": 1.5}


def test_other_values_are_deep_copied_too() -> None:
    original = {"seen": {1, 2}}
    copied = copy_json(original)
    copied["seen"].add(3)
    assert original == {"seen": {1, 2}}
