"""The deck (204): effects of card text that look into a deck, take cards from it or show them, and
the shuffle that follows.

* **Поиск** — «Найдите в своей колоде [карту/карты] и возьмите её/их себе в руку»: the player looks
  through his deck (the candidates are shown to him only), may take fewer than asked or none («можно
  их не искать»), and the deck is shuffled after a search that took a card (204.2: «После просмотра
  колода перемешивается»); a search that takes nothing shuffles nothing (I-57, the FAQ of 04.05.2023).
* **A named place without looking** (204.3, the example of Дейла): looking at the top card and putting
  it under the deck, putting the top card on the graveyard — no shuffle: nothing was looked through.
* **Showing** X top cards (518.3): both players see them; with fewer cards, as many as there are.
* **Перемешивание колоды** as an effect of its own, and the trigger «Когда вы берёте карту».

Moving a card from another zone into a deck («Вернуть (убрать) в колоду») lives in :mod:`moves`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from berserk_engine import zones
from berserk_engine.choices import ChooseCards
from berserk_engine.data import serializable
from berserk_engine.events import DrawEvent, MoveEvent, Perform, perform
from berserk_engine.keywords import term
from berserk_engine.tasks import Task, task
from berserk_engine.triggers import Point, trigger_kind, watchers

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

term(__name__, "поиск-карта-карты")
term(__name__, "перемешивание-колоды")


@dataclass(slots=True)
class ShuffleDeck(Task):
    """Перемешивание колоды (204.2, 204.3): the order becomes random and unknown."""

    player: str
    rule: str = "перемешивание-колоды"

    def run(self, game: Game) -> None:
        zones.shuffle(game, self.player, rule=self.rule)


# --- Поиск ----------------------------------------------------------------------------------------


# «Поиск до двух заклинаний …» (issue 29): the canonical words keep what is sought as printed
SEARCH_FORM = ("поиск {what}", "поиск до трёх заклинаний стоимостью 2 [Монета]", "поиск-карта-карты")


@dataclass(frozen=True, slots=True)
class Search:
    """Поиск — [карта/карты]: find in your deck up to ``count`` cards that fit and take them into your
    hand; then shuffle the deck."""

    count: int
    name: str | None = None  # «карты «Гоблин»»
    types: tuple[str, ...] = ()  # «существа»
    max_cost: int | None = None  # «стоимостью Х [Монета] или менее»
    words: str = ""
    cost: int | None = None  # «стоимостью Х [Монета]» (no «или менее»): exactly Х (issue 29)

    def fits(self, game: Game, card_id: str) -> bool:
        card = game.state.cards[card_id]
        d = card.definition
        if self.name is not None and card.name != self.name:
            return False
        if self.types and d.type not in self.types:
            return False
        if self.cost is not None and d.cost != self.cost:
            return False
        return self.max_cost is None or d.cost <= self.max_cost

    def run(self, game: Game, item: QueueItem) -> None:
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
            game.push(then)  # nothing fits: nothing taken, the deck is not shuffled (I-57)
            return
        game.push(
            ChooseCards(
                player,
                found,
                0,  # «Если в колоде есть нужные карты, можно их не искать»
                min(self.count, len(found)),  # «можно взять те, что есть»
                "поиск-карта-карты",
                f"Игрок {player}: выберите в колоде карты для поиска ({self.words})",
                then=then,
            )
        )


@dataclass(slots=True)
class SearchChosen(Task):
    player: str
    cards: list[str] = field(default_factory=list)

    def run(self, game: Game) -> None:
        if self.cards:  # «После поиска перемешайте колоду»
            shuffle = ShuffleDeck(self.player, "поиск-карта-карты")
            game.push(Perform([MoveEvent(c, "hand", "search") for c in self.cards]), shuffle)
            return
        # I-57 (the FAQ of 04.05.2023): a search that takes nothing is declined — no shuffle
        game.log(
            "search_declined",
            f"Игрок {self.player} ничего не берёт поиском: колода не перемешивается",
            player=self.player,
            rule="поиск-карта-карты",
            deciding=["I-57"],
        )


# --- a named place, without looking (204.3) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TopToBottom:
    """Look at the top card of your deck and put it under the deck (the example of Дейла, 204.3):
    the card comes from and goes to a named place, nobody looks through the deck — no shuffle."""

    def run(self, game: Game, item: QueueItem) -> None:
        player = item.controller
        deck = game.state.players[player].zones["deck"]
        if not deck:
            return
        top = game.state.cards[deck[0]]
        game.log(
            "look",
            f"Игрок {player} смотрит верхнюю карту своей колоды",
            player=player,
            card=top.id,
            name=top.name,
            private_to=player,
            rule="204.3",
        )
        perform(game, MoveEvent(top.id, "deck", "return", position="bottom", source=item.source))


@dataclass(frozen=True, slots=True)
class MillTop:
    """Положить верхнюю карту (``count`` верхних карт) своей колоды — или колоды противника (``opponent``) —
    на кладбище (glossary «Убрать (положить, поместить) на кладбище»: «карта кладётся на кладбище (из колоды
    или игровой зоны)», not a destruction): taken from a named place without looking, so the deck is not
    shuffled (204.3); with fewer cards in the deck, as many as there are (518.1)."""

    count: int = 1
    opponent: bool = False

    def run(self, game: Game, item: QueueItem) -> None:
        player = game.opponent(item.controller) if self.opponent else item.controller
        deck = game.state.players[player].zones["deck"]
        if deck:
            perform(game, *(MoveEvent(c, "graveyard", "put", source=item.source) for c in deck[: self.count]))


@dataclass(frozen=True, slots=True)
class Reveal:
    """Показать X верхних карт своей колоды: both players see them, they stay where they are; with
    fewer cards in the deck, as many as there are (518.3)."""

    count: int

    def run(self, game: Game, item: QueueItem) -> None:
        player = item.controller
        deck = game.state.players[player].zones["deck"]
        shown = [game.state.cards[c].name for c in deck[: self.count]]
        game.log(
            "reveal",
            f"Игрок {player} показывает верхние карты колоды ({len(shown)} из {self.count}): "
            + ", ".join(f"«{n}»" for n in shown),
            player=player,
            names=shown,
            asked=self.count,
            rule="518.3",
        )


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Перемешайте свою колоду."""

    def run(self, game: Game, item: QueueItem) -> None:
        zones.shuffle(game, item.controller)


