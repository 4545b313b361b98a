"""Deck construction: the rules of the sources about which cards a deck may hold.

* «Название карты»: a deck for a «констрактед» tournament holds at most 3 cards with the same name
  («на "драфт" это ограничение не распространяется»);
* «Копия карты»: cards with the same name are copies of each other — they are counted together, and
  a name means one card (two different cards under one name are an error of the deck list);
* «Орда»: «в колоде для турнира "констрактед" может находиться 5 (или менее) одинаковых карт с
  особенностью Орда».

Nothing else (deck size, elements …) is in the sources, and nothing else is checked (interpretation
I-38). A deck is data: ``{"format": "констрактед" | "драфт", "cards": [{"count": 3, "name": "Гном",
"type": "существо", "cost": 2, …, "text": "…"}, …]}`` — the card properties as in a position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from berserk_engine.cards import CardDef
from berserk_engine.errors import SetupError
from berserk_engine.keywords import term

NAME = term(__name__, "название-карты")
COPY = "копия-карты"
HORDE = "орда"
FORMATS = {"констрактед": 3, "драфт": None}  # copies of one name allowed (None: no limit)
HORDE_COPIES = 5
_PROPS = {"type", "subtype", "classes", "cost", "element", "strike", "life", "text"}


@dataclass(frozen=True)
class Problem:
    """A rule the deck breaks: ``index`` of the deck entry, the rule (a glossary term id) and why."""

    index: int
    rule: str
    name: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "rule": self.rule, "name": self.name, "message": self.message}


def _definition(entry: dict[str, Any], index: int) -> CardDef:
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise SetupError(f"карта {index + 1}: нет названия")
    unknown = set(entry) - _PROPS - {"name", "count"}
    if unknown:
        raise SetupError(f"«{name}»: неизвестные свойства {sorted(unknown)}")
    if "type" not in entry:
        raise SetupError(f"«{name}»: не указан тип")
    props = {k: v for k, v in entry.items() if k in _PROPS - {"type"}}
    return CardDef.build(name, entry["type"], **props)


def check(deck: dict[str, Any]) -> list[Problem]:
    """The problems of the deck (empty when it follows the rules). Raises SetupError or CardTextError
    when the deck cannot be read (unknown format, a card without a type, unreadable card text)."""
    fmt = deck.get("format", "констрактед")
    if fmt not in FORMATS:
        raise SetupError(f"неизвестный формат турнира «{fmt}»; известны: {', '.join(FORMATS)}")
    limit = FORMATS[fmt]
    entries = deck.get("cards", [])
    if not isinstance(entries, list):
        raise SetupError("cards: ожидается список карт")
    problems: list[Problem] = []
    by_name: dict[str, tuple[int, CardDef, int]] = {}  # name -> (first index, definition, copies)
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise SetupError(f"карта {index + 1}: ожидается описание карты, получено {entry!r}")
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise SetupError(
                f"«{entry.get('name')}»: количество должно быть целым числом ≥ 1, получено {count!r}"
            )
        d = _definition(entry, index)
        if d.name in by_name:
            first, known, copies = by_name[d.name]
            if known != d:
                problems.append(
                    Problem(
                        index,
                        COPY,
                        d.name,
                        f"«{d.name}» описана иначе, чем в {first + 1}-й записи колоды: карты с одинаковым "
                        "названием — копии друг друга, это одна и та же карта",
                    )
                )
            by_name[d.name] = (first, known, copies + count)
        else:
            by_name[d.name] = (index, d, count)
    if limit is None:
        return problems
    for name, (first, d, copies) in by_name.items():
        horde = HORDE in d.keywords
        allowed = HORDE_COPIES if horde else limit
        if copies > allowed:
            rule = HORDE if horde else NAME
            why = (
                f"одинаковых карт с особенностью Орда может быть не больше {HORDE_COPIES}"
                if horde
                else f"карт с одним и тем же названием может быть не больше {limit}"
            )
            problems.append(
                Problem(first, rule, name, f"«{name}»: копий {copies}, а в колоде для турнира «{fmt}» {why}")
            )
    return sorted(problems, key=lambda p: p.index)
