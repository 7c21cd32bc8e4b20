"""Turning a :class:`rules.model.Text` into words in one locale.

Templates come from the system's catalogue, then the common one
(:mod:`rules.messages`). Parameter values pass through ``escape`` before they are
put in a template (the bridge passes ``html.escape`` for HTML), so text a player
typed can never become markup; templates themselves are ours and trusted.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping

from rules.messages import COMMON
from rules.model import Text, TextParam


class MissingMessage(KeyError):
    """A Text names a key no catalogue holds for that locale (a bug in a system)."""


def _identity(value: str) -> str:
    return value


def lookup(key: str, locale: str, catalogue: Mapping[str, Mapping[str, str]]) -> str | None:
    for source in (catalogue, COMMON):
        template = source.get(locale, {}).get(key)
        if template is not None:
            return template
    return None


def translate(
    text: Text,
    locale: str,
    catalogue: Mapping[str, Mapping[str, str]],
    *,
    escape: Callable[[str], str] = _identity,
    strict: bool = False,
) -> str:
    """The text in ``locale``; an unknown key gives the key itself (or raises when ``strict``)."""
    template = lookup(text.key, locale, catalogue)
    if template is None:
        if strict:
            raise MissingMessage(f"no message {text.key!r} in locale {locale!r}")
        return escape(text.key)
    values = {
        name: _param(value, locale, catalogue, escape, strict)
        for name, value in text.params.items()
    }
    fields = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    missing = fields - values.keys()
    if missing and strict:
        raise MissingMessage(f"message {text.key!r} needs {sorted(missing)}")
    for name in missing:
        values[name] = "{" + name + "}"
    return template.format_map(values)


def _param(
    value: TextParam,
    locale: str,
    catalogue: Mapping[str, Mapping[str, str]],
    escape: Callable[[str], str],
    strict: bool,
) -> str:
    if isinstance(value, Text):
        return translate(value, locale, catalogue, escape=escape, strict=strict)
    if isinstance(value, tuple):
        return ", ".join(
            translate(item, locale, catalogue, escape=escape, strict=strict) for item in value
        )
    if isinstance(value, bool):
        return escape("✓" if value else "✗")
    return escape(str(value))
