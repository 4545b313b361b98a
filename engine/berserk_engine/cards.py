"""Card definitions: the printed properties of a card (Part 7: Тип, Стоимость, Стихия, Удар, Жизни)
and its text parsed into abilities.

Card types (Part 2, glossary): существо, заклинание, герой, экипировка (подтипы амулет, броня,
оружие), событие.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from berserk_engine.abilities import Ability, class_lemma
from berserk_engine.errors import CardTextError
from berserk_engine.grammar import parse_card_text, split_sentences
from berserk_engine.keywords import term
from berserk_engine.language import names

term(__name__, "минимальная-стоимость")

CARD_TYPES = {
    "существо": "creature",
    "заклинание": "spell",
    "герой": "hero",
    "экипировка": "equipment",
    "событие": "event",
}
TYPE_WORDS = {v: k for k, v in CARD_TYPES.items()}
SUBTYPES = {"амулет": "amulet", "броня": "armour", "оружие": "weapon"}
SUBTYPE_WORDS = {v: k for k, v in SUBTYPES.items()}
SUBTYPES_OF = {"equipment": frozenset(SUBTYPES.values())}
ELEMENTS = ("степи", "леса", "горы", "болота", "силы тьмы", "нейтральная")
# Types that stay in the game zone once played (202.1: «существа и карты поддержки»).
PERMANENT_TYPES = frozenset({"creature", "equipment", "event"})
CHARACTER_TYPES = frozenset({"creature", "hero"})


@dataclass(frozen=True)
class CardDef:
    """A card as printed: its name, type and properties, and its text parsed into abilities."""

    name: str
    type: str  # "creature" | "spell" | "hero" | "equipment" | "event"
    subtype: str | None = None  # equipment: "amulet" | "armour" | "weapon"; a creature: its kind («гном»)
    cost: int = 0  # the minimal cost (Минимальная стоимость): Х = 0 in a variable cost
    element: str | None = None
    strike: int = 0
    life: int = 0
    text: str = ""
    abilities: tuple[Ability, ...] = field(default=(), compare=False)
    # Derived once, for speed: keyword term -> value, the events its triggered abilities wait for,
    # whether some ability works outside the game zone.
    keywords: dict[str, int | str | None] = field(default_factory=dict, compare=False)
    trigger_events: frozenset[str] = field(default=frozenset(), compare=False)
    outside_play: frozenset[str] = field(default=frozenset(), compare=False)
    activated: tuple[Ability, ...] = field(default=(), compare=False)
    printed_cost: str = ""  # a variable cost as printed («Х», «2+Х»); "" for a fixed one
    # The card's classes (races, factions printed on the card: «эльф», «гном»; on a spell or an event
    # too, I-70), as lemmas (abilities.class_lemma) — «ваш эльф», «ваши гномы» select creatures by them.
    # A creature's subtype is one.
    classes: tuple[str, ...] = ()
    # the same classes as printed (lower case), one per stem of ``classes`` and in its order: what a
    # player reads among the options of «Выберите класс» («зверь», not the stem «звер»)
    class_words: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def build(cls, name: str, type: str, **props: Any) -> CardDef:
        kind = CARD_TYPES.get(str(type).strip().lower(), type if type in CARD_TYPES.values() else None)
        if kind is None:
            raise CardTextError(name, str(type), f"неизвестный тип карты (известны: {', '.join(CARD_TYPES)})")
        subtype = props.get("subtype")
        if subtype is not None and kind == "creature":
            # A creature's subtype is its kind of being («Рунопевец удешевляет всех гномов», 203.3):
            # the sources list no such kinds, so any one word is accepted.
            subtype = str(subtype).strip().lower()
            if not subtype.isalpha() or subtype in SUBTYPES:
                raise CardTextError(
                    name,
                    str(props.get("subtype")),
                    "неизвестный подтип для типа «существо»: подтип существа — одно слово (гном, эльф …), "
                    "не подтип экипировки",
                )
        elif subtype is not None:
            subtype = SUBTYPES.get(str(subtype).strip().lower(), subtype)
            if subtype not in SUBTYPES_OF.get(kind, ()):
                allowed = ", ".join(SUBTYPE_WORDS[s] for s in SUBTYPES_OF.get(kind, ())) or "нет"
                raise CardTextError(
                    name,
                    str(props.get("subtype")),
                    f"неизвестный подтип для типа «{TYPE_WORDS[kind]}» (допустимы: {allowed})",
                )
        element = props.get("element")
        if element is not None:
            element = printed_element(element)
        if element is not None and element not in ELEMENTS:
            raise CardTextError(name, element, f"неизвестная стихия (известны: {', '.join(ELEMENTS)})")
        printed_cost = ""
        if isinstance(props.get("cost"), str):
            printed_cost = props["cost"]
            props = {**props, "cost": minimal_cost(name, printed_cost)}
        numbers = {k: props.get(k, 0) for k in ("cost", "strike", "life")}
        for label, value in zip(("стоимость", "удар", "жизни"), numbers.values(), strict=True):
            if value < 0:
                raise CardTextError(name, str(value), f"{label} не может быть отрицательной")
        text = props.get("text", "") or ""
        class_words = _classes(name, kind, subtype, props.get("classes"))
        classes = tuple(class_lemma(w) for w in class_words)
        read = _own_name(name, text)  # the card's own name, unquoted, in quotes (I-76)
        # «этого механизма» names this card by one of its classes — except on a spell, where it names the
        # card chosen before it in the text (I-113): the spell's own classes («действие») say nothing of it.
        context_classes = () if kind == "spell" else tuple(class_words)
        abilities = parse_card_text(
            name, read, spell=kind == "spell", cost_x=bool(printed_cost), classes=context_classes
        )
        return cls(
            name,
            kind,
            subtype,
            numbers["cost"],
            element,
            numbers["strike"],
            numbers["life"],
            text,
            abilities,
            keywords=keywords_of(abilities),
            trigger_events=frozenset(a.trigger.event for a in abilities if a.trigger is not None),
            outside_play=frozenset(
                z for a in abilities if a.trigger is not None for z in a.trigger.zones if z != "play"
            ),
            activated=tuple(a for a in abilities if a.kind == "activated"),
            printed_cost=printed_cost,
            classes=classes,
            class_words=class_words,
        )


def _own_name(name: str, text: str) -> str:
    """The text with the card's own name, unquoted, written in quotes — the card itself (I-76)."""
    try:
        return names.for_reading(text, name)
    except names.ForeignName as exc:
        sentences = split_sentences(exc.text[: exc.position + 1]) or [(0, exc.text)]
        offset = sentences[-1][0]
        sentence = dict(split_sentences(exc.text)).get(offset, exc.text)
        raise CardTextError(name, sentence, exc.message, position=(len(sentences), offset)) from None


