"""Gherkin's keywords as lint knows them — from gherkin's own dialect data — and the test of a
description line that looks like a lost keyword line (a misspelt keyword, a Latin letter in a
Russian one, an English keyword, a step outside a scenario)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

# The keywords come from gherkin's own dialect data (the parser pytest-bdd runs), so lint knows every
# keyword the parser does — «Также», «К тому же», «Контекст», «Значения» … — and no other.
_BLOCK_KINDS = ("feature", "background", "rule", "scenario", "scenarioOutline", "examples")
_STEP_KINDS = ("given", "when", "then", "and", "but")


def dialect_keywords(language: str, kinds: Sequence[str]) -> tuple[str, ...]:
    """The keywords of ``kinds`` in gherkin's dialect ``language``, stripped, without «*»."""
    from gherkin.dialect import Dialect

    dialect = Dialect.for_name(language)
    if dialect is None:  # pragma: no cover - both languages ship with gherkin
        raise LookupError(f"gherkin не знает язык {language}")
    spec: dict[str, Any] = dict(dialect.spec)
    found: dict[str, None] = {}
    for kind in kinds:
        for keyword in spec[kind]:
            if keyword.strip() != "*":
                found[keyword.strip()] = None
    return tuple(found)


# Keywords that open a block: written with a colon ("Правило:"); without one the word is ordinary
# prose ("Правило 401.7 говорит…") and is not reported.
BLOCK_KEYWORDS = frozenset(dialect_keywords("ru", _BLOCK_KINDS))
RUSSIAN_KEYWORDS: tuple[str, ...] = dialect_keywords("ru", (*_STEP_KINDS, *_BLOCK_KINDS))
# First words of the English keywords: a line starting with one is a keyword in the wrong language.
ENGLISH_KEYWORDS = frozenset(
    keyword.split()[0].lower() for keyword in dialect_keywords("en", (*_STEP_KINDS, *_BLOCK_KINDS))
)
# Ordinary Russian words within one edit of a keyword that may well start a description line.
COMMON_WORDS = frozenset({"есть", "путь", "зачем", "пусто"})
# Latin letters that look like Cyrillic ones: "Дaно" with a Latin "a" is not a keyword.
LOOKALIKES = str.maketrans("aAeEoOpPcCxXyKkMHTBmt", "аАеЕоОрРсСхХуКкМНТВмт")

WORD = re.compile(r"[\w\-]+", re.UNICODE)


@functools.lru_cache(maxsize=65536)
def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """Optimal string alignment distance (Levenshtein plus adjacent transpositions).

    With ``limit``, stops as soon as the distance must exceed it and returns ``limit + 1``:
    description lines are compared with every keyword, and almost all are far from all of them.
    Cached: the first words of prose lines repeat.
    """
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if limit is not None and min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[len(b)]


def _allowed_distance(keyword: str) -> int:
    if len(keyword) <= 3:
        return 0
    if len(keyword) <= 5:
        return 1
    return 2


def suspicious_description(line: str) -> str | None:
    """Why a description line looks like a lost keyword line, or None when it looks like prose."""
    stripped = line.strip()
    if not stripped or stripped.startswith("#"):
        return None
    tokens = list(WORD.finditer(stripped))
    if tokens and tokens[0].start() == 0:
        first = tokens[0].group(0)
        if first.lower() in ENGLISH_KEYWORDS:
            return f"строка начинается с английского ключевого слова «{first}» (файлы пишутся на русском)"
        best: tuple[int, str, str, str] | None = None  # distance, keyword, written, normalized
        for keyword in RUSSIAN_KEYWORDS:
            count = len(keyword.split())
            if len(tokens) < count:
                continue
            written = " ".join(t.group(0) for t in tokens[:count])
            candidate = written.translate(LOOKALIKES)
            if candidate.lower() in COMMON_WORDS:
                continue
            allowed = _allowed_distance(keyword)
            distance = edit_distance(candidate.lower(), keyword.lower(), allowed)
            if distance > allowed:
                continue
            has_colon = stripped[tokens[count - 1].end() :].lstrip().startswith(":")
            if keyword in BLOCK_KEYWORDS and not has_colon and not stripped.endswith(":"):
                continue
            if best is None or distance < best[0]:
                best = (distance, keyword, written, candidate)
        if best is not None:
            distance, keyword, written, candidate = best
            if distance == 0 and candidate != written:
                return f"«{written}» написано латинскими буквами и не распознано как «{keyword}»"
            if distance == 0 and keyword not in BLOCK_KEYWORDS and stripped[len(written) :][:1].isspace():
                return f"шаг «{written} …» стоит вне сценария (в описании блока)"
            if distance == 0:
                return f"строка начинается с «{written}», но не распознана как ключевое слово"
            return f"«{written}» похоже на ключевое слово «{keyword}» с опечаткой"
    if stripped.endswith(":"):
        return "строка кончается двоеточием, как ключевое слово блока, но ключевым словом не распознана"
    return None
