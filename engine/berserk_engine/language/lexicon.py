"""The project's vocabulary of the card language, as data: ``lexicon/*.toml``, a file per kind of word
(see ``lexicon/README.md``). Every entry names what it means in the engine (``category``, ``value``)
and what that meaning rests on — a glossary term, a rule or an interpretation of the register.

An entry is keyed by a pymorphy3 normal form (``lemma``, with ``pos`` when the normal form is another
part of speech's: a participle's is its verb), or by one written form (``form``: a closed-class word
whose dictionary analyses are many and whose meaning in the card language is one), or is a documented
override (``like`` + ``prefix``: a word the dictionary lacks whose forms are another word's forms with
a prefix; ``why`` says why).
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "lexicon"
SOURCES = ("term", "rule", "interpretation")
_FIELDS = {
    "lemma",
    "pos",
    "form",
    "like",
    "prefix",
    "why",
    "category",
    "value",
    "case",
    "number",
    *SOURCES,
}


class LexiconError(ValueError):
    """A bad entry of the lexicon: the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One word of the card language (see the module's doc)."""

    category: str
    value: str
    source: str  # "term:…", "rule:…" or "interpretation:…"
    file: str
    lemma: str = ""
    pos: str = ""
    form: str = ""
    like: str = ""
    prefix: str = ""
    case: str = ""
    number: str = ""


@dataclass(frozen=True)
class Lexicon:
    entries: tuple[Entry, ...]
    by_lemma: dict[str, tuple[Entry, ...]] = field(default_factory=dict)
    by_form: dict[str, tuple[Entry, ...]] = field(default_factory=dict)
    by_like: dict[str, tuple[Entry, ...]] = field(default_factory=dict)
    digest: str = ""


_YO = {0x0451: 0x0435}  # «ё» → «е»


def fold(word: str) -> str:
    """A word as the lexicon and the dictionary compare it: lower case, «ё» as «е»."""
    return word.lower().translate(_YO)


def _where_message(file: str, number: int) -> str:
    return f"{file}, запись {number}"


def _entry(raw: dict[str, object], file: str, number: int) -> Entry:
    where = _where_message(file, number)
    unknown = set(raw) - _FIELDS
    if unknown:
        raise LexiconError(f"{where}: неизвестные поля {sorted(unknown)}")
    values = {k: str(v) for k, v in raw.items()}
    keys = [k for k in ("lemma", "form") if values.get(k)]
    if len(keys) != 1:
        raise LexiconError(f"{where}: нужно ровно одно из полей lemma, form")
    if values.get("like") and not (values.get("prefix") and values.get("why")):
        raise LexiconError(f"{where}: замена like требует prefix и why (почему словаря недостаточно)")
    sources = [f"{k}:{values[k]}" for k in SOURCES if values.get(k)]
    if len(sources) != 1:
        raise LexiconError(f"{where}: нужно ровно одно основание — term, rule или interpretation")
    if not values.get("category") or not values.get("value"):
        raise LexiconError(f"{where}: нужны category и value")
    return Entry(
        category=values["category"],
        value=values["value"],
        source=sources[0],
        file=file,
        lemma=fold(values.get("lemma", "")),
        pos=values.get("pos", ""),
        form=fold(values.get("form", "")),
        like=fold(values.get("like", "")),
        prefix=fold(values.get("prefix", "")),
        case=values.get("case", ""),
        number=values.get("number", ""),
    )


def read(folder: Path = FOLDER) -> Lexicon:
    """The lexicon of a folder of ``*.toml`` files. Raises :class:`LexiconError`."""
    entries: list[Entry] = []
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.toml")):
        data = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + data + b"\0")
        try:
            words = tomllib.loads(data.decode("utf-8")).get("word", [])
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise LexiconError(f"{path.name}: {exc}") from None
        for number, raw in enumerate(words, start=1):
            entries.append(_entry(raw, path.name, number))
    by_lemma: dict[str, list[Entry]] = {}
    by_form: dict[str, list[Entry]] = {}
    by_like: dict[str, list[Entry]] = {}
    for e in entries:
        if e.form:
            by_form.setdefault(e.form, []).append(e)
        elif e.like:
            by_like.setdefault(e.like, []).append(e)
        else:
            by_lemma.setdefault(e.lemma, []).append(e)
    return Lexicon(
        tuple(entries),
        {k: tuple(v) for k, v in by_lemma.items()},
        {k: tuple(v) for k, v in by_form.items()},
        {k: tuple(v) for k, v in by_like.items()},
        digest.hexdigest()[:16],
    )


@cache
def lexicon() -> Lexicon:
    """The project's lexicon (read once)."""
    return read()
