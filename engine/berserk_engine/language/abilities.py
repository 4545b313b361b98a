"""The sentence layer of the card language (issue 25): a sentence read by the grammar (the start rule
``ability`` of ``syntax/abilities.lark``) and compiled to the engine's
:class:`~berserk_engine.abilities.Ability` with its reading
(:class:`~berserk_engine.language.reading.Reading`).

**Compilers, keyed by the grammar's aliases.** Each construction of the grammar (``-> wound``, ``->
triggered``, ``-> coins`` …) is compiled by the function :data:`COMPILERS` holds for its alias; a rule
without an alias that has one part is compiled as that part. Language modules fill the dict with
:func:`compiles` — this one, and a module that adds constructions to the grammar's rules with
``%extend`` (``syntax/constructions.lark``) adds their compilers without editing this file. A compiler
gets the tree of its construction and the :class:`Context` of the sentence and returns:

* for an ability (an alternative of ``ability``, ``keyword``, ``constant``): an :class:`AbilityPart`;
* for a clause, a payment item, a trigger condition, a game-state ``condition``: a :class:`Part` (the
  engine's node and the reading of the words);
* for a target: a :class:`~berserk_engine.abilities.Selector`; for an ``amount``: an
  :class:`~berserk_engine.abilities.Amount`; for a number of cards: an ``int``; for words that only
  belong to a construction (a verb, a preposition): ``None``.

**Verbs → frames, as data.** The effects a verb's clause builds and the items of a payment are the
frames of ``lexicon/frames.toml``: the engine's node (a class registered in :mod:`berserk_engine.data`),
which part of the clause fills each of its fields, the canonical words, the glossary term or rule. A
frame is compiled by :func:`_frame` — no code per verb.

:func:`read_ability` returns every compiled reading of a sentence; the caller
(:func:`berserk_engine.grammar.read_sentence_tree`) keeps those of the card's kind, and asks the phrase
registry only when the grammar does not read the sentence.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from lark import Tree

from berserk_engine import data
from berserk_engine.abilities import Ability, Amount, Cost, Selector, Trigger
from berserk_engine.language import diagnosis
from berserk_engine.language import grammar as g
from berserk_engine.language import tree as t
from berserk_engine.language.lexicon import FOLDER
from berserk_engine.language.reading import Phrase, Reading
from berserk_engine.language.tokens import tokenize

Compiler = Callable[[Tree[Any], "Context"], Any]
COMPILERS: dict[str, Compiler] = {}
MAX_SENTENCE_READINGS = 64  # readings of one sentence examined before it is an error


def compiles(*aliases: str) -> Callable[[Compiler], Compiler]:
    """Register a compiler for constructions of the grammar, by their aliases (or rule names)."""

    def register(function: Compiler) -> Compiler:
        for alias in aliases:
            if alias in COMPILERS:
                raise ValueError(f"конструкцию «{alias}» уже компилирует {COMPILERS[alias].__name__}")
            COMPILERS[alias] = function
        return function

    return register


@dataclass(frozen=True)
class Part:
    """A compiled piece of a sentence: the engine's node and how its words were read."""

    node: Any
    reading: Reading


@dataclass(frozen=True)
class AbilityPart:
    """A compiled sentence: the ability (before :func:`berserk_engine.grammar._finish`) and its reading."""

    ability: Ability
    reading: Reading
    comma: bool = False  # a trigger condition ended at «,» (only a creature's text says so, not a spell's)
    keyword: bool = False  # a keyword ability: on any card


@dataclass
class Context:
    """The sentence being compiled: ``text`` (the positions of the tree's tokens are in it) and the
    ``sentence`` as printed (the ability's text)."""

    text: str
    sentence: str
    classes: tuple[str, ...] = ()
    notes: dict[str, Any] = field(default_factory=dict)

    def printed(self, tree: Tree[Any]) -> str:
        """The words of a subtree, as written (what an error quotes)."""
        tokens = t._tokens(tree)
        return self.text[tokens[0].source.start : tokens[-1].source.end]

    def words(self, tree: Tree[Any]) -> str:
        """The words of a subtree as a node keeps them: as written, numbers in digits
        (:func:`~berserk_engine.language.morphology.canonical`)."""
        from berserk_engine.language.morphology import canonical

        return canonical(self.printed(tree))

    def compile(self, tree: Tree[Any]) -> Any:
        return compile_tree(tree, self)

    def values(self, tree: Tree[Any]) -> list[Any]:
        """The compiled values of a construction's parts (its subtrees), in order."""
        return [self.compile(c) for c in tree.children if isinstance(c, Tree)]


def compile_tree(tree: Tree[Any], context: Context) -> Any:
    """A subtree compiled by the compiler of its alias; a rule without one, with one part, is that part;
    words alone (a verb, a preposition) compile to None."""
    name = str(tree.data)
    if name in COMPILERS:
        return COMPILERS[name](tree, context)
    if name in _aliases():  # a construction of its own: it means something, so something compiles it
        raise t.ReadError(f"конструкция «{name}» грамматики не компилируется: нет компилятора")
    subtrees = [c for c in tree.children if isinstance(c, Tree)]
    if len(subtrees) == 1:
        return compile_tree(subtrees[0], context)
    if not subtrees:
        return None
    raise t.ReadError(f"конструкция «{name}» грамматики не компилируется: нет компилятора")


def _aliases() -> frozenset[str]:
    """The aliases of the grammar's alternatives (``-> wound``): each a construction of its own."""
    return g.grammar().aliases  # from the grammar's text: no parser built for a cached reading


# --- frames: verbs → the engine's nodes, as data ---------------------------------------------------------

_SLOT = re.compile(r"\{(\w+):?(\w*)\}")
_SLOT_PART = {
    "": "what",
    "Amount": "amount",
    "Num": "count",
    "Acc": "target",
    "Nom": "target",
    "Signed": "signed",
    "Dur": "duration",
    "Name": "name",
    "Wanted": "wanted",
    "Gen": "target",
    "Dat": "target",
}


@dataclass(frozen=True)
class Frame:
    """A construction of ``lexicon/frames.toml`` (see the file's header)."""

    alias: str
    category: str
    node: str
    fields: dict[str, str]
    const: dict[str, Any]
    requires: tuple[str, ...]
    state: str  # a state word the construction must hold («в закрытом виде»: "closed"), or ""
    defaults: dict[str, Any]  # the value of a part the text does not say (no duration: until the battle ends)
    phrase: Phrase
    many: Phrase | None  # the canonical words after a number that takes the genitive plural
    one: Phrase | None  # the canonical words for the number 1 («Один раз за ход»)
    plural: Phrase | None  # the canonical words for a subject in the plural («… получают …»)


def _no_build(_named: dict[str, Any]) -> Any:  # a frame is compiled from the tree, never from a format
    return None


def _frame_message(file: str, number: int, problem: str) -> str:
    return f"{file}, рамка {number}: {problem}"


FRAMES = FOLDER / "frames.toml"


@cache
def _frames_file() -> dict[str, Any]:
    return tomllib.loads(FRAMES.read_text(encoding="utf-8"))


def self_target() -> Selector:
    """The card itself as a target («раниться», «излечиться»), in the engine's words."""
    return Selector("self", _frames_file()["self_target"], ("creature",))


@cache
def frames() -> dict[str, Frame]:
    """The frames of ``lexicon/frames.toml``, by alias."""
    path = FRAMES
    out: dict[str, Frame] = {}
    for number, raw in enumerate(_frames_file()["frame"], start=1):
        sources = [f"{k}:{raw[k]}" for k in ("term", "rule", "interpretation") if k in raw]
        if len(sources) != 1 or raw.get("alias") in out:
            raise ValueError(_frame_message(path.name, number, "нужно одно основание и своё имя"))
        term = sources[0].split(":", 1)[1]

        def form(fmt: str, raw: dict[str, Any] = raw, term: str = term) -> Phrase:
            return Phrase(raw["category"], fmt, raw["example"], _no_build, None, term)

        out[raw["alias"]] = Frame(
            raw["alias"],
            raw["category"],
            raw["node"],
            dict(raw.get("fields", {})),
            dict(raw.get("const", {})),
            tuple(raw.get("requires", ())),
            raw.get("state", ""),
            dict(raw.get("defaults", {})),
            form(raw["canonical"]),
            form(raw["canonical_many"]) if "canonical_many" in raw else None,
            form(raw["canonical_one"]) if "canonical_one" in raw else None,
            form(raw["canonical_plural"]) if "canonical_plural" in raw else None,
        )
    return out


def frame_formats(category: str) -> list[tuple[str, str, str | None]]:
    """(canonical words, example, term) of every construction of a category ("effect", "cost", "static",
    "condition", "trigger") the frames and the words of frames.toml describe: the formats the old reader's
    diagnosis loosens slot by slot, and the site's catalogue of the card language lists."""
    out = []
    for frame in frames().values():
        if frame.category == category:
            for phrase in (frame.phrase, frame.many, frame.one, frame.plural):
                if phrase is not None:
                    out.append((phrase.format, phrase.example, phrase.term))
    for alias, raw in _frames_file()["words"].items():
        if raw.get("category", "effect") == category:
            phrase = _frame_phrase(alias)
            out.append((phrase.format, phrase.example, phrase.term))
    if category == "effect":
        # a verb's clause is printed in the infinitive or the imperative («закрыть», «закройте»): both
        out += [(imperative, example, term) for fmt, example, term in out if (imperative := _imperative(fmt))]
    if category == "trigger":  # the conditions of frames.toml ([[trigger]]) and the forms of the others
        out += [(raw["canonical"], raw["example"], raw.get("term")) for raw in _frames_file()["trigger"]]
        out += [
            (raw["form"], example, raw.get("term"))
            for raw in _frames_file()["trigger_form"]
            for example in raw["examples"]
        ]
    return out


