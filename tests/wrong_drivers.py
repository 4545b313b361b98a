"""Engines wrong in one small way each, where only the vector checks on options, abilities and the
log look: the reference engine behind a driver that hides or forgets something (the game itself
still plays by the rules, so every action is accepted as before)."""

from __future__ import annotations

from typing import Any, ClassVar

from berserk_rules.reference.driver import ReferenceDriver


class NoDefenders(ReferenceDriver):
    """Wrong: never offers a defender (the underlying game still accepts one)."""

    def decision(self) -> dict[str, Any] | None:
        return _without_defenders(super().decision())

    def observe(self, player: str | None) -> dict[str, Any]:
        view = super().observe(player)
        view["decision"] = _without_defenders(view["decision"])
        return view


def _without_defenders(decision: dict[str, Any] | None) -> dict[str, Any] | None:
    if decision and "options" in decision:
        decision["options"] = [o for o in decision["options"] if o["type"] != "defend"]
    return decision


class NoArmour(ReferenceDriver):
    """Wrong: its card views forget «Броня»."""

    def observe(self, player: str | None) -> dict[str, Any]:
        view = super().observe(player)
        for card in view["play"]:
            card["abilities"] = [a for a in card.get("abilities", []) if not a.startswith("Броня")]
        return view


class SilentPrevention(ReferenceDriver):
    """Wrong: its log does not say that wounds were prevented."""

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return [e for e in super().log(player) if e["event"] != "prevented"]


WRONG = (NoDefenders, NoArmour, SilentPrevention)


class NoDeckRequest(ReferenceDriver):
    """Plays every game, but does not declare the optional ``deck`` request: the deck list scenarios
    are not applicable to it (and nothing else changes)."""

    capabilities: ClassVar[dict[str, Any]] = {}
