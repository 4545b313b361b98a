"""The corpus model: parts, rules, terms with their variants, gaps and interpretations, and lookup.

:class:`Corpus` is what :func:`~berserk_rules.corpus.load_corpus` builds from ``rules/*.md``; every
tool (lint, the site, ``rule``, ``coverage``) reads the rules through it.
"""

from __future__ import annotations

import difflib
from dataclasses import asdict, dataclass, field
from typing import Any

from berserk_rules.errors import UserError

HEADING_UNTESTABLE = "заголовок раздела"
GLOSSARY_PART = 7


@dataclass(frozen=True)
class Variant:
    source: str  # "000_eeef2598edc2143d.txt"
    line: int  # 1-based line in the source
    printed: str | None  # number as printed incl. the following space ("401.7. "), None if none
    number: str | None  # normalized number printed by this source ("315.1") or None
    lines: tuple[str, ...]  # body lines verbatim
    text: str  # "\n".join of non-example lines
    examples: tuple[str, ...]  # lines starting with ПРИМЕР
    prefix: str = ""  # exact text before lines[0] on the source line ("401.7. ", "Герой.", "")


@dataclass(frozen=True)
class Entry:
    id: str
    kind: str  # "rule" | "term"
    part: int  # 1..7 (7 = glossary)
    number: str | None
    inferred: bool
    heading: bool
    title: str | None
    text: str
    variants: tuple[Variant, ...]
    section: str | None
    note: str | None
    untestable: str | None
    file: str  # "rules/part-4.md"
    line: int  # line of the directive in that file

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(v.source for v in self.variants)


@dataclass(frozen=True)
class Interpretation:
    id: str
    title: str
    rules: tuple[str, ...]
    text: str
    file: str
    line: int


@dataclass(frozen=True)
class Gap:
    """An extraction gap: lines ``first..last`` of ``source`` hold only ``|``."""

    source: str
    first: int
    last: int
    file: str
    line: int


@dataclass
class Corpus:
    entries: list[Entry]
    parts: dict[int, list[Variant]]  # part titles as printed, per part
    interpretations: dict[str, Interpretation]
    titles: dict[int, str] = field(default_factory=dict)  # page H1 per part (editorial)
    gaps: list[Gap] = field(default_factory=list)
    part_lines: dict[int, tuple[str, int]] = field(default_factory=dict)  # part -> (file, line)

    def __post_init__(self) -> None:
        self._by_id = {e.id: e for e in self.entries}

    def alias(self, id: str) -> tuple[Entry, str] | None:
        """The entry a number printed by one source stands for, when the corpus files it under
        another number (315.1 of source 001 is 310.1), with that source's name."""
        if id in self._by_id:
            return None
        for e in self.entries:
            for v in e.variants:
                if v.number == id and e.id != id:
                    return e, v.source
        return None

    def get(self, id: str) -> Entry:
        entry = self._by_id.get(id)
        if entry is not None:
            return entry
        for e in self.entries:
            if e.kind == "term" and e.title and e.title.casefold() == id.casefold():
                return e
        hints = [
            f"номер {id} напечатан в {v.source} — в корпусе это {e.id}"
            for e in self.entries
            for v in e.variants
            if v.number == id
        ]
        inside = [e.id for e in self.entries if e.kind == "rule" and e.id.startswith(id + ".")]
        if inside and "." not in id:  # a section whose heading the sources lost (303): its rules
            shown = ", ".join(inside[:12]) + (" …" if len(inside) > 12 else "")
            raise UserError(
                f"заголовка раздела {id} в источниках нет, в корпусе его нет; правила раздела: {shown} "
                f"(например, berserk-rules rule {inside[0]})"
            )
        close = difflib.get_close_matches(id, list(self._by_id), n=5, cutoff=0.6)
        message = f"нет правила или термина «{id}»"
        if hints:
            message += "; " + "; ".join(hints)
        if close:
            message += "; похожие: " + ", ".join(close)
        raise UserError(message)

    def rules(self, part: int | None = None) -> list[Entry]:
        return [e for e in self.entries if e.kind == "rule" and (part is None or e.part == part)]

    def terms(self) -> list[Entry]:
        return [e for e in self.entries if e.kind == "term"]

    def to_json(self) -> list[dict]:
        """Every entry, each Part preceded by its heading (kind ``part``, with its variants), so the
        list holds every text line of the sources."""
        result = []
        parts_done: set[int] = set()
        for e in self.entries:
            if e.part not in parts_done:
                parts_done.add(e.part)
                if self.parts.get(e.part):
                    result.append(self._part_json(e.part))
            item: dict[str, Any] = {
                "id": e.id,
                "kind": e.kind,
                "part": e.part,
                "number": e.number,
                "inferred": e.inferred,
                "heading": e.heading,
                "title": e.title,
                "text": e.text,
                "source": e.variants[0].source,
                "section": e.section,
                "note": e.note,
                "untestable": e.untestable,
                "file": e.file,
                "line": e.line,
                "sources": list(e.sources),
                "variants": [],
            }
            for v in e.variants:
                data = asdict(v)
                data["lines"] = list(v.lines)
                data["examples"] = list(v.examples)
                item["variants"].append(data)
            result.append(item)
        return result

    def _part_json(self, part: int) -> dict:
        variants = self.parts[part]
        file, line = self.part_lines.get(part, ("", 0))
        first = variants[0]
        return {
            "id": f"часть-{part}",
            "kind": "part",
            "part": part,
            "number": str(part),
            "inferred": False,
            "heading": True,
            "title": first.text,
            "text": first.text,
            "source": first.source,
            "section": None,
            "note": None,
            "untestable": None,
            "file": file,
            "line": line,
            "sources": [v.source for v in variants],
            "variants": [
                {**asdict(v), "lines": list(v.lines), "examples": list(v.examples)} for v in variants
            ],
        }


def normalize_number(printed: str) -> str:
    """``"201. 1."`` → ``"201.1"``, ``"401.8"`` → ``"401.8"``, ``"401\\."`` → ``"401"`` (an escape)."""
    return printed.replace(" ", "").replace("\\", "").rstrip(".")


def part_of_id(id: str) -> int | None:
    """Part of a rule id: ``401.7`` → 4, ``119.8`` → 1, ``5.замещение.1`` → 5."""
    head = id.split(".", 1)[0]
    if not head.isdigit():
        return None
    if len(head) >= 3:
        return int(head[:-2])
    if len(head) == 1:
        return int(head)
    return None
