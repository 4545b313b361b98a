"""«Выберите класс, ваши существа этого класса получают +1 к удару до конца хода»: the player names a
class of creatures when the ability resolves, and the parts after it act on the creatures of that class
(«… этого класса»).

Interpretation I-65: the rules list no classes (they are printed on the cards), so the options of the
choice are the classes printed on the creatures of the game's card list — every class a card of this
game has, whether or not a creature of it is in play; the choice is a decision ``choose`` of the
ability's controller, one option per class. With no class in the game nothing happens.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine.abilities import Selector
from berserk_engine.choices import Choose
from berserk_engine.data import serializable
from berserk_engine.grammar import CHOSEN_CLASS, NODES
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem


def game_classes(game: Game) -> dict[str, str]:
    """Every class printed on a creature of the game's card list: its stem → the word as printed (the
    first card's, by the card list's order), in alphabetical order of the words."""
    words: dict[str, str] = {}
    for d in game.defs.values():
        if d.type != "creature":  # a class on a spell or an event is not a creature's (I-70)
            continue
        for stem, word in zip(d.classes, d.class_words or d.classes, strict=False):
            words.setdefault(stem, word)
    return dict(sorted(words.items(), key=lambda item: item[1]))


def with_class(node: Any, stem: str) -> Any:
    """The effect with «этого класса» standing for ``stem``."""
    if isinstance(node, Selector):
        if CHOSEN_CLASS in node.classes:
            return dataclasses.replace(node, classes=(stem,))
        return node
    if isinstance(node, tuple):
        return tuple(with_class(v, stem) for v in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.replace(
            node, **{f.name: with_class(getattr(node, f.name), stem) for f in dataclasses.fields(node)}
        )
    return node


@dataclass(frozen=True, slots=True)
class ChooseClass:
    """«Выберите класс, [эффект]»: the player chooses a class, then the effect acts with it."""

    then: Any

    def run(self, game: Game, item: QueueItem) -> None:
        classes = game_classes(game)
        if not classes:
            game.log("class_none", "Выбрать класс не из чего: у карт игры нет классов", rule="518.1")
            return
        player = item.controller
        game.push(
            Choose(
                player,
                [[stem, word] for stem, word in classes.items()],
                "выбранное-существо-карта",
                f"Игрок {player}: «{item.source_name}» — выберите класс",
                ClassChosen(self.then, item),
            )
        )


@dataclass(slots=True)
class ClassChosen(Task):
    then: Any
    item: QueueItem
    choice: str = ""

    def run(self, game: Game) -> None:
        from berserk_engine.effects import Resolve

        word = game_classes(game).get(self.choice, self.choice)
        game.log(
            "class_chosen",
            f"Игрок {self.item.controller} выбирает класс «{word}»",
            player=self.item.controller,
            rule="выбранное-существо-карта",
        )
        game.push(Resolve(with_class(self.then, self.choice), self.item))


NODES["class_choice"] = ChooseClass
serializable(ChooseClass)
task(ClassChosen)