def _imperative(fmt: str) -> str | None:
    """The canonical words with their first word, an infinitive, in the imperative plural (pymorphy3),
    or None when the first word is no infinitive."""
    from berserk_engine.language.morphology import _known

    first, _, rest = fmt.partition(" ")
    for parse in _known(first):
        if parse.tag.POS == "INFN":
            inflected = parse.inflect({"impr", "excl", "plur"})
            if inflected is not None:
                return f"{inflected.word} {rest}".strip()
    return None


def _states(tree: Tree[Any]) -> set[str]:
    """The values of the state words («закрытом») among a clause's own words."""
    from berserk_engine.language.morphology import analyses

    words = [token.source.text for token in tree.children if not isinstance(token, Tree)]
    return {a.value for word in words for a in analyses(word) if a.category == "state"}


def _card_name(tree: Tree[Any]) -> str:
    """The printed name inside the quotes of ``card_name``; empty quotes are an error."""
    quote = t._tokens(tree)[0].source
    if not quote.inner:
        raise t.ReadError("пустое название в кавычках", quote.start)
    return str(quote.inner)


def _genitive_plural_after(number: int) -> bool:
    """After this number a noun is in the genitive plural («5 карт», «11 карт»), not singular («2 карты»)."""
    return not (2 <= number % 10 <= 4 and not 12 <= number % 100 <= 14)


def _frame(frame: Frame) -> Compiler:
    def compile_frame(tree: Tree[Any], context: Context) -> Part:
        parts: dict[str, Any] = {}
        for token in tree.children:  # «+1»: a signed number of the construction itself
            if not isinstance(token, Tree) and token.source.kind == "signed":
                parts["signed"] = token.source.value
            elif not isinstance(token, Tree) and token.source.kind == "number":  # «сокращаются до 2»
                parts.setdefault("count", token.source.value)
        if frame.state and frame.state not in _states(tree):  # «в открытом виде» is not closed
            raise t.ReadError(f"«{context.printed(tree)}»: здесь ожидается «в закрытом виде»")
        for child in [c for c in tree.children if isinstance(c, Tree)]:
            if child.data == "card_name":  # «вызовите «Волчонок»»: the printed name, inside the quotes
                parts["name"] = _card_name(child)
                continue
            value = context.compile(child)
            if child.data in ("target_datv", "target_gent"):  # «по герою противника», «жизни выбранного
                # существа»: the node keeps the words in the accusative, as the old tables did
                value = replace(value, words=_accusative(child, str(child.data)[-4:]))
            if isinstance(value, Duration):
                parts.setdefault("duration", value.until)
            elif isinstance(value, AbilityPart) and value.keyword:  # «получает Рывок»: its words
                words = context.words(child)
                parts["granted"] = words[0].upper() + words[1:] + "."
                parts["what"] = words
            if isinstance(value, Sought):
                parts["wanted"] = value.wanted
            if isinstance(value, Amount):
                parts.setdefault("amount", value)
            elif isinstance(value, Subject):
                parts.setdefault("target", value.selector)
                parts["plural"] = value.plural
            elif isinstance(value, Selector):
                parts.setdefault("target", value)
            elif isinstance(value, int) and not isinstance(value, bool):
                parts.setdefault("count", value)
        if "count" in parts and "amount" not in parts:
            parts["amount"] = Amount(value=parts["count"], words=str(parts["count"]))
        if "amount" in parts and "count" not in parts and parts["amount"].prop is None:
            parts["count"] = parts["amount"].value
        parts.setdefault("amount", Amount(value=1, words="1"))  # «возьмите карту»: one card
        if "granted" in parts and "duration" not in parts:  # «Получает [текст]»: until the battle ends
            parts["duration"] = _frames_file()["durations"]["until_end_of_battle"]
            parts["forever"] = True
        for part, default in frame.defaults.items():
            parts.setdefault(part, default)
        parts["self"] = self_target()
        parts["chosen"] = Selector("chosen", _frames_file()["chosen_target"], ("creature",))
        target = parts.get("target")
        for needed in frame.requires:
            if target is None or not getattr(target, needed):
                raise t.ReadError(f"«{context.printed(tree)}»: цель здесь выбирают («выберите существо»)")
        missing = [source for source in frame.fields.values() if source not in parts]
        if missing:  # «раниться на значение удара …» as a payment: a payment is a number
            raise t.ReadError(f"«{context.printed(tree)}»: здесь ожидается число")
        kwargs = {name: parts[source] for name, source in frame.fields.items()}
        node = data.REGISTRY[frame.node](**kwargs, **frame.const)
        phrase = frame.phrase
        if frame.one is not None and parts.get("count") == 1:
            phrase = frame.one
        elif frame.many is not None and _genitive_plural_after(parts.get("count", 1)):
            phrase = frame.many
        if frame.plural is not None and parts.get("plural"):
            phrase = frame.plural
        if parts.get("forever"):  # no duration printed: none in the canonical words either
            phrase = replace(phrase, format=phrase.format.replace(" {d:Dur}", ""))
        named = {slot: parts[_SLOT_PART[kind]] for slot, kind in _SLOT.findall(phrase.format)}
        return Part(node, Reading("phrase", phrase=phrase, named=named))

    return compile_frame


def _register_frames() -> None:
    """A compiler for every frame that has no compiler of its own (one that checks more, then builds the
    frame: «возьмите карту» takes cards only)."""
    for alias, frame in frames().items():
        if alias not in COMPILERS:
            compiles(alias)(_frame(frame))


# --- targets, amounts, numbers ---------------------------------------------------------------------------


@compiles("target_accs", "target_nomn", "target_gent", "target_datv", "ref", "own_name", "count")
def _target(tree: Tree[Any], context: Context) -> Selector:
    try:
        return t._target(tree, context.text)
    except t.ReadError as exc:  # the piece is named by its kind (language/diagnosis.py)
        kind = diagnosis.kind_of("target_accs")
        if kind is None or exc.message.startswith(kind):
            raise
        message = diagnosis.in_piece_message(kind, context.printed(tree), exc.message)
        raise t.ReadError(message, exc.position, exc.nearest, exc.unknown) from None


@compiles("each_of_them")
def _each_of_them_object(tree: Tree[Any], context: Context) -> Selector:
    """«каждое из них», «их» as an object: every target of the group named last before it (I-91; ``count``
    0 until :func:`~berserk_engine.abilities.number_slots` gives it that group's slots)."""
    return Selector("ref", context.words(tree).lower(), count=0)


@compiles("them_subject")
def _them_subject(tree: Tree[Any], context: Context) -> Subject:
    """«они» as a subject: every target of the group named last before it (I-91)."""
    return Subject(Selector("ref", context.words(tree).lower(), count=0), plural=True)


@compiles("grant_two")
def _grant_two(tree: Tree[Any], context: Context) -> Part:
    """«[цель] получает Рывок и Первый удар [срок]», «… Броню 2 и Первый удар …»: two Grants to the same
    target(s), for the same time (no time printed: until the end of the battle — «Получает [текст]»); a chosen
    target is chosen once, the second keyword goes to it as «его» would."""
    from berserk_engine.language.morphology import analyses, canonical

    subject, *rest = [c for c in tree.children if isinstance(c, Tree)]
    actor = context.compile(subject)
    durations = [c for c in rest if isinstance(context.compile(c), Duration)]
    keywords = [c for c in rest if c not in durations]
    tokens = [tok.source for tok in t._tokens(tree)]
    joint = next(i for i, tok in enumerate(tokens) if any(a.category == "and" for a in analyses(tok.text)))
    first_start = t._tokens(keywords[0])[0].source.start if len(keywords) == 2 else None
    if first_start is None:  # «Броню 2»: the keyword in the accusative, as its term writes it («Броня 2»)
        word = next(tok for tok in tokens if any(a.category == "keyword_form" for a in analyses(tok.text)))
        lemma = next(a.lemma for a in analyses(word.text) if a.category == "keyword_form")
        printed_first = canonical(context.text[word.start : tokens[joint - 1].end])
        first = lemma + printed_first[len(word.text) :]
    else:
        printed_first = first = context.words(keywords[0])
    second = context.words(keywords[-1])
    texts = []
    for own in (first, second):
        text = own[0].upper() + own[1:] + "."
        if not any(p.keyword for p in read_ability(text)):
            raise t.ReadError(f"«{own}»: это не ключевое слово", tokens[0].start)
        texts.append(text)
    frame = frames()["grant"]
    phrase = frame.plural if actor.plural and frame.plural is not None else frame.phrase
    if durations:
        until = context.compile(durations[0]).until
    else:  # «Получает [текст]»: until the battle ends, no duration in the canonical words
        until = _frames_file()["durations"]["until_end_of_battle"]
        phrase = replace(phrase, format=phrase.format.replace(" {d:Dur}", ""))
    target = actor.selector
    again = target if not target.chosen else replace(target, mode="ref")
    node = data.REGISTRY["Sequence"](
        (data.REGISTRY["Grant"](texts[0], target, until), data.REGISTRY["Grant"](texts[1], again, until))
    )
    named = {"t": target, "what": printed_first + " " + tokens[joint].text + " " + second}
    if durations:
        named["d"] = until
    return Part(node, Reading("phrase", phrase=phrase, named=named))


