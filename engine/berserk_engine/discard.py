"""«Сбросьте карту» beyond the controller's own hand: «противник сбрасывает карту (Х карт)» — the
opponent discards, choosing himself, and with fewer cards he discards all he has (518.4; the example of
Казнь, 119.8); and the abilities that react to a discard («Когда вы сбрасываете карту», «Когда
противник сбрасывает карту»), which trigger once for every card discarded.
"""

from __future__ import annotations

from typing import Any

from berserk_engine.event_types import MoveEvent
from berserk_engine.triggers import Point, trigger_kind, watchers


def _discarded(game: Any, ev: MoveEvent, before: list[str] | None) -> tuple[Point, ...]:
    if ev.cause != "discard":
        return ()
    found = watchers(game, DISCARDS)
    return ((f"сброс карты игроком {ev.owner}", found, ev.owner, ev.new_id),) if found is not None else ()


DISCARDS = trigger_kind("discards", (MoveEvent,), _discarded, "игрок сбрасывает карту", "сбросьте-карту")
