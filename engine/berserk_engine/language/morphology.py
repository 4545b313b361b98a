"""Every word's analyses: {lemma, part of speech, case, number, gender, animacy, mood} and what the word
means in the card language (``category``, ``value``).

Open words come from pymorphy3's dictionary — never from its guesser: a word the dictionary does not
know is admitted only by the project's lexicon (:mod:`~berserk_engine.language.lexicon`), and otherwise
is an :class:`UnknownWord` error naming the nearest known words («сущство» → «существо»). Closed-class
and game words come from the lexicon, which overrides the dictionary where it is wrong for the game
(a closed form listed there has only the lexicon's analysis). A dictionary noun that is not in the
lexicon is a class word (category ``"class"``: «гномов», «эльфа» — the classes printed on creatures).

Each analysis is reduced to its terminal name in the grammar, ``CATEGORY__KEY``: the agreement key is
the case, the number, the gender in the singular and the animacy in the accusative of the masculine
singular and of the plural (the forms where Russian tells them apart: «каждого героя», «каждое
существо»). A word matches every terminal among its analyses.
"""

from __future__ import annotations

import difflib
import heapq
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from berserk_engine.language.lexicon import Entry, fold, lexicon
from berserk_engine.language.tokens import Token

CASES = ("nomn", "gent", "datv", "accs", "ablt", "loct")
NUMBERS = ("sing", "plur")
GENDERS = ("masc", "femn", "neut")
ANIMACY = ("anim", "inan")


@dataclass(frozen=True, slots=True)
class Analysis:
    """One reading of a word: what it means (``category``, ``value``) and its grammatical features."""

    category: str
    value: str
    lemma: str
    pos: str = ""
    case: str = ""
    number: str = ""
    gender: str = ""
    animacy: str = ""
    mood: str = ""
    source: str = ""  # what the meaning rests on: "term:…", "rule:…", "interpretation:…"

    @property
    def key(self) -> str:
        """The agreement key: of a word with case, its case, number …; of a finite verb, its number (a
        subject agrees with it: «существо погибает», «существа погибают»); empty for any other word."""
        if not self.case and self.pos == "VERB" and self.number:
            return self.number.upper()
        return agreement_key(self.case, self.number, self.gender, self.animacy)

    @property
    def terminal(self) -> str:
        return f"{self.category.upper()}__{self.key}" if self.key else self.category.upper()


def agreement_key(case: str, number: str, gender: str, animacy: str) -> str:
    if not case:
        return ""
    parts = [case]
    if number:
        parts.append(number)
        if number == "sing" and gender:
            parts.append(gender)
    if case == "accs" and animacy and (number == "plur" or gender == "masc" or not number):
        parts.append(animacy)
    return "_".join(parts).upper()


def all_keys() -> list[str]:
    """Every agreement key a noun group can have."""
    keys = set()
    for case in CASES:
        for number in NUMBERS:
            for gender in GENDERS if number == "sing" else ("",):
                for animacy in ANIMACY:
                    keys.add(agreement_key(case, number, gender, animacy))
    return sorted(keys)


class UnknownWord(ValueError):
    """A word neither the dictionary nor the lexicon knows (a typo, a Latin letter …)."""

    def __init__(self, token: Token, nearest: list[str]) -> None:
        hint = ("; ближайшие известные слова: " + ", ".join(f"«{w}»" for w in nearest)) if nearest else ""
        super().__init__(f"неизвестное слово «{token.text}»{hint}")
        self.message = str(self)
        self.token = token
        self.nearest = nearest


@cache
def _morph() -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@cache
def _known(word: str) -> tuple[Any, ...]:
    """The dictionary's parses of a folded word (the guesser's are dropped)."""
    return tuple(p for p in _morph().parse(word) if p.is_known)


def _features(tag: Any) -> dict[str, str]:
    return {
        "pos": str(tag.POS or ""),
        "case": str(tag.case or ""),
        "number": str(tag.number or ""),
        "gender": str(tag.gender or ""),
        "animacy": str(tag.animacy or ""),
        "mood": str(tag.mood or ""),
    }


