"""Card definitions: the printed properties of a card (Part 7: Стоимость, Стихия, Удар, Жизни)."""

from __future__ import annotations

from dataclasses import dataclass, field

from berserk_engine.abilities import Ability
from berserk_engine.card_text import parse_card_text
from berserk_engine.errors import CardTextError

CARD_TYPES = {
    "существо": "creature",
    "заклинание": "spell",
    "герой": "hero",
}
ELEMENTS = ("степи", "леса", "горы", "болота", "силы тьмы", "нейтральная")


@dataclass(frozen=True)
class CardDef:
    """A card as printed: its name, type and properties, and its text parsed into abilities."""

    name: str
    type: str  # "creature" | "spell" | "hero"
    cost: int = 0
    element: str | None = None
    strike: int = 0
    life: int = 0
    text: str = ""
    abilities: tuple[Ability, ...] = field(default=(), compare=False)

    @classmethod
    def build(
        cls,
        name: str,
        type: str,
        *,
        cost: int = 0,
        element: str | None = None,
        strike: int = 0,
        life: int = 0,
        text: str = "",
    ) -> CardDef:
        kind = CARD_TYPES.get(type.strip().lower(), type if type in CARD_TYPES.values() else None)
        if kind is None:
            raise CardTextError(name, type, f"неизвестный тип карты (известны: {', '.join(CARD_TYPES)})")
        if element is not None and element not in ELEMENTS:
            raise CardTextError(name, element, f"неизвестная стихия (известны: {', '.join(ELEMENTS)})")
        for label, value in (("стоимость", cost), ("удар", strike), ("жизни", life)):
            if value < 0:
                raise CardTextError(name, str(value), f"{label} не может быть отрицательной")
        abilities = parse_card_text(name, text, spell=kind == "spell")
        return cls(name, kind, cost, element, strike, life, text, abilities)
