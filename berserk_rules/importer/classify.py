"""Step 1 of the import: classify every line of a source text (gap, part title, numbered, list …)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from berserk_rules.corpus.model import GLOSSARY_PART, normalize_number
from berserk_rules.corpus.syntax import GAP_LINE_RE

PART_TITLE_RE = re.compile(r"^Часть (\d+)\.")
NUMBERED_RE = re.compile(r"^(?P<num>\d{3}(?:\. ?\d+)*\.?) (?=\S)(?P<body>.*)$")
LIST_RE = re.compile(r"^(?:· |\d+\) )")
EXAMPLE_PREFIX = "ПРИМЕР"


@dataclass(frozen=True)
class SourceLine:
    source: str
    number: int  # 1-based
    text: str
    kind: str  # gap | empty | part | heading | numbered | list | example | text | term
    printed: str | None = None  # number as printed, without the following space
    body: str = ""  # text after the number (or the whole line)
    part: int | None = None  # for part titles


def classify(source: str, text: str) -> list[SourceLine]:
    """Classify every line of one source text."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    result: list[SourceLine] = []
    glossary = False
    for number, raw in enumerate(lines, 1):
        if GAP_LINE_RE.match(raw):
            result.append(SourceLine(source, number, raw, "gap"))
        elif not raw.strip():
            result.append(SourceLine(source, number, raw, "empty"))
        elif match := PART_TITLE_RE.match(raw):
            part = int(match[1])
            glossary = part == GLOSSARY_PART
            result.append(SourceLine(source, number, raw, "part", body=raw, part=part))
        elif glossary:
            result.append(SourceLine(source, number, raw, "term", body=raw))
        elif match := NUMBERED_RE.match(raw):
            printed = match["num"]
            kind = "numbered" if "." in normalize_number(printed) else "heading"
            result.append(SourceLine(source, number, raw, kind, printed, match["body"]))
        elif raw.startswith(EXAMPLE_PREFIX):
            result.append(SourceLine(source, number, raw, "example", body=raw))
        elif LIST_RE.match(raw):
            result.append(SourceLine(source, number, raw, "list", body=raw))
        else:
            result.append(SourceLine(source, number, raw, "text", body=raw))
    return result


def looks_like_term(text: str) -> bool:
    if text.startswith((EXAMPLE_PREFIX, "ВАЖНО")) or LIST_RE.match(text):
        return False
    name, sep, rest = text.partition(".")
    return bool(sep and name.strip() and rest.strip() and name == name.strip() and len(name) <= 120)