@compiles("grant_accusative")
def _grant_accusative(tree: Tree[Any], context: Context) -> Part:
    """«выбранное существо получает Броню 1 до конца хода»: a keyword in the accusative is the keyword its
    term names («Броня 1»): the grant of that keyword (the node keeps the keyword's own form, the text a card
    has; the canonical words keep the printed form, «получает Броню 1»)."""
    from berserk_engine.language.morphology import analyses, canonical

    subject, *rest = [c for c in tree.children if isinstance(c, Tree)]
    actor = context.compile(subject)
    durations = [c for c in rest if isinstance(context.compile(c), Duration)]
    tokens = [tok.source for tok in t._tokens(tree)]
    word = next(tok for tok in tokens if any(a.category == "keyword_form" for a in analyses(tok.text)))
    lemma = next(a.lemma for a in analyses(word.text) if a.category == "keyword_form")
    end = t._tokens(durations[0])[0].source.start if durations else tokens[-1].end
    printed = canonical(context.text[word.start : end].strip())
    own = (lemma[0].upper() + lemma[1:] if word.text[0].isupper() else lemma) + printed[len(word.text) :]
    if not any(p.keyword for p in read_ability(own[0].upper() + own[1:] + ".")):
        raise t.ReadError(f"«{printed}»: это не ключевое слово", word.start)
    frame = frames()["grant"]
    phrase = frame.plural if actor.plural and frame.plural is not None else frame.phrase
    if durations:
        until = context.compile(durations[0]).until
    else:  # «Получает [ключевое слово]»: until the battle ends, no duration in the canonical words
        until = _frames_file()["durations"]["until_end_of_battle"]
        phrase = replace(phrase, format=phrase.format.replace(" {d:Dur}", ""))
    node = data.REGISTRY["Grant"](own[0].upper() + own[1:] + ".", actor.selector, until)
    return Part(
        node, Reading("phrase", phrase=phrase, named={"t": actor.selector, "what": printed, "d": until})
    )


@dataclass(frozen=True)
class Sought:
    """The card a summon or a resurrection looks for outside the game zone (``card_filter.Wanted``)."""

    wanted: Any


@compiles("wanted")
def _wanted(tree: Tree[Any], context: Context) -> Sought:
    """«существо», «существо класса гном», «гнома», each with «стоимостью N или меньше» or not: a creature
    (of that class), the words as printed."""
    from berserk_engine.abilities import class_lemma

    head, *cost = [c for c in tree.children if isinstance(c, Tree)]
    words = [c.source for c in head.children if not isinstance(c, Tree)]
    if words and t._value(Tree("kind", [head.children[0]]), "kind") != "creature":
        raise t.ReadError(f"«{context.printed(tree)}»: вызывают и возрождают существо", words[0].start)
    classes = () if head.data == "wanted_kind" else (class_lemma(t._tokens(head)[-1].source.text),)
    top = None
    if cost:
        top = next(tok.source.value for tok in t._tokens(cost[0]) if tok.source.kind == "number")
    return Sought(data.REGISTRY["Wanted"](classes, top, context.words(tree)))


@dataclass(frozen=True)
class Subject:
    """The subject of a clause («выбранное существо получает …»): its selector and its number."""

    selector: Selector
    plural: bool


@compiles("actor_sing", "actor_plur")
def _subject(tree: Tree[Any], context: Context) -> Subject:
    """A subject in the nominative. The engine's words of it are its words in the accusative («все
    существа противника» → «всех существ противника»: the old tables' words, for identical nodes), but
    for a class, a name, a cost and the three targets of ``nominative_words`` (frames.toml)."""
    selector = t._target(tree, context.text)
    printed = selector.words
    kept = printed in _frames_file()["nominative_words"] or printed.startswith("\u00ab")
    classes = selector.classes and selector.classes != (t.CHOSEN_CLASS,)  # «этого класса»: as the others
    if not (kept or classes or selector.condition.startswith(("cost", "name"))):
        selector = replace(selector, words=_accusative(tree))
    return Subject(selector, tree.data == "actor_plur")


def _accusative(tree: Tree[Any], printed: str = "nomn") -> str:
    """A noun group's words in the accusative (``printed``: the case they are in, the nominative or the
    dative), inflected by pymorphy3 (animate: as the genitive in the plural and the masculine singular);
    words in another case stay as they are."""
    from berserk_engine.language.lexicon import fold, lexicon
    from berserk_engine.language.morphology import _known, analyses, numeral_value

    tokens = [w.source for w in t._tokens(tree)]
    heads = [
        a for w in tokens for a in analyses(w.text) if a.category in ("kind", "class") and a.case == printed
    ]
    plural = any(a.number == "plur" for a in heads)
    animate = any(a.animacy == "anim" for a in heads)
    masculine = any(a.gender == "masc" for a in heads)
    genders = {a.gender for a in heads}
    case = "gent" if animate and (plural or masculine) else "accs"
    out = []
    for token in tokens:
        word = fold(token.text)
        found = analyses(token.text)
        if numeral_value(token.text) is not None:  # «до двух существ» → «до 2 существ»: numbers in digits
            word = numeral_value(token.text) or word
        elif any(a.category == "ref" for a in found):  # «оно» → «его»
            word = next(e.form for e in lexicon().entries if e.category == "ref" and e.case == "accs")
        elif any(a.case == printed for a in found):
            number = "plur" if plural else "sing"
            for parse in _known(word):
                gender = plural or parse.tag.gender is None or parse.tag.gender in genders
                if parse.tag.case == printed and parse.tag.number == number and gender:
                    inflected = parse.inflect({case})
                    if inflected is not None:
                        word = inflected.word
                        break
        out.append(word)
    return " ".join(out)


# --- constructions with a check of their own ---------------------------------------------------------------


@compiles("search_cost", "search_cost_many", "search_named", "search_named_many")
def _search(tree: Tree[Any], context: Context) -> Part:
    """«поиск существа стоимостью 2 [Монета] или менее», «поиск 2 карт «Гоблин»» (the term «Поиск —
    [карта/карты]»): creatures or cards of the deck, by cost or by name; the node keeps the words the log
    shows («существа стоимостью 2 или менее», «2 «Гоблин»»)."""
    parts = {str(c.data): c for c in tree.children if isinstance(c, Tree)}
    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    count = _number(parts["search_count"]) if "search_count" in parts else 1
    if count < 1:
        raise t.ReadError(f"«{context.printed(tree)}»: искать можно хотя бы одну карту")
    if tree.data in ("search_named", "search_named_many"):
        quote = tokens[-1]
        if not quote.inner:
            raise t.ReadError("пустое название в кавычках", quote.start)
        shown = f"«{quote.inner}»" if count == 1 else f"{count} «{quote.inner}»"
        node = data.REGISTRY["Search"](count, quote.inner, (), None, shown)
        phrase = _frame_phrase("search_named" if count == 1 else "search_named_many")
        # one card: the frame's own words say «карты» (a slot of the reading is a slot of its words)
        named: dict[str, Any] = {"name": quote.inner} | ({"count": count} if count > 1 else {})
        return Part(node, Reading("phrase", phrase=phrase, named=named))
    kind_tree = parts.get("search_kind", parts.get("search_kinds"))
    assert kind_tree is not None
    kind = t._value(kind_tree, "kind")
    if kind not in ("creature", "card"):
        raise t.ReadError(f"«{context.printed(tree)}»: поиск — существа или карты", t._first(kind_tree).start)
    cost = next(tok.source.value for tok in t._tokens(parts["search_price"]) if tok.source.kind == "number")
    word = context.words(kind_tree).lower()
    shown_as = _frames_file()["words"]["search_cost"]["shown_one" if count == 1 else "shown_many"]
    shown = shown_as.format(kind=word, cost=cost, count=count)
    types = ("creature",) if kind == "creature" else ()
    node = data.REGISTRY["Search"](count, None, types, cost, shown)
    named = {"what": context.words(tree).split(maxsplit=1)[1]}
    return Part(node, Reading("phrase", phrase=_frame_phrase("search_cost"), named=named))


def _frame_phrase(alias: str) -> Phrase:
    """The canonical words of a construction compiled by code of its own (``[[words]]`` of frames.toml)."""
    raw = _frames_file()["words"][alias]
    term = raw.get("term") or raw.get("rule") or raw["interpretation"]
    return Phrase("effect", raw["canonical"], raw["example"], _no_build, None, term)


@compiles("heal_full")
def _heal_full(tree: Tree[Any], context: Context) -> Part:
    """«полностью излечить [цель]»: every wound of the target (the node's number says «все»)."""
    (target,) = [context.compile(c) for c in tree.children if isinstance(c, Tree) and c.data == "target_accs"]
    words = _frames_file()["words"]["heal_full"]["amount_words"]
    node = data.REGISTRY["Heal"](Amount(0, words=words), target, full=True)
    return Part(node, Reading("phrase", phrase=_frame_phrase("heal_full"), named={"t": target}))


