"""Rendering stored card and actor data into protocol v1 pushes for one locale.

The structured fields carry plain text; ``html`` escapes every value that came
from a parameter (names, labels, anything a player or GM typed) and every
structural string, so an adapter may insert it as it is.
"""

from __future__ import annotations

import re
import string
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from functools import lru_cache
from html import escape as html_escape
from typing import Any, Final

from bridge.serialize import (
    actor_from_json,
    actor_text,
    json_text,
    mapping_text,
    param_to_json,
    text_to_json,
)
from rules import tracker
from rules.i18n import lookup
from rules.memo import forget_unheld
from rules.model import Actor, RulesError, World, t
from rules.params import Param
from rules.system import Button, RuleSystem

Catalogue = Mapping[str, Mapping[str, str]]
_CLASS_SAFE = re.compile(r"[^a-z0-9_-]")
_MEMO_LIMIT = 8192  # texts are catalogue keys; the bound only guards against a runaway
_ACTOR_VIEWS = 128  # rendered actors remembered per renderer (one per system), oldest out first;
# each holds every button of a sheet (tens of kB), so the bound is kept small (make chaos soak)


def _escape(value: str) -> str:
    return html_escape(value, quote=True)


@lru_cache(maxsize=1024)
def _css(value: str) -> str:
    return _CLASS_SAFE.sub("", value.lower())[:40]


def _plain(value: str) -> str:
    return value


_PAIRS_LIMIT = 1024
"""Texts with parameters and card parts remembered per Renderer by the identity of their
JSON form; at the bound the entries whose JSON nothing else holds (never to be shown
again) go first, then the oldest (``rules.memo.forget_unheld``)."""
_VALUES_LIMIT = 512
"""Card parts remembered per Renderer by their values (dice) or their texts' identity
(sections), emptied at the bound: ~1-6 kB an entry (docs/reliability.md, item 10)."""


class JsonTexts:
    """:func:`rules.i18n.translate` applied to a Text's JSON form, without rebuilding it.

    Gives exactly what ``translate(text_from_json(raw), ...)`` gives (the tests compare
    both over every catalogue key), but remembers each template and its fields, and the
    words of every text without parameters, per locale and escaping: card rendering was
    the largest CPU item of a request (docs/performance.md).
    """

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self._templates: dict[tuple[str, str], tuple[str | None, frozenset[str]]] = {}
        self._bare: dict[tuple[str, str, bool], str] = {}
        self._pairs: dict[tuple[int, str], tuple[Mapping[str, Any], tuple[str, str]]] = {}

    def _template(self, key: str, locale: str) -> tuple[str | None, frozenset[str]]:
        found = self._templates.get((key, locale))
        if found is not None:
            return found
        template = lookup(key, locale, self.catalogue)
        fields = (
            frozenset()
            if template is None
            else frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)
        )
        found = (template, fields)
        if len(self._templates) < _MEMO_LIMIT:
            self._templates[(key, locale)] = found
        return found

    def render(self, raw: Mapping[str, Any], locale: str, html: bool) -> str:
        key = str(raw["key"])
        params: Mapping[str, Any] = raw["params"]
        if not params:
            bare = self._bare.get((key, locale, html))
            if bare is None:
                bare = self._render(key, params, locale, html)
                if len(self._bare) < _MEMO_LIMIT:
                    self._bare[(key, locale, html)] = bare
            return bare
        return self._render(key, params, locale, html)

    def pair(self, raw: Mapping[str, Any], locale: str) -> tuple[str, str]:
        """``(render(raw, locale, False), render(raw, locale, True))`` in one pass: the
        parameters are worked out once, and the template filled once more only when
        escaping changed one of them (numbers and most names never change)."""
        key = str(raw["key"])
        params: Mapping[str, Any] = raw["params"]
        if not params:
            return self.render(raw, locale, False), self.render(raw, locale, True)
        # Texts with parameters are remembered by the identity of their JSON form: the
        # rules share frozen Texts for equal values and ``text_to_json`` gives the same
        # dict for the same Text, so a text shown before costs one lookup. The entry
        # holds ``raw``, so its id is not reused while it lives; JSON forms are never
        # changed once built (bridge/serialize.py).
        memo = (id(raw), locale)
        hit = self._pairs.get(memo)
        if hit is not None and hit[0] is raw:
            return hit[1]
        found = self._pair(key, params, locale)
        self._pairs[memo] = (raw, found)
        if len(self._pairs) > _PAIRS_LIMIT:
            forget_unheld(self._pairs, _PAIRS_LIMIT)
        return found

    def _pair(self, key: str, params: Mapping[str, Any], locale: str) -> tuple[str, str]:
        template, fields = self._template(key, locale)
        if template is None:
            return key, _escape(key)
        plain: dict[str, str] = {}
        marked: dict[str, str] = {}
        same = True
        for name, value in params.items():
            kind = type(value)
            if kind is int or kind is float:
                shown = escaped = str(value)
            elif isinstance(value, dict):
                if "text" in value:
                    shown, escaped = self.pair(value["text"], locale)
                else:
                    both = [self.pair(item, locale) for item in value["texts"]]
                    shown = ", ".join(b[0] for b in both)
                    escaped = ", ".join(b[1] for b in both)
            elif isinstance(value, bool):
                shown = "✓" if value else "✗"
                escaped = _escape(shown)
            else:
                shown = str(value)
                escaped = _escape(shown)
            plain[name] = shown
            marked[name] = escaped
            if same and shown != escaped:
                same = False
        for name in fields:
            if name not in plain:
                plain[name] = marked[name] = "{" + name + "}"
        text = template.format_map(plain)
        return text, text if same else template.format_map(marked)

    def _render(self, key: str, params: Mapping[str, Any], locale: str, html: bool) -> str:
        template, fields = self._template(key, locale)
        escape: Callable[[str], str] = _escape if html else _plain
        if template is None:
            return escape(key)
        values = {name: self._param(value, locale, html, escape) for name, value in params.items()}
        for name in fields:
            if name not in values:
                values[name] = "{" + name + "}"
        return template.format_map(values)

    def _param(self, value: Any, locale: str, html: bool, escape: Callable[[str], str]) -> str:
        if isinstance(value, dict):
            if "text" in value:
                return self.render(value["text"], locale, html)
            return ", ".join(self.render(item, locale, html) for item in value["texts"])
        if isinstance(value, bool):
            return escape("✓" if value else "✗")
        return escape(str(value))


