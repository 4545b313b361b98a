"""Abilities (Способность): triggered, activated and spell abilities, as parsed from card text."""

from __future__ import annotations

from dataclasses import dataclass

from berserk_engine.effects import Effect


@dataclass(frozen=True)
class Trigger:
    """The condition of a triggered ability (условие срабатывания)."""

    event: str  # "enters_play" (Найм) | "dies" (Гибель) | "turn_start" | "turn_end" | "creature_dies"
    own_turn_only: bool = False  # «В начале вашего хода», «В конце своего хода»


@dataclass(frozen=True)
class Cost:
    """What is written before the colon of an activated ability (501.2)."""

    close: bool = False  # [Закрыть]
    coins: int = 0  # N [Монета]
    per_turn: int | None = None  # «Один раз за ход», «X раза за ход»


@dataclass(frozen=True)
class Ability:
    kind: str  # "triggered" | "activated" | "spell"
    text: str  # the sentence as written on the card
    effect: Effect
    index: int  # position on the card, 0-based
    trigger: Trigger | None = None
    cost: Cost | None = None
    optional: bool = False  # «вы можете …» — a not mandatory triggered ability (401.7)

    @property
    def needs_target(self) -> bool:
        return self.effect.target.chosen
