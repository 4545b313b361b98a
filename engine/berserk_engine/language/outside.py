"""Mechanics outside our rules (issue 29, item 3): a card text that uses a mechanic our sources do not
define — «Модуль», «Подготовьте», «Создайте …», «Выберите одно из: …» — is *named*, with where that
mechanic is defined, instead of being read as something it is not or reported as words the reader
cannot read.

The list is data (``lexicon/outside.toml``): the articles of a later edition's glossary (rules version
17.0, as the community rulebook repository keeps it) that our sources lack, each with the words that
name it, and a few mechanics printed cards use that no available text defines (said so). A text is
matched by lemma: every word of the text, and of a quoted granted ability inside it, is reduced to
its dictionary forms (pymorphy3, through :mod:`berserk_engine.language.morphology`), so any form
finds the mechanic («подготовьте», «подготовить», «подготовлен»), and a word that merely contains
the letters («Модульный» is not «модуль») does not.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from berserk_engine.language.lexicon import fold
from berserk_engine.language.tokens import TextError, Token, tokenize

DATA = Path(__file__).with_name("lexicon") / "outside.toml"
SPAN = 3  # words allowed between two words of a pattern («Выберите два раза одно из»)
SENTENCE_END = frozenset({".", ";", ":"})
Words = list[tuple[frozenset[str], int, int] | None]  # (lemmas, start, end) per word; None: a sentence ends


class OutsideDataError(ValueError):
    """``outside.toml`` is broken: the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class Mechanic:
    """A mechanic our rules do not define: its name, the patterns that find it (each a sequence of
    sets of lemmas, an icon written «[монета]»), the articles of the later glossary that define it
    (empty: no available text does) and why it is not ours, where that needs saying."""

    name: str
    patterns: tuple[tuple[frozenset[str], ...], ...]
    defined: tuple[str, ...]
    why: str = ""
    span: int = SPAN  # words allowed between two words of a pattern

    def where_message(self, source: str) -> str:
        """Where the mechanic is defined, in words: «определена: …, статья «Модуль.»» or that no
        available text defines it."""
        if not self.defined:
            return "определения в доступных текстах правил нет" + (f" ({self.why})" if self.why else "")
        articles = ", ".join(f"«{a}»" for a in self.defined)
        return f"определена: {'статья' if len(self.defined) == 1 else 'статьи'} {articles} — {source}"


@dataclass(frozen=True, slots=True)
class Found:
    """A mechanic found in a text: which, and where (characters ``start``–``end`` of the text)."""

    mechanic: Mechanic
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Outside:
    mechanics: tuple[Mechanic, ...]
    source: str  # the glossary the articles are of, and where it is kept


@cache
def outside(path: Path = DATA) -> Outside:
    """The list of mechanics outside our rules (read once). Raises :class:`OutsideDataError`."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise OutsideDataError(f"{path.name}: {exc}") from None
    source = data.get("source") or {}
    if not isinstance(source, dict) or not source.get("title") or not source.get("where"):
        raise OutsideDataError(f"{path.name}: нужна таблица [source] с полями title и where")
    mechanics = []
    for number, raw in enumerate(data.get("mechanic") or [], start=1):
        name, match, defined = raw.get("name"), raw.get("match"), raw.get("defined")
        where = _entry_message(path, number)
        if not isinstance(name, str) or not name.strip():
            raise OutsideDataError(f"{where}: нет названия (name)")
        if not isinstance(match, list) or not match or not all(isinstance(p, list) and p for p in match):
            raise OutsideDataError(f"{where} («{name}»): match — непустой список образцов-списков слов")
        if not isinstance(defined, list) or not all(isinstance(a, str) and a for a in defined):
            raise OutsideDataError(f"{where} («{name}»): defined — список статей глоссария (может быть пуст)")
        unknown = set(raw) - {"name", "match", "defined", "why", "span"}
        if unknown:
            raise OutsideDataError(f"{where} («{name}»): неизвестные поля {sorted(unknown)}")
        patterns = tuple(
            tuple(frozenset(fold(w) for w in str(item).split("|")) for item in pattern) for pattern in match
        )
        span = raw.get("span", SPAN)
        if not isinstance(span, int) or isinstance(span, bool) or span < 0:
            raise OutsideDataError(f"{where} («{name}»): span — число слов между словами образца, от 0")
        mechanics.append(Mechanic(name.strip(), patterns, tuple(defined), str(raw.get("why", "")), span))
    if not mechanics:
        raise OutsideDataError(f"{path.name}: нет ни одной записи [[mechanic]]")
    return Outside(tuple(mechanics), f"{source['title']} ({source['where']})")


def _entry_message(path: Path, number: int) -> str:
    return f"{path.name}: запись [[mechanic]] №{number}"


@cache
def lemmas(word: str) -> frozenset[str]:
    """The word itself (folded) and every dictionary form pymorphy3 knows it as — never a guess."""
    from berserk_engine.language.morphology import _known

    w = fold(word)
    return frozenset({w} | {fold(p.normal_form) for p in _known(w)})


def _words(text: str, offset: int = 0) -> Words:
    """The text as (lemmas, start, end) per word or icon, with None where a sentence ends; the words
    of a quoted ability are the text's words too (a granted «при атаке — оглушите …»)."""
    try:
        tokens: tuple[Token, ...] = tokenize(text)
    except TextError:  # a text the tokenizer refuses: still searched, word by word
        tokens = tuple(Token("word", m.group(), m.start(), m.end()) for m in re.finditer(r"[^\W\d_]+", text))
    out: Words = []
    for token in tokens:
        if token.kind == "word":
            out.append((lemmas(token.text), offset + token.start, offset + token.end))
        elif token.kind == "icon":
            out.append((frozenset({f"[{fold(token.inner)}]"}), offset + token.start, offset + token.end))
        elif token.kind == "quote":
            out.append(None)
            out.extend(_words(token.inner, offset + token.start + 1))
            out.append(None)
        elif token.kind == "punct" and token.text in SENTENCE_END:
            out.append(None)
    return out


def _next(wanted: frozenset[str], words: Words, at: int, span: int) -> int | None:
    """The index of the first word after ``at`` with one of the ``wanted`` lemmas, at most ``span``
    words further and in the same sentence."""
    for index in range(at + 1, min(at + span + 2, len(words))):
        item = words[index]
        if item is None:
            return None
        if item[0] & wanted:
            return index
    return None


def _match(pattern: tuple[frozenset[str], ...], words: Words, span: int) -> tuple[int, int] | None:
    """The characters (start, end) of the pattern's first occurrence in the words, or None."""
    for first, item in enumerate(words):
        if item is None or not (item[0] & pattern[0]):
            continue
        at: int | None = first
        for wanted in pattern[1:]:
            at = _next(wanted, words, at, span) if at is not None else None
        if at is not None:
            last = words[at]
            assert last is not None
            return item[1], last[2]
    return None


def mechanics_in(text: str) -> list[Found]:
    """Every mechanic outside our rules that the text uses, in the order of the text (each once)."""
    words = _words(text)
    found = []
    for mechanic in outside().mechanics:
        spans = [s for s in (_match(p, words, mechanic.span) for p in mechanic.patterns) if s is not None]
        if spans:
            start, end = min(spans)
            found.append(Found(mechanic, start, end))
    return sorted(found, key=lambda f: (f.start, f.mechanic.name))