class _Frame:
    """What a card's view takes from its title, kind and speaker's name in one locale:
    the title, the HTML up to the outcome's CSS key (``opening``) and from the seq on to
    the header's end (``header``), the text's first line (``head``), and the view's dict
    with those put in (``view``: every key of the view in its order; a card's view is a
    copy with the rest put in, which keeps the order and costs less than building the
    sixteen entries anew)."""

    def __init__(
        self, title: str, opening: str, header: str, head: str, view: dict[str, Any]
    ) -> None:
        self.title = title
        self.opening = opening
        self.header = header
        self.head = head
        self.view = view


class _Dice:
    """A card's dice: their views, their HTML block and their line of the card's text
    (after a newline; both empty without dice)."""

    def __init__(self, views: list[Any], html: str, text: str) -> None:
        self.views = views
        self.html = html
        self.text = text


class _Sections:
    """A card's sections: their views, their HTML and their lines of the card's text
    (each after a newline)."""

    def __init__(self, views: list[dict[str, Any]], html: str, text: str) -> None:
        self.views = views
        self.html = html
        self.text = text


class _Outcome:
    """A card's outcome: its view, its CSS key, its HTML block and its line of the card's
    text (after a newline)."""

    def __init__(self, view: dict[str, Any] | None, css: str, html: str, text: str) -> None:
        self.view = view
        self.css = css
        self.html = html
        self.text = text


_NO_OUTCOME = _Outcome(None, "none", "", "")
_PARTS_LIMIT = 2048
"""Card parts (dice, sections and outcomes) remembered per locale by identity; before,
one table of 1,024 held them for every locale, and o3d10 alone shows ~1,100 throws."""
_DIE_KEYS: Final = ["sides", "faces", "role", "kept", "group"]
"""A die's JSON keys, in ``bridge.serialize.die_to_json``'s order (the stored events',
read back, keep it): a die of exactly these keys and the usual types is keyed by its
values alone (``_die_key``). A list: mypyc reads a tuple constant's item by boxing the
whole tuple anew."""
_LOCALES_LIMIT = 16
"""Locales with remembered card views per renderer (a handful in use; a guard only)."""


class _LocaleViews:
    """A renderer's remembered card parts for one locale. The identity tables hold the
    JSON object each entry was made from (first in the entry), so its id is not reused
    while the entry lives; at the bound the entries whose JSON nothing else holds go
    first, then the oldest (``rules.memo.forget_unheld``). The value tables are emptied
    at their bound."""

    def __init__(self) -> None:
        self.frames: dict[tuple[int, int, int], tuple[Any, Any, Any, _Frame]] = {}
        self.parts: dict[int, tuple[Any, _Dice | _Sections | _Outcome]] = {}
        self.die: dict[Any, tuple[Any, str, str]] = {}
        self.die_ids: dict[int, tuple[Any, tuple[Any, str, str]]] = {}
        self.section_texts: dict[Any, tuple[Any, _Sections]] = {}

    def remember(self, raw: Any, part: _Dice | _Sections | _Outcome) -> None:
        """A card part's rendering remembered by the identity of its JSON (dice,
        sections and outcome share the table: three lookups in one small table)."""
        self.parts[id(raw)] = (raw, part)
        if len(self.parts) > _PARTS_LIMIT:
            forget_unheld(self.parts, _PARTS_LIMIT)


