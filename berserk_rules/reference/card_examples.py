"""Examples for the card language's catalogue (:mod:`berserk_rules.reference.card_language`): for each
construction, the shortest sentence of the project's card texts (``features/`` and
``engine/examples/``, :func:`berserk_rules.rulebook.card_texts.card_rows`) that holds it and really reads
— the engine reads the sentence by the grammar (:func:`berserk_engine.grammar._grammar_sentence`) and it
compiles as a card's text (:func:`berserk_engine.grammar.parse_card_text`, with the card's name, type
and cost). A construction no text uses gets
none, and the page says so.

The search parses a few hundred sentences (seconds), so the site does not run it: it shows the
examples of ``docs/card-examples.json`` (:func:`catalogue`), which
``python -m berserk_rules.reference.card_examples --write`` regenerates by the search
(:func:`search_catalogue`). A test (``tests/test_card_language.py``) checks that each example of the file
is still in its card's text, reads and holds its construction, and that the file gives an example to
every construction the search finds one for — a change of the grammar, the vocabulary or the card
texts that breaks this fails it until the file is regenerated (it keeps no line numbers: the site finds
the sentence's line in its file at build).

An Earley parse is milliseconds a sentence: sentences are tried shortest first, and a sentence is
parsed only when its words could make a construction that has no example yet — the runs of terminals of
one of its alternatives stand side by side among the terminals of the sentence's words (:func:`_fits`)
— so the parser stops being asked once each construction has its example.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from berserk_rules.reference.card_language import Construction, Example, constructions


@dataclass(frozen=True)
class _Sentence:
    text: str  # as the engine splits the card's text (the key of its caches)
    row: Any  # the CardRow it comes from


def _sentences(root: Path) -> list[_Sentence]:
    """Every sentence of the project's card texts, once (its first card), shortest first."""
    from berserk_engine.grammar import split_sentences

    from berserk_rules.rulebook.card_texts import card_rows

    seen: dict[str, _Sentence] = {}
    for row in card_rows(root):
        for _offset, sentence in split_sentences(row.text):
            seen.setdefault(sentence.strip(), _Sentence(sentence, row))
    return sorted(seen.values(), key=lambda s: (len(s.text.strip()), s.text.strip()))


def _spell(row: Any) -> bool:
    return bool(row.kind.strip().lower() in ("заклинание", "событие"))


def _reads(sentence: _Sentence) -> bool:
    """The sentence compiles as the engine reads a card's text (the card's name, type and cost, the
    sentence as its whole text: what the catalogue shows is that sentence)."""
    from berserk_engine.errors import CardTextError
    from berserk_engine.grammar import parse_card_text

    row = sentence.row
    try:
        parse_card_text(row.name or "Карта", sentence.text, spell=_spell(row), cost_x="Х" in row.cost)
    except (CardTextError, ValueError):
        return False
    return True


def _features(sentence: str) -> tuple[list[Any], frozenset[str]] | None:
    """The parser's words of a sentence and the keywords among their analyses (None: words that are no
    card text of the grammar)."""
    from berserk_engine.language import grammar as g
    from berserk_engine.language import tree as t

    body = sentence.strip().removesuffix(".").rstrip()
    try:
        tokens, analyses = t._analyzed(t.same_condition(body), ())
    except (t.ReadError, ValueError):
        return None
    ws = g.words(tokens, analyses)
    return ws, frozenset(a.value for options in analyses for a in options if a.category == "keyword")


def _fits(construction: Construction, words: list[frozenset[str]], marks: frozenset[str]) -> bool:
    """Could a sentence of these words (each word's terminals) hold the construction?"""
    if construction.mark:
        return construction.mark in marks
    if not construction.needs:
        return True

    def found(run: tuple[frozenset[str], ...]) -> bool:
        return any(
            all(run[j] & words[i + j] for j in range(len(run))) for i in range(len(words) - len(run) + 1)
        )

    return any(all(found(run) for run in runs) for runs in construction.needs)


def _held(ws: list[Any], marks: frozenset[str], waiting: dict[str, Construction]) -> set[str]:
    """The waiting constructions the grammar's reading of the sentence holds (one parse): named
    alternatives by name, connectors by their words, keywords by their word in a keyword ability."""
    from berserk_engine.language import grammar as g

    try:
        forest = g.parse(ws, "ability")
    except g.NoParse:
        return set()
    names: set[str] = set()
    joined: set[tuple[frozenset[str], ...]] = set()
    for sub in forest.iter_subtrees():
        names.add(str(sub.data))
        if sub.data == "connector":
            joined.add(tuple(frozenset(getattr(w, "terminals", ())) for w in sub.children))
    held = names & set(waiting)
    for c in waiting.values():
        if c.sequence and any(
            len(words) == len(c.sequence) and all(t in w for t, w in zip(c.sequence, words, strict=True))
            for words in joined
        ):
            held.add(c.name)
        elif c.mark and "named_keyword" in names and c.mark in marks:
            held.add(c.name)
    return held


