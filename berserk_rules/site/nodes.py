"""Nodes of the site and the small pieces every page is built of: badges, text lines with the
words that differ, tables, references, the escapes for generated Markdown.
"""

from __future__ import annotations

import difflib
import re
import string
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from berserk_rules.report.coverage import STATUS_NAMES as STATUS_LABELS
from berserk_rules.report.results import count

GENERATED = "_generated"


GLOSSARY_PART = 7


TOKEN_RE = re.compile(r"\s+|[\w-]+|[^\w\s]")


CONTROL_RE = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]+")


STATUS_ORDER = ("failed", "error", "xpass", "xfail", "skipped", "not applicable", "passed", "not run")


KIND_NAMES = {"given": "Дано", "when": "Когда", "then": "Тогда"}


def status_class(status: str) -> str:
    return "berserk-status-" + status.replace(" ", "-")


class section_marker(nodes.Element):
    """Placeholder turned into a section by :class:`SectionMarkers` (attrs: title, level)."""


class resolved_placeholder(nodes.Element):
    """A node the latest run replaces on doctree-resolved (``results.on_doctree_resolved`` finds them
    all in one walk, by this class)."""


class scenario_list(nodes.General, resolved_placeholder):
    """Replaced on doctree-resolved by the scenarios of a rule/term/interpretation."""


class scenario_status(nodes.Inline, resolved_placeholder):
    """Replaced on doctree-resolved by the status badge of one scenario (attr: scenario)."""


class scenario_messages(nodes.General, resolved_placeholder):
    """Replaced on doctree-resolved by the failure messages of some scenarios (attr: scenarios)."""


class scenario_replay(nodes.General, resolved_placeholder):
    """Replaced on doctree-resolved by the failed step, the starting board and the log (attr: scenarios)."""


class run_note(nodes.General, resolved_placeholder):
    """Replaced on doctree-resolved by «Последний прогон: движок …» (the time comes from berserk.js)."""


class coverage_table(nodes.General, resolved_placeholder):
    """Replaced on doctree-resolved by the coverage report."""


class run_summary(nodes.General, resolved_placeholder):
    """Replaced on doctree-resolved by the summary of the latest run."""


PLACEHOLDERS = (
    section_marker,
    scenario_list,
    scenario_status,
    scenario_messages,
    scenario_replay,
    run_note,
)


