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
the letters («Модульный» is not «модуль») does not. Where the case, number or gender of a word decides
the meaning, a pattern's word says it after «@» («противник@ablt»: «контроль над противником», not
«контроль над картой противника»): it matches a word only if one and the same dictionary parse has
that lemma and those grammemes.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from berserk_engine.language.lexicon import fold
from berserk_engine.language.tokens import TextError, Token, tokenize

DATA = Path(__file__).with_name("lexicon") / "outside.toml"
SPAN = 3  # words allowed between two words of a pattern («Выберите два раза одно из»)
SENTENCE_END = frozenset({".", ";", ":"})
NUMBER = "<num>"  # a pattern's item: a number written in digits («1:» — a payment with no resource)
COLON = "<:>"  # a pattern's item: the colon that ends an ability's cost or condition
START = "^"  # a pattern's first item: the pattern starts a sentence (an ability's first word)
MARKERS = frozenset({NUMBER, COLON})
TAG = "@"  # a pattern's word «лемма@граммема…»: the lemma in that case / number / gender
GRAMMEMES = frozenset(
    {"nomn", "gent", "datv", "accs", "ablt", "loct", "voct", "gen2", "acc2", "loc2", "sing", "plur"}
    | {"masc", "femn", "neut"}
)


@dataclass(frozen=True, slots=True)
class Item:
    """A word of a text (its lemmas; a number: «<num>»; an icon: «[монета]») or, with ``end``, the
    punctuation that ends a sentence (a colon: «<:>»), with its characters ``start``–``end`` (``stop``)."""

    lemmas: frozenset[str]
    start: int
    stop: int
    end: bool = False
    parses: tuple[tuple[str, frozenset[str]], ...] = ()  # each dictionary parse: (lemma, its grammemes)


Words = list[Item]


@dataclass(frozen=True, slots=True)
class Want:
    """One word of a pattern: any of the ``plain`` lemmas (or markers, icons) in any form, or any of the
    ``tagged`` lemmas in a parse that has all the given grammemes («противник@ablt»)."""

    plain: frozenset[str]
    tagged: tuple[tuple[str, frozenset[str]], ...] = ()

    def fits(self, item: Item) -> bool:
        if item.lemmas & self.plain:
            return True
        return any(
            lemma == found and need <= grams for lemma, need in self.tagged for found, grams in item.parses
        )


@dataclass(frozen=True, slots=True)
class Pattern:
    """Words in order within one sentence: ``items`` (each a :class:`Want`), ``gaps[i]`` the words
    allowed between item i and item i+1; ``start``: the first item opens a sentence."""

    items: tuple[Want, ...]
    gaps: tuple[int, ...]
    start: bool = False


