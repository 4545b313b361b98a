"""«Жажда Х»: «Когда вы разыгрываете эту карту, она ранит на Х другого вашего персонажа». Жажда У
replaces Жажда Х; «Жажду 0 нельзя заявлять».

It means the card text «Когда вы разыгрываете эту карту: ранить на Х другого вашего персонажа.» — the
other character is chosen when the ability is declared (interpretation I-27)."""

from __future__ import annotations

from berserk_engine.keywords import keyword

THIRST = keyword(
    __name__,
    "жажда-х",
    "Жажда Х",
    "Жажда {x:Num}",
    "triggered",
    "Жажда 1.",
    regain="replace",
    zero_declarable=False,
    expands_to="Когда вы разыгрываете эту карту: ранить на {x} другого вашего персонажа.",
)
