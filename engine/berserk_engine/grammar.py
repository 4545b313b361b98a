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
from dataclasses import replace
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
    selectors_of,
    target_slots,
)
from berserk_engine.errors import CardTextError
from berserk_engine.language import reminder
from berserk_engine.language.reading import Phrase, Reading, set_renderer
from berserk_engine.language.tokens import TextError, tokenize
from berserk_engine.language.tree import ReadError

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

# --- the printed forms of targets ------------------------------------------------------------------
# A spell's «Существо получает …», «Закройте существо» names a chosen target (Выбранное существо);
# «всех существ», «каждого героя» — every such card; «его», «оно» — the target named last before it;
# «отравленное», «нераненое» … — a chosen target that must fit the condition; «стоимостью N или
# меньше»; «ваш эльф», «ваших гномов» — by the classes printed on the creature (CardDef.classes).
HERO = ("hero",)
CHOSEN_CLASS = "?"  # «этого класса»: the class chosen by «выберите класс» (never a class stem)
# condition: (accusative singular, nominative singular, plural genitive/accusative, plural nominative)
_CONDITIONS = {
    "poisoned": ("отравленное", "отравленное", "отравленных", "отравленные"),
    "wounded": ("раненое", "раненое", "раненых", "раненые"),
    "unwounded": ("нераненое", "нераненое", "нераненых", "нераненые"),
    "closed": ("закрытое", "закрытое", "закрытых", "закрытые"),
    "open": ("открытое", "открытое", "открытых", "открытые"),
}


_UP_TO_NUMERALS = {2: ("2", "двух"), 3: ("3", "трёх"), 4: ("4", "четырёх"), 5: ("5", "пяти")}
_UP_TO_KINDS: dict[str, tuple[tuple[str, ...], str]] = {  # the genitive plural after «до N» -> types, side
    "существ": (CREATURE, "any"),
    "выбранных существ": (CREATURE, "any"),
    "существ противника": (CREATURE, "enemy"),
    "выбранных существ противника": (CREATURE, "enemy"),
    "ваших существ": (CREATURE, "own"),
    "выбранных ваших существ": (CREATURE, "own"),
    "персонажей": (CHARACTER, "any"),
    "выбранных персонажей": (CHARACTER, "any"),
    "персонажей противника": (CHARACTER, "enemy"),
}


def _printed_targets() -> tuple[dict[str, Selector], dict[str, Selector]]:
    acc: dict[str, Selector] = {}
    nom: dict[str, Selector] = {}

    def both(a: str, n: str, sel: Selector) -> None:
        acc.setdefault(a, replace(sel, words=a))
        nom.setdefault(n, replace(sel, words=a))

    both("существо", "существо", Selector("chosen", "", CREATURE))
    both("персонажа", "персонаж", Selector("chosen", "", CHARACTER))
    both("героя", "герой", Selector("chosen", "", HERO))
    both("существо противника", "существо противника", Selector("chosen", "", CREATURE, "enemy"))
    both("персонажа противника", "персонаж противника", Selector("chosen", "", CHARACTER, "enemy"))
    both("ваше существо", "ваше существо", Selector("chosen", "", CREATURE, "own"))
    both("другое существо", "другое существо", Selector("chosen", "", CREATURE, other=True))
    both("другого персонажа", "другой персонаж", Selector("chosen", "", CHARACTER, other=True))
    both("всех существ", "все существа", Selector("each", "", CREATURE))
    both("всех персонажей", "все персонажи", Selector("each", "", CHARACTER))
    both("каждого героя", "каждый герой", Selector("each", "", HERO))
    both("всех героев", "все герои", Selector("each", "", HERO))
    both("всех существ противника", "все существа противника", Selector("each", "", CREATURE, "enemy"))
    both("всех персонажей противника", "все персонажи противника", Selector("each", "", CHARACTER, "enemy"))
    both("всех ваших существ", "все ваши существа", Selector("each", "", CREATURE, "own"))
    both("ваших существ", "ваши существа", Selector("each", "", CREATURE, "own"))
    both("всех других существ", "все другие существа", Selector("each", "", CREATURE, other=True))
    both("других ваших существ", "другие ваши существа", Selector("each", "", CREATURE, "own", other=True))
    both(
        "всех других ваших существ",
        "все другие ваши существа",
        Selector("each", "", CREATURE, "own", other=True),
    )
    both("его", "оно", Selector("ref", "", CREATURE))
    # «… этого класса»: the class the player chose before («выберите класс, …», interpretation I-65):
    # CHOSEN_CLASS stands for it until the choice is made (berserk_engine.class_choice).
    for a, n, side, other in (
        ("всех существ", "все существа", "any", False),
        ("всех существ противника", "все существа противника", "enemy", False),
        ("всех ваших существ", "все ваши существа", "own", False),
        ("ваших существ", "ваши существа", "own", False),
        ("других ваших существ", "другие ваши существа", "own", True),
    ):
        both(
            f"{a} этого класса",
            f"{n} этого класса",
            Selector("each", "", CREATURE, side, other=other, classes=(CHOSEN_CLASS,)),
        )
    for count, (acc_n, nom_n) in {2: ("двух", "два"), 3: ("трёх", "три")}.items():
        both(
            f"{acc_n} разных существ",
            f"{nom_n} разных существа",
            Selector("chosen", "", CREATURE, count=count),
        )
        both(
            f"{acc_n} разных существ противника",
            f"{nom_n} разных существа противника",
            Selector("chosen", "", CREATURE, "enemy", count=count),
        )
        both(
            f"{acc_n} разных персонажей",
            f"{nom_n} разных персонажа",
            Selector("chosen", "", CHARACTER, count=count),
        )
    # «до N существ», «не более двух выбранных существ противника»: up to N different targets, each slot
    # may stay empty (interpretation I-67).
    for count, numerals in _UP_TO_NUMERALS.items():
        for numeral in numerals:
            for prefix in ("до", "не более"):
                for words, (types, side) in _UP_TO_KINDS.items():
                    text = f"{prefix} {numeral} {words}"
                    acc.setdefault(text, Selector("chosen", text, types, side, count=count, up_to=True))
    for cond, (a_sg, n_sg, a_pl, n_pl) in _CONDITIONS.items():
        both(f"{a_sg} существо", f"{n_sg} существо", Selector("chosen", "", CREATURE, condition=cond))
        both(
            f"{a_sg} существо противника",
            f"{n_sg} существо противника",
            Selector("chosen", "", CREATURE, "enemy", condition=cond),
        )
        both(f"всех {a_pl} существ", f"все {n_pl} существа", Selector("each", "", CREATURE, condition=cond))
        both(
            f"всех {a_pl} существ противника",
            f"все {n_pl} существа противника",
            Selector("each", "", CREATURE, "enemy", condition=cond),
        )
        both(
            f"всех ваших {a_pl} существ",
            f"все ваши {n_pl} существа",
            Selector("each", "", CREATURE, "own", condition=cond),
        )
        both(
            f"ваше {a_sg} существо",
            f"ваше {n_sg} существо",
            Selector("chosen", "", CREATURE, "own", condition=cond),
        )
    return acc, nom


