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

import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from lark import Tree

from berserk_engine import data
from berserk_engine.abilities import Ability, Amount, Cost, Selector, Trigger
from berserk_engine.language import grammar as g
from berserk_engine.language import tree as t
from berserk_engine.language.lexicon import FOLDER
from berserk_engine.language.reading import Phrase, Reading

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

    def words(self, tree: Tree[Any]) -> str:
        """The words of a subtree, as written."""
        tokens = t._tokens(tree)
        return self.text[tokens[0].source.start : tokens[-1].source.end]

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

        def phrase(fmt: str, raw: dict[str, Any] = raw, term: str = term) -> Phrase:
            return Phrase(raw["category"], fmt, raw["example"], _no_build, None, term)

        out[raw["alias"]] = Frame(
            raw["alias"],
            raw["category"],
            raw["node"],
            dict(raw.get("fields", {})),
            dict(raw.get("const", {})),
            tuple(raw.get("requires", ())),
            phrase(raw["canonical"]),
            phrase(raw["canonical_many"]) if "canonical_many" in raw else None,
            phrase(raw["canonical_one"]) if "canonical_one" in raw else None,
            phrase(raw["canonical_plural"]) if "canonical_plural" in raw else None,
        )
    return out


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
        if frame.const.get("closed") and "closed" not in _states(tree):  # «в открытом виде» is not closed
            raise t.ReadError(f"«{context.words(tree)}»: здесь ожидается «в закрытом виде»")
        for child in [c for c in tree.children if isinstance(c, Tree)]:
            if child.data == "card_name":  # «вызовите «Волчонок»»: the printed name, inside the quotes
                parts["name"] = _card_name(child)
                continue
            value = context.compile(child)
            if isinstance(value, Duration):
                parts.setdefault("duration", value.until)
            elif isinstance(value, AbilityPart) and value.keyword:  # «получает Рывок»: its words
                words = context.words(child)
                parts["granted"] = words[0].upper() + words[1:] + "."
                parts["what"] = words
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
        parts["self"] = self_target()
        parts["chosen"] = Selector("chosen", _frames_file()["chosen_target"], ("creature",))
        target = parts.get("target")
        for needed in frame.requires:
            if target is None or not getattr(target, needed):
                raise t.ReadError(f"«{context.words(tree)}»: цель здесь выбирают («выберите существо»)")
        missing = [source for source in frame.fields.values() if source not in parts]
        if missing:  # «раниться на значение удара …» as a payment: a payment is a number
            raise t.ReadError(f"«{context.words(tree)}»: здесь ожидается число")
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
    return t._target(tree, context.text)


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
    if not (kept or selector.classes or selector.condition.startswith(("cost", "name"))):
        selector = replace(selector, words=_accusative(tree))
    return Subject(selector, tree.data == "actor_plur")


def _accusative(tree: Tree[Any]) -> str:
    """A nominative noun group's words in the accusative, inflected by pymorphy3 (animate: as the
    genitive in the plural and the masculine singular); words in another case stay as they are."""
    from berserk_engine.language.lexicon import fold, lexicon
    from berserk_engine.language.morphology import _known, analyses

    tokens = [w.source for w in t._tokens(tree)]
    heads = [
        a for w in tokens for a in analyses(w.text) if a.category in ("kind", "class") and a.case == "nomn"
    ]
    plural = any(a.number == "plur" for a in heads)
    animate = any(a.animacy == "anim" for a in heads)
    masculine = any(a.gender == "masc" for a in heads)
    case = "gent" if animate and (plural or masculine) else "accs"
    out = []
    for token in tokens:
        word = fold(token.text)
        found = analyses(token.text)
        if any(a.category == "ref" for a in found):  # «оно» → «его»
            word = next(e.form for e in lexicon().entries if e.category == "ref" and e.case == "accs")
        elif any(a.case == "nomn" for a in found):
            number = "plur" if plural else "sing"
            for parse in _known(word):
                if parse.tag.case == "nomn" and parse.tag.number == number:
                    inflected = parse.inflect({case})
                    if inflected is not None:
                        word = inflected.word
                        break
        out.append(word)
    return " ".join(out)


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
        raise t.ReadError(f"«{context.words(tree)}»: значение удара — у этого существа", kind.source.start)
    return Amount(prop="strike", words=context.words(tree))


@compiles("amount_of_cards", "times_count")
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
        raise t.ReadError(f"«{context.words(tree)}»: взять можно только карты", t._first(tree).start)


@compiles("draw")
def _draw(tree: Tree[Any], context: Context) -> Part:
    from berserk_engine.language.morphology import analyses

    word = [c for c in tree.children if not isinstance(c, Tree)][-1].source
    if {a.value for a in analyses(word.text) if a.category == "kind"} != {"card"}:
        raise t.ReadError(f"«{context.words(tree)}»: взять можно только карту", word.start)
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
    """«Когда [группа] [что случилось]» (the subject a noun group), or a condition without a subject."""
    if any(not isinstance(c, Tree) for c in tree.children):  # «Когда …»: a word before the condition
        words = context.words(tree)
        trigger = t.trigger_of(t._condition(tree), words)
        phrase = Phrase("trigger", words, words, _no_build, None, _frames_file()["trigger_term"])
        return Part(trigger, Reading("trigger", phrase=phrase, named={}))
    (subjectless,) = tree.children  # «Найм», «В начале хода»: its own construction
    return context.compile(subjectless)