def attach_examples(found: list[Construction], root: Path) -> None:
    """Give each construction the shortest sentence of the project's card texts that holds it and
    really reads: the engine reads the sentence by the grammar, and it compiles as a card's text."""
    from berserk_engine.grammar import _grammar_sentence

    waiting = {c.name: c for c in found if c.example is None}
    for sentence in _sentences(root):
        if not waiting:
            break
        features = _features(sentence.text)
        if features is None:
            continue
        ws, marks = features
        terminals = [frozenset(w.terminals) for w in ws]
        if not any(_fits(c, terminals, marks) for c in waiting.values()):
            continue
        held = _held(ws, marks, waiting)
        if not held or _grammar_sentence(sentence.text, _spell(sentence.row)) is None:
            continue
        if not _reads(sentence):
            continue
        example = Example(sentence.text.strip(), sentence.row.name, sentence.row.where)
        for name in held:
            waiting.pop(name).example = example


EXAMPLES = Path("docs") / "card-examples.json"  # under the project's root: the search's result


def search_catalogue(root: Path) -> list[Construction]:
    """Every construction of the card language with the example the search finds (or none) in the
    project under ``root`` — seconds: the site takes the examples from :data:`EXAMPLES` instead."""
    found = constructions()
    attach_examples(found, root)
    return found


def examples_json(found: list[Construction]) -> str:
    """The examples of ``found`` as the text of :data:`EXAMPLES` (by construction name, sorted)."""
    table = {  # the file without the line: an edit above the card does not make the file stale
        c.name: {
            "sentence": c.example.sentence,
            "card": c.example.card,
            "file": c.example.where.partition(":")[0],
        }
        for c in sorted(found, key=lambda c: c.name)
        if c.example is not None
    }
    return json.dumps(table, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def catalogue(root: Path) -> list[Construction]:
    """Every construction of the card language with its example (or none) from :data:`EXAMPLES` of the
    project under ``root`` (a test checks it is what :func:`search_catalogue` finds)."""
    found = constructions()
    path = root / EXAMPLES
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        table = {}
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: не читается ({exc})") from exc
    lines: dict[str, list[str]] = {}
    for c in found:
        entry = table.get(c.name)
        if entry is not None:
            c.example = Example(entry["sentence"], entry["card"], _where(root, entry, lines))
    return found


def _where(root: Path, entry: dict[str, str], lines: dict[str, list[str]]) -> str:
    """Where the card's row is, as :func:`berserk_rules.rulebook.card_texts.card_rows` says it:
    «file:line» of a feature's table or a ``.txt`` list — the first line with the card's name and the
    sentence («file» alone if none has both: the test on the file fails then) —, the file alone for a
    ``.toml`` card."""
    name = entry["file"]
    if name.endswith(".toml"):
        return name
    if name not in lines:
        try:
            lines[name] = (root / name).read_text(encoding="utf-8").splitlines()
        except OSError:
            lines[name] = []
    sentence, card = entry["sentence"], entry["card"]
    found = next((i for i, line in enumerate(lines[name], 1) if sentence in line and card in line), None)
    return name if found is None else f"{name}:{found}"


def sources(root: Path) -> list[Path]:
    """The files the catalogue is made of: the grammar, the vocabulary and the card texts."""
    from berserk_engine.language import grammar as g
    from berserk_engine.language.lexicon import FOLDER

    return [
        root / EXAMPLES,
        *sorted(g.FOLDER.glob("*.lark")),
        *sorted(FOLDER.glob("*.toml")),
        *sorted((root / "features").rglob("*.feature")),
        *sorted((root / "engine" / "examples").glob("*.toml")),
        *sorted((root / "engine" / "examples").glob("*.txt")),
    ]


def main(argv: list[str] | None = None) -> int:
    """``--write``: regenerate :data:`EXAMPLES` by the search."""
    parser = argparse.ArgumentParser(description="примеры каталога языка карт (docs/card-examples.json)")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--write", action="store_true", required=True, help="найти примеры и записать файл")
    args = parser.parse_args(argv)
    path = args.root / EXAMPLES
    path.write_text(examples_json(search_catalogue(args.root)), encoding="utf-8")
    print(f"записано: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
