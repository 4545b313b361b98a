"""A condition comparing the creatures of the two players, as printed cards state it (issue 29): «Найм: если у
противника больше существ, чем у вас, возьмите карту», «Пока у вас меньше существ, чем у противника, это
существо имеет +1 к удару».

* :class:`CreatureCountTest` — the creatures in the game zone (202.2) under the control of the ability's
  controller against those under his opponent's: «больше» or «меньше». The game zone is open to both
  players, so the condition is a fact of the game, never a decision. «у противника больше существ, чем у
  вас» is the same condition as «у вас меньше существ, чем у противника» (interpretation I-120).

It stands where a condition on the hands stands (:class:`~berserk_engine.conditions.Provided`, «если …,
…» before or after the effect, looked at on resolution; :class:`~berserk_engine.conditions.WhileBonus`,
«Пока …, …»): both ask only ``holds(game, player)`` and ``words``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.game import Game

# the kinds of :class:`CreatureCountTest`, with the engine's canonical words for each
COUNT_TESTS = {
    "more": "у вас больше существ, чем у противника",
    "less": "у вас меньше существ, чем у противника",
}
COUNT_FORMS = {kind: (words, words, "I-120") for kind, words in COUNT_TESTS.items()}


def creatures_of(game: Game, player: str) -> int:
    """The creatures in the game zone under ``player``'s control."""
    s = game.state
    return sum(
        1 for c in s.play if s.cards[c].controller == player and s.cards[c].definition.type == "creature"
    )


@dataclass(frozen=True, slots=True)
class CreatureCountTest:
    """The controller's creatures against the opponent's (``kind``: "more" | "less", seen from ``player``)."""

    kind: str

    def holds(self, game: Game, player: str) -> bool:
        mine, theirs = creatures_of(game, player), creatures_of(game, game.opponent(player))
        return mine > theirs if self.kind == "more" else mine < theirs

    @property
    def words(self) -> str:
        return COUNT_TESTS[self.kind]


serializable(CreatureCountTest)
