"""A trigger condition on this card's strike at a hero (issue 29): «Каждый раз, когда наносит Х ран ударом
герою, излечите вашего героя на Х», «Когда это существо наносит раны ударом герою, возьмите карту».

* The condition happens when wounds of this creature's strike (a strike attack, 301.3 — not a counter-blow,
  not a shot, not an ability) are dealt to a hero: only wounds really dealt (after prevention) count, and
  none dealt — no trigger.
* Х in the condition is the number of those wounds; an «Х» of the ability's effect is that number, kept on
  the waiting trigger when the wounds are dealt (interpretation I-111).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from berserk_engine.event_types import WoundEvent
from berserk_engine.triggers import Point, listening, live, trigger_kind
from berserk_engine.x_value import EVENT_X, STRIKE_WOUNDS

if TYPE_CHECKING:
    from berserk_engine.game import Game

# canonical words of the condition (the reading renders in them; they read back as the same condition)
FORM = (
    "Когда это существо наносит Х ран ударом герою",
    "Когда это существо наносит Х ран ударом герою",
    "I-111",
)
FORM_NO_X = (
    "Когда это существо наносит раны ударом герою",
    "Когда это существо наносит раны ударом герою",
    "I-111",
)
DEALT = STRIKE_WOUNDS  # the key of the wounds dealt in the waiting trigger's event (triggers._event_data)


def _hero_struck(game: Game, ev: WoundEvent, before: list[str] | None) -> Iterable[Point]:
    if not ev.dealt or ev.blow != "удар" or ev.source is None or not listening(game, HERO_STRUCK, ev.source):
        return ()
    target = game.state.cards.get(ev.target)
    if target is None or target.definition.type != "hero":
        return ()
    src = live(game, ev.source)
    if src is None:
        return ()
    return ((f"«{src[1]}» наносит ударом герою ран: {ev.dealt}", (src,), None, ev.source),)


HERO_STRUCK = trigger_kind(
    next(iter(EVENT_X)), (WoundEvent,), _hero_struck, "это существо наносит раны ударом герою", "I-111"
)