# a class word: a class printed on creatures, selected by «ваш эльф», «ваших гномов» (I-56)
CLASS_SOURCE = "interpretation:I-56"


def _of_entry(entry: Entry, lemma: str, tag: Any | None) -> Analysis:
    feats = _features(tag) if tag is not None else {"case": entry.case, "number": entry.number}
    return Analysis(entry.category, entry.value, lemma, **feats, source=entry.source)


def _fits(entry: Entry, parse: Any) -> bool:
    """Is the dictionary's parse of the entry's part of speech (``pos``: one or several, space-separated)?"""
    return not entry.pos or str(parse.tag.POS) in entry.pos.split()


@cache
def analyses(word: str) -> frozenset[Analysis]:
    """What a word (as written) can be in the card language: empty when it is not of the card language
    (the dictionary knows it, the lexicon does not, and it is no noun); raises nothing."""
    w = fold(word)
    lex = lexicon()
    if w in lex.by_form:
        return frozenset(_of_entry(e, e.form, None) for e in lex.by_form[w])
    found: set[Analysis] = set()
    parses = _known(w)
    for p in parses:
        for e in lex.by_lemma.get(p.normal_form, ()):
            if _fits(e, p):
                found.add(_of_entry(e, e.lemma, p.tag))
    for like, entries in lex.by_like.items():
        for e in entries:
            if w.startswith(e.prefix) and len(w) > len(e.prefix):
                for p in _known(w[len(e.prefix) :]):
                    if p.normal_form == like and _fits(e, p):
                        found.add(_of_entry(e, e.lemma, p.tag))
    if not found:
        # a noun the lexicon does not have: a class word when it names a being (pymorphy3's «anim»: «гном»,
        # «фея»); any other noun («стол», «леса») is a plain noun — the second word of a class of several
        # («страж леса», I-70) and nothing else: a class of things is the lexicon's («механизм»)
        for p in parses:
            if p.tag.POS == "NOUN":
                category = "class" if p.tag.animacy == "anim" else "noun"
                found.add(
                    Analysis(category, p.normal_form, p.normal_form, **_features(p.tag), source=CLASS_SOURCE)
                )
    return frozenset(found)


def numeral_value(word: str) -> str | None:
    """The value of a number written as a word («двух» → "2"), None for any other word (a word that can
    also be something else than a numeral keeps its letters)."""
    found = analyses(word)
    values = {a.value for a in found if a.category == "numeral"}
    if len(values) != 1 or any(a.category != "numeral" for a in found):
        return None
    return values.pop()


def canonical(text: str) -> str:
    """Words as a node keeps them: as written, but numbers written as words in digits («до двух существ»
    → «до 2 существ») — so two wordings of one meaning compile to one node (issue 25, paraphrases).
    Text that cannot be tokenized is returned as it is (the reader reports it elsewhere)."""
    from berserk_engine.language.tokens import TextError, tokenize

    try:
        tokens = tokenize(text)
    except TextError:
        return text
    out: list[str] = []
    at = 0
    for token in tokens:
        value = numeral_value(token.text) if token.kind == "word" else None
        if value is not None:
            out.append(text[at : token.start])
            out.append(value)
            at = token.end
    if not out:
        return text
    return "".join(out) + text[at:]


def granted_text(inner: str) -> str:
    """The text an ability granted in quotes keeps: the quoted sentence as printed — a player sees the
    granted ability in the card's words — with numbers in digits («на один» is «на 1»: one node), ending
    with a full stop."""
    inner = canonical(inner.strip())
    return inner if inner.endswith(".") else inner + "."


def sources(text: str) -> list[tuple[str, str]]:
    """(word, what its meaning rests on) for every word of a text the card language knows — a
    reading's terms and rules, word by word (``berserk-rules cards --show``)."""
    from berserk_engine.language.tokens import tokenize

    out = []
    for token in tokenize(text):
        if token.kind == "word":
            found = sorted({a.source for a in analyses(token.text) if a.source})
            if found:
                out.append((token.text, ", ".join(found)))
    return out


