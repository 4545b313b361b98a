"""The resolution stack: the game is a stack of small tasks, run one at a time until a player must
decide (issue: «resolution can pause and resume»).

A task is a registered dataclass (so the stack is part of the state and survives a snapshot) with
``run(game)``. A task that needs a player's answer calls :meth:`Game.ask` — the task goes back on the
stack and the game stops with a pending decision; the answer reaches the same task's ``answer``,
which continues exactly where it stopped. The turn (Part 3), the Queue (Part 4), the strike attack and
every effect of card text are tasks: nothing inside the engine waits for a player in any other way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.game import Game


class Task:
    """Base class of the tasks of the resolution stack."""

    __slots__ = ()

    def run(self, game: Game) -> None:  # pragma: no cover - every task overrides it
        raise NotImplementedError

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:  # pragma: no cover
        raise AssertionError(f"{type(self).__name__} asked nothing")


def task(*classes: type) -> None:
    """Register task classes (dataclasses) for snapshots. Called after the classes, not used as a
    decorator: compiled (``berserk-rules compile``), a decorated class would not be a native class."""
    serializable(*classes)
