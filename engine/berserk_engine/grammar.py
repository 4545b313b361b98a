"""Card text → abilities: a grammar of phrases in the rulebook's own wording, with typed slots.

Every phrase the engine understands is registered once, in one of five categories:

* ``keyword`` — a whole sentence that is a keyword ability («Броня 2», «Первый удар»), from the
  keyword modules (:mod:`berserk_engine.keywords`);
* ``trigger`` — the words before the colon of a triggered ability («Найм», «В начале вашего хода»);
* ``cost`` — one item of the payment before the colon of an activated ability («[Закрыть]»,
  «1 [Монета]», «Один раз за ход», «раниться на 1»);
* ``effect`` — what an ability does («ранить на 2 выбранное существо»);
* ``static`` — a whole sentence that is a constant ability.

Phrases are `parse` formats whose fields have types: ``{n:Num}`` a number, ``{n:Amount}`` a number or
«значение удара этого существа», ``{t:Acc}`` a target in the accusative («выбранное существо», «героя
противника»), ``{t:Nom}`` a subject in the nominative («выбранное существо», «это существо»), ``{d:Dur}``
a duration («до конца хода»). A sentence is read in every way the registry allows — as a keyword, as
«trigger: effect», as «payment: effect», as a spell's effect, as a constant ability — and exactly one
reading must build; no reading is an error naming the card, the sentence, its position and the nearest
known phrases, two readings are an error too (the grammar would be ambiguous).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import replace
from functools import lru_cache
from typing import Any

from berserk_engine import card_store
from berserk_engine.abilities import (
    Ability,
    Amount,
    Cost,
    Selector,
    looks_at_declaration,
    number_slots,
    selectors_of,
    target_slots,
)
from berserk_engine.errors import CardTextError
from berserk_engine.language import reminder
from berserk_engine.language.morphology import infinitive_clause
from berserk_engine.language.reading import Phrase, Reading, set_renderer
from berserk_engine.language.tokens import TextError, tokenize
from berserk_engine.language.tree import CHOSEN_CLASS, ReadError

# --- the kinds of cards a target may be ---------------------------------------------------------------

CHARACTER = ("creature", "hero")


def player_turns(until: str) -> tuple[str, int] | None:
    """«на Х ходов игрока» as ("own" | "enemy", Х), or None for another duration."""
    if not until.startswith("player_turns:"):
        return None
    _, side, turns = until.split(":")
    return side, int(turns)


# --- the registry ---------------------------------------------------------------------------------


CATEGORIES = ("keyword", "trigger", "cost", "effect", "static", "condition")  # of the card language's forms
# trigger-registry: effect nodes the grammar builds itself, registered by the modules that define them
# («sequence»: several clauses of one ability, berserk_engine.effects.Sequence; «may»: an optional part
# of a sequence, berserk_engine.effects.MayDo) — the grammar imports
# none of the modules that register phrases.
NODES: dict[str, Any] = {}


@lru_cache(maxsize=8)
def frame_phrases(category: str) -> tuple[Phrase, ...]:
    """The forms of a category of the card language the grammar reads — the canonical words of the
    constructions of frames.toml and the keywords' own words — each with its example and term (the site's
    catalogue of the card language, the nearest forms of an error)."""
    from berserk_engine.language.abilities import frame_formats

    formats = frame_formats(category) + _keyword_formats(category)
    return tuple(Phrase(category, fmt, example, _nothing, None, term) for fmt, example, term in formats)


def _keyword_formats(category: str) -> list[tuple[str, str, str | None]]:
    """The keywords' own words (each keyword module's :class:`~berserk_engine.keywords.Keyword`: «Броня
    {x:Num}», its example, its term): what the grammar reads as a keyword (keywords.toml), for the
    diagnosis and the site's catalogue."""
    if category != "keyword":
        return []
    from berserk_engine.keywords import KEYWORDS

    return [(kw.phrase, kw.example, kw.term) for kw in KEYWORDS.values()]


def _nothing(_named: dict[str, Any]) -> None:  # a format of the grammar's is never built from its slots
    return None


