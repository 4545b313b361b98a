"""Deck lists in a text file, for ``berserk-rules deck`` (the deck construction rules are the engine's).

A deck file is UTF-8 text: comments (``#``), an optional format line and one table of cards — the
columns of the scenarios' card table plus «количество»::

    # Колода гномов
    формат: констрактед
    | количество | название    | тип      | класс      | стоимость | стихия | удар | жизни | текст    |
    | 3          | Гном-латник | существо | гном, воин | 2         | горы   | 2    | 3     | Броня 1. |
    | 5          | Гоблин      | существо | гоблин     | 1         |        | 1    | 1     | Орда.    |

«класс» — классы карты (расы и фракции, напечатанные на карте) через запятую, класс — слово или несколько
слов («страж леса»): по ним карты выбирают «ваш эльф», «ваших гномов» (толкование I-56). Класс на
заклинании, событии или экипировке сохраняется, но существом карту не делает (толкование I-70).

Formats: «констрактед» (the default) and «драфт». Every mistake in the file is reported with the file
and the line; :func:`read_deck` returns the deck as data and, for each card, its line.

The rules a deck list must follow (copies of a name, Копия карты, Орда) are tournament rules about
deck lists, not about a game. The command checks them by the reference implementation,
``berserk_engine.construction``, through :func:`berserk_rules.reference.deck_rules.check`; the deck
scenarios ask the engine they run on, through the protocol's optional ``deck`` request
(``docs/protocol.md``, «Списки колод»).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from berserk_rules.errors import SourceError
from berserk_rules.rulebook.project import read_utf8

COLUMNS = {
    "количество": "count",
    "название": "name",
    "тип": "type",
    "подтип": "subtype",
    "класс": "classes",
    "стоимость": "cost",
    "стихия": "element",
    "удар": "strike",
    "жизни": "life",
    "текст": "text",
}
FORMATS = ("констрактед", "драфт")
_FORMAT = re.compile(r"^формат\s*:\s*(?P<value>.*)$", re.IGNORECASE)
_CELL = re.compile(r"(?<!\\)\|")
_VARIABLE_COST = re.compile(r"^(?:\d+\s*\+\s*)?[ХX]$")


def _cells(line: str) -> list[str]:
    body = line.strip()
    if not body.endswith("|") or len(body) < 2:
        return []
    return [c.strip().replace("\\|", "|") for c in _CELL.split(body[1:-1])]


def table_header(cells: list[str], shown: str, number: int, required: tuple[str, ...]) -> list[str]:
    """The columns of a card table's header row (lower case): every one known, the ``required`` ones
    present — a :class:`SourceError` at ``shown``:``number`` otherwise."""
    header = [c.lower() for c in cells]
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        raise SourceError(shown, number, f"неизвестные столбцы {unknown}; допустимы: {', '.join(COLUMNS)}")
    for column in required:
        if column not in header:
            raise SourceError(shown, number, f"в таблице карт нет столбца «{column}»")
    return header


def read_deck(path: Path, shown: str | None = None) -> tuple[dict[str, Any], list[int]]:
    """(deck, line of each card). Raises SourceError naming the file and the line."""
    name = shown or str(path)
    text = read_utf8(path, name, "файл колоды")
    fmt = "констрактед"
    header: list[str] | None = None
    cards: list[dict[str, Any]] = []
    lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _FORMAT.match(line)
        if m:
            if header is not None:
                raise SourceError(name, number, "формат указывают до таблицы карт")
            fmt = m["value"].strip().lower()
            if fmt not in FORMATS:
                raise SourceError(name, number, f"неизвестный формат «{fmt}»; известны: {', '.join(FORMATS)}")
            continue
        if not line.startswith("|"):
            raise SourceError(
                name, number, f"ожидается «формат: …» или строка таблицы карт «| … |», а не «{line}»"
            )
        cells = _cells(line)
        if not cells:
            raise SourceError(name, number, "строка таблицы должна начинаться и заканчиваться «|»")
        if header is None:
            header = table_header(cells, name, number, ("количество", "название", "тип"))
            continue
        if len(cells) != len(header):
            raise SourceError(name, number, f"ячеек {len(cells)}, а столбцов в таблице {len(header)}")
        cards.append(_card(dict(zip(header, cells, strict=True)), name, number))
        lines.append(number)
    if not cards:
        raise SourceError(name, None, "в колоде нет ни одной карты (нужна таблица с заголовком и строками)")
    return {"format": fmt, "cards": cards}, lines


def _card(row: dict[str, str], name: str, number: int) -> dict[str, Any]:
    try:
        return card_of(row)
    except ValueError as exc:
        raise SourceError(name, number, str(exc)) from None


def card_of(row: dict[str, str]) -> dict[str, Any]:
    """One row of a deck table (column -> cell) as deck data; ValueError says what is wrong."""
    card: dict[str, Any] = {}
    for column, value in row.items():
        if value == "":
            continue
        key = COLUMNS[column]
        if key in ("count", "strike", "life") or (key == "cost" and not _VARIABLE_COST.match(value)):
            if not value.isdigit():
                raise ValueError(f"столбец «{column}»: ожидается число, получено «{value}»")
            card[key] = int(value)
        else:
            card[key] = value
    if card.get("count", 0) < 1:
        raise ValueError("количество карт должно быть не меньше 1")
    if "name" not in card:
        raise ValueError("у карты должно быть название")
    if "type" not in card:
        raise ValueError(f"у «{card['name']}» не указан тип")
    if "classes" in card:
        _check_classes(card)
    return card


_CLASS = re.compile(r"[а-яё]+(?:-[а-яё]+)*(?: [а-яё]+(?:-[а-яё]+)*)*", re.IGNORECASE)


def _check_classes(card: dict[str, Any]) -> None:
    """The «класс» cell: classes separated by commas, each of one or more words («эльф», «страж
    леса»), on a card of any type (interpretation I-70)."""
    words = [" ".join(w.split()) for w in card["classes"].split(",")]
    bad = next((w for w in words if not _CLASS.fullmatch(w)), None)
    if bad is not None:
        shown = bad or card["classes"]
        example = "«эльф», «гном, воин», «страж леса»"
        raise ValueError(f"столбец «класс»: ожидаются классы через запятую ({example}): «{shown}»")
