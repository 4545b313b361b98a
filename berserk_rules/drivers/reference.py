"""The reference engine's driver under its public name: ``berserk_rules.drivers.reference:ReferenceDriver``
is the default ``--driver``, the name results files record (``engine.driver``) and the one engine
authors' configurations use. The driver itself is :mod:`berserk_rules.reference.driver`."""

from __future__ import annotations

from berserk_rules.reference.driver import ReferenceDriver

__all__ = ["ReferenceDriver"]
