"""The records an import builds: entries with a variant per source line, gaps, placements, result."""

from __future__ import annotations

from dataclasses import dataclass, field


def source_rel(source: str) -> str:
    """A source text's path as error messages show it."""
    return f"rules/sources/{source}"


@dataclass
class VariantRec:
    source: str
    line: int
    printed: str | None
    lines: list[str]
    nospace: bool = False


@dataclass
class EntryRec:
    id: str
    kind: str  # rule | term
    part: int
    heading: bool = False
    name: str | None = None
    notes: list[str] = field(default_factory=list)
    declared_inferred: bool = False
    untestable: str | None = None
    variants: list[VariantRec] = field(default_factory=list)


@dataclass(frozen=True)
class GapRec:
    source: str
    first: int
    last: int


@dataclass
class ImportResult:
    files: dict[str, str]  # file name in rules/ -> content
    placements: list[Placement] = field(default_factory=list)  # lenient import: what it decided


@dataclass(frozen=True)
class Placement:
    """A line the lenient import (``import --edition``) placed by itself, or could not place.

    ``what``: ``attached`` (unnumbered line joined to the entry before it), ``intro`` (text at the
    start of a Part before any rule, given the id ``N.вступление``), ``renamed`` (a second glossary
    term with the same slug) or ``unplaced`` (the line is not in the corpus).
    """

    source: str
    line: int
    text: str
    what: str
    detail: str = ""
