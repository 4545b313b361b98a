"""Card text read by the reference engine, for ``berserk-rules cards`` and the card tables of ``ask``:
each card of a list that the engine cannot read, with the file, line, column, sentence and what was
not understood (the list itself is read by :mod:`berserk_rules.commands.cards`)."""

from __future__ import annotations

from typing import Any


def unreadable(rows: list[tuple[int, str, dict[str, Any]]], shown: str) -> list[dict[str, Any]]:
    """Every card the reference engine cannot read, with where and why."""
    from berserk_engine.cards import CardDef
    from berserk_engine.errors import CardTextError

    found = []
    for number, raw, card in rows:
        props = {k: v for k, v in card.items() if k not in ("name", "type", "count")}
        try:
            CardDef.build(card["name"], card["type"], **props)
        except CardTextError as exc:
            found.append(
                {
                    "file": shown,
                    "line": number,
                    "column": _column(raw, card.get("text", ""), exc),
                    "card": exc.card,
                    "sentence": exc.text,
                    "position": list(exc.position) if exc.position else None,
                    "message": exc.message,
                    "nearest": exc.nearest,
                }
            )
    return found


def _column(raw: str, text: str, exc: Any) -> int:
    """The column (from 1) of the line where the unreadable sentence starts; the card's text cell when
    the sentence cannot be found, the start of the line when the error is not about the text."""
    if not text:
        return 1
    cell = raw.find(text[: max(1, min(len(text), 20))])
    if cell < 0:
        return 1
    offset = exc.position[1] if exc.position else 0
    return cell + offset + 1
