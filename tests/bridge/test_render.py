"""The renderer's translation of JSON texts gives exactly what rules.i18n.translate gives."""

from __future__ import annotations

import string
from typing import Any

import pytest

from bridge.render import JsonTexts, _escape
from bridge.serialize import text_from_json
from rules.i18n import translate
from rules.messages import COMMON, LOCALES
from rules.registry import default_registry

HOSTILE = "<b>\"Ana\" & 'Bob'</b>"


def _params_for(template: str, variant: int) -> dict[str, Any]:
    fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
    values: list[Any] = [
        HOSTILE,
        7,
        -1.5,
        True,
        False,
        None,
        {"text": {"key": "outcome.success", "params": {}}},
        {
            "texts": [
                {"key": "status.prone", "params": {}},
                {"key": "raw", "params": {"text": HOSTILE}},
            ]
        },
        {"text": {"key": "no.such.key", "params": {"x": HOSTILE}}},
    ]
    # Leave the last field out now and then: missing fields stay as {name}.
    chosen = fields[:-1] if variant % 2 and fields else fields
    return {name: values[(variant + i) % len(values)] for i, name in enumerate(chosen)}


@pytest.mark.parametrize("system_id", sorted(default_registry().systems))
def test_every_catalogue_text_renders_as_translate_does(system_id: str) -> None:
    system = default_registry().get(system_id)
    texts = JsonTexts(system.messages)
    keys = {key for source in (system.messages, COMMON) for cat in source.values() for key in cat}
    checked = 0
    for locale in LOCALES:
        for key in sorted(keys | {"no.such.key"}):
            template = system.messages.get(locale, {}).get(key) or COMMON.get(locale, {}).get(key)
            for variant in range(3):
                raw = {"key": key, "params": _params_for(template or "{x}", variant)}
                for html in (False, True):
                    expected = translate(
                        text_from_json(raw),
                        locale,
                        system.messages,
                        escape=_escape if html else (lambda value: value),
                    )
                    # Twice: the second answer may come from the memo.
                    assert texts.render(raw, locale, html) == expected, (key, locale, html)
                    assert texts.render(raw, locale, html) == expected
                    checked += 1
                pair = texts.pair(raw, locale)
                assert pair == (texts.render(raw, locale, False), texts.render(raw, locale, True))
    assert checked > 100


def test_parameters_are_escaped_in_html_only() -> None:
    texts = JsonTexts({"es": {"k": "Hola {name}"}})
    raw = {"key": "k", "params": {"name": HOSTILE}}
    assert texts.render(raw, "es", False) == f"Hola {HOSTILE}"
    assert texts.render(raw, "es", True) == (
        "Hola &lt;b&gt;&quot;Ana&quot; &amp; &#x27;Bob&#x27;&lt;/b&gt;"
    )


def test_a_remembered_text_pair_is_the_fresh_rendering_and_the_memo_is_bounded() -> None:
    import bridge.render as render

    texts = JsonTexts({"es": {"k": "Hola {name}", "n": "{a} y {b}"}})
    raw = {"key": "k", "params": {"name": "<b>Ana</b>"}}
    fresh = (texts.render(raw, "es", False), texts.render(raw, "es", True))
    assert texts.pair(raw, "es") == fresh == texts.pair(raw, "es")
    # Remembered by the identity of ``raw`` (compiled, the pair comes back as a new
    # tuple of the same strings: mypyc keeps a tuple[str, str] unboxed).
    assert texts._pairs[(id(raw), "es")] == (raw, fresh)
    other = {"key": "k", "params": {"name": "Bea"}}  # another object: rendered for itself
    assert texts.pair(other, "es") == ("Hola Bea", "Hola Bea")
    nested = {"key": "n", "params": {"a": {"text": raw}, "b": 3}}
    assert texts.pair(nested, "es") == ("Hola <b>Ana</b> y 3", f"{fresh[1]} y 3")
    for i in range(render._PAIRS_LIMIT + 10):
        texts.pair({"key": "k", "params": {"name": str(i)}}, "es")
    assert len(texts._pairs) <= render._PAIRS_LIMIT