def _die_key(raw: Any) -> tuple[Any, ...] | None:
    """A die's values as a key, for the usual die (``_DIE_KEYS`` in that order, an int
    ``sides`` and ``group``, a str ``role``, a bool ``kept``, a list of int faces): the
    values alone say it all (the key order and the types are the same for every such
    die, so equal keys render alike). None for any other die (``Renderer._die``'s
    generic key, with each key and type, handles it)."""
    if not isinstance(raw, dict) or len(raw) != 5:
        return None
    for index, name in enumerate(raw):
        if name != _DIE_KEYS[index]:
            return None
    sides = raw["sides"]
    faces = raw["faces"]
    role = raw["role"]
    kept = raw["kept"]
    group = raw["group"]
    if (
        type(sides) is not int
        or type(role) is not str
        or type(kept) is not bool
        or type(group) is not int
        or type(faces) is not list
    ):
        return None
    for face in faces:
        if type(face) is not int:
            return None
    return (sides, role, kept, group, tuple(faces))


def ack_body(
    seq: int, bodies: list[tuple[str, dict[str, Any]]], duplicate: bool = False
) -> dict[str, Any]:
    """A request's ack from the bodies its sender's room receives (``Renderer.pushes``):
    its cards and its token statuses, the very same bodies (encoded alike)."""
    cards: list[dict[str, Any]] = []
    tokens: list[dict[str, Any]] = []
    for name, body in bodies:
        if name == "chat_card":
            cards.append(body)
        elif name == "token_status":
            tokens.append(body)
    return {"ok": True, "seq": seq, "duplicate": duplicate, "cards": cards, "tokens": tokens}


