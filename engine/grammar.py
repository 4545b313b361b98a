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

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import parse
from berserk_engine.abilities import (
    Ability,
    Amount,
    Cost,
    Selector,
    looks_at_declaration,
    number_slots,
    target_slots,
)
from berserk_engine.errors import CardTextError

# --- typed slots --------------------------------------------------------------------------------

CREATURE = ("creature",)
CHARACTER = ("creature", "hero")

# Targets in the accusative (after «ранить», «излечить», «уничтожить», «вернуть» …).
ACCUSATIVE: dict[str, Selector] = {
    "выбранное существо": Selector("chosen", "выбранное существо", CREATURE),
    "выбранное существо противника": Selector("chosen", "выбранное существо противника", CREATURE, "enemy"),
    "выбранное ваше существо": Selector("chosen", "выбранное ваше существо", CREATURE, "own"),
    "выбранное своё существо": Selector("chosen", "выбранное своё существо", CREATURE, "own"),
    "выбранного персонажа": Selector("chosen", "выбранного персонажа", CHARACTER),
    "выбранную экипировку противника": Selector(
        "chosen", "выбранную экипировку противника", ("equipment",), "enemy"
    ),
    "выбранного персонажа противника": Selector(
        "chosen", "выбранного персонажа противника", CHARACTER, "enemy"
    ),
    "другое ваше существо": Selector("chosen", "другое ваше существо", CREATURE, "own", other=True),
    "другого вашего персонажа": Selector("chosen", "другого вашего персонажа", CHARACTER, "own", other=True),
    "героя противника": Selector("enemy_hero", "героя противника", ("hero",)),
    "своего героя": Selector("own_hero", "своего героя", ("hero",)),
    "вашего героя": Selector("own_hero", "вашего героя", ("hero",)),
    "это существо": Selector("self", "это существо", CREATURE),
    "эту карту": Selector("self", "эту карту", ("creature", "hero", "equipment", "event")),
    "каждое существо": Selector("each", "каждое существо", CREATURE),
    "каждое существо противника": Selector("each", "каждое существо противника", CREATURE, "enemy"),
    "каждое ваше существо": Selector("each", "каждое ваше существо", CREATURE, "own"),
    "каждое другое существо": Selector("each", "каждое другое существо", CREATURE, other=True),
    "каждого персонажа противника": Selector("each", "каждого персонажа противника", CHARACTER, "enemy"),
}
# Subjects in the nominative («[цель] получает …»).
NOMINATIVE: dict[str, Selector] = {
    "выбранное существо": ACCUSATIVE["выбранное существо"],
    "выбранное существо противника": ACCUSATIVE["выбранное существо противника"],
    "выбранное ваше существо": ACCUSATIVE["выбранное ваше существо"],
    "выбранный персонаж": Selector("chosen", "выбранный персонаж", CHARACTER),
    "это существо": ACCUSATIVE["это существо"],
    "эта карта": Selector("self", "эта карта", ("creature", "hero", "equipment", "event")),
    "ваш герой": Selector("own_hero", "ваш герой", ("hero",)),
    "каждое существо": ACCUSATIVE["каждое существо"],
    "каждое ваше существо": ACCUSATIVE["каждое ваше существо"],
    "каждое существо противника": ACCUSATIVE["каждое существо противника"],
}
# Targets in the genitive («жизни выбранного существа сокращаются до 1», «удар этого существа …»).
GENITIVE: dict[str, Selector] = {
    "выбранного существа": Selector("chosen", "выбранное существо", CREATURE),
    "выбранного существа противника": Selector("chosen", "выбранное существо противника", CREATURE, "enemy"),
    "выбранного вашего существа": Selector("chosen", "выбранное ваше существо", CREATURE, "own"),
    "выбранного персонажа": Selector("chosen", "выбранный персонаж", CHARACTER),
    "этого существа": Selector("self", "это существо", CREATURE),
    "этой карты": Selector("self", "эта карта", ("creature", "hero", "equipment", "event")),
    "каждого существа": Selector("each", "каждое существо", CREATURE),
    "каждого существа противника": Selector("each", "каждое существо противника", CREATURE, "enemy"),
    "каждого вашего существа": Selector("each", "каждое ваше существо", CREATURE, "own"),
    "героя противника": Selector("enemy_hero", "героя противника", ("hero",)),
    "вашего героя": Selector("own_hero", "вашего героя", ("hero",)),
}
DURATIONS: dict[str, str] = {
    "до конца хода": "end_of_turn",  # 310.2
    "до конца боя": "leaves_play",  # «Получает [текст]»: by default until the end of the battle
    "пока это существо в игре": "source_leaves",
}
# «На один (на Х) ходов игрока»: the next turn(s) of the ability's controller or of his opponent.
_TURNS = re.compile(
    r"на (один|\d+) (?:(ваш) ход|(ваших) хода|(ваших) ходов|ход (противника)|хода (противника)"
    r"|ходов (противника))",
    re.IGNORECASE,
)