def test_a_cards_remembered_parts_render_as_a_fresh_renderer_does() -> None:
    """Dice, sections and outcome are rendered once per JSON object and locale: a second
    card sharing them (another seq and id) equals what a renderer without memos gives."""
    from bridge.render import Renderer
    from bridge.serialize import card_to_json
    from rules.dice import ScriptedDice
    from rules.model import Action, World

    registry = default_registry()
    system = registry.get("o3d10")
    world = World("w", "w", "o3d10", {"locale": "es"})
    for actor in system.sample_actors():
        world = world.with_actor(actor)
    action = Action("skill", "aldara", {"skill": "sigilo", "level": "normal"}, ())
    checked = system.check_action(world, action)
    cards = [
        card_to_json(system.resolve(world, checked, ScriptedDice([4, 9, 2])).cards[0])
        for _ in range(2)
    ]
    assert cards[0]["sections"] is cards[1]["sections"]  # the rules shared the parts
    remembered = Renderer(system)
    views = []
    for locale in ("es", "en"):
        for seq, card in enumerate(cards, start=1):
            got = remembered.card(card, seq=seq, card_id=f"{seq}.0", world=world, locale=locale)
            fresh = Renderer(system).card(
                card, seq=seq, card_id=f"{seq}.0", world=world, locale=locale
            )
            assert got == fresh
            assert f'data-card="{seq}.0" data-seq="{seq}"' in got["html"]
            views.append(got)
    assert views[0]["sections"] is views[1]["sections"]  # the second was a lookup
    assert views[0]["sections"] is not views[2]["sections"]  # another locale


def test_equal_dice_and_sections_built_anew_render_once_and_as_a_fresh_renderer() -> None:
    """Rules that build a new throw and new sections each roll from shared texts (Savage
    Worlds): equal dice values, or sections of the very same texts, render once."""
    from bridge.render import Renderer
    from rules.model import World

    system = default_registry().get("savage_worlds")
    world = World("w", "w", "savage_worlds", {"locale": "es"})
    label = {"key": "raw", "params": {"text": "<Disparar>"}}

    def card() -> dict[str, Any]:
        return {
            "kind": "trait",
            "title": {"key": "raw", "params": {"text": "T"}},
            "speaker": "x",
            "target": None,
            "visibility": "public",
            "dice": [{"sides": 8, "faces": [8, 3], "role": "trait", "kept": True, "group": 0}],
            "outcome": None,
            "sections": [{"title": None, "lines": [{"label": label, "value": 4}]}],
            "actions": [],
        }

    remembered = Renderer(system)
    first = remembered.card(card(), seq=1, card_id="1.0", world=world, locale="es")
    second = remembered.card(card(), seq=2, card_id="2.0", world=world, locale="es")
    assert second == Renderer(system).card(card(), seq=2, card_id="2.0", world=world, locale="es")
    # Each die is rendered once and its view shared; the sections once as a whole.
    assert first["dice"][0] is second["dice"][0] and first["sections"] is second["sections"]
    assert "&lt;Disparar&gt;: 4" in second["html"] and "<Disparar>: 4" in second["text"]
    other = card()
    other["dice"][0]["kept"] = 1  # an equal value of another type is another key
    third = remembered.card(other, seq=3, card_id="3.0", world=world, locale="es")
    assert third["dice"][0] is not first["dice"][0] and third["dice"][0]["kept"] == 1
    assert third["dice"][0]["kept"] is not True


def test_the_usual_die_is_keyed_by_its_values_and_any_other_die_as_it_is() -> None:
    """A throw in a new JSON list is put together from its dice found by their values
    (the usual die's key: its values alone): the same rendering as a fresh renderer's,
    its dice views shared; dice of other key orders or value types are other keys
    (rendered as they are), never mistaken for the usual die."""
    from bridge.render import Renderer, _die_key
    from rules.model import World

    system = default_registry().get("o3d10")
    world = World("w", "w", "o3d10", {"locale": "es"})

    def dice() -> list[dict[str, Any]]:
        return [
            {"sides": 10, "faces": [9], "role": "objetivo", "kept": True, "group": 0},
            {"sides": 10, "faces": [10, 3], "role": "objetivo", "kept": False, "group": 0},
        ]

    def card(throw: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "kind": "skill",
            "title": {"key": "raw", "params": {"text": "T"}},
            "speaker": "x",
            "target": None,
            "visibility": "public",
            "dice": throw,
            "outcome": None,
            "sections": [],
            "actions": [],
        }

    remembered = Renderer(system)
    first = remembered.card(card(dice()), seq=1, card_id="1.0", world=world, locale="es")
    second = remembered.card(card(dice()), seq=2, card_id="2.0", world=world, locale="es")
    fresh = Renderer(system).card(card(dice()), seq=2, card_id="2.0", world=world, locale="es")
    assert second == fresh and second["dice"] is not first["dice"]
    assert all(a is b for a, b in zip(second["dice"], first["dice"], strict=True))
    assert "10+3×" in second["text"] and second["dice"][1]["total"] == 13

    assert _die_key(dice()[1]) == (10, "objetivo", False, 0, (10, 3))
    reordered = {"faces": [9], "sides": 10, "role": "objetivo", "kept": True, "group": 0}
    floating = {"sides": 10, "faces": [9.0], "role": "objetivo", "kept": True, "group": 0}
    counted = {"sides": 10, "faces": [9], "role": "objetivo", "kept": 1, "group": 0}
    for die in (reordered, floating, counted):
        assert _die_key(die) is None
        shown = remembered.card(card([dict(die)]), seq=3, card_id="3.0", world=world, locale="es")
        alone = Renderer(system).card(
            card([dict(die)]), seq=3, card_id="3.0", world=world, locale="es"
        )
        assert shown == alone and list(shown["dice"][0]) == [*die, "total"]
    assert (
        remembered.card(card([counted]), seq=4, card_id="4.0", world=world, locale="es")["dice"][0][
            "kept"
        ]
        is not True
    )


