"""Why a sentence does not read: the piece the grammar stopped in, from lark's Earley parser (issue 25).

When the parse of a sentence fails, :class:`~berserk_engine.language.grammar.NoParse` says where
(the word it stopped at, or the end of the words), which terminals the grammar expected there, and which
constituents it was inside (the rules of its Earley items and the words they began with). The data of
``lexicon/diagnosis.toml`` says which constituents are the pieces an error names — a target, a duration,
a value, a trigger condition or payment, an effect, an ability — with their kind in Russian, and how
expected terminals are named; the words of a category the lexicon knows name themselves. The nearest
forms come from the frames' examples (difflib). Nothing here reads a sentence: only the grammar does.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import cache
from pathlib import Path
from typing import Any

from berserk_engine.language import grammar as g
from berserk_engine.language.lexicon import FOLDER, fold, lexicon
from berserk_engine.language.tokens import Token

DATA = FOLDER / "diagnosis.toml"
_MOST_EXPECTED = 8  # the expected words an error lists at most


@dataclass(frozen=True)
class PieceKind:
    """An entry of ``diagnosis.toml``: the constituents (rule patterns) an error names, and how."""

    rules: tuple[str, ...]
    level: str  # "slot" | "head" | "sentence"
    kind: str
    until: str  # "word" | "punct"
    within: bool = False

    def names(self, rule: str) -> bool:
        return _named_by(self.rules, rule)


@cache  # a grammar has a few hundred rule names, asked again at every piece of every error
def _named_by(patterns: tuple[str, ...], rule: str) -> bool:
    return any(fnmatchcase(rule, pattern) for pattern in patterns)


@dataclass(frozen=True)
class Diagnosis:
    """The data of the diagnosis (read once)."""

    pieces: tuple[PieceKind, ...]
    ends: frozenset[str]
    connectors: tuple[tuple[str, ...], ...]
    connector_kind: str
    connector_detail: str
    value_kind: str
    expected: dict[str, str]


@cache
def data(path: Path = DATA) -> Diagnosis:
    raw: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    pieces = tuple(
        PieceKind(tuple(p["rules"]), p["level"], p["kind"], p["until"], bool(p.get("within", False)))
        for p in raw["piece"]
    )
    return Diagnosis(
        pieces,
        frozenset(raw["ends"]),
        tuple(tuple(fold(c).split()) for c in raw["connectors"]),
        raw["connector_kind"],
        raw["connector_detail"],
        raw["value_kind"],
        dict(raw["expected"]),
    )


@dataclass(frozen=True)
class Blame:
    """The piece an error names: its kind (None: no piece, the sentence as a whole) and its words."""

    kind: str | None
    words: str
    detail: str = ""


def kind_of(rule: str) -> str | None:
    """The kind of piece a rule of the grammar is, as an error names it (None: no piece)."""
    return next((k.kind for k in data().pieces if k.names(rule)), None)


def in_piece_message(kind: str, words: str, problem: str) -> str:
    """A problem of a piece found when its reading is compiled («неизвестная цель «…»: …»)."""
    prefix = f"«{words}»: "
    return f"{kind} «{words}»: {problem[len(prefix) :] if problem.startswith(prefix) else problem}"


def _category(terminal: str) -> str:
    return terminal.split("__")[0]


def _examples(node: Any) -> Iterator[str]:
    """Every example sentence in a data file's tables (``example``, ``examples``)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("example", "examples"):
                yield from [value] if isinstance(value, str) else value
            else:
                yield from _examples(value)
    elif isinstance(node, list):
        for item in node:
            yield from _examples(item)


@cache
def printed_forms() -> dict[str, Counter[str]]:
    """For every terminal of the grammar, the words that match it in the examples of the lexicon's data
    files (frames.toml, keywords.toml …), as printed there, with how often: what an error shows for
    «ожидается» — a word as a card prints it («может», «выберите»), the likeliest first."""
    from berserk_engine.language.morphology import analyze
    from berserk_engine.language.tokens import TextError, tokenize

    found: dict[str, Counter[str]] = {}
    for path in sorted(FOLDER.glob("*.toml")):
        for example in _examples(tomllib.loads(path.read_text(encoding="utf-8"))):
            try:
                tokens = tokenize(example)
                analyses = analyze(tokens)
            except (TextError, ValueError):
                continue
            for token, word in zip(tokens, g.words(tokens, analyses), strict=True):
                for terminal in word.terminals:
                    found.setdefault(terminal, Counter())[token.text.lower()] += 1
    return found


