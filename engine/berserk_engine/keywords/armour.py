"""«Броня Х»: «Предотвратить первые X ран от атак, нанесённых по этой карте в течение хода каждого
игрока (предотвращённые раны отсчитываются от начала хода)». Броня Y replaces Броня Х.

A prevention effect (Предотвращение, Эффект предотвращения): it reduces the number of wounds dealt,
not the strength of the attack. Wounds of an attack (``WoundEvent.attack``: a strike, a fight, a
shot) are prevented; a counter-blow is not an attack (Ответный удар), an ability that wounds is not an
attack either. The count of prevented wounds is kept on the card for the turn
(``this_turn.prevented`` under the keyword's term) and starts again at every turn — the active
player's and his opponent's alike. A card that ignores «Броня» (Игнорировать [предотвращение]) is not
stopped by it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from berserk_engine import characteristics as ch
from berserk_engine import hooks
from berserk_engine.keywords import keyword

if TYPE_CHECKING:
    from berserk_engine.event_types import WoundEvent
    from berserk_engine.game import Game

ARMOUR = keyword(__name__, "броня-х", "Броня Х", "Броня {x:Num}", "static", "Броня 2.", regain="replace")


@hooks.needs(ARMOUR.term)  # a game where no card can have it never asks
def _prevent(game: Game, event: WoundEvent, remaining: int) -> int:
    if not event.attack or not game.present(ARMOUR.term):
        return 0
    card = game.state.cards[event.target]
    value = ch.keyword(game, card, ARMOUR.term)
    if not value or value is True:
        return 0
    used = card.this_turn.prevented.get(ARMOUR.term, 0) if card.this_turn else 0
    prevented = min(remaining, max(int(value) - used, 0))
    if prevented and hooks.ignores(game, event.source, "prevention", ARMOUR.term):
        game.log(
            "ignored",
            f"«{event.source_name}» игнорирует Броню «{card.name}»",
            card=card.id,
            rule="игнорировать-предотвращение-целевой-карты",
        )
        return 0
    if prevented:
        card.record().prevented[ARMOUR.term] = used + prevented
    return prevented


hooks.WOUND_PREVENTION.append(_prevent)
