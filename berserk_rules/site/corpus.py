"""The corpus on the site, rendered from the corpus model (:mod:`berserk_rules.corpus`, the one
reading of the corpus format): ``{berserk-corpus-page} part-4.md`` shows every block of a file of
Parts or terms; a page that includes such a file gets that directive instead of the file's text
(``include-read``), so no corpus file — the project's or an edition's — is read as Markdown.
``{interpretation}`` entries (``rules/interpretations.md``) take their title and rules from the
model; their text is MyST, with roles such as ``{rule}``. Rule text is rendered literally, one
source line per line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from berserk_rules.corpus.model import HEADING_UNTESTABLE
from berserk_rules.corpus.syntax import PART_FILE_RE
from berserk_rules.site.data import corpus_root
from berserk_rules.site.domain import BerserkDirective
from berserk_rules.site.linking import site_corpus, site_linker
from berserk_rules.site.nodes import (
    GLOSSARY_PART,
    NUMBER_RE,
    Link,
    badge,
    editorial_note,
    escape_markdown,
    scenario_list,
    section_marker,
    source_badge,
    source_labels,
    text_lines,
    variants_differ,
    xref,
)

logger = logging.getLogger(__name__)


def variants_block(
    variants: list[dict[str, Any]], lead: str | None = None, linking: Callable[[], Link] | None = None
) -> list[nodes.Node]:
    """Render the variants: one text when they agree, every text with a notice when they differ.

    Each text starts with the number as printed (or ``lead``, the term name for glossary terms).
    ``linking`` makes a fresh link function for each variant's text (first uses are per text).
    """

    def text(variant: dict[str, Any], other: Sequence[str] | None = None) -> nodes.line_block:
        link = linking() if linking is not None else None
        return text_lines(
            variant["lines"], lead or variant.get("printed"), not variant.get("nospace"), other, link
        )

    out: list[nodes.Node] = []
    if variants_differ(variants):
        notice = nodes.container(classes=["berserk-differ"])
        notice += nodes.paragraph(
            "",
            "",
            nodes.strong("Редакции расходятся. ", "Редакции расходятся. "),
            nodes.Text(
                f"Источники ({len(variants)}) приводят этот текст по-разному; ниже — каждая редакция, "
                "отличия от соседней редакции выделены."
            ),
        )
        out.append(notice)
        grid = nodes.container(classes=["berserk-variants", f"berserk-variants-{min(len(variants), 3)}"])
        for index, variant in enumerate(variants):
            box = nodes.container(classes=["berserk-variant"])
            box += nodes.paragraph(
                "", "", source_badge(variant["source"], variant["line"], label=variant.get("label"))
            )
            box += text(variant, variants[1 if index == 0 else 0]["lines"])
            grid += box
        out.append(grid)
        return out
    first: dict[str, Any] = variants[0] if variants else {"lines": [], "printed": None}
    box = nodes.container(classes=["berserk-variant", "berserk-variant-single"])
    box += text(first)
    sources = nodes.paragraph(classes=["berserk-sources"])
    if len(variants) > 1:
        sources += nodes.inline(
            "", f"Текст одинаков в {len(variants)} источниках: ", classes=["berserk-agree"]
        )
    for index, variant in enumerate(variants):
        if index:
            sources += nodes.Text(" ")
        printed = variant["printed"] if len(variants) > 1 and variant["printed"] != first["printed"] else None
        sources += source_badge(variant["source"], variant["line"], printed, variant.get("label"))
    box += sources
    out.append(box)
    return out


def make_linking(directive: SphinxDirective, own: str, terms: bool) -> Callable[[], Link] | None:
    """Link factory for the text of entry ``own``: rule numbers, «См. …» and (``terms``) glossary terms."""
    linker = site_linker(directive.config, directive.env.srcdir)
    if linker is None:
        return None
    docname = directive.env.docname

    def factory() -> Link:
        seen: set[str] = set()

        def link(piece: str) -> list[nodes.Node]:
            out: list[nodes.Node] = []
            for text, kind, target in linker.split(piece, own=own, terms=terms, seen=seen):
                if kind is None:
                    out.append(nodes.Text(text))
                    continue
                inner = nodes.inline(text, text, classes=["berserk-ref", f"berserk-ref-{kind}"])
                out.append(
                    addnodes.pending_xref(
                        "",
                        inner,
                        refdomain="berserk",
                        reftype="rule" if kind == "rule" else "termin",
                        reftarget=target,
                        refexplicit=True,
                        refwarn=True,
                        refdoc=docname,
                    )
                )
            return out

        return link

    return factory


def rule_nodes(
    directive: BerserkDirective,
    rule_id: str,
    options: dict[str, Any],
    variants: list[dict[str, Any]],
    location: tuple[str, int],
    where: nodes.Node | None,
) -> list[nodes.Node]:
    """A rule: a section heading (``:heading:``) or a box with its text, badges and scenarios.

    ``location`` is the (file, line) of the rule; ``where`` the node that warnings point at (None:
    the directive itself).
    """
    node_id = directive.note_entry("rule", "rule", rule_id, where)
    inferred = "inferred" in options
    note = options.get("note")
    entries: list[tuple[str, str, str, str, str | None]] = [
        ("pair", f"{rule_id}; правило", node_id, "", None)
    ]
    meta = nodes.paragraph(classes=["berserk-rule-meta"])
    if inferred:
        meta += badge("номер восстановлен редакцией", "berserk-inferred")
    if note:
        meta += editorial_note(note, nodes.inline)

    if "heading" in options:
        title_text = " ".join(line.strip() for v in variants[:1] for line in v["lines"]).strip()
        title = f"{rule_id}. {title_text}" if title_text else rule_id
        entries.append(("single", title, node_id, "main", None))
        marker = section_marker(
            title=title, level=rule_id.count("."), ids=[node_id], classes=["berserk-heading"]
        )
        marker.source, marker.line = location
        marker += addnodes.index(entries=entries)
        info = nodes.container(classes=["berserk-heading-info"])
        if meta.children:
            info += meta
        for variant in variants:
            para = nodes.paragraph(classes=["berserk-heading-variant"])
            para += source_badge(variant["source"], variant["line"], label=variant.get("label"))
            printed = (variant.get("printed") or "") + ("" if variant.get("nospace") else " ")
            para += nodes.Text(" «" + (printed + " ".join(variant["lines"])).strip() + "»")
            info += para
        marker += info
        return [marker]

    box = nodes.container(ids=[node_id], classes=["berserk-rule"])
    linker = site_linker(directive.config, directive.env.srcdir)
    if linker is not None:  # numbers printed by a source in its own numbering land here too
        box["ids"].extend(f"rule-{alias}" for alias, target in linker.aliases.items() if target == rule_id)
    box.source, box.line = location
    head = nodes.paragraph(classes=["berserk-rule-head"])
    head += nodes.reference(rule_id, rule_id, refid=node_id, classes=["berserk-rule-number"])
    if inferred:
        head += badge("номер восстановлен редакцией", "berserk-inferred")
    else:
        head += badge("номер из источника", "berserk-official")
    if variants_differ(variants):
        head += badge("редакции расходятся", "berserk-differ-badge")
    untestable = options.get("untestable")
    if untestable:
        head += badge("не проверяется движком", "berserk-untestable")
    box += addnodes.index(entries=entries)
    box += head
    if note:
        box += editorial_note(note)
    box.extend(variants_block(variants, linking=make_linking(directive, rule_id, terms=True)))
    box += scenario_list(kind="rule", target=rule_id, untestable=untestable or "")
    return [box]


def part_nodes(part: str, variants: list[dict[str, Any]]) -> list[nodes.Node]:
    """The title of a Part as each source prints it."""
    box = nodes.container(ids=[f"part-{part}"], classes=["berserk-part"])
    box += nodes.paragraph(
        "", "", nodes.strong("Заголовок части в источниках", "Заголовок части в источниках")
    )
    for variant in variants:
        row = nodes.paragraph(classes=["berserk-part-variant"])
        row += nodes.inline("", " ".join(variant["lines"]), classes=["berserk-part-title"])
        row += nodes.Text(" ")
        row += source_badge(variant["source"], variant["line"], label=variant.get("label"))
        box += row
    return [box]


def gap_nodes(source: str, lines: str, label: str | None = None) -> list[nodes.Node]:
    """«Фрагмент источника утрачен»: lines ``lines`` (``5`` or ``5-7``) of ``source`` hold only «|»."""
    lines = lines.replace("-", "–")
    label = "строка" if "–" not in lines else "строки"
    box = nodes.container(classes=["berserk-gap"])
    box += nodes.paragraph(
        "",
        "",
        nodes.strong("Фрагмент источника утрачен", "Фрагмент источника утрачен"),
        nodes.Text(f" ({label} {lines}). "),
        nodes.Text("При извлечении текста здесь пропала таблица или абзац; правило не восстановлено. "),
        source_badge(source, None, label=label),
    )
    return [box]


def term_nodes(
    directive: BerserkDirective,
    slug: str,
    options: dict[str, Any],
    variants: list[dict[str, Any]],
    location: tuple[str, int],
    where: nodes.Node | None,
) -> list[nodes.Node]:
    """A glossary term: its name, text, badges and scenarios."""
    node_id = directive.note_entry("termin", "term", slug, where)
    name = options.get("name", slug)
    source, line = location
    directive.domain.note_term(name, node_id, source, line, directive.state.document)
    box = nodes.container(ids=[node_id], classes=["berserk-term"])
    box.source, box.line = location
    box += addnodes.index(entries=[("single", f"{name}; термин", node_id, "main", None)])
    texts = variants
    if variants_differ(texts):
        box += nodes.paragraph(
            "", "", badge("редакции расходятся", "berserk-differ-badge"), classes=["berserk-rule-head"]
        )
    box.extend(variants_block(texts, lead=name + ".", linking=make_linking(directive, slug, terms=False)))
    if options.get("note"):
        box += editorial_note(options["note"])
    box += scenario_list(kind="term", target=slug, untestable=options.get("untestable", ""))
    return [box]


class InterpretationDirective(BerserkDirective):
    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "rules": directives.unchanged,
        "title": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        """The register's entry: its title and rules from the corpus model, its text (MyST, with
        roles such as ``{rule}``) parsed here."""
        ident = self.arguments[0].strip()
        loaded = site_corpus(self.config, self.env.srcdir)
        item = loaded[0].interpretations.get(ident) if loaded is not None else None
        if item is None:
            if loaded is not None:
                logger.warning("толкования %s нет в корпусе", ident, location=self.get_location())
            return []
        node_id = self.note_entry("interpretation", "interpretation", ident)
        title = item.title
        marker = section_marker(
            title=f"{ident}. {title}" if title else ident,
            level=0,
            ids=[node_id],
            classes=["berserk-interpretation"],
        )
        marker.source, marker.line = self.location()
        marker += addnodes.index(entries=[("pair", f"{ident}; толкование", node_id, "", None)])
        rules = list(item.rules)
        if rules:
            para = nodes.paragraph(classes=["berserk-interpretation-rules"])
            para += nodes.strong("Правила: ", "Правила: ")
            for index, rule in enumerate(rules):
                if index:
                    para += nodes.Text(", ")
                # :rules: lists rule numbers and glossary term ids alike
                kind = "rule" if rule[:1].isdigit() else "termin"
                para += xref(kind, rule, rule, self.env.docname, self.location())
            marker += para
        body = nodes.container(classes=["berserk-interpretation-body"])
        self.state.nested_parse(self.content, self.content_offset, body)
        marker += body
        marker += scenario_list(kind="interpretation", target=ident, untestable="")
        return [marker]


# --------------------------------------------------------------------------------------------
# From the corpus model


def entry_options(entry: Any) -> dict[str, Any]:
    """The options of a rule's or a term's block, as the corpus model (:mod:`berserk_rules.corpus`)
    read them (flags map to None, as docutils gives them)."""
    options: dict[str, Any] = {}
    if entry.kind == "term":
        options["name"] = entry.title or entry.id
    if entry.heading:
        options["heading"] = None
    if entry.kind == "rule" and entry.inferred:
        options["inferred"] = None
    if entry.note:
        options["note"] = entry.note
    if entry.untestable and not (entry.heading and entry.untestable == HEADING_UNTESTABLE):
        options["untestable"] = entry.untestable
    return options


def entry_nodes(directive: BerserkDirective, entry: Any, root: Path) -> list[nodes.Node]:
    """A rule or a glossary term of the corpus model, at its file and line under ``root``."""
    location = (str(root / entry.file), entry.line)
    where = nodes.Element()
    where.source, where.line = location
    options = entry_options(entry)
    loaded = site_corpus(directive.config, directive.env.srcdir)
    labels = corpus_labels(loaded[0]) if loaded is not None else {}
    if entry.kind == "term":
        texts = [model_variant(v, entry.title, labels) for v in entry.variants]
        return term_nodes(directive, entry.id, options, texts, location, where)
    texts = [model_variant(v, labels=labels) for v in entry.variants]
    return rule_nodes(directive, entry.id, options, texts, location, where)


_LABELS: dict[int, tuple[Any, dict[str, str]]] = {}


def corpus_labels(corpus: Any) -> dict[str, str]:
    """:func:`~berserk_rules.site.nodes.source_labels` of ``corpus``, computed once per corpus."""
    cached = _LABELS.get(id(corpus))
    if cached is None or cached[0] is not corpus:
        cached = _LABELS[id(corpus)] = (corpus, source_labels(corpus))
    return cached[1]


def part_block(corpus: Any, part: int) -> list[nodes.Node]:
    labels = corpus_labels(corpus)
    return part_nodes(str(part), [model_variant(v, labels=labels) for v in corpus.parts[part]])


def gap_block(corpus: Any, gap: Any) -> list[nodes.Node]:
    lines = str(gap.first) if gap.first == gap.last else f"{gap.first}-{gap.last}"
    return gap_nodes(gap.source, lines, corpus_labels(corpus).get(gap.source))


def model_variant(
    variant: Any, term: str | None = None, labels: dict[str, str] | None = None
) -> dict[str, Any]:
    """A :class:`~berserk_rules.corpus.Variant` as the directives' variant: the options of its block
    (``printed`` without the space after it, ``nospace``) and its lines."""
    if term is not None:
        nospace = variant.prefix == f"{term}."
        printed = None
    else:
        printed = variant.printed.rstrip(" ") if variant.printed else None
        nospace = bool(variant.printed) and not variant.printed.endswith(" ")
    return {
        "source": variant.source,
        "label": (labels or {}).get(variant.source),
        "line": variant.line,
        "printed": printed,
        "nospace": nospace,
        "lines": list(variant.lines),
    }


class CorpusPageDirective(BerserkDirective):
    """``{berserk-corpus-page} part-4.md``: every block of one file of the corpus (its Part title,
    rules, gaps, terms), rendered from the corpus model (:mod:`berserk_rules.corpus`).

    An edition's site (``site --corpus``) shows its files this way: the file itself is never read
    as Markdown, so nothing in an edition folder can bring markup, HTML or a directive of its own
    onto the site — every piece of its text reaches the page as text.
    """

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        loaded = site_corpus(self.config, self.env.srcdir)
        if loaded is None:
            return []
        corpus = loaded[0]
        rel = f"rules/{self.arguments[0].strip()}"
        root = corpus_root(self.config, self.env.srcdir)
        self.env.note_dependency(str(root / rel))
        blocks: list[tuple[int, Callable[[], list[nodes.Node]]]] = []
        for part, (file, line) in corpus.part_lines.items():
            if file == rel:
                blocks.append((line, partial(part_block, corpus, part)))
        for gap in corpus.gaps:
            if gap.file == rel:
                blocks.append((gap.line, partial(gap_block, corpus, gap)))
        for entry in corpus.entries:
            if entry.file == rel:
                blocks.append((entry.line, partial(entry_nodes, self, entry, root)))
        out: list[nodes.Node] = letter_index(corpus, rel)
        for _, render in sorted(blocks, key=lambda block: block[0]):
            out.extend(render())
        return out


LOST_TITLE_NOTE = (
    "Заголовок этой части ни один источник не сохранил; название страницы составлено редакцией "
    "по номерам её правил."
)


def lost_title(corpus: Any, part: int) -> str | None:
    """The page title of a Part whose title no source prints: «Часть 3: правила 303–315» (its
    first and last numbered rules), so the navigation says what the page holds; None otherwise."""
    if part == GLOSSARY_PART or corpus.parts.get(part):
        return None
    ids = [e.id for e in corpus.entries if e.kind == "rule" and e.file == f"rules/part-{part}.md"]
    ids = sorted(
        (ident for ident in ids if NUMBER_RE.fullmatch(ident)),
        key=lambda ident: [int(n) for n in ident.split(".")],
    )
    if not ids:
        return None
    span = f"правило {ids[0]}" if len(ids) == 1 else f"правила {ids[0]}–{ids[-1]}"
    return f"Часть {part}: {span}"


def letter_index(corpus: Any, rel: str) -> list[nodes.Node]:
    """«Буквы: А Б В …» over a file of glossary terms: each letter links to the first term that
    starts with it (terms that start with a sign share one link, «+ –»); nothing for a file of rules
    or with too few terms to need it."""
    firsts: dict[str, str] = {}
    for entry in sorted((e for e in corpus.entries if e.file == rel), key=lambda e: e.line):
        if entry.kind != "term":
            continue
        name = (entry.title or entry.id).strip()
        letter = name[:1].upper() if name[:1].isalpha() else "+ –"
        firsts.setdefault(letter, entry.id)
    if len(firsts) < 3:
        return []
    para = nodes.paragraph(classes=["berserk-letters"])
    para += nodes.strong("Буквы: ", "Буквы: ")
    for index, (letter, slug) in enumerate(firsts.items()):
        if index:
            para += nodes.Text(" ")
        para += nodes.reference(letter, letter, refid=f"term-{slug}", classes=["berserk-letter"])
    return [para]


def corpus_page(file: str, title: str | None, note: str | None = None) -> str:
    """The Markdown of a corpus file's page: its title, escaped, an editorial ``note`` and
    ``{berserk-corpus-page}``."""
    head = f"# {escape_markdown(title)}\n\n" if title else ""
    if note:
        head += f"**Примечание редакции:** {escape_markdown(note)}\n\n"
    return f"{head}```{{berserk-corpus-page}} {file}\n```\n"


def on_include_read(app: Sphinx, relative_path: Path, _parent_docname: str, content: list[str]) -> None:
    """A page that includes a corpus file of Parts or terms (``docs/rules/part-4.md`` includes
    ``rules/part-4.md``) gets that file as the corpus model has it (:func:`corpus_page`): the
    project's own corpus files, like an edition's, are never read as Markdown."""
    path = (Path(app.srcdir) / relative_path).resolve()
    if path.parent != corpus_root(app.config, app.srcdir) / "rules":
        return
    match = PART_FILE_RE.match(path.name)
    part = int(match[1]) if match else GLOSSARY_PART if path.name == "glossary.md" else None
    loaded = site_corpus(app.config, app.srcdir) if part is not None else None
    if part is not None and loaded is not None:
        corpus = loaded[0]
        named = lost_title(corpus, part)
        title = named or corpus.titles.get(part)
        content[0] = corpus_page(path.name, title, LOST_TITLE_NOTE if named else None)