@compiles("remove_effects", "remove_all_effects")
def _remove_effects(tree: Tree[Any], context: Context) -> Part:
    """«снимите с [цели] 2 эффекта», «… все эффекты»; the noun agrees with the number («1 эффект», «2
    эффекта», «5 эффектов»)."""
    target_tree = next(c for c in tree.children if isinstance(c, Tree) and c.data == "target_gent")
    target = replace(context.compile(target_tree), words=_accusative(target_tree, "gent"))
    if tree.data == "remove_all_effects":
        node = data.REGISTRY["RemoveEffects"](None, target)
        return Part(node, Reading("phrase", phrase=_frame_phrase("remove_all_effects"), named={"t": target}))
    count = _number(next(c for c in tree.children if isinstance(c, Tree) and c.data == "effect_count"))
    noun = next(c for c in tree.children if isinstance(c, Tree) and c.data == "effects_noun")
    form = t._first(noun)
    from berserk_engine.language.morphology import analyses

    found = {(a.case, a.number) for a in analyses(form.text) if a.category == "effect_noun"}
    wanted = ("accs", "sing") if count % 10 == 1 and count % 100 != 11 else ("gent", "plur")
    if not _genitive_plural_after(count):
        wanted = ("gent", "sing")
    if count < 1 or wanted not in found:
        raise t.ReadError(f"«{context.printed(tree)}»: число и «эффект» не согласованы", form.start)
    node = data.REGISTRY["RemoveEffects"](count, target)
    phrase = _frame_phrase("remove_effects")
    return Part(
        node, Reading("phrase", phrase=phrase, named={"t": target, "n": count, "w": form.text.lower()})
    )


@compiles("placeable")
def _placeable(tree: Tree[Any], context: Context) -> AbilityPart:
    """«Помещённый» (204.5): the card may be placed into the opponent's deck."""
    ability = Ability("static", context.sentence, data.REGISTRY["Placeable"]())
    phrase = _frame_phrase("placeable")
    return AbilityPart(ability, Reading("sentence", parts=(Reading("phrase", phrase=phrase, named={}),)))


def _static(
    context: Context,
    node: Any,
    alias: str,
    named: dict[str, Any],
    value: Any = None,
    words: str | None = None,
) -> AbilityPart:
    """A constant ability (Постоянная способность) of the node, read in the canonical words of ``alias``
    (``words``: one of its other forms in frames.toml)."""
    ability = Ability("static", context.sentence, node, value=value)
    phrase = replace(_frame_phrase(alias), category="static")
    if words is not None:
        phrase = replace(phrase, format=words)
    return AbilityPart(ability, Reading("sentence", parts=(Reading("phrase", phrase=phrase, named=named),)))


def _signed_numbers(tree: Tree[Any]) -> list[int]:
    return [tok.value for tok in (c.source for c in t._tokens(tree)) if tok.kind in ("signed", "number")]


@compiles("group_bonus")
def _group_bonus(tree: Tree[Any], context: Context) -> AbilityPart:
    """«(Другие) ваши [группа] имеют +X к удару (и +Y к жизням)»: the group as printed, in the plural."""
    owner, group, numbers = [c for c in tree.children if isinstance(c, Tree)]
    values = _signed_numbers(numbers)
    strike, life = {
        "same_bonus_numbers": (values[0], values[0]),
        "strike_life_numbers": (values[0], values[-1]),
        "strike_numbers": (values[0], 0),
        "life_numbers": (0, values[0]),
    }[str(numbers.data)]
    other = len(t._tokens(owner)) > 1  # «Другие ваши …»
    node = data.REGISTRY["GroupBonus"](context.words(group).lower(), strike, life, other)
    # the bonus's words name only what is not zero ([group_bonus_words] of frames.toml); «Другие» is its own
    # frame: every field of the node shows in its words
    shown = "both" if strike and life else "life" if life else "strike"
    named: dict[str, Any] = {"g": context.words(group).lower()}
    named |= ({"s": strike} if shown != "life" else {}) | ({"l": life} if shown != "strike" else {})
    ability = Ability("static", context.sentence, node)
    phrase = _frame_phrase("group_bonus_other" if other else "group_bonus")
    words = phrase.format.replace("{b}", _frames_file()["group_bonus_words"][shown])
    phrase = replace(phrase, category="static", format=words)
    return AbilityPart(ability, Reading("sentence", parts=(Reading("phrase", phrase=phrase, named=named),)))


@compiles("mill")
def _mill(tree: Tree[Any], context: Context) -> Part:
    """«положите верхнюю карту колоды противника (N верхних карт своей колоды) на кладбище» (deck.MillTop):
    the number and whose deck; the words by the number («2 верхние карты», «5 верхних карт»)."""
    from berserk_engine.language.morphology import analyses

    counts = [c for c in tree.children if isinstance(c, Tree)]
    count = context.compile(counts[0]) if counts else 1
    assert isinstance(count, int)
    opponent = any(
        any(a.category == "opponent" for a in analyses(tok.source.text)) for tok in t._tokens(tree)
    )
    raw = _frames_file()["words"]["mill"]
    form = (
        "canonical" if count == 1 else "canonical_many" if _genitive_plural_after(count) else "canonical_few"
    )
    words = raw[form].replace("{deck}", raw["enemy_deck" if opponent else "own_deck"])
    phrase = replace(_frame_phrase("mill"), format=words)
    node = data.REGISTRY["MillTop"](count, opponent)
    return Part(node, Reading("phrase", phrase=phrase, named={"n": count} if count != 1 else {}))


_HAVING = ("has", "gains")  # «имеют», and «получают» in a constant ability (I-127)


def keyword_after(tree: Tree[Any], context: Context, verbs: tuple[str, ...]) -> tuple[Any, str, str]:
    """The keyword printed after the verb («имеют», «имеет», «получают») to the end of the construction: the
    verb's token, the keyword's printed words («Броню 1») and its text as its term writes it («Броня 1.»);
    a clear error when the words are not a keyword."""
    from berserk_engine.language.morphology import analyses, canonical

    tokens = [tok.source for tok in t._tokens(tree)]
    verb = next(i for i, tok in enumerate(tokens) if any(a.category in verbs for a in analyses(tok.text)))
    word = tokens[verb + 1]
    printed = canonical(context.text[word.start : tokens[-1].end].strip())
    lemma = next((a.lemma for a in analyses(word.text) if a.category == "keyword_form"), None)
    own = lemma + printed[len(word.text) :] if lemma is not None else printed
    text = own[0].upper() + own[1:] + "."
    if not any(p.keyword for p in read_ability(text)):
        raise t.ReadError(f"«{printed}»: это не ключевое слово", word.start)
    return tokens[verb], printed, text


@compiles("group_grant")
def _group_grant(tree: Tree[Any], context: Context) -> AbilityPart:
    """«(Другие) ваши [группа] имеют [ключевое слово]» (statics.GroupGrant): the keyword as its term writes it
    («Броню 1» → «Броня 1.»); the canonical words keep the printed form."""
    owner, group = [c for c in tree.children if isinstance(c, Tree)][:2]
    _, printed, text = keyword_after(tree, context, _HAVING)
    other = len(t._tokens(owner)) > 1  # «Другие ваши …»
    node = data.REGISTRY["GroupGrant"](context.words(group).lower(), text, other)
    raw = _frames_file()["words"]["group_grant"]
    words = raw["canonical"]
    if other:
        words = raw["other_words"] + words[len(raw["own_words"]) :]
    named = {"g": context.words(group).lower(), "what": printed}
    return _static(context, node, "group_grant", named, words=words)


@compiles("gains_strike_life")
def _gains_strike_life(tree: Tree[Any], context: Context) -> Part:
    """«[цель] получает +X к удару и +Y к жизням [срок]»: StrikeBonus, then ExtraLives, for the same target(s)
    and the same time — with no time printed, until the end of the battle («Получает [текст]», I-22). A chosen
    target is chosen once: the second bonus goes to it as «его» would."""
    values = [c.source.value for c in tree.children if not isinstance(c, Tree) and c.source.kind == "signed"]
    target: Selector | None = None
    plural = False
    until = frames()["gains_strike"].defaults["duration"]
    for child in tree.children:
        if not isinstance(child, Tree):
            continue
        value = context.compile(child)
        if isinstance(value, Duration):
            until = value.until
        elif isinstance(value, Subject):
            target, plural = value.selector, value.plural
        elif isinstance(value, Selector):
            target = value
    assert target is not None
    again = replace(target, mode="ref") if target.chosen else target
    strike, life = values[0], values[-1]
    node = data.REGISTRY["Sequence"](
        (
            data.REGISTRY["StrikeBonus"](strike, target, until),
            data.REGISTRY["ExtraLives"](life, again, until),
        )
    )
    raw = _frames_file()["words"]["gains_strike_life"]
    form = "canonical_plural" if plural else "canonical"
    phrase = replace(_frame_phrase("gains_strike_life"), format=raw[form])
    named = {"t": target, "s": strike, "l": life, "d": until}
    return Part(node, Reading("phrase", phrase=phrase, named=named))