# «… стоимостью N или меньше»: a target of these words whose cost is N or less (N in digits).
_COST_ACC: dict[str, Selector] = {
    "существо": Selector("chosen", "", CREATURE),
    "существо противника": Selector("chosen", "", CREATURE, "enemy"),
    "всех существ": Selector("each", "", CREATURE),
    "ваше существо": Selector("chosen", "", CREATURE, "own"),
}
_COST_NOM: dict[str, Selector] = {
    "существо": _COST_ACC["существо"],
    "существо противника": _COST_ACC["существо противника"],
    "все существа": _COST_ACC["всех существ"],
    "ваше существо": _COST_ACC["ваше существо"],
}
_COST_TAIL = re.compile(r"(.+) стоимостью (\d{1,2}) или меньше", re.IGNORECASE)


def _cost_selector(text: str, costs: dict[str, Selector]) -> Selector | None:
    m = _COST_TAIL.fullmatch(text)
    if m is None or m.group(1).lower() not in costs:
        return None
    return replace(costs[m.group(1).lower()], words=text.lower(), condition=f"cost<={int(m.group(2))}")


# «… с именем «Название»»: a target of these words that is a card with this name (condition "name:…").
_NAME_ACC: dict[str, Selector] = {
    **_COST_ACC,
    "всех ваших существ": Selector("each", "", CREATURE, "own"),
    "всех существ противника": Selector("each", "", CREATURE, "enemy"),
}
_NAME_NOM: dict[str, Selector] = {
    **_COST_NOM,
    "все ваши существа": _NAME_ACC["всех ваших существ"],
    "все существа противника": _NAME_ACC["всех существ противника"],
}
_NAME_TAIL = re.compile(r"(.+) с именем «([^«»]+)»", re.IGNORECASE)


def _name_selector(text: str, names: dict[str, Selector]) -> Selector | None:
    m = _NAME_TAIL.fullmatch(text)
    if m is None or m.group(1).lower() not in names:
        return None
    base, name = m.group(1).lower(), m.group(2).strip()
    if not name:
        return None
    return replace(names[base], words=f"{base} с именем «{name}»", condition=f"name:{name}")