def player_turns(until: str) -> tuple[str, int] | None:
    """«на Х ходов игрока» as ("own" | "enemy", Х), or None for another duration."""
    if not until.startswith("player_turns:"):
        return None
    _, side, turns = until.split(":")
    return side, int(turns)


def _alternatives(words: Any) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# «Название карты»: the card's own name in its text, in quotes, means this card.
_OWN_NAME = r"«[^«»]+»"


def _lookup(table: dict[str, Any], own_name: bool = False) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        if text.startswith("«"):
            return Selector("self", text, ("creature", "hero", "equipment", "event"))
        return table[text.lower()]

    convert.pattern = _alternatives(table) + (f"|{_OWN_NAME}" if own_name else "")  # type: ignore[attr-defined]
    return convert


def _duration(text: str) -> str:
    m = _TURNS.fullmatch(text)
    if m is None:
        return DURATIONS[text.lower()]
    count = 1 if m.group(1).lower() == "один" else int(m.group(1))
    side = "own" if any(m.group(i) for i in (2, 3, 4)) else "enemy"
    return f"player_turns:{side}:{count}"


_duration.pattern = (  # type: ignore[attr-defined]
    _alternatives(DURATIONS) + "|" + re.sub(r"\((?!\?)", "(?:", _TURNS.pattern)
)


def _signed(text: str) -> int:
    return -int(text[1:]) if text[0] in "-–−" else int(text[1:])


_signed.pattern = r"[+\-–−]\d+"  # type: ignore[attr-defined]


def _num(text: str) -> int:
    return int(text)


_num.pattern = r"\d+"  # type: ignore[attr-defined]


def _amount(text: str) -> Amount:
    if text.isdigit():
        return Amount(value=int(text), words=text)
    return Amount(prop="strike", words=text)


_amount.pattern = r"\d+|значение удара этого существа"  # type: ignore[attr-defined]

TYPES: dict[str, Callable[[str], Any]] = {
    "Num": _num,
    "Signed": _signed,
    "Amount": _amount,
    "Acc": _lookup(ACCUSATIVE, own_name=True),
    "Nom": _lookup(NOMINATIVE, own_name=True),
    "Gen": _lookup(GENITIVE),
    "Dur": _duration,
}
TYPE_WORDS = {
    "Num": "число",
    "Signed": "число со знаком: +1, -1",
    "Amount": "число или «значение удара этого существа»",
    "Acc": "цель: " + ", ".join(f"«{w}»" for w in ACCUSATIVE) + " или название этой карты в кавычках",
    "Nom": "цель: " + ", ".join(f"«{w}»" for w in NOMINATIVE) + " или название этой карты в кавычках",
    "Gen": "цель: " + ", ".join(f"«{w}»" for w in GENITIVE),
    "Dur": "срок: "
    + ", ".join(f"«{w}»" for w in DURATIONS)
    + ", «на один ваш ход», «на 2 хода противника» …",
}
_FIELD = re.compile(r"\{(\w+):(\w+)\}")


