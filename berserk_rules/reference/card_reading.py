"""Card text read by the reference engine, for ``berserk-rules cards`` and the card tables of ``ask``:
each card of a list that the engine cannot read, with the file, line, column, sentence and what was
not understood; and, for ``cards --show``, how it read each ability — its canonical words and the tree
of its reading with the glossary term or rule of each node (the list itself is read by
:mod:`berserk_rules.commands.cards`)."""

from __future__ import annotations

from typing import Any


def unreadable(rows: list[tuple[int, str, dict[str, Any]]], shown: str) -> list[dict[str, Any]]:
    """Every card the reference engine does not read, with where and why: ``kind`` "outside" — the
    text uses a mechanic our rules do not define (named, with where it is defined: never read as
    something else), or "unread" — phrasing the reader cannot read. What the engine says about a card
    is cached on disk (:mod:`berserk_rules.reference.reading_cache`)."""
    from berserk_rules.reference.reading_cache import MISSING, findings

    cached = findings()
    found = []
    for number, raw, card in rows:
        finding = cached.get(card)
        if finding is MISSING:
            finding = _finding(card)
            cached.put(card, finding)
        if finding is not None:
            text = str(card.get("text", "") or "")
            offset = finding["offset"]
            placed = {"file": shown, "line": number, "column": _column_at(raw, text, offset)}
            found.append({**placed, **{k: v for k, v in finding.items() if k != "offset"}})
    cached.save()
    return found


def _finding(card: dict[str, Any]) -> dict[str, Any] | None:
    """What the engine says about a card it does not read (None: it reads); ``offset``: the character
    of its text the finding points at."""
    from berserk_engine.cards import CardDef
    from berserk_engine.errors import CardTextError

    text = str(card.get("text", "") or "")
    outside = outside_mechanics(text, card["name"])
    if outside:
        first = outside[0]
        return {
            "offset": first["start"],
            "card": card["name"],
            "kind": "outside",
            "sentence": text[first["start"] : first["end"]],
            "position": None,
            "message": "механика не из этих правил: "
            + "; ".join(f"{m['name']} — {m['where']}" for m in outside),
            "mechanics": outside,
            "nearest": [],
        }
    props = {k: v for k, v in card.items() if k not in ("name", "type", "count")}
    try:
        CardDef.build(card["name"], card["type"], **props)
    except CardTextError as exc:
        return {
            "offset": exc.position[1] if exc.position else 0,
            "card": exc.card,
            "kind": "unread",
            "sentence": exc.text,
            "position": list(exc.position) if exc.position else None,
            "message": exc.message,
            "nearest": exc.nearest,
        }
    return None


def outside_mechanics(text: str, name: str = "") -> list[dict[str, Any]]:
    """The mechanics outside our rules that a card text uses (:mod:`berserk_engine.language.outside`),
    each with its name, where it is defined, why it is not ours and where it stands in the text; the
    card's own ``name`` in its text is the card, not a mechanic («Засада получает …»)."""
    from berserk_engine.language.outside import mechanics_in, outside

    source = outside().source
    return [
        {
            "name": f.mechanic.name,
            "where": f.mechanic.where_message(source),
            "defined": list(f.mechanic.defined),
            "why": f.mechanic.why,
            "start": f.start,
            "end": f.end,
        }
        for f in mechanics_in(text, [name] if name else [])
    ]


def _column_at(raw: str, text: str, offset: int) -> int:
    """The column (from 1) of a character of the card's text on its line; 1 when the text cannot be
    found on the line (a JSON list: the object's line)."""
    cell = raw.find(text[: max(1, min(len(text), 20))]) if text else -1
    return cell + offset + 1 if cell >= 0 else 1


ABILITY_KINDS = {
    "triggered": "срабатывающая способность",
    "activated": "активируемая способность",
    "spell": "способность заклинания",
    "static": "постоянная способность",
}
NODE_KINDS = {
    "sentence": "способность",
    "head": "условие или оплата",
    "trigger": "условие срабатывания",
    "effect": "эффект",
    "phrase": "фраза",
}


def readings(rows: list[tuple[int, str, dict[str, Any]]], shown: str) -> list[dict[str, Any]]:
    """Every card of a list with how the reference engine reads it: per ability its text, kind,
    canonical words and reading tree; a card it cannot read carries its ``error`` (as
    :func:`unreadable` reports it)."""
    from berserk_engine.cards import CardDef
    from berserk_engine.errors import CardTextError
    from berserk_engine.grammar import reading, render

    errors = {(f["line"], f["card"]): f for f in unreadable(rows, shown)}
    out = []
    for number, _raw, card in rows:
        entry: dict[str, Any] = {"file": shown, "line": number, "card": card["name"]}
        error = errors.get((number, card["name"]))
        if error is not None:
            out.append({**entry, "error": error})
            continue
        props = {k: v for k, v in card.items() if k not in ("name", "type", "count")}
        try:
            built = CardDef.build(card["name"], card["type"], **props)
            cost_x = isinstance(card.get("cost"), str)
            abilities = []
            for ability in built.abilities:
                tree = reading(ability.text, spell=built.type == "spell", cost_x=cost_x)
                abilities.append(
                    {
                        "text": ability.text,
                        "kind": ABILITY_KINDS.get(ability.kind, ability.kind),
                        "canonical": render(tree),
                        "tree": _node(tree),
                    }
                )
        except CardTextError as exc:  # read as a card, not alone: cannot happen, said all the same
            out.append({**entry, "error": {"kind": "unread", "message": exc.message}})
            continue
        out.append({**entry, "abilities": abilities})
    return out


def _node(tree: Any) -> dict[str, Any]:
    """One node of a reading: its kind, its canonical words, the glossary term or rule it implements,
    the slots it fills (each with the terms and rules of its words) and its parts."""
    from berserk_engine.grammar import _ANY_FIELD, canonical_words, render

    node: dict[str, Any] = {"kind": NODE_KINDS.get(tree.kind, tree.kind)}
    if tree.kind != "sentence":
        node["words"] = render(tree)
    if tree.phrase is not None:
        node["term"] = tree.phrase.term
        node["form"] = tree.phrase.format
        kinds = dict(_ANY_FIELD.findall(tree.phrase.format))
        node["slots"] = [
            _slot(canonical_words(kinds.get(name) or None, value), value)
            for name, value in (tree.named or {}).items()
        ]
    if tree.optional:
        node["optional"] = True
    if tree.parts:
        node["parts"] = [_node(p) for p in tree.parts]
    return node


def _slot(words: str, value: Any) -> dict[str, Any]:
    """A slot's words, and — for a target — the term, rule or interpretation of each of its words."""
    from berserk_engine.abilities import Selector
    from berserk_engine.language.morphology import sources
    from berserk_engine.language.tokens import TextError

    slot: dict[str, Any] = {"words": words}
    if isinstance(value, Selector):
        try:
            slot["sources"] = [{"word": w, "source": s} for w, s in sources(words)]
        except TextError:
            pass
    return slot
