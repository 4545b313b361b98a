"""Choices a player makes while an ability resolves: which cards (to discard, to search, to summon).

:class:`ChooseCards` asks the player (decision ``choose_cards``: the candidates and how many to choose)
and hands the answer to the task that continues the ability (its ``cards`` field).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions
from berserk_engine.actions import ActionKind, matches
from berserk_engine.errors import IllegalAction
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game


@task
@dataclass(slots=True)
class ChooseCards(Task):
    player: str
    candidates: list[str]
    min: int
    max: int
    rule: str
    prompt: str
    then: Any  # a task with a ``cards`` field

    def options(self, game: Game) -> list[dict[str, Any]]:
        return [
            {"type": "choose_cards", "candidates": list(self.candidates), "min": self.min, "max": self.max}
        ]

    def run(self, game: Game) -> None:
        game.ask(self, self.player, "choose_cards", self.rule, self.prompt, self.options(game))

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        self.then.cards = list(action["cards"])
        game.push(self.then)


@task
@dataclass(slots=True)
class Choose(Task):
    """A choice among named alternatives (decision ``choose``): ``choices`` are [key, label] pairs;
    the chosen key goes to the task that continues (its ``choice`` field)."""

    player: str
    choices: list[list[str]]
    rule: str
    prompt: str
    then: Any  # a task with a ``choice`` field

    def options(self, game: Game) -> list[dict[str, Any]]:
        return [{"type": "choose", "choice": key, "label": label} for key, label in self.choices]

    def run(self, game: Game) -> None:
        game.ask(self, self.player, "choose", self.rule, self.prompt, self.options(game))

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        self.then.choice = action["choice"]
        game.push(self.then)


# --- the action kinds of these decisions -----------------------------------------------------------


def _pending_options(kind: str) -> Any:
    def options(game: Game, player: str) -> list[dict[str, Any]]:
        pending = game.state.pending or {}
        return [o for o in pending.get("options", []) if o["type"] == kind]

    return options


def _check(kind: str, words: str) -> Any:
    def check(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
        pending = game.state.pending or {}
        if any(matches(o, action) for o in pending.get("options", []) if o["type"] == kind):
            return None
        return IllegalAction(pending.get("rule", "518.1"), f"{words}: {action!r}")

    return check


def _answered_by_task(game: Game, player: str, action: dict[str, Any]) -> None:
    """The asking task (ChooseCards, Choose, Perform) applies the answer itself."""


actions.register(
    ActionKind(
        "choose_cards",
        "выбор карт",
        _pending_options("choose_cards"),
        _check("choose_cards", "такого выбора карт нет среди законных (карты и их число)"),
        _answered_by_task,
    )
)
actions.register(
    ActionKind(
        "choose",
        "выбор варианта",
        _pending_options("choose"),
        _check("choose", "такого варианта нет среди предложенных"),
        _answered_by_task,
    )
)
