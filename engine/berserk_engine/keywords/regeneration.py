"""«Регенерация X»: «В конце своего хода излечиться на Х». Регенерация Y replaces Регенерация X;
«Регенерацию 0 нельзя заявить»."""

from __future__ import annotations

from berserk_engine.keywords import keyword

REGENERATION = keyword(
    __name__,
    "регенерация-х",
    "Регенерация Х",
    "Регенерация {x:Num}",
    "triggered",
    "Регенерация 1.",
    regain="replace",
    zero_declarable=False,
    expands_to="В конце своего хода: излечиться на {x}.",
)