# Class words: one word after «ваш …», «всех …» that is not a type of card. These patterns only say
# which words a slot may take as a group of a class; what the words mean — and whether they are Russian
# at all («всех сущств» is a typo, not a class) — the grammar of berserk_engine.language reads (issue 25:
# a noun group in its case, agreeing, of words the dictionary or the card list knows).
_CLASS_WORD = r"(?!существ|персонаж|геро|карт|экипировк|заклинани|противник|выбранн|друг|ваш|всех)[а-яё]+"
_CLASS_FORMS = (
    rf"вашего {_CLASS_WORD}",
    rf"вашу {_CLASS_WORD}",  # «вашу фею»
    rf"ваших {_CLASS_WORD}",
    rf"всех ваших {_CLASS_WORD}",
    rf"всех {_CLASS_WORD} противника",
    rf"всех {_CLASS_WORD}",
    # «до двух ваших гномов», «не более 3 эльфов противника»: up to N of the class (I-67)
    rf"(?:до|не более) (?:[2-5]|двух|трёх|четырёх|пяти) (?:ваших )?{_CLASS_WORD}(?: противника)?",
)
_CLASS_FORMS_NOM = (
    rf"ваш {_CLASS_WORD}",
    rf"ваша {_CLASS_WORD}",  # «ваша фея»
    rf"ваши {_CLASS_WORD}",
    rf"все ваши {_CLASS_WORD}",
    rf"все {_CLASS_WORD} противника",
    rf"все {_CLASS_WORD}",
)


def _class_selector(text: str, case: str) -> Selector | None:
    """A group of a class in a case («ваших гномов», «ваша фея»), read by the grammar; None when the
    words are not one (a typo, words that do not agree: :func:`_class_problem` says which)."""
    try:
        sel = _read_target(text, case)
    except ReadError:
        return None
    return sel if sel.classes else None


@lru_cache(maxsize=4096)
def _read_target(text: str, case: str) -> Selector:
    from berserk_engine.language.tree import read_target

    return read_target(text, case)


def _target_problem(text: str, case: str, shaped: bool) -> tuple[int, str] | None:
    """Why words in a target's slot are not a target, as the grammar says: a word nobody knows («всех
    сущств», a Latin letter — with the nearest known words; weight 0, the likeliest problem of all) or,
    for words ``shaped`` like a group of a class («вашу гнома»), any reason (weight: their length)."""
    try:
        _read_target(text, case)
    except ReadError as exc:
        if exc.unknown:
            return 0, exc.message
        return (len(text), exc.message) if shaped else None
    return None


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


_PRINTED_ACC, _PRINTED_NOM = _printed_targets()
for _w, _sel in _PRINTED_ACC.items():
    ACCUSATIVE.setdefault(_w, _sel)
for _w, _sel in _PRINTED_NOM.items():
    NOMINATIVE.setdefault(_w, _sel)


def player_turns(until: str) -> tuple[str, int] | None:
    """«на Х ходов игрока» as ("own" | "enemy", Х), or None for another duration."""
    if not until.startswith("player_turns:"):
        return None
    _, side, turns = until.split(":")
    return side, int(turns)


