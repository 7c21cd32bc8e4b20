"""What an actor's roll depends on besides the dice: the kept rank, the token, encumbrance.

Shared by skill, attribute, initiative and attack rolls so each circumstance of
'Circunstancias Especiales' is read in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.model import Actor, RulesError, World, t
from rules.o3d10.checks import Circumstances, kept_rank
from rules.o3d10.health import health_band, is_badly_hurt
from rules.o3d10.initiative import COMBAT_KEY, combat_of
from rules.o3d10.sheet import Sheet, parse_sheet
from rules.records import fast_init
from rules.rolls import Rank

KEEP_CHOICES = ("auto", "lowest", "median", "highest")
FORCED = {"lowest": Rank.LOWEST, "median": Rank.MEDIAN, "highest": Rank.HIGHEST}


@fast_init
@dataclass(frozen=True)
class RollContext:
    circumstances: Circumstances
    rank: Rank
    state: dict[str, Any]
    """Actor state keys the roll changes (the token moving)."""


@lru_cache(maxsize=128)
def _circumstances(
    badly_hurt: bool,
    unknown_skill: bool,
    token_given: bool,
    token_returned: bool,
    split_actions: bool,
    forced: Rank | None,
    stacking: str,
) -> tuple[Circumstances, Rank]:
    """The circumstances and the rank they keep, one shared (frozen) record per combination."""
    circumstances = Circumstances(
        badly_hurt=badly_hurt,
        unknown_skill=unknown_skill,
        token_given=token_given,
        token_returned=token_returned,
        split_actions=split_actions,
        forced=forced,
    )
    return circumstances, kept_rank(circumstances, stacking)


def sheet_of(actor: Actor) -> Sheet:
    return parse_sheet(actor.sheet)


def require_able(world: World, actor: Actor) -> Sheet:
    """The actor's sheet; refuses an unconscious or dead actor ('inconsciente', 'muerto')."""
    sheet = sheet_of(actor)
    band = health_band(sheet, actor.state, world.settings)
    if band in ("inconsciente", "muerto") or "dead" in actor.statuses:
        raise RulesError(
            "actor_down",
            t("error.actor_down", actor=actor.name, state=t(f"health.{band}")),
            "actor",
        )
    return sheet


def in_combat(world: World) -> bool:
    """Whether a combat runs (what ``combat_of(world.data)["active"]`` says, without the copy)."""
    combat = world.data.get(COMBAT_KEY)
    return isinstance(combat, Mapping) and bool(combat.get("active", False))


def split_marked(world: World, actor_id: str) -> bool:
    combat = combat_of(world.data)
    return bool(combat["active"]) and combat["split"].get(actor_id) == combat["round"]


def roll_context(
    world: World,
    actor: Actor,
    sheet: Sheet,
    params: Mapping[str, Any],
    *,
    unknown_skill: bool = False,
    by_gm: bool = False,
    split: bool | None = None,
) -> RollContext:
    """The kept rank from every circumstance, and the token's move.

    'Token: ... se puede dar al Director de Juego antes de una tirada ... permitiendo guardar
    así el dado mayor. El director de Juego puede devolverlo en cualquier momento, obligando
    así a guardar el dado menor.' The token state is ``player`` (held), ``gm`` (given) or
    ``returned`` (handed back: the next roll keeps the lowest, then the player holds it).
    """
    token = str(actor.state.get("token", "player"))
    give = bool(params.get("give_token", False))
    if give and token != "player":
        raise RulesError(
            "token_not_held", t("error.token_not_held", actor=actor.name), "params.give_token"
        )
    keep = str(params.get("keep", "auto"))
    if keep != "auto" and not by_gm:
        raise RulesError("keep_is_gm_only", t("error.keep_is_gm_only"), "params.keep")
    splitting = bool(params.get("split", False)) if split is None else split
    circumstances, rank = _circumstances(
        is_badly_hurt(sheet, actor.state, world.settings),
        unknown_skill,
        give,
        token == "returned",
        splitting,
        FORCED.get(keep),
        str(world.settings.get("rank_stacking", "steps")),
    )
    state: dict[str, Any] = {}
    if give:
        state["token"] = "gm"
    elif token == "returned":
        state["token"] = "player"
    return RollContext(circumstances, rank, state)


def encumbrance_for_skill(world: World, sheet: Sheet, skill_key: str) -> int:
    """'El estorbo se aplica a todas las habilidades de destreza cuando no se está en combate
    ... También se aplica al lanzamiento de hechizos'."""
    skill = sheet.skills.get(skill_key)
    if skill is None:
        return 0
    if skill.spell or (skill.attribute == "destreza" and not in_combat(world)):
        return sheet.total_encumbrance
    return 0