class OutsideDataError(ValueError):
    """``outside.toml`` is broken: the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class Mechanic:
    """A mechanic our rules do not define: its name, the patterns that find it, the articles of the
    later glossary that define it (empty: no available text does) and why it is not ours, where that
    needs saying."""

    name: str
    patterns: tuple[Pattern, ...]
    defined: tuple[str, ...]
    why: str = ""

    def where_message(self, source: str) -> str:
        """Where the mechanic is defined, in words: «определена: …, статья «Модуль.»» or that no
        available text defines it."""
        if not self.defined:
            return "определения в доступных текстах правил нет" + (f" ({self.why})" if self.why else "")
        articles = ", ".join(f"«{a}»" for a in self.defined)
        return f"определена: {'статья' if len(self.defined) == 1 else 'статьи'} {articles} — {source}"


@dataclass(frozen=True, slots=True)
class Reviewed:
    """An article of the later glossary that is not a mechanic outside our rules, and why (ours under
    another heading, a word of the rules rather than of a card): ``tools/outside_mechanics.py`` does
    not ask about it again."""

    article: str
    why: str


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
    reviewed: tuple[Reviewed, ...] = ()


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
        where = f"{where} («{name}»)"
        if not isinstance(match, list) or not match:
            raise OutsideDataError(f"{where}: match — непустой список образцов")
        if not isinstance(defined, list) or not all(isinstance(a, str) and a for a in defined):
            raise OutsideDataError(f"{where}: defined — список статей глоссария (может быть пуст)")
        unknown = set(raw) - {"name", "match", "defined", "why", "span"}
        if unknown:
            raise OutsideDataError(f"{where}: неизвестные поля {sorted(unknown)}")
        span = raw.get("span", SPAN)
        patterns = tuple(_pattern(item, span, where) for item in match)
        mechanics.append(Mechanic(name.strip(), patterns, tuple(defined), str(raw.get("why", ""))))
    if not mechanics:
        raise OutsideDataError(f"{path.name}: нет ни одной записи [[mechanic]]")
    reviewed = []
    for number, raw in enumerate(data.get("reviewed") or [], start=1):
        article, why = raw.get("article"), raw.get("why")
        if not isinstance(article, str) or not article or not isinstance(why, str) or not why.strip():
            raise OutsideDataError(f"{path.name}: запись [[reviewed]] №{number}: нужны article и why")
        reviewed.append(Reviewed(article, why.strip()))
    return Outside(tuple(mechanics), f"{source['title']} ({source['where']})", tuple(reviewed))


def _pattern(raw: object, span: object, where: str) -> Pattern:
    """One pattern of an entry: a list of words, or a table ``{ words = […], span = N | [N, …] }``
    whose span (one for every gap, or one per gap) overrides the entry's."""
    if isinstance(raw, dict):
        if set(raw) - {"words", "span"}:
            raise OutsideDataError(f"{where}: образец-таблица — только поля words и span")
        span = raw.get("span", span)
        raw = raw.get("words")
    if not isinstance(raw, list) or not raw or not all(isinstance(w, str) and w for w in raw):
        raise OutsideDataError(f"{where}: образец — непустой список слов")
    words = list(raw)
    start = words[0] == START
    if start:
        words = words[1:]
    items = tuple(_want(word, where) for word in words)
    if not items or any(START in item.plain for item in items):
        raise OutsideDataError(f"{where}: «^» — только первым словом образца, и за ним нужны слова")
    odd = sorted(w for item in items for w in item.plain if w.startswith("<") and w not in MARKERS)
    if odd:
        raise OutsideDataError(f"{where}: неизвестные знаки {odd}; есть {sorted(MARKERS)}")
    whole: list[object] = list(span) if isinstance(span, list) else [span]
    gaps = [g for g in whole if isinstance(g, int) and not isinstance(g, bool) and g >= 0]
    if len(gaps) < len(whole) or (isinstance(span, list) and len(gaps) != len(items) - 1):
        raise OutsideDataError(
            f"{where}: span — число слов между словами образца, от 0 (или по числу на каждый промежуток)"
        )
    if not isinstance(span, list):
        gaps = gaps * (len(items) - 1)
    return Pattern(items, tuple(gaps), start)


def _want(word: str, where: str) -> Want:
    """A pattern's word: «а|б» alternatives, each a lemma, a marker or a lemma with grammemes («а@ablt»)."""
    plain, tagged = set(), []
    for option in word.split("|"):
        lemma, *grams = fold(option).split(TAG)
        unknown = sorted(set(grams) - GRAMMEMES)
        if unknown or not lemma or (grams and lemma.startswith(("<", "["))):
            known = ", ".join(sorted(GRAMMEMES))
            raise OutsideDataError(f"{where}: «{option}» — после «{TAG}» только падеж, число, род ({known})")
        if grams:
            tagged.append((lemma, frozenset(grams)))
        else:
            plain.add(lemma)
    return Want(frozenset(plain), tuple(tagged))


def _entry_message(path: Path, number: int) -> str:
    return f"{path.name}: запись [[mechanic]] №{number}"


