"""Editions on the site: the pages of an edition's site (each corpus file through
``{berserk-corpus-page}``, the edition's name escaped) and the changes since another edition
(``{berserk-changes}``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

from berserk_rules.errors import UserError
from berserk_rules.site.corpus import corpus_page
from berserk_rules.site.data import corpus_root, entry_known, write_if_changed
from berserk_rules.site.domain import BerserkDirective
from berserk_rules.site.nodes import badge, escape_markdown, markdown_code, text_lines, xref

logger = logging.getLogger(__name__)


class ChangesDirective(BerserkDirective):
    """``{berserk-changes} OLD``: the rules and terms added, removed and changed since the edition
    in folder OLD, with the changed words highlighted (``site --corpus DIR --compare OLD``)."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False

    def run(self) -> list[nodes.Node]:
        from berserk_rules.editions import compare, edition_name, load_edition

        old_dir = Path(self.arguments[0].strip())
        try:
            old = load_edition(old_dir)
            new = load_edition(corpus_root(self.config, self.env.srcdir))
        except UserError as exc:
            logger.warning("сравнение редакций не построено: %s", exc, location=self.get_location())
            return []
        for path in sorted((old_dir / "rules").glob("*.md")):
            self.env.note_dependency(str(path))
        changes = compare(old, new)
        names = {"added": "добавлено", "removed": "удалено", "changed": "изменено"}
        counts = Counter(c.kind for c in changes)
        out: list[nodes.Node] = [
            nodes.paragraph(
                text=f"По сравнению с редакцией «{edition_name(old_dir)}»: "
                + ", ".join(f"{names[k]} — {counts[k]}" for k in names)
                + "."
            )
        ]
        known = entry_known(self.config, self.env.srcdir)
        for change in changes:
            box = nodes.container(classes=["berserk-change", f"berserk-change-{change.kind}"])
            head = nodes.paragraph(classes=["berserk-rule-head"])
            kind = "termin" if (change.kind != "removed" and known("termin", change.id)) else "rule"
            if change.kind != "removed" and known(kind, change.id):
                head += xref(
                    kind, change.id, change.title if kind == "termin" else change.id, self.env.docname
                )
            else:
                head += nodes.literal(change.id, change.id)
            head += badge(names[change.kind], f"berserk-change-badge-{change.kind}")
            box += head
            if change.kind == "changed":
                grid = nodes.container(classes=["berserk-variants", "berserk-variants-2"])
                for label, text, other in (
                    ("было", change.old, change.new),
                    ("стало", change.new, change.old),
                ):
                    column = nodes.container(classes=["berserk-variant"])
                    column += nodes.paragraph("", "", nodes.strong(label, label))
                    column += text_lines(text.split("\n"), other=other.split("\n"))
                    grid += column
                box += grid
            else:
                box += text_lines((change.new or change.old).split("\n"))
            out.append(box)
        return out


def edition_pages(root: Path, corpus: Path, srcdir: Path, compare: Path | None = None) -> Path:
    """Write the source pages of an edition's site into ``srcdir``: one page per corpus file.

    Nothing of the edition folder is read as Markdown: a page is its title (escaped) and the
    ``{berserk-corpus-page}`` directive, which renders the file's entries from the corpus model;
    the edition's name is escaped too. So no text of an edition brings markup onto its site.
    """
    from berserk_rules.editions import edition_name, load_edition

    for folder in (corpus, compare):
        if folder is not None and any(ch in str(folder.resolve()) for ch in "\r\n"):
            raise UserError(f"{folder!r}: в пути к папке редакции перевод строки — переименуйте папку")
    edition = load_edition(corpus)
    name = escape_markdown(edition_name(corpus))
    sources = markdown_code(corpus.name + "/rules/sources/")
    rules = corpus.resolve() / "rules"
    parts = sorted({e.part for e in edition.entries if e.kind == "rule"} | set(edition.parts) - {7})
    wanted: dict[Path, str] = {}

    def page(file: str, part: int) -> str:
        return corpus_page(file, edition.titles.get(part) or f"Часть {part}")

    toc = [f"rules/part-{part}" for part in parts if (rules / f"part-{part}.md").is_file()]
    for item in toc:
        file = item.removeprefix("rules/") + ".md"
        wanted[srcdir / f"{item}.md"] = page(file, int(item.removeprefix("rules/part-")))
    if (rules / "glossary.md").is_file():
        wanted[srcdir / "glossary.md"] = page("glossary.md", 7)
        toc.append("glossary")
    wanted[srcdir / "coverage.md"] = (root / "docs" / "coverage.md").read_text(encoding="utf-8")
    if compare is not None:
        title = f"Изменения по сравнению с редакцией «{escape_markdown(edition_name(compare))}»"
        wanted[srcdir / "changes.md"] = f"# {title}\n\n```{{berserk-changes}} {compare.resolve()}\n```\n"
        toc.append("changes")
    wanted[srcdir / "index.md"] = "\n".join(
        [
            f"# {name} — свод правил",
            "",
            f"Редакция «{name}», импортированная командой `berserk-rules import --edition`. Текст — "
            f"дословно из источников ({sources}). Сценарии проекта привязаны к "
            "правилам по номерам; у правил этой редакции без сценариев это показано.",
            "",
            "```{berserk-run}",
            "```",
            "",
            "```{toctree}",
            ":caption: Правила",
            ":maxdepth: 1",
            "",
            *toc,
            "```",
            "",
            "```{toctree}",
            ":caption: Проверка правил",
            ":maxdepth: 1",
            "",
            "_generated/scenarios",
            "coverage",
            "Предметный указатель <genindex>",
            "```",
            "",
        ]
    )
    for path, text in wanted.items():
        write_if_changed(path, text)
    for path in srcdir.rglob("*.md"):
        if path not in wanted and "_generated" not in path.parts:
            path.unlink()
    return srcdir
