"""The scenarios on the site: one generated page per feature file (``{berserk-feature}``) and the
scenario index (``{berserk-scenario-index}``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from berserk_rules.errors import UserError
from berserk_rules.site.data import (
    SiteData,
    feature_docname,
    feature_titles,
    parsed_feature,
    project_root,
    site_data,
    write_if_changed,
)
from berserk_rules.site.domain import BerserkDirective
from berserk_rules.site.linking import entry_known
from berserk_rules.site.nodes import (
    GENERATED,
    STATUS_ORDER,
    add_row,
    counts_text,
    escape_markdown,
    message_block,
    missing_node,
    run_note,
    scenario_index_table,
    scenario_messages,
    scenario_replay,
    scenario_status,
    section_marker,
    status_badge,
    table_node,
    tag_node,
    xref,
)

logger = logging.getLogger(__name__)


def generate_pages(app: Sphinx, data: SiteData) -> None:
    outdir = Path(app.srcdir) / GENERATED
    wanted: dict[Path, str] = {}
    files = sorted({ref.file for ref in data.scenarios})
    titles = feature_titles(data.root) if files else {}
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for rel in files:
        title = titles.get(rel, rel)
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


def other_text(env: Any, kind: str, ident: str) -> bool:
    """On an edition's site: is the text of this rule or term not the one the scenarios were written for?"""
    from berserk_rules.site.data import site_data

    return (("term" if kind == "termin" else kind), ident) in site_data(env).foreign


class FeatureDirective(BerserkDirective):
    """Render one feature file: rules, backgrounds, scenarios with steps, tables and statuses."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        self.note_berserk()
        rel = self.arguments[0].strip()
        root = self.root = project_root(self.config, self.env.srcdir)  # once: where() needs it often
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

    def note_scenario(self, scenario_id: str, line: int) -> None:
        """Register a scenario (or an outline's row) as a ``std`` object: ``{scenario}`file:line```."""
        where = nodes.Element()
        where.source, where.line = self.where(line)
        self.domain.note_object("scenario", scenario_id, f"scenario-{line}", location=where)

    def where(self, line: int) -> tuple[str, int]:
        return (str(self.root / self.rel), line)

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
        refs = site_data(self.env).scenarios_at(self.rel, line)
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
                    if other_text(self.env, kind, ident):
                        para += nodes.Text(" (в этой редакции текст другой — сценарий не о нём)")
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
        self.note_scenario(scenario_id, line)
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
            for n, row_id in zip(row_lines, row_ids, strict=True):
                self.note_scenario(row_id, n)
            ids.extend(row_ids)
            out.append(
                self.table(
                    rows, header=True, row_ids=[f"scenario-{n}" for n in row_lines], status_ids=row_ids
                )
            )
        out.append(scenario_messages(scenarios=ids))
        out.append(scenario_replay(scenarios=ids))
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
