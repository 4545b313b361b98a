"""The site: a Sphinx extension that publishes the rule corpus, the scenarios and their latest results.

``docs/conf.py`` loads it as ``berserk_rules.site``. One module per job (``docs/architecture.md``,
«Сайт»): :mod:`.domain` — the rulebook's object types and the site's state, the base of the
directives; :mod:`.corpus` — the corpus directives, rendered from the corpus model
(:mod:`berserk_rules.corpus`); :mod:`.editions` — an edition's pages and the changes between
editions; :mod:`.features` — the scenario pages; :mod:`.steps` — the step dictionary;
:mod:`.results` — the latest run on the pages; :mod:`.replay` — a scenario's game; :mod:`.search`
— links in the text and the search data; :mod:`.matrix` — the engines' matrix; :mod:`.data` —
what a build reads; :mod:`.nodes` — nodes and small renderers.

Cross references:

* ``{rule}`401.7``` — a rule (anchor ``rule-401.7``; rules are objects of the standard domain, so
  they resolve across pages, appear in the general index and in search);
* ``{termin}`авангард-х``` — a glossary term by its slug (anchor ``term-авангард-х``); terms are
  also registered as Sphinx glossary terms, so ``{term}`Авангард Х``` works by the printed name;
* ``{interpretation}`I-3``` — an entry of the register of interpretations;
* ``{scenario}`features/part-4/401-ochered.feature:12``` — a scenario on its feature page.

Scenarios come from :mod:`berserk_rules.rulebook.features`, statuses from the results file (config value
``berserk_results``). Results are loaded on ``builder-inited`` and placed on the pages on
``doctree-resolved``; pages that show scenarios are re-read when the results file, a feature file,
a step module or a corpus file changes. Generated pages (one per feature file and the scenario
index) are written on ``builder-inited`` into ``<srcdir>/_generated/``.
"""

from __future__ import annotations

import gc
import warnings
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.deprecation import RemovedInSphinx11Warning
from sphinx.environment import BuildEnvironment

from berserk_rules.harness.messages import directive as messages_directive
from berserk_rules.reference.phrase_catalogue import PhraseCatalogueDirective
from berserk_rules.site.card_language import CardLanguageDirective
from berserk_rules.site.corpus import (
    CorpusPageDirective,
    InterpretationDirective,
    on_include_read,
)
from berserk_rules.site.data import corpus_root, keep_site_data, load_site_data, site_data
from berserk_rules.site.domain import (
    OBJECT_TYPES,
    BerserkDomain,
    BerserkRole,
    merge_results_pages,
    outdated,
    purge_results_page,
    shows_results,
)
from berserk_rules.site.editions import ChangesDirective, split_foreign
from berserk_rules.site.features import FeatureDirective, ScenarioIndexDirective, generate_pages
from berserk_rules.site.indexentries import on_html_page_context as complete_index_entries
from berserk_rules.site.linking import forget_build
from berserk_rules.site.navigation import on_html_page_context as titles_only_sidebar
from berserk_rules.site.navigation import place_sidebar, titles_only_tocs
from berserk_rules.site.nodes import (
    PLACEHOLDERS,
    SectionMarkers,
    _skip,
    coverage_table,
    run_summary,
    scenario_index_table,
)
from berserk_rules.site.results import (
    CoverageDirective,
    RunDirective,
    on_doctree_resolved,
    replay_deferred,
    visit_replay_deferred,
)
from berserk_rules.site.search import (
    SearchRussianOnce,
    index_each_word_once,
    on_build_finished,
    on_config_inited,
)
from berserk_rules.site.steps import StepsDirective
from berserk_rules.site.transforms import skip_where_nothing_to_do

# Above this many scenarios the pages are written one by one. Sphinx's parallel writer resolves the
# pages in its main process and hands them to the writing process a chunk at a time, and its task
# queue does not wait for a free writer (ParallelTasks.add_task only queues the chunk): the main
# process resolves every page ahead and holds them all until they are written. Measured again with
# ten times the project's scenarios (6,060, docs/architecture.md «Замеры»): written in parallel, the
# largest process peaked at 1,279 MB and the process tree at 1,812 MB (PSS), 109 s of processor
# time; one by one, 680 MB and 694 MB, 90 s. Below the limit the project's 606 scenarios take about
# 220 MB either way, and the writing process works beside the resolving one.
PARALLEL_WRITE_LIMIT = 2000
# The garbage collector's thresholds while the site builds (see on_builder_inited): a young collection
# after 5,000 new objects (700 by default), the middle one after 20 of those, a full pass after 100
# middle ones
BUILD_GC_THRESHOLD = (5000, 20, 100)


