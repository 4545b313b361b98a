"""``berserk-rules cards FILE [--json] [--show]``: read every card of a list with the reference engine and
report each text it cannot read — the tool an engine author or a judge runs on their own card list.
``--show`` prints how the engine read each card: per ability its canonical words and the tree of its
reading, each node with the glossary term or rule it implements (``--json``: the same as data).

The file is a card table in the columns of a deck file (:mod:`berserk_rules.rulebook.decks`: название, тип,
подтип, класс, стоимость, стихия, удар, жизни, текст; «количество» and a «формат: …» line are allowed
and ignored), UTF-8, comments with ``#``::

    | название | тип      | класс | стоимость | удар | жизни | текст                                  |
    | Палач    | существо | орк   | 3         | 3    | 3     | Когда это существо убивает существо: … |

«класс» holds a creature's classes (races, factions), comma-separated: the texts of the list that select
by class («ваш эльф», «ваших гномов») are read against them, and a class on a card that is not a
creature is an error naming the line.

For a card the engine cannot read the report names the file, the line and the column where the
sentence starts, the card, the sentence and what was not understood, with the nearest forms the
engine reads. Exit code 0: every card is read; 1: some are not (each printed as
``file:line:column: …``); 2: the file cannot be read (missing, not UTF-8, a bad table — the error
names the file and the line).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from berserk_rules.corpus import read_utf8
from berserk_rules.errors import SourceError
from berserk_rules.reference.card_reading import readings, unreadable
from berserk_rules.rulebook.decks import _cells, card_of, table_header

REQUIRED = ("название", "тип")


def read_cards(path: Path, shown: str) -> list[tuple[int, str, dict[str, Any]]]:
    """(line, the raw line, card data) for every row of the card table. Raises SourceError."""
    text = read_utf8(path, shown, "файл карт")
    header: list[str] | None = None
    rows: list[tuple[int, str, dict[str, Any]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or (header is None and line.lower().startswith("формат")):
            continue
        if not line.startswith("|"):
            raise SourceError(shown, number, f"ожидается строка таблицы карт «| … |», а не «{line}»")
        cells = _cells(line)
        if not cells:
            raise SourceError(shown, number, "строка таблицы должна начинаться и заканчиваться «|»")
        if header is None:
            header = table_header(cells, shown, number, REQUIRED)
            continue
        if len(cells) != len(header):
            raise SourceError(shown, number, f"ячеек {len(cells)}, а столбцов в таблице {len(header)}")
        row = dict(zip(header, cells, strict=True))
        row.setdefault("количество", "1")
        try:
            card = card_of(row)
        except ValueError as exc:
            raise SourceError(shown, number, str(exc)) from None
        rows.append((number, raw, card))
    if not rows:
        raise SourceError(shown, None, "в файле нет ни одной карты (нужна таблица с заголовком и строками)")
    return rows


def run(args: argparse.Namespace) -> int:
    rows = read_cards(Path(args.file), args.file)
    if args.show:
        return _show(rows, args)
    found = unreadable(rows, args.file)
    if args.json:
        print(json.dumps({"cards": len(rows), "unreadable": found}, ensure_ascii=False, indent=2))
        return 1 if found else 0
    for f in found:
        where = f", предложение {f['position'][0]}" if f["position"] else ""
        hint = ("; ближайшие формы: " + "; ".join(f"«{n}»" for n in f["nearest"])) if f["nearest"] else ""
        where = f"{f['file']}:{f['line']}:{f['column']}: карта «{f['card']}»{where}"
        print(f"{where}: {f['message']}: «{f['sentence']}»{hint}")
    verdict = f"не прочитаны: {len(found)}" if found else "все прочитаны"
    print(f"Карт в списке: {len(rows)} — {verdict}.")
    return 1 if found else 0


def _show(rows: list[tuple[int, str, dict[str, Any]]], args: argparse.Namespace) -> int:
    """``cards --show``: how the engine read every card — per ability its canonical words and the tree
    of its reading, each node with the glossary term or rule it implements."""
    cards = readings(rows, args.file)
    unread = sum(1 for c in cards if "error" in c)
    if args.json:
        print(json.dumps({"cards": cards, "unreadable": unread}, ensure_ascii=False, indent=2))
        return 1 if unread else 0
    for card in cards:
        print(f"{card['file']}:{card['line']}: карта «{card['card']}»")
        if "error" in card:
            print(f"  не прочитана: {card['error']['message']}")
            continue
        if not card["abilities"]:
            print("  без текста")
        for number, ability in enumerate(card["abilities"], start=1):
            print(f"  {number}. {ability['text']}")
            print(f"     как понято: {ability['canonical']} ({ability['kind']})")
            _print_node(ability["tree"], "     ")
    print(f"Карт в списке: {len(rows)}, не прочитаны: {unread}.")
    return 1 if unread else 0


def _print_node(node: dict[str, Any], indent: str) -> None:
    if "words" in node:
        basis = f" [{_basis('term:' + node['term'])}]" if node.get("term") else ""
        optional = " (необязательно)" if node.get("optional") else ""
        print(f"{indent}{node['kind']}: «{node['words']}»{basis}{optional}")
    for slot in node.get("slots", []):
        words = "; ".join(f"«{s['word']}» — {_basis(s['source'])}" for s in slot.get("sources", []))
        print(f"{indent}  · «{slot['words']}»" + (f": {words}" if words else ""))
    for part in node.get("parts", []):
        _print_node(part, indent + ("  " if "words" in node else ""))


BASIS = {"term": "термин", "rule": "правило", "interpretation": "толкование"}


def _basis(source: str) -> str:
    """«term:герой» → «термин герой»; a glossary term id, a rule number or an interpretation."""
    kind, _, ref = source.partition(":")
    return f"{BASIS.get(kind, kind)} {ref}"
