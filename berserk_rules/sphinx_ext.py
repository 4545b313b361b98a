"""Sphinx extension that publishes the rule corpus, the scenarios and their latest results.

Directives for the corpus format (see ``notes/contract.md``): ``part``, ``rule``, ``variant``,
``gap``, ``term``, ``interpretation``. Rule text is rendered literally, one source line per line.

Cross references:

* ``{rule}`401.7``` — a rule (anchor ``rule-401.7``; rules are objects of the standard domain, so
  they resolve across pages, appear in the general index and in search);
* ``{termin}`авангард-х``` — a glossary term by its slug (anchor ``term-авангард-х``); terms are
  also registered as Sphinx glossary terms, so ``{term}`Авангард Х``` works by the printed name;
* ``{interpretation}`I-3``` — an entry of the register of interpretations.

Scenarios come from :mod:`berserk_rules.features`, statuses from the results file (config value
``berserk_results``). Results are loaded on ``builder-inited`` and placed on the pages on
``doctree-resolved``; pages that show scenarios are re-read when the results file, a feature file,
a step module or a corpus file changes. Generated pages (one per feature file and the scenario
index) are written on ``builder-inited`` into ``<srcdir>/_generated/``.

Other directives used by the site: ``berserk-feature`` (one feature file), ``berserk-coverage``,
``berserk-steps`` (the step dictionary) and ``berserk-run`` (summary of the latest run).
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import os
import re
import string
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from berserk_rules.coverage import STATUS_NAMES as STATUS_LABELS
from berserk_rules.errors import UserError
from berserk_rules.phrase_catalogue import PhraseCatalogueDirective

logger = logging.getLogger(__name__)

GENERATED = "_generated"
GLOSSARY_PART = 7
TOKEN_RE = re.compile(r"\s+|[\w-]+|[^\w\s]")
STATUS_ORDER = ("failed", "error", "xpass", "xfail", "skipped", "passed", "not run")
KIND_NAMES = {"given": "Дано", "when": "Когда", "then": "Тогда"}


def status_class(status: str) -> str:
    return "berserk-status-" + status.replace(" ", "-")


# --------------------------------------------------------------------------------------------
# Nodes


class section_marker(nodes.Element):
    """Placeholder turned into a section by :class:`SectionMarkers` (attrs: title, level)."""


class variant_data(nodes.Element):
    """One source variant inside ``rule``/``part`` (attrs: source, line, printed, lines)."""


class scenario_list(nodes.General, nodes.Element):
    """Replaced on doctree-resolved by the scenarios of a rule/term/interpretation."""


class scenario_status(nodes.Inline, nodes.Element):
    """Replaced on doctree-resolved by the status badge of one scenario (attr: scenario)."""


class scenario_messages(nodes.General, nodes.Element):
    """Replaced on doctree-resolved by the failure messages of some scenarios (attr: scenarios)."""


class scenario_replay(nodes.General, nodes.Element):
    """Replaced on doctree-resolved by the failed step, the starting board and the log (attr: scenarios)."""


class run_note(nodes.General, nodes.Element):
    """Replaced on doctree-resolved by «Последний прогон: движок …» (the time comes from berserk.js)."""


class coverage_table(nodes.General, nodes.Element):
    """Replaced on doctree-resolved by the coverage report."""


class run_summary(nodes.General, nodes.Element):
    """Replaced on doctree-resolved by the summary of the latest run."""


PLACEHOLDERS = (
    section_marker,
    variant_data,
    scenario_list,
    scenario_status,
    scenario_messages,
    scenario_replay,
    run_note,
)
RESOLVED_LATE = (
    scenario_list,
    scenario_status,
    scenario_messages,
    scenario_replay,
    run_note,
    coverage_table,
    run_summary,
)


def _skip(self: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode


# --------------------------------------------------------------------------------------------
# Small rendering helpers


def badge(text: str, *classes: str, hint: str | None = None) -> nodes.inline:
    node = nodes.inline(text, text, classes=["berserk-badge", *classes])
    if hint:
        node["classes"].append("berserk-has-hint")
    return node


def source_badge(source: str, line: int | None, printed: str | None = None) -> nodes.inline:
    where = f"{source}, строка {line}" if line else source
    node = nodes.inline("", "", classes=["berserk-source"])
    node += nodes.inline("источник ", "источник ", classes=["berserk-source-label"])
    node += nodes.literal(where, where)
    if printed:
        node += nodes.Text(" · номер в источнике ")
        node += nodes.literal(printed, printed)
    return node


def editorial_note(note: str, node_class: type[nodes.TextElement] = nodes.paragraph) -> nodes.TextElement:
    """«Примечание редакции: …» as a paragraph (or, inside a line of badges, an inline)."""
    return node_class(
        "",
        "",
        nodes.strong("Примечание редакции: ", "Примечание редакции: "),
        nodes.Text(note),
        classes=["berserk-note"],
    )


def variants_differ(variants: Sequence[dict[str, Any]]) -> bool:
    """True when the sources give different texts."""
    return len({tuple(v["lines"]) for v in variants}) > 1


Link = Callable[[str], list[nodes.Node]]


def text_lines(
    lines: Sequence[str],
    lead: str | None = None,
    space: bool = True,
    other: Sequence[str] | None = None,
    link: Link | None = None,
) -> nodes.line_block:
    """Body lines exactly as printed: one line per source line, ПРИМЕР lines marked as examples.

    With ``other`` (the text of another variant), words that differ from it are highlighted.
    ``link`` turns a piece of text into nodes whose text is the same piece (links inside the text).
    """
    block = nodes.line_block(classes=["berserk-text"])
    segments = diff_segments(lines, other) if other is not None else [[(text, False)] for text in lines]
    for index, text in enumerate(lines):
        line = nodes.line("", classes=["berserk-example"] if text.startswith("ПРИМЕР") else [])
        if index == 0 and lead:
            line += nodes.strong(lead, lead, classes=["berserk-printed"])
            if space:
                line += nodes.Text(" ")
        for piece, changed in segments[index]:
            inner = link(piece) if link is not None else [nodes.Text(piece)]
            if changed:
                line += nodes.inline("", "", *inner, classes=["berserk-diff"])
            else:
                line.extend(inner)
        block += line
    if not lines and lead:
        block += nodes.line("", "", nodes.strong(lead, lead, classes=["berserk-printed"]))
    return block


def diff_segments(lines: Sequence[str], other: Sequence[str]) -> list[list[tuple[str, bool]]]:
    """Split each line into (text, differs) pieces: words absent from ``other`` at that place."""

    def tokens(text_lines: Sequence[str]) -> list[str]:
        out: list[str] = []
        for index, line in enumerate(text_lines):
            if index:
                out.append("\n")
            out.extend(TOKEN_RE.findall(line))
        return out

    mine, theirs = tokens(lines), tokens(other)
    flags = [True] * len(mine)
    matcher = difflib.SequenceMatcher(a=theirs, b=mine, autojunk=False)
    for block in matcher.get_matching_blocks():
        for index in range(block.b, block.b + block.size):
            flags[index] = False
    result: list[list[tuple[str, bool]]] = [[]]
    for token, changed in zip(mine, flags, strict=True):
        if token == "\n":
            result.append([])
            continue
        changed = changed and not token.isspace()
        pieces = result[-1]
        if pieces and pieces[-1][1] == changed:
            pieces[-1] = (pieces[-1][0] + token, changed)
        elif pieces and token.isspace():
            pieces[-1] = (pieces[-1][0] + token, pieces[-1][1])
        else:
            pieces.append((token, changed))
    while len(result) < len(lines):
        result.append([])
    return result


def xref(reftype: str, target: str, text: str, docname: str, source: Any = None) -> addnodes.pending_xref:
    ref = addnodes.pending_xref(
        "",
        nodes.literal(text, text, classes=["xref", "std", f"std-{reftype}"]),
        refdomain="std",
        reftype=reftype,
        reftarget=target,
        refexplicit=True,
        refwarn=True,
        refdoc=docname,
    )
    if source is not None:
        ref.source, ref.line = source
    return ref


def tag_node(
    tag: str, docname: str, source: Any = None, known: Callable[[str, str], bool] | None = None
) -> nodes.Node:
    """A scenario tag; rule/term/interpretation tags link to their entry (when ``known`` has it)."""
    for prefix, reftype in (("rule-", "rule"), ("term-", "termin"), ("interpretation-", "interpretation")):
        if tag.startswith(prefix) and len(tag) > len(prefix):
            if known is not None and not known(reftype, tag[len(prefix) :]):
                return missing_node("@" + tag)
            return xref(reftype, tag[len(prefix) :], "@" + tag, docname, source)
    return nodes.literal("@" + tag, "@" + tag, classes=["berserk-tag"])


def missing_node(text: str) -> nodes.Node:
    """A reference to an entry that this corpus (an edition) does not have: shown, not linked."""
    node = nodes.literal(text, text, classes=["berserk-tag", "berserk-missing"])
    node["classes"].append("berserk-not-in-edition")
    return node


def entry_known(config: Any, srcdir: str | Path) -> Callable[[str, str], bool]:
    """``known(kind, id)``: does this edition's corpus have the rule / term / interpretation?

    Only an edition's site (``berserk_corpus`` set) shows references it lacks as text; on the
    project's own site every reference must resolve (a broken one fails the build under -W).
    """
    loaded = site_corpus(config, srcdir) if config.berserk_corpus else None

    def known(kind: str, ident: str) -> bool:
        if loaded is None:
            return True
        corpus, linker = loaded
        if kind == "rule":
            return ident in linker.rule_ids
        if kind == "termin":
            return ident in linker.term_slugs
        return ident in corpus.interpretations

    return known


def escape_markdown(text: str) -> str:
    return "".join("\\" + ch if ch in string.punctuation else ch for ch in text)


# --------------------------------------------------------------------------------------------
# Section markers → sections (so rule headings are page sections and appear in the sidebar)


class SectionMarkers(SphinxTransform):
    """Nest the content following each :class:`section_marker` into a section of its level."""

    default_priority = 210

    def apply(self, **kwargs: Any) -> None:
        parents = [
            node
            for node in self.document.findall(nodes.Element)
            if any(isinstance(child, section_marker) for child in node.children)
        ]
        for parent in parents:
            children = list(parent.children)
            parent.children = []
            stack: list[tuple[int, nodes.Element]] = [(-1, parent)]
            for child in children:
                if isinstance(child, section_marker):
                    level = int(child["level"])
                    while stack[-1][0] >= level:
                        stack.pop()
                    section = nodes.section("", ids=list(child["ids"]), classes=list(child["classes"]))
                    section.source, section.line = child.source, child.line
                    title = nodes.title(child["title"], child["title"])
                    title.source, title.line = child.source, child.line
                    section += title
                    section.extend(list(child.children))
                    stack[-1][1].append(section)
                    stack.append((level, section))
                else:
                    stack[-1][1].append(child)


# --------------------------------------------------------------------------------------------
# Corpus directives


class BerserkDirective(SphinxDirective):
    def location(self) -> tuple[str, int]:
        source, line = self.get_source_info()
        return source, line or 0

    def note_berserk(self) -> None:
        env = self.env
        docs: set[str] = getattr(env, "berserk_docs", set())
        docs.add(env.docname)
        env.berserk_docs = docs  # type: ignore[attr-defined]

    def variants(self) -> list[dict[str, Any]]:
        """The variants of a ``rule``/``part``: nested ``{variant}`` blocks or the options + body."""
        if any(line.lstrip().startswith(":::") for line in self.content):
            holder = nodes.container()
            self.state.nested_parse(self.content, self.content_offset, holder)
            found = [dict(node.attributes) for node in holder.findall(variant_data)]
            stray = [child for child in holder.children if not isinstance(child, variant_data)]
            if stray or not found:
                logger.warning(
                    "внутри {%s} допускаются только блоки {variant}", self.name, location=self.get_location()
                )
            return found
        return [self.own_variant()]

    def own_variant(self) -> dict[str, Any]:
        """The variant given by this directive's own options and body."""
        if "source" not in self.options:
            logger.warning("{%s} без опции :source:", self.name, location=self.get_location())
        return {
            "source": self.options.get("source", ""),
            "line": self.options.get("line"),
            "printed": self.options.get("printed"),
            "nospace": "nospace" in self.options,
            "lines": list(self.content),
        }

    def note_entry(self, objtype: str, anchor_prefix: str) -> tuple[str, str]:
        """Register the entry named by the argument as a ``std`` object: (its id, its anchor)."""
        self.note_berserk()
        ident = self.arguments[0].strip()
        node_id = f"{anchor_prefix}-{ident}"
        std = self.env.domains.standard_domain
        std.note_object(objtype, ident, node_id, location=self.get_location())
        return ident, node_id


