"""Эффект замещения — «ожидает применения конкретного эффекта и заменяет его другим» — as card text.

The sources give replacement effects no wording of their own beyond «Защита от [текст]» (a keyword of
the glossary); the engine reads a constant ability of the form (interpretation I-44)::

    Если <кто> должен (должно) получить раны, вместо этого их получает <кто-то другой>.
    Если <кто> должен (должно) получить раны, вместо этого <эффект>.

where <кто> is «это существо», «ваш герой», «ваше существо», «существо противника» or «герой
противника» (relative to the card's controller), and <эффект> any effect without a chosen target
(«ранить на 1 героя противника», «возьмите карту» …). The wounds an effect is about to deal are
replaced at the moment they would be dealt — when the ability resolves (5.замещение.1); the pipeline
(``events.Perform``) lets the player choose among his replacements (5.замещение.2), the active player
among both players' (5.замещение.3), and replaces the result again by another replacement
(5.замещение.4). Wounds of a payment that are replaced leave the payment incomplete (501.2.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine import hooks, selectors
from berserk_engine.abilities import Selector
from berserk_engine.data import serializable
from berserk_engine.events import Replacement, WoundEvent
from berserk_engine.keywords import term
from berserk_engine.state import QueueItem

if TYPE_CHECKING:
    from berserk_engine.cards import CardDef
    from berserk_engine.game import Game
    from berserk_engine.state import Card

term(__name__, "эффект-замещения")


@dataclass(frozen=True, slots=True)
class ReplaceWounds:
    """A replacement of the wounds ``subject`` is about to take: by the same wounds to ``redirect``
    («вместо этого их получает …»), or by the events of ``instead`` («вместо этого …»)."""

    subject: str
    redirect: Selector | None = None
    instead: Any = None

    def matches(self, game: Game, card: Card, target: Card) -> bool:
        s = game.state
        kind = target.definition.type
        mine = card.controller
        if self.subject == "self":
            return target.id == card.id
        if self.subject == "own_hero":
            return target.id == s.players[mine].hero
        if self.subject == "enemy_hero":
            return target.id == s.players[game.opponent(mine)].hero
        if self.subject == "own_creature":
            return kind == "creature" and target.controller == mine
        return kind == "creature" and target.controller != mine  # enemy_creature

    def replace(self, game: Game, card_id: str, text: str, event: WoundEvent) -> list[Any]:
        s = game.state
        card = s.cards[card_id]
        item = QueueItem(
            id="", kind="static", controller=card.controller, source=card.id, source_name=card.name, text=text
        )
        if self.redirect is not None:
            return [
                WoundEvent(
                    target,
                    event.amount,
                    event.source,
                    event.source_name,
                    attack=event.attack,
                    blow=event.blow,
                    ability=event.ability,
                )
                for target in selectors.resolve(game, self.redirect, item)
            ]
        return self.instead.events(game, item)


def _replacing(d: CardDef) -> bool:
    return any(isinstance(a.effect, ReplaceWounds) for a in d.abilities)


def _replacements(game: Game, event: Any) -> list[Replacement]:
    if type(event) is not WoundEvent:
        return []
    names = game.defs_with("replace-wounds", _replacing)
    if not names:
        return []
    s = game.state
    target = s.cards.get(event.target)
    if target is None or target.zone != "play":
        return []
    found = []
    for card_id in s.play:
        card = s.cards[card_id]
        if card.name not in names or card.face_down:
            continue
        for a in ch.abilities(game, card):
            node = a.effect
            if not isinstance(node, ReplaceWounds) or not node.matches(game, card, target):
                continue
            found.append(
                Replacement(
                    f"{card.serial}:{a.text}",
                    card.controller,
                    f"«{card.name}»: {a.text}",
                    _bound(node, card.id, a.text),
                    source=card.id,
                    source_name=card.name,
                    ability=a.text,
                )
            )
    return found


def _bound(node: ReplaceWounds, card_id: str, text: str) -> Any:
    return lambda game, event: node.replace(game, card_id, text, event)


hooks.set_relevant(_replacements, lambda game: bool(game.defs_with("replace-wounds", _replacing)))
hooks.REPLACEMENTS.append(_replacements)


serializable(ReplaceWounds)