# one word of a class, in Cyrillic: «гнoм» with a Latin «o» is a typo
_CLASS_WORD = re.compile(r"[а-яё]+(?:-[а-яё]+)*")


def _classes(name: str, kind: str, subtype: str | None, printed: Any) -> tuple[str, ...]:
    """The classes printed on a card («эльф», «гном, воин», «страж леса»): comma-separated items of
    one or more words each, lower case. A class on a spell, an event or an equipment is kept as printed
    (interpretation I-70); a creature's subtype is one of its classes."""
    words: list[str] = []
    if printed is not None and printed != "":
        items = printed.split(",") if isinstance(printed, str) else list(printed)
        for item in items:
            word = " ".join(str(item).split()).lower()
            if not all(_CLASS_WORD.fullmatch(part) for part in word.split() or ("",)):
                raise CardTextError(
                    name,
                    str(printed),
                    "класс — слово или слова (эльф, страж леса …), несколько классов — через запятую",
                )
            words.append(word)
    if kind == "creature" and subtype:
        words.append(subtype)
    first: dict[str, str] = {}
    for word in words:
        first.setdefault(class_lemma(word), word)
    return tuple(first.values())


def printed_element(printed: str) -> str:
    """An element as a card list prints it, in any case and number («Болото», «Лес», «Степи») → the
    element of :data:`ELEMENTS` it names («болота», «леса», «степи»); anything else as it is."""
    from berserk_engine.language.morphology import same_words

    word = " ".join(str(printed).split()).lower()
    if word in ELEMENTS:
        return word
    return next((e for e in ELEMENTS if same_words(word, e)), printed)


VARIABLE_COST = re.compile(r"^(?:(\d+)\s*\+\s*)?[ХX]$")


def minimal_cost(name: str, printed: str) -> int:
    """Минимальная стоимость: a variable cost containing Х is counted with Х = 0 («Х» → 0, «2+Х» → 2);
    any other cost is the card's base cost."""
    m = VARIABLE_COST.match(printed.strip())
    if m is None:
        raise CardTextError(name, printed, "стоимость — число или переменная стоимость вида «Х», «2+Х»")
    return int(m.group(1) or 0)


def keywords_of(abilities: tuple[Ability, ...]) -> dict[str, int | str | None]:
    return {a.keyword: a.value for a in abilities if a.keyword is not None}
