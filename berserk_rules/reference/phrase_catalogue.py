"""The site's phrase catalogue: every form of card text the reference engine reads, with an example
each, generated from the grammar's data (``language/lexicon/frames.toml``, ``keywords.toml`` and the keyword
modules) and the trigger kinds of ``berserk_engine.triggers.KINDS`` (each example is read to find what its
condition waits for) — never written by hand, so it cannot fall behind the engine.

:func:`catalogue` is the data (tested without Sphinx); :class:`PhraseCatalogueDirective` — the
directive ``{berserk-phrases}`` — renders it as one table per category. The Sphinx extension registers
the directive with one line (``app.add_directive("berserk-phrases", PhraseCatalogueDirective)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

# Categories of the grammar, in the order a card's sentence is read, with their titles on the site.
CATEGORIES = (
    ("keyword", "Ключевые слова", "Предложение, которое целиком — ключевое слово."),
    (
        "trigger",
        "Условия срабатывания",
        "Слова до двоеточия срабатывающей способности. Каждое условие «Когда …» читается и как «Каждый раз, "
        "когда …»; после способности можно напечатать ограничение «(Один раз за ход.)», «(2 раза за ход)».",
    ),
    ("cost", "Оплата и ограничения", "Части оплаты до двоеточия активируемой способности, через запятую."),
    (
        "effect",
        "Эффекты",
        "Что делает способность; части соединяются «, затем», «и»; «вы можете» — по желанию.",
    ),
    ("static", "Постоянные способности", "Предложение, которое целиком — постоянная способность."),
    (
        "condition",
        "Условия внутри эффекта",
        "Что проверяет «; если …, …» или «если …, …, иначе …» о результате части перед ним "
        "(«; если оно погибло, …», «если это гном, …»).",
    ),
)
_SLOT = re.compile(r"\{(\w+):(\w+)\}")


@dataclass(frozen=True)
class Section:
    category: str
    title: str
    description: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _form(fmt: str) -> str:
    """A phrase's format with its typed slots in words: «ранить на [число] [цель]»."""
    from berserk_engine.language.abilities import _frames_file

    words: dict[str, str] = _frames_file()["slot_words"]

    def slot(m: re.Match[str]) -> str:
        return f"[{words.get(m.group(2), m.group(2))}]"

    return _SLOT.sub(slot, fmt)


def _phrases(category: str) -> list[Any]:
    """The grammar's forms of a category (frames.toml, keywords.toml and the keyword modules), one row per
    form — a trigger condition's form once per example, the kinds of its examples differing."""
    from berserk_engine.grammar import frame_phrases

    found: dict[tuple[str, str], Any] = {}
    for ph in frame_phrases(category):
        key = (ph.format, ph.example) if category == "trigger" else (ph.format, "")
        found.setdefault(key, ph)
    return list(found.values())


def catalogue() -> list[Section]:
    """Every form of the grammar, by category: (form, example, term) — for a trigger condition also
    what it waits for (its kind)."""
    from berserk_engine.grammar import parse_ability
    from berserk_engine.triggers import KINDS

    sections = []
    for category, title, description in CATEGORIES:
        rows: list[tuple[str, ...]] = []
        for ph in _phrases(category):
            example = ph.example if ph.example.endswith((".", ")")) else ph.example + "."
            term = ph.term or ""
            if category == "trigger":  # what the example's condition waits for, as the grammar reads it
                trigger = parse_ability(example).trigger
                if trigger is None:
                    raise ValueError(f"пример условия срабатывания «{example}» читается без условия")
                kind = KINDS[trigger.event]
                rows.append((_form(ph.format), example, kind.words, term))
            else:
                rows.append((_form(ph.format), example, term))
        header = (
            ("Форма", "Пример", "Условие", "Термин или правило")
            if category == "trigger"
            else (
                "Форма",
                "Пример",
                "Термин или правило",
            )
        )
        sections.append(Section(category, title, description, header, tuple(rows)))
    return sections


def _table(header: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> nodes.table:
    table = nodes.table(classes=["berserk-phrases"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)

    def row(cells: tuple[str, ...], literal: bool) -> nodes.row:
        out = nodes.row()
        for i, text in enumerate(cells):
            entry = nodes.entry()
            para = nodes.paragraph()
            para += nodes.literal(text=text) if literal and i < 2 and text else nodes.Text(text)
            entry += para
            out += entry
        return out

    head = nodes.thead()
    head += row(header, False)
    body = nodes.tbody()
    for cells in rows:
        body += row(cells, True)
    group += head
    group += body
    return table


class PhraseCatalogueDirective(SphinxDirective):
    """``{berserk-phrases}``: the catalogue of the forms of card text, from the engine's registry."""

    has_content = False

    def run(self) -> list[Any]:
        out: list[Any] = []
        total = 0
        for section in catalogue():
            total += len(section.rows)
            rubric = nodes.rubric(text=f"{section.title} — {len(section.rows)}")
            out.append(rubric)
            out.append(nodes.paragraph(text=section.description))
            out.append(_table(section.header, section.rows))
        out.insert(
            0, nodes.paragraph(text=f"Всего форм текста карт, которые читает эталонный движок: {total}.")
        )
        return out