def expected_words(expected: Iterable[str]) -> list[str]:
    """What the grammar expected, in words, the likeliest first (the most frequent in the examples): a
    terminal by the name ``diagnosis.toml`` gives its category, else by the words that match it in the
    examples as printed there (or, when none does, the commonest printed word of its category put in the
    terminal's form by pymorphy3), else by
    the lexicon's normal form of its category."""
    d = data()
    forms = printed_forms()
    lemmas = _lemmas_by_category()
    by_category = _forms_by_category()
    weighed: dict[str, int] = {}
    for terminal in expected:
        category = _category(terminal)
        seen = forms.get(terminal, Counter())
        weight = sum(seen.values())
        if category in d.expected:
            named = [d.expected[category]]
        elif seen:
            named = [f"«{w}»" for w, _ in seen.most_common(2)]
        elif category in by_category:  # no example in this form: the category's word put in this form
            (word, _), *_ = by_category[category].most_common(1)
            key = terminal.partition("__")[2]
            named = [f"«{_inflected(word, key) if key else word}»"]
        else:
            named = lemmas.get(category, [])[:1]
        for words in named:
            weighed[words] = max(weighed.get(words, 0), weight)
    return sorted(weighed, key=lambda w: (-weighed[w], w))


@cache  # the lexicon does not change in a process; an error message asks it every time
def _lemmas_by_category() -> dict[str, list[str]]:
    """Each category's words as the lexicon writes them («…»), in the lexicon's order."""
    lemmas: dict[str, list[str]] = {}
    for entry in lexicon().entries:
        word = entry.form or entry.lemma or entry.like
        if word and f"«{word}»" not in lemmas.setdefault(entry.category.upper(), []):
            lemmas[entry.category.upper()].append(f"«{word}»")
    return lemmas


@cache
def _forms_by_category() -> dict[str, Counter[str]]:
    """Each category's printed words in the examples, with how often each is seen (read, never changed)."""
    by_category: dict[str, Counter[str]] = {}
    for terminal, seen in printed_forms().items():
        by_category.setdefault(_category(terminal), Counter()).update(seen)
    return by_category


@cache
def _inflected(word: str, key: str) -> str:
    from berserk_engine.language.morphology import inflect_word

    return inflect_word(word, key)


def _categories(token: Token) -> set[str]:
    from berserk_engine.language.morphology import analyses

    return {a.category for a in analyses(token.text)} if token.kind == "word" else set()


def _run(tokens: Sequence[Token], start: int, until: str) -> int:
    """The index after the last word of a piece that goes on from ``start``: up to punctuation
    (``until`` "punct") or also up to a preposition or connector (``until`` "word")."""
    ends = data().ends
    at = start
    while at < len(tokens) and tokens[at].kind != "punct":
        if until == "word" and at > start and _categories(tokens[at]) & ends:
            break
        at += 1
    return at


def _connector(tokens: Sequence[Token], at: int) -> str | None:
    """The connector of the card language that begins at the word ``at``, as written, or None."""
    words = [fold(t.text) for t in tokens[at:]]
    for connector in sorted(data().connectors, key=len, reverse=True):
        if tuple(words[: len(connector)]) == connector:
            return " ".join(t.text for t in tokens[at : at + len(connector)])
    return None


def _text(text: str, tokens: Sequence[Token], start: int, end: int) -> str:
    if start >= end or start >= len(tokens):
        return ""
    return text[tokens[start].start : tokens[end - 1].end]


