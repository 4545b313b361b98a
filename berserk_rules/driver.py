"""The driver interface under its public name, ``berserk_rules.driver`` — the import path of
Python drivers written for suite 1.1.0 and earlier. The interface itself is
:mod:`berserk_rules.harness.driver`, where the suite's own code imports it from."""

from __future__ import annotations

from berserk_rules.harness.driver import (
    DEFAULT_DRIVER,
    Driver,
    EngineFailure,
    Rejected,
    SetupRejected,
    Unsupported,
    resolve_driver,
)

__all__ = [
    "DEFAULT_DRIVER",
    "Driver",
    "EngineFailure",
    "Rejected",
    "SetupRejected",
    "Unsupported",
    "resolve_driver",
]
