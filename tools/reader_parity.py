"""The reader's parity snapshot (issue 25): what the card reader compiles for every card text of the project.

Every card text of ``features/`` (the «текст» column of a card table, with the card's name, type and
cost) and of ``engine/examples/`` is read by :func:`berserk_engine.grammar.parse_card_text`; the compiled
abilities are written in a stable form (:func:`stable`: a node as its class and fields, in order) to
``tests/data/reader_parity.json``. A text the reader refuses is recorded as refused (its message is not
frozen: the new reader words its errors its own way, but must refuse the same texts).

The snapshot was taken from the old reader (the catalogue of phrases) before its parts moved to the
grammar of :mod:`berserk_engine.language`; ``tests/test_reader_parity.py`` holds the reader to it — a
change of a compiled node is a change of meaning, and the file is regenerated only by this script,
on purpose, with the reason in the commit. Run:

    python tools/reader_parity.py            # rewrite tests/data/reader_parity.json
    python tools/reader_parity.py --check    # exit 1 and list the texts whose reading changed
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from berserk_rules.rulebook.card_texts import card_rows

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "data" / "reader_parity.json"
SPELLS = ("заклинание", "событие", "spell", "event")
X = ("Х", "X")


def cards(root: Path = ROOT) -> list[dict[str, Any]]:
    """Every distinct (text, card name, spell, cost holds Х) of the project, with its first place."""
    found: dict[tuple[str, str, bool, bool], dict[str, Any]] = {}

    def add(text: str, where: str, name: str, kind: str, cost: str) -> None:
        text = " ".join(text.split())
        if not text:
            return
        spell = kind.strip().lower() in SPELLS
        cost_x = any(x in cost for x in X)
        key = (text, name, spell, cost_x)
        if key not in found:
            found[key] = {"text": text, "card": name, "spell": spell, "cost_x": cost_x, "where": where}

    for row in card_rows(root):
        add(row.text, row.where, row.name, row.kind, row.cost)
    return sorted(found.values(), key=lambda c: (c["text"], c["card"], c["spell"], c["cost_x"]))


def stable(value: Any) -> Any:
    """A compiled node as plain data in a stable order: a dataclass as its class and its fields, a set
    sorted, a tuple as a list."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: stable(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"node": type(value).__name__, **fields}
    if isinstance(value, frozenset | set):
        return sorted((stable(v) for v in value), key=lambda v: json.dumps(v, ensure_ascii=False))
    if isinstance(value, tuple | list):
        return [stable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): stable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"узел {type(value).__name__} нельзя записать в снимок: {value!r}")


def reading(card: dict[str, Any]) -> Any:
    """What the reader compiles for a card's text: its abilities, or ``"refused"``."""
    import berserk_engine  # noqa: F401  (loads the engine's catalogue)
    from berserk_engine.errors import CardTextError
    from berserk_engine.grammar import parse_card_text

    try:
        abilities = parse_card_text(card["card"], card["text"], spell=card["spell"], cost_x=card["cost_x"])
    except CardTextError:
        return "refused"
    return [stable(a) for a in abilities]


def generate(root: Path = ROOT) -> dict[str, Any]:
    found = cards(root)
    return {
        "about": "Что читатель текста карт компилирует для каждого текста карты проекта "
        "(tools/reader_parity.py; "
        "задача 25): снимок старого читателя, с которым сравнивается новый.",
        "cards": [{**c, "reading": reading(c)} for c in found],
    }


def dumps(data: dict[str, Any]) -> str:
    """One card a line (a change shows as the lines of the cards it changes)."""
    lines = [json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in data["cards"]]
    about = json.dumps(data["about"], ensure_ascii=False)
    return '{"about": ' + about + ',\n "cards": [\n' + ",\n".join(lines) + "\n]}\n"


def differences(committed: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """The texts whose reading differs between two snapshots (and texts only one of them has)."""
    old = {(c["text"], c["card"], c["spell"], c["cost_x"]): c for c in committed["cards"]}
    new = {(c["text"], c["card"], c["spell"], c["cost_x"]): c for c in now["cards"]}
    out = [f"{old[k]['where']}: текста нет в снимке сейчас: «{k[0]}»" for k in old.keys() - new.keys()]
    out += [
        f"{new[k]['where']}: текста нет в зафиксированном снимке: «{k[0]}»" for k in new.keys() - old.keys()
    ]
    for key in sorted(old.keys() & new.keys()):
        if old[key]["reading"] != new[key]["reading"]:
            out.append(f"{new[key]['where']}: другой узел: «{key[0]}»")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a reading differs from the snapshot")
    args = ap.parse_args(argv)
    data = generate()
    if args.check:
        committed = json.loads(OUTPUT.read_text(encoding="utf-8"))
        diff = differences(committed, data)
        for line in diff:
            print(line, file=sys.stderr)
        new = "текста нет в зафиксированном снимке"  # a card text added later: new, not a parity question
        return 1 if any(new not in line for line in diff) else 0
    OUTPUT.write_text(dumps(data), encoding="utf-8")
    refused = sum(1 for c in data["cards"] if c["reading"] == "refused")
    print(f"{len(data['cards'])} текстов карт; не читаются: {refused}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