def on_builder_inited(app: Sphinx) -> None:
    forget_build()
    data = load_site_data(app)
    if len(data.scenarios) > PARALLEL_WRITE_LIMIT:
        # the builder's documented switch (read by Sphinx), for this build only; reading stays parallel
        app.builder.allow_parallel = False  # type: ignore[misc]
    if app.config.berserk_corpus:  # an edition's site: scenarios attach only where the text is theirs
        split_foreign(data, data.root, corpus_root(app.config, app.srcdir))
    keep_site_data(app, data)
    generate_pages(app, data)
    keep_compiled_templates(app)
    # What is loaded by now (scenarios, results, corpus) lives for the whole build: kept out of the
    # cyclic garbage collector, whose full passes would otherwise touch, and so copy, all of it in
    # every process Sphinx forks to read and write; given back to it when the build ends.
    gc.freeze()
    # A page's doctree is a cycle (every node points to its parent): once pickled it is garbage only
    # the cyclic collector frees. With Python's thresholds (700, 10, 10) a build ran 12 full passes,
    # each over every doctree piled up since the last and everything else alive (56,000 objects at
    # the first, 720,000 at the last): 35–40 % of the build's processor time. Young doctrees are freed
    # as well by the younger generations when they run less often; the full pass is left for rare
    # (docs/architecture.md «Замеры»: processor time and peak memory before and after). Restored when
    # the build ends.
    app.berserk_gc_threshold = gc.get_threshold()  # type: ignore[attr-defined]
    gc.set_threshold(*BUILD_GC_THRESHOLD)


def keep_compiled_templates(app: Sphinx) -> None:
    """The page templates (furo's and ours) compiled once, not in every build: Jinja's own bytecode
    cache, beside the doctrees (a changed template, Jinja or Python compiles anew: the cache is keyed
    by the template's name, file and source and by the versions)."""
    templates = getattr(app.builder, "templates", None)
    environment = getattr(templates, "environment", None)
    if environment is not None and environment.bytecode_cache is None:
        from jinja2 import FileSystemBytecodeCache

        folder = Path(app.doctreedir) / "berserk-templates"
        folder.mkdir(parents=True, exist_ok=True)
        environment.bytecode_cache = FileSystemBytecodeCache(str(folder))


def on_build_ended(app: Sphinx, exception: Exception | None) -> None:
    """The garbage collector as it was before the build — except in the ``berserk-rules`` program,
    whose process ends after the command (:func:`berserk_rules.cli.program`): given back, the frozen
    objects and the build's garbage (870,000 objects of spent doctrees) made the next allocation run
    a full collection, 1.3 s of processor time at the end of every full build, for a process about to
    end (docs/architecture.md «Замеры»)."""
    from berserk_rules import cli

    if cli.PROCESS_ENDS_AFTER_COMMAND:
        return
    gc.unfreeze()
    gc.set_threshold(*getattr(app, "berserk_gc_threshold", gc.get_threshold()))


# Sphinx writes a toctree's caption as a heading without the level ARIA requires (axe,
# «aria-required-attr», critical); text on the pages is escaped, so only these tags match
CAPTION = '<p class="caption" role="heading">'
LEVELLED_CAPTION = '<p class="caption" role="heading" aria-level="2">'


def on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """furo writes the sidebar's screen-reader labels in English (``furo/navigation.py``), and its
    captions as headings without a level (axe: ``aria-required-attr``). The sidebar made without
    BeautifulSoup (:func:`berserk_rules.site.navigation.navigation_tree`) goes in first."""
    place_sidebar(context)
    tree = context.get("furo_navigation_tree")
    if isinstance(tree, str):
        context["furo_navigation_tree"] = tree.replace(
            'aria-label="Toggle navigation of ', 'aria-label="Раскрыть или свернуть: '
        ).replace(CAPTION, LEVELLED_CAPTION)
    body = context.get("body")
    if isinstance(body, str):  # a toctree in a page (index) has the same captions
        context["body"] = body.replace(CAPTION, LEVELLED_CAPTION)