def same_words(printed: str, known: str) -> bool:
    """Are two phrases the same words in any case and number — word by word, each a form of one
    dictionary lemma («Болото» and «болота», «Лес» and «леса»)?"""
    a, b = fold(printed).split(), fold(known).split()
    if len(a) != len(b):
        return False
    return all(
        x == y or {p.normal_form for p in _known(x)} & {p.normal_form for p in _known(y)}
        for x, y in zip(a, b, strict=True)
    )


def known_word(word: str) -> bool:
    """Does the dictionary or the lexicon know the word (in any meaning)?"""
    w = fold(word)
    lex = lexicon()
    if w in lex.by_form or _known(w):
        return True
    return any(
        w.startswith(e.prefix) and any(p.normal_form == like for p in _known(w[len(e.prefix) :]))
        for like, entries in lex.by_like.items()
        for e in entries
    )


@cache
def vocabulary() -> tuple[str, ...]:
    """Every form of every word of the lexicon: the words an error offers instead of an unknown one."""
    lex = lexicon()
    forms: set[str] = set(lex.by_form)
    for lemma, entries in lex.by_lemma.items():
        for p in _known(lemma):
            if any(_fits(e, p) or e.pos for e in entries):
                forms.update(fold(f.word) for f in p.lexeme)
    for like, entries in lex.by_like.items():
        for p in _known(like):
            for e in entries:
                forms.update(e.prefix + fold(f.word) for f in p.lexeme)
    return tuple(sorted(forms))


def nearest(word: str, extra: Iterable[str] = ()) -> list[str]:
    """The known words nearest to a word (for an error)."""
    return close_matches(fold(word), [*vocabulary(), *extra], n=3, cutoff=0.6)


def close_matches(word: str, possibilities: Iterable[str], n: int, cutoff: float) -> list[str]:
    """:func:`difflib.get_close_matches`, the same answer in the same order, with the full similarity
    (``ratio``, the costly part) worked out only for the candidates that can still be among the ``n``
    best: ``ratio`` is never above ``quick_ratio`` (the same matches counted without their order, over
    the same length), so once ``n`` candidates are found, one whose ``quick_ratio`` is below the
    ``n``-th best ``ratio`` cannot displace it (ties are kept: difflib breaks them by the text)."""
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    bounded: list[tuple[float, str]] = []
    for x in possibilities:
        matcher.set_seq1(x)
        if matcher.real_quick_ratio() >= cutoff:
            quick = matcher.quick_ratio()
            if quick >= cutoff:
                bounded.append((quick, x))
    bounded.sort(key=lambda pair: pair[0], reverse=True)
    found: list[tuple[float, str]] = []
    for quick, x in bounded:
        if len(found) >= n and quick < heapq.nlargest(n, found)[-1][0]:
            break  # every candidate left has quick_ratio below the n-th best: none of them can enter
        matcher.set_seq1(x)
        score = matcher.ratio()
        if score >= cutoff:
            found.append((score, x))
    return [x for _, x in heapq.nlargest(n, found)]


def analyze(tokens: Iterable[Token], classes: Iterable[str] = ()) -> list[frozenset[Analysis]]:
    """The analyses of every word token (other tokens: an empty set). ``classes``: class words the
    card list in play declares (admitted even when the dictionary does not know them). Raises
    :class:`UnknownWord` for a word nobody knows."""
    declared = {fold(c) for c in classes}
    out: list[frozenset[Analysis]] = []
    for token in tokens:
        if token.kind == "icon":  # «[Закрыть]», «[Монета]»: the lexicon's, as written in brackets
            form = fold(f"[{token.inner}]")
            out.append(frozenset(_of_entry(e, e.form, None) for e in lexicon().by_form.get(form, ())))
            continue
        if token.kind != "word":
            out.append(frozenset())
            continue
        found = analyses(token.text)
        things = {a for a in found if a.category == "noun" and a.lemma in declared}
        if things:  # a class of things the card list declares («стол»): its forms are class words
            found |= {replace(a, category="class") for a in things}
        elif fold(token.text) in declared and not any(a.category == "class" for a in found):
            word = fold(token.text)
            found |= {Analysis("class", word, word, "NOUN", source=CLASS_SOURCE)}
        if not found and not known_word(token.text):
            raise UnknownWord(token, nearest(token.text, declared))
        out.append(found)
    return out


