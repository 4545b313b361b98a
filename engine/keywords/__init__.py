"""Keyword abilities of the glossary, one module each, registered by their glossary term id.

A keyword module declares its :class:`Keyword` (the words on the card, the rule «gaining the same
keyword with another value» and whether Х = 0 may be declared, as data) and plugs its behaviour into
the core's named extension points (:mod:`berserk_engine.hooks`) or expands into card text the
grammar already understands («Регенерация Х» means «В конце своего хода: излечиться на Х.»).

``KEYWORDS`` maps the term id (as in ``rules/glossary.md``) to its :class:`Keyword`.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

REGAIN_RULES = {
    "replace": "получив то же ключевое слово с другим значением, карта теряет прежнее",
    "single": "несколько таких способностей не суммируются",
    "none": "ключевое слово без значения: второе такое же ничего не добавляет",
}


@dataclass(frozen=True, slots=True)
class Keyword:
    term: str  # glossary term id, e.g. "броня-х"
    name: str  # the words on a card, for messages: «Броня Х»
    phrase: str  # the sentence as a `parse` format: "Броня {x:Num}"
    kind: str  # "static" (Постоянная способность) | "triggered" | "combined"
    example: str  # a sentence that parses to this keyword
    regain: str = "none"  # see REGAIN_RULES
    zero_declarable: bool = True  # False: «Х 0 нельзя заявить»
    expands_to: str | None = None  # card text the keyword means, with {x} for its value
    module: str = ""


KEYWORDS: dict[str, Keyword] = {}


def keyword(
    term: str,
    name: str,
    phrase: str,
    kind: str,
    example: str,
    *,
    regain: str = "none",
    zero_declarable: bool = True,
    expands_to: str | None = None,
) -> Keyword:
    """Register a keyword; call it once at the top of the keyword's module."""
    if term in KEYWORDS:
        raise ValueError(f"ключевое слово {term} зарегистрировано дважды")
    if regain not in REGAIN_RULES:
        raise ValueError(f"{term}: неизвестное правило повторного получения {regain!r}")
    import inspect

    frame = inspect.stack()[1]
    module = frame.frame.f_globals.get("__name__", "")
    found = Keyword(term, name, phrase, kind, example, regain, zero_declarable, expands_to, module)
    KEYWORDS[term] = found
    return found


def load_all() -> dict[str, Keyword]:
    """Import every keyword module of this package (each registers itself)."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return KEYWORDS