def _named_trigger(raw: dict[str, Any]) -> Compiler:
    phrase = Phrase("trigger", raw["canonical"], raw["canonical"], _no_build, None, raw["term"])

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


@compiles("may")
def _may(tree: Tree[Any], context: Context) -> Part:
    """«…, затем вы можете [часть]»: that part only is optional (I-55)."""
    (clause,) = [c for c in tree.children if isinstance(c, Tree)]
    inner = context.compile(clause)
    words = context.words(clause)
    # the node keeps the part's words as printed (the decision shows them): its canonical words are those
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


@compiles("activated")
def _activated(tree: Tree[Any], context: Context) -> AbilityPart:
    payment, body, *after = [context.compile(c) for c in tree.children if isinstance(c, Tree)]
    cost, heads = payment.node, payment.reading.parts
    if after:  # «(Один раз за ход.)» after the ability: written in front with the payment
        cost, heads = cost + after[0].node, (*heads, after[0].reading)
    ability = Ability("activated", context.sentence, body.node, cost=cost)
    return AbilityPart(ability, Reading("sentence", parts=(Reading("head", parts=heads), body.reading)))


@compiles("named_keyword", "attack_keyword")
def _keyword(tree: Tree[Any], context: Context) -> AbilityPart:
    """A keyword ability: the registry of keywords (:mod:`berserk_engine.keywords`) says what it means —
    a static ability, an ability its module builds, or card text it expands to."""
    from berserk_engine.keywords import KEYWORDS

    tokens = [c.source for c in tree.children if not isinstance(c, Tree)]
    words = [c for c in tree.children if isinstance(c, Tree)]
    if tree.data == "attack_keyword":
        term = _frames_file()["keywords"]["attack_keyword"]
    else:
        term = t._value(words[0], "keyword")
    kw = KEYWORDS.get(term)
    numbers = [tok.value for tok in tokens if tok.kind in ("number", "signed")]
    value = numbers[0] if numbers else None
    by = any("BY" in c.terminals for c in tree.children if not isinstance(c, Tree))  # «на» of «… на 2»
    if kw is None or ("{x:" in kw.phrase) != (value is not None):
        raise t.ReadError(f"«{context.words(tree)}»: ключевое слово без значения или со значением не к месту")
    with_by = f" {_by_word()} {{x:Num}}" in kw.phrase
    # «Отравление 2» beside «Отравление на 2» (the seeds print both): the registry reads the printed
    # form still (berserk_engine.printed.register_printed_keywords), until the registry goes
    if by != with_by:
        raise t.ReadError(f"«{context.words(tree)}»: так ключевое слово не пишется («{kw.example}»)")
    if kw.build is not None:
        built = kw.build(value)
        if built is None:
            raise t.ReadError(f"«{context.words(tree)}»: недопустимое значение ключевого слова")
        ability = replace(built, keyword=kw.term, value=value if built.value is None else built.value)
    elif kw.expands_to is not None:
        ability = replace(_expansion(kw.expands_to.format(x=value)), keyword=kw.term, value=value)
    else:
        kind = "static" if kw.kind == "static" else kw.kind
        ability = Ability(kind, kw.name, keyword=kw.term, value=value)
    phrase = Phrase("keyword", kw.phrase, kw.example, _no_build, None, kw.term)
    named = {"x": value} if value is not None else {}
    reading = Reading("sentence", parts=(Reading("phrase", phrase=phrase, named=named),))
    return AbilityPart(replace(ability, text=context.sentence), reading, keyword=True)


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
    ability = Ability("spell", context.sentence, body.node, optional=body.optional)
    return AbilityPart(ability, Reading("sentence", parts=(body.reading,)))


_register_frames()
for _raw in _frames_file()["trigger"]:
    compiles(_raw["alias"])(_named_trigger(_raw))


# --- reading a sentence ----------------------------------------------------------------------------------


def read_ability(sentence: str, classes: Iterable[str] = ()) -> list[AbilityPart]:
    """Every reading of a sentence as an ability, compiled (readings with the same meaning merged).
    Raises :class:`~berserk_engine.language.tree.ReadError` when the grammar does not read it."""
    body = sentence.strip()
    if body.endswith("."):
        body = body[:-1].rstrip()
    t._analyzed(body, classes)  # words that are no card text: an error before anything else
    text = t.same_condition(body)  # «Каждый раз, когда …» is the condition «Когда …» (401.4)
    tokens, analyses = t._analyzed(text, classes)
    try:
        forest = g.parse(g.words(tokens, analyses), "ability")
    except g.NoParse as exc:
        position = exc.token.start if exc.token else len(text)
        raise t.ReadError(t._no_parse_message(text, tokens, exc, "способности"), position) from None
    context = Context(text, sentence, tuple(classes))
    found: list[AbilityPart] = []
    for number, tree in enumerate(t.unambiguous(forest)):
        if number >= MAX_SENTENCE_READINGS:
            raise t.ReadError(
                f"«{text}»: больше {MAX_SENTENCE_READINGS} разборов — текст слишком неоднозначен"
            )
        part = compile_tree(tree, context)
        if all(part.ability != f.ability or part.comma != f.comma for f in found):
            found.append(part)
    return found
