"""Issue 29: what ``cards --show`` says is what the card says — the canonical words of EVERY ability the
reader reads, checked systematically rather than case by case.

The abilities are those of every card text of the project (the card tables of ``features/`` and
``engine/examples/``, :func:`~berserk_rules.rulebook.card_texts.card_rows`), the wording variants of
tests/test_construction_variants.py, the examples of the site's catalogue (docs/card-examples.json) and a
few texts of our own below that once rendered wrong. For each ability:

* **round trip** — its canonical words read back as the same ability (every node, every field): a field
  that changes the meaning and is not shown («Другие» of a group's bonus) reads back as another node;
* **agreement** — where a determiner or an adjective stands before a noun, pymorphy3 finds a form of both
  in the same case and number (and gender in the singular, animacy in the accusative): «всех закрытых
  существ», never «все закрытых существ»; after «вы можете» the verb is an infinitive, never an imperative;
* **every slot shows** — changing the value of one slot of a reading changes its words;
* **every field varies** — a field of a node that takes one value only over the whole corpus is one the
  round trip cannot check (the words would read back the same even if they did not show it): such fields
  are listed in :data:`UNVARIED` with the reason; a new one fails until it is given a text or a reason.

Round trip and variation together are the mechanical form of «mutate one field, the words must change»: two
abilities whose nodes differ in one field cannot share their words, or one of them would not read back.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import defaultdict
from functools import cache
from pathlib import Path
from typing import Any

import berserk_engine  # noqa: F401 — loads the catalogue
import pymorphy3
import pytest
from berserk_engine.abilities import Ability, Amount, Selector
from berserk_engine.errors import CardTextError
from berserk_engine.grammar import parse_card_text, reading, render
from berserk_engine.language.abilities import _frames_file
from berserk_engine.language.morphology import inflect_group
from berserk_engine.language.reading import Reading

from berserk_rules.rulebook.card_texts import card_rows
from tests.test_construction_variants import GENERAL_VARIANTS, VARIANTS

ROOT = Path(__file__).resolve().parent.parent
SPELLS = ("заклинание", "событие", "spell", "event")

# texts of our own whose canonical words were wrong (issue 29, found by branch general): an imperative after
# «вы можете», a determiner not agreeing with its noun's case, «Другие» and zero amounts of a group's bonus
OWN = [
    ("Уничтожьте все закрытые существа.", True),
    ("Ранить на 1 все другие существа.", True),
    ("Найм: вы можете вызвать «Волчонок».", False),
    ("Найм: вы можете бесплатно разыграть существо стоимостью 2 или меньше с руки.", False),
    ("Вы можете сбросить карту.", True),
    ("Другие ваши эльфы имеют +1 к удару.", False),
    ("Другие ваши гномы имеют +1 к удару и +2 к жизням.", False),
    ("Ваши гномы имеют +1 к жизням.", False),
    ("Закройте всех открытых существ противника.", True),
    # a field that takes one value over the project's texts takes another here (test_every_field_…)
    ("Усилить отравление выбранного существа противника на 3.", True),
    ("–2 от атак существ.", False),
    ("Направленный удар по существу.", False),
    ("В начале хода: выбранное существо противника теряет особенности до конца хода.", False),
    ("Медитация 3.", False),
    ("Стоит на 2 [Монета] меньше за каждую карту в вашей руке.", False),
    ("Противник может заплатить 3 [Монета]; иначе возьмите карту.", True),
    ("Противник может заплатить стоимость выбранного существа; иначе уничтожьте его.", True),
    ("Предотвратить первые 2 раны, нанесённые по выбранному существу противника до конца хода.", True),
    ("Предотвратить первые 2 раны, нанесённые по выбранному существу до конца боя.", True),
    ("Жизни выбранного существа противника сокращаются до 2.", True),
    ("Каждый эльф стоит на 2 [Монета] меньше.", False),
    ("Удар выбранного существа противника становится равным 1.", True),
    ("Удар выбранного существа становится равным 1 до конца хода.", True),
    ("Авангард 2.", False),
]


@dataclasses.dataclass(frozen=True)
class Read:
    where: str
    card: str
    spell: bool
    cost_x: bool
    ability: Ability


def _texts() -> dict[tuple[str, bool, bool], tuple[str, str]]:
    """(text, spell, cost holds Х) → (where, card name) for every card text the test reads."""
    texts: dict[tuple[str, bool, bool], tuple[str, str]] = {}
    kinds: dict[tuple[str, str], tuple[bool, bool]] = {}  # (file, card) → (spell, cost holds Х)
    for row in card_rows(ROOT):
        text = " ".join(row.text.split())
        if text:
            spell = row.kind.strip().lower() in SPELLS
            key = (text, spell, "Х" in row.cost or "X" in row.cost)
            texts.setdefault(key, (row.where, row.name))
            kinds.setdefault((row.where.split(":")[0], row.name), key[1:])
    for text, kind, _ in VARIANTS + GENERAL_VARIANTS:
        texts.setdefault(
            (text, kind != "creature", kind == "x"), ("tests/test_construction_variants.py", "Карта")
        )
    examples = json.loads((ROOT / "docs" / "card-examples.json").read_text(encoding="utf-8"))
    for alias, example in examples.items():
        spell, cost_x = kinds.get((example["file"], example["card"]), (False, False))
        where = f"docs/card-examples.json: {alias}"
        texts.setdefault((example["sentence"], spell, cost_x), (where, example["card"]))
    for text, spell in OWN:
        texts.setdefault((text, spell, False), ("tests/test_canonical_words.py", "Карта"))
    return texts


@cache
def corpus() -> tuple[Read, ...]:
    """Every distinct ability the reader reads from the texts (a text it refuses has no ability here: the
    parity snapshot and the diagnosis tests hold those)."""
    out: dict[tuple[str, bool, bool], Read] = {}
    for (text, spell, cost_x), (where, card) in _texts().items():
        try:
            abilities = parse_card_text(card, text, spell=spell, cost_x=cost_x)
        except CardTextError:
            continue
        for ability in abilities:
            out.setdefault((ability.text, spell, cost_x), Read(where, card, spell, cost_x, ability))
    return tuple(out.values())


def canonical(read: Read) -> str:
    return render(reading(read.ability.text, spell=read.spell, cost_x=read.cost_x))


def _nominative(node: Any) -> Any:
    """The node with the printed words of each target in the nominative: «все закрытые существа» and «всех
    закрытых существ» are one target (a determiner's case is the verb's, not the target's)."""
    if isinstance(node, Selector):
        return dataclasses.replace(node, words=inflect_group(node.words, "nomn"))
    if isinstance(node, tuple):
        return tuple(_nominative(v) for v in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        fields = {f.name: _nominative(getattr(node, f.name)) for f in dataclasses.fields(node) if f.init}
        return dataclasses.replace(node, **fields)
    return node


def _meaning(ability: Ability) -> Ability:
    return _nominative(dataclasses.replace(ability, text=""))


def round_trip_failures() -> list[str]:
    out = []
    for read in corpus():
        words = canonical(read)
        try:
            again = parse_card_text(read.card, words, spell=read.spell, cost_x=read.cost_x)
        except CardTextError as exc:
            out.append(f"{read.where}: «{read.ability.text}» → «{words}»: не читается ({exc.message})")
            continue
        if [_meaning(a) for a in again] != [_meaning(read.ability)]:
            out.append(f"{read.where}: «{read.ability.text}» → «{words}»: читается иначе")
    return out


def test_the_corpus_is_every_ability_the_reader_reads() -> None:
    # a floor, not a figure to match: the corpus is the project's card texts and grows with them
    assert len(corpus()) > 600
    assert any(read.where.startswith("features/part-8") for read in corpus())
    assert any(read.where.startswith("engine/examples") for read in corpus())
    assert any(read.where.startswith("docs/card-examples") for read in corpus())


def test_the_canonical_words_of_every_ability_read_back_as_the_same_ability() -> None:
    assert round_trip_failures() == []


# --- agreement (pymorphy3) ------------------------------------------------------------------------------


@cache
def _morph() -> Any:
    return pymorphy3.MorphAnalyzer()


_TOKEN = re.compile(r"«[^»]*»|\d+|[А-Яа-яЁё]+|\S")
_MODIFIERS = ("ADJF", "PRTF")
_FUNCTION_WORDS = ("PREP", "CONJ", "PRCL", "INTJ")


def _parses(word: str) -> list[Any]:
    return list(_morph().parse(word.lower()))


def _is_modifier(word: str) -> bool:
    """A word that can only be a determiner or an adjective («все» is a particle too: one of its forms)."""
    parses = [p for p in _parses(word) if p.tag.POS not in ("PRCL",)]
    return bool(parses) and all(p.tag.POS in _MODIFIERS for p in parses)


def _is_noun(word: str) -> bool:
    parses = _parses(word)
    return any(p.tag.POS == "NOUN" for p in parses) and not any(p.tag.POS in _FUNCTION_WORDS for p in parses)


def _agree(modifier: str, noun: str, counted: bool) -> bool:
    """Can the modifier and the noun be in one case and number (gender in the singular, animacy in the
    accusative)? ``counted``: the group follows 2, 3 or 4 («2 ваших хода»: the noun's genitive singular
    takes a plural modifier)."""
    for n in (p for p in _parses(noun) if p.tag.POS == "NOUN"):
        for m in (p for p in _parses(modifier) if p.tag.POS in _MODIFIERS):
            if counted and n.tag.case == "gent" and n.tag.number == "sing" and m.tag.number == "plur":
                if m.tag.case in ("gent", "nomn", "accs"):
                    return True
            if m.tag.case != n.tag.case or m.tag.number != n.tag.number:
                continue
            if n.tag.number == "sing" and m.tag.gender and n.tag.gender and m.tag.gender != n.tag.gender:
                continue
            if n.tag.case == "accs" and m.tag.animacy and n.tag.animacy and m.tag.animacy != n.tag.animacy:
                continue
            return True
    return False


def disagreements(words: str) -> list[str]:
    """The pairs of a sentence whose words do not agree: a modifier and the noun it stands before (only the
    word next to the noun when it is a participle that may head a phrase of its own: «взятых таким
    образом»), and «вы можете» followed by a verb that is not an infinitive."""
    tokens = _TOKEN.findall(words)
    out = []
    for i, token in enumerate(tokens):
        if not _is_noun(token) or i == 0 or not _is_modifier(tokens[i - 1]):
            continue
        start = i - 1
        while start > 0 and _is_modifier(tokens[start - 1]):
            start -= 1
        counted = start > 0 and tokens[start - 1] in ("2", "3", "4")
        for j in range(start, i):
            free = j < i - 1 and any(p.tag.POS == "PRTF" for p in _parses(tokens[j]))
            if not free and not _agree(tokens[j], token, counted):
                out.append(f"«{tokens[j]} {token}»")
    for match in re.finditer(r"можете ((?:[а-яё]+ )?)([а-яё]+)", words.lower()):
        verbs = [w for w in (match.group(1).strip(), match.group(2)) if w]
        if not any(p.tag.POS == "INFN" for w in verbs for p in _parses(w)):
            out.append(f"«{match.group(0)}»")
    return out


@pytest.mark.parametrize(
    ("words", "wrong"),
    [
        ("Уничтожить все закрытых существ.", ["«все существ»"]),
        ("Ранить на 1 все другие существ.", ["«все существ»", "«другие существ»"]),
        ("Найм: вы можете вызовите «Волчонок».", ["«можете вызовите»"]),
        ("Вы можете бесплатно разыграйте существо.", ["«можете бесплатно разыграйте»"]),
        ("Уничтожить всех закрытых существ.", []),
        ("Выбранное существо получает +2 к удару на 2 ваших хода.", []),
        ("Выберите до 2 существ, затем каждое из них получает +1 к удару до конца хода.", []),
        ("ранить на Х героя противника, где Х – количество карт, взятых таким образом.", []),
    ],
)
def test_the_agreement_check_tells_a_wrong_form(words: str, wrong: list[str]) -> None:
    assert disagreements(words) == wrong


def test_the_canonical_words_of_every_ability_agree() -> None:
    bad = [
        f"{r.where}: «{canonical(r)}»: {', '.join(w)}" for r in corpus() if (w := disagreements(canonical(r)))
    ]
    assert bad == []


# --- every slot of a reading shows in its words ---------------------------------------------------------


def _changed(value: Any, kind: str | None) -> Any:
    """Another value of a slot's kind, or None when the test has no other value for it."""
    if kind == "Dur":
        words = _frames_file()["duration_words"]
        durations = [d for d, w in words.items() if d not in ("one", value) and "{" not in w]
        return durations[0]
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value + 7
    if isinstance(value, Amount) and value.prop is None and value.value is not None:
        return dataclasses.replace(value, value=value.value + 7)
    if isinstance(value, Selector):
        return dataclasses.replace(value, words="чужого дракона")
    if isinstance(value, str) and value:
        return value + " и дракон"
    return None


_SLOT = re.compile(r"\{(\w+)(?::(\w+))?\}")


def _phrases(tree: Reading) -> list[Reading]:
    if tree.kind == "phrase":
        return [tree]
    return [p for part in tree.parts for p in _phrases(part)]


def test_every_slot_of_a_reading_shows_in_its_words() -> None:
    hidden = []
    checked = 0
    for read in corpus():
        for phrase in _phrases(reading(read.ability.text, spell=read.spell, cost_x=read.cost_x)):
            assert phrase.named is not None
            before = render(phrase)
            kinds = dict(_SLOT.findall(phrase.phrase.format if phrase.phrase else ""))
            for name, value in phrase.named.items():
                other = _changed(value, kinds.get(name) or None)
                if other is None:
                    continue
                checked += 1
                if render(dataclasses.replace(phrase, named={**phrase.named, name: other})) == before:
                    hidden.append(f"{read.where}: «{phrase.phrase.format if phrase.phrase else ''}»: {name}")
    assert checked > 500
    assert sorted(set(hidden)) == []


# --- every field of a node varies over the corpus (else the round trip cannot see it) --------------------

# (node, field) → why one value over the whole corpus is not a field the words could hide
UNVARIED = {
    ("Ability", "text"): "the sentence itself, not a meaning (the round trip leaves it out)",
    ("CannotAttack", "words"): "the construction's own canonical words, one by construction",
    ("CannotDefend", "words"): "the construction's own canonical words, one by construction",
    ("NoWoundsAttacking", "words"): "the construction's own canonical words, one by construction",
    ("Delayed", "text"): "the canonical words of the delayed ability, written from its reading",
    ("DelayedToNextTurn", "text"): "the canonical words of the delayed ability, written from its reading",
    ("GrantCounted", "text"): "the granted keyword's own words with its count, written from the keyword",
    # fields of the trigger base class that a class trigger's constructions (language/general.py) never set
    ("ClassTrigger", "next_turn"): "a field of Trigger no class trigger construction sets",
    ("ClassTrigger", "own_turn_only"): "a field of Trigger no class trigger construction sets",
    ("ClassTrigger", "zones"): "a field of Trigger no class trigger construction sets",
    # constructions with one wording only: the grammar reads no other value for these fields
    ("DirectedAtCard", "target"): "one wording: «… по этому существу»",
    ("DirectedAtCard", "until"): "one wording: «… до начала вашего следующего хода»",
    ("Fight", "target"): "one wording: «сразиться с выбранным существом»",
    ("GrantCounted", "amount"): "one wording: «Отравить … на Х» (Х of the cost)",
    ("GrantCounted", "until"): "one wording: no duration printed",
    ("Resurrect", "closed"): "no wording reads a resurrection into a closed card yet",
    ("SameNameDearer", "card"): "one wording: «Существа с таким же названием …»",
}


def _fields(node: Any, out: dict[tuple[str, str], set[str]]) -> None:
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            out[(type(node).__name__, f.name)].add(repr(value))
            _fields(value, out)
    elif isinstance(node, tuple | list | frozenset):
        for value in node:
            _fields(value, out)


def unvaried_fields() -> dict[tuple[str, str], str]:
    values: dict[tuple[str, str], set[str]] = defaultdict(set)
    for read in corpus():
        _fields(read.ability, values)
    return {key: next(iter(seen)) for key, seen in values.items() if len(seen) == 1}


def test_every_field_of_a_node_takes_two_values_over_the_corpus() -> None:
    found = unvaried_fields()
    assert {key: found[key] for key in found.keys() - UNVARIED.keys()} == {}