def _skip(self: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode


def badge(text: str, *classes: str, hint: str | None = None) -> nodes.inline:
    node = nodes.inline(text, text, classes=["berserk-badge", *classes])
    if hint:
        node["classes"].append("berserk-has-hint")
    return node


NUMBER_RE = re.compile(r"\d+(?:\.\d+)*")


HASHED_SOURCE_RE = re.compile(r"(\d+)_[0-9a-f]{8,}\.txt")


def source_label(source: str, labels: dict[str, str] | None = None) -> str:
    """A source as a judge reads it: its label (:func:`source_labels`), else its file name without
    the extractor's hash («000_eeef2598edc2143d.txt» → «фрагмент 000»)."""
    if labels and source in labels:
        return labels[source]
    match = HASHED_SOURCE_RE.fullmatch(source)
    return f"фрагмент {match[1]}" if match else source


def source_labels(corpus: Any) -> dict[str, str]:
    """Each source file's label, from what the corpus takes from it: «фрагмент 003: 119.8–205» —
    the first and last rule it gives, in its own order, and «глоссарий» when it gives terms."""
    rules: dict[str, list[tuple[int, str]]] = {}
    terms: set[str] = set()
    for entry in corpus.entries:
        for variant in entry.variants:
            if entry.kind == "term":
                terms.add(variant.source)
            elif NUMBER_RE.fullmatch(entry.id):  # printed numbers, not editorial ids
                rules.setdefault(variant.source, []).append((variant.line, entry.id))
    labels: dict[str, str] = {}
    for source in sorted(set(rules) | terms):
        spans = []
        ordered = [ident for _, ident in sorted(rules.get(source, []))]
        if ordered:
            spans.append(ordered[0] if len(ordered) == 1 else f"{ordered[0]}–{ordered[-1]}")
        if source in terms:
            spans.append("глоссарий")
        labels[source] = f"{source_label(source)}: {', '.join(spans)}"
    return labels


def source_badge(
    source: str, line: int | None, printed: str | None = None, label: str | None = None
) -> nodes.inline:
    """«источник фрагмент 000: 309.3–501.2.1, строка 5» (``label``, else :func:`source_label`);
    «фрагмент 000» is the file ``rules/sources/000_….txt`` (docs/index.md says so)."""
    shown = label or source_label(source)
    where = f"{shown}, строка {line}" if line else shown
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
            inner = restore_icons(link(piece) if link is not None else [nodes.Text(piece)])
            if changed:
                line += nodes.inline("", "", *inner, classes=["berserk-diff"])
            else:
                line.extend(inner)
        block += line
    if not lines and lead:
        block += nodes.line("", "", nodes.strong(lead, lead, classes=["berserk-printed"]))
    return block


# Places where the extraction lost an icon of the printed text, and the project's notation of that
# icon (interpretation I-7): shown with an editorial mark, the verbatim text itself is unchanged.
LOST_ICONS = (
    ("Обозначается , если", "Обозначается ", ", если", "[Закрыть]"),
    ("(в том числе )", "(в том числе ", ")", "[Закрыть]"),
)
ICON_NOTE = "Значок утрачен при извлечении текста; редакция показывает его обозначением проекта (I-7)"


def restore_icons(pieces: list[nodes.Node]) -> list[nodes.Node]:
    """Text pieces with a lost icon («Обозначается , если …») get the icon's notation back, marked
    as editorial («[Закрыть]» ред.)."""
    out: list[nodes.Node] = []
    for piece in pieces:
        text = piece.astext() if isinstance(piece, nodes.Text) else None
        found = next((icon for icon in LOST_ICONS if text is not None and icon[0] in text), None)
        if found is None or text is None:
            out.append(piece)
            continue
        whole, before, after, notation = found
        head, _, tail = text.partition(whole)
        mark = nodes.inline("", "", classes=["berserk-restored-icon"])
        mark += nodes.Text(notation)
        note = nodes.abbreviation("ред.", "ред.", explanation=ICON_NOTE, classes=["berserk-editorial-mark"])
        mark += nodes.superscript("", "", note)
        out += [nodes.Text(head + before), mark, *restore_icons([nodes.Text(after + tail)])]
    return out


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
        nodes.literal(text, text, classes=["xref", "berserk", f"berserk-{reftype}"]),
        refdomain="berserk",
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


def escape_markdown(text: str) -> str:
    """``text`` as Markdown that shows it as it is: every ASCII punctuation mark escaped (no
    markup, HTML or role can start), line breaks and other control characters made spaces."""
    text = CONTROL_RE.sub(" ", text)
    return "".join("\\" + ch if ch in string.punctuation else ch for ch in text)


def markdown_code(text: str) -> str:
    """``text`` as a Markdown code span, however many backticks it holds (control characters
    made spaces)."""
    text = CONTROL_RE.sub(" ", text)
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    padding = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{padding}{text}{padding}{fence}"


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


class scenario_index_table(nodes.General, resolved_placeholder):
    """Replaced on doctree-resolved by the table of feature files with counts and statuses."""


def status_badge(status: str) -> nodes.inline:
    return badge(STATUS_LABELS.get(status, status), "berserk-status", status_class(status))


def counts_text(statuses: Iterable[str]) -> str:
    counts = count(statuses)
    return ", ".join(f"{STATUS_LABELS[s]} — {counts[s]}" for s in STATUS_ORDER if counts[s])


def format_time(value: str) -> str:
    """``2026-11-29T17:21:17+00:00`` -> ``2026-11-29 17:21 (UTC)``; anything else unchanged."""
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    zone = f" ({moment.tzname()})" if moment.tzinfo else ""
    return moment.strftime("%Y-%m-%d %H:%M") + zone


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


def message_block(message: str, css: str = "berserk-message") -> nodes.literal_block:
    """A preformatted block shown as is (no syntax highlighting)."""
    node = nodes.literal_block(message, message, classes=[css])
    node["language"] = "none"
    return node
