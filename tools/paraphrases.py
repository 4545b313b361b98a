"""Paraphrases of every card text of the project, generated BEFORE the card reader's grammar (issue 25).

Every card text of ``features/`` (the «текст» column of a card table) and of ``engine/examples/`` is
transformed word by word with pymorphy3, in ways that keep its meaning and in ways that change it:

keep the meaning (``expect: "same"`` — the variant must compile to the identical node):
  * ``imperative`` — an infinitive of a command ↔ its imperative («ранить» ↔ «раньте»);
  * ``colon`` — «:» ↔ «,» after a trigger condition «Когда …», «В начале …», «В конце …»;
  * ``number-words`` — a number after «на», «до», «не более» in digits ↔ in words («на 2» ↔ «на два»);
  * ``order`` — «ранить на N [цель]» ↔ «ранить [цель] на N» (both orders are Russian);

change the meaning (``expect: "different"`` — a different node or an error, never the same node;
``"error"`` — an error):
  * ``plural`` — a noun group in the singular ↔ the plural («выбранное существо» → «выбранные существа»);
  * ``side`` — «ваш …» ↔ «… противника» (the other player's cards);
  * ``agreement`` — a modifier of a noun group put in another case («выбранного существо»): an error.

The output (``tests/data/paraphrases.json``) is committed; ``tests/test_paraphrases.py`` checks that it
is what this script makes of the texts today and measures the reader on it. Run:

    python tools/paraphrases.py            # rewrite tests/data/paraphrases.json
    python tools/paraphrases.py --check    # exit 1 when the committed file is out of date
    python tools/paraphrases.py --measure  # how the engine's reader reads the variants, per transform
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pymorphy3

from berserk_rules.rulebook.card_texts import card_rows

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "tests" / "data" / "paraphrases.json"
SPELLS = ("заклинание", "событие")

# --- the texts -------------------------------------------------------------------------------------


def card_texts(root: Path = ROOT) -> list[dict[str, Any]]:
    """Every distinct card text: its first place, the card's name and whether it is a spell's."""
    found: dict[str, dict[str, Any]] = {}

    def add(text: str, where: str, name: str, kind: str) -> None:
        text = " ".join(text.split())
        if text and text not in found:
            found[text] = {"text": text, "where": where, "card": name, "spell": kind in SPELLS}

    for row in card_rows(root):
        add(row.text, row.where, row.name, row.kind)
    return list(found.values())


# --- words -----------------------------------------------------------------------------------------

MORPH = pymorphy3.MorphAnalyzer()
WORD = re.compile(r"[А-Яа-яЁё]+")
NUMBER_WORDS = {
    1: "один",
    2: "два",
    3: "три",
    4: "четыре",
    5: "пять",
    6: "шесть",
    7: "семь",
    8: "восемь",
    9: "девять",
    10: "десять",
}


@cache
def known(word: str) -> tuple[Any, ...]:
    """The dictionary's analyses of a word (never the guesser's)."""
    return tuple(p for p in MORPH.parse(word.lower()) if p.is_known)


def _same_case(template: str, word: str) -> str:
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _verb_swap(word: str) -> str | None:
    """An infinitive → its imperative (plural), an imperative → its infinitive; a word that may be
    something else too («При»: a preposition, or the imperative of «переть») is left alone."""
    if any(p.tag.POS not in ("INFN", "VERB") for p in known(word)):
        return None
    for p in known(word):
        if p.tag.POS == "INFN":
            form = p.inflect({"impr", "plur", "excl"})
            return form.word if form is not None else None
    for p in known(word):
        if p.tag.POS == "VERB" and "impr" in p.tag:
            form = p.inflect({"INFN"})
            return form.word if form is not None else None
    return None


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + _same_case(text[start:end], new) + text[end:]


# a command starts a clause: the text, or after a punctuation mark or a connector
_CLAUSE_START = re.compile(r"(?:^|[:;,.(]|\bзатем|\bи|\bиначе)\s*$", re.IGNORECASE)


def imperative(text: str) -> Iterator[str]:
    for m in WORD.finditer(text):
        if _CLAUSE_START.search(text[: m.start()]) is None:
            continue  # not the first word of a clause («всех зверей» is no command)
        swapped = _verb_swap(m.group())
        if swapped is not None and swapped.replace("ё", "е") != m.group().lower().replace("ё", "е"):
            yield _replace(text, m.start(), m.end(), swapped)


_TRIGGER_HEAD = re.compile(r"^((?:Каждый раз, когда|Когда|В начале|В конце)[^:.]*):\s", re.IGNORECASE)


def colon(text: str) -> Iterator[str]:
    m = _TRIGGER_HEAD.match(text)
    if m is not None:
        yield f"{m.group(1)}, {text[m.end() :]}"


_NUMBER_AFTER = re.compile(r"\b(на|до|не более) (\d+)\b(?! \[)", re.IGNORECASE)


def number_words(text: str) -> Iterator[str]:
    for m in _NUMBER_AFTER.finditer(text):
        value = int(m.group(2))
        if value not in NUMBER_WORDS:
            continue
        word = NUMBER_WORDS[value]
        if m.group(1).lower() != "на":  # «до», «не более» take the genitive: «до двух»
            form = known(word)[0].inflect({"gent"})
            if form is None:
                continue
            word = form.word
        yield text[: m.start(2)] + word + text[m.end(2) :]


_ORDER = re.compile(
    r"\b(ранить|раньте|излечить|излечите) на (\d+) ([^,.;:()]+?)(?=,|\.|;| и | затем|$)", re.IGNORECASE
)
_ORDER_BACK = re.compile(
    r"\b(ранить|раньте|излечить|излечите) ([^,.;:()]+?) на (\d+)(?=,|\.|;| и | затем|$)", re.IGNORECASE
)


def order(text: str) -> Iterator[str]:
    for m in _ORDER.finditer(text):
        if m.group(3).split()[0].lower() in ("каждый", "каждого", "раз"):
            continue
        yield text[: m.start()] + f"{m.group(1)} {m.group(3)} на {m.group(2)}" + text[m.end() :]
    for m in _ORDER_BACK.finditer(text):
        if " на " in f" {m.group(2)} ":
            continue
        yield text[: m.start()] + f"{m.group(1)} на {m.group(3)} {m.group(2)}" + text[m.end() :]


# --- noun groups: modifiers agreeing with a noun -----------------------------------------------------

NOUNS = ("существо", "персонаж", "герой", "карта")


def _noun_groups(
    text: str, kinds: tuple[str, ...] | None = NOUNS
) -> Iterator[tuple[list[re.Match[str]], re.Match[str], Any]]:
    """(modifiers, noun, the noun's analysis) for each noun of a kind of card with the words before it
    that agree with it (adjectives, participles, determiners in its case and number); ``kinds``: only
    these nouns (None: any noun)."""
    words = list(WORD.finditer(text))
    for i, m in enumerate(words):
        nouns = [
            p for p in known(m.group()) if p.tag.POS == "NOUN" and (kinds is None or p.normal_form in kinds)
        ]
        if not nouns:
            continue
        for noun in nouns:
            mods: list[re.Match[str]] = []
            j = i - 1
            while j >= 0 and text[words[j].end() : words[j + 1].start()] == " ":
                if not any(_agrees(p, noun) for p in known(words[j].group())):
                    break
                mods.insert(0, words[j])
                j -= 1
            if mods or kinds is None:
                yield mods, m, noun
                break


def _agrees(p: Any, noun: Any) -> bool:
    if p.tag.POS not in ("ADJF", "PRTF", "NUMR") and "Apro" not in p.tag:
        return False
    if p.tag.case != noun.tag.case or p.tag.number != noun.tag.number:
        return False
    return noun.tag.number == "plur" or p.tag.gender == noun.tag.gender


def _inflect(word: str, grammemes: set[str], like: Any | None = None) -> str | None:
    for p in known(word):
        if like is not None and not (p.tag.case == like.tag.case and p.tag.number == like.tag.number):
            continue
        form = p.inflect(grammemes)
        if form is not None:
            return form.word
    return None


def plural(text: str) -> Iterator[str]:
    for mods, noun_m, noun in _noun_groups(text):
        number = "sing" if noun.tag.number == "plur" else "plur"
        new_noun = noun.inflect({number, noun.tag.case})
        if new_noun is None:
            continue
        out = _replace(text, noun_m.start(), noun_m.end(), new_noun.word)
        for mod in reversed(mods):
            form = _inflect(
                mod.group(),
                {number, noun.tag.case}
                | ({noun.tag.gender} if number == "sing" and noun.tag.gender else set()),
                noun,
            )
            if form is None:
                break
            out = _replace(out, mod.start(), mod.end(), form)
        else:
            yield out


def _own_form(noun: Any) -> str | None:
    """«ваш» agreeing with the noun (in the accusative, by its animacy: «вашего героя», «ваше существо»)."""
    grammemes = {noun.tag.case, noun.tag.number}
    if noun.tag.number == "sing" and noun.tag.gender:
        grammemes.add(noun.tag.gender)
    if noun.tag.case == "accs" and noun.tag.animacy:
        grammemes.add(noun.tag.animacy)
    own = next(p for p in known("ваш") if p.tag.POS == "ADJF")
    form = own.inflect(grammemes)
    return form.word if form is not None else None


def side(text: str) -> Iterator[str]:
    """«ваш [группа]» → «[группа] противника»; «[группа] противника» → «ваш [группа]»."""
    for mods, noun_m, noun in _noun_groups(text, kinds=None):
        after = text[noun_m.end() :]
        owns = [m for m in mods if any(p.normal_form == "ваш" for p in known(m.group()))]
        if owns:
            own = owns[0]
            rest = text[own.end() + 1 : noun_m.end()]
            if own.group()[:1].isupper():
                rest = rest[:1].upper() + rest[1:]
            yield text[: own.start()] + rest + " противника" + after
        elif after.startswith(" противника"):
            form = _own_form(noun)
            if form is None:
                continue
            # «ваш» after a quantifier («всех», «каждое», «выбранное», «другое»), else first
            at = (
                1
                if mods
                and known(mods[0].group())
                and mods[0].group().lower()[:3] in ("все", "вс", "каж", "выб", "дру")
                else 0
            )
            first = mods[0] if mods else noun_m
            words = text[first.start() : noun_m.end()].split(" ")
            new = " ".join([*words[:at], form, *words[at:]])
            if at == 0 and words[0][:1].isupper():
                new = new[:1].upper() + new[1:].replace(words[0], words[0][:1].lower() + words[0][1:], 1)
            yield text[: first.start()] + new + after[len(" противника") :]


def agreement(text: str) -> Iterator[str]:
    for mods, _noun_m, noun in _noun_groups(text):
        mod = mods[-1]
        forms = {p.word for p in known(mod.group())}
        for case in ("gent", "datv", "ablt", "nomn"):
            if case == noun.tag.case:
                continue
            form = _inflect(mod.group(), {case}, noun)
            if form is not None and form not in forms and form.replace("ё", "е") not in forms:
                yield _replace(text, mod.start(), mod.end(), form)
                break


TRANSFORMS = {
    "imperative": (imperative, "same"),
    "colon": (colon, "same"),
    "number-words": (number_words, "same"),
    "order": (order, "same"),
    "plural": (plural, "different"),
    "side": (side, "different"),
    "agreement": (agreement, "error"),
}


def variants(text: str) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    seen = {text}
    for name, (transform, expect) in TRANSFORMS.items():
        for variant in transform(text):
            variant = " ".join(variant.split())
            if variant not in seen:
                seen.add(variant)
                out.append({"transform": name, "expect": expect, "text": variant})
    return out


def generate(root: Path = ROOT) -> dict[str, Any]:
    texts = card_texts(root)
    return {
        "about": "Парафразы текстов карт проекта (tools/paraphrases.py; задача 25): expect «same» — тот же "
        "узел, «different» — другой узел или ошибка, «error» — ошибка.",
        "texts": [{**t, "variants": variants(t["text"])} for t in texts],
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _reading(card: dict[str, Any], text: str) -> tuple[Any, ...] | None:
    """The card's abilities without their texts (what the words compile to), or None when the engine
    does not read the text."""
    from dataclasses import replace

    import berserk_engine  # noqa: F401  (loads the engine's catalogue of phrases)
    from berserk_engine.cards import CardDef
    from berserk_engine.errors import CardTextError

    kind = "заклинание" if card["spell"] else "существо"
    props: dict[str, Any] = {} if card["spell"] else {"strike": 1, "life": 1}
    try:
        built = CardDef.build(card["card"] or "Образец", kind, text=text, cost=1, **props)
    except (CardTextError, ValueError):
        return None
    return tuple(replace(a, text="") for a in built.abilities)


def measure(data: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per transform: how many variants compile to the same node as their text («same»), to another
    («different»), or do not read («error»); texts the engine does not read are left out."""
    figures: dict[str, dict[str, int]] = {}
    for card in data["texts"]:
        original = _reading(card, card["text"])
        if original is None:
            continue
        for variant in card["variants"]:
            got = _reading(card, variant["text"])
            verdict = "error" if got is None else "same" if got == original else "different"
            row = figures.setdefault(variant["transform"], {"same": 0, "different": 0, "error": 0})
            row[verdict] += 1
    return figures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the committed output is out of date")
    ap.add_argument("--measure", action="store_true", help="read the committed variants with the engine")
    args = ap.parse_args(argv)
    if args.measure:
        data = json.loads(OUTPUT.read_text(encoding="utf-8"))
        for name, row in measure(data).items():
            expect = TRANSFORMS[name][1]
            good = (
                row["same"]
                if expect == "same"
                else row["error"]
                if expect == "error"
                else row["different"] + row["error"]
            )
            total = sum(row.values())
            print(
                f"{name:13} ожидается {expect:9} — так: {good}/{total} "
                f"({100 * good / max(total, 1):.0f} %); {row}"
            )
        return 0
    text = dumps(generate())
    if args.check:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT.relative_to(ROOT)} устарел: python tools/paraphrases.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    data = json.loads(text)
    counts: dict[str, int] = {}
    for t in data["texts"]:
        for v in t["variants"]:
            counts[v["transform"]] = counts.get(v["transform"], 0) + 1
    print(f"{len(data['texts'])} текстов; варианты: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
