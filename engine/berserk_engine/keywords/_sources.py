"""Where wounds come from, in the words of «Защита от [текст]», «Не получает ран от [текст]» and
«Игнорирует защиту от [текст]»: a typed slot ``{x:From}`` shared by those keyword modules."""

from __future__ import annotations

from typing import Any

# words -> category
FROM: dict[str, str] = {"заклинаний": "spell", "выстрелов": "shot", "ударов": "blow"}


def wound_from(event: Any, category: str) -> bool:
    """Does the wound event come from this source? «заклинаний»: an ability of a spell; «выстрелов»:
    a shot; «ударов»: the blow of a strike attack, of a fight, or a counter-blow."""
    if category == "spell":
        return event.origin == "spell"
    if category == "shot":
        return event.blow == "выстрел"
    return event.blow in ("удар", "сражение", "ответный удар")