class VariantDirective(BerserkDirective):
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "source": directives.unchanged_required,
        "line": directives.nonnegative_int,
        "printed": directives.unchanged,
        "nospace": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        node = variant_data(**self.own_variant())
        self.set_source_info(node)
        return [node]


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
            box += nodes.paragraph("", "", source_badge(variant["source"], variant["line"]))
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
        sources += source_badge(variant["source"], variant["line"], printed)
    box += sources
    out.append(box)
    return out


_SCENARIOS: dict[tuple[Any, ...], list[Any]] = {}
_PARSED: dict[tuple[Any, ...], Any] = {}


def cached_scenarios(root: Path) -> list[Any]:
    """:func:`~berserk_rules.features.load_scenarios`, parsed once per process until a feature file
    changes (the site needs them on builder-inited, in every feature page and in the summary)."""
    from berserk_rules.features import load_scenarios

    folder = root / "features"
    files = sorted(folder.rglob("*.feature")) if folder.is_dir() else []
    key = (str(root), *((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files))
    if key not in _SCENARIOS:
        scenarios = load_scenarios(root)  # a bad file raises UserError: nothing is cached
        _SCENARIOS.clear()
        _SCENARIOS[key] = scenarios
    return _SCENARIOS[key]


def parsed_feature(path: Path, root: Path) -> Any:
    """:func:`~berserk_rules.features.parse_feature`, once per process until the file changes."""
    from berserk_rules.features import parse_feature

    stat = path.stat()
    key = (str(path), str(root), stat.st_mtime_ns, stat.st_size)
    if key not in _PARSED:
        _PARSED[key] = parse_feature(path, root)
    return _PARSED[key]


def scenario_index(config: Any, srcdir: str | Path) -> list[Any]:
    """Every scenario of the project; empty when a feature file is bad (the build warns elsewhere)."""
    try:
        return cached_scenarios(project_root(config, srcdir))
    except UserError:
        return []


_LINKERS: dict[int, Any] = {}


def site_corpus(config: Any, srcdir: str | Path) -> tuple[Any, Any] | None:
    """(corpus, :class:`~berserk_rules.site_text.Linker`) of this build, None without a corpus.

    The linker is built once per loaded corpus (:func:`~berserk_rules.corpus.load_corpus` caches
    the corpus until a file of it changes).
    """
    from berserk_rules.corpus import load_corpus
    from berserk_rules.site_text import Linker

    try:
        corpus = load_corpus(corpus_root(config, srcdir))
    except UserError as exc:
        logger.warning("корпус не загружен, ссылки в тексте не строятся: %s", exc)
        return None
    if id(corpus) not in _LINKERS:
        _LINKERS.clear()
        _LINKERS[id(corpus)] = (corpus, Linker.build(corpus.entries))
    return _LINKERS[id(corpus)]


def site_linker(config: Any, srcdir: str | Path) -> Any:
    """The :class:`~berserk_rules.site_text.Linker` of this build's corpus (None without a corpus)."""
    loaded = site_corpus(config, srcdir)
    return loaded[1] if loaded else None


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
                        refdomain="std",
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


class RuleDirective(BerserkDirective):
    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "heading": directives.flag,
        "source": directives.unchanged,
        "line": directives.nonnegative_int,
        "printed": directives.unchanged,
        "inferred": directives.flag,
        "nospace": directives.flag,
        "note": directives.unchanged,
        "untestable": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        variants = self.variants()
        rule_id, node_id = self.note_entry("rule", "rule")
        inferred = "inferred" in self.options
        note = self.options.get("note")
        entries: list[tuple[str, str, str, str, str | None]] = [
            ("pair", f"{rule_id}; правило", node_id, "", None)
        ]
        meta = nodes.paragraph(classes=["berserk-rule-meta"])
        if inferred:
            meta += badge("номер восстановлен редакцией", "berserk-inferred")
        if note:
            meta += editorial_note(note, nodes.inline)

        if "heading" in self.options:
            title_text = " ".join(line.strip() for v in variants[:1] for line in v["lines"]).strip()
            title = f"{rule_id}. {title_text}" if title_text else rule_id
            entries.append(("single", title, node_id, "main", None))
            marker = section_marker(
                title=title, level=rule_id.count("."), ids=[node_id], classes=["berserk-heading"]
            )
            marker.source, marker.line = self.location()
            marker += addnodes.index(entries=entries)
            info = nodes.container(classes=["berserk-heading-info"])
            if meta.children:
                info += meta
            for variant in variants:
                para = nodes.paragraph(classes=["berserk-heading-variant"])
                para += source_badge(variant["source"], variant["line"])
                printed = (variant.get("printed") or "") + ("" if variant.get("nospace") else " ")
                para += nodes.Text(" «" + (printed + " ".join(variant["lines"])).strip() + "»")
                info += para
            marker += info
            return [marker]

        box = nodes.container(ids=[node_id], classes=["berserk-rule"])
        linker = site_linker(self.config, self.env.srcdir)
        if linker is not None:  # numbers printed by a source in its own numbering land here too
            box["ids"].extend(
                f"rule-{alias}" for alias, target in linker.aliases.items() if target == rule_id
            )
        box.source, box.line = self.location()
        head = nodes.paragraph(classes=["berserk-rule-head"])
        head += nodes.reference(rule_id, rule_id, refid=node_id, classes=["berserk-rule-number"])
        if inferred:
            head += badge("номер восстановлен редакцией", "berserk-inferred")
        else:
            head += badge("номер из источника", "berserk-official")
        if variants_differ(variants):
            head += badge("редакции расходятся", "berserk-differ-badge")
        untestable = self.options.get("untestable")
        if untestable:
            head += badge("не проверяется движком", "berserk-untestable")
        box += addnodes.index(entries=entries)
        box += head
        if note:
            box += editorial_note(note)
        box.extend(variants_block(variants, linking=make_linking(self, rule_id, terms=True)))
        box += scenario_list(kind="rule", target=rule_id, untestable=untestable or "")
        return [box]


class PartDirective(BerserkDirective):
    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "source": directives.unchanged,
        "line": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        variants = self.variants()
        box = nodes.container(ids=[f"part-{self.arguments[0].strip()}"], classes=["berserk-part"])
        box += nodes.paragraph(
            "", "", nodes.strong("Заголовок части в источниках", "Заголовок части в источниках")
        )
        for variant in variants:
            row = nodes.paragraph(classes=["berserk-part-variant"])
            row += nodes.inline("", " ".join(variant["lines"]), classes=["berserk-part-title"])
            row += nodes.Text(" ")
            row += source_badge(variant["source"], variant["line"])
            box += row
        return [box]


class GapDirective(BerserkDirective):
    has_content = False
    option_spec: ClassVar[dict[str, Any]] = {
        "source": directives.unchanged_required,
        "lines": directives.unchanged_required,
    }

    def run(self) -> list[nodes.Node]:
        lines = self.options.get("lines", "").replace("-", "–")
        label = "строка" if "–" not in lines else "строки"
        box = nodes.container(classes=["berserk-gap"])
        box += nodes.paragraph(
            "",
            "",
            nodes.strong("Фрагмент источника утрачен", "Фрагмент источника утрачен"),
            nodes.Text(f" ({label} {lines}). "),
            nodes.Text("При извлечении текста здесь пропала таблица или абзац; правило не восстановлено. "),
            source_badge(self.options.get("source", ""), None),
        )
        return [box]


class TermDirective(BerserkDirective):
    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "name": directives.unchanged_required,
        "source": directives.unchanged,
        "line": directives.nonnegative_int,
        "nospace": directives.flag,
        "note": directives.unchanged,
        "untestable": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        slug, node_id = self.note_entry("termin", "term")
        name = self.options.get("name", slug)
        self.env.domains.standard_domain._note_term(name, node_id, location=self.get_location())
        box = nodes.container(ids=[node_id], classes=["berserk-term"])
        box.source, box.line = self.location()
        box += addnodes.index(entries=[("single", f"{name}; термин", node_id, "main", None)])
        variants = self.variants()
        if variants_differ(variants):
            box += nodes.paragraph(
                "", "", badge("редакции расходятся", "berserk-differ-badge"), classes=["berserk-rule-head"]
            )
        box.extend(variants_block(variants, lead=name + ".", linking=make_linking(self, slug, terms=False)))
        if self.options.get("note"):
            box += editorial_note(self.options["note"])
        box += scenario_list(kind="term", target=slug, untestable=self.options.get("untestable", ""))
        return [box]


class InterpretationDirective(BerserkDirective):
    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "rules": directives.unchanged,
        "title": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        ident, node_id = self.note_entry("interpretation", "interpretation")
        title = self.options.get("title", "")
        marker = section_marker(
            title=f"{ident}. {title}" if title else ident,
            level=0,
            ids=[node_id],
            classes=["berserk-interpretation"],
        )
        marker.source, marker.line = self.location()
        marker += addnodes.index(entries=[("pair", f"{ident}; толкование", node_id, "", None)])
        rules = [r.strip() for r in self.options.get("rules", "").split(",") if r.strip()]
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
# Site data: scenarios and results, loaded once per build


@dataclass
class SiteData:
    root: Path
    results_path: Path
    scenarios: list[Any] = field(default_factory=list)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    run: dict[str, Any] | None = None
    by_kind: dict[str, dict[str, list[Any]]] = field(default_factory=dict)
    fingerprint: str = ""
    view_path: Path | None = None  # the results as the pages show them (no timings)

    def status(self, scenario_id: str) -> str:
        record = self.results.get(scenario_id)
        return str(record.get("status") or "not run") if record else "not run"

    def message(self, scenario_id: str) -> str | None:
        record = self.results.get(scenario_id)
        message = record.get("message") if record else None
        return str(message) if message else None


def site_data(app: Sphinx) -> SiteData:
    data = getattr(app, "berserk_data", None)
    if data is None:  # builder-inited has not run (should not happen)
        data = load_site_data(app)
        app.berserk_data = data  # type: ignore[attr-defined]
    return data


def project_root(config: Any, srcdir: str | Path) -> Path:
    """``berserk_root`` or, by default, the folder above the docs folder."""
    configured = config.berserk_root
    if configured:
        return Path(configured).resolve()
    return Path(srcdir).resolve().parent


def corpus_root(config: Any, srcdir: str | Path) -> Path:
    """The folder whose ``rules/`` is the corpus: ``berserk_corpus`` or, by default, the project root."""
    configured = config.berserk_corpus
    return Path(configured).resolve() if configured else project_root(config, srcdir)


def results_path(app: Sphinx, root: Path) -> Path:
    configured = app.config.berserk_results
    path = Path(configured) if configured else root / "build" / "results.json"
    return path if path.is_absolute() else (root / path)


def watched_files(root: Path) -> list[Path]:
    """Files whose change must re-read the pages that show scenarios, coverage or steps."""
    files: list[Path] = []
    for folder, pattern in (("features", "*.feature"), ("berserk_rules/steps", "*.py"), ("rules", "*.md")):
        base = root / folder
        if base.is_dir():
            files.extend(sorted(base.rglob(pattern)))
    return files


def load_site_data(app: Sphinx) -> SiteData:
    from berserk_rules.features import load_results, load_results_file

    root = project_root(app.config, app.srcdir)
    data = SiteData(root=root, results_path=results_path(app, root))
    try:
        data.scenarios = cached_scenarios(root)
    except UserError as exc:
        logger.warning("сценарии не загружены: %s", exc)
    try:
        data.run = load_results_file(data.results_path)
        data.results = load_results(data.results_path) if data.run is not None else {}
    except UserError as exc:
        logger.warning("результаты не загружены: %s", exc)
    data.view_path = Path(app.doctreedir) / "berserk-view.json"
    write_if_changed(data.view_path, results_view(data))
    by_kind: dict[str, dict[str, list[Any]]] = {"rule": {}, "term": {}, "interpretation": {}}
    for ref in data.scenarios:
        for kind, ids in (("rule", ref.rules), ("term", ref.terms), ("interpretation", ref.interpretations)):
            for ident in ids:
                by_kind[kind].setdefault(ident, []).append(ref)
    data.by_kind = by_kind
    digest = hashlib.sha256()
    for path in [data.view_path, *watched_files(root), *watched_files(corpus_root(app.config, app.srcdir))]:
        try:
            stat = path.stat()
            digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}\n".encode())
        except OSError:
            digest.update(f"{path}:-\n".encode())
    digest.update(
        f"{app.config.berserk_results}|{app.config.berserk_root}|{app.config.berserk_corpus}".encode()
    )
    data.fingerprint = digest.hexdigest()
    return data


