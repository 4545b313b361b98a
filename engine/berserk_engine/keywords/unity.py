"""«Единение Х»: means «Гибель: Поиск существа стоимостью Х [Монета] или менее.» Единение У replaces
Единение Х; «Единение 0 нельзя заявлять».

The meaning is card text the grammar reads (the Поиск of ``berserk_engine.deck``); the cost compared
is the minimal cost (interpretation I-36)."""

from __future__ import annotations

from berserk_engine.keywords import keyword

UNITY = keyword(
    __name__,
    "единение-х",
    "Единение Х",
    "Единение {x:Num}",
    "triggered",
    "Единение 2.",
    regain="replace",
    zero_declarable=False,
    expands_to="Гибель: поиск существа стоимостью {x} [Монета] или менее.",
)
