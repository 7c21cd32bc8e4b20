"""Which rule systems this build knows, by id."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.system import RuleSystem


class Registry:
    def __init__(self, systems: Iterable[RuleSystem]) -> None:
        self._systems: dict[str, RuleSystem] = {}
        for system in systems:
            if system.id in self._systems:
                raise ValueError(f"two systems share the id {system.id!r}")
            self._systems[system.id] = system

    def get(self, system_id: str) -> RuleSystem:
        try:
            return self._systems[system_id]
        except KeyError:
            known = ", ".join(sorted(self._systems))
            raise KeyError(f"unknown system {system_id!r} (known: {known})") from None

    def __contains__(self, system_id: object) -> bool:
        return system_id in self._systems

    @property
    def systems(self) -> Mapping[str, RuleSystem]:
        return dict(self._systems)


def default_registry() -> Registry:
    """Every system shipped with the bridge."""
    from rules.brp_d10 import SYSTEM as BRP_D10
    from rules.cunchillos import SYSTEM as CUNCHILLOS
    from rules.o3d10 import SYSTEM as O3D10
    from rules.omerta import SYSTEM as OMERTA
    from rules.savage_worlds import SYSTEM as SAVAGE_WORLDS

    return Registry([OMERTA, BRP_D10, CUNCHILLOS, O3D10, SAVAGE_WORLDS])
