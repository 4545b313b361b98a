"""«Скрытность»: «Найм: переверните карту рубашкой вверх. Существо не может быть целью атак,
заклинаний и различных особенностей, на него не действуют нецелевые особенности и заклинания; иные
особенности существа не работают. В свою фазу восстановления вы можете перевернуть его и оно может
действовать и атаковать».

The Найм is card text the grammar reads («переверните карту рубашкой вверх», the turn of
``faces.Flip``). While the card lies face down nobody may choose it as a target (``hooks.UNTARGETABLE``
here; the opponent never targets a face-down card anyway); the core treats any card lying face down
(``Card.face_down``) as not attacked, passed by «каждое …» effects, not acting, and with no ability
working but «Скрытность» (``Keyword.face_down``). In his restoration phase the controller may turn it
face up (``hooks.RESTORATION``: a decision ``choose``, «перевернуть» or «оставить»), interpretation I-32.
"""

from __future__ import annotations

from dataclasses import dataclass

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.choices import Choose
from berserk_engine.events import perform
from berserk_engine.faces import FlipEvent
from berserk_engine.keywords import keyword
from berserk_engine.tasks import Task, task

STEALTH = keyword(
    __name__,
    "скрытность",
    "Скрытность",
    "Скрытность",
    "combined",
    "Скрытность.",
    expands_to="Найм: переверните карту рубашкой вверх.",
    face_down=True,
)


@dataclass(slots=True)
class TurnFaceUp(Task):
    """The controller's answer: «перевернуть» turns the card face up, «оставить» leaves it."""

    card: str
    choice: str = ""

    def run(self, game) -> None:
        if self.choice == "перевернуть":
            perform(game, FlipEvent(self.card, face_down=False))


@hooks.needs(STEALTH.term)
def _untargetable(game, card, chooser: str, kind: str, source: str, ability) -> bool:
    """«Существо не может быть целью … заклинаний и различных особенностей» — ничьих (I-32)."""
    return card.face_down and ch.keyword(game, card, STEALTH.term) is not False


@hooks.needs(STEALTH.term)  # a game where no card can have it never asks
def _restoration(game) -> list[Task]:
    s = game.state
    tasks: list[Task] = []
    for card_id in s.play:
        card = s.cards[card_id]
        if card.face_down and card.controller == s.active and ch.keyword(game, card, STEALTH.term):
            tasks.append(
                Choose(
                    s.active,
                    [
                        ["перевернуть", f"перевернуть «{card.name}» лицом вверх"],
                        ["оставить", f"оставить «{card.name}» рубашкой вверх"],
                    ],
                    STEALTH.term,
                    f"Игрок {s.active}: перевернуть «{card.name}» лицом вверх?",
                    TurnFaceUp(card_id),
                )
            )
    return tasks


hooks.RESTORATION.append(_restoration)
hooks.UNTARGETABLE.append(_untargetable)

task(TurnFaceUp)