def blame(
    text: str, tokens: Sequence[Token], at: int, pieces: Iterable[g.Piece], agreeing: bool = False
) -> Blame:
    """The piece of a sentence an error names, where the parse stopped at the word ``at`` (``len(tokens)``:
    the words ended) inside the constituents ``pieces`` (``agreeing``: the word there is out of
    agreement — the piece ends with it)."""
    d = data()
    pieces = list(pieces)
    opened = [(r, s) for r, s, is_open in pieces if is_open]
    if at < len(tokens) and any(r == "connector" and s == at for r, s in opened):
        connector = _connector(tokens, at)
        if connector is not None:
            return Blame(d.connector_kind, connector, d.connector_detail)

    def named(level: str, rule: str, start: int) -> PieceKind | None:
        return next(
            (k for k in d.pieces if k.level == level and k.names(rule) and not (k.within and start == 0)),
            None,
        )

    def piece(kind: PieceKind, start: int) -> Blame:
        end = max(at, _run(tokens, at, kind.until)) if at < len(tokens) else at
        if at < len(tokens) and kind.until == "word" and start < at:
            if _categories(tokens[at]) & d.ends:
                end = at  # the piece stops before a preposition the grammar did not expect in it
            elif agreeing:
                end = at + 1  # a word out of agreement: the piece ends with it
        return Blame(kind.kind, _text(text, tokens, start, end))

    def best(found: list[tuple[int, PieceKind]]) -> tuple[int, PieceKind] | None:
        """The innermost piece (the one that began last; of two, the first in the data)."""
        if not found:
            return None
        return max(found, key=lambda f: (f[0], -d.pieces.index(f[1])))

    def of(level: str, chosen: Iterable[tuple[str, int]]) -> list[tuple[int, PieceKind]]:
        return [(s, k) for r, s in chosen if (k := named(level, r, s)) is not None]

    closed = [(r, s) for r, s, is_open in pieces if not is_open and s < at]
    consumed = [(r, s) for r, s in opened if s < at]
    predicted = [(r, s) for r, s in opened if s == at]
    stopped = at < len(tokens)
    steps = (
        of("slot", consumed) + of("head", consumed),  # a part the parse read at least one word of
        of("sentence", predicted) if stopped else [],  # an effect or ability whose first word it is
        of("slot", predicted) if stopped else [],  # a part whose first word it is
        of("slot", closed) + of("head", closed),  # a part the parse completed just before it
    )
    for step in steps:
        found = best(step)
        if found is not None:
            return piece(found[1], found[0])
    if not stopped:  # the words ended inside an effect or an ability: it is named whole
        inside = of("sentence", opened)
        if inside:
            start, kind = min(inside, key=lambda i: (i[0], d.pieces.index(i[1])))
            return Blame(kind.kind, _text(text, tokens, start, len(tokens)))
        return Blame(None, text)
    return Blame(d.value_kind, _text(text, tokens, at, _run(tokens, at, "word")))


def out_of_agreement(exc: g.NoParse) -> bool:
    """Is the word where the parse stopped of a category the grammar expected there (in another case,
    number or gender)?"""
    if exc.token is None:
        return False
    return bool({c.upper() for c in _categories(exc.token)} & {_category(t) for t in exc.expected})


def detail_message(text: str, tokens: Sequence[Token], exc: g.NoParse) -> str:
    """What went wrong at the word the parse stopped at: a word out of agreement, a word not expected
    there (with what was), or words that end too early."""
    expected = expected_words(exc.expected)
    wanted = f"; ожидается {', '.join(expected[:_MOST_EXPECTED])}" + (
        " …" if len(expected) > _MOST_EXPECTED else ""
    )
    if exc.token is None:
        return f"после «{tokens[-1].text}» не хватает слов" + (wanted if expected else "")
    if out_of_agreement(exc):
        return f"слово «{exc.token.text}» не согласовано: здесь нужны другой падеж, число или род"
    if "noun" in _categories(exc.token) and any(_category(t) == "CLASS" for t in exc.expected):
        return not_a_class_message(exc.token.text)
    return f"не ожидается «{exc.token.text}»" + (wanted if expected else "")


def not_a_class_message(word: str) -> str:
    """A noun where the grammar expects a class of cards, that names no being and is not the lexicon's."""
    return (
        f"«{word}» — не класс карты: классом называется существо (одушевлённое существительное: «гном», "
        "«фея») или класс из словаря языка карт («механизм»)"
    )


def sentence_message(text: str, tokens: Sequence[Token], exc: g.NoParse) -> str:
    """A sentence the grammar does not read: the piece it stopped in, by its kind, and why."""
    found = blame(text, tokens, exc.at, exc.pieces, out_of_agreement(exc))
    why = found.detail or detail_message(text, tokens, exc)
    if found.kind is None:
        return f"в способности «{text}» {why}"
    return f"{found.kind} «{found.words}»: {why}"


def unknown_word_message(text: str, tokens: Sequence[Token], found: Blame, word: str) -> str:
    """A word nobody knows, named with the piece it stands in (``word``: the morphology's message)."""
    if found.kind is None:
        return word
    return f"{found.kind} «{found.words}»: {word}"


def nearest_examples(words: str, examples: Iterable[str]) -> list[str]:
    """The examples nearest to the words of a sentence that does not read («ближайшие формы»)."""
    from berserk_engine.language.morphology import close_matches

    return close_matches(words, dict.fromkeys(examples), n=3, cutoff=0.3)
