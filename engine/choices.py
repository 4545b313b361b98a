"""Choices a player makes while an ability resolves: which cards (to discard, to search, to summon).

:class:`ChooseCards` asks the player (decision ``choose_cards``: the candidates and how many to choose)
and hands the answer to the task that continues the ability (its ``cards`` field).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
        return choose_cards_options(game, self.player, self.candidates, self.min, self.max)

    def run(self, game: Game) -> None:
        game.ask(self, self.player, "choose_cards", self.rule, self.prompt, self.options(game))

    def answer(self, game: Game, player: str, action: dict[str, Any]) -> None:
        self.then.cards = list(action["cards"])
        game.push(self.then)
