"""Reminder text after a keyword, in parentheses: «Рывок (может атаковать в тот же ход …).» (issue 29,
interpretation I-94).

A printed card may explain its keyword in parentheses. The explanation is commentary: it adds nothing to
the ability, takes nothing from it and is never read as a limit («(Один раз за ход.)» after an ability is
a limit, not a reminder: the sentence reader, :func:`berserk_engine.grammar.read_sentence_tree`, tells
them apart and reads a limit as before). It is not dropped silently
either: the reader checks it against the keyword it explains and shows it in the reading.

The check compares words, not strings: the content words of the reminder (pymorphy3 normal forms; no
prepositions, conjunctions, particles, pronouns) against those of each keyword's text in the glossary
(``lexicon/reminders.toml``, made from ``rules/glossary.md`` by ``tools/reminders.py`` and checked by
tests/test_constructions.py). The reminder fits its keyword when it shares at least :data:`MIN_SHARED`
words with the keyword's glossary text and no other keyword's text is closer to it (cosine of the two
sets of words); otherwise it is an error naming both the keyword and the reminder.
"""

from __future__ import annotations

import math
import re
import tomllib
from functools import cache
from typing import Any

from berserk_engine.language.lexicon import FOLDER, fold

FILE = FOLDER / "reminders.toml"
MIN_SHARED = 2  # words a reminder shares with its keyword's glossary text, at least
_FUNCTION = frozenset({"PREP", "CONJ", "PRCL", "INTJ", "NPRO", "PRED"})
_WORD = re.compile(r"[A-Za-z\u0400-\u04ff]+(?:-[A-Za-z\u0400-\u04ff]+)*")
_AT_END = re.compile(r"^(?P<head>.*?\S)\s*\((?P<text>[^()]+)\)\s*\.?\s*$", re.DOTALL)


def lemmas(text: str) -> frozenset[str]:
    """The content words of a text, as pymorphy3 normal forms (the first, most likely parse)."""
    from berserk_engine.language.morphology import _morph

    out = set()
    for word in _WORD.findall(text):
        parse = _morph().parse(fold(word))[0]
        if str(parse.tag.POS or "") not in _FUNCTION:
            out.add(parse.normal_form)
    return frozenset(out)


@cache
def meanings() -> dict[str, frozenset[str]]:
    """The content words of each keyword's glossary text, by its term id."""
    data = tomllib.loads(FILE.read_text(encoding="utf-8"))
    return {entry["term"]: frozenset(entry["lemmas"]) for entry in data.get("keyword", [])}


def split(sentence: str) -> tuple[str, str] | None:
    """(the ability, the text in parentheses) of «[способность] ([текст])», or None when the sentence does
    not end in parentheses. The caller tells a limit «(Один раз за ход.)» from a reminder."""
    m = _AT_END.match(sentence.strip())
    if m is None:
        return None
    return m.group("head").rstrip(".").strip() + ".", m.group("text").strip().rstrip(".").strip()


def _closeness(words: frozenset[str], meaning: frozenset[str]) -> float:
    if not words or not meaning:
        return 0.0
    return len(words & meaning) / math.sqrt(len(words) * len(meaning))


def mismatch(term: str, name: str, text: str) -> str | None:
    """Why the reminder ``text`` does not explain the keyword ``term`` (``name`` as printed), or None."""
    words = lemmas(text)
    known = meanings()
    own = known.get(term, frozenset())
    shared = len(words & own)
    best = max(known, key=lambda other: _closeness(words, known[other]))
    if shared >= MIN_SHARED and _closeness(words, own) >= _closeness(words, known[best]):
        return None
    return _mismatch_message(text, name, best if best != term else None)


def _mismatch_message(text: str, name: str, closer: str | None) -> str:
    other = f"; ближе к нему глоссарий ключевого слова «{closer}»" if closer else ""
    return (
        f"пояснение в скобках «{text}» не объясняет ключевое слово «{name}» (толкование I-94: пояснение "
        f"сверяется с текстом ключевого слова в глоссарии){other}"
    )


def checked(ability: Any, name: str, text: str) -> Any:
    """The reading of «[ключевое слово] ([пояснение])» (``name``: the keyword's canonical words): the
    keyword with the reminder shown after it (commentary, I-94). Raises ValueError (the message names the
    keyword and the reminder) when the ability is no keyword or the reminder does not explain it."""
    from berserk_engine.language.reading import Phrase, Reading

    if ability.keyword is None:
        raise ValueError(
            f"в скобках после способности — не ограничение «(Один раз за ход.)» и не пояснение ключевого "
            f"слова: «{text}»"
        )
    problem = mismatch(ability.keyword, name, text)
    if problem is not None:
        raise ValueError(problem)
    phrase = Phrase("keyword", "{k} ({r})", "{k} ({r})", _nothing, None, ability.keyword)
    return Reading("sentence", parts=(Reading("phrase", phrase=phrase, named={"k": name, "r": text}),))


def _nothing(_named: dict[str, Any]) -> None:  # commentary: nothing to build
    return None
