"""«Жизни сокращаются до Х»: every wound marker is removed from the card, then additional or negative
lives make its level of lives equal to Х. Abilities that react to wounds being removed or dealt do not
react to it (it is neither a heal nor a wound: ``events.LivesEvent``).

Card text: «жизни выбранного существа сокращаются до 1»."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from berserk_engine import selectors
from berserk_engine.data import serializable
from berserk_engine.events import LivesEvent, perform
from berserk_engine.keywords import term

term(__name__, "жизни-сокращаются-до-х")


@dataclass(frozen=True, slots=True)
class ReduceLives:
    value: int
    target: Any

    def run(self, game, item) -> None:
        targets = selectors.resolve(game, self.target, item)
        if targets:
            perform(game, *(LivesEvent(t, self.value, item.source, item.source_name) for t in targets))


serializable(ReduceLives)
