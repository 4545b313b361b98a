"""Terms of the glossary that the engine implements, one module each, registered by their glossary
term id: keyword abilities («Броня Х», «Первый удар» …), effects («Выстрел на X», «Дополнительные
жизни» …) and rules about cards («Уникальность», the equipment subtypes …).

A keyword module declares its :class:`Keyword` (the words on the card, the rule «gaining the same
keyword with another value» and whether Х = 0 may be declared, as data) and plugs its behaviour into
the core's named extension points (:mod:`berserk_engine.hooks`) or expands into card text the
grammar already understands («Регенерация Х» means «В конце своего хода: излечиться на Х.»). A
term that is not a keyword (an effect such as «Излечить на Х», «Поиск», «Вызов», or a rule about cards)
is implemented by the core module named after its mechanic (``effects``, ``deck``, ``squad``, ``moves``,
``faces``, ``replacement`` …), which registers the term with :func:`term` (one module per term) and
its phrases with ``grammar.phrase(…, term_id)``.

``KEYWORDS`` maps the term id (as in ``rules/glossary.md``) to its :class:`Keyword`; ``TERMS`` maps
every implemented term id to the module that implements it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

REGAIN_RULES = {
    "replace": "получив то же ключевое слово с другим значением, карта теряет прежнее",
    "single": "несколько таких способностей не суммируются",
    "none": "ключевое слово без значения: второе такое же ничего не добавляет",
    "distinct": "такие способности с разными значениями действуют вместе, с одинаковыми — не суммируются",
    "stack": "несколько таких способностей складываются",
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
    build: Callable[[Any], Any] | None = None  # value -> Ability, when the meaning is not card text
    face_down: bool = False  # the ability works while its card lies face down («Скрытность»)


KEYWORDS: dict[str, Keyword] = {}
TERMS: dict[str, str] = {}  # term id -> the module that implements it


def term(module: str, term_id: str) -> str:
    """Register a glossary term implemented by ``module`` (the caller's ``__name__``: effects, rules
    about cards). The module is named, not looked up on the call stack: a compiled module has none."""
    if TERMS.get(term_id, module) != module:
        raise ValueError(f"термин {term_id} реализуют два модуля: {TERMS[term_id]} и {module}")
    TERMS[term_id] = module
    return term_id


def keyword(
    module: str,
    term: str,
    name: str,
    phrase: str,
    kind: str,
    example: str,
    *,
    regain: str = "none",
    zero_declarable: bool = True,
    expands_to: str | None = None,
    build: Callable[[Any], Any] | None = None,
    face_down: bool = False,
) -> Keyword:
    """Register a keyword; call it once at the top of the keyword's module, with its ``__name__``."""
    if term in KEYWORDS:
        raise ValueError(f"ключевое слово {term} зарегистрировано дважды")
    if regain not in REGAIN_RULES:
        raise ValueError(f"{term}: неизвестное правило повторного получения {regain!r}")
    found = Keyword(
        term, name, phrase, kind, example, regain, zero_declarable, expands_to, module, build, face_down
    )
    KEYWORDS[term] = found
    TERMS.setdefault(term, module)
    return found


def load_all() -> dict[str, Keyword]:
    """Every keyword, registered. The modules of this package are imported by
    :mod:`berserk_engine.catalogue`, in the order it documents (never the order of file names), when
    the package ``berserk_engine`` is imported."""
    return KEYWORDS
