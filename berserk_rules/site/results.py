"""The latest run on the pages: placeholders replaced on ``doctree-resolved`` by statuses, messages,
replays, the coverage report (``{berserk-coverage}``) and the run's summary (``{berserk-run}``).
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders import Builder

from berserk_rules.report.results import count
from berserk_rules.site.data import (
    SiteData,
    corpus_root,
    feature_docname,
    part_docname,
    part_of_rule,
    part_title,
    site_data,
)
from berserk_rules.site.domain import BerserkDirective, berserk_domain
from berserk_rules.site.features import render_scenario_index
from berserk_rules.site.linking import site_corpus, site_linker
from berserk_rules.site.nodes import (
    GLOSSARY_PART,
    STATUS_ORDER,
    add_row,
    badge,
    counts_text,
    coverage_table,
    message_block,
    percent,
    resolved_placeholder,
    run_note,
    run_summary,
    scenario_index_table,
    scenario_list,
    scenario_messages,
    scenario_replay,
    scenario_status,
    status_badge,
    status_class,
    table_node,
)


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
    counts = count(statuses)
    for status in STATUS_ORDER:
        if counts[status]:
            para += nodes.Text(" ")
            para += status_badge(status)
            para += nodes.Text(f" {counts[status]}")
    box += para
    if data.foreign_refs:
        from berserk_rules.site.editions import foreign_refs_count

        other = foreign_refs_count(data)
        box += nodes.paragraph(
            text=f"Из них {other} написаны для текста правил, который в этой редакции другой: "
            "у этих правил их результаты не показаны — это не вердикт о тексте редакции.",
            classes=["berserk-foreign-note"],
        )
    return [box]


def render_coverage(app: Sphinx, data: SiteData, fromdocname: str) -> list[nodes.Node]:
    from berserk_rules.corpus import load_corpus
    from berserk_rules.report.coverage import by_part, compute

    corpus = load_corpus(corpus_root(app.config, app.srcdir))
    items = compute(corpus, data.scenarios, data.results)
    for item in items:  # an edition: scenarios written for another text are counted apart
        if (item["kind"], item["id"]) in data.foreign:
            item["foreign"], item["scenarios"] = item["scenarios"], []
    entries = {(e.kind, e.id): e for e in corpus.entries}
    out: list[nodes.Node] = []

    def part_link(part: int) -> nodes.Node:
        docname = part_docname(part)
        title = part_title(app, part)
        if docname not in app.env.all_docs:
            return nodes.Text(title)
        uri = app.builder.get_relative_uri(fromdocname, docname)
        return nodes.reference(title, title, internal=True, refuri=uri)

    edition = bool(app.config.berserk_corpus)
    summary = table_node([4, 2, 2, 2, 2, 2, 2] if edition else [4, 2, 2, 2, 2, 2])
    summary["classes"].append("berserk-coverage-summary")
    head = ["Часть", "Проверяемых", "Со сценариями", "Покрытие", "Всё пройдено", "Не проверяются"]
    add_row(summary, [*head, "Для другого текста"] if edition else head, head=True)
    totals = [0, 0, 0, 0, 0]
    for kind in ("rule", "term"):
        for part, cov in by_part(items, kind).items():
            other = sum(1 for i in items if i["kind"] == kind and int(i["part"]) == part and i.get("foreign"))
            totals = [
                totals[0] + cov.testable,
                totals[1] + cov.covered,
                totals[2] + cov.passing,
                totals[3] + cov.untestable,
                totals[4] + other,
            ]
            row: list[Any] = [
                part_link(part),
                str(cov.testable),
                str(cov.covered),
                percent(cov.covered, cov.testable),
                str(cov.passing),
                str(cov.untestable),
            ]
            add_row(summary, [*row, str(other)] if edition else row)
    total, covered, passing, untestable, other_total = totals
    row = ["Всего", str(total), str(covered), percent(covered, total), str(passing), str(untestable)]
    add_row(summary, [*row, str(other_total)] if edition else row)
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
            if item.get("foreign"):
                cell += badge("для другого текста", "berserk-foreign-badge")
                cell += nodes.Text(f" {len(item['foreign'])}: текст правила здесь другой, вердикта нет")
            elif statuses:
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


def on_doctree_resolved(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Replace the placeholders by what the latest run says — found in one walk over the page (a
    walk per kind of placeholder cost a second on a full-length edition), replaced kind by kind; the
    placeholders that a replacement brings are replaced too."""
    data = site_data(app)
    renderers: list[tuple[type[nodes.Element], Any]] = [
        (scenario_list, lambda node: render_scenario_list(app, data, node, docname)),
        (scenario_status, lambda node: status_badge(data.status(node["scenario"]))),
        (scenario_messages, lambda node: render_messages(data, node["scenarios"])),
        (scenario_replay, lambda node: deferred_replay(app, data, node["scenarios"], docname, doctree)),
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
        for node in tree.findall(resolved_placeholder):  # a class: docutils' fast walk, no call per node
            if isinstance(node, kinds):
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
    foreign = data.foreign_refs.get(node["kind"], {}).get(node["target"])
    if foreign:
        from berserk_rules.site.editions import render_foreign

        return render_foreign(app, data, node["kind"], node["target"], foreign, docname)
    scenarios = data.by_kind.get(node["kind"], {}).get(node["target"], [])
    box = nodes.container(classes=["berserk-scenarios"])
    named = named_interpretations(app, node, scenarios, docname)
    if named is not None:
        box += named
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
    interpretations = relied_interpretations(app, node, scenarios, docname)
    if interpretations is not None:
        box += interpretations
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


def interpretation_key(ident: str) -> tuple[int, str]:
    number = ident.rpartition("-")[2]
    return (int(number), ident) if number.isdigit() else (1 << 30, ident)


def relied_interpretations(
    app: Sphinx, node: scenario_list, scenarios: list[Any], docname: str
) -> nodes.paragraph | None:
    """«Толкования, на которые опираются сценарии: I-1 …, I-2 …» next to a rule or a term: the
    ``@interpretation-I-N`` tags of its scenarios, each linked to its entry in the register (with
    the entry's title), so that a judge sees them without opening every scenario."""
    if node["kind"] not in ("rule", "term"):
        return None
    idents = sorted({ident for ref in scenarios for ident in ref.interpretations}, key=interpretation_key)
    if not idents:
        return None
    return interpretation_links(
        app, docname, idents, "Толкования, на которые опираются сценарии: ", "berserk-rule-interpretations"
    )


def named_interpretations(
    app: Sphinx, node: scenario_list, scenarios: list[Any], docname: str
) -> nodes.paragraph | None:
    """«Толкования реестра об этом правиле: …»: every interpretation whose list of rules names this
    rule or term (issue 26, item 3), beyond those its scenarios are tagged with — a judge reading the
    rule sees every decision of the register that touches it."""
    if node["kind"] not in ("rule", "term"):
        return None
    loaded = site_corpus(app.config, app.srcdir)
    if loaded is None:
        return None
    tagged = {ident for ref in scenarios for ident in ref.interpretations}
    idents = sorted(
        (
            i.id
            for i in loaded[0].interpretations.values()
            if node["target"] in i.rules and i.id not in tagged
        ),
        key=interpretation_key,
    )
    if not idents:
        return None
    what = "это правило" if node["kind"] == "rule" else "этот термин"
    lead = f"Толкования реестра, которые называют {what}: "
    return interpretation_links(app, docname, idents, lead, "berserk-named-interpretations")


def site_objects(app: Sphinx) -> Any:
    """The site's objects (rule, termin, interpretation, scenario) → (docname, anchor), in the site's
    own domain (``berserk_domain``)."""
    return berserk_domain(app.env).objects


def interpretation_links(
    app: Sphinx, docname: str, idents: list[str], lead: str, css: str
) -> nodes.paragraph:
    """A paragraph: ``lead``, then each interpretation linked to its entry in the register."""
    loaded = site_corpus(app.config, app.srcdir)
    register = loaded[0].interpretations if loaded is not None else {}
    objects = site_objects(app)
    para = nodes.paragraph(classes=[css])
    para += nodes.strong(lead, lead)
    for index, ident in enumerate(idents):
        if index:
            para += nodes.Text("; ")
        item = register.get(ident)
        label = f"{ident}. {item.title}" if item is not None and item.title else ident
        target = objects.get(("interpretation", ident))
        if target is None:  # an edition without the register: the tag is shown, not linked
            para += nodes.inline(label, label, classes=["berserk-not-in-edition"])
            continue
        uri = app.builder.get_relative_uri(docname, target[0]) + "#" + target[1]
        para += nodes.reference(
            label, label, internal=True, refuri=uri, classes=["berserk-interpretation-link"]
        )
    return para


def render_replay(
    builder: Builder, data: SiteData, scenario_ids: list[str], docname: str
) -> list[nodes.Node]:
    """For each scenario (or outline row): the failed step, the starting board and the game log.

    Takes the builder, not the application: the page writer (:func:`visit_replay_deferred`) has only
    the builder, and Sphinx 9 deprecates reaching the application through it (``Builder.app``)."""
    from berserk_rules.site.replay import board, log_account

    linker = site_linker(builder.config, builder.srcdir)

    objects = berserk_domain(builder.env).objects
    # each link once per page and build: a page's replays cite the same rules entry after entry
    # (≈ 9,600 calls for ≈ 1,000 links in a build of the project's site)
    uris: dict[tuple[str, str], str | None] = builder.__dict__.setdefault("_berserk_rule_uris", {})

    def rule_uri(ident: str) -> str | None:
        key = (docname, ident)
        if key not in uris:
            uris[key] = _rule_uri(ident)
        return uris[key]

    def _rule_uri(ident: str) -> str | None:
        if ident.startswith("I-"):  # an interpretation of the register (a deciding id, issue 26)
            found = objects.get(("interpretation", ident))
            return builder.get_relative_uri(docname, found[0]) + "#" + found[1] if found else None
        if linker is None:
            return None
        target = linker.rule_target(ident)
        if target is not None:
            part = part_of_rule(target)
            return builder.get_relative_uri(docname, part_docname(part)) + f"#rule-{target}"
        if ident in linker.term_slugs:
            return builder.get_relative_uri(docname, "glossary") + f"#term-{ident}"
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
        if record.get("steps"):  # the game step by step (issue 19): site/replay.py
            out.extend(replay_steps(builder, record, scenario_id, scenario_ids, rule_uri))
            continue
        label = "Партия сценария" + (f" {scenario_id.rsplit(':', 1)[-1]}" if len(scenario_ids) > 1 else "")
        summary = html.escape(f"{label}: позиция и ход игры")
        out.append(
            nodes.raw(
                "",
                f'<details class="berserk-replay"><summary>{summary}</summary>',
                format="html",
            )
        )
        if not (data.run or {}).get("trace"):
            note = (
                "Партия по шагам не записана: сценарии прогнаны без неё — её записывают "
                "«berserk-rules site» и «berserk-rules check --trace»."
            )
            out.append(nodes.paragraph(note, note, classes=["berserk-replay-untraced"]))
        if isinstance(position, dict):
            out.append(nodes.paragraph("", "", nodes.strong("Начальная позиция", "Начальная позиция")))
            out.append(board(position))
        if isinstance(log, list) and log:
            out.append(nodes.paragraph("", "", nodes.strong("Журнал партии", "Журнал партии")))
            out.append(log_account(log, rule_uri))
        out.append(nodes.raw("", "</details>", format="html"))
    return out


def replay_steps(
    builder: Builder, record: dict[str, Any], scenario_id: str, scenario_ids: list[str], rule_uri: Any
) -> list[nodes.Node]:
    """The folded «Партия сценария» with the game step by step (:func:`.replay.stepper_html`)."""
    from berserk_rules.site.replay import replay_block, term_titles

    loaded = site_corpus(builder.config, builder.srcdir)
    titles = term_titles(loaded[0] if loaded is not None else None)
    register = loaded[0].interpretations if loaded is not None else {}

    entries = {e.id: e for e in loaded[0].entries} if loaded is not None else {}

    def label(ident: str) -> tuple[str, str | None, str | None]:
        item = register.get(ident)
        if item is not None:
            return f"толкование {ident}", rule_uri(ident), item.title
        shown = f"термин «{titles[ident]}»" if ident in titles else ident
        return shown, rule_uri(ident), None

    def texts(ident: str) -> str | None:
        """The whole text of a deciding rule, term or interpretation (roles of the register plain)."""
        item = register.get(ident)
        if item is not None:
            plain = re.sub(r"\{(?:rule|termin|interpretation)\}`([^`]*)`", r"\1", item.text)
            return f"{item.title}. " + " ".join(plain.split())
        entry = entries.get(ident)
        return " ".join(entry.text.split()) if entry is not None else None

    block = replay_block(record, scenario_id, len(scenario_ids) > 1, label, texts)
    return [nodes.raw("", block, format="html")]


class replay_deferred(nodes.General, nodes.Element):
    """A scenario's replay, rendered only when its page is written (:func:`visit_replay_deferred`).

    A replay is the largest part of a scenario page (a board and a log: hundreds of nodes per
    scenario), and Sphinx's parallel writer keeps every resolved page of the chunks in flight in its
    main process; built there, the replays of a suite ten times larger took gigabytes. Until written,
    the node holds only the words the search indexes from the replay, as Sphinx's own collector finds
    them, so the search index stays the same — and, when the replay is raw HTML only (a game step by
    step), that HTML as one string (attribute ``html``), which the writer copies as docutils writes
    raw HTML instead of rendering the replay a second time.
    """


def deferred_replay(
    app: Sphinx, data: SiteData, scenario_ids: list[str], docname: str, doctree: nodes.document
) -> list[nodes.Node]:
    rendered = render_replay(app.builder, data, scenario_ids, docname)
    if not rendered:
        return []
    node = replay_deferred(scenarios=list(scenario_ids))
    if all(is_plain_html(part) for part in rendered):
        node["html"] = "".join(part.astext() for part in rendered)
    indexer = getattr(app.builder, "indexer", None)
    if indexer is not None:  # the words as Sphinx's search collects them from the rendered replay
        from sphinx.search import WordCollector

        holder = nodes.container()
        holder.extend(rendered)
        collector = WordCollector(doctree, indexer.lang)
        holder.walk(collector)
        # each word once: the index records a set of pages per word (index_each_word_once)
        node += nodes.Text(" ".join(dict.fromkeys(collector.found_words)))
    return [node]


def is_plain_html(node: nodes.Node) -> bool:
    """Raw HTML that docutils' HTML writer copies as it is (``visit_raw``: no classes, no wrapper)."""
    return isinstance(node, nodes.raw) and "html" in node.get("format", "").split() and not node["classes"]


def visit_replay_deferred(self: Any, node: replay_deferred) -> None:
    """Write the replay into the page: its HTML when kept on resolving (:func:`deferred_replay`),
    else rendered in its place and dropped once written."""
    if "html" in node:
        self.body.append(node["html"])
        raise nodes.SkipNode
    builder = self.builder
    rendered = render_replay(builder, site_data(builder), node["scenarios"], builder.current_docname)
    parent = node.parent
    at = parent.index(node) + 1
    parent[at:at] = rendered  # beside the node, as the nodes were placed before
    try:
        for part in rendered:
            part.walkabout(self)
    finally:
        del parent[at : at + len(rendered)]
    raise nodes.SkipNode


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
