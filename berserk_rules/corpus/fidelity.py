"""Fidelity: the corpus reproduces the source texts exactly, line for line."""

from __future__ import annotations

from pathlib import Path

from berserk_rules.corpus.model import Corpus, Variant
from berserk_rules.corpus.syntax import GAP_LINE_RE
from berserk_rules.rulebook.project import read_utf8


def _source_lines(path: Path) -> list[str]:
    lines = read_utf8(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def check_fidelity(corpus: Corpus, sources_dir: Path) -> list[str]:
    """Compare the corpus with the source texts; return problems (empty list = exact).

    Every non-empty line of every source must be reproduced character for character by exactly
    one corpus place (a variant of a part title, rule or term; ``|`` lines by a ``{gap}``), and
    every corpus line must come from a source line. Blank source lines are not text: a variant's
    following body lines match the following non-blank source lines.
    """
    problems: list[str] = []
    texts = {p.name: _source_lines(p) for p in sorted(Path(sources_dir).glob("*.txt"))}
    claimed: dict[tuple[str, int], str] = {}

    def claim(source: str, line: int, place: str) -> None:
        if (source, line) in claimed:
            problems.append(f"{place}: строка {source}:{line} уже взята ({claimed[(source, line)]})")
        else:
            claimed[(source, line)] = place

    def check_variant(v: Variant, place: str) -> None:
        lines = texts.get(v.source)
        if lines is None:
            problems.append(f"{place}: нет источника {v.source}")
            return
        index = v.line - 1
        for k, body in enumerate(v.lines):
            expected_text = (v.prefix if k == 0 else "") + body
            if k > 0:
                while index < len(lines) and lines[index].strip() == "":
                    index += 1
            if index >= len(lines):
                problems.append(f"{place}: строка {k + 1} тела вне источника {v.source} ({len(lines)} строк)")
                return
            actual = lines[index]
            if actual != expected_text:
                problems.append(
                    f"{place}: не совпадает с {v.source}:{index + 1}: в источнике «{actual}», "
                    f"в корпусе «{expected_text}»"
                )
            elif GAP_LINE_RE.match(actual):
                problems.append(f"{place}: строка {v.source}:{index + 1} — пропуск «|», а не текст")
            claim(v.source, index + 1, place)
            index += 1

    for part, variants in sorted(corpus.parts.items()):
        file, line = corpus.part_lines.get(part, ("?", 0))
        for v in variants:
            check_variant(v, f"{file}:{line}: часть {part}")
    for e in corpus.entries:
        for v in e.variants:
            check_variant(v, f"{e.file}:{e.line}: {e.id}")
    for g in corpus.gaps:
        place = f"{g.file}:{g.line}: {{gap}}"
        lines = texts.get(g.source)
        if lines is None:
            problems.append(f"{place}: нет источника {g.source}")
            continue
        for number in range(g.first, g.last + 1):
            if number > len(lines):
                problems.append(f"{place}: строка {number} вне источника {g.source}")
            elif not GAP_LINE_RE.match(lines[number - 1]):
                problems.append(f"{place}: {g.source}:{number} — не пропуск «|»: «{lines[number - 1]}»")
            else:
                claim(g.source, number, place)
    for name, lines in texts.items():
        for number, text in enumerate(lines, 1):
            if text.strip() and (name, number) not in claimed:
                problems.append(f"{name}:{number}: строка источника не попала в корпус: «{text}»")
    return problems
