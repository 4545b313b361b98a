"""Issue 26, item 2: every interpretation of the register is checked against the published rulings of
our period (the FAQ of 04.05.2023): the register's table «Сверка с опубликованными разъяснениями»
names each one — with the ruling's items, or «нет» — and the ones that changed say so."""

from __future__ import annotations

import re

from berserk_rules.rulebook.project import project_root

REGISTER = project_root() / "rules" / "interpretations.md"
HEADING = "## Сверка с опубликованными разъяснениями той поры"


def table_rows() -> dict[str, str]:
    text = REGISTER.read_text(encoding="utf-8")
    assert HEADING in text, "в реестре нет сверки с разъяснениями 04.05.2023"
    rows: dict[str, str] = {}
    for line in text.split(HEADING, 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("I-"):
            continue
        for part in cells[0].split(","):
            bounds = [int(n) for n in re.findall(r"I-(\d+)", part)]
            numbers = range(bounds[0], bounds[-1] + 1) if "…" in part else bounds
            for n in numbers:
                assert f"I-{n}" not in rows, f"I-{n} дважды в сверке"
                rows[f"I-{n}"] = f"{cells[1]} | {cells[2]}"
    return rows


def registered() -> set[str]:
    return set(re.findall(r"^:::\{interpretation\} (I-\d+)$", REGISTER.read_text(encoding="utf-8"), re.M))


def test_every_interpretation_is_checked_against_the_rulings() -> None:
    rows = table_rows()
    ours = registered()
    named = {i for i in rows if i in ours}
    assert named == ours, f"нет в сверке: {sorted(ours - named)}"
    for ident, row in rows.items():
        if ident in ours:
            assert re.search(r"п\. \d+|^нет", row), f"{ident}: ни пункта разъяснения, ни «нет»: {row}"


def test_the_changed_interpretations_cite_the_ruling_in_their_own_text() -> None:
    rows = table_rows()
    text = REGISTER.read_text(encoding="utf-8")
    for ident in ("I-20", "I-57"):
        assert "изменено" in rows[ident]
        block = text.split(f":::{{interpretation}} {ident}\n", 1)[1].split("\n:::\n", 1)[0]
        assert "04.05.2023" in block and "по букве" in block and "по опубликованному разъяснению" in block