class Renderer:
    """Renders for one system's catalogue."""

    def __init__(self, system: RuleSystem) -> None:
        self.system = system
        self.catalogue: Catalogue = system.messages
        self._texts = JsonTexts(self.catalogue)
        self._asks: dict[tuple[int, str], tuple[Param, dict[str, Any]]] = {}
        self._locales: dict[str, _LocaleViews] = {}
        self._actor_views: OrderedDict[tuple[str, str, str, str], dict[str, Any]] = OrderedDict()

    def text(self, raw: Mapping[str, Any] | None, locale: str, *, html: bool = False) -> str:
        if raw is None:
            return ""
        return self._texts.render(raw, locale, html)

    def _role(self, role: str, locale: str) -> str:
        return lookup(f"role.{role}", locale, self.catalogue) or role

    def _params(self, params: list[Mapping[str, Any]], locale: str) -> list[dict[str, Any]]:
        views = []
        for p in params:
            labels = []
            for choice in p["choices"]:
                label = lookup(f"choice.{p['name']}.{choice}", locale, self.catalogue)
                if label is None:
                    label = lookup(f"level.{choice}", locale, self.catalogue) or choice
                labels.append(label)
            views.append(
                {
                    "name": p["name"],
                    "kind": p["kind"],
                    "label": self.text(p["label"], locale) if p["label"] else None,
                    "required": p["required"],
                    "default": p["default"],
                    "minimum": p["minimum"],
                    "maximum": p["maximum"],
                    "choices": list(p["choices"]),
                    "choice_labels": labels,
                }
            )
        return views

    def card(
        self,
        card: Mapping[str, Any],
        *,
        seq: int,
        card_id: str,
        world: World,
        locale: str,
        used: Collection[str] = (),
    ) -> dict[str, Any]:
        """A card's view for one locale: plain texts, and ``html`` built from the same
        texts escaped (each text is worked out once for both).

        Everything but the seq, the card id and the used marks derives from immutable
        inputs, so it is worked out once and remembered per locale (``_LocaleViews``):
        the card's frame (title, kind and speaker's name: its HTML head and text head),
        its dice, sections and outcome (each by the identity of its JSON object: the rules
        share frozen throws, lines and outcomes between results and ``card_to_json`` gives
        the same JSON object for the same frozen part; a throw built anew is put together
        from its dice, remembered by value). A card then costs a few lookups, one string
        build for its HTML and one for its text, and its view's dict."""
        return self._card(card, seq, card_id, _escape(card_id), world, locale, used)

    def _card(
        self,
        card: Mapping[str, Any],
        seq: int,
        card_id: str,
        card_html: str,
        world: World,
        locale: str,
        used: Collection[str],
    ) -> dict[str, Any]:
        """``card``, with the card id escaped for HTML given (``card_html``)."""
        memo = self._locale_views(locale)
        speaker = card["speaker"]
        actor = world.actors.get(speaker)
        speaker_name = None if actor is None else actor.name
        frame = self._frame(memo, card["title"], card["kind"], speaker_name, locale)
        # The parts' hits, looked up here in one table (their misses: ``_dice_view``...).
        parts = memo.parts
        raw = card["dice"]
        hit = parts.get(id(raw))
        found = hit[1] if hit is not None and hit[0] is raw else None
        dice = found if isinstance(found, _Dice) else self._dice_view(memo, raw, locale)
        raw = card["sections"]
        hit = parts.get(id(raw))
        found = hit[1] if hit is not None and hit[0] is raw else None
        sections = found if isinstance(found, _Sections) else self._sections_view(memo, raw, locale)
        raw = card["outcome"]
        if raw is None:
            outcome = _NO_OUTCOME
        else:
            hit = parts.get(id(raw))
            found = hit[1] if hit is not None and hit[0] is raw else None
            outcome = (
                found if isinstance(found, _Outcome) else self._outcome_view(memo, raw, locale)
            )
        follows = card["actions"]
        if follows:
            actions, footer, lines = self._actions(follows, card_html, locale, used)
        else:
            actions, footer, lines = [], "", ""
        # The frame's view holds the kind, the speaker's name, the locale and the title
        # (the frame's key holds the first two, the locale is the table's, the title is
        # the frame's): the copy keeps every key in its order, the rest is put in.
        view = frame.view.copy()
        view["seq"] = seq
        view["card_id"] = card_id
        view["world"] = world.id
        view["speaker"] = speaker
        view["target"] = card["target"]
        view["visibility"] = card["visibility"]
        view["outcome"] = outcome.view
        view["dice"] = dice.views
        view["sections"] = sections.views
        view["actions"] = actions
        view["html"] = (
            f'{frame.opening}{outcome.css}" data-card="{card_html}" data-seq="{seq}'
            f"{frame.header}{dice.html}{sections.html}{outcome.html}{footer}</div>"
        )
        view["text"] = f"{frame.head}{dice.text}{sections.text}{outcome.text}{lines}"
        return view

    def _locale_views(self, locale: str) -> _LocaleViews:
        views = self._locales.get(locale)
        if views is None:
            if len(self._locales) >= _LOCALES_LIMIT:  # locales are a handful; a guard only
                self._locales.clear()
            views = self._locales[locale] = _LocaleViews()
        return views

    def _frame(
        self, memo: _LocaleViews, title: Any, kind: Any, speaker_name: Any, locale: str
    ) -> _Frame:
        """The card's frame, remembered by the identity of the title's JSON, the kind and
        the speaker's name (all three held by the entry, so their ids are not reused while
        it lives; equal strings that are other objects only make another entry)."""
        key = (id(title), id(kind), id(speaker_name))
        hit = memo.frames.get(key)
        if hit is not None and hit[0] is title and hit[1] is kind and hit[2] is speaker_name:
            found: _Frame = hit[3]
            return found
        plain, marked = self._texts.pair(title, locale)
        speaker_html = (
            f'<span class="vtt-speaker">{_escape(speaker_name)}</span>' if speaker_name else ""
        )
        view: dict[str, Any] = {
            "seq": None,
            "card_id": None,
            "world": None,
            "kind": kind,
            "speaker": None,
            "speaker_name": speaker_name,
            "target": None,
            "visibility": None,
            "locale": locale,
            "title": plain,
            "outcome": None,
            "dice": None,
            "sections": None,
            "actions": None,
            "html": None,
            "text": None,
        }
        made = _Frame(
            plain,
            f'<div class="vtt-card vtt-card--{_css(kind)} vtt-outcome--',
            f'"><header>{speaker_html}<h3 class="vtt-title">{marked}</h3></header>',
            f"{speaker_name}: {plain}" if speaker_name else plain,
            view,
        )
        memo.frames[key] = (title, kind, speaker_name, made)
        if len(memo.frames) > _PAIRS_LIMIT:
            forget_unheld(memo.frames, _PAIRS_LIMIT)
        return made

    def _dice_view(self, memo: _LocaleViews, raw: Any, locale: str) -> _Dice:
        """A card's dice not found by the identity of their JSON list: put together from
        its dice (``_die``) and remembered by that identity (the entry holds the list)."""
        shown = [self._die(memo, d, locale) for d in raw]
        if shown:
            made = _Dice(
                [die[0] for die in shown],
                '<div class="vtt-dice">' + "".join(die[1] for die in shown) + "</div>",
                "\n" + " ".join(die[2] for die in shown),
            )
        else:
            made = _Dice([], "", "")
        memo.remember(raw, made)
        return made

    def _die(self, memo: _LocaleViews, raw: Mapping[str, Any], locale: str) -> tuple[Any, str, str]:
        """One die's view, HTML and text, found by the identity of its JSON (``bridge.
        serialize`` gives one JSON object a die value: a throw not seen before is made of
        dice seen before), else remembered by its values (and their types): rules that
        build a new throw each roll (Savage Worlds) or roll many different throws (o3d10's
        three d10) still show the same few dice again. The usual die is keyed by its
        values alone (``_die_key``: five lookups and a tuple, where the generic key built a
        tuple of three for each of its keys). The identity table holds each JSON (so its
        id is not reused while the entry lives) and is emptied at its bound."""
        ids = memo.die_ids
        hit = ids.get(id(raw))
        if hit is not None and hit[0] is raw:
            return hit[1]
        found = self._die_by_value(memo, raw, locale)
        if len(ids) >= _VALUES_LIMIT:
            ids.clear()
        ids[id(raw)] = (raw, found)
        return found

    def _die_by_value(
        self, memo: _LocaleViews, raw: Mapping[str, Any], locale: str
    ) -> tuple[Any, str, str]:
        key: Any = _die_key(raw)
        if key is None:
            try:
                key = tuple(
                    (k, tuple((x, type(x)) for x in v) if type(v) is list else v, type(v))
                    for k, v in raw.items()
                )
                found = memo.die.get(key)
            except TypeError:  # a value that cannot be a key: rendered as it is
                return self._render_die(raw, locale)
        else:
            found = memo.die.get(key)
        if found is None:
            found = self._render_die(raw, locale)
            if len(memo.die) >= _VALUES_LIMIT:
                memo.die.clear()
            memo.die[key] = found
        return found

    def _render_die(self, raw: Mapping[str, Any], locale: str) -> tuple[Any, str, str]:
        die = {**raw, "total": sum(raw["faces"])}
        faces = die["faces"]
        text = "+".join(str(f) for f in faces) + ("" if die["kept"] else "×")
        return die, self._die_html(die, locale), text

    def _sections_view(self, memo: _LocaleViews, raw: Any, locale: str) -> _Sections:
        """A card's sections not found by the identity of their JSON list: found by their
        texts (``_sections_by_texts``) and remembered by that identity (the entry holds
        the list)."""
        made = self._sections_by_texts(memo, raw, locale)
        memo.remember(raw, made)
        return made

    def _sections_by_texts(
        self, memo: _LocaleViews, raw: list[Mapping[str, Any]], locale: str
    ) -> _Sections:
        """``_sections`` remembered by the identity of the sections' texts (shared by the
        rules, see ``JsonTexts.pair``) and their plain values: rules that build new
        sections each roll from shared lines still render each combination once. The
        entry holds ``raw``, which holds those texts, so their ids are not reused while
        it lives."""
        try:
            key = tuple(
                (
                    id(section["title"]),
                    tuple(
                        (
                            id(line["label"]),
                            id(line["value"])
                            if isinstance(line["value"], dict)
                            else (line["value"], type(line["value"])),
                        )
                        for line in section["lines"]
                    ),
                )
                for section in raw
            )
            hit = memo.section_texts.get(key)
        except TypeError:
            return self._sections(raw, locale)
        if hit is not None:
            found: _Sections = hit[1]
            return found
        made = self._sections(raw, locale)
        if len(memo.section_texts) >= _VALUES_LIMIT:
            memo.section_texts.clear()
        memo.section_texts[key] = (raw, made)
        return made

    def _sections(self, raw: list[Mapping[str, Any]], locale: str) -> _Sections:
        """The section views, their HTML and their lines of the card's text (each line
        after a newline)."""
        pair = self._texts.pair
        section_pairs = [
            (
                pair(s["title"], locale) if s["title"] else None,
                [self._line_pair(line, locale) for line in s["lines"]],
            )
            for s in raw
        ]
        sections = [
            {"title": t[0] if t else None, "lines": [line[0] for line in lines]}
            for t, lines in section_pairs
        ]
        parts: list[str] = []
        for title, lines in section_pairs:
            parts.append('<section class="vtt-section">')
            if title is not None:
                parts.append(f"<h4>{title[1]}</h4>")
            parts.append("<ul>")
            parts.extend(f"<li>{line[1]}</li>" for line in lines)
            parts.append("</ul></section>")
        text: list[str] = []
        for title, lines in section_pairs:
            if title is not None and title[0]:
                text.append(f"\n{title[0]}")
            text.extend(f"\n  {line[0]}" for line in lines)
        return _Sections(sections, "".join(parts), "".join(text))

    def _outcome_view(self, memo: _LocaleViews, raw: Mapping[str, Any], locale: str) -> _Outcome:
        """The outcome's view, CSS key, HTML and text line, remembered by the identity of
        its JSON (the entry holds it)."""
        plain, marked = self._texts.pair(raw["label"], locale)
        view = {
            "key": raw["key"],
            "label": plain,
            "success": raw["success"],
            "margin": raw["margin"],
        }
        made = _Outcome(
            view,
            _css(raw["key"]),
            f'<div class="vtt-outcome">{marked}</div>',
            f"\n=> {plain}",
        )
        memo.remember(raw, made)
        return made

    def _actions(
        self,
        follows: list[Mapping[str, Any]],
        card_html: str,
        locale: str,
        used: Collection[str],
    ) -> tuple[list[dict[str, Any]], str, str]:
        """A card's follow-up actions: their views, the HTML footer (``card_html`` is the
        card id escaped) and their lines of the card's text."""
        pair = self._texts.pair
        labels = [pair(f["label"], locale) for f in follows]
        actions = [
            {
                "id": f["id"],
                "label": label[0],
                "actor": f["actor"],
                "allowed": f["allowed"],
                "once": f["once"],
                "used": f["id"] in used,
                "ask": self._params(f["ask"], locale),
            }
            for f, label in zip(follows, labels, strict=True)
        ]
        parts = ['<footer class="vtt-actions">']
        for shown, label in zip(actions, labels, strict=True):
            disabled = " disabled" if shown["used"] else ""
            parts.append(
                f'<button type="button" class="vtt-follow" data-card="{card_html}"'
                f' data-action="{_escape(shown["id"])}"{disabled}>{label[1]}</button>'
            )
        parts.append("</footer>")
        return actions, "".join(parts), "".join(f"\n[{label[0]}]" for label in labels)

    def _line_pair(self, line: Mapping[str, Any], locale: str) -> tuple[str, str]:
        label, label_html = self._texts.pair(line["label"], locale)
        value = line["value"]
        if value is None:
            return label, label_html
        if isinstance(value, dict):
            shown, shown_html = self._texts.pair(value, locale)
        else:
            shown = str(value)
            shown_html = _escape(shown)
        return f"{label}: {shown}", f"{label_html}: {shown_html}"

    def _die_html(self, die: Mapping[str, Any], locale: str) -> str:
        classes = ["vtt-die", f"vtt-d{int(die['sides'])}", f"vtt-role-{_css(die['role'])}"]
        if not die["kept"]:
            classes.append("vtt-dropped")
        if len(die["faces"]) > 1:
            classes.append("vtt-ace")
        faces = "+".join(str(int(f)) for f in die["faces"])
        role = _escape(self._role(str(die["role"]), locale))
        return (
            f'<span class="{" ".join(classes)}" title="{role} (d{int(die["sides"])})">'
            f"{faces}</span>"
        )

    # -- actors and statuses ----------------------------------------------------
    def labels(self, statuses: Collection[str], locale: str) -> dict[str, str]:
        return {
            status: self.text(text_to_json(self.system.status_label(status)), locale)
            for status in sorted(statuses)
        }

    def _ask_view(self, param: Param, locale: str) -> dict[str, Any]:
        """A button's parameter as shown, remembered by the Param's identity: systems keep
        their parameters as constants, and each actor update renders every button. The
        view is shared between bodies, which are only ever encoded, never changed."""
        key = (id(param), locale)
        hit = self._asks.get(key)
        if hit is not None and hit[0] is param:
            return hit[1]
        (view,) = self._params([param_to_json(param)], locale)
        self._asks[key] = (param, view)
        if len(self._asks) > _PAIRS_LIMIT:
            forget_unheld(self._asks, _PAIRS_LIMIT)
        return view

    def button(self, button: Button, locale: str) -> dict[str, Any]:
        return {
            "label": self.text(text_to_json(button.label), locale),
            "event": button.event,
            "action": button.action,
            "params": dict(button.params),
            "group": self.text(text_to_json(button.group), locale) if button.group else None,
            "ask": [self._ask_view(p, locale) for p in button.ask],
            "min_targets": button.min_targets,
            "max_targets": button.max_targets,
            "gm_only": button.gm_only,
        }

    def actor(self, world: World, actor: Actor, locale: str, role: str = "gm") -> dict[str, Any]:
        return self._actor_view(world, actor, actor_text(actor), locale, role)

    def _actor_view(
        self, world: World, actor: Actor, text: str, locale: str, role: str
    ) -> dict[str, Any]:
        """``actor`` as a ``role`` connection in ``locale`` sees it; ``text`` is the
        actor's JSON text (the same text always means the same actor).

        A visible actor's view depends only on the actor, the world's settings and
        the world's data (``RuleSystem.buttons`` promises it for the buttons; the
        rest reads the actor alone) and not on the role, so it is remembered keyed by
        the JSON text of those three (without the data when the system's buttons do not
        read it: ``RuleSystem.buttons_read_data``) and the locale: an ``actor_update`` rendered
        for several rooms, a welcome after another actor changed, or an undo back to
        a state already shown render nothing again. The texts of a world's settings
        and data are remembered by identity (the state snapshot encodes them anyway).
        Views are only ever encoded, never changed, so one dict is shared.
        """
        if actor.hidden and role != "gm":
            return self._render_actor(world, actor, locale, role)
        data = mapping_text(world.data) if self.system.buttons_read_data else ""
        key = (locale, text, mapping_text(world.settings), data)
        views = self._actor_views
        view = views.get(key)
        if view is not None:
            views.move_to_end(key)
            return view
        view = self._render_actor(world, actor, locale, role)
        views[key] = view
        if len(views) > _ACTOR_VIEWS:
            views.popitem(last=False)
        return view

    def _render_actor(self, world: World, actor: Actor, locale: str, role: str) -> dict[str, Any]:
        if actor.hidden and role != "gm":
            return {
                "id": actor.id,
                "name": self._unknown(locale),
                "owner": None,
                "token": actor.token,
                "sheet": {},
                "state": {},
                "statuses": sorted(actor.statuses),
                "labels": self.labels(actor.statuses, locale),
                "numbers": {},
                "buttons": [],
            }
        try:
            buttons = [self.button(b, locale) for b in self.system.buttons(world, actor)]
        except RulesError:  # a sheet the system can no longer read still shows, without buttons
            buttons = []
        return {
            "id": actor.id,
            "name": actor.name,
            "owner": actor.owner,
            "token": actor.token,
            "sheet": dict(actor.sheet),
            "state": dict(actor.state),
            "statuses": sorted(actor.statuses),
            "labels": self.labels(actor.statuses, locale),
            "numbers": dict(self.system.token_numbers(actor)),
            "buttons": buttons,
        }

    def pushes(
        self,
        world: World,
        seq: int,
        pushes: list[dict[str, Any]],
        role: str,
        locale: str,
        used: Collection[tuple[str, str]] = (),
        user: str | None = None,
    ) -> list[tuple[str, dict[str, Any]]]:
        """Stored push records as the (event, body) pairs a connection of ``role`` receives.
        Players get hidden actors' names masked everywhere.

        A whispered card reaches GMs and the users it names; ``user`` None is a room of
        players as a whole, which whispered cards skip."""
        out: list[tuple[str, dict[str, Any]]] = []
        for push in pushes:
            kind = push["type"]
            if kind == "chat_card":
                card = push["card"]
                if card["visibility"] == "gm" and role != "gm":
                    continue
                whisper = push.get("whisper")
                if whisper is not None and role != "gm" and user not in whisper:
                    continue
                index = push["index"]
                card_id = f"{seq}.{index}"
                # A card id of two numbers has nothing to escape (the stored index is one).
                card_html = card_id if type(index) is int else _escape(card_id)
                marks = {action for cid, action in used if cid == card_id} if used else ()
                body = self._card(card, seq, card_id, card_html, world, locale, marks)
                out.append(("chat_card", body))
            elif kind == "token_status":
                out.append(
                    ("token_status", self.token_status(push, seq=seq, world=world, locale=locale))
                )
            elif kind == "actor_update":
                out.append(("actor_update", self.actor_update(world, seq, push, locale, role)))
            elif kind == "combat_state":
                out.append(("combat_state", self.combat_state(world, seq, push, role, locale)))
            elif kind == "card_update":
                body = {
                    "seq": seq,
                    "world": world.id,
                    "card_id": push["card_id"],
                    "used": push["used"],
                    "released": push.get("released", []),
                    "undone": bool(push.get("undone", False)),
                }
                out.append(("card_update", body))
        if role == "gm":  # the GM sees every name: nothing to mask
            return out
        hidden = {a.id: a.name for a in world.actors.values() if a.hidden}
        if hidden:
            unknown = self._unknown(locale)
            names = {}
            for name in hidden.values():
                variants = sorted({re.escape(name), re.escape(html_escape(name, quote=True))})
                names[name] = r"(?<!\w)(?:" + "|".join(variants) + r")(?!\w)"
            masked = []
            for kind, body in out:
                if kind in ("chat_card", "token_status"):
                    body = self._mask(body, names, unknown)
                    for key in ("speaker", "target", "actor"):
                        if body.get(key) in hidden and kind == "chat_card":
                            body[key] = "hidden"
                masked.append((kind, body))
            out = masked
        return out

    def combat_state(
        self, world: World, seq: int, push: Mapping[str, Any], role: str, locale: str
    ) -> dict[str, Any]:
        raw = push.get("combat")
        if not raw:
            return {
                "seq": seq,
                "world": world.id,
                "active": False,
                "round": 0,
                "phase": None,
                "turn": None,
                "current": [],
                "next_to_declare": None,
                "order": [],
                "combatants": [],
                "data": {},
            }
        combat = tracker.from_json(raw)
        hidden = {
            c.actor_id
            for c in combat.combatants
            if role != "gm"
            and (c.hidden or (c.actor_id in world.actors and world.actors[c.actor_id].hidden))
        }
        unknown = self.text(text_to_json(t("tracker.hidden")), locale)

        def name(actor_id: str) -> str:
            if actor_id in hidden:
                return unknown
            actor = world.actors.get(actor_id)
            return actor.name if actor else actor_id

        current = combat.current
        masks = {actor: f"hidden-{n}" for n, actor in enumerate(sorted(hidden), start=1)}

        def ident(actor_id: str) -> str:
            # Players see hidden combatants under an opaque id, so no name leaks through it.
            return masks.get(actor_id, actor_id)

        return {
            "seq": seq,
            "world": world.id,
            "active": True,
            "round": combat.round,
            "phase": combat.phase,
            "turn": combat.turn,
            "current": [ident(a) for a in current.actors] if current else [],
            "next_to_declare": combat.next_to_declare,
            "order": [
                {
                    "actors": [{"id": ident(a), "name": name(a)} for a in slot.actors],
                    "label": self.text(text_to_json(slot.label), locale) if slot.label else None,
                    "data": {} if hidden & set(slot.actors) else dict(slot.data),
                }
                for slot in combat.order
            ],
            "combatants": [
                {
                    "actor": ident(c.actor_id),
                    "name": name(c.actor_id),
                    "group": c.group,
                    "hidden": c.hidden,
                    "held": c.actor_id in combat.held,
                    "acted": c.actor_id in combat.acted,
                    "declared": dict(combat.declared.get(c.actor_id, {}))
                    if role == "gm" or c.actor_id not in hidden
                    else {},
                }
                for c in combat.combatants
            ],
            "data": dict(combat.data) if role == "gm" else {},
        }

    def ack(
        self,
        world: World,
        seq: int,
        pushes: list[dict[str, Any]],
        role: str,
        locale: str,
        duplicate: bool = False,
        user: str | None = None,
    ) -> dict[str, Any]:
        wanted = [p for p in pushes if p["type"] in ("chat_card", "token_status")]
        return ack_body(seq, self.pushes(world, seq, wanted, role, locale, (), user), duplicate)

    def _unknown(self, locale: str) -> str:
        return self.text(text_to_json(t("tracker.hidden")), locale)

    def _mask(self, body: Any, names: Mapping[str, str], unknown: str) -> Any:
        """A player's copy of a rendered body with hidden actors' names (plain and
        HTML-escaped) replaced by "Unknown"."""
        if isinstance(body, str):
            for pattern in names.values():
                body = re.sub(pattern, unknown, body)
            return body
        if isinstance(body, dict):
            return {k: self._mask(v, names, unknown) for k, v in body.items()}
        if isinstance(body, list):
            return [self._mask(v, names, unknown) for v in body]
        return body

    def actor_update(
        self, world: World, seq: int, push: Mapping[str, Any], locale: str, role: str = "gm"
    ) -> dict[str, Any]:
        if "removed" in push:
            return {"seq": seq, "world": world.id, "actor": None, "removed": push["removed"]}
        raw = push["actor"]
        return {
            "seq": seq,
            "world": world.id,
            "actor": self._actor_view(world, actor_from_json(raw), json_text(raw), locale, role),
            "removed": None,
        }

    def token_status(
        self, push: Mapping[str, Any], *, seq: int, world: World, locale: str
    ) -> dict[str, Any]:
        return {
            "seq": seq,
            "world": world.id,
            "actor": push["actor"],
            "token": push["token"],
            "name": push["name"],
            "statuses": push["statuses"],
            "added": push["added"],
            "removed": push["removed"],
            "labels": self.labels(push["statuses"], locale),
            "numbers": push["numbers"],
        }
