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

from berserk_engine.abilities import Trigger
from berserk_engine.grammar import phrase


@phrase(
    "trigger",
    "Когда выполнено ваше заклинание",
    "Когда выполнено ваше заклинание: возьмите карту.",
    "119.8",
)
def _on_own_spell(f: dict[str, Any]) -> Trigger:
    return Trigger("spell_resolved", player="own")
