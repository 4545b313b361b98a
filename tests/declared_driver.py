"""The reference engine whose answers keep only the fields the JSON Schemas declare.

``--driver tests.declared_driver:DeclaredFieldsDriver``: every decision, observation and log is passed
through :func:`berserk_rules.contract.declared_only` before a step sees it, so a scenario that reads a
field, a value or an event the schemas do not declare fails here (tests/test_declared_fields.py).
"""

from __future__ import annotations

from typing import Any, ClassVar

from berserk_rules import contract, messages
from berserk_rules.drivers.reference import ReferenceDriver


class DeclaredFieldsDriver(ReferenceDriver):
    name: ClassVar[str] = "эталонный движок: только объявленные поля"

    def decision(self) -> dict[str, Any] | None:
        return contract.declared_only(messages.DECISION.reply, super().decision())

    def observe(self, player: str | None) -> dict[str, Any]:
        return contract.declared_only(messages.OBSERVE.reply, super().observe(player))

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return contract.declared_only(messages.LOG.reply, super().log(player))
