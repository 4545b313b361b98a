"""The phases of the protocol's ``phase`` field (``schemas/``), in the rulebook's words.

The steps read them in a scenario's text (``steps/context.py`` re-exports them); the site's replay
shows them. A module of its own, so that the site does not import the step library (pytest, pytest-bdd
and the harness) to name a phase — that import cost the build's main process ≈ 0.4 s while it writes.
"""

from __future__ import annotations

PHASES = {
    "restoration": "фаза восстановления",
    "accumulation": "фаза накопления",
    "choice": "фаза выбора",
    "attack": "фаза атаки ударом",
    "activation": "фаза активируемых способностей",
    "play": "фаза розыгрыша карты",
    "end": "этап конца хода",
    "over": "игра окончена",
}
