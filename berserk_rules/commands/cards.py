"""``berserk-rules cards FILE [--json] [--show]``: read every card of a list with the reference engine and
report each text it cannot read — the tool an engine author or a judge runs on their own card list.
``--show`` prints how the engine read each card: per ability its canonical words and the tree of its
reading, each node with the glossary term or rule it implements (``--json``: the same as data).

The file is a card table in the columns of a deck file (:mod:`berserk_rules.rulebook.decks`: название, тип,
подтип, класс, стоимость, стихия, удар, жизни, текст; «количество» and a «формат: …» line are allowed
and ignored), UTF-8, comments with ``#`` — or the same columns as JSON (``*.json``: a list of objects,
``[{"название": "Палач", "тип": "существо", "класс": ["орк"], …}]``) or CSV (``*.csv``: a header row,
comma- or semicolon-separated)::

    | название | тип      | класс | стоимость | удар | жизни | текст                                  |
    | Палач    | существо | орк   | 3         | 3    | 3     | Когда это существо убивает существо: … |

«класс» holds a creature's classes (races, factions), comma-separated: the texts of the list that select
by class («ваш эльф», «ваших гномов») are read against them, and a class on a card that is not a
creature is an error naming the line. A bad row (cells that do not fit the header, a word where a
number is due, a class on a spell) is that row's error, reported like an unread text; it never refuses
the whole file.

For a card the engine cannot read the report names the file, the line and the column where the
sentence starts, the card, the sentence and what was not understood, with the nearest forms the
engine reads. A text that uses a mechanic our rules do not define («Модуль», «Подготовьте», «Выберите
одно из: …») is not read at all but named: «механика не из этих правил: …» with where the mechanic is
defined (:mod:`berserk_engine.language.outside`); the summary counts the cards not read by kind.
Exit code 0: every card is read; 1: some are not (each printed as
``file:line:column: …``); 2: the file cannot be read (missing, not UTF-8, a bad table — the error
names the file and the line; a bad header, a row that is no table row).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from berserk_rules.corpus import read_utf8
from berserk_rules.errors import SourceError
from berserk_rules.reference.card_reading import readings, unreadable
from berserk_rules.rulebook.decks import COLUMNS, _cells, card_of, table_header

REQUIRED = ("название", "тип")


Row = tuple[int, str, dict[str, Any]]


def read_cards(path: Path, shown: str) -> list[Row]:
    """(line, the raw line, card data) for every row of the card list. Raises SourceError — for the file,
    and for its first bad row (:func:`read_card_list` reports every bad row and keeps the others)."""
    rows, bad = read_card_list(path, shown)
    if bad:
        raise SourceError(shown, bad[0]["line"], bad[0]["message"])
    return rows


def read_card_list(path: Path, shown: str) -> tuple[list[Row], list[dict[str, Any]]]:
    """The cards of a list — a table of a deck file's columns, or the same columns as JSON (a list of
    objects) or CSV (a header row; comma or semicolon) — and every bad row, each that row's error in
    the form :func:`~berserk_rules.reference.card_reading.unreadable` reports (a bad row never refuses
    the whole file). Raises SourceError when the file itself cannot be read."""
    text = read_utf8(path, shown, "файл карт")
    suffix = path.suffix.lower()
    if suffix == ".json":
        raw_rows = _json_rows(text, shown)
    elif suffix == ".csv":
        raw_rows = _csv_rows(text, shown)
    else:
        raw_rows = _table_rows(text, shown)
    rows: list[Row] = []
    bad: list[dict[str, Any]] = []
    for number, raw, row in raw_rows:
        if isinstance(row, str):  # cells that do not fit the header: the row's error
            bad.append(_bad_row(shown, number, "", row))
            continue
        row.setdefault("количество", "1")
        try:
            rows.append((number, raw, card_of(row)))
        except ValueError as exc:
            bad.append(_bad_row(shown, number, row.get("название", ""), str(exc)))
    if not rows and not bad:
        raise SourceError(shown, None, "в файле нет ни одной карты (нужна таблица с заголовком и строками)")
    return rows, bad


def _bad_row(shown: str, number: int, name: str, message: str) -> dict[str, Any]:
    return {
        "file": shown,
        "line": number,
        "column": 1,
        "card": name,
        "kind": "row",
        "sentence": "",
        "position": None,
        "message": f"строка списка не прочитана: {message}",
        "nearest": [],
    }


def _table_rows(text: str, shown: str) -> list[tuple[int, str, dict[str, str] | str]]:
    header: list[str] | None = None
    rows: list[tuple[int, str, dict[str, str] | str]] = []
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
            rows.append((number, raw, f"ячеек {len(cells)}, а столбцов в таблице {len(header)}"))
            continue
        rows.append((number, raw, dict(zip(header, cells, strict=True))))
    return rows


def _json_rows(text: str, shown: str) -> list[tuple[int, str, dict[str, str] | str]]:
    """A JSON list of objects with the table's columns; a number stays a number, a list (of classes)
    is comma-joined; the line of each object is where it starts."""
    decoder = json.JSONDecoder()
    at = len(text) - len(text.lstrip())
    if not text[at:].startswith("["):
        raise SourceError(shown, 1, 'ожидается JSON: список объектов [{"название": …, "тип": …}, …]')
    at += 1
    rows: list[tuple[int, str, dict[str, str] | str]] = []
    header_checked = False
    while True:
        while at < len(text) and text[at] in " \t\r\n,":
            at += 1
        if at >= len(text) or text[at] == "]":
            break
        number = text.count("\n", 0, at) + 1
        try:
            item, end = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise SourceError(shown, exc.lineno, f"не JSON: {exc.msg}") from None
        at = end
        if not isinstance(item, dict):
            rows.append((number, "", "ожидается объект с полями карты"))
            continue
        cells = {str(k).lower(): _cell(v) for k, v in item.items()}
        if not header_checked:
            table_header(list(cells), shown, number, REQUIRED)
            header_checked = True
        unknown = [c for c in cells if c not in COLUMNS]
        if unknown:
            rows.append((number, "", f"неизвестные поля {unknown}; допустимы: {', '.join(COLUMNS)}"))
            continue
        rows.append((number, "", cells))
    return rows


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value).strip()


def _csv_rows(text: str, shown: str) -> list[tuple[int, str, dict[str, str] | str]]:
    import csv
    import io

    lines = text.splitlines()
    first = next((line for line in lines if line.strip()), "")
    delimiter = ";" if first.count(";") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    header: list[str] | None = None
    rows: list[tuple[int, str, dict[str, str] | str]] = []
    try:
        for cells in reader:
            number = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            if header is None:
                header = table_header([c.strip() for c in cells], shown, number, REQUIRED)
                continue
            if len(cells) != len(header):
                rows.append((number, "", f"ячеек {len(cells)}, а столбцов {len(header)}"))
                continue
            rows.append((number, "", dict(zip(header, (c.strip() for c in cells), strict=True))))
    except csv.Error as exc:
        raise SourceError(shown, reader.line_num, f"не CSV: {exc}") from None
    return rows


def run(args: argparse.Namespace) -> int:
    rows, bad = read_card_list(Path(args.file), args.file)
    if args.show:
        return _show(rows, bad, args)
    found = sorted(bad + unreadable(rows, args.file), key=lambda f: f["line"])
    total = len(rows) + len(bad)
    if args.json:
        document = {"cards": total, "unreadable": found, "kinds": kinds(found)}
        print(json.dumps(document, ensure_ascii=False, indent=2))
        return 1 if found else 0
    for f in found:
        where = f", предложение {f['position'][0]}" if f["position"] else ""
        hint = ("; ближайшие формы: " + "; ".join(f"«{n}»" for n in f["nearest"])) if f["nearest"] else ""
        card = f" карта «{f['card']}»{where}:" if f["card"] else ""
        sentence = f": «{f['sentence']}»" if f["sentence"] else ""
        print(f"{f['file']}:{f['line']}:{f['column']}:{card} {f['message']}{sentence}{hint}")
    verdict = f"не прочитаны: {len(found)}" if found else "все прочитаны"
    print(f"Карт в списке: {total} — {verdict}.{by_kind(found)}")
    return 1 if found else 0


KIND_NAMES = {
    "outside": "механика не из этих правил",
    "unread": "фразы, которых читатель не читает",
    "row": "строки списка с ошибкой",
}


def kinds(found: list[dict[str, Any]]) -> dict[str, Any]:
    """How many cards are not read, by kind (``outside``, ``unread``, ``row``), and how many cards use
    each mechanic outside our rules."""
    counts = {kind: sum(1 for f in found if f.get("kind") == kind) for kind in KIND_NAMES}
    mechanics: dict[str, int] = {}
    for f in found:
        for name in dict.fromkeys(m["name"] for m in f.get("mechanics", [])):
            mechanics[name] = mechanics.get(name, 0) + 1
    ordered = dict(sorted(mechanics.items(), key=lambda item: (-item[1], item[0])))
    return {**counts, "mechanics": ordered}


def by_kind(found: list[dict[str, Any]]) -> str:
    """The kinds of the cards not read, as a sentence — «Из них: механика не из этих правил — 3
    (Модуль — 2, Подготовить — 1); фразы, которых читатель не читает — 1.» — or nothing."""
    if not found:
        return ""
    counted = kinds(found)
    parts = []
    for kind, name in KIND_NAMES.items():
        if counted[kind]:
            part = f"{name} — {counted[kind]}"
            if kind == "outside":
                part += " (" + ", ".join(f"{m} — {n}" for m, n in counted["mechanics"].items()) + ")"
            parts.append(part)
    return " Из них: " + "; ".join(parts) + "."


def _show(rows: list[Row], bad: list[dict[str, Any]], args: argparse.Namespace) -> int:
    """``cards --show``: how the engine read every card — per ability its canonical words and the tree
    of its reading, each node with the glossary term or rule it implements."""
    cards = sorted(
        readings(rows, args.file)
        + [{"file": b["file"], "line": b["line"], "card": b["card"], "error": b} for b in bad],
        key=lambda c: c["line"],
    )
    errors = [c["error"] for c in cards if "error" in c]
    unread = len(errors)
    if args.json:
        document = {"cards": cards, "unreadable": unread, "kinds": kinds(errors)}
        print(json.dumps(document, ensure_ascii=False, indent=2))
        return 1 if unread else 0
    for card in cards:
        print(f"{card['file']}:{card['line']}: карта «{card['card']}»")
        if "error" in card:
            error = card["error"]
            if error.get("kind") == "outside":  # named, never read as something else
                for mechanic in error["mechanics"]:
                    print(f"  механика не из этих правил: {mechanic['name']} — {mechanic['where']}")
            else:
                print(f"  не прочитана: {error['message']}")
            continue
        if not card["abilities"]:
            print("  без текста")
        for number, ability in enumerate(card["abilities"], start=1):
            print(f"  {number}. {ability['text']}")
            print(f"     как понято: {ability['canonical']} ({ability['kind']})")
            _print_node(ability["tree"], "     ")
    print(f"Карт в списке: {len(cards)}, не прочитаны: {unread}.{by_kind(errors)}")
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
