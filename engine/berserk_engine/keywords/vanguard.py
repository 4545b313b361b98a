"""«Авангард Х»: «После розыгрыша этой карты из руки, вы можете бесплатно разыграть существо с руки со
стоимостью Х, оно получает Рывок, и в конце хода возвращается в руку. Если вы сделали, закройте эту
карту». Авангард Y replaces Авангард Х.

Interpretation I-29: «со стоимостью Х» — a creature whose (minimal) cost is exactly Х; the player
chooses it among such creatures of his hand when the ability resolves. It is played without payment
(it enters the game zone and «Когда вы разыгрываете эту карту» triggers), gains «Рывок» and the
delayed «В конце хода: вернуть это существо в руку.»; then the card with Авангард closes. When no
creature was played, the card stays open.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from berserk_engine.abilities import Ability, Trigger
from berserk_engine.choices import ChooseCards
from berserk_engine.data import serializable
from berserk_engine.effects import gain
from berserk_engine.events import CloseEvent, MoveEvent, Perform, PlayEvent, perform
from berserk_engine.keywords import keyword
from berserk_engine.tasks import Task, task

RETURN = "В конце хода: вернуть это существо в руку."


def candidates(game, player: str, cost: int) -> list[str]:
    """Creatures of the player's hand with this cost that may be played now (one event, equipment …)."""
    s = game.state
    found = []
    for card_id in s.players[player].zones["hand"]:
        d = s.cards[card_id].definition
        if (
            d.type == "creature"
            and d.cost == cost
            and not any(h(game, player, d) for h in game.handlers.PLAY_RESTRICTIONS)
        ):
            found.append(card_id)
    return found


@dataclass(frozen=True, slots=True)
class Vanguard:
    cost: int

    def run(self, game, item) -> None:
        found = candidates(game, item.controller, self.cost)
        if not found:
            game.log("vanguard", f"Авангард: в руке нет существа стоимостью {self.cost}", rule="авангард-х")
            return
        game.push(
            ChooseCards(
                item.controller,
                found,
                1,
                1,
                "авангард-х",
                f"Игрок {item.controller}: выберите существо стоимостью {self.cost} — "
                "разыграть его бесплатно",
                then=VanguardPlay(item.source, item.controller, item.id),
            )
        )


@dataclass(slots=True)
class VanguardPlay(Task):
    source: str
    player: str
    item: str
    cards: list[str] = field(default_factory=list)

    def run(self, game) -> None:
        card = game.state.cards[self.cards[0]]
        game.log(
            "play",
            f"Игрок {self.player} бесплатно разыгрывает «{card.name}» (Авангард)",
            card=card.id,
            player=self.player,
            rule="авангард-х",
        )
        game.push(
            Perform([MoveEvent(card.id, "play", "play", controller=self.player)]),
            VanguardDone(self.source, self.player, self.item, card.serial),
        )


@dataclass(slots=True)
class VanguardDone(Task):
    source: str
    player: str
    item: str
    serial: int

    def run(self, game) -> None:
        from berserk_engine.state import QueueItem

        s = game.state
        card = next((c for c in s.cards.values() if c.serial == self.serial), None)
        if card is None or card.zone != "play":
            return
        as_item = QueueItem(
            self.item, "triggered", self.player, self.source, _name(game, self.source), "Авангард"
        )
        gain(game, as_item, card.id, "grant", text="Рывок.", until="leaves_play")
        gain(game, as_item, card.id, "grant", text=RETURN, until="leaves_play")
        events: list[Any] = [PlayEvent(card.id, self.player, card.name)]
        if self.source in s.cards and s.cards[self.source].zone == "play":
            events.append(CloseEvent(self.source))
        perform(game, *events)


def _name(game, card_id: str) -> str:
    card = game.state.cards.get(card_id)
    return card.name if card is not None else game.state.lki.get(card_id, {}).get("name", "")


def _build(value) -> Ability:
    return Ability("triggered", "", effect=Vanguard(int(value)), trigger=Trigger("played"), optional=True)


VANGUARD = keyword(
    __name__,
    "авангард-х",
    "Авангард Х",
    "Авангард {x:Num}",
    "triggered",
    "Авангард 2.",
    regain="replace",
    build=_build,
)

serializable(Vanguard)
task(VanguardPlay, VanguardDone)
