"""«Уникальность»: under one player's control there cannot be two identical cards with «Уникальность»
in the game; when a second such card is to come into the squad, the first copy goes to the graveyard.

Copies are cards with the same name (Копия карты). Any way of taking a card into the squad counts
(``hooks.ENTERED_SQUAD``: playing, summoning, resurrecting, taking control —
``events.SQUAD_EVENTS``); the first copy is put into its owner's graveyard — a transfer from the
game zone to the graveyard, so «При гибели» triggers (interpretation I-39).
"""

from __future__ import annotations

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.events import SQUAD_EVENTS, MoveEvent
from berserk_engine.keywords import keyword, term

UNIQUE = keyword(__name__, "уникальность", "Уникальность", "Уникальность", "combined", "Уникальность.")
term(__name__, "копия-карты")


@hooks.needs(UNIQUE.term)
def _entered(game, events) -> list[MoveEvent]:
    s = game.state
    out = []
    for ev in events:
        if type(ev) is MoveEvent:
            if ev.to_zone != "play":
                continue
            new = s.cards.get(ev.new_id)
        elif type(ev) in SQUAD_EVENTS:  # another player took control of the card
            new = s.cards.get(ev.card)
        else:
            continue
        if new is None or new.zone != "play" or not ch.has(game, new, UNIQUE.term):
            continue
        for card_id in s.play:
            old = s.cards[card_id]
            if (
                card_id != new.id
                and old.name == new.name
                and old.controller == new.controller
                and ch.keyword(game, old, UNIQUE.term)
            ):
                out.append(MoveEvent(card_id, "graveyard", "uniqueness", source=new.id, source_name=new.name))
    return out


hooks.ENTERED_SQUAD.append(_entered)
