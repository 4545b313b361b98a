"""The card's own name in its text, unquoted (issue 25: «the card's own name — several words; matched by
its head word in any case»; interpretation I-76): «Когда Лесной Страж вступает в игру, …», «… ранить
Лесного Стража на 2», «Лесной Страж получает +1 к удару».

The name is matched word by word with pymorphy3: the words up to the name's head noun inflect together
(each a form of the name's word, all in one case and number — the number of the name —, an adjective in
the head's gender), the words after the head stay as printed («Страж леса» → «Стража леса»). A word of
the name the dictionary does not know (an invented name) is inflected by pymorphy3's guesser: it is the
name's own word, printed on the card, not a word of the text to be guessed. Only the card's own name
matches, written with the capital letters of the name — «ваших стражей леса» (a class) is no name, and
another card's name, unquoted, is no name of this card: its words stay words (an unknown word is an
error, as any other).

:func:`quoted` writes every occurrence as the name in quotes, «Лесной Страж» — the form the readers read
as the card itself («Название карты»): the text the engine keeps and reads again (a card's abilities
are read again by their words when they resolve and from last known information) is then complete
without the card beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise
from typing import Any

from berserk_engine.language.lexicon import fold
from berserk_engine.language.tokens import Token, tokenize

QUOTES = ("\u00ab", "\u00bb")
_YO_PAIRS = {0x0401: 0x0415, 0x0415: 0x0401, 0x0451: 0x0435, 0x0435: 0x0451}  # «Ё» and «Е», «ё» and «е»


@dataclass(frozen=True, slots=True)
class Occurrence:
    """The name found in a text: its characters (``start``, ``end``) and the cases it can be in there."""

    start: int
    end: int
    cases: frozenset[str]


@dataclass(frozen=True, slots=True)
class _Word:
    """One word of a name: its printed form (folded), whether it inflects with the head, and its forms
    (folded) → the (case, number) pairs each can be."""

    printed: str
    capital: bool
    forms: dict[str, frozenset[tuple[str, str]]]


@cache
def _morph() -> Any:
    from berserk_engine.language.morphology import _morph as shared

    return shared()


def _nominative(word: str) -> list[Any]:
    """pymorphy3's parses of a name's word in the nominative singular (the dictionary's first, then the
    guesser's: the word is the card's own)."""
    parses = [p for p in _morph().parse(word) if p.tag.case == "nomn" and p.tag.number != "plur"]
    known = [p for p in parses if p.is_known]
    return known or parses


def _forms(parse: Any, gender: str, animacy: str) -> dict[str, set[tuple[str, str]]]:
    """The singular forms of a word's lexeme that agree with a head of ``gender`` and ``animacy``."""
    out: dict[str, set[tuple[str, str]]] = {}
    for form in parse.lexeme:
        tag = form.tag
        if tag.number != "sing" or tag.case is None:
            continue
        if tag.POS in ("ADJF", "PRTF") and tag.gender != gender:
            continue
        if tag.case == "accs" and tag.animacy is not None and tag.animacy != animacy:
            continue
        out.setdefault(fold(form.word), set()).add((str(tag.case), "sing"))
    return out


@cache
def _words(name: str) -> tuple[_Word, ...]:
    """The words of a name, each with the forms it takes (the words after the head: as printed)."""
    tokens = [t for t in tokenize(name) if t.kind == "word"]
    parses = [_nominative(fold(t.text)) for t in tokens]
    head = next((i for i, ps in enumerate(parses) if any(p.tag.POS == "NOUN" for p in ps)), len(tokens) - 1)
    noun = next((p for p in parses[head] if p.tag.POS == "NOUN"), parses[head][0] if parses[head] else None)
    gender = str(noun.tag.gender) if noun is not None else ""
    animacy = str(noun.tag.animacy) if noun is not None else ""
    out = []
    for i, (token, found) in enumerate(zip(tokens, parses, strict=True)):
        printed = fold(token.text)
        forms: dict[str, set[tuple[str, str]]] = {}
        if i <= head:
            for p in found if i < head else [p for p in found if p is noun] or found:
                for form, cases in _forms(p, gender, animacy).items():
                    forms.setdefault(form, set()).update(cases)
        forms.setdefault(printed, set()).add(("nomn", "sing"))
        out.append(_Word(printed, token.text[:1].isupper(), {f: frozenset(c) for f, c in forms.items()}))
    return tuple(out)


