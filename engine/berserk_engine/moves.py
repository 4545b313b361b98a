"""Card text that moves a card between zones: «Вернуть (убрать) в колоду» — into its owner's deck,
shuffled (204.3, 204.4) or at a named place without a shuffle («на верх колоды», «под низ колоды»);
«Убрать (положить, поместить) на кладбище» — to the owner's graveyard, which is not a destruction.

Every move goes through :func:`zones.move` (203.4, 204.4: the owner's zone, a new object without
effects and markers).
"""

from __future__ import annotations

from typing import Any

from berserk_engine.effects import Move
from berserk_engine.grammar import phrase
from berserk_engine.keywords import term

term(__name__, "вернуть-убрать-в-колоду")
term(__name__, "убрать-положить-поместить-на-кладбище")


@phrase(
    "effect", "вернуть {t:Acc} в колоду", "вернуть выбранное существо в колоду", "вернуть-убрать-в-колоду"
)
def _return_to_deck(f: dict[str, Any]) -> Move:
    return Move(f["t"], "deck", "return", "shuffle")


@phrase("effect", "убрать {t:Acc} в колоду", "убрать выбранное существо в колоду", "убрать-в-колоду")
def _put_into_deck(f: dict[str, Any]) -> Move:
    return Move(f["t"], "deck", "return", "shuffle")


@phrase("effect", "вернуть {t:Acc} на верх колоды", "вернуть выбранное существо на верх колоды", "204.3")
def _return_on_top(f: dict[str, Any]) -> Move:
    return Move(f["t"], "deck", "return", "top")


@phrase("effect", "вернуть {t:Acc} под низ колоды", "вернуть выбранное существо под низ колоды", "204.3")
def _return_to_bottom(f: dict[str, Any]) -> Move:
    return Move(f["t"], "deck", "return", "bottom")


@phrase(
    "effect",
    "положить {t:Acc} на кладбище",
    "положить выбранное существо на кладбище",
    "убрать-положить-поместить-на-кладбище",
)
def _put_on_graveyard(f: dict[str, Any]) -> Move:
    return Move(f["t"], "graveyard", "put")


@phrase(
    "effect",
    "убрать {t:Acc} на кладбище",
    "убрать выбранное существо на кладбище",
    "убрать-положить-поместить-на-кладбище",
)
def _remove_to_graveyard(f: dict[str, Any]) -> Move:
    return Move(f["t"], "graveyard", "put")
