"""The deck construction rules of the reference implementation (``berserk_engine.construction``):
copies of a name, Копия карты, Орда — checked for ``berserk-rules deck`` (the deck scenarios ask the
engine they run on instead: the protocol's ``deck`` request). The deck file itself is read by
:mod:`berserk_rules.rulebook.decks`."""

from __future__ import annotations

from typing import Any


class DeckError(Exception):
    """A deck list that cannot be checked: an unknown format, a card without a type, unreadable card
    text (the message names the card)."""


def check(deck: dict[str, Any]) -> list[dict[str, Any]]:
    """The problems of a deck list (``{"index", "rule", "name", "message"}`` each; empty when it
    follows the rules), by the reference deck rules."""
    from berserk_engine import construction
    from berserk_engine.errors import CardTextError, SetupError

    try:
        return [p.to_json() for p in construction.check(deck)]
    except (SetupError, CardTextError) as exc:
        raise DeckError(str(exc)) from exc
