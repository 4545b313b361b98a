"""Errors raised by the engine."""

from __future__ import annotations


class EngineError(Exception):
    """Base class for every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """An action the rules forbid. The game state is left exactly as it was.

    ``rule`` is the id of the rule (or glossary term) that forbids the action.
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"[{rule}] {message}")


class CardTextError(EngineError):
    """Card text the engine does not understand: names the card, the sentence, where it stands in the
    card's text (sentence number, character offset) and the nearest phrases the engine knows."""

    def __init__(
        self,
        card: str,
        text: str,
        message: str,
        *,
        position: tuple[int, int] | None = None,
        nearest: list[str] | None = None,
    ) -> None:
        self.card = card
        self.text = text
        self.message = message
        self.position = position
        self.nearest = list(nearest or [])
        where = f", предложение {position[0]} (символ {position[1] + 1})" if position else ""
        hint = (
            ("; ближайшие известные фразы: " + "; ".join(f"«{n}»" for n in self.nearest))
            if self.nearest
            else ""
        )
        super().__init__(f"карта «{card}»{where}: {message}: «{text}»{hint}")


class SetupError(EngineError):
    """A position description (setup) that cannot be built."""