def test_a_new_throw_of_die_json_seen_before_finds_each_die_by_identity() -> None:
    """A dice list not seen before whose dice are JSON objects seen before (``bridge.
    serialize`` gives one JSON object a die value) finds each die's view by that object's
    identity, without its values' key; the card equals a fresh renderer's, and the
    identity table stays within its bound."""
    from bridge import render
    from bridge.render import Renderer
    from rules.model import World

    system = default_registry().get("o3d10")
    world = World("w", "w", "o3d10", {"locale": "es"})
    seven = {"sides": 10, "faces": [7], "role": "objetivo", "kept": True, "group": 0}
    ten = {"sides": 10, "faces": [10, 3], "role": "objetivo", "kept": False, "group": 0}

    def card(throw: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "kind": "skill",
            "title": {"key": "raw", "params": {"text": "T"}},
            "speaker": "x",
            "target": None,
            "visibility": "public",
            "dice": throw,
            "outcome": None,
            "sections": [],
            "actions": [],
        }

    remembered = Renderer(system)
    first = remembered.card(card([seven, ten]), seq=1, card_id="1.0", world=world, locale="es")
    memo = remembered._locales["es"]
    assert memo.die_ids[id(seven)][0] is seven and memo.die_ids[id(ten)][0] is ten
    memo.die.clear()  # found again by identity alone
    second = remembered.card(card([ten, seven]), seq=2, card_id="2.0", world=world, locale="es")
    assert second["dice"][0] is first["dice"][1] and second["dice"][1] is first["dice"][0]
    assert not memo.die
    fresh = Renderer(system).card(
        card([ten, seven]), seq=2, card_id="2.0", world=world, locale="es"
    )
    assert second == fresh and second["html"] == fresh["html"]
    for face in range(render._VALUES_LIMIT + 2):
        die = {**seven, "faces": [face]}
        remembered.card(card([die]), seq=3, card_id="3.0", world=world, locale="es")
    assert len(memo.die_ids) <= render._VALUES_LIMIT


def test_a_card_view_keeps_its_keys_order_and_its_frame_apart() -> None:
    """A card's view (a copy of its frame's view with the request's values put in) has
    the view's keys in their order, and two cards of one frame do not share their dicts:
    changing one (as the players' masking of a copy would) leaves the other and the frame
    as they were."""
    from bridge.render import Renderer
    from rules.model import World

    system = default_registry().get("o3d10")
    world = World("w", "w", "o3d10", {"locale": "es"})
    raw = {
        "kind": "skill",
        "title": {"key": "raw", "params": {"text": "T"}},
        "speaker": "x",
        "target": "y",
        "visibility": "public",
        "dice": [],
        "outcome": None,
        "sections": [],
        "actions": [],
    }
    renderer = Renderer(system)
    first = renderer.card(raw, seq=1, card_id="1.0", world=world, locale="es")
    second = renderer.card(raw, seq=2, card_id="2.0", world=world, locale="es")
    assert list(first) == [
        "seq", "card_id", "world", "kind", "speaker", "speaker_name", "target", "visibility",
        "locale", "title", "outcome", "dice", "sections", "actions", "html", "text",
    ]  # fmt: skip
    assert first is not second and (first["seq"], second["seq"]) == (1, 2)
    first["title"] = "changed"
    third = renderer.card(raw, seq=3, card_id="3.0", world=world, locale="es")
    assert third["title"] == second["title"] == "T" and third["target"] == "y"
