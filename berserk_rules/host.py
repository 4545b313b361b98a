"""``python -m berserk_rules.host module:Class``: any Python driver as an engine process.

The pytest plugin runs every driver out of process by default (``--berserk-isolation process``):
a driver class (``--berserk-driver``) is served by this host over the same NDJSON protocol as an
engine in another language (``--berserk-engine``), so a crash (segfault, ``os.abort``,
``os._exit``) or a hang inside the driver is one scenario's error, never the end of the run. The
request loop and dispatch are the reference engine's (:mod:`berserk_engine.serve`).
"""

from __future__ import annotations

import sys
from typing import Any

from berserk_engine.serve import Session, serve

from berserk_rules.contract import is_plain, json_problems
from berserk_rules.driver import Driver, Rejected, SetupRejected


def _plain(value: Any, method: str) -> Any:
    """``value`` if it is plain JSON; otherwise an error naming the field (NaN, a set, a key 1 …)."""
    if is_plain(value):  # the quick test; the detailed one says what is wrong
        return value
    problems = json_problems(value)
    if problems:
        raise ValueError(f"{method}: " + "; ".join(problems[:3]))
    return value


class DriverSession(Session):
    """A protocol session over a :class:`~berserk_rules.driver.Driver` instance per game."""

    def __init__(self, driver_class: type[Driver]) -> None:
        super().__init__()
        self.driver_class = driver_class
        self.name = driver_class.name
        self.version = driver_class.version
        self.language = "Python"
        self.capabilities = {}  # type: ignore[misc]
        self.driver: Driver | None = None

    def start(self, position: dict[str, Any]) -> None:
        if self.driver is not None:
            self.driver.close()
        self.driver = self.driver_class()
        self.driver.serve_over_wire()  # every argument parsed afresh, every answer serialised at once
        self.game = self.driver  # marks the game as started for the dispatch
        self.driver.start(position)

    def decision(self) -> dict[str, Any] | None:
        return _plain(self._game().decision(), "decision()")

    def act(self, player: str, action: dict[str, Any]) -> None:
        self._game().act(player, action)

    def observe(self, viewer: str | None) -> dict[str, Any]:
        return _plain(self._game().observe(viewer), f"observe({viewer})")

    def log(self, viewer: str | None) -> list[dict[str, Any]]:
        return _plain(self._game().log(viewer), f"log({viewer})")

    def refusal(self, exc: Exception) -> dict[str, Any] | None:
        if isinstance(exc, Rejected):
            return {"kind": "rejected", "rule": exc.rule, "message": exc.message}
        if isinstance(exc, SetupRejected):
            return {"kind": "setup_rejected", "message": str(exc)}
        return None


def main(argv: list[str] | None = None) -> int:
    from berserk_rules.driver import resolve_driver
    from berserk_rules.errors import UserError

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("использование: python -m berserk_rules.host модуль:Класс", file=sys.stderr)
        return 2
    try:
        driver_class = resolve_driver(args[0])
    except UserError as exc:
        print(f"berserk_rules.host: {exc}", file=sys.stderr)
        return 2
    return serve(DriverSession(driver_class))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