def _alternatives(words: Any) -> str:
    """A regular expression for any of the words, as a trie of their letters: the tables of targets
    are long («существо стоимостью 0 … 10 или меньше» …), and a plain alternation of them in every
    phrase would make compiling the grammar's expressions slow (the engine process reads cards first)."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word.lower():
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_regex(trie)


def _trie_regex(node: dict[str, Any]) -> str:
    end = "" in node
    branches = [re.escape(ch) + _trie_regex(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if end:
        return f"(?:{body})?"
    return body


# «Название карты»: the card's own name in its text, in quotes, means this card.
_OWN_NAME = r"«[^«»]+»"


def _lookup(
    table: dict[str, Any],
    own_name: bool = False,
    classes: tuple[str, ...] = (),
    case: str = "accs",
    costs: dict[str, Selector] | None = None,
    names: dict[str, Selector] | None = None,
) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        if text.startswith("«"):
            return Selector("self", text, ("creature", "hero", "equipment", "event"))
        found = table.get(text.lower())
        if found is None and costs is not None:
            found = _cost_selector(text, costs)
        if found is None and names is not None:
            found = _name_selector(text, names)
        if found is None and classes:
            found = _class_selector(text, case)
        return found

    convert.pattern = (  # type: ignore[attr-defined]
        (f"(?:{_alternatives(costs)}) стоимостью \\d{{1,2}} или меньше|" if costs else "")
        + (f"(?:{_alternatives(names)}) с именем «[^«»]+»|" if names else "")
        + _alternatives(table)
        + (f"|{_OWN_NAME}" if own_name else "")
        + ("|" + "|".join(classes) if classes else "")
    )
    convert.table = table  # type: ignore[attr-defined]
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
    if text in ("Х", "X"):
        return Amount(prop="X", words="Х")  # defined by «, где Х – …» (printed.py)
    return Amount(prop="strike", words=text)


_amount.pattern = r"\d+|значение удара этого существа|Х|X"  # type: ignore[attr-defined]

TYPES: dict[str, Callable[[str], Any]] = {
    "Num": _num,
    "Signed": _signed,
    "Amount": _amount,
    "Acc": _lookup(ACCUSATIVE, own_name=True, classes=_CLASS_FORMS, costs=_COST_ACC, names=_NAME_ACC),
    "Nom": _lookup(
        NOMINATIVE, own_name=True, classes=_CLASS_FORMS_NOM, case="nomn", costs=_COST_NOM, names=_NAME_NOM
    ),
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


def slot_type(name: str, table: dict[str, Any], words: str) -> None:
    """Register a typed slot whose words come from ``table`` (words -> value), for the phrases of a
    keyword module («Защита от {x:From}»). Call it before the phrases that use it."""
    if name in TYPES:
        raise ValueError(f"тип слота {name} уже зарегистрирован")
    TYPES[name] = _lookup(table)
    TYPE_WORDS[name] = words


# --- the registry ---------------------------------------------------------------------------------


CATEGORIES = ("keyword", "trigger", "cost", "effect", "static", "condition")  # of the card language's forms
# trigger-registry: effect nodes the grammar builds itself, registered by the modules that define them
# («sequence»: several clauses of one ability, berserk_engine.effects.Sequence; «may»: an optional part
# of a sequence, berserk_engine.effects.MayDo) — the grammar imports
# none of the modules that register phrases.
NODES: dict[str, Any] = {}


def _needles(fmt: str) -> tuple[str, ...]:
    """The literal text of a phrase's format (between its slots), each piece lower case and stripped:
    every piece is matched as it is written (parse escapes it), so words that fit hold them all."""
    pieces = []
    for part in parse.PARSE_RE.split(fmt):
        if not part or (part[0] == "{" and part[-1] == "}" and part not in ("{{", "}}")):
            continue
        piece = {"{{": "{", "}}": "}"}.get(part, part).strip().lower()
        if piece:
            pieces.append(piece)
    return tuple(pieces)


KIND_WORDS = {  # the kind of a slot, as an error names it
    "Acc": "неизвестная цель",
    "Nom": "неизвестная цель",
    "Gen": "неизвестная цель",
    "Dat": "неизвестная цель",
    "ToDat": "неизвестная цель",
    "Dur": "непонятный срок",
}


def _kind_words(kind: str | None) -> str:
    return KIND_WORDS.get(kind or "", "непонятное значение")


@lru_cache(maxsize=2048)
def _one_loose(fmt: str, field_name: str) -> Any:
    """The phrase with one slot untyped and the others typed: which slot keeps the words out."""

    def loosen(m: re.Match[str]) -> str:
        return "{" + m.group(1) + "}" if m.group(1) == field_name else m.group(0)

    return parse.compile(_ANY_FIELD.sub(loosen, fmt), extra_types=TYPES, case_sensitive=False)


def _slot_problem(category: str, words: str) -> str | None:
    """When the words fit a phrase except for one slot, say which slot it is by its kind (цель, срок,
    значение, союз) and what it accepts. A slot whose words hold a connector («при этом», «иначе» …)
    is the connector's problem, not the slot's. A slot whose words begin with what it accepts («2
    выбраное» for a number) took in its neighbour's words: another slot is the likelier culprit."""
    likely: list[tuple[int, str]] = []  # (length of the words the slot took, the problem)
    unlikely: list[tuple[int, str]] = []
    low = words.lower()
    for ph in _frame_phrases(category):
        if any(n not in low for n in ph.needles):
            continue  # a literal piece is missing: no slot loosened makes the phrase fit
        fields = _ANY_FIELD.findall(ph.format)
        for name, kind in fields:
            m = _one_loose(ph.format, name).parse(words)
            if m is None:
                continue
            value = str(m.named.get(name, ""))
            if any(c in value for c in _CONJUNCTIONS if c.strip(" ,.")):
                continue  # the slot took in a connector and what follows: a part is the problem
            connector = _connector_problem(value)
            if connector is not None:
                likely.append((len(value), connector))
                continue
            if kind:
                pattern = TYPES[kind].pattern  # type: ignore[attr-defined]
                shaped = re.fullmatch(pattern, value, re.IGNORECASE) is not None
                unread = None
                if kind in ("Acc", "Nom") and (not shaped or TYPES[kind](value) is None):
                    unread = _target_problem(value, "nomn" if kind == "Nom" else "accs", shaped)
                if unread is not None:
                    likely.append((unread[0], f"{_kind_words(kind)} «{value}»: {unread[1]}"))
                    continue
                if shaped:
                    continue
                problem = (
                    f"{_kind_words(kind)} «{value}» в «{ph.example}» (ожидается {_short(TYPE_WORDS[kind])})"
                )
                trailing = ph.format.rstrip().endswith("}") and _ANY_FIELD.findall(ph.format)[-1][0] == name
                prefix = not trailing and re.match(rf"(?:{pattern})\s", value, re.IGNORECASE)
                (unlikely if prefix else likely).append((len(value), problem))
            elif len(fields) > 1 or ph.build(m.named) is None:
                likely.append((len(value), f"непонятное значение «{value}» в «{ph.example}»"))
    found = likely or unlikely
    return min(found, key=lambda f: f[0])[1] if found else None


_AMOUNT_FIRST = re.compile(r"(\S+) (\S+ \{n:Amount\}) (\{t:Acc\})$")


