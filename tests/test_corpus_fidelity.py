"""The corpus reproduces the four source texts exactly, character for character (100 %)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from berserk_rules.corpus import load_corpus
from berserk_rules.corpus.fidelity import check_fidelity
from berserk_rules.corpus.syntax import GAP_LINE_RE

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "rules" / "sources"


def copy_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(ROOT / "rules", root / "rules")
    (root / "pyproject.toml").write_text("[project]\nname = 'copy'\n", encoding="utf-8")
    return root


def test_corpus_reproduces_every_source_line_exactly():
    problems = check_fidelity(load_corpus(ROOT), SOURCES)
    assert problems == [], "\n".join(problems)


def test_every_non_empty_source_line_is_claimed_once():
    """Independent count: corpus lines + gap lines == non-empty source lines, per source."""
    corpus = load_corpus(ROOT)
    for path in sorted(SOURCES.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        text_lines = sum(1 for x in lines if x.strip() and not GAP_LINE_RE.match(x))
        gap_lines = sum(1 for x in lines if GAP_LINE_RE.match(x))
        claimed = sum(
            len(v.lines) for e in corpus.entries for v in e.variants if v.source == path.name
        ) + sum(len(v.lines) for vs in corpus.parts.values() for v in vs if v.source == path.name)
        gaps = sum(g.last - g.first + 1 for g in corpus.gaps if g.source == path.name)
        assert (claimed, gaps) == (text_lines, gap_lines), path.name


def test_no_corpus_text_is_invented():
    """Every body line of every variant equals (the end of) some line of its source."""
    corpus = load_corpus(ROOT)
    texts = {p.name: p.read_text(encoding="utf-8").splitlines() for p in SOURCES.glob("*.txt")}
    for entry in corpus.entries:
        for v in entry.variants:
            first = texts[v.source][v.line - 1]
            assert first == v.prefix + v.lines[0], f"{entry.file}:{entry.line}"
            for body in v.lines[1:]:
                assert body in texts[v.source], f"{entry.file}:{entry.line}: {body!r}"


def _body_lines(path: Path) -> list[int]:
    """Numbers of the text lines (not fences, options, titles, blank lines) of a corpus file."""
    result = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip() and not line.startswith((":", "#")):
            result.append(number)
    return result


def test_part_4_has_text_lines_to_mutate():
    assert len(_body_lines(ROOT / "rules" / "part-4.md")) >= 30


@pytest.mark.parametrize("number", _body_lines(ROOT / "rules" / "part-4.md"))
def test_one_changed_character_in_part_4_is_reported(tmp_path, number):
    root = copy_project(tmp_path)
    path = root / "rules" / "part-4.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    original = lines[number - 1]
    # change one character in the middle of the line (е ↔ ё, or any other letter → "ж")
    k = len(original) // 2
    char = original[k]
    replacement = {"е": "ё", "ё": "е"}.get(char, "ж" if char != "ж" else "з")
    lines[number - 1] = original[:k] + replacement + original[k + 1 :]
    path.write_text("\n".join(lines), encoding="utf-8")
    problems = check_fidelity(load_corpus(root), root / "rules" / "sources")
    assert problems, f"правка строки {number} part-4.md не замечена"
    assert any(p.startswith("rules/part-4.md:") and "не совпадает" in p for p in problems), problems


def test_changed_printed_number_is_reported(tmp_path):
    root = copy_project(tmp_path)
    path = root / "rules" / "part-4.md"
    text = path.read_text(encoding="utf-8")
    assert ":printed: 401.7.\n" in text
    path.write_text(text.replace(":printed: 401.7.\n", ":printed: 401.7\n"), encoding="utf-8")
    problems = check_fidelity(load_corpus(root), root / "rules" / "sources")
    assert len(problems) == 1
    assert re.match(r"rules/part-4\.md:\d+: 401\.7: не совпадает с 000_eeef2598edc2143d\.txt:18", problems[0])


def test_removed_rule_leaves_unclaimed_source_line(tmp_path):
    root = copy_project(tmp_path)
    path = root / "rules" / "part-2.md"
    text = path.read_text(encoding="utf-8")
    block = re.search(r":::\{rule\} 204\.1\.1\n.*?\n:::\n\n", text, re.S)
    assert block
    path.write_text(text.replace(block[0], ""), encoding="utf-8")
    problems = check_fidelity(load_corpus(root), root / "rules" / "sources")
    assert problems == [
        "003_9f66f2bfc6d35574.txt:32: строка источника не попала в корпус: «204. 1. 1. Карты в колоде должны "
        "быть сложены ровной стопкой, причём рубашки карт должны быть ориентированы одинаково "
        "(у каждого игрока по-своему).»"
    ]


def test_gap_over_text_and_double_claims_are_reported(tmp_path):
    root = copy_project(tmp_path)
    path = root / "rules" / "part-4.md"
    text = path.read_text(encoding="utf-8")
    assert ":lines: 46-48\n" in text
    path.write_text(text.replace(":lines: 46-48\n", ":lines: 45-48\n"), encoding="utf-8")
    problems = check_fidelity(load_corpus(root), root / "rules" / "sources")
    assert len(problems) == 1
    assert "001_9650f60f6bd2280f.txt:45 — не пропуск «|»" in problems[0]

    # a variant claiming a line already claimed by another entry
    path.write_text(text, encoding="utf-8")
    glossary = root / "rules" / "glossary.md"
    g = glossary.read_text(encoding="utf-8")
    g = g.replace(":line: 93\n", ":line: 95\n", 1)
    glossary.write_text(g, encoding="utf-8")
    problems = check_fidelity(load_corpus(root), root / "rules" / "sources")
    assert any("уже взята" in p for p in problems), problems
    assert any(p.startswith("002_584b7ce10d7b4917.txt:93: строка источника не попала") for p in problems)


def test_extra_continuation_line_is_reported(tmp_path):
    root = copy_project(tmp_path)
    path = root / "rules" / "part-6.md"
    text = path.read_text(encoding="utf-8")
    marker = (
        "3) если кончилось время тура и не удалось за дополнительные ходы ни одному из игроков выиграть.\n"
    )
    assert marker in text
    path.write_text(text.replace(marker, marker + "4) придуманная строка.\n"), encoding="utf-8")
    problems = check_fidelity(load_corpus(root), root / "rules" / "sources")
    assert any("603.1: не совпадает с 002_584b7ce10d7b4917.txt:83" in p for p in problems), problems
