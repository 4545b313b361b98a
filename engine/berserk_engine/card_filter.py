"""Which cards a summon, a resurrection or a free play may take: the printed words of a card outside the
game zone — «существо», «существо стоимостью 3 или меньше», «гнома», «гнома стоимостью 2 или меньше»,
«существо класса гном» (a creature's classes are printed on the card, ``CardDef.classes``).

Cards in a deck, a graveyard, a hand or a sideboard are not targets (only cards in the game zone are,
202.2): the player chooses among the cards that fit when the effect resolves (or, for a summon from the
deck, when it is declared, 517.3.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine.data import serializable

if TYPE_CHECKING:
    from berserk_engine.game import Game


@dataclass(frozen=True, slots=True)
class Wanted:
    """A creature, of a class or not, with a cost of at most ``max_cost`` or any (minimal cost,
    interpretation I-36). ``words``: as printed."""

    classes: tuple[str, ...] = ()
    max_cost: int | None = None
    words: str = ""

    def fits(self, game: Game, card_id: str) -> bool:
        d = game.state.cards[card_id].definition
        if d.type != "creature":
            return False
        if self.classes and not set(self.classes) & set(d.classes):
            return False
        return self.max_cost is None or d.cost <= self.max_cost

    def __str__(self) -> str:  # the canonical words of the slot {w:Wanted} (grammar.canonical_words)
        return self.words


serializable(Wanted)
