"""The card language as the game prints it: imperatives («Закройте существо», «Верните существо в
руку»), the other word order («Ранить всех существ на 1», «ранить его на 2»), a shot at a fixed target
(«Выстрел на 1 по герою противника»), «Отравление 2» beside «Отравление на 2», «выберите …» naming a
target that «его», «оно» refer to later, and the infinitives of a payment inside an effect («вы можете
сбросить карту, чтобы …»).

The phrases build the same effect nodes as the rulebook's own wording (:mod:`berserk_engine.effects`):
a printed form and the glossary's form of one mechanic are one reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from berserk_engine.abilities import Selector
from berserk_engine.data import serializable
from berserk_engine.effects import Close, Discard, Sequence
from berserk_engine.tasks import Task, task

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem


@dataclass(frozen=True, slots=True)
class Pick:
    """«Выберите [цель]»: names a target at the declaration (501.1) and does nothing by itself; the
    parts after it act on it through «его», «оно»."""

    target: Selector

    def run(self, game: Game, item: QueueItem) -> None:
        return None


# --- a payment inside an effect: infinitives -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InOrderTo:
    """«[оплата], чтобы [эффект]»: a payment inside an effect. The payment is made first; the effect
    after «чтобы» is done only when the payment can be made in full (a discard needs the cards in
    hand, closing this creature needs it open) — interpretation I-55. With «вы можете» before it the
    controller decides whether to pay."""

    cost: Any
    then: Any

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.effects import Resolve

        if not can_pay(game, item, self.cost):
            game.log(
                "unpaid",
                f"«{item.source_name}»: оплату «{item.text}» внести нельзя — "
                "эффект после «чтобы» не выполняется",
                card=item.source,
                rule="501.2",
            )
            return
        game.push(Resolve(self.cost, item), Resolve(self.then, item))


def can_pay(game: Game, item: QueueItem, cost: Any) -> bool:
    """Can the payment inside an effect be made in full now?"""
    if isinstance(cost, Sequence):
        return all(can_pay(game, item, p) for p in cost.parts)
    if isinstance(cost, Discard):
        player = game.opponent(item.controller) if cost.opponent else item.controller
        return len(game.state.players[player].zones["hand"]) >= cost.count
    if isinstance(cost, Close) and cost.target.mode == "self":
        card = game.state.cards.get(item.source)
        return card is not None and card.zone == "play" and card.closed == cost.open
    return True


# --- «; если …, …», «иначе»: on the result of what came before ------------------------------------------


@dataclass(frozen=True, slots=True)
class Test:
    """A condition on a card the ability spoke of before («если оно погибло», «если это гном»).
    ``kind``: "died" (it is in a graveyard, or its wounds reach its lives — it dies at the next death
    check, I-57), "class:<stem>", "closed", "open", "poisoned", "wounded"."""

    kind: str
    target: Selector

    def holds(self, game: Game, item: QueueItem) -> bool:
        from berserk_engine import selectors

        if self.kind == "died":
            card_id = _slot_card(item, self.target)
            card = game.state.cards.get(card_id or "")
            if card is None:
                return False
            if card.zone == "graveyard":
                return True
            if card.zone != "play":
                return False
            from berserk_engine import characteristics as ch

            return card.definition.type == "creature" and card.wounds >= ch.life(game, card)
        if self.target.mode == "top":  # the card shown from the top of the deck
            deck = game.state.players[item.controller].zones["deck"]
            found = deck[:1]
        else:
            found = selectors.resolve(game, self.target, item)
        if not found:
            return False
        card = game.state.cards[found[0]]
        if self.kind.startswith("type:"):
            return card.definition.type == self.kind[5:]
        if self.kind.startswith("class:"):
            d = card.definition  # «если это гном»: a creature of the class (I-70)
            return d.type == "creature" and selectors.of_class(d.classes, (self.kind[6:],))
        condition = replace(self.target, condition=self.kind, classes=())
        from berserk_engine.selectors import _fits

        return _fits(game, card, condition)


def _slot_card(item: QueueItem, sel: Selector) -> str | None:
    if sel.mode in ("chosen", "ref") and 0 <= sel.slot < len(item.targets):
        return item.targets[sel.slot]
    if sel.mode == "self":
        return item.source
    return None


@dataclass(frozen=True, slots=True)
class If:
    """«[эффект]; если [условие], [эффект]» (and «…, иначе [эффект]»): the condition is looked at
    when the part before it has been done."""

    first: Any
    test: Test
    then: Any
    otherwise: Any = None

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.effects import Resolve

        game.push(Resolve(self.first, item), _Decide(self.test, self.then, self.otherwise, item))


@dataclass(slots=True)
class _Decide(Task):
    test: Test
    then: Any
    otherwise: Any
    item: QueueItem

    def run(self, game: Game) -> None:
        from berserk_engine.effects import Resolve

        part = self.then if self.test.holds(game, self.item) else self.otherwise
        if part is not None:
            game.push(Resolve(part, self.item))


# --- «где Х – …» ----------------------------------------------------------------------------------


# --- the deck: a printed search, the revealed top card ---------------------------------------------


@dataclass(frozen=True, slots=True)
class FindInDeck:
    """«Найдите в своей колоде [что] и возьмите его (её) в руку» — Поиск in printed words: by the type
    «существо», by a class («гнома»), by cost («стоимостью N или меньше»), by name. The player may take
    nothing (the glossary: «можно их не искать»); then the deck is not shuffled (I-57)."""

    types: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    max_cost: int | None = None
    name: str | None = None
    words: str = ""

    def fits(self, game: Game, card_id: str) -> bool:
        from berserk_engine import selectors

        card = game.state.cards[card_id]
        d = card.definition
        if self.name is not None and card.name != self.name:
            return False
        if self.types and d.type not in self.types:
            return False
        if self.classes and not selectors.of_class(d.classes, self.classes):
            return False
        return self.max_cost is None or d.cost <= self.max_cost

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.choices import ChooseCards
        from berserk_engine.deck import SearchChosen

        player = item.controller
        deck = game.state.players[player].zones["deck"]
        found = [c for c in deck if self.fits(game, c)]
        game.log(
            "search",
            f"Игрок {player} просматривает колоду: поиск {self.words}",
            player=player,
            rule="поиск-карта-карты",
        )
        then = SearchChosen(player)
        if not found:
            game.push(then)
            return
        game.push(
            ChooseCards(
                player,
                found,
                0,
                1,
                "поиск-карта-карты",
                f"Игрок {player}: выберите в колоде карту для поиска ({self.words})",
                then=then,
            )
        )


@dataclass(frozen=True, slots=True)
class TopCard:
    """«Возьмите её в руку», «положите её под низ колоды» after «покажите верхнюю карту своей колоды»:
    the shown card is the top card of the deck, and it goes where the words say."""

    to: str  # "hand" | "bottom" | "graveyard"

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.events import MoveEvent, perform

        deck = game.state.players[item.controller].zones["deck"]
        if not deck:
            return
        top = deck[0]
        if self.to == "hand":
            perform(game, MoveEvent(top, "hand", "search", source=item.source, source_name=item.source_name))
        elif self.to == "bottom":
            perform(game, MoveEvent(top, "deck", "return", position="bottom", source=item.source))
        else:
            perform(
                game, MoveEvent(top, "graveyard", "put", source=item.source, source_name=item.source_name)
            )


# --- the graveyard: «верните до N карт с вашего кладбища в руку» -------------------------------------------


@dataclass(frozen=True, slots=True)
class FromGraveyard:
    """«Верните (до) N [карт/существ] с вашего кладбища в руку»: the player chooses them on resolution
    (cards in a graveyard are not targets — «нельзя выбирать целью карты на кладбище»); «до N» lets him
    take fewer or none, «N» takes N if there are (518.1: as many as there are). 203.4: they go to
    their owner's hand."""

    count: int
    types: tuple[str, ...] = ()
    up_to: bool = False
    words: str = ""

    def run(self, game: Game, item: QueueItem) -> None:
        from berserk_engine.choices import ChooseCards

        player = item.controller
        grave = game.state.players[player].zones["graveyard"]
        found = [c for c in grave if not self.types or game.state.cards[c].definition.type in self.types]
        if not found:
            return
        most = min(self.count, len(found))
        game.push(
            ChooseCards(
                player,
                found,
                0 if self.up_to else most,
                most,
                "203.4",
                f"Игрок {player}: выберите на кладбище карты, которые вернутся в руку ({self.words})",
                then=ReturnChosen(),
            )
        )


@dataclass(slots=True)
class ReturnChosen(Task):
    cards: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        from berserk_engine.events import MoveEvent, perform

        if self.cards:
            perform(game, *(MoveEvent(c, "hand", "return") for c in self.cards))


# --- a shot at a fixed target ---------------------------------------------------------------------------


serializable(Pick, InOrderTo, Test, If, FindInDeck, TopCard, FromGraveyard)
task(_Decide, ReturnChosen)
