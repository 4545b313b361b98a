"""Step 2 of the import: the editorial decisions of ``rules/editorial.toml``, read and checked."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from berserk_rules.corpus.syntax import ID_RE
from berserk_rules.errors import SourceError
from berserk_rules.rulebook.project import read_utf8, toml_error

CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029]")
EDITORIAL_KEYS = frozenset({"id", "heading", "inferred", "note", "untestable", "continuation"})


@dataclass(frozen=True)
class Decision:
    id: str | None = None
    heading: bool | None = None
    inferred: bool = False
    note: str | None = None
    continuation: bool = False
    untestable: str | None = None  # why an engine cannot check the rule (Russian)


@dataclass
class Editorial:
    decisions: dict[tuple[str, int], Decision] = field(default_factory=dict)
    titles: dict[int, str] = field(default_factory=dict)  # H1 for parts whose title is lost
    slugs: dict[str, str] = field(default_factory=dict)  # term name -> slug override
    path: str = "rules/editorial.toml"


def load_editorial(path: Path, rel: str = "rules/editorial.toml") -> Editorial:
    if not path.is_file():
        return Editorial(path=rel)
    try:
        data = tomllib.loads(read_utf8(path, rel))
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(rel, exc) from None
    editorial = Editorial(path=rel)
    for key, value in data.items():
        if key == "titles":
            if not isinstance(value, dict) or not all(str(k).isdigit() for k in value):
                raise SourceError(rel, None, '[titles]: ожидается «номер части = "заголовок"»')
            editorial.titles = {int(k): _one_line(rel, f"[titles] {k}", v) for k, v in value.items()}
        elif key == "slugs":
            if not isinstance(value, dict):
                raise SourceError(rel, None, '[slugs]: ожидается таблица «термин = "slug"»')
            editorial.slugs = {str(k): str(v) for k, v in value.items()}
        elif key.endswith(".txt"):
            if not isinstance(value, dict):
                raise SourceError(rel, None, f"[{key}]: ожидается таблица «номер строки = {{ … }}»")
            for line, item in value.items():
                if not line.isdigit() or not isinstance(item, dict):
                    raise SourceError(
                        rel, None, f"[{key}]: ожидается «номер строки = {{ … }}», а не «{line}»"
                    )
                unknown = set(item) - EDITORIAL_KEYS
                if unknown:
                    raise SourceError(rel, None, f"[{key}] {line}: неизвестные ключи {sorted(unknown)}")
                for name in ("id", "note", "untestable"):
                    if isinstance(item.get(name), str):
                        _one_line(rel, f"[{key}] {line}: {name}", item[name])
                decision = Decision(
                    id=item.get("id"),
                    heading=item.get("heading"),
                    inferred=bool(item.get("inferred", False)),
                    note=item.get("note"),
                    continuation=bool(item.get("continuation", False)),
                    untestable=item.get("untestable"),
                )
                if decision.untestable is not None and not (
                    isinstance(decision.untestable, str) and decision.untestable.strip()
                ):
                    raise SourceError(rel, None, f"[{key}] {line}: untestable — непустая строка с причиной")
                if decision.id is not None and not (
                    isinstance(decision.id, str) and ID_RE.match(decision.id)
                ):
                    raise SourceError(rel, None, f"[{key}] {line}: неверный id «{decision.id}»")
                editorial.decisions[(key, int(line))] = decision
        else:
            raise SourceError(rel, None, f"неизвестная таблица [{key}]")
    return editorial


def _one_line(rel: str, where: str, value: object) -> str:
    """An editorial text written into an option or a heading of the corpus: one line of text."""
    text = str(value)
    if "\n" in text or "\r" in text or CONTROL_RE.search(text):
        raise SourceError(
            rel, None, f"{where}: текст в одну строку, без переводов строк и управляющих символов"
        )
    return text
