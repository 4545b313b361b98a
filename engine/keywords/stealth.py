"""«Скрытность»: «Найм: переверните карту рубашкой вверх. Существо не может быть целью атак,
заклинаний и различных особенностей, на него не действуют нецелевые особенности и заклинания; иные
особенности существа не работают. В свою фазу восстановления вы можете перевернуть его и оно может
действовать и атаковать».

The Найм is card text the grammar reads («переверните карту рубашкой вверх»). The rest is the core's
treatment of a card lying face down (``Card.face_down``): it is never a target (selectors, the targets
of an attack), «каждое …» effects pass it by, it does not act, and its abilities other than
«Скрытность» do not work (``Keyword.face_down``). In his restoration phase the controller may turn it
face up (``hooks.RESTORATION``: a decision ``choose``, «перевернуть» or «оставить»), interpretation I-32.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.choices import Choose
from berserk_engine.effects import SELF, effect
from berserk_engine.events import FlipEvent, perform
from berserk_engine.grammar import phrase
from berserk_engine.keywords import keyword
from berserk_engine.tasks import Task, task

STEALTH = keyword(
    "скрытность",
    "Скрытность",
    "Скрытность",
    "combined",
    "Скрытность.",
    expands_to="Найм: переверните карту рубашкой вверх.",
    face_down=True,
)


@effect
class FaceDown:
    """Переверните карту рубашкой вверх."""

    target: Any

    def run(self, game, item) -> None:
        from berserk_engine import selectors

        targets = selectors.resolve(game, self.target, item)
        if targets:
            perform(game, *(FlipEvent(t, face_down=True) for t in targets))


@phrase("effect", "переверните карту рубашкой вверх", "переверните карту рубашкой вверх", STEALTH.term)
def _face_down(f: dict[str, Any]) -> FaceDown:
    return FaceDown(SELF)


@task
@dataclass(slots=True)
class TurnFaceUp(Task):
    """The controller's answer: «перевернуть» turns the card face up, «оставить» leaves it."""

    card: str
    choice: str = ""

    def run(self, game) -> None:
        if self.choice == "перевернуть":
            perform(game, FlipEvent(self.card, face_down=False))


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