def slot_type(name: str, table: dict[str, Any], words: str) -> None:
    """Register a typed slot whose words come from ``table`` (words -> value), for the phrases of a
    keyword module («Защита от {x:From}»). Call it before the phrases that use it."""
    if name in TYPES:
        raise ValueError(f"тип слота {name} уже зарегистрирован")
    TYPES[name] = _lookup(table)
    TYPE_WORDS[name] = words


# --- the registry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Phrase:
    category: str  # "keyword" | "trigger" | "cost" | "effect" | "static"
    format: str
    example: str
    build: Callable[[dict[str, Any]], Any]
    parser: Any
    loose: Any  # the same words with untyped fields: tells which slot did not fit
    term: str | None = None  # the glossary term this phrase implements


PHRASES: dict[str, list[Phrase]] = {c: [] for c in ("keyword", "trigger", "cost", "effect", "static")}
# trigger-registry: effect nodes the grammar builds itself, registered by the modules that define them
# («sequence»: several clauses of one ability, berserk_engine.effects.Sequence) — the grammar imports
# none of the modules that register phrases.
NODES: dict[str, Any] = {}


def phrase(category: str, fmt: str, example: str, term: str | None = None):
    """Register a phrase: ``build(fields)`` returns what the words mean, or None if they do not fit."""

    def wrap(build: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], Any]:
        PHRASES[category].append(
            Phrase(
                category,
                fmt,
                example,
                build,
                parse.compile(fmt, extra_types=TYPES, case_sensitive=False),
                parse.compile(_FIELD.sub(r"{\1}", fmt), case_sensitive=False),
                term,
            )
        )
        return build

    return wrap


def _readings(category: str, words: str) -> list[tuple[Phrase, Any]]:
    """Every registered phrase of the category that the words fit, with what it builds."""
    found = []
    for ph in PHRASES[category]:
        m = ph.parser.parse(words)
        if m is not None:
            built = ph.build(m.named)
            if built is not None:
                found.append((ph, built))
    return found


def _slot_problem(category: str, words: str) -> str | None:
    """When the words fit a phrase except for one typed slot, say which slot and what it accepts."""
    for ph in PHRASES[category]:
        m = ph.loose.parse(words)
        if m is None:
            continue
        for name, kind in _FIELD.findall(ph.format):
            value = m.named.get(name, "")
            pattern = TYPES[kind].pattern  # type: ignore[attr-defined]
            if not re.fullmatch(pattern, value, re.IGNORECASE):
                what = "неизвестная цель" if kind in ("Acc", "Nom") else "непонятное значение"
                return f"{what} «{value}» в «{ph.example}» (ожидается {TYPE_WORDS[kind]})"
    return None


def _nearest(words: str, categories: tuple[str, ...]) -> list[str]:
    examples = [ph.example for c in categories for ph in PHRASES[c]]
    return difflib.get_close_matches(words, examples, n=3, cutoff=0.3)


# --- reading card text ----------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=\.)\s+")
_OPTIONAL = re.compile(r"^вы можете\s+", re.IGNORECASE)
_CONJUNCTIONS = (", затем ", ". Затем ", " и затем ", ", и ", " и ")


