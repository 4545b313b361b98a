"""The reference engine (:mod:`berserk_engine`) behind the driver interface."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import berserk_engine
from berserk_engine.errors import CardTextError, IllegalAction, SetupError
from berserk_engine.game import Game
from berserk_engine.setup import new_game

from berserk_rules.harness.driver import Driver, Rejected, SetupRejected


def copied(value: Any) -> Any:
    """A copy of JSON-like data: new dicts and lists all the way down, everything else shared (the
    engine's answers share lists with its state, and the caller may change what it gets). Several
    times faster than :func:`copy.deepcopy`, which keeps a memo and dispatches on every value; a
    tuple or a set is passed on as it is, so the contract check still sees it."""
    kind = type(value)
    if kind is dict or (kind is not list and isinstance(value, dict)):
        return {key: copied(item) for key, item in value.items()}
    if kind is list or isinstance(value, list):
        return [copied(item) for item in value]
    return value


def _same(value: Any) -> Any:
    return value


class ReferenceDriver(Driver):
    name: ClassVar[str] = "berserk-rules reference engine"
    version: ClassVar[str] = berserk_engine.__version__
    # every Part, rule, term, decision and action (absent keys), and the optional deck request
    capabilities: ClassVar[dict[str, Any]] = {"requests": ["deck"]}

    def __init__(self) -> None:
        self._game: Game | None = None
        self._copy: Callable[[Any], Any] = copied

    def serve_over_wire(self) -> None:
        """Served by :mod:`berserk_rules.harness.host`: the host serialises every answer at once and parses
        every argument afresh, so the copies that keep an in-process caller away from the engine's
        state are not needed (they cost the host a walk over every observation)."""
        self._copy = _same

    @property
    def game(self) -> Game:
        if self._game is None:
            raise RuntimeError("игра не начата: сначала вызовите start(setup)")
        return self._game

    def start(self, setup: dict[str, Any]) -> None:
        try:
            self._game = new_game(self._copy(setup))
        except (SetupError, CardTextError) as exc:
            raise SetupRejected(str(exc)) from exc

    def decision(self) -> dict[str, Any] | None:
        d = self.game.decision()
        return self._copy(d.to_json()) if d else None

    def act(self, player: str, action: dict[str, Any]) -> None:
        try:
            self.game.act(player, self._copy(action))
        except IllegalAction as exc:
            raise Rejected(exc.rule, exc.message) from exc

    def observe(self, player: str | None) -> dict[str, Any]:
        return self._copy(self.game.observe(player))

    def log(self, player: str | None = None) -> list[dict[str, Any]]:
        return self.game.log_for(player)

    def deck(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        """The deck construction rules of the reference engine (``berserk_engine.construction``); a
        list it cannot read (a card's text, its type) is refused like a position."""
        from berserk_engine import construction

        try:
            return [p.to_json() for p in construction.check(self._copy(deck))]
        except (SetupError, CardTextError) as exc:
            raise SetupRejected(str(exc)) from exc
