"""Choices a player makes while an ability resolves: which cards (to discard, to search, to summon).

:class:`ChooseCards` asks the player (decision ``choose_cards``: the candidates and how many to choose)
and hands the answer to the task that continues the ability (its ``cards`` field).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import actions
from berserk_engine.actions import ActionKind
from berserk_engine.errors import IllegalAction
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game


def choose_cards_options(
    game: Game, player: str, candidates: list[str], least: int, most: int
) -> list[dict[str, Any]]:
    """The one option of a choice of cards. ``about.cards`` shows the candidates to the deciding
    player (and only to him: the other player's observation of a decision has no options) — so a
    player who looks through his closed deck sees the cards he chooses from (204.2)."""
    from berserk_engine.observation import card_view

    s = game.state
    return [
        {
            "type": "choose_cards",
            "candidates": list(candidates),
            "min": least,
            "max": most,
            "about": {"cards": [card_view(game, s.cards[c], player) for c in candidates]},
        }
    ]


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
        return choose_cards_options(game, self.player, self.candidates, self.min, self.max)

    def run(self, game: Game) -> None:
        game.ask(self, self.player, "choose_cards", self.rule, self.prompt, self.options(game))

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        self.then.cards = list(action["cards"])
        game.push(self.then)


def _choose_options(game: Game, player: str) -> list[dict[str, Any]]:
    task = game.state.stack[-1] if game.state.stack else None
    return task.options(game) if isinstance(task, ChooseCards) else []


def _check_choose(game: Game, player: str, action: dict[str, Any]) -> IllegalAction | None:
    task = game.state.stack[-1] if game.state.stack else None
    if not isinstance(task, ChooseCards):
        return IllegalAction("518.1", "сейчас не нужно выбирать карты")
    cards = action.get("cards")
    if set(action) != {"type", "cards"} or not isinstance(cards, list):
        return IllegalAction(task.rule, "выбор карт — это список id карт в поле cards")
    if len(set(cards)) != len(cards) or any(c not in task.candidates for c in cards):
        return IllegalAction(task.rule, f"выбрать можно только разные карты из предложенных: {cards!r}")
    if not task.min <= len(cards) <= task.max:
        count = task.min if task.min == task.max else f"от {task.min} до {task.max}"
        return IllegalAction(task.rule, f"нужно выбрать карт: {count}, выбрано {len(cards)}")
    return None


def _chosen(game: Game, player: str, action: dict[str, Any]) -> None:
    """ChooseCards applies the answer itself."""


actions.register(ActionKind("choose_cards", "выбор карт", _choose_options, _check_choose, _chosen))


@dataclass(slots=True)
class Choose(Task):
    """A choice among named alternatives (decision ``choose``, action kind registered in ``events``):
    ``choices`` are [key, label] pairs; the chosen key goes to the task that continues (its ``choice``
    field)."""

    player: str
    choices: list[list[str]]
    rule: str
    prompt: str
    then: Any  # a task with a ``choice`` field

    def choice_keys(self, game: Game) -> list[str]:
        return [key for key, _ in self.choices]

    def options(self, game: Game) -> list[dict[str, Any]]:
        return [{"type": "choose", "choice": key, "label": label} for key, label in self.choices]

    def run(self, game: Game) -> None:
        game.ask(self, self.player, "choose", self.rule, self.prompt, self.options(game))

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        self.then.choice = action["choice"]
        game.push(self.then)


task(ChooseCards, Choose)