@lru_cache(maxsize=8)
def _frame_phrases(category: str) -> tuple[Phrase, ...]:
    """The canonical words of the sentence layer's constructions (frames.toml) as formats with typed slots:
    what a slot of a construction the grammar reads accepts, for :func:`_slot_problem` to say which piece
    of words that do not read is the problem (a slot type the registry has no converter for is untyped)."""
    from berserk_engine.language.abilities import frame_formats

    out = []
    formats = frame_formats(category) + _keyword_formats(category)
    # the grammar reads «ранить [цель] на [число]» as «ранить на [число] [цель]»: both orders are diagnosed
    formats += [
        (f"{m[1]} {m[3]} {m[2]}", ex, term) for fmt, ex, term in formats if (m := _AMOUNT_FIRST.match(fmt))
    ]
    for fmt, example, term in formats:
        fmt = _ANY_FIELD.sub(lambda m: m.group(0) if m.group(2) in TYPES else "{" + m.group(1) + "}", fmt)
        parser = parse.compile(fmt, extra_types=TYPES, case_sensitive=False)
        out.append(Phrase(category, fmt, example, _nothing, parser, term, _needles(fmt)))
    return tuple(out)


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


# Connectors of the card language: the words that join the parts of an effect.
CONNECTORS = ("затем", "при этом", "иначе", "чтобы", "если", "где")


def _connector_problem(words: str) -> str | None:
    """When the words hold a connector the engine does not read in that place, name it."""
    lowered = words.lower()
    for conj in CONNECTORS:
        if any(conj in c and c in lowered for c in _CONJUNCTIONS):
            continue  # a connector in its place: the problem is a part it joins
        if re.search(rf"(?:^|[\s,;]){conj}(?:[\s,]|$)", lowered):
            return (
                f"не распознан союз «{conj}» в «{words}»: части эффекта, которые он соединяет, не прочитаны"
            )
    return None


def _nearest(words: str, categories: tuple[str, ...]) -> list[str]:
    # keywords, payments and trigger conditions: the grammar's (keywords.toml and the keyword modules,
    # frames.toml)
    grammar_own = [ph for c in categories if c in ("keyword", "cost", "trigger") for ph in _frame_phrases(c)]
    examples = list(dict.fromkeys(ph.example for ph in grammar_own))
    return difflib.get_close_matches(words, examples, n=3, cutoff=0.3)


# --- reading card text ----------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=\.)\s+")
_OPTIONAL = re.compile(r"^вы можете\s+", re.IGNORECASE)
_CONJUNCTIONS = (", затем ", ". Затем ", " и затем ", ", и ", " и ", ", ")  # «, при этом»: I-85, the grammar


_DIAGNOSE = [True]  # False while :func:`try_reading` only asks whether words read


class _Unreadable(Exception):
    def __init__(self, message: str, nearest: list[str]) -> None:
        super().__init__(message)
        self.message = message
        self.nearest = nearest


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


# trigger-registry: a printed limit after the ability, in parentheses: «…: возьмите карту. (Один раз за
# ход.)», «… (2 раза за ход)». For a triggered ability the limit is its payment (501.2). Its reading
# joins the head of the ability: the canonical words put the limit in front («Один раз за ход, когда …:»,
# «{оплата}, один раз за ход: …»), a form that reads as the same ability.
_TRAILING_LIMIT = re.compile(r"\s*\(([^()]+?)\.?\)\s*\.?$")


def _trailing_limit(body: str) -> tuple[str, Cost | None, Reading | None]:
    m = _TRAILING_LIMIT.search(body)
    if m is None:
        return body, None, None
    found = _limit(m.group(1).strip())
    if found is None:
        raise _Unreadable(
            f"в скобках после способности ожидается ограничение «(Один раз за ход.)», «(2 раза за ход)»: "
            f"«{m.group(1).strip()}»",
            _limit_examples(),
        )
    limit, tree = found
    return body[: m.start()].strip().rstrip(".").strip(), limit, tree


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


def _limit_examples() -> list[str]:
    """The limits as the frame «per_turn» of frames.toml writes them: once, 2 and 5 times a turn."""
    from berserk_engine.language.abilities import frames

    frame = frames()["per_turn"]
    shown = ((frame.one, 1), (frame.phrase, 2), (frame.many, 5))
    return [ph.format.replace("{n:Num}", str(n)) for ph, n in shown if ph is not None]


def read_effect_tree(words: str) -> tuple[Any, bool, Reading]:
    """An effect clause → (effect node, optional, its reading). A leading «вы можете» makes the whole
    ability optional (I-2); «вы можете» after a connector makes only its own part optional — a decision
    of the controller on resolution (:class:`~berserk_engine.effects.MayDo`, I-55). Raises _Unreadable."""
    Sequence = NODES["sequence"]  # registered by berserk_engine.effects

    clause = words.strip().rstrip(".").strip()
    optional = bool(_OPTIONAL.match(clause))
    clause = _OPTIONAL.sub("", clause)
    parts = _read_parts(clause)
    if parts is None:
        raise _diagnose(clause) if _DIAGNOSE[0] else _Unreadable("", [])
    if len(parts) == 1:
        return parts[0][0], optional, Reading("effect", parts=(parts[0][1],), optional=optional)
    node = Sequence(tuple(p for p, _ in parts))
    return node, optional, Reading("effect", parts=tuple(t for _, t in parts), optional=optional)


