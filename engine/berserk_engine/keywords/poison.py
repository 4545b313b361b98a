"""«Отравление на Х»: «Существо с Отравление Х в начале хода получает Х ран». Отравление У replaces
Отравление Х; «Отравление 0 нельзя заявить».

It means the card text «В начале хода: раниться на Х.» — at the beginning of every turn, the active
player's and his opponent's alike (interpretation I-3). Cards poison a creature by giving it the
keyword: «выбранное существо получает Отравление на 1». «Полностью излечить» does not remove it.
"""

from __future__ import annotations

from berserk_engine.keywords import keyword

POISON = keyword(
    __name__,
    "отравление-на-х",
    "Отравление на Х",
    "Отравление на {x:Num}",
    "triggered",
    "Отравление на 1.",
    regain="replace",
    zero_declarable=False,
    expands_to="В начале хода: раниться на {x}.",
)


# «Отравить [цель] на Х» (issue 29, interpretation I-87): the printed verb of the term «Отравление на Х» —
# the target gets the keyword «Отравление Х», as «[цель] получает Отравление Х» (until the end of the
# battle, «Получает [текст]»; berserk_engine.language.constructions builds it). Its canonical words,
# example, interpretation:
VERB_FORM = ("отравить {t} на {n}", "отравить существо на 1", "I-87")

GRANTED = "Отравление {n}."  # the keyword's text the target gets (as «Существо получает Отравление 2.»)
