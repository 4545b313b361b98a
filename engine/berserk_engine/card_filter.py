"""Which cards a summon, a resurrection or a free play may take: the printed words of a card outside the
game zone — «существо», «существо стоимостью 3 или меньше», «гнома», «гнома стоимостью 2 или меньше»,
«существо класса гном» (a creature's classes are printed on the card, ``CardDef.classes``).

Cards in a deck, a graveyard, a hand or a sideboard are not targets (only cards in the game zone are,
202.2): the player chooses among the cards that fit when the effect resolves (or, for a summon from the
deck, when it is declared, 517.3.1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from berserk_engine.abilities import class_stem
from berserk_engine.data import serializable
from berserk_engine.grammar import TYPE_WORDS, TYPES

if TYPE_CHECKING:
    from berserk_engine.game import Game

# A class word in the accusative («гнома», «эльфа»): one word that is not a type of card nor a pronoun.
_CLASS = r"(?!существ|персонаж|геро|карт|экипировк|заклинани|противник|(?:его|её|ее|их)\b)[а-яё]+"
_PATTERN = rf"(?:существо(?: класса {_CLASS})?|{_CLASS})(?: стоимостью \d{{1,2}} или меньше)?"
_WORDS = re.compile(
    rf"(?:(существо)|(существо) класса ({_CLASS})|({_CLASS}))(?: стоимостью (\d{{1,2}}) или меньше)?",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Wanted:
    """A creature, of a class or not, with a cost of at most ``max_cost`` or any (minimal cost,
    interpretation I-36). ``words``: as printed."""

    classes: tuple[str, ...] = ()
    max_cost: int | None = None
    words: str = ""

    def fits(self, game: Game, card_id: str) -> bool:
        d = game.defs[game.state.cards[card_id].name]
        if d.type != "creature":
            return False
        if self.classes and not set(self.classes) & set(d.classes):
            return False
        return self.max_cost is None or d.cost <= self.max_cost

    def __str__(self) -> str:  # the engine's canonical words of the slot (grammar.canonical_words)
        return self.words


def wanted(words: str) -> Wanted | None:
    """The printed words of the wanted card → what it must be, or None when they name no such card."""
    text = words.strip()
    m = _WORDS.fullmatch(text)
    if m is None:
        return None
    cost = int(m.group(5)) if m.group(5) is not None else None
    if m.group(1):
        return Wanted((), cost, text)
    word = m.group(3) or m.group(4)
    return Wanted((class_stem(word),), cost, text)


class _Slot:
    """The converter of the slot: a class, not a function with a ``pattern`` attribute — a compiled
    (mypyc) function takes no attributes."""

    pattern = _PATTERN

    def __call__(self, text: str) -> Wanted:
        found = wanted(text)
        assert found is not None  # the slot's pattern admits only such words
        return found


# A typed slot of the grammar: {w:Wanted} — the words of a wanted card (an error names them as a value).
TYPES["Wanted"] = _Slot()
TYPE_WORDS["Wanted"] = (
    "какая карта: «существо», «существо стоимостью 2 или меньше», класс — «гнома», «существо класса гном»"
)

serializable(Wanted)