def on_env_get_outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages that show results are read again when the results or the scenarios change."""
    return outdated(env, site_data(app).fingerprint, env.found_docs, removed)


def on_doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    if shows_results(env, env.docname):
        data = site_data(app)
        env.note_dependency(str(data.view_path))


def setup(app: Sphinx) -> dict[str, Any]:
    # myst-parser 5 reads ``MystReferenceResolver.app``, which Sphinx 9 deprecates: one
    # RemovedInSphinx11Warning per reference it resolves — all the same, from the dependency, ~145
    # per test run (issue 27). Silenced here, where the site loads it, for that message from
    # myst_parser only; remove when myst-parser stops reading it.
    warnings.filterwarnings(
        "ignore",
        message=r".*MystReferenceResolver\.app.* is deprecated",
        category=RemovedInSphinx11Warning,
        module=r"myst_parser\.",
    )
    app.add_config_value("berserk_results", "", "env", types=[str])
    app.add_config_value("berserk_root", "", "env", types=[str])
    app.add_config_value("berserk_corpus", "", "env", types=[str])

    for node_class in (*PLACEHOLDERS, coverage_table, run_summary, scenario_index_table):
        app.add_node(node_class, html=(_skip, None), text=(_skip, None), latex=(_skip, None))

    app.add_node(replay_deferred, html=(visit_replay_deferred, None), text=(_skip, None), latex=(_skip, None))

    app.add_search_language(SearchRussianOnce)
    app.add_domain(BerserkDomain)  # the site's own domain; the standard one stays Sphinx's
    for role in OBJECT_TYPES:  # {rule}`401.7` without the prefix berserk:
        app.add_role(role, BerserkRole())
    app.add_directive("interpretation", InterpretationDirective)
    app.connect("env-purge-doc", purge_results_page)  # the run state lives in the environment
    app.connect("env-merge-info", merge_results_pages)
    app.add_directive("berserk-feature", FeatureDirective)
    app.add_directive("berserk-steps", StepsDirective)
    app.add_directive("berserk-coverage", CoverageDirective)
    app.add_directive("berserk-run", RunDirective)
    app.add_directive("berserk-scenario-index", ScenarioIndexDirective)
    app.add_directive("berserk-changes", ChangesDirective)
    app.add_directive("berserk-corpus-page", CorpusPageDirective)
    app.add_directive("berserk-phrases", PhraseCatalogueDirective)  # the engine's phrase catalogue
    app.add_directive("berserk-card-language", CardLanguageDirective)  # the grammar's constructions
    app.add_directive("berserk-messages", messages_directive())  # the protocol's messages (messages.py)
    app.add_transform(SectionMarkers)

    app.connect("builder-inited", on_builder_inited)
    app.connect("builder-inited", skip_where_nothing_to_do)  # the theme's transforms are registered by then
    app.connect("env-get-outdated", on_env_get_outdated)
    app.connect("doctree-read", on_doctree_read)
    app.connect("doctree-resolved", on_doctree_resolved)
    app.connect("doctree-resolved", index_each_word_once)  # before the page is fed to the search index
    app.connect("build-finished", on_build_finished)
    app.connect("build-finished", on_build_ended, priority=900)  # after the other handlers
    app.connect("write-started", titles_only_tocs)
    app.connect("html-page-context", titles_only_sidebar, priority=400)  # before furo's own handler
    app.connect("html-page-context", on_html_page_context, priority=900)  # after furo's own handler
    app.connect("html-page-context", complete_index_entries)  # before searchindex.js is written
    app.connect("config-inited", on_config_inited)
    app.connect("include-read", on_include_read)
    for script in ("berserk-run.js", "berserk-numbers.js", "berserk.js"):
        app.add_js_file(script)
    app.setup_extension("berserk_rules.site.matrix")  # the engines' matrix page and badges (runner)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 3}