def _read_one(clause: str) -> tuple[Any, Reading] | None:
    """One phrase (with its own «вы можете»), or None when no phrase fits the words whole."""
    MayDo = NODES["may"]  # registered by berserk_engine.effects

    may = bool(_OPTIONAL.match(clause))
    core = _OPTIONAL.sub("", clause)
    found = _grammar_readings(core)
    if len(found) > 1:
        raise _Unreadable(
            "фраза читается несколькими способами: " + "; ".join(f"«{ph.format}»" for ph, _, _ in found), []
        )
    if not found:
        return None
    ph, node, named = found[0]
    leaf = Reading("phrase", phrase=ph, named=named, optional=may)
    return (MayDo(node, core) if may else node), leaf


# trigger-registry: an effect clause no phrase reads is asked of the sentence layer of
# berserk_engine.language (issue 25): a clause it reads alone, as one construction («раньте», «ранить»,
# both orders, numbers in words; «поиск …», «вызовите гнома» …), is that construction's node and reading.
def _grammar_readings(core: str) -> list[tuple[Phrase, Any, dict[str, Any]]]:
    found = [p for p in _grammar_abilities(core) if p.ability.kind == "spell" and not p.ability.optional]
    if len(found) != 1:
        return []
    (effect,) = found[0].reading.parts
    if len(effect.parts) != 1 or effect.parts[0].phrase is None or effect.parts[0].named is None:
        return []  # several clauses: the registry splits them at their connector
    leaf = effect.parts[0]
    return [(leaf.phrase, found[0].ability.effect, dict(leaf.named))]


def _trigger_readings(head: str) -> list[tuple[Phrase, Any, dict[str, Any]]]:
    """The trigger conditions the words read as («Каждый раз, когда …» as «Когда …»): the registry's
    phrases, or — when none reads them — the grammar of berserk_engine.language («Когда существо
    противника погибает», «Когда эта карта вступает в игру»), as the registry's phrase that builds the
    same trigger (its canonical words)."""
    from berserk_engine.language.tree import same_condition

    head = same_condition(head)  # «Каждый раз, когда …» is «Когда …» (401.4)
    if not head[:1].isalpha():
        return []
    trigger = _grammar_trigger(head)
    if trigger is None:
        return []
    return [(Phrase("trigger", head, head, _nothing, None), trigger, {})]


@lru_cache(maxsize=4096)
def _grammar_trigger(head: str) -> Any:
    from berserk_engine.language.abilities import read_condition

    try:
        return read_condition(head)
    except ReadError:
        return None


def _read_parts(clause: str) -> list[tuple[Any, Reading]] | None:
    """The parts of a sequence («…, затем …», «… и …»), each read whole; None when the words do not
    read (:func:`_diagnose` says why — only then, it is slow)."""
    one = _read_one(clause)
    if one is not None:
        return [one]
    for conj in _CONJUNCTIONS:
        if conj in clause:
            head, _, tail = clause.partition(conj)
            first = _read_parts(head)
            if first is None:
                continue
            rest = _read_parts(tail)
            if rest is None:
                continue
            return first + rest
    return None


def _diagnose(clause: str) -> _Unreadable:
    """Why an effect clause does not read: the slot, the connector or the part it did not understand."""
    core = _OPTIONAL.sub("", clause)
    problem = _slot_problem("effect", core) or _connector_problem(core)
    if problem is None:
        for conj in _CONJUNCTIONS:
            if conj in clause:
                head, _, tail = clause.partition(conj)
                for part in (head, tail):
                    if _read_parts(part) is None:
                        return _diagnose(part)
    return _Unreadable(problem or f"эффект не распознан: «{core}»", _nearest(core, ("effect",)))


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
    effect = number_slots(spell_reference.on_a_spell(ability.kind, ability.effect, ability.text))  # I-100
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


def _limited_trigger(
    head: str,
) -> tuple[list[tuple[Phrase, Any, dict[str, Any]]], Cost | None, Reading | None]:
    """«Один раз за ход, когда погибает существо»: a triggered ability with its «Х раз за ход» limit —
    for a triggered ability that limit is its payment (501.2)."""
    first, comma, rest = head.partition(",")
    found = _limit(first.strip()) if comma else None
    if found is None:
        return [], None, None
    limit, tree = found
    return _trigger_readings(rest.strip()), limit, tree


