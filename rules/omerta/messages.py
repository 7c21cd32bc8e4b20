"""Omertà's card and error texts: the seed's own Spanish terms (es) and English (en)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.omerta.messages_en import EN
from rules.omerta.messages_es import ES

MESSAGES: Mapping[str, Mapping[str, str]] = {"es": ES, "en": EN}
