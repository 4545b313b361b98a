"""Отложенные эффекты (519.1): an ability creates an effect that waits for its condition. «Если в
способности не говорится на кого накладываются эти эффекты …, то они накладываются на своего героя.»

Card text: «В конце хода ранить на 2.» — the effect is placed on its controller's hero as a triggered
ability «В конце хода: …» until the end of this turn (interpretation I-46): at the end of the turn it
triggers like any «в конце хода» ability (310.1), and with the turn it is gone (310.2). An effect that
names nobody («ранить на 2») applies to that hero; one that names a card («ранить на 2 героя
противника») applies to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from berserk_engine import characteristics as ch
from berserk_engine.abilities import selectors_of
from berserk_engine.data import serializable
from berserk_engine.grammar import _Unreadable, phrase, read_effect
from berserk_engine.state import ContinuousEffect

if TYPE_CHECKING:
    from berserk_engine.game import Game
    from berserk_engine.state import QueueItem

OWN_HERO = "своего героя"  # the words of the default target (519.1)


@dataclass(frozen=True, slots=True)
class Delayed:
    """A delayed effect: ``text`` is the waiting ability placed on the controller's hero."""

    text: str

    def run(self, game: Game, item: QueueItem) -> None:
        s = game.state
        hero = s.players[item.controller].hero
        effect = ContinuousEffect(
            id=s.next_id("e"),
            kind="grant",
            target=hero,
            source=item.source,
            source_name=item.source_name,
            text=self.text,
            until="end_of_turn",
        )
        ch.add_effect(game, effect)
        game.log(
            "delayed",
            f"Отложенный эффект «{self.text}» ждёт своего условия на герое игрока {item.controller}",
            card=hero,
            effect=effect.id,
            rule="519.1",
        )


@phrase("effect", "в конце хода {rest}", "в конце хода ранить на 2", "519.1")
def _at_end_of_turn(f: dict[str, Any]) -> Delayed | None:
    rest = f["rest"].strip()
    for words in (rest, f"{rest} {OWN_HERO}"):  # no target named: the own hero (519.1)
        try:
            node, optional = read_effect(words)
        except _Unreadable:
            continue
        if optional or any(s.chosen for s in selectors_of(node)):
            return None  # a chosen target would have to be named at the declaration
        return Delayed(f"В конце хода: {words}.")
    return None


serializable(Delayed)