def read_sentence_tree(sentence: str, *, spell: bool, cost_x: bool = False) -> tuple[Ability, Reading]:
    """One sentence → (its ability, its reading); ``cost_x``: the card's cost holds Х («Х», «2+Х»), so
    a spell's «Х» without «где Х – …» is the Х chosen when it is played (I-66). The grammar of
    :mod:`berserk_engine.language` reads the sentence first; the phrase registry only what it does not
    read yet (issue 25: the registry is ported to the grammar category by category, the parity test
    tests/test_reader_parity.py holding every card text to the nodes it compiled). Raises _Unreadable."""
    reminded = reminder.split(sentence)
    if reminded is not None and not _is_limit(reminded[1]):  # «Рывок (…)»: commentary, checked (I-94)
        ability, tree = read_sentence_tree(reminded[0], spell=spell, cost_x=cost_x)
        try:
            return replace(ability, text=sentence), reminder.checked(ability, render(tree)[:-1], reminded[1])
        except ValueError as exc:
            raise _Unreadable(str(exc), []) from None
    read = _grammar_sentence(sentence, spell)
    if read is not None:
        return _finish(read[0], cost_x), read[1]
    body, trailing, trailing_tree = _trailing_limit(sentence.strip().rstrip(".").strip())
    readings: list[tuple[Ability, Reading]] = []
    problems: list[str] = []
    head, colon, rest = _outside_quotes(body)  # a colon inside a granted ability's quotes is its own (I-93)
    if not colon and not spell and not readings:
        head, colon, rest = _comma_trigger(body)
    if colon:
        triggers = _trigger_readings(head.strip())
        limit = None
        limit_tree = None
        if not triggers:
            triggers, limit, limit_tree = _limited_trigger(head)
        if trailing is not None:  # «(Один раз за ход.)» after the ability
            if limit is not None:
                raise _Unreadable("ограничение «раз за ход» указано дважды", [])
            limit, limit_tree = trailing, trailing_tree
        costs = None if triggers else _payment(head)
        if triggers or costs is not None:
            try:
                effect, optional, tree = read_effect_tree(rest)
            except _Unreadable as exc:
                problems.append(exc.message)
                effect = None
            if effect is not None:
                for ph, trig, named in triggers:
                    trig_tree = Reading("trigger", phrase=ph, named=named)
                    heads = (limit_tree, trig_tree) if limit_tree is not None else (trig_tree,)
                    readings.append(
                        (
                            Ability(
                                "triggered", sentence, effect, trigger=trig, optional=optional, cost=limit
                            ),
                            Reading("sentence", parts=(Reading("head", parts=heads), tree)),
                        )
                    )
                if costs is not None and not spell:
                    cost, cost_trees = costs
                    if trailing is not None and trailing_tree is not None:  # «(Один раз за ход.)»
                        cost, cost_trees = cost + trailing, (*cost_trees, trailing_tree)
                    readings.append(
                        (
                            Ability("activated", sentence, effect, cost=cost),
                            Reading("sentence", parts=(Reading("head", parts=cost_trees), tree)),
                        )
                    )
        elif not readings:
            problems.append(
                "не распознаны ни условие срабатывания, ни оплата активируемой способности: "
                f"«{head.strip()}» (оплата активируемой способности не распознана)"
            )
    elif spell:
        try:
            effect, optional, tree = read_effect_tree(body)
            readings.append((Ability("spell", sentence, effect, optional=optional), _sentence(tree)))
        except _Unreadable as exc:
            problems.append(exc.message)
    if len(readings) == 1:
        ability, tree = readings[0]
        if trailing is not None and ability.kind not in ("triggered", "activated"):
            raise _Unreadable(
                "ограничение «раз за ход» бывает только у срабатывающей или активируемой способности", []
            )
        return _finish(ability, cost_x), tree
    if len(readings) > 1:
        raise _Unreadable(
            "предложение читается несколькими способами: " + "; ".join(a.kind for a, _ in readings), []
        )
    if not _DIAGNOSE[0]:
        raise _Unreadable("", [])
    several = _grammar_fitting(sentence, spell)
    if len(several) > 1:  # different meanings of the same words: an error naming each (issue 25)
        raise _Unreadable(
            "предложение читается несколькими способами: "
            + "; ".join(f"«{render(p.reading)}»" for p in several),
            [],
        )
    categories = ("effect",) if spell else ("keyword", "static", "trigger", "cost", "effect")
    message = problems[0] if problems else "способность не распознана"
    if not problems and not spell:
        message = (
            "способность не распознана: ожидается ключевое слово, «Найм:», «Гибель:», «В начале хода:» … "
            "или оплата"
        )
    raise _Unreadable(message, _nearest(body, categories))


def _is_limit(text: str) -> bool:
    """«Один раз за ход», «2 раза за ход» in parentheses: a limit (501.2), not a reminder (I-94)."""
    return _limit(text) is not None


def _outside_quotes(body: str) -> tuple[str, str, str]:
    """``body.partition(":")`` at the first colon outside quotes («получает «При атаке: …»»)."""
    from berserk_engine.language.tokens import tokenize

    try:
        at = next(t.start for t in tokenize(body) if t.kind == "punct" and t.text == ":")
    except (StopIteration, TextError):
        return body.partition(":") if "\u00ab" not in body else (body, "", "")
    return body[:at], ":", body[at + 1 :]


