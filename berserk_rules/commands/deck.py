"""``berserk-rules deck FILE [--json]``: check a deck list against the deck construction rules of the
sources (Название карты, Копия карты, Орда) — see :mod:`berserk_rules.rulebook.decks` for the file
and :mod:`berserk_rules.reference.deck_rules` for the check.

Exit code 0: the deck follows the rules; 1: it breaks some (each printed as ``file:line: [rule]
message``); 2: the file cannot be read (the error names the file and the line)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from berserk_rules.errors import SourceError
from berserk_rules.reference.deck_rules import DeckError, check
from berserk_rules.rulebook.decks import read_deck


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    deck, lines = read_deck(path, args.file)
    try:
        problems = check(deck)
    except DeckError as exc:
        raise SourceError(args.file, _line_of(str(exc), deck, lines), str(exc)) from None
    found = [
        {**p, "file": args.file, "line": lines[p["index"]] if 0 <= p["index"] < len(lines) else None}
        for p in problems
    ]
    copies = sum(card["count"] for card in deck["cards"])
    names = len({card["name"] for card in deck["cards"]})
    if args.json:
        print(
            json.dumps(
                {"format": deck["format"], "cards": copies, "names": names, "problems": found},
                ensure_ascii=False,
                indent=2,
            )
        )
        return 1 if found else 0
    for p in found:
        print(f"{p['file']}:{p['line']}: [{p['rule']}] {p['message']}")
    verdict = f"нарушений: {len(found)}" if found else "соответствует правилам"
    print(f"Колода для турнира «{deck['format']}»: карт {copies}, названий {names} — {verdict}.")
    return 1 if found else 0


def _line_of(message: str, deck: dict, lines: list[int]) -> int | None:
    """The line of the card an engine error names («карта «Гном»: …»)."""
    for card, line in zip(deck["cards"], lines, strict=True):
        if f"«{card['name']}»" in message:
            return line
    return None
