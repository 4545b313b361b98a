"""Step 1 of the import: classify every line of a source text (gap, part title, numbered, list …)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from berserk_rules.corpus.model import GLOSSARY_PART, normalize_number
from berserk_rules.corpus.syntax import GAP_LINE_RE

PART_TITLE_RE = re.compile(r"^Часть (\d+)\\?\.")
# «401\. Очередь», «401\.7\. …»: a converter to Markdown escapes the dot after a number
NUMBERED_RE = re.compile(r"^(?P<num>\d{3}(?:\\?\. ?\d+)*(?:\\?\.)?) (?=\S)(?P<body>.*)$")
# a table-of-contents line: a heading, then its page number (after dot leaders, a tab or a space)
PAGE_SUFFIX_RE = re.compile(
    r"^(?P<head>.*?\S)(?P<leader>[ \t]*(?:\.{2,}|…+|_{2,}|·{2,})[ \t]*|\t+|[ \t]+)\d{1,4}$"
)
CONTENTS_TITLE_RE = re.compile(r"^(?:#+\s*)?(?:Содержание|Оглавление)\.?$", re.IGNORECASE)
MARKDOWN_ESCAPE_RE = re.compile(r"\\(?=[!-/:-@\[-`{-~])")
LIST_RE = re.compile(r"^(?:· |\d+\) )")
EXAMPLE_PREFIX = "ПРИМЕР"


@dataclass(frozen=True)
class SourceLine:
    source: str
    number: int  # 1-based
    text: str
    kind: str  # gap | empty | part | heading | numbered | list | example | text | term | contents
    printed: str | None = None  # number as printed, without the following space
    body: str = ""  # text after the number (or the whole line)
    part: int | None = None  # for part titles


def unescape(text: str) -> str:
    """Text without the backslashes of Markdown escapes (``401\\.`` → ``401.``, ``\\*`` → ``*``)."""
    return MARKDOWN_ESCAPE_RE.sub("", text)


def number_of(printed: str) -> str:
    """The id a printed number stands for: ``"201. 1."`` → ``"201.1"``, ``"401\\."`` → ``"401"``."""
    return normalize_number(unescape(printed))


def _heading_key(text: str) -> str:
    return " ".join(unescape(text).split()).rstrip(" .").casefold()


def _structural(text: str) -> bool:
    """A Part title or a numbered section heading (one number), as a table of contents lists them."""
    if PART_TITLE_RE.match(text):
        return True
    match = NUMBERED_RE.match(text)
    return match is not None and "." not in number_of(match["num"])


def contents_lines(lines: list[str]) -> set[int]:
    """Indexes of the lines of a table of contents: a Part title or a section heading followed by a
    page number. Such a line counts when its page number follows dot leaders or a tab, when the
    heading without the number comes again later in the text, or when it stands in a block of such
    lines; a «Содержание» / «Оглавление» line just before the block belongs to it. After dot leaders
    a numbered paragraph (``101.1. … 5``) is a line of contents too."""
    candidates: dict[int, bool] = {}  # index -> sure by itself
    keys_after: dict[str, int] = {}  # heading key -> its last index
    for index, raw in enumerate(lines):
        if _structural(raw):
            keys_after[_heading_key(raw)] = index
    for index, raw in enumerate(lines):
        match = PAGE_SUFFIX_RE.match(raw)
        if not match:
            continue
        leader = match["leader"]
        dotted = bool(leader.strip(" \t"))  # dot leaders: a numbered paragraph too («101.1. … 5»)
        if not (_structural(match["head"]) or (dotted and NUMBERED_RE.match(match["head"]))):
            continue
        sure = bool(leader.strip(" ")) or keys_after.get(_heading_key(match["head"]), -1) > index
        candidates[index] = sure
    found = {i for i, sure in candidates.items() if sure}
    # a heading that a line of contents points to is the text's own, even if it ends with a number
    targets: dict[str, int] = {}
    for index in sorted(found):
        match = PAGE_SUFFIX_RE.match(lines[index])
        assert match is not None
        targets.setdefault(_heading_key(match["head"]), index)
    for index in list(candidates):
        if targets.get(_heading_key(lines[index]), index) < index:
            del candidates[index]
            found.discard(index)
    texts = [i for i, raw in enumerate(lines) if raw.strip() and not GAP_LINE_RE.match(raw)]
    for position, index in enumerate(texts):  # blocks: a candidate next to another line of contents
        if index in candidates and index not in found:
            neighbours = texts[max(position - 1, 0) : position + 2]
            if any(n != index and n in candidates for n in neighbours):
                found.add(index)
    for index in sorted(found):
        before = [i for i in texts if i < index]
        if before and before[-1] not in found and CONTENTS_TITLE_RE.match(lines[before[-1]].strip()):
            found.add(before[-1])
    return found


def classify(source: str, text: str, contents: bool = False) -> list[SourceLine]:
    """Classify every line of one source text (``contents``: find a table of contents, whose lines
    get the kind ``contents``, instead of taking its headings for the text's own)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    result: list[SourceLine] = []
    glossary = False
    toc = contents_lines(lines) if contents else set()
    for number, raw in enumerate(lines, 1):
        if number - 1 in toc:
            result.append(SourceLine(source, number, raw, "contents", body=raw))
        elif GAP_LINE_RE.match(raw):
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
            kind = "numbered" if "." in number_of(printed) else "heading"
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