@cache
def parses(word: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Every dictionary parse of a word (never a guess): its lemma and its case, number and gender."""
    from berserk_engine.language.morphology import _known

    found = _known(fold(word))
    return tuple((fold(p.normal_form), frozenset(str(g) for g in p.tag.grammemes) & GRAMMEMES) for p in found)


@cache
def lemmas(word: str) -> frozenset[str]:
    """The word itself (folded) and every dictionary form pymorphy3 knows it as — never a guess; a
    hyphenated word («героя-мага») also as its parts' dictionary forms joined («герой-маг»)."""
    from berserk_engine.language.morphology import _known

    w = fold(word)
    forms = {w} | {fold(p.normal_form) for p in _known(w)}
    parts = w.split("-")
    if len(parts) > 1 and all(parts):
        joined = [""]
        for part in parts:
            options = {part} | {fold(p.normal_form) for p in _known(part)}
            joined = [f"{j}-{o}" if j else o for j in joined for o in sorted(options)][:16]
        forms.update(joined)
    return frozenset(forms)


def _words(text: str, offset: int = 0) -> Words:
    """The text as one item per word, number or icon, and one where a sentence ends; the words of a
    quoted ability are the text's words too (a granted «при атаке — оглушите …»)."""
    try:
        tokens: tuple[Token, ...] = tokenize(text)
    except TextError:  # a text the tokenizer refuses: still searched, word by word
        tokens = tuple(Token("word", m.group(), m.start(), m.end()) for m in re.finditer(r"[^\W\d_]+", text))
    out: Words = []
    for token in tokens:
        start, stop = offset + token.start, offset + token.end
        if token.kind == "word":
            out.append(Item(lemmas(token.text), start, stop, parses=parses(token.text)))
        elif token.kind == "number":
            out.append(Item(frozenset({NUMBER}), start, stop))
        elif token.kind == "icon":
            out.append(Item(frozenset({f"[{fold(token.inner)}]"}), start, stop))
        elif token.kind == "quote":
            out.append(Item(frozenset(), start, start + 1, end=True))
            out.extend(_words(token.inner, offset + token.start + 1))
            out.append(Item(frozenset(), stop - 1, stop, end=True))
        elif token.kind == "punct" and token.text in SENTENCE_END:
            out.append(Item(frozenset({COLON} if token.text == ":" else ()), start, stop, end=True))
    return out


def _next(wanted: Want, words: Words, at: int, gap: int) -> int | None:
    """The index of the first item after ``at`` with one of the ``wanted`` lemmas, at most ``gap``
    words further and in the same sentence (a sentence's end is found only as the colon «<:>»)."""
    for index in range(at + 1, min(at + gap + 2, len(words))):
        item = words[index]
        if wanted.fits(item):
            return index
        if item.end:
            return None
    return None


def _match(pattern: Pattern, words: Words) -> tuple[int, int] | None:
    """The characters (start, end) of the pattern's first occurrence in the words, or None."""
    for first, item in enumerate(words):
        if item.end or not pattern.items[0].fits(item):
            continue
        if pattern.start and first > 0 and not words[first - 1].end:
            continue
        at: int | None = first
        for wanted, gap in zip(pattern.items[1:], pattern.gaps, strict=True):
            at = _next(wanted, words, at, gap) if at is not None else None
        if at is not None:
            return item.start, words[at].stop
    return None


@cache  # a name is looked for in every text a card or a test gives (hundreds of names each)
def _name_lemmas(name: str) -> tuple[frozenset[str], ...]:
    """The lemmas of each word of a card's name, in order."""
    return tuple(item.lemmas for item in _words(name) if not item.end)


def _without_names(words: Words, names: Iterable[str]) -> Words:
    """The words with every mention of a card's own name (its words in order, in any form: «Засада»,
    «Засады») emptied: a card named like a mechanic does not use it by naming itself."""
    out = list(words)
    for name in names:
        wanted = _name_lemmas(name)
        if not wanted:
            continue
        first = wanted[0]
        for start in range(len(out) - len(wanted) + 1):
            if out[start].end or not out[start].lemmas & first:
                continue  # the name's first word is not here (the check below, made cheap)
            window = out[start : start + len(wanted)]
            if all(not item.end and item.lemmas & lemma for item, lemma in zip(window, wanted, strict=True)):
                for at, item in enumerate(window, start=start):
                    out[at] = Item(frozenset(), item.start, item.stop)
    return out


def mechanics_in(text: str, names: Iterable[str] = ()) -> list[Found]:
    """Every mechanic outside our rules that the text uses, in the order of the text (each once).
    ``names``: the card's own name (and any other name the text may mention as a card), never a
    mechanic's word there."""
    words = _without_names(_words(text), names)
    found = []
    for mechanic in outside().mechanics:
        spans = [s for s in (_match(p, words) for p in mechanic.patterns) if s is not None]
        if spans:
            start, end = min(spans)
            found.append(Found(mechanic, start, end))
    return sorted(found, key=lambda f: (f.start, f.mechanic.name))