# --- writing words back in another form (the canonical words of a reading) ---------------------------

_GROUP_CASES = ("nomn", "accs", "gent", "datv", "ablt", "loct")


def _parses(word: str) -> list[Any]:
    return [p for p in _morph().parse(word) if p.tag.POS in ("NOUN", "ADJF", "PRTF", "NPRO")]


def _shared_form(words: list[str]) -> tuple[str, str, str] | None:
    """The (case, number, gender) every word of a noun group's agreeing part can be in together (a singular's
    gender agreeing too), the first of :data:`_GROUP_CASES` when several fit; None when none does."""
    options: set[tuple[str, str, str]] | None = None
    for word in words:
        found = {(str(p.tag.case), str(p.tag.number), str(p.tag.gender)) for p in _parses(word) if p.tag.case}
        if options is None:
            options = found
            continue
        options = {
            (c, n, g)
            for c, n, g in options
            for c2, n2, g2 in found
            if c == c2 and n == n2 and (n == "plur" or g == g2 or "None" in (g, g2))
        }
    if not options:
        return None
    return min(options, key=lambda f: (_GROUP_CASES.index(f[0]) if f[0] in _GROUP_CASES else 9, f))


def inflect_group(words: str, case: str) -> str:
    """A noun group's words («всех существ противника», «его») in another case (pymorphy3): the
    determiners, modifiers and the head noun take the case, keeping their number; what follows the head
    («противника», «стоимостью 2 или меньше», «с именем «…»») stays as it is. A word of the lexicon
    («его») becomes the lexicon's word of its category in that case. Words that are not such a group (a
    number, a name in quotes) are returned as they are."""
    parts = words.split(" ")
    if len(parts) == 1 and fold(parts[0]) in lexicon().by_form:
        (entry, *_) = lexicon().by_form[fold(parts[0])]
        same = [
            e
            for e in lexicon().entries
            if e.form
            and (e.category, e.value, e.number, e.file)
            == (entry.category, entry.value, entry.number, entry.file)
        ]
        return next((e.form for e in same if e.case == case), words)
    head = next((i for i, w in enumerate(parts) if any(p.tag.POS == "NOUN" for p in _parses(w))), None)
    if head is None or any(not w.isalpha() for w in parts[: head + 1]):
        return words
    form = _shared_form(parts[: head + 1])
    if form is None:
        return words
    source, number, gender = form
    # the accusative of a modifier agrees with its noun's animacy too («всех закрытых существ», never «все
    # закрытых существ»): the head noun's animacy is asked of every word of the group (in the plural and the
    # masculine singular — the forms where the accusative depends on it)
    animacy = next((str(p.tag.animacy) for p in _parses(parts[head]) if p.tag.POS == "NOUN"), None)
    counts = case == "accs" and (number == "plur" or gender == "masc")
    wanted = {case, number} | ({animacy} if animacy in ("anim", "inan") and counts else set())
    out = []
    for word in parts[: head + 1]:
        fitting = [p for p in _parses(word) if (str(p.tag.case), str(p.tag.number)) == (source, number)]
        parse = next((p for p in fitting if str(p.tag.gender) == gender), fitting[0] if fitting else None)
        inflected = parse.inflect(wanted) or parse.inflect({case, number}) if parse is not None else None
        out.append(inflected.word if inflected is not None else word)
    return " ".join(out + parts[head + 1 :])