def _grammar_sentence(sentence: str, spell: bool) -> tuple[Ability, Reading] | None:
    """The one reading the grammar gives a sentence for a card of this kind (a spell has no payment and
    no trigger condition ending at «,»), or None when it gives none or several (the registry reads it,
    or says what is wrong)."""
    fitting = _grammar_fitting(sentence, spell)
    if len(fitting) != 1:
        return None
    return fitting[0].ability, fitting[0].reading


def _grammar_fitting(sentence: str, spell: bool) -> list[Any]:
    """The grammar's readings of a sentence that fit a card of this kind (different meanings: merged
    readings with the same meaning are one)."""
    kinds = ("spell", "triggered") if spell else ("triggered", "activated", "static")
    return [
        p
        for p in _grammar_abilities(sentence)
        if p.keyword or (p.ability.kind in kinds and not (spell and p.comma))
    ]


@lru_cache(maxsize=4096)
def _grammar_abilities(sentence: str) -> tuple[Any, ...]:
    from berserk_engine.language.abilities import read_ability

    try:
        return tuple(read_ability(sentence))
    except ReadError:
        return ()


def _comma_trigger(body: str) -> tuple[str, str, str]:
    """A trigger condition ends at «:» or at «,» (issue 25): «Когда погибает существо, возьмите карту» —
    the first comma whose words before it are a trigger condition («Каждый раз, когда …» holds a comma of
    its own); ("", "", body) when there is none."""
    at = body.find(",")
    while at >= 0:
        head = body[:at].strip()
        if _trigger_readings(head) or _limited_trigger(head)[0]:
            return head, ",", body[at + 1 :]
        at = body.find(",", at + 1)
    return "", "", body


def _sentence(tree: Reading) -> Reading:
    return Reading("sentence", parts=(tree,))


def parse_ability(sentence: str, spell: bool = False, cost_x: bool = False) -> Ability:
    """A sentence as an ability (cached: the same words always mean the same ability)."""
    _load()
    return _parse_cached(sentence, spell, cost_x)[0]


@lru_cache(maxsize=4096)
def _parse_cached(sentence: str, spell: bool, cost_x: bool = False) -> tuple[Ability, Reading]:
    return read_sentence_tree(sentence, spell=spell, cost_x=cost_x)


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
    card: str, text: str, *, spell: bool = False, cost_x: bool = False
) -> tuple[Ability, ...]:
    """The whole text of a card → its abilities, one per sentence (``cost_x``: its cost holds Х)."""
    _load()
    _check_tokens(card, text)
    abilities: list[Ability] = []
    before = ""  # the sentence of the last ability
    for number, (offset, sentence) in enumerate(split_sentences(text), start=1):
        try:
            ability = _parse_cached(sentence, spell, cost_x)[0]
        except _Unreadable as exc:
            joined = _joined(before, sentence, spell, cost_x) if abilities and _refers(sentence) else None
            if joined is None:
                raise CardTextError(
                    card, sentence, exc.message, position=(number, offset), nearest=exc.nearest
                ) from None
            # «Выберите существо. Ранить его на 2.»: «его» names the target of the sentence before —
            # both are one ability (issue 25: references cross sentences)
            abilities.pop()
            ability, sentence = joined, f"{before} {sentence}"
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


def _joined(before: str, sentence: str, spell: bool, cost_x: bool) -> Ability | None:
    """The sentence read with the one before it as one ability, or None when that does not read."""
    try:
        return _parse_cached(f"{before} {sentence}", spell, cost_x)[0]
    except _Unreadable:
        return None


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


def canonical_words(kind: str | None, value: Any) -> str:
    """The engine's own words for the value of a slot of type ``kind`` (the first words of its table
    that mean the value; a number in digits; a duration in the words of 310.2 …)."""
    if kind is None:
        return str(value)
    if kind == "Signed":
        return f"+{value}" if value >= 0 else f"-{-value}"
    if kind == "Amount":
        return str(value.value) if value.prop is None else value.words
    if kind == "Dur":
        turns = player_turns(value)
        if turns is not None:
            side, count = turns
            number = "один" if count == 1 else str(count)
            if side == "own":
                return f"на {number} " + (
                    "ваш ход" if count == 1 else "ваших хода" if count < 5 else "ваших ходов"
                )
            return (
                f"на {number} " + ("ход" if count == 1 else "хода" if count < 5 else "ходов") + " противника"
            )
        return next(w for w, v in DURATIONS.items() if v == value)
    if kind not in TYPES:
        return str(value)  # a type of `parse` itself ({w}, {d})
    table = getattr(TYPES[kind], "table", None)
    if table is not None:
        words = next((w for w, v in table.items() if v == value), None)
        if words is not None:
            return words
        return str(getattr(value, "words", value))
    return str(value)


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
        return f"вы можете {text}" if tree.optional else text
    assert tree.phrase is not None and tree.named is not None
    named = tree.named

    def fill(m: re.Match[str]) -> str:
        return canonical_words(m.group(2), named[m.group(1)])

    text = _ANY_FIELD.sub(fill, tree.phrase.format)
    return f"вы можете {text}" if tree.optional else text


set_renderer(render)  # the sentence layer writes a part in canonical words (language/reading.py)
