"""Editions on the site: the pages of an edition's site (each corpus file through
``{berserk-corpus-page}``, the edition's name escaped), the project's scenarios attached only where
the text is the one they were written for (:func:`split_foreign`, :func:`render_foreign`) and the
changes since another edition
(``{berserk-changes}``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util import logging

from berserk_rules.corpus.model import part_of_id
from berserk_rules.errors import UserError
from berserk_rules.site.corpus import corpus_page
from berserk_rules.site.data import corpus_root, write_if_changed
from berserk_rules.site.domain import BerserkDirective
from berserk_rules.site.linking import entry_known
from berserk_rules.site.nodes import badge, escape_markdown, markdown_code, text_lines, xref

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from berserk_rules.site.data import SiteData

logger = logging.getLogger(__name__)


def split_foreign(data: SiteData, root: Path, edition_root: Path) -> None:
    """On an edition's site: take the scenarios of every rule or term whose text here is not the
    project's text (:func:`berserk_rules.rulebook.editions.foreign_entries`) out of ``data.by_kind`` into
    ``data.foreign_refs`` — they were written for the other text and give no verdict on this one."""
    from berserk_rules.corpus import load_corpus
    from berserk_rules.rulebook.editions import foreign_entries

    if root.resolve() == edition_root.resolve():
        return
    try:
        project = load_corpus(root)
        edition = load_corpus(edition_root)  # loaded last: the one the build keeps in the cache
    except UserError as exc:
        logger.warning("сценарии не сверены с текстом редакции: %s", exc)
        return
    data.foreign = foreign_entries(edition, project)
    for kind, ident in data.foreign:
        refs = data.by_kind.get(kind, {}).pop(ident, None)
        if refs:
            data.foreign_refs.setdefault(kind, {})[ident] = refs


def render_foreign(
    app: Sphinx, data: SiteData, kind: str, target: str, refs: list[Any], docname: str
) -> list[nodes.Node]:
    """The scenarios of a rule whose text in this edition is not the one they were written for:
    «написаны для другого текста», the word diff, links to them — and no status, no verdict."""
    from berserk_rules.site.data import feature_docname

    foreign = data.foreign[(kind, target)]
    what = "правила" if kind == "rule" else "термина"
    box = nodes.container(classes=["berserk-scenarios", "berserk-foreign"])
    title = f"Сценарии написаны для другого текста ({len(refs)})"
    box += nodes.paragraph(
        "",
        "",
        badge("для другого текста", "berserk-foreign-badge"),
        nodes.Text(" "),
        nodes.strong(title, title),
        classes=["berserk-scenarios-title"],
    )
    box += nodes.paragraph(
        text=f"Сценарии проекта для {target} написаны для текста {what} в своде проекта, а в этой "
        "редакции текст под этим номером другой. Их результаты — не вердикт об этом тексте, "
        "поэтому здесь не показаны.",
        classes=["berserk-foreign-note"],
    )
    if foreign.moved_to is not None:  # resolved late: a reference with its address, not a pending_xref
        from berserk_rules.site.data import part_docname, part_of_rule

        if kind == "rule":
            page, anchor = part_docname(part_of_rule(foreign.moved_to)), f"rule-{foreign.moved_to}"
        else:
            page, anchor = "glossary", f"term-{foreign.moved_to}"
        moved = nodes.paragraph(classes=["berserk-foreign-moved"])
        moved += nodes.Text("Текст, для которого они написаны, в этой редакции стоит под номером ")
        uri = app.builder.get_relative_uri(docname, page) + "#" + anchor
        moved += nodes.reference(foreign.moved_to, foreign.moved_to, internal=True, refuri=uri)
        moved += nodes.Text(".")
        box += moved
    words = []
    if foreign.removed_words:
        words.append("в своде проекта: «" + " | ".join(foreign.removed_words) + "»")
    if foreign.added_words:
        words.append("в этой редакции: «" + " | ".join(foreign.added_words) + "»")
    if words:
        box += nodes.paragraph(text="Отличия по словам — " + "; ".join(words) + ".")
    grid = nodes.container(classes=["berserk-variants", "berserk-variants-2"])
    for label, text, other in (
        ("Текст, для которого написаны сценарии", foreign.ours, foreign.theirs),
        ("Текст этой редакции", foreign.theirs, foreign.ours),
    ):
        column = nodes.container(classes=["berserk-variant"])
        column += nodes.paragraph("", "", nodes.strong(label, label))
        column += text_lines([text], other=[other])
        grid += column
    box += grid
    items = nodes.bullet_list(classes=["berserk-scenario-list", "berserk-foreign-list"])
    for ref in refs:
        para = nodes.paragraph()
        uri = app.builder.get_relative_uri(docname, feature_docname(ref.file)) + f"#scenario-{ref.line}"
        para += nodes.reference(
            ref.name, ref.name, internal=True, refuri=uri, classes=["berserk-scenario-link"]
        )
        para += nodes.Text(" ")
        para += nodes.inline(ref.id, ref.id, classes=["berserk-scenario-id"])
        items += nodes.list_item("", para)
    box += items
    return [box]


def foreign_refs_count(data: SiteData) -> int:
    """How many distinct scenarios of the project are written for a text this edition changed."""
    return len({ref.id for by_id in data.foreign_refs.values() for refs in by_id.values() for ref in refs})


class ChangesDirective(BerserkDirective):
    """``{berserk-changes} OLD``: what changed since the edition in folder OLD (``site --corpus DIR
    --compare OLD``), compact: the changed rules first, each with an anchor (``#change-401.7``) and
    one text with its removed and added words in place (long unchanged stretches left out); then
    the added and the removed, one line each."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False

    def run(self) -> list[nodes.Node]:
        from berserk_rules.rulebook.editions import compare, edition_name, load_edition, word_diff

        old_dir = Path(self.arguments[0].strip())
        try:
            old = load_edition(old_dir, project=True)
            new = load_edition(corpus_root(self.config, self.env.srcdir))
        except UserError as exc:
            logger.warning("сравнение редакций не построено: %s", exc, location=self.get_location())
            return []
        for path in sorted((old_dir / "rules").glob("*.md")):
            self.env.note_dependency(str(path))
        changes = compare(old, new)
        names = {"changed": "изменено", "added": "добавлено", "removed": "удалено"}
        counts = Counter(c.kind for c in changes)
        out: list[nodes.Node] = [
            nodes.paragraph(
                text=f"По сравнению с редакцией «{edition_name(old_dir)}»: "
                + ", ".join(f"{names[k]} — {counts[k]}" for k in names)
                + "."
            )
        ]
        known = entry_known(self.config, self.env.srcdir)

        def entry_link(change: Any) -> nodes.Node:
            kind = "termin" if known("termin", change.id) else "rule"
            if change.kind != "removed" and known(kind, change.id):
                label = change.title if kind == "termin" else change.id
                return xref(kind, change.id, label, self.env.docname)
            return nodes.literal(change.id, change.id)

        changed = [c for c in changes if c.kind == "changed"]
        if changed:
            out.append(nodes.rubric(text=f"Изменено ({len(changed)})"))
            index = nodes.paragraph(classes=["berserk-changes-index"])
            for position, change in enumerate(changed):
                if position:
                    index += nodes.Text(" · ")
                index += nodes.reference(change.id, change.id, refid=change_anchor(change.id))
            out.append(index)
        for change in changed:
            anchor = change_anchor(change.id)
            box = nodes.container(ids=[anchor], classes=["berserk-change", "berserk-change-changed"])
            head = nodes.paragraph(classes=["berserk-rule-head"])
            head += entry_link(change)
            head += nodes.Text(" ")
            head += nodes.reference("#", "#", refid=anchor, classes=["berserk-change-anchor"])
            box += head
            text = nodes.paragraph(classes=["berserk-change-diff"])
            for kind, words in word_diff(change.old, change.new):
                if kind == "same":
                    text += nodes.Text(words + " ")
                elif kind == "gap":
                    text += nodes.inline("… ", "… ", classes=["berserk-change-gap"])
                else:
                    label = "было: " if kind == "removed" else "стало: "
                    text += nodes.inline(
                        words,
                        "",
                        nodes.inline(label, label, classes=["berserk-change-label"]),
                        nodes.inline(words, words, classes=["berserk-diff", f"berserk-diff-{kind}"]),
                    )
                    text += nodes.Text(" ")
            box += text
            out.append(box)
        for what, title in (("added", "Добавлено"), ("removed", "Удалено")):
            items = [c for c in changes if c.kind == what]
            if not items:
                continue
            out.append(nodes.rubric(text=f"{title} ({len(items)})"))
            by_part: dict[int, list[Any]] = {}
            for change in items:
                by_part.setdefault(part_of_id(change.id) or 7, []).append(change)
            for part, group in sorted(by_part.items()):
                para = nodes.paragraph(classes=["berserk-changes-list", f"berserk-change-{what}"])
                label = "Глоссарий: " if part == 7 else f"Часть {part}: "
                para += nodes.strong(label, label)
                for position, change in enumerate(group):
                    if position:
                        para += nodes.Text(", ")
                    para += compact_link(change, what, known, self.env.docname)
                out.append(para)
        return out


def compact_link(change: Any, what: str, known: Callable[[str, str], bool], docname: str) -> nodes.Node:
    """An added or removed entry in the lists of the changes page: its number (its name for a term;
    a section heading with its title), a link when this edition has it, with the anchor
    ``change-ID``."""
    from sphinx import addnodes

    kind = "termin" if known("termin", change.id) else "rule"
    text = change.id if change.id[:1].isdigit() else (change.title or change.id)  # a term: its name
    if change.id.isdigit() and change.title and change.title != change.id:  # a section heading
        text = f"{change.id} «{shortened(change.title, 60)}»"
    inner = nodes.inline(text, text, ids=[change_anchor(change.id)])
    if what == "removed" or not known(kind, change.id):
        return inner
    return addnodes.pending_xref(
        "",
        inner,
        refdomain="berserk",
        reftype=kind,
        reftarget=change.id,
        refexplicit=True,
        refwarn=True,
        refdoc=docname,
    )


def shortened(text: str, limit: int) -> str:
    from berserk_rules.rulebook.editions import shortened as cut

    return cut(text, limit)


def change_anchor(ident: str) -> str:
    """The anchor of one change on the changes page: ``change-401.7``."""
    return f"change-{ident}"


def edition_pages(root: Path, corpus: Path, srcdir: Path, compare: Path | None = None) -> Path:
    """Write the source pages of an edition's site into ``srcdir``: one page per corpus file.

    Nothing of the edition folder is read as Markdown: a page is its title (escaped) and the
    ``{berserk-corpus-page}`` directive, which renders the file's entries from the corpus model;
    the edition's name is escaped too. So no text of an edition brings markup onto its site.
    """
    from berserk_rules.rulebook.editions import edition_name, load_edition

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
            f"дословно из источников ({sources}). Сценарии проекта привязаны к правилу этой "
            "редакции, только когда его текст — тот, для которого они написаны (текст свода "
            "проекта под тем же номером, без учёта пробелов и типографики). Если текст другой, "
            "у правила сказано «сценарии написаны для другого текста» и показано, какие слова "
            "отличаются, — без вердикта; у правил без сценариев это тоже показано.",
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