def agree_with_number(word: str, number: int) -> str:
    """A word in the form a number asks of it («ход»: 1 ход, 2 хода, 5 ходов; «ваш»: 1 ваш, 2 ваших)."""
    parse = _morph().parse(word)[0]
    agreed = parse.make_agree_with_number(number)
    return agreed.word if agreed is not None else word


@cache
def _being_last(parse: Any) -> bool:
    """Sort key: an animate analysis first («стражей»: «страж», not «стража»)."""
    return bool(parse.tag.animacy != "anim")


def class_lemma(words: str) -> str:
    """A class of cards as one key, whatever its case and number («гномы», «гнома», «гномов» → «гном»):
    the normal form of its head word — the lexicon's when it has the word, else pymorphy3's first analysis
    as a noun, an animate one first — and the other words of a class of several («стражей леса» → «страж
    леса», I-70) as printed (lower case, «ё» as «е»); a class that is an adjective and its noun has both in
    their normal form («лесных духов» → «лесной дух»). A word the dictionary does not know stays as it is
    written: it is admitted only as the card list declares it (a typo in a text is an error, never another
    class)."""
    head, *rest = fold(" ".join(words.split())).split(" ")
    entries = [e for e in lexicon().by_form.get(head, ()) if e.category == "class"]
    if entries:
        return " ".join((entries[0].lemma or entries[0].value, *rest))
    # of several nouns the form may be, a being first («стражей»: «страж», not «стража»)
    nouns = sorted((p for p in _known(head) if p.tag.POS == "NOUN"), key=_being_last)
    if rest:  # an adjective and its noun («лесных духов» → «лесной дух»): both words in their normal form
        adjectives = [p for p in _known(head) if p.tag.POS == "ADJF"]
        tail = sorted((p for p in _known(rest[0]) if p.tag.POS == "NOUN"), key=_being_last)
        if adjectives and tail:
            return " ".join((fold(adjectives[0].normal_form), fold(tail[0].normal_form), *rest[1:]))
    return " ".join((fold(nouns[0].normal_form) if nouns else head, *rest))


def inflect_word(word: str, key: str) -> str:
    """A word in the form of an agreement key («GENT_PLUR», «ACCS_SING_MASC_INAN»; pymorphy3), or as it
    is when the dictionary cannot give that form."""
    grammemes = {g.lower() for g in key.split("_") if g}
    for parse in _parses(word):
        inflected = parse.inflect(grammemes)
        if inflected is not None:
            return str(inflected.word)
    return word


def infinitive_clause(text: str) -> str:
    """A clause that begins with an imperative («вызовите …», «бесплатно разыграйте …») with that verb in
    the infinitive («вызвать …», «бесплатно разыграть …»): the form a clause takes after «вы можете»
    (pymorphy3's normal form of the verb). A clause that begins otherwise is returned as it is."""
    words = text.split(" ")
    for i, word in enumerate(words[:2]):
        parses = _morph().parse(word.lower())
        if parses and "impr" in parses[0].tag:
            infinitive = str(parses[0].normal_form)
            words[i] = infinitive[:1].upper() + infinitive[1:] if word[:1].isupper() else infinitive
            return " ".join(words)
        if not parses or parses[0].tag.POS != "ADVB":
            return text
    return text


def class_named_by_this(words: str) -> str | None:
    """The class «этого …» names in a card's words («сила удара этого механизма» → «механизм», «этого стража
    леса» → «страж леса»: every word of the class, not its last), or None when it names a kind of card
    («этого существа») or no class at all."""
    parts = [w.strip(",.:;()") for w in words.split()]
    at = next((i for i, w in enumerate(parts) if any(a.category == "this" for a in analyses(w))), None)
    if at is None or at + 1 >= len(parts):
        return None
    head = analyses(parts[at + 1])
    if any(a.category == "kind" for a in head) or not any(a.category == "class" for a in head):
        return None
    return class_lemma(" ".join(parts[at + 1 :]))
