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
    """Card text the engine does not understand: names the card and the text."""

    def __init__(self, card: str, text: str, message: str) -> None:
        self.card = card
        self.text = text
        self.message = message
        super().__init__(f"карта «{card}»: {message}: «{text}»")


class SetupError(EngineError):
    """A position description (setup) that cannot be built."""
