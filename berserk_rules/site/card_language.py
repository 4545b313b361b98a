"""The page of the card language's catalogue: the directive ``{berserk-card-language}`` renders
:func:`berserk_rules.reference.card_language.catalogue` (the constructions of the reader's grammar and
vocabulary, each with an example from the project's card texts) as MyST — a table per part of the
language, each basis a link to its glossary term, rule or interpretation."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sphinx.util.docutils import SphinxDirective

from berserk_rules.reference.card_examples import catalogue, sources
from berserk_rules.reference.card_language import SECTIONS, Construction

ROLES = {"term": "termin", "rule": "rule", "interpretation": "interpretation"}


def basis_markup(basis: tuple[str, ...], titles: dict[str, str] | None = None) -> str:
    """A basis as MyST links: «term:оплата» → {termin}`Оплата <оплата>` (``titles``: the glossary's
    titles of terms by id), «rule:310.2» → правило {rule}`310.2`."""
    if not basis:
        return "—"
    links = []
    for source in basis:
        kind, _, value = source.partition(":")
        if kind == "term" and titles and value in titles:
            links.append(f"{{termin}}`{titles[value]} <{value}>`")
        else:
            said = {"rule": "правило ", "interpretation": "толкование "}.get(kind, "")
            links.append(f"{said}{{{ROLES[kind]}}}`{value}`")
    return ", ".join(links)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _code(text: str) -> str:
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def page_markup(found: list[Construction], titles: dict[str, str] | None = None) -> str:
    """The catalogue as MyST: a summary, then a table per part of the language."""
    shown = sum(1 for c in found if c.example is not None)
    lines = [
        f"Конструкций языка карт: {len(found)}; с примером из текстов карт проекта: {shown}; "
        f"без примера: {len(found) - shown}.",
        "",
    ]
    for key, title, what, _rules in SECTIONS:
        rows = [c for c in found if c.section == key]
        if not rows:
            continue
        lines += [f"## {title}", "", what, ""]
        lines += [
            "| Конструкция | Формы | Канонические слова | Основание | Пример из текстов карт |",
            "|---|---|---|---|---|",
        ]
        for c in rows:
            forms = "; ".join(_code(_cell(f)) for f in c.forms)
            canonical = _code(_cell(c.canonical)) if c.canonical else "—"
            if c.example is None:
                example = "нет примера: ни один текст карты проекта её не использует"
            else:
                example = (
                    f"{_code(_cell(c.example.sentence))} — карта «{_cell(c.example.card)}», "
                    f"`{_cell(c.example.where)}`"
                )
            basis = basis_markup(c.basis, titles)
            lines.append(f"| `{c.name}` | {forms} | {canonical} | {basis} | {example} |")
        lines.append("")
    return "\n".join(lines)


class CardLanguageDirective(SphinxDirective):
    """``{berserk-card-language}``: the catalogue of the card language, from the grammar and vocabulary."""

    has_content = False

    def run(self) -> list[Any]:
        # pymorphy3 announces its dictionaries at INFO, and a Sphinx build shows INFO
        logging.getLogger("pymorphy3").setLevel(logging.WARNING)
        root = Path(self.env.config.berserk_root or Path(self.env.srcdir).parent)
        for path in sources(root):
            self.env.note_dependency(str(path))
        from berserk_rules.corpus import load_corpus

        titles = {term.id: _cell(term.title or term.id) for term in load_corpus(root).terms()}
        return self.parse_text_to_nodes(page_markup(catalogue(root), titles), allow_section_headings=True)