def _short(words: str, most: int = 400) -> str:
    return words if len(words) <= most else words[: words.rfind(",", 0, most)] + " …"


# --- reading card text ----------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=\.)\s+")


_DIAGNOSE = [True]  # False while :func:`try_reading` only asks whether words read


class _Unreadable(Exception):
    def __init__(self, message: str, nearest: list[str], read: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.nearest = nearest
        self.read = read  # the words read, and what they mean is an error (not a failed parse)


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) for every sentence of a card's text. A sentence in parentheses — a printed
    limit «(Один раз за ход.)» — belongs to the sentence before it (trigger-registry), and so does a
    sentence that begins with «Затем …»: it continues the effect before it (issue 25)."""
    out: list[tuple[int, str]] = []
    offset = 0
    for part in _SENTENCE_END.split(text.strip()):
        if part.strip():
            start = text.find(part, offset)
            if (part.strip().startswith("(") or _first_word_is(part, "then")) and out:
                out[-1] = (out[-1][0], text[out[-1][0] : start + len(part)].strip())
            else:
                out.append((start, part.strip()))
            offset = start + len(part)
    return out


def _first_word_is(text: str, category: str) -> bool:
    """Is the first word of the text a word of this category of the lexicon («затем»: "then")?"""
    from berserk_engine.language.morphology import analyses

    words = text.split(maxsplit=1)
    return bool(words) and any(a.category == category for a in analyses(words[0].strip(",.:;")))


def _refers(sentence: str) -> bool:
    """Does the sentence hold a reference to a target named before it («его», «оно»; on a spell «это
    существо», I-100; «взятых таким образом», I-107)?"""
    from berserk_engine.language.morphology import analyses

    return any(
        a.category in ("ref", "this", "such") for w in sentence.split() for a in analyses(w.strip(",.:;()"))
    )


@lru_cache(maxsize=4096)
def _payment(words: str) -> tuple[Cost, tuple[Reading, ...]] | None:
    """The payment the grammar reads the words as (start rule ``payment``: «[Закрыть], 1 [Монета]», «Один
    раз за ход», «раниться на 1»), with a reading per item; None when it reads none."""
    from berserk_engine.language.abilities import read_payment

    if not words.strip():
        return None
    try:
        part = read_payment(words.strip())
    except ReadError:
        return None
    return part.node, part.reading.parts


def _limit(words: str) -> tuple[Cost, Reading] | None:
    """«Один раз за ход», «2 раза за ход»: a limit alone (501.2) and its reading, or None."""
    found = _payment(words)
    if found is None:
        return None
    cost, readings = found
    if cost.per_turn is None or cost != Cost(per_turn=cost.per_turn) or len(readings) != 1:
        return None
    return cost, readings[0]


# the trigger conditions whose event is a blow of an attack: the event's card is the attacked one (glossary
# «Атакованная карта»: «Окончательная цель атаки»; triggers._event_data keeps a blow's target)
ATTACK_EVENTS = frozenset({"attacks", "creature_attacks", "class_attacks"})


def _bind_attacked(ability: Ability) -> Ability:
    """«атакованное существо» → the card the attack of the trigger condition was made on; an error in any
    other ability (no attack to look at)."""
    found = [sel for sel in selectors_of(ability.effect) if sel.mode == "attacked"]
    if not found:
        return ability
    if ability.trigger is None or ability.trigger.event not in ATTACK_EVENTS:
        raise _Unreadable(
            f"неизвестная цель «{found[0].words}»: атакованная карта — окончательная цель атаки, она есть "
            "только в способности «При атаке» («Когда это существо атакует»)",
            [],
        )

    def bind(value: Any) -> Any:
        if isinstance(value, Selector):
            return replace(value, mode="event") if value.mode == "attacked" else value
        if isinstance(value, tuple):
            return tuple(bind(v) for v in value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return replace(value, **{f.name: bind(getattr(value, f.name)) for f in dataclasses.fields(value)})
        return value

    return replace(ability, effect=bind(ability.effect))


def _finish(ability: Ability, cost_x: bool = False) -> Ability:
    from berserk_engine import spell_reference, x_value
    from berserk_engine.abilities import effect_nodes

    event_x = x_value.EVENT_X.get(ability.trigger.event) if ability.trigger is not None else None
    if ability.effect is not None and event_x is not None:
        # «Каждый раз, когда наносит Х ран ударом герою, …»: the condition says what Х is (I-111)
        ability = replace(ability, effect=x_value.bind(ability.effect, event_x))
    if ability.effect is not None:
        for node in effect_nodes(ability.effect):
            for value in vars_of(node):
                if (
                    isinstance(value, Amount)
                    and value.prop == "X"
                    and not (cost_x and ability.kind == "spell")
                ):
                    raise _Unreadable(
                        "непонятное значение «Х»: не сказано, что такое Х (ожидается «…, где Х – …»; Х "
                        "стоимости — только в тексте заклинания со стоимостью «Х», «2+Х»)",
                        [],
                    )
        if (trait := x_value.trait_on_a_spell(ability.kind, ability.effect)) is not None:  # I-88
            raise _Unreadable(trait, [])
    if (unpaid := x_value.x_mismatch(ability)) is not None:  # «Х [Монета]: Х персонажей …» (I-115)
        raise _Unreadable(unpaid, [])
    if ability.effect is not None:
        if _unbound_class(ability.effect):
            raise _Unreadable(
                "неизвестная цель «… этого класса»: перед ней не выбран класс "
                "(ожидается «выберите класс, …»)",
                [],
            )
    if ability.effect is not None:
        ability = _bind_attacked(ability)
    effect = number_slots(spell_reference.on_a_spell(ability.kind, ability.effect, ability.text))  # I-100
    if ability.kind == "spell" and effect is not None:
        effect = _named_class_chosen(effect)
    for sel in selectors_of(effect):
        if sel.mode == "ref" and sel.slot < 0:
            raise _Unreadable(
                f"неизвестная цель «{sel.words}»: перед ней не названа цель, на которую она ссылается "
                "(«выберите существо, ранить его на 2»)",
                [],
            )
    finished = replace(ability, effect=effect, slots=target_slots(effect))
    if finished.kind == "triggered" and not finished.optional and looks_at_declaration(finished):
        # 517.3.2: a triggered ability that summons a given card may be skipped, «как будто у него нет
        # в колоде данной карты».
        finished = replace(finished, optional=True)
    return finished


def _named_class_chosen(effect: Any) -> Any:
    """On a spell «сила удара этого механизма» names the card chosen before it (I-113): the class it names
    is a condition of that choice — only a mechanism may be chosen — and a choice of another class is an
    error of the text («выберите вашего гнома … этого механизма»)."""
    from berserk_engine.abilities import effect_nodes
    from berserk_engine.language.morphology import class_named_by_this

    wanted: dict[int, tuple[str, str]] = {}
    for node in effect_nodes(effect):
        for value in vars_of(node):
            sel = value.selector if isinstance(value, Amount) else None
            if sel is not None and sel.mode == "ref" and sel.slot >= 0:
                named = class_named_by_this(value.words)
                if named is not None:
                    wanted[sel.slot] = (named, value.words)
    return _with_class(effect, wanted) if wanted else effect


def _with_class(node: Any, wanted: dict[int, tuple[str, str]]) -> Any:
    import dataclasses

    if isinstance(node, Selector):
        if not node.chosen or node.slot not in wanted:
            return node
        named, words = wanted[node.slot]
        if node.classes and named not in node.classes:
            raise _Unreadable(
                f"«{words}» называет карту, выбранную раньше («{node.words}»), а её класс — "
                f"{', '.join(f'«{c}»' for c in node.classes)}, не «{named}»",
                [],
                read=True,
            )
        return replace(node, classes=(named,))
    if isinstance(node, tuple):
        return tuple(_with_class(v, wanted) for v in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _with_class(getattr(node, f.name), wanted) for f in dataclasses.fields(node)}
        return replace(node, **changes)
    return node


def _unbound_class(node: Any) -> bool:
    """Is there a «… этого класса» outside «выберите класс, …» (its class never chosen)?"""
    import dataclasses

    if isinstance(node, Selector):
        return CHOSEN_CLASS in node.classes
    if isinstance(node, tuple):
        return any(_unbound_class(v) for v in node)
    if "class_choice" in NODES and isinstance(node, NODES["class_choice"]):
        return False
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return any(_unbound_class(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


def vars_of(node: Any) -> list[Any]:
    """The field values of an effect node."""
    import dataclasses

    return [getattr(node, f.name) for f in dataclasses.fields(node)]


def read_sentence_tree(
    sentence: str, *, spell: bool, cost_x: bool = False, classes: tuple[str, ...] = ()
) -> tuple[Ability, Reading]:
    """One sentence → (its ability, its reading); ``cost_x``: the card's cost holds Х («Х», «2+Х»), so
    a spell's «Х» without «где Х – …» is the Х chosen when it is played (I-66). The grammar of
    :mod:`berserk_engine.language` reads the sentence first; the phrase registry only what it does not
    read yet (issue 25: the registry is ported to the grammar category by category, the parity test
    tests/test_reader_parity.py holding every card text to the nodes it compiled). Raises _Unreadable."""
    reminded = reminder.split(sentence)
    if reminded is not None and not _is_limit(reminded[1]):  # «Рывок (…)»: commentary, checked (I-94)
        ability, tree = read_sentence_tree(reminded[0], spell=spell, cost_x=cost_x, classes=classes)
        try:
            return replace(ability, text=sentence), reminder.checked(ability, render(tree)[:-1], reminded[1])
        except ValueError as exc:
            raise _Unreadable(str(exc), []) from None
    fitting = _grammar_fitting(sentence, spell, classes)
    if len(fitting) == 1:
        return _finish(fitting[0].ability, cost_x), fitting[0].reading
    if len(fitting) > 1:  # different meanings of the same words: an error naming each (issue 25)
        raise _Unreadable(
            "предложение читается несколькими способами: "
            + "; ".join(f"«{render(p.reading)}»" for p in fitting),
            [],
        )
    if not _DIAGNOSE[0]:
        raise _Unreadable("", [])
    raise _diagnosed(sentence, spell, classes)


def _diagnosed(sentence: str, spell: bool, classes: tuple[str, ...] = ()) -> _Unreadable:
    """Why the grammar gives a sentence no reading for a card of this kind: the grammar's own error (the
    piece where its parse stopped, language/diagnosis.py), or the kind of ability the sentence is that a
    card of this kind cannot have; with the nearest forms of the card language."""
    from berserk_engine.language.abilities import read_ability
    from berserk_engine.language.diagnosis import nearest_examples

    body = sentence.strip().rstrip(".").strip()
    nearest = nearest_examples(body, _examples(spell))
    try:
        found = read_ability(sentence, classes)
    except ReadError as exc:
        return _Unreadable(exc.message, nearest)
    if spell:
        kinds = ", ".join(sorted({p.ability.kind for p in found}))
        return _Unreadable(
            f"эффект не распознан: «{body}» — у заклинания нет оплаты, а условие срабатывания кончается "
            f"«:» (прочитано как: {kinds})",
            nearest,
        )
    return _Unreadable(
        "способность не распознана: ожидается ключевое слово, «Найм:», «Гибель:», «В начале хода:» … "
        "или оплата",
        nearest,
    )


def _examples(spell: bool) -> list[str]:
    """The examples of the card language's forms a sentence of a card of this kind is compared with (the
    nearest are offered in an error): keywords, trigger conditions, payments and effects."""
    from berserk_engine.keywords import KEYWORDS
    from berserk_engine.language.abilities import frame_formats

    categories = ("effect",) if spell else ("trigger", "cost", "effect", "static")
    out = [] if spell else [kw.example for kw in KEYWORDS.values()]
    return out + [example for c in categories for _, example, _ in frame_formats(c)]


def _is_limit(text: str) -> bool:
    """«Один раз за ход», «2 раза за ход» in parentheses: a limit (501.2), not a reminder (I-94)."""
    return _limit(text) is not None


def _grammar_sentence(sentence: str, spell: bool) -> tuple[Ability, Reading] | None:
    """The one reading the grammar gives a sentence for a card of this kind (a spell has no payment and
    no trigger condition ending at «,»), or None when it gives none or several."""
    fitting = _grammar_fitting(sentence, spell)
    if len(fitting) != 1:
        return None
    return fitting[0].ability, fitting[0].reading


def _grammar_fitting(sentence: str, spell: bool, classes: tuple[str, ...] = ()) -> list[Any]:
    """The grammar's readings of a sentence that fit a card of this kind (different meanings: merged
    readings with the same meaning are one)."""
    kinds = ("spell", "triggered") if spell else ("triggered", "activated", "static")
    return [
        p
        for p in _grammar_abilities(sentence, classes)
        if p.keyword or (p.ability.kind in kinds and not (spell and p.comma))
    ]


@lru_cache(maxsize=4096)
def _grammar_abilities(sentence: str, classes: tuple[str, ...] = ()) -> tuple[Any, ...]:
    from berserk_engine.language.abilities import read_ability

    try:
        return tuple(read_ability(sentence, classes))
    except ReadError:
        return ()


def parse_ability(sentence: str, spell: bool = False, cost_x: bool = False) -> Ability:
    """A sentence as an ability (cached: the same words always mean the same ability — in this process,
    and in the next ones through the card store, :mod:`berserk_engine.card_store`: the Queue reads each
    declared ability by its words)."""
    key = (sentence, spell, cost_x)
    found = _READ.get(key)
    if found is not None:
        return found
    stored = card_store.store()
    found = stored.get(("ability", *key)) if stored is not None else None
    if found is None:
        _load()
        found = _parse_cached(sentence, spell, cost_x)[0]
        if stored is not None:
            stored.put(("ability", *key), found)
    if len(_READ) >= 4096:
        _READ.clear()
    _READ[key] = found
    return found


# (sentence, spell, cost Х) -> its ability, as parse_ability answered it
_READ: dict[tuple[str, bool, bool], Ability] = {}


@lru_cache(maxsize=4096)
def _parse_cached(
    sentence: str, spell: bool, cost_x: bool = False, classes: tuple[str, ...] = ()
) -> tuple[Ability, Reading]:
    return read_sentence_tree(sentence, spell=spell, cost_x=cost_x, classes=classes)


def try_reading(sentence: str, spell: bool = False, cost_x: bool = False) -> Ability | None:
    """The ability the words read as, or None when they do not read (no diagnosis: fast)."""
    _load()
    _DIAGNOSE[0] = False
    try:
        return read_sentence_tree(sentence, spell=spell, cost_x=cost_x)[0]
    except _Unreadable:
        return None
    finally:
        _DIAGNOSE[0] = True


def reading(sentence: str, spell: bool = False, cost_x: bool = False) -> Reading:
    """How the engine reads a sentence (raises CardTextError when it does not)."""
    _load()
    try:
        return _parse_cached(sentence, spell, cost_x)[1]
    except _Unreadable as exc:
        raise CardTextError("", sentence, exc.message, nearest=exc.nearest) from None


def parse_card_text(
    card: str, text: str, *, spell: bool = False, cost_x: bool = False, classes: tuple[str, ...] = ()
) -> tuple[Ability, ...]:
    """The whole text of a card → its abilities, one per sentence (``cost_x``: its cost holds Х;
    ``classes``: the classes printed on the card — «этого механизма» names this card only by one of them,
    and its class words are words of its text)."""
    _load()
    _check_tokens(card, text)
    abilities: list[Ability] = []
    before = ""  # the sentence of the last ability
    for number, (offset, sentence) in enumerate(split_sentences(text), start=1):
        ability, joined = _sentence_ability(
            card, before if abilities else "", sentence, (number, offset), spell, cost_x, classes
        )
        if joined:
            abilities.pop()
            sentence = f"{before} {sentence}"
        before = sentence
        for named in _names_in(ability) + _unplaced_names(sentence, ability, card):
            if named != f"«{card}»":
                raise CardTextError(
                    card,
                    sentence,
                    f"названа карта {named}: название в тексте карты относится только к ней самой "
                    "(«Название карты»)",
                    position=(number, offset),
                )
        if _names_itself(ability, card):
            raise CardTextError(
                card,
                sentence,
                f"неизвестная цель «… с именем «{card}»»: название этой карты в её тексте относится только "
                "к ней самой («Название карты»), а не ко всем картам с этим именем (толкование I-68)",
                position=(number, offset),
            )
        abilities.append(ability)
    return tuple(abilities)


def _sentence_ability(
    card: str,
    before: str,
    sentence: str,
    position: tuple[int, int],
    spell: bool,
    cost_x: bool,
    classes: tuple[str, ...],
) -> tuple[Ability, bool]:
    """The ability of one sentence, and whether it is read joined with the sentence before (``before``,
    "" for none) as one ability."""
    if before and _optional(sentence):
        # «Возьмите карту. Вы можете ранить …»: a sentence that begins with «вы можете» continues the
        # ability before it as its optional part — decided when it is reached (I-55, I-116), never a
        # second ability whose «вы можете» nobody is asked about
        later = _joined(before, sentence, spell, cost_x, classes)
        if isinstance(later, Ability):
            return later, True
    try:
        return _parse_cached(sentence, spell, cost_x, classes)[0], False
    except _Unreadable as exc:
        joined = _joined(before, sentence, spell, cost_x, classes) if before and _refers(sentence) else None
        if not isinstance(joined, Ability):
            why = joined or exc  # the two sentences read together, and what they say is an error
            raise CardTextError(card, sentence, why.message, position=position, nearest=why.nearest) from None
        # «Выберите существо. Ранить его на 2.»: «его» names the target of the sentence before — both
        # are one ability (issue 25: references cross sentences)
        return joined, True


def _optional(sentence: str) -> bool:
    """Does the sentence begin with «вы можете» («можете»)?"""
    words = sentence.split(maxsplit=2)
    if words and _first_word_is(words[0], "you"):
        words = words[1:]
    return bool(words) and _first_word_is(words[0], "may")


def _joined(
    before: str, sentence: str, spell: bool, cost_x: bool, classes: tuple[str, ...] = ()
) -> Ability | _Unreadable | None:
    """The sentence read with the one before it as one ability; None when that does not read, the error
    when it reads and means what cannot be."""
    try:
        return _parse_cached(f"{before} {sentence}", spell, cost_x, classes)[0]
    except _Unreadable as exc:
        return exc if exc.read else None


def _check_tokens(card: str, text: str) -> None:
    """A text that cannot be a card's text — thousands of clauses, a number of 22 digits, a character of
    no word — is a clear error naming where (issue 25), never a RecursionError or a silent read."""
    try:
        tokenize(text)
    except TextError as exc:
        sentences = split_sentences(text[: exc.position + 1]) or [(0, text)]
        number, (start, _) = len(sentences), sentences[-1]
        shown = text[start : start + 80].strip()
        if len(text) > start + 80:
            shown += " …"
        raise CardTextError(card, shown, exc.message, position=(number, exc.position)) from None


def _names_itself(ability: Ability, card: str) -> bool:
    """Does a selector «… с именем «Название»» of the ability name the card itself?"""
    from berserk_engine.abilities import _walk

    return any(sel.condition == f"name:{card}" for sel in _walk(ability.effect))


def _names_in(ability: Ability) -> list[str]:
    from berserk_engine.abilities import _walk

    return [sel.words for sel in _walk(ability.effect) if sel.words.startswith("«")]


def _unplaced_names(sentence: str, ability: Ability, card: str) -> list[str]:
    """Names in quotes that the reading does not keep anywhere: the grammar reads a name in quotes as this
    card (I-76), so another card's name there («Пока …, «Другая карта» имеет +1 к удару») would be read as
    this card — it is named here, and the caller refuses it (every word belongs to the reading)."""
    try:
        tokens = tokenize(sentence)
    except TextError:
        return []
    from berserk_engine.language.morphology import granted_text

    kept = repr(replace(ability, text=""))  # the nodes, not the sentence they were read from
    return [
        token.text
        for token in tokens
        if token.kind == "quote"
        and token.inner != " ".join(card.split())
        and token.inner not in kept
        and granted_text(token.inner) not in kept  # a granted ability keeps numbers in digits
    ]


_LOADED = False


# --- trigger-registry: the phrases are registered by the catalogue (berserk_engine.catalogue), which
# the package imports before anything else; the grammar imports none of the modules that use it.
def mark_loaded() -> None:
    """Called once by :mod:`berserk_engine.catalogue` when every phrase is registered."""
    global _LOADED
    _LOADED = True


def _load() -> None:
    if not _LOADED:
        raise RuntimeError(
            "каталог движка не загружен: импортируйте berserk_engine (он загружает berserk_engine.catalogue)"
        )


def load() -> None:
    """The engine's catalogue of mechanics is loaded (the keyword modules, the trigger kinds): a card can be
    read."""
    _load()


# --- writing a reading back: the engine's canonical words ---------------------------------------------

_ANY_FIELD = re.compile(r"\{(\w+)(?::(\w+))?\}")
CANONICAL_CONNECTOR = ", затем "


# the grammatical case a slot of a construction's canonical words takes its target in
SLOT_CASES = {"Acc": "accs", "Nom": "nomn", "Gen": "gent", "Dat": "datv", "ToDat": "datv"}


def canonical_words(kind: str | None, value: Any) -> str:
    """The engine's own words for the value of a slot of type ``kind``: a number in digits, a signed one
    with its sign, a duration in the words of frames.toml (``[duration_words]``, «ваш ход» agreeing with
    the number of turns), a target's words inflected into the slot's case (pymorphy3,
    :func:`~berserk_engine.language.morphology.inflect_group`), any other value in its own words."""
    from berserk_engine.language.morphology import inflect_group

    if kind is None:
        return str(value)
    if kind == "Signed":
        return f"+{value}" if value >= 0 else f"-{-value}"
    if kind == "Amount":
        return str(value.value) if value.prop is None else value.words
    if kind == "Dur":
        return _duration_words(value)
    if isinstance(value, Selector) and kind in SLOT_CASES and not value.words.startswith("\u00ab"):
        return inflect_group(value.words, SLOT_CASES[kind])
    return str(getattr(value, "words", value))


def _duration_words(until: str) -> str:
    from berserk_engine.language.abilities import _frames_file
    from berserk_engine.language.morphology import agree_with_number

    words: dict[str, str] = _frames_file()["duration_words"]
    turns = player_turns(until)
    if turns is None:
        return words[until]
    side, count = turns
    number = words["one"] if count == 1 else str(count)
    text = words[f"{side}_turns"].format(n=number)
    return re.sub(r"\[(\w+)\]", lambda m: agree_with_number(m.group(1), count), text)


def render(tree: Reading) -> str:
    """A reading in the engine's canonical words (a sentence ends with a full stop)."""
    if tree.kind == "sentence":
        if len(tree.parts) == 1:
            text = render(tree.parts[0])
        else:
            head, effect = tree.parts
            text = f"{render(head)}: {render(effect)}"
        return text[0].upper() + text[1:] + "."
    if tree.kind == "head":  # «Один раз за ход, когда …», «1 [Монета], один раз за ход»
        texts = [render(p) for p in tree.parts]
        later = (t if t.startswith("Х") else t[:1].lower() + t[1:] for t in texts[1:])  # «Х [Монета]» keeps Х
        return ", ".join([texts[0], *later])
    if tree.kind == "effect":
        text = CANONICAL_CONNECTOR.join(render(p) for p in tree.parts)
        return f"вы можете {infinitive_clause(text)}" if tree.optional else text
    assert tree.phrase is not None and tree.named is not None
    named = tree.named

    def fill(m: re.Match[str]) -> str:
        return canonical_words(m.group(2), named[m.group(1)])

    text = _ANY_FIELD.sub(fill, tree.phrase.format)
    return f"вы можете {infinitive_clause(text)}" if tree.optional else text


set_renderer(render)  # the sentence layer writes a part in canonical words (language/reading.py)
