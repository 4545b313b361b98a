"""The driver interface: the only way scenarios reach an engine.

A driver is deliberately small and speaks JSON-ready data only (dicts, lists, strings, numbers), so
that it can cross a process boundary unchanged (the newline-delimited JSON protocol is a later
step): every method's arguments and results are what would travel over the wire.

``start(setup)``
    Build a game from a declarative position (see :mod:`berserk_engine.setup` for the format:
    cards with their printed text, zones, coin markers, wounds, whose turn, where to start).
    Raises :class:`SetupRejected` when the position or a card's text cannot be understood.
``decision() -> dict | None``
    The pending decision: ``{"seq": 12, "player": "А", "kind": "choose_action" | "declare_trigger" |
    "assign_defender", "rule": "306.1", "prompt": "…", "options": [action, …]}``; ``None`` when
    the game is over. ``seq`` counts the decisions answered before this one, so a program
    answering over a wire can tell a stale decision from the current one. Every legal answer is
    listed; each option may carry a ``label`` (words for people) and an ``about`` dict (what it
    refers to: ``ability`` text, ``source`` card id).
``act(player, action)``
    Answer the pending decision. Actions: ``{"type": "declare", "trigger", "targets"}``,
    ``{"type": "pass"}``, ``{"type": "attack", "attacker", "target"}``, ``{"type": "defend",
    "defender"}``, ``{"type": "no_defender"}``, ``{"type": "activate", "card", "ability" (its printed
    sentence), "targets"}``, ``{"type": "play", "card", "targets"}``, ``{"type": "end_turn"}``. An illegal
    action raises :class:`Rejected` with the rule that forbids it, and changes nothing.
``observe(player) -> dict``
    What ``player`` ("А" or "Б") may see; ``None`` gives the judge's view of everything (used for
    game logs and to check that a rejected action changed nothing, never to peek in scenarios).
``log(player=None) -> list[dict]``
    The game log so far (events with Russian ``text``) as ``player`` may see it: the details of an
    event private to the other player (which card he drew) are left out. ``None``: the full log.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar


class Rejected(Exception):
    """The engine refused an action as illegal; ``rule`` names the rule that forbids it."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"[{rule}] {message}")


class SetupRejected(Exception):
    """The engine cannot build the described position (unknown card text, bad zone …)."""


class Driver(ABC):
    """An engine as the scenarios see it."""

    name: ClassVar[str] = "unnamed"
    version: ClassVar[str] = "0"

    @abstractmethod
    def start(self, setup: dict[str, Any]) -> None: ...

    @abstractmethod
    def decision(self) -> dict[str, Any] | None: ...

    @abstractmethod
    def act(self, player: str, action: dict[str, Any]) -> None: ...

    @abstractmethod
    def observe(self, player: str | None) -> dict[str, Any]: ...

    @abstractmethod
    def log(self, player: str | None = None) -> list[dict[str, Any]]: ...

    def check_deck(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        """Optional: the problems of a deck list under the deck construction rules (Название карты,
        Копия карты, Орда). ``deck``: ``{"format": "констрактед" | "драфт", "cards": [{"count", "name",
        "type", "cost", … "text"}]}``; each problem: ``{"index", "rule", "name", "message"}``. An engine
        that does not check decks leaves this as it is: the deck scenarios fail for it (list them in
        its known failures)."""
        raise NotImplementedError(f"драйвер {self.name} не проверяет колоды (check_deck)")

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release resources (a subprocess, a connection)."""