VIEW_FIELDS = ("status", "message", "log", "position", "failed_step")
RUN_FIELDS = ("started", "finished", "duration")


def results_view(data: SiteData) -> str:
    """What the pages show of the results, as canonical JSON: statuses, messages, logs, positions.

    Timings (durations, start and end of the run) are left out: a re-run with the same outcome
    gives the same text, so no page is rebuilt. The time of the run reaches the pages through
    ``_static/berserk-run.js`` (see :func:`run_script`).
    """
    import json

    engine = (data.run or {}).get("engine") or {}
    view = {
        "engine": {k: engine.get(k) for k in ("name", "version", "driver")},
        "scenarios": {
            ident: {k: record.get(k) for k in VIEW_FIELDS if record.get(k) is not None}
            for ident, record in sorted(data.results.items())
        },
    }
    return json.dumps(view, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def run_script(data: SiteData) -> str:
    """``berserk-run.js``: the time of the latest run, filled into the pages by ``berserk.js``."""
    import json

    run = {k: (data.run or {}).get(k) for k in RUN_FIELDS}
    if run["finished"]:
        run["finished_text"] = format_time(str(run["finished"]))
    return "window.BERSERK_RUN = " + json.dumps(run, ensure_ascii=False, sort_keys=True) + ";\n"


# --------------------------------------------------------------------------------------------
# Generated pages


def feature_docname(rel: str) -> str:
    """``features/part-4/401-ochered.feature`` -> ``_generated/features/part-4/401-ochered``."""
    return f"{GENERATED}/{rel.removesuffix('.feature')}"


def write_if_changed(path: Path, text: str) -> None:
    """Write atomically, and only when the text changed (an unchanged page keeps its mtime)."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def generate_pages(app: Sphinx, data: SiteData) -> None:
    outdir = Path(app.srcdir) / GENERATED
    wanted: dict[Path, str] = {}
    files = sorted({ref.file for ref in data.scenarios})
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for rel in files:
        try:
            title = parsed_feature(data.root / rel, data.root).document["feature"]["name"]
        except (UserError, KeyError, TypeError):
            title = rel
        docname = feature_docname(rel)
        group = rel.split("/")[1] if rel.count("/") >= 2 else ""
        groups[group].append((docname, title))
        wanted[outdir / (docname.removeprefix(GENERATED + "/") + ".md")] = (
            f"# {escape_markdown(title)}\n\n```{{berserk-feature}} {rel}\n```\n"
        )
    lines = [
        "# Сценарии",
        "",
        "Исполняемые сценарии свода: каждый проверяет одно или несколько правил на эталонном движке.",
        "Статус — по последнему прогону (`berserk-rules check`).",
        "",
        "```{berserk-run}",
        "```",
        "",
        "```{berserk-scenario-index}",
        "```",
        "",
    ]
    if not files:
        lines += ["Сценариев пока нет.", ""]
    for group in sorted(groups):
        caption = group.replace("part-", "Часть ") if group.startswith("part-") else (group or "Прочие")
        lines += ["```{toctree}", f":caption: {caption}", ":maxdepth: 1", ":hidden:", ""]
        lines += [docname.removeprefix(GENERATED + "/") for docname, _ in groups[group]]
        lines += ["```", ""]
    wanted[outdir / "scenarios.md"] = "\n".join(lines)
    for path, text in wanted.items():
        write_if_changed(path, text)
    if outdir.is_dir():
        for path in outdir.rglob("*.md"):
            if path not in wanted:
                path.unlink()


class FeatureDirective(BerserkDirective):
    """Render one feature file: rules, backgrounds, scenarios with steps, tables and statuses."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        rel = self.arguments[0].strip()
        root = project_root(self.config, self.env.srcdir)
        try:
            parsed = parsed_feature(root / rel, root)
        except UserError as exc:
            logger.warning("%s", exc, location=self.get_location())
            return []
        self.rel = rel
        feature = parsed.document.get("feature") or {}
        out: list[nodes.Node] = []
        self.card_anchors: dict[str, str] = {}
        meta = nodes.paragraph(classes=["berserk-feature-meta"])
        meta += nodes.Text("Файл ")
        meta += nodes.literal(rel, rel)
        out.append(meta)
        out.append(run_note())
        out.extend(self.tags(feature.get("tags", []), feature.get("location", {}).get("line", 1)))
        out.extend(self.description(feature.get("description", "")))
        for child in feature.get("children", []):
            out.extend(self.child(child, level=0))
        return out

    def where(self, line: int) -> tuple[str, int]:
        return (str(project_root(self.config, self.env.srcdir) / self.rel), line)

    def tags(self, tags: list[dict[str, Any]], line: int) -> list[nodes.Node]:
        if not tags:
            return []
        para = nodes.paragraph(classes=["berserk-tags"])
        for index, tag in enumerate(tags):
            if index:
                para += nodes.Text(" ")
            name = tag["name"].removeprefix("@")
            where = self.where(tag.get("location", {}).get("line", line))
            para += tag_node(name, self.env.docname, where, entry_known(self.config, self.env.srcdir))
        return [para]

    def description(self, text: str) -> list[nodes.Node]:
        lines = [line.strip() for line in (text or "").splitlines()]
        while lines and not lines[0]:
            lines.pop(0)
        if not lines:
            return []
        block = nodes.line_block(classes=["berserk-description"])
        for line in lines:
            block += nodes.line(line, line)
        return [block]

    def child(self, child: dict[str, Any], level: int) -> list[nodes.Node]:
        if "background" in child:
            return self.background(child["background"])
        if "scenario" in child:
            return self.scenario(child["scenario"], level)
        if "rule" in child:
            rule = child["rule"]
            line = rule["location"]["line"]
            out: list[nodes.Node] = [self.block_marker(rule, level, "block", "berserk-gherkin-rule")]
            out.extend(self.tags(rule.get("tags", []), line))
            out.extend(self.description(rule.get("description", "")))
            for sub in rule.get("children", []):
                out.extend(self.child(sub, level + 1))
            return out
        return []

    def block_marker(self, block: dict[str, Any], level: int, anchor: str, css: str) -> section_marker:
        """The section heading «Keyword: name» of a Gherkin rule or scenario (anchor ``<anchor>-<line>``)."""
        line = block["location"]["line"]
        marker = section_marker(
            title=f"{block['keyword']}: {block['name']}", level=level, ids=[f"{anchor}-{line}"], classes=[css]
        )
        marker.source, marker.line = self.where(line)
        return marker

    @staticmethod
    def block_title(block: dict[str, Any]) -> str:
        """«Keyword: name» of a background or examples block (just «Keyword» when it has no name)."""
        return f"{block['keyword']}: {block.get('name', '')}".rstrip(": ")

    def background(self, background: dict[str, Any]) -> list[nodes.Node]:
        box = nodes.container(classes=["berserk-background"])
        title = self.block_title(background)
        box += nodes.paragraph("", "", nodes.strong(title, title))
        box.extend(self.description(background.get("description", "")))
        box.extend(self.steps(background.get("steps", [])))
        return [box]

    def steps(self, steps: list[dict[str, Any]]) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        block = nodes.container(classes=["berserk-steps"])
        for step in steps:
            line = nodes.paragraph(classes=["berserk-step"])
            keyword = step["keyword"].strip()
            line += nodes.strong(keyword, keyword, classes=["berserk-keyword"])
            line += nodes.Text(" " + step["text"])
            block += line
            if step.get("dataTable"):
                rows = [[cell["value"] for cell in row["cells"]] for row in step["dataTable"]["rows"]]
                block += self.table(rows, header=False, row_ids=self.card_rows(rows))
            if step.get("docString"):
                content = step["docString"]["content"]
                block += message_block(content, "berserk-docstring")
        out.append(block)
        return out

    def card_rows(self, rows: list[list[str]]) -> list[str] | None:
        """Anchors ``card-<name>`` for the rows of a card table («Дано карты:», column «название»)."""
        if not rows or "название" not in rows[0]:
            return None
        column = rows[0].index("название")
        ids = [""]
        for row in rows[1:]:
            name = row[column] if column < len(row) else ""
            anchor = "card-" + (re.sub(r"[\s\"'<>&]+", "-", name.strip().casefold()) or "без-названия")
            while anchor in self.card_anchors.values():
                anchor += "-2"
            if name and name not in self.card_anchors:
                self.card_anchors[name] = anchor
            ids.append(anchor)
        return ids

    def scenario_links(self, scenario: dict[str, Any]) -> list[nodes.Node]:
        """«Проверяет: правило 401.7 …» and «Карты: «Часовой» …» — links from a scenario to its entries."""
        line = scenario["location"]["line"]
        refs = [
            r
            for r in scenario_index(self.config, self.env.srcdir)
            if r.file == self.rel and r.scenario_line == line
        ]
        para = nodes.paragraph(classes=["berserk-scenario-links"])
        seen: list[tuple[str, str]] = []
        for ref in refs:
            for kind, ids in (
                ("rule", ref.rules),
                ("termin", ref.terms),
                ("interpretation", ref.interpretations),
            ):
                seen.extend((kind, ident) for ident in ids if (kind, ident) not in seen)
        names = {"rule": "правило", "termin": "термин", "interpretation": "толкование"}
        known = entry_known(self.config, self.env.srcdir)
        if seen:
            para += nodes.strong("Проверяет: ", "Проверяет: ")
            for index, (kind, ident) in enumerate(seen):
                if index:
                    para += nodes.Text(", ")
                para += nodes.Text(names[kind] + " ")
                if known(kind, ident):
                    para += xref(kind, ident, ident, self.env.docname, self.where(line))
                else:
                    para += missing_node(ident)
                    para += nodes.Text(" (нет в этой редакции)")
        texts: list[str] = []
        for step in scenario.get("steps", []):
            texts.append(step.get("text", ""))
            for row in (step.get("dataTable") or {}).get("rows", []):
                texts.extend(cell["value"] for cell in row["cells"])
        for example in scenario.get("examples") or []:
            for row in [example.get("tableHeader") or {"cells": []}, *(example.get("tableBody") or [])]:
                texts.extend(cell["value"] for cell in row["cells"])
        used = [
            name
            for name in self.card_anchors
            if any(f"«{name}»" in text or text.strip() == name for text in texts)
        ]
        if used:
            if seen:
                para += nodes.Text(". ")
            para += nodes.strong("Карты: ", "Карты: ")
            for index, name in enumerate(used):
                if index:
                    para += nodes.Text(", ")
                label = f"«{name}»"
                para += nodes.reference(
                    label, label, refid=self.card_anchors[name], classes=["berserk-card-link"]
                )
        return [para] if para.children else []

    def table(
        self,
        rows: list[list[str]],
        header: bool,
        row_ids: list[str] | None = None,
        status_ids: list[str] | None = None,
    ) -> nodes.table:
        width = max((len(r) for r in rows), default=1) + (1 if status_ids is not None else 0)
        table = table_node([1] * width)
        table["classes"].append("berserk-datatable")
        group = table[0]

        def make_row(cells: list[nodes.Node], ids: list[str] | None = None) -> nodes.row:
            row = nodes.row(ids=ids or [])
            for cell in cells:
                entry = nodes.entry()
                entry += cell
                row += entry
            return row

        body_rows = rows
        if header and rows:
            head = nodes.thead()
            cells: list[nodes.Node] = [nodes.paragraph(text=value) for value in rows[0]]
            if status_ids is not None:
                cells.append(nodes.paragraph(text="статус"))
            head += make_row(cells)
            group += head
            body_rows = rows[1:]
        body = nodes.tbody()
        for index, values in enumerate(body_rows):
            cells = [nodes.paragraph(text=value) for value in values]
            if status_ids is not None:
                cells.append(nodes.paragraph("", "", scenario_status(scenario=status_ids[index])))
            row_id = row_ids[index] if row_ids else ""
            body += make_row(cells, [row_id] if row_id else None)
        group += body
        return table

    def scenario(self, scenario: dict[str, Any], level: int) -> list[nodes.Node]:
        line = scenario["location"]["line"]
        out: list[nodes.Node] = [self.block_marker(scenario, level, "scenario", "berserk-scenario")]
        examples = scenario.get("examples") or []
        meta = nodes.paragraph(classes=["berserk-scenario-meta"])
        scenario_id = f"{self.rel}:{line}"
        if not examples:
            meta += scenario_status(scenario=scenario_id)
            meta += nodes.Text(" ")
        meta += nodes.literal(scenario_id, scenario_id, classes=["berserk-scenario-id"])
        out.append(meta)
        out.extend(self.scenario_links(scenario))
        out.extend(self.tags(scenario.get("tags", []), line))
        out.extend(self.description(scenario.get("description", "")))
        out.extend(self.steps(scenario.get("steps", [])))
        ids: list[str] = [] if examples else [scenario_id]
        for example in examples:
            header = example.get("tableHeader")
            body = example.get("tableBody") or []
            title = self.block_title(example)
            out.append(nodes.paragraph("", "", nodes.strong(title, title), classes=["berserk-examples"]))
            out.extend(self.tags(example.get("tags", []), example["location"]["line"]))
            if header is None:
                continue
            rows = [[c["value"] for c in header["cells"]]] + [[c["value"] for c in r["cells"]] for r in body]
            row_lines = [r["location"]["line"] for r in body]
            row_ids = [f"{self.rel}:{n}" for n in row_lines]
            ids.extend(row_ids)
            out.append(
                self.table(
                    rows, header=True, row_ids=[f"scenario-{n}" for n in row_lines], status_ids=row_ids
                )
            )
        out.append(scenario_messages(scenarios=ids))
        out.append(scenario_replay(scenarios=ids))
        return out


# --------------------------------------------------------------------------------------------
# Step dictionary


class StepsDirective(BerserkDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        try:
            steps = load_steps()
        except Exception as exc:  # a broken step module must not crash the whole site build
            logger.warning(
                "словарь шагов не построен: %s: %s", type(exc).__name__, exc, location=self.get_location()
            )
            return [nodes.paragraph(text="Словарь шагов не построен: ошибка в модулях шагов.")]
        if steps is None:
            return [nodes.paragraph(text="Определения шагов ещё не написаны: словарь пуст.")]
        root = project_root(self.config, self.env.srcdir)
        out: list[nodes.Node] = []
        counts = Counter(step.kind for step in steps)
        summary = ", ".join(
            f"{KIND_NAMES.get(k, k)} — {counts[k]}" for k in ("given", "when", "then") if counts[k]
        )
        out.append(nodes.paragraph(text=f"Всего шагов: {len(steps)} ({summary})." if steps else "Шагов нет."))
        out.extend(self.parameter_types())
        by_module: dict[str, list[Any]] = defaultdict(list)
        for step in steps:
            by_module[step.module].append(step)
        kind_order = {"given": 0, "when": 1, "then": 2}

        def module_key(module: str) -> tuple[int, str]:
            return (min(kind_order.get(s.kind, 3) for s in by_module[module]), module)

        for module in sorted(by_module, key=module_key):
            module_obj = sys.modules.get(module)
            doc = (getattr(module_obj, "__doc__", None) or "").strip().splitlines()
            first = doc[0].strip() if doc else ""
            title, _, rest = first.partition(":")
            if not rest or len(title) > 40:
                title, rest = module.rsplit(".", 1)[-1], first
            marker = section_marker(
                title=title.strip(), level=0, ids=[f"module-{module}"], classes=["berserk-step-module"]
            )
            out.append(marker)
            path = module_path(module, root)
            para = nodes.paragraph(classes=["berserk-step-module-info"])
            if rest.strip():
                para += nodes.Text(rest.strip().rstrip(".").capitalize() + ". ")
            para += nodes.Text("Модуль ")
            para += nodes.literal(path, path)
            para += nodes.Text(f", шагов: {len(by_module[module])}.")
            out.append(para)
            for step in sorted(by_module[module], key=lambda s: s.line):
                out.append(self.step(step, path))
        return out

    def parameter_types(self) -> list[nodes.Node]:
        """Legend of the parameter types usable in patterns (from the registry's EXTRA_TYPES)."""
        try:
            from berserk_rules.steps.registry import EXTRA_TYPES
        except ImportError:
            return []
        table = table_node([1, 2, 4])
        table["classes"].append("berserk-param-types")
        add_row(table, ["Параметр", "Что подходит (регулярное выражение)", "Описание"], head=True)
        add_row(table, [nodes.literal("{n:d}", "{n:d}"), nodes.literal("[0-9]+", "[0-9]+"), "целое число"])
        for code, func in EXTRA_TYPES.items():
            pattern = str(getattr(func, "pattern", ""))
            doc = (getattr(func, "__doc__", None) or "").strip().splitlines()
            example = "{x:" + code + "}"
            add_row(
                table,
                [nodes.literal(example, example), nodes.literal(pattern, pattern), doc[0] if doc else ""],
            )
        return [
            nodes.paragraph(text="Параметры в шаблонах записываются в фигурных скобках: {имя:тип}."),
            table,
        ]

    def step(self, step: Any, path: str) -> nodes.Node:
        box = nodes.container(ids=[f"step-{step.module}-{step.function}"], classes=["berserk-stepdef"])
        head = nodes.paragraph(classes=["berserk-stepdef-head"])
        kind = KIND_NAMES.get(step.kind, step.kind)
        head += badge(kind, f"berserk-kind-{step.kind}")
        head += nodes.Text(" ")
        head += nodes.literal(step.pattern, step.pattern, classes=["berserk-pattern"])
        if step.table:
            head += nodes.Text(" ")
            head += badge("с таблицей", "berserk-table-flag")
        box += head
        if step.doc:
            for paragraph in step.doc.split("\n\n"):
                box += nodes.paragraph(text=" ".join(paragraph.split()))
        if step.example and "\n" in step.example:
            box += nodes.paragraph(text="Пример:", classes=["berserk-stepdef-example"])
            box += message_block(step.example, "berserk-stepdef-example-block")
        elif step.example:
            box += nodes.paragraph(
                "",
                "",
                nodes.Text("Пример: "),
                nodes.literal(step.example, step.example),
                classes=["berserk-stepdef-example"],
            )
        where = f"{path}:{step.line} ({step.function})"
        box += nodes.paragraph(
            "",
            "",
            nodes.Text("Определение: "),
            nodes.literal(where, where),
            classes=["berserk-stepdef-where"],
        )
        return box


def load_steps() -> list[Any] | None:
    """Every registered step, or None when the step modules do not exist yet."""
    try:
        importlib.import_module("berserk_rules.steps.all")
    except ModuleNotFoundError as exc:
        if exc.name in ("berserk_rules.steps.all",):
            return None
        raise
    from berserk_rules.steps.registry import STEPS

    return list(STEPS)


def module_path(module: str, root: Path) -> str:
    file = getattr(sys.modules.get(module), "__file__", None)
    if not file:
        return module
    try:
        return Path(file).resolve().relative_to(root).as_posix()
    except ValueError:
        return module


# --------------------------------------------------------------------------------------------
# Coverage and run summary (need results: rendered on doctree-resolved)


class scenario_index_table(nodes.General, nodes.Element):
    """Replaced on doctree-resolved by the table of feature files with counts and statuses."""


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


class ScenarioIndexDirective(BerserkDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        return [scenario_index_table()]


def render_scenario_index(app: Sphinx, data: SiteData, docname: str) -> list[nodes.Node]:
    """One row per feature file: its title (link), number of scenarios, worst status and counts."""
    by_file: dict[str, list[Any]] = defaultdict(list)
    for ref in data.scenarios:
        by_file[ref.file].append(ref)
    if not by_file:
        return []
    table = table_node([5, 1, 5])
    table["classes"].append("berserk-scenario-index")
    add_row(table, ["Файл сценариев", "Сценариев", "Статус по последнему прогону"], head=True)
    for rel in sorted(by_file):
        target = feature_docname(rel)
        title = app.env.titles.get(target)
        label = title.astext() if title is not None else rel
        ref = nodes.reference(
            label, label, internal=True, refuri=app.builder.get_relative_uri(docname, target)
        )
        statuses = [data.status(r.id) for r in by_file[rel]]
        worst = next(s for s in STATUS_ORDER if s in statuses)
        cell = nodes.paragraph()
        cell += status_badge(worst)
        cell += nodes.Text(" " + counts_text(statuses))
        add_row(table, [nodes.paragraph("", "", ref), str(len(statuses)), cell])
    return [table]


class CoverageDirective(BerserkDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        return [coverage_table()]


class RunDirective(BerserkDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        return [run_summary()]


def status_badge(status: str) -> nodes.inline:
    return badge(STATUS_LABELS.get(status, status), "berserk-status", status_class(status))


def counts_text(statuses: Iterable[str]) -> str:
    counts = Counter(statuses)
    return ", ".join(f"{STATUS_LABELS[s]} — {counts[s]}" for s in STATUS_ORDER if counts[s])


def format_time(value: str) -> str:
    """``2026-11-29T17:21:17+00:00`` -> ``2026-11-29 17:21 (UTC)``; anything else unchanged."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    zone = f" ({moment.tzname()})" if moment.tzinfo else ""
    return moment.strftime("%Y-%m-%d %H:%M") + zone


def engine_name(data: SiteData) -> str:
    engine = (data.run or {}).get("engine") or {}
    return " ".join(str(engine.get(k)) for k in ("name", "version") if engine.get(k)) or "неизвестен"


def run_line(data: SiteData, lead: str = "Последний прогон") -> nodes.paragraph:
    """«Последний прогон: движок X, завершён <время>.» — the time is filled in by ``berserk.js``
    from ``berserk-run.js``, so that a re-run with the same outcome changes no page."""
    name = engine_name(data)
    para = nodes.paragraph(classes=["berserk-run-line"])
    para += nodes.Text(f"{lead}: движок ")
    para += nodes.literal(name, name)
    para += nodes.inline("", "", classes=["berserk-run-time"])
    para += nodes.Text(".")
    return para


def render_run_summary(data: SiteData) -> list[nodes.Node]:
    box = nodes.container(classes=["berserk-run"])
    statuses = [data.status(ref.id) for ref in data.scenarios]
    if data.run is None:
        box += nodes.paragraph(
            text="Сценарии ещё не запускались: файл результатов не найден. "
            "Выполните «berserk-rules check» или «berserk-rules site»."
        )
    else:
        box += run_line(data)
    para = nodes.paragraph()
    para += nodes.Text(f"Сценариев: {len(statuses)}")
    counts = Counter(statuses)
    for status in STATUS_ORDER:
        if counts[status]:
            para += nodes.Text(" ")
            para += status_badge(status)
            para += nodes.Text(f" {counts[status]}")
    box += para
    return [box]


def render_coverage(app: Sphinx, data: SiteData, fromdocname: str) -> list[nodes.Node]:
    from berserk_rules.corpus import load_corpus
    from berserk_rules.coverage import by_part, compute

    corpus = load_corpus(corpus_root(app.config, app.srcdir))
    items = compute(corpus, data.scenarios, data.results)
    entries = {(e.kind, e.id): e for e in corpus.entries}
    out: list[nodes.Node] = []

    def part_link(part: int) -> nodes.Node:
        docname = part_docname(part)
        title = part_title(app, part)
        if docname not in app.env.all_docs:
            return nodes.Text(title)
        uri = app.builder.get_relative_uri(fromdocname, docname)
        return nodes.reference(title, title, internal=True, refuri=uri)

    summary = table_node([4, 2, 2, 2, 2, 2])
    summary["classes"].append("berserk-coverage-summary")
    add_row(
        summary,
        ["Часть", "Проверяемых", "Со сценариями", "Покрытие", "Всё пройдено", "Не проверяются"],
        head=True,
    )
    totals = [0, 0, 0, 0]
    for kind in ("rule", "term"):
        for part, cov in by_part(items, kind).items():
            totals = [
                totals[0] + cov.testable,
                totals[1] + cov.covered,
                totals[2] + cov.passing,
                totals[3] + cov.untestable,
            ]
            add_row(
                summary,
                [
                    part_link(part),
                    str(cov.testable),
                    str(cov.covered),
                    percent(cov.covered, cov.testable),
                    str(cov.passing),
                    str(cov.untestable),
                ],
            )
    add_row(
        summary,
        [
            "Всего",
            str(totals[0]),
            str(totals[1]),
            percent(totals[1], totals[0]),
            str(totals[2]),
            str(totals[3]),
        ],
    )
    out.append(summary)

    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        if not item["heading"]:
            groups[int(item["part"])].append(item)
    for part in sorted(groups):
        section = nodes.section(ids=[f"coverage-part-{part}"])
        title = part_title(app, part)
        section += nodes.title(title, title)
        table = table_node([1, 5, 4])
        table["classes"].append("berserk-coverage")
        add_row(table, ["Номер" if part != GLOSSARY_PART else "Термин", "Текст", "Сценарии"], head=True)
        for item in groups[part]:
            entry = entries.get((item["kind"], item["id"]))
            if item["kind"] == "term":
                docname, anchor = "glossary", f"term-{item['id']}"
                label = entry.title if entry is not None and entry.title else item["id"]
            else:
                docname, anchor, label = f"rules/part-{part}", f"rule-{item['id']}", item["id"]
            ref = nodes.reference(
                "",
                "",
                internal=True,
                refuri=app.builder.get_relative_uri(fromdocname, docname) + "#" + anchor,
            )
            ref += nodes.literal(label, label)
            text = entry.text.splitlines()[0] if entry is not None and entry.text else ""
            if len(text) > 120:
                text = text[:117].rstrip() + "…"
            statuses = [s["status"] for s in item["scenarios"]]
            cell = nodes.paragraph()
            if statuses:
                worst = next(s for s in STATUS_ORDER if s in statuses)
                cell += status_badge(worst)
                cell += nodes.Text(f" {len(statuses)}: {counts_text(statuses)}")
            elif not item["testable"]:
                cell += badge("не проверяется", "berserk-untestable")
                cell += nodes.Text(" " + str(item.get("reason", "")))
            else:
                cell += badge("нет сценариев", "berserk-uncovered")
            add_row(table, [nodes.paragraph("", "", ref), text, cell])
        section += table
        out.append(section)
    return out


def part_docname(part: int) -> str:
    return "glossary" if part == GLOSSARY_PART else f"rules/part-{part}"


def part_title(app: Sphinx, part: int) -> str:
    title = app.env.titles.get(part_docname(part))
    return title.astext() if title is not None else f"Часть {part}"


def percent(numerator: int, denominator: int) -> str:
    if not denominator:
        return "—"
    value = 100 * numerator / denominator
    return "< 1 %" if 0 < value < 1 else f"{value:.0f} %"


def table_node(widths: Sequence[int]) -> nodes.table:
    table = nodes.table()
    group = nodes.tgroup(cols=len(widths))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    return table


def add_row(table: nodes.table, cells: Sequence[nodes.Node | str], head: bool = False) -> None:
    group = table[0]
    kind = nodes.thead if head else nodes.tbody
    section = next((child for child in group.children if isinstance(child, kind)), None)
    if section is None:
        section = kind()
        group += section
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        if isinstance(cell, str):
            entry += nodes.paragraph(text=cell)
        elif isinstance(cell, nodes.Inline | nodes.Text):
            entry += nodes.paragraph("", "", cell)
        else:
            entry += cell
        row += entry
    section += row


# --------------------------------------------------------------------------------------------
# Events


def on_builder_inited(app: Sphinx) -> None:
    data = load_site_data(app)
    app.berserk_data = data  # type: ignore[attr-defined]
    generate_pages(app, data)


SEARCH_TRANSLATIONS = {
    ", in ": ", на странице ",
    "Search finished, found one page matching the search query.": [
        "Найдена ${resultCount} страница.",
        "Найдено ${resultCount} страницы.",
        "Найдено ${resultCount} страниц.",
        "Найдено ${resultCount} страницы.",
    ],
    "Search finished, found ${resultCount} pages matching the search query.": [
        "Найдена ${resultCount} страница.",
        "Найдено ${resultCount} страницы.",
        "Найдено ${resultCount} страниц.",
        "Найдено ${resultCount} страницы.",
    ],
}


def on_config_inited(app: Sphinx, config: Any) -> None:
    """Fix Sphinx's Russian JavaScript catalogue and resolve ``locale_dirs`` against the conf folder.

    Sphinx's ``ru/sphinx.js`` has empty plural forms for «found N pages» (the line stays blank) and
    translates ``", in "`` without a trailing space («вЧасть 4»). The patched copy is written under
    the doctree folder and put first in ``locale_dirs``; Sphinx looks for ``sphinx.js`` there
    relative to the current folder, so every entry is made absolute.
    """
    import json

    from sphinx import package_dir

    confdir = Path(app.confdir)
    dirs = [str(Path(d) if Path(d).is_absolute() else confdir / d) for d in config.locale_dirs]
    language = config.language or "en"
    original = Path(package_dir, "locale", language, "LC_MESSAGES", "sphinx.js")
    if language == "ru" and original.is_file():
        text = original.read_text(encoding="utf-8")
        catalogue = json.loads(text[text.index("(") + 1 : text.rindex(")")])
        catalogue["messages"].update(SEARCH_TRANSLATIONS)
        target = Path(app.doctreedir) / "berserk-locale"
        write_if_changed(
            target / language / "LC_MESSAGES" / "sphinx.js",
            "Documentation.addTranslations(" + json.dumps(catalogue, ensure_ascii=False, indent=1) + ");\n",
        )
        dirs.insert(0, str(target))
    config.locale_dirs = dirs


def on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """furo writes the sidebar's screen-reader labels in English (``furo/navigation.py``)."""
    tree = context.get("furo_navigation_tree")
    if isinstance(tree, str):
        context["furo_navigation_tree"] = tree.replace(
            'aria-label="Toggle navigation of ', 'aria-label="Раскрыть или свернуть: '
        )


def on_build_finished(app: Sphinx, exception: Exception | None) -> None:
    """Write the scripts that the pages load: the run's time, rule numbers, the entry index."""
    if exception is not None or app.builder.format != "html":
        return
    import json

    from berserk_rules.corpus import load_corpus
    from berserk_rules.site_text import entry_index

    static = Path(app.outdir) / "_static"
    data = site_data(app)
    write_if_changed(static / "berserk-run.js", run_script(data))
    try:
        corpus = load_corpus(corpus_root(app.config, app.srcdir))
    except UserError:
        return
    titles = {part: part_title(app, part) for part in {e.part for e in corpus.entries}}
    # the index depends only on the corpus files and the part titles: skip the stemming when unchanged
    rules_dir = corpus_root(app.config, app.srcdir) / "rules"
    key = json.dumps(
        [sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in rules_dir.glob("*.md")), titles],
        ensure_ascii=False,
    )
    marker = Path(app.doctreedir) / "berserk-entries.key"
    scripts = [static / "berserk-numbers.js", static / "berserk-entries.js"]
    if all(path.is_file() for path in scripts) and marker.is_file() and marker.read_text("utf-8") == key:
        return

    def page(entry: Any) -> str:
        return app.builder.get_target_uri(part_docname(entry.part))

    index = entry_index(corpus.entries, page, titles)
    numbers = json.dumps(index["numbers"], ensure_ascii=False, sort_keys=True)
    write_if_changed(static / "berserk-numbers.js", f"window.BERSERK_NUMBERS = {numbers};\n")
    entries = json.dumps(index["entries"], ensure_ascii=False, separators=(",", ":"))
    write_if_changed(static / "berserk-entries.js", f"window.BERSERK_ENTRIES = {entries};\n")
    write_if_changed(marker, key)


def on_env_get_outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    data = site_data(app)
    previous = getattr(env, "berserk_fingerprint", None)
    env.berserk_fingerprint = data.fingerprint  # type: ignore[attr-defined]
    if previous == data.fingerprint:
        return []
    docs: set[str] = getattr(env, "berserk_docs", set())
    return sorted(d for d in docs if d in env.found_docs and d not in removed)


def on_env_purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, "berserk_docs", set()).discard(docname)


def on_env_merge_info(
    app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
) -> None:
    docs: set[str] = getattr(env, "berserk_docs", set())
    docs.update(getattr(other, "berserk_docs", set()) & set(docnames))
    env.berserk_docs = docs  # type: ignore[attr-defined]


def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    if env.docname in getattr(env, "berserk_docs", set()):
        data = site_data(app)
        env.note_dependency(str(data.view_path))


def on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Replace the placeholders by what the latest run says — found in one walk over the page (a
    walk per kind of placeholder cost a second on a full-length edition), replaced kind by kind; the
    placeholders that a replacement brings are replaced too."""
    data = site_data(app)
    renderers: list[tuple[type[nodes.Element], Any]] = [
        (scenario_list, lambda node: render_scenario_list(app, data, node, docname)),
        (scenario_status, lambda node: status_badge(data.status(node["scenario"]))),
        (scenario_messages, lambda node: render_messages(data, node["scenarios"])),
        (scenario_replay, lambda node: render_replay(app, data, node["scenarios"], docname)),
        (
            run_note,
            lambda node: (
                run_line(data)
                if data.run is not None
                else nodes.paragraph(text="Сценарии ещё не запускались.")
            ),
        ),
        (coverage_table, lambda node: render_coverage(app, data, docname)),
        (scenario_index_table, lambda node: render_scenario_index(app, data, docname)),
        (run_summary, lambda node: render_run_summary(data)),
    ]
    kinds = tuple(kind for kind, _ in renderers)
    found: dict[type, list[nodes.Element]] = {kind: [] for kind in kinds}

    def collect(tree: nodes.Node) -> None:
        for node in tree.findall(lambda n: isinstance(n, kinds)):
            found[type(node)].append(node)

    collect(doctree)
    for kind, render in renderers:
        pending, found[kind] = found[kind], []
        for node in pending:
            top = node
            while top.parent is not None:
                top = top.parent
            if top is not doctree:
                continue  # inside a placeholder replaced before it: gone with it
            new = render(node)
            node.replace_self(new)
            for part in new if isinstance(new, list) else [new]:
                if isinstance(part, nodes.Node):
                    collect(part)


def render_scenario_list(app: Sphinx, data: SiteData, node: scenario_list, docname: str) -> list[nodes.Node]:
    scenarios = data.by_kind.get(node["kind"], {}).get(node["target"], [])
    box = nodes.container(classes=["berserk-scenarios"])
    if not scenarios:
        if node["kind"] not in ("rule", "term"):
            return []
        if node["untestable"]:
            box += nodes.paragraph(
                "",
                "",
                nodes.strong("Не проверяется движком: ", "Не проверяется движком: "),
                nodes.Text(node["untestable"]),
                classes=["berserk-no-scenarios"],
            )
        else:
            box += nodes.paragraph(text="Сценариев пока нет.", classes=["berserk-no-scenarios"])
        return [box]
    statuses = [data.status(ref.id) for ref in scenarios]
    title = f"Сценарии ({len(scenarios)}): {counts_text(statuses)}"
    box += nodes.paragraph("", "", nodes.strong(title, title), classes=["berserk-scenarios-title"])
    items = nodes.bullet_list(classes=["berserk-scenario-list"])
    for ref, status in zip(scenarios, statuses, strict=True):
        item = nodes.list_item(classes=[status_class(status)])
        para = nodes.paragraph()
        para += status_badge(status)
        para += nodes.Text(" ")
        uri = app.builder.get_relative_uri(docname, feature_docname(ref.file)) + f"#scenario-{ref.line}"
        para += nodes.reference(
            ref.name, ref.name, internal=True, refuri=uri, classes=["berserk-scenario-link"]
        )
        para += nodes.Text(" ")
        para += nodes.inline(ref.id, ref.id, classes=["berserk-scenario-id"])
        item += para
        message = data.message(ref.id)
        if message and status in ("failed", "error", "xpass"):
            item += message_block(message)
        items += item
    box += items
    return [box]


def message_block(message: str, css: str = "berserk-message") -> nodes.literal_block:
    """A preformatted block shown as is (no syntax highlighting)."""
    node = nodes.literal_block(message, message, classes=[css])
    node["language"] = "none"
    return node


def render_replay(app: Sphinx, data: SiteData, scenario_ids: list[str], docname: str) -> list[nodes.Node]:
    """For each scenario (or outline row): the failed step, the starting board and the game log."""
    from berserk_rules.site_replay import board, log_account

    linker = site_linker(app.config, app.srcdir)

    def rule_uri(ident: str) -> str | None:
        if linker is None:
            return None
        target = linker.rule_target(ident)
        if target is not None:
            part = part_of_rule(target)
            return app.builder.get_relative_uri(docname, part_docname(part)) + f"#rule-{target}"
        if ident in linker.term_slugs:
            return app.builder.get_relative_uri(docname, "glossary") + f"#term-{ident}"
        return None

    out: list[nodes.Node] = []
    for scenario_id in scenario_ids:
        record = data.results.get(scenario_id) or {}
        step = record.get("failed_step")
        if isinstance(step, dict) and data.status(scenario_id) in ("failed", "error", "xfail", "xpass"):
            words = f"{step.get('keyword', '')} {step.get('text', '')}".strip()
            para = nodes.paragraph(classes=["berserk-failed-step"])
            para += nodes.strong(
                "Шаг, на котором сценарий остановился: ", "Шаг, на котором сценарий остановился: "
            )
            para += nodes.literal(words, words)
            para += nodes.Text(f" (строка {step.get('line', '?')})")
            out.append(para)
        position, log = record.get("position"), record.get("log")
        if not position and not log:
            continue
        label = "Партия сценария" + (f" {scenario_id.rsplit(':', 1)[-1]}" if len(scenario_ids) > 1 else "")
        out.append(
            nodes.raw(
                "",
                f'<details class="berserk-replay"><summary>{label}: позиция и ход игры</summary>',
                format="html",
            )
        )
        if isinstance(position, dict):
            out.append(nodes.paragraph("", "", nodes.strong("Начальная позиция", "Начальная позиция")))
            out.append(board(position))
        if isinstance(log, list) and log:
            out.append(nodes.paragraph("", "", nodes.strong("Журнал партии", "Журнал партии")))
            out.append(log_account(log, rule_uri))
        out.append(nodes.raw("", "</details>", format="html"))
    return out


def part_of_rule(rule_id: str) -> int:
    from berserk_rules.corpus import part_of_id

    return part_of_id(rule_id) or 0


def render_messages(data: SiteData, scenario_ids: list[str]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for scenario_id in scenario_ids:
        message = data.message(scenario_id)
        status = data.status(scenario_id)
        if message and status in ("failed", "error", "xpass", "xfail", "skipped"):
            box = nodes.container(classes=["berserk-result", status_class(status)])
            box += nodes.paragraph(
                "", "", status_badge(status), nodes.Text(" "), nodes.literal(scenario_id, scenario_id)
            )
            box += message_block(message)
            out.append(box)
    return out


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("berserk_results", "", "env", types=[str])
    app.add_config_value("berserk_root", "", "env", types=[str])
    app.add_config_value("berserk_corpus", "", "env", types=[str])

    for node_class in (*PLACEHOLDERS, coverage_table, run_summary, scenario_index_table):
        app.add_node(node_class, html=(_skip, None), text=(_skip, None), latex=(_skip, None))

    app.add_object_type("rule", "rule", objname="правило", indextemplate="pair: %s; правило")
    app.add_directive_to_domain("std", "rule", RuleDirective, override=True)
    app.add_object_type("termin", "termin", objname="термин", indextemplate="single: %s")
    app.add_object_type("interpretation", "interpretation", objname="толкование")
    app.add_directive_to_domain("std", "interpretation", InterpretationDirective, override=True)
    app.add_directive("part", PartDirective)
    app.add_directive("variant", VariantDirective)
    app.add_directive("gap", GapDirective)
    app.add_directive("term", TermDirective)
    app.add_directive("berserk-feature", FeatureDirective)
    app.add_directive("berserk-steps", StepsDirective)
    app.add_directive("berserk-coverage", CoverageDirective)
    app.add_directive("berserk-run", RunDirective)
    app.add_directive("berserk-scenario-index", ScenarioIndexDirective)
    app.add_directive("berserk-changes", ChangesDirective)
    app.add_directive("berserk-phrases", PhraseCatalogueDirective)  # the engine's phrase catalogue
    app.add_transform(SectionMarkers)

    app.connect("builder-inited", on_builder_inited)
    app.connect("env-get-outdated", on_env_get_outdated)
    app.connect("env-purge-doc", on_env_purge_doc)
    app.connect("env-merge-info", on_env_merge_info)
    app.connect("doctree-read", on_doctree_read)
    app.connect("doctree-resolved", on_doctree_resolved)
    app.connect("build-finished", on_build_finished)
    app.connect("html-page-context", on_html_page_context, priority=900)  # after furo's own handler
    app.connect("config-inited", on_config_inited)
    for script in ("berserk-run.js", "berserk-numbers.js", "berserk.js"):
        app.add_js_file(script)
    app.setup_extension("berserk_rules.sphinx_matrix")  # the engines' matrix page and badges (runner)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 3}
