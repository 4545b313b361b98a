"""Every card text the project writes: the «текст» column of the card tables of ``features/`` and the
cards of ``engine/examples/`` (``*.toml`` and the card tables of ``*.txt``), in a fixed order — features
by path, then the examples. The tools that measure the card reader over the project's texts read them
here (``tools/reader_parity.py``, ``tools/paraphrases.py``)."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class CardRow:
    """One card text where it is written: ``where`` is «path[:line]» from the project's root."""

    text: str
    where: str
    name: str
    kind: str  # the card's type as written («существо», «заклинание» …)
    cost: str  # as written; "" when the table has no cost column


def card_rows(root: Path) -> Iterator[CardRow]:
    """The card texts of the project under ``root``, as written (not normalised, not deduplicated).
    Feature files are read through :func:`~berserk_rules.rulebook.features.parse_feature`, whose parses
    the process (and, while the site builds, the disk) keeps: the site reads them all anyway."""
    from berserk_rules.rulebook.features import parse_feature

    for path in sorted((root / "features").rglob("*.feature")):
        rel = path.relative_to(root).as_posix()
        document = parse_feature(path, root).document
        for table in _tables(document):
            rows = table["rows"]
            head = [c["value"].strip().lower() for c in rows[0]["cells"]]
            if "текст" not in head:
                continue
            for row in rows[1:]:
                cell = {h: c["value"].strip() for h, c in zip(head, row["cells"], strict=True)}
                yield CardRow(
                    cell["текст"],
                    f"{rel}:{row['location']['line']}",
                    cell.get("название", ""),
                    cell.get("тип", ""),
                    cell.get("стоимость", ""),
                )
    examples = root / "engine" / "examples"
    for path in sorted(examples.glob("*.toml")):
        for card in tomllib.loads(path.read_text(encoding="utf-8"))["card"]:
            yield CardRow(
                card["text"],
                f"engine/examples/{path.name}",
                card["name"],
                card["type"],
                str(card.get("cost", "")),
            )
    for path in sorted(examples.glob("*.txt")):
        columns: list[str] | None = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if columns is None:
                columns = [c.lower() for c in cells]
                continue
            cell = dict(zip(columns, cells, strict=True))
            yield CardRow(
                cell["текст"],
                f"engine/examples/{path.name}:{number}",
                cell["название"],
                cell["тип"],
                cell.get("стоимость", ""),
            )


def _tables(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if node.get("dataTable"):
            yield node["dataTable"]
        for value in node.values():
            yield from _tables(value)
    elif isinstance(node, list):
        for value in node:
            yield from _tables(value)
