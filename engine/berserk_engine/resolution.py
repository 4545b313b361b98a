"""119.8 and 518: how far an ability resolves, and what reacts to its resolution.

«Частично выполненная способность считается успешно выполненной способностью, и на неё срабатывают
все способности, которые должны были сработать на её успешное выполнение» (119.8): every resolved
ability is an event (``queue.Resolved`` → ``ResolvedEvent``) whether it did all it said or only what it
could (518.1–518.4: heal at most the wounds there are, draw or show as many cards as there are, discard
the whole hand when it is smaller). The card text that reacts to it: «Когда выполнено ваше
заклинание».
"""

from __future__ import annotations

from typing import Any

from berserk_engine.event_types import ResolvedEvent
from berserk_engine.triggers import Point, trigger_kind, watchers


def _resolved(game: Any, ev: ResolvedEvent, before: list[str] | None) -> tuple[Point, ...]:
    if ev.kind != "spell":  # 119.8: a (partially) resolved ability triggers what its success would
        return ()
    found = watchers(game, SPELL_RESOLVED)
    return ((f"выполнено «{ev.text}»", found, ev.controller, ""),) if found is not None else ()


SPELL_RESOLVED = trigger_kind(
    "spell_resolved", (ResolvedEvent,), _resolved, "выполнена способность заклинания", "119.8"
)