@dataclass(frozen=True, slots=True)
class Placeable:
    """«Помещённый»: the card may be placed into a deck by «Поместите» (204.5)."""


def placeable(game: Game, name: str) -> bool:
    return any(isinstance(a.effect, Placeable) for a in game.defs[name].abilities)


@dataclass(frozen=True, slots=True)
class Place:
    """Поместите «[название]» в колоду противника (204.5): a card with «Помещённый» goes from your
    reserve into your opponent's deck — not its owner's — and that deck is shuffled (204.3)."""

    name: str

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        reserve = s.players[item.controller].zones["reserve"]
        card = next((c for c in reserve if s.cards[c].name == self.name), None)
        if card is None or not placeable(game, self.name):
            game.log(
                "place_none",
                f"В запасе нет помещаемой карты «{self.name}»",
                player=item.controller,
                rule="204.5",
            )
            return
        perform(
            game,
            MoveEvent(card, "deck", "place", deck_of=game.opponent(item.controller), source=item.source),
        )


# --- phrases -------------------------------------------------------------------------------------


def _drew(game: Game, ev: DrawEvent, before: list[str] | None) -> tuple[Point, ...]:
    if ev.failed:
        return ()
    found = watchers(game, DRAWS)
    return ((f"взятие карты игроком {ev.player}", found, ev.player, ev.card),) if found is not None else ()


DRAWS = trigger_kind("draws", (DrawEvent,), _drew, "игрок берёт карту", "возьмите-карту")


serializable(Search, TopToBottom, MillTop, Reveal, Shuffle, Placeable, Place)
task(ShuffleDeck, SearchChosen)