@compiles("group_cost", "subtype_cost", "own_cost")
def _cost_static(tree: Tree[Any], context: Context) -> AbilityPart:
    """«Ваши эльфы стоят на 1 [Монета] меньше» (GroupCost), «Каждый гном стоит …» (SetCost), «Стоит на 1
    [Монета] меньше за каждую карту в вашей руке» (OwnCost)."""
    tokens = [c.source for c in t._tokens(tree)]
    amount = next(tok.value for tok in tokens if tok.kind == "number")
    named: dict[str, Any] = {"n": amount}
    if tree.data == "own_cost":
        return _static(context, data.REGISTRY["OwnCost"](amount), "own_cost", named)
    group = next(c for c in tree.children if isinstance(c, Tree)) if tree.data == "group_cost" else None
    if group is not None:
        named["g"] = context.words(group).lower()
        return _static(context, data.REGISTRY["GroupCost"](named["g"], amount), "group_cost", named)
    named["subtype"] = tokens[1].text.lower()
    return _static(context, data.REGISTRY["SetCost"](named["subtype"], amount), "subtype_cost", named)


@compiles("no_wounds_attacking")
def _no_wounds_attacking(tree: Tree[Any], context: Context) -> AbilityPart:
    """«Не получает ран, пока атакует» (I-62)."""
    return _static(context, data.REGISTRY["NoWoundsAttacking"](), "no_wounds_attacking", {})


@compiles("creature_attacks_reduced")
def _creature_attacks_reduced(tree: Tree[Any], context: Context) -> AbilityPart:
    """«–1 от атак существ»: a reduction is printed with a minus."""
    (x,) = _signed_numbers(tree)
    if x >= 0:
        raise t.ReadError(
            f"«{context.printed(tree)}»: ослабление атак пишется с минусом («–1 от атак существ»)"
        )
    return _static(context, data.REGISTRY["CreatureAttacksReduced"](-x), "creature_attacks_reduced", {"x": x})


@compiles("obliges")
def _obliges(tree: Tree[Any], context: Context) -> AbilityPart:
    """«Существа противника атакуют ударом только это существо» (I-34): the obliging ability's marker."""
    return _static(context, None, "obliges", {}, value=_frames_file()["words"]["obliges"]["value"])


def _kind_types(tree: Tree[Any]) -> tuple[str, ...]:
    """The card types a kind word names («существо»: creatures, «заклинание»: spells, «карту»: any)."""
    from berserk_engine.language.morphology import analyses

    word = t._first(tree)
    kinds = {a.value for a in analyses(word.text) if a.category in ("kind", "spell")}
    types = {"creature": ("creature",), "spell": ("spell",), "card": ()}
    if len(kinds) != 1 or next(iter(kinds)) not in types:
        raise t.ReadError(f"«{word.text}»: здесь — существо, заклинание или карта", word.start)
    return types[kinds.pop()]


@compiles("find_in_deck")
def _find_in_deck(tree: Tree[Any], context: Context) -> Part:
    """«найдите в своей колоде [что] и возьмите его (её) в руку» — Поиск in printed words: by type and
    cost, by name, by class; the node keeps the words of what is looked for."""
    from berserk_engine.abilities import class_lemma

    found, ref = [c for c in tree.children if isinstance(c, Tree) and c.data != "draw_v"][-2:]
    words = context.words(found)
    node: Any
    if found.data == "found_named":
        quote = t._tokens(found)[-1].source
        if not quote.inner:
            raise t.ReadError("пустое название в кавычках", quote.start)
        node = data.REGISTRY["FindInDeck"]((), (), None, quote.inner, words)
    elif found.data == "found_class":
        stem = class_lemma(t._first(found).text)
        node = data.REGISTRY["FindInDeck"](("creature",), (stem,), None, None, words.lower())
    else:
        kind, *price = [c for c in found.children if isinstance(c, Tree)]
        cost = None
        if price:
            cost = next(tok.source.value for tok in t._tokens(price[0]) if tok.source.kind == "number")
        node = data.REGISTRY["FindInDeck"](_kind_types(kind), (), cost, None, words)
    named = {"what": words, "it": context.words(ref)}
    return Part(node, Reading("phrase", phrase=_frame_phrase("find_in_deck"), named=named))


@compiles("from_graveyard")
def _from_graveyard(tree: Tree[Any], context: Context) -> Part:
    """«верните существо (до 2 карт) с вашего кладбища в руку» (203.4): cards of the graveyard are chosen
    on resolution (not targets)."""
    what = next(c for c in tree.children if isinstance(c, Tree) and c.data.startswith("grave_"))
    words = context.words(what).lower()
    parts = {str(c.data): c for c in what.children if isinstance(c, Tree)}
    if what.data == "grave_one":
        node = data.REGISTRY["FromGraveyard"](1, _kind_types(parts["found_kind"]), False, words)
    else:
        count = _number(parts["grave_count"])
        if count < 1:
            raise t.ReadError(f"«{words}»: вернуть можно хотя бы одну карту")
        types = _kind_types(parts["grave_kinds"])
        node = data.REGISTRY["FromGraveyard"](count, types, what.data == "grave_up_to", words)
    return Part(node, Reading("phrase", phrase=_frame_phrase("from_graveyard"), named={"what": words}))


@compiles("x_amount")
def _x_amount(tree: Tree[Any], context: Context) -> Amount:
    """«Х»: defined by «…, где Х – …», or the Х of a spell's cost (I-66); anything else is an error when
    the ability is finished (berserk_engine.grammar._finish)."""
    return Amount(prop="X", words=_frames_file()["x_words"])


@compiles("x_hand", "x_count")
def _x_definition(tree: Tree[Any], context: Context) -> Amount:
    """«число карт в вашей руке»; «число ваших гномов» (every card of the group, counted)."""
    words = context.words(tree)
    if tree.data == "x_hand":
        return Amount(prop="hand", words=words)
    (group,) = [c for c in tree.children if isinstance(c, Tree)]
    selector = context.compile(group)
    if selector.mode != "each":
        raise t.ReadError(
            f"«{words}»: считают все карты группы («число ваших гномов»)", t._first(group).start
        )
    return Amount(prop="count", words=words, selector=selector)


def _put_x(node: Any, value: Amount) -> Any:
    """The node with every «Х» amount replaced by the value «где Х – …» gives it."""
    import dataclasses

    if isinstance(node, Amount):
        return value if node.prop == "X" else node
    if isinstance(node, tuple):
        return tuple(_put_x(v, value) for v in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type | Selector):
        fields = {f.name: _put_x(getattr(node, f.name), value) for f in dataclasses.fields(node)}
        return dataclasses.replace(node, **fields)
    return node


@compiles("where_x")
def _where_x(tree: Tree[Any], context: Context) -> Effect:
    """«[эффект], где Х – [число]» (518.1): the effect must say «Х» for the definition to mean something."""
    body, definition = [c for c in tree.children if isinstance(c, Tree)]
    effect, value = context.compile(body), context.compile(definition)
    node = _put_x(effect.node, value)
    if node == effect.node:
        raise t.ReadError(f"«{context.printed(tree)}»: в эффекте нет «Х»")
    named = {"body": context.words(body), "what": context.words(definition)}
    reading = Reading("phrase", phrase=_frame_phrase("where_x"), named=named)
    return Effect(node, effect.optional, Reading("effect", parts=(reading,), optional=effect.optional))


def _nodes_of(node: Any) -> list[Any]:
    """Every dataclass node and selector inside a node (itself included)."""
    import dataclasses

    if isinstance(node, tuple):
        return [n for v in node for n in _nodes_of(v)]
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        inner = [n for f in dataclasses.fields(node) for n in _nodes_of(getattr(node, f.name))]
        return [node, *inner]
    return []


@compiles("delayed_end", "delayed_next")
def _delayed(tree: Tree[Any], context: Context) -> Effect:
    """A delayed effect (519.1): the waiting ability's text, its effect as printed or — when it names
    nobody («ранить на 2») — on the own hero; no chosen target (it would be named at the declaration)."""
    (body,) = [c for c in tree.children if isinstance(c, Tree)]
    raw = _frames_file()["words"][str(tree.data)]
    words = context.words(body)
    inner = body.children[0] if body.data == "delayed_body" else body
    if inner.data == "untargeted":
        words = f"{words} {raw['own_hero']}"
    else:
        effect = context.compile(inner)
        chosen = any(isinstance(n, Selector) and n.chosen for n in _nodes_of(effect.node))
        if effect.optional or chosen:
            raise t.ReadError(
                f"«{context.printed(body)}»: отложенный эффект — без выбора цели и без «можете»"
            )
        words = _rendered(effect.reading) or words  # canonical words: one node for either word order
    node_name = "Delayed" if tree.data == "delayed_end" else "DelayedToNextTurn"
    node = data.REGISTRY[node_name](raw["text"].format(words=words))
    reading = Reading("phrase", phrase=_frame_phrase(str(tree.data)), named={"rest": context.words(body)})
    return Effect(node, False, Reading("effect", parts=(reading,)))


@compiles("choose_class")
def _choose_class(tree: Tree[Any], context: Context) -> Effect:
    """«Выберите класс, [эффект]» (I-65): the effect must speak of «… этого класса»."""
    (body,) = [c for c in tree.children if isinstance(c, Tree)]
    then = context.compile(body)
    named = any(isinstance(n, Selector) and t.CHOSEN_CLASS in n.classes for n in _nodes_of(then.node))
    if then.optional or not named:
        raise t.ReadError(f"«{context.printed(tree)}»: после «выберите класс» — эффект о «… этого класса»")
    node = data.REGISTRY["ChooseClass"](then.node)
    reading = Reading("phrase", phrase=_frame_phrase("choose_class"), named={"then": context.words(body)})
    return Effect(node, False, Reading("effect", parts=(reading,)))