def occurrences(text: str, name: str) -> list[Occurrence]:
    """Every place of a text where the card's own name stands unquoted, in any case."""
    first = name.lstrip()[:1]
    spellings = {first, first.translate(_YO_PAIRS)}  # «Ёж» is written «Еж» too
    if not first or not any(letter in text for letter in spellings):  # no word can begin the name: no
        return []  # name, and no pymorphy3
    words = _words(name)
    if not words:
        return []
    tokens = tokenize(text)
    found: list[Occurrence] = []
    i = 0
    while i + len(words) <= len(tokens):
        cases = _match(tokens[i : i + len(words)], words)
        if cases:
            found.append(Occurrence(tokens[i].start, tokens[i + len(words) - 1].end, cases))
            i += len(words)
        else:
            i += 1
    return found


def _match(tokens: tuple[Token, ...], words: tuple[_Word, ...]) -> frozenset[str]:
    """The cases in which the tokens are the name's words (empty: they are not)."""
    common: set[tuple[str, str]] | None = None
    for token, word in zip(tokens, words, strict=True):
        if token.kind != "word" or token.text[:1].isupper() != word.capital:
            return frozenset()
        pairs = word.forms.get(fold(token.text))
        if pairs is None:
            return frozenset()
        if word.printed != fold(token.text) or len(word.forms) > 1:  # an inflecting word: cases agree
            common = set(pairs) if common is None else common & pairs
    return frozenset(case for case, _ in common) if common is not None else frozenset({"nomn"})


@lru_cache(maxsize=4096)
def quoted(text: str, name: str) -> str:
    """The text with every unquoted occurrence of the card's own name written as the name in quotes
    («ранить Лесного Стража на 2» → «ранить «Лесной Страж» на 2»); the text as it is when the name is
    not in it or cannot be a name (no word, a quote of its own). Never raises for a text the tokenizer
    refuses: that text's error is reported by the reader."""
    if not name.strip() or any(q in name for q in QUOTES):
        return text
    try:
        found = occurrences(text, name)
    except ValueError:  # a text (or name) of no tokens: the reader names its error
        return text
    out, at = [], 0
    for occurrence in found:
        out.append(text[at : occurrence.start])
        out.append(f"{QUOTES[0]}{' '.join(name.split())}{QUOTES[1]}")
        at = occurrence.end
    out.append(text[at:])
    return "".join(out)


class ForeignName(ValueError):
    """A quoted name that is not the card's own where only the card itself can stand: ``message`` in
    Russian, ``position`` (from 0) of the quote in the text."""

    def __init__(self, message: str, text: str, position: int) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.position = position


def for_reading(text: str, name: str) -> str:
    """The text as the readers read it (:func:`quoted`). Raises :class:`ForeignName` for another card's
    name in quotes as the subject of a trigger condition («Когда «Другая карта» погибает»): a name in a
    card's text is that card only («Название карты»), and a trigger of another card's event is not read."""
    out = quoted(text, name)
    try:
        tokens = tokenize(out)
    except ValueError:
        return out
    from berserk_engine.language.morphology import analyses

    for before, token in pairwise(tokens):
        if token.kind != "quote" or before.kind != "word":
            continue
        if token.inner != " ".join(name.split()) and any(a.category == "when" for a in analyses(before.text)):
            raise ForeignName(
                f"названа карта {token.text}: название в тексте карты относится только к ней самой "
                f"(«Название карты»), а эта карта — «{name}» (толкование I-76)",
                out,
                token.start,
            )
    return out


@cache
def name_terminal(name: str) -> str:
    """The grammar's terminal of a card's name in quotes: a noun group in the nominative singular of the
    gender of the name's head noun («Болотный Огонёк»: masculine, «Дева тумана»: feminine; no noun:
    masculine) — ``NAME__NOMN_SING_…`` (see ``syntax/groups.lark``)."""
    gender = "masc"
    try:
        tokens = [t for t in tokenize(name) if t.kind == "word"]
    except ValueError:  # not a name (a granted ability's words, say): the default terminal
        tokens = []
    for token in tokens:
        nouns = [p for p in _nominative(fold(token.text)) if p.tag.POS == "NOUN" and p.tag.gender]
        if nouns:
            gender = str(nouns[0].tag.gender)
            break
    return f"NAME__NOMN_SING_{gender.upper()}"
