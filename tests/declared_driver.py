"""The reference engine that gets and gives only the fields the JSON Schemas declare.

``--driver tests.declared_driver:DeclaredFieldsDriver``: the position is passed through
:func:`berserk_rules.harness.declared.declared_only` before the engine reads it, and every decision,
observation and log before a step sees it — so a scenario whose steps write a position field, or
read a field, a value or an event, that the schemas do not declare fails here (tests/test_declared_fields.py).
"""

from __future__ import annotations

from typing import Any, ClassVar

from berserk_rules.harness import declared, messages
from berserk_rules.reference.driver import ReferenceDriver


class DeclaredFieldsDriver(ReferenceDriver):
    name: ClassVar[str] = "эталонный движок: только объявленные поля"

    def start(self, setup: dict[str, Any]) -> None:
        super().start(declared.declared_only(messages.START.request + "/properties/position", setup))

    def decision(self) -> dict[str, Any] | None:
        return declared.declared_only(messages.DECISION.reply, super().decision())

    def observe(self, player: str | None) -> dict[str, Any]:
        return declared.declared_only(messages.OBSERVE.reply, super().observe(player))

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return declared.declared_only(messages.LOG.reply, super().log(player))