@compiles("replace_redirect", "replace_instead")
def _replacement(tree: Tree[Any], context: Context) -> AbilityPart:
    """«Если [кто] должен получить раны, вместо этого их получает [цель] | [эффект]» (эффект замещения):
    whose wounds are replaced — this card, your hero, the opponent's, a creature of either player."""
    from berserk_engine.abilities import effect_nodes

    who, what = [c for c in tree.children if isinstance(c, Tree)]
    sel = t._target(who, context.text)
    subjects = {("self", "any"): "self", ("own_hero", "any"): "own_hero", ("enemy_hero", "any"): "enemy_hero"}
    if (
        sel.mode == "chosen"
        and sel.types == ("creature",)
        and not (sel.other or sel.condition or sel.classes)
    ):
        subjects.update({("chosen", "own"): "own_creature", ("chosen", "enemy"): "enemy_creature"})
    subject = subjects.get((sel.mode, sel.side))
    if subject is None:
        raise t.ReadError(f"«{context.printed(who)}»: чьи раны замещаются — не сказано", t._first(who).start)
    words = context.words(tree).split(",")[0]
    who_words = words.split(maxsplit=1)[1].rsplit(" ", 2)[0]
    if tree.data == "replace_redirect":
        target = context.compile(what)
        if target.chosen or target.mode == "each":
            raise t.ReadError(f"«{context.printed(what)}»: раны получает названная карта, не выбранная")
        node = data.REGISTRY["ReplaceWounds"](subject, redirect=target)
        named: dict[str, Any] = {"who": who_words, "t": target}
    else:
        effect = context.compile(what)
        nodes = list(effect_nodes(effect.node))
        if (
            effect.optional
            or not all(hasattr(n, "events") for n in nodes)
            or any(s.chosen for s in _nodes_of(effect.node) if isinstance(s, Selector))
        ):
            raise t.ReadError(f"«{context.printed(what)}»: замещение — события без выбора цели")
        node = data.REGISTRY["ReplaceWounds"](subject, instead=effect.node)
        named = {"who": who_words, "rest": context.words(what)}
    return _static(context, node, str(tree.data), named)


@compiles("in_order_to")
def _in_order_to(tree: Tree[Any], context: Context) -> Part:
    """«[оплата], чтобы [эффект]» (I-55): the payment first, the effect only when it is made in full."""
    cost, then = [c for c in tree.children if isinstance(c, Tree)]
    node = data.REGISTRY["InOrderTo"](context.compile(cost).node, context.compile(then).node)
    named = {"cost": context.words(cost), "then": context.words(then)}
    return Part(node, Reading("phrase", phrase=_frame_phrase("in_order_to"), named=named))


@compiles("test_died", "test_state", "test_class", "test_type")
def _card_test(tree: Tree[Any], context: Context) -> Any:
    """The condition of «; если …» on a card: «оно погибло», «оно ранено», «это гном», «это существо»."""
    from berserk_engine.abilities import class_lemma

    tests = _frames_file()["tests"]
    ref = Selector("ref", tests["ref_words"], ("creature",))
    top = Selector("top", tests["top_words"], tuple(tests["top_types"]))
    word = t._tokens(tree)[-1]
    if tree.data == "test_died":
        return data.REGISTRY["Test"]("died", ref)
    if tree.data == "test_state":
        return data.REGISTRY["Test"](t._value(Tree("state", [word]), "state"), ref)
    if tree.data == "test_class":
        return data.REGISTRY["Test"](f"class:{class_lemma(word.source.text)}", ref)
    from berserk_engine.language.morphology import analyses

    kinds = {a.value for a in analyses(word.source.text) if a.category in ("kind", "spell")}
    kind = kinds.pop() if len(kinds) == 1 else ""
    if kind not in tests["top_types"]:
        raise t.ReadError(f"«{context.printed(tree)}»: проверяется род показанной карты", word.source.start)
    return data.REGISTRY["Test"](f"type:{kind}", top)


@compiles("if_then")
def _if_then(tree: Tree[Any], context: Context) -> Effect:
    """«[эффект]; если [условие], [эффект] (, иначе [эффект])» (518.1). What «это» speaks of: the card
    shown from the top of the deck when the part before shows it, else the target named last."""
    first, test_tree, then, *otherwise = [c for c in tree.children if isinstance(c, Tree)]
    parts = [context.compile(first), context.compile(then), *(context.compile(o) for o in otherwise)]
    # «вы можете» at the head of a branch («…; иначе (вы) можете …»): that branch is an optional
    # part — its controller decides when the branch is reached (I-55, I-116); at the head of the part
    # before the condition it makes the whole ability optional, as at the head of any effect (I-2)
    for i, branch in enumerate((then, *otherwise), start=1):
        if parts[i].optional:
            parts[i] = _optional_branch(parts[i], branch, context)
    test = context.compile(test_tree)
    last = parts[0].node.parts[-1] if type(parts[0].node).__name__ == "Sequence" else parts[0].node
    shown = type(last).__name__ == "Reveal" and last.count == 1
    if shown and test.kind.startswith("class:"):  # «покажите …; если это гном»: the card shown
        tests = _frames_file()["tests"]
        test = replace(test, target=Selector("top", tests["top_words"], tuple(tests["top_types"])))
    if shown != (test.target.mode == "top"):
        raise t.ReadError(f"«{context.printed(tree)}»: непонятно, о какой карте условие «если …»")
    node = data.REGISTRY["If"](parts[0].node, test, parts[1].node, parts[2].node if otherwise else None)
    named = {"first": context.words(first), "cond": context.words(test_tree), "then": context.words(then)}
    alias = "if_then"
    if otherwise:
        named["otherwise"] = context.words(otherwise[0])
        alias = "if_then_else"
    reading = Reading("phrase", phrase=_frame_phrase(alias), named=named)
    # the words of the part before keep its «вы можете»: the reading does not add it again
    return Effect(node, parts[0].optional, Reading("effect", parts=(reading,)))


def _optional_branch(branch: Effect, tree: Tree[Any], context: Context) -> Effect:
    """A branch of «если …» that begins with «вы можете»: the branch as one optional part (MayDo, I-116)."""
    words = _rendered(replace(branch.reading, optional=False)) or context.words(tree)
    node = data.REGISTRY["MayDo"](branch.node, words)
    return Effect(node, False, branch.reading)


@dataclass(frozen=True)
class Duration:
    """How long an effect lasts (310.2): the engine's ``until``."""

    until: str


@compiles("until_end_of_turn", "until_end_of_battle", "while_in_play")
def _duration(tree: Tree[Any], context: Context) -> Duration:
    return Duration(_frames_file()["durations"][str(tree.data)])


@compiles("own_turns", "enemy_turns")
def _player_turns(tree: Tree[Any], context: Context) -> Duration:
    """«на N ваших ходов», «на N ходов противника» (the term «На один (на Х) ходов игрока»)."""
    (count,) = [c for c in tree.children if isinstance(c, Tree)]
    side = "own" if tree.data == "own_turns" else "enemy"
    return Duration(f"player_turns:{side}:{_number(count)}")


@compiles("amount")
def _amount(tree: Tree[Any], context: Context) -> Amount:
    value = _number(tree)
    return Amount(value=value, words=str(value))


@compiles("strike_value")
def _strike_value(tree: Tree[Any], context: Context) -> Amount:
    """«значение удара этого существа»: the creature's own strike (the kind must be a creature)."""
    kind = [c for c in tree.children if not isinstance(c, Tree)][-1]
    if t._value(Tree("kind", [kind]), "kind") != "creature":
        raise t.ReadError(f"«{context.printed(tree)}»: значение удара — у этого существа", kind.source.start)
    return Amount(prop="strike", words=context.words(tree))


@compiles("amount_of_cards", "times_count", "search_count", "effect_count", "up_to_value")
def _count(tree: Tree[Any], context: Context) -> int:
    return _number(tree)


def _number(tree: Tree[Any]) -> int:
    token = t._first(tree)
    if token.kind == "number":
        return int(token.value)
    return int(t._value(tree, "numeral"))


@compiles("cards")
def _cards(tree: Tree[Any], context: Context) -> None:
    if t._value(tree, "kind") != "card":
        raise t.ReadError(f"«{context.printed(tree)}»: взять можно только карты", t._first(tree).start)


@compiles("draw")
def _draw(tree: Tree[Any], context: Context) -> Part:
    from berserk_engine.language.morphology import analyses

    word = [c for c in tree.children if not isinstance(c, Tree)][-1].source
    if {a.value for a in analyses(word.text) if a.category == "kind"} != {"card"}:
        raise t.ReadError(f"«{context.printed(tree)}»: взять можно только карту", word.start)
    return _frame(frames()["draw"])(tree, context)


# --- payment items ---------------------------------------------------------------------------------------


@compiles("coins")
def _coins(tree: Tree[Any], context: Context) -> Part:
    token = next(c.source for c in tree.children if not isinstance(c, Tree) and c.source.kind == "number")
    frame = frames()["coins"]
    return Part(Cost(coins=token.value), Reading("phrase", phrase=frame.phrase, named={"n": token.value}))


@compiles("payment")
def _payment(tree: Tree[Any], context: Context) -> Part:
    total = Cost()
    readings = []
    for part in context.values(tree):
        total = total + part.node
        readings.append(part.reading)
    return Part(total, Reading("head", parts=tuple(readings)))