class _Unreadable(Exception):
    def __init__(self, message: str, nearest: list[str]) -> None:
        super().__init__(message)
        self.message = message
        self.nearest = nearest


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) for every sentence of a card's text. A sentence in parentheses — a printed
    limit «(Один раз за ход.)» — belongs to the sentence before it (trigger-registry)."""
    out: list[tuple[int, str]] = []
    offset = 0
    for part in _SENTENCE_END.split(text.strip()):
        if part.strip():
            start = text.find(part, offset)
            if part.strip().startswith("(") and out:
                out[-1] = (out[-1][0], text[out[-1][0] : start + len(part)].strip())
            else:
                out.append((start, part.strip()))
            offset = start + len(part)
    return out


# trigger-registry: a printed limit after the ability, in parentheses: «…: возьмите карту. (Один раз за
# ход.)», «… (2 раза за ход)». For a triggered ability the limit is its payment (501.2).
_TRAILING_LIMIT = re.compile(r"\s*\(([^()]+?)\.?\)\s*\.?$")


def _trailing_limit(body: str) -> tuple[str, Cost | None]:
    m = _TRAILING_LIMIT.search(body)
    if m is None:
        return body, None
    limits = _readings("cost", m.group(1).strip())
    if (
        len(limits) != 1
        or limits[0][1] != Cost(per_turn=limits[0][1].per_turn)
        or limits[0][1].per_turn is None
    ):
        raise _Unreadable(
            f"в скобках после способности ожидается ограничение «(Один раз за ход.)», «(2 раза за ход)»: "
            f"«{m.group(1).strip()}»",
            [ph.example for ph in PHRASES["cost"] if "за ход" in ph.format],
        )
    return body[: m.start()].strip().rstrip(".").strip(), limits[0][1]


def read_effect(words: str) -> tuple[Any, bool]:
    """An effect clause → (effect node, optional «вы можете»). Raises _Unreadable."""
    Sequence = NODES["sequence"]  # trigger-registry: registered by berserk_engine.effects

    clause = words.strip().rstrip(".").strip()
    optional = bool(_OPTIONAL.match(clause))
    clause = _OPTIONAL.sub("", clause)
    found = _readings("effect", clause)
    if len(found) == 1:
        return found[0][1], optional
    if len(found) > 1:
        raise _Unreadable(
            "фраза читается несколькими способами: " + "; ".join(f"«{ph.format}»" for ph, _ in found), []
        )
    for conj in _CONJUNCTIONS:
        if conj in clause:
            head, _, tail = clause.partition(conj)
            try:
                first, _ = read_effect(head)
                rest, _ = read_effect(tail)
            except _Unreadable:
                continue
            parts = (*_parts(first), *_parts(rest))
            return Sequence(parts), optional
    problem = _slot_problem("effect", clause)
    raise _Unreadable(problem or f"эффект не распознан: «{clause}»", _nearest(clause, ("effect",)))


def _parts(node: Any) -> tuple[Any, ...]:
    return node.parts if isinstance(node, NODES["sequence"]) else (node,)


def _read_costs(words: str) -> Cost | None:
    total = Cost()
    for part in (p.strip() for p in words.split(",")):
        found = _readings("cost", part)
        if len(found) != 1:
            return None
        total = total + found[0][1]
    return total


def _finish(ability: Ability) -> Ability:
    effect = number_slots(ability.effect) if ability.effect is not None else None
    finished = replace(ability, effect=effect, slots=target_slots(effect))
    if finished.kind == "triggered" and not finished.optional and looks_at_declaration(finished):
        # 517.3.2: a triggered ability that summons a given card may be skipped, «как будто у него нет
        # в колоде данной карты».
        finished = replace(finished, optional=True)
    return finished


def _limited_trigger(head: str) -> tuple[list[tuple[Phrase, Any]], Cost | None]:
    """«Один раз за ход, когда погибает существо»: a triggered ability with its «Х раз за ход» limit —
    for a triggered ability that limit is its payment (501.2)."""
    first, comma, rest = head.partition(",")
    if not comma:
        return [], None
    limits = _readings("cost", first.strip())
    if len(limits) != 1:
        return [], None
    limit = limits[0][1]
    if limit.per_turn is None or limit != Cost(per_turn=limit.per_turn):
        return [], None
    return _readings("trigger", rest.strip()), limit


def read_sentence(sentence: str, *, spell: bool) -> Ability:
    """One sentence → one ability. Raises _Unreadable."""
    body, trailing = _trailing_limit(sentence.strip().rstrip(".").strip())  # trigger-registry
    readings: list[Ability] = []
    problems: list[str] = []
    for _ph, built in _readings("keyword", body):
        readings.append(replace(built, text=sentence))
    for _ph, built in _readings("static", body):
        readings.append(replace(built, text=sentence))
    head, colon, rest = body.partition(":")
    if colon:
        triggers = _readings("trigger", head.strip())
        limit = None
        if not triggers:
            triggers, limit = _limited_trigger(head)
        if trailing is not None:  # trigger-registry: «(Один раз за ход.)»
            if limit is not None:
                raise _Unreadable("ограничение «раз за ход» указано дважды", [])
            limit = trailing
        cost = None if triggers else _read_costs(head)
        if triggers or cost is not None:
            try:
                effect, optional = read_effect(rest)
            except _Unreadable as exc:
                problems.append(exc.message)
                effect = None
            if effect is not None:
                for _ph, trig in triggers:
                    readings.append(
                        Ability("triggered", sentence, effect, trigger=trig, optional=optional, cost=limit)
                    )
                if cost is not None and not spell:
                    paid = cost if trailing is None else cost + trailing  # trigger-registry
                    readings.append(Ability("activated", sentence, effect, cost=paid))
        elif not readings:
            problems.append(
                "не распознаны ни условие срабатывания, ни оплата активируемой способности: "
                f"«{head.strip()}» (оплата активируемой способности не распознана)"
            )
    elif spell:
        try:
            effect, optional = read_effect(body)
            readings.append(Ability("spell", sentence, effect, optional=optional))
        except _Unreadable as exc:
            problems.append(exc.message)
    if len(readings) == 1:
        if trailing is not None and readings[0].kind not in ("triggered", "activated"):  # trigger-registry
            raise _Unreadable(
                "ограничение «раз за ход» бывает только у срабатывающей или активируемой способности", []
            )
        return _finish(readings[0])
    if len(readings) > 1:
        raise _Unreadable(
            "предложение читается несколькими способами: " + "; ".join(a.kind for a in readings), []
        )
    categories = ("effect",) if spell else ("keyword", "static", "trigger", "cost", "effect")
    message = problems[0] if problems else "способность не распознана"
    if not problems and not spell:
        message = (
            "способность не распознана: ожидается ключевое слово, «Найм:», «Гибель:», «В начале хода:» … "
            "или оплата"
        )
    raise _Unreadable(message, _nearest(body, categories))


def parse_ability(sentence: str, spell: bool = False) -> Ability:
    """A sentence as an ability (cached: the same words always mean the same ability)."""
    _load()
    return _parse_cached(sentence, spell)


@lru_cache(maxsize=4096)
def _parse_cached(sentence: str, spell: bool) -> Ability:
    return read_sentence(sentence, spell=spell)


def parse_card_text(card: str, text: str, *, spell: bool = False) -> tuple[Ability, ...]:
    """The whole text of a card → its abilities, one per sentence."""
    _load()
    abilities = []
    for number, (offset, sentence) in enumerate(split_sentences(text), start=1):
        try:
            ability = _parse_cached(sentence, spell)
        except _Unreadable as exc:
            raise CardTextError(
                card, sentence, exc.message, position=(number, offset), nearest=exc.nearest
            ) from None
        for named in _names_in(ability):
            if named != f"«{card}»":
                raise CardTextError(
                    card,
                    sentence,
                    f"названа карта {named}: название в тексте карты относится только к ней самой "
                    "(«Название карты»)",
                    position=(number, offset),
                )
        abilities.append(ability)
    return tuple(abilities)


def _names_in(ability: Ability) -> list[str]:
    from berserk_engine.abilities import _walk

    return [sel.words for sel in _walk(ability.effect) if sel.words.startswith("«")]


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


def _register_keyword(kw: Any) -> None:
    def build(fields: dict[str, Any]) -> Ability | None:
        value = fields.get("x")
        if kw.build is not None:
            built = kw.build(value)
            if built is None:
                return None
            return replace(built, keyword=kw.term, value=value if built.value is None else built.value)
        if kw.expands_to is not None:
            inner = read_sentence(kw.expands_to.format(x=value), spell=False)
            return replace(inner, keyword=kw.term, value=value)
        return Ability("static" if kw.kind == "static" else kw.kind, kw.name, keyword=kw.term, value=value)

    phrase("keyword", kw.phrase, kw.example, term=kw.term)(build)


def all_phrases() -> list[Phrase]:
    _load()
    return [ph for phrases in PHRASES.values() for ph in phrases]