# --- trigger conditions ----------------------------------------------------------------------------------


@compiles("trigger")
def _trigger(tree: Tree[Any], context: Context) -> Part:
    """«Когда [группа] [что случилось]» (the subject a noun group), a condition of its own («Когда вы берёте
    карту», frames.toml [[trigger]]), or a condition without a subject."""
    subtrees = [c for c in tree.children if isinstance(c, Tree)]
    if len(subtrees) == 1 and str(subtrees[0].data) in _named_triggers():
        return context.compile(subtrees[0])
    if any(not isinstance(c, Tree) for c in tree.children):  # «Когда …»: a word before the condition
        words = context.words(tree)
        condition = t._condition(tree)
        found = (reader(condition, words) for reader in SUBJECT_TRIGGERS)
        trigger = next((f for f in found if f is not None), None) or t.trigger_of(condition, words)
        phrase = Phrase("trigger", words, words, _no_build, None, _frames_file()["trigger_term"])
        return Part(trigger, Reading("trigger", phrase=phrase, named={}))
    (subjectless,) = tree.children  # «Найм», «В начале хода»: its own construction
    return context.compile(subjectless)


@cache
def _named_triggers() -> frozenset[str]:
    """The aliases of the trigger conditions frames.toml describes (their fields are data)."""
    return frozenset(raw["alias"] for raw in _frames_file()["trigger"])


def _named_trigger(raw: dict[str, Any]) -> Compiler:
    term = raw.get("term") or raw["rule"]
    phrase = Phrase("trigger", raw["canonical"], raw["canonical"], _no_build, None, term)

    def compile_trigger(tree: Tree[Any], context: Context) -> Part:
        return Part(Trigger(**raw["fields"]), Reading("trigger", phrase=phrase, named={}))

    return compile_trigger


@compiles("turn_trigger")
def _turn_trigger(tree: Tree[Any], context: Context) -> Part:
    """«В начале (в конце) [чьего] хода»: the event from «начале» / «конце», the rest from whose turn."""
    edge, whose = [c for c in tree.children if isinstance(c, Tree)]
    fields = _frames_file()["turns"][str(whose.data)]
    trigger = Trigger(t._value(edge, "edge"), **fields)
    words = context.words(tree)
    phrase = Phrase("trigger", words, words, _no_build, None, t._source(edge, "edge"))
    return Part(trigger, Reading("trigger", phrase=phrase, named={}))


@compiles("limited_trigger")
def _limited_trigger(tree: Tree[Any], context: Context) -> Part:
    """«Один раз за ход, когда …»: the limit of a triggered ability is its payment (501.2)."""
    limit, trigger = context.values(tree)
    return Part((trigger.node, limit.node), Reading("head", parts=(limit.reading, trigger.reading)))


@compiles("limit_after")
def _limit_after(tree: Tree[Any], context: Context) -> Part:
    (limit,) = context.values(tree)
    return limit


# --- the effect: clauses and connectors ------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """A compiled effect: its node, whether the whole ability is optional, its reading."""

    node: Any
    optional: bool
    reading: Reading


@compiles("effects")
def _effects(tree: Tree[Any], context: Context) -> Effect:
    optional = False
    parts: list[Part] = []
    for child in tree.children:
        if not isinstance(child, Tree) or child.data == "connector":
            continue
        if child.data == "optional":
            optional = True
            continue
        parts.append(context.compile(child))
    readings = tuple(p.reading for p in parts)
    if len(parts) == 1:
        return Effect(parts[0].node, optional, Reading("effect", parts=readings, optional=optional))
    node = data.REGISTRY["Sequence"](tuple(p.node for p in parts))
    return Effect(node, optional, Reading("effect", parts=readings, optional=optional))


def _rendered(reading: Reading) -> str:
    """A part's reading in the engine's canonical words (no full stop), "" when a piece of it has no phrase
    of its own to render."""
    from berserk_engine.language.reading import rendered

    def renderable(r: Reading) -> bool:
        if r.kind == "effect":
            return bool(r.parts) and all(renderable(p) for p in r.parts)
        return r.kind == "phrase" and r.phrase is not None and r.named is not None

    return rendered(reading) if renderable(reading) else ""


@compiles("may")
def _may(tree: Tree[Any], context: Context) -> Part:
    """«…, затем вы можете [часть]»: that part only is optional (I-55)."""
    (clause,) = [c for c in tree.children if isinstance(c, Tree)]
    inner = context.compile(clause)
    # the node keeps the part's canonical words (the decision shows them): rendered from its reading, so
    # «ранить на 1 выбранное существо» and «ранить выбранное существо на 1» are one node
    words = _rendered(inner.reading) or context.words(clause)
    term = inner.reading.phrase.term if inner.reading.phrase is not None else None
    phrase = Phrase("effect", words, words, _no_build, None, term)
    reading = Reading("phrase", phrase=phrase, named={}, optional=True)
    return Part(data.REGISTRY["MayDo"](inner.node, words), reading)


# --- abilities -------------------------------------------------------------------------------------------


@compiles("triggered")
def _triggered(tree: Tree[Any], context: Context) -> AbilityPart:
    head, end, body, *after = [c for c in tree.children if isinstance(c, Tree)]
    trigger = context.compile(head)
    effect = context.compile(body)
    effect = replace(effect, node=_subject_refs(head, trigger.node, effect.node))
    heads = trigger.reading.parts if trigger.reading.kind == "head" else (trigger.reading,)
    node, limit = trigger.node if isinstance(trigger.node, tuple) else (trigger.node, None)
    if after:
        if limit is not None:
            raise t.ReadError("ограничение «раз за ход» указано дважды")
        trailing = context.compile(after[0])
        limit, heads = trailing.node, (trailing.reading, *heads)
    ability = Ability(
        "triggered", context.sentence, effect.node, trigger=node, optional=effect.optional, cost=limit
    )
    reading = Reading("sentence", parts=(Reading("head", parts=heads), effect.reading))
    comma = any(not isinstance(c, Tree) and c.source.text == "," for c in end.children)
    return AbilityPart(ability, reading, comma=comma)


# «Когда это существо атакует, оно получает …», «Когда другое ваше существо вступает в игру, оно …»: «оно»
# before any target of the effect is the condition's subject — the card itself, or the card the event was
# about (the one that entered the game zone, opened, closed). Not after «убивает» (two cards, «оно» may be
# either) nor after a death or a return to hand (the card has left the game zone).
_SUBJECT_REFS = {
    "attacks": "self",
    "attacked": "self",
    "wounded": "self",
    "enters_play": "self",
    "opens": "self",
    "closes": "self",
    "creature_enters": "event",
    "creature_opens": "event",
    "creature_closes": "event",
    "class_enters": "event",
}


# readers of a trigger condition with a noun group as the subject that the engine's kinds of
# berserk_engine.trigger_kinds do not cover («Когда ваш гном погибает», «Когда ваше существо атакует»): each
# returns the condition, or None for a subject it does not read (language/general.py adds them; this module
# imports no mechanic)
SUBJECT_TRIGGERS: list[Callable[[t.Condition, str], Trigger | None]] = []


# the conditions whose subject is printed: a noun group, or the card itself («эта карта получает раны»)
_SUBJECT_TREES = frozenset({"subject_sing", "wounded_trigger"})


def _subject_refs(head: Tree[Any], trigger: Any, effect: Any) -> Any:
    """The effect with «оно» / «его» bound to the trigger condition's subject, where no target is named
    before it; any other effect as it is."""
    node = trigger[0] if isinstance(trigger, tuple) else trigger
    subject = any(st.data in _SUBJECT_TREES for st in head.iter_subtrees())
    mode = _SUBJECT_REFS.get(node.event) if subject and isinstance(node, Trigger) else None
    if mode is None:
        return effect
    seen = [False]  # a target named before: «оно» is that target's (berserk_engine.abilities.number_slots)

    def bind(value: Any) -> Any:
        if isinstance(value, Selector):
            if value.chosen:
                seen[0] = True
            elif value.mode == "ref" and value.count == 1 and not seen[0]:
                return Selector(mode, value.words, value.types)
            return value
        if isinstance(value, tuple):
            return tuple(bind(v) for v in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {f.name: bind(getattr(value, f.name)) for f in dataclasses.fields(value)}
            return replace(value, **changes)
        return value

    return bind(effect)


@compiles("activated")
def _activated(tree: Tree[Any], context: Context) -> AbilityPart:
    payment, body, *after = [context.compile(c) for c in tree.children if isinstance(c, Tree)]
    cost, heads = payment.node, payment.reading.parts
    if after:  # «(Один раз за ход.)» after the ability: written in front with the payment
        cost, heads = cost + after[0].node, (*heads, after[0].reading)
    ability = Ability("activated", context.sentence, _decided_when_reached(body), cost=cost)
    return AbilityPart(ability, Reading("sentence", parts=(Reading("head", parts=heads), body.reading)))


def _keyword_aliases() -> list[str]:
    return ["named_keyword", *_frames_file()["keywords"]]


@compiles("from_spells", "from_shots", "from_blows")
def _wound_source(tree: Tree[Any], context: Context) -> str:
    """Where wounds come from («заклинаний», «выстрелов», «ударов»): a keyword's value."""
    return str(_frames_file()["wound_sources"][str(tree.data)])


def _keyword(tree: Tree[Any], context: Context) -> AbilityPart:
    """A keyword ability: the registry of keywords (:mod:`berserk_engine.keywords`) says what it means —
    a static ability, an ability its module builds, or card text it expands to. Its word is its term
    («Рывок», «Броня 2»), or the construction's name says which keyword it is (frames.toml, [keywords]:
    «Первый удар», «Защита от выстрелов»); a value in words compiles from its words."""
    from berserk_engine.keywords import KEYWORDS

    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    words = [c for c in tree.children if isinstance(c, Tree)]
    value: Any = None
    if tree.data == "named_keyword":
        term = t._value(words[0], "keyword")
        amounts = [context.compile(w) for w in words[1:]]  # «Отравление на 2», «… на два»
        value = next((a.value for a in amounts if isinstance(a, Amount) and a.prop is None), None)
    else:
        entry = _frames_file()["keywords"][str(tree.data)]
        term = entry if isinstance(entry, str) else entry["term"]
        value = None if isinstance(entry, str) else entry["value"]
        for word in words:  # «от выстрелов»: the source; «Игнорирует Гибель»: the trigger's event
            part = context.compile(word)
            value = part.node.event if isinstance(part, Part) else part
    kw = KEYWORDS.get(term)
    numbers = [tok.value for tok in tokens if tok.kind in ("number", "signed")]
    value = numbers[0] if numbers else value
    by = any("BY" in c.terminals for c in tree.children if not isinstance(c, Tree))  # «на» of «… на 2»
    if tree.data == "named_keyword" and len(words) > 1 and value is None:
        raise t.ReadError(f"«{context.printed(tree)}»: значение ключевого слова — число")
    if kw is None or ("{x:" in kw.phrase) != (value is not None):
        raise t.ReadError(
            f"«{context.printed(tree)}»: ключевое слово без значения или со значением не к месту"
        )
    with_by = f" {_by_word()} {{x:Num}}" in kw.phrase
    # «Отравление 2» beside «Отравление на 2»: the seeds print both, the same keyword
    if by and not with_by:
        raise t.ReadError(f"«{context.printed(tree)}»: так ключевое слово не пишется («{kw.example}»)")
    if kw.build is not None:
        built = kw.build(value)
        if built is None:
            raise t.ReadError(f"«{context.printed(tree)}»: недопустимое значение ключевого слова")
        ability = replace(built, keyword=kw.term, value=value if built.value is None else built.value)
    elif kw.expands_to is not None:
        ability = replace(_expansion(kw.expands_to.format(x=value)), keyword=kw.term, value=value)
    else:
        kind = "static" if kw.kind == "static" else kw.kind
        ability = Ability(kind, kw.name, keyword=kw.term, value=value)
    phrase = Phrase("keyword", kw.phrase, kw.example, _no_build, None, kw.term)
    named = {"x": _value_words(kw.phrase, context.printed(tree), value)} if value is not None else {}
    reading = Reading("sentence", parts=(Reading("phrase", phrase=phrase, named=named),))
    return AbilityPart(replace(ability, text=context.sentence), reading, keyword=True)


def _value_words(phrase: str, printed: str, value: Any) -> Any:
    """What the reading of a keyword keeps in its slot: a number as it is; any other value («Защита от
    заклинаний», «Игнорирует Гибель») as its printed words, in lower case — the canonical words of the
    keyword are the keyword's own words around them (no table of value words)."""
    m = _KEYWORD_SLOT.search(phrase)
    if m is None or m.group(1) in _NUMBER_SLOTS:
        return value
    before, after = phrase[: m.start()], phrase[m.end() :]
    if not printed.lower().startswith(before.lower()) or not printed.lower().endswith(after.lower()):
        return value
    return printed[len(before) : len(printed) - len(after)].lower()


_KEYWORD_SLOT = re.compile(r"\{x:(\w+)\}")
_NUMBER_SLOTS = ("Num", "Signed", "Amount")


@cache
def _by_word() -> str:
    """«на» as the lexicon writes it (the preposition of «Отравление на Х», «ранить на Х»)."""
    from berserk_engine.language.lexicon import lexicon

    return next(e.form for e in lexicon().entries if e.category == "by")


def _expansion(text: str) -> Ability:
    """The ability of the card text a keyword means («Регенерация 2»: «В конце своего хода: излечиться
    на 2.»), read by the grammar; the keyword is not read here when its text is not read yet."""
    found = [p for p in read_ability(text) if p.ability.kind != "spell"]
    if len(found) != 1:
        raise t.ReadError(f"«{text}»: текст ключевого слова не прочитан грамматикой")
    return found[0].ability


@compiles("spell")
def _spell(tree: Tree[Any], context: Context) -> AbilityPart:
    (body,) = context.values(tree)
    ability = Ability("spell", context.sentence, _decided_when_reached(body), optional=body.optional)
    return AbilityPart(ability, Reading("sentence", parts=(body.reading,)))


def _decided_when_reached(body: Effect) -> Any:
    """The effect of a spell or an activated ability: «вы можете» at its head is the player's decision when
    the effect resolves (a spell has no declaration of its own to skip, an activated ability is already
    declared by its payment; I-116) — the whole effect as one optional part."""
    if not body.optional:
        return body.node
    words = _rendered(replace(body.reading, optional=False))
    return data.REGISTRY["MayDo"](body.node, words)


_register_frames()
compiles(*_keyword_aliases())(_keyword)
for _raw in _frames_file()["trigger"]:
    compiles(_raw["alias"])(_named_trigger(_raw))


# --- reading a sentence ----------------------------------------------------------------------------------


def read_payment(words: str, classes: Iterable[str] = ()) -> Part:
    """Words as the payment of an activated ability or a limit (the start rule ``payment``: «[Закрыть],
    1 [Монета]», «Один раз за ход», «раниться на 1»): the engine's :class:`~berserk_engine.abilities.Cost`
    and the reading (a ``head`` with a reading per item). Raises
    :class:`~berserk_engine.language.tree.ReadError` when the grammar does not read them, or reads them as
    different payments."""
    found = _compiled_readings(words, words, classes, "payment", lambda a, b: a.node == b.node)
    if len(found) > 1:
        raise t.ReadError(f"«{words}» читается как разные оплаты: " + "; ".join(str(p.node) for p in found))
    return found[0]


def read_ability(sentence: str, classes: Iterable[str] = ()) -> list[AbilityPart]:
    """Every reading of a sentence as an ability, compiled (readings with the same meaning merged).
    Raises :class:`~berserk_engine.language.tree.ReadError` when the grammar does not read it."""
    body = sentence.strip()
    if body.endswith("."):
        body = body[:-1].rstrip()
    try:
        t._analyzed(body, classes)  # words that are no card text: an error before anything else
    except t.ReadError as exc:
        if not exc.unknown:
            raise
        raise t.ReadError(_unknown_in_piece(body, classes, exc), exc.position, exc.nearest, True) from None
    text = t.same_condition(body)  # «Каждый раз, когда …» is the condition «Когда …» (401.4)
    return _compiled_readings(
        text,
        sentence,
        classes,
        "ability",
        lambda a, b: a.ability == b.ability and a.comma == b.comma,
    )


def _unknown_in_piece(text: str, classes: Iterable[str], exc: t.ReadError) -> str:
    """A word nobody knows, named with the piece of the sentence it stands in: the grammar parses the
    words before it, and where they end is where the diagnosis looks (language/diagnosis.py)."""
    from berserk_engine.language.morphology import analyze

    tokens = tokenize(text)
    at = next((i for i, token in enumerate(tokens) if token.start == exc.position), None)
    if at is None or at == 0:
        return exc.message
    try:
        g.parse(g.words(tokens[:at], analyze(tokens[:at], classes)), "ability")
    except g.NoParse as stopped:
        found = diagnosis.blame(text, tokens, at, stopped.pieces)
        return diagnosis.unknown_word_message(text, tokens, found, exc.message)
    except ValueError:  # another unknown word before it: the first one is named
        return exc.message
    return exc.message


def _compiled_readings(
    text: str,
    sentence: str,
    classes: Iterable[str],
    start: str,
    same: Callable[[Any, Any], bool],
) -> list[Any]:
    """Every reading of ``text`` from the grammar's start rule ``start`` («payment» or «ability»), compiled,
    readings ``same`` in meaning merged. Raises
    :class:`~berserk_engine.language.tree.ReadError` when the grammar does not read it, or reads it in
    more than :data:`MAX_SENTENCE_READINGS` ways."""
    tokens, analyses = t._analyzed(text, classes)
    try:
        forest = g.parse(g.words(tokens, analyses), start)
    except g.NoParse as exc:
        position = exc.token.start if exc.token else len(text)
        if start == "ability":
            raise t.ReadError(diagnosis.sentence_message(text, tokens, exc), position) from None
        raise t.ReadError(
            t._no_parse_message(
                text, tokens, exc, {"payment": "оплате", "trigger": "условии срабатывания"}.get(start, "")
            ),
            position,
        ) from None
    context = Context(text, sentence, tuple(classes))
    found: list[Any] = []
    for number, tree in enumerate(t.unambiguous(forest)):
        if number >= MAX_SENTENCE_READINGS:
            raise t.ReadError(
                f"«{text}»: больше {MAX_SENTENCE_READINGS} разборов — текст слишком неоднозначен"
            )
        part = compile_tree(tree, context)
        if not any(same(part, f) for f in found):
            found.append(part)
    return found
